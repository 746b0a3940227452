//! The data of a game's events, as its stream and its log carry them, and
//! its history (a page of its `move` events' records).

use serde::Serialize;
use utoipa::ToSchema;

use crate::game::{GameStatusView, GameView, rfc3339};
use crate::{Outcome, PositionView};
use leapfrog_core::game::{Game, HistoryMove};

/// A move of a game's history: the data of a `move` event, too.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveRecord {
    /// The ply it was played at (0 for the first move).
    pub ply: u32,
    /// Who played it.
    pub player: usize,
    /// The cells of its path.
    pub path: Vec<String>,
    /// Its notation.
    pub notation: String,
    /// The cells of the pieces it took off.
    pub captures: Vec<String>,
    /// The kinds of those pieces, by letter, in the same order (what each
    /// was worth is in the rules' kinds).
    #[schema(inline, value_type = Vec<String>, example = json!(["G", "R"]))]
    pub kinds: Vec<String>,
    /// Points it scored.
    #[schema(format = "uint32")]
    pub gain: u32,
    /// When (RFC 3339).
    pub at: String,
    /// Whether the computer made it.
    pub computer: bool,
}

impl MoveRecord {
    /// The record of a move of the history.
    pub fn of(m: &HistoryMove) -> MoveRecord {
        MoveRecord {
            ply: m.ply,
            player: m.player,
            path: m.mv.path().iter().map(ToString::to_string).collect(),
            notation: m.mv.to_string(),
            captures: m.captures.iter().map(|c| c.cell.clone()).collect(),
            kinds: m.captures.iter().map(|c| c.kind.to_string()).collect(),
            gain: m.gain,
            at: rfc3339(m.at),
            computer: m.computer,
        }
    }
}

/// The data of a `move` event: the move (the fields of a `MoveRecord`)
/// and the game just after it, so that a follower draws the game from the
/// event alone.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveEvent {
    /// The move.
    #[serde(flatten)]
    pub record: MoveRecord,
    /// The game just after the move. Absent only from the moves of games
    /// stored before the event log, whose events were made from their rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<AfterMove>,
}

/// What a move changed in its game, besides the history.
#[derive(Debug, Serialize, ToSchema)]
pub struct AfterMove {
    /// The game's version after the move (for `If-Match`).
    pub version: i64,
    /// The position after the move, in brief: a `PositionView`'s grid and
    /// notation follow from its board, ply and scores.
    pub position: PositionState,
    /// The game's state after the move.
    pub status: GameStatusView,
    /// The result, once over.
    #[schema(required = true)]
    pub result: Option<Outcome>,
    /// When the move was stored (RFC 3339).
    pub updated_at: String,
    /// When the next seat to move runs out of time (RFC 3339), under a
    /// move time limit.
    #[schema(required = true)]
    pub turn_ends_at: Option<String>,
}

/// A position in brief: what a `PositionView` holds but its grid and
/// notation, which follow from these.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionState {
    /// The board string, canonical (ranks from the top, `/` between them;
    /// a digit run counts empty cells, `-` a cell that does not exist, a
    /// letter a piece).
    pub board: String,
    /// Plies played.
    #[schema(format = "uint32")]
    pub ply: u32,
    /// Scores, one per player.
    #[schema(format = "uint32")]
    pub scores: Vec<u32>,
    /// The player to move (from 0).
    pub to_move: usize,
    /// Opening, playing or over.
    pub phase: crate::position::Status,
}

impl MoveEvent {
    /// The event of move `m`; `after` is the game just after it, if known.
    pub fn of(m: &HistoryMove, after: Option<&Game>) -> MoveEvent {
        MoveEvent {
            record: MoveRecord::of(m),
            game: after.map(|g| AfterMove {
                version: g.version(),
                position: PositionState {
                    board: g.position().grid().to_string(),
                    ply: g.position().ply(),
                    scores: g.position().scores().to_vec(),
                    to_move: g.position().to_move(),
                    phase: g.position().phase().into(),
                },
                status: GameStatusView::of(g),
                result: g.result().as_ref().map(Outcome::of_game),
                updated_at: rfc3339(g.updated_at()),
                turn_ends_at: g.turn_ends_at().map(rfc3339),
            }),
        }
    }
}

/// A game's history.
#[derive(Debug, Serialize, ToSchema)]
pub struct History {
    /// Every move, in order.
    pub moves: Vec<MoveRecord>,
}

/// The data of a stream's seat events (`joined`, `left`, `started`,
/// `resigned`, `timed_out`, `abandoned`): the seat concerned and the game
/// after the change.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameChange {
    /// The seat that joined, left, resigned or ran out of time; null for
    /// `started` and `abandoned`.
    #[schema(required = true)]
    pub player: Option<usize>,
    /// The game after the change.
    pub game: GameView,
}

/// The data of the `rematch` event: the game that replays this one.
#[derive(Debug, Serialize, ToSchema)]
pub struct RematchEvent {
    /// The new game's id.
    pub id: String,
}

/// The data of the `over` event: the end of play (only a `rematch` may
/// follow it).
#[derive(Debug, Serialize, ToSchema)]
pub struct GameOverEvent {
    /// Always `over`.
    pub status: GameStatusView,
    /// The result.
    #[schema(required = true)]
    pub result: Option<Outcome>,
    /// The final position.
    pub position: PositionView,
}

impl GameOverEvent {
    /// The event of a finished game.
    pub fn of(game: &Game) -> GameOverEvent {
        GameOverEvent {
            status: GameStatusView::Over,
            result: game.result().as_ref().map(Outcome::of_game),
            position: PositionView::of(game.position()),
        }
    }
}
