//! Group commit on SQLite: moves of concurrent games share one transaction
//! and so one sync of the WAL.
//!
//! Every move goes to one task that owns the writer connection. It takes
//! the moves waiting (up to [`MAX_GROUP`]), writes each — a move that
//! conflicts writes nothing, its statements being guarded by the game's
//! version — and commits them together;
//! each request is answered only after that commit. A lone move is
//! committed at once: there is no waiting for company, only the moves that
//! queued while the previous group was being synced share the next one.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

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
    /// Starts the committer on the current runtime; it writes through
    /// `writer` (a pool of one connection) until every `Committer` is
    /// dropped.
    pub fn start(writer: AnyPool) -> Committer {
        let (tx, rx) = mpsc::channel(4 * MAX_GROUP);
        tokio::spawn(run(writer, rx));
        Committer { tx }
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
    let mut group = Vec::with_capacity(MAX_GROUP);
    while rx.recv_many(&mut group, MAX_GROUP).await > 0 {
        let jobs = std::mem::take(&mut group);
        match write_group(&writer, &jobs).await {
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
}

/// Writes the group's moves, each in a savepoint, and commits: the outcome
/// of each, or the error that stored none.
async fn write_group(writer: &AnyPool, jobs: &[Job]) -> Result<Vec<Commit>, StoreError> {
    let mut tx = writer.begin().await?;
    let mut commits = Vec::with_capacity(jobs.len());
    for (w, _) in jobs {
        // A move that conflicts writes nothing (its statements are guarded by the game's version).
        let commit = Store::write_move(
            Backend::Sqlite,
            &mut tx,
            &w.game,
            w.version,
            &w.mv,
            w.key.as_ref(),
            (&w.events, &w.accounts),
        )
        .await?;
        commits.push(commit);
    }
    tx.commit().await?;
    Ok(commits)
}
