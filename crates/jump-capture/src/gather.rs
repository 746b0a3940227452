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
//! This module holds the crate's only `unsafe`: two calls of functions
//! compiled for SSSE3, which the `cfg` on them admits only to builds whose
//! target CPU has it (the workspace's `.cargo/config.toml` sets
//! `x86-64-v2`), and an unaligned 16-byte load from a 16-byte array. Other
//! builds (another target CPU, another architecture) use the scalar probe
//! in `movegen.rs`; `probes_agree_with_the_scalar_probe` holds the two
//! equal.

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

/// Per row of the neighbourhood (from two ranks below the cell), which
/// byte of the row each lane takes (`0x80`: none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Gather {
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    rows: [std::arch::x86_64::__m128i; 5],
}

/// The shuffle masks of a layout as bytes, per row of the neighbourhood.
pub(crate) type Lanes = [[u8; 16]; 5];

impl Gather {
    /// The gather of a layout's [`lanes`].
    #[cfg_attr(not(all(target_arch = "x86_64", target_feature = "ssse3")), allow(unused_variables))]
    pub(crate) fn new(lanes: &Lanes) -> Gather {
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        {
            #[allow(unsafe_code)]
            // SAFETY: `vectors` needs SSSE3, which the `cfg` above
            // guarantees the whole build targets.
            let rows = unsafe { vectors(lanes) };
            Gather { rows }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        Gather {}
    }

    /// The directions (bits by direction index) in which the piece on
    /// mailbox index `x` can jump now, under shared rules: a piece one step
    /// away and an empty cell two steps away.
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    #[inline(always)]
    pub(crate) fn open_shared(&self, cells: &Cells, x: usize, stride: usize) -> u32 {
        #[allow(unsafe_code)]
        // SAFETY: the function needs SSSE3, which the `cfg` on this one
        // guarantees the whole build targets.
        let open = unsafe { open_shared_ssse3(&self.rows, cells, x, stride) };
        open
    }
}

/// The shuffle masks for direction offsets `offs` (at most eight, each one
/// step: `dr * stride + dc` with `dr`, `dc` in -1..=1) on a mailbox of
/// `stride` cells a rank: row `dr + 2` gives lane `i` the byte `dc + 2` for
/// the first cell of direction `i`, row `2 dr + 2` gives lane `8 + i` the
/// byte `2 dc + 2` for its second cell. Computed once per layout.
pub(crate) fn lanes(offs: &[i32], stride: usize) -> Lanes {
    debug_assert!(offs.len() <= 8 && stride >= 4);
    let s = stride as i32;
    let mut rows = [[0x80; 16]; 5];
    for (i, &o) in offs.iter().enumerate() {
        let dc = match o.rem_euclid(s) {
            0 => 0,
            1 => 1,
            _ => -1,
        };
        let dr = (o - dc) / s;
        rows[(dr + 2) as usize][i] = (dc + 2) as u8;
        rows[(2 * dr + 2) as usize][8 + i] = (2 * dc + 2) as u8;
    }
    rows
}

/// Sixteen bytes as a vector (read as two words: a load without a pointer).
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[target_feature(enable = "ssse3")]
#[inline]
fn vector(bytes: &[u8; 16]) -> std::arch::x86_64::__m128i {
    let (lo, hi) = bytes.split_at(8);
    let word = |b: &[u8]| i64::from_le_bytes(b.try_into().unwrap_or_default());
    std::arch::x86_64::_mm_set_epi64x(word(hi), word(lo))
}

/// The shuffle masks as vectors.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[target_feature(enable = "ssse3")]
fn vectors(lanes: &Lanes) -> [std::arch::x86_64::__m128i; 5] {
    let mut rows = [std::arch::x86_64::_mm_setzero_si128(); 5];
    for (row, bytes) in rows.iter_mut().zip(lanes) {
        *row = vector(bytes);
    }
    rows
}

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[target_feature(enable = "ssse3")]
#[inline]
fn open_shared_ssse3(rows: &[std::arch::x86_64::__m128i; 5], cells: &Cells, x: usize, stride: usize) -> u32 {
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
    for (r, &mask) in rows.iter().enumerate() {
        let row: &[u8; 16] = window[r * stride..r * stride + 16].try_into().unwrap_or(&[0xFF; 16]);
        #[allow(unsafe_code)]
        // SAFETY: `row` is 16 readable bytes; the load may be unaligned.
        let row = unsafe { std::arch::x86_64::_mm_loadu_si128(row.as_ptr().cast()) };
        gathered = _mm_or_si128(gathered, _mm_shuffle_epi8(row, mask));
    }
    // First cells hold a piece (1), second cells are empty (0).
    let want = _mm_set_epi64x(0, 0x0101_0101_0101_0101);
    let bits = _mm_movemask_epi8(_mm_cmpeq_epi8(gathered, want)) as u32;
    bits & (bits >> 8) & 0xFF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_name_each_directions_two_cells() {
        // East (+1) and north (+stride) on a stride of 10.
        let rows = lanes(&[1, 10], 10);
        assert_eq!(rows[2][0], 3, "east's first cell: this rank, one file right");
        assert_eq!(rows[2][8], 4, "east's second cell: two files right");
        assert_eq!(rows[3][1], 2, "north's first cell: one rank up, this file");
        assert_eq!(rows[4][9], 2, "north's second cell: two ranks up");
        assert_eq!(rows.iter().flatten().filter(|&&b| b != 0x80).count(), 4);
    }

    /// On random mailboxes, every cell, every direction set and several
    /// strides: the vector probe finds exactly the directions the scalar
    /// test `cells[m] == 1 && cells[t] == 0` finds.
    #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
    #[test]
    fn probes_agree_with_the_scalar_probe() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(5);
        for stride in [4usize, 7, 16, 19, 27] {
            let s = stride as i32;
            for offs in [
                vec![1, s, -1, -s],
                vec![s + 1, s - 1, -s + 1, -s - 1],
                vec![1, s + 1, s, s - 1, -1, -s - 1, -s, -s + 1],
            ] {
                let gather = Gather::new(&lanes(&offs, stride));
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
                        assert_eq!(gather.open_shared(&cells, x, stride), scalar, "stride {stride}, x {x}");
                    }
                }
            }
        }
    }
}
