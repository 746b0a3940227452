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

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use super::batch::{MoveWrite, write_group};
use super::direct::Direct;
use super::{Backend, Commit, StoreError};

/// Most moves in one transaction.
pub const MAX_GROUP: usize = 64;

type Job = (MoveWrite, oneshot::Sender<Result<Commit, StoreError>>);

/// The queue into the committer's task.
#[derive(Debug, Clone)]
pub struct Committer {
    tx: mpsc::Sender<Job>,
    /// Groups that failed whole, their moves then committed one by one.
    failures: Arc<AtomicU64>,
}

impl Committer {
    /// Starts the committer; it writes through `through` until every
    /// `Committer` is dropped. On
    /// SQLite it runs on a thread of its own; on PostgreSQL on the current
    /// runtime (the database's), whose reactor its connections' sockets
    /// belong to.
    ///
    /// # Errors
    ///
    /// When the thread or its runtime cannot be made.
    pub fn start(through: Through, backend: Backend) -> std::io::Result<Committer> {
        let (tx, rx) = mpsc::channel(4 * MAX_GROUP);
        let failures = Arc::new(AtomicU64::new(0));
        let counted = failures.clone();
        match backend {
            Backend::Sqlite => {
                // One thread that only waits for SQLite's: a runtime of several
                // threads would wake more of them at every statement (a quarter
                // of the moves a second, measured).
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
                std::thread::Builder::new()
                    .name("leapfrog-commit".into())
                    .spawn(move || runtime.block_on(run(through, backend, rx, counted)))?;
            }
            Backend::Postgres => {
                tokio::spawn(run(through, backend, rx, counted));
            }
        }
        Ok(Committer { tx, failures })
    }

    /// How many groups failed whole (each then committed move by move):
    /// 0 unless a move's rows break a constraint, or PostgreSQL broke a
    /// deadlock.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Commits `write` with the next group; answers once it is durable.
    pub async fn commit(&self, write: MoveWrite) -> Result<Commit, StoreError> {
        let (reply, answer) = oneshot::channel();
        let stopped = || StoreError::Database(sqlx::Error::PoolClosed);
        self.tx.send((write, reply)).await.map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

/// What the committer writes through.
#[derive(Debug)]
pub enum Through {
    /// SQLite's file: a connection of the committer's own
    /// ([`super::direct`]), opened on its thread, written under `lock`.
    Direct { file: std::path::PathBuf, durability: super::Durability, lock: super::WriteLock },
    /// A pool: PostgreSQL's, or SQLite's writer for a database in memory.
    Pool(AnyPool),
}

/// [`Through`] once open.
enum Writer {
    Direct(Box<Direct>, super::WriteLock),
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
}

async fn run(through: Through, backend: Backend, mut rx: mpsc::Receiver<Job>, failures: Arc<AtomicU64>) {
    let mut writer = match through {
        Through::Direct { file, durability, lock } => match Direct::open(&file, durability) {
            Ok(direct) => Writer::Direct(Box::new(direct), lock),
            Err(e) => {
                // Nothing can be written: every move is refused with this.
                tracing::error!(error = %e, file = %file.display(), "the group committer cannot open the database");
                while let Some((_, reply)) = rx.recv().await {
                    let _ = reply.send(Err(StoreError::Runtime(format!("the group committer: {e}"))));
                }
                return;
            }
        },
        Through::Pool(pool) => Writer::Pool(pool),
    };
    let mut queued = Vec::with_capacity(MAX_GROUP);
    while rx.recv_many(&mut queued, MAX_GROUP).await > 0 {
        let mut jobs = std::mem::take(&mut queued);
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

/// Splits `jobs` into the first move of each game and the rest, in order.
fn one_per_game(jobs: Vec<Job>) -> (Vec<Job>, Vec<Job>) {
    let mut seen = HashSet::with_capacity(jobs.len());
    jobs.into_iter().partition(|(w, _)| seen.insert(w.game.id.clone()))
}
