//! Persistence of games with sqlx: SQLite (the embedded default) or
//! PostgreSQL, chosen by the URL, through one set of queries.
//!
//! The store is split by concern: `accounts` (accounts, their deletion),
//! `tokens` (their personal access tokens), `ratings` (ratings and
//! leaderboards), `games` (games and the listing), `scans` (the clock's,
//! the computer's and the sweep's), `seats` (seats and their tokens),
//! `moves` (a move's commit and the history), `events` (each game's event
//! log), `account_events` (each account's), `challenges`, `vacation`,
//! `conditional` (kept conditional moves), `webhooks` (endpoints and
//! deliveries) and `claims` (the deliveries' fair claim), `tournaments`
//! (events, their players and games), `group` and
//! `batch` (the group commit of moves), `direct` (SQLite's writer on its
//! own thread), `liveness` (the process's heartbeat), `backup`; `run` is
//! where every statement runs (the database's runtime), `rows`
//! are the rows, `stored` the forms of their text columns, `sql` the
//! named arguments every statement uses.
//!
//! A move commits whole or not at all: its row (unique per game and ply),
//! the game's new position and version (checked against the version the
//! move was computed from), its events, and the idempotency record. Moves
//! of concurrent games share a transaction (`group`); every other
//! change of a game writes its events with it in a transaction of its
//! own. Concurrent moves on one game are decided by the database.
//!
//! Durability: by default an answered move survives a power loss, as
//! PostgreSQL promises by default. On SQLite every commit syncs the WAL
//! (`synchronous = FULL`); the group commit pays one sync for all the
//! moves waiting. [`Durability::Fast`] trades the last commits before an
//! OS crash for speed (SQLite `synchronous = NORMAL`, PostgreSQL
//! `synchronous_commit = off`); a killed process loses nothing either way.

mod account_events;
mod accounts;
pub mod backup;
mod batch;
mod challenges;
mod claims;
mod conditional;
mod direct;
mod events;
mod games;
mod group;
mod liveness;
mod moves;
mod ratings;
mod rows;
mod run;
mod scans;
mod seats;
mod sql;
pub mod stored;
mod tokens;
mod tournaments;
pub use stored::{GameRows, MoveRows};
mod vacation;
mod webhooks;

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor};

use run::on_runtime;

pub use account_events::{ACCOUNT_KEY, AccountEvent};
pub use accounts::{AccountGames, AccountRow, CloseChallenges, ClosedChallenges};
pub use challenges::{ChallengeRow, ChallengeWrite};
pub use claims::{Due, Share};
pub use games::WAITING;
pub use ratings::{EndWrite, Ranked, RatingRow, RatingWrite};
pub use rows::{
    Commit, DeliveryRow, EventRow, GameRow, KeyRecord, MoveRow, SeatRow, TournamentGameRow,
    TournamentPlayerRow, TournamentRow, WebhookRow,
};
pub use tokens::TokenRow;
pub use tournaments::{TournamentChange, TournamentWrite};
pub use vacation::Vacation;
pub use webhooks::{MAX_BODY, Sent};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or could not be reached.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// SQLite refused, on the group committer's own connection.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A migration failed.
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A value that did not encode into its stored form.
    #[error("encoding a stored form: {0}")]
    Encode(#[from] serde_json::Error),
    /// A statement given the wrong arguments (a bug).
    #[error("statement: {0}")]
    Statement(String),
    /// A stored value that does not read back.
    #[error("stored {what}: {detail}")]
    Damaged {
        /// What did not read.
        what: &'static str,
        /// Why.
        detail: String,
    },
    /// Rows read in a transaction changed before it wrote them: it is
    /// rolled back, and may be tried again.
    #[error("{0}")]
    Moved(&'static str),
    /// A vacation day was to be spent, and the account has none left (its
    /// last was spent meanwhile): nothing of the change is stored.
    #[error("no vacation day left")]
    NoVacationDay,
    /// A URL that is neither SQLite nor PostgreSQL.
    #[error("unsupported database URL '{0}': use sqlite://FILE or postgres://…")]
    Url(String),
    /// The database's runtime could not start, or its task stopped.
    #[error("the database's runtime: {0}")]
    Runtime(String),
}

/// Connections a store keeps open (readers, on SQLite: writes take one
/// more) unless told otherwise.
pub const DEFAULT_POOL_SIZE: u32 = 10;

/// Which database is behind the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// SQLite in WAL mode.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// What an answered move survives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// A power loss or OS crash: the commit is synced before the answer.
    #[default]
    Full,
    /// A killed process, but not a power loss: the last commits may be
    /// lost then.
    Fast,
}

/// The game store.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    /// SQLite only: one connection for all writes but the group
    /// committer's, so writers queue in the pool instead of sleeping in
    /// SQLite's busy handler.
    writer: Option<AnyPool>,
    /// SQLite only: what every writer of the process holds while it
    /// writes, the group committer's own connection too.
    write_lock: Option<WriteLock>,
    /// The queue of moves the group committer writes.
    group: group::Committer,
    backend: Backend,
    durability: Durability,
    url: String,
}

/// The channel on which PostgreSQL tells every process that a game
/// changed (the payload is its id): notified in the transaction that
/// changes it, so it goes out when, and only if, that commits.
pub const CHANNEL: &str = "leapfrog_moves";

