//! Board strings (`docs/rules.md` §8): `WYRG/W1YR/GGWW/RYWY`.
//!
//! A [`Grid`] is what a board string says, checked only for form: its size
//! and what stands on each cell. Whether its letters are kinds of some rule
//! set is checked when a [`Position`](crate::Position) is made from it.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use thiserror::Error;

use crate::cell::{Cell, MAX_SIDE};

/// What a board string says of one cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Square {
    /// Not a cell of this board (`-`).
    Missing,
    /// An empty cell (a digit run, or `.`).
    Empty,
    /// A piece, by its kind's upper-case letter.
    Piece(char),
}

/// A board as written in a board string: `rows × cols` squares.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Grid {
    rows: u8,
    cols: u8,
    /// Rank 1 first, files left to right.
    squares: Vec<Square>,
}

/// Why a board string could not be read. Ranks and files are named as on
/// the board (`rank 15`, `file c`).
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// Nothing was given.
    #[error("the board string is empty")]
    Empty,
    /// More ranks than the engine supports.
    #[error("the board has {0} ranks; at most {MAX_SIDE} are supported")]
    TooManyRanks(usize),
    /// A rank wider than the engine supports.
    #[error("rank {rank} has more than {MAX_SIDE} cells; at most {MAX_SIDE} files are supported")]
    TooWide {
        /// The rank, as numbered on the board.
        rank: usize,
    },
    /// A rank whose width differs from the top rank's.
    #[error("rank {rank} has {cells} cells; the board is {cols} wide")]
    RankWidth {
        /// The rank, as numbered on the board.
        rank: usize,
        /// Its width.
        cells: usize,
        /// The width of the top rank.
        cols: usize,
    },
    /// A rank with no cells.
    #[error("rank {0} is empty")]
    EmptyRank(usize),
    /// A character that is no piece letter, digit, `.` or `-`.
    #[error("unexpected '{ch}' at rank {rank}, file {file}{hint}")]
    BadChar {
        /// The character.
        ch: char,
        /// The rank.
        rank: usize,
        /// The file letter where it stands (or `z+` past the last file).
        file: String,
        /// Extra advice.
        hint: &'static str,
    },
    /// A run of empty cells written `0` or with a leading zero.
    #[error(
        "empty-cell count '{run}' at rank {rank}, file {file} must be a number from 1 without leading zeros"
    )]
    BadRun {
        /// The digits.
        run: String,
        /// The rank.
        rank: usize,
        /// The file.
        file: String,
    },
}

fn file_name(f: usize) -> String {
    u8::try_from(f)
        .ok()
        .filter(|&f| f < MAX_SIDE)
        .map_or_else(|| "z+".to_string(), |f| char::from(b'a' + f).to_string())
}

impl Grid {
    /// A grid of `rows × cols` squares, all `fill`. Sides are clamped to
    /// 1..=26.
    pub fn filled(rows: u8, cols: u8, fill: Square) -> Grid {
        let (rows, cols) = (rows.clamp(1, MAX_SIDE), cols.clamp(1, MAX_SIDE));
        Grid { rows, cols, squares: vec![fill; usize::from(rows) * usize::from(cols)] }
    }

    /// Number of ranks.
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Number of files.
    pub fn cols(&self) -> u8 {
        self.cols
    }

    /// The square at `cell`, or `None` off the grid.
    pub fn get(&self, cell: Cell) -> Option<Square> {
        (cell.file() < self.cols && cell.rank() < self.rows).then(|| self.squares[self.at(cell)])
    }

    /// Sets the square at `cell`; off the grid nothing happens.
    pub fn set(&mut self, cell: Cell, square: Square) {
        if cell.file() < self.cols && cell.rank() < self.rows {
            let i = self.at(cell);
            self.squares[i] = square;
        }
    }

    fn at(&self, cell: Cell) -> usize {
        usize::from(cell.rank()) * usize::from(self.cols) + usize::from(cell.file())
    }

