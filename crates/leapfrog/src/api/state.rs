//! The application state every handler is given: the games service, the
//! live updates, the limits, the thinking and engine threads.

use std::sync::Arc;

use actix_web::HttpRequest;

use super::problem::ApiError;
use crate::api::limits::{Class, Limiter};
use crate::events::Hub;
use crate::play::{Creator, Games};

/// What every handler needs: the games, the live-update hub, the limits.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The games service: every read and every change of a game.
    pub games: Games,
    /// Accounts and their tokens.
    pub accounts: crate::accounts::Accounts,
    /// Fans each game's changes out to its event streams.
    pub hub: Hub,
    /// Per-client rate limits.
    pub limiter: Arc<Limiter>,
    /// Most unfinished games per client (0: no cap).
    pub max_unfinished: u32,
    /// Most unfinished games of computer seats alone per client (0: no cap).
    pub max_computer_games: u32,
    /// Where the computer thinks.
    pub thinkers: crate::compute::pools::Thinkers,
    /// Runs engine work too large for a request thread.
    pub engine: crate::compute::Engine,
    /// Analyses one client may have running or waiting at once.
    pub analyses_per_client: usize,
    /// The address that alone serves `/metrics`, when not the API's.
    pub metrics_bind: Option<std::net::SocketAddr>,
}

impl AppState {
    /// The client's address, as the limits see it (empty when unknown).
    pub fn client(&self, req: &HttpRequest) -> Option<std::net::IpAddr> {
        let forwarded = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok());
        self.limiter.client(req.peer_addr().map(|a| a.ip()), forwarded)
    }

    /// The client's address as a key for fair shares (empty when unknown).
    pub fn client_key(&self, req: &HttpRequest) -> String {
        self.client(req).map(|ip| ip.to_string()).unwrap_or_default()
    }

    /// Takes one request of `class` from the client's bucket.
    ///
    /// # Errors
    ///
    /// A 429 with `Retry-After` past the limit.
    pub fn limit(&self, class: Class, req: &HttpRequest) -> Result<(), ApiError> {
        let Some(client) = self.client(req) else { return Ok(()) };
        self.limiter.take(class, client, std::time::Instant::now()).map_err(|e| {
            crate::process::meter::refused(class.limit_name());
            ApiError::TooManyRequests { detail: e.to_string(), retry_after: Some(e.retry_after) }
        })
    }

    /// Who creates a game with this request.
    pub fn creator(&self, req: &HttpRequest) -> Creator {
        Creator {
            client: self.client(req).map(|ip| ip.to_string()).unwrap_or_default(),
            max_unfinished: self.max_unfinished,
            max_computer_games: self.max_computer_games,
        }
    }
}
