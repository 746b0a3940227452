//! Named strengths, and the search as a player.

use std::fmt;
use std::str::FromStr;

use jump_capture::{Move, Position};

use std::sync::atomic::AtomicBool;

use crate::{Budget, GreedyPlayer, Habits, LookaheadPlayer, Player, RandomPlayer, Searcher};

/// The most milliseconds `easy` and `medium` think about a move.
pub const LEVEL_MILLIS: u64 = 2_000;

/// A strength a person can ask for, weakest first.
///
/// | level | plays |
/// |---|---|
/// | `random` | a uniformly random legal move |
/// | `greedy` | a move of the largest immediate gain |
/// | `lookahead` | the largest "my gain minus the best gain it leaves the next player" |
/// | `easy` | search, 300 iterations a move |
/// | `medium` | search, 3,000 iterations a move |
/// | `hard` | search, 2 seconds a move (on the threads it is given) |
/// | `mcts-N` / `mcts-Nms` | search, N iterations / N milliseconds a move |
///
/// Every search level plays exactly near the end (see [`crate::analyse`]). The
/// levels counted in iterations play the same moves on every machine for
/// the same seed; `hard` and `mcts-Nms` depend on the machine's speed.
/// `easy` and `medium` also stop at [`LEVEL_MILLIS`], which only a
/// position of very many moves reaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Uniformly random.
    Random,
    /// Largest immediate gain.
    Greedy,
    /// One-reply lookahead.
    Lookahead,
    /// Search, 300 iterations.
    Easy,
    /// Search, 3,000 iterations.
    Medium,
    /// Search, 2 seconds.
    Hard,
    /// Search within a given budget.
    Search(Budget),
}

impl Level {
    /// The named levels, weakest first.
    pub const NAMED: [Level; 6] =
        [Level::Random, Level::Greedy, Level::Lookahead, Level::Easy, Level::Medium, Level::Hard];

    /// The search budget of a search level.
    pub fn budget(self) -> Option<Budget> {
        match self {
            Level::Random | Level::Greedy | Level::Lookahead => None,
            Level::Easy => Some(Budget::IterationsWithin { iterations: 300, millis: LEVEL_MILLIS }),
            Level::Medium => Some(Budget::IterationsWithin { iterations: 3_000, millis: LEVEL_MILLIS }),
            Level::Hard => Some(Budget::Millis(2_000)),
            Level::Search(budget) => Some(budget),
        }
    }

    /// A player of this level drawing from `seed`, searching on one thread.
    pub fn player(self, seed: u64) -> Box<dyn Player> {
        self.player_on(seed, 1)
    }

    /// [`Level::player`], a search level searching on as many of `threads`
    /// threads as its budget uses ([`Budget::threads_of`]: all of them for
    /// a budget in time, one for a budget in iterations).
    pub fn player_on(self, seed: u64, threads: usize) -> Box<dyn Player> {
        match self {
            Level::Random => Box::new(RandomPlayer::new(seed)),
            Level::Greedy => Box::new(GreedyPlayer::new(seed)),
            Level::Lookahead => Box::new(LookaheadPlayer::new(seed)),
            level => Box::new(SearchPlayer {
                name: level.to_string(),
                budget: level.budget().unwrap_or(Budget::Iterations(1)),
                seed,
                habits: Habits::new(),
                searcher: Searcher::new(),
                threads: level.budget().map_or(1, |b| b.threads_of(threads)),
            }),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Random => f.write_str("random"),
            Level::Greedy => f.write_str("greedy"),
            Level::Lookahead => f.write_str("lookahead"),
            Level::Easy => f.write_str("easy"),
            Level::Medium => f.write_str("medium"),
            Level::Hard => f.write_str("hard"),
            Level::Search(Budget::Iterations(n) | Budget::IterationsWithin { iterations: n, .. }) => {
                write!(f, "mcts-{n}")
            }
            Level::Search(Budget::Millis(ms)) => write!(f, "mcts-{ms}ms"),
        }
    }
}

/// A level name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no level {0:?}: say random, greedy, lookahead, easy, medium, hard, mcts-N (iterations, 1 to 10000000) or mcts-Nms (milliseconds, 1 to 60000)"
)]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        let err = || ParseLevelError(s.to_string());
        if let Some(level) = Level::NAMED.into_iter().find(|l| l.to_string() == s) {
            return Ok(level);
        }
        let budget = s.strip_prefix("mcts-").ok_or_else(err)?;
        let (digits, ms) = match budget.strip_suffix("ms") {
            Some(d) => (d, true),
            None => (budget, false),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let n: u64 = digits.parse().map_err(|_| err())?;
        match (ms, n) {
            (true, 1..=60_000) => Ok(Level::Search(Budget::Millis(n))),
            (false, 1..=10_000_000) => Ok(Level::Search(Budget::Iterations(n))),
            _ => Err(err()),
        }
    }
}

/// The search as a player: [`analyse_with`](crate::analyse_with) within a budget, each move
/// from a seed made of the player's seed and the ply, expecting of the
/// others what it has [observed](Player::observe) of them in this game,
/// and going on from its last move's tree where it can (a [`Searcher`]).
#[derive(Debug, Clone)]
pub struct SearchPlayer {
    name: String,
    budget: Budget,
    seed: u64,
    habits: Habits,
    searcher: Searcher,
    /// Threads it searches on.
    threads: usize,
}

impl SearchPlayer {
    /// A search player within `budget`, drawing from `seed`.
    pub fn new(budget: Budget, seed: u64) -> SearchPlayer {
        SearchPlayer {
            name: Level::Search(budget).to_string(),
            budget,
            seed,
            habits: Habits::new(),
            searcher: Searcher::new(),
            threads: 1,
        }
    }
}

impl Player for SearchPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, pos: &Position) -> Option<Move> {
        // A different stream for each ply, the same for the same game.
        let seed = self.seed ^ u64::from(pos.ply()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let never = AtomicBool::new(false);
        self.searcher.analyse(pos, self.budget, seed, &self.habits, &never, self.threads).map(|a| a.best)
    }

    fn observe(&mut self, before: &Position, mv: &Move) {
        self.habits.observe(before, mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_by_time_take_the_threads_offered_and_searches_by_iterations_one() {
        assert_eq!(Budget::Millis(2_000).threads_of(2), 2);
        assert_eq!(Budget::Millis(2_000).threads_of(0), 1);
        assert_eq!(Budget::Iterations(300).threads_of(2), 1);
        assert_eq!(Budget::IterationsWithin { iterations: 300, millis: 2_000 }.threads_of(2), 1);
        let threads = |level: Level| level.budget().map(|b| b.threads_of(2));
        assert_eq!(threads(Level::Hard), Some(2));
        assert_eq!(threads(Level::Medium), Some(1));
        assert_eq!(threads(Level::Greedy), None);
    }

    #[test]
    fn level_names_round_trip() {
        for level in Level::NAMED
            .into_iter()
            .chain([Level::Search(Budget::Iterations(5000)), Level::Search(Budget::Millis(250))])
        {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
        }
        for bad in ["", "Hard", "mcts-", "mcts-0", "mcts-x", "mcts-10000001", "mcts-60001ms", "mcts--5"] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
    }
}
