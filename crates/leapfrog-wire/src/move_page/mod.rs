//! The fast JSON path of the legal-moves answer: a page of a position's
//! legal moves written as the engine walks them — the bytes `serde_json`
//! writes for a [`LegalMovesResponse`], with no move list and no
//! formatter. Over 500 lines because the fast path keeps its tests beside
//! it.
//!
//! The interface is [`write_page`], which gives a [`MovePage`] to send.
//! Everything below it is private and tested here against `serde_json`:
//! cell names and gains come from tables made at compile time (each word
//! with its length in one load), and a move of up to ten cells is written
//! through a fixed window, without bounds checks.

use std::io::Write;
use std::ops::ControlFlow;

use jump_capture as jc;
use serde::Serialize;
use utoipa::ToSchema;

use crate::budget;
use crate::{Invalid, JumpTree, MoveView, Refusal};

/// The most moves one page holds.
pub const MAX_PAGE: usize = 1000;
/// Moves per page when `limit` is not given.
pub const DEFAULT_PAGE: usize = 100;

/// A page of legal moves, sorted by notation. (The shape of the answer,
/// which [`write_page`] writes without building this.)
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMovesResponse {
    /// The number of all legal moves (of those from `from`, if given).
    #[schema(format = "uint64")]
    pub count: u64,
    /// This page of them.
    pub moves: Vec<MoveView>,
    /// The cursor of the next page; null on the last.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
    /// With `from`: the jumps from that cell as a tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub tree: Option<JumpTree>,
}

/// A written page: the JSON body of a [`LegalMovesResponse`].
#[derive(Debug)]
pub struct MovePage {
    /// The body is `json[skip..]`: the moves are written after room for
    /// the longest head (`{"count":…,"moves":[`), and the head goes in
    /// right before them once the count is known.
    json: Vec<u8>,
    skip: usize,
}

impl MovePage {
    /// The JSON body.
    pub fn to_json(&self) -> &[u8] {
        &self.json[self.skip..]
    }

    /// The buffer and where in it the body starts, for a server to send
    /// [`to_json`](Self::to_json) without a copy.
    pub fn into_parts(self) -> (Vec<u8>, usize) {
        (self.json, self.skip)
    }
}

/// A cursor is opaque to clients; inside it is the index of the next move.
fn parse_cursor(cursor: &str) -> Result<usize, Invalid> {
    cursor.strip_prefix('m').and_then(|n| usize::from_str_radix(n, 16).ok()).ok_or_else(|| {
        Invalid::new(Refusal::InvalidValue, "the cursor is not one this server gave out", "cursor")
    })
}

/// The head of a page before its moves, at its longest.
const PAGE_HEAD: usize = r#"{"count":,"moves":["#.len() + 20;

/// One page of `pos`'s legal moves — only those from the cell `from`, with
/// its jump tree, if given — of `limit` moves (1 to [`MAX_PAGE`], default
/// [`DEFAULT_PAGE`]) from a previous page's `cursor`.
///
/// Within the work budget of a request ([`budget::MOVES`] moves, or
/// [`budget::CELL_MOVES`] from one cell with its tree).
///
/// # Errors
///
/// A `limit` out of range, a cursor this server did not give out, a
/// `from` that is not a cell name, or a position whose moves are over
/// the budget.
pub fn write_page(
    pos: &jc::Position,
    from: Option<&str>,
    limit: Option<usize>,
    cursor: Option<&str>,
) -> Result<MovePage, Invalid> {
    write_counted_page(pos, from, limit, cursor, None)
}

/// [`write_page`], given the number of `pos`'s legal moves if it is known
/// already (it is counted otherwise).
pub fn write_counted_page(
    pos: &jc::Position,
    from: Option<&str>,
    limit: Option<usize>,
    cursor: Option<&str>,
    counted: Option<u64>,
) -> Result<MovePage, Invalid> {
    let limit = limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(Invalid::new(
            Refusal::InvalidValue,
            format!("limit {limit} is not from 1 to {MAX_PAGE}"),
            "limit",
        ));
    }
    let start = cursor.map(parse_cursor).transpose()?.unwrap_or(0);
    let from = from
        .map(|f| {
            f.parse::<jc::Cell>()
                .map_err(|e| Invalid::new(Refusal::InvalidNotation, format!("'{f}': {e}"), "from"))
        })
        .transpose()?;
    // The count first, in bulk and within the budget: it bounds the walk
    // below too. (The moves from one cell are walked to the end, within
    // their own budget.)
    let total = match (from, counted) {
        (None, Some(n)) => Some(n),
        (None, None) => Some(pos.count_moves(budget::MOVES).map_err(|_| budget::too_many_moves(None))?),
        (Some(_), _) => None,
    };
    let stop = start.saturating_add(limit);
    let (json, walked) = write_moves(pos, from, start, stop, limit)?;
    close_page(json, pos, from, total.unwrap_or(walked as u64), stop)
}

