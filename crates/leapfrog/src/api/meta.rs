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
/// 200 only while the database answers; with the event streams open.
#[utoipa::path(
    tag = "meta",
    operation_id = "getReadiness",
    responses(
        (status = 200, description = "Ready: the database answers", body = Readiness),
        (status = 503, description = "The database does not answer", body = Readiness)
    )
)]
#[get("/readyz")]
pub async fn readyz(state: actix_web::web::Data<super::state::AppState>) -> HttpResponse {
    let (streams_open, streams_limit) = state.hub.streams();
    if state.games.store().ping().await {
        HttpResponse::Ok().json(Readiness { status: "ok".into(), streams_open, streams_limit })
    } else {
        HttpResponse::ServiceUnavailable().json(Readiness {
            status: "database unavailable".into(),
            streams_open,
            streams_limit,
        })
    }
}
