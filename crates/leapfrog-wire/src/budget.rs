//! The work one request may do in the rules engine.
//!
//! In these games a position's moves can be exponentially many (every
//! prefix of a chain is a move), so every request that counts, lists or
//! walks moves does so within a budget: [`MOVES`] legal moves for a
//! position, [`CELL_MOVES`] for the moves of one cell and their jump tree.
//! Past it the refusal is `over-budget`, naming the budget. Whether a move
//! exists is never counted (the engine answers it off its bitboards).

use jump_capture::{Cell, PathBudget};

use crate::{Invalid, Refusal};

/// The most legal moves one request counts or lists of a position.
pub const MOVES: PathBudget = PathBudget::new(1_000_000);

/// The most moves one request lists from one cell, with their jump tree
/// (a node a move).
pub const CELL_MOVES: PathBudget = PathBudget::new(100_000);

/// Work that fits this many moves is done on the request's own thread.
pub const INLINE: PathBudget = PathBudget::new(20_000);

/// The refusal of a listing past its budget, saying what to do instead.
pub fn too_many_moves(from: Option<Cell>) -> Invalid {
    match from {
        None => Invalid::new(
            Refusal::OverBudget,
            format!(
                "this position has more than {} legal moves, the most one request lists or counts; \
                 ask for the moves of one cell with `from`, or send a move to check it",
                MOVES.paths()
            ),
            "position",
        ),
        Some(cell) => Invalid::new(
            Refusal::OverBudget,
            format!(
                "more than {} moves start on {cell}, the most one request lists from one cell with \
                 their jump tree; send a move to check it",
                CELL_MOVES.paths()
            ),
            "from",
        ),
    }
}
