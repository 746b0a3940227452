//! Starting boards (`docs/rules.md` §2–3): apportioning kinds and shuffling them
//! from a seed with a named, portable generator.
//!
//! The generator is ChaCha8 keyed with the seed's eight little-endian bytes
//! followed by 24 zero bytes, read as 64-bit words. The shuffle is
//! Fisher–Yates from the last slot down, each index drawn as
//! `x % n` from the first word `x` below the largest multiple of `n`
//! (rejection, so unbiased). Both are fixed here and pinned by tests, so a
//! seed gives the same board on every platform and in every release.

#[cfg(feature = "os-random")]
use rand::TryRng;
use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

use crate::grid::{Grid, Square};
use crate::rules::{Fill, Rules};

/// Splits `n` pieces among kinds in proportion to `weights` by largest
/// remainder: each kind gets the whole part of its quota, then the pieces
/// left over go to the largest remainders, ties to the lower `values`
/// (then the earlier kind). Integer arithmetic throughout.
///
/// ```
/// // Murray's 4:3:2:1 on 15×15: 22.5 green and 67.5 yellow become 22 and 68.
/// let counts = jump_capture::apportion(225, &[4, 3, 2, 1], &[1, 2, 3, 4]);
/// assert_eq!(counts, vec![90, 68, 45, 22]);
/// ```
pub fn apportion(n: u32, weights: &[u32], values: &[u32]) -> Vec<u32> {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return vec![0; weights.len()];
    }
    let quota = |w: u32| u64::from(n) * u64::from(w);
    let mut counts: Vec<u32> = weights.iter().map(|&w| (quota(w) / total) as u32).collect();
    let mut left = n - counts.iter().sum::<u32>();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by_key(|&i| {
        (std::cmp::Reverse(quota(weights[i]) % total), values.get(i).copied().unwrap_or(0), i)
    });
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        counts[i] += 1;
        left -= 1;
    }
    counts
}

/// The portable generator for `seed`.
fn generator(seed: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    ChaCha8Rng::from_seed(key)
}

/// An unbiased draw below `n > 0`: `x % n` of the first word `x` below the
/// largest multiple of `n`.
pub(crate) fn below<R: Rng + ?Sized>(rng: &mut R, n: u64) -> u64 {
    let limit = u64::MAX - u64::MAX % n;
    loop {
        let x = rng.next_u64();
        if x < limit {
            return x % n;
        }
    }
}

/// Shuffles `items` in place from `seed` (see the module docs).
pub(crate) fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = generator(seed);
    for i in (1..items.len()).rev() {
        let j = below(&mut rng, i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// A fresh seed: from the operating system's random source with the
/// `os-random` feature (the default), else — or should the source fail —
/// the next of a fixed sequence of this process's.
pub fn random_seed() -> u64 {
    #[cfg(feature = "os-random")]
    if let Ok(seed) = rand::rngs::SysRng.try_next_u64() {
        return seed;
    }
    sequence_seed()
}

/// The next seed of this process's fixed sequence (SplitMix64 over a
/// counter): distinct seeds without a clock or an OS source.
fn sequence_seed() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0x5eed);
    let mut z = NEXT.fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The starting board of `rules` for `seed`.
pub(crate) fn starting_grid(rules: &Rules, seed: u64) -> Grid {
    let spec = rules.spec();
    let mut grid = Grid::filled(spec.rows, spec.cols, Square::Empty);
    for &c in &spec.mask {
        grid.set(c, Square::Missing);
    }
    let cells: Vec<_> = rules.cells().filter(|c| !spec.holes.contains(c)).collect();
    match &spec.fill {
        Fill::Random { weights } => {
            let values: Vec<u32> = spec.kinds.iter().map(|k| k.value).collect();
            let counts = apportion(cells.len() as u32, weights, &values);
            let mut pieces: Vec<char> = spec
                .kinds
                .iter()
                .zip(counts)
                .flat_map(|(k, n)| std::iter::repeat_n(k.letter, n as usize))
                .collect();
            shuffle(&mut pieces, seed);
            for (cell, letter) in cells.into_iter().zip(pieces) {
                grid.set(cell, Square::Piece(letter));
            }
        }
        &Fill::Checkerboard { top_left, other } => {
            for cell in cells {
                let from_top = spec.rows - 1 - cell.rank();
                let k = if (cell.file() + from_top).is_multiple_of(2) { top_left } else { other };
                grid.set(cell, Square::Piece(spec.kinds[k].letter));
            }
        }
    }
    grid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_without_an_os_source_differ_from_one_deal_to_the_next() {
        let seeds: std::collections::HashSet<u64> = (0..1000).map(|_| sequence_seed()).collect();
        assert_eq!(seeds.len(), 1000);
        // With the source (the default), seeds are the OS's: two in a row differ.
        assert_ne!(random_seed(), random_seed());
    }

    #[test]
    fn the_generator_and_shuffle_are_pinned() {
        // ChaCha8 keyed with the seed as described above. A change here
        // changes every deal: it is a breaking change, never a fix.
        let mut rng = generator(42);
        let words: Vec<u64> = (0..2).map(|_| rng.next_u64()).collect();
        assert_eq!(words, [6_424_161_053_832_095_879, 5_270_208_426_312_333_099]);
        let mut v: Vec<u32> = (0..10).collect();
        shuffle(&mut v, 42);
        assert_eq!(v, [2, 1, 4, 3, 7, 0, 5, 8, 6, 9]);
    }

    #[test]
    fn draws_below_n_are_below_n() {
        let mut rng = generator(7);
        for n in [1, 2, 3, 10, 1 << 40, u64::MAX] {
            assert!(below(&mut rng, n) < n);
        }
    }
}
