//! Playing a move on a position: checked against the rules, refused with
//! the reason, or applied.

use super::*;

impl Position {
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
        // Only the path's ends and the captured pieces' cells change
        // (a move's own cells, not the whole board: this runs for every
        // move a search plays).
        let touched = played.captures.iter().map(|&(c, _)| c).chain([played.mv.from(), played.mv.to()]);
        for i in touched.map(|c| lay.index(c)) {
            if kind_index(self.squares[i]).is_some() != kind_index(squares[i]).is_some() {
                self.occ[i >> 6] ^= 1 << (i & 63);
            }
            // A cell named twice (a removal's, a path home) toggles once.
            self.squares[i] = squares[i];
        }
        debug_assert!(lay.bits == squares.len());
        debug_assert!(
            squares
                .iter()
                .enumerate()
                .all(|(i, &sq)| { kind_index(sq).is_some() == (self.occ[i >> 6] >> (i & 63) & 1 != 0) })
        );
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
}
