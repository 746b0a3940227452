//! The HTTP API: routes, the OpenAPI document, and the answers for paths
//! and methods that do not exist.
//!
//! Handlers only translate: they parse a request, call one operation of
//! the wire (the stateless endpoints) or one method of a service, and
//! turn its answer or refusal into an HTTP answer; no store row reaches
//! them (this crate does not depend on the store). One module per
//! resource: `stateless` (presets, setups, legal moves, apply), `analysis`
//! (the computer's view of a position), `solutions` (peg solitaire
//! solved), `games` (create, read, list), `moves` (play, history, legal
//! moves, past positions), `seats` (join, leave, resign, play again),
//! `conditional` (conditional moves), `events` (a game's live stream),
//! `records` (game records, §14), `accounts` (accounts and tokens, §13),
//! `profile` (an account's settings), `ratings` (leaderboards, an
//! account's games), `challenges`, `tournaments` (events: create, join,
//! leave, start, standings, games), `account_events` (an account's live
//! stream), `vacation`, `webhooks`, `export` (all an account holds),
//! `meta` (health). Beside them: `auth` (who a request acts for), `json`
//! (bodies read with the field at fault), `query` (query strings and
//! pages), `limits` (per-client rate limits and places), `state` (what
//! every handler is given), `responses` (the answers many operations
//! share), `problem` (the one error type, RFC 9457).

pub mod account_events;
pub mod accounts;
pub mod analysis;
pub mod auth;
pub mod challenges;
pub mod conditional;
pub mod events;
pub mod export;
pub mod games;
pub mod json;
pub mod limits;
pub mod meta;
pub mod moves;
pub mod problem;
pub mod profile;
pub mod query;
pub mod ratings;
pub mod records;
pub mod responses;
pub mod seats;
pub mod solutions;
pub mod state;
pub mod stateless;
pub mod tournaments;
pub mod vacation;
pub mod webhooks;

use actix_web::{HttpRequest, HttpResponse, web};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_actix_web::service_config::ServiceConfig;

use problem::ApiError;

/// The document's fixed parts; paths and schemas are collected from the
/// registered handlers.
#[derive(Debug, OpenApi)]
#[openapi(
    info(
        title = "Leap Frog API",
        description = "Leap Frog (H. J. R. Murray, 1898), Froglet, Konane and kindred jump-capture \
games over HTTP.\n\nStateless endpoints take the rules and the position in each request: set up a \
position, list its legal moves, apply a move. Persisted games live on the server: create one \
(each seat gets a secret bearer token), play moves with the token of the seat to move, read \
the history, and follow moves live over server-sent events. Every error is an RFC 9457 problem \
(`application/problem+json`) whose `detail` says what was wrong and whose `field` says where.\n\n\
Notation: cells are chess-style (`a1` bottom left); a move is its path (`[\"c3\", \"e3\", \"e5\"]`, \
written `c3xe3xe5`), a removal one cell; a board string lists ranks from the top, `/`-separated, \
digits for runs of empty cells.",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0")
    ),
    components(schemas(
        problem::Problem,
        leapfrog_wire::events::MoveRecord,
        leapfrog_wire::events::MoveEvent,
        leapfrog_wire::events::AfterMove,
        leapfrog_wire::events::PositionState,
        leapfrog_wire::events::GameOverEvent,
        leapfrog_wire::events::GameChange,
        leapfrog_wire::events::RematchEvent,
        leapfrog_wire::account_events::AccountEventKind,
        leapfrog_wire::account_events::GameStartedEvent,
        leapfrog_wire::account_events::StartedPlayer,
        leapfrog_wire::account_events::YourTurnEvent,
        leapfrog_wire::account_events::AccountGameOverEvent,
        leapfrog_wire::account_events::EventRatingChange,
        leapfrog_wire::account_events::VacationEvent,
        leapfrog_wire::account_events::WebhookDisabledEvent,
        leapfrog_wire::account_events::TournamentStartedEvent,
        leapfrog_wire::account_events::TournamentPairedEvent,
        leapfrog_wire::account_events::TournamentOverEvent,
        // The in-process bindings' own operation (no HTTP path): typed for their clients.
        leapfrog_wire::local::PerftRequest,
        leapfrog_wire::local::PerftResponse
    )),
    modifiers(&SeatTokens),
    tags(
        (name = "rules", description = "Rule sets and presets"),
        (name = "play", description = "Stateless play: set up, list moves, apply a move"),
        (name = "games", description = "Persisted games: seats, moves, history, live updates"),
        (name = "accounts", description = "Accounts and personal access tokens"),
        (name = "challenges", description = "Challenges between accounts: the way bots find games"),
        (name = "tournaments", description = "Tournaments: round-robins and Swiss events, live or by correspondence"),
        (name = "webhooks", description = "Signed HTTP deliveries of an account's events, for programs away from the table"),
        (name = "meta", description = "Health")
    )
)]
pub struct ApiDoc;

