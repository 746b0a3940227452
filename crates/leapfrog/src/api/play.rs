//! The wire form of positions, moves and results.

use std::sync::Arc;

use jump_capture as jc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::problem::{ApiError, Refusal};

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
    #[schema(format = "uint32")]
    pub ply: u32,
    /// One score per player: their number is the number of players.
    #[schema(format = "uint32")]
    pub scores: Vec<u32>,
}

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
        PositionView {
            board: grid.to_string(),
            ply: pos.ply(),
            scores: pos.scores().to_vec(),
            to_move: pos.to_move(),
            players: pos.players(),
            phase: pos.phase().into(),
            notation: pos.to_string(),
            grid: rows,
        }
    }
}

impl PositionInput {
    /// The setup it describes.
    ///
    /// # Errors
    ///
    /// A 422 naming the board's rank and file, or the field.
    pub fn setup(&self) -> Result<jc::Setup, ApiError> {
        let grid: jc::Grid = self.board.parse().map_err(|e: jc::ParseBoardError| {
            ApiError::refuse(Refusal::InvalidPosition, e, "position.board")
        })?;
        if self.scores.is_empty() || self.scores.len() > jc::MAX_PLAYERS {
            return Err(ApiError::refuse(
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
    /// A 422 saying what does not fit.
    pub fn position(
        &self,
        rules: impl Into<Arc<jc::Rules>>,
        setup: &jc::Setup,
    ) -> Result<jc::Position, ApiError> {
        jc::Position::from_setup(rules, setup).map_err(|e| {
            let field =
                if matches!(e, jc::PositionError::Players(_)) { "position.scores" } else { "position.board" };
            ApiError::refuse(Refusal::InvalidPosition, e, field)
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
    /// A 422 naming the cell that could not be read.
    pub fn to_move(&self, field: &str) -> Result<jc::Move, ApiError> {
        if self.path.is_empty() {
            return Err(ApiError::refuse(Refusal::InvalidNotation, "a move needs at least one cell", field));
        }
        if self.path.len() > 26 * 26 {
            return Err(ApiError::refuse(
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
                    ApiError::refuse(
                        Refusal::InvalidNotation,
                        format!("'{c}': {e}"),
                        &format!("{field}[{i}]"),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        jc::Move::new(cells).map_err(|e| ApiError::refuse(Refusal::InvalidNotation, e, field))
    }
}

/// A cell name on the wire (`c3`), written straight from the cell.
#[derive(Debug, Clone, Copy)]
pub struct CellName(pub jc::Cell);

/// Per rank (from 0): its name's digits as bytes 1 and up of a
/// little-endian word (byte 0 is the file's), and the name's length.
const RANK_WORDS: [(u64, usize); 26] = {
    let mut out = [(0, 0); 26];
    let mut r = 0;
    while r < 26 {
        let n = r as u64 + 1;
        out[r] = if n < 10 {
            ((b'0' as u64 + n) << 8, 2)
        } else {
            ((b'0' as u64 + n / 10) << 8 | (b'0' as u64 + n % 10) << 16, 3)
        };
        r += 1;
    }
    out
};

/// A cell's name as little-endian bytes of a word, and its length: a
/// lookup, not a branch on the number of digits (which mispredicts).
#[inline(always)]
fn name_word(c: jc::Cell) -> (u64, usize) {
    file_rank_word(c.file(), c.rank())
}

/// [`name_word`] of the cell at `file` and `rank` (from 0).
#[inline(always)]
const fn file_rank_word(file: u8, rank: u8) -> (u64, usize) {
    let (digits, len) = RANK_WORDS[rank as usize];
    ((b'a' + file) as u64 | digits, len)
}

/// The index of the cell at `file` and `rank` in the tables below.
#[inline(always)]
fn slot(file: u8, rank: u8) -> usize {
    usize::from(rank) * 26 + usize::from(file)
}

/// [`slot`] of a cell.
#[inline(always)]
fn cell_slot(c: jc::Cell) -> usize {
    slot(c.file(), c.rank())
}

/// The name of the cell at a [`cell_slot`], as [`name_word`] gives it.
const fn slot_name(i: usize) -> (u64, usize) {
    file_rank_word((i % 26) as u8, (i / 26) as u8)
}

/// A word of up to seven bytes of text, with its length in the top byte:
/// one load gives both. The byte under the length is stored too but is
/// past the text: the next store of a [`MoveWriter`] covers it.
const fn with_len(word: u64, len: usize) -> u64 {
    word | (len as u64) << 56
}

/// Per cell ([`cell_slot`]): `"c3"` after a zero lead byte (a `[` or `,`
/// goes there), with its length.
static QUOTED_NAMES: [u64; 676] = {
    let mut out = [0; 676];
    let mut i = 0;
    while i < 676 {
        let (name, len) = slot_name(i);
        out[i] = with_len((b'"' as u64) << 8 | name << 16 | (b'"' as u64) << (8 * (len + 2)), len + 3);
        i += 1;
    }
    out
};

/// Per cell ([`cell_slot`]): `xc3`, with its length.
static JOINED_NAMES: [u64; 676] = {
    let mut out = [0; 676];
    let mut i = 0;
    while i < 676 {
        let (name, len) = slot_name(i);
        out[i] = with_len(b'x' as u64 | name << 8, len + 1);
        i += 1;
    }
    out
};

/// The gains below this are written from [`GAIN_ENDS`].
const GAIN_TABLE: usize = 256;

/// Per gain below [`GAIN_TABLE`]: `:7}`, `:12}`, `:255}`, with its length.
static GAIN_ENDS: [u64; GAIN_TABLE] = {
    let mut out = [0; GAIN_TABLE];
    let mut g = 0;
    while g < GAIN_TABLE {
        let (end, len) = gain_end(g as u32);
        out[g] = with_len(end as u64, len);
        g += 1;
    }
    out
};

/// A gain's end of a move, `:` then its digits then `}`, as little-endian
/// bytes (most significant digit first: each digit found, least
/// significant first, pushes the others up), and its length (3 to 12).
const fn gain_end(gain: u32) -> (u128, usize) {
    let (mut digits, mut len, mut rest) = (0u128, 0, gain);
    loop {
        digits = digits << 8 | (b'0' + (rest % 10) as u8) as u128;
        len += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    (b':' as u128 | digits << 8 | (b'}' as u128) << (8 * (len + 1)), len + 2)
}

/// Writes a cell's name (a letter and one or two digits) into `out`;
/// returns its length.
fn cell_name(c: jc::Cell, out: &mut [u8]) -> usize {
    let (word, len) = name_word(c);
    out[..len].copy_from_slice(&word.to_le_bytes()[..len]);
    len
}

impl Serialize for CellName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // No formatter, no allocation.
        let mut buf = [0u8; 3];
        let len = cell_name(self.0, &mut buf);
        s.serialize_str(std::str::from_utf8(&buf[..len]).unwrap_or("?"))
    }
}

/// A move's notation on the wire (`c3xe3xe5`), written straight from it.
#[derive(Debug, Clone, Copy)]
pub struct Notation<'a>(pub &'a jc::Move);

impl Serialize for Notation<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // A cell and its separator take at most 4 bytes: paths of up to 64
        // cells are written on the stack, longer ones through the formatter.
        let path = self.0.path();
        if path.len() > 64 {
            return s.collect_str(&self.0);
        }
        let mut buf = [0u8; 256];
        let mut len = 0;
        for (i, &c) in path.iter().enumerate() {
            if i > 0 {
                buf[len] = b'x';
                len += 1;
            }
            len += cell_name(c, &mut buf[len..]);
        }
        s.serialize_str(std::str::from_utf8(&buf[..len]).unwrap_or("?"))
    }
}

/// A move in a response: its path, notation, captures and gain, all
/// written from the move itself when serialized.
#[derive(Debug, Clone)]
pub struct MoveView {
    /// The move.
    pub mv: jc::Move,
    /// Points it scores for the mover.
    pub gain: u32,
}

// The wire form of `MoveView`, for the OpenAPI document.
/// A move in a response.
#[derive(ToSchema)]
#[schema(as = MoveView)]
#[schema(example = json!({"path": ["c3", "e3", "e5"], "notation": "c3xe3xe5", "captures": ["d3", "e4"], "gain": 5}))]
#[allow(dead_code)] // only read by the OpenAPI derive
struct MoveViewDoc {
    /// The cells of the path.
    path: Vec<String>,
    /// The move in notation: cells joined by `x`.
    notation: String,
    /// The cells of the pieces it takes off: the jumped ones, or the
    /// removed one.
    captures: Vec<String>,
    /// Points it scores for the mover.
    gain: u32,
}

schema_of!(MoveView => MoveViewDoc);

impl Serialize for MoveView {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        struct Cells<'a>(&'a [jc::Cell]);
        impl Serialize for Cells<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.iter().map(|&c| CellName(c)))
            }
        }
        struct Captures<'a>(&'a jc::Move);
        impl Serialize for Captures<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                if self.0.is_removal() {
                    s.collect_seq(std::iter::once(CellName(self.0.from())))
                } else {
                    s.collect_seq(self.0.jumped().map(CellName))
                }
            }
        }
        let mut out = s.serialize_struct("MoveView", 4)?;
        out.serialize_field("path", &Cells(self.mv.path()))?;
        out.serialize_field("notation", &Notation(&self.mv))?;
        out.serialize_field("captures", &Captures(&self.mv))?;
        out.serialize_field("gain", &self.gain)?;
        out.end()
    }
}

