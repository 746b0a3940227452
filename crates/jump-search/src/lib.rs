//! Computer players for the jump-capture games of [`jump_capture`]: Leap
//! Frog, Froglet, Konane and any rule set that crate describes.
//!
//! - [`analyse`]: Monte Carlo tree search for any number of players (each
//!   node keeps one value per player; each player picks for itself), with
//!   exact play to the end when few moves are left. [`analyse_with`]
//!   also expects of each other player what [`Habits`] has seen of it (a
//!   player that always takes the largest gain is expected to go on).
//! - [`Player`]: anything that picks a move. [`Level`] names the players a
//!   person can ask for, from `random` to `hard`; [`RandomPlayer`],
//!   [`GreedyPlayer`] and [`LookaheadPlayer`] are the baselines search is
//!   measured against.
//!
//! ```
//! use jump_capture::{Position, Preset, Rules};
//! use jump_search::{Budget, Level, analyse};
//!
//! let rules = Rules::new(Preset::Froglet.spec())?;
//! let (mut pos, _) = Position::start(rules, 2, Some(7))?;
//! // Play through the opening removals.
//! while pos.is_opening() {
//!     let mv = Level::Greedy.player(1).choose(&pos).expect("a removal");
//!     pos.play(&mv)?;
//! }
//!
//! // A move from a player of a named level.
//! let mut player = Level::Easy.player(42);
//! let mv = player.choose(&pos).expect("the game goes on");
//! assert!(pos.check(&mv).is_ok());
//!
//! // An analysis: the best move, each candidate's visits and expected
//! // result for every player, and the principal line. With a number of
//! // iterations and a seed, the same every time.
//! let a = analyse(&pos, Budget::Iterations(500), 42).expect("the game goes on");
//! assert_eq!(a.iterations, 500);
//! assert_eq!(a.best, a.candidates[0].mv);
//! assert_eq!(a.line[0], a.best);
//! assert_eq!(a.candidates[0].expected.len(), 2);
//! assert_eq!(analyse(&pos, Budget::Iterations(500), 42).unwrap().best, a.best);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod arena;
mod baseline;
mod exact;
mod habits;
mod level;
mod mcts;
mod parallel;
pub mod protocol;
mod reward;
pub mod solitaire;

use web_time::{Duration, Instant};

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use jump_capture::{Move, PathBudget, Position, ScoredPath};

pub use baseline::{GreedyPlayer, LookaheadPlayer, RandomPlayer, best_gains, scored_moves, top_gain};
pub use habits::{GREEDY_AFTER, Habits};
pub use level::{LEVEL_MILLIS, Level, ParseLevelError, SearchPlayer};
pub use reward::{SCORE_WEIGHT, rewards, win_shares};
pub use solitaire::{Goal, GoalError, Solve, SolveBudget, SolveError, Solved, solve};

/// Anything that picks a move: a baseline, a search, a level.
pub trait Player: Send {
    /// What it is, for people: `greedy`, `medium`, `mcts-5000`.
    fn name(&self) -> String;

    /// A legal move of `pos`, or `None` when the game is over.
    fn choose(&mut self, pos: &Position) -> Option<Move>;

    /// Sees `mv` played in `before`, by anyone (itself included). A player
    /// that learns from what others play ([`SearchPlayer`]) keeps it in
    /// mind for the rest of the game; the default forgets it.
    fn observe(&mut self, before: &Position, mv: &Move) {
        let _ = (before, mv);
    }
}

/// How much a search may think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations: the result depends only on the position and
    /// the seed.
    Iterations(u64),
    /// About this many milliseconds: the result depends on the machine.
    Millis(u64),
    /// This many iterations, or about `millis` milliseconds, whichever
    /// ends first: reproducible from the seed when the iterations end
    /// first, and never longer than the time.
    IterationsWithin {
        /// Iterations.
        iterations: u64,
        /// Milliseconds at most.
        millis: u64,
    },
}

impl Budget {
    /// The iterations allowed, if they are counted.
    pub fn iterations(self) -> Option<u64> {
        match self {
            Budget::Iterations(n) | Budget::IterationsWithin { iterations: n, .. } => Some(n),
            Budget::Millis(_) => None,
        }
    }

