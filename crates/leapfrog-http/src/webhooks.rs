//! An account's webhooks as resources (rule book §16): register an
//! endpoint (its secret answered once), list, delete, send a test event,
//! rotate the secret, list recent deliveries.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::auth::own_account;
use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::query::{QueryParams, page_limit};
use super::responses::{BadJson, BadPage, BadQuery, NoToken, NotThisAccount, TooLarge};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_core::game::GameCursor;
use leapfrog_service::webhooks::{Delivery, Webhook, WithSecret};
use leapfrog_wire::game::rfc3339;

/// An endpoint to register.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"url": "https://example.org/leapfrog", "events": ["your_turn", "game_over"]}))]
pub struct WebhookRequest {
    /// Where deliveries are sent: `https://`, at a public address.
    #[schema(max_length = 2000)]
    pub url: String,
    /// The events sent: of `challenge`, `challenge_canceled`,
    /// `challenge_declined`, `game_started`, `your_turn`, `game_over`,
    /// `vacation`, `webhook_disabled`. Left out or empty: all.
    #[serde(default)]
    pub events: Vec<String>,
}

/// An endpoint, without its secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookView {
    /// Its id.
    pub id: String,
    /// Where deliveries go.
    pub url: String,
    /// The events sent; empty: all.
    pub events: Vec<String>,
    /// When it was registered (RFC 3339).
    pub created_at: String,
    /// Whether deliveries are sent to it.
    pub enabled: bool,
    /// Why it was switched off: `gone` (it answered 410) or `failing` (a
    /// day of failures); null while on.
    pub disabled: Option<String>,
    /// Since when every try failed (RFC 3339); null after a success.
    pub failing_since: Option<String>,
    /// Until when the secret before the last rotation still signs too.
    pub old_secret_until: Option<String>,
}

impl WebhookView {
    pub(crate) fn of(w: &Webhook) -> WebhookView {
        WebhookView {
            id: w.id.clone(),
            url: w.url.clone(),
            events: w.events.clone(),
            created_at: rfc3339(w.created_at),
            enabled: w.disabled.is_none(),
            disabled: w.disabled.clone(),
            failing_since: w.failing_since.map(rfc3339),
            old_secret_until: w.old_secret_until.filter(|&t| t > leapfrog_process::now_ms()).map(rfc3339),
        }
    }
}

/// An endpoint with its secret: shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookSecret {
    /// The endpoint.
    #[serde(flatten)]
    pub webhook: WebhookView,
    /// The signing secret (`whsec_…`): deliveries carry
    /// `webhook-signature: v1,<base64 HMAC-SHA256 of id.timestamp.body>`
    /// under the base64 key after `whsec_`. Not shown again.
    pub secret: String,
}

impl WebhookSecret {
    fn of(made: &WithSecret) -> HttpResponse {
        let body = WebhookSecret { webhook: WebhookView::of(&made.webhook), secret: made.secret.clone() };
        HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(body)
    }
}

/// An account's endpoints.
#[derive(Debug, Serialize, ToSchema)]
pub struct WebhookList {
    /// Oldest first; at most 5.
    pub webhooks: Vec<WebhookView>,
}

/// One delivery of an event to an endpoint.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryView {
    /// The `webhook-id` header of its every try.
    pub id: String,
    /// The event's type.
    #[serde(rename = "type")]
    pub kind: String,
    /// When the event happened (RFC 3339).
    pub created_at: String,
    /// `pending`, `delivered`, `failed` (every try spent) or `dropped`
    /// (the endpoint was switched off).
    pub status: String,
    /// Tries made.
    pub tries: i64,
    /// When it is tried next, while pending (RFC 3339).
    pub next_try_at: Option<String>,
    /// The status of the last answer.
    pub last_status: Option<i64>,
    /// Why the last try got no answer.
    pub last_error: Option<String>,
}

