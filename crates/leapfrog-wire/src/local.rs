//! The stateless API in-process: each operation takes the same JSON
//! request body as its HTTP operation and answers the same JSON, or the
//! same refusal as a problem object (`type`, `title`, `status`, `detail`,
//! `field`). The WebAssembly and Python bindings are this one function
//! behind their languages' calling conventions, so a program switches
//! between a server and the local engine by changing one function.
//!
//! | operation | HTTP operation | request | answer |
//! |---|---|---|---|
//! | `presets` | `GET /v1/presets` (`listPresets`) | `{}` | `[PresetInfo]` |
//! | `setup` | `POST /v1/setups` (`createSetup`) | `SetupRequest` | `SetupResponse` |
//! | `legalMoves` | `POST /v1/legal-moves` (`listLegalMoves`) | `LegalMovesRequest` | `LegalMovesResponse` |
//! | `apply` | `POST /v1/apply` (`applyMove`) | `ApplyRequest` | `ApplyResponse` |
//! | `analysis` | `POST /v1/analysis` (`analysePosition`) | `AnalysisRequest` | `AnalysisResponse` |
//! | `solutions` | `POST /v1/solutions` (`solvePosition`) | `SolutionRequest` | `SolutionResponse` |
//! | `readRecord` | `POST /v1/records` (`readRecord`) | `RecordInput` | `ReadRecord` |
//! | `perft` | (none: the engine's own count) | [`PerftRequest`] | [`PerftResponse`] |
//!
//! What a server adds — rate limits, pools of threads, a body-size cap —
//! is the caller's here: the work of each call stays within the same
//! budgets (`budget`), and runs on the caller's thread.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::body::parse;
use crate::problem::Problem;
use crate::record::read::RecordInput;
use crate::stateless::{ApplyRequest, LegalMovesRequest, SetupRequest, rules_and_position};
use crate::{Invalid, PositionInput, Refusal, Rules, analysis, move_page, solutions, stateless};

/// An operation of the stateless API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Every preset.
    Presets,
    /// A deal.
    Setup,
    /// A page of legal moves.
    LegalMoves,
    /// A move applied.
    Apply,
    /// The computer's view of a position.
    Analysis,
    /// Peg solitaire's solutions.
    Solutions,
    /// A game record read and replayed.
    ReadRecord,
    /// A count of move sequences.
    Perft,
}

impl Operation {
    /// Every operation.
    pub const ALL: [Operation; 8] = [
        Operation::Presets,
        Operation::Setup,
        Operation::LegalMoves,
        Operation::Apply,
        Operation::Analysis,
        Operation::Solutions,
        Operation::ReadRecord,
        Operation::Perft,
    ];

    /// Its name in the bindings.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Presets => "presets",
            Operation::Setup => "setup",
            Operation::LegalMoves => "legalMoves",
            Operation::Apply => "apply",
            Operation::Analysis => "analysis",
            Operation::Solutions => "solutions",
            Operation::ReadRecord => "readRecord",
            Operation::Perft => "perft",
        }
    }

    /// Its HTTP operation's id in `openapi.json`, if it has one.
    pub fn operation_id(self) -> Option<&'static str> {
        match self {
            Operation::Presets => Some("listPresets"),
            Operation::Setup => Some("createSetup"),
            Operation::LegalMoves => Some("listLegalMoves"),
            Operation::Apply => Some("applyMove"),
            Operation::Analysis => Some("analysePosition"),
            Operation::Solutions => Some("solvePosition"),
            Operation::ReadRecord => Some("readRecord"),
            Operation::Perft => None,
        }
    }

    /// The operation of this name.
    ///
    /// # Errors
    ///
    /// A 404 problem naming the operations there are.
    pub fn named(name: &str) -> Result<Operation, Box<Problem>> {
        Operation::ALL.into_iter().find(|op| op.name() == name).ok_or_else(|| {
            let names: Vec<&str> = Operation::ALL.iter().map(|op| op.name()).collect();
            let detail = format!("there is no operation '{name}'; there are {}", names.join(", "));
            Box::new(Problem::new("not-found", "Not found", 404, detail, Some("operation".into())))
        })
    }
}

