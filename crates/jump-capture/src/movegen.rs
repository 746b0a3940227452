//! The move generator: bitboard kernels, generic over the bitboard width.
//!
//! Everything here works on layout indices (see `layout.rs`) and a small
//! [`State`] changed in place by make/unmake: bitboards for bulk work, and
//! a padded mailbox for following paths cell by cell. Nothing allocates
//! per move. Counting the moves of a position (the leaves of
//! perft) is done in bulk: for each direction `d` the landing cells of all
//! single jumps are `empty & capturable<<d & movable<<2d`, and only the
//! landings from which a further jump exists are followed one by one.

use std::ops::ControlFlow;

use crate::bits::Bits;
use crate::gather::{Cells, MB_LEN};
use crate::rules::{Capture, Chain, Opening, Rules};

/// Calls `$body` with `$w` bound as a `const usize` wide enough for the
/// layout's bitboards (rounded up to limit monomorphised copies).
macro_rules! with_width {
    ($words:expr, $w:ident => $body:expr) => {
        match $words {
            1 => {
                const $w: usize = 1;
                $body
            }
            2 => {
                const $w: usize = 2;
                $body
            }
            3 => {
                const $w: usize = 3;
                $body
            }
            4 => {
                const $w: usize = 4;
                $body
            }
            5 | 6 => {
                const $w: usize = 6;
                $body
            }
            7 | 8 => {
                const $w: usize = 8;
                $body
            }
            _ => {
                const $w: usize = $crate::layout::MAX_WORDS;
                $body
            }
        }
    };
}

/// Evaluates `$body` with `$n` (the number of directions, 4 or 8),
/// `$straight` (the straight-line chain rule) and `$shared` (shared rules:
/// any piece may move and be taken) bound as constants for `$ctx`'s rule
/// set, so that the search below is compiled for it.
macro_rules! with_rules {
    ($ctx:expr, $n:ident, $straight:ident, $shared:ident => $body:expr) => {{
        macro_rules! arm {
            ($nv:expr, $sv:expr, $hv:expr) => {{
                const $n: usize = $nv;
                const $straight: bool = $sv;
                const $shared: bool = $hv;
                $body
            }};
        }
        match ($ctx.ndirs == 8, $ctx.straight, $ctx.owned) {
            (false, false, false) => arm!(4, false, true),
            (false, false, true) => arm!(4, false, false),
            (false, true, false) => arm!(4, true, true),
            (false, true, true) => arm!(4, true, false),
            (true, false, false) => arm!(8, false, true),
            (true, false, true) => arm!(8, false, false),
            (true, true, false) => arm!(8, true, true),
            (true, true, true) => arm!(8, true, false),
        }
    }};
}
pub(crate) use with_width;

/// What the opening asks for at a ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum OpeningStep {
    Removal,
    KonaneFirst,
    KonaneSecond,
}

/// How many more levels of the walk are inlined below the first in each
/// call of `State::count_on` (see there; 3: four jumps a call);
/// `State::count_beyond` spells out the levels up to this one. Measured
/// with callgrind on the benchmark positions (18×18 all-directions
/// perft(3), 15×15 orthogonal perft(4)) when it was chosen: 0 levels
/// 3.27 G and 1.61 G instructions, 1 level 3.18 G and 1.61 G, 3 levels
/// 3.06 G and 1.56 G, 4 levels 3.04 G and 1.57 G.
const UNROLLED: u8 = 3;

/// Which of the first `N` sets hold the index `x`, as a mask of set
/// indices.
#[inline(always)]
fn holding<const W: usize, const N: usize>(sets: &[Bits<W>; 8], x: usize) -> u32 {
    let (word, bit) = (x >> 6, x & 63);
    let words: [u64; N] = std::array::from_fn(|k| sets[k].0[word]);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return crate::gather::bits_at(&words, bit);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    crate::gather::bits_at_scalar(&words, bit)
}

