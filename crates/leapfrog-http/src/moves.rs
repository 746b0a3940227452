//! A game's moves as a resource: play one, read the history, list the
//! legal moves now, replay the position at any ply.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::{IntoParams, IntoResponses};

use super::games::{GameErrors, etag};
use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::query::QueryParams;
use super::responses::{BadQuery, TooLarge};
use super::state::AppState;
use super::stateless::{legal_moves_page, respond_page};
use crate::limits::Class;
use leapfrog_core::game::{
    Credential, Expected, IdempotencyKey, MoveOutcome, MoveRequest, SeatToken, Unreadable,
};
use leapfrog_wire::events::{History, MoveRecord};
use leapfrog_wire::game::GameView;
use leapfrog_wire::move_page::LegalMovesResponse;
use leapfrog_wire::{MoveInput, PositionView};

/// The error answers of `POST /v1/games/{id}/moves`.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum MoveErrors {
    /// No `Authorization: Bearer` token, or not one of this game's seats.
    #[response(status = 401, content_type = "application/problem+json")]
    Unauthorized(Problem),
    /// A seat of this game, but not the one to move.
    #[response(status = 403, content_type = "application/problem+json")]
    Forbidden(Problem),
    /// No game has this id.
    #[response(status = 404, content_type = "application/problem+json")]
    NotFound(Problem),
    /// Another request moved the game first; read it again and retry.
    #[response(status = 409, content_type = "application/problem+json")]
    Conflict(Problem),
    /// This client sent too many moves lately; see `Retry-After`.
    #[response(status = 429, content_type = "application/problem+json")]
    TooManyRequests(Problem),
    /// `If-Match` names a version the game no longer has.
    #[response(status = 412, content_type = "application/problem+json")]
    PreconditionFailed(Problem),
}

/// Who acts for a seat, from `Authorization: Bearer …`: a seat's token, or
/// a personal access token (`lfpat_…`) with the `play` scope, whose
/// account holds the seat.
pub(crate) async fn credential(state: &AppState, req: &HttpRequest) -> Result<Credential, ApiError> {
    if let Some(who) = super::auth::player(state, req).await? {
        return Ok(Credential::Account(who.account_id));
    }
    let token = SeatToken::parse(super::auth::bearer(req));
    token.map(Credential::Seat).map_err(|e| ApiError::input(e, "Authorization"))
}

/// The versions `If-Match` allows: `*`, or versions in quotes. The
/// comparison is strong (RFC 9110 §13.1.1): a weak tag (`W/"3"`) is read
/// but matches no version.
///
/// # Errors
///
/// A 400 for anything else.
fn expected(req: &HttpRequest) -> Result<Option<Expected>, ApiError> {
    let Some(sent) = req.headers().get(header::IF_MATCH) else { return Ok(None) };
    let malformed = || ApiError::BadRequest {
        detail: r#"If-Match must be * or the game's versions in quotes, such as "3""#.into(),
        field: Some("If-Match".into()),
    };
    let sent = sent.to_str().map_err(|_| malformed())?;
    let tags: Vec<&str> = sent.split(',').map(str::trim).collect();
    if tags == ["*"] {
        return Ok(Some(Expected::Any));
    }
    // Each tag: `"N"` (strong) or `W/"N"` (weak, never a match).
    let read = |t: &str| -> Option<Option<i64>> {
        let (weak, quoted) = t.strip_prefix("W/").map_or((false, t), |q| (true, q));
        let version = quoted.strip_prefix('"')?.strip_suffix('"')?.parse().ok()?;
        Some((!weak).then_some(version))
    };
    let versions = tags.iter().map(|t| read(t)).collect::<Option<Vec<_>>>().ok_or_else(malformed)?;
    let versions = versions.into_iter().flatten().collect();
    Ok(Some(Expected::OneOf { versions, sent: sent.to_string() }))
}

