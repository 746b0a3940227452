//! Positions: a board under a rule set, whose turn it is, and the scores.
//! Legal moves, playing them, and the result.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use thiserror::Error;

use crate::bits::Bits;
use crate::cell::{Cell, Direction, MAX_SIDE};
use crate::deal::{below, random_seed, starting_grid};
use crate::grid::{Grid, Square};
use crate::layout::{Layout, MAX_WORDS};
use crate::movegen::{Board, CountRecord, MB_EMPTY, MB_INERT, MB_OFF, Mailbox, RuleTables, with_width};
use crate::moves::{IllegalMove, JumpTree, Move, MoveList, ScoredPath};
use crate::outcome::Outcome;
use crate::rules::{Capture, Chain, Kind, Opening, PlayersError, Rules};
use crate::setup::Setup;

// A position's squares use the move generator's square codes: `EMPTY`,
// `NONE` (no cell), and for a piece its kind's code, `kind_code`.
use crate::movegen::{MB_EMPTY as EMPTY, MB_OFF as NONE};

/// The square code of the kind at index `k` of the rules' kinds.
fn kind_code(k: usize) -> u8 {
    // At most 26 kinds: codes 1 to 26, clear of EMPTY and NONE.
    k as u8 + 1
}

/// The index in the rules' kinds of the piece with square code `code`, or
/// `None` for an empty square or no cell.
fn kind_index(code: u8) -> Option<usize> {
    match code {
        EMPTY | NONE => None,
        k => Some(usize::from(k - 1)),
    }
}

/// Reads the rank of a board string starting at byte `at` (up to a `/` or
/// the end) into `out`: a letter for a piece, 0 for an empty cell. Returns
/// its width and where the next rank starts, or `None` for an empty rank,
/// a rank too wide, or anything but upper-case letters, `.` and runs of
/// empty cells (no leading zero): [`Position::from_board_str`]'s reader.
fn plain_rank(bytes: &[u8], mut at: usize, out: &mut [u8; MAX_SIDE as usize]) -> Option<(usize, usize)> {
    let max = usize::from(MAX_SIDE);
    let mut width = 0;
    while let Some(&b) = bytes.get(at) {
        at += 1;
        match b {
            b'/' => break,
            b'A'..=b'Z' | b'.' => {
                *out.get_mut(width)? = if b == b'.' { 0 } else { b };
                width += 1;
            }
            b'1'..=b'9' => {
                let mut run = usize::from(b - b'0');
                while let Some(&d @ b'0'..=b'9') = bytes.get(at) {
                    run = run * 10 + usize::from(d - b'0');
                    at += 1;
                    if run > max {
                        return None;
                    }
                }
                out.get_mut(width..width + run)?.fill(0);
                width += run;
            }
            _ => return None,
        }
    }
    (width > 0).then_some((width, at))
}

/// Where a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Plies of the opening: each move removes a piece.
    Opening,
    /// Jumps.
    Playing,
    /// The player to move has no legal move.
    Over,
}

impl Phase {
    /// `opening`, `playing` or `over`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Playing => "playing",
            Phase::Over => "over",
        }
    }
}

/// Why a position could not be made.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum PositionError {
    /// The board's size differs from the rules'.
    #[error("the board is {rows}×{cols}, but the rules are for {rule_rows}×{rule_cols}")]
    Size {
        /// Board rows.
        rows: u8,
        /// Board columns.
        cols: u8,
        /// Rules rows.
        rule_rows: u8,
        /// Rules columns.
        rule_cols: u8,
    },
    /// A `-` on a cell that exists.
    #[error("{0} is written '-', but it is a cell of this board")]
    MissingCell(Cell),
    /// Something other than `-` on a cell that does not exist.
    #[error("{0} is not a cell of this board (masked out); write it '-'")]
    MaskedCell(Cell),
    /// A letter that names no kind.
    #[error("{cell} holds '{letter}', which is not a piece of these rules ({known})")]
    UnknownKind {
        /// Where.
        cell: Cell,
        /// The letter.
        letter: char,
        /// The letters the rules know.
        known: String,
    },
    /// The number of scores (players) is outside the rules' range.
    #[error(transparent)]
    Players(#[from] PlayersError),
    /// Every player removes a piece in the opening, and there are fewer
    /// pieces than players.
    #[error("{players} players each remove a piece in the opening, but the board has only {pieces} pieces")]
    TooFewPieces {
        /// Players.
        players: usize,
        /// Pieces on the board.
        pieces: usize,
    },
}

