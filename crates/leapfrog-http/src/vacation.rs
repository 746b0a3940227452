//! An account's vacation (rule book §11): how many days it has left, and a
//! vacation taken ahead — started, ended early.

use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::own_account;
use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::responses::{BadJson, NoToken, NotThisAccount, TooLarge};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_service::play::now_ms;
use leapfrog_service::vacations::Vacation;
use leapfrog_service::vacations::VacationError;
use leapfrog_wire::Refusal;
use leapfrog_wire::game::rfc3339;

impl From<VacationError> for ApiError {
    fn from(e: VacationError) -> Self {
        let detail = e.to_string();
        match e {
            VacationError::Days { .. } => ApiError::refuse(Refusal::InvalidValue, detail, "days"),
            VacationError::Already(_) | VacationError::NotOnVacation => ApiError::Conflict(detail),
            VacationError::Game(e) => e.into(),
        }
    }
}

/// A vacation to take.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"days": 7}))]
pub struct VacationRequest {
    /// Whole days, at most the days left; spent at once (the days not
    /// begun come back if it is ended early).
    #[schema(minimum = 1, maximum = 366)]
    pub days: i64,
}

/// An account's vacation.
#[derive(Debug, Serialize, ToSchema)]
pub struct VacationView {
    /// Vacation days left this year (UTC).
    pub days_left: i64,
    /// Days a year the server gives.
    pub allowance: i64,
    /// When the vacation under way began (RFC 3339); null when none.
    pub since: Option<String>,
    /// When it ends (RFC 3339); null when none.
    pub until: Option<String>,
}

impl VacationView {
    pub(crate) fn of(v: &Vacation, allowance: i64) -> VacationView {
        VacationView {
            days_left: v.days_left,
            allowance,
            since: v.taken.map(|(from, _)| rfc3339(from)),
            until: v.taken.map(|(_, until)| rfc3339(until)),
        }
    }
}

fn answer(state: &AppState, v: &Vacation) -> HttpResponse {
    HttpResponse::Ok().json(VacationView::of(v, state.vacations.days()))
}

/// Read an account's vacation
///
/// Its vacation days left this year and the vacation under way, if any.
/// In long games (a day or more a move) a seat that reaches its deadline
/// with a day left spends it and gets a day more. Needs the `account` or
/// `play` scope.
#[utoipa::path(
    tag = "accounts",
    operation_id = "getVacation",
    security(("accountToken" = ["play"]), ("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    responses(
        (status = 200, description = "The account's vacation", body = VacationView),
        NoToken,
        NotThisAccount,
    )
)]
#[get("/v1/accounts/{name}/vacation")]
pub async fn get_vacation(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let who = super::auth::principal(&state, &req).await?;
    who.is(&name)?;
    let v = state.vacations.vacation(&who.account_id, now_ms()).await?;
    Ok(answer(&state, &v))
}

/// Start a vacation
///
/// Takes `days` whole vacation days at once: for as long, the account's
/// clocks in its long games stand still — each turn of it running now
/// moves on by the vacation's length, and a turn handed to it meanwhile
/// begins when the vacation ends. Needs the `account` scope.
#[utoipa::path(
    tag = "accounts",
    operation_id = "startVacation",
    security(("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    request_body = VacationRequest,
    responses(
        (status = 200, description = "The vacation under way", body = VacationView),
        BadJson,
        NoToken,
        NotThisAccount,
        TooLarge,
        (status = 409, description = "A vacation is under way already", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Fewer days left than asked for (`field`: `days`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client asked too often lately (`limit`: `rate_create`); see `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/accounts/{name}/vacation")]
pub async fn start_vacation(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
    JsonBody(body): JsonBody<VacationRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Create, &req)?;
    let who = own_account(&state, &req, &name).await?;
    let v = state.vacations.start(&who.account_id, body.days, now_ms()).await?;
    Ok(answer(&state, &v))
}

/// End a vacation early
///
/// Ends the vacation under way now: the whole days not begun come back,
/// and the turns it moved move back by as much. Needs the `account` scope.
#[utoipa::path(
    tag = "accounts",
    operation_id = "endVacation",
    security(("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    responses(
        (status = 200, description = "The account's vacation, none under way", body = VacationView),
        NoToken,
        NotThisAccount,
        (status = 409, description = "No vacation is under way", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client asked too often lately (`limit`: `rate_create`); see `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/accounts/{name}/vacation")]
pub async fn end_vacation(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Create, &req)?;
    let who = own_account(&state, &req, &name).await?;
    let v = state.vacations.end(&who.account_id, now_ms()).await?;
    Ok(answer(&state, &v))
}