/// The bearer token of a seat, as a security scheme: the move endpoint
/// requires it, and the docs page gets an Authorize button.
#[derive(Debug)]
struct SeatTokens;

impl utoipa::Modify for SeatTokens {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some("A seat's token, from the answer that created the game"))
            .build();
        let components = api.components.get_or_insert_with(Default::default);
        components.add_security_scheme("seatToken", SecurityScheme::Http(scheme));
        let account = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "A personal access token (`lfpat_…`) from `POST /v1/tokens`; its scopes say what it may do",
            ))
            .build();
        components.add_security_scheme("accountToken", SecurityScheme::Http(account));
    }
}

/// Adds OpenAPI links from a created game's `id` to the operations on it
/// (once the routes have added their paths).
pub fn add_links(api: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::link::LinkBuilder;
    let Some(created) = api
        .paths
        .paths
        .get_mut("/v1/games")
        .and_then(|item| item.post.as_mut())
        .and_then(|op| op.responses.responses.get_mut("201"))
    else {
        return;
    };
    let RefOr::T(created) = created else { return };
    for (name, operation, what) in [
        ("getGame", "getGame", "The game"),
        ("playMove", "playMove", "Play a move in it"),
        ("listGameMoves", "listGameMoves", "Its history"),
        ("listGameLegalMoves", "listGameLegalMoves", "Its legal moves"),
        ("followGame", "followGame", "Its live updates"),
        ("joinGame", "joinGame", "Join one of its open seats"),
        ("resignGame", "resignGame", "Resign a seat"),
    ] {
        let link = LinkBuilder::new()
            .operation_id(operation)
            .parameter("id", "$response.body#/id")
            .description(what)
            .build();
        created.links.insert(name.to_string(), RefOr::T(link));
    }
}

