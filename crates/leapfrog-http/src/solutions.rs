//! `POST /v1/solutions`: peg solitaire solved from a position (rule book
//! §12), for a puzzle's hint: the moves of a solution, or that none is
//! left. The solver runs on the thinking pool within a budget of positions
//! and time, never on a request thread.

use actix_web::{HttpRequest, HttpResponse, post, web};

use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::state::AppState;
use super::stateless::BodyErrors;
use crate::limits::Class;
use leapfrog_wire::solutions::{SolutionRequest, SolutionResponse};

/// Solve peg solitaire
///
/// A solution from the position (the first move is a hint), or that there
/// is none. At most 1,000,000 positions or 2 s; past them the answer says
/// `out_of_budget`.
#[utoipa::path(
    tag = "play",
    operation_id = "solvePosition",
    request_body = SolutionRequest,
    responses(
        (status = 200, description = "What the solver found", body = SolutionResponse),
        (status = 429, description = "Too many requests from this client; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The thinking threads are busy; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
        BodyErrors
    )
)]
#[post("/v1/solutions")]
pub async fn solve(
    state: web::Data<AppState>,
    req: HttpRequest,
    JsonBody(body): JsonBody<SolutionRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Analysis, &req)?;
    let prepared = leapfrog_wire::solutions::prepare(body)?;
    let answer = super::analysis::think(&state, &req, 1, move |_| prepared.run()).await??;
    Ok(HttpResponse::Ok().json(answer))
}
