//! `POST /v1/analysis`: the computer's view of a position. The search runs
//! on the thinking pool, never on a request thread.

use actix_web::{HttpRequest, HttpResponse, post, web};
use jump_search::Budget;
use serde::{Deserialize, Serialize};
use utoipa::{IntoResponses, ToSchema};

use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::state::AppState;
use super::stateless::{BodyErrors, rules_and_position};
use crate::limits::Class;
use leapfrog_service::compute::pools::{Busy, JobKind};
use leapfrog_wire::{PositionInput, Refusal, Rules, SeedInput, seed_string};

/// Most iterations one analysis may ask for.
pub const MAX_ITERATIONS: u64 = 200_000;
/// Most milliseconds one analysis may ask for.
pub const MAX_MILLIS: u64 = 5_000;
/// Iterations when the request names no budget.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// A request to analyse a position.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "rules": {"preset": "murray"},
    "position": {"board": "5/2R2/2WG1/W1R2/W1W2", "ply": 2, "scores": [0, 0]},
    "iterations": 5000,
    "seed": "1"
}))]
pub struct AnalysisRequest {
    /// The rule set.
    pub rules: Rules,
    /// The position.
    pub position: PositionInput,
    /// Think for this many iterations (1 to 200000; default 10000 when
    /// neither budget is given): with a seed, the same answer every time.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 200_000)]
    pub iterations: Option<u64>,
    /// Think for about this many milliseconds instead (1 to 5000).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 5_000)]
    pub millis: Option<u64>,
    /// Seed of the search (a decimal string or a number); drawn when
    /// omitted or null.
    #[serde(default)]
    pub seed: Option<SeedInput>,
}

/// A move the search considered.
#[derive(Debug, Serialize, ToSchema)]
pub struct CandidateView {
    /// The move in notation.
    pub notation: String,
    /// Its path.
    pub path: Vec<String>,
    /// Iterations that went through it (0 when the game was searched to
    /// its end).
    pub visits: u64,
    /// Each player's expected result after it, 0 to 1 (a win's share, a
    /// fifth of it given by the share of points where scores rank), in
    /// player order.
    pub expected: Vec<f64>,
}

/// What the search found.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisResponse {
    /// The move to play, in notation.
    pub best: String,
    /// The moves considered, best first (at most 20).
    pub candidates: Vec<CandidateView>,
    /// The principal line: the best move and the best replies, in notation.
    pub line: Vec<String>,
    /// Iterations done (positions solved, when exact).
    pub iterations: u64,
    /// Milliseconds spent thinking.
    pub millis: u64,
    /// Whether the game was searched to its end: then the best move is
    /// perfect play.
    pub exact: bool,
    /// The seed the search drew from, as a decimal string.
    pub seed: String,
}

/// The answers when the computer cannot think now.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum AnalysisErrors {
    /// This client asked for too many analyses lately, or has its most
    /// running or waiting at once (2 by default); see `Retry-After`.
    #[response(status = 429, content_type = "application/problem+json")]
    TooManyRequests(Problem),
    /// Every thinking thread is busy and the queue is full; see
    /// `Retry-After`.
    #[response(status = 503, content_type = "application/problem+json")]
    Unavailable(Problem),
}

