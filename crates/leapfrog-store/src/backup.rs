//! A consistent copy of a running SQLite database: `VACUUM INTO` reads the
//! database in one transaction (a snapshot: moves committed after it began
//! are not in the copy, every one committed before is) while the server
//! goes on writing, and writes a new, compact file. The copy is then
//! checked with `PRAGMA integrity_check`. PostgreSQL is backed up with its
//! own tools (`pg_dump`).

use std::path::Path;
use std::str::FromStr;

use sqlx::any::AnyConnectOptions;
use sqlx::{ConnectOptions, Row};

use super::StoreError;

/// Why a backup was not made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// A PostgreSQL URL: `pg_dump` backs it up.
    #[error(
        "PostgreSQL is backed up with pg_dump, not here: pg_dump --format=custom --file=FILE 'URL' (restore: pg_restore --dbname='URL' FILE)"
    )]
    Postgres,
    /// The output file is there already.
    #[error("{0} exists: a backup writes a new file")]
    Exists(String),
    /// The database file is not there.
    #[error("no database at {0}")]
    Missing(String),
    /// The database could not be read or the copy written.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The copy did not pass `PRAGMA integrity_check`.
    #[error("the copy {file} is damaged: {detail}")]
    Damaged {
        /// The copy.
        file: String,
        /// What the check said.
        detail: String,
    },
}

/// What a backup made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// Its size in bytes.
    pub bytes: u64,
    /// Games in it.
    pub games: i64,
    /// Moves in it.
    pub moves: i64,
}

/// Copies the SQLite database at `url` into the new file `output`, while
/// it may be in use, and checks the copy.
///
/// # Errors
///
/// [`BackupError`]: a PostgreSQL URL, an output that exists, a database
/// that is not there, or a copy that fails its check.
pub async fn backup(url: &str, output: &Path) -> Result<Backup, BackupError> {
    sqlx::any::install_default_drivers();
    let Some(file) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) else {
        return Err(if url.starts_with("postgres") {
            BackupError::Postgres
        } else {
            BackupError::Store(StoreError::Url(url.chars().take(80).collect()))
        });
    };
    let file = file.split('?').next().unwrap_or(file);
    if !Path::new(file).exists() {
        return Err(BackupError::Missing(file.to_string()));
    }
    if output.exists() {
        return Err(BackupError::Exists(output.display().to_string()));
    }
    // Read-only: a backup never writes the database it copies.
    let source =
        AnyConnectOptions::from_str(&format!("sqlite://{file}?mode=ro")).map_err(StoreError::from)?;
    let mut conn = source.connect().await.map_err(StoreError::from)?;
    sqlx::query("VACUUM INTO $1")
        .bind(output.display().to_string())
        .execute(&mut conn)
        .await
        .map_err(StoreError::from)?;
    drop(conn);
    let copy = AnyConnectOptions::from_str(&format!("sqlite://{}?mode=ro", output.display()))
        .map_err(StoreError::from)?;
    let mut conn = copy.connect().await.map_err(StoreError::from)?;
    let check: String =
        sqlx::query("PRAGMA integrity_check").fetch_one(&mut conn).await.map_err(StoreError::from)?.get(0);
    if check != "ok" {
        return Err(BackupError::Damaged { file: output.display().to_string(), detail: check });
    }
    // A move is its event; the games stored before the log and never read since keep theirs in `moves`.
    let counts = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM game_events WHERE kind = 'move') \
         + (SELECT COUNT(*) FROM moves JOIN games ON games.id = moves.game_id WHERE games.events IS NULL)",
    )
    .fetch_one(&mut conn)
    .await
    .map_err(StoreError::from)?;
    let (games, moves): (i64, i64) = (counts.get(0), counts.get(1));
    let bytes = std::fs::metadata(output).map(|m| m.len()).unwrap_or(0);
    Ok(Backup { bytes, games, moves })
}
