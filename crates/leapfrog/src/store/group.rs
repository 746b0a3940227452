//! Group commit on SQLite: moves of concurrent games share one transaction
//! and so one sync of the WAL.
//!
//! Every move goes to one task that owns the writer connection. It takes
//! the moves waiting (up to [`MAX_GROUP`]), writes them in two statements
//! — the games' updates, each guarded by its game's version, then the rows
//! of the moves whose update wrote — and commits them together;
//! each request is answered only after that commit. A lone move is
//! committed at once: there is no waiting for company, only the moves that
//! queued while the previous group was being synced share the next one.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde::Serialize;
use sqlx::{AnyPool, Row};
use tokio::sync::{mpsc, oneshot};

use super::moves::MOVE_EVENTS;
use super::sql::Statement;
use super::{Backend, Commit, EventRow, GameRow, KeyRecord, MoveRow, Store, StoreError};

/// Most moves in one transaction.
pub const MAX_GROUP: usize = 64;

/// A move to commit, owned (it crosses to the committer's task).
#[derive(Debug)]
pub struct MoveWrite {
    pub game: GameRow,
    pub version: i64,
    pub mv: MoveRow,
    pub key: Option<KeyRecord>,
    pub events: Vec<EventRow>,
    pub accounts: Vec<super::account_events::AccountEvent>,
}

type Job = (MoveWrite, oneshot::Sender<Result<Commit, StoreError>>);

/// The queue into the committer's task.
#[derive(Debug, Clone)]
pub struct Committer {
    tx: mpsc::Sender<Job>,
}

impl Committer {
    /// Starts the committer on a thread of its own; it writes through
    /// `writer` (a pool of one connection) until every `Committer` is
    /// dropped.
    ///
    /// # Errors
    ///
    /// When the thread or its runtime cannot be made.
    pub fn start(writer: AnyPool) -> std::io::Result<Committer> {
        let (tx, rx) = mpsc::channel(4 * MAX_GROUP);
        // One thread that only waits for SQLite's: a runtime of several
        // threads would wake more of them at every statement (a quarter
        // of the moves a second, measured).
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        std::thread::Builder::new()
            .name("leapfrog-commit".into())
            .spawn(move || runtime.block_on(run(writer, rx)))?;
        Ok(Committer { tx })
    }

    /// Commits `write` with the next group; answers once it is durable.
    pub async fn commit(&self, write: MoveWrite) -> Result<Commit, StoreError> {
        let (reply, answer) = oneshot::channel();
        let stopped = || StoreError::Database(sqlx::Error::PoolClosed);
        self.tx.send((write, reply)).await.map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

async fn run(writer: AnyPool, mut rx: mpsc::Receiver<Job>) {
    let mut queued = Vec::with_capacity(MAX_GROUP);
    while rx.recv_many(&mut queued, MAX_GROUP).await > 0 {
        let mut jobs = std::mem::take(&mut queued);
        // Two moves of one game in one group would meet in one update: the later waits for the next.
        while !jobs.is_empty() {
            let (now, later) = one_per_game(jobs);
            let outcome = write_group(&writer, &now.iter().map(|(w, _)| w).collect::<Vec<_>>()).await;
            answer(now, outcome);
            jobs = later;
        }
    }
}

/// Splits `jobs` into the first move of each game and the rest, in order.
fn one_per_game(jobs: Vec<Job>) -> (Vec<Job>, Vec<Job>) {
    let mut seen = HashSet::with_capacity(jobs.len());
    jobs.into_iter().partition(|(w, _)| seen.insert(w.game.id.clone()))
}

fn answer(jobs: Vec<Job>, outcome: Result<Vec<Commit>, StoreError>) {
    match outcome {
        Ok(commits) => {
            for ((_, reply), commit) in jobs.into_iter().zip(commits) {
                let _ = reply.send(Ok(commit));
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, moves = jobs.len(), "a group commit failed; none of its moves is stored");
            let message = e.to_string();
            for (_, reply) in jobs {
                let _ = reply.send(Err(StoreError::Group(message.clone())));
            }
        }
    }
}

/// The games' new states, each written only if the game is still at the
/// version its move was computed from and the move's ply, first event
/// number and key are free: the ids of those written.
///
/// The group's rows go in as one JSON array (`json_each`), so that a group
/// of any size is one prepared statement and one round trip to SQLite's
/// thread, where a statement per move was one each.
static UPDATE_GAMES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE games SET version = j.version, position = j.position, status = j.status, result = j.result, \
         updated_at = j.at, turn_at = COALESCE(j.turn_at, j.at), abandoned_at = NULL, \
         computer_due = j.computer_due, events = j.events \
         FROM (SELECT value ->> 'game' AS game, value ->> 'old_version' AS old_version, \
               value ->> 'version' AS version, value ->> 'position' AS position, value ->> 'status' AS status, \
               value ->> 'result' AS result, value ->> 'at' AS at, value ->> 'turn_at' AS turn_at, \
               value ->> 'computer_due' AS computer_due, value ->> 'events' AS events, value ->> 'ply' AS ply, \
               value ->> 'player' AS player, value ->> 'seq0' AS seq0, value ->> 'key' AS key \
               FROM json_each(:games)) AS j \
         WHERE games.id = j.game AND games.version = j.old_version \
         AND NOT EXISTS (SELECT 1 FROM moves WHERE game_id = j.game AND ply = j.ply) \
         AND NOT EXISTS (SELECT 1 FROM game_events WHERE game_id = j.game AND seq = j.seq0) \
         AND (j.key IS NULL OR NOT EXISTS \
              (SELECT 1 FROM move_keys WHERE game_id = j.game AND player = j.player AND key = j.key)) \
         RETURNING games.id",
    )
});

