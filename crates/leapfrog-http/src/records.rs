//! Game records (rule book §14) as a resource: a persisted game's record as
//! text, and reading any record back — its positions and its result, or
//! the first thing wrong with it.

use actix_web::http::header;
use actix_web::{HttpResponse, get, post, web};

use super::games::GameErrors;
use super::json::JsonBody;
use super::problem::{ApiError, Problem};
use super::responses::{BadJson, NoToken, NotThisAccount, TooLarge};
use super::state::AppState;
use crate::limits::{NoSlot, Slot};
use leapfrog_service::accounts::{AccessToken, AccountError};
use leapfrog_service::play::GameError;
use leapfrog_service::play::queries::{GameFilter, Listed};
use leapfrog_wire::record::Record;
use leapfrog_wire::record::read::{ReadRecord, RecordInput};

/// Get a game's record
///
/// The game as a record (`text/plain`, rule book §14): tags, a blank
/// line, then the plies in notation. Any game, finished or not; reading
/// it back (`POST /v1/records`) gives the same game, position for
/// position.
#[utoipa::path(
    tag = "games",
    operation_id = "getGameRecord",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The record", content_type = "text/plain", body = String),
        GameErrors
    )
)]
#[get("/v1/games/{id}/record")]
pub async fn game_record(
    state: web::Data<AppState>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let game = state.games.load(&id).await?;
    let history = state.games.history(&game, 0).await?;
    let record = Record::of_game(&game, &history).map_err(GameError::from)?;
    let gains: Vec<u32> = history.iter().map(|m| m.gain).collect();
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("inline; filename=\"leapfrog-{}.txt\"", game.id()),
        ))
        .body(record.write(&gains)))
}

/// Read a game record
///
/// Replays a record (its text in `record`, rule book §14) from its
/// `Start` under its `Rules`: every position, and the result if the record states one,
/// checked against the replay. A record that does not read or replay is a
/// 422 naming the first thing wrong: a line of the tags, a missing tag, or
/// the first ply the rules refuse (`field`: `plies[N]`, from 0).
#[utoipa::path(
    tag = "play",
    operation_id = "readRecord",
    request_body = RecordInput,
    responses(
        (status = 200, description = "The record replayed", body = ReadRecord),
        BadJson,
        TooLarge,
        (status = 422, description = "The record does not read or replay: what and where", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/records")]
pub async fn read_record(JsonBody(input): JsonBody<RecordInput>) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(leapfrog_wire::record::read::read(&input)?))
}

/// The finished games of an account a page of the store at a time.
const EXPORT_PAGE: usize = 100;

/// Download an account's game records
///
/// Exports one account may have streaming at once.
pub const EXPORTS_PER_ACCOUNT: usize = 2;
/// Seconds to wait before asking again when no export place is free.
const EXPORT_RETRY_AFTER: u64 = 10;

/// Every finished game the account holds (or held) a seat of, newest
/// first, as one `text/plain` stream of records (rule book §14) separated
/// by blank lines. Written a page of games at a time: the server's memory
/// does not grow with the number of games. Needs the `account` scope.
/// At most two exports of one account stream at once, and a few in all;
/// the token is checked again before each page, so revoking it (or
/// deleting the account) stops the export there.
#[utoipa::path(
    tag = "accounts",
    operation_id = "exportAccountGames",
    security(("accountToken" = ["account"])),
    params(("name" = String, Path, description = "The account's name, any case")),
    responses(
        (status = 200, description = "The records", content_type = "text/plain", body = String),
        NoToken,
        NotThisAccount,
        (status = 429, description = "The account has two exports streaming already (with `Retry-After`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The server streams its most exports (with `Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/accounts/{name}/records")]
pub async fn export_account_games(
    state: web::Data<AppState>,
    name: web::Path<String>,
    req: actix_web::HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let who = super::auth::own_account(&state, &req, &name).await?;
    let slot = state.exports.take(&who.account_id).map_err(|e| match e {
        NoSlot::Key(most) => {
            let detail =
                format!("this account has {most} exports streaming, the most it may; retry when one ends");
            ApiError::too_many("exports_per_account", detail, EXPORT_RETRY_AFTER)
        }
        NoSlot::All(most) => {
            let detail = format!("the server streams its most exports ({most}); retry shortly");
            ApiError::unavailable("exports", detail, EXPORT_RETRY_AFTER)
        }
    })?;
    let token = super::auth::bearer(&req).trim().to_string();
    let pages = Pages {
        games: state.games.clone(),
        accounts: state.accounts.clone(),
        token,
        account: who.account_id,
        after: None,
        done: false,
        _slot: slot,
    };
    let body = futures_util::stream::unfold(pages, |mut pages| async move {
        let bytes = pages.next().await?;
        Some((bytes, pages))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        // An account's own data: no cache or proxy keeps it.
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{}-games.txt\"", who.name),
        ))
        .streaming(body))
}

/// The export's cursor through an account's finished games.
struct Pages {
    games: leapfrog_service::play::Games,
    accounts: leapfrog_service::accounts::Accounts,
    /// The request's token, checked again before each page.
    token: String,
    account: String,
    after: Option<leapfrog_core::game::GameCursor>,
    done: bool,
    /// The export's place, given back when the stream ends or is dropped.
    _slot: Slot,
}

impl Pages {
    /// The records of the next page, or `None` at the end; a failure ends
    /// the stream early with a line that says so (the answer has begun).
    async fn next(&mut self) -> Option<Result<web::Bytes, actix_web::Error>> {
        if self.done {
            return None;
        }
        match self.page().await {
            Ok(Some(text)) => Some(Ok(web::Bytes::from(text))),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(error = %e, "an account's record export failed");
                self.done = true;
                Some(Ok(web::Bytes::from(format!("{{the export stopped here: {e}}}\n"))))
            }
        }
    }

    async fn page(&mut self) -> Result<Option<String>, ExportError> {
        // Revoked, or its account deleted, since the last page: stop here.
        let token = AccessToken::parse(&self.token).ok_or(ExportError::Revoked)?;
        match self.accounts.authenticate(&token).await {
            Ok(who) if who.account_id == self.account => {}
            Ok(_) | Err(AccountError::Unauthenticated) => return Err(ExportError::Revoked),
            Err(e) => return Err(ExportError::Account(e)),
        }
        Ok(self.records().await?)
    }

    async fn records(&mut self) -> Result<Option<String>, leapfrog_service::play::GameError> {
        let filter = GameFilter { status: Some(Listed::Over), ..Default::default() };
        let (games, next) =
            self.games.account_games(&self.account, &filter, EXPORT_PAGE, self.after.as_ref()).await?;
        if games.is_empty() {
            return Ok(None);
        }
        let mut text = String::new();
        for game in &games {
            let history = self.games.history(game, 0).await?;
            let gains: Vec<u32> = history.iter().map(|m| m.gain).collect();
            text.push_str(&Record::of_game(game, &history).map_err(GameError::from)?.write(&gains));
            text.push('\n');
        }
        self.done = next.is_none();
        self.after = next;
        Ok(Some(text))
    }
}

/// Why an export stopped early.
#[derive(Debug, thiserror::Error)]
enum ExportError {
    #[error("the token was revoked or its account deleted")]
    Revoked,
    #[error(transparent)]
    Account(AccountError),
    #[error(transparent)]
    Game(#[from] leapfrog_service::play::GameError),
}
