//! The followers of each game in this process, and the one reader per game
//! that hands them the log's new events.
//!
//! A game with followers here has a [`Channel`]; a game without has
//! nothing, and a change of it costs nothing here. Told that the game
//! changed, the channel's reader reads the log from the first event it has
//! not handed on — one reader at a time, so events go out in order, and
//! only the reader moves its place — and sends each to every follower.
//! Followers catch up from the log themselves and skip what they have
//! sent, by number, so nothing is lost or sent twice whatever the timing.
//!
//! Streams are limited per game and in all; a follower's place is given
//! back the moment its stream is dropped.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::broadcast;

use super::Event;
use leapfrog_store::{CHANNEL, Store};

/// Events a follower may fall behind by before it reads them from the log
/// instead.
const BACKLOG: usize = 64;

/// Events read from the log at once.
pub(super) const BATCH: i64 = 256;

/// A game's followers in this process.
#[derive(Debug)]
struct Channel {
    tx: broadcast::Sender<Event>,
    followers: usize,
    /// The first event not yet sent on `tx`, once a follower has told
    /// where the log stood when it caught up: the reader's place, which
    /// only the reader moves (under this lock, one reader at a time).
    next: Arc<tokio::sync::Mutex<Option<u64>>>,
}

/// Stream limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamLimits {
    /// Open streams in all.
    pub total: usize,
    /// Open streams on one game.
    pub per_game: usize,
    /// Open streams of one client (0: no cap).
    pub per_client: usize,
}

#[derive(Debug, Default)]
struct Followers {
    games: HashMap<String, Channel>,
    open: usize,
    /// Open streams per client (only while the cap is on).
    clients: HashMap<String, usize>,
    /// Streams closed since the process started.
    closed: u64,
}

/// The fan-out of every followed game.
#[derive(Debug, Clone)]
pub struct Hub {
    followers: Arc<Mutex<Followers>>,
    limits: StreamLimits,
    store: Store,
    stopping: leapfrog_process::stopping::Stopping,
    /// Woken when an account's log grew: its webhooks' deliveries are due.
    outbox: Arc<tokio::sync::Notify>,
}

/// Why a stream cannot open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StreamsFull {
    /// The process has its most streams.
    #[error("the server has {0} event streams open, its most; retry shortly")]
    Server(usize),
    /// The game has its most streams.
    #[error("this game has {0} event streams open, its most; retry shortly")]
    Game(usize),
    /// The client has its most streams open.
    #[error("this client has {0} event streams open, its most; close one first")]
    Client(usize),
}

/// A follower's place: its receiver, given back when dropped.
#[derive(Debug)]
pub struct Follower {
    hub: Hub,
    game: String,
    /// Whose stream it is, when the per-client cap counts it.
    client: Option<String>,
    /// The game's events from the moment it joined.
    pub(super) rx: broadcast::Receiver<Event>,
}

impl Drop for Follower {
    fn drop(&mut self) {
        let mut f = self.hub.lock();
        f.open -= 1;
        f.closed += 1;
        if let Some(client) = &self.client
            && let Some(n) = f.clients.get_mut(client)
        {
            *n -= 1;
            if *n == 0 {
                f.clients.remove(client);
            }
        }
        if let Some(channel) = f.games.get_mut(&self.game) {
            channel.followers -= 1;
            if channel.followers == 0 {
                f.games.remove(&self.game);
            }
        }
    }
}

impl Follower {
    /// The hub it follows through.
    pub(super) fn hub(&self) -> &Hub {
        &self.hub
    }
}

impl Hub {
    /// A hub reading events from `store`, with these limits.
    pub fn new(store: Store, limits: StreamLimits) -> Hub {
        Hub {
            followers: Arc::default(),
            limits,
            store,
            stopping: leapfrog_process::stopping::Stopping::default(),
            outbox: Arc::default(),
        }
    }

    /// What wakes the webhook sender: an account's log grew, here or (on
    /// PostgreSQL) in another process, so deliveries may be due.
    pub fn outbox_wake(&self) -> Arc<tokio::sync::Notify> {
        self.outbox.clone()
    }

    /// Whether the process is stopping: streams end when it is.
    pub fn stopping(&self) -> &leapfrog_process::stopping::Stopping {
        &self.stopping
    }

