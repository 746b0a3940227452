//! Fixed-width bitboards over the padded cell layout (see `layout.rs`).

/// A set of cell indices below `64 * W`, one bit each.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Bits<const W: usize>(pub(crate) [u64; W]);

impl<const W: usize> Bits<W> {
    pub(crate) const EMPTY: Self = Bits([0; W]);

    #[inline(always)]
    pub(crate) fn from_slice(words: &[u64]) -> Self {
        let mut out = [0; W];
        out.copy_from_slice(&words[..W]);
        Bits(out)
    }

    #[inline(always)]
    pub(crate) fn and(self, other: Self) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o &= b;
        }
        Bits(out)
    }

    #[inline(always)]
    pub(crate) fn or(self, other: Self) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o |= b;
        }
        Bits(out)
    }

    #[inline(always)]
    pub(crate) fn xor(self, other: Self) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o ^= b;
        }
        Bits(out)
    }

    /// `self & !other`.
    #[inline(always)]
    pub(crate) fn and_not(self, other: Self) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o &= !b;
        }
        Bits(out)
    }

    /// Moves every bit `by` places up (towards higher indices); negative
    /// `by` moves down. `|by|` is below 64: direction offsets are at most
    /// twice a row stride of 27 plus one.
    #[inline(always)]
    pub(crate) fn shift(self, by: i32) -> Self {
        debug_assert!(by != 0 && by.unsigned_abs() < 64);
        // Each word is a funnel shift of two neighbours (one `shld` or
        // `shrd` on x86-64).
        let mut out = [0; W];
        if by > 0 {
            let b = by as u32 & 63;
            for i in 0..W {
                let low = if i > 0 { self.0[i - 1] } else { 0 };
                out[i] = ((u128::from(self.0[i]) << 64 | u128::from(low)) << b >> 64) as u64;
            }
        } else {
            let b = by.unsigned_abs() & 63;
            for i in 0..W {
                let high = if i + 1 < W { self.0[i + 1] } else { 0 };
                out[i] = ((u128::from(high) << 64 | u128::from(self.0[i])) >> b) as u64;
            }
        }
        Bits(out)
    }

    #[inline(always)]
    pub(crate) fn count(self) -> u64 {
        self.0.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    #[inline(always)]
    pub(crate) fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline(always)]
    pub(crate) fn has(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    #[inline(always)]
    pub(crate) fn toggle(&mut self, i: usize) {
        self.0[i >> 6] ^= 1 << (i & 63);
    }

    #[inline(always)]
    pub(crate) fn iter(self) -> Ones<W> {
        Ones { words: self.0, at: 0 }
    }
}

/// The indices of the set bits, lowest first.
pub(crate) struct Ones<const W: usize> {
    words: [u64; W],
    at: usize,
}

impl<const W: usize> Iterator for Ones<W> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.at < W {
            let w = self.words[self.at];
            if w != 0 {
                self.words[self.at] = w & (w - 1);
                return Some(self.at * 64 + w.trailing_zeros() as usize);
            }
            self.at += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_carry_across_words() {
        let mut b = Bits::<2>::EMPTY;
        b.toggle(62);
        assert!(b.shift(3).has(65));
        assert!(b.shift(3).shift(-3).has(62));
        assert_eq!(b.shift(-63).count(), 0);
        assert_eq!(b.shift(3).iter().collect::<Vec<_>>(), vec![65]);
    }
}
