//! RFC 9457 problem details: how every front end — the HTTP API, the
//! in-process bindings (`local`) — answers a request it refuses, so that a
//! program reads one shape whichever it called.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Invalid;
use crate::body::BadBody;

/// The media type of problem details.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// A problem detail (RFC 9457), the body of every error response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:leapfrog:problem:illegal-move",
    "title": "Illegal move",
    "status": 422,
    "detail": "e3 is not empty",
    "field": "move.path"
}))]
pub struct Problem {
    /// A URI naming the kind of problem; stable, for programs to match on.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short human summary of the kind of problem.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong in this request, in words a user can act on.
    pub detail: String,
    /// The request field at fault, as a dotted path (`rules.rows`,
    /// `move.path[1]`), when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// On a 429 or a 503: the limit met, by the name the README's limits
    /// table and the metrics give it (`rate_move`, `unfinished_games`,
    /// `password_share`, …). The answer's `Retry-After` says when to retry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// On a challenge refused at once (`declined`): the key of the reason
    /// the account would decline it for (`rules`, `busy`, `too_fast`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Problem {
    /// A problem of the kind `slug` (the last part of its `type`).
    pub fn new(slug: &str, title: &str, status: u16, detail: String, field: Option<String>) -> Problem {
        Problem {
            kind: format!("urn:leapfrog:problem:{slug}"),
            title: title.to_string(),
            status,
            detail,
            field,
            limit: None,
            reason: None,
        }
    }
}

impl From<&Invalid> for Problem {
    /// A refusal of the rules: 422, its kind's slug and title.
    fn from(e: &Invalid) -> Problem {
        let (slug, title) = e.kind.slug_title();
        Problem::new(slug, title, 422, e.detail.clone(), Some(e.field.clone()))
    }
}

impl From<BadBody> for Problem {
    /// A body that does not read as the request: 400.
    fn from(e: BadBody) -> Problem {
        Problem::new(BadBody::SLUG, BadBody::TITLE, 400, e.detail, e.field)
    }
}