/// Runs `operation` on the JSON request `body`: the JSON answer.
///
/// # Errors
///
/// The problem its HTTP operation answers with: 400 for a body that does
/// not read as the request (the field named), 422 for one the rules
/// refuse, 404 for an operation there is not.
pub fn call(operation: &str, body: &[u8]) -> Result<Vec<u8>, Box<Problem>> {
    run(Operation::named(operation)?, body)
}

/// [`call`] with the operation known.
///
/// # Errors
///
/// As [`call`].
pub fn run(operation: Operation, body: &[u8]) -> Result<Vec<u8>, Box<Problem>> {
    let refused = |e: Invalid| Box::new(Problem::from(&e));
    match operation {
        Operation::Presets => answer(&stateless::presets()),
        Operation::Setup => answer(&stateless::setup(read::<SetupRequest>(body)?).map_err(refused)?),
        Operation::LegalMoves => {
            let req: LegalMovesRequest = read(body)?;
            let pos = rules_and_position(&req.rules, &req.position).map_err(refused)?;
            let page = move_page::write_page(&pos, req.from.as_deref(), req.limit, req.cursor.as_deref());
            Ok(page.map_err(refused)?.to_json().to_vec())
        }
        Operation::Apply => answer(&stateless::apply(read::<ApplyRequest>(body)?).map_err(refused)?),
        Operation::Analysis => {
            let prepared = analysis::prepare(read(body)?).map_err(refused)?;
            answer(&prepared.run().map_err(refused)?)
        }
        Operation::Solutions => {
            let prepared = solutions::prepare(read(body)?).map_err(refused)?;
            answer(&prepared.run().map_err(refused)?)
        }
        Operation::ReadRecord => {
            let input: RecordInput = read(body)?;
            answer(&crate::record::read::read(&input).map_err(refused)?)
        }
        Operation::Perft => answer(&perft(read(body)?).map_err(refused)?),
    }
}

/// The request in `body`, or its 400.
fn read<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Box<Problem>> {
    parse(body).map_err(|e| Box::new(Problem::from(e)))
}

/// The answer's JSON.
fn answer<T: Serialize>(value: &T) -> Result<Vec<u8>, Box<Problem>> {
    serde_json::to_vec(value).map_err(|e| {
        Box::new(Problem::new(
            "internal",
            "Internal error",
            500,
            format!("the answer did not encode: {e}"),
            None,
        ))
    })
}

/// The deepest count [`perft`] takes.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// The most move paths one [`perft`] goes through unless its request
/// gives fewer; at most 2^53, so that the count is exact in JavaScript.
pub const PERFT_BUDGET: u64 = 1 << 53;

/// A request to count a position's move sequences.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PerftRequest {
    /// The rule set.
    pub rules: Rules,
    /// The position.
    pub position: PositionInput,
    /// The plies, 0 to 32.
    pub depth: u32,
    /// The most move paths to go through before refusing (`over-budget`);
    /// 1 to 2^53 (the default).
    #[serde(default)]
    pub budget: Option<u64>,
}

/// The number of move sequences of a position.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PerftResponse {
    /// The plies counted.
    pub depth: u32,
    /// The number of move sequences of exactly `depth` plies (a sequence
    /// ends early only where the game does, `docs/rules.md` §9).
    pub nodes: u64,
}

