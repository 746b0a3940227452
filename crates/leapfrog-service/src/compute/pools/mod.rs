//! Where the computer thinks: bounded pools of threads apart from the
//! threads that handle requests, each with a bounded queue that serves its
//! clients in turn. A job that finds the queue full is refused at once (the
//! API answers 503), never queued without bound.
//!
//! The computer has two [`JobKind`]s. Its moves in games where a person waits
//! go first: they have threads of their own, at the normal priority. The
//! analyses and the games of computer seats alone share threads that run at
//! the lowest priority the system has (`nice` 19), so that a flood of them
//! leaves the CPU to the people's games and to the request threads.
//!
//! A pool may bound the share of the time its threads work: after each
//! job a thread rests in proportion, so that what it does, however much is
//! asked, takes at most that share of a core.
//!
//! A pool may bound how long a job waits for a thread: one that waited
//! longer is answered [`WaitedTooLong`] instead of run, and a job whose asker has
//! gone (a closed connection, a timed-out request) is not run at all.
//!
//! A pool counts its threads as cores: a job may ask for more than one
//! (a search on two threads, say) and gets as many as are free when it
//! starts, at most what it asked and at least one; the cores it holds are
//! not given to another job until it ends. So jobs never use more threads
//! in all than the pool has, however wide each is.
//!
//! In a lane, waiting jobs are kept per client and served a client at a
//! time, in turn: a client with twenty jobs waiting gets every other turn
//! against a client with one, never twenty turns in a row. A job may also
//! count against its client's cap (analyses do): past it, the client is
//! refused at once with [`Busy::Client`].

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// A job, given the number of threads it may use: its own and helpers it
/// starts (see [`Pool::submit_wide`]).
type Job = Box<dyn FnOnce(usize) + Send>;

/// Why a job was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Busy {
    /// The queue is full.
    #[error("the computer is busy: {threads} searches running and {queued} waiting; retry shortly")]
    Full {
        /// Threads of the pool.
        threads: usize,
        /// Jobs the queue holds.
        queued: usize,
    },
    /// The client has its most capped jobs running or waiting.
    #[error("this client has {limit} searches running or waiting, the most it may; wait for one to end")]
    Client {
        /// The cap.
        limit: usize,
    },
}

/// A job waited longer than its pool allows for a thread, and was not run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("it waited {} s for a thread, the most it may; retry shortly", .0.as_secs_f32())]
pub struct WaitedTooLong(pub Duration);

/// Which threads a job of the computer runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// A move in a game where a person waits: first, at normal priority.
    Play,
    /// An analysis, or a move in a game of computer seats alone: at the
    /// lowest priority, after the people's games.
    Background,
}

/// A pool of threads serving its clients' jobs in turn. Cloning it gives
/// another handle on the same threads.
#[derive(Debug, Clone)]
pub struct Pool {
    shared: Arc<Shared>,
    threads: usize,
    capacity: usize,
    max_wait: Option<Duration>,
}

/// The share of the time a pool's threads may work, from 0 (exclusive) to
/// 1 (always).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Share(f64);

impl Share {
    /// Work whenever there is work.
    pub const ALL: Share = Share(1.0);

    /// `percent` of the time, from 1 to 100 (outside it: the nearest).
    pub fn percent(percent: u8) -> Share {
        Share(f64::from(percent.clamp(1, 100)) / 100.0)
    }

    /// `factor` times this share (at least 1%, at most all).
    pub fn times(self, factor: f64) -> Share {
        Share((self.0 * factor).clamp(0.01, 1.0))
    }

    /// How long to rest after working `worked`, to keep within the share.
    fn rest_after(self, worked: Duration) -> Duration {
        worked.mul_f64((1.0 - self.0) / self.0)
    }
}

#[derive(Debug)]
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// The pool's name, its metrics' label.
    name: String,
}

impl Shared {
    /// Tells the metrics how many jobs wait.
    fn count_queued(&self, queued: usize) {
        metrics::gauge!(leapfrog_process::meter::THINK_QUEUED, "pool" => self.name.clone())
            .set(queued as f64);
    }
}

#[derive(Default)]
struct Queue {
    /// Waiting jobs per client, oldest first, with the threads each asks for.
    waiting: HashMap<String, VecDeque<(usize, Job)>>,
    /// The clients with waiting jobs, in the order of their next turn.
    turns: VecDeque<String>,
    /// Jobs waiting, in all.
    queued: usize,
    /// Per client, its capped jobs waiting or running.
    capped: HashMap<String, usize>,
    /// The pool's threads not held by a running job.
    free: usize,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue")
            .field("queued", &self.queued)
            .field("clients", &self.turns.len())
            .field("free", &self.free)
            .finish()
    }
}

