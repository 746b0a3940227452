//! The eight-direction probe of a mailbox cell's 5×5 neighbourhood in a
//! few vector instructions (SSSE3), for rule sets of eight directions
//! under shared rules: where chains are long, this probe is most of the
//! work of counting moves.
//!
//! The neighbourhood is read as five 16-byte rows (two ranks below the
//! cell to two above, each from two files left); one byte shuffle per row
//! puts each direction's first cell in lanes 0–7 and its second cell in
//! lanes 8–15, and one compare finds the directions whose first cell
//! holds a piece (code 1) and whose second is empty (code 0).
//!
//! It also reads one bit of four or eight words at once ([`bits_at`]): two
//! words a vector, each shifted so that the bit becomes its sign, one
//! mask instruction a pair (SSE2).
//!
//! This module holds the crate's only `unsafe`: calls of functions
//! compiled for SSSE3 and SSE2, which the `cfg` on each admits only to
//! builds whose target CPU has it (the workspace's `.cargo/config.toml`
//! sets `x86-64-v2`; every x86-64 CPU has SSE2), and an unaligned 16-byte
//! load from a 16-byte array. Other builds (another target CPU, another
//! architecture) use the scalar code (the probe in `movegen.rs`,
//! [`bits_at_scalar`] here); `probes_agree_with_the_scalar_probe` and
//! `bits_at_agrees_with_shifting_each_word` hold the two equal.

use crate::cell::Direction;

/// Mailbox length: a power of two above the largest padded layout
/// (26 ranks of 27 cells plus two pads of 2 × 27 + 2), so an index masked
/// with `MB_LEN - 1` needs no bounds check.
pub(crate) const MB_LEN: usize = 1024;
const _: () = assert!(26 * 27 + 2 * (2 * 27 + 2) <= MB_LEN);

/// The widest rank stride (26 files and a guard).
const MAX_STRIDE: usize = 27;

/// What the probe reads, from two ranks below and two files left of the
/// cell: four ranks and a row.
const WINDOW: usize = 4 * MAX_STRIDE + 16;

/// Mailbox storage: `MB_LEN` codes (a size the allocator keeps at hand).
pub(crate) type Cells = [u8; MB_LEN];

// A window starts below the largest padded layout's end, so it fits.
const _: () = assert!(26 * 27 + 2 * (2 * 27 + 2) + WINDOW <= MB_LEN);

/// The shuffle masks as bytes, per row of the neighbourhood (from two
/// ranks below the cell): which byte of the row each lane takes (`0x80`:
/// none).
type Lanes = [[u8; 16]; 5];

/// The shuffle masks of the eight directions in the order of
/// [`Direction::ALL`] (the order of `DirectionSet::All`, the only set of
/// eight): row `dr + 2` gives lane `i` the byte `dc + 2` for the first cell
/// of direction `i` (`dc` files right, `dr` ranks up), row `2 dr + 2`
/// gives lane `8 + i` the byte `2 dc + 2` for its second cell. They do not
/// depend on the stride: the rows are read `stride` apart.
#[cfg_attr(not(all(target_arch = "x86_64", target_feature = "ssse3")), allow(dead_code))]
const LANES: Lanes = lanes(&Direction::ALL);

#[cfg_attr(not(all(target_arch = "x86_64", target_feature = "ssse3")), allow(dead_code))]
const fn lanes(dirs: &[Direction; 8]) -> Lanes {
    let mut rows = [[0x80; 16]; 5];
    let mut i = 0;
    while i < 8 {
        let (dc, dr) = dirs[i].delta();
        rows[(dr + 2) as usize][i] = (dc + 2) as u8;
        rows[(2 * dr + 2) as usize][8 + i] = (2 * dc + 2) as u8;
        i += 1;
    }
    rows
}

/// The directions (bits by index in [`Direction::ALL`]) in which the piece
/// on mailbox index `x` can jump now, under shared rules: a piece one step
/// away and an empty cell two steps away.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[inline(always)]
pub(crate) fn open_all_shared(cells: &Cells, x: usize, stride: usize) -> u32 {
    #[allow(unsafe_code)]
    // SAFETY: the function needs SSSE3, which the `cfg` on this one
    // guarantees the whole build targets.
    let open = unsafe { open_shared_ssse3(cells, x, stride) };
    open
}

/// Sixteen bytes as a vector (read as two words: a load without a pointer;
/// for the constant masks, a constant).
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[target_feature(enable = "ssse3")]
#[inline]
fn vector(bytes: &[u8; 16]) -> std::arch::x86_64::__m128i {
    let (lo, hi) = bytes.split_at(8);
    let word = |b: &[u8]| i64::from_le_bytes(b.try_into().unwrap_or_default());
    std::arch::x86_64::_mm_set_epi64x(word(hi), word(lo))
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[target_feature(enable = "ssse3")]
#[inline]
fn open_shared_ssse3(cells: &Cells, x: usize, stride: usize) -> u32 {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x, _mm_setzero_si128, _mm_shuffle_epi8,
    };
    // The neighbourhood's rows start `stride` apart in a window from two
    // ranks below and two files left of `x`.
    let stride = stride.min(MAX_STRIDE);
    // Cells of the board lie low in the mailbox: the window always fits,
    // and the `min` only tells the compiler so.
    let from = x.wrapping_sub(2 * stride + 2);
    debug_assert!(from + WINDOW <= MB_LEN);
    let from = from.min(MB_LEN - WINDOW);
    let window: &[u8; WINDOW] = cells[from..from + WINDOW].try_into().unwrap_or(&[0xFF; WINDOW]);
    let mut gathered = _mm_setzero_si128();
    for (r, mask) in LANES.iter().enumerate() {
        let row: &[u8; 16] = window[r * stride..r * stride + 16].try_into().unwrap_or(&[0xFF; 16]);
        #[allow(unsafe_code)]
        // SAFETY: `row` is 16 readable bytes; the load may be unaligned.
        let row = unsafe { std::arch::x86_64::_mm_loadu_si128(row.as_ptr().cast()) };
        gathered = _mm_or_si128(gathered, _mm_shuffle_epi8(row, vector(mask)));
    }
    // First cells hold a piece (1), second cells are empty (0).
    let want = _mm_set_epi64x(0, 0x0101_0101_0101_0101);
    let bits = _mm_movemask_epi8(_mm_cmpeq_epi8(gathered, want)) as u32;
    bits & (bits >> 8) & 0xFF
}

