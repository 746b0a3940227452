//! Group commit: moves of concurrent games share one transaction and so
//! one sync of the log (SQLite's WAL, PostgreSQL's WAL flush).
//!
//! Every move goes to one task, which takes the moves waiting (up to
//! [`MAX_GROUP`]), writes them with a few statements ([`super::batch`]) —
//! the games' updates, each guarded by its game's version, then the rows
//! of the moves whose update wrote — and commits them together; each
//! request is answered only after that commit. A lone move is committed at
//! once: there is no waiting for company, only the moves that queued while
//! the previous group was being synced share the next one. If a group
//! fails as a whole, its moves are committed one by one, so that one bad
//! move (or a deadlock PostgreSQL broke) costs no other move.
//!
//! On SQLite the committer also writes new games, before the group that
//! follows them: its connection is the one that does not hand each
//! statement to another thread, and a game made through the store's other
//! writer held the write lock, and so every move, for several times as long.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::batch::{MoveWrite, write_group};
use super::direct::Direct;
use super::{Backend, Commit, GameRow, SeatRow, StoreError};

/// Most moves in one transaction.
pub const MAX_GROUP: usize = 64;

type Reply<T> = oneshot::Sender<Result<T, StoreError>>;

type MoveJob = (MoveWrite, Reply<Commit>);

/// What the committer is given to write.
// A move, nearly every job, stays unboxed: no extra allocation per move.
#[allow(clippy::large_enum_variant)]
enum Job {
    Move(MoveJob),
    /// A new game's row and its seats' rows.
    Game(GameRow, Vec<SeatRow>, Reply<()>),
}

/// The queue into the committer's task.
#[derive(Debug, Clone)]
pub struct Committer {
    tx: mpsc::Sender<Job>,
    /// Groups that failed whole, their moves then committed one by one.
    failures: Arc<AtomicU64>,
    /// Whether it writes new games too (SQLite's own connection).
    games: bool,
}

impl Committer {
    /// Starts the committer; it writes through `writer` until every
    /// `Committer` is dropped. On SQLite it runs on a thread of its own; on
    /// PostgreSQL on the current runtime (the database's), whose reactor
    /// its connections' sockets belong to.
    ///
    /// # Errors
    ///
    /// When the thread or its runtime cannot be made.
    pub(super) fn start(writer: Writer, backend: Backend) -> std::io::Result<Committer> {
        let (tx, rx) = mpsc::channel(4 * MAX_GROUP);
        let failures = Arc::new(AtomicU64::new(0));
        let counted = failures.clone();
        let games = matches!(writer, Writer::Direct(..));
        match backend {
            Backend::Sqlite => {
                // One thread that only waits for SQLite's: a runtime of several
                // threads would wake more of them at every statement (a quarter
                // of the moves a second, measured).
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
                std::thread::Builder::new()
                    .name("leapfrog-commit".into())
                    .spawn(move || runtime.block_on(run(writer, backend, rx, counted)))?;
            }
            Backend::Postgres => {
                tokio::spawn(run(writer, backend, rx, counted));
            }
        }
        Ok(Committer { tx, failures, games })
    }

