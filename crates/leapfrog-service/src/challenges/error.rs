//! Why a challenge, or a change of one, was refused.

use leapfrog_store::StoreError;
use leapfrog_wire::profile::Reason;

use crate::play::GameError;
use crate::play::consent::Refused;

/// Why a challenge, or a change of one, was refused.
#[derive(Debug, thiserror::Error)]
pub enum ChallengeError {
    /// No challenge has this id.
    #[error("there is no challenge {0}")]
    NotFound(String),
    /// A challenge to oneself.
    #[error("a challenge goes to another account than one's own")]
    Yourself,
    /// What the account it goes to (or the one accepting) does not take.
    #[error("{detail}")]
    Declined {
        /// The key a program acts on.
        reason: Reason,
        /// In words.
        detail: String,
    },
    /// A person who has not agreed to rated games against bots.
    #[error("{0} has not agreed to rated games against bots (the account's setting rated_against_bots)")]
    OptIn(String),
    /// Not the challenger, or not the account it was sent to.
    #[error("{0}")]
    NotYours(&'static str),
    /// No longer open.
    #[error("this challenge is {0}")]
    Closed(&'static str),
    /// Open past its time.
    #[error("this challenge expired; send another")]
    Expired,
    /// The account holds a seat of it already.
    #[error("this account holds seat {0} of this challenge already")]
    AlreadyIn(usize),
    /// A seat out of range, or a number of seats out of range.
    #[error("{0}")]
    Seats(String),
    /// The game it asks for cannot be made, or the store failed.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl From<Refused> for ChallengeError {
    fn from(e: Refused) -> ChallengeError {
        match e {
            Refused::OptIn(name) => ChallengeError::OptIn(name),
            Refused::Declined { reason, detail } => ChallengeError::Declined { reason, detail },
            Refused::BotsPlayChallenges => ChallengeError::Game(GameError::Consent(e)),
        }
    }
}

impl From<StoreError> for ChallengeError {
    fn from(e: StoreError) -> ChallengeError {
        ChallengeError::Game(GameError::Store(e))
    }
}
