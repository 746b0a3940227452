//! The application state every handler is given: the games service, the
//! live updates, the limits, the thinking and engine threads.

use std::sync::Arc;
use std::time::Instant;

use actix_web::HttpRequest;

use super::problem::ApiError;
use crate::limits::{Attempt, Class, Key, Limited, Limiter, Network};
use leapfrog_service::events::Hub;
use leapfrog_service::play::{Creator, Games};

/// What every handler needs: the games, the live-update hub, the limits.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The games service: every read and every change of a game.
    pub games: Games,
    /// Challenges: sent, accepted (the last acceptance makes the game),
    /// declined, canceled.
    pub challenges: leapfrog_service::challenges::Challenges,
    /// Tournaments: created, joined, left, started, paired, read.
    pub tournaments: leapfrog_service::tournaments::Tournaments,
    /// Vacations: read, started, ended.
    pub vacations: leapfrog_service::vacations::Vacations,
    /// Webhook endpoints.
    pub webhooks: leapfrog_service::webhooks::Webhooks,
    /// Accounts and their tokens.
    pub accounts: leapfrog_service::accounts::Accounts,
    /// Fans each game's changes out to its event streams.
    pub hub: Hub,
    /// Per-client rate limits.
    pub limiter: Arc<Limiter>,
    /// Most unfinished games per client (0: no cap).
    pub max_unfinished: u32,
    /// Most unfinished games of computer seats alone per client (0: no cap).
    pub max_computer_games: u32,
    /// Where the computer thinks.
    pub thinkers: leapfrog_service::compute::pools::Thinkers,
    /// Runs engine work too large for a request thread.
    pub engine: leapfrog_service::compute::Engine,
    /// Analyses one client may have running or waiting at once.
    pub analyses_per_client: usize,
    /// Places for account exports: two an account, a few in all.
    pub exports: Arc<crate::limits::Slots>,
    /// Where webhooks may be sent.
    pub reach: leapfrog_service::webhooks::sender::Reach,
    /// The address that alone serves `/metrics`, when not the API's.
    pub metrics_bind: Option<std::net::SocketAddr>,
}

impl AppState {
    /// The client, as the limits see it: the network of its address.
    pub fn client(&self, req: &HttpRequest) -> Option<Network> {
        let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
        self.limiter.client(req.peer_addr().map(|a| a.ip()), forwarded)
    }

    /// The client as a key for fair shares and quotas (empty when unknown).
    pub fn client_key(&self, req: &HttpRequest) -> String {
        self.client(req).map(|net| net.to_string()).unwrap_or_default()
    }

    /// Takes one request of `class` from the client's bucket.
    ///
    /// # Errors
    ///
    /// A 429 with `Retry-After` past the limit.
    pub fn limit(&self, class: Class, req: &HttpRequest) -> Result<(), ApiError> {
        let Some(client) = self.client(req) else { return Ok(()) };
        self.limiter.take(class, &Key::Client(client), Instant::now()).map_err(|e| too_many(class, &e))
    }

    /// Takes one request of `class` from the bucket of the account named
    /// `name` (limits that protect an account hold whatever the networks).
    ///
    /// # Errors
    ///
    /// A 429 with `Retry-After` past the limit.
    pub fn limit_account(&self, class: Class, name: &str) -> Result<(), ApiError> {
        let key = Key::Account(name.to_lowercase());
        self.limiter.take(class, &key, Instant::now()).map_err(|e| too_many(class, &e))
    }

    /// Lets a sign-in to the account `name` through the client's and the
    /// account's limits, or not; tell [`Limiter::signed_in`] how it ended.
    ///
    /// # Errors
    ///
    /// A 429 with `Retry-After` past a limit.
    pub fn limit_sign_in(&self, name: &str, req: &HttpRequest) -> Result<Option<Attempt>, ApiError> {
        let Some(client) = self.client(req) else { return Ok(None) };
        match self.limiter.take_sign_in(name, client, Instant::now()) {
            Ok(attempt) => Ok(Some(attempt)),
            Err(e) => Err(too_many(e.class, &e)),
        }
    }

    /// Who creates a game with this request.
    pub fn creator(&self, req: &HttpRequest) -> Creator {
        Creator {
            client: self.client_key(req),
            max_unfinished: self.max_unfinished,
            max_computer_games: self.max_computer_games,
        }
    }
}

/// The answer to a request over a limit.
fn too_many(class: Class, e: &Limited) -> ApiError {
    ApiError::too_many(class.limit_name(), e.to_string(), e.retry_after)
}
