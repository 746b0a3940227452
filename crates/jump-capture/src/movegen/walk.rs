//! Walking every legal path in notation order, with make/unmake, for
//! listing moves (a page of them, a jump tree, a move list).

use std::ops::ControlFlow;

use super::order::{BARE_NAME_POSITIONS, NAME_POSITIONS, RANKS_BY_BARE_NAME, RANKS_BY_NAME};
use super::{Board, RuleTables};

impl<const W: usize> Board<W> {
    /// Visits the path (layout indices) of every legal move in notation
    /// order, or only of those from layout index `only`, reading and
    /// changing only the mailbox; returns early if `visit` breaks.
    ///
    /// No sort is needed. A removal is a cell name alone: cells are taken
    /// by file, then by rank name. Every jump from cell `s` reads `s` then
    /// `x`, so start cells are taken in the order of their names followed
    /// by `x` (`c10x` < `c1x`); and the landings of the jumps from one cell
    /// never have one name a prefix of another (their ranks differ by 2 or
    /// 4, their files likewise), so taking them by name orders the moves
    /// through them, each path before its extensions.
    pub(crate) fn walk_paths<F>(
        &mut self,
        ctx: &RuleTables<W>,
        ply: u32,
        only: Option<usize>,
        visit: &mut F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        if let Some(step) = ctx.opening_step(ply) {
            let removals = self.removals(ctx, ply, step);
            for s in ctx.by_name(removals, &RANKS_BY_BARE_NAME, &BARE_NAME_POSITIONS, only) {
                visit(&[s])?;
            }
            return ControlFlow::Continue(());
        }
        let mine = Self::mine(ctx, ply);
        let starts = ctx.by_name(self.jump_starts(ctx, ply), &RANKS_BY_NAME, &NAME_POSITIONS, only);
        with_rules!(ctx, N, STRAIGHT, SHARED => self.paths_from::<N, STRAIGHT, SHARED, F>(ctx, mine, starts, visit))
    }

    /// [`Board::walk_paths`] from `starts` (layout indices, in order), for
    /// a rule set of `N` directions, chain rule `STRAIGHT` and capture rule
    /// `SHARED`.
    pub(super) fn paths_from<const N: usize, const STRAIGHT: bool, const SHARED: bool, F>(
        &mut self,
        ctx: &RuleTables<W>,
        mine: u8,
        starts: impl Iterator<Item = usize>,
        visit: &mut F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        let mut path = Vec::with_capacity(16);
        for s in starts {
            let sp = s + ctx.pad;
            // The first jump may take any direction, even under the
            // straight-line rule.
            let open = self.open_dirs::<N, false, SHARED>(ctx, mine, sp, 0);
            path.clear();
            path.push(s);
            self.paths_on::<N, STRAIGHT, SHARED, F>(ctx, mine, sp, open, &mut path, visit)?;
        }
        ControlFlow::Continue(())
    }

    /// Below a path standing on mailbox index `x` (applied to the mailbox)
    /// with `open` directions: visits every extension, taking the jumps by
    /// the name of their landing.
    pub(super) fn paths_on<const N: usize, const STRAIGHT: bool, const SHARED: bool, F>(
        &mut self,
        ctx: &RuleTables<W>,
        mine: u8,
        x: usize,
        open: u32,
        path: &mut Vec<usize>,
        visit: &mut F,
    ) -> ControlFlow<()>
    where
        F: FnMut(&[usize]) -> ControlFlow<()>,
    {
        // The open directions sorted by landing (insertion: at most 8).
        let mut jumps = [(0u32, 0usize); 8];
        let mut n = 0;
        let mut bits = open;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let o = ctx.offs[i] as isize as usize;
            let t = x.wrapping_add(o).wrapping_add(o);
            let key = ctx.name_key(t - ctx.pad);
            let mut at = n;
            while at > 0 && jumps[at - 1].0 > key {
                jumps[at] = jumps[at - 1];
                at -= 1;
            }
            jumps[at] = (key, i);
            n += 1;
        }
        for &(_, i) in &jumps[..n] {
            let o = ctx.offs[i] as isize as usize;
            let (m, t) = (x.wrapping_add(o), x.wrapping_add(o).wrapping_add(o));
            path.push(t - ctx.pad);
            let mut flow = visit(path);
            if flow.is_continue() {
                let captured = self.step_as::<SHARED>(x, m, t);
                let next = self.open_dirs::<N, STRAIGHT, SHARED>(ctx, mine, t, i);
                if next != 0 {
                    flow = self.paths_on::<N, STRAIGHT, SHARED, F>(ctx, mine, t, next, path, visit);
                }
                self.unstep_as::<SHARED>(x, m, t, captured);
            }
            path.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Visits every legal move: `visit` sees the state after the move and
    /// its path of layout indices. Returns early if `visit` breaks.
    pub(crate) fn walk<F>(&mut self, ctx: &RuleTables<W>, ply: u32, visit: &mut F) -> ControlFlow<()>
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
                let q = self.jump(ctx, s, m, t);
                let flow = match visit(self, &buf) {
                    ControlFlow::Continue(()) => self.walk_on(ctx, ply, i, &mut buf, visit),
                    stop => stop,
                };
                self.unjump(ctx, s, m, t, q);
                flow?;
            }
        }
        ControlFlow::Continue(())
    }

    pub(super) fn walk_on<F>(
        &mut self,
        ctx: &RuleTables<W>,
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
            let q = self.jump(ctx, x, m, t);
            path.push(t);
            let flow = match visit(self, path) {
                ControlFlow::Continue(()) => self.walk_on(ctx, ply, i, path, visit),
                stop => stop,
            };
            path.pop();
            self.unjump(ctx, x, m, t, q);
            flow?;
        }
        ControlFlow::Continue(())
    }
}
