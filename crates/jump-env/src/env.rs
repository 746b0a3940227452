//! One game, a jump a step.

use jump_capture::{Capture, Cell, Chain, Move, PathBudget, Position, Square};

use crate::encoding::{Action, Encoding};
use crate::sets::BitBoard;

/// Why a step was refused (nothing changed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvError {
    /// Not an action of this board.
    #[error("action {0} is not one of this board's")]
    Unknown(u32),
    /// An action the rules do not allow now.
    #[error("action {0} ({1}) is not legal now")]
    Illegal(u32, String),
    /// The game is over.
    #[error("the game is over")]
    Over,
}

/// The state before a step, for [`Env::undo`].
#[derive(Debug, Clone)]
struct Snapshot {
    pos: Position,
    chain: Vec<Cell>,
    squares: Vec<u8>,
}

/// A game as an environment: one jump (or removal, or stop) a step.
#[derive(Debug, Clone)]
pub struct Env {
    start: Position,
    pos: Position,
    encoding: Encoding,
    /// The path of the move being made this turn (empty between moves).
    chain: Vec<Cell>,
    /// Each cell's piece as the board stands mid-chain, by cell index: 0
    /// empty, `k + 1` a piece of kind `k` (at most 26 kinds); one more
    /// entry past the cells, always empty, which [`NO_JUMP`] points at.
    squares: Vec<u8>,
    /// Points on the board at the start, to scale the score planes.
    total: f32,
    history: Vec<Snapshot>,
    /// Whether steps are kept for [`Env::undo`] (a batch does not).
    keep_history: bool,
    /// The legal actions, ascending: found once a state (the mask, the
    /// list and a random draw all read it).
    legal: Vec<u32>,
    /// For cell `i` and direction `d`, at `i × D + d`: the cells jumped
    /// over and landed on, both on the board, or the always empty entry
    /// past the cells twice (a table, made once: the scan of every cell a
    /// step reads it, not the rules).
    jumps: Vec<(u16, u16)>,
    /// `squares` as bit sets, for the scan of every piece's jumps.
    bits: BitBoard,
}

/// What decides whether a piece may jump, the same for every cell of a
/// scan: as bit masks over `squares`' codes, the pieces that may jump
/// and those they may take (bit 0, an empty cell, in neither); the one
/// direction a straight chain keeps.
#[derive(Debug, Clone, Copy)]
struct JumpRule {
    owned: bool,
    movers: u32,
    victims: u32,
    only: Option<usize>,
}

/// The table of [`Env`]'s `jumps` for `pos`'s board.
fn jump_table(pos: &Position, e: &Encoding) -> Vec<(u16, u16)> {
    let rules = pos.rules();
    // No jump that way (off the board, or over or onto a cell it has
    // not): over and onto the always empty entry, so that no test is
    // needed — an empty cell is never taken.
    let none = u16::try_from(e.cells()).unwrap_or(u16::MAX);
    let mut table = vec![(none, none); e.cells() * e.directions().len()];
    for cell in rules.cells() {
        for (d, &dir) in e.directions().iter().enumerate() {
            let over = cell.step(dir).filter(|&c| rules.has_cell(c));
            let to = over.and_then(|o| o.step(dir)).filter(|&c| rules.has_cell(c));
            if let (Some(o), Some(t)) = (over, to) {
                let index = |c: Cell| u16::try_from(e.cell_index(c)).unwrap_or(u16::MAX);
                table[e.cell_index(cell) * e.directions().len() + d] = (index(o), index(t));
            }
        }
    }
    table
}

impl Env {
    /// A game from `start`.
    pub fn new(start: Position) -> Env {
        let encoding = Encoding::new(start.rules(), start.players());
        let squares = squares_of(&start, &encoding);
        let mut bits = BitBoard::new(start.rules(), &encoding);
        bits.load(&squares);
        let kinds = start.rules().kinds();
        let on_board: u32 =
            squares.iter().filter(|&&k| k > 0).map(|&k| kinds[usize::from(k) - 1].value).sum();
        let scored: u32 = start.scores().iter().sum();
        let total = (on_board + scored).max(1) as f32;
        Env {
            pos: start.clone(),
            start,
            encoding,
            chain: Vec::new(),
            squares,
            total,
            history: Vec::new(),
            keep_history: true,
            legal: Vec::new(),
            jumps: Vec::new(),
            bits,
        }
        .with_legal()
    }

