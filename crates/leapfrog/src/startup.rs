//! Building and running the HTTP server.

use std::net::TcpListener;
use std::sync::Arc;

use actix_cors::Cors;
use actix_web::dev::{Server, Service};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{App, HttpMessage, HttpServer, web};
use tracing_actix_web::TracingLogger;

use crate::request_log::{LoggedId, Spans};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::api::state::AppState;
use crate::api::{self, ApiDoc, RouteTable, json::BodyLimit};
use crate::config::{LimitArgs, ServeConfig};
use crate::events::{Hub, StreamLimits};
use crate::limits::Limiter;
use crate::store::{Backend, Store, StoreError};

/// File descriptors kept back from event streams: the database's
/// connections, the listener, and room for other requests (`/healthz`
/// among them) when the streams are at their limit.
pub const RESERVED_FILES: u64 = 256;

/// Raises the open-file soft limit to the hard limit, and returns the
/// limit in force (`None` where the platform has none to read).
fn raise_open_files() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => Some(limit),
        Err(e) => {
            tracing::warn!(error = %e, "cannot read or raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).ok().map(|(soft, _)| soft)
        }
    }
}

/// The Swagger UI's policy: this server only, and the inline styles it
/// sets on its elements.
const DOCS_POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
                           base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Headers every answer carries: no type sniffing, no referrer sent on
/// (a page's address may hold an invitation), and on `/docs` a content
/// policy as strict as the page's.
fn security_headers(headers: &mut actix_web::http::header::HeaderMap, docs: bool) {
    use actix_web::http::header;
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    if docs {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(DOCS_POLICY));
    }
}

/// The stream limits: as configured, within the open files less the
/// reserve.
fn stream_limits(limits: &LimitArgs, open_files: Option<u64>) -> StreamLimits {
    let room = open_files
        .map_or(usize::MAX, |n| usize::try_from(n.saturating_sub(RESERVED_FILES)).unwrap_or(usize::MAX));
    StreamLimits {
        total: limits.max_streams.min(room).max(1),
        per_game: limits.max_streams_per_game.max(1),
        per_client: if limits.no_rate_limits { 0 } else { limits.max_streams_per_client },
    }
}

/// Sweeps old idempotency keys and abandoned games every so often, for as
/// long as the process runs.
async fn sweep(store: Store, limits: LimitArgs) {
    let ms = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    let mut every = tokio::time::interval(limits.sweep_every.max(std::time::Duration::from_secs(1)));
    loop {
        every.tick().await;
        let now = crate::games::now_ms();
        let keys_before = now.saturating_sub(ms(limits.idempotency_ttl));
        let idle_before = now.saturating_sub(ms(limits.abandon_after));
        match store.sweep(now, keys_before, idle_before).await {
            Ok(swept) if swept.keys > 0 || swept.abandoned > 0 => {
                tracing::info!(
                    keys = swept.keys,
                    abandoned = swept.abandoned,
                    "swept old idempotency keys and idle games"
                );
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "the sweep failed; it runs again later"),
        }
    }
}

/// Gives the memory of closed event streams back to the system once
/// enough of them have closed: glibc keeps freed pages in its per-thread
/// arenas otherwise (2,000 streams opened and closed three times left the
/// server at 68 MB instead of 15).
async fn give_back_memory(hub: Hub) {
    const EVERY: std::time::Duration = std::time::Duration::from_secs(5);
    const CLOSED: u64 = 256;
    let mut every = tokio::time::interval(EVERY);
    let mut trimmed_at = 0;
    loop {
        every.tick().await;
        let closed = hub.closed();
        if closed.saturating_sub(trimmed_at) >= CLOSED {
            trimmed_at = closed;
            trim_heap();
        }
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code, reason = "one call into the C library, which has no safe wrapper")]
fn trim_heap() {
    // SAFETY: malloc_trim only returns free pages of the heap to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim_heap() {}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// The address is taken or not ours.
    #[error("cannot listen on {bind}: {source}")]
    Bind {
        /// The address.
        bind: String,
        /// Why.
        source: std::io::Error,
    },
    /// The database cannot be opened or migrated.
    #[error("cannot open the database {url}: {source}")]
    Database {
        /// Its URL, without the password.
        url: String,
        /// Why.
        source: StoreError,
    },
    /// The password hasher could not start (no randomness).
    #[error("cannot start the password checks: {0}")]
    Accounts(String),
}

/// A database URL without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{user}:***{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_string(),
    }
}

/// A running server and the port it listens on (useful with port 0).
pub struct Application {
    server: Server,
    port: u16,
    store: Store,
    background: Vec<actix_web::rt::task::JoinHandle<()>>,
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application").field("port", &self.port).finish()
    }
}

