//! Rule sets: the data that makes one jump-capture game differ from another.
//!
//! A [`RulesSpec`] is plain data with public fields, as a caller or a
//! preset writes it; [`Rules::new`] checks it once and gives a [`Rules`]
//! that every other part of the crate can trust.

use std::fmt;

use thiserror::Error;

use crate::cell::{Cell, DirectionSet, MAX_SIDE};
use crate::grid::Grid;
use crate::layout::Layout;
use crate::shape::Shape;

/// The most players a rule set may allow.
pub const MAX_PLAYERS: usize = 64;

/// A kind of piece: its letter in board strings, its name, its value in
/// points, and its owner (`None` for Leap Frog's shared pieces).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Kind {
    /// An upper-case ASCII letter, unique in the rule set.
    pub letter: char,
    /// A human name such as `"green"`.
    pub name: String,
    /// Points scored by capturing (or, where removals score, removing) one.
    pub value: u32,
    /// The player (from 0) who owns pieces of this kind, if any.
    pub owner: Option<usize>,
}

impl Kind {
    /// A kind owned by nobody.
    pub fn shared(letter: char, name: &str, value: u32) -> Kind {
        Kind { letter, name: name.to_string(), value, owner: None }
    }
}

/// Who may move which pieces, and which pieces they may jump over.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Capture {
    /// Any player moves any piece and captures any piece (Leap Frog).
    #[default]
    Shared,
    /// A player moves only pieces they own and captures only pieces another
    /// player owns; pieces owned by nobody neither move nor are captured
    /// (Konane).
    Owned,
}

/// How the steps of one move chain together.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Chain {
    /// Each step may take any direction of the set (Leap Frog).
    #[default]
    Free,
    /// Every step keeps the first step's direction (Konane).
    Straight,
}

/// The removals that open a game (`docs/rules.md` §5).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub enum Opening {
    /// Play starts with jumps: the board must already have a hole.
    #[default]
    None,
    /// Every player in turn removes one piece, plies `0..N`. `kinds`, when
    /// set, are the letters of the kinds that may be removed.
    EachPlayerRemoves {
        /// Letters of removable kinds; `None` means any.
        kinds: Option<Vec<char>>,
    },
    /// The first player removes one piece at ply 0 (Froglet: a green one).
    FirstPlayerRemoves {
        /// Letters of removable kinds; `None` means any.
        kinds: Option<Vec<char>>,
    },
    /// Konane: at ply 0 the first player removes an own piece from the
    /// centre 2×2 or a corner; at ply 1 the second removes an own piece
    /// orthogonally next to an empty cell.
    Konane,
}

impl Opening {
    /// The number of plies the opening lasts with `players` players.
    pub fn plies(&self, players: usize) -> u32 {
        match self {
            Opening::None => 0,
            Opening::EachPlayerRemoves { .. } => players as u32,
            Opening::FirstPlayerRemoves { .. } => 1,
            Opening::Konane => 2,
        }
    }

    pub(crate) fn kinds(&self) -> Option<&[char]> {
        match self {
            Opening::EachPlayerRemoves { kinds } | Opening::FirstPlayerRemoves { kinds } => kinds.as_deref(),
            _ => None,
        }
    }
}

/// How a finished game is decided (`docs/rules.md` §7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum EndRule {
    /// Players are ranked by score; all with the top score win together.
    #[default]
    HighestScore,
    /// The player to move who cannot move loses; everyone else wins.
    NoMoveLoses,
    /// Peg solitaire (one player): when no jump is left, the result is the
    /// pieces left; one is a solution, one on the board's centre a perfect
    /// one (see [`crate::Solitaire`]).
    PiecesLeft,
}

