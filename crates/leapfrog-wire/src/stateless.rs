//! The stateless operations — presets, a deal, a position's legal moves,
//! a move applied — with their request and answer forms: each request
//! carries the rules and the position, nothing is stored, and a refusal is
//! an [`Invalid`] naming the field at fault. A server answers them over
//! HTTP; any other front end of the engine calls them as they are.

use jump_capture as jc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    Invalid, MoveInput, MoveView, Outcome, PositionInput, PositionView, PresetId, Refusal, RuleSet, Rules,
    SeedInput, Status, seed_string,
};

/// A preset rule set.
#[derive(Debug, Serialize, ToSchema)]
pub struct PresetInfo {
    /// Its identifier, for `rules.preset`.
    pub id: PresetId,
    /// The game's name as people say it (a page shows it; a record's
    /// `Game` tag is it).
    pub name: String,
    /// How it plays.
    pub description: String,
    /// The outline of its board: `rectangle`, `hexagon` (on a square grid
    /// in axial coordinates, `hex` directions), `triangle` or `cross`.
    #[schema(example = "hexagon")]
    pub shape: String,
    /// The board at the start, as in a position string: `-` a cell that
    /// does not exist, a digit empty cells, a letter a piece (for presets
    /// dealt at random, the deal of seed 0).
    pub board: String,
    /// The complete rule set on its default board.
    pub rules: RuleSet,
}

/// Every preset, with its complete rule set and its board at the start.
pub fn presets() -> Vec<PresetInfo> {
    jc::Preset::ALL
        .into_iter()
        .map(|p| {
            let rules = p.rules();
            let board = jc::Position::start(rules.clone(), default_players(&rules), Some(0))
                .map(|(pos, _)| pos.grid().to_string())
                .unwrap_or_default();
            PresetInfo {
                id: p.into(),
                name: p.title().into(),
                description: p.description().into(),
                shape: p.shape().name().into(),
                board,
                rules: RuleSet::from_rules(&rules),
            }
        })
        .collect()
}

/// The players of a deal that does not say: two, or the rules' nearest
/// count (one for peg solitaire).
fn default_players(rules: &jc::Rules) -> usize {
    let range = rules.player_range();
    2.clamp(*range.start(), *range.end())
}

/// A request for a new game's starting position.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rules": {"preset": "murray"}, "players": 3, "seed": 42}))]
pub struct SetupRequest {
    /// The rule set.
    pub rules: Rules,
    /// Number of players (default 2, or the rule set's nearest count: 1 for
    /// peg solitaire; 1 to 64, within the rule set's range).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 64)]
    pub players: Option<usize>,
    /// Seed of the deal (a decimal string or a number); drawn and returned
    /// when omitted or null.
    #[serde(default)]
    pub seed: Option<SeedInput>,
}

/// A new game's starting position.
#[derive(Debug, Serialize, ToSchema)]
pub struct SetupResponse {
    /// The complete rule set.
    pub rules: RuleSet,
    /// The seed used, as a decimal string (seeds go past what JavaScript
    /// numbers hold exactly): send it again for the same board.
    #[schema(pattern = "^[0-9]{1,20}$", example = "13202136478012763868")]
    pub seed: String,
    /// The starting position.
    pub position: PositionView,
}

/// Deals the starting position of a new game: the same rules and seed
/// always give the same board.
///
/// # Errors
///
/// The rule set, or a number of players it does not take.
pub fn setup(req: SetupRequest) -> Result<SetupResponse, Invalid> {
    let (pos, seed) = deal(&req)?;
    let full = RuleSet::from_rules(pos.rules());
    Ok(SetupResponse { rules: full, seed: seed_string(seed), position: PositionView::of(&pos) })
}

/// The engine's starting position a setup request deals, with its seed
/// (what [`setup`] answers, before its JSON form).
///
/// # Errors
///
/// As [`setup`].
pub fn deal(req: &SetupRequest) -> Result<(jc::Position, u64), Invalid> {
    let rules = req.rules.resolve(None)?;
    let players = req.players.unwrap_or_else(|| default_players(&rules));
    jc::Position::start(rules, players, req.seed.map(|s| s.0))
        .map_err(|e| Invalid::new(Refusal::InvalidValue, e, "players"))
}

