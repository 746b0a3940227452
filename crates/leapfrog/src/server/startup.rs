//! Building and running the HTTP server.

use std::net::TcpListener;

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

use crate::server::config::ServeConfig;
pub use crate::server::services::RESERVED_FILES;
use crate::server::services::{self, Started};
use leapfrog_http::{self, ApiDoc, RouteTable, json::BodyLimit};
use leapfrog_store::{Store, StoreError};

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
        let metrics_listener = config.metrics_bind.as_deref().map(bound).transpose()?;
        let metrics_bind = metrics_listener.as_ref().map(|(_, at)| *at);
        leapfrog_process::meter::handle();
        let store =
            Store::open_with(&config.database.url, config.database.durability, config.database.pool_size)
                .await
                .map_err(|source| StartupError::Database { url: redact(&config.database.url), source })?;
        let Started { state, stopping, background } =
            services::start(&config, store.clone(), metrics_bind).await?;
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
                        finish(fut.await, measured, id, docs, &closing)
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

/// A listener on `bind`, and the address it has.
fn bound(bind: &str) -> Result<(TcpListener, std::net::SocketAddr), StartupError> {
    let error = |source| StartupError::Bind { bind: bind.to_string(), source };
    let listener = TcpListener::bind(bind).map_err(error)?;
    let at = listener.local_addr().map_err(error)?;
    Ok((listener, at))
}

/// An answer made: measured, given its request's id and the security
/// headers, and, while the process stops, the last on its connection.
fn finish(
    result: Result<actix_web::dev::ServiceResponse, actix_web::Error>,
    measured: Measured,
    id: Option<String>,
    docs: bool,
    closing: &leapfrog_process::stopping::Stopping,
) -> Result<actix_web::dev::ServiceResponse, actix_web::Error> {
    measured.record(match &result {
        Ok(res) => res.status(),
        Err(e) => e.as_response_error().status_code(),
    });
    let mut res = result?;
    if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id).ok()) {
        res.headers_mut().insert(HeaderName::from_static("x-request-id"), value);
    }
    security_headers(res.headers_mut(), docs);
    // A stopping process takes no further request on this connection.
    if closing.is_stopping() {
        res.response_mut().head_mut().set_connection_type(ConnectionType::Close);
    }
    Ok(res)
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
