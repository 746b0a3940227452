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
mod tests {
    use std::sync::mpsc;

    use super::*;

    type Held =
        (tokio::sync::oneshot::Receiver<Result<(), WaitedTooLong>>, mpsc::Receiver<usize>, mpsc::Sender<()>);

    /// A job that tells when it starts and waits to be let go.
    fn held(pool: &Pool, client: &str, cap: Option<usize>) -> Held {
        held_wide(pool, client, cap, 1)
    }

    /// A job asking for `wide` threads that tells how many it got when it
    /// starts, and waits to be let go.
    fn held_wide(pool: &Pool, client: &str, cap: Option<usize>, wide: usize) -> Held {
        let (started, running) = mpsc::channel::<usize>();
        let (hold, wait) = mpsc::channel::<()>();
        let rx = pool
            .submit_wide(client, cap, wide, move |threads| {
                let _ = started.send(threads);
                let _ = wait.recv();
            })
            .unwrap();
        (rx, running, hold)
    }

    #[tokio::test]
    async fn a_wide_job_holds_the_threads_it_is_given_and_never_more_than_are_free() {
        let short = Duration::from_millis(200);
        let pool = Pool::new("test", 2, 8, Priority::Normal, Share::ALL, None);
        // Both threads free: a job asking for two gets both...
        let (wide, wide_running, wide_hold) = held_wide(&pool, "a", None, 2);
        assert_eq!(wide_running.recv().unwrap(), 2);
        // ...and holds them: a job of another client waits, though a
        // thread of the pool is idle.
        let (narrow, narrow_running, narrow_hold) = held(&pool, "b", None);
        assert!(narrow_running.recv_timeout(short).is_err(), "it ran on a thread the wide job held");
        wide_hold.send(()).unwrap();
        wide.await.unwrap().unwrap();
        assert_eq!(narrow_running.recv().unwrap(), 1);
        // One thread held by the narrow job: a job asking for two gets the one left.
        let (second, second_running, second_hold) = held_wide(&pool, "c", None, 2);
        assert_eq!(second_running.recv().unwrap(), 1);
        // None free now: the next waits for one.
        let (third, third_running, third_hold) = held_wide(&pool, "d", None, 2);
        assert!(third_running.recv_timeout(short).is_err(), "it ran with every thread held");
        narrow_hold.send(()).unwrap();
        narrow.await.unwrap().unwrap();
        assert_eq!(third_running.recv().unwrap(), 1);
        second_hold.send(()).unwrap();
        third_hold.send(()).unwrap();
        second.await.unwrap().unwrap();
        third.await.unwrap().unwrap();
        // A pool of one thread gives a wide job one.
        let single = Pool::new("test", 1, 8, Priority::Normal, Share::ALL, None);
        assert_eq!(single.submit_wide("a", None, 2, |threads| threads).unwrap().await.unwrap(), Ok(1));
    }

    #[tokio::test]
    async fn jobs_run_off_the_caller_and_a_full_queue_refuses_at_once() {
        let pool = Pool::new("test", 1, 1, Priority::Normal, Share::ALL, None);
        let (blocked, running, hold) = held(&pool, "a", None);
        running.recv().unwrap();
        // The thread is busy: one job waits in the queue, the next is refused.
        let queued = pool.submit("a", None, || 7).unwrap();
        assert_eq!(pool.submit("b", None, || 8).unwrap_err(), Busy::Full { threads: 1, queued: 1 });
        hold.send(()).unwrap();
        blocked.await.unwrap().unwrap();
        assert_eq!(queued.await.unwrap().unwrap(), 7);
        assert_eq!(pool.submit("a", None, || 9).unwrap().await.unwrap().unwrap(), 9);
    }

    #[tokio::test]
    async fn clients_are_served_in_turn_whatever_one_of_them_queued() {
        let pool = Pool::new("test", 1, 100, Priority::Normal, Share::ALL, None);
        let (blocked, running, hold) = held(&pool, "x", None);
        running.recv().unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut answers = Vec::new();
        // Greedy queues ten jobs, then modest one: modest's comes second.
        for (client, n) in [("greedy", 10), ("modest", 1)] {
            for i in 0..n {
                let order = order.clone();
                answers.push(
                    pool.submit(client, None, move || order.lock().unwrap().push((client, i))).unwrap(),
                );
            }
        }
        hold.send(()).unwrap();
        blocked.await.unwrap().unwrap();
        for a in answers {
            a.await.unwrap().unwrap();
        }
        let order = order.lock().unwrap();
        assert_eq!(order[..3], [("greedy", 0), ("modest", 0), ("greedy", 1)]);
        assert_eq!(order.len(), 11);
    }

