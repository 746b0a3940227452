//! Moves: a removal is one cell, a jump a path of cells (`docs/rules.md` §6, §8).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::cell::{Cell, ParseCellError};

/// A move as its path: one cell for a removal, `s0, s1, …, sk` for a jump
/// of `k` captures. Written `c3xe3xe5`; a removal `h8`.
///
/// A `Move` is only a claim; [`Position::play`](crate::Position::play)
/// checks it.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move {
    path: Vec<Cell>,
}

impl Move {
    /// A move along `path`.
    ///
    /// # Errors
    ///
    /// [`ParseMoveError::Empty`] for an empty path.
    pub fn new(path: Vec<Cell>) -> Result<Move, ParseMoveError> {
        if path.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        Ok(Move { path })
    }

    /// The removal of the piece on `cell`.
    pub fn removal(cell: Cell) -> Move {
        Move { path: vec![cell] }
    }

    /// The cells of the path, start first.
    pub fn path(&self) -> &[Cell] {
        &self.path
    }

    /// Whether this is a removal (a path of one cell).
    pub fn is_removal(&self) -> bool {
        self.path.len() == 1
    }

    /// The cell the move starts from.
    pub fn from(&self) -> Cell {
        self.path[0]
    }

    /// The cell the moving piece ends on.
    pub fn to(&self) -> Cell {
        self.path[self.path.len() - 1]
    }

    /// Orders moves as their notation strings order (`c10` before `c2`),
    /// without allocating them.
    pub fn cmp_notation(&self, other: &Move) -> std::cmp::Ordering {
        cmp_notation(&self.path, &other.path)
    }

    /// The cells jumped over (the captured pieces), in order. Empty for a
    /// removal. Only meaningful for a move whose steps are jumps.
    pub fn jumped(&self) -> impl Iterator<Item = Cell> + '_ {
        jumped_over(&self.path)
    }
}

/// The cells a path of jumps passes over (the midpoint of each step), in
/// order: [`Move::jumped`] for a borrowed path, such as one of a
/// [`MoveList`]. Empty for a path of one cell.
///
/// ```
/// use jump_capture::{Cell, jumped_over};
/// let path: Vec<Cell> = ["c3", "e3", "e5"].iter().map(|c| c.parse().unwrap()).collect();
/// let names: Vec<String> = jumped_over(&path).map(|c| c.to_string()).collect();
/// assert_eq!(names, ["d3", "e4"]);
/// ```
pub fn jumped_over(path: &[Cell]) -> impl Iterator<Item = Cell> + '_ {
    path.windows(2).filter_map(|w| midpoint(w[0], w[1]))
}

/// The cell halfway between two cells two steps apart.
pub(crate) fn midpoint(a: Cell, b: Cell) -> Option<Cell> {
    Cell::new((a.file() + b.file()) / 2, (a.rank() + b.rank()) / 2)
}

/// The bytes of a path's notation, without building the string.
fn notation_bytes(path: &[Cell]) -> impl Iterator<Item = u8> + '_ {
    path.iter().enumerate().flat_map(|(i, c)| {
        let rank = u16::from(c.rank()) + 1;
        let sep = (i > 0).then_some(b'x');
        let tens = (rank >= 10).then(|| b'0' + (rank / 10) as u8);
        sep.into_iter()
            .chain(std::iter::once(b'a' + c.file()))
            .chain(tens)
            .chain(std::iter::once(b'0' + (rank % 10) as u8))
    })
}

/// Orders paths as their notation strings order.
pub(crate) fn cmp_notation(a: &[Cell], b: &[Cell]) -> std::cmp::Ordering {
    notation_bytes(a).cmp(notation_bytes(b))
}

/// A legal move as [`Position::for_each_move`](crate::Position::for_each_move)
/// hands it over, borrowed for the call: its path and what it scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredPath<'a> {
    /// The cells of the path, start first: one cell for a removal.
    pub path: &'a [Cell],
    /// Points it scores for the mover.
    pub gain: u32,
}

