//! A follower's place in a log — a game's or an account's — shared by
//! every stream: it resumes from a number, replays the log in batches,
//! and hands out the hub's events each exactly once and in order of its
//! number; an event past its place (a gap: the hub read past an event this
//! follower has not had) or falling behind the hub's buffer sends it back
//! to the log, which — not memory — is the truth.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::sync::broadcast::error::RecvError;

use super::hub::BATCH;
use super::{Event, Follower};
use leapfrog_store::StoreError;

/// What a cursor has for its stream next.
#[derive(Debug)]
pub enum Step {
    /// The next event, in order; the cursor counts it sent.
    Event(Event),
    /// Nothing happened for a heartbeat's time.
    Heartbeat,
    /// The process is stopping: the client resumes from the last event
    /// sent, on another process.
    Stopping,
    /// The stream is over: the hub closed, or the log failed to read.
    End,
}

/// A follower's place in the log under its hub key.
#[derive(Debug)]
pub struct LogCursor {
    follower: Follower,
    key: String,
    /// Events read from the log, to hand out before anything else.
    pending: VecDeque<Event>,
    /// The number of the first event not yet handed out.
    next: u64,
    /// Whether the log may hold events from `next` on that are not pending.
    behind: bool,
    heartbeat: tokio::time::Interval,
    /// Resolves when the process stops.
    stopping: leapfrog_process::stopping::Watch,
}

impl LogCursor {
    /// The place of `follower` in the log under `key`, which holds `logged`
    /// events (read after following: every later event comes through the
    /// hub), at its end; a comment every `heartbeat` while nothing happens.
    pub fn at_end(follower: Follower, key: &str, logged: u64, heartbeat: Duration) -> LogCursor {
        let start = tokio::time::Instant::now() + heartbeat;
        let mut beat = tokio::time::interval_at(start, heartbeat);
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let stopping = follower.hub().stopping().watch();
        LogCursor {
            follower,
            key: key.to_string(),
            pending: VecDeque::new(),
            next: logged,
            behind: false,
            heartbeat: beat,
            stopping,
        }
    }

    /// Moves the place back to event `from` (of those logged), reading the
    /// first batch from there.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn resume_from(&mut self, from: u64) -> Result<(), StoreError> {
        self.next = from;
        self.pending.clear();
        self.read_log().await
    }

    /// The events read from the log and not yet handed out.
    pub fn pending(&self) -> impl Iterator<Item = &Event> {
        self.pending.iter()
    }

    /// Whether the log may hold more than is pending.
    pub fn behind(&self) -> bool {
        self.behind
    }

    /// Queues the log's events from `next` on, a batch of them.
    async fn read_log(&mut self) -> Result<(), StoreError> {
        let from = self.pending.back().map_or(self.next, |e| e.seq + 1);
        let rows = self.follower.hub().store().log(&self.key, from as i64, BATCH).await?;
        self.behind = rows.len() as i64 == BATCH;
        self.pending.extend(rows.iter().map(Event::of_row));
        Ok(())
    }

    /// The next step: an event read from the log, or from the hub in
    /// order, a heartbeat, the process stopping, or the end. With
    /// `drained_ends`, the end comes once nothing read is pending.
    pub async fn next(&mut self, drained_ends: bool) -> Step {
        loop {
            if let Some(event) = self.pending.pop_front() {
                self.next = event.seq + 1;
                return Step::Event(event);
            }
            if drained_ends {
                return Step::End;
            }
            if self.behind {
                if let Err(e) = self.read_log().await {
                    tracing::warn!(error = %e, key = %self.key, "event stream: reading the log failed");
                    return Step::End;
                }
                continue;
            }
            tokio::select! {
                event = self.follower.rx.recv() => match event {
                    // Handed out already.
                    Ok(event) if event.seq < self.next => {}
                    Ok(event) if event.seq == self.next => {
                        self.next = event.seq + 1;
                        return Step::Event(event);
                    }
                    // A gap, or fallen behind: the log has them.
                    Ok(_) | Err(RecvError::Lagged(_)) => self.behind = true,
                    Err(RecvError::Closed) => return Step::End,
                },
                () = self.stopping.stopped() => return Step::Stopping,
                _ = self.heartbeat.tick() => return Step::Heartbeat,
            }
        }
    }
}