    /// Makes the jump table and finds the legal actions of the start.
    fn with_legal(mut self) -> Env {
        self.jumps = jump_table(&self.pos, &self.encoding);
        self.find_legal();
        self
    }

    /// Finds the legal actions of the state (kept in `legal`, ascending).
    fn find_legal(&mut self) {
        let mut legal = std::mem::take(&mut self.legal);
        legal.clear();
        let e = &self.encoding;
        let dirs = e.directions().len();
        let rule = self.jump_rule();
        if let Some(&cur) = self.chain.last() {
            // Mid-chain: the moving piece's jumps, or stop.
            let i = e.cell_index(cur);
            self.each_jump_at(i, &rule, |d| legal.push((i * dirs + d) as u32));
            legal.push((e.cells() * (dirs + 1)) as u32);
        } else if self.pos.is_opening() {
            // Removals are at most a cell each: listing them is bounded.
            let moves = self.pos.legal_moves(PathBudget::new(e.cells() as u64 + 1)).unwrap_or_default();
            legal.extend(moves.iter().map(|m| (e.cells() * dirs + e.cell_index(m.from())) as u32));
        } else {
            // Every piece's jumps: a scan of bit sets.
            let roles = rule.owned.then_some((rule.movers, rule.victims));
            self.bits.first_jumps(roles, |i, d| legal.push((i * dirs + d) as u32));
        }
        legal.sort_unstable();
        self.legal = legal;
    }

    /// The same game without [`Env::undo`]: no copy of the state a step.
    pub fn without_undo(mut self) -> Env {
        self.keep_history = false;
        self.history.clear();
        self
    }

    /// A uniformly random legal action, drawn by `pick(n)` answering an
    /// index below `n`; `None` when the game is over.
    pub fn random_action(&self, mut pick: impl FnMut(u64) -> u64) -> Option<u32> {
        let n = self.legal.len() as u64;
        (n > 0).then(|| self.legal[pick(n) as usize])
    }

    /// Back to the start.
    pub fn reset(&mut self) {
        self.pos = self.start.clone();
        self.chain.clear();
        self.squares = squares_of(&self.pos, &self.encoding);
        self.bits.load(&self.squares);
        self.history.clear();
        self.find_legal();
    }

    /// The layout of actions and observations.
    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// The position at the start of the current turn.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The player to move (mid-chain, the one making the chain).
    pub fn to_move(&self) -> usize {
        self.pos.to_move()
    }

    /// Whether a chain is under way (the player to move keeps the turn).
    pub fn in_chain(&self) -> bool {
        !self.chain.is_empty()
    }

