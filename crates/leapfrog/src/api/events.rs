//! A game's live updates as server-sent events.

use std::collections::VecDeque;
use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use tokio::sync::broadcast::error::RecvError;

use super::games::GameErrors;
use super::problem::{ApiError, Problem};
use super::state::AppState;
use crate::events::{Event, Follower, Full, Kind};
use crate::game::{Game, GameError, GameStatus};
use crate::limits::Class;
use crate::store::Store;

/// How often a stream gets a comment line when nothing happens. Writing is
/// the only way to notice a client that has gone (actix-web drops a
/// response stream only when a write to its connection fails), so this is
/// how long a closed stream may hold its place: one or two of these.
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// How long a stream stays open after the end for a rematch to be asked
/// for; it ends then (a client opens a new one to wait longer).
pub const REMATCH_WAIT: Duration = Duration::from_secs(600);

/// Seconds a client is told to wait when the streams are at their limit.
const FULL_RETRY_AFTER: u64 = 5;

/// One follower's stream: what it still has to send, and from which ply.
struct Stream {
    follower: Follower,
    store: Store,
    id: String,
    /// Events read from the database, to send before anything else.
    pending: VecDeque<Event>,
    /// The first ply not yet sent.
    next: u32,
    /// The `over` event is queued or sent, at this time.
    over_at: Option<tokio::time::Instant>,
    /// The `rematch` event is queued or sent: nothing follows it.
    ended: bool,
    heartbeat: tokio::time::Interval,
    /// Resolves when the process stops: the stream ends then.
    stopping: crate::stopping::Watch,
}

impl Stream {
    /// Queues the moves from `next` on as the database has them (when
    /// `moves`), then the game as it stands, and `over` if it has ended;
    /// returns the game.
    async fn catch_up(&mut self, moves: bool) -> Result<Game, GameError> {
        let from = self.next;
        // The game first, then the moves up to it: the game as it stands
        // comes right after the last move it includes, never before it.
        let game = crate::reading::load(&self.store, &self.id).await?;
        let missed =
            if moves { crate::reading::history(&self.store, &game, from).await? } else { Vec::new() };
        for m in missed.iter().filter(|m| m.ply < game.position().ply()) {
            self.next = m.ply + 1;
            self.pending.extend(Event::of_move(m));
        }
        self.pending.extend(Event::snapshot(&game));
        self.next = self.next.max(game.position().ply());
        if game.status() == GameStatus::Over && self.over_at.is_none() {
            self.pending.extend(Event::over(&game));
            self.over_at = Some(tokio::time::Instant::now());
        }
        if let Some(id) = game.rematch() {
            self.pending.extend(Event::rematch(id));
            self.ended = true;
        }
        Ok(game)
    }

    /// The next bytes to write, or `None` at the end.
    async fn next_bytes(&mut self) -> Option<web::Bytes> {
        loop {
            if let Some(event) = self.pending.pop_front() {
                return Some(event.bytes);
            }
            if self.ended {
                return None;
            }
            tokio::select! {
                event = self.follower.rx.recv() => match event {
                    // Already sent from the catch-up.
                    Ok(Event { kind: Kind::Move(ply), .. }) if ply < self.next => {}
                    Ok(Event { kind: Kind::Over, .. }) if self.over_at.is_some() => {}
                    Ok(event) => {
                        match event.kind {
                            Kind::Move(ply) => self.next = ply + 1,
                            Kind::Over => self.over_at = Some(tokio::time::Instant::now()),
                            Kind::Rematch => self.ended = true,
                            Kind::Game => {}
                        }
                        return Some(event.bytes);
                    }
                    Err(RecvError::Lagged(_)) => {
                        if let Err(e) = self.catch_up(true).await {
                            tracing::warn!(error = %e, game = %self.id, "event stream: catching up failed");
                            return None;
                        }
                    }
                    Err(RecvError::Closed) => return None,
                },
                // Nothing is pending here: the client resumes from the
                // last event sent, on another process.
                () = self.stopping.stopped() => {
                    self.ended = true;
                    return Some(crate::stopping::last_event());
                }
                _ = self.heartbeat.tick() => {
                    if self.over_at.is_some_and(|at| at.elapsed() >= REMATCH_WAIT) {
                        return None;
                    }
                    return Some(web::Bytes::from_static(b":\n\n"));
                }
            }
        }
    }
}