    #[tokio::test]
    async fn a_client_at_its_cap_is_refused_and_others_are_not() {
        let pool = Pool::new("test", 1, 100, Priority::Normal, Share::ALL, None);
        let (blocked, running, hold) = held(&pool, "a", Some(2));
        running.recv().unwrap();
        let second = pool.submit("a", Some(2), || 2).unwrap();
        assert_eq!(pool.submit("a", Some(2), || 3).unwrap_err(), Busy::Client { limit: 2 });
        // Uncapped jobs of the same client, and other clients, still go.
        let uncapped = pool.submit("a", None, || 4).unwrap();
        let other = pool.submit("b", Some(2), || 5).unwrap();
        hold.send(()).unwrap();
        blocked.await.unwrap().unwrap();
        assert_eq!(
            (second.await.unwrap().unwrap(), uncapped.await.unwrap().unwrap(), other.await.unwrap().unwrap()),
            (2, 4, 5)
        );
        // Its jobs ended: the client may ask again.
        assert_eq!(pool.submit("a", Some(2), || 6).unwrap().await.unwrap().unwrap(), 6);
    }

    #[test]
    fn background_threads_run_at_the_lowest_priority_and_so_do_the_threads_they_start() {
        let pool = Pool::new("test", 2, 1, Priority::Lowest, Share::ALL, None);
        let (tx, rx) = mpsc::channel();
        let priority = || {
            #[cfg(target_os = "linux")]
            return rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap();
            #[cfg(not(target_os = "linux"))]
            19
        };
        // A search's second thread is started by the job, as `analyse_on` does.
        let _answer = pool.submit_wide("a", None, 2, move |_| {
            let helper = std::thread::scope(|s| s.spawn(priority).join().unwrap());
            let _ = tx.send((priority(), helper));
        });
        assert_eq!(rx.recv().unwrap(), (19, 19));
    }

    #[tokio::test]
    async fn a_job_that_waited_too_long_is_answered_late_and_one_whose_asker_left_is_not_run() {
        let pool = Pool::new("test", 1, 10, Priority::Normal, Share::ALL, Some(Duration::from_millis(50)));
        let (blocked, running, hold) = held(&pool, "a", None);
        running.recv().unwrap();
        let ran = Arc::new(Mutex::new(Vec::new()));
        let (r1, r2) = (ran.clone(), ran.clone());
        let late = pool.submit("b", None, move || r1.lock().unwrap().push("late")).unwrap();
        let gone = pool.submit("c", None, move || r2.lock().unwrap().push("gone")).unwrap();
        drop(gone);
        std::thread::sleep(Duration::from_millis(100));
        hold.send(()).unwrap();
        blocked.await.unwrap().unwrap();
        assert!(late.await.unwrap().is_err(), "it waited past 50 ms");
        assert_eq!(pool.submit("d", None, || 1).unwrap().await.unwrap(), Ok(1));
        assert!(ran.lock().unwrap().is_empty(), "neither the late job nor the abandoned one ran");
    }

    #[tokio::test]
    async fn a_capped_job_that_panics_gives_its_place_back() {
        let pool = Pool::new("test", 1, 10, Priority::Normal, Share::ALL, None);
        let failed = pool.submit("a", Some(1), || -> u8 { panic!("a bug") }).unwrap();
        assert!(failed.await.is_err(), "no answer from a panic");
        assert_eq!(pool.submit("a", Some(1), || 3).unwrap().await.unwrap(), Ok(3));
    }

    #[tokio::test]
    async fn a_thread_with_a_share_rests_after_each_job_in_proportion() {
        let pool = Pool::new("test", 1, 10, Priority::Normal, Share::percent(25), None);
        let work = || {
            let started = Instant::now();
            std::thread::sleep(Duration::from_millis(20));
            started
        };
        let first = pool.submit("a", None, work).unwrap();
        let second = pool.submit("b", None, work).unwrap();
        let (first, second) = (first.await.unwrap().unwrap(), second.await.unwrap().unwrap());
        // 20 ms of work at 25% is followed by at least 60 ms of rest.
        assert!(second - first >= Duration::from_millis(80), "{:?}", second - first);
        assert_eq!(Share::percent(0), Share::percent(1));
        assert_eq!(Share::percent(200), Share::ALL);
    }
}
