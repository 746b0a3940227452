//! The fixed action and observation layout of a rule set on its board.

use jump_capture::{Cell, Direction, Rules};

/// An action decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Jump from `from` over its neighbour in `direction`.
    Jump {
        /// The cell jumped from.
        from: Cell,
        /// The direction.
        direction: Direction,
    },
    /// Remove the piece on a cell (an opening's move).
    Remove(Cell),
    /// End the chain here.
    Stop,
}

/// The layout of actions and observation planes for one rule set's board.
///
/// Actions, with `cells = rows × cols` and cell `i = rank × cols + file`
/// (rank 0 at the bottom, file 0 at the left) and `D` the rule set's
/// directions in the order of `DirectionSet::directions`:
///
/// | action | meaning |
/// |---|---|
/// | `i × D + d` | jump from cell `i` in direction `d` |
/// | `cells × D + i` | remove the piece on cell `i` |
/// | `cells × (D + 1)` | stop |
///
/// Planes, each `rows × cols` (row 0 is rank 1): one per kind of piece
/// (in the rule set's order), empty cells, the board's cells, the moving
/// piece mid-chain, one per player for the player to move (all ones on
/// that player's plane), one per player for the score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encoding {
    rows: usize,
    cols: usize,
    directions: Vec<Direction>,
    kinds: usize,
    players: usize,
}

impl Encoding {
    /// The layout of `rules` with `players` players.
    pub fn new(rules: &Rules, players: usize) -> Encoding {
        Encoding {
            rows: usize::from(rules.rows()),
            cols: usize::from(rules.cols()),
            directions: rules.directions().directions().to_vec(),
            kinds: rules.kinds().len(),
            players,
        }
    }

    /// The number of cells of the board's rectangle.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The number of actions.
    pub fn actions(&self) -> usize {
        self.cells() * (self.directions.len() + 1) + 1
    }

    /// The number of observation planes.
    pub fn channels(&self) -> usize {
        self.kinds + 3 + 2 * self.players
    }

    /// The observation's shape: `(channels, rows, cols)`.
    pub fn shape(&self) -> (usize, usize, usize) {
        (self.channels(), self.rows, self.cols)
    }

    /// The plane of kind `k`; the others by name.
    pub(crate) fn kind_plane(&self, k: usize) -> usize {
        k
    }
    pub(crate) fn empty_plane(&self) -> usize {
        self.kinds
    }
    pub(crate) fn board_plane(&self) -> usize {
        self.kinds + 1
    }
    pub(crate) fn chain_plane(&self) -> usize {
        self.kinds + 2
    }
    pub(crate) fn to_move_plane(&self, player: usize) -> usize {
        self.kinds + 3 + player
    }
    pub(crate) fn score_plane(&self, player: usize) -> usize {
        self.kinds + 3 + self.players + player
    }

    /// The index of `cell` in a plane and in the actions.
    pub fn cell_index(&self, cell: Cell) -> usize {
        usize::from(cell.rank()) * self.cols + usize::from(cell.file())
    }

    pub(crate) fn cell_at(&self, i: usize) -> Option<Cell> {
        Cell::new(u8::try_from(i % self.cols).ok()?, u8::try_from(i / self.cols).ok()?)
    }

    /// The index of `action`, if this board has it.
    pub fn encode(&self, action: Action) -> Option<u32> {
        let d = self.directions.len();
        let index = match action {
            Action::Jump { from, direction } => {
                self.cell_index(from) * d + self.directions.iter().position(|&x| x == direction)?
            }
            Action::Remove(cell) => self.cells() * d + self.cell_index(cell),
            Action::Stop => self.cells() * (d + 1),
        };
        u32::try_from(index).ok()
    }

    /// The action of `index`, if there is one.
    pub fn decode(&self, index: u32) -> Option<Action> {
        let (i, d, cells) = (usize::try_from(index).ok()?, self.directions.len(), self.cells());
        if i < cells * d {
            Some(Action::Jump { from: self.cell_at(i / d)?, direction: self.directions[i % d] })
        } else if i < cells * (d + 1) {
            Some(Action::Remove(self.cell_at(i - cells * d)?))
        } else {
            (i == cells * (d + 1)).then_some(Action::Stop)
        }
    }

    /// The directions, in action order.
    pub fn directions(&self) -> &[Direction] {
        &self.directions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jump_capture::{Preset, RulesSpec};

    #[test]
    fn every_action_index_decodes_and_encodes_back() {
        let rules = Rules::new(Preset::Murray.spec().with_size(5, 7)).unwrap_or_else(|e| panic!("{e}"));
        let e = Encoding::new(&rules, 2);
        assert_eq!(e.actions(), 35 * 5 + 1);
        for i in 0..e.actions() as u32 {
            let a = e.decode(i).unwrap_or_else(|| panic!("{i}"));
            assert_eq!(e.encode(a), Some(i), "{a:?}");
        }
        assert_eq!(e.decode(e.actions() as u32), None);
        let _ = RulesSpec::clone(rules.spec());
    }
}
