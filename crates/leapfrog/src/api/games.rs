//! Persisted games: create, read, list, history, legal moves, moves with
//! seats and races, replay, and live updates over server-sent events.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use jump_capture as jc;
use rand::TryRng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, IntoResponses, ToSchema};

use super::json::JsonBody;
use super::play::{MoveInput, Outcome, PositionView, Status};
use super::problem::{ApiError, Problem, Refusal};
use super::query::QueryParams;
use super::rules::{RuleSet, Rules};
use super::stateless::{BodyErrors, LegalMovesResponse, legal_moves_page, start};
use crate::events::Hub;
use crate::store::{Commit, GameRow, MoveRow, SeatRow, Store, StoredAnswer};

/// What every handler needs: the store and the live-update hub.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The games.
    pub store: Store,
    /// Wakes event streams.
    pub hub: Hub,
}

/// Most players in a persisted game.
pub const MAX_SEATS: usize = 64;
/// Most games per page of the listing.
pub const MAX_GAMES_PAGE: usize = 100;
/// How often an idle event stream gets a keep-alive comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The answers for a game that does not exist.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum GameErrors {
    /// No game has this id.
    #[response(status = 404, content_type = "application/problem+json")]
    NotFound(Problem),
}

/// The error answers of `POST /v1/games/{id}/moves`.
#[derive(Debug, IntoResponses)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub enum MoveErrors {
    /// No `Authorization: Bearer` token, or not one of this game's seats.
    #[response(status = 401, content_type = "application/problem+json")]
    Unauthorized(Problem),
    /// A seat of this game, but not the one to move.
    #[response(status = 403, content_type = "application/problem+json")]
    Forbidden(Problem),
    /// No game has this id.
    #[response(status = 404, content_type = "application/problem+json")]
    NotFound(Problem),
    /// Another request moved the game first; read it again and retry.
    #[response(status = 409, content_type = "application/problem+json")]
    Conflict(Problem),
    /// `If-Match` names a version the game no longer has.
    #[response(status = 412, content_type = "application/problem+json")]
    PreconditionFailed(Problem),
}

/// A player joining a new game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerInput {
    /// Their name, 1 to 64 characters.
    pub name: String,
}

/// A request to create a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rules": {"preset": "murray"}, "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7}))]
pub struct CreateGameRequest {
    /// The rule set.
    pub rules: Rules,
    /// The players in turn order; their number is the game's (1 to 64,
    /// within the rule set's range).
    #[schema(min_items = 1, max_items = 64)]
    pub players: Vec<PlayerInput>,
    /// Seed of the deal; drawn when omitted.
    #[serde(default)]
    #[schema(format = "uint64")]
    pub seed: Option<u64>,
}

/// A player of a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerView {
    /// The player (from 0), their place in turn order.
    pub player: usize,
    /// Their name.
    pub name: String,
}

/// A persisted game.
#[derive(Debug, Serialize, ToSchema)]
pub struct Game {
    /// Its id.
    pub id: String,
    /// Bumped by every move; the `ETag`.
    pub version: i64,
    /// The complete rule set.
    pub rules: RuleSet,
    /// The seed of the deal.
    #[schema(format = "uint64")]
    pub seed: u64,
    /// The players in turn order.
    pub players: Vec<PlayerView>,
    /// The current position.
    pub position: PositionView,
    /// Opening, playing or over.
    pub status: Status,
    /// The result, once over.
    pub result: Option<Outcome>,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// When it last changed (RFC 3339).
    pub updated_at: String,
}

/// A seat's secret, shown once.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    /// The player.
    pub player: usize,
    /// Their name.
    pub name: String,
    /// The bearer token that plays this seat. Shown only in this answer;
    /// the server keeps only its hash.
    pub token: String,
}

/// A new game with its seats.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedGame {
    /// The game.
    #[serde(flatten)]
    pub game: Game,
    /// One seat per player, with its token.
    pub seats: Vec<SeatView>,
}