/// A request for the legal moves of a position.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "rules": {"preset": "old"},
    "position": {"board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1]},
    "limit": 100
}))]
pub struct LegalMovesRequest {
    /// The rule set.
    pub rules: Rules,
    /// The position.
    pub position: PositionInput,
    /// Only the moves starting on this cell; the answer then also holds
    /// the jump tree from it.
    #[serde(default)]
    pub from: Option<String>,
    /// Moves per page, 1 to 1000 (default 100).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1000)]
    pub limit: Option<usize>,
    /// Where to go on from: a previous answer's `next_cursor`.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// Resolves a request's rules and position together: the board's shape
/// comes from the position unless the rules give one.
pub fn rules_and_position(rules: &Rules, position: &PositionInput) -> Result<jc::Position, Invalid> {
    // What nearly every request sends, read in one pass: a plain board
    // under preset rules already made for its size.
    let quick =
        jc::Position::from_board_str(&position.board, position.ply, &position.scores, |rows, cols| {
            rules.cached(rows, cols)
        });
    match quick {
        Some(pos) => Ok(pos),
        None => careful_position(rules, position),
    }
}

/// [`rules_and_position`] the careful way, through a grid: everything the
/// one-pass reader declines, and the reason for every refusal.
fn careful_position(rules: &Rules, position: &PositionInput) -> Result<jc::Position, Invalid> {
    let setup = position.setup()?;
    let rules = rules.resolve_cached(Some(&setup.grid))?;
    position.position(rules, &setup)
}

/// A request to play one move.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "rules": {"preset": "old"},
    "position": {"board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1]},
    "move": {"path": ["c2", "a2"]}
}))]
pub struct ApplyRequest {
    /// The rule set.
    pub rules: Rules,
    /// The position before the move.
    pub position: PositionInput,
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveInput,
}

/// The position after a move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApplyResponse {
    /// The position after the move.
    pub position: PositionView,
    /// The move as played.
    #[serde(rename = "move")]
    pub mv: MoveView,
    /// Opening, playing or over, after the move.
    pub status: Status,
    /// The result, when the game is over.
    pub result: Option<Outcome>,
}

/// Plays one move on a position, or refuses it with the reason.
///
/// # Errors
///
/// The rule set, the position, the move's notation, or the move itself.
pub fn apply(req: ApplyRequest) -> Result<ApplyResponse, Invalid> {
    let mut pos = rules_and_position(&req.rules, &req.position)?;
    let mv = req.mv.to_move("move.path")?;
    let played = pos.play(&mv).map_err(|e| Invalid::new(Refusal::IllegalMove, e, "move.path"))?;
    Ok(ApplyResponse {
        position: PositionView::of(&pos),
        mv: MoveView::of_played(&played),
        status: pos.phase().into(),
        result: pos.outcome().as_ref().map(Outcome::of),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request's position is read the same, or refused for the same
    /// reason, by the service (the one-pass reader once the rule set is
    /// made) as by the careful path (grid, then position): plain boards,
    /// boards with missing cells, wrong sizes, letters and player counts,
    /// bad board strings, sizes given by the request, custom rules.
    #[test]
    fn positions_read_the_same_with_the_rules_made_or_not() {
        let murray: Rules = serde_json::from_value(serde_json::json!({"preset": "murray"})).unwrap();
        let sized: Rules =
            serde_json::from_value(serde_json::json!({"preset": "old", "rows": 4, "cols": 5})).unwrap();
        let custom: Rules = serde_json::from_value(serde_json::json!({
            "rows": 3, "cols": 4,
            "kinds": [{"letter": "O", "name": "frog", "value": 1}]
        }))
        .unwrap();
        let boards = [
            (&murray, "WYRG/W1YR/GGWW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/W.YR/GGWW/RY2", 3, vec![4, 1, 2]),
            (&murray, "WYRG/W-YR/GGWW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/W1YR/GGOW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/W1YR/GGWW/RYWY", 1, vec![]),
            (&murray, "WYRG/W01R/GGWW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/WYR/GGWW/RYWY", 1, vec![0, 0]),
            (&murray, "WYRG/W1YR/GGWW/", 1, vec![0, 0]),
            (&sized, "OOOOO/OO1OO/OOOOO/OOOOO", 2, vec![1, 0]),
            (&sized, "OOOO/OO1O/OOOO/OOOO", 2, vec![1, 0]),
            (&custom, "OOOO/O1OO/OOOO", 2, vec![1, 0]),
        ];
        for (rules, board, ply, scores) in boards {
            let input = PositionInput { board: board.to_string(), ply, scores };
            // (This makes the rules of the board's size, where it has one.)
            let careful = careful_position(rules, &input);
            let served = rules_and_position(rules, &input);
            match (careful, served) {
                (Ok(a), Ok(b)) => assert!(a == b && a.to_string() == b.to_string(), "{board}"),
                (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{board}"),
                (a, b) => panic!("{board}: {a:?} then {b:?}"),
            }
        }
    }
}
