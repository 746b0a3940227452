//! A seat's conditional moves (rule book §11): kept, read back; played by
//! the games service when the opponent's move begins a line.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, put, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::json::JsonBody;
use super::moves::credential;
use super::problem::{ApiError, Problem};
use super::responses::{BadJson, TooLarge};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_service::play::conditional::{ConditionalError, Lines};
use leapfrog_wire::Refusal;

impl From<ConditionalError> for ApiError {
    fn from(e: ConditionalError) -> Self {
        let detail = e.to_string();
        match e {
            ConditionalError::NotLong | ConditionalError::YourTurn => ApiError::Conflict(detail),
            ConditionalError::TooMany(_) => ApiError::refuse(Refusal::OverBudget, detail, "lines"),
            ConditionalError::Line { .. } => ApiError::refuse(Refusal::IllegalMove, detail, "lines"),
            ConditionalError::Game(e) => e.into(),
        }
    }
}

/// Lines to keep.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"lines": [["b3xb5", "d4xd6"], ["c2xc4", "d4xb4", "a1xa3", "b4xb2"]]}))]
pub struct ConditionalMovesInput {
    /// At most 32 lines, each of 2 to 20 plies in notation: the
    /// opponent's move, the reply, and so on in pairs. Empty: keep none.
    pub lines: Vec<Vec<String>>,
}

/// A seat's lines, private to it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConditionalMoves {
    /// The seat.
    pub player: usize,
    /// The ply of the opponent's move the lines begin with.
    pub ply: u32,
    /// The lines kept (each move in the server's notation).
    pub lines: Vec<Vec<String>>,
}

impl ConditionalMoves {
    fn answer(l: Lines) -> HttpResponse {
        HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(ConditionalMoves {
            player: l.player,
            ply: l.ply,
            lines: l.lines,
        })
    }
}

/// Keep conditional moves
///
/// In a game of two seats with a day or more a move, the seat whose
/// opponent is to move keeps lines ("if b3xb5, then d4xd6; …"), each move
/// checked against the rules now. When the opponent plays a line's first
/// move, the server plays the reply for the seat at once, like any move;
/// the lines that go on stay kept for the next turn, the others are
/// dropped. They replace those kept before; none are seen by anyone else.
/// The seat's token or its account's `play` token.
#[utoipa::path(
    tag = "games",
    operation_id = "setConditionalMoves",
    security(("seatToken" = []), ("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The game's id")),
    request_body = ConditionalMovesInput,
    responses(
        (status = 200, description = "The lines kept", body = ConditionalMoves),
        BadJson,
        TooLarge,
        (status = 401, description = "No seat of this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a long game of two seats under way, or the seat is to move itself", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A line that does not read or is not legal (`detail` names the line and ply, from 0), or too many", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client sent too many moves lately (`limit`: `rate_move`); see `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[put("/v1/games/{id}/conditional-moves")]
pub async fn set_conditional_moves(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
    JsonBody(body): JsonBody<ConditionalMovesInput>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let credential = credential(&state, &req).await?;
    Ok(ConditionalMoves::answer(state.games.set_conditional_moves(&id, &credential, &body.lines).await?))
}

/// Read conditional moves
///
/// The lines the seat keeps for the opponent's move now to come (none
/// once a move has passed them by). The seat's token or its account's
/// `play` token.
#[utoipa::path(
    tag = "games",
    operation_id = "getConditionalMoves",
    security(("seatToken" = []), ("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The lines kept", body = ConditionalMoves),
        (status = 401, description = "No seat of this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/conditional-moves")]
pub async fn get_conditional_moves(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let credential = credential(&state, &req).await?;
    Ok(ConditionalMoves::answer(state.games.conditional_moves(&id, &credential).await?))
}
