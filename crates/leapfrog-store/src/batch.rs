//! A group's moves written with a few statements whatever its size: the
//! games' updates as one JSON array in one guarded `UPDATE … RETURNING`,
//! then the rows of the moves whose update wrote, one insert per table: a
//! move is its events (the game's log is its history, `moves`)
//! and its idempotency key's record.
//! One prepared statement each, on both databases (`jsonb_each` on SQLite,
//! `json_to_recordset` on PostgreSQL), where a statement per move was one
//! round trip each.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::Serialize;
use sqlx::AnyPool;

use super::account_events::AccountEvent;
use super::rows::MOVE_EVENTS;
use super::sql::{Args, Execute, Statement};
use super::{Backend, CHANNEL, Commit, EventRow, GameRow, KeyRecord, MoveRow, Store, StoreError};

/// A move to commit, owned (it crosses to the committer's task).
#[derive(Debug)]
pub struct MoveWrite {
    pub game: GameRow,
    pub version: i64,
    pub mv: MoveRow,
    pub key: Option<KeyRecord>,
    pub events: Vec<EventRow>,
    pub accounts: Vec<AccountEvent>,
}

/// The statements of a group on one database: the lock of its games (in
/// the order of their ids, so that two processes' groups never wait for
/// each other in a circle), the games' updates, and the rows' inserts
/// (SQLite's one a table, each taking its array; PostgreSQL's one).
struct Statements {
    lock: Option<Statement>,
    update: Statement,
    inserts: Vec<Statement>,
}

/// The update's guard: the game is still at the version its move was
/// computed from, and the move's first event number and key are free.
const FREE: &str = "WHERE games.id = j.game AND games.version = j.old_version \
     AND NOT EXISTS (SELECT 1 FROM game_events WHERE game_id = j.game AND seq = j.seq0) \
     AND (j.key IS NULL OR NOT EXISTS \
          (SELECT 1 FROM move_keys WHERE game_id = j.game AND player = j.player AND key = j.key)) \
     RETURNING games.id";
const SET: &str = "UPDATE games SET version = j.version, position = j.position, status = j.status, \
     result = j.result, updated_at = j.at, turn_at = COALESCE(j.turn_at, j.at), abandoned_at = NULL, \
     computer_due = j.computer_due, events = j.events";

/// The columns of each JSON array, as `name type`.
const GAME_COLUMNS: &str = "game text, old_version bigint, version bigint, position text, status text, \
     result text, at bigint, turn_at bigint, computer_due bigint, events bigint, player bigint, \
     seq0 bigint, key text";
const EVENT_COLUMNS: &str = "game text, seq bigint, kind text, data text, at bigint";
const KEY_COLUMNS: &str =
    "game text, player bigint, key text, ply bigint, version bigint, request text, at bigint";
const EVENT_INSERT: &str = "INSERT INTO game_events (game_id, seq, kind, data, at)";
const KEY_INSERT: &str = "INSERT INTO move_keys (game_id, player, key, ply, version, request, created_at)";

/// The names of `columns`, comma-separated.
fn names(columns: &str) -> String {
    columns.split(", ").map(|c| c.split(' ').next().unwrap_or_default()).collect::<Vec<_>>().join(", ")
}

/// SQLite: each row's fields read by `->>` from `jsonb_each`'s values (each parsed once, then read as
/// the binary JSON it is, not parsed again per field).
pub(super) fn sqlite_rows(columns: &str, arg: &str) -> String {
    let fields: Vec<String> = columns
        .split(", ")
        .map(|c| c.split(' ').next().unwrap_or_default())
        .map(|n| format!("value ->> '{n}' AS {n}"))
        .collect();
    format!("(SELECT {} FROM jsonb_each(:{arg}))", fields.join(", "))
}

/// PostgreSQL: the rows typed by `json_to_recordset`.
fn postgres_rows(columns: &str, arg: &str) -> String {
    format!("json_to_recordset(:{arg}::json) AS x({columns})")
}

