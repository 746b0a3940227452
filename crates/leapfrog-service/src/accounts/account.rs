//! An account, its tokens and its ratings as the service hands them out:
//! plain values (never a password's hash or a token's secret), read from
//! the store's rows once, here.

use leapfrog_store::{AccountRow, RatingRow, TokenRow};
use leapfrog_wire::profile::Accepts;

/// An account.
#[derive(Debug, Clone, PartialEq)]
pub struct Account {
    /// Its id (a UUID).
    pub id: String,
    /// Its name as written when created.
    pub name: String,
    /// When it was made, in Unix milliseconds.
    pub created_at: i64,
    /// Whether it is a bot (rule book §15).
    pub bot: bool,
    /// Whether it agrees to rated games against bots.
    pub rated_against_bots: bool,
    /// Its acceptance profile; `None`: any challenge.
    pub accepts: Option<Accepts>,
}

impl From<&AccountRow> for Account {
    fn from(a: &AccountRow) -> Account {
        Account {
            id: a.id.clone(),
            name: a.name.clone(),
            created_at: a.created_at,
            bot: a.bot != 0,
            rated_against_bots: a.rated_against_bots != 0,
            // Written by this server from a checked profile: one that does
            // not read is taken as none.
            accepts: a.accepts.as_deref().and_then(|json| serde_json::from_str(json).ok()),
        }
    }
}

impl Account {
    /// What it takes: its profile, or anything.
    pub fn takes(&self) -> Accepts {
        self.accepts.clone().unwrap_or_default()
    }
}

/// A personal access token as listed: never its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Its id, by which it is listed and revoked.
    pub id: String,
    /// Its label.
    pub label: String,
    /// Its scopes' names.
    pub scopes: Vec<String>,
    /// When it was made, in Unix milliseconds.
    pub created_at: i64,
}

impl From<&TokenRow> for Token {
    fn from(t: &TokenRow) -> Token {
        Token {
            id: t.id.clone(),
            label: t.label.clone(),
            scopes: t.scopes.split(',').map(str::to_string).collect(),
            created_at: t.created_at,
        }
    }
}

/// An account's rating in one pool.
#[derive(Debug, Clone, PartialEq)]
pub struct AccountRating {
    /// The pool (`murray/orthogonal`).
    pub pool: String,
    /// The Glicko-2 rating, deviation and volatility.
    pub rating: super::rating::Rating,
    /// Rated games it counts.
    pub games: i64,
}

impl From<&RatingRow> for AccountRating {
    fn from(r: &RatingRow) -> AccountRating {
        AccountRating {
            pool: r.pool.clone(),
            rating: super::rating::Rating {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            },
            games: r.games,
        }
    }
}

/// An account's place on a leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// The account's id.
    pub account_id: String,
    /// Its name.
    pub name: String,
    /// Its rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated games it counts.
    pub games: i64,
    /// Whether it is a bot.
    pub bot: bool,
}
