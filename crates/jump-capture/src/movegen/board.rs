//! The board as the move generator holds it, changed in place by
//! make/unmake: bitboards for bulk work and a padded mailbox for following
//! paths cell by cell; and the moves that change it.

use super::{OpeningStep, RuleTables};
use crate::bits::Bits;
use crate::gather::{Cells, MB_LEN};

// Square codes: one encoding for the generator's mailbox and a position's
// squares. A cell is `MB_OFF` (it does not exist), `MB_EMPTY`, or holds a
// piece: in the mailbox, its role (1 under shared rules, 1 + owner under
// owned ones, or `MB_INERT`); in a position, its kind (index + 1).

/// Code of an empty cell.
pub(crate) const MB_EMPTY: u8 = 0;
/// Mailbox code of a piece nobody may move or capture (owned rules, no
/// owner in this game).
pub(crate) const MB_INERT: u8 = 0xFE;
/// Code of a cell that does not exist.
pub(crate) const MB_OFF: u8 = 0xFF;

/// The padded mailbox: one code per cell.
#[derive(Clone, Debug)]
pub(crate) struct Mailbox(pub(super) Box<Cells>);

impl Mailbox {
    pub(crate) fn new() -> Self {
        Mailbox(Box::new([MB_OFF; MB_LEN]))
    }
}

impl std::ops::Index<usize> for Mailbox {
    type Output = u8;

    #[inline(always)]
    fn index(&self, i: usize) -> &u8 {
        &self.0[i & (MB_LEN - 1)]
    }
}

impl std::ops::IndexMut<usize> for Mailbox {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut u8 {
        &mut self.0[i & (MB_LEN - 1)]
    }
}

/// Whether a piece with mailbox code `code` may be captured by the mover
/// whose own pieces have code `mine` (0 under shared rules, where every
/// piece has code 1).
#[inline(always)]
pub(super) fn capturable(code: u8, mine: u8) -> bool {
    // `&`, not `&&`: both sides are cheap, and a branch here mispredicts.
    (code.wrapping_sub(1) < MB_INERT - 1) & (code != mine)
}

/// The mutable bitboards of a position.
#[derive(Clone, Debug)]
pub(crate) struct Board<const W: usize> {
    pub(crate) occ: Bits<W>,
    /// Per player, the pieces they own (only under owned captures).
    pub(crate) sides: Vec<Bits<W>>,
    /// Pieces whose kind the opening lets be removed.
    pub(crate) removable: Bits<W>,
    /// Per layout index plus `pad`: [`MB_EMPTY`], [`MB_OFF`], [`MB_INERT`],
    /// or the piece's code: 1 under shared rules, 1 + owner under owned.
    pub(crate) cells: Mailbox,
    /// Work left before an enumeration gives up: one unit per call of
    /// [`Board::count_on`] (each stands for at least one move, and does a
    /// bounded amount of work of its own) and per ply made by perft. At 0
    /// the enumeration winds down and `over` is set; its result is then
    /// incomplete. `u64::MAX` for no limit.
    pub(crate) quota: u64,
    /// Whether the quota ran out.
    pub(crate) over: bool,
}

impl<const W: usize> Board<W> {
    #[inline(always)]
    pub(super) fn mover(ctx: &RuleTables<W>, ply: u32) -> usize {
        (ply % ctx.players) as usize
    }

    /// The pieces the player to move may move, and those they may capture.
    #[inline(always)]
    pub(super) fn roles(&self, ctx: &RuleTables<W>, ply: u32) -> (Bits<W>, Bits<W>) {
        if !ctx.owned {
            return (self.occ, self.occ);
        }
        let p = Self::mover(ctx, ply);
        let mut others = Bits::EMPTY;
        for (q, side) in self.sides.iter().enumerate() {
            if q != p {
                others = others.or(*side);
            }
        }
        (self.sides[p], others)
    }

    /// The mailbox code of the mover's pieces (0 under shared rules).
    #[inline(always)]
    pub(super) fn mine(ctx: &RuleTables<W>, ply: u32) -> u8 {
        if ctx.owned { 1 + Self::mover(ctx, ply) as u8 } else { 0 }
    }

    /// Jumps the piece on `s` over `m` to `t` in the mailbox only
    /// (mailbox indices); returns the captured code for [`Board::unstep`].
    #[inline(always)]
    pub(super) fn step(&mut self, s: usize, m: usize, t: usize) -> u8 {
        self.step_as::<false>(s, m, t)
    }

    /// [`Board::step`]; `SHARED`: under shared rules, where every piece
    /// has code 1, so the codes are known without reading them.
    #[inline(always)]
    pub(super) fn step_as<const SHARED: bool>(&mut self, s: usize, m: usize, t: usize) -> u8 {
        let (mover, captured) = if SHARED { (1, 1) } else { (self.cells[s], self.cells[m]) };
        self.cells[t] = mover;
        self.cells[s] = MB_EMPTY;
        self.cells[m] = MB_EMPTY;
        captured
    }

    #[inline(always)]
    pub(super) fn unstep(&mut self, s: usize, m: usize, t: usize, captured: u8) {
        self.unstep_as::<false>(s, m, t, captured);
    }

    /// [`Board::unstep`]; `SHARED` as in [`Board::step_as`].
    #[inline(always)]
    pub(super) fn unstep_as<const SHARED: bool>(&mut self, s: usize, m: usize, t: usize, captured: u8) {
        self.cells[s] = if SHARED { 1 } else { self.cells[t] };
        self.cells[t] = MB_EMPTY;
        self.cells[m] = if SHARED { 1 } else { captured };
    }

