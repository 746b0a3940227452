//! Challenges as the API shows them (rule book §15).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::RuleSet;
use crate::profile::Reason;

/// An account in a challenge.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EntrantView {
    /// Its name.
    pub name: String,
    /// Whether it is a bot.
    pub bot: bool,
}

/// A challenge as it stands.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChallengeView {
    /// Its id; once accepted, also its game's.
    pub id: String,
    /// Who sent it.
    pub from: EntrantView,
    /// The account challenged; null: open to anyone with its id.
    #[schema(required = true)]
    pub to: Option<String>,
    /// The rule set of its game.
    pub rules: RuleSet,
    /// How many seats its game has.
    pub players: usize,
    /// The challenger's seat.
    pub seat: usize,
    /// Seat by seat, the accounts seated so far (null: free).
    pub seats: Vec<Option<EntrantView>>,
    /// Seconds a move, if limited.
    #[schema(required = true)]
    pub move_time_limit: Option<u32>,
    /// Whether its game is rated.
    pub rated: bool,
    /// `open`, `accepted`, `declined`, `canceled` or `expired`.
    #[schema(example = "open")]
    pub status: String,
    /// Why it was declined: `generic`, `later`, `too_fast`, `too_slow`, `rules`, `rated`, `casual`,
    /// `no_bot`, `only_bot` or `busy`.
    #[schema(required = true)]
    pub reason: Option<Reason>,
    /// Its game's id, once every seat is taken.
    #[schema(required = true)]
    pub game: Option<String>,
    /// When it was sent (RFC 3339).
    pub created_at: String,
    /// When it expires if still open (RFC 3339).
    pub expires_at: String,
}
