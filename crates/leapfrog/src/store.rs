//! Persistence of games with sqlx: SQLite (the embedded default) or
//! PostgreSQL, chosen by the URL, through one set of queries.
//!
//! A move is one transaction: its row (unique per game and ply), the
//! game's new position and version (checked against the version the move
//! was computed from), and the idempotency record commit together or not
//! at all, its statements sent as one query. Concurrent moves on one game
//! are decided by the database.

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Executor, Row};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or could not be reached.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed.
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A URL that is neither SQLite nor PostgreSQL.
    #[error("unsupported database URL '{0}': use sqlite://FILE or postgres://…")]
    Url(String),
}

/// Which database is behind the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// SQLite in WAL mode.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// A game as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    /// Its id (a UUID).
    pub id: String,
    /// Bumped by every move.
    pub version: i64,
    /// The complete rule set, JSON.
    pub rules: String,
    /// The deal's seed, decimal.
    pub seed: String,
    /// Player names, JSON array.
    pub players: String,
    /// The position string.
    pub position: String,
    /// `opening`, `playing` or `over`.
    pub status: String,
    /// The result JSON, when over.
    pub result: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub updated_at: i64,
}

/// A seat: a player's name and the hash of their token.
#[derive(Debug, Clone)]
pub struct SeatRow {
    /// The player, from 0.
    pub player: i64,
    /// Their name.
    pub name: String,
    /// SHA-256 of the token, hex.
    pub token_hash: String,
}

/// A move as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    /// The ply it was played at (0 for the first move).
    pub ply: i64,
    /// Who played it.
    pub player: i64,
    /// Its notation.
    pub notation: String,
    /// JSON array of captured cells.
    pub captures: String,
    /// Points scored.
    pub gain: i64,
    /// Unix milliseconds.
    pub at: i64,
}

/// A stored answer to replay for a retried request.
#[derive(Debug, Clone)]
pub struct StoredAnswer {
    /// HTTP status.
    pub status: i64,
    /// The body.
    pub body: String,
}

/// The outcome of trying to commit a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commit {
    /// The move and the game's new state are stored.
    Done,
    /// Another move got there first (the ply is taken or the version moved).
    Conflict,
}

/// The game store.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    /// SQLite only: one connection for all writes, so writers queue in the
    /// pool instead of sleeping in SQLite's busy handler.
    writer: Option<AnyPool>,
    backend: Backend,
    url: String,
}

/// The statements that store a move (macros, for `concat!`), numbered
/// arguments shared among them: the move's row (`$1` game, `$2` ply, `$3`
/// player, `$4` notation, `$5` captures, `$6` gain, `$7` time), the game's
/// new state if its version is still `$13` (`$8` version, `$9` position,
/// `$10` status, `$11` result, `$12` time), the answer to replay for an
/// idempotency key (`$14` key, `$15` status, `$16` body).
macro_rules! insert_move {
    () => {
        "INSERT INTO moves (game_id, ply, player, notation, captures, gain, at) VALUES ($1, $2, $3, $4, $5, $6, $7)"
    };
}
macro_rules! update_game {
    () => {
        "UPDATE games SET version = $8, position = $9, status = $10, result = $11, updated_at = $12 \
         WHERE id = $1 AND version = $13"
    };
}
macro_rules! insert_answer {
    () => {
        "INSERT INTO idempotency (game_id, key, player, status, body) VALUES ($1, $14, $3, $15, $16)"
    };
}
/// PostgreSQL: tells the other processes that game `$1` moved (on the
/// channel [`crate::events::CHANNEL`]), as a `WITH` clause `n` of one row.
/// Sent within the move's transaction, the notification goes out when it
/// commits, and not at all when it does not.
macro_rules! notify_move {
    () => {
        "n AS (SELECT pg_notify('leapfrog_moves', $1))"
    };
}

/// The columns of `games`, in `GameRow` order.
macro_rules! game_columns {
    () => {
        "id, version, rules, seed, players, position, status, result, created_at, updated_at"
    };
}

/// A game with the seat a token holds in it.
#[derive(sqlx::FromRow)]
struct GameAndSeat {
    #[sqlx(flatten)]
    game: GameRow,
    seat: Option<i64>,
}

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

