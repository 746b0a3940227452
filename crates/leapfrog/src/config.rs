//! Settings of `leapfrog serve`, from flags and the environment.

use clap::Args;

use crate::api::json::DEFAULT_BODY_LIMIT;

/// How the server runs.
#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "LEAPFROG_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Origins browsers may call the API from, comma-separated; `*` for any.
    #[arg(long = "cors-origin", env = "LEAPFROG_CORS_ORIGINS", value_delimiter = ',', default_value = "*")]
    pub cors_origins: Vec<String>,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "LEAPFROG_BODY_LIMIT", default_value_t = DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,
    #[command(flatten)]
    pub database: DatabaseArgs,
}

/// Where games are stored.
#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// `sqlite://FILE` (created if missing) or `postgres://USER@HOST/DB`.
    #[arg(long = "database-url", env = "DATABASE_URL", default_value = "sqlite://leapfrog.db")]
    pub url: String,
}

impl ServeConfig {
    /// Settings for tests: port 0 on loopback, any origin, a fresh SQLite
    /// file in the temporary directory.
    pub fn for_tests() -> ServeConfig {
        let file = std::env::temp_dir().join(format!("leapfrog-test-{}.db", uuid::Uuid::new_v4()));
        ServeConfig {
            bind: "127.0.0.1:0".into(),
            cors_origins: vec!["*".into()],
            body_limit: DEFAULT_BODY_LIMIT,
            database: DatabaseArgs { url: format!("sqlite://{}", file.display()) },
        }
    }
}
