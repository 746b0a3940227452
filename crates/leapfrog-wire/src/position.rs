//! The wire form of positions, moves and results.

use std::sync::Arc;

use jump_capture as jc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Invalid, Refusal};

/// A position in a request.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"board": "WYRG/W1YR/GGWW/RYWY", "ply": 3, "scores": [4, 0, 2]}))]
pub struct PositionInput {
    /// The board string: ranks from the top down, separated by `/`; a piece
    /// is its kind's letter, a run of k empty cells the number k, a missing
    /// cell `-`.
    pub board: String,
    /// Plies played so far.
    #[schema(format = "uint32", minimum = 0, maximum = 4294967295_u64)]
    pub ply: u32,
    /// One score per player (each 0 to 4294967295): their number is the
    /// number of players.
    #[schema(min_items = 1, max_items = 64, value_type = Vec<Score>)]
    pub scores: Vec<u32>,
}

/// A score: a whole number of points from 0 to 4294967295.
#[derive(Debug, ToSchema)]
#[schema(as = Score, value_type = u32, format = "uint32", minimum = 0, maximum = 4294967295_u64)]
#[allow(dead_code)] // only read by the OpenAPI derive
pub struct Score(u32);

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The opening: each move removes one piece.
    Opening,
    /// Jumps.
    Playing,
    /// The player to move cannot move.
    Over,
}

impl From<jc::Phase> for Status {
    fn from(p: jc::Phase) -> Self {
        match p {
            jc::Phase::Opening => Status::Opening,
            jc::Phase::Playing => Status::Playing,
            jc::Phase::Over => Status::Over,
        }
    }
}

impl From<Status> for jc::Phase {
    fn from(s: Status) -> Self {
        match s {
            Status::Opening => jc::Phase::Opening,
            Status::Playing => jc::Phase::Playing,
            Status::Over => jc::Phase::Over,
        }
    }
}

/// A position in a response: the request form plus derived, read-only
/// fields.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1],
    "to_move": 0, "players": 2, "phase": "playing",
    "notation": "1OO/1OO/1OO 2 1,1",
    "grid": [[null, "O", "O"], [null, "O", "O"], [null, "O", "O"]]
}))]
pub struct PositionView {
    /// The board string, canonical.
    pub board: String,
    /// Plies played.
    #[schema(format = "uint32")]
    pub ply: u32,
    /// Scores, one per player.
    #[schema(format = "uint32")]
    pub scores: Vec<u32>,
    /// The player to move (from 0).
    #[schema(read_only)]
    pub to_move: usize,
    /// The number of players.
    #[schema(read_only)]
    pub players: usize,
    /// Opening, playing or over.
    #[schema(read_only)]
    pub phase: Status,
    /// The position string: `<board> <ply> <scores>`.
    #[schema(read_only)]
    pub notation: String,
    /// Ranks from the top down; each cell a kind letter, null when empty,
    /// or `-` when the cell does not exist.
    #[schema(read_only)]
    #[schema(value_type = Vec<Vec<Option<String>>>)]
    pub grid: Vec<Vec<GridCell>>,
}

/// One cell of `PositionView::grid`: a letter, `-`, or null; written to
/// JSON without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridCell(pub Option<char>);

impl Serialize for GridCell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(c) => s.serialize_str(c.encode_utf8(&mut [0; 4])),
            None => s.serialize_none(),
        }
    }
}

impl PositionView {
    /// The view of a position.
    pub fn of(pos: &jc::Position) -> PositionView {
        let grid = pos.grid();
        let rows = (0..grid.rows())
            .rev()
            .map(|r| {
                (0..grid.cols())
                    .map(|f| {
                        GridCell(match jc::Cell::new(f, r).and_then(|c| grid.get(c)) {
                            Some(jc::Square::Piece(l)) => Some(l),
                            Some(jc::Square::Missing) => Some('-'),
                            _ => None,
                        })
                    })
                    .collect()
            })
            .collect();
        // The position string begins with the board's (up to its first
        // space): formatted once, not twice.
        let notation = jc::Setup { grid, ply: pos.ply(), scores: pos.scores().to_vec() }.to_string();
        PositionView {
            board: notation.split(' ').next().unwrap_or_default().to_string(),
            ply: pos.ply(),
            scores: pos.scores().to_vec(),
            to_move: pos.to_move(),
            players: pos.players(),
            phase: pos.phase().into(),
            notation,
            grid: rows,
        }
    }
}

