//! Authentication: who a request acts for. A personal access token
//! (`Authorization: Bearer lfpat_…`) acts for its account within its
//! scopes; seat tokens and invitations are the games'. Every handler that
//! needs an account asks here, and nowhere else reads the header.

use actix_web::HttpRequest;
use actix_web::http::header;

use super::problem::ApiError;
use super::state::AppState;
use leapfrog_core::game::PlayerName;
use leapfrog_service::accounts::{AccessToken, AccountError, Principal, Scope};
use leapfrog_wire::Refusal;

/// Refuses `name` for a seat no account holds when it looks like an
/// account's name (rule book §13); `field` says where it was sent.
///
/// # Errors
///
/// A 422 naming the account; store failures.
pub async fn not_an_accounts(state: &AppState, name: &PlayerName, field: &str) -> Result<(), ApiError> {
    state.accounts.check_seat_name(name.as_str()).await.map_err(|e| match e {
        AccountError::LooksLike { .. } => ApiError::refuse(Refusal::InvalidValue, e.to_string(), field),
        other => other.into(),
    })
}

/// What `Authorization: Bearer …` carries (empty when nothing).
pub fn bearer(req: &HttpRequest) -> &str {
    req.headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("")
}

/// The account a request's token acts for, if it carries one with the
/// prefix of personal access tokens.
///
/// # Errors
///
/// [`AccountError::Unauthenticated`] for none, or one unknown or revoked.
pub async fn principal(state: &AppState, req: &HttpRequest) -> Result<Principal, ApiError> {
    let token = AccessToken::parse(bearer(req).trim()).ok_or(AccountError::Unauthenticated)?;
    Ok(state.accounts.authenticate(&token).await?)
}

/// The account a request's token acts for, with the `account` scope:
/// the account's own data.
///
/// # Errors
///
/// As [`principal`]; 403 without the `account` scope.
pub async fn account_scope(state: &AppState, req: &HttpRequest) -> Result<Principal, ApiError> {
    let who = principal(state, req).await?;
    who.needs(Scope::Account)?;
    Ok(who)
}

/// The account named `name`, if the request's token acts for it with the
/// `account` scope.
///
/// # Errors
///
/// As [`account_scope`]; 403 for another account.
pub async fn own_account(state: &AppState, req: &HttpRequest, name: &str) -> Result<Principal, ApiError> {
    let who = account_scope(state, req).await?;
    who.is(name)?;
    Ok(who)
}

/// The account the request's `play` token acts for, as stored now.
///
/// # Errors
///
/// No token (401), one unknown or revoked or without the `play` scope;
/// the account gone.
pub async fn playing_account(
    state: &AppState,
    req: &HttpRequest,
) -> Result<(Principal, leapfrog_service::accounts::Account), ApiError> {
    let who = player(state, req).await?.ok_or(AccountError::Unauthenticated)?;
    let account = state.accounts.profile(&who.name).await?;
    Ok((who, account))
}

/// The account a request acts for when it carries a personal access token
/// (`lfpat_…`) with the `play` scope; `None` when it carries none.
///
/// # Errors
///
/// A token that is unknown or revoked, or has no `play` scope.
pub async fn player(state: &AppState, req: &HttpRequest) -> Result<Option<Principal>, ApiError> {
    if AccessToken::parse(bearer(req).trim()).is_none() {
        return Ok(None);
    }
    let who = principal(state, req).await?;
    who.needs(Scope::Play)?;
    Ok(Some(who))
}
