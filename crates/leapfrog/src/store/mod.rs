//! Persistence of games with sqlx: SQLite (the embedded default) or
//! PostgreSQL, chosen by the URL, through one set of queries.
//!
//! A move is one transaction: its row (unique per game and ply), the
//! game's new position and version (checked against the version the move
//! was computed from), and the idempotency record commit together or not
//! at all, its statements sent as one query. Concurrent moves on one game
//! are decided by the database.
//!
//! Durability: by default an answered move survives a power loss, as
//! PostgreSQL promises by default. On SQLite every commit syncs the WAL
//! (`synchronous = FULL`), and moves of concurrent games are committed in
//! groups, one transaction and one sync for all the moves waiting
//! ([`group`]). [`Durability::Fast`] trades the last commits before an
//! OS crash for speed (SQLite `synchronous = NORMAL`, PostgreSQL
//! `synchronous_commit = off`); a killed process loses nothing either way.

mod group;

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
    /// A group commit failed: none of its moves is stored.
    #[error("group commit: {0}")]
    Group(String),
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

/// What an answered move survives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Durability {
    /// A power loss or OS crash: the commit is synced before the answer.
    #[default]
    Full,
    /// A killed process, but not a power loss: the last commits may be
    /// lost then.
    Fast,
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
    /// Who created it: the client's address, or empty.
    pub client: String,
    /// When the sweep found it abandoned (Unix milliseconds), if it did.
    pub abandoned_at: Option<i64>,
    /// For a game with computer seats: JSON, each seat's level or null.
    pub computers: Option<String>,
    /// For a game with open or resigned seats: JSON, one entry per seat
    /// (see the migration that made it).
    pub seating: Option<String>,
    /// How many seats are open.
    pub open_seats: i64,
    /// How many of them are public.
    pub public_seats: i64,
    /// Seconds a seat has for a move, if limited.
    pub move_limit: Option<i64>,
    /// When the seat to move got its turn (Unix milliseconds); `None` for
    /// games older than the clock.
    pub turn_at: Option<i64>,
    /// The id of the game that replays this one, once asked for.
    pub rematch: Option<String>,
}

/// A seat: a player's name and the hash of their token.
#[derive(Debug, Clone)]
pub struct SeatRow {
    /// The player, from 0.
    pub player: i64,
    /// Their name.
    pub name: String,
    /// SHA-256 of the token, hex; for a seat no token opens (the
    /// computer's, an open one), a text that is never such a hash.
    pub token_hash: String,
    /// A private seat: SHA-256 of its invitation, hex.
    pub invite_hash: Option<String>,
    /// A rematch's seat: the hash of the old seat's token, which claims it.
    pub claim_hash: Option<String>,
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
    /// 1 when the computer made it, 0 when a person did.
    pub computer: i64,
}

/// What an idempotency key made: enough to answer a retry again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    /// The key, as the client sent it.
    pub key: String,
    /// The ply of the move it made.
    pub ply: i64,
    /// The game's version after that move.
    pub version: i64,
    /// The move asked for, in notation: a retry must ask for the same.
    pub request: String,
    /// When, in Unix milliseconds: stored as the move's time.
    pub created_at: i64,
}

/// What a sweep removed or marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Swept {
    /// Idempotency records past their time.
    pub keys: u64,
    /// Games newly marked abandoned.
    pub abandoned: u64,
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
    /// SQLite only: the queue of moves the group committer writes.
    group: Option<group::Committer>,
    backend: Backend,
    durability: Durability,
    url: String,
}

