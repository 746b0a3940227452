//! Challenges as a resource (rule book §15): send one to an account or to
//! anyone with its link, list one's own, accept, decline with a reason,
//! cancel. Accepting the last seat makes the game, exactly once.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::auth::playing_account;
use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::query::{QueryParams, page_limit};
use super::responses::{BadJson, BadPage, BadQuery, NoToken, NotThisAccount, TooLarge};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_core::game::GameCursor;
use leapfrog_service::challenges::{ChallengeError, NewChallenge};
use leapfrog_wire::challenge::ChallengeView;
use leapfrog_wire::game::GameView;
use leapfrog_wire::profile::Reason;
use leapfrog_wire::{Refusal, Rules};

impl From<ChallengeError> for ApiError {
    fn from(e: ChallengeError) -> Self {
        let detail = e.to_string();
        match e {
            ChallengeError::NotFound(_) => ApiError::NotFound(detail),
            ChallengeError::Yourself => ApiError::refuse(Refusal::InvalidValue, detail, "to"),
            ChallengeError::Declined { reason, .. } => ApiError::Declined { reason: reason.key(), detail },
            ChallengeError::OptIn(_) => ApiError::refuse(Refusal::InvalidValue, detail, "rated"),
            ChallengeError::NotYours(_) => ApiError::Forbidden(detail),
            ChallengeError::Closed(_) | ChallengeError::AlreadyIn(_) => ApiError::Conflict(detail),
            ChallengeError::Expired => ApiError::Gone(detail),
            ChallengeError::Seats(_) => ApiError::refuse(Refusal::InvalidValue, detail, "seat"),
            ChallengeError::Game(e) => e.into(),
        }
    }
}

/// A challenge asked for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"to": "Robo", "rules": {"preset": "murray", "rows": 8, "cols": 8},
    "move_time_limit": 60, "rated": true}))]
pub struct ChallengeRequest {
    /// The account challenged; left out: an open challenge, for anyone
    /// with its id (it stays open a day, a direct one ten minutes).
    #[serde(default)]
    #[schema(min_length = 2, max_length = 24)]
    pub to: Option<String>,
    /// The rule set of its game.
    pub rules: Rules,
    /// How many seats its game has (2 to 64, within the rules' range;
    /// default 2). A challenge of more collects acceptances until full.
    #[serde(default)]
    #[schema(minimum = 2, maximum = 64)]
    pub players: Option<usize>,
    /// The challenger's seat, from 0 (default 0: moving first).
    #[serde(default)]
    #[schema(minimum = 0, maximum = 63)]
    pub seat: Option<usize>,
    /// Seconds a seat has for each move (5 to 1209600); left out: no limit.
    #[serde(default)]
    #[schema(minimum = 5, maximum = 1209600)]
    pub move_time_limit: Option<u32>,
    /// A long game's control instead: 1, 2, 3, 5, 7, 10 or 14 days per
    /// move. Not with `move_time_limit`.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<u8>,
    /// Rated (rule book §13, §15); left out or false: casual.
    #[serde(default)]
    pub rated: bool,
}

/// An acceptance's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Accepted {
    /// The challenge after it.
    pub challenge: ChallengeView,
    /// Its game, when this acceptance took the last seat: the accounts
    /// play it with their own tokens.
    #[schema(required = true)]
    pub game: Option<GameView>,
}

/// A decline.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"reason": "too_fast"}))]
pub struct DeclineRequest {
    /// Why (default `generic`).
    #[serde(default)]
    pub reason: Option<Reason>,
}

/// A page of challenges.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChallengeList {
    /// The account's challenges, sent and received, newest first.
    pub challenges: Vec<ChallengeView>,
    /// The cursor of the next page; null on the last.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Query of the challenge listing.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ChallengeQuery {
    /// Challenges per page, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

/// The problems of a challenge that does not exist.
const NO_CHALLENGE: &str = "No challenge has this id";

/// Send a challenge
///
/// Challenges an account (`to`) or anyone with the challenge's id (no
/// `to`) to a game on these terms. What the challenged account's profile
/// would decline is refused at once (422 `declined`, with its `reason`),
/// never sent. Needs a personal access token with the `play` scope.
#[utoipa::path(
    tag = "challenges",
    operation_id = "createChallenge",
    security(("accountToken" = ["play"])),
    request_body = ChallengeRequest,
    responses(
        (status = 201, description = "The challenge, open", body = ChallengeView,
         headers(("Location" = String, description = "The challenge's URL"))),
        BadJson,
        NoToken,
        NotThisAccount,
        (status = 404, description = "No account has the name `to`", body = Problem, content_type = "application/problem+json"),
        TooLarge,
        (status = 422, description = "Terms the rules refuse (`field`), a challenge to oneself, a rated game with a person who has not agreed to bots, or one the challenged account's profile declines (`declined`, with `reason`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client or account challenged too often lately (`limit`: `rate_create`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/challenges")]
pub async fn create_challenge(
    state: web::Data<AppState>,
    req: HttpRequest,
    JsonBody(body): JsonBody<ChallengeRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Create, &req)?;
    let (who, from) = playing_account(&state, &req).await?;
    state.limit_account(Class::Create, &who.name)?;
    let to = match &body.to {
        Some(name) => Some(state.accounts.profile(name).await?),
        None => None,
    };
    let new = NewChallenge {
        rules: body.rules.resolve_cached(None)?,
        seats: body.players.unwrap_or(2),
        seat: body.seat.unwrap_or(0),
        move_limit: super::games::move_limit(body.move_time_limit, body.days_per_move)?,
        rated: body.rated,
    };
    let challenge = state.challenges.challenge(&from, to.as_ref(), new).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/challenges/{}", challenge.id)))
        .json(challenge.view()))
}

