//! The events of an account's log (rule book §15), typed as a game's are:
//! one enum, [`AccountEventData`], whose variant is the event's name (its
//! SSE `event:` and its webhook `type`) and whose content is its data. The
//! service encodes every account event through it, the bot client and the
//! page read it, and each kind's data has its OpenAPI schema.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Outcome;
use crate::challenge::ChallengeView;

/// An account's event: its name and its data.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", content = "data", rename_all = "snake_case")]
pub enum AccountEventData {
    /// A challenge sent to the account, or by it (also each open one at
    /// the start of a fresh stream).
    Challenge(ChallengeView),
    /// A challenge of the account canceled (by its sender, or as an
    /// account was deleted).
    ChallengeCanceled(ChallengeView),
    /// A challenge of the account declined, with the reason.
    ChallengeDeclined(ChallengeView),
    /// A game of the account started (also each unfinished one at the
    /// start of a fresh stream).
    GameStarted(GameStartedEvent),
    /// The account's seat is to move.
    YourTurn(YourTurnEvent),
    /// A game of the account is over.
    GameOver(AccountGameOverEvent),
    /// A vacation began or ended, or a vacation day was spent.
    Vacation(VacationEvent),
    /// A webhook endpoint of the account was switched off.
    WebhookDisabled(WebhookDisabledEvent),
    /// A tournament the account plays in started.
    TournamentStarted(TournamentStartedEvent),
    /// The account was paired in a tournament: its game (or a bye).
    TournamentPaired(TournamentPairedEvent),
    /// A tournament the account played in is over: its place and points.
    TournamentOver(TournamentOverEvent),
}

/// The name of an account's event, as streams and webhooks give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountEventKind {
    /// Data: `ChallengeView`.
    Challenge,
    /// Data: `ChallengeView`.
    ChallengeCanceled,
    /// Data: `ChallengeView`, with its `reason`.
    ChallengeDeclined,
    /// Data: `GameStartedEvent`.
    GameStarted,
    /// Data: `YourTurnEvent`.
    YourTurn,
    /// Data: `AccountGameOverEvent`.
    GameOver,
    /// Data: `VacationEvent`.
    Vacation,
    /// Data: `WebhookDisabledEvent`.
    WebhookDisabled,
    /// Data: `TournamentStartedEvent`.
    TournamentStarted,
    /// Data: `TournamentPairedEvent`.
    TournamentPaired,
    /// Data: `TournamentOverEvent`.
    TournamentOver,
}

