//! Counting moves in bulk: the number of legal moves of a position (the
//! leaves of perft, and the first half of choosing a random move), with
//! only the paths that may go on past a third jump walked one by one.
//!
//! Over 500 lines because the fast path keeps its tests beside it.

use super::board::capturable;
use super::select::{CountRecord, LongPaths};
use super::{Board, MB_EMPTY, RuleTables, UNROLLED};
use crate::bits::Bits;

/// Which of the first `N` sets hold the index `x`, as a mask of set
/// indices.
#[inline(always)]
pub(super) fn holding<const W: usize, const N: usize>(sets: &[Bits<W>; 8], x: usize) -> u32 {
    let (word, bit) = (x >> 6, x & 63);
    let words: [u64; N] = std::array::from_fn(|k| sets[k].0[word]);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return crate::gather::bits_at(&words, bit);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    crate::gather::bits_at_scalar(&words, bit)
}

/// Per cell, how many of the first `N` (4, 6 or 8) sets hold it, as bit
/// slices: bit `k` of the count in slice `k`. An adder tree: half adders sum
/// the sets in pairs and a two-bit adder joins the pairs; for eight, a
/// ripple adder joins the two fours (for six, the second four is two sets
/// and two empty ones: the sets past `N` are always empty).
#[inline(always)]
pub(super) fn open_counts<const W: usize, const N: usize>(sets: &[Bits<W>; 8]) -> [Bits<W>; 4] {
    let four = |f: &[Bits<W>]| {
        let (a0, a1) = (f[0].xor(f[1]), f[0].and(f[1]));
        let (b0, b1) = (f[2].xor(f[3]), f[2].and(f[3]));
        let carry = a0.and(b0);
        let (a1b1, a1xb1) = (a1.and(b1), a1.xor(b1));
        [a0.xor(b0), a1xb1.xor(carry), a1b1.or(carry.and(a1xb1))]
    };
    let p = four(&sets[..4]);
    if N == 4 {
        return [p[0], p[1], p[2], Bits::EMPTY];
    }
    let q = four(&sets[4..]);
    let mut out = [Bits::EMPTY; 4];
    let mut carry = Bits::EMPTY;
    for k in 0..3 {
        let x = p[k].xor(q[k]);
        out[k] = x.xor(carry);
        carry = p[k].and(q[k]).or(carry.and(x));
    }
    out[3] = carry;
    out
}

impl<const W: usize> Board<W> {
    /// The number of legal moves (perft 1).
    pub(crate) fn count(&mut self, ctx: &RuleTables<W>, ply: u32) -> u64 {
        self.count_recording(ctx, ply, None)
    }

    /// [`Board::count`]; with `figures`, also keeps its landing and onward
    /// sets and records, for each first jump
    /// (direction, landing) whose paths go on past a second jump, how many
    /// of its moves are three or more jumps long (several entries may share
    /// a first jump): what [`Board::select_counted`] needs to skip first
    /// jumps whole.
    pub(crate) fn count_recording(
        &mut self,
        ctx: &RuleTables<W>,
        ply: u32,
        mut figures: Option<&mut CountRecord<W>>,
    ) -> u64 {
        if let Some(f) = figures.as_deref_mut() {
            f.deep.clear();
        }
        if let Some(step) = ctx.opening_step(ply) {
            return self.removals(ctx, ply, step).count();
        }
        // The direction sets have four, six or eight directions: with the
        // number fixed, the loops below unroll and their sets stay in
        // registers.
        match (ctx.ndirs == 4, ctx.owned) {
            (true, false) => self.count_dirs::<4, true>(ctx, ply, figures),
            (true, true) => self.count_dirs::<4, false>(ctx, ply, figures),
            (false, false) if ctx.ndirs == 6 => self.count_dirs::<6, true>(ctx, ply, figures),
            (false, true) if ctx.ndirs == 6 => self.count_dirs::<6, false>(ctx, ply, figures),
            (false, false) => self.count_dirs::<8, true>(ctx, ply, figures),
            (false, true) => self.count_dirs::<8, false>(ctx, ply, figures),
        }
    }

