//! Accounts and personal access tokens as resources (rule book §13):
//! sign up, make a token with the name and password (signing in), list and
//! revoke tokens, read a profile, delete an account, download what the
//! server holds about it.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth;
use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::query::QueryParams;
use super::responses::{
    BadJson, BadPage, BadQuery, NoAccount, NoToken, NotThisAccount, PasswordsBusy, TooLarge,
};
use super::state::AppState;
use crate::limits::{Checked, Class};
use leapfrog_core::game::GameCursor;
use leapfrog_service::accounts::{
    Account, AccountError, AccountName, AccountRating, Label, Password, Scopes, Token,
};
use std::collections::BTreeMap;

use leapfrog_wire::game::rfc3339;
use leapfrog_wire::position::tenth;

/// A new account's name and password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ann", "password": "frog-spawn-42"}))]
pub struct AccountInput {
    /// 2 to 24 letters (a–z, A–Z), digits, `_` and `-`, starting with a
    /// letter; one account whatever the case.
    #[schema(min_length = 2, max_length = 24, pattern = "^[A-Za-z][A-Za-z0-9_-]{1,23}$")]
    pub name: String,
    /// 8 to 256 characters, any.
    #[schema(min_length = 8, max_length = 256)]
    pub password: String,
    /// A bot account (rule book §15): a program plays it, and it is shown
    /// as one. Left out or false: a person's account.
    #[serde(default)]
    pub bot: bool,
}

/// What a token is asked for with.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ann", "password": "frog-spawn-42", "label": "laptop", "scopes": ["play", "account"]}))]
pub struct TokenInput {
    /// The account's name (any case).
    #[schema(min_length = 1, max_length = 24)]
    pub name: String,
    /// Its password.
    #[schema(min_length = 8, max_length = 256)]
    pub password: String,
    /// A label to know the token by, 1 to 64 characters.
    #[schema(min_length = 1, max_length = 64)]
    pub label: String,
    /// What it may do: `play` (create, join, move, resign) and `account`
    /// (read and change the account).
    #[schema(min_items = 1, value_type = Vec<ScopeName>)]
    pub scopes: Vec<String>,
}

/// A scope of a token.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ScopeName {
    /// Create, join, move, resign.
    Play,
    /// Read and change the account's own data.
    Account,
}

/// An account as anyone sees it.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountView {
    /// Its name, as written when created.
    pub name: String,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// Its rating in each pool it has played rated games in, keyed by pool
    /// (`murray/orthogonal`: preset and direction set; `…/bots` for games
    /// with a bot).
    pub ratings: BTreeMap<String, PoolRating>,
    /// Whether it is a bot (rule book §15).
    pub bot: bool,
    /// Whether it agrees to rated games against bots.
    pub rated_against_bots: bool,
    /// What challenges it accepts; null: any.
    pub accepts: Option<leapfrog_wire::profile::Accepts>,
}

/// An account's rating in one pool (Glicko-2, rule book §13).
#[derive(Debug, Serialize, ToSchema)]
pub struct PoolRating {
    /// The rating, to a tenth.
    pub rating: f64,
    /// Its deviation, to a tenth.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games it counts.
    pub games: i64,
    /// Whether it is still provisional (deviation above 110): left out of
    /// leaderboards.
    pub provisional: bool,
}

impl AccountView {
    pub(crate) fn of(a: &Account, ratings: &[AccountRating]) -> AccountView {
        let ratings = ratings
            .iter()
            .map(|r| {
                let view = PoolRating {
                    rating: tenth(r.rating.rating),
                    deviation: tenth(r.rating.deviation),
                    volatility: r.rating.volatility,
                    games: r.games,
                    provisional: r.rating.provisional(),
                };
                (r.pool.clone(), view)
            })
            .collect();
        AccountView {
            name: a.name.clone(),
            created_at: rfc3339(a.created_at),
            ratings,
            bot: a.bot,
            rated_against_bots: a.rated_against_bots,
            accepts: a.accepts.clone(),
        }
    }
}

/// A token as listed: never its secret.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenView {
    /// Its id, to revoke it by.
    pub id: String,
    /// Its label.
    pub label: String,
    /// Its scopes.
    #[schema(value_type = Vec<ScopeName>)]
    pub scopes: Vec<String>,
    /// When it was made (RFC 3339).
    pub created_at: String,
}