/// How the starting board is filled (`docs/rules.md` §3).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Fill {
    /// Every starting cell gets a piece; kinds are apportioned by these
    /// weights (one per kind, in kind order) by largest remainder and
    /// shuffled from the seed.
    Random {
        /// Relative weights, one per kind.
        weights: Vec<u32>,
    },
    /// A checkerboard: the top-left cell holds kind `top_left` (an index
    /// into the kinds), its orthogonal neighbours kind `other`.
    Checkerboard {
        /// Kind index on the top-left cell.
        top_left: usize,
        /// Kind index on the other colour.
        other: usize,
    },
}

/// A rule set as plain data, before it is checked. Presets produce one;
/// callers may change any field and then call [`Rules::new`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RulesSpec {
    /// Identifier of the preset this came from, or a caller's own name.
    pub name: String,
    /// Number of ranks, 3 to 26.
    pub rows: u8,
    /// Number of files, 3 to 26.
    pub cols: u8,
    /// Cells that do not exist on this board.
    pub mask: Vec<Cell>,
    /// Cells that start empty (peg solitaire's centre hole).
    pub holes: Vec<Cell>,
    /// Directions a jump may take.
    pub directions: DirectionSet,
    /// The kinds of piece.
    pub kinds: Vec<Kind>,
    /// How the starting board is filled.
    pub fill: Fill,
    /// Who moves and captures which pieces.
    pub capture: Capture,
    /// Whether a move may change direction between steps.
    pub chain: Chain,
    /// The removals before the first jump.
    pub opening: Opening,
    /// Whether a removed piece scores for the player who removed it.
    pub removals_score: bool,
    /// How the result is decided.
    pub end: EndRule,
    /// Fewest players.
    pub min_players: usize,
    /// Most players.
    pub max_players: usize,
}

impl RulesSpec {
    /// Sets the board size.
    pub fn with_size(mut self, rows: u8, cols: u8) -> Self {
        self.rows = rows;
        self.cols = cols;
        self
    }

    /// Takes the board's shape from a grid: its rows, its columns, and its
    /// `-` cells as the mask. Used where a position string says the size.
    pub fn with_shape_of(mut self, grid: &Grid) -> Self {
        self.rows = grid.rows();
        self.cols = grid.cols();
        self.mask = grid.missing();
        self
    }

    /// Draws the board as a `shape` of side `side` (see
    /// [`Shape::grid`] and [`Shape::mask`]) with `holes` starting empty.
    pub fn shaped(mut self, shape: Shape, side: u8, holes: Vec<Cell>) -> Self {
        (self.rows, self.cols) = shape.grid(side);
        self.mask = shape.mask(side);
        self.holes = holes;
        self
    }

    /// Sets the direction set.
    pub fn with_directions(mut self, directions: DirectionSet) -> Self {
        self.directions = directions;
        self
    }
}

/// `A`..=`Z` as 0..26: kind letters are upper-case ASCII.
fn letter_slot(letter: char) -> Option<usize> {
    letter.is_ascii_uppercase().then(|| letter as usize - 'A' as usize)
}

/// A rule set that has been checked: every other type trusts it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Rules {
    spec: RulesSpec,
    pub(crate) layout: Layout,
    /// Per kind index: may it be removed in the opening?
    pub(crate) removable: Vec<bool>,
    /// Per letter `A`..=`Z`: the index of its kind, or `u8::MAX`.
    by_letter: [u8; 26],
}

