//! Persisted games as a resource: create one, read one, list them.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::{IntoParams, IntoResponses};

use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::query::QueryParams;
use super::responses::{BadPage, BadQuery};
use super::state::AppState;
use super::stateless::BodyErrors;
use crate::limits::Class;
use leapfrog_core::game::{GameCursor, MAX_SEATS, NewSeat, PlayerName};
use leapfrog_service::accounts::{AccountError, Principal};
use leapfrog_service::play::queries::Listed;
use leapfrog_wire::Refusal;
use leapfrog_wire::game::{CreateGameRequest, GameList, GameStatusView, GameView};

/// The answers for a game that does not exist.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum GameErrors {
    /// No game has this id.
    #[response(status = 404, content_type = "application/problem+json")]
    NotFound(Problem),
}

/// A game's move limit in seconds, from seconds or days per move (one of
/// the long games' controls), not both.
///
/// # Errors
///
/// 422 for both, or days that are not a control.
pub fn move_limit(seconds: Option<u32>, days: Option<u8>) -> Result<Option<u32>, ApiError> {
    match (seconds, days) {
        (Some(_), Some(_)) => Err(ApiError::refuse(
            Refusal::InvalidValue,
            "send move_time_limit or days_per_move, not both",
            "days_per_move",
        )),
        (_, Some(d)) if !leapfrog_core::game::DAYS_PER_MOVE.contains(&d) => Err(ApiError::refuse(
            Refusal::InvalidValue,
            format!("{d} days per move: a long game has 1, 2, 3, 5, 7, 10 or 14"),
            "days_per_move",
        )),
        (_, Some(d)) => Ok(Some(u32::from(d) * 24 * 3600)),
        (seconds, None) => Ok(seconds),
    }
}

/// The `ETag` of a version.
pub fn etag(version: i64) -> String {
    format!("\"{version}\"")
}

/// Create a game
///
/// Deals the board and gives each person's seat its secret token, and each
/// private open seat its invitation, shown only in this answer (as `seats`
/// and `invitations`). A game with open seats waits, nothing played, until
/// every seat is held. A seat given as `{"account": NAME}` is held by
/// that account, whose personal access token (with the `play` scope) the
/// request carries as `Authorization: Bearer lfpat_…`.
///
/// A token is optional: this operation names no security requirement, so
/// that generated clients type it as callable without one; send the
/// account's token in the `Authorization` header when a seat is the
/// account's.
#[utoipa::path(
    tag = "games",
    operation_id = "createGame",
    request_body = CreateGameRequest,
    responses(
        (status = 401, description = "A seat held by an account, without a token of it (or with one unknown or revoked)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A seat held by another account than the token's, or a token without the `play` scope", body = Problem, content_type = "application/problem+json"),
        (status = 201, description = "The game, with one token per seat (shown only here)", body = GameView,
         headers(("Location" = String, description = "The game's URL"), ("ETag" = String, description = "Its version"))),
        (status = 429, description = "This client, or the account whose seat it asks for, created too many games lately (with `Retry-After`), or has its most unfinished games, or its most unfinished games of computer seats alone (2 by default)", body = Problem, content_type = "application/problem+json"),
        BodyErrors
    )
)]
#[post("/v1/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    http: HttpRequest,
    JsonBody(req): JsonBody<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Create, &http)?;
    if req.players.is_empty() || req.players.len() > MAX_SEATS {
        return Err(ApiError::refuse(
            Refusal::InvalidValue,
            format!("{} players; a game takes 1 to {MAX_SEATS}", req.players.len()),
            "players",
        ));
    }
    // A seat held by an account needs that account's token.
    let creator: Option<Principal> = if req.players.iter().any(|p| p.account.is_some()) {
        super::auth::player(&state, &http).await?.ok_or(AccountError::Unauthenticated)?.into()
    } else {
        None
    };
    if let Some(who) = &creator {
        // An account's games are limited whatever networks it uses.
        state.limit_account(Class::Create, &who.name)?;
    }
    let seats = req
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| new_seat(p, i, creator.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    // A seat no account holds may not look like an account's.
    for (i, seat) in seats.iter().enumerate() {
        if let NewSeat::Person(name) | NewSeat::Computer(_, name) = seat {
            super::auth::not_an_accounts(&state, name, &format!("players[{i}].name")).await?;
        }
    }
    let rules = req.rules.resolve_cached(None)?;
    let seed = req.seed.map(|s| s.0);
    let (game, created) = state
        .games
        .create(
            rules,
            seats,
            seed,
            move_limit(req.move_time_limit, req.days_per_move)?,
            req.rated,
            &state.creator(&http),
        )
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", game.id())))
        .insert_header((header::ETAG, etag(game.version())))
        // It carries the seats' tokens: kept by no cache.
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(GameView::created(&game, &created)))
}

