//! Every first jump of a position at once: the board as bit sets, a set a
//! kind of piece, on a grid padded so that no jump wraps a row. The
//! interface is [`BitBoard`]: kept in step with the environment's squares
//! ([`BitBoard::place`], [`BitBoard::load`]) and asked for the jumps that
//! open a move ([`BitBoard::first_jumps`]).
//!
//! A jump in direction `d` from `p` is open when a mover stands on `p`, a
//! piece it may take on `p + o` and nothing on `p + 2o` (`o` the offset of
//! `d` on the padded grid): three sets read shifted, for all cells of a
//! word at once, instead of three probes a cell and direction.

use jump_capture::Rules;

use crate::encoding::Encoding;

/// Empty columns right of each row: a jump moves two cells at most
/// sideways, so a step off a row's end lands in them.
const GUARD: usize = 2;

/// The bit sets of a board.
#[derive(Debug, Clone)]
pub(crate) struct BitBoard {
    /// A set's words (one more than the grid needs: a shifted read takes
    /// two words).
    words: usize,
    /// The board's cells.
    exists: Vec<u64>,
    /// The cells with a piece.
    occupied: Vec<u64>,
    /// Per kind, the cells with a piece of that kind.
    kinds: Vec<Vec<u64>>,
    /// Per cell index, its bit on the padded grid.
    bit_of: Vec<usize>,
    /// Per bit on the padded grid, its cell index (guard bits: never read).
    cell_of: Vec<u16>,
    /// Per direction, its offset on the padded grid.
    offsets: Vec<isize>,
    /// The scan's movers and victims (kept to spare an allocation a scan).
    scratch: [Vec<u64>; 2],
}

impl BitBoard {
    /// The empty sets of `rules`' board, laid out as `e`.
    pub(crate) fn new(rules: &Rules, e: &Encoding) -> BitBoard {
        let (_, rows, cols) = e.shape();
        let stride = cols + GUARD;
        // Two padding rows above and below: a jump off the first or last
        // rows lands in them.
        let bits = (rows + 4) * stride;
        let words = bits.div_ceil(64) + 1;
        let bit_of: Vec<usize> = (0..e.cells()).map(|i| (i / cols + 2) * stride + i % cols).collect();
        let mut cell_of = vec![u16::MAX; words * 64];
        let mut exists = vec![0; words];
        for cell in rules.cells() {
            let i = e.cell_index(cell);
            set(&mut exists, bit_of[i]);
            cell_of[bit_of[i]] = u16::try_from(i).unwrap_or(u16::MAX);
        }
        let offsets = e
            .directions()
            .iter()
            .map(|d| {
                let (df, dr) = d.delta();
                isize::from(dr) * stride as isize + isize::from(df)
            })
            .collect();
        BitBoard {
            words,
            exists,
            occupied: vec![0; words],
            kinds: vec![vec![0; words]; rules.kinds().len()],
            bit_of,
            cell_of,
            offsets,
            scratch: [vec![0; words], vec![0; words]],
        }
    }

    /// The sets of `squares` (the environment's: 0 empty, `k + 1` kind `k`,
    /// by cell index).
    pub(crate) fn load(&mut self, squares: &[u8]) {
        self.occupied.fill(0);
        self.kinds.iter_mut().for_each(|k| k.fill(0));
        for (i, &code) in squares.iter().enumerate().take(self.bit_of.len()) {
            self.place(i, 0, code);
        }
    }

    /// Cell index `i`, which held `was`, now holds `now` (codes as in
    /// [`BitBoard::load`]).
    #[inline]
    pub(crate) fn place(&mut self, i: usize, was: u8, now: u8) {
        let bit = self.bit_of[i];
        if let Some(k) = usize::from(was).checked_sub(1) {
            clear(&mut self.kinds[k], bit);
            clear(&mut self.occupied, bit);
        }
        if let Some(k) = usize::from(now).checked_sub(1) {
            set(&mut self.kinds[k], bit);
            set(&mut self.occupied, bit);
        }
    }

    /// Visits `(cell index, direction index)` of every open jump, the
    /// movers being the kinds whose codes are in the mask `movers` and
    /// the pieces they may take those in `victims` (bit `k + 1`: kind
    /// `k`); `None` for both: every piece moves and may be taken.
    pub(crate) fn first_jumps(&mut self, roles: Option<(u32, u32)>, mut visit: impl FnMut(usize, usize)) {
        let [mut movers, mut victims] = std::mem::take(&mut self.scratch);
        let (movers_of, victims_of) = match roles {
            None => (&self.occupied, &self.occupied),
            Some((m, v)) => {
                self.union(m, &mut movers);
                self.union(v, &mut victims);
                (&movers, &victims)
            }
        };
        for (d, &o) in self.offsets.iter().enumerate() {
            for w in 0..self.words {
                let at = (w * 64) as isize;
                let empty = word_at(&self.exists, at + 2 * o) & !word_at(&self.occupied, at + 2 * o);
                let mut open = movers_of[w] & word_at(victims_of, at + o) & empty;
                while open != 0 {
                    let bit = w * 64 + open.trailing_zeros() as usize;
                    open &= open - 1;
                    visit(usize::from(self.cell_of[bit]), d);
                }
            }
        }
        self.scratch = [movers, victims];
    }

    /// The cells of the kinds whose codes are in `codes`, into `out`.
    fn union(&self, codes: u32, out: &mut [u64]) {
        out.fill(0);
        for (k, set) in self.kinds.iter().enumerate() {
            if codes >> (k + 1) & 1 != 0 {
                out.iter_mut().zip(set).for_each(|(o, s)| *o |= s);
            }
        }
    }
}

fn set(words: &mut [u64], bit: usize) {
    words[bit / 64] |= 1 << (bit % 64);
}

fn clear(words: &mut [u64], bit: usize) {
    words[bit / 64] &= !(1 << (bit % 64));
}

/// The 64 bits of `words` from bit `from` on (bits outside the set read
/// as 0): bit `j` of the answer is bit `from + j` of the set.
#[inline(always)]
fn word_at(words: &[u64], from: isize) -> u64 {
    let (w, s) = (from.div_euclid(64), from.rem_euclid(64) as u32);
    let get = |i: isize| usize::try_from(i).ok().and_then(|i| words.get(i)).copied().unwrap_or(0);
    let (lo, hi) = (get(w), get(w + 1));
    if s == 0 { lo } else { (lo >> s) | (hi << (64 - s)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shifted_read_takes_bits_across_words_and_zeros_outside() {
        let words = [0x8000_0000_0000_0001, 0x3];
        assert_eq!(word_at(&words, 0), 0x8000_0000_0000_0001);
        assert_eq!(word_at(&words, 63), 0b111);
        assert_eq!(word_at(&words, 64), 0b11);
        assert_eq!(word_at(&words, -1), 0x0000_0000_0000_0002);
        assert_eq!(word_at(&words, 200), 0);
    }

    #[test]
    fn rows_are_padded_so_that_no_jump_wraps() {
        let rules = Rules::new(jump_capture::Preset::Old.spec().with_size(5, 5)).unwrap();
        let e = Encoding::new(&rules, 1);
        let b = BitBoard::new(&rules, &e);
        // Two rows below the board, and two guard bits after each row of
        // five: the last cell of a row and the first of the next are
        // further apart than a jump.
        assert_eq!(b.bit_of[0], 2 * 7);
        assert_eq!(b.bit_of[5] - b.bit_of[4], 3);
    }
}
