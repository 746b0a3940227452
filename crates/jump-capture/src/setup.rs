//! Position strings (`docs/rules.md` §8): `<board> <ply> <score,score,…>`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::grid::{Grid, ParseBoardError};

/// A position as written, checked only for form. Public fields: anything
/// may be put here; [`Position::from_setup`](crate::Position::from_setup)
/// checks it against a rule set.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The board.
    pub grid: Grid,
    /// Plies played so far; the player to move is `ply % scores.len()`.
    pub ply: u32,
    /// One score per player.
    pub scores: Vec<u32>,
}

/// Why a position string could not be read.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// Not three fields separated by single spaces.
    #[error("a position is three fields separated by single spaces (board, ply, scores); {0}")]
    Fields(String),
    /// The board field.
    #[error("board: {0}")]
    Board(#[from] ParseBoardError),
    /// The ply field.
    #[error("ply '{0}' is not a whole number from 0 to 4294967295")]
    Ply(String),
    /// One of the scores.
    #[error("score {index} ('{text}') is not a whole number from 0 to 4294967295")]
    Score {
        /// Which score, from 1.
        index: usize,
        /// What was written.
        text: String,
    },
    /// More scores than players are allowed anywhere.
    #[error("{0} scores; at most {max} players are supported", max = crate::rules::MAX_PLAYERS)]
    TooManyScores(usize),
}

fn number(text: &str) -> Option<u32> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    canonical.then(|| text.parse().ok()).flatten()
}

fn clip(s: &str) -> String {
    s.chars().take(24).collect()
}

impl FromStr for Setup {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Setup, ParsePositionError> {
        let fields: Vec<&str> = s.splitn(4, ' ').collect();
        match fields.as_slice() {
            [board, ply, scores] => {
                let grid: Grid = board.parse()?;
                let ply = number(ply).ok_or_else(|| ParsePositionError::Ply(clip(ply)))?;
                let count = scores.bytes().filter(|&b| b == b',').count() + 1;
                if count > crate::rules::MAX_PLAYERS {
                    return Err(ParsePositionError::TooManyScores(count));
                }
                let scores = scores
                    .split(',')
                    .enumerate()
                    .map(|(i, t)| {
                        number(t).ok_or_else(|| ParsePositionError::Score { index: i + 1, text: clip(t) })
                    })
                    .collect::<Result<_, _>>()?;
                Ok(Setup { grid, ply, scores })
            }
            _ => {
                let why = if s.contains("  ") || s.starts_with(' ') || s.ends_with(' ') {
                    "found an empty field (two spaces in a row, or a space at an end)".to_string()
                } else {
                    format!(
                        "found {}",
                        if fields.len() > 3 { "more than 3".to_string() } else { fields.len().to_string() }
                    )
                };
                Err(ParsePositionError::Fields(why))
            }
        }
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ", self.grid, self.ply)?;
        for (i, s) in self.scores.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_rules_example() {
        let s: Setup = "WYRG/W1YR/GGWW/RYWY 3 4,0,2".parse().unwrap();
        assert_eq!(s.ply, 3);
        assert_eq!(s.scores, vec![4, 0, 2]);
        assert_eq!(s.to_string(), "WYRG/W1YR/GGWW/RYWY 3 4,0,2");
    }

    #[test]
    fn errors_name_the_field() {
        let e = "OOO/OOO/OOO x 0".parse::<Setup>().unwrap_err();
        assert_eq!(e.to_string(), "ply 'x' is not a whole number from 0 to 4294967295");
        let e = "OOO/OOO/OOO 1 0,,2".parse::<Setup>().unwrap_err();
        assert!(e.to_string().starts_with("score 2 ('')"), "{e}");
        let e = "OOO/OOO/OOO  1 0".parse::<Setup>().unwrap_err();
        assert!(e.to_string().contains("empty field"), "{e}");
        let e = "OOO/OOO/OOO 1".parse::<Setup>().unwrap_err();
        assert!(e.to_string().ends_with("found 2"), "{e}");
        let e = "OOO/OOq/OOO 1 0".parse::<Setup>().unwrap_err();
        assert!(e.to_string().starts_with("board: unexpected 'q' at rank 2, file c"), "{e}");
        let e = "OOO/OOO/OOO 01 0".parse::<Setup>().unwrap_err();
        assert!(matches!(e, ParsePositionError::Ply(_)));
    }
}
