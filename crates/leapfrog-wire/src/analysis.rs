//! The computer's view of a position: the request and answer of an
//! analysis, checked ([`prepare`]) before any thinking, then searched
//! within its budget ([`Prepared::run`]) wherever the caller has threads
//! for it.

use jump_search::Budget;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::stateless::rules_and_position;
use crate::{Invalid, PositionInput, Refusal, Rules, SeedInput, seed_string};

/// Most iterations one analysis may ask for.
pub const MAX_ITERATIONS: u64 = 200_000;
/// Most milliseconds one analysis may ask for.
pub const MAX_MILLIS: u64 = 5_000;
/// Iterations when the request names no budget.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// A request to analyse a position.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "rules": {"preset": "murray"},
    "position": {"board": "5/2R2/2WG1/W1R2/W1W2", "ply": 2, "scores": [0, 0]},
    "iterations": 5000,
    "seed": "1"
}))]
pub struct AnalysisRequest {
    /// The rule set.
    pub rules: Rules,
    /// The position.
    pub position: PositionInput,
    /// Think for this many iterations (1 to 200000; default 10000 when
    /// neither budget is given): with a seed, the same answer every time.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 200_000)]
    pub iterations: Option<u64>,
    /// Think for about this many milliseconds instead (1 to 5000).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 5_000)]
    pub millis: Option<u64>,
    /// Seed of the search (a decimal string or a number); drawn when
    /// omitted or null.
    #[serde(default)]
    pub seed: Option<SeedInput>,
}

/// A move the search considered.
#[derive(Debug, Serialize, ToSchema)]
pub struct CandidateView {
    /// The move in notation.
    pub notation: String,
    /// Its path.
    pub path: Vec<String>,
    /// Iterations that went through it (0 when the game was searched to
    /// its end).
    pub visits: u64,
    /// Each player's expected result after it, 0 to 1 (a win's share, a
    /// fifth of it given by the share of points where scores rank), in
    /// player order.
    pub expected: Vec<f64>,
    /// Whether the search proved that this move wins (true) or loses
    /// (false) against any defence, in two-player games where the player
    /// who cannot move loses; null when it proved neither (and in an exact
    /// answer, whose expected results are exact).
    #[schema(required = true)]
    pub proven: Option<bool>,
}

/// What the search found.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalysisResponse {
    /// The move to play, in notation.
    pub best: String,
    /// The moves considered, best first (at most 20): moves proven to win
    /// first, those proven to lose last, the rest by visits.
    pub candidates: Vec<CandidateView>,
    /// The principal line: the best move and the best replies, in notation.
    pub line: Vec<String>,
    /// Iterations done (positions solved, when exact).
    pub iterations: u64,
    /// Milliseconds spent thinking.
    pub millis: u64,
    /// Whether the game was searched to its end: then the best move is
    /// perfect play.
    pub exact: bool,
    /// The seed the search drew from, as a decimal string.
    pub seed: String,
}

/// An analysis checked and ready to search.
#[derive(Debug)]
pub struct Prepared {
    position: jump_capture::Position,
    budget: Budget,
    seed: u64,
}

/// Checks an analysis: its budget within the caps, its rules and position,
/// a game not over; the seed drawn when none is given.
///
/// # Errors
///
/// What is refused, and the field at fault.
pub fn prepare(body: AnalysisRequest) -> Result<Prepared, Invalid> {
    let budget = budget(body.iterations, body.millis)?;
    let position = rules_and_position(&body.rules, &body.position)?;
    if position.is_over() {
        return Err(game_over());
    }
    let seed = body.seed.map_or_else(jump_capture::random_seed, |s| s.0);
    Ok(Prepared { position, budget, seed })
}

/// The refusal of a position with no move to find.
fn game_over() -> Invalid {
    Invalid::new(Refusal::GameOver, "the game is over: there is no move to find", "position")
}

impl Prepared {
    /// Searches the position within the budget, on one thread: the best
    /// move, the candidates (the 20 most visited), the principal line.
    ///
    /// # Errors
    ///
    /// A game over (no move to find).
    pub fn run(self) -> Result<AnalysisResponse, Invalid> {
        self.run_on(1)
    }

    /// How many of `threads` threads its search would use
    /// (`jump_search::Budget::threads_of`).
    pub fn threads_of(&self, threads: usize) -> usize {
        self.budget.threads_of(threads)
    }

    /// [`Prepared::run`] on as many of `threads` threads as the budget uses
    /// (`jump_search::Budget::threads_of`: a budget in milliseconds all of
    /// them, one in iterations one, so that its seed alone decides it).
    ///
    /// # Errors
    ///
    /// A game over (no move to find).
    pub fn run_on(self, threads: usize) -> Result<AnalysisResponse, Invalid> {
        let (seed, never) = (self.seed, std::sync::atomic::AtomicBool::new(false));
        let threads = self.budget.threads_of(threads);
        let habits = jump_search::Habits::new();
        let answer = jump_search::analyse_on(&self.position, self.budget, seed, &habits, &never, threads)
            .ok_or_else(game_over)?;
        let notation = |m: &jump_capture::Move| m.to_string();
        Ok(AnalysisResponse {
            best: notation(&answer.best),
            candidates: answer
                .candidates
                .iter()
                .take(20)
                .map(|c| CandidateView {
                    notation: notation(&c.mv),
                    path: c.mv.path().iter().map(ToString::to_string).collect(),
                    visits: c.visits,
                    expected: c.expected.clone(),
                    proven: c.proven,
                })
                .collect(),
            line: answer.line.iter().map(notation).collect(),
            iterations: answer.iterations,
            millis: u64::try_from(answer.elapsed.as_millis()).unwrap_or(u64::MAX),
            exact: answer.exact,
            seed: seed_string(seed),
        })
    }
}

/// The budget a request asks for, within the caps.
fn budget(iterations: Option<u64>, millis: Option<u64>) -> Result<Budget, Invalid> {
    match (iterations, millis) {
        (Some(_), Some(_)) => {
            Err(Invalid::new(Refusal::InvalidValue, "give iterations or millis, not both", "millis"))
        }
        // The time cap holds for a budget in iterations too.
        (Some(n), None) if (1..=MAX_ITERATIONS).contains(&n) => {
            Ok(Budget::IterationsWithin { iterations: n, millis: MAX_MILLIS })
        }
        (Some(n), None) => Err(Invalid::new(
            Refusal::InvalidValue,
            format!("iterations must be from 1 to {MAX_ITERATIONS}, not {n}"),
            "iterations",
        )),
        (None, Some(ms)) if (1..=MAX_MILLIS).contains(&ms) => Ok(Budget::Millis(ms)),
        (None, Some(ms)) => Err(Invalid::new(
            Refusal::InvalidValue,
            format!("millis must be from 1 to {MAX_MILLIS}, not {ms}"),
            "millis",
        )),
        (None, None) => Ok(Budget::IterationsWithin { iterations: DEFAULT_ITERATIONS, millis: MAX_MILLIS }),
    }
}
