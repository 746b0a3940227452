//! Choosing move `k` of a count without listing the moves before it: the
//! second half of a uniformly random move (and of a playout's ply).

use super::{Board, RuleTables};
use crate::bits::Bits;

/// What [`Board::count_recording`] notes of a first jump: its direction,
/// its landing (layout index) and a number of its moves of three or more
/// jumps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LongPaths {
    pub(super) dir: u8,
    pub(super) landing: u16,
    pub(super) moves: u64,
}

/// The figures of a count that [`Board::select_counted`] reuses: the first
/// landings and the onward-open cells per direction, and the longer paths.
#[derive(Clone, Debug)]
pub(crate) struct CountRecord<const W: usize> {
    pub(super) lands: [Bits<W>; 8],
    pub(super) from: [Bits<W>; 8],
    pub(super) deep: Vec<LongPaths>,
}

impl<const W: usize> Default for CountRecord<W> {
    fn default() -> Self {
        CountRecord { lands: [Bits::EMPTY; 8], from: [Bits::EMPTY; 8], deep: Vec::new() }
    }
}

/// The index of the `k`-th set bit (from 0, lowest first).
pub(super) fn nth_one<const W: usize>(bits: Bits<W>, mut k: u64) -> Option<usize> {
    for (w, &word) in bits.0.iter().enumerate() {
        let c = u64::from(word.count_ones());
        if k < c {
            let mut word = word;
            for _ in 0..k {
                word &= word - 1;
            }
            return Some(w * 64 + word.trailing_zeros() as usize);
        }
        k -= c;
    }
    None
}

impl<const W: usize> Board<W> {
    /// Writes the path (layout indices) of move `k` (below the count) in a
    /// fixed order, `figures` being what [`Board::count_recording`] just
    /// recorded of this state: the first jumps by direction, then landing;
    /// within one, the single jump, then its extensions by direction. A
    /// first jump's moves number 1, plus its open directions (read off the
    /// board as the count does), plus its recorded longer paths: whole
    /// directions and first jumps are skipped on those figures, and only
    /// the chosen one is walked. Any fixed order makes a uniform `k` a
    /// uniform move.
    pub(crate) fn select_counted(
        &mut self,
        ctx: &RuleTables<W>,
        ply: u32,
        mut k: u64,
        figures: &CountRecord<W>,
        path: &mut Vec<usize>,
    ) {
        path.clear();
        if let Some(step) = ctx.opening_step(ply) {
            if let Some(i) = nth_one(self.removals(ctx, ply, step), k) {
                path.push(i);
            }
            return;
        }
        let mine = Self::mine(ctx, ply);
        let n = ctx.ndirs;
        let from = &figures.from[..n];
        let any_from = from.iter().fold(Bits::EMPTY, |acc, f| acc.or(*f));
        for i in 0..n {
            let lands = figures.lands[i];
            let longer = |t: Option<usize>| -> u64 {
                figures
                    .deep
                    .iter()
                    .filter(|d| usize::from(d.dir) == i && t.is_none_or(|t| usize::from(d.landing) == t))
                    .map(|d| d.moves)
                    .sum()
            };
            // The whole direction at once: its single jumps, second jumps
            // and longer paths.
            let seconds: u64 = if ctx.straight {
                lands.and(from[i]).count()
            } else {
                from.iter().map(|f| lands.and(*f).count()).sum()
            };
            let total = lands.count() + seconds + longer(None);
            if k >= total {
                k -= total;
                continue;
            }
            for t in lands.iter() {
                let size = if !any_from.has(t) {
                    1
                } else if ctx.straight {
                    1 + u64::from(from[i].has(t)) + longer(Some(t))
                } else {
                    1 + from.iter().filter(|f| f.has(t)).count() as u64 + longer(Some(t))
                };
                if k >= size {
                    k -= size;
                    continue;
                }
                let o = ctx.offs[i] as isize;
                let (tp, mp, sp) = (
                    t + ctx.pad,
                    (t as isize - o) as usize + ctx.pad,
                    (t as isize - 2 * o) as usize + ctx.pad,
                );
                let captured = self.step(sp, mp, tp);
                let open = self.open_dirs_any(ctx, mine, tp, i);
                debug_assert_eq!(1 + self.count_on_any(ctx, mine, tp, open), size, "figures of the count");
                path.extend([sp, tp]);
                self.select_on(ctx, mine, k, open, path);
                self.unstep(sp, mp, tp, captured);
                for cell in path.iter_mut() {
                    *cell -= ctx.pad;
                }
                return;
            }
        }
        debug_assert!(false, "k is below the count");
    }

    /// Below a path (mailbox indices, applied to the mailbox) standing on
    /// its last cell with `open` directions: writes move `k` of the subtree,
    /// 0 being the path itself.
    pub(super) fn select_on(
        &mut self,
        ctx: &RuleTables<W>,
        mine: u8,
        k: u64,
        mut open: u32,
        path: &mut Vec<usize>,
    ) {
        let Some(mut k) = k.checked_sub(1) else { return };
        let x = *path.last().expect("a path has a start");
        while open != 0 {
            let i = open.trailing_zeros() as usize;
            open &= open - 1;
            let o = ctx.offs[i] as isize as usize;
            let (m, t) = (x.wrapping_add(o), x.wrapping_add(o).wrapping_add(o));
            let next = self.open_dirs_any(ctx, mine, t, i);
            let captured = self.step(x, m, t);
            let size = 1 + self.count_on_any(ctx, mine, t, next);
            if k < size {
                path.push(t);
                self.select_on(ctx, mine, k, next, path);
                self.unstep(x, m, t, captured);
                return;
            }
            self.unstep(x, m, t, captured);
            k -= size;
        }
    }

    /// [`Board::open_dirs`] for the rule set's direction count, chain rule
    /// and capture rule, read at run time.
    #[inline(always)]
    pub(super) fn open_dirs_any(&self, ctx: &RuleTables<W>, mine: u8, x: usize, last: usize) -> u32 {
        with_rules!(ctx, N, STRAIGHT, SHARED => self.open_dirs::<N, STRAIGHT, SHARED>(ctx, mine, x, last))
    }

    /// [`Board::count_on`] for the rule set, read at run time.
    pub(super) fn count_on_any(&mut self, ctx: &RuleTables<W>, mine: u8, x: usize, open: u32) -> u64 {
        if open == 0 {
            return 0;
        }
        with_rules!(ctx, N, STRAIGHT, SHARED => self.count_on::<N, STRAIGHT, SHARED>(ctx, mine, x, open))
    }
}
