//! Building and running the HTTP server.

use std::net::TcpListener;

use actix_cors::Cors;
use actix_web::dev::{Server, Service};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{App, HttpMessage, HttpServer, web};
use tracing_actix_web::{RequestId, TracingLogger};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::SwaggerUi;

use crate::api::{self, ApiDoc, RouteTable, json::BodyLimit};
use crate::config::ServeConfig;
use crate::events::Hub;
use crate::store::{Backend, Store, StoreError};

/// What every handler needs: the store and the live-update hub.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The games.
    pub store: Store,
    /// Wakes event streams.
    pub hub: Hub,
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
    listener: Option<actix_web::rt::task::JoinHandle<()>>,
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
        let store = Store::open(&config.database.url)
            .await
            .map_err(|source| StartupError::Database { url: redact(&config.database.url), source })?;
        let hub = Hub::default();
        let notifications = (store.backend() == Backend::Postgres).then(|| {
            actix_web::rt::spawn(crate::events::forward_postgres(store.url().to_string(), hub.clone()))
        });
        let state = AppState { store: store.clone(), hub };
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
                .service(web::resource("/docs").to(api::meta::docs_redirect))
                .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", openapi))
                .default_service(web::to(api::not_found))
                .wrap_fn(|req, srv| {
                    let id = req.extensions().get::<RequestId>().map(ToString::to_string);
                    let fut = srv.call(req);
                    async move {
                        let mut res = fut.await?;
                        if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id).ok()) {
                            res.headers_mut().insert(HeaderName::from_static("x-request-id"), value);
                        }
                        Ok(res)
                    }
                })
                .wrap(cors(&origins))
                .wrap(TracingLogger::default())
        })
        .shutdown_timeout(10)
        .listen(listener)
        .map_err(bind_error)?
        .run();
        Ok(Application { server, port, store, listener: notifications })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Serves until SIGINT or SIGTERM, then finishes the requests in flight.
    ///
    /// # Errors
    ///
    /// When the server fails.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let result = self.server.await;
        // Tear down the database side while the runtime still runs: the
        // notification listener and the pool's connections.
        if let Some(listener) = self.listener {
            listener.abort();
            let _ = listener.await;
        }
        self.store.close().await;
        result
    }
}