impl ScoredPath<'_> {
    /// The cells of the pieces it takes off the board, in order: the
    /// jumped ones (each halfway along its step), or the removed one.
    /// Worked out when asked, so that a walk that does not ask pays
    /// nothing for them.
    ///
    /// ```
    /// use jump_capture::{Cell, ScoredPath};
    /// let path: Vec<Cell> = ["c3", "e3", "e5"].iter().map(|c| c.parse().unwrap()).collect();
    /// let jump = ScoredPath { path: &path, gain: 2 };
    /// assert_eq!(jump.captures().map(|c| c.to_string()).collect::<Vec<_>>(), ["d3", "e4"]);
    /// let removal = ScoredPath { path: &path[..1], gain: 1 };
    /// assert_eq!(removal.captures().map(|c| c.to_string()).collect::<Vec<_>>(), ["c3"]);
    /// ```
    pub fn captures(&self) -> impl Iterator<Item = Cell> + '_ {
        let removal = if let [only] = self.path { std::slice::from_ref(only) } else { &[] };
        let steps = if removal.is_empty() { self.path } else { &[] };
        // A removal's one cell, or the middle of each step.
        removal.iter().copied().chain(steps.windows(2).map(|w| w[0].between(w[1])))
    }
}

/// Moves sorted by notation, with what each scores, stored flat: the
/// paths of all of them share one buffer, so listing a position's moves
/// allocates three times, not once per move.
/// [`Position::move_list`](crate::Position::move_list) makes one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveList {
    cells: Vec<Cell>,
    /// (start, length) of each path in `cells`, in notation order.
    spans: Vec<(u32, u32)>,
    /// What each move scores for the mover.
    gains: Vec<u32>,
}

impl MoveList {
    /// Paths already in notation order, and their gains.
    pub(crate) fn in_order(cells: Vec<Cell>, spans: Vec<(u32, u32)>, gains: Vec<u32>) -> MoveList {
        debug_assert_eq!(spans.len(), gains.len());
        let list = MoveList { cells, spans, gains };
        debug_assert!(
            list.paths().zip(list.paths().skip(1)).all(|(a, b)| cmp_notation(a, b).is_lt()),
            "paths out of notation order"
        );
        list
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The path of the `i`-th move (from 0, in notation order).
    pub fn path(&self, i: usize) -> Option<&[Cell]> {
        let &(start, len) = self.spans.get(i)?;
        Some(&self.cells[start as usize..(start + len) as usize])
    }

    /// What the `i`-th move scores for the player making it: the values of
    /// the pieces it captures (or of the piece it removes, where removals
    /// score).
    pub fn gain(&self, i: usize) -> Option<u32> {
        self.gains.get(i).copied()
    }

    /// The `i`-th move (from 0, in notation order).
    pub fn get(&self, i: usize) -> Option<Move> {
        self.path(i).map(|p| Move { path: p.to_vec() })
    }

    /// The paths, in notation order.
    pub fn paths(&self) -> impl ExactSizeIterator<Item = &[Cell]> + '_ {
        self.spans.iter().map(|&(start, len)| &self.cells[start as usize..(start + len) as usize])
    }

