//! The `moves` and `move_keys` tables: a move's commit — its row, the
//! game's new state checked against the version it was computed from,
//! and the idempotency key's record, together or not at all — and the
//! history.

use std::sync::LazyLock;

use sqlx::Row;

use super::account_events::AccountEvent;
use super::batch::MoveWrite;
use super::rows::{Commit, EventRow, GameRow, KeyRecord, MOVE_EVENTS, MoveRow};
use super::sql::{Arg, Statement};
use super::{Backend, CHANNEL, Store, StoreError, is_unique_violation};

/// The game's new state if its version is still `:old_version`; the next
/// seat's turn starts at the move's time (or at the end of its owner's
/// vacation), and a move ends any abandonment.
const UPDATE_GAME: &str = "UPDATE games SET version = :version, position = :position, status = :status, \
     result = :result, updated_at = :at, turn_at = COALESCE(:turn_at, :at), abandoned_at = NULL, computer_due = :computer_due, \
     events = :events WHERE id = :game AND version = :old_version";
/// The argument names of the events, by place.
const EVENT_ARGS: [[&str; 4]; MOVE_EVENTS] =
    [["seq0", "kind0", "data0", "at0"], ["seq1", "kind1", "data1", "at1"]];

/// SQLite's move commit: the game's update first, written only if the game
/// is still at `:old_version` and the move's ply, first event number and
/// key are free; then each insert only if the statement before it wrote
/// (`changes()`). A conflict writes nothing at all. For a move committed
/// alone: a rated game's end, or a failed group's moves one by one.
const SQLITE_FREE: &str = " AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = :game AND ply = :ply) \
     AND NOT EXISTS (SELECT 1 FROM game_events WHERE game_id = :game AND seq = :seq0)";
const SQLITE_KEY_FREE: &str =
    " AND NOT EXISTS (SELECT 1 FROM move_keys WHERE game_id = :game AND player = :player AND key = :key)";
const AFTER_WRITE: &str = " WHERE changes() > 0";
/// The parts of a move's commit, as `INSERT … SELECT`: each writes its
/// rows only where the condition after it holds (the move's row, its 1 or
/// 2 events — the move, and the end if it ended the game — its key).
const MOVE_ROW: &str = "INSERT INTO moves (game_id, ply, player, notation, captures, kinds, gain, at, computer) \
     SELECT :game, :ply, :player, :notation, :captures, :kinds, :gain, :at, :computer";
const EVENT_ROWS: [&str; MOVE_EVENTS] = [
    "INSERT INTO game_events (game_id, seq, kind, data, at) SELECT :game, :seq0, :kind0, :data0, :at0",
    "INSERT INTO game_events (game_id, seq, kind, data, at) SELECT * FROM (SELECT :game, :seq0, :kind0, :data0, :at0 \
     UNION ALL SELECT :game, :seq1, :kind1, :data1, :at1) AS two",
];
const KEY_ROW: &str = "INSERT INTO move_keys (game_id, player, key, ply, version, request, created_at) \
     SELECT :game, :player, :key, :ply, :version, :request, :at";

/// The commit of a move as one statement, by database, whether it has a
/// key and how many events it makes (1 or 2). SQLite runs the statements
/// of a query in turn, each argument keeping its number across them (see
/// `SQLITE_FREE`); PostgreSQL runs them as data-modifying
/// `WITH` clauses of one statement (one snapshot), which adds up the rows
/// they wrote and notifies the other processes (the notification goes out
/// only if the transaction commits).
fn commit_statement(backend: Backend, keyed: bool, events: usize) -> &'static Statement {
    static STATEMENTS: LazyLock<Vec<Statement>> = LazyLock::new(|| {
        let sqlite = |events: &str, keyed: bool| {
            let key_free = if keyed { SQLITE_KEY_FREE } else { "" };
            let mut parts = vec![
                format!("{UPDATE_GAME}{SQLITE_FREE}{key_free}"),
                format!("{MOVE_ROW}{AFTER_WRITE}"),
                format!("{events}{AFTER_WRITE}"),
            ];
            if keyed {
                parts.push(format!("{KEY_ROW}{AFTER_WRITE}"));
            }
            Statement::new(&parts.join("; "))
        };
        // PostgreSQL: one statement of `WITH` clauses on one snapshot; the
        // inserts and the notification only if the game's update wrote, so
        // that a conflict writes nothing even outside a transaction.
        let postgres = |events: &str, keyed: bool| {
            let after = " WHERE EXISTS (SELECT 1 FROM g) RETURNING 1";
            let mut clauses = vec![
                format!("g AS ({UPDATE_GAME} RETURNING 1)"),
                format!("m AS ({MOVE_ROW}{after})"),
                format!("e AS ({events}{after})"),
            ];
            let mut counts =
                vec!["(SELECT count(*) FROM g)", "(SELECT count(*) FROM m)", "(SELECT count(*) FROM e)"];
            if keyed {
                clauses.push(format!("k AS ({KEY_ROW}{after})"));
                counts.push("(SELECT count(*) FROM k)");
            }
            Statement::new(&format!(
                "WITH {}, n AS (SELECT pg_notify('{CHANNEL}', :game) FROM g) SELECT {} + 0 * (SELECT count(*) FROM n)",
                clauses.join(", "),
                counts.join(" + ")
            ))
        };
        let mut all = Vec::with_capacity(4 * MOVE_EVENTS);
        for events in EVENT_ROWS {
            all.push(sqlite(events, false));
            all.push(sqlite(events, true));
        }
        for events in EVENT_ROWS {
            all.push(postgres(events, false));
            all.push(postgres(events, true));
        }
        all
    });
    let backend = match backend {
        Backend::Sqlite => 0,
        Backend::Postgres => 2 * MOVE_EVENTS,
    };
    &STATEMENTS[backend + 2 * (events.clamp(1, MOVE_EVENTS) - 1) + usize::from(keyed)]
}

