//! A game's live updates as server-sent events: the HTTP side of
//! [`leapfrog_service::events::Stream`].

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};

use super::games::GameErrors;
use super::problem::{ApiError, Problem};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_service::events::{Stream, StreamError, StreamsFull};
use leapfrog_service::play::GameError;

/// Seconds a client is told to wait when the streams are at their limit.
const FULL_RETRY_AFTER: u64 = 5;

/// Follow a game live
///
/// Server-sent events, each with an `id`: its number in the game's event
/// log, which holds every change of the game in order. A fresh stream
/// starts with a `game` event: the game as it stands (data: `Game`; its
/// `id` the number of the last event it includes). A client that
/// reconnects with `Last-Event-ID` gets exactly the events after that
/// one, in order, and no `game` event: what it assembles is what an
/// uninterrupted stream sent, byte for byte. Then, as they happen: a
/// `move` event per move (data: `MoveEvent`, the move and the game just
/// after it); `joined`, `left`, `started`, `resigned`, `timed_out`,
/// `deadline_moved` (the seat to move's deadline, for its owner's
/// vacation) and `abandoned` when the seats or the game's state change (data:
/// `GameChange`, with the game after the change); an `over` event at the
/// end of play (data: `GameOverEvent`); a comment line every second while
/// nothing happens. After the end the stream stays open for up to ten
/// minutes for a last `rematch` event (data: `RematchEvent`), after which
/// nothing follows; a fresh stream of a game that has its rematch sends
/// the game (which names it) and ends. Changes made through other server processes sharing
/// the PostgreSQL database arrive too. Streams are limited per game and
/// per server (503 with `Retry-After` past either) and per client (429).
#[utoipa::path(
    tag = "games",
    operation_id = "followGame",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("Last-Event-ID" = Option<String>, Header, nullable = false, description = "The id of the last event received: exactly the events after it come, and no `game` event")
    ),
    responses(
        (status = 200, description = "An event stream: a `game` event (data: `Game`) unless resuming, then `move` events (data: `MoveEvent`), seat events (data: `GameChange`), an `over` event (data: `GameOverEvent`) and maybe a `rematch` event (data: `RematchEvent`)", content_type = "text/event-stream", body = String),
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
        let detail = "this server is stopping; reconnect (through the proxy, to another)";
        return Err(ApiError::unavailable("stopping", detail, 1));
    }
    // Through the games service: a 404, and the log of a game stored
    // before there were logs made first.
    let game = state.games.load(&id).await?;
    let last = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let follower = state.hub.follow(game.id(), &state.client_key(&req)).map_err(|e| match e {
        StreamsFull::Client(_) => ApiError::too_many("streams_per_client", e.to_string(), FULL_RETRY_AFTER),
        StreamsFull::Game(_) => ApiError::unavailable("streams_per_game", e.to_string(), FULL_RETRY_AFTER),
        StreamsFull::Server(_) => ApiError::unavailable("streams", e.to_string(), FULL_RETRY_AFTER),
    })?;
    let stream = Stream::start(follower, game.id(), last).await.map_err(|e| match e {
        StreamError::NotFound(id) => GameError::NotFound(id),
        StreamError::Damaged(e) => GameError::Game(e),
        StreamError::Store(e) => GameError::Store(e),
    })?;
    let body = futures_util::stream::unfold(stream, |mut s| async move {
        s.next_bytes().await.map(|bytes| (Ok::<_, actix_web::Error>(bytes), s))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}