impl DeliveryView {
    fn of(d: &Delivery) -> DeliveryView {
        DeliveryView {
            id: d.id.clone(),
            kind: d.kind.clone(),
            created_at: rfc3339(d.created_at),
            status: d.status.clone(),
            tries: d.tries,
            next_try_at: d.next_at.map(rfc3339),
            last_status: d.last_status,
            last_error: d.last_error.clone(),
        }
    }
}

/// A page of deliveries.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryList {
    /// Newest first.
    pub deliveries: Vec<DeliveryView>,
    /// The next page's cursor; null on the last.
    pub next_cursor: Option<String>,
}

/// A test delivery queued.
#[derive(Debug, Serialize, ToSchema)]
pub struct TestDelivery {
    /// Its id (`webhook-id`); listed among the deliveries.
    pub id: String,
}

/// Which deliveries to list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct DeliveryQuery {
    /// Deliveries per page, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

/// The account a request acts for, which must be the one in the path, and
/// the webhook id of the path.
async fn owner_and_id(
    state: &AppState,
    req: &HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<(leapfrog_service::accounts::Principal, String), ApiError> {
    let (name, id) = path.into_inner();
    Ok((own_account(state, req, &name).await?, id))
}

/// Register a webhook
///
/// Registers an endpoint for events of the account's stream; each is
/// POSTed to it as JSON `{"type", "timestamp", "data"}`, signed as the
/// Standard Webhooks specification says (`webhook-id`, `webhook-timestamp`,
/// `webhook-signature`), tried again after 5 s, 5 min, 30 min, 2 h, 5 h,
/// 10 h and 24 h while the answer is not 2xx (`Retry-After` honoured). An
/// answer of 410, or a day of failures, switches the endpoint off (the
/// account's stream says so). Only `https://` at globally reachable
/// addresses (checked now and at every try, every address a name resolves
/// to; any IPv6 form carrying an IPv4 address judged by that address); no
/// user name or password, control, format or space character in the URL;
/// no redirect is followed; 10 s a try, resolving included; at most 4
/// tries in flight to one endpoint and 8 to one account's. The answer
/// holds the signing secret, shown this once. At most 5 an account; needs
/// the `account` scope.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "createWebhook",
    security(("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    request_body = WebhookRequest,
    responses(
        (status = 201, description = "Registered; `secret` is shown this once", body = WebhookSecret),
        BadJson,
        NoToken,
        NotThisAccount,
        TooLarge,
        (status = 422, description = "A URL refused (not https, a private address, does not resolve), an unknown event, or the account's 5 webhooks (`field`: `url`, `events`, `webhooks`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client asked too often lately (`limit`: `rate_create`); see `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/accounts/{name}/webhooks")]
pub async fn create_webhook(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
    JsonBody(body): JsonBody<WebhookRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Create, &req)?;
    let who = own_account(&state, &req, &name).await?;
    let made = state.webhooks.create(&who, &body.url, &body.events, state.reach).await?;
    let mut answer = WebhookSecret::of(&made);
    *answer.status_mut() = actix_web::http::StatusCode::CREATED;
    Ok(answer)
}

/// List webhooks
///
/// The account's endpoints, without their secrets. Needs the `account` scope.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "listWebhooks",
    security(("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    responses(
        (status = 200, description = "The endpoints", body = WebhookList),
        NoToken,
        NotThisAccount,
    )
)]
#[get("/v1/accounts/{name}/webhooks")]
pub async fn list_webhooks(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let who = own_account(&state, &req, &name).await?;
    let webhooks = state.webhooks.list(&who).await?.iter().map(WebhookView::of).collect();
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(WebhookList { webhooks }))
}