/// A page of games, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameList {
    /// The games.
    pub games: Vec<Game>,
    /// The cursor of the next page; null on the last.
    pub next_cursor: Option<String>,
}

/// A move of a game's history.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveRecord {
    /// The ply it was played at (0 for the first move).
    pub ply: i64,
    /// Who played it.
    pub player: i64,
    /// The cells of its path.
    pub path: Vec<String>,
    /// Its notation.
    pub notation: String,
    /// The cells of the pieces it took off.
    pub captures: Vec<String>,
    /// Points it scored.
    pub gain: i64,
    /// When (RFC 3339).
    pub at: String,
}

/// A game's history.
#[derive(Debug, Serialize, ToSchema)]
pub struct History {
    /// Every move, in order.
    pub moves: Vec<MoveRecord>,
}

/// Query of the game listing.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only games with this status.
    pub status: Option<Status>,
    /// Games per page, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

/// Query of a game's legal moves.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LegalMovesQuery {
    /// Only the moves from this cell (adds the jump tree).
    pub from: Option<String>,
    /// Moves per page, 1 to 1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}

fn hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    rand::rngs::SysRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Opening => "opening",
        Status::Playing => "playing",
        Status::Over => "over",
    }
}

fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(format!("{what}: {e}"))
}

/// A stored game made live again.
struct Loaded {
    row: GameRow,
    rules: Arc<jc::Rules>,
    position: jc::Position,
    players: Vec<String>,
    seed: u64,
}

/// Checked rule sets by their stored JSON: games share few rule sets, and
/// every request on a game needs its rules.
fn cached_rules(json: &str) -> Result<Arc<jc::Rules>, ApiError> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<jc::Rules>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(rules) = cache.lock().ok().and_then(|c| c.get(json).cloned()) {
        return Ok(rules);
    }
    let spec: Rules = serde_json::from_str(json).map_err(|e| internal("stored rules", e))?;
    let rules = Arc::new(spec.resolve(None).map_err(|e| internal("stored rules", e))?);
    if let Ok(mut c) = cache.lock() {
        if c.len() >= 1024 {
            c.clear();
        }
        c.insert(json.to_string(), rules.clone());
    }
    Ok(rules)
}

fn load(row: GameRow) -> Result<Loaded, ApiError> {
    let rules = cached_rules(&row.rules)?;
    let setup: jc::Setup = row.position.parse().map_err(|e| internal("stored position", e))?;
    let position =
        jc::Position::from_setup(rules.clone(), &setup).map_err(|e| internal("stored position", e))?;
    let players = serde_json::from_str(&row.players).map_err(|e| internal("stored players", e))?;
    let seed = row.seed.parse().map_err(|e| internal("stored seed", e))?;
    Ok(Loaded { row, rules, position, players, seed })
}

impl Loaded {
    fn view(&self) -> Game {
        Game {
            id: self.row.id.clone(),
            version: self.row.version,
            rules: RuleSet::from_rules(&self.rules),
            seed: self.seed,
            players: self
                .players
                .iter()
                .enumerate()
                .map(|(player, name)| PlayerView { player, name: name.clone() })
                .collect(),
            position: PositionView::of(&self.position),
            status: self.position.phase().into(),
            result: self.position.outcome().as_ref().map(Outcome::of),
            created_at: rfc3339(self.row.created_at),
            updated_at: rfc3339(self.row.updated_at),
        }
    }
}

async fn find(state: &AppState, id: &str) -> Result<Loaded, ApiError> {
    let row =
        state.store.game(id).await?.ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
    load(row)
}

fn etag(version: i64) -> String {
    format!("\"{version}\"")
}

fn json_body<T: Serialize>(value: &T) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(|e| internal("serialising", e))
}