/// Analyse a position
///
/// Searches a position and answers with the best move, every candidate's
/// visits and expected result for each player, and the principal line.
/// Budgets are capped (200000 iterations, 5000 ms; over the cap is a 422).
/// The search runs on a bounded pool of threads, at most 5 seconds
/// whatever the budget; when its queue is full the answer is 503 with
/// `Retry-After`, at once, and so it is when no thread was free within 2
/// seconds. A client may have 2 analyses running or waiting (429 past it).
#[utoipa::path(
    tag = "play",
    operation_id = "analysePosition",
    request_body = AnalysisRequest,
    responses(
        (status = 200, description = "The analysis", body = AnalysisResponse),
        (status = 422, description = "The game is over, a budget is over its cap, both budgets are given, or the rules or position are refused", body = Problem, content_type = "application/problem+json"),
        BodyErrors,
        AnalysisErrors
    )
)]
#[post("/v1/analysis")]
pub async fn analysis(
    state: web::Data<AppState>,
    req: HttpRequest,
    JsonBody(body): JsonBody<AnalysisRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Analysis, &req)?;
    let budget = budget(body.iterations, body.millis)?;
    let pos = rules_and_position(&body.rules, &body.position)?;
    if pos.is_over() {
        return Err(ApiError::refuse(
            Refusal::GameOver,
            "the game is over: there is no move to find",
            "position",
        ));
    }
    let seed = body.seed.map_or_else(jump_capture::random_seed, |s| s.0);
    let answer =
        think(&state, &req, move || jump_search::analyse(&pos, budget, seed)).await?.ok_or_else(|| {
            ApiError::refuse(Refusal::GameOver, "the game is over: there is no move to find", "position")
        })?;
    let notation = |m: &jump_capture::Move| m.to_string();
    Ok(HttpResponse::Ok().json(AnalysisResponse {
        best: notation(&answer.best),
        candidates: answer
            .candidates
            .iter()
            .take(20)
            .map(|c| CandidateView {
                notation: notation(&c.mv),
                path: c.mv.path().iter().map(ToString::to_string).collect(),
                visits: c.visits,
                expected: c.expected.clone(),
            })
            .collect(),
        line: answer.line.iter().map(notation).collect(),
        iterations: answer.iterations,
        millis: u64::try_from(answer.elapsed.as_millis()).unwrap_or(u64::MAX),
        exact: answer.exact,
        seed: seed_string(seed),
    }))
}

/// Runs `job` on the thinking pool's background lane as the client of
/// `req`, counted against its cap of analyses: its answer, or 503 / 429
/// when the pool or the client is busy.
pub(super) async fn think<T: Send + 'static>(
    state: &AppState,
    req: &HttpRequest,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let client = state.client_key(req);
    state
        .thinkers
        .submit(JobKind::Background, &client, Some(state.analyses_per_client), job)
        .map_err(|busy| match busy {
            Busy::Full { .. } => ApiError::unavailable("think_queue", busy.to_string(), 1),
            Busy::Client { .. } => ApiError::too_many("analyses_per_client", busy.to_string(), 1),
        })?
        .await
        .map_err(|_| ApiError::Internal("a search ended without an answer".into()))?
        .map_err(|late| ApiError::unavailable("think_wait", format!("the computer is busy: {late}"), 1))
}

/// The budget a request asks for, within the caps.
fn budget(iterations: Option<u64>, millis: Option<u64>) -> Result<Budget, ApiError> {
    match (iterations, millis) {
        (Some(_), Some(_)) => {
            Err(ApiError::refuse(Refusal::InvalidValue, "give iterations or millis, not both", "millis"))
        }
        // The time cap holds for a budget in iterations too.
        (Some(n), None) if (1..=MAX_ITERATIONS).contains(&n) => {
            Ok(Budget::IterationsWithin { iterations: n, millis: MAX_MILLIS })
        }
        (Some(n), None) => Err(ApiError::refuse(
            Refusal::InvalidValue,
            format!("iterations must be from 1 to {MAX_ITERATIONS}, not {n}"),
            "iterations",
        )),
        (None, Some(ms)) if (1..=MAX_MILLIS).contains(&ms) => Ok(Budget::Millis(ms)),
        (None, Some(ms)) => Err(ApiError::refuse(
            Refusal::InvalidValue,
            format!("millis must be from 1 to {MAX_MILLIS}, not {ms}"),
            "millis",
        )),
        (None, None) => Ok(Budget::IterationsWithin { iterations: DEFAULT_ITERATIONS, millis: MAX_MILLIS }),
    }
}
