//! RFC 9457 problem details: the one error type of the HTTP layer.
//!
//! Every error a client can cause maps to a status and a problem body that
//! says what was wrong and where. Internal errors are logged with their
//! cause and shown to the client only as "internal error".

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};

use leapfrog_core::game::{InputError, RuleError};
use leapfrog_service::accounts::AccountError;
use leapfrog_service::play::GameError;
use leapfrog_service::play::consent::Refused;
pub use leapfrog_wire::problem::Problem;
use leapfrog_wire::{Invalid, Refusal};

pub use leapfrog_wire::problem::PROBLEM_JSON;

/// Everything the HTTP layer can answer with other than success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Malformed JSON, a wrong type, a missing or unknown field: 400.
    #[error("{detail}")]
    BadRequest {
        /// What was wrong.
        detail: String,
        /// Where.
        field: Option<String>,
    },
    /// A body over the limit: 413.
    #[error("the request body is larger than the limit of {limit} bytes")]
    PayloadTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// A well-formed request the rules refuse: 422.
    #[error("{detail}")]
    Unprocessable {
        /// Which kind of refusal.
        kind: Refusal,
        /// What was wrong.
        detail: String,
        /// Where.
        field: Option<String>,
    },
    /// No or unknown credentials: 401.
    #[error("{0}")]
    Unauthorized(String),
    /// Valid credentials that may not do this: 403.
    #[error("{0}")]
    Forbidden(String),
    /// No such resource: 404.
    #[error("{0}")]
    NotFound(String),
    /// Another request changed the resource first: 409.
    #[error("{0}")]
    Conflict(String),
    /// `If-Match` names an old version: 412.
    #[error("{0}")]
    PreconditionFailed(String),
    /// The path exists, the method does not: 405.
    #[error("{method} is not allowed on {path}; allowed: {allow}")]
    MethodNotAllowed {
        /// The method used.
        method: String,
        /// The path.
        path: String,
        /// The methods the path takes, comma-separated.
        allow: String,
    },
    /// What the other side would decline, refused at once: 422 with the
    /// reason's key.
    #[error("{detail}")]
    Declined {
        /// The key (`busy`, `rules`, …).
        reason: &'static str,
        /// In words.
        detail: String,
    },
    /// A thing that was there and is no more (an expired challenge): 410.
    #[error("{0}")]
    Gone(String),
    /// Over a rate limit or a quota of the client or account: 429, with
    /// `Retry-After`.
    #[error("{detail}")]
    TooManyRequests {
        /// The limit's name, as the metrics and the README give it.
        limit: &'static str,
        /// Which limit, and what to do.
        detail: String,
        /// Seconds until a retry may succeed.
        retry_after: u64,
    },
    /// The server is at a limit of its own (streams, threads, stopping):
    /// 503 with `Retry-After`.
    #[error("{detail}")]
    Unavailable {
        /// The limit's name, as the metrics and the README give it.
        limit: &'static str,
        /// Which limit.
        detail: String,
        /// Seconds to wait before retrying.
        retry_after: u64,
    },
    /// A bug or an outage. Logged; the client sees no detail.
    #[error("internal error")]
    Internal(String),
}