/// The rows of the moves whose games were written: moves, events, keys.
static INSERT_ROWS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO moves (game_id, ply, player, notation, captures, kinds, gain, at, computer) \
         SELECT value ->> 'game', value ->> 'ply', value ->> 'player', value ->> 'notation', \
         value ->> 'captures', value ->> 'kinds', value ->> 'gain', value ->> 'at', value ->> 'computer' \
         FROM json_each(:moves); \
         INSERT INTO game_events (game_id, seq, kind, data, at) \
         SELECT value ->> 'game', value ->> 'seq', value ->> 'kind', value ->> 'data', value ->> 'at' \
         FROM json_each(:events); \
         INSERT INTO move_keys (game_id, player, key, ply, version, request, created_at) \
         SELECT value ->> 'game', value ->> 'player', value ->> 'key', value ->> 'ply', value ->> 'version', \
         value ->> 'request', value ->> 'at' FROM json_each(:keys)",
    )
});

/// A game's update, as a row of [`UPDATE_GAMES`].
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
    ply: i64,
    player: i64,
    seq0: i64,
    key: Option<&'a str>,
}

#[derive(Serialize)]
struct MoveInsert<'a> {
    game: &'a str,
    ply: i64,
    player: i64,
    notation: &'a str,
    captures: &'a str,
    kinds: Option<&'a str>,
    gain: i64,
    at: i64,
    computer: i64,
}

impl<'a> MoveInsert<'a> {
    fn of(game: &'a str, mv: &'a MoveRow) -> MoveInsert<'a> {
        MoveInsert {
            game,
            ply: mv.ply,
            player: mv.player,
            notation: &mv.notation,
            captures: &mv.captures,
            kinds: mv.kinds.as_deref(),
            gain: mv.gain,
            at: mv.at,
            computer: mv.computer,
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
            ply: w.mv.ply,
            player: w.mv.player,
            seq0: w.events.first().map_or(-1, |e| e.seq),
            key: w.key.as_ref().map(|k| k.key.as_str()),
        }
    }
}

/// Writes the group's moves and commits: the outcome of each (a move that
/// conflicts writes nothing), or the error that stored none.
async fn write_group(writer: &AnyPool, writes: &[&MoveWrite]) -> Result<Vec<Commit>, StoreError> {
    if let Some(w) = writes.iter().find(|w| w.events.is_empty() || w.events.len() > MOVE_EVENTS) {
        return Err(StoreError::Statement(format!("a move makes 1 or 2 events, not {}", w.events.len())));
    }
    let mut tx = writer.begin().await?;
    let games = serde_json::to_string(&writes.iter().map(|w| GameUpdate::of(w)).collect::<Vec<_>>())?;
    let written: HashSet<String> = UPDATE_GAMES
        .query(&[("games", (&games).into())])?
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    let stored: Vec<&MoveWrite> = writes.iter().copied().filter(|w| written.contains(&w.game.id)).collect();
    if !stored.is_empty() {
        let moves: Vec<MoveInsert> = stored.iter().map(|w| MoveInsert::of(&w.game.id, &w.mv)).collect();
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
        let rows = (moves.len() + events.len() + keys.len()) as u64;
        let (moves, events, keys) =
            (serde_json::to_string(&moves)?, serde_json::to_string(&events)?, serde_json::to_string(&keys)?);
        let inserted = INSERT_ROWS
            .query(&[("moves", (&moves).into()), ("events", (&events).into()), ("keys", (&keys).into())])?
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if inserted != rows {
            return Err(StoreError::Statement(format!("a group wrote {inserted} of its {rows} rows")));
        }
        for w in &stored {
            Store::append_account_events(Backend::Sqlite, &mut tx, &w.accounts).await?;
        }
    }
    tx.commit().await?;
    Ok(writes
        .iter()
        .map(|w| if written.contains(&w.game.id) { Commit::Done } else { Commit::Conflict })
        .collect())
}
