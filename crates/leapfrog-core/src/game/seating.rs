//! Where a game stands with its seats (rule book §11): waiting, started
//! or over, the result resignations make, and the move time limit.

use jump_capture as jc;
use jump_search::Level;

use super::{Game, Holder, RuleError};

/// The fewest seconds a move time limit may give.
pub const MIN_MOVE_LIMIT: u32 = 5;
/// The most seconds a move time limit may give: two weeks (the longest
/// days-per-move control).
pub const MAX_MOVE_LIMIT: u32 = 14 * 24 * 3600;
/// The days-per-move controls of long games (rule book §11).
pub const DAYS_PER_MOVE: [u8; 7] = [1, 2, 3, 5, 7, 10, 14];
/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;
/// The level the computer plays a resigned seat at, with three or more
/// players.
pub const RESIGNED_LEVEL: Level = Level::Medium;

/// Where a game stands with its seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    /// A seat is open: nothing can be played yet.
    Waiting,
    /// Every seat is held and the game is not over.
    Started,
    /// The position is over, or resignations ended the game.
    Over,
}

/// The result of a game with resigned seats ranked as §11 says: every seat
/// that did not resign before every seat that did; each group by the end
/// rule (the scores, or "who cannot move loses", with `stuck` the seat that
/// cannot); a resigned seat never shares a win (nor wins at all).
pub fn decide(rule: jc::EndRule, scores: &[u32], stuck: Option<usize>, resigned: &[bool]) -> jc::Outcome {
    let key = |p: usize| {
        let base = match rule {
            jc::EndRule::HighestScore | jc::EndRule::PiecesLeft => u64::from(scores[p]),
            jc::EndRule::NoMoveLoses => u64::from(stuck != Some(p)),
        };
        (!resigned[p], base)
    };
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse(key(p)), p));
    let standings: Vec<jc::Standing> = order
        .iter()
        .map(|&p| jc::Standing {
            player: p,
            score: scores[p],
            rank: 1 + order.iter().filter(|&&q| key(q) > key(p)).count(),
        })
        .collect();
    let mut winners: Vec<usize> =
        standings.iter().filter(|s| s.rank == 1 && !resigned[s.player]).map(|s| s.player).collect();
    winners.sort_unstable();
    jc::Outcome { winners, standings, solitaire: None }
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameResult {
    /// Winners and standings.
    pub outcome: jc::Outcome,
    /// Which seats resigned (or ran out of time), in player order.
    pub resigned: Vec<bool>,
    /// Whether resignations ended the game before its position was over.
    pub by_resignation: bool,
    /// Whether it is a rated game aborted: ended before every seat made
    /// its first move, so over, unrated and counted nowhere (§13).
    pub aborted: bool,
    /// A rated game's rating changes, one per player (empty otherwise).
    pub ratings: Vec<RatingChange>,
}

/// A player's rating before and after a rated game (rule book §13).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChange {
    /// The player.
    pub player: usize,
    /// Rating and deviation before the game.
    pub before: (f64, f64),
    /// Rating and deviation after it.
    pub after: (f64, f64),
}

impl Game {
    /// Waiting for players, started, or over.
    pub fn status(&self) -> GameStatus {
        let resigned = self.seats.iter().filter(|s| s.resigned.is_some()).count();
        let people = self.seats.iter().filter(|s| s.holder == Holder::Person).count();
        let people_resigned =
            self.seats.iter().filter(|s| s.holder == Holder::Person && s.resigned.is_some()).count();
        if self.stuck
            || (self.seats.len() == 2 && resigned > 0)
            || (people > 0 && people_resigned == people)
            || self.resigned_before_moving()
        {
            GameStatus::Over
        } else if self.seats.iter().any(|s| matches!(s.holder, Holder::Open(_))) {
            GameStatus::Waiting
        } else {
            GameStatus::Started
        }
    }

    /// Whether a seat of a rated game resigned (or ran out of time)
    /// before its first move, which ends the game at once, aborted (§13).
    /// No one passes (§4): seat `p` has moved once the ply is past `p`,
    /// and the ply stands still once the game is over, so a seat resigned
    /// while the ply is not past it resigned before moving.
    fn resigned_before_moving(&self) -> bool {
        let ply = self.position.ply() as usize;
        self.rated && self.seats.iter().any(|s| s.resigned.is_some() && ply <= s.player)
    }

    /// Whether it is a rated game that ended before every seat made its
    /// first move: over, unrated, counted nowhere (rule book §13).
    pub fn aborted(&self) -> bool {
        self.rated && (self.position.ply() as usize) < self.seats.len() && self.status() == GameStatus::Over
    }

    /// The result, once over.
    pub fn result(&self) -> Option<GameResult> {
        if self.status() != GameStatus::Over {
            return None;
        }
        let resigned: Vec<bool> = self.seats.iter().map(|s| s.resigned.is_some()).collect();
        let stuck = self.stuck.then(|| self.position.to_move());
        let mut outcome = decide(self.rules.spec().end, self.position.scores(), stuck, &resigned);
        outcome.solitaire = self.position.solitaire();
        let ratings = self.rating_changes.clone().unwrap_or_default();
        let aborted = self.aborted();
        if aborted {
            // Nobody wins an aborted game; the standings tell who resigned.
            outcome.winners.clear();
        }
        Some(GameResult { outcome, resigned, by_resignation: !self.stuck, aborted, ratings })
    }

    /// When the seat to move runs out of time (Unix milliseconds): while
    /// the game is started with a move time limit and a person who has not
    /// resigned is to move.
    pub fn turn_ends_at(&self) -> Option<i64> {
        let limit = self.move_limit?;
        let seat = self.seats.get(self.position.to_move())?;
        (self.status() == GameStatus::Started && seat.holder == Holder::Person && seat.resigned.is_none())
            .then(|| self.turn_at.saturating_add(i64::from(limit) * 1000))
    }

    /// Refuses a move while the game waits for players or is over.
    pub fn check_playable(&self) -> Result<(), RuleError> {
        match self.status() {
            GameStatus::Waiting => Err(RuleError::Waiting),
            GameStatus::Over => Err(RuleError::Over),
            GameStatus::Started => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigned_seats_rank_after_the_others_whatever_their_scores() {
        let o = decide(jc::EndRule::HighestScore, &[30, 10, 20], None, &[true, false, false]);
        let order: Vec<(usize, usize)> = o.standings.iter().map(|s| (s.player, s.rank)).collect();
        assert_eq!(order, [(2, 1), (1, 2), (0, 3)]);
        assert_eq!(o.winners, [2]);
    }

    #[test]
    fn a_resigned_seat_never_shares_a_win() {
        let o = decide(jc::EndRule::HighestScore, &[5, 5, 5], None, &[false, true, false]);
        assert_eq!(o.winners, [0, 2]);
        assert_eq!(o.standings.iter().find(|s| s.player == 1).map(|s| s.rank), Some(3));
    }

    #[test]
    fn resigned_seats_rank_among_themselves_by_score() {
        let o = decide(jc::EndRule::HighestScore, &[1, 9, 4, 7], None, &[true, false, true, true]);
        let order: Vec<usize> = o.standings.iter().map(|s| s.player).collect();
        assert_eq!(order, [1, 3, 2, 0]);
    }

    #[test]
    fn with_two_players_the_one_who_did_not_resign_wins_even_when_stuck() {
        let o = decide(jc::EndRule::NoMoveLoses, &[0, 0], Some(1), &[true, false]);
        assert_eq!(o.winners, [1]);
    }
}
