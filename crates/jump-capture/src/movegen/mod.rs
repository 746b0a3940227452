//! The move generator: bitboard kernels, generic over the bitboard width.
//!
//! Everything here works on layout indices (see `layout.rs`) and a small
//! [`Board`] changed in place by make/unmake: bitboards for bulk work, and
//! a padded mailbox for following paths cell by cell. Nothing allocates
//! per move. Counting the moves of a position (the leaves of
//! perft) is done in bulk: for each direction `d` the landing cells of all
//! single jumps are `empty & capturable<<d & movable<<2d`, and only the
//! landings from which a further jump exists are followed one by one.
//! Perft keeps the count below each position it has counted, for the
//! move sequences that reach it again (`transpose.rs`).

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

/// Evaluates `$body` with `$n` (the number of directions, 4, 6 or 8),
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
        match ($ctx.ndirs, $ctx.straight, $ctx.owned) {
            (4, false, false) => arm!(4, false, true),
            (4, false, true) => arm!(4, false, false),
            (4, true, false) => arm!(4, true, true),
            (4, true, true) => arm!(4, true, false),
            (6, false, false) => arm!(6, false, true),
            (6, false, true) => arm!(6, false, false),
            (6, true, false) => arm!(6, true, true),
            (6, true, true) => arm!(6, true, false),
            (_, false, false) => arm!(8, false, true),
            (_, false, true) => arm!(8, false, false),
            (_, true, false) => arm!(8, true, true),
            (_, true, true) => arm!(8, true, false),
        }
    }};
}
pub(crate) use with_width;

// The kernels below use the macros above (textual scope).
mod board;
mod count;
mod greedy;
mod order;
mod perft;
mod select;
mod tables;
mod transpose;
mod walk;

pub(crate) use board::{Board, MB_EMPTY, MB_INERT, MB_OFF, Mailbox};
pub(crate) use greedy::{GainVisitor, Greediest, Numbered, Ranks};
pub(crate) use select::CountRecord;
pub(crate) use tables::RuleTables;
pub(crate) use transpose::Counts;

/// What the opening asks for at a ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum OpeningStep {
    Removal,
    KonaneFirst,
    KonaneSecond,
}

/// How many more levels of the walk are inlined below the first in each
/// call of `Board::count_on` (see there; 3: four jumps a call);
/// `Board::count_beyond` spells out the levels up to this one. Measured
/// with callgrind on the benchmark positions (18×18 all-directions
/// perft(3), 15×15 orthogonal perft(4)) when it was chosen: 0 levels
/// 3.27 G and 1.61 G instructions, 1 level 3.18 G and 1.61 G, 3 levels
/// 3.06 G and 1.56 G, 4 levels 3.04 G and 1.57 G.
pub(super) const UNROLLED: u8 = 3;
