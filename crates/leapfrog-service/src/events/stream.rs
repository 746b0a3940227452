//! One follower's stream of a game's events: what it has to send first
//! (the game as it stands, or the events a reconnecting client missed),
//! then the hub's events, each exactly once and in order of its number;
//! a gap, or falling behind the hub, is read from the log.

use std::collections::VecDeque;
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::broadcast::error::RecvError;

use super::hub::BATCH;
use super::{Event, Follower, Kind};
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
    follower: Follower,
    id: String,
    /// The `game` event of a fresh stream, sent first.
    snapshot: Option<Bytes>,
    /// Events read from the log, to send before anything else.
    pending: VecDeque<Event>,
    /// The number of the first event not yet sent.
    next: u64,
    /// Whether the log may hold events from `next` on that are not pending.
    behind: bool,
    /// The `over` event is sent (or the game was over already), at this time.
    over_at: Option<tokio::time::Instant>,
    /// The `rematch` event is sent (or was before): nothing follows it.
    ended: bool,
    heartbeat: tokio::time::Interval,
    /// Resolves when the process stops: the stream ends then.
    stopping: leapfrog_process::stopping::Watch,
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
        let start = tokio::time::Instant::now() + HEARTBEAT;
        let mut heartbeat = tokio::time::interval_at(start, HEARTBEAT);
        heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut stream = Stream {
            follower,
            id: id.to_string(),
            snapshot: None,
            pending: VecDeque::new(),
            next: logged,
            behind: false,
            over_at: None,
            ended: false,
            heartbeat,
            stopping: hub.stopping().watch(),
        };
        match last.map(|l| l.saturating_add(1)).filter(|&n| n <= logged) {
            Some(from) => {
                stream.next = from;
                stream.read_log().await?;
                // Told before the resume point: the end, the rematch.
                let told = |kind| !stream.pending.iter().any(|e| e.kind == kind);
                if game.status() == GameStatus::Over && told(Kind::Over) {
                    stream.over_at = Some(tokio::time::Instant::now());
                }
                stream.ended = game.rematch().is_some() && told(Kind::Rematch) && !stream.behind;
            }
            None => {
                stream.snapshot =
                    Some(super::Event::snapshot(&game).map_err(leapfrog_store::StoreError::Encode)?);
                if game.status() == GameStatus::Over {
                    stream.over_at = Some(tokio::time::Instant::now());
                }
                stream.ended = game.rematch().is_some();
            }
        }
        hub.caught_up(id, logged).await;
        Ok(stream)
    }

    /// Queues the log's events from `next` on, a batch of them.
    async fn read_log(&mut self) -> Result<(), StoreError> {
        let from = self.pending.back().map_or(self.next, |e| e.seq + 1);
        let rows = self.follower.hub().store().events(&self.id, from as i64, BATCH).await?;
        self.behind = rows.len() as i64 == BATCH;
        self.pending.extend(rows.iter().map(Event::of_row));
        Ok(())
    }

    /// Notes that `event` is sent.
    fn sent(&mut self, event: &Event) {
        self.next = event.seq + 1;
        match event.kind {
            Kind::Over => self.over_at = Some(tokio::time::Instant::now()),
            Kind::Rematch => self.ended = true,
            Kind::Other => {}
        }
    }

    /// The next bytes to write, or `None` at the end.
    pub async fn next_bytes(&mut self) -> Option<Bytes> {
        if let Some(snapshot) = self.snapshot.take() {
            return Some(snapshot);
        }
        loop {
            if let Some(event) = self.pending.pop_front() {
                self.sent(&event);
                return Some(event.bytes);
            }
            if self.ended {
                return None;
            }
            if self.behind {
                if let Err(e) = self.read_log().await {
                    tracing::warn!(error = %e, game = %self.id, "event stream: reading the log failed");
                    return None;
                }
                continue;
            }
            tokio::select! {
                event = self.follower.rx.recv() => match event {
                    // Sent already.
                    Ok(event) if event.seq < self.next => {}
                    Ok(event) if event.seq == self.next => {
                        self.sent(&event);
                        return Some(event.bytes);
                    }
                    // A gap (the hub read past an event this stream has
                    // not had), or fallen behind: the log has them.
                    Ok(_) | Err(RecvError::Lagged(_)) => self.behind = true,
                    Err(RecvError::Closed) => return None,
                },
                // Nothing is pending here: the client resumes from the
                // last event sent, on another process.
                () = self.stopping.stopped() => {
                    self.ended = true;
                    return Some(leapfrog_process::stopping::last_event());
                }
                _ = self.heartbeat.tick() => {
                    if self.over_at.is_some_and(|at| at.elapsed() >= REMATCH_WAIT) {
                        return None;
                    }
                    return Some(Bytes::from_static(b":\n\n"));
                }
            }
        }
    }
}