impl AccountEventKind {
    /// Every kind, in the order the API lists them.
    pub const ALL: [AccountEventKind; 11] = [
        AccountEventKind::Challenge,
        AccountEventKind::ChallengeCanceled,
        AccountEventKind::ChallengeDeclined,
        AccountEventKind::GameStarted,
        AccountEventKind::YourTurn,
        AccountEventKind::GameOver,
        AccountEventKind::Vacation,
        AccountEventKind::WebhookDisabled,
        AccountEventKind::TournamentStarted,
        AccountEventKind::TournamentPaired,
        AccountEventKind::TournamentOver,
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            AccountEventKind::Challenge => "challenge",
            AccountEventKind::ChallengeCanceled => "challenge_canceled",
            AccountEventKind::ChallengeDeclined => "challenge_declined",
            AccountEventKind::GameStarted => "game_started",
            AccountEventKind::YourTurn => "your_turn",
            AccountEventKind::GameOver => "game_over",
            AccountEventKind::Vacation => "vacation",
            AccountEventKind::WebhookDisabled => "webhook_disabled",
            AccountEventKind::TournamentStarted => "tournament_started",
            AccountEventKind::TournamentPaired => "tournament_paired",
            AccountEventKind::TournamentOver => "tournament_over",
        }
    }

    /// The kind named `name`, if one is.
    pub fn of_name(name: &str) -> Option<AccountEventKind> {
        AccountEventKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl AccountEventData {
    /// Its kind.
    pub fn kind(&self) -> AccountEventKind {
        match self {
            AccountEventData::Challenge(_) => AccountEventKind::Challenge,
            AccountEventData::ChallengeCanceled(_) => AccountEventKind::ChallengeCanceled,
            AccountEventData::ChallengeDeclined(_) => AccountEventKind::ChallengeDeclined,
            AccountEventData::GameStarted(_) => AccountEventKind::GameStarted,
            AccountEventData::YourTurn(_) => AccountEventKind::YourTurn,
            AccountEventData::GameOver(_) => AccountEventKind::GameOver,
            AccountEventData::Vacation(_) => AccountEventKind::Vacation,
            AccountEventData::WebhookDisabled(_) => AccountEventKind::WebhookDisabled,
            AccountEventData::TournamentStarted(_) => AccountEventKind::TournamentStarted,
            AccountEventData::TournamentPaired(_) => AccountEventKind::TournamentPaired,
            AccountEventData::TournamentOver(_) => AccountEventKind::TournamentOver,
        }
    }

    /// Its data as JSON, as streams send it and the log keeps it.
    ///
    /// # Errors
    ///
    /// None for these plain values; serde's error type says so.
    pub fn data_json(&self) -> Result<String, serde_json::Error> {
        match self {
            AccountEventData::Challenge(c)
            | AccountEventData::ChallengeCanceled(c)
            | AccountEventData::ChallengeDeclined(c) => serde_json::to_string(c),
            AccountEventData::GameStarted(e) => serde_json::to_string(e),
            AccountEventData::YourTurn(e) => serde_json::to_string(e),
            AccountEventData::GameOver(e) => serde_json::to_string(e),
            AccountEventData::Vacation(e) => serde_json::to_string(e),
            AccountEventData::WebhookDisabled(e) => serde_json::to_string(e),
            AccountEventData::TournamentStarted(e) => serde_json::to_string(e),
            AccountEventData::TournamentPaired(e) => serde_json::to_string(e),
            AccountEventData::TournamentOver(e) => serde_json::to_string(e),
        }
    }

    /// The event named `kind` whose data is `data` (JSON), as a stream or
    /// a webhook delivers it.
    ///
    /// # Errors
    ///
    /// An unknown kind, or data that is not that kind's.
    pub fn read(kind: &str, data: &str) -> Result<AccountEventData, serde_json::Error> {
        let data: serde_json::Value = serde_json::from_str(data)?;
        serde_json::from_value(serde_json::json!({ "kind": kind, "data": data }))
    }

    /// The game it concerns, for the kinds that concern one.
    pub fn game(&self) -> Option<&str> {
        match self {
            AccountEventData::GameStarted(e) => Some(&e.game),
            AccountEventData::YourTurn(e) => Some(&e.game),
            AccountEventData::GameOver(e) => Some(&e.game),
            AccountEventData::Vacation(VacationEvent::Day { game, .. }) => Some(game),
            AccountEventData::TournamentPaired(e) => e.game.as_deref(),
            _ => None,
        }
    }
}

/// A player of a game just started, as an account's event names them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StartedPlayer {
    /// Their name.
    pub name: String,
    /// Whether the seat is a bot account's.
    pub bot: bool,
}

/// The data of `game_started`: a game of the account has every seat taken.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameStartedEvent {
    /// The game's id.
    pub game: String,
    /// The account's seat.
    pub seat: usize,
    /// Every seat's player, in turn order.
    pub players: Vec<StartedPlayer>,
    /// Whether it is rated.
    pub rated: bool,
    /// Seconds a move, if limited.
    #[schema(required = true)]
    pub move_time_limit: Option<u32>,
}

/// The data of `your_turn`: the account's seat is to move.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct YourTurnEvent {
    /// The game's id.
    pub game: String,
    /// The seat to move.
    pub seat: usize,
    /// The ply to play.
    pub ply: u32,
    /// When the turn ends (RFC 3339), if timed.
    #[schema(required = true)]
    pub deadline: Option<String>,
    /// Milliseconds left then, if timed.
    #[schema(required = true)]
    pub time_left_ms: Option<i64>,
}