/// List challenges
///
/// The challenges the token's account sent or was sent, newest first, a
/// page at a time. Needs a personal access token with the `play` scope.
#[utoipa::path(
    tag = "challenges",
    operation_id = "listChallenges",
    security(("accountToken" = ["play"])),
    params(ChallengeQuery),
    responses(
        (status = 200, description = "A page of challenges", body = ChallengeList),
        BadQuery,
        BadPage,
        NoToken,
        NotThisAccount,
    )
)]
#[get("/v1/challenges")]
pub async fn list_challenges(
    state: web::Data<AppState>,
    req: HttpRequest,
    QueryParams(query): QueryParams<ChallengeQuery>,
) -> Result<HttpResponse, ApiError> {
    let (_, account) = playing_account(&state, &req).await?;
    let limit = page_limit(query.limit)?;
    let before = query
        .cursor
        .as_deref()
        .map(GameCursor::parse)
        .transpose()
        .map_err(|e| ApiError::input(e, "cursor"))?;
    let mut page = state
        .challenges
        .challenges_of(&account, before.as_ref().map(|c| (c.created_at, c.id.as_str())), limit + 1)
        .await?;
    let more = page.len() > limit;
    page.truncate(limit);
    let next_cursor = more
        .then(|| page.last().map(|c| GameCursor { created_at: c.created_at, id: c.id.clone() }.to_string()))
        .flatten();
    Ok(HttpResponse::Ok()
        .json(ChallengeList { challenges: page.iter().map(|c| c.view()).collect(), next_cursor }))
}

/// Get a challenge
///
/// A challenge by its id: anyone with it may read it (an open challenge's
/// id is its invitation).
#[utoipa::path(
    tag = "challenges",
    operation_id = "getChallenge",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge", body = ChallengeView),
        (status = 404, description = NO_CHALLENGE, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/challenges/{id}")]
pub async fn get_challenge(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(state.challenges.get_challenge(&id).await?.view()))
}

/// Accept a challenge
///
/// Takes a free seat of the challenge (the account it was sent to, or
/// anyone for an open one); the last seat taken makes the game, exactly
/// once however many accept at once. Needs a personal access token with
/// the `play` scope.
#[utoipa::path(
    tag = "challenges",
    operation_id = "acceptChallenge",
    security(("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge, and its game when this took the last seat", body = Accepted),
        NoToken,
        (status = 403, description = "The challenger, an account the challenge was not sent to, or a token without the `play` scope", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = NO_CHALLENGE, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Accepted, declined or canceled already (a deleted account's challenges are canceled), or this account is seated already", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "Expired", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Consent, read now: at the accepter's most games (`declined`, `reason`: `busy`), an account seated that no longer takes whom it meets (`declined`, `reason`: `no_bot`, `only_bot`, `busy`), or a rated game with a person who has not agreed to bots (`field`: `rated`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "An account seated, or this client, has its most unfinished games (`limit`: `unfinished_games`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/challenges/{id}/accept")]
pub async fn accept_challenge(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let (_, account) = playing_account(&state, &req).await?;
    let (challenge, game) = state.challenges.accept(&id, &account, &state.creator(&req)).await?;
    Ok(HttpResponse::Ok()
        .json(Accepted { challenge: challenge.view(), game: game.as_ref().map(GameView::of) }))
}

/// Decline a challenge
///
/// The account a challenge was sent to declines it, with a reason a
/// program can act on. Needs a personal access token with the `play` scope.
#[utoipa::path(
    tag = "challenges",
    operation_id = "declineChallenge",
    security(("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The challenge's id")),
    request_body = DeclineRequest,
    responses(
        (status = 200, description = "The challenge, declined", body = ChallengeView),
        BadJson,
        NoToken,
        (status = 403, description = "Not the account the challenge was sent to (an open challenge is not declined), or a token without the `play` scope", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = NO_CHALLENGE, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No longer open", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "Expired", body = Problem, content_type = "application/problem+json"),
        TooLarge,
    )
)]
#[post("/v1/challenges/{id}/decline")]
pub async fn decline_challenge(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
    JsonBody(body): JsonBody<DeclineRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let (_, account) = playing_account(&state, &req).await?;
    let challenge = state.challenges.decline(&id, &account, body.reason.unwrap_or(Reason::Generic)).await?;
    Ok(HttpResponse::Ok().json(challenge.view()))
}

/// Cancel a challenge
///
/// Its challenger withdraws it while it is open. Needs a personal access
/// token with the `play` scope.
#[utoipa::path(
    tag = "challenges",
    operation_id = "cancelChallenge",
    security(("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge, canceled", body = ChallengeView),
        NoToken,
        (status = 403, description = "Not its challenger, or a token without the `play` scope", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = NO_CHALLENGE, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No longer open", body = Problem, content_type = "application/problem+json"),
        (status = 410, description = "Expired", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/challenges/{id}/cancel")]
pub async fn cancel_challenge(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let (_, account) = playing_account(&state, &req).await?;
    let challenge = state.challenges.cancel(&id, &account).await?;
    Ok(HttpResponse::Ok().json(challenge.view()))
}
