//! The JSON forms of rule sets, positions, moves and results: what
//! requests send, what responses and the database hold. Each type derives
//! its OpenAPI schema; the rules crate knows nothing of JSON, and these
//! types know nothing of HTTP.

pub mod game;
pub mod position;
pub mod resolve;
pub mod rules;

pub use position::{JumpTree, MoveInput, MoveView, Outcome, PositionInput, PositionView, Standing, Status};
pub use resolve::stored_rules;
pub use rules::{PresetId, RuleSet, Rules};

/// The kinds of refusal of a well-formed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The rule set is invalid.
    InvalidRules,
    /// The position string or fields are invalid.
    InvalidPosition,
    /// A cell or move string could not be read.
    InvalidNotation,
    /// The move is not legal here.
    IllegalMove,
    /// Some other value is out of range (players, limit, cursor).
    InvalidValue,
    /// The game is over: no more moves.
    GameOver,
}

/// A value that reads as JSON but that the rules refuse: what is wrong,
/// and the field at fault as a dotted path (`rules.rows`, `move.path[1]`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {detail}")]
pub struct Invalid {
    /// Which kind of refusal.
    pub kind: Refusal,
    /// What is wrong, in words a user can act on.
    pub detail: String,
    /// Where.
    pub field: String,
}

impl Invalid {
    /// A refusal of `field`.
    pub fn new(kind: Refusal, detail: impl ToString, field: &str) -> Invalid {
        Invalid { kind, detail: detail.to_string(), field: field.to_string() }
    }
}