/// A seat's rating change at a rated game's end (rounded to a tenth).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventRatingChange {
    /// The rating pool.
    #[schema(required = true)]
    pub pool: Option<String>,
    /// The rating before.
    pub before: f64,
    /// The rating after.
    pub after: f64,
    /// The deviation after.
    pub deviation: f64,
}

/// The data of `game_over` on an account's log: the result, seen from the
/// account's seat.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountGameOverEvent {
    /// The game's id.
    pub game: String,
    /// The account's seat.
    pub seat: usize,
    /// The result.
    pub result: Outcome,
    /// The seat's rating change, when the game was rated (and counted).
    #[schema(required = true)]
    pub rating: Option<EventRatingChange>,
}

/// The data of `vacation`, by its `reason`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum VacationEvent {
    /// A vacation began.
    Started {
        /// When it ends (RFC 3339).
        until: String,
        /// Vacation days left after it.
        days_left: i64,
    },
    /// A vacation ended (the whole days not begun given back).
    Ended {
        /// Vacation days left.
        days_left: i64,
    },
    /// A vacation day was spent at a deadline: the turn has a day more.
    Day {
        /// The game's id.
        game: String,
        /// The account's seat.
        seat: usize,
        /// The turn's new end (RFC 3339).
        #[schema(required = true)]
        deadline: Option<String>,
    },
}

/// The data of `webhook_disabled`: an endpoint switched off.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct WebhookDisabledEvent {
    /// The endpoint's id.
    pub webhook: String,
    /// Its URL, its query redacted.
    pub url: String,
    /// Why.
    pub reason: String,
}

/// The data of `tournament_started`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentStartedEvent {
    /// The tournament's id.
    pub tournament: String,
    /// Its name.
    pub name: String,
    /// Its players.
    pub players: usize,
}

/// The data of `tournament_paired`: the account's game of a round, or its
/// bye.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentPairedEvent {
    /// The tournament's id.
    pub tournament: String,
    /// The round, from 1.
    pub round: u32,
    /// The game's id; null for a bye.
    #[schema(required = true)]
    pub game: Option<String>,
    /// The opponent's name; null for a bye.
    #[schema(required = true)]
    pub opponent: Option<String>,
    /// The account's seat (0 moves first); null for a bye.
    #[schema(required = true)]
    pub seat: Option<usize>,
}

/// The data of `tournament_over`: the account's place and points.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TournamentOverEvent {
    /// The tournament's id.
    pub tournament: String,
    /// The account's place, from 1.
    pub place: usize,
    /// Its points (a win 1, a draw ½; an arena's by its own scoring).
    pub points: f64,
    /// Players in the standings.
    pub players: usize,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn every_kind_is_named_as_serde_names_it_and_read_back_by_its_name() {
        for kind in AccountEventKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.name());
            assert_eq!(AccountEventKind::of_name(kind.name()), Some(kind));
        }
        assert_eq!(AccountEventKind::of_name("move"), None);
    }

    #[test]
    fn an_event_is_read_back_from_its_name_and_data() {
        let turn = AccountEventData::YourTurn(YourTurnEvent {
            game: "g".into(),
            seat: 1,
            ply: 4,
            deadline: None,
            time_left_ms: None,
        });
        let data = turn.data_json().unwrap();
        assert_eq!(data, r#"{"game":"g","seat":1,"ply":4,"deadline":null,"time_left_ms":null}"#);
        let read = AccountEventData::read(turn.kind().name(), &data).unwrap();
        assert_eq!(read.kind(), AccountEventKind::YourTurn);
        assert_eq!(read.game(), Some("g"));
        let day = AccountEventData::Vacation(VacationEvent::Ended { days_left: 3 });
        assert_eq!(day.data_json().unwrap(), r#"{"reason":"ended","days_left":3}"#);
        assert!(AccountEventData::read("your_turn", r#"{"game":"g"}"#).is_err());
        assert!(AccountEventData::read("nothing", "{}").is_err());
    }
}
