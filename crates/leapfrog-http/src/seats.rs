//! A game's seats as a resource (rule book §11): join an open seat, leave
//! it while the game waits, resign.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, web};
use utoipa::IntoResponses;

use super::games::etag;
use super::json::JsonBody;
use super::moves::credential;
use super::problem::{ApiError, Problem};
use super::responses::{BadJson, TooLarge};
use super::state::AppState;
use crate::limits::Class;
use leapfrog_core::game::{PlayerName, SeatToken};
use leapfrog_service::play::SeatChoice;
use leapfrog_wire::Refusal;
use leapfrog_wire::game::{GameView, JoinRequest, Joined, SeatView};

/// The error answers of the seat holder's actions.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum HolderErrors {
    /// No `Authorization: Bearer` token, or not one of this game's seats
    /// (a seat left has no token any more).
    #[response(status = 401, content_type = "application/problem+json")]
    Unauthorized(Problem),
    /// No game has this id.
    #[response(status = 404, content_type = "application/problem+json")]
    NotFound(Problem),
    /// Not now: see the problem's `detail`.
    #[response(status = 409, content_type = "application/problem+json")]
    Conflict(Problem),
}

/// Join an open seat
///
/// Takes an open seat under a name and answers with its new token (shown
/// only here). A public seat is anyone's; a private one needs its
/// invitation. Of concurrent joins for one seat exactly one wins; the
/// others get 409. When the last open seat is taken, the game starts.
///
/// A token is optional: anyone may join a public seat under a name. An
/// account joins as itself with its personal access token (scope `play`)
/// as `Authorization: Bearer lfpat_…` — required for a rated game's seat.
/// The operation names no security requirement, so that generated clients
/// type it as callable without one.
#[utoipa::path(
    tag = "games",
    operation_id = "joinGame",
    params(("id" = String, Path, description = "The game's id")),
    request_body = JoinRequest,
    responses(
        (status = 201, description = "The game and the seat joined, with its token", body = Joined,
         headers(("ETag" = String, description = "The game's new version"))),
        BadJson,
        (status = 401, description = "A personal access token that is unknown or revoked", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A private seat without its invitation, or a personal access token without the `play` scope", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No game has this id, or it has no such seat", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The seat is taken, no open seat is left, or the game has started", body = Problem, content_type = "application/problem+json"),
        TooLarge,
        (status = 422, description = "A name that is empty or too long, or looks like an account's name (joining without the account's token), or an empty invitation", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client joined too often lately; see `Retry-After`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/join")]
pub async fn join_game(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
    JsonBody(body): JsonBody<JoinRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    // With an account's token, the account takes the seat under its name.
    let account = super::auth::player(&state, &req).await?;
    let name = match (&account, body.name.as_deref()) {
        (Some(who), _) => PlayerName::stored(&who.name),
        (None, Some(text)) => {
            let name = PlayerName::parse(text).map_err(|e| ApiError::input(e, "name"))?;
            super::auth::not_an_accounts(&state, &name, "name").await?;
            name
        }
        (None, None) => {
            let detail = "a seat is joined under a name: send 'name', or an account's token";
            return Err(ApiError::refuse(Refusal::InvalidValue, detail, "name"));
        }
    };
    let invitation = match body.invitation.as_deref().map(SeatToken::parse) {
        None => None,
        Some(Ok(invitation)) => Some(invitation),
        Some(Err(_)) => {
            let detail = "the invitation is empty: send the one the game's creator got";
            return Err(ApiError::refuse(Refusal::InvalidValue, detail, "invitation"));
        }
    };
    let choice =
        SeatChoice { player: body.player, invitation, account: account.map(|who| who.seat_account()) };
    let joined = state.games.join(&id, name, &choice).await?;
    let seat = SeatView::of(&joined.game, joined.player, &joined.token)
        .ok_or_else(|| ApiError::Internal("the seat joined is not in the game".into()))?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", joined.game.id())))
        .insert_header((header::ETAG, etag(joined.game.version())))
        // It carries the seat's token: kept by no cache.
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(Joined { game: GameView::of(&joined.game), seat }))
}

/// Leave a seat
///
/// While the game waits for players, gives the seat back: it is open
/// again (private if it was private) and its token stops working at once.
/// Once the game has started, resign instead.
#[utoipa::path(
    tag = "games",
    operation_id = "leaveGame",
    security(("seatToken" = []), ("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game with the seat open again", body = GameView,
         headers(("ETag" = String, description = "The game's new version"))),
        HolderErrors
    )
)]
#[post("/v1/games/{id}/leave")]
pub async fn leave_game(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let credential = credential(&state, &req).await?;
    let game = state.games.leave(&id, &credential).await?;
    Ok(HttpResponse::Ok().insert_header((header::ETAG, etag(game.version()))).json(GameView::of(&game)))
}