    /// The squares of each rank, rank 1 first, files left to right.
    pub(crate) fn ranks(&self) -> impl Iterator<Item = &[Square]> + '_ {
        self.squares.chunks(usize::from(self.cols).max(1))
    }

    /// Every cell with its square, rank 1 first.
    pub fn squares(&self) -> impl Iterator<Item = (Cell, Square)> + '_ {
        self.squares.iter().enumerate().map(|(i, &sq)| {
            let (r, f) = (i / usize::from(self.cols), i % usize::from(self.cols));
            (Cell::new(f as u8, r as u8).expect("grid sides are at most 26"), sq)
        })
    }

    /// Whether any cell is written `-`.
    pub fn has_missing(&self) -> bool {
        self.squares.contains(&Square::Missing)
    }

    /// The cells written `-`.
    pub fn missing(&self) -> Vec<Cell> {
        self.squares().filter(|&(_, sq)| sq == Square::Missing).map(|(c, _)| c).collect()
    }

    /// Reads one rank's squares into `out`; returns how many.
    fn parse_rank(
        text: &str,
        rank: usize,
        out: &mut [Square; MAX_SIDE as usize],
    ) -> Result<usize, ParseBoardError> {
        let max = usize::from(MAX_SIDE);
        let bytes = text.as_bytes();
        let (mut i, mut width) = (0, 0);
        while i < bytes.len() {
            let b = bytes[i];
            let square = match b {
                b'A'..=b'Z' => Square::Piece(char::from(b)),
                b'.' => Square::Empty,
                b'-' => Square::Missing,
                b'0'..=b'9' => {
                    let len = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                    let digits = &text[i..i + len];
                    let bad = || ParseBoardError::BadRun {
                        run: digits.chars().take(8).collect(),
                        rank,
                        file: file_name(width),
                    };
                    if b == b'0' {
                        return Err(bad());
                    }
                    let run: usize = if len > 3 { usize::MAX } else { digits.parse().map_err(|_| bad())? };
                    if run > max - width {
                        return Err(ParseBoardError::TooWide { rank });
                    }
                    out[width..width + run].fill(Square::Empty);
                    width += run;
                    i += len;
                    continue;
                }
                _ => {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    let hint = if ch.is_ascii_lowercase() {
                        " (piece letters are upper case)"
                    } else if ch == ' ' {
                        " (a board string has no spaces)"
                    } else {
                        ""
                    };
                    return Err(ParseBoardError::BadChar { ch, rank, file: file_name(width), hint });
                }
            };
            if width == max {
                return Err(ParseBoardError::TooWide { rank });
            }
            out[width] = square;
            width += 1;
            i += 1;
        }
        Ok(width)
    }
}

impl FromStr for Grid {
    type Err = ParseBoardError;