/// Why a rule set was refused.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum RulesError {
    /// A board's side outside what its shape allows.
    #[error("a {shape} board's side must be from {} to {}, not {side}", .sides.start(), .sides.end())]
    Side {
        /// The shape's name.
        shape: &'static str,
        /// The side asked for.
        side: u8,
        /// The sides it may have.
        sides: std::ops::RangeInclusive<u8>,
    },
    /// Rows or columns outside 3..=26.
    #[error("the board is {rows}×{cols}; each side must be from 3 to {MAX_SIDE}")]
    Size {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A mask or hole cell lies outside the board.
    #[error("{what} cell {cell} is off the {rows}×{cols} board")]
    CellOffBoard {
        /// `"mask"` or `"hole"`.
        what: &'static str,
        /// The cell.
        cell: Cell,
        /// Board rows.
        rows: u8,
        /// Board columns.
        cols: u8,
    },
    /// No kinds of piece, or more than 26.
    #[error("a rule set needs 1 to 26 kinds of piece, not {0}")]
    KindCount(usize),
    /// A kind letter that is not an upper-case ASCII letter.
    #[error("kind letter '{0}' is not an upper-case letter A to Z")]
    KindLetter(char),
    /// Two kinds share a letter.
    #[error("two kinds share the letter '{0}'")]
    DuplicateKind(char),
    /// A kind's owner is not a player index the rules allow.
    #[error("kind '{letter}' is owned by player {owner}, but at most {max_players} players take part")]
    KindOwner {
        /// The kind.
        letter: char,
        /// Its owner index.
        owner: usize,
        /// The player limit.
        max_players: usize,
    },
    /// Player limits that make no sense.
    #[error("players must be from {min} to {max} with 1 ≤ min ≤ max ≤ {MAX_PLAYERS}")]
    PlayerRange {
        /// Fewest players.
        min: usize,
        /// Most players.
        max: usize,
    },
    /// Fill weights that do not match the kinds.
    #[error("the fill needs one weight per kind ({kinds}) and a positive total; got {weights:?}")]
    FillWeights {
        /// Number of kinds.
        kinds: usize,
        /// The weights given.
        weights: Vec<u32>,
    },
    /// A checkerboard fill naming a kind that does not exist.
    #[error("the checkerboard fill names kind {0}, but only {1} kinds exist")]
    FillKind(usize, usize),
    /// A removable kind letter that names no kind.
    #[error("the opening lets kind '{0}' be removed, but there is no such kind")]
    UnknownRemovableKind(char),
    /// Owned captures where no kind has an owner.
    #[error("capture = owned needs kinds with owners, and no kind has one")]
    NoOwners,
    /// A kind with an owner among shared pieces (rule book §2: pieces are
    /// all shared or all owned; an owner that would be ignored is refused).
    #[error(
        "kind {letter} has an owner, but the pieces are shared (capture = shared): give no kind an owner, \
         or make the pieces owned"
    )]
    OwnerButShared {
        /// The kind.
        letter: char,
    },
    /// A kind without an owner among owned pieces (§2).
    #[error("kind {letter} has no owner, but the pieces are owned (capture = owned): every kind needs one")]
    NoOwner {
        /// The kind.
        letter: char,
    },
    /// A first-player removal under owned pieces that the first player
    /// cannot make: none of the removable kinds is its own (§5).
    #[error(
        "the opening has the first player remove a piece of {kinds}, but under owned pieces a player removes \
         one of its own, and player 0 owns none of those kinds"
    )]
    RemovalNotOwn {
        /// The removable kinds, as the rule set names them (`any kind` when
        /// it names none).
        kinds: String,
    },
    /// The Konane opening outside its shape.
    #[error(
        "the Konane opening needs an even number of rows and columns, exactly 2 players and owned pieces"
    )]
    KonaneShape,
}

/// The ownership decisions of rule book §2 and §5 for a new rule set:
/// pieces all shared or all owned, and under owned pieces a first-player
/// removal the first player can make.
fn check_ownership(spec: &RulesSpec) -> Result<(), RulesError> {
    match spec.capture {
        Capture::Shared => {
            if let Some(k) = spec.kinds.iter().find(|k| k.owner.is_some()) {
                return Err(RulesError::OwnerButShared { letter: k.letter });
            }
        }
        // None owned at all is `NoOwners`, reported with the rest.
        Capture::Owned if spec.kinds.iter().all(|k| k.owner.is_none()) => {}
        Capture::Owned => {
            if let Some(k) = spec.kinds.iter().find(|k| k.owner.is_none()) {
                return Err(RulesError::NoOwner { letter: k.letter });
            }
            if let Opening::FirstPlayerRemoves { kinds } = &spec.opening {
                let removable = |k: &Kind| kinds.as_ref().is_none_or(|ks| ks.contains(&k.letter));
                if !spec.kinds.iter().any(|k| removable(k) && k.owner == Some(0)) {
                    let kinds = match kinds {
                        Some(ks) => ks.iter().map(char::to_string).collect::<Vec<_>>().join(", "),
                        None => "any kind".into(),
                    };
                    return Err(RulesError::RemovalNotOwn { kinds });
                }
            }
        }
    }
    Ok(())
}