/// Creates a game: deals the board and gives each seat its secret token.
#[utoipa::path(
    tag = "games",
    request_body = CreateGameRequest,
    responses(
        (status = 201, description = "The game, with one token per seat (shown only here)", body = CreatedGame,
         headers(("Location" = String, description = "The game's URL"), ("ETag" = String, description = "Its version"))),
        BodyErrors
    )
)]
#[post("/v1/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    JsonBody(req): JsonBody<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    if req.players.is_empty() || req.players.len() > MAX_SEATS {
        return Err(ApiError::refuse(
            Refusal::InvalidValue,
            format!("{} players; a game takes 1 to {MAX_SEATS}", req.players.len()),
            "players",
        ));
    }
    for (i, p) in req.players.iter().enumerate() {
        let n = p.name.trim().chars().count();
        if n == 0 || n > 64 {
            return Err(ApiError::refuse(
                Refusal::InvalidValue,
                "a player's name is 1 to 64 characters",
                &format!("players[{i}].name"),
            ));
        }
    }
    let rules = req.rules.resolve(None)?;
    let (position, seed) = start(rules.clone(), req.players.len(), req.seed)?;
    let names: Vec<String> = req.players.iter().map(|p| p.name.trim().to_string()).collect();
    let now = now_ms();
    let row = GameRow {
        id: uuid::Uuid::new_v4().to_string(),
        version: 1,
        rules: json_body(&RuleSet::from_rules(&rules))?,
        seed: seed.to_string(),
        players: json_body(&names)?,
        position: position.to_string(),
        status: status_name(position.phase().into()).to_string(),
        result: position.outcome().as_ref().map(|o| json_body(&Outcome::of(o))).transpose()?,
        created_at: now,
        updated_at: now,
    };
    let mut seats = Vec::new();
    let mut rows = Vec::new();
    for (player, name) in names.iter().enumerate() {
        let token = new_token()?;
        rows.push(SeatRow { player: player as i64, name: name.clone(), token_hash: hash(&token) });
        seats.push(SeatView { player, name: name.clone(), token });
    }
    state.store.insert_game(&row, &rows).await?;
    let loaded = Loaded { row, rules: Arc::new(rules), position, players: names, seed };
    let game = loaded.view();
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("/v1/games/{}", game.id)))
        .insert_header((header::ETAG, etag(game.version)))
        .json(CreatedGame { game, seats }))
}

/// A game. Send `If-None-Match` with its `ETag` to get 304 while nothing
/// has changed.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, description = "The game", body = Game, headers(("ETag" = String, description = "Its version"))),
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
    let game = find(&state, &id).await?;
    let tag = etag(game.row.version);
    let unchanged =
        req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok()).is_some_and(|v| {
            v.split(',').any(|t| t.trim().trim_start_matches("W/") == tag || t.trim() == "*")
        });
    if unchanged {
        return Ok(HttpResponse::NotModified().insert_header((header::ETAG, tag)).finish());
    }
    Ok(HttpResponse::Ok().insert_header((header::ETAG, tag)).json(game.view()))
}

fn parse_list_cursor(cursor: &str) -> Option<(i64, String)> {
    let (at, id) = cursor.strip_prefix('g')?.split_once('.')?;
    Some((i64::from_str_radix(at, 16).ok()?, id.to_string()))
}

/// Games, newest first, a page at a time.
#[utoipa::path(
    tag = "games",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of games", body = GameList),
        (status = 400, description = "An unknown query parameter or status", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range or a bad `cursor`", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/games")]