fn cors(origins: &[String]) -> Cors {
    let cors = Cors::default()
        .allowed_methods(["GET", "POST", "OPTIONS"])
        .allow_any_header()
        .expose_headers(["etag", "location", "x-request-id"])
        .max_age(3600);
    if origins.iter().any(|o| o == "*") {
        cors.allow_any_origin()
    } else {
        origins.iter().fold(cors, |c, o| c.allowed_origin(o))
    }
}

impl Application {
    /// Opens (and migrates) the database, binds the listener and builds
    /// the server; it runs once awaited. With PostgreSQL it also listens for
    /// moves made by other processes.
    ///
    /// # Errors
    ///
    /// When the database cannot be opened or the address bound.
    pub async fn build(config: ServeConfig) -> Result<Application, StartupError> {
        let bind_error = |source| StartupError::Bind { bind: config.bind.clone(), source };
        let listener = TcpListener::bind(&config.bind).map_err(bind_error)?;
        let port = listener.local_addr().map_err(bind_error)?.port();
        let store = Store::open(&config.database.url, config.database.durability)
            .await
            .map_err(|source| StartupError::Database { url: redact(&config.database.url), source })?;
        let open_files = raise_open_files();
        let streams = stream_limits(&config.limits, open_files);
        tracing::info!(
            open_files,
            streams = streams.total,
            streams_per_game = streams.per_game,
            durability = ?config.database.durability,
            rate_limits = !config.limits.no_rate_limits,
            "limits"
        );
        let hub = Hub::new(store.clone(), streams);
        let mut background = vec![
            actix_web::rt::spawn(sweep(store.clone(), config.limits.clone())),
            actix_web::rt::spawn(give_back_memory(hub.clone())),
        ];
        if store.backend() == Backend::Postgres {
            background.push(actix_web::rt::spawn(crate::events::forward_postgres(
                store.url().to_string(),
                hub.clone(),
            )));
        }
        let limiter = Arc::new(Limiter::new(config.limits.rates(), config.limits.trusted_proxies.clone()));
        let thinkers = crate::thinking::Thinkers::new(
            config.thinking.threads(),
            config.thinking.think_queue,
            config.thinking.think_wait,
        );
        let (games, wakes) = crate::games::Games::new(store.clone(), hub.clone());
        let computer = crate::computer::Computer::new(games.clone(), thinkers.clone());
        background.push(actix_web::rt::spawn(computer.clone().listen(wakes)));
        background.push(actix_web::rt::spawn(computer.scan()));
        background.push(actix_web::rt::spawn(crate::clock::run(games.clone())));
        let hasher =
            crate::accounts::Hasher::new(crate::thinking::Share::percent(config.limits.password_share))
                .map_err(|e| StartupError::Accounts(e.to_string()))?;
        let accounts = crate::accounts::Accounts::new(store.clone(), Arc::new(hasher));
        let state = AppState {
            games,
            accounts,
            hub,
            limiter,
            max_unfinished: config.limits.max_unfinished(),
            max_computer_games: config.limits.max_computer_games(),
            engine: crate::work::Engine::new(config.thinking.threads()),
            analyses_per_client: config.thinking.analyses_per_client.max(1),
            thinkers,
        };
        let limit = config.body_limit;
        let origins = config.cors_origins.clone();
        let server = HttpServer::new(move || {
            let (app, mut openapi) = App::new()
                .into_utoipa_app()
                .openapi(ApiDoc::openapi())
                .app_data(web::Data::new(BodyLimit(limit)))
                .app_data(web::Data::new(state.clone()))
                .configure(api::configure)
                .split_for_parts();
            api::add_links(&mut openapi);
            let routes = RouteTable::of(&openapi);
            app.app_data(web::Data::new(routes))
                .configure(crate::page::configure)
                .service(web::resource("/docs").to(api::meta::docs_redirect))
                .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", openapi))
                .default_service(web::to(api::not_found))
                .wrap_fn(|req, srv| {
                    let id = req.extensions().get::<LoggedId>().map(|l| l.id.clone());
                    let docs = req.path() == "/docs" || req.path().starts_with("/docs/");
                    let fut = srv.call(req);
                    async move {
                        let mut res = fut.await?;
                        if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id).ok()) {
                            res.headers_mut().insert(HeaderName::from_static("x-request-id"), value);
                        }
                        security_headers(res.headers_mut(), docs);
                        Ok(res)
                    }
                })
                .wrap(cors(&origins))
                .wrap(TracingLogger::<Spans>::new())
        })
        .shutdown_timeout(10)
        .listen(listener)
        .map_err(bind_error)?
        .run();
        Ok(Application { server, port, store, background })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle that stops the server (as SIGTERM does) from anywhere.
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// Serves until SIGINT or SIGTERM, then finishes the requests in flight.
    ///
    /// # Errors
    ///
    /// When the server fails.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let result = self.server.await;
        // Tear down the database side while the runtime still runs: the
        // sweep, the notification listener and the pool's connections.
        for task in self.background {
            task.abort();
            let _ = task.await;
        }
        self.store.close().await;
        result
    }
}