impl Store {
    /// Connects to `url` (`sqlite://FILE`, created if missing, or
    /// `postgres://…`) and runs the migrations.
    ///
    /// # Errors
    ///
    /// When the database cannot be reached or migrated.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
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
        let pool = Self::pool_options(backend, if backend == Backend::Sqlite { 8 } else { 32 })
            .connect_with(options.clone())
            .await?;
        let writer = match backend {
            Backend::Sqlite => Some(Self::pool_options(backend, 1).connect_with(options).await?),
            Backend::Postgres => None,
        };
        let store = Store { pool, writer, backend, url };
        store.migrate().await?;
        Ok(store)
    }

    fn pool_options(backend: Backend, size: u32) -> AnyPoolOptions {
        AnyPoolOptions::new().max_connections(size).acquire_timeout(Duration::from_secs(10)).after_connect(
            move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // WAL: readers never wait for the writer; a writer
                        // waits up to 5 s for another. NORMAL sync in WAL
                        // loses nothing when the process is killed.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 5000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
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

    /// Applies the migrations in `migrations/` that have not run yet.
    ///
    /// # Errors
    ///
    /// When one fails.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        sqlx::migrate!("../../migrations").run(self.writes()).await?;
        Ok(())
    }

    /// Closes the pools, waiting for connections in use to come back.
    pub async fn close(&self) {
        self.pool.close().await;
        if let Some(w) = &self.writer {
            w.close().await;
        }
    }

    /// The database behind the store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The URL it was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::query("SELECT 1").fetch_one(&self.pool).await.is_ok()
    }

    /// Stores a new game and its seats.
    ///
    /// # Errors
    ///
    /// On a database failure; nothing is stored then.
    pub async fn insert_game(&self, g: &GameRow, seats: &[SeatRow]) -> Result<(), StoreError> {
        let mut tx = self.writes().begin().await?;
        sqlx::query(
            "INSERT INTO games (id, version, rules, seed, players, position, status, result, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&g.id)
        .bind(g.version)
        .bind(&g.rules)
        .bind(&g.seed)
        .bind(&g.players)
        .bind(&g.position)
        .bind(&g.status)
        .bind(&g.result)
        .bind(g.created_at)
        .bind(g.updated_at)
        .execute(&mut *tx)
        .await?;
        for s in seats {
            sqlx::query("INSERT INTO seats (game_id, player, name, token_hash) VALUES ($1, $2, $3, $4)")
                .bind(&g.id)
                .bind(s.player)
                .bind(&s.name)
                .bind(&s.token_hash)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// One game.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let q = concat!("SELECT ", game_columns!(), " FROM games WHERE id = $1");
        Ok(sqlx::query_as(q).bind(id).fetch_optional(&self.pool).await?)
    }

    /// Games newest first, optionally of one status, after a cursor
    /// `(created_at, id)`.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn list_games(
        &self,
        status: Option<&str>,
        limit: i64,
        after: Option<(i64, String)>,
    ) -> Result<Vec<GameRow>, StoreError> {
        let (at, id) = after.unwrap_or((i64::MAX, String::new()));
        let q = concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE ($1 = '' OR status = $1) \
             AND (created_at < $2 OR (created_at = $2 AND ($3 = '' OR id < $3))) \
             ORDER BY created_at DESC, id DESC LIMIT $4"
        );
        Ok(sqlx::query_as(q)
            .bind(status.unwrap_or(""))
            .bind(at)
            .bind(id)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }

    /// The moves of a game with ply at least `from`, in order.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn moves(&self, id: &str, from: i64) -> Result<Vec<MoveRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT ply, player, notation, captures, gain, at FROM moves WHERE game_id = $1 AND ply >= $2 ORDER BY ply",
        )
        .bind(id)
        .bind(from)
        .fetch_all(&self.pool)
        .await?)
    }

    /// One game, with the player whose seat has this token hash (if any),
    /// in one query.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn game_and_seat(
        &self,
        id: &str,
        token_hash: &str,
    ) -> Result<Option<(GameRow, Option<i64>)>, StoreError> {
        let q = concat!(
            "SELECT ",
            game_columns!(),
            ", (SELECT player FROM seats WHERE seats.game_id = games.id AND token_hash = $2) AS seat \
             FROM games WHERE id = $1"
        );
        let row: Option<GameAndSeat> =
            sqlx::query_as(q).bind(id).bind(token_hash).fetch_optional(&self.pool).await?;
        Ok(row.map(|r| (r.game, r.seat)))
    }

    /// The stored answer to an earlier request with this idempotency key.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn answer(&self, id: &str, player: i64, key: &str) -> Result<Option<StoredAnswer>, StoreError> {
        let row = sqlx::query(
            "SELECT status, body FROM idempotency WHERE game_id = $1 AND player = $2 AND key = $3",
        )
        .bind(id)
        .bind(player)
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .map(|r| {
                Ok::<_, sqlx::Error>(StoredAnswer { status: r.try_get("status")?, body: r.try_get("body")? })
            })
            .transpose()?)
    }

    /// Commits a move computed from the game at `version`: the move row,
    /// the game's new state, and the answer to replay for `idempotency`,
    /// together or not at all.
    ///
    /// # Errors
    ///
    /// On a database failure; a lost race is `Ok(Commit::Conflict)`.
    pub async fn commit_move(
        &self,
        game: &GameRow,
        version: i64,
        mv: &MoveRow,
        idempotency: Option<(&str, &StoredAnswer)>,
    ) -> Result<Commit, StoreError> {
        let mut tx = self.writes().begin().await?;
        match Self::write_move(self.backend, &mut tx, game, version, mv, idempotency).await {
            Err(e) if is_unique_violation(&e) => return Ok(Commit::Conflict),
            Err(e) => return Err(e.into()),
            // The transaction is rolled back as it is dropped.
            Ok(false) => return Ok(Commit::Conflict),
            Ok(true) => {}
        }
        tx.commit().await?;
        Ok(Commit::Done)
    }

    /// Writes a move's statements in one round trip: every statement is
    /// one to the database (on SQLite, to the connection's worker thread),
    /// with the transaction, and on SQLite the one writer connection, held
    /// all along. SQLite runs the statements of a query in turn, numbered
    /// arguments keeping their numbers across them; PostgreSQL runs them as
    /// data-modifying `WITH` clauses of one statement, which counts what
    /// they wrote and also notifies the other processes. Each writes one
    /// row: `Ok(false)` when one did not (the game's version moved); a
    /// taken ply or key is an error.
    async fn write_move(
        backend: Backend,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        game: &GameRow,
        version: i64,
        mv: &MoveRow,
        idempotency: Option<(&str, &StoredAnswer)>,
    ) -> Result<bool, sqlx::Error> {
        let sql = match (backend, idempotency.is_some()) {
            (Backend::Sqlite, false) => concat!(insert_move!(), "; ", update_game!()),
            (Backend::Sqlite, true) => concat!(insert_move!(), "; ", update_game!(), "; ", insert_answer!()),
            (Backend::Postgres, false) => concat!(
                "WITH m AS (",
                insert_move!(),
                " RETURNING 1), g AS (",
                update_game!(),
                " RETURNING 1), ",
                notify_move!(),
                " SELECT (SELECT count(*) FROM m) + (SELECT count(*) FROM g) FROM n"
            ),
            (Backend::Postgres, true) => concat!(
                "WITH m AS (",
                insert_move!(),
                " RETURNING 1), g AS (",
                update_game!(),
                " RETURNING 1), k AS (",
                insert_answer!(),
                " RETURNING 1), ",
                notify_move!(),
                " SELECT (SELECT count(*) FROM m) + (SELECT count(*) FROM g) + (SELECT count(*) FROM k) FROM n"
            ),
        };
        let mut query = sqlx::query(sql)
            .bind(&game.id)
            .bind(mv.ply)
            .bind(mv.player)
            .bind(&mv.notation)
            .bind(&mv.captures)
            .bind(mv.gain)
            .bind(mv.at)
            .bind(game.version)
            .bind(&game.position)
            .bind(&game.status)
            .bind(&game.result)
            .bind(game.updated_at)
            .bind(version);
        if let Some((key, answer)) = idempotency {
            query = query.bind(key).bind(answer.status).bind(&answer.body);
        }
        let rows = if idempotency.is_some() { 3 } else { 2 };
        let written = match backend {
            Backend::Sqlite => query.execute(&mut **tx).await?.rows_affected(),
            Backend::Postgres => query.fetch_one(&mut **tx).await?.try_get::<i64, _>(0)? as u64,
        };
        Ok(written == rows)
    }
}
