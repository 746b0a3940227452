//! Tournaments as a resource (rule book §17): create one, list them, read
//! one with its players and standings, join, leave, start, and page
//! through its games. The handlers are here; `views` holds the request
//! and answer forms.

mod views;

use views::view;
pub use views::{
    CrossRow, StandingView, TiebreakView, TournamentFormat, TournamentGameList, TournamentGameView,
    TournamentGamesQuery, TournamentList, TournamentPlayerView, TournamentQuery, TournamentRequest,
    TournamentView,
};

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};

use super::auth::playing_account;
use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::query::{QueryParams, page_limit};
use super::responses::{BadJson, BadPage, BadQuery, NoToken, NotThisAccount, TooLarge};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_core::game::GameCursor;
use leapfrog_service::tournaments::{NewTournament, Status, TournamentError};
use leapfrog_wire::Refusal;

impl From<TournamentError> for ApiError {
    fn from(e: TournamentError) -> Self {
        let detail = e.to_string();
        match e {
            TournamentError::NotFound(_) => ApiError::NotFound(detail),
            TournamentError::Invalid(field, _) => ApiError::refuse(Refusal::InvalidValue, detail, field),
            TournamentError::Limit { limit: "max_players", .. } => {
                ApiError::refuse(Refusal::InvalidValue, detail, "max_players")
            }
            TournamentError::Limit { limit, .. } => ApiError::too_many(limit, detail, 3600),
            TournamentError::Closed(_) | TournamentError::AlreadyIn(_) | TournamentError::NotIn(_) => {
                ApiError::Conflict(detail)
            }
            TournamentError::NotYours(_) => ApiError::Forbidden(detail),
            TournamentError::Consent(_) => ApiError::refuse(Refusal::InvalidValue, detail, "account"),
            TournamentError::Game(e) => e.into(),
        }
    }
}

const NO_TOURNAMENT: &str = "No tournament has this id";