/// Writes moves' JSON — the bytes `serde_json` writes for their
/// [`MoveView`]s, without its formatter (cell names need no escaping) and
/// without building the moves — into a slice sized up front by
/// [`MoveWriter::room`]: each piece is assembled in a register and stored as one 8-byte word,
/// then the cursor moves on by its real length. No growth checks, no copy
/// calls.
#[derive(Debug)]
pub struct MoveWriter<'a> {
    /// Where the JSON goes.
    pub buf: &'a mut [u8],
    /// How much of it is written.
    pub at: usize,
}

/// The longest path a [`MoveWriter`] writes through a window.
const SHORT: usize = 10;
/// A [`MoveWriter`]'s window: 256 bytes for a move of up to [`SHORT`]
/// cells (it takes at most 240), so that its offsets fit in a byte, and 8
/// past them for the last word store.
const WINDOW: usize = 256 + 8;

impl MoveWriter<'_> {
    /// The most bytes a move of `cells` cells takes, with a comma before it
    /// and 8 spare for the last word store: at most 6 bytes a cell in the
    /// path and in the captures (`,"c10"`), 4 in the notation (`xc10`), 61
    /// for the names, brackets, gain and comma. Short moves get a whole
    /// [`WINDOW`], which spares the writer its bounds checks.
    pub fn room(cells: usize) -> usize {
        if cells <= SHORT { WINDOW } else { 16 * cells + 80 }
    }

    /// Writes `bytes`, of a length known where this is inlined.
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.buf[self.at..self.at + bytes.len()].copy_from_slice(bytes);
        self.at += bytes.len();
    }

    /// Writes the move along `path` scoring `gain`:
    /// `{"path":["c3","e3"],"notation":"c3xe3","captures":["d3"],"gain":2}`.
    /// The fixed text goes in 8-byte words; each name goes in one word with
    /// the quotes or separator around it.
    pub fn move_json(&mut self, path: &[jc::Cell], gain: u32) {
        let at = self.at;
        if path.len() <= SHORT
            && let Some(window) = self.buf.get_mut(at..at + WINDOW)
            && let Ok(window) = <&mut [u8; WINDOW]>::try_from(window)
        {
            // Offsets masked to a byte: every store is inside the window,
            // and the compiler sees it.
            let mut len = 0;
            write_move(path, gain, |(word, n)| {
                window[usize::from(len as u8)..][..8].copy_from_slice(&word.to_le_bytes());
                len += n;
            });
            self.at = at + len;
        } else {
            let buf = &mut *self.buf;
            let mut at = at;
            write_move(path, gain, |(word, n)| {
                buf[at..at + 8].copy_from_slice(&word.to_le_bytes());
                at += n;
            });
            self.at = at;
        }
    }
}

