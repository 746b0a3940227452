//! Perft: the number of move sequences of a given depth, by make/unmake
//! down to the last ply and a bulk count there, each position's count
//! kept in a table (see `transpose.rs`) for the sequences that reach it
//! again.

use super::transpose::Counts;
use super::{Board, RuleTables};

impl<const W: usize> Board<W> {
    /// The number of move sequences of exactly `depth` plies below this
    /// position, found in `seen` or counted and kept there.
    pub(crate) fn perft_seen(&mut self, ctx: &RuleTables<W>, ply: u32, depth: u32, seen: &mut Counts) -> u64 {
        if depth == 0 {
            return 1;
        }
        let key = self.fingerprint(ctx, depth);
        if let Some(n) = seen.get(key) {
            return n;
        }
        let n = self.perft(ctx, ply, depth, seen);
        // A count cut short by the budget is not the position's.
        if !self.over {
            seen.put(key, n);
        }
        n
    }

    /// The number of move sequences of exactly `depth` plies, the counts
    /// below found in or added to `seen`.
    pub(crate) fn perft(&mut self, ctx: &RuleTables<W>, ply: u32, depth: u32, seen: &mut Counts) -> u64 {
        if depth <= 1 {
            return if depth == 0 { 1 } else { self.count(ctx, ply) };
        }
        if !self.spend() {
            return 0;
        }
        let mut n = 0;
        if let Some(step) = ctx.opening_step(ply) {
            for i in self.removals(ctx, ply, step).iter() {
                let was = self.removable.has(i);
                self.toggle_removal(ctx, ply, i, was);
                n += self.perft_seen(ctx, ply + 1, depth - 1, seen);
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
                let q = self.jump(ctx, s, m, t);
                n += self.perft_seen(ctx, ply + 1, depth - 1, seen)
                    + self.perft_on(ctx, ply, t, i, depth, seen);
                self.unjump(ctx, s, m, t, q);
            }
        }
        n
    }

    /// Perft below every move that extends a path standing on `x`.
    pub(super) fn perft_on(
        &mut self,
        ctx: &RuleTables<W>,
        ply: u32,
        x: usize,
        last: usize,
        depth: u32,
        seen: &mut Counts,
    ) -> u64 {
        let mut n = 0;
        if !self.spend() {
            return 0;
        }
        for i in 0..ctx.ndirs {
            if ctx.straight && i != last {
                continue;
            }
            let Some((m, t)) = self.open_step(ctx, ply, x, ctx.offs[i]) else { continue };
            let q = self.jump(ctx, x, m, t);
            n += self.perft_seen(ctx, ply + 1, depth - 1, seen) + self.perft_on(ctx, ply, t, i, depth, seen);
            self.unjump(ctx, x, m, t, q);
        }
        n
    }
}