impl TokenView {
    pub(crate) fn of(t: &Token) -> TokenView {
        TokenView {
            id: t.id.clone(),
            label: t.label.clone(),
            scopes: t.scopes.clone(),
            created_at: rfc3339(t.created_at),
        }
    }
}

/// A new token, with its secret: shown this once.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewTokenView {
    /// Its id.
    pub id: String,
    /// The secret: send it as `Authorization: Bearer …`. Shown only here.
    pub token: String,
    /// Its label.
    pub label: String,
    /// Its scopes.
    #[schema(value_type = Vec<ScopeName>)]
    pub scopes: Vec<String>,
    /// When it was made (RFC 3339).
    pub created_at: String,
}

/// A token listing.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenList {
    /// The account's tokens, oldest first.
    pub tokens: Vec<TokenView>,
    /// The cursor of the next page; null on the last.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Query of the token listing.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct TokenQuery {
    /// Tokens per page, 1 to 100 (default 50, the most an account has).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

/// Create an account
///
/// A lasting name with a password (rule book §13). The password is kept
/// only as an Argon2id hash. Sign-ups and sign-ins share a per-client rate
/// limit.
#[utoipa::path(
    tag = "accounts",
    operation_id = "createAccount",
    request_body = AccountInput,
    responses(
        (status = 201, description = "The account", body = AccountView,
         headers(("Location" = String, description = "The account's URL"))),
        BadJson,
        (status = 409, description = "The name is taken, in any case", body = Problem, content_type = "application/problem+json"),
        TooLarge,
        (status = 422, description = "A name or password that breaks the rules", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many sign-ups and sign-ins from this client lately; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
        PasswordsBusy,
    )
)]
#[post("/v1/accounts")]
pub async fn create_account(
    state: web::Data<AppState>,
    req: HttpRequest,
    JsonBody(body): JsonBody<AccountInput>,
) -> Result<HttpResponse, ApiError> {
    let name = AccountName::parse(&body.name)?;
    let password = Password::parse(body.password)?;
    state.limit(Class::SignIn, &req)?;
    let account = state.accounts.create(&name, password, body.bot, &state.client_key(&req)).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/accounts/{}", account.name)))
        .json(AccountView::of(&account, &[])))
}

/// Make a personal access token
///
/// Signs in with the account's name and password and makes a token with a
/// label and scopes. The answer holds the token's secret, shown only this
/// once; it is kept as a hash. A wrong name and a wrong password get the
/// same 401.
#[utoipa::path(
    tag = "accounts",
    operation_id = "createToken",
    request_body = TokenInput,
    responses(
        (status = 201, description = "The token, with its secret", body = NewTokenView),
        BadJson,
        (status = 401, description = "The name or the password is wrong", body = Problem, content_type = "application/problem+json"),
        TooLarge,
        (status = 422, description = "A password, label or scope that breaks the rules, or an account with 50 tokens already (`field`: `tokens`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many sign-ins from this client lately; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
        PasswordsBusy,
    )
)]
#[post("/v1/tokens")]
pub async fn create_token(
    state: web::Data<AppState>,
    req: HttpRequest,
    JsonBody(body): JsonBody<TokenInput>,
) -> Result<HttpResponse, ApiError> {
    let password = Password::parse(body.password)?;
    let label = Label::parse(&body.label)?;
    let scopes = Scopes::parse(&body.scopes)?;
    let attempt = state.limit_sign_in(&body.name, &req)?;
    let signed_in = state.accounts.sign_in(&body.name, password, &state.client_key(&req)).await;
    if let Some(attempt) = attempt {
        let password = match &signed_in {
            Ok(_) => Checked::Right,
            Err(AccountError::Credentials) => Checked::Wrong,
            Err(_) => Checked::Not,
        };
        state.limiter.signed_in(attempt, password, std::time::Instant::now());
    }
    let outcome = match &signed_in {
        Ok(_) => "ok",
        Err(AccountError::Credentials) => "wrong",
        Err(AccountError::TooMany(_) | AccountError::Busy) => "busy",
        Err(_) => "failed",
    };
    metrics::counter!(leapfrog_process::meter::SIGN_INS, "outcome" => outcome).increment(1);
    let account = signed_in?;
    let made = state.accounts.create_token(&account, &label, scopes).await?;
    let view = TokenView::of(&made.listed);
    Ok(HttpResponse::Created()
        // It carries the token's secret: kept by no cache.
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(NewTokenView {
            id: view.id,
            token: made.token.reveal().to_string(),
            label: view.label,
            scopes: view.scopes,
            created_at: view.created_at,
        }))
}

