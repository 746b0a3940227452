//! The named rule sets of the rule book (`docs/rules.md`): Leap Frog `old` and `murray`, BrainKing's
//! `froglet`, and `konane`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::cell::{DirectionSet, MAX_SIDE};
use crate::rules::{Capture, Chain, EndRule, Fill, Kind, Opening, Rules, RulesSpec};

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
}

impl Preset {
    /// Every preset, in the order listed to users.
    pub const ALL: [Preset; 4] = [Preset::Old, Preset::Murray, Preset::Froglet, Preset::Konane];

    /// The identifier used on the command line and the wire.
    pub fn id(self) -> &'static str {
        match self {
            Preset::Old => "old",
            Preset::Murray => "murray",
            Preset::Froglet => "froglet",
            Preset::Konane => "konane",
        }
    }

    /// A human title.
    pub fn title(self) -> &'static str {
        match self {
            Preset::Old => "Leap Frog (old version)",
            Preset::Murray => "Leap Frog (Murray, 1898)",
            Preset::Froglet => "Froglet (BrainKing)",
            Preset::Konane => "Konane",
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
        }
    }

    /// The preset's rules on its default board.
    pub fn rules(self) -> Rules {
        Rules::new(self.spec()).expect("every preset is a valid rule set (tested)")
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A preset name that is not one of `old`, `murray`, `froglet`, `konane`.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("unknown preset '{0}'; expected old, murray, froglet or konane")]
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
