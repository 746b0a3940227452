//! Why an action of the games service was refused or failed: what the
//! rules refuse (the core's [`RuleError`]), and what only the service
//! knows — a game that is not there, a token that is no seat, a lost race,
//! a client's caps, the database.

use leapfrog_core::game::RuleError;
use leapfrog_store::StoreError;

/// Why an action on a game was refused (a client's doing) or failed (the
/// server's).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// The rules refuse it, or the stored game does not replay.
    #[error(transparent)]
    Game(#[from] RuleError),
    /// No game has this id.
    #[error("there is no game {0}")]
    NotFound(String),
    /// The token holds no seat of this game.
    #[error("this token is not a seat of this game")]
    NotASeat,
    /// The seat is no longer to move because its own move at `ply` was
    /// just played: a request without an expected version that crossed
    /// that move (a lost race, not a turn out of order).
    #[error(
        "the game moved on while this request was on its way: player {player}'s move at ply {ply} was \
         played first, and it is now player {to_move}'s turn; read the game again"
    )]
    Moved {
        /// The ply of the move it crossed.
        ply: u32,
        /// The seat that asked (and made that move).
        player: usize,
        /// The player to move now.
        to_move: usize,
    },
    /// An idempotency key that made another move.
    #[error("the Idempotency-Key '{key}' was used for the move {first}; a different request needs a new key")]
    KeyReused {
        /// The key.
        key: String,
        /// The move it made, in notation.
        first: String,
    },
    /// The creator has as many unfinished games as they may.
    #[error(
        "this client has {limit} games that are neither over nor abandoned, the most it may have; \
         finish some first"
    )]
    TooManyGames {
        /// The cap.
        limit: u32,
    },
    /// An account to be seated has as many unfinished games as an account
    /// may (from any network; a challenge's games count too).
    #[error(
        "{account} has {limit} games that are neither over nor abandoned, the most an account may have; \
         one must end first"
    )]
    AccountTooManyGames {
        /// The account's name.
        account: String,
        /// The cap.
        limit: u32,
    },
    /// The creator has their most unfinished games of computer seats alone.
    #[error(
        "this client has {limit} unfinished games where the computer holds every seat, its most; \
         let one end first"
    )]
    TooManyComputerGames {
        /// The cap.
        limit: u32,
    },
    /// The client's expected version is not the game's.
    #[error("the game is at version {version}, not {expected}; read it again")]
    StaleVersion {
        /// The game's version.
        version: i64,
        /// What the client expected, as it sent it.
        expected: String,
    },
    /// Another move was committed between reading the game and writing.
    #[error("another move was made first; read the game again and retry")]
    Conflict,
    /// A ply the game has not reached.
    #[error("game {id} is at ply {ply}; there is no ply {asked} yet")]
    NoSuchPly {
        /// The game.
        id: String,
        /// Its ply.
        ply: u32,
        /// The ply asked for.
        asked: u32,
    },
    /// Who may sit with whom refuses it (rule book §15).
    #[error(transparent)]
    Consent(#[from] super::consent::Refused),
    /// The system has no randomness for a token.
    #[error("no randomness for a seat token: {0}")]
    Randomness(#[from] rand::rngs::SysError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl GameError {
    /// A stored game or move of game `id` that does not read back.
    pub fn corrupt(id: &str, what: &'static str, detail: impl ToString) -> GameError {
        GameError::Game(RuleError::corrupt(id, what, detail))
    }
}