/// The moves from `start` to `stop` of `pos` (from cell `from` only, if
/// given) written after room for the page's head, and the number of moves
/// walked (all of them from `from`: their count).
fn write_moves(
    pos: &jc::Position,
    from: Option<jc::Cell>,
    start: usize,
    stop: usize,
    limit: usize,
) -> Result<(Vec<u8>, usize), Invalid> {
    // Room for a page of short moves; it grows for long ones. What is in
    // it is written over, so it is zeroed once, not per move.
    let mut json = vec![0; PAGE_HEAD + limit.min(DEFAULT_PAGE) * 96];
    let mut at = PAGE_HEAD;
    let mut count = 0usize;
    let mut over = false;
    let cell_budget = budget::CELL_MOVES.paths() as usize;
    pos.for_each_move(from, |m| {
        if from.is_none() && count >= stop {
            // The rest was counted in bulk.
            return ControlFlow::Break(());
        }
        if from.is_some() && count >= cell_budget {
            over = true;
            return ControlFlow::Break(());
        }
        if (start..stop).contains(&count) {
            let room = MoveWriter::room(m.path.len());
            if json.len() < at + room {
                json.resize((2 * json.len()).max(at + room), 0);
            }
            let mut w = MoveWriter { buf: &mut json, at };
            if count > start {
                w.bytes(b",");
            }
            w.move_json(m);
            at = w.at;
        }
        count += 1;
        ControlFlow::Continue(())
    });
    if over {
        return Err(budget::too_many_moves(from));
    }
    json.truncate(at);
    Ok((json, count))
}

/// The page's moves closed and its head and tail written: the count of
/// `pos`'s moves, the next cursor, and the jump tree from `from`.
fn close_page(
    mut json: Vec<u8>,
    pos: &jc::Position,
    from: Option<jc::Cell>,
    count: u64,
    stop: usize,
) -> Result<MovePage, Invalid> {
    let end = (stop as u64).min(count);
    json.extend_from_slice(b"],\"next_cursor\":");
    if end < count {
        let _ = write!(json, "\"m{end:x}\"");
    } else {
        json.extend_from_slice(b"null");
    }
    if let Some(c) = from {
        json.extend_from_slice(b",\"tree\":");
        // A tree is a plain serde value: this cannot fail.
        // (Its nodes are the moves just walked: within the budget.)
        let tree = pos.jump_tree(c, budget::CELL_MOVES).map_err(|_| budget::too_many_moves(from))?;
        let _ = serde_json::to_writer(&mut json, &JumpTree::of(&tree));
    }
    json.push(b'}');
    let mut head = [0u8; PAGE_HEAD];
    let mut rest = &mut head[..];
    let _ = write!(rest, "{{\"count\":{count},\"moves\":[");
    // The head ends where the moves begin.
    let skip = rest.len();
    json[skip..PAGE_HEAD].copy_from_slice(&head[..PAGE_HEAD - skip]);
    Ok(MovePage { json, skip })
}

/// The index of a cell in the tables below: rank × 26 + file.
#[inline(always)]
fn slot(c: jc::Cell) -> usize {
    usize::from(c.rank()) * 26 + usize::from(c.file())
}

/// The name of the cell at a [`slot`], from the engine, as little-endian
/// bytes of a word (nothing past the name), and its length.
const fn slot_name(i: usize) -> (u64, usize) {
    match jc::Cell::new((i % 26) as u8, (i / 26) as u8) {
        Some(cell) => {
            let (b, len) = cell.name_bytes();
            (b[0] as u64 | (b[1] as u64) << 8 | (b[2] as u64) << 16, len)
        }
        None => (0, 0),
    }
}

/// A word of up to seven bytes of text, with its length in the top byte:
/// one load gives both. The byte under the length is stored too but is
/// past the text: the next store of a [`MoveWriter`] covers it.
const fn with_len(word: u64, len: usize) -> u64 {
    word | (len as u64) << 56
}