/// Seat `i` of a creation, as asked for by `p`; an account's seat is the
/// token's (`creator`).
fn new_seat(
    p: &leapfrog_wire::game::PlayerInput,
    i: usize,
    creator: Option<&Principal>,
) -> Result<NewSeat, ApiError> {
    let name = |text: &str, field: &str| PlayerName::parse(text).map_err(|e| ApiError::input(e, field));
    if let Some(account) = &p.account {
        let who: &Principal = creator.ok_or(AccountError::Unauthenticated)?;
        if p.name.is_some() || p.computer.is_some() || p.open.is_some() {
            let detail = "an account's seat has the account's name: no name, computer or open";
            return Err(ApiError::refuse(Refusal::InvalidValue, detail, &format!("players[{i}]")));
        }
        who.is(account)?;
        return Ok(NewSeat::Account(who.seat_account(), PlayerName::stored(&who.name)));
    }
    match (&p.name, p.computer, p.open) {
        (None, None, Some(open)) => Ok(NewSeat::Open(open.visibility())),
        (_, _, Some(_)) => Err(ApiError::refuse(
            Refusal::InvalidValue,
            "an open seat has no name and no computer: whoever joins it names it",
            &format!("players[{i}].open"),
        )),
        (Some(text), None, None) => Ok(NewSeat::Person(name(text, &format!("players[{i}].name"))?)),
        (text, Some(level), None) => {
            let default = format!("Computer ({})", level.level());
            Ok(NewSeat::Computer(
                level.level(),
                name(text.as_deref().unwrap_or(&default), &format!("players[{i}].name"))?,
            ))
        }
        (None, None, None) => Err(ApiError::refuse(
            Refusal::InvalidValue,
            "a seat needs a name (a person), a computer level, or open",
            &format!("players[{i}]"),
        )),
    }
}

/// Get a game
///
/// Send `If-None-Match` with its `ETag` to get 304 while nothing has
/// changed.
#[utoipa::path(
    tag = "games",
    operation_id = "getGame",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game", body = GameView, headers(("ETag" = String, description = "Its version"))),
        (status = 304, description = "Unchanged since the `If-None-Match` version"),
        GameErrors
    )
)]
#[get("/v1/games/{id}")]
pub async fn get_game(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let game = state.games.load(&id).await?;
    let tag = etag(game.version());
    let unchanged =
        req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|v| {
            v.split(',').any(|t| t.trim().trim_start_matches("W/") == tag || t.trim() == "*")
        });
    if unchanged {
        return Ok(HttpResponse::NotModified().insert_header((header::ETAG, tag)).finish());
    }
    Ok(HttpResponse::Ok().insert_header((header::ETAG, tag)).json(GameView::of(&game)))
}

/// The listing filter of a status.
pub(crate) fn listed(s: GameStatusView) -> Listed {
    match s {
        GameStatusView::Waiting => Listed::Waiting,
        GameStatusView::Opening => Listed::Opening,
        GameStatusView::Playing => Listed::Playing,
        GameStatusView::Over => Listed::Over,
    }
}

/// Query of the game listing.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only games with this status; `waiting`: the lobby, games with open
    /// public seats.
    pub status: Option<GameStatusView>,
    /// Games per page, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

/// List games
///
/// Newest first, a page at a time: follow `next_cursor`.
#[utoipa::path(
    tag = "games",
    operation_id = "listGames",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of games", body = GameList),
        BadQuery,
        BadPage
    )
)]
#[get("/v1/games")]
pub async fn list_games(
    state: web::Data<AppState>,
    query: QueryParams<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = super::query::page_limit(query.limit)?;
    let after = query
        .cursor
        .as_deref()
        .map(GameCursor::parse)
        .transpose()
        .map_err(|e| ApiError::input(e, "cursor"))?;
    let status = query.status.map(listed);
    let (games, next) = state.games.list(status, limit, after.as_ref()).await?;
    let games = games.iter().map(GameView::of).collect();
    Ok(HttpResponse::Ok().json(GameList { games, next_cursor: next.map(|c| c.to_string()) }))
}
