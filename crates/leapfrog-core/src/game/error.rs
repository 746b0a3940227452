//! What the rules refuse: the game core's errors.

use jump_capture as jc;

/// Why the rules (rule book §11 and the engine) refuse an action on a
/// game, or why a stored game does not replay.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    /// A seat of the game that is not to move.
    #[error("it is player {to_move}'s turn, not player {seat}'s")]
    NotYourTurn {
        /// The player to move.
        to_move: usize,
        /// The seat that asked.
        seat: usize,
    },
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The game waits for players to take its open seats.
    #[error(
        "the game is waiting for players to take its open seats; nothing is played until every seat is held (a seat is left while waiting, not resigned)"
    )]
    Waiting,
    /// The game has started (or ended): seats are no longer joined or left.
    #[error(
        "the game is not waiting for players: its seats can no longer be joined or left (resign instead of leaving)"
    )]
    NotWaiting,
    /// A seat number the game does not have.
    #[error("there is no seat {player}; the game has seats 0 to {}", seats.saturating_sub(1))]
    NoSuchSeat {
        /// The seat asked for.
        player: usize,
        /// How many seats there are.
        seats: usize,
    },
    /// The seat asked for is not open (someone joined it first).
    #[error("seat {player} is not open: someone holds it")]
    SeatTaken {
        /// The seat.
        player: usize,
    },
    /// No open public seat is left.
    #[error("the game has no open public seat left")]
    NoOpenSeat,
    /// A private seat without its invitation.
    #[error("this seat is private: send its invitation (the one its creator was given)")]
    Invitation,
    /// A rematch asked for before the end.
    #[error("the game is not over: a rematch comes after the end")]
    NotOver,
    /// The seat has resigned already.
    #[error("seat {player} has resigned already")]
    AlreadyResigned {
        /// The seat.
        player: usize,
    },
    /// A rated game asked for that §13 does not allow.
    #[error("{0}")]
    NotRateable(String),
    /// A rated game's open seat joined without an account.
    #[error("a rated game's open seats are joined with an account's token (one with the play scope)")]
    RatedNeedsAccount,
    /// An account joining a rated game it already plays in.
    #[error(
        "this account holds seat {player} of this rated game already; an account plays a rated game once"
    )]
    AlreadySeated {
        /// Its seat.
        player: usize,
    },
    /// A move time limit out of bounds.
    #[error("a move time limit of {0} s is not from {min} to {max} s", min = super::MIN_MOVE_LIMIT, max = super::MAX_MOVE_LIMIT)]
    MoveLimit(u32),
    /// The starting position has more legal moves than one request may
    /// list: its game could not be served.
    #[error(
        "this game's starting position has more than {most} legal moves, the most one request lists; \
         choose a smaller board or fewer holes"
    )]
    TooManyMoves {
        /// The most there may be.
        most: u64,
    },
    /// The move does not read (a bad cell, an empty path).
    #[error("{0}")]
    Invalid(super::Unreadable),
    /// The rules refuse the move.
    #[error("{0}")]
    Illegal(#[from] jc::IllegalMove),
    /// A game cannot start with these players.
    #[error("{0}")]
    Players(#[from] jc::PositionError),
    /// A stored game or move that does not read back: a damaged row or a
    /// bug.
    #[error("stored {what} of game {id}: {detail}")]
    Corrupt {
        /// The game.
        id: String,
        /// What did not read.
        what: &'static str,
        /// Why.
        detail: String,
    },
}

impl RuleError {
    /// A [`RuleError::Corrupt`] of game `id`.
    pub fn corrupt(id: &str, what: &'static str, detail: impl ToString) -> RuleError {
        RuleError::Corrupt { id: id.to_string(), what, detail: detail.to_string() }
    }
}
