//! One follower's stream of a game's events: what it has to send first
//! (the game as it stands, or the events a reconnecting client missed),
//! then the hub's events, each exactly once and in order of its number
//! (its [`LogCursor`]); after the end it waits for a rematch a while.

use std::time::Duration;

use bytes::Bytes;

use super::cursor::{LogCursor, Step};
use super::{Follower, Kind};
use leapfrog_core::game::{Game, GameStatus, RuleError};
use leapfrog_store::GameRows;
use leapfrog_store::StoreError;

/// Why a stream could not start or go on.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The game is not there.
    #[error("there is no game {0}")]
    NotFound(String),
    /// The stored game does not read back, or has no log yet (read it
    /// through the games service first: that makes it).
    #[error(transparent)]
    Damaged(#[from] RuleError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// How often a stream gets a comment line when nothing happens. Writing is
/// the only way to notice a client that has gone (actix-web drops a
/// response stream only when a write to its connection fails), so this is
/// how long a closed stream may hold its place: one or two of these.
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// How long a stream stays open after the end for a rematch to be asked
/// for; it ends then (a client opens a new one to wait longer).
pub const REMATCH_WAIT: Duration = Duration::from_secs(600);

/// A follower's stream.
#[derive(Debug)]
pub struct Stream {
    cursor: LogCursor,
    /// The `game` event of a fresh stream, sent first.
    snapshot: Option<Bytes>,
    /// The `over` event is sent (or the game was over already), at this time.
    over_at: Option<tokio::time::Instant>,
    /// The `rematch` event is sent (or was before): nothing follows it.
    ended: bool,
}

impl Stream {
    /// Starts `follower`'s stream of game `id`: fresh (the game as it
    /// stands first), or resuming after event number `last` (the events
    /// after it, exactly those). A resume past the end of the log starts
    /// fresh.
    ///
    /// # Errors
    ///
    /// [`StreamError::NotFound`]; a game whose log is not made yet (read it
    /// through the games service first); store failures.
    pub async fn start(follower: Follower, id: &str, last: Option<u64>) -> Result<Stream, StreamError> {
        let hub = follower.hub().clone();
        // Read after following: every event the log lacks now reaches
        // the follower through the hub.
        let row = hub.store().game(id).await?.ok_or_else(|| StreamError::NotFound(id.to_string()))?;
        let game = Game::from_row(row)?;
        let logged = game.events().ok_or_else(|| RuleError::corrupt(id, "events", "no log"))?;
        let cursor = LogCursor::at_end(follower, id, logged, HEARTBEAT);
        let mut stream = Stream { cursor, snapshot: None, over_at: None, ended: false };
        match last.map(|l| l.saturating_add(1)).filter(|&n| n <= logged) {
            Some(from) => {
                stream.cursor.resume_from(from).await?;
                // Told before the resume point: the end, the rematch.
                let told = |kind| !stream.cursor.pending().any(|e| e.kind == kind);
                if game.status() == GameStatus::Over && told(Kind::Over) {
                    stream.over_at = Some(tokio::time::Instant::now());
                }
                stream.ended = game.rematch().is_some() && told(Kind::Rematch) && !stream.cursor.behind();
            }
            None => {
                stream.snapshot = Some(super::Event::snapshot(&game).map_err(StoreError::Encode)?);
                if game.status() == GameStatus::Over {
                    stream.over_at = Some(tokio::time::Instant::now());
                }
                stream.ended = game.rematch().is_some();
            }
        }
        hub.caught_up(id, logged).await;
        Ok(stream)
    }

    /// The next bytes to write, or `None` at the end.
    pub async fn next_bytes(&mut self) -> Option<Bytes> {
        if let Some(snapshot) = self.snapshot.take() {
            return Some(snapshot);
        }
        match self.cursor.next(self.ended).await {
            Step::Event(event) => {
                match event.kind {
                    Kind::Over => self.over_at = Some(tokio::time::Instant::now()),
                    Kind::Rematch => self.ended = true,
                    Kind::Other => {}
                }
                Some(event.bytes)
            }
            Step::Stopping => {
                self.ended = true;
                Some(leapfrog_process::stopping::last_event())
            }
            Step::Heartbeat if self.over_at.is_some_and(|at| at.elapsed() >= REMATCH_WAIT) => None,
            Step::Heartbeat => Some(Bytes::from_static(b":\n\n")),
            Step::End => None,
        }
    }
}
