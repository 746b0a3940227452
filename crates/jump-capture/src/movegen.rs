//! The move generator: bitboard kernels, generic over the bitboard width.
//!
//! Everything here works on layout indices (see `layout.rs`) and a small
//! [`State`] of bitboards changed in place by make/unmake; nothing
//! allocates per move. Counting the moves of a position (the leaves of
//! perft) is done in bulk: for each direction `d` the landing cells of all
//! single jumps are `empty & capturable<<d & movable<<2d`, and only the
//! landings from which a further jump exists are followed one by one.

use std::ops::ControlFlow;

use crate::bits::Bits;
use crate::rules::{Capture, Chain, Opening, Rules};

/// Calls `$body` with `$w` bound as a `const usize` wide enough for the
/// layout's bitboards (rounded up to limit monomorphised copies).
macro_rules! with_width {
    ($words:expr, $w:ident => $body:expr) => {
        match $words {
            1 => { const $w: usize = 1; $body }
            2 => { const $w: usize = 2; $body }
            3 => { const $w: usize = 3; $body }
            4 => { const $w: usize = 4; $body }
            5 | 6 => { const $w: usize = 6; $body }
            7 | 8 => { const $w: usize = 8; $body }
            _ => { const $w: usize = $crate::layout::MAX_WORDS; $body }
        }
    };
}
pub(crate) use with_width;

/// What the opening asks for at a ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum OpeningStep {
    Removal,
    KonaneFirst,
    KonaneSecond,
}

/// Per-rule-set constants of the kernel.
pub(crate) struct Ctx<const W: usize> {
    pub(crate) exists: Bits<W>,
    pub(crate) offs: [i32; 8],
    pub(crate) ndirs: usize,
    straight: bool,
    owned: bool,
    players: u32,
    opening_plies: u32,
    konane: bool,
    /// Konane's first-removal cells: the centre 2×2 and the corners.
    konane_first: Bits<W>,
    /// Orthogonal offsets, for "next to an empty cell".
    orth: [i32; 4],
    pub(crate) bits: usize,
}

impl<const W: usize> Ctx<W> {
    pub(crate) fn new(rules: &Rules, players: usize) -> Self {
        let lay = &rules.layout;
        let spec = rules.spec();
        let mut offs = [0; 8];
        for (slot, &(_, o)) in offs.iter_mut().zip(&lay.dirs) {
            *slot = o;
        }
        let mut konane_first = Bits::EMPTY;
        if spec.opening == Opening::Konane {
            let (r, c) = (usize::from(lay.rows), usize::from(lay.cols));
            let cells = [
                (0, 0),
                (0, c - 1),
                (r - 1, 0),
                (r - 1, c - 1),
                (r / 2 - 1, c / 2 - 1),
                (r / 2 - 1, c / 2),
                (r / 2, c / 2 - 1),
                (r / 2, c / 2),
            ];
            for (rank, file) in cells {
                let i = rank * lay.stride + file;
                if !konane_first.has(i) {
                    konane_first.toggle(i);
                }
            }
        }
        let s = lay.stride as i32;
        Ctx {
            exists: Bits::from_slice(&lay.exists),
            offs,
            ndirs: lay.dirs.len(),
            straight: spec.chain == Chain::Straight,
            owned: spec.capture == Capture::Owned,
            players: players as u32,
            opening_plies: spec.opening.plies(players),
            konane: spec.opening == Opening::Konane,
            konane_first,
            orth: [s, 1, -s, -1],
            bits: lay.bits,
        }
    }

    fn opening_step(&self, ply: u32) -> Option<OpeningStep> {
        if ply >= self.opening_plies {
            None
        } else if !self.konane {
            Some(OpeningStep::Removal)
        } else if ply == 0 {
            Some(OpeningStep::KonaneFirst)
        } else {
            Some(OpeningStep::KonaneSecond)
        }
    }

    #[inline(always)]
    fn step(&self, i: usize, o: i32) -> Option<usize> {
        let t = i as isize + o as isize;
        (0..self.bits as isize).contains(&t).then_some(t as usize)
    }
}

/// The mutable bitboards of a position.
#[derive(Clone, Debug)]
pub(crate) struct State<const W: usize> {
    pub(crate) occ: Bits<W>,
    /// Per player, the pieces they own (only under owned captures).
    pub(crate) sides: Vec<Bits<W>>,
    /// Pieces whose kind the opening lets be removed.
    pub(crate) removable: Bits<W>,
}

impl<const W: usize> State<W> {
    #[inline(always)]
    fn mover(ctx: &Ctx<W>, ply: u32) -> usize {
        (ply % ctx.players) as usize
    }