fn statements(backend: Backend) -> &'static Statements {
    static ALL: LazyLock<[Statements; 2]> = LazyLock::new(|| {
        let sqlite = Statements {
            lock: None,
            update: Statement::new(&format!("{SET} FROM {} AS j {FREE}", sqlite_rows(GAME_COLUMNS, "games"))),
            inserts: [
                format!(
                    "{EVENT_INSERT} SELECT {} FROM {}",
                    names(EVENT_COLUMNS),
                    sqlite_rows(EVENT_COLUMNS, "events")
                ),
                format!(
                    "{KEY_INSERT} SELECT {} FROM {}",
                    names(KEY_COLUMNS),
                    sqlite_rows(KEY_COLUMNS, "keys")
                ),
            ]
            .iter()
            .map(|sql| Statement::new(sql))
            .collect(),
        };
        let postgres = Statements {
            lock: Some(Statement::new(&format!(
                "SELECT id FROM games WHERE id IN (SELECT game FROM {}) ORDER BY id FOR UPDATE",
                postgres_rows("game text", "games")
            ))),
            update: Statement::new(&format!(
                "{SET} FROM json_to_recordset(:games::json) AS j({GAME_COLUMNS}) {FREE}"
            )),
            // One statement (PostgreSQL takes one per query with arguments):
            // data-modifying `WITH` clauses, which also notify the other
            // processes of each game (sent only if the transaction commits).
            inserts: vec![Statement::new(&format!(
                "WITH e AS ({EVENT_INSERT} SELECT {} FROM {} RETURNING 1), \
                 k AS ({KEY_INSERT} SELECT {} FROM {} RETURNING 1), \
                 n AS (SELECT pg_notify('{CHANNEL}', game) FROM {}) \
                 SELECT (SELECT count(*) FROM e) + (SELECT count(*) FROM k) + 0 * (SELECT count(*) FROM n)",
                names(EVENT_COLUMNS),
                postgres_rows(EVENT_COLUMNS, "events"),
                names(KEY_COLUMNS),
                postgres_rows(KEY_COLUMNS, "keys"),
                postgres_rows("game text", "events"),
            ))],
        };
        [sqlite, postgres]
    });
    &ALL[usize::from(backend == Backend::Postgres)]
}

/// A game's update, as a row of the update's array.
#[derive(Serialize)]
struct GameUpdate<'a> {
    game: &'a str,
    old_version: i64,
    version: i64,
    position: &'a str,
    status: &'a str,
    result: Option<&'a str>,
    at: i64,
    turn_at: Option<i64>,
    computer_due: Option<i64>,
    events: Option<i64>,
    player: i64,
    seq0: i64,
    key: Option<&'a str>,
}

impl<'a> GameUpdate<'a> {
    fn of(w: &'a MoveWrite) -> GameUpdate<'a> {
        GameUpdate {
            game: &w.game.id,
            old_version: w.version,
            version: w.game.version,
            position: &w.game.position,
            status: &w.game.status,
            result: w.game.result.as_deref(),
            at: w.mv.at,
            turn_at: w.game.turn_at,
            computer_due: w.game.computer_due,
            events: w.game.events,
            player: w.mv.player,
            seq0: w.events.first().map_or(-1, |e| e.seq),
            key: w.key.as_ref().map(|k| k.key.as_str()),
        }
    }
}

#[derive(Serialize)]
struct EventInsert<'a> {
    game: &'a str,
    seq: i64,
    kind: &'a str,
    data: &'a str,
    at: i64,
}

#[derive(Serialize)]
struct KeyInsert<'a> {
    game: &'a str,
    player: i64,
    key: &'a str,
    ply: i64,
    version: i64,
    request: &'a str,
    at: i64,
}

/// The games' updates of `writes`, as the update's JSON array.
fn games_json(writes: &[&MoveWrite]) -> Result<String, StoreError> {
    if let Some(w) = writes.iter().find(|w| w.events.is_empty() || w.events.len() > MOVE_EVENTS) {
        return Err(StoreError::Statement(format!("a move makes 1 or 2 events, not {}", w.events.len())));
    }
    Ok(serde_json::to_string(&writes.iter().map(|w| GameUpdate::of(w)).collect::<Vec<_>>())?)
}

/// The rows of the moves whose update wrote, as the inserts' JSON arrays.
struct Rows {
    events: String,
    keys: String,
    /// How many rows the arrays hold in all.
    count: u64,
}

