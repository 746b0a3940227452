//! The per-rule-set constants of the move generator: direction offsets,
//! the tables of which step sequences can come home, Konane's first cells.

use super::OpeningStep;
use crate::bits::Bits;
use crate::rules::{Capture, Chain, Opening, Rules};

/// Per-rule-set constants of the kernel.
pub(crate) struct RuleTables<const W: usize> {
    pub(crate) exists: Bits<W>,
    /// Per direction, `exists` shifted two steps along it.
    pub(super) exists2: [Bits<W>; 8],
    /// Index offsets of the directions; slots past `ndirs` hold 0.
    pub(crate) offs: [i32; 8],
    pub(crate) ndirs: usize,
    /// Per direction index, the index of the opposite direction (or 8).
    pub(super) opposite: [usize; 8],
    /// `back[i][j]`: the direction that takes a piece two steps back onto
    /// its start after a step in `i` then one in `j`, if the set has it
    /// (else 8).
    pub(super) back: [[u8; 8]; 8],
    /// `home[j]`: the directions `d` (a mask) such that a piece just past a
    /// capturable one in `d` (a cell of `near[d]` in `count_dirs`) could
    /// jump home onto its start after some first step and then one in `j`:
    /// see [`crate::layout::Layout::home`].
    pub(super) home: [u8; 8],
    /// See [`crate::layout::Layout::closed`] and
    /// [`crate::layout::Layout::loops`].
    pub(super) closed: [[u8; 8]; 8],
    pub(super) loops: [[[u8; 8]; 8]; 8],
    /// See [`crate::layout::Layout::looping`].
    pub(super) looping: [[u8; 8]; 8],
    pub(super) straight: bool,
    pub(super) owned: bool,
    pub(super) players: u32,
    pub(super) opening_plies: u32,
    pub(super) konane: bool,
    /// Konane's first-removal cells: the centre 2×2 and the corners.
    pub(super) konane_first: Bits<W>,
    /// Orthogonal offsets, for "next to an empty cell".
    pub(super) orth: [i32; 4],
    /// Mailbox padding before index 0 (and after the last index): the
    /// longest jump, so a jump from any cell stays inside the mailbox.
    pub(crate) pad: usize,
    /// Layout indices per rank, and its multiplier for `split_index`.
    pub(super) stride: usize,
    pub(super) recip: u32,
}

impl<const W: usize> RuleTables<W> {
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
        // A set of four directions has no path that comes back to its start
        // in three steps (the counts rely on it; six and eight have them).
        debug_assert!(lay.dirs.len() != 4 || lay.back.iter().flatten().all(|&k| k == 8));
        RuleTables {
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

    pub(super) fn opening_step(&self, ply: u32) -> Option<OpeningStep> {
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