/// List tokens
///
/// The tokens of the account the request's token acts for, without their
/// secrets, oldest first, a page at a time: follow `next_cursor`. Needs
/// the `account` scope. An account has at most 50 tokens.
#[utoipa::path(
    tag = "accounts",
    operation_id = "listTokens",
    security(("accountToken" = ["account"])),
    params(TokenQuery),
    responses(
        (status = 200, description = "A page of the tokens", body = TokenList),
        BadQuery,
        BadPage,
        NoToken,
        NotThisAccount,
    )
)]
#[get("/v1/tokens")]
pub async fn list_tokens(
    state: web::Data<AppState>,
    req: HttpRequest,
    QueryParams(query): QueryParams<TokenQuery>,
) -> Result<HttpResponse, ApiError> {
    let who = auth::account_scope(&state, &req).await?;
    let limit = super::query::page_limit(query.limit)?;
    let after = query
        .cursor
        .as_deref()
        .map(GameCursor::parse)
        .transpose()
        .map_err(|e| ApiError::input(e, "cursor"))?;
    let mut tokens = state
        .accounts
        .tokens_page(&who, after.as_ref().map(|c| (c.created_at, c.id.as_str())), limit + 1)
        .await?;
    let more = tokens.len() > limit;
    tokens.truncate(limit);
    let next_cursor = more
        .then(|| tokens.last().map(|t| GameCursor { created_at: t.created_at, id: t.id.clone() }.to_string()))
        .flatten();
    // What tokens an account has: no cache or proxy keeps it.
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(TokenList { tokens: tokens.iter().map(TokenView::of).collect(), next_cursor }))
}

/// Revoke a token
///
/// The token stops working at once, on every server process. Needs the
/// `account` scope; a token may revoke itself.
#[utoipa::path(
    tag = "accounts",
    operation_id = "revokeToken",
    security(("accountToken" = ["account"])),
    params(("id" = String, Path, description = "The token's id")),
    responses(
        (status = 204, description = "Revoked"),
        NoToken,
        NotThisAccount,
        (status = 404, description = "The account has no token of this id", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/tokens/{id}")]
pub async fn revoke_token(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let who = auth::account_scope(&state, &req).await?;
    state.accounts.revoke(&who, &id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Get an account
///
/// An account's public profile: its name, when it was made, its ratings
/// by pool.
#[utoipa::path(
    tag = "accounts",
    operation_id = "getAccount",
    params(("name" = String, Path, description = "The account's name, any case")),
    responses(
        (status = 200, description = "The account", body = AccountView),
        NoAccount,
    )
)]
#[get("/v1/accounts/{name}")]
pub async fn get_account(
    state: web::Data<AppState>,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let account = state.accounts.profile(&name).await?;
    let ratings = state.accounts.ratings(&account).await?;
    Ok(HttpResponse::Ok().json(AccountView::of(&account, &ratings)))
}

/// Delete an account
///
/// Deletes the account the token acts for: its tokens stop working at
/// once; its open challenges are canceled (the other side's stream says
/// `challenge_canceled`); its games stay, under a name that no longer
/// points to it. Needs the `account` scope.
#[utoipa::path(
    tag = "accounts",
    operation_id = "deleteAccount",
    security(("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    responses(
        (status = 204, description = "Deleted"),
        NoToken,
        NotThisAccount,
    )
)]
#[delete("/v1/accounts/{name}")]
pub async fn delete_account(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let who = auth::own_account(&state, &req, &name).await?;
    state.challenges.delete_account(&who.account_id).await?;
    Ok(HttpResponse::NoContent().finish())
}