/// Follow a game live
///
/// Server-sent events. First a `game` event: the game as it stands (data:
/// `Game`; its `id` the last ply it includes). On a reconnect with
/// `Last-Event-ID`, the moves after that ply come before it, so nothing
/// is missed. Then, as they happen: a `move` event per move (its `id` the
/// ply, its data a `MoveRecord`); `joined`, `left`, `started`,
/// `resigned` and `timed_out` when the seats change (data: `GameChange`,
/// with the game after the change); a comment line every second while
/// nothing happens; and a last `over` event (data: `GameOverEvent`) when
/// the game ends; the stream then stays open for up to ten minutes for a
/// last `rematch` event (data: `RematchEvent`) when a seat asks to play
/// again. Changes made through other server processes sharing the
/// PostgreSQL database arrive too. Streams are limited per game and per
/// server (503 with `Retry-After` past either) and per client (429).
#[utoipa::path(
    tag = "games",
    operation_id = "followGame",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("Last-Event-ID" = Option<String>, Header, nullable = false, description = "The last event id received (a ply); the moves after it come first")
    ),
    responses(
        (status = 200, description = "An event stream: a `game` event (data: `Game`), then `move` events (data: `MoveRecord`) and seat events (data: `GameChange`), then an `over` event (data: `GameOverEvent`) and maybe a `rematch` event (data: `RematchEvent`)", content_type = "text/event-stream", body = String),
        (status = 429, description = "This client opened too many streams lately, or has its most open (100 by default); see `Retry-After`", body = Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u64, description = "Seconds to wait"))),
        (status = 503, description = "The game or the server has its most streams open; see `Retry-After`", body = Problem, content_type = "application/problem+json",
         headers(("Retry-After" = u64, description = "Seconds to wait"))),
        GameErrors
    )
)]
#[get("/v1/games/{id}/events")]
pub async fn events(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Stream, &req)?;
    if state.hub.stopping().is_stopping() {
        return Err(ApiError::Unavailable {
            detail: "this server is stopping; reconnect (through the proxy, to another)".into(),
            retry_after: 1,
        });
    }
    let game = state.games.load(&id).await?;
    let id = game.id().to_string();
    let resume = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u32>().ok())
        .map(|last| last.saturating_add(1));
    // Follow first, then catch up: a move is either in the catch-up or
    // sent to the follower (or both; the stream skips what it has sent).
    let follower = state.hub.follow(&id, &state.client_key(&req)).map_err(|e| match e {
        Full::Client(_) => {
            crate::meter::refused("streams_per_client");
            ApiError::TooManyRequests { detail: e.to_string(), retry_after: Some(FULL_RETRY_AFTER) }
        }
        Full::Server(_) | Full::Game(_) => {
            crate::meter::refused(if matches!(e, Full::Game(_)) { "streams_per_game" } else { "streams" });
            ApiError::Unavailable { detail: e.to_string(), retry_after: FULL_RETRY_AFTER }
        }
    })?;
    let start = tokio::time::Instant::now() + HEARTBEAT;
    let mut heartbeat = tokio::time::interval_at(start, HEARTBEAT);
    heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut stream = Stream {
        follower,
        store: state.games.store().clone(),
        id: id.clone(),
        pending: VecDeque::new(),
        next: resume.unwrap_or(0),
        over_at: None,
        ended: false,
        heartbeat,
        stopping: state.hub.stopping().watch(),
    };
    let seen = stream.catch_up(resume.is_some()).await?;
    state.hub.caught_up(&id, stream.next, &seen).await;
    let body = futures_util::stream::unfold(stream, |mut s| async move {
        s.next_bytes().await.map(|bytes| (Ok::<_, actix_web::Error>(bytes), s))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}
