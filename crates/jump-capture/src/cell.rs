//! Cells named chess-style (`a1` bottom left), and the eight directions.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The most files (and ranks) a board may have: files are the letters `a`..`z`.
pub const MAX_SIDE: u8 = 26;

/// One cell of a rectangular board: a file (column, `a` = 0 from the left)
/// and a rank (row, `1` = 0 from the bottom).
///
/// A `Cell` is a coordinate, not a claim that the cell exists on a given
/// board; the rules check that.
///
/// ```
/// use jump_capture::Cell;
/// let c: Cell = "c10".parse().unwrap();
/// assert_eq!((c.file(), c.rank()), (2, 9));
/// assert_eq!(c.to_string(), "c10");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Cell {
    file: u8,
    rank: u8,
}

impl Cell {
    /// The cell at `file` (0 = `a`) and `rank` (0 = rank `1`), if both are
    /// below [`MAX_SIDE`].
    pub const fn new(file: u8, rank: u8) -> Option<Cell> {
        if file < MAX_SIDE && rank < MAX_SIDE { Some(Cell { file, rank }) } else { None }
    }

    /// The file, counted from 0 at the left (`a`).
    pub const fn file(self) -> u8 {
        self.file
    }

    /// The rank, counted from 0 at the bottom (rank `1`).
    pub const fn rank(self) -> u8 {
        self.rank
    }

    /// The file letter, `a` to `z`.
    pub fn file_char(self) -> char {
        char::from(b'a' + self.file)
    }

    /// The cell's name as ASCII bytes — its file letter, then its rank in
    /// one or two digits — and the name's length (2 or 3): what
    /// [`Display`](fmt::Display) writes, for writers that spell names
    /// without a formatter (and for `const` tables of them).
    ///
    /// ```
    /// let c10 = jump_capture::Cell::new(2, 9).unwrap();
    /// assert_eq!(c10.name_bytes(), (*b"c10", 3));
    /// let (bytes, len) = jump_capture::Cell::new(0, 0).unwrap().name_bytes();
    /// assert_eq!(&bytes[..len], b"a1");
    /// ```
    pub const fn name_bytes(self) -> ([u8; 3], usize) {
        let rank = self.rank + 1;
        let letter = b'a' + self.file;
        if rank < 10 {
            ([letter, b'0' + rank, 0], 2)
        } else {
            ([letter, b'0' + rank / 10, b'0' + rank % 10], 3)
        }
    }

    /// The cell halfway between this one and `other`, two steps away
    /// along a direction: the cell a jump between them passes over.
    #[inline(always)]
    pub(crate) fn between(self, other: Cell) -> Cell {
        Cell { file: (self.file + other.file) / 2, rank: (self.rank + other.rank) / 2 }
    }

    /// The cell one step in `dir`, if it is still a valid coordinate.
    pub fn step(self, dir: Direction) -> Option<Cell> {
        let (df, dr) = dir.delta();
        let f = i16::from(self.file) + i16::from(df);
        let r = i16::from(self.rank) + i16::from(dr);
        Cell::new(u8::try_from(f).ok()?, u8::try_from(r).ok()?)
    }

    /// Reads one cell from the front of `s` (a file letter, then a rank of
    /// one or two digits without a leading zero) and returns it with the
    /// number of bytes read.
    pub(crate) fn parse_prefix(s: &[u8]) -> Result<(Cell, usize), ParseCellError> {
        let file = match s.first() {
            Some(&b) if b.is_ascii_lowercase() => b - b'a',
            Some(&b) => return Err(ParseCellError::BadFile(char::from(b))),
            None => return Err(ParseCellError::Empty),
        };
        let digits = s[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(ParseCellError::NoRank);
        }
        let text = &s[1..1 + digits];
        if text[0] == b'0' || digits > 2 {
            return Err(ParseCellError::BadRank(String::from_utf8_lossy(text).into_owned()));
        }
        let rank = text.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        if rank > MAX_SIDE {
            return Err(ParseCellError::BadRank(String::from_utf8_lossy(text).into_owned()));
        }
        Ok((Cell { file, rank: rank - 1 }, 1 + digits))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (bytes, len) = self.name_bytes();
        // Letters and digits: always UTF-8.
        f.write_str(std::str::from_utf8(&bytes[..len]).unwrap_or("?"))
    }
}

