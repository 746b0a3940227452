//! Round-robin schedules by Berger tables (FIDE Handbook C.05, annex 1):
//! every player meets every other once, and the seats alternate as evenly
//! as a table allows. For an odd number of players a dummy is added; who
//! meets it has the round's bye. A double round-robin plays the table
//! twice, the second time with the seats swapped.

use super::{Entrant, Pairing, Round};

/// Round `r` (0-based) of the Berger table of `players` players; `double`:
/// rounds past the first cycle repeat it with the seats swapped.
///
/// The table numbers players 1..=n (n even, a dummy added to an odd
/// field): n is fixed and the others turn on a wheel of n − 1. In round
/// r (1-based) the wheel's player a = (r − 1)·n/2 mod (n − 1) + 1 meets
/// n (a first in odd rounds, n first in even ones), and for k = 1 … n/2
/// − 1, a + k (first) meets a − k (second), counted round the wheel.
pub fn berger_round(players: usize, r: usize) -> Round {
    let n = players + players % 2;
    if n < 2 {
        return Round::default();
    }
    let cycle = n - 1;
    let (swap, r) = ((r / cycle) % 2 == 1, r % cycle);
    // Wheel positions 0..n-1 stand for players 1..n-1; `None` is n.
    let a = (r * (n / 2)) % cycle;
    let on_wheel = |x: isize| Some(x.rem_euclid(cycle as isize) as usize);
    let mut boards = vec![if r % 2 == 0 { (Some(a), None) } else { (None, Some(a)) }];
    for k in 1..n / 2 {
        boards.push((on_wheel(a as isize + k as isize), on_wheel(a as isize - k as isize)));
    }
    // Player number i (1-based) is roster entry i - 1; n is the last.
    let entrant = |x: Option<usize>| x.unwrap_or(n - 1);
    let mut round = Round::default();
    for (first, second) in boards {
        let (mut f, mut s): (Entrant, Entrant) = (entrant(first), entrant(second));
        if swap {
            (f, s) = (s, f);
        }
        if players % 2 == 1 && f == n - 1 {
            round.bye = Some(s);
        } else if players % 2 == 1 && s == n - 1 {
            round.bye = Some(f);
        } else {
            round.games.push(Pairing::new(f, s));
        }
    }
    round
}

/// Every round of a round-robin of `players` players: n − 1 rounds (n
/// the field made even), twice as many for a `double` one.
pub fn berger_rounds(players: usize, double: bool) -> Vec<Round> {
    let n = players + players % 2;
    let rounds = n.saturating_sub(1) * if double { 2 } else { 1 };
    (0..rounds).map(|r| berger_round(players, r)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round as FIDE prints it: "1-6 2-5 3-4", players numbered from 1.
    fn printed(round: &Round) -> String {
        let games: Vec<String> =
            round.games.iter().map(|g| format!("{}-{}", g.first + 1, g.second + 1)).collect();
        games.join(" ")
    }

    #[test]
    fn six_players_follow_fides_berger_table() {
        let rounds: Vec<String> = berger_rounds(6, false).iter().map(printed).collect();
        assert_eq!(rounds, ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]);
    }

    #[test]
    fn four_players_follow_fides_berger_table_and_the_second_cycle_swaps_seats() {
        let rounds: Vec<String> = berger_rounds(4, true).iter().map(printed).collect();
        assert_eq!(rounds, ["1-4 2-3", "4-3 1-2", "2-4 3-1", "4-1 3-2", "3-4 2-1", "4-2 1-3"]);
    }

    #[test]
    fn with_an_odd_field_who_would_meet_the_dummy_has_the_bye() {
        let rounds = berger_rounds(5, false);
        assert_eq!(rounds.len(), 5);
        // Player 6 is the dummy: round 1's "1-6" is 1's bye.
        assert_eq!((printed(&rounds[0]), rounds[0].bye), ("2-5 3-4".to_string(), Some(0)));
        let byes: Vec<Entrant> = rounds.iter().filter_map(|r| r.bye).collect();
        assert_eq!(byes, [0, 3, 1, 4, 2]);
    }

    #[test]
    fn one_player_or_none_plays_no_round() {
        assert!(berger_rounds(0, false).is_empty());
        assert_eq!(berger_rounds(1, false), vec![Round { games: vec![], bye: Some(0) }]);
    }
}