/// What a played move did.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Played {
    /// The move.
    pub mv: Move,
    /// Who played it, from 0.
    pub player: usize,
    /// The pieces it took off the board, with their kind letters: the jumped
    /// pieces, or the removed one.
    pub captures: Vec<(Cell, char)>,
    /// Points it scored.
    pub gain: u32,
}

/// A position: a board under a rule set, the ply and one score per player.
///
/// Made by [`Position::start`] (a new game) or [`Position::from_setup`]
/// (any well-formed position). Cheap to clone; the rules are shared.
///
/// Listing moves — which to use:
/// - [`legal_moves`](Self::legal_moves): every move as a [`Move`], sorted
///   by notation;
/// - [`for_each_move`](Self::for_each_move): each move's path, captures and
///   gain, in notation order, until the visitor stops, nothing allocated
///   per move — for a page of moves or a pick by gain;
/// - [`move_list`](Self::move_list): many moves in one flat list;
/// - [`count_moves`](Self::count_moves): how many, counted in bulk;
/// - [`jump_tree`](Self::jump_tree): the jumps from one cell as a tree;
/// - [`random_move`](Self::random_move), [`nth_move`](Self::nth_move),
///   [`playout`](Self::playout): for Monte Carlo search.
#[derive(Clone, Debug)]
pub struct Position {
    rules: Arc<Rules>,
    /// Square code per layout index: [`EMPTY`], [`NONE`], or a piece's
    /// [`kind_code`].
    squares: Vec<u8>,
    occ: [u64; MAX_WORDS],
    ply: u32,
    scores: Vec<u32>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.squares == other.squares
            && self.ply == other.ply
            && self.scores == other.scores
            && (Arc::ptr_eq(&self.rules, &other.rules) || self.rules == other.rules)
    }
}

impl Eq for Position {}

impl Position {
    /// The starting position of a new game of `players`, dealt from `seed`
    /// (one is drawn when `None`). Returns the position and the seed used.
    ///
    /// # Errors
    ///
    /// [`PositionError::Players`] for a player count the rules refuse, and
    /// [`PositionError::TooFewPieces`] when every player must remove a piece
    /// and there are not enough.
    pub fn start(
        rules: impl Into<Arc<Rules>>,
        players: usize,
        seed: Option<u64>,
    ) -> Result<(Position, u64), PositionError> {
        let rules = rules.into();
        rules.check_players(players)?;
        let seed = seed.unwrap_or_else(random_seed);
        let setup = Setup { grid: starting_grid(&rules, seed), ply: 0, scores: vec![0; players] };
        let pos = Position::from_setup(rules, &setup)?;
        if let Opening::EachPlayerRemoves { .. } = pos.rules.spec().opening {
            let pieces = pos.squares.iter().filter(|&&k| kind_index(k).is_some()).count();
            if pieces < players {
                return Err(PositionError::TooFewPieces { players, pieces });
            }
        }
        Ok((pos, seed))
    }