impl PositionInput {
    /// The setup it describes.
    ///
    /// # Errors
    ///
    /// What is invalid: the board's rank and file, or the field.
    pub fn setup(&self) -> Result<jc::Setup, Invalid> {
        let grid: jc::Grid = self
            .board
            .parse()
            .map_err(|e: jc::ParseBoardError| Invalid::new(Refusal::InvalidPosition, e, "position.board"))?;
        if self.scores.is_empty() || self.scores.len() > jc::MAX_PLAYERS {
            return Err(Invalid::new(
                Refusal::InvalidPosition,
                format!("{} scores; give one per player, 1 to {}", self.scores.len(), jc::MAX_PLAYERS),
                "position.scores",
            ));
        }
        Ok(jc::Setup { grid, ply: self.ply, scores: self.scores.clone() })
    }

    /// The position under `rules`.
    ///
    /// # Errors
    ///
    /// What does not fit.
    pub fn position(
        &self,
        rules: impl Into<Arc<jc::Rules>>,
        setup: &jc::Setup,
    ) -> Result<jc::Position, Invalid> {
        jc::Position::from_setup(rules, setup).map_err(|e| {
            let field =
                if matches!(e, jc::PositionError::Players(_)) { "position.scores" } else { "position.board" };
            Invalid::new(Refusal::InvalidPosition, e, field)
        })
    }
}

/// A move in a request: its path of cells. A removal is one cell.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"path": ["c3", "e3", "e5"]}))]
pub struct MoveInput {
    /// The cells of the path, start first.
    pub path: Vec<String>,
}

impl MoveInput {
    /// The move it describes.
    ///
    /// # Errors
    ///
    /// The cell that could not be read.
    pub fn to_move(&self, field: &str) -> Result<jc::Move, Invalid> {
        if self.path.is_empty() {
            return Err(Invalid::new(Refusal::InvalidNotation, "a move needs at least one cell", field));
        }
        if self.path.len() > 26 * 26 {
            return Err(Invalid::new(
                Refusal::InvalidNotation,
                "a path cannot be longer than the board",
                field,
            ));
        }
        let cells = self
            .path
            .iter()
            .enumerate()
            .map(|(i, c)| {
                c.parse::<jc::Cell>().map_err(|e| {
                    Invalid::new(Refusal::InvalidNotation, format!("'{c}': {e}"), &format!("{field}[{i}]"))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        jc::Move::new(cells).map_err(|e| Invalid::new(Refusal::InvalidNotation, e, field))
    }
}

/// A move in a response: its path, notation, captures and gain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = json!({"path": ["c3", "e3", "e5"], "notation": "c3xe3xe5", "captures": ["d3", "e4"], "gain": 5}))]
pub struct MoveView {
    /// The cells of the path.
    pub path: Vec<String>,
    /// The move in notation: cells joined by `x`.
    pub notation: String,
    /// The cells of the pieces it takes off: the jumped ones, or the
    /// removed one.
    pub captures: Vec<String>,
    /// Points it scores for the mover.
    #[schema(format = "uint32")]
    pub gain: u32,
}

fn names(cells: &[jc::Cell]) -> Vec<String> {
    cells.iter().map(ToString::to_string).collect()
}

impl MoveView {
    /// The view of a legal move as the engine walks it.
    pub fn of(m: jc::ScoredPath<'_>) -> MoveView {
        let notation = names(m.path).join("x");
        let captures = m.captures().map(|c| c.to_string()).collect();
        MoveView { path: names(m.path), notation, captures, gain: m.gain }
    }

    /// The view of a played (or checked) move.
    pub fn of_played(played: &jc::Played) -> MoveView {
        MoveView::of(jc::ScoredPath { path: played.mv.path(), gain: played.gain })
    }
}

/// One player's place in a result.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Standing {
    /// The player (from 0).
    pub player: usize,
    /// Their score.
    pub score: u32,
    /// 1 for the winners; otherwise 1 + the number of players above.
    pub rank: usize,
    /// Whether this seat resigned (or ran out of time): it ranks after
    /// every seat that did not, and never wins.
    #[serde(default)]
    pub resigned: bool,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Ended {
    /// The player to move could not move.
    #[default]
    Play,
    /// Resignations (or time-outs) ended it first: the other player of two
    /// resigned, or every person did.
    Resignation,
    /// A rated game ended before every seat had made its first move: it
    /// is aborted — over, unrated, counted nowhere (rule book §13).
    Aborted,
}

/// The result of a finished game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"winners": [0, 2], "shared": true, "ended": "play", "standings": [
    {"player": 0, "score": 7, "rank": 1, "resigned": false}, {"player": 2, "score": 7, "rank": 1, "resigned": false},
    {"player": 1, "score": 3, "rank": 3, "resigned": false}
]}))]
pub struct Outcome {
    /// The winners, in player order.
    pub winners: Vec<usize>,
    /// Whether two or more players share the win.
    pub shared: bool,
    /// Every player, best first.
    pub standings: Vec<Standing>,
    /// How it ended.
    #[serde(default)]
    pub ended: Ended,
    /// A rated game's rating changes, one per player whose account still
    /// exists; left out for any other result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub ratings: Option<Vec<RatingChangeView>>,
    /// Peg solitaire (`end` = `pieces_left`): what is left; left out for
    /// any other game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub solitaire: Option<SolitaireView>,
}