impl Rules {
    /// Checks a rule set.
    ///
    /// # Errors
    ///
    /// A [`RulesError`] naming the first thing that is wrong.
    pub fn new(spec: RulesSpec) -> Result<Rules, RulesError> {
        check_ownership(&spec)?;
        Rules::stored(spec)
    }

    /// A rule set as a game stored it before the ownership decisions of
    /// the rule book (§2: pieces all shared or all owned; §5: a first
    /// removal under owned pieces takes one of the remover's own): checked
    /// as [`Rules::new`] checks, but for those, so that such a game loads
    /// and plays as it always did — owners among shared pieces ignored,
    /// unowned pieces among owned ones neither moving nor captured. New
    /// rule sets go through [`Rules::new`].
    ///
    /// # Errors
    ///
    /// A [`RulesError`] naming the first thing that is wrong.
    pub fn stored(spec: RulesSpec) -> Result<Rules, RulesError> {
        let (rows, cols) = (spec.rows, spec.cols);
        if !(3..=MAX_SIDE).contains(&rows) || !(3..=MAX_SIDE).contains(&cols) {
            return Err(RulesError::Size { rows: rows.into(), cols: cols.into() });
        }
        for (what, cells) in [("mask", &spec.mask), ("hole", &spec.holes)] {
            if let Some(&cell) = cells.iter().find(|c| c.file() >= cols || c.rank() >= rows) {
                return Err(RulesError::CellOffBoard { what, cell, rows, cols });
            }
        }
        if spec.kinds.is_empty() || spec.kinds.len() > 26 {
            return Err(RulesError::KindCount(spec.kinds.len()));
        }
        if !(1..=spec.max_players).contains(&spec.min_players) || spec.max_players > MAX_PLAYERS {
            return Err(RulesError::PlayerRange { min: spec.min_players, max: spec.max_players });
        }
        for (i, kind) in spec.kinds.iter().enumerate() {
            if !kind.letter.is_ascii_uppercase() {
                return Err(RulesError::KindLetter(kind.letter));
            }
            if spec.kinds[..i].iter().any(|k| k.letter == kind.letter) {
                return Err(RulesError::DuplicateKind(kind.letter));
            }
            if let Some(owner) = kind.owner.filter(|&o| o >= spec.max_players) {
                return Err(RulesError::KindOwner {
                    letter: kind.letter,
                    owner,
                    max_players: spec.max_players,
                });
            }
        }
        match &spec.fill {
            Fill::Random { weights } => {
                if weights.len() != spec.kinds.len() || weights.iter().all(|&w| w == 0) {
                    return Err(RulesError::FillWeights {
                        kinds: spec.kinds.len(),
                        weights: weights.clone(),
                    });
                }
            }
            &Fill::Checkerboard { top_left, other } => {
                if let Some(k) = [top_left, other].into_iter().find(|&k| k >= spec.kinds.len()) {
                    return Err(RulesError::FillKind(k, spec.kinds.len()));
                }
            }
        }
        if let Some(kinds) = spec.opening.kinds() {
            if let Some(&c) = kinds.iter().find(|&&c| spec.kinds.iter().all(|k| k.letter != c)) {
                return Err(RulesError::UnknownRemovableKind(c));
            }
        }
        if spec.capture == Capture::Owned && spec.kinds.iter().all(|k| k.owner.is_none()) {
            return Err(RulesError::NoOwners);
        }
        if spec.opening == Opening::Konane
            && (rows % 2 != 0
                || cols % 2 != 0
                || spec.min_players != 2
                || spec.max_players != 2
                || spec.capture != Capture::Owned)
        {
            return Err(RulesError::KonaneShape);
        }
        let removable =
            spec.kinds.iter().map(|k| spec.opening.kinds().is_none_or(|ks| ks.contains(&k.letter))).collect();
        let layout = Layout::new(rows, cols, &spec.mask, spec.directions);
        let mut by_letter = [u8::MAX; 26];
        for (i, k) in spec.kinds.iter().enumerate().rev() {
            if let Some(slot) = letter_slot(k.letter) {
                by_letter[slot] = i as u8;
            }
        }
        Ok(Rules { spec, layout, removable, by_letter })
    }

