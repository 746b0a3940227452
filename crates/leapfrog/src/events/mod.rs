//! Live updates: each game's moves and seat changes fanned out to the
//! event streams that follow it, within a process and (with PostgreSQL
//! `LISTEN`/`NOTIFY`) across processes.
//!
//! A game with followers in this process has a [`Channel`]; a game without
//! has nothing, and a move on it costs nothing here. When a game changes (a
//! notification carries only its id), its channel reads the new moves and
//! the game once, and sends each move, each change of its seats (found by
//! comparing the seats with those it saw last) and the end, already
//! encoded, to every follower. Followers read their
//! own catch-up from the database when they start and after falling
//! behind, and skip what they have already sent, so that nothing is lost or
//! sent twice whatever the timing.
//!
//! Streams are limited per game and in all; a follower's place is given
//! back the moment its stream is dropped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use actix_web::web::Bytes;
use tokio::sync::broadcast;

use crate::game::{Game, GameStatus, Holder, Resignation};
use crate::store::{CHANNEL, Store};
use crate::wire::game::{GameChange, GameOverEvent, GameView, MoveRecord, RematchEvent};

/// Events a follower may fall behind by before it reads its catch-up from
/// the database instead.
const BACKLOG: usize = 64;

/// What an event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A move, at this ply.
    Move(u32),
    /// The game as it stands, or a change of its seats.
    Game,
    /// The end of play: only a rematch may follow.
    Over,
    /// The game that replays this one: nothing follows.
    Rematch,
}

/// One event of a game's stream, in its wire form.
#[derive(Debug, Clone)]
pub struct Event {
    /// What it is.
    pub kind: Kind,
    /// The bytes of the event.
    pub bytes: Bytes,
}

impl Event {
    // Each event is `None` if its data did not encode (logged): a stream
    // skips it rather than send an empty one.

    /// The `move` event of a move.
    pub fn of_move(m: &crate::game::HistoryMove) -> Option<Event> {
        Some(Event { kind: Kind::Move(m.ply), bytes: sse("move", Some(m.ply), &MoveRecord::of(m))? })
    }

    /// The `over` event of a finished game.
    pub fn over(game: &Game) -> Option<Event> {
        Some(Event { kind: Kind::Over, bytes: sse("over", None, &GameOverEvent::of(game))? })
    }

    /// The `game` event: the game as it stands, first on every stream. Its
    /// id is the last ply it includes, so a reconnect resumes after it.
    pub fn snapshot(game: &Game) -> Option<Event> {
        let ply = game.position().ply();
        let id = ply.checked_sub(1);
        Some(Event { kind: Kind::Game, bytes: sse("game", id, &GameView::of(game))? })
    }

    /// The `rematch` event of a game replayed by another.
    pub fn rematch(id: &str) -> Option<Event> {
        let data = RematchEvent { id: id.to_string() };
        Some(Event { kind: Kind::Rematch, bytes: sse("rematch", None, &data)? })
    }

    /// A change of the game's seats (`joined`, `left`, `started`,
    /// `resigned`, `timed_out`), with the game after it.
    fn change(event: &str, player: Option<usize>, game: &Game) -> Option<Event> {
        let data = GameChange { player, game: GameView::of(game) };
        Some(Event { kind: Kind::Game, bytes: sse(event, None, &data)? })
    }
}

/// What a channel saw of a game: each seat's holder and resignation,
/// whether the game had started and ended, and its rematch.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    seats: Vec<(Holder, Option<Resignation>)>,
    started: bool,
    over: bool,
    rematch: bool,
}

impl Seen {
    fn of(game: &Game) -> Seen {
        Seen {
            seats: game.seats().iter().map(|s| (s.holder, s.resigned)).collect(),
            started: game.status() != GameStatus::Waiting,
            over: game.status() == GameStatus::Over,
            rematch: game.rematch().is_some(),
        }
    }

    /// The events that take a follower from `self` to `game`.
    fn changes(&self, game: &Game) -> Vec<Event> {
        let now = Seen::of(game);
        let mut events = Vec::new();
        for (player, (before, after)) in self.seats.iter().zip(&now.seats).enumerate() {
            match (before.0, after.0) {
                (Holder::Open(_), Holder::Person) => {
                    events.extend(Event::change("joined", Some(player), game))
                }
                (Holder::Person, Holder::Open(_)) => events.extend(Event::change("left", Some(player), game)),
                _ => {}
            }
            match (before.1, after.1) {
                (None, Some(Resignation::Resigned)) => {
                    events.extend(Event::change("resigned", Some(player), game))
                }
                (None, Some(Resignation::TimedOut)) => {
                    events.extend(Event::change("timed_out", Some(player), game))
                }
                _ => {}
            }
        }
        if !self.started && now.started {
            events.extend(Event::change("started", None, game));
        }
        if !self.over && now.over {
            events.extend(Event::over(game));
        }
        if let (false, Some(id)) = (self.rematch, game.rematch()) {
            events.extend(Event::rematch(id));
        }
        events
    }
}