pub async fn list_games(
    state: web::Data<AppState>,
    query: QueryParams<ListQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.limit.unwrap_or(50);
    if !(1..=MAX_GAMES_PAGE).contains(&limit) {
        return Err(ApiError::refuse(
            Refusal::InvalidValue,
            format!("limit {limit} is not from 1 to {MAX_GAMES_PAGE}"),
            "limit",
        ));
    }
    let after = match &query.cursor {
        Some(c) => Some(parse_list_cursor(c).ok_or_else(|| {
            ApiError::refuse(Refusal::InvalidValue, "the cursor is not one this server gave out", "cursor")
        })?),
        None => None,
    };
    let rows = state.store.list_games(query.status.map(status_name), limit as i64 + 1, after).await?;
    let more = rows.len() > limit;
    let rows: Vec<GameRow> = rows.into_iter().take(limit).collect();
    let next_cursor = if more { rows.last().map(|r| format!("g{:x}.{}", r.created_at, r.id)) } else { None };
    let games = rows.into_iter().map(|r| load(r).map(|g| g.view())).collect::<Result<_, _>>()?;
    Ok(HttpResponse::Ok().json(GameList { games, next_cursor }))
}

fn record(m: MoveRow) -> Result<MoveRecord, ApiError> {
    let mv: jc::Move = m.notation.parse().map_err(|e| internal("stored move", e))?;
    Ok(MoveRecord {
        ply: m.ply,
        player: m.player,
        path: mv.path().iter().map(ToString::to_string).collect(),
        notation: m.notation,
        captures: serde_json::from_str(&m.captures).map_err(|e| internal("stored captures", e))?,
        gain: m.gain,
        at: rfc3339(m.at),
    })
}

/// A game's history: every move in order.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "The game's id")),
    responses((status = 200, description = "The moves", body = History), GameErrors)
)]
#[get("/v1/games/{id}/moves")]
pub async fn history(state: web::Data<AppState>, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let game = find(&state, &id).await?;
    let moves =
        state.store.moves(&game.row.id, 0).await?.into_iter().map(record).collect::<Result<_, _>>()?;
    Ok(HttpResponse::Ok().json(History { moves }))
}

/// The legal moves of a game's current position, as the stateless
/// endpoint gives them.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "The game's id"), LegalMovesQuery),
    responses(
        (status = 200, description = "A page of legal moves", body = LegalMovesResponse),
        (status = 400, description = "An unknown query parameter or one of the wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A bad `from`, `limit` or `cursor`", body = Problem, content_type = "application/problem+json"),
        GameErrors
    )
)]
#[get("/v1/games/{id}/legal-moves")]
pub async fn game_legal_moves(
    state: web::Data<AppState>,
    id: web::Path<String>,
    query: QueryParams<LegalMovesQuery>,
) -> Result<HttpResponse, ApiError> {
    let game = find(&state, &id).await?;
    let page = legal_moves_page(&game.position, query.from.as_deref(), query.limit, query.cursor.as_deref())?;
    Ok(page.respond())
}

fn bearer(req: &HttpRequest) -> Result<&str, ApiError> {
    req.headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            ApiError::Unauthorized("send the seat's token as 'Authorization: Bearer <token>'".into())
        })
}