    /// The complete rule set as plain data.
    pub fn spec(&self) -> &RulesSpec {
        &self.spec
    }

    /// The rule set's name (its preset's id, unless a caller changed it).
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// Number of ranks.
    pub fn rows(&self) -> u8 {
        self.spec.rows
    }

    /// Number of files.
    pub fn cols(&self) -> u8 {
        self.spec.cols
    }

    /// The direction set.
    pub fn directions(&self) -> DirectionSet {
        self.spec.directions
    }

    /// The kinds of piece, in order.
    pub fn kinds(&self) -> &[Kind] {
        &self.spec.kinds
    }

    /// The index of the kind with this letter.
    pub fn kind_index(&self, letter: char) -> Option<usize> {
        let k = self.by_letter[letter_slot(letter)?];
        (k != u8::MAX).then_some(usize::from(k))
    }

    /// Whether `cell` is on the board (inside it and not masked out).
    pub fn has_cell(&self, cell: Cell) -> bool {
        cell.file() < self.spec.cols
            && cell.rank() < self.spec.rows
            && self.layout.exists_at(self.layout.index(cell))
    }

    /// Every cell of the board, rank 1 first, files left to right.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let (rows, cols) = (self.spec.rows, self.spec.cols);
        (0..rows)
            .flat_map(move |r| (0..cols).filter_map(move |f| Cell::new(f, r)))
            .filter(|&c| self.has_cell(c))
    }

    /// The board's centre, if it has one: the middle cell of a grid of odd
    /// sides whose board looks the same turned half round (the cross's
    /// `d4`, a hexagon's centre; a triangle has none).
    pub fn centre(&self) -> Option<Cell> {
        let (rows, cols) = (self.spec.rows, self.spec.cols);
        if rows % 2 == 0 || cols % 2 == 0 {
            return None;
        }
        let turned = |c: Cell| Cell::new(cols - 1 - c.file(), rows - 1 - c.rank());
        let symmetric = self.spec.mask.iter().all(|&c| turned(c).is_some_and(|t| !self.has_cell(t)));
        Cell::new(cols / 2, rows / 2).filter(|&c| symmetric && self.has_cell(c))
    }

    /// The player range allowed.
    pub fn player_range(&self) -> std::ops::RangeInclusive<usize> {
        self.spec.min_players..=self.spec.max_players
    }

    /// Checks a player count against the rules.
    ///
    /// # Errors
    ///
    /// [`PlayersError`] when the count is outside the rules' range.
    pub fn check_players(&self, players: usize) -> Result<(), PlayersError> {
        if self.player_range().contains(&players) {
            Ok(())
        } else {
            Err(PlayersError { players, min: self.spec.min_players, max: self.spec.max_players })
        }
    }
}

/// A player count the rules do not allow.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("{players} players; these rules take {min} to {max}")]
pub struct PlayersError {
    /// The count given.
    pub players: usize,
    /// Fewest allowed.
    pub min: usize,
    /// Most allowed.
    pub max: usize,
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}×{} {}", self.spec.name, self.spec.rows, self.spec.cols, self.spec.directions)
    }
}
