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

/// Readiness
///
/// 200 only while the database answers.
#[utoipa::path(
    tag = "meta",
    operation_id = "getReadiness",
    responses(
        (status = 200, description = "Ready: the database answers", body = Health),
        (status = 503, description = "The database does not answer", body = Health)
    )
)]
#[get("/readyz")]
pub async fn readyz(state: actix_web::web::Data<crate::startup::AppState>) -> HttpResponse {
    if state.store.ping().await {
        HttpResponse::Ok().json(Health { status: "ok".into() })
    } else {
        HttpResponse::ServiceUnavailable().json(Health { status: "database unavailable".into() })
    }
}