/// The index of the `k`-th set bit (from 0, lowest first).
fn nth_one<const W: usize>(bits: Bits<W>, mut k: u64) -> Option<usize> {
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

/// Per cell, how many of the first `N` (4 or 8) sets hold it, as bit
/// slices: bit `k` of the count in slice `k`. An adder tree: half adders sum
/// the sets in pairs and a two-bit adder joins the pairs; for eight, a
/// ripple adder joins the two fours.
#[inline(always)]
fn open_counts<const W: usize, const N: usize>(sets: &[Bits<W>; 8]) -> [Bits<W>; 4] {
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

/// Per-rule-set constants of the kernel.
pub(crate) struct Ctx<const W: usize> {
    pub(crate) exists: Bits<W>,
    /// Per direction, `exists` shifted two steps along it.
    exists2: [Bits<W>; 8],
    /// Index offsets of the directions; slots past `ndirs` hold 0.
    pub(crate) offs: [i32; 8],
    pub(crate) ndirs: usize,
    /// Per direction index, the index of the opposite direction (or 8).
    opposite: [usize; 8],
    /// `back[i][j]`: the direction that takes a piece two steps back onto
    /// its start after a step in `i` then one in `j`, if the set has it
    /// (else 8).
    back: [[u8; 8]; 8],
    /// `home[j]`: the directions `d` (a mask) such that a piece just past a
    /// capturable one in `d` (a cell of `near[d]` in `count_dirs`) could
    /// jump home onto its start after some first step and then one in `j`:
    /// see [`crate::layout::Layout::home`].
    home: [u8; 8],
    /// See [`crate::layout::Layout::closed`] and
    /// [`crate::layout::Layout::loops`].
    closed: [[u8; 8]; 8],
    loops: [[[u8; 8]; 8]; 8],
    /// See [`crate::layout::Layout::looping`].
    looping: [[u8; 8]; 8],
    straight: bool,
    owned: bool,
    players: u32,
    opening_plies: u32,
    konane: bool,
    /// Konane's first-removal cells: the centre 2×2 and the corners.
    konane_first: Bits<W>,
    /// Orthogonal offsets, for "next to an empty cell".
    orth: [i32; 4],
    /// Mailbox padding before index 0 (and after the last index): the
    /// longest jump, so a jump from any cell stays inside the mailbox.
    pub(crate) pad: usize,
    /// Layout indices per rank, and its multiplier for `split_index`.
    stride: usize,
    recip: u32,
}

/// Rank indices (from 0) in the order of their names followed by `x`:
/// `10x` < … < `19x` < `1x` < `20x` < … < `26x` < `2x` < … < `9x`.
const RANKS_BY_NAME: [u8; 26] =
    [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 0, 19, 20, 21, 22, 23, 24, 25, 1, 2, 3, 4, 5, 6, 7, 8];

/// The inverse of a rank order: each rank's position in it.
const fn positions(order: &[u8; 26]) -> [u8; 26] {
    let mut out = [0; 26];
    let mut p = 0;
    while p < 26 {
        out[order[p] as usize] = p as u8;
        p += 1;
    }
    out
}

/// Each rank's position in [`RANKS_BY_NAME`].
const NAME_POSITIONS: [u8; 26] = positions(&RANKS_BY_NAME);

/// Each rank's position in [`RANKS_BY_BARE_NAME`].
const BARE_NAME_POSITIONS: [u8; 26] = positions(&RANKS_BY_BARE_NAME);

/// Rank indices (from 0) in the order of their bare names:
/// `1` < `10` < … < `19` < `2` < `20` < … < `26` < `3` < … < `9`.
const RANKS_BY_BARE_NAME: [u8; 26] =
    [0, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 1, 19, 20, 21, 22, 23, 24, 25, 2, 3, 4, 5, 6, 7, 8];

/// What [`State::count_recording`] notes of a first jump: its direction,
/// its landing (layout index) and a number of its moves of three or more
/// jumps.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deep {
    dir: u8,
    landing: u16,
    moves: u64,
}

/// The figures of a count that [`State::select_counted`] reuses: the first
/// landings and the onward-open cells per direction, and the longer paths.
#[derive(Clone, Debug)]
pub(crate) struct Figures<const W: usize> {
    lands: [Bits<W>; 8],
    from: [Bits<W>; 8],
    deep: Vec<Deep>,
}

impl<const W: usize> Default for Figures<W> {
    fn default() -> Self {
        Figures { lands: [Bits::EMPTY; 8], from: [Bits::EMPTY; 8], deep: Vec::new() }
    }
}

/// Mailbox code of an empty cell.
pub(crate) const MB_EMPTY: u8 = 0;
/// Mailbox code of a piece nobody may move or capture (owned rules, no
/// owner in this game).
pub(crate) const MB_INERT: u8 = 0xFE;
/// Mailbox code of a cell that does not exist.
pub(crate) const MB_OFF: u8 = 0xFF;

/// The padded mailbox: one code per cell.
#[derive(Clone, Debug)]
pub(crate) struct Mailbox(Box<Cells>);

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
fn capturable(code: u8, mine: u8) -> bool {
    // `&`, not `&&`: both sides are cheap, and a branch here mispredicts.
    (code.wrapping_sub(1) < MB_INERT - 1) & (code != mine)
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
        let exists = Bits::from_slice(&lay.exists);
        let mut exists2 = [Bits::EMPTY; 8];
        for (slot, &(_, o)) in exists2.iter_mut().zip(&lay.dirs) {
            *slot = exists.shift(2 * o);
        }
        // Only a set of eight directions has paths that come back to their
        // start in three steps (the counts rely on it).
        debug_assert!(lay.dirs.len() == 8 || lay.back.iter().flatten().all(|&k| k == 8));
        Ctx {
            exists,
            exists2,
            offs,
            ndirs: lay.dirs.len(),
            opposite: lay.opposite,
            back: lay.back,
            home: lay.home,
            closed: lay.closed,
            loops: lay.loops,
            looping: lay.looping,
            straight: spec.chain == Chain::Straight,
            owned: spec.capture == Capture::Owned,
            players: players as u32,
            opening_plies: spec.opening.plies(players),
            konane: spec.opening == Opening::Konane,
            konane_first,
            orth: [s, 1, -s, -1],
            pad: 2 * lay.stride + 2,
            stride: lay.stride,
            recip: lay.recip,
        }
    }

    /// The cells of `set` (layout indices), or `only` if given and in
    /// `set`: file by file, each file's ranks in the order `ranks` gives
    /// (`positions` being its inverse). Each cell is bucketed by file as a
    /// bit at its rank's position, so the order costs no sort.
    fn by_name(
        &self,
        set: Bits<W>,
        ranks: &'static [u8; 26],
        positions: &'static [u8; 26],
        only: Option<usize>,
    ) -> impl Iterator<Item = usize> + 'static {
        let mut files = [0u32; 27];
        match only {
            Some(s) => {
                if set.has(s) {
                    let (rank, file) = crate::layout::split_index(s, self.stride, self.recip);
                    files[file] |= 1 << positions[rank];
                }
            }
            None => {
                for s in set.iter() {
                    let (rank, file) = crate::layout::split_index(s, self.stride, self.recip);
                    files[file] |= 1 << positions[rank];
                }
            }
        }
        let stride = self.stride;
        (0..stride - 1).flat_map(move |file| {
            let mut ranks_here = files[file];
            std::iter::from_fn(move || {
                (ranks_here != 0).then(|| {
                    let p = ranks_here.trailing_zeros() as usize;
                    ranks_here &= ranks_here - 1;
                    usize::from(ranks[p]) * stride + file
                })
            })
        })
    }

    /// A key that orders the cells at layout indices as their names
    /// followed by `x` order as strings: by file, then rank names as text
    /// (`c10x` < `c1x` < `c20x` < `c2x`, as [`RANKS_BY_NAME`]).
    #[inline(always)]
    fn name_key(&self, i: usize) -> u32 {
        let (rank, file) = crate::layout::split_index(i, self.stride, self.recip);
        file as u32 * 32 + u32::from(NAME_POSITIONS[rank])
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
}