    /// Makes a position from a setup, checking it against the rules.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming the cell or field that does not fit.
    pub fn from_setup(rules: impl Into<Arc<Rules>>, setup: &Setup) -> Result<Position, PositionError> {
        let rules = rules.into();
        let grid = &setup.grid;
        if (grid.rows(), grid.cols()) != (rules.rows(), rules.cols()) {
            return Err(PositionError::Size {
                rows: grid.rows(),
                cols: grid.cols(),
                rule_rows: rules.rows(),
                rule_cols: rules.cols(),
            });
        }
        rules.check_players(setup.scores.len())?;
        let lay = &rules.layout;
        let mut squares = vec![NONE; lay.bits];
        let mut occ = [0u64; MAX_WORDS];
        for (r, rank) in grid.ranks().enumerate() {
            let base = r * lay.stride;
            for (f, (&square, slot)) in rank.iter().zip(&mut squares[base..]).enumerate() {
                let i = base + f;
                let cell = || Cell::new(f as u8, r as u8).expect("grid sides are at most 26");
                let exists = !lay.masked || lay.exists_at(i);
                *slot = match (square, exists) {
                    (Square::Missing, false) => NONE,
                    (Square::Missing, true) => return Err(PositionError::MissingCell(cell())),
                    (_, false) => return Err(PositionError::MaskedCell(cell())),
                    (Square::Empty, true) => EMPTY,
                    (Square::Piece(letter), true) => {
                        let k = rules.kind_index(letter).ok_or_else(|| PositionError::UnknownKind {
                            cell: cell(),
                            letter,
                            known: rules
                                .kinds()
                                .iter()
                                .map(|k| k.letter.to_string())
                                .collect::<Vec<_>>()
                                .join(", "),
                        })?;
                        occ[i >> 6] |= 1 << (i & 63);
                        kind_code(k)
                    }
                };
            }
        }
        Ok(Position { rules, squares, occ, ply: setup.ply, scores: setup.scores.clone() })
    }

    /// Reads a position from its parts as written — a board string
    /// (`docs/rules.md` §8), the ply and the scores — under rules chosen for the
    /// board's size: one pass over the text, without the [`Grid`] and
    /// [`Setup`] in between. The quick way for positions that arrive as
    /// text, as in a web request. `rules_for` gets the board's ranks and
    /// files (the number of ranks, the width of the top one) and gives the
    /// rules, or `None`.
    ///
    /// Returns `None` unless all is well: a well-formed board without
    /// missing cells (`-`), of the rules' size and on an unmasked board,
    /// each letter a kind of the rules, as many scores as the rules allow
    /// players, and rules from `rules_for`. [`Grid`] and
    /// [`Position::from_setup`] say what is wrong then.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use jump_capture::{Position, Preset, Rules};
    ///
    /// let rules_for = |rows, cols| Rules::new(Preset::Old.spec().with_size(rows, cols)).ok().map(Arc::new);
    /// let pos = Position::from_board_str("1OO/1OO/1OO", 2, &[1, 1], rules_for).unwrap();
    /// assert_eq!(pos.to_string(), "1OO/1OO/1OO 2 1,1");
    /// // Ranks of two widths: read it as a grid for the reason.
    /// assert!(Position::from_board_str("1OO/1O/1OO", 2, &[1, 1], rules_for).is_none());
    /// let e = "1OO/1O/1OO".parse::<jump_capture::Grid>().unwrap_err();
    /// assert_eq!(e.to_string(), "rank 2 has 2 cells; the board is 3 wide");
    /// ```
    pub fn from_board_str(
        board: &str,
        ply: u32,
        scores: &[u32],
        rules_for: impl FnOnce(u8, u8) -> Option<Arc<Rules>>,
    ) -> Option<Position> {
        let bytes = board.as_bytes();
        let rows = bytes.iter().filter(|&&b| b == b'/').count() + 1;
        if rows > usize::from(MAX_SIDE) {
            return None;
        }
        // The top rank first, for the width.
        let mut rank = [0u8; MAX_SIDE as usize];
        let (cols, mut at) = plain_rank(bytes, 0, &mut rank)?;
        let rules = rules_for(rows as u8, cols as u8)?;
        let lay = &rules.layout;
        if lay.masked
            || (usize::from(lay.rows), usize::from(lay.cols)) != (rows, cols)
            || rules.check_players(scores.len()).is_err()
        {
            return None;
        }
        let mut squares = vec![NONE; lay.bits];
        let mut occ = [0u64; MAX_WORDS];
        for r in (0..rows).rev() {
            if r + 1 < rows {
                let (width, next) = plain_rank(bytes, at, &mut rank)?;
                if width != cols {
                    return None;
                }
                at = next;
            }
            let base = r * lay.stride;
            for (f, (&b, slot)) in rank[..cols].iter().zip(&mut squares[base..base + cols]).enumerate() {
                *slot = if b == 0 {
                    EMPTY
                } else {
                    occ[(base + f) >> 6] |= 1 << ((base + f) & 63);
                    kind_code(rules.kind_index(char::from(b))?)
                };
            }
        }
        Some(Position { rules, squares, occ, ply, scores: scores.to_vec() })
    }

