//! The stateless endpoints: presets, setups, legal moves, apply — the
//! wire's operations (`leapfrog_wire::stateless`) over HTTP, a large
//! listing on the engine's threads. Each request carries the rules and the
//! position; nothing is stored.

use actix_web::{HttpRequest, HttpResponse, get, post, web};
use utoipa::IntoResponses;

use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::state::AppState;
use leapfrog_service::compute::Engine;
use leapfrog_wire::budget;
use leapfrog_wire::move_page::{LegalMovesResponse, MovePage, write_counted_page, write_page};
use leapfrog_wire::stateless::{
    ApplyRequest, ApplyResponse, LegalMovesRequest, PresetInfo, SetupRequest, SetupResponse,
    rules_and_position,
};

/// The error answers of the endpoints that take a JSON body.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum BodyErrors {
    /// Malformed JSON, a wrong type, a missing or unknown field; `field`
    /// names it.
    #[response(status = 400, content_type = "application/problem+json")]
    BadRequest(Problem),
    /// The body is larger than the limit (64 KiB unless configured).
    #[response(status = 413, content_type = "application/problem+json")]
    TooLarge(Problem),
    /// A well-formed request the rules refuse: an invalid rule set, a bad
    /// board or cell (with rank and file), an illegal move (with the
    /// reason), a board size or player count out of range; or one past the
    /// work budget of a request (`over-budget`: a listing of more than
    /// 1000000 legal moves, or 100000 from one cell with their tree).
    #[response(status = 422, content_type = "application/problem+json")]
    Unprocessable(Problem),
}

/// List the presets
///
/// Every preset with its complete rule set.
#[utoipa::path(
    tag = "rules",
    operation_id = "listPresets",
    responses((status = 200, description = "The presets", body = Vec<PresetInfo>))
)]
#[get("/v1/presets")]
pub async fn presets() -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(leapfrog_wire::stateless::presets()))
}

/// Deal a starting position
///
/// Deals the starting position of a new game. The same rules and seed
/// always give the same board.
#[utoipa::path(
    tag = "play",
    operation_id = "createSetup",
    request_body = SetupRequest,
    responses((status = 200, description = "The starting position", body = SetupResponse), BodyErrors)
)]
#[post("/v1/setups")]
pub async fn setups(JsonBody(req): JsonBody<SetupRequest>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(leapfrog_wire::stateless::setup(req)?))
}

/// List legal moves
///
/// The legal moves of a position, a page at a time, sorted by notation.
/// With `from`, only the moves from that cell, and their jump tree.
#[utoipa::path(
    tag = "play",
    operation_id = "listLegalMoves",
    request_body = LegalMovesRequest,
    responses((status = 200, description = "A page of legal moves", body = LegalMovesResponse), BodyErrors)
)]
#[post("/v1/legal-moves")]
pub async fn legal_moves(
    state: web::Data<AppState>,
    http: HttpRequest,
    JsonBody(req): JsonBody<LegalMovesRequest>,
) -> Result<HttpResponse, ApiError> {
    let pos = rules_and_position(&req.rules, &req.position)?;
    let client = state.client_key(&http);
    let page = legal_moves_page(&state.engine, &client, pos, req.from, req.limit, req.cursor).await?;
    Ok(respond_page(page))
}

/// Apply a move
///
/// Plays one move on a position, or refuses it with the reason.
#[utoipa::path(
    tag = "play",
    operation_id = "applyMove",
    request_body = ApplyRequest,
    responses((status = 200, description = "The position after the move", body = ApplyResponse), BodyErrors)
)]
#[post("/v1/apply")]
pub async fn apply(JsonBody(req): JsonBody<ApplyRequest>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(leapfrog_wire::stateless::apply(req)?))
}

/// A page of `pos`'s legal moves ([`write_page`]'s arguments), written on
/// the request's thread when the position's moves fit [`budget::INLINE`], on the
/// engine's threads otherwise.
///
/// # Errors
///
/// As [`write_page`]; 503 when the engine is busy or late.
pub async fn legal_moves_page(
    engine: &Engine,
    client: &str,
    pos: jump_capture::Position,
    from: Option<String>,
    limit: Option<usize>,
    cursor: Option<String>,
) -> Result<MovePage, ApiError> {
    if let Ok(n) = pos.count_moves(budget::INLINE) {
        return Ok(write_counted_page(&pos, from.as_deref(), limit, cursor.as_deref(), Some(n))?);
    }
    let page = engine
        .run(client, move || write_page(&pos, from.as_deref(), limit, cursor.as_deref()))
        .await
        .map_err(|e| ApiError::unavailable("engine_queue", e.to_string(), 1))?;
    Ok(page?)
}

/// The 200 answer carrying a page's body, without a copy.
pub fn respond_page(page: MovePage) -> HttpResponse {
    let (json, skip) = page.into_parts();
    let body = actix_web::web::Bytes::from(json).slice(skip..);
    HttpResponse::Ok().content_type(actix_web::http::header::ContentType::json()).body(body)
}