    /// The pieces the player to move may move, and those they may capture.
    #[inline(always)]
    fn roles(&self, ctx: &Ctx<W>, ply: u32) -> (Bits<W>, Bits<W>) {
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

    #[inline(always)]
    fn can_capture(&self, ctx: &Ctx<W>, ply: u32, m: usize) -> bool {
        if !ctx.owned {
            return self.occ.has(m);
        }
        let p = Self::mover(ctx, ply);
        self.sides.iter().enumerate().any(|(q, side)| q != p && side.has(m))
    }

    /// Jumps the mover's piece from `s` over `m` to `t`; returns the owner
    /// of the captured piece for [`State::unjump`].
    #[inline(always)]
    fn jump(&mut self, ctx: &Ctx<W>, ply: u32, s: usize, m: usize, t: usize) -> usize {
        self.occ.toggle(s);
        self.occ.toggle(m);
        self.occ.toggle(t);
        if !ctx.owned {
            return 0;
        }
        let p = Self::mover(ctx, ply);
        self.sides[p].toggle(s);
        self.sides[p].toggle(t);
        let q = self.sides.iter().position(|side| side.has(m)).unwrap_or(p);
        self.sides[q].toggle(m);
        q
    }

    #[inline(always)]
    fn unjump(&mut self, ctx: &Ctx<W>, ply: u32, s: usize, m: usize, t: usize, q: usize) {
        self.occ.toggle(s);
        self.occ.toggle(m);
        self.occ.toggle(t);
        if ctx.owned {
            let p = Self::mover(ctx, ply);
            self.sides[p].toggle(s);
            self.sides[p].toggle(t);
            self.sides[q].toggle(m);
        }
    }

    /// Takes the piece on `i` off the board, or puts it back (a toggle).
    fn toggle_removal(&mut self, ctx: &Ctx<W>, ply: u32, i: usize, was_removable: bool) {
        self.occ.toggle(i);
        if was_removable {
            self.removable.toggle(i);
        }
        if ctx.owned {
            let p = Self::mover(ctx, ply);
            self.sides[p].toggle(i);
        }
    }

    /// The cells the player to move may remove, in the opening.
    fn removals(&self, ctx: &Ctx<W>, ply: u32, step: OpeningStep) -> Bits<W> {
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
    fn landings(empty: Bits<W>, mov: Bits<W>, capt: Bits<W>, o: i32) -> Bits<W> {
        empty.and(capt.shift(o)).and(mov.shift(2 * o))
    }

    /// The number of legal moves (perft 1).
    pub(crate) fn count(&mut self, ctx: &Ctx<W>, ply: u32) -> u64 {
        if let Some(step) = ctx.opening_step(ply) {
            return self.removals(ctx, ply, step).count();
        }
        let (mov, capt) = self.roles(ctx, ply);
        let empty = ctx.exists.and_not(self.occ);
        // Cells from which a jump in direction i would be possible.
        let mut from = [Bits::<W>::EMPTY; 8];
        let mut from_any = Bits::<W>::EMPTY;
        let mut lands = [Bits::<W>::EMPTY; 8];
        let mut total = 0;
        let mut any = false;
        for i in 0..ctx.ndirs {
            let o = ctx.offs[i];
            lands[i] = Self::landings(empty, mov, capt, o);
            total += lands[i].count();
            any |= !lands[i].is_empty();
        }
        if !any {
            return 0;
        }
        for i in 0..ctx.ndirs {
            let o = ctx.offs[i];
            from[i] = capt.shift(-o).and(empty.shift(-2 * o));
            from_any = from_any.or(from[i]);
        }
        for i in 0..ctx.ndirs {
            let go_on = lands[i].and(if ctx.straight { from[i] } else { from_any });
            let o = ctx.offs[i] as isize;
            for t in go_on.iter() {
                let (m, s) = ((t as isize - o) as usize, (t as isize - 2 * o) as usize);
                let q = self.jump(ctx, ply, s, m, t);
                total += self.count_on(ctx, ply, t, i);
                self.unjump(ctx, ply, s, m, t, q);
            }
        }
        total
    }

    /// The number of ways a path now standing on `x` (after a step in
    /// direction `last`) can go on.
    fn count_on(&mut self, ctx: &Ctx<W>, ply: u32, x: usize, last: usize) -> u64 {
        let mut n = 0;
        for i in 0..ctx.ndirs {
            if ctx.straight && i != last {
                continue;
            }
            let o = ctx.offs[i];
            let Some((m, t)) = self.open_step(ctx, ply, x, o) else { continue };
            let q = self.jump(ctx, ply, x, m, t);
            n += 1 + self.count_on(ctx, ply, t, i);
            self.unjump(ctx, ply, x, m, t, q);
        }
        n
    }

    /// `(over, onto)` if the piece on `x` can jump in offset `o` now.
    #[inline(always)]
    fn open_step(&self, ctx: &Ctx<W>, ply: u32, x: usize, o: i32) -> Option<(usize, usize)> {
        let m = ctx.step(x, o)?;
        let t = ctx.step(m, o)?;
        (ctx.exists.has(t) && !self.occ.has(t) && self.can_capture(ctx, ply, m)).then_some((m, t))
    }

    /// The number of move sequences of exactly `depth` plies.
    pub(crate) fn perft(&mut self, ctx: &Ctx<W>, ply: u32, depth: u32) -> u64 {
        if depth <= 1 {
            return if depth == 0 { 1 } else { self.count(ctx, ply) };
        }
        let mut n = 0;
        if let Some(step) = ctx.opening_step(ply) {
            for i in self.removals(ctx, ply, step).iter() {
                let was = self.removable.has(i);
                self.toggle_removal(ctx, ply, i, was);
                n += self.perft(ctx, ply + 1, depth - 1);
                self.toggle_removal(ctx, ply, i, was);
            }
            return n;
        }
        let (mov, capt) = self.roles(ctx, ply);
        let empty = ctx.exists.and_not(self.occ);
        for i in 0..ctx.ndirs {
            let o = ctx.offs[i] as isize;
            for t in Self::landings(empty, mov, capt, ctx.offs[i]).iter() {
                let (m, s) = ((t as isize - o) as usize, (t as isize - 2 * o) as usize);
                let q = self.jump(ctx, ply, s, m, t);
                n += self.perft(ctx, ply + 1, depth - 1) + self.perft_on(ctx, ply, t, i, depth);
                self.unjump(ctx, ply, s, m, t, q);
            }
        }
        n
    }

    /// Perft below every move that extends a path standing on `x`.
    fn perft_on(&mut self, ctx: &Ctx<W>, ply: u32, x: usize, last: usize, depth: u32) -> u64 {
        let mut n = 0;
        for i in 0..ctx.ndirs {
            if ctx.straight && i != last {
                continue;
            }
            let Some((m, t)) = self.open_step(ctx, ply, x, ctx.offs[i]) else { continue };
            let q = self.jump(ctx, ply, x, m, t);
            n += self.perft(ctx, ply + 1, depth - 1) + self.perft_on(ctx, ply, t, i, depth);
            self.unjump(ctx, ply, x, m, t, q);
        }
        n
    }

    /// Visits every legal move: `visit` sees the state after the move and
    /// its path of layout indices. Returns early if `visit` breaks.
    pub(crate) fn walk<F>(&mut self, ctx: &Ctx<W>, ply: u32, visit: &mut F) -> ControlFlow<()>
    where
        F: FnMut(&mut Self, &[usize]) -> ControlFlow<()>,
    {
        let mut path = [0usize; 1];
        if let Some(step) = ctx.opening_step(ply) {
            for i in self.removals(ctx, ply, step).iter() {
                let was = self.removable.has(i);
                self.toggle_removal(ctx, ply, i, was);
                path[0] = i;
                let flow = visit(self, &path);
                self.toggle_removal(ctx, ply, i, was);
                flow?;
            }
            return ControlFlow::Continue(());
        }
        let (mov, capt) = self.roles(ctx, ply);
        let empty = ctx.exists.and_not(self.occ);
        let mut buf = Vec::new();
        for i in 0..ctx.ndirs {
            let o = ctx.offs[i];
            for t in Self::landings(empty, mov, capt, o).iter() {
                let m = (t as isize - o as isize) as usize;
                let s = (m as isize - o as isize) as usize;
                buf.clear();
                buf.extend([s, t]);
                let q = self.jump(ctx, ply, s, m, t);
                let flow = match visit(self, &buf) {
                    ControlFlow::Continue(()) => self.walk_on(ctx, ply, i, &mut buf, visit),
                    stop => stop,
                };
                self.unjump(ctx, ply, s, m, t, q);
                flow?;
            }
        }
        ControlFlow::Continue(())
    }

    fn walk_on<F>(
        &mut self,
        ctx: &Ctx<W>,
        ply: u32,
        last: usize,
        path: &mut Vec<usize>,
        visit: &mut F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&mut Self, &[usize]) -> ControlFlow<()>,
    {
        let x = *path.last().expect("a path has a start");
        for i in 0..ctx.ndirs {
            if ctx.straight && i != last {
                continue;
            }
            let Some((m, t)) = self.open_step(ctx, ply, x, ctx.offs[i]) else { continue };
            let q = self.jump(ctx, ply, x, m, t);
            path.push(t);
            let flow = match visit(self, path) {
                ControlFlow::Continue(()) => self.walk_on(ctx, ply, i, path, visit),
                stop => stop,
            };
            path.pop();
            self.unjump(ctx, ply, x, m, t, q);
            flow?;
        }
        ControlFlow::Continue(())
    }
}