    /// The moves, in notation order.
    pub fn to_moves(&self) -> Vec<Move> {
        self.paths().map(|p| Move { path: p.to_vec() }).collect()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.path.iter().enumerate() {
            if i > 0 {
                f.write_str("x")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// Why a move string could not be read. `at` is the byte offset (from 0)
/// where it went wrong.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// No cells.
    #[error("a move needs at least one cell")]
    Empty,
    /// A cell name that could not be read.
    #[error("cell {index} at character {at}: {source}")]
    Cell {
        /// Which cell of the path, from 1.
        index: usize,
        /// Byte offset.
        at: usize,
        /// What was wrong with it.
        source: ParseCellError,
    },
    /// Something other than a single `x` between two cells.
    #[error("expected 'x' before cell {index} at character {at}, found '{found}'")]
    Separator {
        /// Which cell of the path would follow, from 1.
        index: usize,
        /// Byte offset.
        at: usize,
        /// The character found.
        found: char,
    },
    /// An `x` with no cell after it.
    #[error("the move ends with 'x'; a cell must follow it")]
    TrailingX,
    /// A path longer than any board allows.
    #[error("a path of more than {0} cells cannot be a move")]
    TooLong(usize),
}

/// Longest path that can be a move: one start and at most one capture per
/// cell of the largest board.
pub(crate) const MAX_PATH: usize = 26 * 26;

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let bytes = s.as_bytes();
        if bytes.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let mut path = Vec::new();
        let mut at = 0;
        loop {
            if path.len() >= MAX_PATH {
                return Err(ParseMoveError::TooLong(MAX_PATH));
            }
            let index = path.len() + 1;
            let (cell, used) = Cell::parse_prefix(&bytes[at..]).map_err(|source| ParseMoveError::Cell {
                index,
                at,
                source,
            })?;
            path.push(cell);
            at += used;
            match bytes.get(at) {
                None => return Ok(Move { path }),
                Some(b'x') if at + 1 == bytes.len() => return Err(ParseMoveError::TrailingX),
                Some(b'x') => at += 1,
                Some(_) => {
                    let found = s[at..].chars().next().unwrap_or('?');
                    return Err(ParseMoveError::Separator { index: index + 1, at, found });
                }
            }
        }
    }
}

/// Why a move was refused. The position is left as it was.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// A cell of the path is not on this board.
    #[error("{0} is not a cell of this board")]
    OffBoard(Cell),
    /// The start cell holds no piece.
    #[error("no piece on {0}")]
    NoPiece(Cell),
    /// A landing cell is occupied.
    #[error("{0} is not empty")]
    NotEmpty(Cell),
    /// Two consecutive cells are not two steps apart in a direction of the
    /// rule set.
    #[error("{from} to {to} is not a jump of this rule set")]
    NotAJump {
        /// Step start.
        from: Cell,
        /// Step end.
        to: Cell,
    },
    /// Nothing to jump over.
    #[error("{from} to {to} jumps over {over}, which is empty")]
    NothingToJump {
        /// Step start.
        from: Cell,
        /// The cell between.
        over: Cell,
        /// Step end.
        to: Cell,
    },
    /// The jumped piece may not be captured by the mover.
    #[error("the piece on {over} may not be captured by player {player}: only other players' pieces can be")]
    NotCapturable {
        /// The cell between.
        over: Cell,
        /// The mover, from 0.
        player: usize,
    },
    /// The moving piece belongs to someone else.
    #[error("the piece on {cell} is not player {player}'s to move")]
    NotYourPiece {
        /// Start cell.
        cell: Cell,
        /// The mover, from 0.
        player: usize,
    },
    /// A straight-line rule set, and the path turns.
    #[error("{from} to {to} changes direction; this rule set jumps in a straight line")]
    Turns {
        /// Step start.
        from: Cell,
        /// Step end.
        to: Cell,
    },
    /// A jump during the opening.
    #[error("the opening is not over: this ply removes one piece, so give one cell")]
    RemovalExpected,
    /// A removal after the opening.
    #[error("the opening is over: a move is a jump, a path of two or more cells")]
    JumpExpected,
    /// A removal of a kind the opening does not allow.
    #[error("only {allowed} may be removed")]
    KindNotRemovable {
        /// Which kinds may, in words (`a green piece`).
        allowed: String,
    },
    /// Konane's first removal away from the centre and corners.
    #[error("{0} is neither in the centre 2×2 nor a corner")]
    NotCentreOrCorner(Cell),
    /// Konane's second removal away from the hole.
    #[error("{0} is not orthogonally next to an empty cell")]
    NotNextToHole(Cell),
}

/// The jumps available from one cell, as a tree: each child is a landing
/// cell one more jump away, with the cell jumped to get there. Every node
/// but the root ends a legal move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct JumpTree {
    /// The cell this node stands on.
    pub cell: Cell,
    /// The cell jumped over to reach it (`None` at the root).
    pub over: Option<Cell>,
    /// Where the path can go next.
    pub next: Vec<JumpTree>,
}

impl JumpTree {
    /// Number of moves in the tree (nodes below the root).
    pub fn moves(&self) -> usize {
        self.next.iter().map(|n| 1 + n.moves()).sum()
    }
}