impl From<Invalid> for ApiError {
    fn from(e: Invalid) -> Self {
        ApiError::Unprocessable { kind: e.kind, detail: e.detail, field: Some(e.field) }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> Self {
        let detail = e.to_string();
        match e {
            GameError::NotFound(_) | GameError::NoSuchPly { .. } => ApiError::NotFound(detail),
            GameError::NotASeat => ApiError::Unauthorized(detail),
            GameError::Consent(Refused::BotsPlayChallenges) => ApiError::Forbidden(detail),
            GameError::Consent(Refused::OptIn(_)) => ApiError::refuse(Refusal::InvalidValue, detail, "rated"),
            GameError::Consent(Refused::Declined { reason, .. }) => {
                ApiError::Declined { reason: reason.key(), detail }
            }
            GameError::Game(RuleError::NotYourTurn { .. }) => ApiError::Forbidden(detail),
            GameError::StaleVersion { .. } => ApiError::PreconditionFailed(detail),
            GameError::Conflict | GameError::Moved { .. } => ApiError::Conflict(detail),
            GameError::KeyReused { .. } => ApiError::refuse(Refusal::KeyReused, detail, "Idempotency-Key"),
            // Waiting helps only as games end: a minute.
            GameError::TooManyGames { .. } | GameError::AccountTooManyGames { .. } => {
                ApiError::too_many("unfinished_games", detail, 60)
            }
            GameError::TooManyComputerGames { .. } => ApiError::too_many("computer_games", detail, 60),
            GameError::Game(RuleError::Over) => ApiError::refuse(Refusal::GameOver, detail, "path"),
            GameError::Game(RuleError::Waiting)
            | GameError::Game(RuleError::NotWaiting)
            | GameError::Game(RuleError::SeatTaken { .. })
            | GameError::Game(RuleError::NoOpenSeat)
            | GameError::Game(RuleError::NotOver)
            | GameError::Game(RuleError::AlreadyResigned { .. }) => ApiError::Conflict(detail),
            GameError::Game(RuleError::NoSuchSeat { .. }) => ApiError::NotFound(detail),
            GameError::Game(RuleError::Invitation) | GameError::Game(RuleError::RatedNeedsAccount) => {
                ApiError::Forbidden(detail)
            }
            GameError::Game(RuleError::AlreadySeated { .. }) => ApiError::Conflict(detail),
            GameError::Game(RuleError::NotRateable(_)) => {
                ApiError::refuse(Refusal::InvalidValue, detail, "rated")
            }
            GameError::Game(RuleError::MoveLimit(_)) => {
                ApiError::refuse(Refusal::InvalidValue, detail, "move_time_limit")
            }
            GameError::Game(RuleError::TooManyMoves { .. }) => {
                ApiError::refuse(Refusal::OverBudget, detail, "rules")
            }
            GameError::Game(RuleError::Invalid(unreadable)) => {
                ApiError::refuse(Refusal::InvalidNotation, unreadable.detail, &unreadable.field)
            }
            GameError::Game(RuleError::Illegal(_)) => ApiError::refuse(Refusal::IllegalMove, detail, "path"),
            GameError::Game(RuleError::Players(_)) => {
                ApiError::refuse(Refusal::InvalidValue, detail, "players")
            }
            GameError::Game(RuleError::Corrupt { .. }) | GameError::Randomness(_) | GameError::Store(_) => {
                ApiError::Internal(detail)
            }
        }
    }
}

impl ApiError {
    /// A value from outside that does not parse, in `field`: a 400 for a
    /// header, a 422 for a value of the body or query.
    pub fn input(e: InputError, field: &str) -> ApiError {
        match e {
            InputError::Token => ApiError::Unauthorized(e.to_string()),
            InputError::Key => ApiError::BadRequest { detail: e.to_string(), field: Some(field.into()) },
            InputError::Name(_) | InputError::Cursor => ApiError::refuse(Refusal::InvalidValue, e, field),
        }
    }
}

impl ApiError {
    /// A 422 with a field.
    pub fn refuse(kind: Refusal, detail: impl ToString, field: &str) -> ApiError {
        ApiError::Unprocessable { kind, detail: detail.to_string(), field: Some(field.to_string()) }
    }

    /// A 429 for `limit` (counted in the metrics), retry in `retry_after`
    /// seconds.
    pub fn too_many(limit: &'static str, detail: impl Into<String>, retry_after: u64) -> ApiError {
        leapfrog_process::meter::refused(limit);
        ApiError::TooManyRequests { limit, detail: detail.into(), retry_after }
    }

    /// A 503 for the server's own `limit` (counted in the metrics), retry
    /// in `retry_after` seconds.
    pub fn unavailable(limit: &'static str, detail: impl Into<String>, retry_after: u64) -> ApiError {
        leapfrog_process::meter::refused(limit);
        ApiError::Unavailable { limit, detail: detail.into(), retry_after }
    }

