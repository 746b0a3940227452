//! The pools' tests: jobs off the caller, turns, caps, waits, shares,
//! priorities and wide jobs.

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
            answers.push(pool.submit(client, None, move || order.lock().unwrap().push((client, i))).unwrap());
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