    /// [`Board::count_recording`] past the opening, for a rule set of `N`
    /// directions; `SHARED`: under shared rules (every piece may move and
    /// be taken).
    pub(super) fn count_dirs<const N: usize, const SHARED: bool>(
        &mut self,
        ctx: &RuleTables<W>,
        ply: u32,
        mut figures: Option<&mut CountRecord<W>>,
    ) -> u64 {
        debug_assert_eq!((ctx.ndirs, ctx.owned), (N, !SHARED));
        let (mov, capt) = self.roles(ctx, ply);
        let mine = Self::mine(ctx, ply);
        let empty = ctx.exists.and_not(self.occ);
        // Two shifts a direction (three under owned rules) serve every set
        // below: `near[d]`, the cells one step past a capturable piece in
        // direction `d`, is where a jump in `d` lands (with a mover two steps
        // back) and where a jump in the opposite direction starts (with an
        // empty cell beyond, read off the board shifted two steps).
        let mut near = [Bits::<W>::EMPTY; N];
        let mut lands = [Bits::<W>::EMPTY; 8];
        let mut from = [Bits::<W>::EMPTY; 8];
        let mut total = 0;
        let mut reach = Bits::<W>::EMPTY;
        for d in 0..N {
            let o = ctx.offs[d];
            near[d] = capt.shift(o);
            let occ2 = self.occ.shift(2 * o);
            // Under shared rules the movers are all the pieces.
            let mov2 = if SHARED { occ2 } else { mov.shift(2 * o) };
            lands[d] = empty.and(near[d]).and(mov2);
            // The sets are symmetric: every direction has its opposite.
            from[ctx.opposite[d]] = near[d].and(ctx.exists2[d].and_not(occ2));
            total += lands[d].count();
            reach = reach.or(lands[d]);
        }
        if reach.is_empty() {
            return 0;
        }
        // Second steps are counted in bulk. After a first jump s→m→t only
        // s and m have changed, and they lie behind t, so whether the piece
        // on t can jump on in direction j reads off the original board:
        // `from[j]` holds the cells from which a jump in j is open. (For t
        // a landing in direction i, `from[opposite(i)]` is false at t: s
        // was occupied. No exclusion is needed.)
        if let Some(f) = figures.as_deref_mut() {
            f.lands = lands;
            f.from = from;
        }
        if ctx.straight {
            for i in 0..N {
                let second = lands[i].and(from[i]);
                if !second.is_empty() {
                    total += second.count();
                    let third = second.shift(2 * ctx.offs[i]).and(from[i]);
                    for u in third.iter() {
                        total +=
                            self.count_third::<N, true, SHARED>(ctx, mine, u, i, i, figures.as_deref_mut());
                    }
                }
            }
            return total;
        }
        // Free chains: per cell, the number of open directions, bit-sliced
        // (`open[k]` holds bit k of the count, summed by an adder tree), so
        // each landing set is counted with three or four popcounts instead
        // of one per direction.
        let open = open_counts::<W, N>(&from);
        for land in &lands[..N] {
            if !land.is_empty() {
                for (k, slice) in open.iter().enumerate().take(if N == 4 { 3 } else { 4 }) {
                    total += land.and(*slice).count() << k;
                }
            }
        }
        // Third steps are counted off the original board too. After steps
        // s→t in `i` and t→u in `j`, a probe from u reads cells of two kinds:
        // one step away, never a landing (landings keep the parity of s) but
        // perhaps one of the two captured pieces, which closes that way
        // (`closed[i][j]`); and two steps away, never a captured piece, and
        // of the landings only s has changed, which opens the way
        // `back[i][j]` if a piece lies between. Only the third landings from
        // which a fourth step may follow are walked one by one: the way back
        // over the third capture was open on the original board, so they
        // are those with two open ways there, or one that could come back
        // onto s.
        let two = if N == 4 { open[1].or(open[2]) } else { open[1].or(open[2]).or(open[3]) };
        // `twos[k]` at u: whether the third landing u + 2k is in `two` (in
        // six or eight directions: the sets with paths that come home in
        // three steps).
        let mut twos = [Bits::<W>::EMPTY; 8];
        if N != 4 {
            for (k, set) in twos.iter_mut().enumerate().take(N) {
                *set = two.shift(-2 * ctx.offs[k]);
            }
        }
        for j in 0..N {
            let second = reach.and(from[j]);
            if second.is_empty() {
                continue;
            }
            // The way back over the second capture was open on the original
            // board: a third step needs two open ways there (or the way
            // home onto s).
            let mut ways = two;
            if N != 4 {
                let mut home = ctx.home[j];
                while home != 0 {
                    ways = ways.or(near[home.trailing_zeros() as usize]);
                    home &= home - 1;
                }
            }
            let oj = ctx.offs[j] as isize;
            for u in second.shift(2 * ctx.offs[j]).and(ways).iter() {
                let original = self.open_originally::<N, SHARED>(ctx, &from, u);
                let onward_two = if N != 4 { holding::<W, N>(&twos, u) } else { 0 };
                // The first jumps that landed where this second one starts
                // (read at once: a test per direction would branch
                // unpredictably).
                let t = (u as isize - 2 * oj) as usize;
                let mut firsts = holding::<W, N>(&lands, t);
                while firsts != 0 {
                    let i = firsts.trailing_zeros() as usize;
                    firsts &= firsts - 1;
                    let mut open = original & !u32::from(ctx.closed[i][j]);
                    if N != 4 {
                        // The way home onto s, over a piece next to u (no
                        // branch: which `i` comes is anyone's guess).
                        let k = usize::from(ctx.back[i][j]);
                        let over = (u as isize + ctx.offs[k & 7] as isize) as usize + ctx.pad;
                        open |= u32::from((k < 8) & self.takes::<SHARED>(mine, over)) << (k & 7);
                    }
                    if open == 0 {
                        continue;
                    }
                    // Which third steps may go on: those landing in `two`,
                    // and those a fourth step could bring home onto s.
                    let mut onward = 0;
                    if N != 4 {
                        // Read at once: a test per direction mispredicts.
                        onward = open & onward_two;
                        let mut looping = open & !onward & u32::from(ctx.looping[i][j]);
                        while looping != 0 {
                            let k = looping.trailing_zeros() as usize;
                            looping &= looping - 1;
                            onward |= u32::from(self.comes_home::<SHARED>(ctx, mine, u, [i, j, k])) << k;
                        }
                    } else {
                        // Four directions: one by one (the shifted sets did not
                        // pay off there).
                        let mut rest = open;
                        while rest != 0 {
                            let k = rest.trailing_zeros() as usize;
                            rest &= rest - 1;
                            let v = (u as isize + 2 * ctx.offs[k] as isize) as usize;
                            let home = (ctx.looping[i][j] >> k) & 1 != 0
                                && self.comes_home::<SHARED>(ctx, mine, u, [i, j, k]);
                            onward |= u32::from(two.has(v) || home) << k;
                        }
                    }
                    let mut n = u64::from(open.count_ones());
                    if onward != 0 {
                        n += self.count_fourth::<N, SHARED>(ctx, mine, u, i, j, onward);
                    }
                    total += n;
                    if let Some(f) = figures.as_deref_mut() {
                        f.deep.push(LongPaths { dir: i as u8, landing: t as u16, moves: n });
                    }
                }
            }
        }
        total
    }

