//! The named rule sets of the rule book (`docs/rules.md`): Leap Frog `old` and `murray`, BrainKing's
//! `froglet`, `konane`, and on boards drawn by a mask (§12) Chinese-checkers `capture` and the peg
//! solitaires `english` and `triangle`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::cell::{Cell, DirectionSet, MAX_SIDE};
use crate::rules::{Capture, Chain, EndRule, Fill, Kind, Opening, Rules, RulesError, RulesSpec};
use crate::shape::Shape;

/// Most players the Leap Frog presets accept ("almost without limit").
pub const LEAP_FROG_MAX_PLAYERS: usize = 64;

/// A named rule set with its default board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Preset {
    /// Leap Frog as played before 1898: plain pieces worth 1 each, 15×15.
    Old,
    /// Murray's 1898 Leap Frog: white 1, yellow 2, red 3, green 4, 15×15.
    Murray,
    /// BrainKing's Froglet: green 1, yellow 2, red 3, blue 4, 12×12; only the
    /// first player removes, and only a green piece.
    Froglet,
    /// Konane, the Hawaiian game: two players, own pieces, straight jumps, 8×8.
    Konane,
    /// Capture on the central hexagon of a Chinese-checkers board (side 5,
    /// 61 cells), `hex` directions, all full but the centre, 2 to 6 players.
    Capture,
    /// English peg solitaire: the 33-hole cross, all full but the centre,
    /// one player.
    English,
    /// Triangular peg solitaire: side 5 (15 holes), `hex` directions, all
    /// full but `a1`, one player.
    Triangle,
}

impl Preset {
    /// Every preset, in the order listed to users.
    pub const ALL: [Preset; 7] = [
        Preset::Old,
        Preset::Murray,
        Preset::Froglet,
        Preset::Konane,
        Preset::Capture,
        Preset::English,
        Preset::Triangle,
    ];

