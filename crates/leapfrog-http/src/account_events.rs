//! An account's live events as server-sent events (rule book §15): the
//! HTTP side of [`leapfrog_service::events::AccountStream`].

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};

use super::problem::{ApiError, Problem};
use super::responses::{NoToken, NotThisAccount};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_service::events::{AccountStream, OpenError, StreamsFull};

/// Seconds a client is told to wait when the streams are at their limit.
const FULL_RETRY_AFTER: u64 = 5;

/// Follow an account live
///
/// Server-sent events of what concerns the account, each with an `id`: its
/// number in the account's event log. A fresh stream starts with the
/// account as it stands — a `challenge` event per open challenge it sent
/// or was sent, and for each unfinished game a `game_started` event (and
/// `your_turn` when it is to move) — without ids. A client that reconnects
/// with `Last-Event-ID` gets exactly the events after that one. Then, as
/// they happen (each kind's data has its schema; `AccountEventKind` names
/// them): `challenge` (a challenge sent to it, or by it: data
/// `ChallengeView`), `challenge_canceled` and `challenge_declined` (data
/// `ChallengeView`, with `reason`), `game_started` (`GameStartedEvent`),
/// `your_turn` (`YourTurnEvent`: deadline and time left in ms when timed),
/// `game_over` (`AccountGameOverEvent`: the result, and its rating change
/// when rated), `vacation` (`VacationEvent`: `reason` `started` with
/// `until`, `ended`, or `day` — a vacation day spent at a deadline, with
/// the game and its new deadline), `webhook_disabled`
/// (`WebhookDisabledEvent`: an endpoint switched off); a comment line every 5 s while nothing
/// happens. Up to 8 streams of one account may be open at once on a
/// server process, each getting every event; changes made through other
/// processes sharing the PostgreSQL database arrive too. Needs the
/// account's personal access token (`play` or `account` scope).
#[utoipa::path(
    tag = "challenges",
    operation_id = "followAccount",
    security(("accountToken" = ["play"]), ("accountToken" = ["account"])),
    params(
        ("name" = String, Path, description = "The account's name, any case"),
        ("Last-Event-ID" = Option<String>, Header, nullable = false, description = "The id of the last event received: exactly the events after it come")
    ),
    responses(
        (status = 200, description = "An event stream: `challenge`, `challenge_canceled`, `challenge_declined`, `game_started`, `your_turn`, `game_over`, `vacation`, `webhook_disabled`", content_type = "text/event-stream", body = String),
        NoToken,
        NotThisAccount,
        (status = 429, description = "The account has its most streams open (`limit`: `streams_per_account`), or this client opened too many streams lately; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The server has its most streams open; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/accounts/{name}/events")]
pub async fn follow_account(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Stream, &req)?;
    let who = super::auth::principal(&state, &req).await?;
    who.is(&name)?;
    let account = state.accounts.profile(&who.name).await?;
    let last = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let snapshot = || async {
        state.challenges.account_snapshot(&account).await.map_err(|e| OpenError::Read(e.to_string()))
    };
    let stream = AccountStream::open(&state.hub, &account.id, &state.client_key(&req), last, snapshot)
        .await
        .map_err(|e| match e {
            OpenError::Stopping => ApiError::unavailable("stopping", e.to_string(), 1),
            OpenError::AccountFull(_) | OpenError::Full(StreamsFull::Game(_)) => {
                ApiError::too_many("streams_per_account", e.to_string(), FULL_RETRY_AFTER)
            }
            OpenError::Full(StreamsFull::Client(_)) => {
                ApiError::too_many("streams_per_client", e.to_string(), FULL_RETRY_AFTER)
            }
            OpenError::Full(StreamsFull::Server(_)) => {
                ApiError::unavailable("streams", e.to_string(), FULL_RETRY_AFTER)
            }
            OpenError::Read(detail) => ApiError::Internal(detail),
        })?;
    let body = futures_util::stream::unfold(stream, |mut s| async move {
        let bytes = s.next_bytes().await?;
        Some((Ok::<_, actix_web::Error>(bytes), s))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}
