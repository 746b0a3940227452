//! Where a request's work in the rules engine is done (its budgets are
//! the wire's, `leapfrog_wire::budget`).
//!
//! Work that fits `budget::INLINE` runs where the request is handled (it
//! costs less than handing it over); anything larger runs on the [`Engine`]'s
//! own threads, with a [`DEADLINE`], so that the request threads always
//! answer (`/healthz` among them). Nothing here knows HTTP.
//!
//! `pools` has the other two pools: the threads the computer's seats
//! and the analyses think on, and the password hasher's share.

pub mod pools;

use std::time::Duration;

use crate::compute::pools::{Pool, Priority, Share};

/// How long a request waits for one of the engine's threads before a 503.
pub const DEADLINE: Duration = Duration::from_secs(2);

/// Jobs that may wait for the engine's threads; past them, a 503 at once.
pub const QUEUE: usize = 64;

/// The threads that run engine work too large for a request thread.
#[derive(Debug, Clone)]
pub struct Engine {
    pool: Pool,
}

impl Engine {
    /// An engine of `threads` threads.
    pub fn new(threads: usize) -> Engine {
        Engine { pool: Pool::new("engine", threads, QUEUE, Priority::Normal, Share::ALL, Some(DEADLINE)) }
    }

    /// Runs `job` for `client` on the engine's threads (clients in turn),
    /// if it gets one within [`DEADLINE`]. The job itself is bounded by its
    /// budget (a tenth of a second at most, on this project's machine).
    ///
    /// # Errors
    ///
    /// [`Unavailable`] when the queue is full or the deadline passes.
    pub async fn run<T: Send + 'static>(
        &self,
        client: &str,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Unavailable> {
        let answer = self.pool.submit(client, None, job).map_err(Unavailable::Busy)?;
        match answer.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(late)) => Err(Unavailable::WaitedTooLong(late)),
            // The job panicked (the pool logged it).
            Err(_) => Err(Unavailable::Lost),
        }
    }
}

/// Why the engine gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unavailable {
    /// Its queue is full.
    #[error("the engine is busy: {0}")]
    Busy(crate::compute::pools::Busy),
    /// No thread was free within the deadline.
    #[error("the engine is busy: {0}")]
    WaitedTooLong(crate::compute::pools::WaitedTooLong),
    /// The job ended without an answer.
    #[error("the engine's job ended without an answer; retry")]
    Lost,
}
