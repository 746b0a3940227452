//! Budgets for enumerations whose cost can grow exponentially.
//!
//! In these games every prefix of a chain of jumps is a move of its own, so
//! the number of legal moves of a position can grow exponentially with the
//! board: an 11×11 Leap Frog board, full but for the cells on even files
//! and ranks, has more moves than can be counted. Every call of
//! [`Position`](crate::Position) that counts, lists or walks moves takes a
//! [`PathBudget`] and gives up cleanly with [`OverBudget`] past it; the
//! `*_unbounded` twins, for tools that know their positions, can run
//! for ever. Whether a move exists at all is never counted:
//! [`Position::has_moves`](crate::Position::has_moves) costs a few bitboard
//! operations on any board.

use thiserror::Error;

/// The most move paths an enumeration may go through before it gives up.
///
/// One path is one move (every prefix of a chain is a move), so a budget
/// of `n` lists or counts up to `n` moves, and a perft visits up to `n`
/// positions along the way. Bulk counting walks fewer paths than it
/// counts, so a count of at most `n` moves never runs out of a budget of
/// `n`; work past the budget is a small constant factor of `n` at most.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PathBudget(u64);

impl PathBudget {
    /// No limit: the enumeration may take exponential time and memory.
    pub const UNLIMITED: PathBudget = PathBudget(u64::MAX);

    /// A budget of `paths` move paths.
    pub const fn new(paths: u64) -> PathBudget {
        PathBudget(paths)
    }

    /// The number of paths allowed.
    pub const fn paths(self) -> u64 {
        self.0
    }
}

impl Default for PathBudget {
    /// One million paths: every position of the presets' boards fits
    /// many times over, and it is spent in tens of milliseconds.
    fn default() -> Self {
        PathBudget(1_000_000)
    }
}

/// An enumeration stopped at its budget: the position has more moves (or
/// the perft more positions) than the budget allows.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Error)]
#[error(
    "more than {budget} move paths to go through (the budget); ask for less: the moves from one cell, a smaller depth"
)]
pub struct OverBudget {
    /// The budget that was exceeded, in paths.
    pub budget: u64,
}

impl OverBudget {
    pub(crate) fn of(budget: PathBudget) -> OverBudget {
        OverBudget { budget: budget.0 }
    }
}