/// Writes the move along `path` scoring `gain` as [`MoveWriter::move_json`]
/// says, through `put`: each call stores a word and moves on by the length
/// given with it.
#[inline(always)]
fn write_move(path: &[jc::Cell], gain: u32, mut put: impl FnMut((u64, usize))) {
    // A word of the tables above, after `lead` if given.
    let sized = |word: u64, lead: u8| (word | u64::from(lead), (word >> 56) as usize);
    let text = |s: &[u8]| {
        let mut w = [0u8; 8];
        w[..s.len()].copy_from_slice(s);
        (u64::from_le_bytes(w), s.len())
    };
    put(text(b"{\"path\":"));
    // (No move has an empty path; the brackets still pair up.)
    if path.is_empty() {
        put((u64::from(b'['), 1));
    }
    let mut lead = b'[';
    for &c in path {
        put(sized(QUOTED_NAMES[cell_slot(c)], lead));
        lead = b',';
    }
    put(text(b"],\"notat"));
    put(text(b"ion\":\""));
    if let [first, rest @ ..] = path {
        // `xc3` without its `x`.
        let joined = JOINED_NAMES[cell_slot(*first)];
        put((joined >> 8, (joined >> 56) as usize - 1));
        for &c in rest {
            put(sized(JOINED_NAMES[cell_slot(c)], 0));
        }
    }
    put(text(b"\",\"captu"));
    put(text(b"res\":"));
    match path {
        [] => put((u64::from(b'['), 1)),
        [only] => put(sized(QUOTED_NAMES[cell_slot(*only)], b'[')),
        _ => {
            let mut lead = b'[';
            for pair in path.windows(2) {
                // Two cells two steps apart: the one between is their mean.
                let (a, b) = (pair[0], pair[1]);
                let over = slot((a.file() + b.file()) / 2, (a.rank() + b.rank()) / 2);
                put(sized(QUOTED_NAMES[over], lead));
                lead = b',';
            }
        }
    }
    put(text(b"],\"gain\""));
    if let Some(&end) = GAIN_ENDS.get(gain as usize) {
        put(sized(end, 0));
    } else {
        let (end, len) = gain_end(gain);
        put((end as u64, len.min(8)));
        if len > 8 {
            put(((end >> 64) as u64, len - 8));
        }
    }
}

