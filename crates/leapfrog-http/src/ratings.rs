//! Ratings and an account's games as resources (rule book §13): a pool's
//! leaderboard and the games an account holds seats of, each a page at a
//! time.

use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::problem::{ApiError, Problem};
use super::query::{QueryParams, page_limit};
use super::responses::{BadPage, BadQuery, NoAccount};
use super::state::AppState;
use leapfrog_core::game::GameCursor;
use leapfrog_service::play::queries::GameFilter;
use leapfrog_wire::Refusal;
use leapfrog_wire::game::{GameList, GameStatusView, GameView};
use leapfrog_wire::position::tenth;

/// Query of a leaderboard.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// Players per page, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
    /// The pool's bot pool instead: rated games with a bot in them (rule
    /// book §15).
    pub bots: Option<bool>,
}

/// A player of a leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct Ranked {
    /// The account's name.
    pub name: String,
    /// Its rating, to a tenth.
    pub rating: f64,
    /// Its deviation, to a tenth.
    pub deviation: f64,
    /// Rated games it counts.
    pub games: i64,
    /// Whether the account is a bot.
    pub bot: bool,
}

/// A page of a leaderboard.
#[derive(Debug, Serialize, ToSchema)]
pub struct Leaderboard {
    /// The pool.
    pub pool: String,
    /// Its players, best first; provisional players left out.
    pub players: Vec<Ranked>,
    /// The cursor of the next page; null on the last.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Whether `pool` names a rating pool: a preset, a slash, a direction set.
fn is_pool(pool: &str) -> bool {
    pool.split_once('/').is_some_and(|(preset, directions)| {
        jump_capture::Preset::ALL.iter().any(|p| p.id() == preset)
            && directions.parse::<jump_capture::DirectionSet>().is_ok()
    })
}

/// List a pool's ratings
///
/// The leaderboard of a rating pool — a preset and a direction set
/// (`/v1/ratings/murray/orthogonal`) — best first, a page at a time;
/// players still provisional (deviation above 110) are left out.
#[utoipa::path(
    tag = "accounts",
    operation_id = "listRatings",
    params(
        ("preset" = String, Path, description = "The preset: old, murray, froglet or konane", example = "murray"),
        ("directions" = String, Path, description = "The direction set: orthogonal, diagonal or all", example = "orthogonal"),
        LeaderboardQuery
    ),
    responses(
        (status = 200, description = "A page of the leaderboard", body = Leaderboard),
        BadQuery,
        (status = 404, description = "No such pool", body = Problem, content_type = "application/problem+json"),
        BadPage,
    )
)]
#[get("/v1/ratings/{preset}/{directions}")]
pub async fn list_ratings(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    query: QueryParams<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let (preset, directions) = path.into_inner();
    if !is_pool(&format!("{preset}/{directions}")) {
        return Err(ApiError::NotFound(format!(
            "there is no pool {preset}/{directions}: a pool is a preset (old, murray, froglet, konane) and a direction set (orthogonal, diagonal, all)"
        )));
    }
    let limit = page_limit(query.limit)?;
    // The cursor: the last rating's bits in hex, a dot, the last account's id.
    let after = match query.cursor.as_deref() {
        None => None,
        Some(c) => {
            let bad = || {
                ApiError::refuse(
                    Refusal::InvalidValue,
                    "the cursor is not one this server gave out",
                    "cursor",
                )
            };
            let (bits, id) = c.split_once('.').ok_or_else(bad)?;
            let bits = u64::from_str_radix(bits, 16).map_err(|_| bad())?;
            Some((f64::from_bits(bits), id.to_string()))
        }
    };
    let pool = match query.bots {
        Some(true) => format!("{preset}/{directions}/{}", leapfrog_core::game::BOT_POOL),
        _ => format!("{preset}/{directions}"),
    };
    let mut rows =
        state.accounts.leaderboard(&pool, limit + 1, after.as_ref().map(|(r, id)| (*r, id.as_str()))).await?;
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next_cursor =
        rows.last().filter(|_| more).map(|r| format!("{:x}.{}", r.rating.to_bits(), r.account_id));
    let players = rows
        .iter()
        .map(|r| Ranked {
            name: r.name.clone(),
            rating: tenth(r.rating),
            deviation: tenth(r.deviation),
            games: r.games,
            bot: r.bot,
        })
        .collect();
    Ok(HttpResponse::Ok().json(Leaderboard { pool, players, next_cursor }))
}

/// Query of an account's games.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AccountGamesQuery {
    /// Only games with this status (`waiting`: waiting for players).
    pub status: Option<GameStatusView>,
    /// Only games of this pool: a preset and a direction set
    /// (`murray/orthogonal`).
    #[param(min_length = 1, max_length = 40)]
    pub pool: Option<String>,
    /// Only rated games (`true`) or only casual ones (`false`); a rated
    /// game aborted before every seat moved counts as casual (§13).
    pub rated: Option<bool>,
    /// Games per page, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

/// List an account's games
///
/// The games an account holds (or held) a seat of, newest first, a page at
/// a time: follow `next_cursor`. Filtered by status, pool and rated.
#[utoipa::path(
    tag = "accounts",
    operation_id = "listAccountGames",
    params(("name" = String, Path, description = "The account's name, any case"), AccountGamesQuery),
    responses(
        (status = 200, description = "A page of games", body = GameList),
        BadQuery,
        NoAccount,
        BadPage,
    )
)]
#[get("/v1/accounts/{name}/games")]
pub async fn list_account_games(
    state: web::Data<AppState>,
    name: web::Path<String>,
    query: QueryParams<AccountGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let account = state.accounts.profile(&name).await?;
    if let Some(pool) = query.pool.as_deref()
        && !is_pool(pool)
    {
        let detail = format!(
            "there is no pool '{pool}': a pool is a preset (old, murray, froglet, konane), a slash and a direction set (orthogonal, diagonal, all)"
        );
        return Err(ApiError::refuse(Refusal::InvalidValue, detail, "pool"));
    }
    let limit = page_limit(query.limit)?;
    let after = query
        .cursor
        .as_deref()
        .map(GameCursor::parse)
        .transpose()
        .map_err(|e| ApiError::input(e, "cursor"))?;
    let filter = GameFilter {
        status: query.status.map(super::games::listed),
        pool: query.pool.as_deref(),
        rated: query.rated,
    };
    let (games, next) = state.games.account_games(&account.id, &filter, limit, after.as_ref()).await?;
    let games = games.iter().map(GameView::of).collect();
    Ok(HttpResponse::Ok().json(GameList { games, next_cursor: next.map(|c| c.to_string()) }))
}
