//! Building and running the HTTP server.

use std::net::TcpListener;
use std::sync::Arc;

use actix_cors::Cors;
use actix_web::dev::{Server, Service};
use actix_web::http::ConnectionType;
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{App, HttpMessage, HttpServer, web};
use tracing_actix_web::TracingLogger;

use crate::server::request_log::{LoggedId, Spans};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::server::config::{LimitArgs, ServeConfig};
use leapfrog_http::limits::Limiter;
use leapfrog_http::state::AppState;
use leapfrog_http::{self, ApiDoc, RouteTable, json::BodyLimit};
use leapfrog_service::events::{Hub, StreamLimits};
use leapfrog_store::{Backend, Store, StoreError};

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
async fn sweep(games: leapfrog_service::play::Games, limits: LimitArgs) {
    let ms = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    let mut every = tokio::time::interval(limits.sweep_every.max(std::time::Duration::from_secs(1)));
    loop {
        every.tick().await;
        let now = leapfrog_service::play::now_ms();
        let keys_before = now.saturating_sub(ms(limits.idempotency_ttl));
        let idle_before = now.saturating_sub(ms(limits.abandon_after));
        match games.sweep(now, keys_before, idle_before).await {
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
    /// The move clocks could not be moved past an outage.
    #[error("cannot give back an outage's time to the move clocks: {0}")]
    Clocks(String),
    /// The webhook sender's HTTP client could not be made.
    #[error("cannot start the webhook sender: {0}")]
    Webhooks(String),
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
    metrics_port: Option<u16>,
    store: Store,
    stopping: leapfrog_process::stopping::Stopping,
    background: Vec<actix_web::rt::task::JoinHandle<()>>,
}

impl std::fmt::Debug for Application {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Application").field("port", &self.port).finish()
    }
}

fn cors(origins: &[String]) -> Cors {
    let cors = Cors::default()
        .allowed_methods(["GET", "POST", "PATCH", "DELETE", "OPTIONS"])
        .allow_any_header()
        .expose_headers(["etag", "location", "x-request-id", "retry-after"])
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
        let metrics_listener = match &config.metrics_bind {
            Some(bind) => {
                let error = |source| StartupError::Bind { bind: bind.clone(), source };
                let listener = TcpListener::bind(bind).map_err(error)?;
                let at = listener.local_addr().map_err(error)?;
                Some((listener, at))
            }
            None => None,
        };
        let metrics_bind = metrics_listener.as_ref().map(|(_, at)| *at);
        leapfrog_process::meter::handle();
        let store =
            Store::open_with(&config.database.url, config.database.durability, config.database.pool_size)
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
        let stopping = hub.stopping().clone();
        let mut background = vec![
            actix_web::rt::spawn(give_back_memory(hub.clone())),
            actix_web::rt::spawn(leapfrog_process::meter::upkeep()),
        ];
        if store.backend() == Backend::Postgres {
            background.push(actix_web::rt::spawn(leapfrog_service::events::forward_postgres(
                store.url().to_string(),
                hub.clone(),
            )));
        }
        let limiter = Arc::new(Limiter::new(
            config.limits.rates(),
            config.limits.trusted_proxies.clone(),
            config.limits.grouping(),
        ));
        let thinkers = leapfrog_service::compute::pools::Thinkers::new(
            config.thinking.threads(),
            config.thinking.think_queue,
            config.thinking.think_wait,
        );
        let (games, wakes) = leapfrog_service::play::Games::new(store.clone(), hub.clone());
        let games = games.with_vacation_days(config.vacation_days);
        let computer = leapfrog_service::play::computer::Computer::new(games.clone(), thinkers.clone());
        background.push(actix_web::rt::spawn(computer.clone().listen(wakes)));
        background.push(actix_web::rt::spawn(computer.scan()));
        // An outage's time is given back before the clock times anyone out.
        leapfrog_service::play::move_clock::after_outage(&games, leapfrog_process::now_ms())
            .await
            .map_err(|e| StartupError::Clocks(e.to_string()))?;
        background.push(actix_web::rt::spawn(leapfrog_service::play::move_clock::beat(games.clone())));
        background.push(actix_web::rt::spawn(leapfrog_service::play::move_clock::run(games.clone())));
        background.push(actix_web::rt::spawn(sweep(games.clone(), config.limits.clone())));
        let reach = leapfrog_service::events::webhook::Reach { allow_private: config.webhook_allow_private };
        let outbox = leapfrog_service::events::outbox::Outbox::new(store.clone(), hub.clone(), reach)
            .map_err(|e| StartupError::Webhooks(e.to_string()))?;
        background.push(actix_web::rt::spawn(outbox.run()));
        let hasher = leapfrog_service::accounts::Hasher::new(
            leapfrog_service::compute::pools::Share::percent(config.limits.password_share),
        )
        .map_err(|e| StartupError::Accounts(e.to_string()))?;
        // Accounts made before their names' looks were kept get them now.
        let filled = store
            .fill_account_looks(leapfrog_core::names::look)
            .await
            .map_err(|e| StartupError::Accounts(e.to_string()))?;
        if filled > 0 {
            tracing::info!(accounts = filled, "kept what older accounts' names look like");
        }
        let accounts = leapfrog_service::accounts::Accounts::new(store.clone(), Arc::new(hasher));
        let state = AppState {
            games,
            accounts,
            hub,
            limiter,
            max_unfinished: config.limits.max_unfinished(),
            max_computer_games: config.limits.max_computer_games(),
            engine: leapfrog_service::compute::Engine::new(config.thinking.threads()),
            analyses_per_client: config.thinking.analyses_per_client.max(1),
            thinkers,
            exports: Arc::new(leapfrog_http::limits::Slots::new(
                leapfrog_http::records::EXPORTS_PER_ACCOUNT,
                config.limits.max_exports.max(1),
            )),
            reach,
            metrics_bind,
        };
        let limit = config.body_limit;
        let origins = config.cors_origins.clone();
        let closing = stopping.clone();
        let server = HttpServer::new(move || {
            let closing = closing.clone();
            let (app, mut openapi) = App::new()
                .into_utoipa_app()
                .openapi(ApiDoc::openapi())
                .app_data(web::Data::new(BodyLimit(limit)))
                .app_data(web::Data::new(state.clone()))
                .configure(leapfrog_http::configure)
                .split_for_parts();
            leapfrog_http::add_links(&mut openapi);
            let routes = RouteTable::of(&openapi);
            app.app_data(web::Data::new(routes))
                .configure(crate::server::page::configure)
                .service(web::resource("/docs").to(leapfrog_http::meta::docs_redirect))
                .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", openapi))
                .default_service(web::to(leapfrog_http::not_found))
                .wrap_fn(move |req, srv| {
                    let id = req.extensions().get::<LoggedId>().map(|l| l.id.clone());
                    let docs = req.path() == "/docs" || req.path().starts_with("/docs/");
                    let metrics_only = metrics_bind == Some(req.app_config().local_addr());
                    let refused = metrics_only && req.path() != "/metrics";
                    let measured = Measured::of(&req);
                    let fut = (!refused).then(|| srv.call(req));
                    let closing = closing.clone();
                    async move {
                        // The metrics address serves nothing else.
                        let Some(fut) = fut else {
                            return Err(leapfrog_http::problem::ApiError::NotFound(
                                "this address serves /metrics alone".into(),
                            )
                            .into());
                        };
                        let result = fut.await;
                        measured.record(match &result {
                            Ok(res) => res.status(),
                            Err(e) => e.as_response_error().status_code(),
                        });
                        let mut res = result?;
                        if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id).ok()) {
                            res.headers_mut().insert(HeaderName::from_static("x-request-id"), value);
                        }
                        security_headers(res.headers_mut(), docs);
                        // A stopping process takes no further request on
                        // this connection.
                        if closing.is_stopping() {
                            res.response_mut().head_mut().set_connection_type(ConnectionType::Close);
                        }
                        Ok(res)
                    }
                })
                .wrap(cors(&origins))
                .wrap(TracingLogger::<Spans>::new())
        })
        .shutdown_timeout(config.stop_timeout.as_secs().max(1))
        // SIGTERM and SIGINT are handled in `run_until_stopped`: the
        // streams and kept-alive connections are told first.
        .disable_signals()
        .listen(listener)
        .map_err(bind_error)?;
        let server = match metrics_listener {
            Some((listener, at)) => server
                .listen(listener)
                .map_err(|source| StartupError::Bind { bind: at.to_string(), source })?,
            None => server,
        }
        .run();
        let metrics_port = metrics_bind.map(|at| at.port());
        Ok(Application { server, port, metrics_port, store, stopping, background })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port that serves `/metrics` alone, with `--metrics-bind`.
    pub fn metrics_port(&self) -> Option<u16> {
        self.metrics_port
    }

    /// A handle that stops the server from anywhere (its event streams are
    /// not ended first, as on SIGTERM: they are cut when it stops).
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }

    /// Serves until SIGTERM or SIGINT, then stops gracefully: it stops
    /// accepting, ends the event streams with a reconnect hint, closes each
    /// kept-alive connection after its current request, finishes the
    /// requests in flight (within `--stop-timeout`; a second signal cuts
    /// them), and closes the database.
    ///
    /// # Errors
    ///
    /// When the signals cannot be caught, or the server fails.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let signals = Signals::catch()?;
        self.serve(Some(signals)).await
    }

    /// Serves until stopped through [`Application::handle`], leaving the
    /// process's signals alone (for servers inside another program, such
    /// as tests).
    ///
    /// # Errors
    ///
    /// When the server fails.
    pub async fn run_until_handle_stops(self) -> std::io::Result<()> {
        self.serve(None).await
    }

    async fn serve(self, mut signals: Option<Signals>) -> std::io::Result<()> {
        let handle = self.server.handle();
        let mut server = std::pin::pin!(self.server);
        let result = tokio::select! {
            result = &mut server => result,
            signal = Signals::next(&mut signals) => {
                tracing::info!(signal, "stopping: no new connections; finishing the requests in flight");
                drop(handle.stop(true));
                self.stopping.begin();
                tokio::select! {
                    result = &mut server => result,
                    signal = Signals::next(&mut signals) => {
                        tracing::warn!(signal, "a second signal: cutting the requests in flight");
                        drop(handle.stop(false));
                        server.await
                    }
                }
            }
        };
        if result.is_ok() {
            tracing::info!("stopped");
        }
        // Tear down the database side while the runtime still runs: the
        // sweep, the notification listener and the pool's connections.
        for task in self.background {
            task.abort();
            let _ = task.await;
        }
        // The last sign of life: an outage is counted from the stop.
        if let Err(e) = self.store.beat(leapfrog_process::now_ms()).await {
            tracing::warn!(error = %e, "could not note when this process stopped");
        }
        // Connections still out (a database gone away) are not waited for long.
        if tokio::time::timeout(std::time::Duration::from_secs(5), self.store.close()).await.is_err() {
            tracing::warn!("the database did not close its connections within 5 s");
        }
        result
    }
}