/// An event in the text/event-stream format.
fn sse(event: &str, id: Option<u32>, data: &impl serde::Serialize) -> Option<Bytes> {
    let id = id.map(|id| format!("id: {id}\n")).unwrap_or_default();
    match serde_json::to_string(data) {
        Ok(data) => Some(Bytes::from(format!("event: {event}\n{id}data: {data}\n\n"))),
        Err(e) => {
            tracing::error!(error = %e, event, "an event's data did not encode; it is not sent");
            None
        }
    }
}

/// A game's followers in this process.
#[derive(Debug)]
struct Channel {
    tx: broadcast::Sender<Event>,
    followers: usize,
    /// The first ply not yet sent on `tx`.
    next: Arc<AtomicU32>,
    /// One reader at a time, so that events go out in order; it keeps
    /// the seats it saw last.
    reading: Arc<tokio::sync::Mutex<Option<Seen>>>,
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
    stopping: crate::stopping::Stopping,
}

/// Why a stream cannot open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Full {
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
    pub rx: broadcast::Receiver<Event>,
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

impl Hub {
    /// A hub reading moves from `store`, with these limits.
    pub fn new(store: Store, limits: StreamLimits) -> Hub {
        Hub { followers: Arc::default(), limits, store, stopping: crate::stopping::Stopping::default() }
    }

    /// Whether the process is stopping: streams end when it is.
    pub fn stopping(&self) -> &crate::stopping::Stopping {
        &self.stopping
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

    /// Joins `game`'s followers; `next` is the first ply the follower
    /// still needs (its catch-up ends there or later).
    ///
    /// # Errors
    ///
    /// When the process, the game or the client (`client`, counted in this
    /// process) has its most streams.
    pub fn follow(&self, game: &str, client: &str) -> Result<Follower, Full> {
        let mut f = self.lock();
        if f.open >= self.limits.total {
            return Err(Full::Server(self.limits.total));
        }
        let per_client = self.limits.per_client;
        if per_client > 0 && f.clients.get(client).is_some_and(|&n| n >= per_client) {
            return Err(Full::Client(per_client));
        }
        let channel = f.games.entry(game.to_string()).or_insert_with(|| Channel {
            tx: broadcast::channel(BACKLOG).0,
            followers: 0,
            next: Arc::default(),
            reading: Arc::default(),
        });
        if channel.followers >= self.limits.per_game {
            return Err(Full::Game(self.limits.per_game));
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

    /// Records that a follower of `game` has everything before ply `next`
    /// (so the next read starts there) and the seats of `seen` (the first
    /// follower's are what changes are told against).
    pub async fn caught_up(&self, game: &str, next: u32, seen: &Game) {
        let Some(reading) = self.lock().games.get(game).map(|channel| {
            channel.next.fetch_max(next, Ordering::Relaxed);
            channel.reading.clone()
        }) else {
            return;
        };
        reading.lock().await.get_or_insert_with(|| Seen::of(seen));
    }

    /// Game `game` moved: if it has followers here, reads its new moves
    /// once (in a task of its own) and sends them to all.
    pub fn notify(&self, game: &str) {
        let (tx, next, reading) = {
            let f = self.lock();
            let Some(channel) = f.games.get(game) else { return };
            (channel.tx.clone(), channel.next.clone(), channel.reading.clone())
        };
        let (store, id) = (self.store.clone(), game.to_string());
        tokio::spawn(async move {
            let mut seen = reading.lock().await;
            let from = next.load(Ordering::Relaxed);
            // The game first, then the moves: they hold every move of the
            // game as read (and maybe later ones), so the end is never told
            // before the last move.
            let read = async {
                let game = crate::reading::load(&store, &id).await?;
                Ok::<_, crate::game::GameError>((crate::reading::history(&store, &game, from).await?, game))
            };
            let (moves, game) = match read.await {
                Ok(read) => read,
                Err(e) => {
                    return tracing::warn!(error = %e, game = %id, "live updates: reading the game failed");
                }
            };
            for m in &moves {
                if let Some(event) = Event::of_move(m) {
                    let _ = tx.send(event);
                }
                next.fetch_max(m.ply + 1, Ordering::Relaxed);
            }
            let changes = match seen.as_ref() {
                Some(seen) => seen.changes(&game),
                // No follower told its seats yet: at least the end.
                None if game.status() == GameStatus::Over && !moves.is_empty() => {
                    Event::over(&game).into_iter().collect()
                }
                None => Vec::new(),
            };
            for event in changes {
                let _ = tx.send(event);
            }
            *seen = Some(Seen::of(&game));
        });
    }

    /// Every followed game may have moved (after a lost notification
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
                    tracing::info!(channel = CHANNEL, "listening for moves made by other processes");
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

#[cfg(test)]
mod tests;