    /// The problem body.
    pub fn problem(&self) -> Problem {
        let (slug, title, field) = match self {
            ApiError::BadRequest { field, .. } => ("invalid-request", "Malformed request", field.clone()),
            ApiError::PayloadTooLarge { .. } => ("payload-too-large", "Request body too large", None),
            ApiError::Unprocessable { kind, field, .. } => {
                let (slug, title) = kind.slug_title();
                (slug, title, field.clone())
            }
            ApiError::Unauthorized(_) => ("unauthorized", "Unauthorized", None),
            ApiError::Forbidden(_) => ("forbidden", "Forbidden", None),
            ApiError::NotFound(_) => ("not-found", "Not found", None),
            ApiError::Conflict(_) => ("conflict", "Conflict", None),
            ApiError::PreconditionFailed(_) => ("precondition-failed", "Precondition failed", None),
            ApiError::MethodNotAllowed { .. } => ("method-not-allowed", "Method not allowed", None),
            ApiError::Declined { .. } => ("declined", "Declined", None),
            ApiError::Gone(_) => ("gone", "Gone", None),
            ApiError::TooManyRequests { .. } => ("too-many-requests", "Too many requests", None),
            ApiError::Unavailable { .. } => ("unavailable", "Service unavailable", None),
            ApiError::Internal(_) => ("internal", "Internal error", None),
        };
        Problem {
            limit: match self {
                ApiError::TooManyRequests { limit, .. } | ApiError::Unavailable { limit, .. } => {
                    Some((*limit).to_string())
                }
                _ => None,
            },
            reason: match self {
                ApiError::Declined { reason, .. } => Some((*reason).to_string()),
                _ => None,
            },
            ..Problem::new(slug, title, self.status_code().as_u16(), self.to_string(), field)
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. } => StatusCode::BAD_REQUEST,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unprocessable { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Declined { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Gone(_) => StatusCode::GONE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let ApiError::Internal(cause) = self {
            tracing::error!(cause = %cause, "internal error");
        }
        let mut response = HttpResponse::build(self.status_code());
        response.insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)));
        if let ApiError::MethodNotAllowed { allow, .. } = self {
            response.insert_header((header::ALLOW, allow.as_str()));
        }
        if let ApiError::Unauthorized(_) = self {
            response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        if let ApiError::TooManyRequests { retry_after: secs, .. }
        | ApiError::Unavailable { retry_after: secs, .. } = self
        {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        response.body(serde_json::to_string(&self.problem()).unwrap_or_else(|_| "{}".to_string()))
    }
}

/// Seconds to wait when the password checks are busy.
const BUSY_RETRY_AFTER: u64 = 2;

impl From<AccountError> for ApiError {
    fn from(e: AccountError) -> Self {
        let detail = e.to_string();
        match e {
            AccountError::Invalid { field, .. } => ApiError::refuse(Refusal::InvalidValue, detail, field),
            AccountError::TooManyTokens(_) => ApiError::refuse(Refusal::InvalidValue, detail, "tokens"),
            AccountError::Taken(_) | AccountError::LooksLike { .. } => ApiError::Conflict(detail),
            AccountError::Credentials | AccountError::Unauthenticated => ApiError::Unauthorized(detail),
            AccountError::Scope(_) | AccountError::NotYours => ApiError::Forbidden(detail),
            AccountError::NotFound(_) => ApiError::NotFound(detail),
            AccountError::TooMany(_) => ApiError::too_many("sign_ins_waiting", detail, BUSY_RETRY_AFTER),
            AccountError::Busy => ApiError::unavailable("password_share", detail, BUSY_RETRY_AFTER),
            AccountError::Randomness(_) | AccountError::Hash(_) | AccountError::Store(_) => {
                ApiError::Internal(detail)
            }
        }
    }
}
