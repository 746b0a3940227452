//! The HTTP API: routes, the OpenAPI document, and the answers for paths
//! and methods that do not exist.

/// Gives a type written by hand the OpenAPI schema of a `*Doc` twin that
/// derives it: its name, its schema, and the schemas it refers to.
macro_rules! schema_of {
    ($ty:ty => $doc:ty) => {
        impl utoipa::PartialSchema for $ty {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                <$doc as utoipa::PartialSchema>::schema()
            }
        }

        impl utoipa::ToSchema for $ty {
            fn name() -> std::borrow::Cow<'static, str> {
                <$doc as utoipa::ToSchema>::name()
            }

            fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
                <$doc as utoipa::ToSchema>::schemas(schemas);
            }
        }
    };
}

pub mod games;
pub mod json;
pub mod meta;
pub mod play;
pub mod problem;
pub mod query;
pub mod rules;
pub mod stateless;

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
    components(schemas(problem::Problem)),
    tags(
        (name = "rules", description = "Rule sets and presets"),
        (name = "play", description = "Stateless play: set up, list moves, apply a move"),
        (name = "games", description = "Persisted games: seats, moves, history, live updates"),
        (name = "meta", description = "Health")
    )
)]
pub struct ApiDoc;

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
        .service(stateless::setups)
        .service(stateless::presets)
        .service(games::create_game)
        .service(games::list_games)
        .service(meta::healthz)
        .service(meta::readyz)
        .service(games::play_move)
        .service(games::get_game)
        .service(games::game_legal_moves)
        .service(games::events)
        .service(games::history)
        .service(games::position_at);
}

/// The OpenAPI document, built from the routes without starting a server.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, api) = actix_web::App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(configure)
        .split_for_parts();
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