impl MoveView {
    /// The view of a played (or checked) move.
    pub fn of(played: &jc::Played) -> MoveView {
        MoveView { mv: played.mv.clone(), gain: played.gain }
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
}

/// The result of a finished game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"winners": [0, 2], "shared": true, "standings": [
    {"player": 0, "score": 7, "rank": 1}, {"player": 2, "score": 7, "rank": 1}, {"player": 1, "score": 3, "rank": 3}
]}))]
pub struct Outcome {
    /// The winners, in player order.
    pub winners: Vec<usize>,
    /// Whether two or more players share the win.
    pub shared: bool,
    /// Every player, best first.
    pub standings: Vec<Standing>,
}

impl Outcome {
    /// The view of a result.
    pub fn of(o: &jc::Outcome) -> Outcome {
        Outcome {
            winners: o.winners.clone(),
            shared: o.is_shared(),
            standings: o
                .standings
                .iter()
                .map(|s| Standing { player: s.player, score: s.score, rank: s.rank })
                .collect(),
        }
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
    fn cell_name_words_spell_every_cell_name() {
        for f in 0..26 {
            for r in 0..26 {
                let c = jc::Cell::new(f, r).unwrap();
                let (word, len) = name_word(c);
                assert_eq!(&word.to_le_bytes()[..len], c.to_string().as_bytes(), "{c}");
                assert_eq!(word >> (8 * len), 0, "{c}: nothing past the name");
            }
        }
    }

    /// Removals, jumps and chains up to the longest written through a
    /// window and past it, with one- and two-digit ranks, and gains of every
    /// length up to the largest, read as serde writes them: through a
    /// window where there is room for one, and without, in exactly the
    /// room a move takes (less its comma).
    #[test]
    fn written_moves_are_the_serde_json_moves_for_every_gain() {
        let chain = |cells: usize| {
            (0..cells).map(|i| if i % 2 == 0 { "x24" } else { "z24" }).collect::<Vec<_>>().join("x")
        };
        let long = (0..40).map(|i| if i % 2 == 0 { "j10" } else { "l10" }).collect::<Vec<_>>().join("x");
        for text in
            ["c3", "z26", "c3xe3xe5", "a9xa11xc11xe9", "x24xz26", &chain(SHORT), &chain(SHORT + 1), &long]
        {
            let mv: jc::Move = text.parse().unwrap();
            let cells = mv.path().len();
            for gain in [0, 7, 10, 99, 100, 255, 256, 12_345_678, 123_456_789, 1_000_000_000, u32::MAX] {
                let view = MoveView { mv: mv.clone(), gain };
                for room in [MoveWriter::room(cells), 16 * cells + 80 - 1] {
                    let mut out = vec![0; room];
                    let mut w = MoveWriter { buf: &mut out, at: 0 };
                    w.move_json(mv.path(), gain);
                    let len = w.at;
                    assert_eq!(
                        String::from_utf8(out[..len].to_vec()).unwrap(),
                        serde_json::to_string(&view).unwrap(),
                        "{text} scoring {gain} in {room} bytes"
                    );
                }
            }
        }
    }

    #[test]
    fn an_empty_path_is_still_written_as_json() {
        let mut out = vec![0; MoveWriter::room(0)];
        let mut w = MoveWriter { buf: &mut out, at: 0 };
        w.move_json(&[], 0);
        let len = w.at;
        assert_eq!(&out[..len], br#"{"path":[],"notation":"","captures":[],"gain":0}"#);
    }

    #[test]
    fn cell_names_and_notation_are_written_as_the_engine_writes_them() {
        for (f, r) in [(0, 0), (2, 8), (2, 9), (25, 25)] {
            let c = jc::Cell::new(f, r).unwrap();
            assert_eq!(serde_json::to_value(CellName(c)).unwrap(), c.to_string());
        }
        // Short paths go through the stack buffer, long ones through the
        // formatter: both read as the engine's notation.
        for len in [1, 2, 64, 65, 200] {
            let path = (0..len).map(|i| jc::Cell::new((i % 26) as u8, ((i / 26) * 3 % 26) as u8).unwrap());
            let mv = jc::Move::new(path.collect()).unwrap();
            assert_eq!(serde_json::to_value(Notation(&mv)).unwrap(), mv.to_string(), "{len} cells");
        }
    }

    #[test]
    fn a_move_view_lists_path_captures_and_gain() {
        let jump: jc::Move = "c3xe3xe5".parse().unwrap();
        let v = serde_json::to_value(MoveView { mv: jump, gain: 5 }).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"path": ["c3", "e3", "e5"], "notation": "c3xe3xe5", "captures": ["d3", "e4"], "gain": 5})
        );
        let removal: jc::Move = "c10".parse().unwrap();
        let v = serde_json::to_value(MoveView { mv: removal, gain: 0 }).unwrap();
        assert_eq!(v["captures"], serde_json::json!(["c10"]));
    }
}