    /// The store it reads from.
    pub(super) fn store(&self) -> &Store {
        &self.store
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Followers> {
        self.followers.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Streams open now, and the most there may be.
    pub fn streams(&self) -> (usize, usize) {
        (self.lock().open, self.limits.total)
    }

    /// Streams closed since the process started.
    pub fn closed(&self) -> u64 {
        self.lock().closed
    }

    /// How many streams follow `key` in this process.
    pub fn followers(&self, key: &str) -> usize {
        self.lock().games.get(key).map_or(0, |c| c.followers)
    }

    /// Whether game `game` has a channel here (followers in this process).
    pub fn followed(&self, game: &str) -> bool {
        self.lock().games.contains_key(game)
    }

    /// Joins `game`'s followers as a stream of `client`.
    ///
    /// # Errors
    ///
    /// When the process, the game or the client (counted in this process)
    /// has its most streams.
    pub fn follow(&self, game: &str, client: &str) -> Result<Follower, StreamsFull> {
        let mut f = self.lock();
        if f.open >= self.limits.total {
            return Err(StreamsFull::Server(self.limits.total));
        }
        let per_client = self.limits.per_client;
        if per_client > 0 && f.clients.get(client).is_some_and(|&n| n >= per_client) {
            return Err(StreamsFull::Client(per_client));
        }
        let channel = f.games.entry(game.to_string()).or_insert_with(|| Channel {
            tx: broadcast::channel(BACKLOG).0,
            followers: 0,
            next: Arc::default(),
        });
        if channel.followers >= self.limits.per_game {
            return Err(StreamsFull::Game(self.limits.per_game));
        }
        channel.followers += 1;
        let rx = channel.tx.subscribe();
        f.open += 1;
        let client = (per_client > 0).then(|| client.to_string());
        if let Some(c) = &client {
            *f.clients.entry(c.clone()).or_default() += 1;
        }
        Ok(Follower { hub: self.clone(), game: game.to_string(), client, rx })
    }

    /// A follower of `game`, subscribed before it read the log, found
    /// `next` events there: the channel's reader starts there if it had no
    /// place yet, and reads at once what came since.
    pub(super) async fn caught_up(&self, game: &str, next: u64) {
        let Some(place) = self.lock().games.get(game).map(|c| c.next.clone()) else { return };
        let mut place = place.lock().await;
        if place.is_none() {
            *place = Some(next);
            drop(place);
            self.notify(game);
        }
    }

    /// Game `game` changed: if it has followers here, reads its new events
    /// from the log once (in a task of its own) and sends them to all.
    pub fn notify(&self, game: &str) {
        if game.starts_with(leapfrog_store::ACCOUNT_KEY) {
            self.outbox.notify_one();
        }
        let (tx, place) = {
            let f = self.lock();
            let Some(channel) = f.games.get(game) else { return };
            (channel.tx.clone(), channel.next.clone())
        };
        let (store, id) = (self.store.clone(), game.to_string());
        tokio::spawn(async move {
            let mut place = place.lock().await;
            // No follower has caught up yet: the first to do so starts
            // the reader.
            let Some(mut next) = *place else { return };
            loop {
                let rows = match store.log(&id, next as i64, BATCH).await {
                    Ok(rows) => rows,
                    Err(e) => {
                        return tracing::warn!(error = %e, game = %id, "live updates: reading the log failed");
                    }
                };
                for row in &rows {
                    let event = Event::of_row(row);
                    next = event.seq + 1;
                    let _ = tx.send(event);
                }
                *place = Some(next);
                if (rows.len() as i64) < BATCH {
                    return;
                }
            }
        });
    }

    /// Every followed game may have changed (after a lost notification
    /// connection): reads each once.
    pub fn notify_all(&self) {
        let games: Vec<String> = self.lock().games.keys().cloned().collect();
        for game in games {
            self.notify(&game);
        }
    }
}

/// Forwards PostgreSQL notifications into `hub` for as long as the process
/// runs, reconnecting after failures (and then rereading every followed
/// game, for the notifications missed meanwhile).
pub async fn forward_postgres(url: String, hub: Hub) {
    loop {
        match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => {
                if let Err(e) = listener.listen(CHANNEL).await {
                    tracing::warn!(error = %e, "LISTEN failed; retrying");
                } else {
                    tracing::info!(channel = CHANNEL, "listening for changes made by other processes");
                    hub.notify_all();
                    loop {
                        match listener.recv().await {
                            Ok(n) => hub.notify(n.payload()),
                            Err(e) => {
                                tracing::warn!(error = %e, "notification listener lost its connection");
                                break;
                            }
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot connect the notification listener; retrying"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
