//! `leapfrog engine`: the project's search speaking the engine protocol
//! (JCP, `jump_search::protocol`) on standard input and output. Each
//! command is one line; a search runs on a thread of its own, so that
//! `stop`, `isready` and `quit` are read while it thinks.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use clap::Args;
use jump_search::Searcher;
use jump_search::protocol::{Reply, Search, Session};

#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Seed of the searches (each move's seed is made of it and the ply).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Threads a search runs on, one tree each (root parallelism); default:
    /// the number of cores.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
}

/// A search under way: its stop flag and its thread, which prints its
/// answer when it ends.
struct Running {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

impl Running {
    /// Starts `search` with `searcher`'s trees, kept from the game's last
    /// search where it leads here.
    fn start(search: Search, searcher: Arc<Mutex<Searcher>>, threads: usize) -> Running {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let (pos, habits) = (&search.position, &search.habits);
            let mut searcher = searcher.lock().unwrap_or_else(PoisonError::into_inner);
            let found = searcher.analyse(pos, search.budget, search.seed, habits, &flag, threads);
            say(&Search::told(found.as_ref()));
        });
        Running { stop, thread }
    }

    /// Ends the search now and waits for its answer to be printed.
    fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }

    /// Waits for the search to end by itself.
    fn finish(self) {
        let _ = self.thread.join();
    }
}

/// Prints lines at once, whole (a search's thread prints too).
fn say(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}

/// Reads commands until `quit` or the end of input.
pub fn run(args: &EngineArgs) -> Result<String, String> {
    let mut session = Session::new(&format!("leapfrog {}", env!("CARGO_PKG_VERSION")), args.seed);
    let mut running: Option<Running> = None;
    let searcher = Arc::new(Mutex::new(Searcher::new()));
    let threads = args
        .threads
        .and_then(|t| usize::try_from(t).ok())
        .or_else(|| std::thread::available_parallelism().ok().map(std::num::NonZero::get))
        .unwrap_or(1);
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("reading standard input: {e}"))?;
        let word = line.split_whitespace().next().unwrap_or("");
        // While a search runs: `stop` ends it, `isready` answers at once,
        // anything else waits for it to end (as a UCI engine would).
        match (word, running.take()) {
            ("stop", Some(r)) => {
                r.stop();
                continue;
            }
            ("isready", Some(r)) => {
                say(&["readyok".to_string()]);
                running = Some(r);
                continue;
            }
            ("quit", Some(r)) => {
                r.stop();
                break;
            }
            (_, Some(r)) => r.finish(),
            (_, None) => {}
        }
        match session.handle(&line) {
            Reply::Lines(lines) => say(&lines),
            Reply::Search(search) => running = Some(Running::start(*search, searcher.clone(), threads)),
            Reply::Quit => break,
        }
    }
    if let Some(r) = running {
        r.finish();
    }
    Ok(String::new())
}
