//! Peg solitaire solved from a position (rule book §12), for a puzzle's
//! hint: the request and answer of a solve, checked ([`prepare`]) before
//! any work, then solved within its budget of positions and time
//! ([`Prepared::run`]) wherever the caller has threads for it.

use jump_search::{Goal, GoalError, SolveBudget, Solved};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::stateless::rules_and_position;
use crate::{Invalid, PositionInput, Refusal, Rules};

/// Positions one solve may visit: its table of failed positions stays
/// under 40 MB.
pub const MAX_POSITIONS: u64 = 1_000_000;
/// Time one solve may take, in milliseconds.
pub const MAX_MILLIS: u64 = 2_000;

/// A position of peg solitaire to solve.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "rules": {"preset": "english"},
    "position": {"board": "--OOO--/--OOO--/OOOOOOO/OOO1OOO/OOOOOOO/--OOO--/--OOO--", "ply": 0, "scores": [0]}
}))]
pub struct SolutionRequest {
    /// The rule set: one player, shared pieces (`english`, `triangle`, or
    /// a custom one).
    pub rules: Rules,
    /// The position to solve from.
    pub position: PositionInput,
    /// Where the last piece must stand: a cell, `centre` or `any`.
    /// Default: the board's centre where it has one (a perfect solution),
    /// else anywhere.
    #[serde(default)]
    #[schema(example = "any", max_length = 6)]
    pub goal: Option<String>,
}

/// What a solve found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SolutionStatus {
    /// `moves` solve it.
    Solved,
    /// No sequence of jumps reaches the goal from this position.
    NoSolution,
    /// The budget ran out first: unknown.
    OutOfBudget,
}

/// A solve's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct SolutionResponse {
    /// What it found.
    pub status: SolutionStatus,
    /// The goal it solved for: `any` or the cell of the last piece.
    pub goal: String,
    /// When solved, the solution's moves in order (a piece's jumps in a
    /// row make one move); the first is a hint.
    pub moves: Vec<String>,
    /// Positions visited.
    pub positions: u64,
    /// Time taken.
    pub millis: u64,
}

/// A solve checked and ready to run.
#[derive(Debug)]
pub struct Prepared {
    position: jump_capture::Position,
    goal: Goal,
}

/// Checks a solve: its rules, position and goal.
///
/// # Errors
///
/// What is refused, and the field at fault.
pub fn prepare(body: SolutionRequest) -> Result<Prepared, Invalid> {
    let position = rules_and_position(&body.rules, &body.position)?;
    let goal = Goal::read(body.goal.as_deref(), position.rules().centre()).map_err(|e| {
        let kind = if e == GoalError::NoCentre { Refusal::InvalidValue } else { Refusal::InvalidNotation };
        Invalid::new(kind, e, "goal")
    })?;
    Ok(Prepared { position, goal })
}

impl Prepared {
    /// Solves within [`MAX_POSITIONS`] and [`MAX_MILLIS`].
    ///
    /// # Errors
    ///
    /// Rules that are not peg solitaire's.
    pub fn run(self) -> Result<SolutionResponse, Invalid> {
        let budget =
            SolveBudget { positions: MAX_POSITIONS, time: std::time::Duration::from_millis(MAX_MILLIS) };
        let answer = jump_search::solve(&self.position, self.goal, budget)
            .map_err(|e| Invalid::new(Refusal::InvalidRules, e, "rules"))?;
        let (status, moves) = match answer.solved {
            Solved::Solution(moves) => {
                (SolutionStatus::Solved, moves.iter().map(ToString::to_string).collect())
            }
            Solved::NoSolution => (SolutionStatus::NoSolution, Vec::new()),
            Solved::OutOfBudget => (SolutionStatus::OutOfBudget, Vec::new()),
        };
        Ok(SolutionResponse {
            status,
            goal: self.goal.to_string(),
            moves,
            positions: answer.positions,
            millis: u64::try_from(answer.elapsed.as_millis()).unwrap_or(u64::MAX),
        })
    }
}