    /// Jumps the piece on `s` over `m` to `t` (layout indices), in the
    /// bitboards and the mailbox; returns what [`Board::unjump`] needs.
    #[inline(always)]
    pub(super) fn jump(&mut self, ctx: &RuleTables<W>, s: usize, m: usize, t: usize) -> u8 {
        self.occ.toggle(s);
        self.occ.toggle(m);
        self.occ.toggle(t);
        let mover = self.cells[s + ctx.pad];
        let captured = self.step(s + ctx.pad, m + ctx.pad, t + ctx.pad);
        if ctx.owned {
            self.toggle_side(mover, s);
            self.toggle_side(mover, t);
            self.toggle_side(captured, m);
        }
        captured
    }

    #[inline(always)]
    pub(super) fn unjump(&mut self, ctx: &RuleTables<W>, s: usize, m: usize, t: usize, captured: u8) {
        self.occ.toggle(s);
        self.occ.toggle(m);
        self.occ.toggle(t);
        self.unstep(s + ctx.pad, m + ctx.pad, t + ctx.pad, captured);
        if ctx.owned {
            let mover = self.cells[s + ctx.pad];
            self.toggle_side(mover, s);
            self.toggle_side(mover, t);
            self.toggle_side(captured, m);
        }
    }

    #[inline(always)]
    pub(super) fn toggle_side(&mut self, code: u8, i: usize) {
        if let Some(side) = self.sides.get_mut(usize::from(code.wrapping_sub(1))) {
            side.toggle(i);
        }
    }

    /// `(over, onto)` as layout indices if the piece on `x` can jump in
    /// offset `o` now.
    #[inline(always)]
    pub(super) fn open_step(
        &self,
        ctx: &RuleTables<W>,
        ply: u32,
        x: usize,
        o: i32,
    ) -> Option<(usize, usize)> {
        let o = o as isize as usize;
        let m = x.wrapping_add(o);
        let t = m.wrapping_add(o);
        let ok = self.cells[t.wrapping_add(ctx.pad)] == MB_EMPTY
            && capturable(self.cells[m.wrapping_add(ctx.pad)], Self::mine(ctx, ply));
        ok.then_some((m, t))
    }

    /// Takes the piece on `i` off the board, or puts it back (a toggle).
    pub(super) fn toggle_removal(&mut self, ctx: &RuleTables<W>, ply: u32, i: usize, was_removable: bool) {
        self.occ.toggle(i);
        if was_removable {
            self.removable.toggle(i);
        }
        let code = if ctx.owned { Self::mine(ctx, ply) } else { 1 };
        let cell = &mut self.cells[i + ctx.pad];
        *cell = if *cell == MB_EMPTY { code } else { MB_EMPTY };
        if ctx.owned {
            self.toggle_side(code, i);
        }
    }

    /// The cells the player to move may remove, in the opening.
    pub(super) fn removals(&self, ctx: &RuleTables<W>, ply: u32, step: OpeningStep) -> Bits<W> {
        let (mov, _) = self.roles(ctx, ply);
        match step {
            OpeningStep::Removal => mov.and(self.removable),
            OpeningStep::KonaneFirst => mov.and(ctx.konane_first),
            OpeningStep::KonaneSecond => {
                let empty = ctx.exists.and_not(self.occ);
                let near = ctx.orth.iter().fold(Bits::EMPTY, |acc, &o| acc.or(empty.shift(o)));
                mov.and(near)
            }
        }
    }

    /// The landing cells of single jumps in direction `o`.
    #[inline(always)]
    pub(super) fn landings(empty: Bits<W>, mov: Bits<W>, capt: Bits<W>, o: i32) -> Bits<W> {
        empty.and(capt.shift(o)).and(mov.shift(2 * o))
    }

    /// The cells a jump can start from at `ply` (past the opening): the
    /// movers with a capturable piece next to them and an empty cell beyond,
    /// in any direction.
    pub(super) fn jump_starts(&self, ctx: &RuleTables<W>, ply: u32) -> Bits<W> {
        let (mov, capt) = self.roles(ctx, ply);
        let empty = ctx.exists.and_not(self.occ);
        let mut starts = Bits::<W>::EMPTY;
        for &o in &ctx.offs[..ctx.ndirs] {
            starts = starts.or(Self::landings(empty, mov, capt, o).shift(-2 * o));
        }
        starts
    }

    /// Takes one unit of work from the quota; `false` (and `over` set)
    /// when none is left.
    #[inline(always)]
    pub(crate) fn spend(&mut self) -> bool {
        if self.quota == 0 {
            self.over = true;
            return false;
        }
        self.quota -= 1;
        true
    }

    /// Whether the player to move has a legal move: the removals of the
    /// opening, or any first jump. Bitboard sets only, no walk.
    pub(crate) fn has_move(&self, ctx: &RuleTables<W>, ply: u32) -> bool {
        if let Some(step) = ctx.opening_step(ply) {
            return !self.removals(ctx, ply, step).is_empty();
        }
        let (mov, capt) = self.roles(ctx, ply);
        let empty = ctx.exists.and_not(self.occ);
        ctx.offs[..ctx.ndirs].iter().any(|&o| !Self::landings(empty, mov, capt, o).is_empty())
    }

    /// Plays the move along `path` (layout indices) for good: no unmake.
    pub(crate) fn apply(&mut self, ctx: &RuleTables<W>, ply: u32, path: &[usize]) {
        if let [cell] = path {
            let was = self.removable.has(*cell);
            self.toggle_removal(ctx, ply, *cell, was);
            return;
        }
        for w in path.windows(2) {
            let m = (w[0] + w[1]) / 2;
            self.jump(ctx, w[0], m, w[1]);
        }
    }
}
