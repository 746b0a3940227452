//! SQLite's group commit on the committer's own thread.
//!
//! sqlx runs each SQLite connection on a worker thread of its own: every
//! statement is a hand-off there and back, two thread wake-ups, and a
//! group took six (the connection, BEGIN, the update, the inserts, COMMIT,
//! the ping on its way back). Here the committer keeps a connection of its
//! own to the same file (rusqlite, over the same bundled SQLite) and runs
//! the group's transaction on its own thread: the same statements
//! ([`super::batch::write_moves`]), bound the same way. It writes only
//! while it holds the store's write lock, which every other writer of the
//! process takes too, so that writers queue in the process, never in
//! SQLite's busy handler.

use rusqlite::{Connection, params_from_iter};

use super::batch::{MoveWrite, write_moves};
use super::sql::{Args, Execute, Statement};
use super::{Backend, Commit, Durability, GameRow, SeatRow, Store, StoreError};

/// The committer's own connection.
#[derive(Debug)]
pub(super) struct Direct {
    conn: Connection,
}

impl Direct {
    /// Opens `file` (the store's, which exists) as the store's other
    /// connections are: WAL, synced as `durability` says, foreign keys on.
    pub(super) fn open(file: &std::path::Path, durability: Durability) -> Result<Direct, StoreError> {
        let conn = Connection::open(file)?;
        conn.execute_batch(match durability {
            Durability::Full => "PRAGMA synchronous = FULL;",
            Durability::Fast => "PRAGMA synchronous = NORMAL;",
        })?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA temp_store = MEMORY; \
             PRAGMA foreign_keys = ON;",
        )?;
        Ok(Direct { conn })
    }

    /// Writes the group's moves and commits: the outcome of each (a move
    /// that conflicts writes nothing), or the error that stored none. The
    /// caller holds the store's write lock.
    pub(super) async fn write_group(&mut self, writes: &[&MoveWrite]) -> Result<Vec<Commit>, StoreError> {
        self.begin()?;
        let written = write_moves(self, Backend::Sqlite, writes).await;
        self.end(written)
    }

    /// Stores new games and commits, all or none. The caller holds the
    /// store's write lock.
    pub(super) async fn insert_games(&mut self, games: &[(&GameRow, &[SeatRow])]) -> Result<(), StoreError> {
        self.begin()?;
        let written = async {
            for (game, seats) in games {
                Store::insert_rows(self, game, seats).await?;
            }
            Ok(())
        }
        .await;
        self.end(written)
    }

    fn begin(&mut self) -> Result<(), StoreError> {
        // IMMEDIATE: the database's write lock now, not at the first write.
        Ok(self.conn.execute_batch("BEGIN IMMEDIATE")?)
    }

    /// Commits if `written` is a success, rolls back if not.
    fn end<T>(&mut self, written: Result<T, StoreError>) -> Result<T, StoreError> {
        match written {
            Ok(done) => match self.conn.execute_batch("COMMIT") {
                Ok(()) => Ok(done),
                Err(e) => Err(self.rolled_back(e.into())),
            },
            Err(e) => Err(self.rolled_back(e)),
        }
    }

    /// `e`, after the transaction is rolled back (if SQLite has not
    /// already: a failed COMMIT may have).
    fn rolled_back(&mut self, e: StoreError) -> StoreError {
        if !self.conn.is_autocommit()
            && let Err(rollback) = self.conn.execute_batch("ROLLBACK")
        {
            tracing::error!(error = %rollback, "a failed transaction's rollback failed");
        }
        e
    }

    /// `statement` prepared (once: SQLite's cache keeps it) with `args`
    /// bound by position, to `run`.
    fn with<T>(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
        run: impl FnOnce(&mut rusqlite::CachedStatement<'_>, Vec<super::sql::Arg<'_>>) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        let (sql, values) = statement.positional(args)?;
        let mut prepared = self.conn.prepare_cached(sql)?;
        Ok(run(&mut prepared, values)?)
    }
}

// Each completes before it returns: nothing here waits, so the connection
// is never held across an await.
impl Execute for Direct {
    async fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> Result<u64, StoreError> {
        self.with(statement, args, |s, values| Ok(s.execute(params_from_iter(values))? as u64))
    }

    async fn texts(&mut self, statement: &Statement, args: &Args<'_>) -> Result<Vec<String>, StoreError> {
        self.with(statement, args, |s, values| s.query_map(params_from_iter(values), |r| r.get(0))?.collect())
    }

    async fn number(&mut self, statement: &Statement, args: &Args<'_>) -> Result<i64, StoreError> {
        self.with(statement, args, |s, values| s.query_row(params_from_iter(values), |r| r.get(0)))
    }
}