/// The mutable bitboards of a position.
#[derive(Clone, Debug)]
pub(crate) struct State<const W: usize> {
    pub(crate) occ: Bits<W>,
    /// Per player, the pieces they own (only under owned captures).
    pub(crate) sides: Vec<Bits<W>>,
    /// Pieces whose kind the opening lets be removed.
    pub(crate) removable: Bits<W>,
    /// Per layout index plus `pad`: [`MB_EMPTY`], [`MB_OFF`], [`MB_INERT`],
    /// or the piece's code: 1 under shared rules, 1 + owner under owned.
    pub(crate) cells: Mailbox,
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

    /// The mailbox code of the mover's pieces (0 under shared rules).
    #[inline(always)]
    fn mine(ctx: &Ctx<W>, ply: u32) -> u8 {
        if ctx.owned { 1 + Self::mover(ctx, ply) as u8 } else { 0 }
    }

    /// Jumps the piece on `s` over `m` to `t` in the mailbox only
    /// (mailbox indices); returns the captured code for [`State::unstep`].
    #[inline(always)]
    fn step(&mut self, s: usize, m: usize, t: usize) -> u8 {
        self.step_as::<false>(s, m, t)
    }

    /// [`State::step`]; `SHARED`: under shared rules, where every piece
    /// has code 1, so the codes are known without reading them.
    #[inline(always)]
    fn step_as<const SHARED: bool>(&mut self, s: usize, m: usize, t: usize) -> u8 {
        let (mover, captured) = if SHARED { (1, 1) } else { (self.cells[s], self.cells[m]) };
        self.cells[t] = mover;
        self.cells[s] = MB_EMPTY;
        self.cells[m] = MB_EMPTY;
        captured
    }