    /// Whether the fourth step that takes the path of steps in `dirs` (`i`,
    /// `j`, `k`; `k` in `looping[i][j]`), with second landing `u` (a layout
    /// index), back onto its start could be made: whether the piece it
    /// jumps, one step from the third landing, may be captured.
    #[inline(always)]
    pub(super) fn comes_home<const SHARED: bool>(
        &self,
        ctx: &RuleTables<W>,
        mine: u8,
        u: usize,
        dirs: [usize; 3],
    ) -> bool {
        let [i, j, k] = dirs;
        let l = usize::from(ctx.loops[i][j][k]);
        debug_assert!(l < 8, "no way home after {dirs:?}");
        let v = u as isize + 2 * ctx.offs[k] as isize;
        self.takes::<SHARED>(mine, (v + ctx.offs[l & 7] as isize) as usize + ctx.pad)
    }

    /// Whether the mover may capture the piece on mailbox index `x`.
    #[inline(always)]
    pub(super) fn takes<const SHARED: bool>(&self, mine: u8, x: usize) -> bool {
        if SHARED { self.cells[x] == 1 } else { capturable(self.cells[x], mine) }
    }

    /// The directions (a mask of direction indices) in which a piece on
    /// the empty cell `u` (a layout index) could jump on the board as it
    /// stands, read off `from`.
    #[inline(always)]
    pub(super) fn open_originally<const N: usize, const SHARED: bool>(
        &self,
        ctx: &RuleTables<W>,
        from: &[Bits<W>; 8],
        u: usize,
    ) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        if N == 8 && SHARED {
            return crate::gather::open_all_shared(&self.cells.0, u + ctx.pad, ctx.stride);
        }
        let _ = ctx;
        holding::<W, N>(from, u)
    }

    /// The moves of four or more steps through the second landing `u` (a
    /// layout index) of steps in `i` then `j`, whose third steps in the
    /// directions of `onward` may go on.
    #[inline(always)]
    pub(super) fn count_fourth<const N: usize, const SHARED: bool>(
        &mut self,
        ctx: &RuleTables<W>,
        mine: u8,
        u: usize,
        i: usize,
        j: usize,
        mut onward: u32,
    ) -> u64 {
        let (path, captured) = self.step_two::<SHARED>(ctx, u, i, j);
        let u = path[4];
        let mut n = 0;
        while onward != 0 {
            let k = onward.trailing_zeros() as usize;
            onward &= onward - 1;
            // One level fewer than a call of `count_on` inlines: these
            // levels land in `count_dirs`, whose registers are already
            // busy.
            n += self.count_beyond::<N, false, SHARED, { UNROLLED - 1 }>(ctx, mine, u, k);
        }
        self.unstep_two::<SHARED>(path, captured);
        n
    }

    /// Makes in the mailbox the two steps, in `i` then `j`, of a path whose
    /// second landing is the layout index `u`; returns its five cells
    /// (mailbox indices, from the start) and the two captured codes, for
    /// [`Board::unstep_two`].
    #[inline(always)]
    pub(super) fn step_two<const SHARED: bool>(
        &mut self,
        ctx: &RuleTables<W>,
        u: usize,
        i: usize,
        j: usize,
    ) -> ([usize; 5], [u8; 2]) {
        let (oi, oj) = (ctx.offs[i] as isize, ctx.offs[j] as isize);
        let u = (u + ctx.pad) as isize;
        let (m2, t) = (u - oj, u - 2 * oj);
        let (m1, s) = (t - oi, t - 2 * oi);
        let path = [s, m1, t, m2, u].map(|x| x as usize);
        let c1 = self.step_as::<SHARED>(path[0], path[1], path[2]);
        let c2 = self.step_as::<SHARED>(path[2], path[3], path[4]);
        (path, [c1, c2])
    }

    /// Takes back the two steps made by [`Board::step_two`], last first.
    #[inline(always)]
    pub(super) fn unstep_two<const SHARED: bool>(&mut self, path: [usize; 5], captured: [u8; 2]) {
        self.unstep_as::<SHARED>(path[2], path[3], path[4], captured[1]);
        self.unstep_as::<SHARED>(path[0], path[1], path[2], captured[0]);
    }

    /// Counts the paths of three or more steps through the second landing
    /// `u` (a layout index) of a first step in direction `i` and a second
    /// in `j`.
    #[inline(always)]
    pub(super) fn count_third<const N: usize, const STRAIGHT: bool, const SHARED: bool>(
        &mut self,
        ctx: &RuleTables<W>,
        mine: u8,
        u: usize,
        i: usize,
        j: usize,
        figures: Option<&mut CountRecord<W>>,
    ) -> u64 {
        let (path, captured) = self.step_two::<SHARED>(ctx, u, i, j);
        let (t, u) = (path[2], path[4]);
        let open = self.open_dirs::<N, STRAIGHT, SHARED>(ctx, mine, u, j);
        let mut n = 0;
        if open != 0 {
            n = self.count_on::<N, STRAIGHT, SHARED>(ctx, mine, u, open);
            if let Some(f) = figures {
                f.deep.push(LongPaths { dir: i as u8, landing: (t - ctx.pad) as u16, moves: n });
            }
        }
        self.unstep_two::<SHARED>(path, captured);
        n
    }

    /// The directions (as a bit mask of direction indices) in which the
    /// piece on mailbox index `x` could jump now, for a rule set of `N`
    /// directions (4, 6 or 8). `SHARED`: the rules let every piece be captured
    /// (every piece has code 1, and `mine` is 0).
    #[inline(always)]
    pub(super) fn open_dirs<const N: usize, const STRAIGHT: bool, const SHARED: bool>(
        &self,
        ctx: &RuleTables<W>,
        mine: u8,
        x: usize,
        last: usize,
    ) -> u32 {
        let probe = |i: usize| {
            let o = ctx.offs[i] as isize as usize;
            let m = x.wrapping_add(o);
            let t = m.wrapping_add(o);
            let open = if SHARED {
                (self.cells[t] | (self.cells[m] ^ 1)) == 0
            } else {
                (self.cells[t] == MB_EMPTY) & capturable(self.cells[m], mine)
            };
            u32::from(open) << i
        };
        // Eight directions under shared rules: one vector probe (where the
        // build has it) instead of eight.
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        if N == 8 && !STRAIGHT && SHARED {
            return crate::gather::open_all_shared(&self.cells.0, x, ctx.stride);
        }
        debug_assert_eq!(ctx.ndirs, N);
        if STRAIGHT {
            probe(last)
        } else {
            // Four, six or eight probes, unrolled.
            let four = probe(0) | probe(1) | probe(2) | probe(3);
            match N {
                4 => four,
                6 => four | probe(4) | probe(5),
                _ => four | probe(4) | probe(5) | probe(6) | probe(7),
            }
        }
    }

    /// The number of ways a path now standing on mailbox index `x`, with
    /// `open` its open directions, can go on. Only the mailbox is read and
    /// changed.
    ///
    /// A landing's own open directions are probed before the jump to it:
    /// the jump changes only cells behind the landing (its start and the
    /// captured piece), which no probe from the landing reads except the
    /// way straight back, closed before and after. So leaves cost a probe,
    /// not a make/unmake and a call.
    ///
    /// Each call walks [`UNROLLED`] + 1 jumps deep in one frame (the levels
    /// below are the same loop inlined, see [`Board::count_ways`]) before
    /// calling itself: most walks end within a few jumps, and a call's
    /// saved registers cost as much as a jump's probe.
    #[inline(never)]
    pub(super) fn count_on<const N: usize, const STRAIGHT: bool, const SHARED: bool>(
        &mut self,
        ctx: &RuleTables<W>,
        mine: u8,
        x: usize,
        open: u32,
    ) -> u64 {
        // The budget's one check: a call here stands for a move at least.
        if !self.spend() {
            return 0;
        }
        self.count_ways::<N, STRAIGHT, SHARED, UNROLLED>(ctx, mine, x, open)
    }

    /// [`Board::count_on`]'s loop over the open directions of `x`, with
    /// `LEVEL` more levels of the walk inlined below it (counting down to
    /// 0, whose jumps call `count_on`).
    #[inline(always)]
    pub(super) fn count_ways<const N: usize, const STRAIGHT: bool, const SHARED: bool, const LEVEL: u8>(
        &mut self,
        ctx: &RuleTables<W>,
        mine: u8,
        x: usize,
        mut open: u32,
    ) -> u64 {
        let mut n = 0;
        while open != 0 {
            let i = open.trailing_zeros() as usize;
            open &= open - 1;
            n += 1 + self.count_beyond::<N, STRAIGHT, SHARED, LEVEL>(ctx, mine, x, i);
        }
        n
    }

    /// The number of ways on past the landing of the open jump from mailbox
    /// index `x` in direction `i` (the jump itself not counted); `LEVEL` as
    /// in [`Board::count_ways`].
    #[inline(always)]
    pub(super) fn count_beyond<const N: usize, const STRAIGHT: bool, const SHARED: bool, const LEVEL: u8>(
        &mut self,
        ctx: &RuleTables<W>,
        mine: u8,
        x: usize,
        i: usize,
    ) -> u64 {
        let o = ctx.offs[i] as isize as usize;
        let m = x.wrapping_add(o);
        let t = m.wrapping_add(o);
        let next = self.open_dirs::<N, STRAIGHT, SHARED>(ctx, mine, t, i);
        if next == 0 {
            return 0;
        }
        let captured = self.step_as::<SHARED>(x, m, t);
        // Const generics cannot count down (`LEVEL - 1`) on stable Rust:
        // the levels are spelt out (any above 3 would call `count_on` at
        // once, still counting right).
        let n = match LEVEL {
            3 => self.count_ways::<N, STRAIGHT, SHARED, 2>(ctx, mine, t, next),
            2 => self.count_ways::<N, STRAIGHT, SHARED, 1>(ctx, mine, t, next),
            1 => self.count_ways::<N, STRAIGHT, SHARED, 0>(ctx, mine, t, next),
            _ => self.count_on::<N, STRAIGHT, SHARED>(ctx, mine, t, next),
        };
        self.unstep_as::<SHARED>(x, m, t, captured);
        n
    }
}
