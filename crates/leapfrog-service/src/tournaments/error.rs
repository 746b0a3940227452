//! Why a tournament's change is refused.

use leapfrog_store::StoreError;

use crate::play::GameError;

/// A refused change of a tournament; nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// No such event.
    #[error("there is no tournament '{0}'")]
    NotFound(String),
    /// A value out of its range: the field and what is wrong.
    #[error("{1}")]
    Invalid(&'static str, String),
    /// A limit reached: its name, its value and what it bounds.
    #[error("{detail}")]
    Limit {
        /// The limit's name, as refusals name it.
        limit: &'static str,
        /// Its value.
        value: u64,
        /// What was refused.
        detail: String,
    },
    /// The event is not open to this change now (started, over, full).
    #[error("{0}")]
    Closed(String),
    /// Not the account's to do.
    #[error("{0}")]
    NotYours(String),
    /// The account is in it already.
    #[error("{0} plays in this tournament already")]
    AlreadyIn(String),
    /// The account does not play in it.
    #[error("{0} does not play in this tournament")]
    NotIn(String),
    /// The account may not play in it: who it would meet, or a bot's
    /// profile.
    #[error("{0}")]
    Consent(String),
    /// A game of it was refused, or the store failed.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl From<StoreError> for TournamentError {
    fn from(e: StoreError) -> Self {
        TournamentError::Game(e.into())
    }
}