/// Registers every documented route.
pub fn configure(cfg: &mut ServiceConfig) {
    // Path segments that do not parse are problems too.
    cfg.app_data(web::PathConfig::default().error_handler(|e, req| {
        ApiError::NotFound(format!("there is no resource at {}: {e}", req.path())).into()
    }));
    // Routes are tried in this order. Fixed paths first: checking one is a
    // string comparison, while a path with a segment (`{id}`) runs a regex.
    // Then those, the busiest first.
    cfg.service(stateless::legal_moves)
        .service(stateless::apply)
        .service(analysis::analysis)
        .service(solutions::solve)
        .service(stateless::setups)
        .service(stateless::presets)
        .service(games::create_game)
        .service(games::list_games)
        .service(meta::healthz)
        .service(meta::readyz)
        .service(meta::metrics)
        .service(records::read_record)
        .service(accounts::create_account)
        .service(accounts::create_token)
        .service(accounts::list_tokens)
        .service(moves::play_move)
        .service(seats::join_game)
        .service(seats::leave_game)
        .service(seats::resign_game)
        .service(seats::play_again)
        .service(games::get_game)
        .service(moves::game_legal_moves)
        .service(events::events)
        .service(moves::history)
        .service(moves::position_at)
        .service(records::game_record)
        .service(accounts::revoke_token)
        .service(challenges::create_challenge)
        .service(challenges::list_challenges)
        .service(challenges::get_challenge)
        .service(challenges::accept_challenge)
        .service(challenges::decline_challenge)
        .service(challenges::cancel_challenge)
        .service(tournaments::create_tournament)
        .service(tournaments::list_tournaments)
        .service(tournaments::get_tournament)
        .service(tournaments::join_tournament)
        .service(tournaments::leave_tournament)
        .service(tournaments::start_tournament)
        .service(tournaments::list_tournament_games)
        .service(account_events::follow_account)
        .service(accounts::get_account)
        .service(profile::update_account)
        .service(accounts::delete_account)
        .service(export::export_account)
        .service(ratings::list_account_games)
        .service(records::export_account_games)
        .service(ratings::list_ratings)
        .service(webhooks::create_webhook)
        .service(webhooks::list_webhooks)
        .service(webhooks::delete_webhook)
        .service(webhooks::rotate_webhook_secret)
        .service(webhooks::test_webhook)
        .service(webhooks::list_webhook_deliveries)
        .service(vacation::get_vacation)
        .service(vacation::start_vacation)
        .service(vacation::end_vacation)
        .service(conditional::set_conditional_moves)
        .service(conditional::get_conditional_moves);
}

/// The OpenAPI document, built from the routes without starting a server.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, api) = actix_web::App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(configure)
        .split_for_parts();
    let mut api = api;
    add_links(&mut api);
    api
}

/// The paths served and their methods, from the OpenAPI document, for 405
/// answers.
#[derive(Debug, Clone)]
pub struct RouteTable(Vec<(Vec<String>, Vec<&'static str>)>);

impl RouteTable {
    /// The table of `api`'s paths.
    pub fn of(api: &utoipa::openapi::OpenApi) -> RouteTable {
        use utoipa::openapi::HttpMethod;
        let names = [
            (HttpMethod::Get, "GET"),
            (HttpMethod::Post, "POST"),
            (HttpMethod::Put, "PUT"),
            (HttpMethod::Delete, "DELETE"),
            (HttpMethod::Patch, "PATCH"),
        ];
        let rows = api
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let segments = path.trim_matches('/').split('/').map(str::to_string).collect();
                let mut methods: Vec<&'static str> = Vec::new();
                for (m, name) in &names {
                    let has = match m {
                        HttpMethod::Get => item.get.is_some(),
                        HttpMethod::Post => item.post.is_some(),
                        HttpMethod::Put => item.put.is_some(),
                        HttpMethod::Delete => item.delete.is_some(),
                        HttpMethod::Patch => item.patch.is_some(),
                        _ => false,
                    };
                    if has {
                        methods.push(name);
                    }
                }
                (segments, methods)
            })
            .collect();
        RouteTable(rows)
    }

    fn allowed(&self, path: &str) -> Option<String> {
        let parts: Vec<&str> = path.trim_matches('/').split('/').collect();
        self.0
            .iter()
            .find(|(segments, _)| {
                segments.len() == parts.len()
                    && segments
                        .iter()
                        .zip(&parts)
                        .all(|(s, p)| s == p || (s.starts_with('{') && s.ends_with('}')))
            })
            .map(|(_, methods)| methods.join(", "))
    }
}

/// The answer for any request no route took: 405 with `Allow` when the
/// path exists under other methods, otherwise 404.
pub async fn not_found(req: HttpRequest, table: web::Data<RouteTable>) -> Result<HttpResponse, ApiError> {
    let path = req.path().to_string();
    match table.allowed(&path) {
        Some(allow) if !allow.is_empty() => {
            Err(ApiError::MethodNotAllowed { method: req.method().to_string(), path, allow })
        }
        _ => Err(ApiError::NotFound(format!("there is no resource at {path}"))),
    }
}