    /// How many groups failed whole (each then committed move by move, or
    /// new game by new game): 0 unless a move's rows break a constraint,
    /// or PostgreSQL broke a deadlock.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Commits `write` with the next group; answers once it is durable.
    pub async fn commit(&self, write: MoveWrite) -> Result<Commit, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Move((write, reply)), answer).await
    }

    /// Whether it writes new games ([`Committer::insert`]).
    pub fn writes_games(&self) -> bool {
        self.games
    }

    /// Stores a new game's rows before the next group; answers once they
    /// are durable.
    pub async fn insert(&self, game: GameRow, seats: Vec<SeatRow>) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Game(game, seats, reply), answer).await
    }

    async fn send<T>(
        &self,
        job: Job,
        answer: oneshot::Receiver<Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let stopped = || StoreError::Database(sqlx::Error::PoolClosed);
        self.tx.send(job).await.map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

/// What the committer writes through.
#[derive(Debug)]
pub(super) enum Writer {
    /// SQLite's file: a connection of the committer's own
    /// ([`super::direct`]), written under the store's write lock.
    Direct(Box<Direct>, super::WriteLock),
    /// A pool: PostgreSQL's, or SQLite's writer for a database in memory.
    Pool(AnyPool),
}

impl Writer {
    async fn write(&mut self, backend: Backend, writes: &[&MoveWrite]) -> Result<Vec<Commit>, StoreError> {
        match self {
            Writer::Direct(direct, lock) => {
                let _held = lock.lock().await;
                direct.write_group(writes).await
            }
            Writer::Pool(pool) => write_group(pool, backend, writes).await,
        }
    }

    /// Stores new games in one transaction (only the direct connection is
    /// given any).
    async fn insert(&mut self, games: &[(&GameRow, &[SeatRow])]) -> Result<(), StoreError> {
        match self {
            Writer::Direct(direct, lock) => {
                let _held = lock.lock().await;
                direct.insert_games(games).await
            }
            Writer::Pool(_) => Err(StoreError::Statement("new games go through the store's writer".into())),
        }
    }
}

async fn run(mut writer: Writer, backend: Backend, mut rx: mpsc::Receiver<Job>, failures: Arc<AtomicU64>) {
    let mut queued = Vec::with_capacity(MAX_GROUP);
    while rx.recv_many(&mut queued, MAX_GROUP).await > 0 {
        let (mut jobs, mut games) = (Vec::with_capacity(queued.len()), Vec::new());
        for job in queued.drain(..) {
            match job {
                Job::Move(job) => jobs.push(job),
                Job::Game(g, seats, reply) => games.push((g, seats, reply)),
            }
        }
        if !games.is_empty() {
            insert_games(&mut writer, games, &failures).await;
        }
        // Two moves of one game in one group would meet in one update: the later waits for the next.
        while !jobs.is_empty() {
            let (now, later) = one_per_game(jobs);
            let result = writer.write(backend, &now.iter().map(|(w, _)| w).collect::<Vec<_>>()).await;
            match result {
                Ok(commits) => {
                    for ((_, reply), commit) in now.into_iter().zip(commits) {
                        let _ = reply.send(Ok(commit));
                    }
                }
                Err(e) => {
                    failures.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(error = %e, moves = now.len(), "a group commit failed; its moves are committed one by one");
                    for (w, reply) in now {
                        let alone = writer.write(backend, &[&w]).await;
                        let _ = reply.send(alone.map(|mut c| c.pop().unwrap_or(Commit::Conflict)));
                    }
                }
            }
            jobs = later;
        }
    }
}

/// Stores new games together, or each alone when together failed.
async fn insert_games(
    writer: &mut Writer,
    games: Vec<(GameRow, Vec<SeatRow>, Reply<()>)>,
    failures: &AtomicU64,
) {
    let rows: Vec<(&GameRow, &[SeatRow])> = games.iter().map(|(g, s, _)| (g, s.as_slice())).collect();
    let together = writer.insert(&rows).await;
    drop(rows);
    match together {
        Ok(()) => {
            for (_, _, reply) in games {
                let _ = reply.send(Ok(()));
            }
        }
        Err(e) => {
            failures.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(error = %e, games = games.len(), "new games failed together; each is stored alone");
            for (g, seats, reply) in games {
                let _ = reply.send(writer.insert(&[(&g, &seats)]).await);
            }
        }
    }
}

/// Splits `jobs` into the first move of each game and the rest, in order.
fn one_per_game(jobs: Vec<MoveJob>) -> (Vec<MoveJob>, Vec<MoveJob>) {
    let mut seen = HashSet::with_capacity(jobs.len());
    jobs.into_iter().partition(|(w, _)| seen.insert(w.game.id.clone()))
}