    /// Reads a board string (`docs/rules.md` §8): ranks from the top, `/` between.
    fn from_str(s: &str) -> Result<Grid, ParseBoardError> {
        if s.is_empty() {
            return Err(ParseBoardError::Empty);
        }
        let rows = s.bytes().filter(|&b| b == b'/').count() + 1;
        if rows > usize::from(MAX_SIDE) {
            return Err(ParseBoardError::TooManyRanks(rows));
        }
        // Ranks are written top down; squares are stored rank 1 first, so
        // each rank goes straight to its place once the width is known.
        let mut squares = Vec::new();
        let mut buf = [Square::Empty; MAX_SIDE as usize];
        let mut cols = 0;
        for (k, text) in s.split('/').enumerate() {
            let rank = rows - k;
            if text.is_empty() {
                return Err(ParseBoardError::EmptyRank(rank));
            }
            let width = Grid::parse_rank(text, rank, &mut buf)?;
            if k == 0 {
                cols = width;
                squares = vec![Square::Empty; rows * cols];
            } else if width != cols {
                return Err(ParseBoardError::RankWidth { rank, cells: width, cols });
            }
            squares[(rank - 1) * cols..rank * cols].copy_from_slice(&buf[..cols]);
        }
        Ok(Grid { rows: rows as u8, cols: cols as u8, squares })
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cols = usize::from(self.cols);
        for r in (0..usize::from(self.rows)).rev() {
            let mut run = 0;
            for sq in &self.squares[r * cols..(r + 1) * cols] {
                if *sq == Square::Empty {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                match sq {
                    Square::Missing => f.write_str("-")?,
                    Square::Piece(c) => f.write_char(*c)?,
                    Square::Empty => unreachable!("runs are handled above"),
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if r > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_rules_example() {
        let g: Grid = "WYRG/W1YR/GGWW/RYWY".parse().unwrap();
        assert_eq!((g.rows(), g.cols()), (4, 4));
        assert_eq!(g.get("b3".parse().unwrap()), Some(Square::Empty));
        assert_eq!(g.get("a1".parse().unwrap()), Some(Square::Piece('R')));
        assert_eq!(g.get("d4".parse().unwrap()), Some(Square::Piece('G')));
        assert_eq!(g.to_string(), "WYRG/W1YR/GGWW/RYWY");
    }

    #[test]
    fn a_dot_is_one_empty_cell_and_output_is_canonical() {
        let g: Grid = "W..G/-1.-/4/OOOO".parse().unwrap();
        assert_eq!(g.to_string(), "W2G/-2-/4/OOOO");
    }

    #[test]
    fn adjacent_digits_form_one_number() {
        let g: Grid = "11OOOO/15/15".parse().unwrap();
        assert_eq!(g.cols(), 15);
    }

    #[test]
    fn errors_name_the_rank_and_file() {
        let e = "OOO/OOOO/OOO".parse::<Grid>().unwrap_err();
        assert_eq!(e.to_string(), "rank 2 has 4 cells; the board is 3 wide");
        let e = "OOO/OqO/OOO".parse::<Grid>().unwrap_err();
        assert_eq!(e.to_string(), "unexpected 'q' at rank 2, file b (piece letters are upper case)");
        let e = "OOO/O0O/OOO".parse::<Grid>().unwrap_err();
        assert!(e.to_string().contains("rank 2, file b"), "{e}");
        let e = "OOO/O01/OOO".parse::<Grid>().unwrap_err();
        assert!(e.to_string().starts_with("empty-cell count '01'"), "{e}");
        let e = "OOO//OOO".parse::<Grid>().unwrap_err();
        assert_eq!(e.to_string(), "rank 2 is empty");
        let e = "/OOO".parse::<Grid>().unwrap_err();
        assert_eq!(e.to_string(), "rank 2 is empty");
        let e = "OOO/".parse::<Grid>().unwrap_err();
        assert_eq!(e.to_string(), "rank 1 is empty");
        let e = "99999999999999999999".parse::<Grid>().unwrap_err();
        assert_eq!(e, ParseBoardError::TooWide { rank: 1 });
        // The first rank written is the top one: rank 2 of two.
        let e = "O99999/OOO".parse::<Grid>().unwrap_err();
        assert_eq!(e, ParseBoardError::TooWide { rank: 2 });
    }

    #[test]
    fn a_square_set_is_read_back_as_set() {
        let mut g = Grid::filled(2, 3, Square::Empty);
        let (a1, b2, c1) = ("a1".parse().unwrap(), "b2".parse().unwrap(), "c1".parse().unwrap());
        g.set(a1, Square::Missing);
        g.set(b2, Square::Piece('G'));
        // Any letter is kept as given; only a rule set says which are kinds.
        g.set(c1, Square::Piece('é'));
        assert_eq!(g.get(a1), Some(Square::Missing));
        assert_eq!(g.get(b2), Some(Square::Piece('G')));
        assert_eq!(g.get(c1), Some(Square::Piece('é')));
        assert_eq!(g.get("b1".parse().unwrap()), Some(Square::Empty));
        assert_eq!(g.to_string(), "1G1/-1é");
        assert!(g.has_missing());
        assert_eq!(g.missing(), [a1]);
    }

    #[test]
    fn a_board_of_a_million_cells_is_refused_at_once() {
        let huge = vec!["O".repeat(1000); 1000].join("/");
        assert_eq!(huge.parse::<Grid>().unwrap_err(), ParseBoardError::TooManyRanks(1000));
        let wide = "O".repeat(1_000_000);
        assert_eq!(wide.parse::<Grid>().unwrap_err(), ParseBoardError::TooWide { rank: 1 });
    }
}
