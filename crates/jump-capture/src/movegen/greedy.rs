//! Walking every path with its gain, in the engine's own order (not
//! notation order), for a search: keeping one path of the largest gain
//! drawn uniformly among equals (a greedy move, a greedy playout), or
//! ranking the moves by gain with ties in a seeded order. Nothing is
//! built, named or sorted per path.

use std::ops::ControlFlow;

use super::{Board, RuleTables};

/// What a walk of paths and gains does with each path.
pub(crate) trait GainVisitor {
    /// The path walked (layout indices, start first) and its gain.
    fn visit(&mut self, path: &[usize], gain: u32) -> ControlFlow<()>;
}

/// Keeps a path of the largest gain, drawn uniformly among equals.
pub(crate) struct Greediest<D> {
    /// Whether the `k`-th path of the largest gain yet replaces the
    /// kept one: true with probability `1/k` keeps each equally likely.
    pub draw: D,
    /// Paths still to look at; the walk stops when none are left.
    pub left: u64,
    /// The largest gain yet, and how many paths have it.
    pub top: u32,
    pub ties: u32,
    /// A kept path of gain `top`.
    pub best: Vec<usize>,
}

impl<D: FnMut(u32) -> bool> Greediest<D> {
    pub(crate) fn new(draw: D, left: u64) -> Self {
        Greediest { draw, left, top: 0, ties: 0, best: Vec::with_capacity(16) }
    }
}

impl<D: FnMut(u32) -> bool> GainVisitor for Greediest<D> {
    #[inline(always)]
    fn visit(&mut self, path: &[usize], gain: u32) -> ControlFlow<()> {
        if self.left == 0 {
            return ControlFlow::Break(());
        }
        if self.ties == 0 || gain > self.top {
            (self.top, self.ties) = (gain, 1);
            self.best.clear();
            self.best.extend_from_slice(path);
        } else if gain == self.top {
            self.ties += 1;
            if (self.draw)(self.ties) {
                self.best.clear();
                self.best.extend_from_slice(path);
            }
        }
        self.left -= 1;
        if self.left == 0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
}

/// A 64-bit mixer (SplitMix64's finaliser): equal inputs, equal outputs;
/// near inputs, unrelated outputs.
pub(crate) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A path's place among equal gains: a hash of its cells and the salt.
pub(crate) fn tie_key(salt: u64, path: &[usize]) -> u64 {
    path.iter().fold(salt, |h, &i| mix(h ^ i as u64))
}

/// The ranking keys of the paths walked, in walk order: largest gain
/// first, then by [`tie_key`]; the walk order settles the rest.
pub(crate) struct Ranks {
    pub salt: u64,
    pub left: u64,
    pub keys: Vec<(std::cmp::Reverse<u32>, u64, u32)>,
}

impl GainVisitor for Ranks {
    #[inline(always)]
    fn visit(&mut self, path: &[usize], gain: u32) -> ControlFlow<()> {
        if self.left == 0 {
            return ControlFlow::Break(());
        }
        let seq = self.keys.len() as u32;
        self.keys.push((std::cmp::Reverse(gain), tie_key(self.salt, path), seq));
        self.left -= 1;
        if self.left == 0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    }
}

/// Keeps path number `seq` (from 0) of the walk.
pub(crate) struct Numbered {
    pub seq: u32,
    pub path: Vec<usize>,
}

impl GainVisitor for Numbered {
    fn visit(&mut self, path: &[usize], _: u32) -> ControlFlow<()> {
        if self.seq == 0 {
            self.path.extend_from_slice(path);
            return ControlFlow::Break(());
        }
        self.seq -= 1;
        ControlFlow::Continue(())
    }
}

impl<const W: usize> Board<W> {
    /// Walks the paths of the legal jumps (past the opening) with their
    /// gains, `value` giving the points of the piece on a layout index
    /// (read before any jump: the pieces a move takes are all on the
    /// board before it).
    pub(crate) fn walk_gains<V, G>(&mut self, ctx: &RuleTables<W>, ply: u32, value: &V, visitor: &mut G)
    where
        V: Fn(usize) -> u32,
        G: GainVisitor,
    {
        debug_assert!(ctx.opening_step(ply).is_none(), "removals are not walked here");
        let mine = Self::mine(ctx, ply);
        let starts = self.jump_starts(ctx, ply);
        let mut path = Vec::with_capacity(16);
        with_rules!(ctx, N, STRAIGHT, SHARED => {
            for s in starts.iter() {
                let sp = s + ctx.pad;
                // The first jump may take any direction, even under the
                // straight-line rule.
                let open = self.open_dirs::<N, false, SHARED>(ctx, mine, sp, 0);
                path.clear();
                path.push(s);
                let mut walk = Gains { ctx, mine, value, visitor: &mut *visitor, path: &mut path };
                if self.gains_on::<N, STRAIGHT, SHARED, V, G>(&mut walk, sp, open, 0).is_break() {
                    break;
                }
            }
        });
    }

    /// Below a path of gain `gain` standing on mailbox index `x` with
    /// `open` directions: every extension.
    fn gains_on<const N: usize, const STRAIGHT: bool, const SHARED: bool, V, G>(
        &mut self,
        walk: &mut Gains<'_, W, V, G>,
        x: usize,
        mut open: u32,
        gain: u32,
    ) -> ControlFlow<()>
    where
        V: Fn(usize) -> u32,
        G: GainVisitor,
    {
        let ctx = walk.ctx;
        while open != 0 {
            let i = open.trailing_zeros() as usize;
            open &= open - 1;
            let o = ctx.offs[i] as isize as usize;
            let (m, t) = (x.wrapping_add(o), x.wrapping_add(o).wrapping_add(o));
            let gain = gain.saturating_add((walk.value)(m - ctx.pad));
            walk.path.push(t - ctx.pad);
            let mut flow = walk.visitor.visit(walk.path, gain);
            if flow.is_continue() {
                // A landing's ways on are probed before the jump to it (see
                // `count_on`): a leaf costs a probe, not a make/unmake.
                let next = self.open_dirs::<N, STRAIGHT, SHARED>(ctx, walk.mine, t, i);
                if next != 0 {
                    let captured = self.step_as::<SHARED>(x, m, t);
                    flow = self.gains_on::<N, STRAIGHT, SHARED, V, G>(walk, t, next, gain);
                    self.unstep_as::<SHARED>(x, m, t, captured);
                }
            }
            walk.path.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }
}

/// What stays the same down one walk of [`Board::walk_gains`].
struct Gains<'a, const W: usize, V, G> {
    ctx: &'a RuleTables<W>,
    mine: u8,
    value: &'a V,
    visitor: &'a mut G,
    path: &'a mut Vec<usize>,
}