static MOVES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT ply, player, notation, captures, gain, at, computer, kinds FROM moves \
         WHERE game_id = :game AND ply >= :from ORDER BY ply",
    )
});
static KEY_RECORD: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT ply, version, request, created_at FROM move_keys \
         WHERE game_id = :game AND player = :player AND key = :key",
    )
});

impl Store {
    /// The moves of a game with ply at least `from`, in order.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn moves(&self, id: &str, from: i64) -> Result<Vec<MoveRow>, StoreError> {
        let id = id.to_string();
        self.on_db(move |s| async move {
            let rows = MOVES
                .query(&[("game", (&id).into()), ("from", from.into())])?
                .fetch_all(&mut *s.read().await?)
                .await?;
            Ok(rows.iter().map(sqlx::FromRow::from_row).collect::<Result<_, _>>()?)
        })
        .await
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
        let (game, owned_key) = (id.to_string(), key.to_string());
        let row = self
            .on_db(move |s| async move {
                Ok(KEY_RECORD
                    .query(&[
                        ("game", (&game).into()),
                        ("player", player.into()),
                        ("key", (&owned_key).into()),
                    ])?
                    .fetch_optional(&mut *s.read().await?)
                    .await?)
            })
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
    /// the game's new state, its events (the move, and the end if it ended
    /// the game) and the idempotency key's record, together or not at all,
    /// with the next group commit.
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
        events: &[EventRow],
        accounts: &[AccountEvent],
    ) -> Result<Commit, StoreError> {
        let write = MoveWrite {
            game: game.clone(),
            version,
            mv: mv.clone(),
            key: key.cloned(),
            events: events.to_vec(),
            accounts: accounts.to_vec(),
        };
        self.group.commit(write).await
    }

    /// Writes a move's statements in one round trip, within `tx`, which the
    /// caller commits on [`Commit::Done`] and rolls back otherwise. A
    /// conflict when one of them wrote no row (the game's version moved)
    /// or when the ply or key is taken.
    pub(super) async fn write_move(
        backend: Backend,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        game: &GameRow,
        version: i64,
        mv: &MoveRow,
        key: Option<&KeyRecord>,
        (events, accounts): (&[EventRow], &[AccountEvent]),
    ) -> Result<Commit, StoreError> {
        let (query, rows) = move_statement(backend, game, version, mv, key, events)?;
        let written = match backend {
            Backend::Sqlite => query.execute(&mut **tx).await.map(|r| r.rows_affected()),
            Backend::Postgres => {
                query.fetch_one(&mut **tx).await.and_then(|r| r.try_get::<i64, _>(0)).map(|n| n as u64)
            }
        };
        if judge(backend, written, rows)? == Commit::Conflict {
            return Ok(Commit::Conflict);
        }
        Self::append_account_events(backend, tx, accounts).await?;
        Ok(Commit::Done)
    }
}

/// A move's commit statement with its arguments bound, and how many rows
/// it writes when it is stored.
fn move_statement<'q>(
    backend: Backend,
    game: &'q GameRow,
    version: i64,
    mv: &'q MoveRow,
    key: Option<&'q KeyRecord>,
    events: &'q [EventRow],
) -> Result<(sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>, u64), StoreError> {
    if events.is_empty() || events.len() > MOVE_EVENTS {
        return Err(StoreError::Statement(format!("a move makes 1 or 2 events, not {}", events.len())));
    }
    let mut args: Vec<(&'static str, Arg<'q>)> = vec![
        ("game", (&game.id).into()),
        ("ply", mv.ply.into()),
        ("player", mv.player.into()),
        ("notation", (&mv.notation).into()),
        ("captures", (&mv.captures).into()),
        ("kinds", (&mv.kinds).into()),
        ("gain", mv.gain.into()),
        ("at", mv.at.into()),
        ("computer", mv.computer.into()),
        ("version", game.version.into()),
        ("position", (&game.position).into()),
        ("status", (&game.status).into()),
        ("result", (&game.result).into()),
        ("computer_due", game.computer_due.into()),
        ("turn_at", game.turn_at.into()),
        ("old_version", version.into()),
        ("events", game.events.into()),
    ];
    for (e, [seq, kind, data, at]) in events.iter().zip(EVENT_ARGS) {
        args.extend([
            (seq, e.seq.into()),
            (kind, (&e.kind).into()),
            (data, (&e.data).into()),
            (at, e.at.into()),
        ]);
    }
    if let Some(key) = key {
        args.push(("key", (&key.key).into()));
        args.push(("request", (&key.request).into()));
    }
    let query = commit_statement(backend, key.is_some(), events.len()).query(&args)?;
    Ok((query, 2 + events.len() as u64 + u64::from(key.is_some())))
}

/// What the rows a move's statement wrote (of `rows`) make of it: stored,
/// or a conflict that wrote nothing.
fn judge(backend: Backend, written: Result<u64, sqlx::Error>, rows: u64) -> Result<Commit, StoreError> {
    match written {
        Ok(n) if n == rows => Ok(Commit::Done),
        Ok(0) => Ok(Commit::Conflict),
        Err(e) if backend == Backend::Postgres && is_unique_violation(&e) => Ok(Commit::Conflict),
        // The parts are chained: all or nothing; anything else is a bug, and fails the transaction.
        Ok(n) => Err(StoreError::Statement(format!("a move wrote {n} of its {rows} rows"))),
        Err(e) => Err(e.into()),
    }
}
