//! The arena (rule book §17): for a fixed time, whoever finishes a game
//! waits to be paired again at once, with a waiting player of a close
//! score but not the opponent just met; and its scoring, lichess's
//! (without berserk): a win 2, a draw 1, a loss 0, and after two wins in
//! a row a player is **on fire** — each game scores double (a win 4, a
//! draw 2) until one is not won.

use super::{DRAW, Entrant, History, Outcome, Pairing, Points, Standing, Tiebreak, WIN};

/// A player waiting to be paired in an arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting {
    /// The player.
    pub entrant: Entrant,
    /// Its arena points.
    pub points: Points,
    /// Whom it met last, if anyone.
    pub last_opponent: Option<Entrant>,
    /// Whether it sat first in its last game.
    pub last_first: Option<bool>,
}

/// A player's arena score: its games' results from its side, in the order
/// they ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArenaRecord {
    /// Points (a win 2, a draw 1; double while on fire).
    pub points: Points,
    /// Whether the last two games or more were won (the next one scores
    /// double).
    pub on_fire: bool,
    /// Games finished.
    pub games: u32,
    /// Games won.
    pub wins: u32,
}

/// The arena score of one player whose games ended as `results` (each
/// `Some(true)` a win, `Some(false)` a loss, `None` a draw).
pub fn arena_points(results: impl IntoIterator<Item = Option<bool>>) -> ArenaRecord {
    let mut r = ArenaRecord::default();
    let mut streak = 0;
    for result in results {
        let factor = if r.on_fire { 2 } else { 1 };
        r.games += 1;
        match result {
            Some(true) => {
                r.points += WIN * factor;
                r.wins += 1;
                streak += 1;
            }
            None => {
                r.points += DRAW * factor;
                streak = 0;
            }
            Some(false) => streak = 0,
        }
        r.on_fire = streak >= 2;
    }
    r
}

/// The result of `g` from `who`'s side, as [`arena_points`] takes it.
pub fn result_for(g: &Pairing, who: Entrant) -> Option<Option<bool>> {
    match g.outcome? {
        Outcome::Draw => Some(None),
        Outcome::FirstWins => Some(Some(who == g.first)),
        Outcome::SecondWins => Some(Some(who == g.second)),
    }
}

/// Pairs the players waiting in an arena: ranked by points (then seed),
/// each in turn with the next one down who is not the opponent it just
/// met; the seats alternate from each one's last game (the higher-ranked
/// player's wish first). Who is left waits for the next to finish.
pub fn arena_pairs(waiting: &[Waiting]) -> Vec<Pairing> {
    let mut ranked: Vec<&Waiting> = waiting.iter().collect();
    ranked.sort_by_key(|w| (std::cmp::Reverse(w.points), w.entrant));
    let mut paired = vec![false; ranked.len()];
    let mut pairs = Vec::new();
    for i in 0..ranked.len() {
        if paired[i] {
            continue;
        }
        let (a, rest) = (ranked[i], i + 1..ranked.len());
        let just_met = |b: &Waiting| a.last_opponent == Some(b.entrant) || b.last_opponent == Some(a.entrant);
        let Some(j) = rest.into_iter().find(|&j| !paired[j] && !just_met(ranked[j])) else { continue };
        paired[i] = true;
        paired[j] = true;
        let b = ranked[j];
        // The higher-ranked player takes the seat it did not have last;
        // with no last game, the first.
        let a_first = a.last_first.map_or(b.last_first != Some(false), |f| !f);
        pairs.push(if a_first {
            Pairing::new(a.entrant, b.entrant)
        } else {
            Pairing::new(b.entrant, a.entrant)
        });
    }
    pairs
}

/// Each player's arena score from `history` (its games in the order
/// they were paired; undecided ones skipped).
pub fn arena_records(history: &History) -> Vec<ArenaRecord> {
    (0..history.players)
        .map(|p| arena_points(history.games().filter_map(|g| g.opponent_of(p).and(result_for(g, p)))))
        .collect()
}

/// An arena's standings: arena points, then games won, then seed (rule
/// book §17).
pub fn arena_standings(history: &History) -> Vec<Standing> {
    let records = arena_records(history);
    let mut order: Vec<Entrant> = (0..history.players).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse((records[p].points, records[p].wins)), p));
    order
        .into_iter()
        .enumerate()
        .map(|(i, p)| Standing {
            entrant: p,
            place: i + 1,
            points: records[p].points,
            tiebreaks: vec![(Tiebreak::Wins, f64::from(records[p].wins))],
            played: records[p].games,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_wins_in_a_row_set_a_player_on_fire_and_a_game_not_won_puts_it_out() {
        // W W W D W L W: 2 + 2 + 4 (on fire) + 2 (a draw, doubled; out) + 2 + 0 + 2.
        let r = arena_points([Some(true), Some(true), Some(true), None, Some(true), Some(false), Some(true)]);
        assert_eq!(r, ArenaRecord { points: 14, on_fire: false, games: 7, wins: 5 });
        assert!(arena_points([Some(true), Some(true)]).on_fire);
    }

    #[test]
    fn arena_standings_rank_by_points_then_wins() {
        let played =
            |first, second, outcome| Pairing { first, second, outcome: Some(outcome), forfeit: false };
        let mut h = History::new(3);
        // 0 beats 1 twice (on fire after the second); 2 draws 1; 2 is not paired again.
        h.rounds.push(super::super::Round { games: vec![played(0, 1, Outcome::FirstWins)], bye: None });
        h.rounds.push(super::super::Round { games: vec![played(1, 2, Outcome::Draw)], bye: None });
        h.rounds.push(super::super::Round { games: vec![played(1, 0, Outcome::SecondWins)], bye: None });
        let table = arena_standings(&h);
        let lines: Vec<(Entrant, Points, u32)> =
            table.iter().map(|s| (s.entrant, s.points, s.played)).collect();
        assert_eq!(lines, [(0, 4, 2), (1, 1, 3), (2, 1, 1)]);
        assert!(arena_records(&h)[0].on_fire);
    }

    #[test]
    fn waiting_players_meet_the_nearest_in_score_but_not_whom_they_just_met() {
        let w = |entrant, points, last_opponent| Waiting { entrant, points, last_opponent, last_first: None };
        let pairs = arena_pairs(&[w(0, 10, Some(1)), w(1, 9, Some(0)), w(2, 8, None), w(3, 1, None)]);
        let met: Vec<(Entrant, Entrant)> = pairs.iter().map(|p| (p.first, p.second)).collect();
        assert_eq!(met, [(0, 2), (1, 3)]);
        // Two who just met wait rather than meet again.
        assert!(arena_pairs(&[w(0, 4, Some(1)), w(1, 4, Some(0))]).is_empty());
    }
}
