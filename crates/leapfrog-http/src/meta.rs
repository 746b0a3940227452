//! Health and documentation helpers.

use actix_web::{HttpResponse, get};
use serde::Serialize;
use utoipa::ToSchema;

/// The health answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `ok` while the process serves requests.
    pub status: String,
}

/// Liveness
///
/// 200 while the process serves requests.
#[utoipa::path(
    tag = "meta",
    operation_id = "getLiveness",
    responses((status = 200, description = "The server is up", body = Health))
)]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok".into() })
}

/// Metrics
///
/// The process's metrics in Prometheus's text format: requests by route
/// template and status with their latency, moves stored, games by state,
/// event streams open, the thinking pools' queues and waits, the
/// computer's move time, database connections and their wait, refusals by
/// limit, sign-ins by outcome. With `--metrics-bind`, served only there.
#[utoipa::path(
    tag = "meta",
    operation_id = "getMetrics",
    responses(
        (status = 200, description = "Prometheus text exposition format 0.0.4", body = String, content_type = "text/plain"),
        (status = 404, description = "Metrics are served on another address (`--metrics-bind`)", body = super::problem::Problem, content_type = "application/problem+json")
    )
)]
#[get("/metrics")]
pub async fn metrics(
    state: actix_web::web::Data<super::state::AppState>,
    req: actix_web::HttpRequest,
) -> Result<HttpResponse, super::problem::ApiError> {
    use leapfrog_process::meter;
    if state.metrics_bind.is_some_and(|at| at != req.app_config().local_addr()) {
        return Err(super::problem::ApiError::NotFound("metrics are served on another address".into()));
    }
    let (open, _) = state.hub.streams();
    ::metrics::gauge!(meter::STREAMS).set(open as f64);
    let (connections, idle, most) = state.games.store().connections();
    ::metrics::gauge!(meter::DB_CONNECTIONS, "state" => "in_use").set(f64::from(connections) - idle as f64);
    ::metrics::gauge!(meter::DB_CONNECTIONS, "state" => "idle").set(idle as f64);
    ::metrics::gauge!(meter::DB_CONNECTIONS_MAX).set(f64::from(most));
    match state.games.store().games_by_state().await {
        Ok(states) => {
            for state in ["waiting", "opening", "playing", "abandoned", "over"] {
                let n = states.iter().find(|(s, _)| s == state).map_or(0, |(_, n)| *n);
                ::metrics::gauge!(meter::GAMES, "status" => state).set(n as f64);
            }
        }
        Err(e) => tracing::warn!(error = %e, "metrics: counting games failed"),
    }
    Ok(HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(meter::handle().render()))
}

/// `/docs` → `/docs/` (Swagger UI answers under the slash).
pub async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect().insert_header(("Location", "/docs/")).finish()
}

/// The readiness answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    /// `ok`, or what is wrong.
    pub status: String,
    /// Event streams open on this process.
    pub streams_open: usize,
    /// The most event streams this process takes.
    pub streams_limit: usize,
}

/// Readiness
///
/// 200 only while the database answers and the process is not stopping;
/// with the event streams open.
#[utoipa::path(
    tag = "meta",
    operation_id = "getReadiness",
    responses(
        (status = 200, description = "Ready: the database answers", body = Readiness),
        (status = 503, description = "The database does not answer, or the process is stopping", body = Readiness)
    )
)]
#[get("/readyz")]
pub async fn readyz(state: actix_web::web::Data<super::state::AppState>) -> HttpResponse {
    let (streams_open, streams_limit) = state.hub.streams();
    if state.hub.stopping().is_stopping() {
        HttpResponse::ServiceUnavailable().json(Readiness {
            status: "stopping".into(),
            streams_open,
            streams_limit,
        })
    } else if state.games.store().ping().await {
        HttpResponse::Ok().json(Readiness { status: "ok".into(), streams_open, streams_limit })
    } else {
        HttpResponse::ServiceUnavailable().json(Readiness {
            status: "database unavailable".into(),
            streams_open,
            streams_limit,
        })
    }
}
