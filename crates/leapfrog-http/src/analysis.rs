//! `POST /v1/analysis`: the computer's view of a position (the wire's
//! `analysis`). The search runs on the thinking pool, never on a request
//! thread.

use actix_web::{HttpRequest, HttpResponse, post, web};
use utoipa::IntoResponses;

use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::state::AppState;
use super::stateless::BodyErrors;
use crate::limits::Class;
use leapfrog_service::compute::pools::{Busy, JobKind, SEARCH_THREADS};
use leapfrog_wire::analysis::{AnalysisRequest, AnalysisResponse};

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
    let prepared = leapfrog_wire::analysis::prepare(body)?;
    let wide = prepared.threads_of(SEARCH_THREADS);
    let answer = think(&state, &req, wide, move |threads| prepared.run_on(threads)).await??;
    Ok(HttpResponse::Ok().json(answer))
}

/// Runs `job` on the thinking pool's background lane as the client of
/// `req`, counted against its cap of analyses, on up to `wide` threads
/// (called with those the pool gives it): its answer, or 503 / 429 when the
/// pool or the client is busy.
pub(super) async fn think<T: Send + 'static>(
    state: &AppState,
    req: &HttpRequest,
    wide: usize,
    job: impl FnOnce(usize) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let client = state.client_key(req);
    state
        .thinkers
        .submit_search(JobKind::Background, &client, Some(state.analyses_per_client), wide, job)
        .map_err(|busy| match busy {
            Busy::Full { .. } => ApiError::unavailable("think_queue", busy.to_string(), 1),
            Busy::Client { .. } => ApiError::too_many("analyses_per_client", busy.to_string(), 1),
        })?
        .await
        .map_err(|_| ApiError::Internal("a search ended without an answer".into()))?
        .map_err(|late| ApiError::unavailable("think_wait", format!("the computer is busy: {late}"), 1))
}
