//! Boards drawn by a mask on the square grid (`docs/rules.md` §12): the
//! hexagon of Chinese-checkers Capture and the boards of peg solitaire.
//! Each is a `rows × cols` grid and the cells that do not exist on it.

use crate::cell::{Cell, MAX_SIDE};

/// The outline of a preset's board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Shape {
    /// Every cell of `rows × cols` (Leap Frog, Froglet, Konane).
    Rectangle,
    /// A hexagon of side `n` on the `(2n−1) × (2n−1)` grid, in axial
    /// coordinates: the cells with `|file − rank| ≥ n` do not exist.
    Hexagon,
    /// A triangle of side `n` on the `n × n` grid: the cells with
    /// `file > rank` do not exist (rank 1 holds `a1` alone).
    Triangle,
    /// The English peg-solitaire cross: 7×7 without its four 2×2 corners.
    Cross,
}

impl Shape {
    /// A lower-case name: `rectangle`, `hexagon`, `triangle`, `cross`.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Rectangle => "rectangle",
            Shape::Hexagon => "hexagon",
            Shape::Triangle => "triangle",
            Shape::Cross => "cross",
        }
    }

    /// The sides a board of this shape may have: for a hexagon and a
    /// triangle, the side `n`; for a rectangle, each of its sides; the
    /// cross has one size, 7.
    pub fn sides(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Shape::Rectangle => 3..=MAX_SIDE,
            Shape::Hexagon => 2..=MAX_SIDE.div_ceil(2),
            Shape::Triangle => 3..=MAX_SIDE,
            Shape::Cross => 7..=7,
        }
    }

    /// The grid (`rows`, `cols`) of a board of side `side`.
    pub fn grid(self, side: u8) -> (u8, u8) {
        match self {
            Shape::Hexagon => (2 * side - 1, 2 * side - 1),
            Shape::Rectangle | Shape::Triangle | Shape::Cross => (side, side),
        }
    }

    /// The cells of the grid of [`Shape::grid`] that do not exist, rank 1
    /// first, files left to right. `side` must be in [`Shape::sides`].
    pub fn mask(self, side: u8) -> Vec<Cell> {
        let (rows, cols) = self.grid(side);
        let gone = |f: u8, r: u8| match self {
            Shape::Rectangle => false,
            Shape::Hexagon => f.abs_diff(r) >= side,
            Shape::Triangle => f > r,
            Shape::Cross => !(2..=4).contains(&f) && !(2..=4).contains(&r),
        };
        (0..rows)
            .flat_map(|r| (0..cols).map(move |f| (f, r)))
            .filter(|&(f, r)| gone(f, r))
            .filter_map(|(f, r)| Cell::new(f, r))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(shape: Shape, side: u8) -> usize {
        let (rows, cols) = shape.grid(side);
        usize::from(rows) * usize::from(cols) - shape.mask(side).len()
    }

    #[test]
    fn the_boards_of_the_rule_book_have_their_cell_counts() {
        // Side 5: 61 cells; in general 3n(n−1) + 1.
        assert_eq!(cells(Shape::Hexagon, 5), 61);
        for n in Shape::Hexagon.sides() {
            assert_eq!(cells(Shape::Hexagon, n), 3 * usize::from(n) * (usize::from(n) - 1) + 1);
        }
        assert_eq!(cells(Shape::Triangle, 5), 15);
        assert_eq!(cells(Shape::Cross, 7), 33);
        assert_eq!(Shape::Hexagon.grid(13), (25, 25));
    }

    #[test]
    fn a_triangle_holds_a1_alone_on_rank_1_and_a_hexagon_misses_its_corners() {
        let mask = Shape::Triangle.mask(5);
        assert!(!mask.contains(&"a1".parse().unwrap()));
        assert!(mask.contains(&"b1".parse().unwrap()));
        assert!(!mask.contains(&"e5".parse().unwrap()));
        let hex = Shape::Hexagon.mask(5);
        for gone in ["a9", "i1", "f1", "a6"] {
            assert!(hex.contains(&gone.parse().unwrap()), "{gone}");
        }
        for here in ["a1", "i9", "e1", "a5", "e5"] {
            assert!(!hex.contains(&here.parse().unwrap()), "{here}");
        }
    }
}