    /// The position as plain data (what its position string says).
    pub fn setup(&self) -> Setup {
        Setup { grid: self.grid(), ply: self.ply, scores: self.scores.clone() }
    }

    /// The board as a grid.
    pub fn grid(&self) -> Grid {
        let mut grid = Grid::filled(self.rules.rows(), self.rules.cols(), Square::Missing);
        for cell in self.rules.cells() {
            let sq = self.piece_at(cell).map_or(Square::Empty, |k| Square::Piece(k.letter));
            grid.set(cell, sq);
        }
        grid
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules, shared.
    pub fn rules_arc(&self) -> &Arc<Rules> {
        &self.rules
    }

    /// Plies played.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Number of players (the number of scores).
    pub fn players(&self) -> usize {
        self.scores.len()
    }

    /// The player to move, from 0: `ply % players`.
    pub fn to_move(&self) -> usize {
        (self.ply as usize) % self.players()
    }

    /// Scores, one per player.
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// The kind of the piece on `cell`, if any.
    pub fn piece_at(&self, cell: Cell) -> Option<&Kind> {
        if !self.rules.has_cell(cell) {
            return None;
        }
        self.rules.kinds().get(kind_index(self.squares[self.rules.layout.index(cell)])?)
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> usize {
        self.occ.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the ply is one of the opening's removals.
    pub fn is_opening(&self) -> bool {
        self.ply < self.rules.spec().opening.plies(self.players())
    }

    /// Opening, playing or over.
    pub fn phase(&self) -> Phase {
        if self.count_moves() == 0 {
            Phase::Over
        } else if self.is_opening() {
            Phase::Opening
        } else {
            Phase::Playing
        }
    }

    /// Whether the player to move has no legal move.
    pub fn is_over(&self) -> bool {
        self.count_moves() == 0
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| Outcome::decide(self.rules.spec().end, &self.scores, self.to_move()))
    }

    fn kernel<const W: usize>(&self) -> (RuleTables<W>, Board<W>) {
        let ctx = RuleTables::new(&self.rules, self.players());
        let owned = self.rules.spec().capture == Capture::Owned;
        let occ = Bits::from_slice(&self.occ);
        let mut sides = if owned { vec![Bits::EMPTY; self.players()] } else { Vec::new() };
        let mut cells = Mailbox::new();
        let mut removable = Bits::EMPTY;
        let opening = self.is_opening();
        for (i, &k) in self.squares.iter().enumerate() {
            cells[i + ctx.pad] = match k {
                NONE => MB_OFF,
                EMPTY => MB_EMPTY,
                k => {
                    let k = usize::from(k - 1);
                    if opening && self.rules.removable[k] {
                        removable.toggle(i);
                    }
                    if !owned {
                        1
                    } else {
                        match self.rules.kinds()[k].owner.filter(|&o| o < self.players()) {
                            Some(o) => {
                                sides[o].toggle(i);
                                1 + o as u8
                            }
                            None => MB_INERT,
                        }
                    }
                }
            };
        }
        (ctx, Board { occ, sides, removable, cells })
    }

    /// The number of legal moves.
    pub fn count_moves(&self) -> u64 {
        with_width!(self.rules.layout.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            st.count(&ctx, self.ply)
        })
    }

    /// Calls `visit` with every legal move — only those from `from`, if
    /// given; none from a cell off the board — in notation order, until it
    /// breaks: its path, the cells it captures and what it scores. The
    /// slices are reused between calls: nothing is allocated per move. The
    /// way to list a page of moves, or to pick among them by gain, without
    /// building them.
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// use jump_capture::{Position, Preset, Rules, Setup};
    ///
    /// let rules = Rules::new(Preset::Murray.spec().with_size(3, 3))?;
    /// let setup: Setup = "1GR/RW1/YWG 2 0,0".parse()?;
    /// let pos = Position::from_setup(rules, &setup)?;
    /// let mut scored = Vec::new();
    /// pos.for_each_move(None, |m| {
    ///     let cells: Vec<String> = m.path.iter().map(|c| c.to_string()).collect();
    ///     scored.push((cells.join("x"), m.captures[0].to_string(), m.gain));
    ///     ControlFlow::Continue(())
    /// });
    /// // Over a red piece (3), a white one (1), a green one (4).
    /// assert_eq!(
    ///     scored,
    ///     [("a1xa3".into(), "a2".into(), 3), ("a2xc2".into(), "b2".into(), 1), ("c3xa3".into(), "b3".into(), 4)]
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_each_move<F>(&self, from: Option<Cell>, mut visit: F)
    where
        F: FnMut(ScoredPath<'_>) -> ControlFlow<()>,
    {
        let removals_score = self.rules.spec().removals_score;
        // The value of the piece on a layout index of this position (the
        // pieces a move takes are all there before it).
        let value = |i: usize| kind_index(self.squares[i]).map_or(0, |k| self.rules.kinds()[k].value);
        // The walk goes depth first and visits a path right after its
        // last jump is made, so the path one jump shorter was the last one
        // of that length visited (or, for a first jump, is its start cell
        // alone): a path's cells, captures and gain are that path's plus
        // one cell, one captured piece and its value, kept per length
        // (grown to the longest path yet, and written over).
        let mut cells: Vec<Cell> = Vec::new();
        let mut captured: Vec<Cell> = Vec::new();
        let mut gains: Vec<u32> = Vec::new();
        self.walk_indices(from, |lay, path| {
            let n = path.len();
            let last = path[n - 1];
            if cells.len() < n {
                cells.resize(n, lay.cell(last));
                captured.resize(n, lay.cell(last));
                gains.resize(n, 0);
            }
            cells[n - 1] = lay.cell(last);
            let gain = match n {
                1 => {
                    // A removal captures the piece it lifts.
                    captured[0] = cells[0];
                    if removals_score { value(last) } else { 0 }
                }
                _ => {
                    // The start cell is written for every path: cheaper
                    // than a guess at whether this one is a first jump.
                    cells[0] = lay.cell(path[0]);
                    gains[0] = 0;
                    // Layout indices are linear in file and rank: the cell
                    // jumped over is the mean of the two ends of a jump.
                    let over = (path[n - 2] + last) / 2;
                    captured[n - 2] = lay.cell(over);
                    gains[n - 2].saturating_add(value(over))
                }
            };
            gains[n - 1] = gain;
            debug_assert!(
                cells[..n].iter().zip(path).all(|(&c, &i)| c == lay.cell(i)),
                "the walk is not depth first"
            );
            visit(ScoredPath { path: &cells[..n], captures: &captured[..n.max(2) - 1], gain })
        });
    }

    /// [`for_each_move`](Self::for_each_move) with the paths as layout
    /// indices.
    fn walk_indices<F>(&self, from: Option<Cell>, mut visit: F)
    where
        F: FnMut(&Layout, &[usize]) -> ControlFlow<()>,
    {
        let lay = &self.rules.layout;
        let only = match from {
            Some(f) if !self.rules.has_cell(f) => return,
            f => f.map(|f| lay.index(f)),
        };
        with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            let _ = st.walk_paths(&ctx, self.ply, only, &mut |path: &[usize]| visit(lay, path));
        });
    }