/// The statements that store a move (macros, for `concat!`), numbered
/// arguments shared among them: the move's row (`$1` game, `$2` ply, `$3`
/// player, `$4` notation, `$5` captures, `$6` gain, `$7` time, `$8` 1 when
/// the computer made it), the game's new state if its version is still
/// `$14` (`$9` version, `$10` position, `$11` status, `$12` result, `$13`
/// time, when the next seat's turn starts too; a move ends any abandonment), the idempotency key's record (`$15`
/// key, `$16` the move asked for).
macro_rules! insert_move {
    () => {
        "INSERT INTO moves (game_id, ply, player, notation, captures, gain, at, computer) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
    };
}
macro_rules! update_game {
    () => {
        "UPDATE games SET version = $9, position = $10, status = $11, result = $12, updated_at = $13, \
         turn_at = $13, abandoned_at = NULL WHERE id = $1 AND version = $14"
    };
}
macro_rules! insert_key {
    () => {
        "INSERT INTO move_keys (game_id, player, key, ply, version, request, created_at) \
         VALUES ($1, $3, $15, $2, $9, $16, $7)"
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
        "id, version, rules, seed, players, position, status, result, created_at, updated_at, client, abandoned_at, \
         computers, seating, open_seats, public_seats, move_limit, turn_at, rematch"
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

/// The listing's query shapes, one per filter, so that each uses its
/// index: games newest first (`games_listing`), of one status
/// (`games_status_listing`) or waiting with public seats (`games_lobby`,
/// asked for as the status `waiting`), from the start or after a cursor
/// (`created_at`, `id`), at most so many rows. The arguments, numbered in
/// this order: the status if filtered (not for `waiting`), the cursor if
/// given, the limit. An `OR` of "no filter" and "this status" in one shape
/// made SQLite scan every game.
fn listing_query(status: Option<&str>, after: bool) -> &'static str {
    macro_rules! listing {
        ($where:literal, $limit:literal) => {
            concat!(
                "SELECT ",
                game_columns!(),
                " FROM games ",
                $where,
                " ORDER BY created_at DESC, id DESC LIMIT ",
                $limit
            )
        };
    }
    // `created_at <= c AND (created_at < c OR id < i)`: the keyset
    // condition as a range on the index's leading time column.
    match (status, after) {
        (None, false) => listing!("", "$1"),
        (Some(WAITING), false) => listing!("WHERE public_seats > 0 AND status <> 'over'", "$1"),
        // A game waiting for players is stored as opening (or playing,
        // without an opening): it is `waiting`, not listed here.
        (Some(_), false) => listing!("WHERE status = $1 AND open_seats = 0", "$2"),
        (None, true) => listing!("WHERE created_at <= $1 AND (created_at < $1 OR id < $2)", "$3"),
        (Some(WAITING), true) => listing!(
            "WHERE public_seats > 0 AND status <> 'over' AND created_at <= $1 AND (created_at < $1 OR id < $2)",
            "$3"
        ),
        (Some(_), true) => {
            listing!(
                "WHERE status = $1 AND open_seats = 0 AND created_at <= $2 AND (created_at < $2 OR id < $3)",
                "$4"
            )
        }
    }
}

/// The listing filter of games waiting with public seats: never a stored
/// status.
pub const WAITING: &str = "waiting";

impl Store {
    /// Connects to `url` (`sqlite://FILE`, created if missing, or
    /// `postgres://…`) with the given durability, and runs the migrations.
    ///
    /// # Errors
    ///
    /// When the database cannot be reached or migrated.
    pub async fn open(url: &str, durability: Durability) -> Result<Store, StoreError> {
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
        let size = if backend == Backend::Sqlite { 8 } else { 32 };
        let pool = Self::pool_options(backend, durability, size).connect_with(options.clone()).await?;
        let writer = match backend {
            Backend::Sqlite => Some(Self::pool_options(backend, durability, 1).connect_with(options).await?),
            Backend::Postgres => None,
        };
        let group = writer.clone().map(group::Committer::start);
        let store = Store { pool, writer, group, backend, durability, url };
        store.migrate().await?;
        Ok(store)
    }

    fn pool_options(backend: Backend, durability: Durability, size: u32) -> AnyPoolOptions {
        AnyPoolOptions::new().max_connections(size).acquire_timeout(Duration::from_secs(10)).after_connect(
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
        sqlx::query("SELECT 1").fetch_one(&self.pool).await.is_ok()
    }

    /// Stores a new game and its seats.
    ///
    /// # Errors
    ///
    /// On a database failure; nothing is stored then.
    pub async fn insert_game(&self, g: &GameRow, seats: &[SeatRow]) -> Result<(), StoreError> {
        let mut tx = self.writes().begin().await?;
        Self::insert_rows(&mut tx, g, seats).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A game's row and its seats' rows, within `tx`.
    async fn insert_rows(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        g: &GameRow,
        seats: &[SeatRow],
    ) -> Result<(), sqlx::Error> {
        sqlx::query(concat!(
            "INSERT INTO games (",
            game_columns!(),
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
        ))
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
        .bind(&g.client)
        .bind(g.abandoned_at)
        .bind(&g.computers)
        .bind(&g.seating)
        .bind(g.open_seats)
        .bind(g.public_seats)
        .bind(g.move_limit)
        .bind(g.turn_at)
        .bind(&g.rematch)
        .execute(&mut **tx)
        .await?;
        for s in seats {
            sqlx::query(
                "INSERT INTO seats (game_id, player, name, token_hash, invite_hash, claim_hash) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&g.id)
            .bind(s.player)
            .bind(&s.name)
            .bind(&s.token_hash)
            .bind(&s.invite_hash)
            .bind(&s.claim_hash)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    /// Stores `next`, the rematch of game `old`, if `old` has none yet:
    /// `old` then points to it (a new version, changed at `next`'s
    /// creation), all in one transaction. `false` when another rematch came
    /// first (nothing is stored then).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn insert_rematch(
        &self,
        old: &str,
        next: &GameRow,
        seats: &[SeatRow],
    ) -> Result<bool, StoreError> {
        let mut tx = self.writes().begin().await?;
        let marked = sqlx::query(
            "UPDATE games SET rematch = $2, version = version + 1, updated_at = $3 WHERE id = $1 AND rematch IS NULL",
        )
        .bind(old)
        .bind(&next.id)
        .bind(next.created_at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if marked != 1 {
            return Ok(false);
        }
        Self::insert_rows(&mut tx, next, seats).await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify('leapfrog_moves', $1)").bind(old).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Each seat's token hash of game `id`, by player.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn token_hashes(&self, id: &str) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query("SELECT player, token_hash FROM seats WHERE game_id = $1 ORDER BY player")
            .bind(id)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect::<Result<_, sqlx::Error>>()?)
    }

    /// Gives the seat of game `id` that `claim_hash` claims the token hash
    /// `token_hash`; returns the seat, or `None` when no seat is claimed
    /// by it. Claiming again replaces the token hash given before.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn claim_seat(
        &self,
        id: &str,
        claim_hash: &str,
        token_hash: &str,
    ) -> Result<Option<i64>, StoreError> {
        let mut tx = self.writes().begin().await?;
        let seat = sqlx::query("SELECT player FROM seats WHERE game_id = $1 AND claim_hash = $2")
            .bind(id)
            .bind(claim_hash)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(seat) = seat else { return Ok(None) };
        let player: i64 = seat.try_get(0)?;
        sqlx::query("UPDATE seats SET token_hash = $3 WHERE game_id = $1 AND player = $2")
            .bind(id)
            .bind(player)
            .bind(token_hash)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(Some(player))
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

    /// Games newest first, optionally of one status (or [`WAITING`]:
    /// waiting with public seats), after a cursor `(created_at, id)`.
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
        let mut query = sqlx::query_as(listing_query(status, after.is_some()));
        if let Some(status) = status.filter(|s| *s != WAITING) {
            query = query.bind(status);
        }
        if let Some((at, id)) = after {
            query = query.bind(at).bind(id);
        }
        Ok(query.bind(limit).fetch_all(&self.pool).await?)
    }

    /// How the database would run the listing with these filters: SQLite's
    /// `EXPLAIN QUERY PLAN` or PostgreSQL's `EXPLAIN`, one line per step.
    /// For checking that each filter uses its index.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn listing_plan(&self, status: Option<&str>, after: bool) -> Result<String, StoreError> {
        let explain = match self.backend {
            Backend::Sqlite => "EXPLAIN QUERY PLAN ",
            Backend::Postgres => "EXPLAIN ",
        };
        let q = format!("{explain}{}", listing_query(status, after));
        let mut query = sqlx::query(sqlx::AssertSqlSafe(q));
        if let Some(status) = status.filter(|s| *s != WAITING) {
            query = query.bind(status);
        }
        if after {
            query = query.bind(i64::MAX).bind("~");
        }
        let rows = query.bind(50_i64).fetch_all(&self.pool).await?;
        let column = if self.backend == Backend::Sqlite { 3 } else { 0 };
        let lines = rows.iter().map(|r| r.try_get::<String, _>(column)).collect::<Result<Vec<_>, _>>()?;
        Ok(lines.join("\n"))
    }

    /// The games `client` created that are neither over nor abandoned.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn unfinished_games_of(&self, client: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT count(*) FROM games WHERE client = $1 AND status IN ('opening', 'playing') \
             AND abandoned_at IS NULL",
        )
        .bind(client)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get(0)?)
    }

    /// The games `client` created that are neither over nor abandoned and
    /// where the computer holds every seat.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn unfinished_computer_games_of(&self, client: &str) -> Result<i64, StoreError> {
        // At most the client's cap of unfinished games: read and counted here.
        let rows = sqlx::query(
            "SELECT computers FROM games WHERE client = $1 AND status IN ('opening', 'playing') \
             AND abandoned_at IS NULL AND open_seats = 0 AND computers IS NOT NULL",
        )
        .bind(client)
        .fetch_all(&self.pool)
        .await?;
        let mut n = 0;
        for row in &rows {
            let levels: String = row.try_get(0)?;
            let levels: Vec<Option<String>> = serde_json::from_str(&levels).unwrap_or_default();
            n += i64::from(!levels.is_empty() && levels.iter().all(Option::is_some));
        }
        Ok(n)
    }

    /// The moves of a game with ply at least `from`, in order.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn moves(&self, id: &str, from: i64) -> Result<Vec<MoveRow>, StoreError> {
        Ok(sqlx::query_as(
            "SELECT ply, player, notation, captures, gain, at, computer FROM moves WHERE game_id = $1 AND ply >= $2 \
             ORDER BY ply",
        )
        .bind(id)
        .bind(from)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Stores a change of a game other than a move (a seat joined or left,
    /// a resignation) if the stored game is still at `version`: the game's
    /// new state and, if given, one seat's new holder, together or not at
    /// all. On PostgreSQL the other processes are told the game changed.
    ///
    /// # Errors
    ///
    /// On a database failure; a lost race is `Ok(Commit::Conflict)`.
    pub async fn update_game(
        &self,
        g: &GameRow,
        version: i64,
        seat: Option<&SeatRow>,
    ) -> Result<Commit, StoreError> {
        let mut tx = self.writes().begin().await?;
        let updated = sqlx::query(
            "UPDATE games SET version = $2, players = $3, position = $4, status = $5, result = $6, \
             updated_at = $7, computers = $8, seating = $9, open_seats = $10, public_seats = $11, turn_at = $12, \
             abandoned_at = NULL WHERE id = $1 AND version = $13",
        )
        .bind(&g.id)
        .bind(g.version)
        .bind(&g.players)
        .bind(&g.position)
        .bind(&g.status)
        .bind(&g.result)
        .bind(g.updated_at)
        .bind(&g.computers)
        .bind(&g.seating)
        .bind(g.open_seats)
        .bind(g.public_seats)
        .bind(g.turn_at)
        .bind(version)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated != 1 {
            return Ok(Commit::Conflict);
        }
        if let Some(s) = seat {
            // A seat's invitation stays: a private seat left opens private.
            let written =
                sqlx::query("UPDATE seats SET name = $3, token_hash = $4 WHERE game_id = $1 AND player = $2")
                    .bind(&g.id)
                    .bind(s.player)
                    .bind(&s.name)
                    .bind(&s.token_hash)
                    .execute(&mut *tx)
                    .await;
            match written {
                Ok(r) if r.rows_affected() == 1 => {}
                Ok(_) => return Ok(Commit::Conflict),
                Err(e) if is_unique_violation(&e) => return Ok(Commit::Conflict),
                Err(e) => return Err(e.into()),
            }
        }
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify('leapfrog_moves', $1)").bind(&g.id).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(Commit::Done)
    }

    /// The invitation hashes of game `id`'s private seats, by player.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn invitations(&self, id: &str) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT player, invite_hash FROM seats WHERE game_id = $1 AND invite_hash IS NOT NULL",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?))).collect::<Result<_, sqlx::Error>>()?)
    }

    /// The games with a move time limit, not over and not waiting, whose
    /// seat to move has had its turn for the limit or longer at `now`
    /// (Unix milliseconds), longest waiting first (at most 1000). Whether
    /// that seat is a person's, whom the limit binds, the caller checks.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn games_out_of_time(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE move_limit IS NOT NULL AND status <> 'over' AND open_seats = 0 \
             AND turn_at + move_limit * 1000 <= $1 ORDER BY turn_at LIMIT 1000",
        )
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get(0)).collect::<Result<_, _>>()?)
    }

    /// The games with computer seats that are not over and have not
    /// changed since `updated_before` (Unix milliseconds), stillest first
    /// (at most 1000).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn games_with_computers(&self, updated_before: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE computers IS NOT NULL AND status <> 'over' AND updated_at < $1 \
             ORDER BY updated_at LIMIT 1000",
        )
        .bind(updated_before)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get(0)).collect::<Result<_, _>>()?)
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

    /// What an earlier request of `player` with this idempotency key made.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn key_record(
        &self,
        id: &str,
        player: i64,
        key: &str,
    ) -> Result<Option<KeyRecord>, StoreError> {
        let row = sqlx::query(
            "SELECT ply, version, request, created_at FROM move_keys WHERE game_id = $1 AND player = $2 AND key = $3",
        )
        .bind(id)
        .bind(player)
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .map(|r| {
                Ok::<_, sqlx::Error>(KeyRecord {
                    key: key.to_string(),
                    ply: r.try_get(0)?,
                    version: r.try_get(1)?,
                    request: r.try_get(2)?,
                    created_at: r.try_get(3)?,
                })
            })
            .transpose()?)
    }

    /// Commits a move computed from the game at `version`: the move row,
    /// the game's new state, and the idempotency key's record, together or
    /// not at all. On SQLite it joins the next group commit.
    ///
    /// # Errors
    ///
    /// On a database failure; a lost race is `Ok(Commit::Conflict)`.
    pub async fn commit_move(
        &self,
        game: &GameRow,
        version: i64,
        mv: &MoveRow,
        key: Option<&KeyRecord>,
    ) -> Result<Commit, StoreError> {
        if let Some(group) = &self.group {
            let write = group::MoveWrite { game: game.clone(), version, mv: mv.clone(), key: key.cloned() };
            return group.commit(write).await;
        }
        let mut tx = self.writes().begin().await?;
        let commit = Self::write_move(self.backend, &mut tx, game, version, mv, key).await?;
        if commit == Commit::Done {
            tx.commit().await?;
        }
        Ok(commit)
    }

    /// Removes idempotency records older than `keys_before` and marks the
    /// games with no move since `idle_before` (and not over) abandoned, at
    /// `now` (all Unix milliseconds).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn sweep(&self, now: i64, keys_before: i64, idle_before: i64) -> Result<Swept, StoreError> {
        let keys = sqlx::query("DELETE FROM move_keys WHERE created_at < $1")
            .bind(keys_before)
            .execute(self.writes())
            .await?
            .rows_affected();
        let abandoned = sqlx::query(
            "UPDATE games SET abandoned_at = $1 WHERE status IN ('opening', 'playing') \
             AND abandoned_at IS NULL AND updated_at < $2",
        )
        .bind(now)
        .bind(idle_before)
        .execute(self.writes())
        .await?
        .rows_affected();
        Ok(Swept { keys, abandoned })
    }

    /// Writes a move's statements in one round trip, within `tx`, which the
    /// caller commits on [`Commit::Done`] and rolls back otherwise: every
    /// statement is one to the database (on SQLite, to the connection's
    /// worker thread). SQLite runs the statements of a query in turn,
    /// numbered arguments keeping their numbers across them; PostgreSQL
    /// runs them as data-modifying `WITH` clauses of one statement, which
    /// counts what they wrote and also notifies the other processes. Each
    /// writes one row: a conflict when one did not (the game's version
    /// moved) or when the ply or key is taken.
    async fn write_move(
        backend: Backend,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        game: &GameRow,
        version: i64,
        mv: &MoveRow,
        key: Option<&KeyRecord>,
    ) -> Result<Commit, sqlx::Error> {
        let sql = match (backend, key.is_some()) {
            (Backend::Sqlite, false) => concat!(insert_move!(), "; ", update_game!()),
            (Backend::Sqlite, true) => concat!(insert_move!(), "; ", update_game!(), "; ", insert_key!()),
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
                insert_key!(),
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
            .bind(mv.computer)
            .bind(game.version)
            .bind(&game.position)
            .bind(&game.status)
            .bind(&game.result)
            .bind(game.updated_at)
            .bind(version);
        if let Some(key) = key {
            query = query.bind(&key.key).bind(&key.request);
        }
        let rows = if key.is_some() { 3 } else { 2 };
        let written = match backend {
            Backend::Sqlite => query.execute(&mut **tx).await.map(|r| r.rows_affected()),
            Backend::Postgres => {
                query.fetch_one(&mut **tx).await.and_then(|r| r.try_get::<i64, _>(0)).map(|n| n as u64)
            }
        };
        match written {
            Ok(n) if n == rows => Ok(Commit::Done),
            Ok(_) => Ok(Commit::Conflict),
            Err(e) if is_unique_violation(&e) => Ok(Commit::Conflict),
            Err(e) => Err(e),
        }
    }
}