    /// The milliseconds allowed, if the clock is watched.
    pub fn millis(self) -> Option<u64> {
        match self {
            Budget::Millis(ms) | Budget::IterationsWithin { millis: ms, .. } => Some(ms),
            Budget::Iterations(_) => None,
        }
    }

    /// How many of `offered` threads a search within this budget uses: a
    /// budget in time all of them (at least one), one in iterations a
    /// single one, so that its answer depends on the seed alone and not on
    /// how many threads were free when it ran.
    pub fn threads_of(self, offered: usize) -> usize {
        match self {
            Budget::Millis(_) => offered.max(1),
            Budget::Iterations(_) | Budget::IterationsWithin { .. } => 1,
        }
    }
}

/// A position with more legal moves than this is searched, and played by
/// every player of this crate, on its first `CONSIDERED` moves in notation
/// order: in these games the moves of a position can be exponentially
/// many, and going through all of them could take for ever.
pub const CONSIDERED: u64 = 20_000;

/// The engine budget that goes with [`CONSIDERED`].
pub(crate) const CONSIDERED_BUDGET: PathBudget = PathBudget::new(CONSIDERED);

/// Calls `visit` with each of the first [`CONSIDERED`] moves of `pos`, in
/// notation order.
pub(crate) fn for_each_considered(pos: &Position, mut visit: impl FnMut(ScoredPath<'_>)) {
    let mut left = CONSIDERED;
    pos.for_each_move(None, |m| {
        visit(m);
        left -= 1;
        if left == 0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
}

/// The first [`CONSIDERED`] moves of `pos` in notation order, with their
/// gains.
pub(crate) fn considered_moves(pos: &Position) -> jump_capture::MoveList {
    pos.first_moves(None, CONSIDERED as usize)
}

/// A move the search considered.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// How many iterations went through it (0 when solved exactly).
    pub visits: u64,
    /// Each player's expected reward after it (0 to 1, see [`rewards`]),
    /// in player order.
    pub expected: Vec<f64>,
    /// Whether the tree search proved that the player making it wins
    /// (`Some(true)`) or loses (`Some(false)`) with best play from there
    /// on; `None` when it did not (and always in an exact analysis, whose
    /// `expected` are exact). Proofs are made in two-player games where
    /// the player who cannot move loses (see `mcts`).
    pub proven: Option<bool>,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The move to play.
    pub best: Move,
    /// The moves considered, best first.
    pub candidates: Vec<Candidate>,
    /// The principal line: the best move and the best replies after it.
    pub line: Vec<Move>,
    /// Iterations done (positions solved, when exact).
    pub iterations: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Whether the game was searched to its end: then the best move is
    /// perfect play and the expected results are exact.
    pub exact: bool,
}

/// Positions with at most this many legal moves are tried for an exact
/// solution first.
pub const EXACT_MOVES: u64 = 16;

/// Under a time budget, the exact search may take this share of it (one
/// part in `EXACT_SHARE`) before the tree search takes over: in Konane most
/// positions have few moves long before they can be solved, and half the
/// time spent on a search that fails measured weaker (see the README).
pub const EXACT_SHARE: u32 = 10;

/// Searches `pos` within `budget`, from `seed`; `None` when the game is
/// over.
///
/// When few moves are left ([`EXACT_MOVES`]), the game is first searched
/// to its end, within a number of positions that grows with the budget;
/// if that finishes, the analysis is exact. Otherwise Monte Carlo tree
/// search runs for the budget.
pub fn analyse(pos: &Position, budget: Budget, seed: u64) -> Option<Analysis> {
    analyse_with(pos, budget, seed, &Habits::new())
}

/// [`analyse`], expecting each other player to choose as `habits` have
/// seen it choose: one seen to be greedy is expected to take a largest
/// gain (see [`Habits`]); the others to search as well as the searcher.
/// The exact search near the end expects perfect play of everyone.
pub fn analyse_with(pos: &Position, budget: Budget, seed: u64, habits: &Habits) -> Option<Analysis> {
    analyse_until(pos, budget, seed, habits, &AtomicBool::new(false))
}

/// [`analyse_with`], ended early once `stop` is set (checked between
/// iterations of the tree search, and every 1,024 positions of the exact
/// search near the end): what it found by then.
pub fn analyse_until(
    pos: &Position,
    budget: Budget,
    seed: u64,
    habits: &Habits,
    stop: &AtomicBool,
) -> Option<Analysis> {
    analyse_on(pos, budget, seed, habits, stop, 1)
}

/// [`analyse_until`] on `threads` threads (at least one): as many trees,
/// each from its own seed, their root statistics summed (root
/// parallelism). A time budget is each tree's; an iteration budget is
/// shared out among them, so the result depends only on the position, the
/// seed and the number of threads. Where threads cannot be started (a
/// WebAssembly build), one tree.
pub fn analyse_on(
    pos: &Position,
    budget: Budget,
    seed: u64,
    habits: &Habits,
    stop: &AtomicBool,
    threads: usize,
) -> Option<Analysis> {
    Searcher::new().analyse(pos, budget, seed, habits, stop, threads)
}

/// A search that keeps its trees between the searches of one game: asked
/// about a position that follows the last one it searched by moves its
/// trees had made (a few plies on: its own move and the others' replies),
/// it goes on from their subtrees under those moves instead of new trees.
/// Asked about any other position, it starts afresh, as [`analyse_on`]
/// does; the same questions in the same order get the same answers.
#[derive(Debug, Default)]
pub struct Searcher {
    trees: Vec<mcts::Tree>,
}

/// A clone has no trees: it starts afresh (a tree's generator cannot be
/// copied).
impl Clone for Searcher {
    fn clone(&self) -> Searcher {
        Searcher::new()
    }
}

impl Searcher {
    /// A searcher with no trees yet.
    pub fn new() -> Searcher {
        Searcher::default()
    }

    /// [`analyse_on`], going on from the trees of the last search where
    /// `pos` follows it. Its iterations are this search's own.
    pub fn analyse(
        &mut self,
        pos: &Position,
        budget: Budget,
        seed: u64,
        habits: &Habits,
        stop: &AtomicBool,
        threads: usize,
    ) -> Option<Analysis> {
        let threads = if cfg!(target_family = "wasm") { 1 } else { threads.max(1) };
        let started = Instant::now();
        if !pos.has_moves() {
            return None;
        }
        if pos.count_moves(PathBudget::new(EXACT_MOVES)).is_ok() {
            let limit = budget.iterations().map_or(usize::MAX, |n| {
                usize::try_from(n.saturating_mul(4)).unwrap_or(usize::MAX).max(20_000)
            });
            let deadline = budget.millis().map(|ms| started + Duration::from_millis(ms) / EXACT_SHARE);
            if let Some(exact) = exact::Solver::new(limit, deadline, stop).analyse(pos, started) {
                self.trees.clear();
                return Some(exact);
            }
        }
        let kept = self.trees.len() == threads && self.trees.iter_mut().all(|t| t.reroot(pos, habits));
        if !kept {
            self.trees = (0..threads as u64)
                .map(|k| mcts::Tree::new(pos, seed ^ k.wrapping_mul(0xA24B_AED4_963E_E407), habits))
                .collect();
        }
        if let [tree] = self.trees.as_mut_slice() {
            let iterations = tree.run(budget, started, stop);
            return tree.analysis(iterations, started);
        }
        let share = match budget {
            Budget::Iterations(n) => Budget::Iterations(n.div_ceil(threads as u64)),
            Budget::IterationsWithin { iterations, millis } => {
                Budget::IterationsWithin { iterations: iterations.div_ceil(threads as u64), millis }
            }
            Budget::Millis(ms) => Budget::Millis(ms),
        };
        let analyses = std::thread::scope(|scope| {
            let running: Vec<_> = self
                .trees
                .iter_mut()
                .map(|tree| {
                    scope.spawn(move || {
                        let iterations = tree.run(share, started, stop);
                        tree.analysis(iterations, started)
                    })
                })
                .collect();
            running.into_iter().filter_map(|t| t.join().ok().flatten()).collect::<Vec<_>>()
        });
        parallel::merged(analyses, started)
    }
}