/// How a game of peg solitaire ended.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"pieces_left": 1, "solved": true, "perfect": true, "last": "d4"}))]
pub struct SolitaireView {
    /// Pieces left on the board.
    pub pieces_left: usize,
    /// One piece left.
    pub solved: bool,
    /// On a board with a centre (the cross, a hexagon): whether the one
    /// piece left stands on it; null where the board has no centre.
    pub perfect: Option<bool>,
    /// The last piece's cell, when one is left.
    pub last: Option<String>,
}

impl SolitaireView {
    /// The view of the crate's solitaire result.
    pub fn of(s: &jc::Solitaire) -> SolitaireView {
        SolitaireView {
            pieces_left: s.pieces_left,
            solved: s.solved,
            perfect: s.perfect,
            last: s.last.map(|c| c.to_string()),
        }
    }
}

/// A player's rating before and after a rated game (rounded to a tenth).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingChangeView {
    /// The player.
    pub player: usize,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The deviation after it.
    pub deviation: f64,
}

/// A number rounded to a tenth, as ratings are shown.
pub fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Outcome {
    /// The view of a result of play.
    pub fn of(o: &jc::Outcome) -> Outcome {
        Outcome {
            winners: o.winners.clone(),
            shared: o.is_shared(),
            standings: o
                .standings
                .iter()
                .map(|s| Standing { player: s.player, score: s.score, rank: s.rank, resigned: false })
                .collect(),
            ended: Ended::Play,
            ratings: None,
            solitaire: o.solitaire.as_ref().map(SolitaireView::of),
        }
    }

    /// The view of a persisted game's result, resignations included.
    pub fn of_game(r: &leapfrog_core::game::GameResult) -> Outcome {
        let mut view = Outcome::of(&r.outcome);
        for s in &mut view.standings {
            s.resigned = r.resigned.get(s.player).copied().unwrap_or(false);
        }
        view.ended = match (r.aborted, r.by_resignation) {
            (true, _) => Ended::Aborted,
            (false, true) => Ended::Resignation,
            (false, false) => Ended::Play,
        };
        view.ratings = (!r.ratings.is_empty()).then(|| {
            r.ratings
                .iter()
                .map(|c| RatingChangeView {
                    player: c.player,
                    before: tenth(c.before.0),
                    after: tenth(c.after.0),
                    deviation: tenth(c.after.1),
                })
                .collect()
        });
        view
    }
}

/// The jumps from one cell: each node a landing cell one more jump away.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct JumpTree {
    /// The cell.
    pub cell: String,
    /// The cell jumped over to get here (null at the root).
    pub over: Option<String>,
    /// Where the path can go next.
    #[schema(no_recursion)]
    pub next: Vec<JumpTree>,
}

impl JumpTree {
    /// The view of a jump tree.
    pub fn of(t: &jc::JumpTree) -> JumpTree {
        JumpTree {
            cell: t.cell.to_string(),
            over: t.over.map(|c| c.to_string()),
            next: t.next.iter().map(JumpTree::of).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_played_move_lists_path_captures_and_gain() {
        let rules = jc::Rules::new(jc::Preset::Old.spec().with_size(3, 3)).unwrap();
        let mut pos = jc::Position::from_setup(rules, &"1OO/1OO/1OO 2 1,1".parse().unwrap()).unwrap();
        let played = pos.play(&"c2xa2".parse().unwrap()).unwrap();
        assert_eq!(
            serde_json::to_value(MoveView::of_played(&played)).unwrap(),
            serde_json::json!({"path": ["c2", "a2"], "notation": "c2xa2", "captures": ["b2"], "gain": 1})
        );
        // A removal captures the piece it lifts (and scores it in `old`).
        let (mut pos, _) = jc::Position::start(jc::Preset::Old.rules(), 2, Some(1)).unwrap();
        let played = pos.play(&"c10".parse().unwrap()).unwrap();
        assert_eq!(
            serde_json::to_value(MoveView::of_played(&played)).unwrap(),
            serde_json::json!({"path": ["c10"], "notation": "c10", "captures": ["c10"], "gain": 1})
        );
    }
}