/// How a pool's threads run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Priority {
    /// As the rest of the process.
    Normal,
    /// Only when nothing else wants the CPU (`nice` 19).
    Lowest,
    /// Behind the rest of the process, but never starved (`nice` 10).
    Low,
}

impl Pool {
    /// A pool of `threads` threads (at least one) named `{name}-{i}`, each
    /// working at most `share` of the time, a queue of `capacity` waiting
    /// jobs, each waiting at most `max_wait` for a thread.
    pub fn new(
        name: &str,
        threads: usize,
        capacity: usize,
        priority: Priority,
        share: Share,
        max_wait: Option<Duration>,
    ) -> Pool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue { free: threads, ..Queue::default() }),
            ready: Condvar::new(),
            name: name.to_string(),
        });
        for i in 0..threads {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new().name(format!("{name}-{i}")).spawn(move || {
                match priority {
                    Priority::Lowest => lower_this_threads_priority(),
                    Priority::Low => nice_this_thread(10),
                    Priority::Normal => {}
                }
                work(&shared, share);
            });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a thread of the {name} pool");
            }
        }
        Pool { shared, threads, capacity, max_wait }
    }

    /// Runs `job` for `client` on the pool; its answer comes on the
    /// returned receiver, or [`WaitedTooLong`] when it waited past the pool's most.
    /// With `cap`, the job counts against the client's most jobs waiting or
    /// running at once.
    ///
    /// # Errors
    ///
    /// [`Busy`] when the queue is full, or the client at its cap.
    pub fn submit<T: Send + 'static>(
        &self,
        client: &str,
        cap: Option<usize>,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<Result<T, WaitedTooLong>>, Busy> {
        self.submit_wide(client, cap, 1, move |_| job())
    }

    /// [`Pool::submit`] for a job that may use up to `wide` threads: it is
    /// called with how many it may use (at least one, at most `wide` and
    /// the pool's threads free when it starts), and those are held for it
    /// until it ends.
    ///
    /// # Errors
    ///
    /// [`Busy`] when the queue is full, or the client at its cap.
    pub fn submit_wide<T: Send + 'static>(
        &self,
        client: &str,
        cap: Option<usize>,
        wide: usize,
        job: impl FnOnce(usize) -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<Result<T, WaitedTooLong>>, Busy> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let (submitted, max_wait) = (Instant::now(), self.max_wait);
        let mut queue = self.lock();
        if queue.queued >= self.capacity {
            return Err(Busy::Full { threads: self.threads, queued: queue.queued });
        }
        if let Some(limit) = cap {
            let count = queue.capped.entry(client.to_string()).or_default();
            if *count >= limit {
                return Err(Busy::Client { limit });
            }
            *count += 1;
        }
        let release = cap.map(|_| Release { shared: self.shared.clone(), client: client.to_string() });
        let pool = self.shared.name.clone();
        let job: Job = Box::new(move |threads| {
            // Locals drop in reverse: on a panic too, the client's place
            // goes back before the answer's channel closes (the asker may
            // ask again as soon as it sees the end).
            let tx = tx;
            let release = release;
            let waited = submitted.elapsed();
            metrics::histogram!(leapfrog_process::meter::THINK_WAIT, "pool" => pool)
                .record(waited.as_secs_f64());
            let answer = if tx.is_closed() {
                // The asker has gone: nothing to do.
                None
            } else if max_wait.is_some_and(|most| waited > most) {
                Some(Err(WaitedTooLong(waited)))
            } else {
                Some(Ok(job(threads)))
            };
            // The client's place is given back before its answer goes (it
            // may ask again at once), and by a drop, so a panic gives it
            // back too.
            drop(release);
            if let Some(answer) = answer {
                // The asker may have gone meanwhile: then it is dropped.
                let _ = tx.send(answer);
            }
        });
        let Queue { waiting, turns, queued, .. } = &mut *queue;
        let mine = waiting.entry(client.to_string()).or_default();
        if mine.is_empty() {
            turns.push_back(client.to_string());
        }
        mine.push_back((wide.max(1), job));
        *queued += 1;
        self.shared.count_queued(*queued);
        drop(queue);
        self.shared.ready.notify_one();
        Ok(rx)
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A capped job's place in its client's count, given back when dropped.
struct Release {
    shared: Arc<Shared>,
    client: String,
}

impl Drop for Release {
    fn drop(&mut self) {
        let mut queue = self.shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = queue.capped.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                queue.capped.remove(&self.client);
            }
        }
    }
}

