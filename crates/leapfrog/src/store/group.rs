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
    /// Starts the committer; it writes through `writer` (on SQLite, a
    /// pool of one connection) until every `Committer` is dropped. On
    /// SQLite it runs on a thread of its own; on PostgreSQL on the current
    /// runtime (the database's), whose reactor its connections' sockets
    /// belong to.
    ///
    /// # Errors
    ///
    /// When the thread or its runtime cannot be made.
    pub fn start(writer: AnyPool, backend: Backend) -> std::io::Result<Committer> {
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
                    .spawn(move || runtime.block_on(run(writer, backend, rx, counted)))?;
            }
            Backend::Postgres => {
                tokio::spawn(run(writer, backend, rx, counted));
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

async fn run(writer: AnyPool, backend: Backend, mut rx: mpsc::Receiver<Job>, failures: Arc<AtomicU64>) {
    let mut queued = Vec::with_capacity(MAX_GROUP);
    while rx.recv_many(&mut queued, MAX_GROUP).await > 0 {
        let mut jobs = std::mem::take(&mut queued);
        // Two moves of one game in one group would meet in one update: the later waits for the next.
        while !jobs.is_empty() {
            let (now, later) = one_per_game(jobs);
            match write_group(&writer, backend, &now.iter().map(|(w, _)| w).collect::<Vec<_>>()).await {
                Ok(commits) => {
                    for ((_, reply), commit) in now.into_iter().zip(commits) {
                        let _ = reply.send(Ok(commit));
                    }
                }
                Err(e) => {
                    failures.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(error = %e, moves = now.len(), "a group commit failed; its moves are committed one by one");
                    for (w, reply) in now {
                        let _ = reply.send(alone(&writer, backend, &w).await);
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

/// Commits one move in a transaction of its own: a group of one.
async fn alone(writer: &AnyPool, backend: Backend, w: &MoveWrite) -> Result<Commit, StoreError> {
    Ok(write_group(writer, backend, &[w]).await?.pop().unwrap_or(Commit::Conflict))
}