/// Delete a webhook
///
/// Nothing more is sent to it, pending deliveries included. Needs the
/// `account` scope.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "deleteWebhook",
    security(("accountToken" = ["account"])),
    params(
        ("name" = String, Path, description = "The account's name, any case"),
        ("id" = String, Path, description = "The webhook's id")
    ),
    responses(
        (status = 204, description = "Deleted"),
        NoToken,
        NotThisAccount,
        (status = 404, description = "The account has no such webhook", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/accounts/{name}/webhooks/{id}")]
pub async fn delete_webhook(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (who, id) = owner_and_id(&state, &req, path).await?;
    state.webhooks.delete(&who, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Rotate a webhook's secret
///
/// A new secret, answered this once; for a day deliveries are signed with
/// both (two signatures in `webhook-signature`), so the receiver can
/// switch without missing one. Needs the `account` scope.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "rotateWebhookSecret",
    security(("accountToken" = ["account"])),
    params(
        ("name" = String, Path, description = "The account's name, any case"),
        ("id" = String, Path, description = "The webhook's id")
    ),
    responses(
        (status = 200, description = "The new secret, shown this once", body = WebhookSecret),
        NoToken,
        NotThisAccount,
        (status = 404, description = "The account has no such webhook", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client asked too often lately (`limit`: `rate_create`); see `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/accounts/{name}/webhooks/{id}/rotate")]
pub async fn rotate_webhook_secret(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Create, &req)?;
    let (who, id) = owner_and_id(&state, &req, path).await?;
    Ok(WebhookSecret::of(&state.webhooks.rotate(&who, &id).await?))
}

/// Send a test event
///
/// Queues a `webhook_test` delivery to the endpoint (whether or not it
/// takes other events), sent and tried again like any; listed among its
/// deliveries. Needs the `account` scope.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "testWebhook",
    security(("accountToken" = ["account"])),
    params(
        ("name" = String, Path, description = "The account's name, any case"),
        ("id" = String, Path, description = "The webhook's id")
    ),
    responses(
        (status = 202, description = "Queued", body = TestDelivery),
        NoToken,
        NotThisAccount,
        (status = 404, description = "The account has no such webhook", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The webhook is switched off (`field`: `webhook`): a test goes nowhere; register the endpoint again", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client asked too often lately (`limit`: `rate_create`); see `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/accounts/{name}/webhooks/{id}/test")]
pub async fn test_webhook(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Create, &req)?;
    let (who, id) = owner_and_id(&state, &req, path).await?;
    let id = state.webhooks.test(&who, &id).await?;
    Ok(HttpResponse::Accepted().json(TestDelivery { id }))
}

/// List a webhook's deliveries
///
/// Its deliveries, newest first, a page at a time (follow `next_cursor`):
/// each with its status, tries and next try. Needs the `account` scope.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "listWebhookDeliveries",
    security(("accountToken" = ["account"])),
    params(
        ("name" = String, Path, description = "The account's name, any case"),
        ("id" = String, Path, description = "The webhook's id"),
        DeliveryQuery
    ),
    responses(
        (status = 200, description = "A page of deliveries", body = DeliveryList),
        BadQuery,
        BadPage,
        NoToken,
        NotThisAccount,
        (status = 404, description = "The account has no such webhook", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/accounts/{name}/webhooks/{id}/deliveries")]
pub async fn list_webhook_deliveries(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    QueryParams(query): QueryParams<DeliveryQuery>,
) -> Result<HttpResponse, ApiError> {
    let (who, id) = owner_and_id(&state, &req, path).await?;
    let limit = page_limit(query.limit)?;
    let before = query
        .cursor
        .as_deref()
        .map(GameCursor::parse)
        .transpose()
        .map_err(|e| ApiError::input(e, "cursor"))?
        .map(|c| (c.created_at, c.id));
    let mut rows = state.webhooks.deliveries(&who, &id, before, limit as i64 + 1).await?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next_cursor = more
        .then(|| rows.last().map(|d| GameCursor { created_at: d.created_at, id: d.id.clone() }.to_string()))
        .flatten();
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(DeliveryList { deliveries: rows.iter().map(DeliveryView::of).collect(), next_cursor }))
}