/// A thread's loop: once a thread of the pool is free, the next client's
/// oldest job, in turn, holding the threads it is given until it ends; then
/// a rest that keeps the thread within its share (the job has answered by
/// then).
fn work(shared: &Shared, share: Share) {
    loop {
        let (held, job) = {
            let mut queue = shared.queue.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                // Another job may hold this thread's core: then it waits.
                if queue.free > 0
                    && let Some((wide, job)) = next(&mut queue)
                {
                    let held = wide.min(queue.free);
                    queue.free -= held;
                    shared.count_queued(queue.queued);
                    break (held, job);
                }
                queue = shared.ready.wait(queue).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let started = Instant::now();
        // A panicking job does not take the pool down.
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || job(held))).is_err() {
            tracing::error!("a job on a thread pool panicked");
        }
        shared.queue.lock().unwrap_or_else(PoisonError::into_inner).free += held;
        // A thread that waited for a free core may go on.
        shared.ready.notify_all();
        if share != Share::ALL {
            std::thread::sleep(share.rest_after(started.elapsed()));
        }
    }
}

/// Takes the oldest job of the client whose turn it is; that client goes
/// to the back of the turns if it has more waiting.
fn next(queue: &mut Queue) -> Option<(usize, Job)> {
    let client = queue.turns.pop_front()?;
    let waiting = queue.waiting.get_mut(&client)?;
    let job = waiting.pop_front();
    if waiting.is_empty() {
        queue.waiting.remove(&client);
    } else {
        queue.turns.push_back(client);
    }
    queue.queued -= usize::from(job.is_some());
    job
}

/// Runs the calling thread at the lowest priority (Linux: the `SCHED_IDLE`
/// policy, under which any other thread that wants the CPU takes it at
/// once — with `nice` 19 alone a move waited a scheduler slice behind a
/// password check — and `nice` 19 in case that is refused). Elsewhere, or
/// if both are refused, it runs as it was.
fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::{
            NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy, set_thread_priority_and_policy,
            thread_native_id,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        if let Err(e) = set_thread_priority_and_policy(thread_native_id(), ThreadPriority::Min, idle) {
            tracing::warn!(error = ?e, "cannot make a background thread idle-only");
        }
        if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19) {
            tracing::warn!(error = %e, "cannot lower a background thread's priority");
        }
    }
}

/// Runs the calling thread at `nice` `level` under the normal policy: it
/// yields to the rest of the process, yet still gets its weight of the CPU
/// however busy the machine is. Elsewhere, or if refused, it runs as it was.
fn nice_this_thread(level: i32) {
    #[cfg(target_os = "linux")]
    if let Err(e) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), level) {
        tracing::warn!(error = %e, "cannot lower a thread's priority");
    }
    #[cfg(not(target_os = "linux"))]
    let _ = level;
}

/// The most threads one search of the computer's runs on (its trees on
/// both cores of a two-core machine: see `jump_search::analyse_on`). A
/// search asks only for those its budget uses (`Budget::threads_of`): one
/// counted in iterations holds one thread, not two.
pub const SEARCH_THREADS: usize = 2;

/// The computer's threads: one [`Pool`] a [`JobKind`].
#[derive(Debug, Clone)]
pub struct Thinkers {
    play: Pool,
    background: Pool,
}

impl Thinkers {
    /// `threads` threads a lane, each lane with a queue of `capacity`; a
    /// background job waits at most `background_wait` for a thread.
    pub fn new(threads: usize, capacity: usize, background_wait: Duration) -> Thinkers {
        Thinkers {
            // A person waits for these: as long as it takes.
            play: Pool::new("play", threads, capacity, Priority::Normal, Share::ALL, None),
            background: Pool::new(
                "think",
                threads,
                capacity,
                Priority::Lowest,
                Share::ALL,
                Some(background_wait),
            ),
        }
    }

    /// Runs the search `job` for `client` in `lane` on up to `wide` of the
    /// lane's threads, at most [`SEARCH_THREADS`] (see [`Pool::submit_wide`]):
    /// it is called with how many it may use.
    ///
    /// # Errors
    ///
    /// [`Busy`] when the lane's queue is full, or the client at its cap.
    pub fn submit_search<T: Send + 'static>(
        &self,
        lane: JobKind,
        client: &str,
        cap: Option<usize>,
        wide: usize,
        job: impl FnOnce(usize) -> T + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<Result<T, WaitedTooLong>>, Busy> {
        let wide = wide.min(SEARCH_THREADS);
        match lane {
            JobKind::Play => self.play.submit_wide(client, cap, wide, job),
            JobKind::Background => self.background.submit_wide(client, cap, wide, job),
        }
    }
}

#[cfg(test)]
mod tests;