    /// The identifier used on the command line and the wire.
    pub fn id(self) -> &'static str {
        match self {
            Preset::Old => "old",
            Preset::Murray => "murray",
            Preset::Froglet => "froglet",
            Preset::Konane => "konane",
            Preset::Capture => "capture",
            Preset::English => "english",
            Preset::Triangle => "triangle",
        }
    }

    /// The outline of the preset's board.
    pub fn shape(self) -> Shape {
        match self {
            Preset::Capture => Shape::Hexagon,
            Preset::English => Shape::Cross,
            Preset::Triangle => Shape::Triangle,
            Preset::Old | Preset::Murray | Preset::Froglet | Preset::Konane => Shape::Rectangle,
        }
    }

    /// The game's name as people say it: what a page, a record's `Game`
    /// tag and the API's preset list call it (the one place it is written).
    pub fn title(self) -> &'static str {
        match self {
            Preset::Old => "Leap Frog (old)",
            Preset::Murray => "Leap Frog (Murray)",
            Preset::Froglet => "Froglet",
            Preset::Konane => "Konane",
            Preset::Capture => "Capture (Chinese checkers)",
            Preset::English => "Peg solitaire (English)",
            Preset::Triangle => "Peg solitaire (triangle)",
        }
    }

    /// One paragraph on how the preset plays.
    pub fn description(self) -> &'static str {
        match self {
            Preset::Old => {
                "A full board of identical pieces. Each player in turn first removes one piece \
                 (it counts as a capture); then every turn is a jump over a neighbouring piece \
                 into the empty cell behind it, capturing it, and may go on jumping. Any player \
                 moves any piece. When no jump is left, the most captures wins."
            }
            Preset::Murray => {
                "Murray's 1898 Leap Frog: as the old version, but the board is filled at random \
                 with white (1 point), yellow (2), red (3) and green (4) pieces in the ratio \
                 4:3:2:1. The most points wins; equal top scores share the win."
            }
            Preset::Froglet => {
                "BrainKing's Froglet on 12×12: 66 green (1 point), 51 yellow (2), 21 red (3) and \
                 6 blue (4) frogs at random. Only the first player removes a piece, a green one, \
                 and it scores nothing; then everyone jumps and scores the frogs they jump."
            }
            Preset::Konane => {
                "Hawaiian checkers on 8×8: black and white pieces on a checkerboard. Black removes \
                 a black piece from the centre or a corner, white one next to the hole; then each \
                 moves an own piece over an opponent's in a straight line. Who cannot move loses."
            }
            Preset::Capture => {
                "The central hexagon of a Chinese-checkers board, full of marbles but the centre. \
                 In turn, each player jumps any marble over a neighbour in one of the six \
                 directions into the hole behind, capturing it, and may go on jumping. When no \
                 jump is left, the most captures wins."
            }
            Preset::English => {
                "The 33-hole cross, full of pegs but the centre. Jump a peg over a neighbour into \
                 the hole behind and remove it; a peg may go on jumping. Leave one peg and you \
                 have solved it; leave it in the centre and the solution is perfect."
            }
            Preset::Triangle => {
                "Fifteen holes in a triangle, full of pegs but the top one. Jump a peg over a \
                 neighbour, along a side or a row, into the hole behind and remove it. Leave one \
                 peg and you have solved it."
            }
        }
    }

    /// The preset's rule set as plain data, on its default board.
    pub fn spec(self) -> RulesSpec {
        let leap_frog = |name: &str, size: u8, kinds: Vec<Kind>, weights: Vec<u32>| RulesSpec {
            name: name.to_string(),
            rows: size,
            cols: size,
            mask: Vec::new(),
            holes: Vec::new(),
            directions: DirectionSet::Orthogonal,
            kinds,
            fill: Fill::Random { weights },
            capture: Capture::Shared,
            chain: Chain::Free,
            opening: Opening::EachPlayerRemoves { kinds: None },
            removals_score: true,
            end: EndRule::HighestScore,
            min_players: 1,
            max_players: LEAP_FROG_MAX_PLAYERS,
        };
        match self {
            Preset::Old => leap_frog("old", 15, vec![Kind::shared('O', "piece", 1)], vec![1]),
            Preset::Murray => leap_frog(
                "murray",
                15,
                vec![
                    Kind::shared('W', "white", 1),
                    Kind::shared('Y', "yellow", 2),
                    Kind::shared('R', "red", 3),
                    Kind::shared('G', "green", 4),
                ],
                vec![4, 3, 2, 1],
            ),
            Preset::Froglet => RulesSpec {
                opening: Opening::FirstPlayerRemoves { kinds: Some(vec!['G']) },
                removals_score: false,
                ..leap_frog(
                    "froglet",
                    12,
                    vec![
                        Kind::shared('G', "green", 1),
                        Kind::shared('Y', "yellow", 2),
                        Kind::shared('R', "red", 3),
                        Kind::shared('B', "blue", 4),
                    ],
                    vec![66, 51, 21, 6],
                )
            },
            Preset::Konane => RulesSpec {
                name: "konane".to_string(),
                rows: 8,
                cols: 8,
                mask: Vec::new(),
                holes: Vec::new(),
                directions: DirectionSet::Orthogonal,
                kinds: vec![
                    Kind { letter: 'B', name: "black".into(), value: 0, owner: Some(0) },
                    Kind { letter: 'W', name: "white".into(), value: 0, owner: Some(1) },
                ],
                fill: Fill::Checkerboard { top_left: 0, other: 1 },
                capture: Capture::Owned,
                chain: Chain::Straight,
                opening: Opening::Konane,
                removals_score: false,
                end: EndRule::NoMoveLoses,
                min_players: 2,
                max_players: 2,
            },
            Preset::Capture => RulesSpec {
                opening: Opening::None,
                removals_score: false,
                min_players: 2,
                max_players: 6,
                directions: DirectionSet::Hex,
                ..leap_frog("capture", 9, vec![Kind::shared('O', "marble", 1)], vec![1]).shaped(
                    Shape::Hexagon,
                    5,
                    vec![centre(4)],
                )
            },
            Preset::English | Preset::Triangle => {
                let (name, shape, side, hole, directions) = if self == Preset::English {
                    ("english", Shape::Cross, 7, centre(3), DirectionSet::Orthogonal)
                } else {
                    ("triangle", Shape::Triangle, 5, centre(0), DirectionSet::Hex)
                };
                RulesSpec {
                    opening: Opening::None,
                    removals_score: false,
                    end: EndRule::PiecesLeft,
                    min_players: 1,
                    max_players: 1,
                    directions,
                    ..leap_frog(name, side, vec![Kind::shared('O', "peg", 1)], vec![1]).shaped(
                        shape,
                        side,
                        vec![hole],
                    )
                }
            }
        }
    }

    /// The preset's rule set on a board of side `side`: for `capture` the
    /// hexagon's side (2 to 13; the hole at its centre), for `triangle` the
    /// triangle's (3 to 26), for `english` only 7, for the others a square
    /// board of that side.
    ///
    /// # Errors
    ///
    /// [`RulesError::Side`] outside those sides.
    pub fn spec_with_side(self, side: u8) -> Result<RulesSpec, RulesError> {
        let shape = self.shape();
        if !shape.sides().contains(&side) {
            return Err(RulesError::Side { shape: shape.name(), side, sides: shape.sides() });
        }
        let spec = self.spec();
        Ok(match self {
            Preset::Capture => spec.shaped(shape, side, vec![centre(side - 1)]),
            Preset::Triangle | Preset::English => {
                let holes = spec.holes.clone();
                spec.shaped(shape, side, holes)
            }
            Preset::Old | Preset::Murray | Preset::Froglet | Preset::Konane => spec.with_size(side, side),
        })
    }

    /// The preset's rules on its default board.
    pub fn rules(self) -> Rules {
        Rules::new(self.spec()).expect("every preset is a valid rule set (tested)")
    }
}

/// The cell on file and rank `i` (from 0): a diagonal cell, such as the
/// centre of a hexagon or of the cross.
fn centre(i: u8) -> Cell {
    Cell::new(i, i).expect("a board's centre is on the board")
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A preset name that is not one of `old`, `murray`, `froglet`, `konane`,
/// `capture`, `english`, `triangle`.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown preset '{0}'; expected old, murray, froglet, konane, capture, english or triangle")]
pub struct ParsePresetError(pub String);

impl FromStr for Preset {
    type Err = ParsePresetError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|p| p.id() == s)
            .ok_or_else(|| ParsePresetError(s.chars().take(40).collect()))
    }
}

const _: () = assert!(MAX_SIDE >= 18, "Leap Frog's traditional boards must fit");