/// Create a tournament
///
/// A round-robin (single or double) or a Swiss of a fixed number of
/// rounds, live (seconds a move) or by correspondence (days a move), open
/// to all or by invitation, with bots or without; it starts at its start
/// time or when its creator says. Needs a personal access token with the
/// `play` scope.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "createTournament",
    security(("accountToken" = ["play"])),
    request_body = TournamentRequest,
    responses(
        (status = 201, description = "The tournament, open", body = TournamentView,
         headers(("Location" = String, description = "The tournament's URL"))),
        BadJson,
        NoToken,
        NotThisAccount,
        (status = 404, description = "An account invited does not exist", body = Problem, content_type = "application/problem+json"),
        TooLarge,
        (status = 422, description = "Terms refused (`field`): a name, rules of other than two seats, a rated game the rules do not allow, players out of range (`max_players`: past the server's most), rounds, a start time passed", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Created too often lately (`limit`: `rate_create`), or at the most events open or running (`limit`: `events_per_account`, `events`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tournaments")]
pub async fn create_tournament(
    state: web::Data<AppState>,
    req: HttpRequest,
    JsonBody(body): JsonBody<TournamentRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Create, &req)?;
    let (who, creator) = playing_account(&state, &req).await?;
    state.limit_account(Class::Create, &who.name)?;
    let move_limit =
        super::games::move_limit(body.move_time_limit, body.days_per_move)?.ok_or_else(|| {
            ApiError::refuse(
                Refusal::InvalidValue,
                "a tournament's games have a time a move: give move_time_limit or days_per_move",
                "move_time_limit",
            )
        })?;
    let invited = match &body.invited {
        Some(names) => {
            let mut ids = Vec::with_capacity(names.len());
            for name in names {
                ids.push(state.accounts.profile(name).await?.id);
            }
            Some(ids)
        }
        None => None,
    };
    let starts_at = body
        .starts_at
        .as_deref()
        .map(|s| {
            leapfrog_wire::game::parse_rfc3339(s).ok_or_else(|| {
                ApiError::refuse(Refusal::InvalidValue, format!("'{s}' is not an RFC 3339 time"), "starts_at")
            })
        })
        .transpose()?;
    let most = state.tournaments.limits().max_players;
    let new = NewTournament {
        name: body.name,
        format: body.format.into(),
        rules: body.rules.resolve_cached(None)?,
        rated: body.rated,
        rounds: body.rounds,
        all_at_once: body.all_at_once,
        move_limit,
        correspondence: body.days_per_move.is_some(),
        duration_ms: body.duration_minutes.map(|m| i64::from(m) * 60_000),
        players: (body.min_players.unwrap_or(2), body.max_players.unwrap_or(most)),
        starts_at,
        bots: body.bots,
        invited,
    };
    let t = state.tournaments.create(&creator, new).await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/tournaments/{}", t.id())))
        .json(view(&state, &t, true).await?))
}

/// List tournaments
///
/// Tournaments newest first, a page at a time (of one status, if given).
#[utoipa::path(
    tag = "tournaments",
    operation_id = "listTournaments",
    params(TournamentQuery),
    responses(
        (status = 200, description = "A page of tournaments", body = TournamentList),
        BadQuery,
        BadPage,
    )
)]
#[get("/v1/tournaments")]
pub async fn list_tournaments(
    state: web::Data<AppState>,
    QueryParams(query): QueryParams<TournamentQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = page_limit(query.limit)?;
    let status = match query.status.as_deref() {
        None => None,
        Some("open") => Some(Status::Open),
        Some("running") => Some(Status::Running),
        Some("over") => Some(Status::Over),
        Some("canceled") => Some(Status::Canceled),
        Some(other) => {
            let detail = format!("'{other}' is not a status: open, running, over or canceled");
            return Err(ApiError::refuse(Refusal::InvalidValue, detail, "status"));
        }
    };
    let before = query
        .cursor
        .as_deref()
        .map(GameCursor::parse)
        .transpose()
        .map_err(|e| ApiError::input(e, "cursor"))?;
    let mut page = state
        .tournaments
        .list(status, before.as_ref().map(|c| (c.created_at, c.id.as_str())), limit + 1)
        .await?;
    let more = page.len() > limit;
    page.truncate(limit);
    let next_cursor = more
        .then(|| {
            page.last().map(|t| GameCursor { created_at: t.row.created_at, id: t.row.id.clone() }.to_string())
        })
        .flatten();
    let mut tournaments = Vec::with_capacity(page.len());
    for t in &page {
        tournaments.push(view(&state, t, false).await?);
    }
    Ok(HttpResponse::Ok().json(TournamentList { tournaments, next_cursor }))
}