    /// Every legal move, sorted by notation.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.move_list(None).to_moves()
    }

    /// The legal moves (only those starting on `from`, if given), sorted
    /// by notation, in one flat list: the cheap way to list many moves and
    /// use a few, as a page of them.
    pub fn move_list(&self, from: Option<Cell>) -> MoveList {
        // Room for a typical middle game at once: growing by doubling would
        // copy and free the buffers several times over.
        let mut cells = Vec::with_capacity(1024);
        let mut spans = Vec::with_capacity(256);
        let mut gains = Vec::with_capacity(256);
        self.for_each_move(from, |m| {
            spans.push((cells.len() as u32, m.path.len() as u32));
            cells.extend(m.path.iter().copied());
            gains.push(m.gain);
            ControlFlow::Continue(())
        });
        MoveList::in_order(cells, spans, gains)
    }

    /// The jumps from `from` as a tree (children in notation order). In the
    /// opening, and from a cell with no jump, the tree is the root alone.
    pub fn jump_tree(&self, from: Cell) -> JumpTree {
        let mut root = JumpTree { cell: from, over: None, next: Vec::new() };
        if self.is_opening() {
            return root;
        }
        // Every path walked starts on `from`.
        self.for_each_move(Some(from), |m| {
            let mut node = &mut root;
            for (&to, &over) in m.path[1..].iter().zip(m.captures) {
                let pos = match node.next.iter().position(|n| n.cell == to) {
                    Some(p) => p,
                    None => {
                        node.next.push(JumpTree { cell: to, over: Some(over), next: Vec::new() });
                        node.next.len() - 1
                    }
                };
                node = &mut node.next[pos];
            }
            ControlFlow::Continue(())
        });
        root
    }

    /// A uniformly random legal move (every path equally likely), or `None`
    /// when the game is over.
    pub fn random_move<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Move> {
        let n = self.count_moves();
        if n == 0 {
            return None;
        }
        self.nth_move(below(rng, n))
    }

    /// Move `k` (from 0) of the legal moves in the engine's own fixed
    /// order, or `None` when `k` is not below [`Position::count_moves`].
    /// Every legal move has exactly one index; finding it skips the moves
    /// before it in bulk instead of listing them.
    pub fn nth_move(&self, k: u64) -> Option<Move> {
        let lay = &self.rules.layout;
        let mut path = Vec::new();
        with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            let mut figures = CountRecord::default();
            if k >= st.count_recording(&ctx, self.ply, Some(&mut figures)) {
                return None;
            }
            st.select_counted(&ctx, self.ply, k, &figures, &mut path);
        });
        Move::new(path.iter().map(|&i| lay.cell(i)).collect()).ok()
    }

    /// Plays uniformly random legal moves (every path equally likely) until
    /// the game is over; returns the number of plies played. The engine of
    /// Monte Carlo search: one move-generator state is kept for the whole
    /// game, and a ply costs a bulk count and a selection that skips the
    /// moves before the chosen one in bulk.
    pub fn playout<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        let lay = &self.rules.layout;
        let mut path = Vec::with_capacity(16);
        let start = self.ply;
        with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            let mut figures = CountRecord::default();
            loop {
                let n = st.count_recording(&ctx, self.ply, Some(&mut figures));
                if n == 0 {
                    break;
                }
                st.select_counted(&ctx, self.ply, below(rng, n), &figures, &mut path);
                st.apply(&ctx, self.ply, &path);
                self.apply_unchecked(&path);
            }
        });
        self.ply - start
    }

    /// Plays a generated path (layout indices) on the mailbox, bitboard and
    /// scores, without checks.
    fn apply_unchecked(&mut self, path: &[usize]) {
        let kinds = self.rules.kinds();
        let player = self.to_move();
        let mut gain = 0u32;
        let clear = |squares: &mut Vec<u8>, occ: &mut [u64; MAX_WORDS], i: usize| {
            let k = std::mem::replace(&mut squares[i], EMPTY);
            occ[i >> 6] ^= 1 << (i & 63);
            kind_index(k).map_or(0, |k| kinds[k].value)
        };
        if let [cell] = path {
            let value = clear(&mut self.squares, &mut self.occ, *cell);
            if self.rules.spec().removals_score {
                gain = value;
            }
        } else {
            let (from, to) = (path[0], path[path.len() - 1]);
            let piece = self.squares[from];
            clear(&mut self.squares, &mut self.occ, from);
            for w in path.windows(2) {
                gain = gain.saturating_add(clear(&mut self.squares, &mut self.occ, (w[0] + w[1]) / 2));
            }
            self.squares[to] = piece;
            self.occ[to >> 6] ^= 1 << (to & 63);
        }
        let score = &mut self.scores[player];
        *score = score.saturating_add(gain);
        self.ply = self.ply.saturating_add(1);
    }

    /// Checks `mv` without playing it: what it would capture and score.
    ///
    /// # Errors
    ///
    /// An [`IllegalMove`] with the reason.
    pub fn check(&self, mv: &Move) -> Result<Played, IllegalMove> {
        self.try_move(mv).map(|(played, _)| played)
    }

    /// Plays `mv`, or refuses it with the reason and leaves the position as
    /// it was.
    ///
    /// # Errors
    ///
    /// An [`IllegalMove`] with the reason.
    pub fn play(&mut self, mv: &Move) -> Result<Played, IllegalMove> {
        let (played, squares) = self.try_move(mv)?;
        let lay = &self.rules.layout;
        for (i, (old, new)) in self.squares.iter().zip(&squares).enumerate() {
            if kind_index(*old).is_some() != kind_index(*new).is_some() {
                self.occ[i >> 6] ^= 1 << (i & 63);
            }
        }
        debug_assert!(lay.bits == squares.len());
        self.squares = squares;
        let score = &mut self.scores[played.player];
        *score = score.saturating_add(played.gain);
        self.ply = self.ply.saturating_add(1);
        Ok(played)
    }

    /// Validates `mv` step by step on a scratch copy of the board; returns
    /// what it does and the board after it.
    fn try_move(&self, mv: &Move) -> Result<(Played, Vec<u8>), IllegalMove> {
        let result = self.simulate(mv);
        if result.is_err() && self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        result
    }

    fn simulate(&self, mv: &Move) -> Result<(Played, Vec<u8>), IllegalMove> {
        let rules = &*self.rules;
        let spec = rules.spec();
        let lay = &rules.layout;
        let player = self.to_move();
        let path = mv.path();
        if let Some(&off) = path.iter().find(|&&c| !rules.has_cell(c)) {
            return Err(IllegalMove::OffBoard(off));
        }
        let mut squares = self.squares.clone();
        let kind_at = |sq: &[u8], c: Cell| rules.kinds().get(kind_index(sq[lay.index(c)])?);
        let owned = spec.capture == Capture::Owned;
        let from = path[0];
        let Some(piece) = kind_at(&squares, from) else { return Err(IllegalMove::NoPiece(from)) };
        if owned && piece.owner != Some(player) {
            return Err(IllegalMove::NotYourPiece { cell: from, player });
        }
        let mut captures = Vec::new();
        let mut gain = 0u32;
        if self.is_opening() {
            if path.len() != 1 {
                return Err(IllegalMove::RemovalExpected);
            }
            match &spec.opening {
                Opening::Konane if self.ply == 0 => {
                    let (r, c) = (rules.rows(), rules.cols());
                    let centre = (r / 2 - 1..=r / 2).contains(&from.rank())
                        && (c / 2 - 1..=c / 2).contains(&from.file());
                    let corner = (from.rank() == 0 || from.rank() == r - 1)
                        && (from.file() == 0 || from.file() == c - 1);
                    if !centre && !corner {
                        return Err(IllegalMove::NotCentreOrCorner(from));
                    }
                }
                Opening::Konane => {
                    let near_hole = [Direction::N, Direction::E, Direction::S, Direction::W]
                        .into_iter()
                        .filter_map(|d| from.step(d))
                        .any(|c| rules.has_cell(c) && kind_at(&squares, c).is_none());
                    if !near_hole {
                        return Err(IllegalMove::NotNextToHole(from));
                    }
                }
                _ => {
                    let i = rules.kind_index(piece.letter).unwrap_or(0);
                    if !rules.removable[i] {
                        return Err(IllegalMove::KindNotRemovable { allowed: self.removable_words() });
                    }
                }
            }
            if spec.removals_score {
                gain = piece.value;
            }
            captures.push((from, piece.letter));
            squares[lay.index(from)] = EMPTY;
            return Ok((Played { mv: mv.clone(), player, captures, gain }, squares));
        }
        if path.len() < 2 {
            return Err(IllegalMove::JumpExpected);
        }
        let moving = squares[lay.index(from)];
        squares[lay.index(from)] = EMPTY;
        let mut first_dir = None;
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            let df = i16::from(b.file()) - i16::from(a.file());
            let dr = i16::from(b.rank()) - i16::from(a.rank());
            let dir = (df % 2 == 0 && dr % 2 == 0)
                .then(|| Direction::from_delta((df / 2) as i8, (dr / 2) as i8))
                .flatten()
                .filter(|&d| spec.directions.contains(d))
                .ok_or(IllegalMove::NotAJump { from: a, to: b })?;
            if spec.chain == Chain::Straight && *first_dir.get_or_insert(dir) != dir {
                return Err(IllegalMove::Turns { from: a, to: b });
            }
            let over = a.step(dir).expect("the midpoint of two board cells is a cell");
            let Some(jumped) = kind_at(&squares, over) else {
                return Err(IllegalMove::NothingToJump { from: a, over, to: b });
            };
            if owned && jumped.owner.is_none_or(|o| o == player || o >= self.players()) {
                return Err(IllegalMove::NotCapturable { over, player });
            }
            if kind_at(&squares, b).is_some() {
                return Err(IllegalMove::NotEmpty(b));
            }
            gain = gain.saturating_add(jumped.value);
            captures.push((over, jumped.letter));
            squares[lay.index(over)] = EMPTY;
        }
        squares[lay.index(mv.to())] = moving;
        Ok((Played { mv: mv.clone(), player, captures, gain }, squares))
    }

    fn removable_words(&self) -> String {
        let names: Vec<String> = self
            .rules
            .kinds()
            .iter()
            .zip(&self.rules.removable)
            .filter(|&(_, &r)| r)
            .map(|(k, _)| format!("a {} piece", k.name))
            .collect();
        names.join(" or ")
    }

    /// The number of move sequences of exactly `depth` plies (`docs/rules.md` §9).
    pub fn perft(&self, depth: u32) -> u64 {
        with_width!(self.rules.layout.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            st.perft(&ctx, self.ply, depth)
        })
    }

    /// Perft of every legal move's child at `depth - 1`, sorted by move
    /// notation. Empty for depth 0.
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let lay = &self.rules.layout;
        let mut out = Vec::new();
        with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            let _ = st.walk(&ctx, self.ply, &mut |st: &mut Board<W>, path: &[usize]| {
                let mv = Move::new(path.iter().map(|&i| lay.cell(i)).collect())
                    .expect("generated paths are not empty");
                out.push((mv, st.perft(&ctx, self.ply + 1, depth - 1)));
                ControlFlow::Continue(())
            });
        });
        out.sort_unstable_by(|a, b| a.0.cmp_notation(&b.0));
        out
    }
}

/// Sorts moves by their notation strings (`docs/rules.md` §9: "sorted by the move
/// string").
pub fn sort_by_notation(moves: &mut [Move]) {
    moves.sort_unstable_by(Move::cmp_notation);
}

impl fmt::Display for Position {
    /// The position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.setup().fmt(f)
    }
}
