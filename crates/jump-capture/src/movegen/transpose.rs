//! Perft's table of counts already made: many move sequences reach the same
//! position (a chain's captures taken in another order, two players' moves
//! made in the other order), and the count below it is the same. Chess
//! perft programs keep such a table; so does this one.
//!
//! A position is known by a 128-bit fingerprint of everything the moves
//! below it depend on: the occupied cells, each player's pieces under owned
//! rules, the removable pieces while an opening is still ahead, and the
//! depth left (the ply is the same for every node at one depth of one call).
//! Two different positions share a fingerprint with odds near 2⁻¹²⁸ per
//! pair: far below the odds of a memory error.

use super::{Board, RuleTables};

/// One stored count: the fingerprint and the count (0 words: unused).
type Entry = [u64; 3];

/// The most entries a table grows to (24 bytes each: 12 MiB, and the
/// half-size table beside it while it is copied), and the
/// entries it starts with.
const MAX_ENTRIES: usize = 1 << 19;
const MIN_ENTRIES: usize = 1 << 10;

/// A table of perft counts that doubles while more than half full, up to
/// [`MAX_ENTRIES`]; past that a new count replaces the one in its slot.
pub(crate) struct Counts {
    entries: Vec<Entry>,
    used: usize,
}

impl Counts {
    pub(crate) fn new() -> Self {
        Counts { entries: vec![[0; 3]; MIN_ENTRIES], used: 0 }
    }

    #[inline]
    fn slot(len: usize, key: [u64; 2]) -> usize {
        // Lengths are powers of two.
        (key[0] as usize) & (len - 1)
    }

    /// The count stored under `key`, if any.
    #[inline]
    pub(crate) fn get(&self, key: [u64; 2]) -> Option<u64> {
        let e = &self.entries[Self::slot(self.entries.len(), key)];
        (e[0] == key[0] && e[1] == key[1]).then_some(e[2])
    }

    /// Stores `count` under `key`.
    #[inline]
    pub(crate) fn put(&mut self, key: [u64; 2], count: u64) {
        if 2 * self.used >= self.entries.len() && self.entries.len() < MAX_ENTRIES {
            self.grow();
        }
        let i = Self::slot(self.entries.len(), key);
        self.used += usize::from(self.entries[i] == [0; 3]);
        self.entries[i] = [key[0], key[1], count];
    }

    #[cold]
    fn grow(&mut self) {
        let len = 2 * self.entries.len();
        let mut entries = vec![[0; 3]; len];
        self.used = 0;
        for e in self.entries.iter().filter(|e| **e != [0; 3]) {
            let i = Self::slot(len, [e[0], e[1]]);
            self.used += usize::from(entries[i] == [0; 3]);
            entries[i] = *e;
        }
        self.entries = entries;
    }
}

/// A 64-bit finaliser (splitmix64's): every input bit moves every output
/// bit.
#[inline(always)]
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Two independent lanes: each word enters each lane mixed with its own
/// position in the key (so that equal words in other places differ).
#[derive(Clone, Copy)]
struct Fingerprint([u64; 2], u64);

impl Fingerprint {
    #[inline(always)]
    fn add(mut self, word: u64) -> Self {
        self.1 += 1;
        let w = word ^ self.1.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0[0] = self.0[0].rotate_left(5) ^ mix(w);
        self.0[1] = self.0[1].wrapping_add(mix(w ^ 0xd6e8_feb8_6659_fd93));
        self
    }
}

impl<const W: usize> Board<W> {
    /// The fingerprint of this board with `depth` plies left to count.
    #[inline]
    pub(super) fn fingerprint(&self, ctx: &RuleTables<W>, depth: u32) -> [u64; 2] {
        let mut f = Fingerprint([0, 0], 0).add(u64::from(depth));
        for w in self.occ.0 {
            f = f.add(w);
        }
        if ctx.owned {
            for side in &self.sides {
                for w in side.0 {
                    f = f.add(w);
                }
            }
        }
        if ctx.opening_plies > 0 {
            for w in self.removable.0 {
                f = f.add(w);
            }
        }
        [mix(f.0[0]), mix(f.0[1])]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_is_found_under_its_key_and_not_under_another() {
        let mut t = Counts::new();
        assert_eq!(t.get([5, 6]), None);
        t.put([5, 6], 42);
        assert_eq!(t.get([5, 6]), Some(42));
        assert_eq!(t.get([5, 7]), None);
        // Same slot, other key: replaced.
        let other = [5 + t.entries.len() as u64, 6];
        t.put(other, 7);
        assert_eq!((t.get(other), t.get([5, 6])), (Some(7), None));
    }

    #[test]
    fn a_table_grows_while_half_full_and_keeps_its_counts() {
        let mut t = Counts::new();
        // Keys in distinct slots: nothing is replaced.
        let keys = (1..=3 * MIN_ENTRIES as u64).map(|k| [k, k]);
        for (n, k) in keys.clone().enumerate() {
            t.put(k, n as u64);
        }
        assert!(t.entries.len() >= 4 * MIN_ENTRIES);
        assert!(keys.enumerate().all(|(n, k)| t.get(k) == Some(n as u64)));
    }

    #[test]
    fn a_table_stops_growing_at_its_bound() {
        let mut t = Counts::new();
        for k in 1..=MAX_ENTRIES as u64 {
            t.put([k, k], k);
        }
        assert_eq!(t.entries.len(), MAX_ENTRIES);
    }

    #[test]
    fn the_fingerprint_tells_words_apart_by_place() {
        let a = Fingerprint([0, 0], 0).add(1).add(0);
        let b = Fingerprint([0, 0], 0).add(0).add(1);
        assert_ne!(a.0, b.0);
    }
}