/// Play a move
///
/// Plays for the seat whose bearer token is given. A move is one
/// transaction: of concurrent moves on one game exactly one wins, the
/// others get 409 (or 412 with a stale `If-Match`). Without `If-Match`, a
/// seat whose own move was just played — its request crossed that move —
/// also gets 409, not 403. Every request with the same `Idempotency-Key`
/// and the same move gets the first answer, concurrent ones included, and
/// changes nothing; the key with another move is a 422. Keys are
/// remembered for 24 hours (configurable).
#[utoipa::path(
    tag = "games",
    operation_id = "playMove",
    security(("seatToken" = []), ("accountToken" = ["play"])),
    params(
        ("id" = String, Path, description = "The game's id"),
        ("If-Match" = Option<String>, Header, nullable = false, pattern = r#"^(\*|(W/)?"[0-9]{1,18}"(\s*,\s*(W/)?"[0-9]{1,18}")*)$"#,
         description = "Play only if the game still has this version: its ETag, such as `\"3\"` (compared strongly: a weak tag never matches)"),
        ("Idempotency-Key" = Option<String>, Header, nullable = false, min_length = 1, max_length = 200, pattern = r"^[\x20-\x7E]+$",
         description = "1 to 200 visible ASCII characters; a retry with the same key replays the first answer")
    ),
    request_body = MoveInput,
    responses(
        (status = 201, description = "The game after the move", body = GameView, headers(("ETag" = String, description = "The new version"))),
        (status = 400, description = "Malformed JSON, a wrong type, or a malformed `If-Match` or `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        TooLarge,
        (status = 422, description = "An illegal move (with the reason), the game is over, or an `Idempotency-Key` sent before with another move", body = Problem, content_type = "application/problem+json"),
        MoveErrors
    )
)]
#[post("/v1/games/{id}/moves")]
pub async fn play_move(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
    JsonBody(mv): JsonBody<MoveInput>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let credential = credential(&state, &req).await?;
    let key = match req.headers().get("idempotency-key") {
        Some(v) => Some(
            v.to_str()
                .ok()
                .and_then(|k| IdempotencyKey::parse(k).ok())
                .ok_or_else(|| ApiError::input(leapfrog_core::game::InputError::Key, "Idempotency-Key"))?,
        ),
        None => None,
    };
    let mv = mv.to_move("path").map_err(|e| Unreadable { detail: e.detail, field: e.field });
    let request = MoveRequest { credential, expected: expected(&req)?, key, mv };
    let (MoveOutcome::Played(game) | MoveOutcome::Replayed(game)) = state.games.play(&id, request).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::ETAG, etag(game.version())))
        .insert_header((header::LOCATION, format!("/v1/games/{}", game.id())))
        .json(GameView::of(&game)))
}

/// List a game's moves
///
/// The history: every move in order.
#[utoipa::path(
    tag = "games",
    operation_id = "listGameMoves",
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, description = "The moves", body = History), GameErrors)
)]
#[get("/v1/games/{id}/moves")]
pub async fn history(state: web::Data<AppState>, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let game = state.games.load(&id).await?;
    let moves = state.games.history(&game, 0).await?;
    Ok(HttpResponse::Ok().json(History { moves: moves.iter().map(MoveRecord::of).collect() }))
}

/// Query of a game's legal moves.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LegalMovesQuery {
    /// Only the moves from this cell (adds the jump tree).
    pub from: Option<String>,
    /// Moves per page, 1 to 1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

/// List a game's legal moves
///
/// The legal moves of the game's current position, as the stateless
/// endpoint gives them.
#[utoipa::path(
    tag = "games",
    operation_id = "listGameLegalMoves",
    params(("id" = String, Path, description = "The game's id"), LegalMovesQuery),
    responses(
        (status = 200, description = "A page of legal moves", body = LegalMovesResponse),
        BadQuery,
        (status = 422, description = "A bad `from`, `limit` or `cursor`, or more moves than one request lists (`over-budget`: 1000000 moves of a position, 100000 from one cell)", body = Problem, content_type = "application/problem+json"),
        GameErrors
    )
)]
#[get("/v1/games/{id}/legal-moves")]
pub async fn game_legal_moves(
    state: web::Data<AppState>,
    http: HttpRequest,
    id: web::Path<String>,
    query: QueryParams<LegalMovesQuery>,
) -> Result<HttpResponse, ApiError> {
    let game = state.games.load(&id).await?;
    let QueryParams(query) = query;
    let client = state.client_key(&http);
    let page = legal_moves_page(
        &state.engine,
        &client,
        game.position().clone(),
        query.from,
        query.limit,
        query.cursor,
    )
    .await?;
    Ok(respond_page(page))
}

/// Get a past position
///
/// The position after the first `ply` moves (0: the deal), replayed from
/// the rules, the seed and the history.
#[utoipa::path(
    tag = "games",
    operation_id = "getGamePosition",
    params(("id" = String, Path, description = "The game's id"), ("ply" = u32, Path, description = "Moves to replay")),
    responses(
        (status = 200, description = "The position", body = PositionView),
        (status = 404, description = "No such game, `ply` is not a whole number, or the game has not reached that ply", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/games/{id}/positions/{ply}")]
pub async fn position_at(
    state: web::Data<AppState>,
    path: web::Path<(String, u32)>,
) -> Result<HttpResponse, ApiError> {
    let (id, ply) = path.into_inner();
    let game = state.games.load(&id).await?;
    let position = state.games.position_at(&game, ply).await?;
    Ok(HttpResponse::Ok().json(PositionView::of(&position)))
}