/// Why a cell name could not be read.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum ParseCellError {
    /// Nothing was given.
    #[error("a cell name is empty")]
    Empty,
    /// The first character is not a lower-case file letter.
    #[error("'{0}' is not a file letter (a to z)")]
    BadFile(char),
    /// No digits follow the file letter.
    #[error("a rank number must follow the file letter")]
    NoRank,
    /// The rank is zero, has a leading zero, or is above 26.
    #[error("rank '{0}' is not a number from 1 to 26")]
    BadRank(String),
    /// Characters follow a complete cell name.
    #[error("unexpected '{0}' after the cell name")]
    Trailing(String),
}

impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        let (cell, used) = Cell::parse_prefix(s.as_bytes())?;
        if used != s.len() {
            return Err(ParseCellError::Trailing(s[used..].to_string()));
        }
        Ok(cell)
    }
}

/// One of the eight compass directions. North is towards higher ranks, east
/// towards later files.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Up: rank + 1.
    N,
    /// Up and right.
    NE,
    /// Right: file + 1.
    E,
    /// Down and right.
    SE,
    /// Down: rank - 1.
    S,
    /// Down and left.
    SW,
    /// Left: file - 1.
    W,
    /// Up and left.
    NW,
}

impl Direction {
    /// All eight, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// `(file step, rank step)`.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::N => (0, 1),
            Direction::NE => (1, 1),
            Direction::E => (1, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -1),
            Direction::SW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, 1),
        }
    }

    /// Whether this is N, E, S or W.
    pub const fn is_orthogonal(self) -> bool {
        matches!(self, Direction::N | Direction::E | Direction::S | Direction::W)
    }

    /// The direction whose single step is `(df, dr)`.
    pub fn from_delta(df: i8, dr: i8) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.delta() == (df, dr))
    }
}

/// Which directions a jump may take.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum DirectionSet {
    /// N, E, S, W: classic Leap Frog, Froglet, Konane.
    #[default]
    Orthogonal,
    /// NE, SE, SW, NW only.
    Diagonal,
    /// All eight: Leap Frog's "diagonal variant".
    All,
    /// N, NE, E, S, SW, W: six neighbours of a hexagonal grid laid on the
    /// square one in axial coordinates (`docs/rules.md` §12): Chinese-checkers
    /// Capture, triangular peg solitaire.
    Hex,
}

impl DirectionSet {
    /// Every set, in the order listed to users.
    pub const ALL: [DirectionSet; 4] =
        [DirectionSet::Orthogonal, DirectionSet::Diagonal, DirectionSet::All, DirectionSet::Hex];

    /// The directions of the set, clockwise from north.
    pub fn directions(self) -> &'static [Direction] {
        use Direction::*;
        match self {
            DirectionSet::Orthogonal => &[N, E, S, W],
            DirectionSet::Diagonal => &[NE, SE, SW, NW],
            DirectionSet::All => &[N, NE, E, SE, S, SW, W, NW],
            DirectionSet::Hex => &[N, NE, E, S, SW, W],
        }
    }

    /// Whether the set holds `dir`.
    pub fn contains(self, dir: Direction) -> bool {
        self.directions().contains(&dir)
    }

    /// The name used on the command line and the wire.
    pub fn name(self) -> &'static str {
        match self {
            DirectionSet::Orthogonal => "orthogonal",
            DirectionSet::Diagonal => "diagonal",
            DirectionSet::All => "all",
            DirectionSet::Hex => "hex",
        }
    }
}

impl fmt::Display for DirectionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A direction set name other than `orthogonal`, `diagonal`, `all` or `hex`.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown direction set '{0}'; expected orthogonal, diagonal, all or hex")]
pub struct ParseDirectionSetError(pub String);

impl FromStr for DirectionSet {
    type Err = ParseDirectionSetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "orthogonal" => Ok(DirectionSet::Orthogonal),
            "diagonal" => Ok(DirectionSet::Diagonal),
            "all" => Ok(DirectionSet::All),
            "hex" => Ok(DirectionSet::Hex),
            other => Err(ParseDirectionSetError(other.chars().take(40).collect())),
        }
    }
}
