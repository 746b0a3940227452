//! Perft: the number of move sequences of a given depth, by make/unmake
//! down to the last ply and a bulk count there.

use super::{Board, RuleTables};

impl<const W: usize> Board<W> {
    /// The number of move sequences of exactly `depth` plies.
    pub(crate) fn perft(&mut self, ctx: &RuleTables<W>, ply: u32, depth: u32) -> u64 {
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
                let q = self.jump(ctx, s, m, t);
                n += self.perft(ctx, ply + 1, depth - 1) + self.perft_on(ctx, ply, t, i, depth);
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
            n += self.perft(ctx, ply + 1, depth - 1) + self.perft_on(ctx, ply, t, i, depth);
            self.unjump(ctx, x, m, t, q);
        }
        n
    }
}