/// Get a tournament
///
/// A tournament with its players and, once started, its standings.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "getTournament",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament", body = TournamentView),
        (status = 404, description = NO_TOURNAMENT, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tournaments/{id}")]
pub async fn get_tournament(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let t = state.tournaments.get(&id).await?;
    Ok(HttpResponse::Ok().json(view(&state, &t, true).await?))
}

/// Join a tournament
///
/// The token's account joins an open tournament (one it was invited to,
/// if by invitation). A bot joins only where bots are welcome and its
/// acceptance profile takes the event; a person joins a rated event with
/// bots only after agreeing to rated games against bots. Needs a personal
/// access token with the `play` scope.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "joinTournament",
    security(("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament, joined", body = TournamentView),
        NoToken,
        (status = 403, description = "Not invited, or a token without the `play` scope", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = NO_TOURNAMENT, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Started, over, full, or joined already", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Consent (`field`: `account`): a bot where bots are not welcome or whose profile refuses the event, a person who has not agreed to rated games against bots", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tournaments/{id}/join")]
pub async fn join_tournament(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let (_, account) = playing_account(&state, &req).await?;
    let t = state.tournaments.join(&id, &account).await?;
    Ok(HttpResponse::Ok().json(view(&state, &t, true).await?))
}

/// Leave a tournament
///
/// Before the start, off the roster; after it, withdrawn: the game under
/// way resigned, the games to come forfeited (rule book §17). Needs a
/// personal access token with the `play` scope.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "leaveTournament",
    security(("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament, left", body = TournamentView),
        NoToken,
        (status = 403, description = "A token without the `play` scope", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = NO_TOURNAMENT, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a player of it, withdrawn already, or over", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tournaments/{id}/leave")]
pub async fn leave_tournament(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let (_, account) = playing_account(&state, &req).await?;
    let t = state.tournaments.leave(&id, &account).await?;
    Ok(HttpResponse::Ok().json(view(&state, &t, true).await?))
}

/// Start a tournament
///
/// Its creator starts it now: the players seeded by rating, the first
/// round paired (every round, for a correspondence round-robin all at
/// once). Needs a personal access token with the `play` scope.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "startTournament",
    security(("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The tournament, running", body = TournamentView),
        NoToken,
        (status = 403, description = "Not its creator, or a token without the `play` scope", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = NO_TOURNAMENT, body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not open, or fewer players than it needs", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tournaments/{id}/start")]
pub async fn start_tournament(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let (_, account) = playing_account(&state, &req).await?;
    let t = state.tournaments.start(&id, &account).await?;
    Ok(HttpResponse::Ok().json(view(&state, &t, true).await?))
}

/// List a tournament's games
///
/// Its games and byes by round and board (of one round, if given), a
/// page at a time.
#[utoipa::path(
    tag = "tournaments",
    operation_id = "listTournamentGames",
    params(("id" = String, Path, description = "The tournament's id"), TournamentGamesQuery),
    responses(
        (status = 200, description = "A page of its games", body = TournamentGameList),
        BadQuery,
        BadPage,
        (status = 404, description = NO_TOURNAMENT, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tournaments/{id}/games")]
pub async fn list_tournament_games(
    state: web::Data<AppState>,
    id: web::Path<String>,
    QueryParams(query): QueryParams<TournamentGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = page_limit(query.limit)?;
    let after = match query.cursor.as_deref() {
        None => (0, -1),
        Some(c) => parse_board_cursor(c).ok_or_else(|| {
            ApiError::refuse(Refusal::InvalidValue, "the cursor is not one this server gave out", "cursor")
        })?,
    };
    let (players, mut boards) = state.tournaments.games_page(&id, after, limit + 1, query.round).await?;
    let name = |account: &str| {
        players
            .iter()
            .find(|p| p.account_id == account)
            .map_or_else(|| account.to_string(), |p| p.name.clone())
    };
    let more = boards.len() > limit;
    boards.truncate(limit);
    let next_cursor = more.then(|| boards.last().map(|b| format!("r{}b{}", b.round, b.board))).flatten();
    let games = boards
        .into_iter()
        .map(|b| TournamentGameView {
            round: b.round,
            board: b.board,
            game: b.game_id.clone(),
            first: name(&b.first_id),
            second: b.second_id.as_deref().map(name),
            result: b.outcome.clone(),
            forfeit: b.forfeit != 0,
        })
        .collect();
    Ok(HttpResponse::Ok().json(TournamentGameList { games, next_cursor }))
}

/// The (round, board) of a games page's cursor `r{round}b{board}`.
fn parse_board_cursor(c: &str) -> Option<(i64, i64)> {
    let (round, board) = c.strip_prefix('r')?.split_once('b')?;
    Some((round.parse().ok()?, board.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_cursor_reads_back_and_others_do_not() {
        assert_eq!(parse_board_cursor("r3b14"), Some((3, 14)));
        for bad in ["", "r", "3b1", "r3", "rxb1", "r1b"] {
            assert_eq!(parse_board_cursor(bad), None, "{bad}");
        }
    }
}
