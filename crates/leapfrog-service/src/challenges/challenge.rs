//! A challenge as it stands (rule book §15): who sent it, to whom, its
//! terms, who has accepted; read from and written to its row, shown as the
//! API and the account streams show it.

use std::sync::Arc;

use jump_capture as jc;
use serde::{Deserialize, Serialize};

use super::error::ChallengeError;
use crate::accounts::Account;
use crate::play::GameError;
use crate::play::consent::Terms;
use leapfrog_store::{ChallengeRow, StoreError};
use leapfrog_wire::RuleSet;
use leapfrog_wire::challenge::{ChallengeView, EntrantView};
use leapfrog_wire::game::rfc3339;
use leapfrog_wire::profile::Reason;

/// An account seated by a challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Whether it is a bot.
    pub bot: bool,
}

impl Entrant {
    /// The entrant an account is.
    pub fn of(a: &Account) -> Entrant {
        Entrant { id: a.id.clone(), name: a.name.clone(), bot: a.bot }
    }
}

/// Where a challenge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Waiting for acceptances.
    Open,
    /// Every seat taken: its game is made (with the challenge's id).
    Accepted,
    /// Declined by the account it was sent to.
    Declined,
    /// Withdrawn by its challenger.
    Canceled,
    /// Open past its time.
    Expired,
}

impl Status {
    /// Its name, as the API writes it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Accepted => "accepted",
            Status::Declined => "declined",
            Status::Canceled => "canceled",
            Status::Expired => "expired",
        }
    }
}

/// A challenge as it stands.
#[derive(Debug, Clone)]
pub struct Challenge {
    /// Its id, also its game's.
    pub id: String,
    /// The account it was sent to (id and name); `None`: anyone.
    pub to: Option<(String, String)>,
    /// Its rules.
    pub rules: Arc<jc::Rules>,
    /// The challenger's seat.
    pub seat: usize,
    /// Seconds a move, if limited.
    pub move_limit: Option<u32>,
    /// Whether its game is rated.
    pub rated: bool,
    /// Where it stands (open past its time: expired).
    pub status: Status,
    /// Why it was declined.
    pub reason: Option<Reason>,
    /// Seat by seat, the accounts seated so far.
    pub entrants: Vec<Option<Entrant>>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub expires_at: i64,
    pub(super) version: i64,
}

impl Challenge {
    /// The challenger.
    pub fn from(&self) -> Option<&Entrant> {
        self.entrants.get(self.seat).and_then(Option::as_ref)
    }

    pub(super) fn read(row: &ChallengeRow, now: i64) -> Result<Challenge, ChallengeError> {
        let damaged = |what: &'static str, e: &dyn std::fmt::Display| {
            ChallengeError::Game(GameError::Store(StoreError::Damaged {
                what,
                detail: format!("{}: {e}", row.id),
            }))
        };
        let rules = leapfrog_store::stored::read_rules(&row.rules).map_err(|e| damaged("rules", &e))?;
        let entrants: Vec<Option<Entrant>> =
            serde_json::from_str(&row.accepted).map_err(|e| damaged("challenge seats", &e))?;
        let status = match row.status.as_str() {
            "open" if now >= row.expires_at => Status::Expired,
            "open" => Status::Open,
            "accepted" => Status::Accepted,
            "declined" => Status::Declined,
            "canceled" => Status::Canceled,
            other => return Err(damaged("challenge status", &other)),
        };
        let reason = row
            .reason
            .as_deref()
            .map(|r| serde_json::from_value(serde_json::Value::String(r.to_string())))
            .transpose()
            .map_err(|e| damaged("decline reason", &e))?;
        Ok(Challenge {
            id: row.id.clone(),
            to: row.challenged_id.clone().zip(row.challenged_name.clone()),
            rules,
            seat: usize::try_from(row.seat).map_err(|e| damaged("challenge seat", &e))?,
            move_limit: row.move_limit.map(|l| u32::try_from(l).unwrap_or(u32::MAX)),
            rated: row.rated != 0,
            status,
            reason,
            entrants,
            created_at: row.created_at,
            expires_at: row.expires_at,
            version: row.version,
        })
    }

    pub(super) fn row(&self, challenger_id: &str) -> Result<ChallengeRow, ChallengeError> {
        let status = match self.status {
            Status::Expired => "open",
            other => other.name(),
        };
        Ok(ChallengeRow {
            id: self.id.clone(),
            challenger_id: challenger_id.to_string(),
            challenged_id: self.to.as_ref().map(|(id, _)| id.clone()),
            challenged_name: self.to.as_ref().map(|(_, name)| name.clone()),
            rules: leapfrog_store::stored::rules_json(&self.rules).map_err(GameError::from)?,
            seats: self.entrants.len() as i64,
            seat: self.seat as i64,
            move_limit: self.move_limit.map(i64::from),
            rated: i64::from(self.rated),
            status: status.to_string(),
            reason: self.reason.map(|r| r.key().to_string()),
            accepted: serde_json::to_string(&self.entrants)
                .map_err(|e| GameError::from(StoreError::Encode(e)))?,
            version: self.version,
            created_at: self.created_at,
            expires_at: self.expires_at,
        })
    }

    /// The view the API and the account streams show.
    pub fn view(&self) -> ChallengeView {
        let entrant = |e: &Entrant| EntrantView { name: e.name.clone(), bot: e.bot };
        ChallengeView {
            id: self.id.clone(),
            from: self.from().map_or(EntrantView { name: String::new(), bot: false }, entrant),
            to: self.to.as_ref().map(|(_, name)| name.clone()),
            rules: RuleSet::from_rules(&self.rules),
            players: self.entrants.len(),
            seat: self.seat,
            seats: self.entrants.iter().map(|e| e.as_ref().map(entrant)).collect(),
            move_time_limit: self.move_limit,
            rated: self.rated,
            status: self.status.name().to_string(),
            reason: self.reason,
            game: (self.status == Status::Accepted).then(|| self.id.clone()),
            created_at: rfc3339(self.created_at),
            expires_at: rfc3339(self.expires_at),
        }
    }

    /// Its terms, as a profile judges them.
    pub(super) fn terms(&self) -> Terms<'_> {
        crate::play::consent::terms(&self.rules, self.move_limit, self.rated)
    }
}
