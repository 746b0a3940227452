//! Making positions: a new game's deal, a position from a setup, and a
//! board string read straight into a position in one pass.

use super::*;

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
}
