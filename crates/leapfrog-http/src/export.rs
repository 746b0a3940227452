//! An account's data as one download (rule book §13): everything the
//! server holds about the account — its settings and ratings, its tokens,
//! webhooks, challenges and vacation — never a secret.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::accounts::{AccountView, TokenView};
use super::auth::own_account;
use super::problem::ApiError;
use super::responses::{NoToken, NotThisAccount};
use super::state::AppState;
use super::vacation::VacationView;
use super::webhooks::WebhookView;
use leapfrog_wire::challenge::ChallengeView;

/// The most challenges an export holds (the newest).
pub const MAX_CHALLENGES: usize = 1_000;

/// What the server holds about an account.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountExport {
    /// The account (its password is held only as a hash, not given).
    pub account: AccountView,
    /// Its tokens, without their secrets.
    pub tokens: Vec<TokenView>,
    /// Its webhook endpoints, without their signing secrets.
    pub webhooks: Vec<WebhookView>,
    /// The challenges it sent or was sent, newest first (at most 1,000).
    pub challenges: Vec<ChallengeView>,
    /// Its vacation days and any vacation under way.
    pub vacation: VacationView,
}

/// Download an account's data
///
/// Everything the server holds about the account the token acts for, as
/// JSON: the account (its password only as a hash, which is not given),
/// its tokens and webhooks without their secrets, its challenges and its
/// vacation. Its games are downloaded apart (`exportAccountGames`). Needs
/// the `account` scope.
#[utoipa::path(
    tag = "accounts",
    operation_id = "exportAccount",
    security(("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    responses(
        (status = 200, description = "The account's data", body = AccountExport),
        NoToken,
        NotThisAccount,
    )
)]
#[get("/v1/accounts/{name}/export")]
pub async fn export_account(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let who = own_account(&state, &req, &name).await?;
    let account = state.accounts.profile(&who.name).await?;
    let ratings = state.accounts.ratings(&account).await?;
    let tokens = state.accounts.tokens(&who).await?;
    let webhooks = state.webhooks.list(&who).await?;
    let challenges = state.challenges.challenges_of(&account, None, MAX_CHALLENGES).await?;
    let vacation = state.vacations.vacation(&account.id, leapfrog_process::now_ms()).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}.json\"", account.name),
        ))
        .json(AccountExport {
            account: AccountView::of(&account, &ratings),
            tokens: tokens.iter().map(TokenView::of).collect(),
            webhooks: webhooks.iter().map(WebhookView::of).collect(),
            challenges: challenges.iter().map(|c| c.view()).collect(),
            vacation: VacationView::of(&vacation, state.vacations.days()),
        }))
}
