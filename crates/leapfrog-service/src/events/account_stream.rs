//! One follower's stream of an account's events (rule book §15): what it
//! has to send first (the account's open challenges and unfinished games,
//! or the events a reconnecting client missed, read from the log), then
//! the hub's events, each exactly once and in order of its number; a gap,
//! or falling behind the hub, is read from the log.

use std::collections::VecDeque;
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::broadcast::error::RecvError;

use super::hub::BATCH;
use super::{Event, Follower};
use leapfrog_store::{ACCOUNT_KEY, AccountEvent, StoreError};

/// How often an account's stream gets a comment line when nothing
/// happens: well within the 15 s a client may wait for a sign of life,
/// and soon enough to notice a client that has gone.
pub const ACCOUNT_HEARTBEAT: Duration = Duration::from_secs(5);

/// An account's stream.
#[derive(Debug)]
pub struct AccountStream {
    follower: Follower,
    key: String,
    /// What a fresh stream sends first: the account as it stands.
    snapshot: VecDeque<Bytes>,
    /// Events read from the log, to send before anything else.
    pending: VecDeque<Event>,
    /// The number of the first event not yet sent.
    next: u64,
    /// Whether the log may hold events from `next` on that are not pending.
    behind: bool,
    heartbeat: tokio::time::Interval,
    stopping: leapfrog_process::stopping::Watch,
    /// The process is stopping: told, nothing follows.
    ended: bool,
}

impl AccountStream {
    /// Starts `follower`'s stream of account `account_id`, whose log holds
    /// `logged` events (read after following): resuming after event `last`
    /// if the log has it (exactly the events after it), or fresh with
    /// `snapshot` first (events without numbers: the account as it stands).
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn start(
        follower: Follower,
        account_id: &str,
        logged: u64,
        last: Option<u64>,
        snapshot: Vec<AccountEvent>,
    ) -> Result<AccountStream, StoreError> {
        let hub = follower.hub().clone();
        let key = format!("{ACCOUNT_KEY}{account_id}");
        let start = tokio::time::Instant::now() + ACCOUNT_HEARTBEAT;
        let mut heartbeat = tokio::time::interval_at(start, ACCOUNT_HEARTBEAT);
        heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut stream = AccountStream {
            follower,
            key: key.clone(),
            snapshot: VecDeque::new(),
            pending: VecDeque::new(),
            next: logged,
            behind: false,
            heartbeat,
            stopping: hub.stopping().watch(),
            ended: false,
        };
        match last.map(|l| l.saturating_add(1)).filter(|&n| n <= logged) {
            Some(from) => {
                stream.next = from;
                stream.read_log().await?;
            }
            None => {
                stream.snapshot = snapshot.iter().map(|e| super::sse(&e.kind, None, &e.data)).collect();
            }
        }
        hub.caught_up(&key, logged).await;
        Ok(stream)
    }

    /// Queues the log's events from `next` on, a batch of them.
    async fn read_log(&mut self) -> Result<(), StoreError> {
        let from = self.pending.back().map_or(self.next, |e| e.seq + 1);
        let rows = self.follower.hub().store().log(&self.key, from as i64, BATCH).await?;
        self.behind = rows.len() as i64 == BATCH;
        self.pending.extend(rows.iter().map(Event::of_row));
        Ok(())
    }

    /// The next bytes to write, or `None` at the end.
    pub async fn next_bytes(&mut self) -> Option<Bytes> {
        if let Some(bytes) = self.snapshot.pop_front() {
            return Some(bytes);
        }
        if self.ended {
            return None;
        }
        loop {
            if let Some(event) = self.pending.pop_front() {
                self.next = event.seq + 1;
                return Some(event.bytes);
            }
            if self.behind {
                if let Err(e) = self.read_log().await {
                    tracing::warn!(error = %e, "account stream: reading the log failed");
                    return None;
                }
                continue;
            }
            tokio::select! {
                event = self.follower.rx.recv() => match event {
                    Ok(event) if event.seq < self.next => {}
                    Ok(event) if event.seq == self.next => {
                        self.next = event.seq + 1;
                        return Some(event.bytes);
                    }
                    Ok(_) | Err(RecvError::Lagged(_)) => self.behind = true,
                    Err(RecvError::Closed) => return None,
                },
                // Nothing is pending here: the client resumes from the
                // last event sent, on another process.
                () = self.stopping.stopped() => {
                    self.ended = true;
                    return Some(leapfrog_process::stopping::last_event());
                }
                _ = self.heartbeat.tick() => return Some(Bytes::from_static(b":\n\n")),
            }
        }
    }
}
