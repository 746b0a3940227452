//! Where the computer thinks: a bounded pool of threads with a bounded
//! queue, apart from the threads that handle requests. A job that finds
//! the queue full is refused at once (the API answers 503), never queued
//! without bound.

use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};

type Job = Box<dyn FnOnce() + Send>;

/// The pool. Cloning it gives another handle on the same threads.
#[derive(Debug, Clone)]
pub struct Thinkers {
    queue: SyncSender<Job>,
    threads: usize,
    capacity: usize,
}

/// The queue is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the computer is busy: {threads} searches running and {queued} waiting; retry shortly")]
pub struct Busy {
    /// Threads thinking.
    pub threads: usize,
    /// Jobs the queue holds.
    pub queued: usize,
}

impl Thinkers {
    /// A pool of `threads` threads (at least one) and a queue of
    /// `capacity` waiting jobs.
    pub fn new(threads: usize, capacity: usize) -> Thinkers {
        let threads = threads.max(1);
        let (queue, jobs) = sync_channel::<Job>(capacity);
        let jobs = Arc::new(Mutex::new(jobs));
        for i in 0..threads {
            let jobs = jobs.clone();
            let spawned = std::thread::Builder::new().name(format!("thinker-{i}")).spawn(move || work(&jobs));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a thinking thread");
            }
        }
        Thinkers { queue, threads, capacity }
    }

    /// Runs `job` on the pool; its answer comes on the returned receiver.
    ///
    /// # Errors
    ///
    /// [`Busy`] when the queue is full.
    pub fn submit<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<T>, Busy> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The asker may have gone (a closed connection): nothing to do.
            let _ = tx.send(job());
        });
        match self.queue.try_send(job) {
            Ok(()) => Ok(rx),
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                Err(Busy { threads: self.threads, queued: self.capacity })
            }
        }
    }

    /// Threads in the pool.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

fn work(jobs: &Mutex<Receiver<Job>>) {
    loop {
        // One thread waits on the queue at a time; the others wait on the
        // lock. A panicking job does not take the pool down: the lock is
        // taken back from a poisoned state.
        let job = jobs.lock().unwrap_or_else(PoisonError::into_inner).recv();
        match job {
            Ok(job) => {
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
                    tracing::error!("a search panicked");
                }
            }
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[actix_rt::test]
    async fn jobs_run_off_the_caller_and_a_full_queue_refuses_at_once() {
        let pool = Thinkers::new(1, 1);
        let (started, running) = std::sync::mpsc::channel::<()>();
        let (hold, wait) = std::sync::mpsc::channel::<()>();
        let blocked = pool
            .submit(move || {
                let _ = started.send(());
                wait.recv().is_ok()
            })
            .unwrap();
        running.recv().unwrap();
        // The thread is busy: one job waits in the queue, the next is refused.
        let queued = pool.submit(|| 7).unwrap();
        assert_eq!(pool.submit(|| 8).unwrap_err(), Busy { threads: 1, queued: 1 });
        hold.send(()).unwrap();
        assert!(blocked.await.unwrap());
        assert_eq!(queued.await.unwrap(), 7);
        assert_eq!(pool.submit(|| 9).unwrap().await.unwrap(), 9);
    }
}
