//! An account's own settings (rule book §15): bot or person, rated games
//! against bots, and the acceptance profile that challenges meet.

use actix_web::{HttpRequest, HttpResponse, patch, web};
use serde::{Deserialize, Deserializer};
use utoipa::ToSchema;

use super::accounts::AccountView;
use super::auth::own_account;
use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::responses::{BadJson, NoAccount, NoToken, NotThisAccount, TooLarge};
use super::state::AppState;
use leapfrog_service::accounts::Settings;
use leapfrog_wire::profile::Accepts;

/// Changes to one's own account; a field left out stays as it is.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"bot": true, "accepts": {"presets": ["murray"], "max_games": 4}}))]
pub struct AccountUpdate {
    /// Make the account a bot: allowed while it has played no rated game,
    /// and for good.
    #[serde(default)]
    pub bot: Option<bool>,
    /// Agree (or no longer) to rated games against bots; a person only.
    #[serde(default)]
    pub rated_against_bots: Option<bool>,
    /// What challenges it accepts; null: any.
    #[serde(default, deserialize_with = "present")]
    #[schema(nullable = true)]
    pub accepts: Option<Option<Accepts>>,
}

/// A field that is present, null or not: `Some`; absent: `None` (by
/// `default`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<Accepts>>, D::Error> {
    Option::<Accepts>::deserialize(d).map(Some)
}

/// Update an account
///
/// Changes the settings of the account the token acts for: whether it is
/// a bot, whether it takes rated games against bots, and its acceptance
/// profile (what challenges it takes; one it would decline is refused at
/// once with the reason). Needs the `account` scope; a bot's own token may
/// set its profile.
#[utoipa::path(
    tag = "accounts",
    operation_id = "updateAccount",
    security(("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    request_body = AccountUpdate,
    responses(
        (status = 200, description = "The account as it is now", body = AccountView),
        BadJson,
        NoToken,
        NotThisAccount,
        NoAccount,
        TooLarge,
        (status = 422, description = "A bot made a person again, an account with rated games made a bot, or a profile that contradicts itself (`field` says which)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[patch("/v1/accounts/{name}")]
pub async fn update_account(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
    JsonBody(body): JsonBody<AccountUpdate>,
) -> Result<HttpResponse, ApiError> {
    let who = own_account(&state, &req, &name).await?;
    let change =
        Settings { bot: body.bot, rated_against_bots: body.rated_against_bots, accepts: body.accepts };
    let account = state.accounts.update(&who, change).await?;
    let ratings = state.accounts.ratings(&account).await?;
    Ok(HttpResponse::Ok().json(AccountView::of(&account, &ratings)))
}