/// Whether `e` is a unique constraint refusing a row.
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl Store {
    /// Connects to `url` (`sqlite://FILE`, created if missing, or
    /// `postgres://…`) with the given durability, and runs the migrations.
    ///
    /// # Errors
    ///
    /// When the database cannot be reached or migrated.
    pub async fn open(url: &str, durability: Durability) -> Result<Store, StoreError> {
        Self::open_with(url, durability, DEFAULT_POOL_SIZE).await
    }

    /// Opens the store as [`Store::open`] does, with a pool of `size`
    /// connections (at least one).
    ///
    /// # Errors
    ///
    /// When the database cannot be reached or migrated.
    pub async fn open_with(url: &str, durability: Durability, size: u32) -> Result<Store, StoreError> {
        let url = url.to_string();
        on_runtime(async move { Self::connect(&url, durability, size.max(1)).await }).await
    }

    async fn connect(url: &str, durability: Durability, size: u32) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StoreError::Url(url.chars().take(80).collect()));
        };
        let url = match backend {
            Backend::Sqlite if !url.contains('?') && !url.contains(":memory:") => format!("{url}?mode=rwc"),
            _ => url.to_string(),
        };
        let options = AnyConnectOptions::from_str(&url)?;
        let pool = Self::pool_options(backend, durability, size).connect_with(options.clone()).await?;
        let writer = match backend {
            Backend::Sqlite => Some(Self::pool_options(backend, durability, 1).connect_with(options).await?),
            Backend::Postgres => None,
        };
        let write_lock = (backend == Backend::Sqlite).then(WriteLock::default);
        let pool_writer = || group::Writer::Pool(writer.clone().unwrap_or_else(|| pool.clone()));
        let through = match &write_lock {
            Some(lock) => {
                let file = sqlx::sqlite::SqliteConnectOptions::from_str(&url)?.get_filename().to_path_buf();
                // A database in memory is the pool's own: no other connection sees it.
                if file.as_os_str() == ":memory:" {
                    pool_writer()
                } else {
                    group::Writer::Direct(Box::new(direct::Direct::open(&file, durability)?), lock.clone())
                }
            }
            None => pool_writer(),
        };
        let group =
            group::Committer::start(through, backend).map_err(|e| StoreError::Runtime(e.to_string()))?;
        let store = Store { pool, writer, write_lock, group, backend, durability, url };
        store.migrate().await?;
        Ok(store)
    }

    fn pool_options(backend: Backend, durability: Durability, size: u32) -> AnyPoolOptions {
        AnyPoolOptions::new().max_connections(size).acquire_timeout(ACQUIRE_TIMEOUT).after_connect(
            move |conn, _| {
                Box::pin(async move {
                    match (backend, durability) {
                        // WAL: readers never wait for the writer; a writer
                        // waits up to 5 s for another. FULL syncs the WAL at
                        // every commit; NORMAL only at checkpoints, which
                        // loses nothing when the process is killed.
                        (Backend::Sqlite, _) => {
                            conn.execute("PRAGMA journal_mode = WAL").await?;
                            conn.execute(match durability {
                                Durability::Full => "PRAGMA synchronous = FULL",
                                Durability::Fast => "PRAGMA synchronous = NORMAL",
                            })
                            .await?;
                            conn.execute("PRAGMA busy_timeout = 5000").await?;
                            // A statement's journal in memory, not a temporary file: the group's multi-row statements keep one.
                            conn.execute("PRAGMA temp_store = MEMORY").await?;
                            conn.execute("PRAGMA foreign_keys = ON").await?;
                        }
                        (Backend::Postgres, Durability::Fast) => {
                            conn.execute("SET synchronous_commit = off").await?;
                        }
                        (Backend::Postgres, Durability::Full) => {}
                    }
                    Ok(())
                })
            },
        )
    }

    /// The pool that takes writes.
    fn writes(&self) -> &AnyPool {
        self.writer.as_ref().unwrap_or(&self.pool)
    }

    /// The connections open, idle, and the most there may be (with
    /// SQLite's writer).
    pub fn connections(&self) -> (u32, usize, u32) {
        let pools = std::iter::once(&self.pool).chain(self.writer.as_ref());
        pools.fold((0, 0, 0), |(open, idle, max), p| {
            (open + p.size(), idle + p.num_idle(), max + p.options().get_max_connections())
        })
    }

    /// Applies the migrations in `migrations/` that have not run yet.
    ///
    /// # Errors
    ///
    /// When one fails.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        self.on_db(|s| async move {
            sqlx::migrate!("../../migrations").run(s.writes()).await?;
            Ok(())
        })
        .await
    }

    /// Closes the pools, waiting for connections in use to come back.
    pub async fn close(&self) {
        let _ = self
            .on_db(|s| async move {
                s.pool.close().await;
                if let Some(w) = &s.writer {
                    w.close().await;
                }
                Ok(())
            })
            .await;
    }

    /// How many group commits failed whole since the store opened (their
    /// moves then committed one by one): 0 in good health.
    pub fn group_failures(&self) -> u64 {
        self.group.failures()
    }

    /// The database behind the store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// What an answered move survives.
    pub fn durability(&self) -> Durability {
        self.durability
    }

    /// The URL it was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        self.on_db(|s| async move { Ok(sqlx::query("SELECT 1").fetch_one(&s.pool).await?) }).await.is_ok()
    }
}

/// The longest a statement waits for a connection, or for the write lock.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);

/// The lock SQLite's writers of one process take in turn.
type WriteLock = std::sync::Arc<tokio::sync::Mutex<()>>;