/// Bit `bit` (below 64) of each of `words`, as a mask: bit `k` of the
/// answer is bit `bit` of `words[k]`. `N` is even (4 or 8 here).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(crate) fn bits_at<const N: usize>(words: &[u64; N], bit: usize) -> u32 {
    #[allow(unsafe_code)]
    // SAFETY: the function needs SSE2, which the `cfg` on this one
    // guarantees the whole build targets.
    let mask = unsafe { bits_at_sse2(words, bit) };
    mask
}

/// [`bits_at`] a word at a time: what builds without SSE2 use, and what
/// the vector version is tested against.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline(always)]
pub(crate) fn bits_at_scalar<const N: usize>(words: &[u64; N], bit: usize) -> u32 {
    words.iter().enumerate().fold(0, |mask, (k, &w)| mask | ((w >> bit) as u32 & 1) << k)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[target_feature(enable = "sse2")]
#[inline]
fn bits_at_sse2<const N: usize>(words: &[u64; N], bit: usize) -> u32 {
    use std::arch::x86_64::{
        _mm_castsi128_pd, _mm_cvtsi64_si128, _mm_movemask_pd, _mm_set_epi64x, _mm_sll_epi64,
    };
    const { assert!(N.is_multiple_of(2)) };
    // Shifted left by 63 - bit, the bit becomes the word's sign.
    let count = _mm_cvtsi64_si128(63 - (bit & 63) as i64);
    let mut mask = 0;
    for k in (0..N).step_by(2) {
        let pair = _mm_set_epi64x(words[k + 1] as i64, words[k] as i64);
        mask |= (_mm_movemask_pd(_mm_castsi128_pd(_mm_sll_epi64(pair, count))) as u32) << k;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_name_each_directions_two_cells() {
        let (n, e) = (0, 2);
        assert_eq!(Direction::ALL[n], Direction::N);
        assert_eq!(Direction::ALL[e], Direction::E);
        assert_eq!(LANES[2][e], 3, "east's first cell: this rank, one file right");
        assert_eq!(LANES[2][8 + e], 4, "east's second cell: two files right");
        assert_eq!(LANES[3][n], 2, "north's first cell: one rank up, this file");
        assert_eq!(LANES[4][8 + n], 2, "north's second cell: two ranks up");
        assert_eq!(LANES.iter().flatten().filter(|&&b| b != 0x80).count(), 16);
        assert_eq!(
            crate::cell::DirectionSet::All.directions(),
            &Direction::ALL[..],
            "the order of the set of eight"
        );
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[test]
    fn bits_at_agrees_with_shifting_each_word() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(9);
        for _ in 0..200 {
            let words: [u64; 8] = std::array::from_fn(|_| rng.next_u64());
            let four: [u64; 4] = std::array::from_fn(|k| words[k]);
            for bit in 0..64 {
                assert_eq!(bits_at(&words, bit), bits_at_scalar(&words, bit), "bit {bit} of {words:x?}");
                assert_eq!(bits_at(&four, bit), bits_at_scalar(&four, bit), "bit {bit} of {four:x?}");
            }
            // The scalar reading itself, on a word per bit.
            assert_eq!(bits_at_scalar(&[1, 0, 1, 1], 0), 0b1101);
        }
    }

    /// On random mailboxes, every cell and several strides: the vector
    /// probe finds exactly the directions the scalar test
    /// `cells[m] == 1 && cells[t] == 0` finds.
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    #[test]
    fn probes_agree_with_the_scalar_probe() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(5);
        for stride in [4usize, 7, 16, 19, 27] {
            let s = stride as i32;
            let offs: Vec<i32> = Direction::ALL
                .iter()
                .map(|d| {
                    let (dc, dr) = d.delta();
                    i32::from(dr) * s + i32::from(dc)
                })
                .collect();
            for _ in 0..20 {
                let mut cells: Cells = [0; MB_LEN];
                for c in cells.iter_mut() {
                    *c = [0, 1, 2, 0xFE, 0xFF][crate::deal::below(&mut rng, 5) as usize];
                }
                let pad = 2 * stride + 2;
                for x in pad..MB_LEN - WINDOW {
                    let scalar = offs.iter().enumerate().fold(0, |acc, (i, &o)| {
                        let m = (x as isize + o as isize) as usize;
                        let t = (m as isize + o as isize) as usize;
                        acc | (u32::from(cells[m] == 1 && cells[t] == 0) << i)
                    });
                    assert_eq!(open_all_shared(&cells, x, stride), scalar, "stride {stride}, x {x}");
                }
            }
        }
    }
}