/// Plays a move for the seat whose token is given. A move is one
/// transaction; of concurrent moves on one game exactly one wins, the
/// others get 409 (or 412 with a stale `If-Match`). A retry with the same
/// `Idempotency-Key` gets the first answer again and changes nothing.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("Authorization" = String, Header, description = "`Bearer <token>` of the seat to move"),
        ("If-Match" = Option<String>, Header, description = "Play only if the game still has this version (its ETag)"),
        ("Idempotency-Key" = Option<String>, Header, description = "Up to 200 characters; a retry with the same key replays the first answer")
    ),
    request_body = MoveInput,
    responses(
        (status = 201, description = "The game after the move", body = Game, headers(("ETag" = String, description = "The new version"))),
        (status = 400, description = "Malformed JSON or a wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is over the limit", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An illegal move (with the reason) or the game is over", body = Problem, content_type = "application/problem+json"),
        MoveErrors
    )
)]
#[post("/v1/games/{id}/moves")]
pub async fn play_move(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
    JsonBody(body): JsonBody<MoveInput>,
) -> Result<HttpResponse, ApiError> {
    let token = bearer(&req)?;
    let (row, seat) = state
        .store
        .game_and_seat(&id, &hash(token))
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("there is no game {id}")))?;
    let mut game = load(row)?;
    let id = game.row.id.clone();
    let player =
        seat.ok_or_else(|| ApiError::Unauthorized("this token is not a seat of this game".into()))?;
    let key = match req.headers().get("idempotency-key") {
        Some(v) => {
            let k = v.to_str().ok().filter(|k| !k.is_empty() && k.len() <= 200).ok_or_else(|| {
                ApiError::BadRequest {
                    detail: "Idempotency-Key must be 1 to 200 visible ASCII characters".into(),
                    field: Some("Idempotency-Key".into()),
                }
            })?;
            Some(k.to_string())
        }
        None => None,
    };
    if let Some(k) = &key
        && let Some(answer) = state.store.answer(&id, player, k).await?
    {
        let status = actix_web::http::StatusCode::from_u16(answer.status as u16)
            .map_err(|e| internal("stored status", e))?;
        return Ok(HttpResponse::build(status).content_type("application/json").body(answer.body));
    }
    let version = game.row.version;
    if let Some(expected) = req.headers().get(header::IF_MATCH).and_then(|v| v.to_str().ok()) {
        let ok = expected
            .split(',')
            .any(|t| t.trim() == "*" || t.trim().trim_start_matches("W/") == etag(version));
        if !ok {
            return Err(ApiError::PreconditionFailed(format!(
                "the game is at version {version}, not {expected}; read it again"
            )));
        }
    }
    if game.position.is_over() {
        return Err(ApiError::refuse(Refusal::GameOver, "the game is over", "path"));
    }
    let to_move = game.position.to_move();
    if player as usize != to_move {
        return Err(ApiError::Forbidden(format!("it is player {to_move}'s turn, not player {player}'s")));
    }
    let mv = body.to_move("path")?;
    let ply = game.position.ply();
    let played = game.position.play(&mv).map_err(|e| ApiError::refuse(Refusal::IllegalMove, e, "path"))?;
    let now = now_ms();
    let status = game.position.phase();
    game.row.version = version + 1;
    game.row.position = game.position.to_string();
    game.row.status = status_name(status.into()).to_string();
    game.row.result = game.position.outcome().as_ref().map(|o| json_body(&Outcome::of(o))).transpose()?;
    game.row.updated_at = now;
    let view = game.view();
    let body = json_body(&view)?;
    let row = MoveRow {
        ply: i64::from(ply),
        player,
        notation: played.mv.to_string(),
        captures: json_body(&played.captures.iter().map(|(c, _)| c.to_string()).collect::<Vec<_>>())?,
        gain: i64::from(played.gain),
        at: now,
    };
    let answer = StoredAnswer { status: 201, body };
    match state.store.commit_move(&game.row, version, &row, key.as_deref().map(|k| (k, &answer))).await? {
        Commit::Done => {
            state.hub.notify(&id);
            Ok(HttpResponse::Created()
                .insert_header((header::ETAG, etag(view.version)))
                .insert_header((header::LOCATION, format!("/v1/games/{id}")))
                .content_type("application/json")
                .body(answer.body))
        }
        Commit::Conflict => {
            Err(ApiError::Conflict("another move was made first; read the game again and retry".into()))
        }
    }
}

