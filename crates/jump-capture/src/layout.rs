//! The padded cell layout behind the bitboards.
//!
//! Cell `(file, rank)` has index `rank * stride + file` with
//! `stride = cols + 1`: one guard column that never holds a piece sits
//! right of every rank, so a step east or west off the board lands on a
//! guard (or below index 0, or past the last rank) instead of wrapping
//! onto a real cell. A step in direction `d` adds a fixed offset.

use crate::cell::{Cell, Direction, DirectionSet, MAX_SIDE};

/// Words needed for the largest board: 26 ranks of 27 bits.
pub(crate) const MAX_WORDS: usize = (MAX_SIDE as usize * (MAX_SIDE as usize + 1)).div_ceil(64);

/// `(index / stride, index % stride)` through the multiplier `recip` of
/// [`Layout::recip`]: exact for strides up to 27 and indices below 2^11.
#[inline(always)]
pub(crate) fn split_index(index: usize, stride: usize, recip: u32) -> (usize, usize) {
    debug_assert!(index < 1 << 11 && stride <= usize::from(MAX_SIDE) + 1);
    let rank = ((index as u32 * recip) >> 16) as usize;
    (rank, index - rank * stride)
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Layout {
    pub(crate) rows: u8,
    pub(crate) cols: u8,
    pub(crate) stride: usize,
    /// `ceil(2^16 / stride)`: `i * recip >> 16` is `i / stride` for every
    /// index below 2^11 (the error term stays under `1 / stride`), without
    /// a division instruction.
    pub(crate) recip: u32,
    /// `rows * stride`: indices at and above this are off the board.
    pub(crate) bits: usize,
    /// 64-bit words a bitboard of this layout needs.
    pub(crate) words: usize,
    /// Cells that exist (inside the board, not masked).
    pub(crate) exists: [u64; MAX_WORDS],
    /// The rule set's directions with their index offsets.
    pub(crate) dirs: Vec<(Direction, i32)>,
    /// Whether the rule set has a mask (without one, every cell of the
    /// rows × cols rectangle exists).
    pub(crate) masked: bool,
    /// Per layout index, its cell (guard columns hold their rank's `a`
    /// cell; no path reaches them): a lookup, not a division.
    cells: Vec<Cell>,
    /// Per direction index, the index of the opposite direction (or 8).
    pub(crate) opposite: [usize; 8],
    /// `back[i][j]`: the direction that takes a piece two steps back onto
    /// its start after a step in `i` then one in `j`, if the set has it
    /// (else 8).
    pub(crate) back: [[u8; 8]; 8],
    /// `home[j]`: the opposites of `back[i][j]` over every `i`, as a mask
    /// of direction indices.
    pub(crate) home: [u8; 8],
    /// `closed[i][j]`: as a mask of direction indices, the directions whose
    /// jump from a path's second landing, after steps in `i` then `j`,
    /// would pass over a piece the path has captured (the way straight
    /// back, and in eight directions possibly the first capture too).
    pub(crate) closed: [[u8; 8]; 8],
    /// `loops[i][j][k]`: the direction of a fourth step that takes a path
    /// of steps in `i`, `j` and `k` back onto its start, if the set has it
    /// (else 8).
    pub(crate) loops: [[[u8; 8]; 8]; 8],
    /// `looping[i][j]`: the directions `k` (a mask) for which
    /// `loops[i][j][k]` names a direction.
    pub(crate) looping: [[u8; 8]; 8],
}

impl Layout {
    pub(crate) fn new(rows: u8, cols: u8, mask: &[Cell], set: DirectionSet) -> Layout {
        let stride = usize::from(cols) + 1;
        let bits = usize::from(rows) * stride;
        let mut exists = [0u64; MAX_WORDS];
        for r in 0..rows {
            for f in 0..cols {
                let i = usize::from(r) * stride + usize::from(f);
                exists[i >> 6] |= 1 << (i & 63);
            }
        }
        let recip = (1u32 << 16).div_ceil(stride as u32);
        let mut layout = Layout {
            rows,
            cols,
            stride,
            recip,
            bits,
            words: bits.div_ceil(64),
            exists,
            dirs: Vec::new(),
            masked: !mask.is_empty(),
            cells: Vec::new(),
            opposite: [8; 8],
            back: [[8; 8]; 8],
            home: [0; 8],
            closed: [[0; 8]; 8],
            loops: [[[8; 8]; 8]; 8],
            looping: [[0; 8]; 8],
        };
        for &cell in mask {
            let i = layout.index(cell);
            layout.exists[i >> 6] &= !(1 << (i & 63));
        }
        layout.dirs = set.directions().iter().map(|&d| (d, layout.offset(d))).collect();
        let index_of = |d: Option<Direction>| d.and_then(|d| layout.dirs.iter().position(|&(e, _)| e == d));
        let (mut opposite, mut back, mut home) = ([8; 8], [[8u8; 8]; 8], [0u8; 8]);
        let (mut closed, mut loops, mut looping) = ([[0u8; 8]; 8], [[[8u8; 8]; 8]; 8], [[0u8; 8]; 8]);
        let bit = |d: Option<usize>| d.map_or(0, |d| 1u8 << d);
        for (i, &(di, _)) in layout.dirs.iter().enumerate() {
            let (fi, ri) = di.delta();
            opposite[i] = index_of(Direction::from_delta(-fi, -ri)).unwrap_or(8);
            for (j, &(dj, _)) in layout.dirs.iter().enumerate() {
                let (fj, rj) = dj.delta();
                if let Some(k) = index_of(Direction::from_delta(-(fi + fj), -(ri + rj))) {
                    back[i][j] = k as u8;
                    // The set has every direction's opposite.
                    home[j] |= bit(index_of(Direction::from_delta(fi + fj, ri + rj)));
                }
                // From the second landing, the first capture lies at
                // -(2j + i) and the second at -j.
                closed[i][j] = bit(index_of(Direction::from_delta(-fj, -rj)))
                    | bit(index_of(Direction::from_delta(-(2 * fj + fi), -(2 * rj + ri))));
                for (k, &(dk, _)) in layout.dirs.iter().enumerate() {
                    let (fk, rk) = dk.delta();
                    if let Some(l) = index_of(Direction::from_delta(-(fi + fj + fk), -(ri + rj + rk))) {
                        loops[i][j][k] = l as u8;
                        looping[i][j] |= 1 << k;
                    }
                }
            }
        }
        (layout.opposite, layout.back, layout.home) = (opposite, back, home);
        (layout.closed, layout.loops, layout.looping) = (closed, loops, looping);
        layout.cells = (0..bits)
            .map(|i| {
                let (r, f) = layout.split(i);
                Cell::new(if f < usize::from(cols) { f as u8 } else { 0 }, r as u8)
                    .expect("ranks and files are below 26")
            })
            .collect();
        layout
    }

    pub(crate) fn offset(&self, d: Direction) -> i32 {
        let (df, dr) = d.delta();
        i32::from(dr) * self.stride as i32 + i32::from(df)
    }

    pub(crate) fn index(&self, cell: Cell) -> usize {
        usize::from(cell.rank()) * self.stride + usize::from(cell.file())
    }

    /// The rank and file of an index (see [`split_index`]).
    #[inline(always)]
    pub(crate) fn split(&self, index: usize) -> (usize, usize) {
        split_index(index, self.stride, self.recip)
    }

    /// The cell at an index; only for indices of existing cells.
    #[inline(always)]
    pub(crate) fn cell(&self, index: usize) -> Cell {
        self.cells[index]
    }

    pub(crate) fn exists_at(&self, index: usize) -> bool {
        index < self.bits && (self.exists[index >> 6] >> (index & 63)) & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_index_divides_exactly_for_every_stride_and_index() {
        for stride in 4..=usize::from(MAX_SIDE) + 1 {
            let recip = (1u32 << 16).div_ceil(stride as u32);
            for i in 0..1 << 11 {
                assert_eq!(split_index(i, stride, recip), (i / stride, i % stride), "{i} / {stride}");
            }
        }
    }
}