/// Counts the move sequences of `req`'s position (`docs/rules.md` §9).
///
/// # Errors
///
/// The rules or position refused, a depth or budget out of range, or the
/// count past its budget (`over-budget`).
pub fn perft(req: PerftRequest) -> Result<PerftResponse, Invalid> {
    if req.depth > MAX_PERFT_DEPTH {
        let detail = format!("depth {} is deeper than {MAX_PERFT_DEPTH}", req.depth);
        return Err(Invalid::new(Refusal::InvalidValue, detail, "depth"));
    }
    let budget = req.budget.unwrap_or(PERFT_BUDGET);
    if !(1..=PERFT_BUDGET).contains(&budget) {
        let detail = format!("the budget is {budget}; give 1 to {PERFT_BUDGET}");
        return Err(Invalid::new(Refusal::InvalidValue, detail, "budget"));
    }
    let pos = rules_and_position(&req.rules, &req.position)?;
    let nodes = pos.perft(req.depth, jump_capture::PathBudget::new(budget)).map_err(|_| {
        let detail = format!("counting depth {} goes through more than {budget} move paths", req.depth);
        Invalid::new(Refusal::OverBudget, detail, "budget")
    })?;
    Ok(PerftResponse { depth: req.depth, nodes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(bytes: &[u8]) -> serde_json::Value {
        serde_json::from_slice(bytes).unwrap()
    }

    #[test]
    fn every_operation_answers_by_its_name_and_an_unknown_one_is_a_404_naming_them() {
        for op in Operation::ALL {
            assert_eq!(Operation::named(op.name()).unwrap(), op);
        }
        let p = call("legal_moves", b"{}").unwrap_err();
        assert_eq!((p.status, p.field.as_deref()), (404, Some("operation")));
        assert!(p.detail.contains("legalMoves"), "{}", p.detail);
    }

    #[test]
    fn a_body_that_does_not_read_is_a_400_naming_the_field() {
        let p = call("apply", br#"{"rules": {"preset": "old"}, "position": 7, "move": "a1"}"#).unwrap_err();
        assert_eq!((p.status, p.kind.as_str()), (400, "urn:leapfrog:problem:invalid-request"));
        assert_eq!(p.field.as_deref(), Some("position"));
        let p = call("setup", b"[]").unwrap_err();
        assert_eq!((p.status, p.field), (400, None));
    }

    #[test]
    fn a_deal_moves_and_an_illegal_move_answer_as_over_http() {
        let setup = json(
            &call("setup", br#"{"rules": {"preset": "old", "rows": 4, "cols": 4}, "seed": 1}"#).unwrap(),
        );
        let p = &setup["position"];
        let position = &serde_json::json!({"board": p["board"], "ply": p["ply"], "scores": p["scores"]});
        let body = serde_json::json!({"rules": setup["rules"], "position": position, "limit": 1000});
        let page = json(&call("legalMoves", body.to_string().as_bytes()).unwrap());
        let first = &page["moves"][0]["path"];
        let applied =
            serde_json::json!({"rules": setup["rules"], "position": position, "move": {"path": first}})
                .to_string();
        let after = json(&call("apply", applied.as_bytes()).unwrap());
        assert_eq!(after["position"]["ply"], 1);
        let illegal = serde_json::json!({"rules": setup["rules"], "position": position, "move": {"path": ["a1", "a4"]}});
        let p = call("apply", illegal.to_string().as_bytes()).unwrap_err();
        assert_eq!((p.status, p.kind.as_str()), (422, "urn:leapfrog:problem:illegal-move"), "{p:?}");
        assert!(p.field.is_some());
    }

    #[test]
    fn perft_counts_within_its_budget_and_refuses_past_it() {
        let body = |depth: u32, budget: u64| {
            serde_json::json!({"rules": {"preset": "old"}, "position": {"board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1]},
                "depth": depth, "budget": budget})
            .to_string()
        };
        let counted = json(&call("perft", body(2, 1 << 20).as_bytes()).unwrap());
        assert_eq!(counted["depth"], 2);
        assert!(counted["nodes"].as_u64().unwrap() > 0);
        let p = call("perft", body(3, 1).as_bytes()).unwrap_err();
        assert_eq!(
            (p.kind.as_str(), p.field.as_deref()),
            ("urn:leapfrog:problem:over-budget", Some("budget"))
        );
        let p = call("perft", body(33, 10).as_bytes()).unwrap_err();
        assert_eq!(p.field.as_deref(), Some("depth"));
    }
}
