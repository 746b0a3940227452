//! The refusals many operations share, each written once for the spec
//! (an operation lists the sets it can answer with). What is particular
//! to one operation stays in its own `responses(...)`.

use utoipa::IntoResponses;

use super::problem::Problem;

/// A JSON body that does not read.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum BadJson {
    /// Malformed JSON or a wrong type; `field` names where.
    #[response(status = 400, content_type = "application/problem+json")]
    BadRequest(Problem),
}

/// A body over the server's limit.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum TooLarge {
    /// The body is over the limit (64 KiB unless configured).
    #[response(status = 413, content_type = "application/problem+json")]
    TooLarge(Problem),
}

/// A query string that does not read.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum BadQuery {
    /// An unknown query parameter, or one of the wrong type or value (such
    /// as an unknown `status`).
    #[response(status = 400, content_type = "application/problem+json")]
    BadRequest(Problem),
}

/// A page of a listing asked for wrongly.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum BadPage {
    /// `limit` out of range or a bad `cursor`.
    #[response(status = 422, content_type = "application/problem+json")]
    Unprocessable(Problem),
}

/// An operation that needs a personal access token.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum NoToken {
    /// No token, or one unknown or revoked.
    #[response(status = 401, content_type = "application/problem+json")]
    Unauthorized(Problem),
}

/// An operation that needs the `account` scope, for this account.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum NotThisAccount {
    /// The token has no `account` scope, or (under an account's path)
    /// acts for another account.
    #[response(status = 403, content_type = "application/problem+json")]
    Forbidden(Problem),
}

/// An account named in the path.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum NoAccount {
    /// No account has this name.
    #[response(status = 404, content_type = "application/problem+json")]
    NotFound(Problem),
}

/// An operation that checks a password.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum PasswordsBusy {
    /// The password checks are busy (they take at most their share of a
    /// core); see `Retry-After`.
    #[response(
        status = 503,
        content_type = "application/problem+json",
        headers(("Retry-After" = u64, description = "Seconds to wait"))
    )]
    Unavailable(Problem),
}