    #[inline(always)]
    fn unstep(&mut self, s: usize, m: usize, t: usize, captured: u8) {
        self.unstep_as::<false>(s, m, t, captured);
    }

    /// [`State::unstep`]; `SHARED` as in [`State::step_as`].
    #[inline(always)]
    fn unstep_as<const SHARED: bool>(&mut self, s: usize, m: usize, t: usize, captured: u8) {
        self.cells[s] = if SHARED { 1 } else { self.cells[t] };
        self.cells[t] = MB_EMPTY;
        self.cells[m] = if SHARED { 1 } else { captured };
    }

    /// Jumps the piece on `s` over `m` to `t` (layout indices), in the
    /// bitboards and the mailbox; returns what [`State::unjump`] needs.
    #[inline(always)]
    fn jump(&mut self, ctx: &Ctx<W>, s: usize, m: usize, t: usize) -> u8 {
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
    fn unjump(&mut self, ctx: &Ctx<W>, s: usize, m: usize, t: usize, captured: u8) {
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
    fn toggle_side(&mut self, code: u8, i: usize) {
        if let Some(side) = self.sides.get_mut(usize::from(code.wrapping_sub(1))) {
            side.toggle(i);
        }
    }

    /// `(over, onto)` as layout indices if the piece on `x` can jump in
    /// offset `o` now.
    #[inline(always)]
    fn open_step(&self, ctx: &Ctx<W>, ply: u32, x: usize, o: i32) -> Option<(usize, usize)> {
        let o = o as isize as usize;
        let m = x.wrapping_add(o);
        let t = m.wrapping_add(o);
        let ok = self.cells[t.wrapping_add(ctx.pad)] == MB_EMPTY
            && capturable(self.cells[m.wrapping_add(ctx.pad)], Self::mine(ctx, ply));
        ok.then_some((m, t))
    }

    /// Takes the piece on `i` off the board, or puts it back (a toggle).
    fn toggle_removal(&mut self, ctx: &Ctx<W>, ply: u32, i: usize, was_removable: bool) {
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
        self.count_recording(ctx, ply, None)
    }

    /// [`State::count`]; with `figures`, also keeps its landing and onward
    /// sets and records, for each first jump
    /// (direction, landing) whose paths go on past a second jump, how many
    /// of its moves are three or more jumps long (several entries may share
    /// a first jump): what [`State::select_counted`] needs to skip first
    /// jumps whole.
    pub(crate) fn count_recording(
        &mut self,
        ctx: &Ctx<W>,
        ply: u32,
        mut figures: Option<&mut Figures<W>>,
    ) -> u64 {
        if let Some(f) = figures.as_deref_mut() {
            f.deep.clear();
        }
        if let Some(step) = ctx.opening_step(ply) {
            return self.removals(ctx, ply, step).count();
        }
        // The direction sets have four or eight directions: with the number
        // fixed, the loops below unroll and their sets stay in registers.
        match (ctx.ndirs == 4, ctx.owned) {
            (true, false) => self.count_dirs::<4, true>(ctx, ply, figures),
            (true, true) => self.count_dirs::<4, false>(ctx, ply, figures),
            (false, false) => self.count_dirs::<8, true>(ctx, ply, figures),
            (false, true) => self.count_dirs::<8, false>(ctx, ply, figures),
        }
    }

    /// [`State::count_recording`] past the opening, for a rule set of `N`
    /// directions; `SHARED`: under shared rules (every piece may move and
    /// be taken).
    fn count_dirs<const N: usize, const SHARED: bool>(
        &mut self,
        ctx: &Ctx<W>,
        ply: u32,
        mut figures: Option<&mut Figures<W>>,
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
        // eight directions).
        let mut twos = [Bits::<W>::EMPTY; 8];
        if N == 8 {
            for (k, set) in twos.iter_mut().enumerate() {
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
            if N == 8 {
                let mut home = ctx.home[j];
                while home != 0 {
                    ways = ways.or(near[home.trailing_zeros() as usize]);
                    home &= home - 1;
                }
            }
            let oj = ctx.offs[j] as isize;
            for u in second.shift(2 * ctx.offs[j]).and(ways).iter() {
                let original = self.open_originally::<N, SHARED>(ctx, &from, u);
                let onward_two = if N == 8 { holding::<W, N>(&twos, u) } else { 0 };
                // The first jumps that landed where this second one starts
                // (read at once: a test per direction would branch
                // unpredictably).
                let t = (u as isize - 2 * oj) as usize;
                let mut firsts = holding::<W, N>(&lands, t);
                while firsts != 0 {
                    let i = firsts.trailing_zeros() as usize;
                    firsts &= firsts - 1;
                    let mut open = original & !u32::from(ctx.closed[i][j]);
                    if N == 8 {
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
                    if N == 8 {
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
                        f.deep.push(Deep { dir: i as u8, landing: t as u16, moves: n });
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
    fn comes_home<const SHARED: bool>(&self, ctx: &Ctx<W>, mine: u8, u: usize, dirs: [usize; 3]) -> bool {
        let [i, j, k] = dirs;
        let l = usize::from(ctx.loops[i][j][k]);
        debug_assert!(l < 8, "no way home after {dirs:?}");
        let v = u as isize + 2 * ctx.offs[k] as isize;
        self.takes::<SHARED>(mine, (v + ctx.offs[l & 7] as isize) as usize + ctx.pad)
    }

    /// Whether the mover may capture the piece on mailbox index `x`.
    #[inline(always)]
    fn takes<const SHARED: bool>(&self, mine: u8, x: usize) -> bool {
        if SHARED { self.cells[x] == 1 } else { capturable(self.cells[x], mine) }
    }

    /// The directions (a mask of direction indices) in which a piece on
    /// the empty cell `u` (a layout index) could jump on the board as it
    /// stands, read off `from`.
    #[inline(always)]
    fn open_originally<const N: usize, const SHARED: bool>(
        &self,
        ctx: &Ctx<W>,
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
    fn count_fourth<const N: usize, const SHARED: bool>(
        &mut self,
        ctx: &Ctx<W>,
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
    /// [`State::unstep_two`].
    #[inline(always)]
    fn step_two<const SHARED: bool>(
        &mut self,
        ctx: &Ctx<W>,
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

    /// Takes back the two steps made by [`State::step_two`], last first.
    #[inline(always)]
    fn unstep_two<const SHARED: bool>(&mut self, path: [usize; 5], captured: [u8; 2]) {
        self.unstep_as::<SHARED>(path[2], path[3], path[4], captured[1]);
        self.unstep_as::<SHARED>(path[0], path[1], path[2], captured[0]);
    }

    /// Counts the paths of three or more steps through the second landing
    /// `u` (a layout index) of a first step in direction `i` and a second
    /// in `j`.
    #[inline(always)]
    fn count_third<const N: usize, const STRAIGHT: bool, const SHARED: bool>(
        &mut self,
        ctx: &Ctx<W>,
        mine: u8,
        u: usize,
        i: usize,
        j: usize,
        figures: Option<&mut Figures<W>>,
    ) -> u64 {
        let (path, captured) = self.step_two::<SHARED>(ctx, u, i, j);
        let (t, u) = (path[2], path[4]);
        let open = self.open_dirs::<N, STRAIGHT, SHARED>(ctx, mine, u, j);
        let mut n = 0;
        if open != 0 {
            n = self.count_on::<N, STRAIGHT, SHARED>(ctx, mine, u, open);
            if let Some(f) = figures {
                f.deep.push(Deep { dir: i as u8, landing: (t - ctx.pad) as u16, moves: n });
            }
        }
        self.unstep_two::<SHARED>(path, captured);
        n
    }

    /// The directions (as a bit mask of direction indices) in which the
    /// piece on mailbox index `x` could jump now, for a rule set of `N`
    /// directions (4 or 8). `SHARED`: the rules let every piece be captured
    /// (every piece has code 1, and `mine` is 0).
    #[inline(always)]
    fn open_dirs<const N: usize, const STRAIGHT: bool, const SHARED: bool>(
        &self,
        ctx: &Ctx<W>,
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
            // Four or eight probes, unrolled.
            let four = probe(0) | probe(1) | probe(2) | probe(3);
            if N == 4 { four } else { four | probe(4) | probe(5) | probe(6) | probe(7) }
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
    /// below are the same loop inlined, see [`State::count_ways`]) before
    /// calling itself: most walks end within a few jumps, and a call's
    /// saved registers cost as much as a jump's probe.
    #[inline(never)]
    fn count_on<const N: usize, const STRAIGHT: bool, const SHARED: bool>(
        &mut self,
        ctx: &Ctx<W>,
        mine: u8,
        x: usize,
        open: u32,
    ) -> u64 {
        self.count_ways::<N, STRAIGHT, SHARED, UNROLLED>(ctx, mine, x, open)
    }

    /// [`State::count_on`]'s loop over the open directions of `x`, with
    /// `LEVEL` more levels of the walk inlined below it (counting down to
    /// 0, whose jumps call `count_on`).
    #[inline(always)]
    fn count_ways<const N: usize, const STRAIGHT: bool, const SHARED: bool, const LEVEL: u8>(
        &mut self,
        ctx: &Ctx<W>,
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
    /// in [`State::count_ways`].
    #[inline(always)]
    fn count_beyond<const N: usize, const STRAIGHT: bool, const SHARED: bool, const LEVEL: u8>(
        &mut self,
        ctx: &Ctx<W>,
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
                let q = self.jump(ctx, s, m, t);
                n += self.perft(ctx, ply + 1, depth - 1) + self.perft_on(ctx, ply, t, i, depth);
                self.unjump(ctx, s, m, t, q);
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
            let q = self.jump(ctx, x, m, t);
            n += self.perft(ctx, ply + 1, depth - 1) + self.perft_on(ctx, ply, t, i, depth);
            self.unjump(ctx, x, m, t, q);
        }
        n
    }

    /// Writes the path (layout indices) of move `k` (below the count) in a
    /// fixed order, `figures` being what [`State::count_recording`] just
    /// recorded of this state: the first jumps by direction, then landing;
    /// within one, the single jump, then its extensions by direction. A
    /// first jump's moves number 1, plus its open directions (read off the
    /// board as the count does), plus its recorded longer paths: whole
    /// directions and first jumps are skipped on those figures, and only
    /// the chosen one is walked. Any fixed order makes a uniform `k` a
    /// uniform move.
    pub(crate) fn select_counted(
        &mut self,
        ctx: &Ctx<W>,
        ply: u32,
        mut k: u64,
        figures: &Figures<W>,
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
    fn select_on(&mut self, ctx: &Ctx<W>, mine: u8, k: u64, mut open: u32, path: &mut Vec<usize>) {
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

    /// [`State::open_dirs`] for the rule set's direction count, chain rule
    /// and capture rule, read at run time.
    #[inline(always)]
    fn open_dirs_any(&self, ctx: &Ctx<W>, mine: u8, x: usize, last: usize) -> u32 {
        with_rules!(ctx, N, STRAIGHT, SHARED => self.open_dirs::<N, STRAIGHT, SHARED>(ctx, mine, x, last))
    }

    /// [`State::count_on`] for the rule set, read at run time.
    fn count_on_any(&mut self, ctx: &Ctx<W>, mine: u8, x: usize, open: u32) -> u64 {
        if open == 0 {
            return 0;
        }
        with_rules!(ctx, N, STRAIGHT, SHARED => self.count_on::<N, STRAIGHT, SHARED>(ctx, mine, x, open))
    }

    /// Plays the move along `path` (layout indices) for good: no unmake.
    pub(crate) fn apply(&mut self, ctx: &Ctx<W>, ply: u32, path: &[usize]) {
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
        ctx: &Ctx<W>,
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
        let (mov, capt) = self.roles(ctx, ply);
        let mine = Self::mine(ctx, ply);
        let empty = ctx.exists.and_not(self.occ);
        let mut starts = Bits::<W>::EMPTY;
        for &o in &ctx.offs[..ctx.ndirs] {
            starts = starts.or(Self::landings(empty, mov, capt, o).shift(-2 * o));
        }
        let starts = ctx.by_name(starts, &RANKS_BY_NAME, &NAME_POSITIONS, only);
        with_rules!(ctx, N, STRAIGHT, SHARED => self.paths_from::<N, STRAIGHT, SHARED, F>(ctx, mine, starts, visit))
    }

    /// [`State::walk_paths`] from `starts` (layout indices, in order), for
    /// a rule set of `N` directions, chain rule `STRAIGHT` and capture rule
    /// `SHARED`.
    fn paths_from<const N: usize, const STRAIGHT: bool, const SHARED: bool, F>(
        &mut self,
        ctx: &Ctx<W>,
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
    fn paths_on<const N: usize, const STRAIGHT: bool, const SHARED: bool, F>(
        &mut self,
        ctx: &Ctx<W>,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::MAX_WORDS;
    use crate::{Preset, Rules};

    /// The rank orders follow the strings `<rank>` and `<rank>x`, and so do
    /// the name keys.
    #[test]
    fn ranks_and_cells_are_ordered_as_their_names_followed_by_x() {
        let mut by_text: Vec<u8> = (0..26).collect();
        by_text.sort_by_key(|r| format!("{}x", r + 1));
        assert_eq!(by_text, RANKS_BY_NAME);
        by_text.sort_by_key(|r| (r + 1).to_string());
        assert_eq!(by_text, RANKS_BY_BARE_NAME);
        let rules = Rules::new(Preset::Old.spec().with_size(26, 26)).unwrap();
        let ctx = Ctx::<MAX_WORDS>::new(&rules, 2);
        let lay = &rules.layout;
        let mut cells: Vec<usize> = rules.cells().map(|c| lay.index(c)).collect();
        cells.sort_by_key(|&i| ctx.name_key(i));
        let names: Vec<String> = cells.iter().map(|&i| format!("{}x", lay.cell(i))).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }
}