/// The position after the first `ply` moves (0: the deal), replayed from
/// the rules, the seed and the history.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "The game's id"), ("ply" = u32, Path, description = "Moves to replay")),
    responses(
        (status = 200, description = "The position", body = PositionView),
        (status = 404, description = "No such game, `ply` is not a whole number, or the game has not reached that ply", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/games/{id}/positions/{ply}")]
pub async fn position_at(
    state: web::Data<AppState>,
    path: web::Path<(String, u32)>,
) -> Result<HttpResponse, ApiError> {
    let (id, ply) = path.into_inner();
    let game = find(&state, &id).await?;
    if ply > game.position.ply() {
        return Err(ApiError::NotFound(format!(
            "game {id} is at ply {}; there is no ply {ply} yet",
            game.position.ply()
        )));
    }
    let (mut pos, _) = jc::Position::start(game.rules.clone(), game.players.len(), Some(game.seed))
        .map_err(|e| internal("replaying", e))?;
    for m in state.store.moves(&game.row.id, 0).await?.into_iter().take(ply as usize) {
        let mv: jc::Move = m.notation.parse().map_err(|e| internal("stored move", e))?;
        pos.play(&mv).map_err(|e| internal("replaying", e))?;
    }
    Ok(HttpResponse::Ok().json(PositionView::of(&pos)))
}

fn sse_event(event: Option<&str>, id: Option<i64>, data: &str) -> web::Bytes {
    let mut out = String::new();
    if let Some(e) = event {
        out.push_str(&format!("event: {e}\n"));
    }
    if let Some(id) = id {
        out.push_str(&format!("id: {id}\n"));
    }
    out.push_str(&format!("data: {data}\n\n"));
    web::Bytes::from(out)
}

/// The final event of a stream.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameOverEvent {
    /// Always `over`.
    pub status: Status,
    /// The result.
    pub result: Option<Outcome>,
    /// The final position.
    pub position: PositionView,
}

/// Live updates as server-sent events: one `move` event per move (its `id`
/// the ply, its data a `MoveRecord`), from the first move, or after the
/// ply in `Last-Event-ID` on a reconnect; comments as keep-alives; and a
/// final `over` event (a `GameOverEvent`) when the game ends. Moves made
/// through other server processes sharing the PostgreSQL database arrive
/// too.
#[utoipa::path(
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("Last-Event-ID" = Option<String>, Header, description = "The last ply received; the stream resumes after it")
    ),
    responses(
        (status = 200, description = "An event stream", content_type = "text/event-stream", body = String),
        GameErrors
    )
)]
#[get("/v1/games/{id}/events")]
pub async fn events(
    state: web::Data<AppState>,
    id: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let game = find(&state, &id).await?;
    let id = game.row.id.clone();
    let mut next = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .map_or(0, |last| last + 1);
    let (tx, rx) = tokio::sync::mpsc::channel::<web::Bytes>(64);
    let mut wake = state.hub.subscribe();
    let state = state.into_inner();
    actix_web::rt::spawn(async move {
        loop {
            let moves = match state.store.moves(&id, next).await {
                Ok(m) => m,
                Err(e) => {
                    tracing::warn!(error = %e, game = %id, "event stream: reading moves failed");
                    break;
                }
            };
            for m in moves {
                let ply = m.ply;
                let data = record(m).ok().and_then(|r| serde_json::to_string(&r).ok()).unwrap_or_default();
                if tx.send(sse_event(Some("move"), Some(ply), &data)).await.is_err() {
                    return;
                }
                next = ply + 1;
            }
            if let Ok(Some(row)) = state.store.game(&id).await
                && let Ok(g) = load(row)
                && g.position.is_over()
                && i64::from(g.position.ply()) <= next
            {
                let over = GameOverEvent {
                    status: Status::Over,
                    result: g.position.outcome().as_ref().map(Outcome::of),
                    position: PositionView::of(&g.position),
                };
                let data = serde_json::to_string(&over).unwrap_or_default();
                let _ = tx.send(sse_event(Some("over"), None, &data)).await;
                return;
            }
            // Wait for a move on this game, sending keep-alives meanwhile.
            let deadline = tokio::time::Instant::now() + KEEP_ALIVE;
            loop {
                match tokio::time::timeout_at(deadline, wake.recv()).await {
                    Ok(Ok(game)) if game == id => break,
                    Ok(Ok(_)) => continue,
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => break,
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Closed)) => return,
                    Err(_) => {
                        if tx.send(web::Bytes::from_static(b": keep-alive\n\n")).await.is_err() {
                            return;
                        }
                        break;
                    }
                }
            }
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, actix_web::Error>(b), rx))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream))
}