/// Resign
///
/// Any seat's holder, any time before the end, whoever is to move (rule
/// book §11). With two players the game ends at once and the other player
/// wins, whatever the scores. With more, the game goes on: the computer
/// plays the resigned seat, which ranks after every seat that did not
/// resign and never shares a win; when every person has resigned, the
/// game ends. The result says `"ended": "resignation"` when resignations
/// ended it.
#[utoipa::path(
    tag = "games",
    operation_id = "resignGame",
    security(("seatToken" = []), ("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game after the resignation", body = GameView,
         headers(("ETag" = String, description = "The game's new version"))),
        (status = 422, description = "The game is over", body = Problem, content_type = "application/problem+json"),
        HolderErrors
    )
)]
#[post("/v1/games/{id}/resign")]
pub async fn resign_game(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limit(Class::Move, &req)?;
    let credential = credential(&state, &req).await?;
    let game = state.games.resign(&id, &credential).await?;
    Ok(HttpResponse::Ok().insert_header((header::ETAG, etag(game.version()))).json(GameView::of(&game)))
}

/// Play again
///
/// Any seat of a finished game asks for the next one. The first ask
/// creates it (201): the same rules, move time limit and kinds of seat,
/// the seats rotated by one so that the second player moves first, a new
/// deal. Every later ask answers the same game (200). Each person claims
/// their seat in it with the token of their old seat and gets a new,
/// random token for it; asking again issues another, and the one before
/// stops working. Creating a rematch counts as creating a game (the
/// creation rate and the cap of unfinished games apply).
#[utoipa::path(
    tag = "games",
    operation_id = "playAgain",
    security(("seatToken" = []), ("accountToken" = ["play"])),
    params(("id" = String, Path, description = "The finished game's id")),
    responses(
        (status = 201, description = "The new game, and the caller's seat in it with its token", body = Joined,
         headers(("Location" = String, description = "The new game's URL"))),
        (status = 200, description = "The new game another seat asked for first, and the caller's seat in it", body = Joined,
         headers(("Location" = String, description = "The new game's URL"))),
        (status = 403, description = "The game has a bot seat: a game with a bot is played again by a new challenge", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An account of the game does not take it by its acceptance profile now (`declined`, with `reason`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client created too many games lately (with `Retry-After`), or it or an account of the game has its most unfinished games: a rematch is a creation", body = Problem, content_type = "application/problem+json"),
        HolderErrors
    )
)]
#[post("/v1/games/{id}/rematch")]
pub async fn play_again(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    // A rematch is a creation: charged as one.
    state.limit(Class::Create, &req)?;
    let credential = credential(&state, &req).await?;
    let rematch = state.games.play_again(&id, &credential, &state.creator(&req)).await?;
    let seat = SeatView::of(&rematch.game, rematch.player, &rematch.token)
        .ok_or_else(|| ApiError::Internal("the seat claimed is not in the game".into()))?;
    let mut answer = if rematch.created { HttpResponse::Created() } else { HttpResponse::Ok() };
    Ok(answer
        .insert_header((header::LOCATION, format!("/v1/games/{}", rematch.game.id())))
        // It carries the seat's token: kept by no cache.
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(Joined { game: GameView::of(&rematch.game), seat }))
}