/// SIGTERM and SIGINT, caught from the start (each is counted once).
struct Signals {
    term: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn catch() -> std::io::Result<Signals> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Signals { term: signal(SignalKind::terminate())?, int: signal(SignalKind::interrupt())? })
    }

    /// The next signal's name; never without signals.
    async fn next(signals: &mut Option<Signals>) -> &'static str {
        let Some(s) = signals else { return std::future::pending().await };
        tokio::select! {
            _ = s.term.recv() => "SIGTERM",
            _ = s.int.recv() => "SIGINT",
        }
    }
}

/// A request being answered, for its metrics.
struct Measured {
    started: std::time::Instant,
    method: &'static str,
    /// Its route's template (never the path: ids would make labels without end).
    route: String,
}

impl Measured {
    fn of(req: &actix_web::dev::ServiceRequest) -> Measured {
        Measured {
            started: std::time::Instant::now(),
            method: leapfrog_process::meter::method_label(req.method().as_str()),
            route: req.match_pattern().unwrap_or_else(|| "unmatched".into()),
        }
    }

    fn record(self, status: actix_web::http::StatusCode) {
        use leapfrog_process::meter::{REQUEST_SECONDS, REQUESTS};
        let seconds = self.started.elapsed().as_secs_f64();
        let status = status.as_str().to_string();
        metrics::counter!(REQUESTS, "method" => self.method, "route" => self.route.clone(), "status" => status)
            .increment(1);
        metrics::histogram!(REQUEST_SECONDS, "method" => self.method, "route" => self.route).record(seconds);
    }
}