impl Rows {
    fn of(stored: &[&MoveWrite]) -> Result<Rows, StoreError> {
        let events: Vec<EventInsert> = stored
            .iter()
            .flat_map(|w| {
                w.events.iter().map(|e| EventInsert {
                    game: &w.game.id,
                    seq: e.seq,
                    kind: &e.kind,
                    data: &e.data,
                    at: e.at,
                })
            })
            .collect();
        let keys: Vec<KeyInsert> = stored
            .iter()
            .filter_map(|w| {
                w.key.as_ref().map(|k| KeyInsert {
                    game: &w.game.id,
                    player: w.mv.player,
                    key: &k.key,
                    ply: w.mv.ply,
                    version: w.game.version,
                    request: &k.request,
                    at: w.mv.at,
                })
            })
            .collect();
        Ok(Rows {
            count: (events.len() + keys.len()) as u64,
            events: serde_json::to_string(&events)?,
            keys: serde_json::to_string(&keys)?,
        })
    }

    /// Whether the inserts wrote every row (a constraint would have refused).
    fn check(&self, inserted: u64) -> Result<(), StoreError> {
        if inserted == self.count {
            Ok(())
        } else {
            Err(StoreError::Statement(format!("a group wrote {inserted} of its {} rows", self.count)))
        }
    }
}

/// Writes the group's moves and commits: the outcome of each (a move that
/// conflicts writes nothing), or the error that stored none.
pub(super) async fn write_group(
    pool: &AnyPool,
    backend: Backend,
    writes: &[&MoveWrite],
) -> Result<Vec<Commit>, StoreError> {
    let mut tx = pool.begin().await?;
    let commits = write_moves(&mut tx, backend, writes).await?;
    tx.commit().await?;
    Ok(commits)
}

/// Writes `writes` within `tx`, which the caller commits: the outcome of
/// each (a move that conflicts writes nothing). A group's, or one move's
/// with the rest of a transaction (a rated game's end).
pub(super) async fn write_moves<E: Execute>(
    tx: &mut E,
    backend: Backend,
    writes: &[&MoveWrite],
) -> Result<Vec<Commit>, StoreError> {
    let statements = statements(backend);
    let games = games_json(writes)?;
    let games: &Args = &[("games", (&games).into())];
    if let Some(lock) = &statements.lock {
        tx.texts(lock, games).await?;
    }
    let written: HashSet<String> = tx.texts(&statements.update, games).await?.into_iter().collect();
    let stored: Vec<&MoveWrite> = writes.iter().copied().filter(|w| written.contains(&w.game.id)).collect();
    if !stored.is_empty() {
        let rows = Rows::of(&stored)?;
        let arrays: &Args = &[("events", (&rows.events).into()), ("keys", (&rows.keys).into())];
        let mut inserted = 0;
        for insert in &statements.inserts {
            inserted += match backend {
                Backend::Sqlite => tx.execute(insert, &insert.pick(arrays)).await?,
                // PostgreSQL's is a query that counts what its clauses wrote.
                Backend::Postgres => tx.number(insert, arrays).await? as u64,
            };
        }
        rows.check(inserted)?;
        // All at once, so that the accounts' rows are taken in one order.
        let accounts: Vec<AccountEvent> = stored.iter().flat_map(|w| w.accounts.iter().cloned()).collect();
        Store::append_account_events(backend, tx, &accounts).await?;
    }
    Ok(writes
        .iter()
        .map(|w| if written.contains(&w.game.id) { Commit::Done } else { Commit::Conflict })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of a row's JSON fields, sorted.
    fn fields<T: Serialize>(row: &T) -> Vec<String> {
        let value = serde_json::to_value(row).unwrap_or_default();
        let mut keys: Vec<String> =
            value.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
        keys.sort();
        keys
    }

    fn sorted(columns: &str) -> Vec<String> {
        let mut names: Vec<String> = names(columns).split(", ").map(str::to_string).collect();
        names.sort();
        names
    }

    #[test]
    fn each_rows_json_fields_are_the_columns_its_statements_read() {
        let game = GameUpdate {
            game: "g",
            old_version: 1,
            version: 2,
            position: "p",
            status: "playing",
            result: None,
            at: 3,
            turn_at: None,
            computer_due: None,
            events: Some(1),
            player: 0,
            seq0: 0,
            key: None,
        };
        assert_eq!(fields(&game), sorted(GAME_COLUMNS));
        let event = EventInsert { game: "g", seq: 0, kind: "move", data: "{}", at: 3 };
        assert_eq!(fields(&event), sorted(EVENT_COLUMNS));
        let key = KeyInsert { game: "g", player: 0, key: "k", ply: 0, version: 2, request: "a1", at: 3 };
        assert_eq!(fields(&key), sorted(KEY_COLUMNS));
    }
}
