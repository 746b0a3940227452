//! `POST /v1/solutions`: peg solitaire solved from a position (rule book
//! §12), for a puzzle's hint: the moves of a solution, or that none is
//! left. The solver runs on the thinking pool within a budget of positions
//! and time, never on a request thread.

use actix_web::{HttpRequest, HttpResponse, post, web};
use jump_search::{Goal, GoalError, SolveBudget, Solved};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::state::AppState;
use super::stateless::{BodyErrors, rules_and_position};
use crate::limits::Class;
use leapfrog_wire::{PositionInput, Refusal, Rules};

/// Positions one solve may visit: its table of failed positions stays
/// under 40 MB.
pub const MAX_POSITIONS: u64 = 1_000_000;
/// Time one solve may take, in milliseconds.
pub const MAX_MILLIS: u64 = 2_000;

/// A position of peg solitaire to solve.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "rules": {"preset": "english"},
    "position": {"board": "--OOO--/--OOO--/OOOOOOO/OOO1OOO/OOOOOOO/--OOO--/--OOO--", "ply": 0, "scores": [0]}
}))]
pub struct SolutionRequest {
    /// The rule set: one player, shared pieces (`english`, `triangle`, or
    /// a custom one).
    pub rules: Rules,
    /// The position to solve from.
    pub position: PositionInput,
    /// Where the last piece must stand: a cell, `centre` or `any`.
    /// Default: the board's centre where it has one (a perfect solution),
    /// else anywhere.
    #[serde(default)]
    #[schema(example = "any", max_length = 6)]
    pub goal: Option<String>,
}

/// What a solve found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SolutionStatus {
    /// `moves` solve it.
    Solved,
    /// No sequence of jumps reaches the goal from this position.
    NoSolution,
    /// The budget ran out first: unknown.
    OutOfBudget,
}

/// A solve's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct SolutionResponse {
    /// What it found.
    pub status: SolutionStatus,
    /// The goal it solved for: `any` or the cell of the last piece.
    pub goal: String,
    /// When solved, the solution's moves in order (a piece's jumps in a
    /// row make one move); the first is a hint.
    pub moves: Vec<String>,
    /// Positions visited.
    pub positions: u64,
    /// Time taken.
    pub millis: u64,
}

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
    let pos = rules_and_position(&body.rules, &body.position)?;
    let goal = Goal::read(body.goal.as_deref(), pos.rules().centre()).map_err(|e| {
        let kind = if e == GoalError::NoCentre { Refusal::InvalidValue } else { Refusal::InvalidNotation };
        ApiError::refuse(kind, e, "goal")
    })?;
    let budget = SolveBudget { positions: MAX_POSITIONS, time: std::time::Duration::from_millis(MAX_MILLIS) };
    let answer = super::analysis::think(&state, &req, move || jump_search::solve(&pos, goal, budget))
        .await?
        .map_err(|e| ApiError::refuse(Refusal::InvalidRules, e, "rules"))?;
    let (status, moves) = match answer.solved {
        Solved::Solution(moves) => (SolutionStatus::Solved, moves.iter().map(ToString::to_string).collect()),
        Solved::NoSolution => (SolutionStatus::NoSolution, Vec::new()),
        Solved::OutOfBudget => (SolutionStatus::OutOfBudget, Vec::new()),
    };
    Ok(HttpResponse::Ok().json(SolutionResponse {
        status,
        goal: goal.to_string(),
        moves,
        positions: answer.positions,
        millis: u64::try_from(answer.elapsed.as_millis()).unwrap_or(u64::MAX),
    }))
}