    /// The actions that make the move of `path` (its cells, start first):
    /// a removal, or a jump a step; add [`Action::Stop`] when the chain
    /// can go on after them. `None` when two cells are not a jump apart.
    pub fn actions_of(&self, path: &[Cell]) -> Option<Vec<u32>> {
        let e = &self.encoding;
        match path {
            [] => None,
            [cell] => e.encode(Action::Remove(*cell)).map(|a| vec![a]),
            _ => path
                .windows(2)
                .map(|w| {
                    let d = direction_of(e, w[0], w[1])?;
                    e.encode(Action::Jump { from: w[0], direction: e.directions()[d] })
                })
                .collect(),
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        // The engine's end is "the player to move has no move": read off
        // the legal actions found, not asked again (the tests check both agree).
        self.chain.is_empty() && self.legal.is_empty()
    }

    /// The jumps the piece on cell index `i` can make next on the board as
    /// it stands, as visits of their direction's index: no list, no cell
    /// arithmetic (the jump table has it), no branch but the visit's.
    #[inline]
    fn each_jump_at(&self, i: usize, rule: &JumpRule, mut visit: impl FnMut(usize)) {
        let sq = &self.squares;
        if rule.movers >> sq[i] & 1 == 0 {
            return;
        }
        let dirs = self.encoding.directions().len();
        for (d, &(over, to)) in self.jumps[i * dirs..(i + 1) * dirs].iter().enumerate() {
            let takes = rule.victims >> sq[usize::from(over)] & 1 != 0;
            if takes & (sq[usize::from(to)] == 0) & rule.only.is_none_or(|f| f == d) {
                visit(d);
            }
        }
    }

    /// What decides a jump now, found once for a scan of many cells.
    fn jump_rule(&self) -> JumpRule {
        let spec = self.pos.rules().spec();
        let straight = spec.chain == Chain::Straight && self.chain.len() >= 2;
        let (owned, player) = (spec.capture == Capture::Owned, self.pos.to_move());
        let (mut movers, mut victims) = (0, 0);
        for (k, kind) in self.pos.rules().kinds().iter().enumerate() {
            let mine = kind.owner == Some(player);
            movers |= u32::from(!owned || mine) << (k + 1);
            victims |= u32::from(!owned || kind.owner.is_some_and(|o| o != player)) << (k + 1);
        }
        JumpRule {
            owned,
            movers,
            victims,
            only: straight.then(|| direction_of(&self.encoding, self.chain[0], self.chain[1])).flatten(),
        }
    }

    /// The legal actions, ascending.
    pub fn legal_actions(&self) -> Vec<u32> {
        self.legal.clone()
    }

    /// Writes the legal actions' mask (1 legal, 0 not) into `mask`, of
    /// [`Encoding::actions`] bytes.
    pub fn legal_mask(&self, mask: &mut [u8]) {
        mask.fill(0);
        for &a in &self.legal {
            if let Some(m) = mask.get_mut(a as usize) {
                *m = 1;
            }
        }
    }

    /// Plays `action`: each player's points scored by it (all zero until
    /// the move ends).
    ///
    /// # Errors
    ///
    /// An action not of this board, not legal now, or a game over; the
    /// game is unchanged then.
    pub fn step(&mut self, action: u32) -> Result<Vec<f64>, EnvError> {
        if self.is_over() {
            return Err(EnvError::Over);
        }
        let decoded = self.encoding.decode(action).ok_or(EnvError::Unknown(action))?;
        let illegal = || EnvError::Illegal(action, format!("{decoded:?}"));
        if self.legal.binary_search(&action).is_err() {
            return Err(illegal());
        }
        let before = self.keep_history.then(|| Snapshot {
            pos: self.pos.clone(),
            chain: self.chain.clone(),
            squares: self.squares.clone(),
        });
        let players = self.pos.players();
        let rewards = match decoded {
            Action::Remove(cell) => self.finish(Move::removal(cell))?,
            Action::Stop => {
                let path = std::mem::take(&mut self.chain);
                self.finish(Move::new(path).map_err(|_| illegal())?)?
            }
            Action::Jump { from, direction } => {
                let over = from.step(direction).ok_or_else(illegal)?;
                let to = over.step(direction).ok_or_else(illegal)?;
                let (f, o, t) = (
                    self.encoding.cell_index(from),
                    self.encoding.cell_index(over),
                    self.encoding.cell_index(to),
                );
                if self.chain.is_empty() {
                    self.chain.push(from);
                }
                self.chain.push(to);
                let (mover, taken) = (self.squares[f], self.squares[o]);
                self.set_square(f, 0);
                self.set_square(o, 0);
                self.set_square(t, mover);
                debug_assert!(taken != 0 && mover != 0);
                let mut more = false;
                self.each_jump_at(t, &self.jump_rule(), |_| more = true);
                if !more {
                    let path = std::mem::take(&mut self.chain);
                    self.finish(Move::new(path).map_err(|_| illegal())?)?
                } else {
                    vec![0.0; players]
                }
            }
        };
        self.history.extend(before);
        self.find_legal();
        Ok(rewards)
    }

    /// Plays the whole move on the position; the points it scored. The
    /// board mid-chain is already the board after it (a removal's cell is
    /// emptied here).
    fn finish(&mut self, mv: Move) -> Result<Vec<f64>, EnvError> {
        let before: Vec<u32> = self.pos.scores().to_vec();
        self.pos.play(&mv).map_err(|e| EnvError::Illegal(u32::MAX, format!("{mv}: {e}")))?;
        self.chain.clear();
        if mv.is_removal() {
            self.set_square(self.encoding.cell_index(mv.from()), 0);
        }
        debug_assert_eq!(self.squares, squares_of(&self.pos, &self.encoding));
        Ok(self.pos.scores().iter().zip(before).map(|(&a, b)| f64::from(a - b)).collect())
    }

    /// Puts `code` on cell index `i`, in the squares and their bit sets.
    fn set_square(&mut self, i: usize, code: u8) {
        self.bits.place(i, self.squares[i], code);
        self.squares[i] = code;
    }

    /// Takes back the last step; `false` at the start.
    pub fn undo(&mut self) -> bool {
        let Some(s) = self.history.pop() else { return false };
        (self.pos, self.chain, self.squares) = (s.pos, s.chain, s.squares);
        self.bits.load(&self.squares);
        self.find_legal();
        true
    }

    /// A finished game's returns: +1 to the winners and −1 to the others,
    /// or 0 to all when all share the win; `None` while it goes on.
    pub fn returns(&self) -> Option<Vec<f64>> {
        if !self.is_over() {
            return None;
        }
        let outcome = self.pos.outcome()?;
        let players = self.pos.players();
        if outcome.winners.len() == players && players > 1 {
            return Some(vec![0.0; players]);
        }
        Some((0..players).map(|p| if outcome.winners.contains(&p) { 1.0 } else { -1.0 }).collect())
    }

    /// Writes the observation planes into `out`, of
    /// `channels × rows × cols` floats (see [`Encoding`]).
    pub fn observe(&self, out: &mut [f32]) {
        out.fill(0.0);
        let e = &self.encoding;
        let plane = e.cells();
        let rules = self.pos.rules();
        for cell in rules.cells() {
            let i = e.cell_index(cell);
            out[e.board_plane() * plane + i] = 1.0;
            match self.squares[i] {
                0 => out[e.empty_plane() * plane + i] = 1.0,
                k => out[e.kind_plane(usize::from(k) - 1) * plane + i] = 1.0,
            }
        }
        if let Some(&cur) = self.chain.last() {
            out[e.chain_plane() * plane + e.cell_index(cur)] = 1.0;
        }
        let to_move = e.to_move_plane(self.pos.to_move()) * plane;
        out[to_move..to_move + plane].fill(1.0);
        for (p, &s) in self.pos.scores().iter().enumerate() {
            let at = e.score_plane(p) * plane;
            out[at..at + plane].fill(s as f32 / self.total);
        }
    }
}

/// [`Env`]'s `squares` of `pos`: each cell's piece by cell index (0
/// empty, `k + 1` kind `k`), and the always empty entry past them.
fn squares_of(pos: &Position, e: &Encoding) -> Vec<u8> {
    let mut squares = vec![0; e.cells() + 1];
    for (cell, square) in pos.grid().squares() {
        if let Square::Piece(letter) = square {
            let code = pos.rules().kind_index(letter).map_or(0, |k| k + 1);
            squares[e.cell_index(cell)] = u8::try_from(code).unwrap_or(0);
        }
    }
    squares
}

/// The index of the direction from `a` to `b` two cells away.
fn direction_of(e: &Encoding, a: Cell, b: Cell) -> Option<usize> {
    e.directions().iter().position(|&d| a.step(d).and_then(|o| o.step(d)) == Some(b))
}