/// Per cell ([`slot`]): `"c3"` after a zero lead byte (a `[` or `,`
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

/// Per cell ([`slot`]): `xc3`, with its length.
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

/// Writes moves' JSON — the bytes `serde_json` writes for their
/// [`MoveView`]s, without its formatter (cell names need no escaping) and
/// without building the moves — into a slice sized up front by
/// [`MoveWriter::room`]: each piece is assembled in a register and stored
/// as one 8-byte word, then the cursor moves on by its real length. No
/// growth checks, no copy calls.
#[derive(Debug)]
struct MoveWriter<'a> {
    /// Where the JSON goes.
    buf: &'a mut [u8],
    /// How much of it is written.
    at: usize,
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
    fn room(cells: usize) -> usize {
        if cells <= SHORT { WINDOW } else { 16 * cells + 80 }
    }

    /// Writes `bytes`, of a length known where this is inlined.
    fn bytes(&mut self, bytes: &[u8]) {
        self.buf[self.at..self.at + bytes.len()].copy_from_slice(bytes);
        self.at += bytes.len();
    }

    /// Writes the move `m`:
    /// `{"path":["c3","e3"],"notation":"c3xe3","captures":["d3"],"gain":2}`.
    /// The fixed text goes in 8-byte words; each name goes in one word with
    /// the quotes or separator around it.
    fn move_json(&mut self, m: jc::ScoredPath<'_>) {
        let at = self.at;
        if m.path.len() <= SHORT
            && let Some(window) = self.buf.get_mut(at..at + WINDOW)
            && let Ok(window) = <&mut [u8; WINDOW]>::try_from(window)
        {
            // Offsets masked to a byte: every store is inside the window,
            // and the compiler sees it.
            let mut len = 0;
            write_move(m, |(word, n)| {
                window[usize::from(len as u8)..][..8].copy_from_slice(&word.to_le_bytes());
                len += n;
            });
            self.at = at + len;
        } else {
            let buf = &mut *self.buf;
            let mut at = at;
            write_move(m, |(word, n)| {
                buf[at..at + 8].copy_from_slice(&word.to_le_bytes());
                at += n;
            });
            self.at = at;
        }
    }
}

/// Writes the move `m` as [`MoveWriter::move_json`] says, through `put`:
/// each call stores a word and moves on by the length given with it.
#[inline(always)]
fn write_move(m: jc::ScoredPath<'_>, mut put: impl FnMut((u64, usize))) {
    // A word of the tables above, after `lead` if given.
    let sized = |word: u64, lead: u8| (word | u64::from(lead), (word >> 56) as usize);
    let text = |s: &[u8]| {
        let mut w = [0u8; 8];
        w[..s.len()].copy_from_slice(s);
        (u64::from_le_bytes(w), s.len())
    };
    put(text(b"{\"path\":"));
    quoted_names(m.path.iter().copied(), &mut put);
    put(text(b"],\"notat"));
    put(text(b"ion\":\""));
    if let [first, rest @ ..] = m.path {
        // `xc3` without its `x`.
        let joined = JOINED_NAMES[slot(*first)];
        put((joined >> 8, (joined >> 56) as usize - 1));
        for &c in rest {
            put(sized(JOINED_NAMES[slot(c)], 0));
        }
    }
    put(text(b"\",\"captu"));
    put(text(b"res\":"));
    quoted_names(m.captures(), &mut put);
    put(text(b"],\"gain\""));
    if let Some(&end) = GAIN_ENDS.get(m.gain as usize) {
        put(sized(end, 0));
    } else {
        let (end, len) = gain_end(m.gain);
        put((end as u64, len.min(8)));
        if len > 8 {
            put(((end >> 64) as u64, len - 8));
        }
    }
}

/// Writes `["c3","e3"`, without the closing bracket, through `put`: the
/// first name after `[`, the others after `,` (and `[` alone for no cells,
/// which no move has; the brackets still pair up).
#[inline(always)]
fn quoted_names(cells: impl Iterator<Item = jc::Cell>, put: &mut impl FnMut((u64, usize))) {
    let mut lead = b'[';
    for c in cells {
        let word = QUOTED_NAMES[slot(c)];
        put((word | u64::from(lead), (word >> 56) as usize));
        lead = b',';
    }
    if lead == b'[' {
        put((u64::from(b'['), 1));
    }
}

#[cfg(test)]
mod tests;
