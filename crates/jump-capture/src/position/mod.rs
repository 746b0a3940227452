//! Positions: a board under a rule set, whose turn it is, and the scores.
//! Legal moves, playing them, and the result.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;

use thiserror::Error;

use crate::bits::Bits;
use crate::budget::{OverBudget, PathBudget};
use crate::cell::{Cell, Direction, MAX_SIDE};
use crate::deal::{below, random_seed, starting_grid};
use crate::grid::{Grid, Square};
use crate::layout::{Layout, MAX_WORDS};
use crate::movegen::{
    Board, CountRecord, Counts, GainVisitor, Greediest, MB_EMPTY, MB_INERT, MB_OFF, Mailbox, Numbered, Ranks,
    RuleTables, with_width,
};
use crate::moves::{IllegalMove, JumpTree, Move, MoveList, ScoredPath};
use crate::outcome::{Outcome, Solitaire};
use crate::rules::{Capture, Chain, EndRule, Kind, Opening, PlayersError, Rules};
use crate::setup::Setup;

mod build;
mod moves;
mod play;

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
/// Listing moves — which to use. A position's moves can be exponentially
/// many (every prefix of a chain is a move): every call that counts, lists
/// or walks them all takes a [`PathBudget`] and answers [`OverBudget`]
/// past it; the `*_unbounded` twins can run for ever.
/// - [`has_moves`](Self::has_moves), [`is_over`](Self::is_over),
///   [`phase`](Self::phase): whether a move exists, never counted, cheap;
/// - [`legal_moves`](Self::legal_moves): every move as a [`Move`], sorted
///   by notation;
/// - [`for_each_move`](Self::for_each_move): each move's path, captures and
///   gain, in notation order, until the visitor stops, nothing allocated
///   per move — for a page of moves or a pick by gain (the visitor is the
///   budget: it can stop at any move);
/// - [`move_list`](Self::move_list): many moves in one flat list;
///   [`first_moves`](Self::first_moves): at most `n` of them;
/// - [`count_moves`](Self::count_moves): how many, counted in bulk;
/// - [`jump_tree`](Self::jump_tree): the jumps from one cell as a tree;
/// - [`random_move`](Self::random_move), [`nth_move`](Self::nth_move),
///   [`playout`](Self::playout): for Monte Carlo search;
/// - [`greedy_move`](Self::greedy_move), [`largest_gain`](Self::largest_gain),
///   [`greedy_playout`](Self::greedy_playout), [`ranked_move`](Self::ranked_move):
///   greedy play and best-first search, by gain, nothing built per move.
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

    /// Opening, playing or over. Cheap on any board: see
    /// [`has_moves`](Self::has_moves).
    pub fn phase(&self) -> Phase {
        if !self.has_moves() {
            Phase::Over
        } else if self.is_opening() {
            Phase::Opening
        } else {
            Phase::Playing
        }
    }

    /// Whether the player to move has a legal move. Answered from the
    /// first jumps (or removals) alone, in a few bitboard operations,
    /// however many moves there are.
    pub fn has_moves(&self) -> bool {
        with_width!(self.rules.layout.words, W => {
            let (ctx, st) = self.kernel::<W>();
            st.has_move(&ctx, self.ply)
        })
    }

    /// Whether the player to move has no legal move (cheap, as
    /// [`has_moves`](Self::has_moves)).
    pub fn is_over(&self) -> bool {
        !self.has_moves()
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| {
            let mut outcome = Outcome::decide(self.rules.spec().end, &self.scores, self.to_move());
            outcome.solitaire = self.solitaire();
            outcome
        })
    }

    /// Under [`EndRule::PiecesLeft`] (peg solitaire), what the board holds
    /// now as a result: the pieces left, solved, perfect.
    pub fn solitaire(&self) -> Option<Solitaire> {
        (self.rules.spec().end == EndRule::PiecesLeft).then(|| {
            let mut pieces = self.rules.cells().filter(|&c| self.piece_at(c).is_some());
            let (last, more) = (pieces.next(), pieces.count());
            Solitaire::of(usize::from(last.is_some()) + more, last, self.rules.centre())
        })
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
        (ctx, Board { occ, sides, removable, cells, quota: u64::MAX, over: false })
    }

    /// The number of move sequences of exactly `depth` plies (`docs/rules.md` §9),
    /// or [`OverBudget`] once it has gone through `budget` positions and
    /// paths.
    ///
    /// The count below a position reached again (a chain's captures taken
    /// in another order, two moves made in the other order) is read from a
    /// table kept for the call, found by a 128-bit fingerprint of the
    /// board; the table grows to at most 12 MiB (18 MiB for the moment it
    /// last doubles), and a count read from it spends none of the budget.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] past the budget.
    pub fn perft(&self, depth: u32, budget: PathBudget) -> Result<u64, OverBudget> {
        with_width!(self.rules.layout.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            st.quota = budget.paths();
            let n = st.perft(&ctx, self.ply, depth, &mut Counts::new());
            if st.over { Err(OverBudget::of(budget)) } else { Ok(n) }
        })
    }

    /// [`perft`](Self::perft) without a budget: exponential in `depth`,
    /// and, on some boards, already at depth 1.
    pub fn perft_unbounded(&self, depth: u32) -> u64 {
        self.perft(depth, PathBudget::UNLIMITED).unwrap_or(u64::MAX)
    }

    /// Perft of every legal move's child at `depth - 1`, sorted by move
    /// notation. Empty for depth 0. The budget covers the whole division.
    ///
    /// # Errors
    ///
    /// [`OverBudget`] past the budget.
    pub fn divide(&self, depth: u32, budget: PathBudget) -> Result<Vec<(Move, u64)>, OverBudget> {
        if depth == 0 {
            return Ok(Vec::new());
        }
        let lay = &self.rules.layout;
        let mut out = Vec::new();
        let over = with_width!(lay.words, W => {
            let (ctx, mut st) = self.kernel::<W>();
            st.quota = budget.paths();
            let mut seen = Counts::new();
            let _ = st.walk(&ctx, self.ply, &mut |st: &mut Board<W>, path: &[usize]| {
                if !st.spend() {
                    return ControlFlow::Break(());
                }
                let mv = Move::new(path.iter().map(|&i| lay.cell(i)).collect())
                    .expect("generated paths are not empty");
                let n = st.perft_seen(&ctx, self.ply + 1, depth - 1, &mut seen);
                out.push((mv, n));
                if st.over { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            });
            st.over
        });
        if over {
            return Err(OverBudget::of(budget));
        }
        out.sort_unstable_by(|a, b| a.0.cmp_notation(&b.0));
        Ok(out)
    }

    /// [`divide`](Self::divide) without a budget: exponential in `depth`.
    pub fn divide_unbounded(&self, depth: u32) -> Vec<(Move, u64)> {
        self.divide(depth, PathBudget::UNLIMITED).unwrap_or_default()
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
