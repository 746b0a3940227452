//! A game's live updates as server-sent events.

use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};

use super::games::GameErrors;
use super::problem::ApiError;
use crate::game::Game;
use crate::startup::AppState;
use crate::wire::game::{GameOverEvent, MoveRecord};

/// How often an idle event stream gets a keep-alive comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// One event of the stream, in its wire form.
fn sse_event(event: &str, id: Option<u32>, data: &impl serde::Serialize) -> web::Bytes {
    let id = id.map(|id| format!("id: {id}\n")).unwrap_or_default();
    // Plain serde values: this cannot fail.
    let data = serde_json::to_string(data).unwrap_or_default();
    web::Bytes::from(format!("event: {event}\n{id}data: {data}\n\n"))
}

/// Follow a game live
///
/// Server-sent events: a `move` event per move, its `id` the ply and its
/// data a `MoveRecord`, from the first move (or after the ply in
/// `Last-Event-ID` on a reconnect); comments as keep-alives every 15 s; and
/// a last `over` event, its data a `GameOverEvent`, when the game ends.
/// Moves made through other server processes sharing the PostgreSQL
/// database arrive too.
#[utoipa::path(
    tag = "games",
    operation_id = "followGame",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("Last-Event-ID" = Option<String>, Header, nullable = false, description = "The last ply received; the stream resumes after it")
    ),
    responses(
        (status = 200, description = "An event stream: `move` events (data: `MoveRecord`), then an `over` event (data: `GameOverEvent`)", content_type = "text/event-stream", body = String),
        GameErrors
    )
)]
#[get("/v1/games/{id}/events")]
pub async fn events(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let game = Game::load(&state.store, &id).await?;
    let id = game.id().to_string();
    let mut next = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u32>().ok())
        .map_or(0, |last| last.saturating_add(1));
    let (tx, rx) = tokio::sync::mpsc::channel::<web::Bytes>(64);
    let mut wake = state.hub.subscribe();
    let state = state.into_inner();
    actix_web::rt::spawn(async move {
        loop {
            let moves = match Game::moves_since(&state.store, &id, next).await {
                Ok(m) => m,
                Err(e) => {
                    tracing::warn!(error = %e, game = %id, "event stream: reading moves failed");
                    break;
                }
            };
            for m in moves {
                if tx.send(sse_event("move", Some(m.ply), &MoveRecord::of(&m))).await.is_err() {
                    return;
                }
                next = m.ply + 1;
            }
            if let Ok(game) = Game::load(&state.store, &id).await
                && game.position().is_over()
                && game.position().ply() <= next
            {
                let _ = tx.send(sse_event("over", None, &GameOverEvent::of(&game))).await;
                return;
            }
            // Wait for a move on this game, sending keep-alives meanwhile.
            let deadline = tokio::time::Instant::now() + KEEP_ALIVE;
            loop {
                match tokio::time::timeout_at(deadline, wake.recv()).await {
                    Ok(Ok(game)) if game == id => break,
                    Ok(Ok(_)) => continue,
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => break,
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) => return,
                    Err(_) => {
                        if tx.send(web::Bytes::from_static(b": keep-alive\n\n")).await.is_err() {
                            return;
                        }
                        break;
                    }
                }
            }
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, actix_web::Error>(b), rx))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream))
}
