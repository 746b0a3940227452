//! An account's live events as server-sent events (rule book §15): the
//! HTTP side of [`leapfrog_service::events::AccountStream`].

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};

use super::problem::{ApiError, Problem};
use super::responses::{NoToken, NotThisAccount};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_service::accounts::AccountError;
use leapfrog_service::events::{AccountStream, StreamsFull};
use leapfrog_store::ACCOUNT_KEY;

/// Streams of one account open at once on one server process.
pub const STREAMS_PER_ACCOUNT: usize = 8;
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
    if state.hub.stopping().is_stopping() {
        let detail = "this server is stopping; reconnect (through the proxy, to another)";
        return Err(ApiError::unavailable("stopping", detail, 1));
    }
    let key = format!("{ACCOUNT_KEY}{}", account.id);
    if state.hub.followers(&key) >= STREAMS_PER_ACCOUNT {
        let detail =
            format!("this account has {STREAMS_PER_ACCOUNT} event streams open, its most; close one first");
        return Err(ApiError::too_many("streams_per_account", detail, FULL_RETRY_AFTER));
    }
    let follower = state.hub.follow(&key, &state.client_key(&req)).map_err(|e| match e {
        StreamsFull::Client(_) => ApiError::too_many("streams_per_client", e.to_string(), FULL_RETRY_AFTER),
        StreamsFull::Game(_) => ApiError::too_many("streams_per_account", e.to_string(), FULL_RETRY_AFTER),
        StreamsFull::Server(_) => ApiError::unavailable("streams", e.to_string(), FULL_RETRY_AFTER),
    })?;
    // Read after following: every event the log lacks now comes live.
    let logged = state.games.store().account_event_count(&account.id).await.map_err(AccountError::from)?;
    let last = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let fresh = last.is_none_or(|l| l.saturating_add(1) > logged);
    let snapshot = if fresh { state.challenges.account_snapshot(&account).await? } else { Vec::new() };
    let stream = AccountStream::start(follower, &account.id, logged, last, snapshot)
        .await
        .map_err(AccountError::from)?;
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
