//! Notation order without strings: cells and ranks ordered as their names
//! order as text (`c10x` < `c1x` < `c20x` < `c2x`), so the walk visits
//! moves sorted by notation without a sort.

use super::RuleTables;
use crate::bits::Bits;

/// Rank indices (from 0) in the order of their names followed by `x`:
/// `10x` < … < `19x` < `1x` < `20x` < … < `26x` < `2x` < … < `9x`.
pub(super) const RANKS_BY_NAME: [u8; 26] =
    [9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 0, 19, 20, 21, 22, 23, 24, 25, 1, 2, 3, 4, 5, 6, 7, 8];

/// The inverse of a rank order: each rank's position in it.
pub(super) const fn positions(order: &[u8; 26]) -> [u8; 26] {
    let mut out = [0; 26];
    let mut p = 0;
    while p < 26 {
        out[order[p] as usize] = p as u8;
        p += 1;
    }
    out
}

/// Each rank's position in [`RANKS_BY_NAME`].
pub(super) const NAME_POSITIONS: [u8; 26] = positions(&RANKS_BY_NAME);

/// Each rank's position in [`RANKS_BY_BARE_NAME`].
pub(super) const BARE_NAME_POSITIONS: [u8; 26] = positions(&RANKS_BY_BARE_NAME);

/// Rank indices (from 0) in the order of their bare names:
/// `1` < `10` < … < `19` < `2` < `20` < … < `26` < `3` < … < `9`.
pub(super) const RANKS_BY_BARE_NAME: [u8; 26] =
    [0, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 1, 19, 20, 21, 22, 23, 24, 25, 2, 3, 4, 5, 6, 7, 8];

impl<const W: usize> RuleTables<W> {
    /// The cells of `set` (layout indices), or `only` if given and in
    /// `set`: file by file, each file's ranks in the order `ranks` gives
    /// (`positions` being its inverse). Each cell is bucketed by file as a
    /// bit at its rank's position, so the order costs no sort.
    pub(super) fn by_name(
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
    pub(super) fn name_key(&self, i: usize) -> u32 {
        let (rank, file) = crate::layout::split_index(i, self.stride, self.recip);
        file as u32 * 32 + u32::from(NAME_POSITIONS[rank])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::MAX_WORDS;
    use crate::movegen::RuleTables;
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
        let ctx = RuleTables::<MAX_WORDS>::new(&rules, 2);
        let lay = &rules.layout;
        let mut cells: Vec<usize> = rules.cells().map(|c| lay.index(c)).collect();
        cells.sort_by_key(|&i| ctx.name_key(i));
        let names: Vec<String> = cells.iter().map(|&i| format!("{}x", lay.cell(i))).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }
}
