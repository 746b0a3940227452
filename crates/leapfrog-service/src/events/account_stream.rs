//! One follower's stream of an account's events (rule book §15): what it
//! has to send first (the account's open challenges and unfinished games,
//! or the events a reconnecting client missed, read from the log), then
//! the hub's events, each exactly once and in order of its number (its
//! [`LogCursor`], the game streams' too).

use std::collections::VecDeque;
use std::time::Duration;

use bytes::Bytes;

use super::cursor::{LogCursor, Step};
use super::{Follower, Hub, StreamsFull};
use leapfrog_store::{ACCOUNT_KEY, AccountEvent, StoreError};

/// How often an account's stream gets a comment line when nothing
/// happens: well within the 15 s a client may wait for a sign of life,
/// and soon enough to notice a client that has gone.
pub const ACCOUNT_HEARTBEAT: Duration = Duration::from_secs(5);

/// Streams of one account open at once on one server process.
pub const STREAMS_PER_ACCOUNT: usize = 8;

/// Why an account's stream does not open.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The process is stopping.
    #[error("this server is stopping; reconnect (through the proxy, to another)")]
    Stopping,
    /// The account has its most streams open on this process.
    #[error("this account has {0} event streams open, its most; close one first")]
    AccountFull(usize),
    /// The process or the client has its most streams open.
    #[error(transparent)]
    Full(#[from] StreamsFull),
    /// The log, or the account as it stands, could not be read.
    #[error("{0}")]
    Read(String),
}

impl From<StoreError> for OpenError {
    fn from(e: StoreError) -> OpenError {
        OpenError::Read(e.to_string())
    }
}

/// An account's stream.
#[derive(Debug)]
pub struct AccountStream {
    cursor: LogCursor,
    /// What a fresh stream sends first: the account as it stands.
    snapshot: VecDeque<Bytes>,
    /// The process is stopping: told, nothing follows.
    ended: bool,
}

impl AccountStream {
    /// Opens account `account_id`'s stream for `client`: resuming after
    /// event `last` if the log has it, or fresh with `snapshot()` first
    /// (asked only then: the account as it stands).
    ///
    /// # Errors
    ///
    /// [`OpenError`]: the process stopping, the account's or the process's
    /// or the client's most streams; what does not read.
    pub async fn open<Fut>(
        hub: &Hub,
        account_id: &str,
        client: &str,
        last: Option<u64>,
        snapshot: impl FnOnce() -> Fut,
    ) -> Result<AccountStream, OpenError>
    where
        Fut: std::future::Future<Output = Result<Vec<AccountEvent>, OpenError>>,
    {
        if hub.stopping().is_stopping() {
            return Err(OpenError::Stopping);
        }
        let key = format!("{ACCOUNT_KEY}{account_id}");
        if hub.followers(&key) >= STREAMS_PER_ACCOUNT {
            return Err(OpenError::AccountFull(STREAMS_PER_ACCOUNT));
        }
        let follower = hub.follow(&key, client)?;
        // Read after following: every event the log lacks now comes live.
        let logged = hub.store().account_event_count(account_id).await?;
        let fresh = last.is_none_or(|l| l.saturating_add(1) > logged);
        let snapshot = if fresh { snapshot().await? } else { Vec::new() };
        Ok(AccountStream::start(follower, account_id, logged, last, snapshot).await?)
    }

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
        let cursor = LogCursor::at_end(follower, &key, logged, ACCOUNT_HEARTBEAT);
        let mut stream = AccountStream { cursor, snapshot: VecDeque::new(), ended: false };
        match last.map(|l| l.saturating_add(1)).filter(|&n| n <= logged) {
            Some(from) => stream.cursor.resume_from(from).await?,
            None => stream.snapshot = snapshot.iter().map(|e| super::sse(&e.kind, None, &e.data)).collect(),
        }
        hub.caught_up(&key, logged).await;
        Ok(stream)
    }

    /// The next bytes to write, or `None` at the end.
    pub async fn next_bytes(&mut self) -> Option<Bytes> {
        if let Some(bytes) = self.snapshot.pop_front() {
            return Some(bytes);
        }
        match self.cursor.next(self.ended).await {
            Step::Event(event) => Some(event.bytes),
            Step::Stopping => {
                self.ended = true;
                Some(leapfrog_process::stopping::last_event())
            }
            Step::Heartbeat => Some(Bytes::from_static(b":\n\n")),
            Step::End => None,
        }
    }
}
