//! The wire form of rule sets: `Rules` (a preset with overrides, or a
//! custom rule set) in requests, `RuleSet` (complete and explicit) in
//! responses. The rules crate knows nothing of JSON; this module
//! translates (and `resolve` checks a request's rule set).

use jump_capture as jc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::position::Score;

/// A preset's identifier: the rules crate's `Preset::id` (a test holds
/// them together), listed here for the spec's enum. A preset's name as
/// people say it is the rules crate's `Preset::title` alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PresetId {
    /// Leap Frog, old version: plain pieces, 15×15.
    Old,
    /// Murray's Leap Frog: white 1, yellow 2, red 3, green 4; 15×15.
    Murray,
    /// BrainKing's Froglet, 12×12.
    Froglet,
    /// Konane, 8×8.
    Konane,
    /// Chinese-checkers Capture: a hexagon of side 5 (61 cells), `hex`
    /// directions, 2 to 6 players.
    Capture,
    /// English peg solitaire: the 33-hole cross, one player.
    English,
    /// Triangular peg solitaire: side 5 (15 holes), `hex` directions, one
    /// player.
    Triangle,
}

impl From<PresetId> for jc::Preset {
    fn from(p: PresetId) -> Self {
        match p {
            PresetId::Old => jc::Preset::Old,
            PresetId::Murray => jc::Preset::Murray,
            PresetId::Froglet => jc::Preset::Froglet,
            PresetId::Konane => jc::Preset::Konane,
            PresetId::Capture => jc::Preset::Capture,
            PresetId::English => jc::Preset::English,
            PresetId::Triangle => jc::Preset::Triangle,
        }
    }
}

impl From<jc::Preset> for PresetId {
    fn from(p: jc::Preset) -> Self {
        match p {
            jc::Preset::Old => PresetId::Old,
            jc::Preset::Murray => PresetId::Murray,
            jc::Preset::Froglet => PresetId::Froglet,
            jc::Preset::Konane => PresetId::Konane,
            jc::Preset::Capture => PresetId::Capture,
            jc::Preset::English => PresetId::English,
            jc::Preset::Triangle => PresetId::Triangle,
        }
    }
}

/// Jump directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Directions {
    /// N, E, S, W.
    Orthogonal,
    /// NE, SE, SW, NW.
    Diagonal,
    /// All eight (Leap Frog's diagonal variant).
    All,
    /// N, NE, E, S, SW, W: a hexagonal grid in axial coordinates.
    Hex,
}

/// Who moves and captures which pieces (rule book §2). Pieces are all
/// shared or all owned: a rule set that names an owner under `shared`, or
/// leaves a kind without one under `owned`, is refused naming the kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CaptureRule {
    /// Nobody owns a piece (every kind's `owner` null): anyone moves any
    /// piece and captures any piece (Leap Frog).
    Shared,
    /// Every kind has an owner: a player moves their own pieces and
    /// captures other players' (Konane).
    Owned,
}

/// How the steps of a move chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChainRule {
    /// Any direction at each step.
    Free,
    /// The first step's direction throughout.
    Straight,
}

/// How a finished game is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndRuleId {
    /// Rank by score; equal top scores share the win.
    HighestScore,
    /// The player to move who cannot move loses.
    NoMoveLoses,
    /// Peg solitaire: the result is the pieces left (one: solved; one on
    /// the centre: perfect).
    PiecesLeft,
}

/// A kind of piece: its letter, name, value and owner (rule book §2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"letter": "G", "name": "green", "value": 4, "owner": null}))]
pub struct KindSpec {
    /// One upper-case letter, used in board strings.
    #[schema(pattern = "^[A-Z]$")]
    pub letter: String,
    /// A human name: 1 to 32 characters, none of them control or format
    /// characters.
    #[schema(min_length = 1, max_length = 32)]
    pub name: String,
    /// Points for capturing one.
    #[schema(format = "uint32", minimum = 0, maximum = 4294967295_u64)]
    pub value: u32,
    /// The owning player (from 0; a game has at most 64): null for every
    /// kind when the pieces are shared (`capture: shared`), a player for
    /// every kind when they are owned (`capture: owned`); a mix is refused.
    #[schema(minimum = 0, maximum = 63)]
    pub owner: Option<usize>,
}

/// The kind of starting fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum FillType {
    /// Kinds apportioned by `weights` and shuffled from the seed.
    Random,
    /// A checkerboard of `top_left` and `other`.
    Checkerboard,
}

/// How the starting board is filled. `random` uses `weights` (one per
/// kind); `checkerboard` uses `top_left` and `other` (kind letters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"type": "random", "weights": [4, 3, 2, 1]}))]
pub struct FillSpec {
    /// `random` or `checkerboard`.
    #[serde(rename = "type")]
    pub kind: FillType,
    /// For `random`: relative weights, one per kind, in kind order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Score>>, nullable = false)]
    pub weights: Option<Vec<u32>>,
    /// For `checkerboard`: the kind letter on the top-left cell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_left: Option<String>,
    /// For `checkerboard`: the kind letter on the other colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other: Option<String>,
}

/// The kind of opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpeningType {
    /// Play starts with jumps.
    None,
    /// Every player in turn removes one piece (Leap Frog).
    EachPlayerRemoves,
    /// The first player removes one piece (Froglet).
    FirstPlayerRemoves,
    /// Konane: centre or corner, then next to the hole.
    Konane,
}

/// The removals that open a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"type": "first_player_removes", "kinds": ["G"]}))]
pub struct OpeningSpec {
    /// The kind of opening.
    #[serde(rename = "type")]
    pub kind: OpeningType,
    /// For the removal openings: the letters of the kinds that may be
    /// removed; null for every kind. Under owned pieces a player removes
    /// only their own, so these narrow to the remover's kinds; a
    /// first-player removal whose kinds include none of the first player's
    /// is refused.
    #[serde(default)]
    pub kinds: Option<Vec<String>>,
}

/// A rule set in a request: a `preset` with any fields overridden, or,
/// without `preset`, a custom rule set (then `rows`, `cols` and `kinds`
/// are required and the rest default to Leap Frog's: orthogonal, shared,
/// free chains, no opening, highest score wins, 1 to 64 players).
///
/// Where a request also carries a position and this object gives neither
/// `rows`, `cols` nor `mask`, the board's shape comes from the position.
///
/// Pieces are all shared or all owned (rule book §2 and §5): with
/// `"capture": "owned"` every kind names its `owner` and a player removes
/// and moves only their own, e.g. `{"rows": 6, "cols": 6, "kinds":
/// [{"letter": "R", "name": "red", "value": 1, "owner": 0}, {"letter":
/// "G", "name": "green", "value": 1, "owner": 1}], "fill": {"type":
/// "checkerboard", "top_left": "R", "other": "G"}, "capture": "owned",
/// "opening": {"type": "each_player_removes", "kinds": null},
/// "min_players": 2, "max_players": 2}`.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"preset": "murray", "rows": 16, "cols": 16, "directions": "all"}))]
pub struct Rules {
    /// The preset to start from.
    pub preset: Option<PresetId>,
    /// A name for the rule set: 1 to 64 characters, none of them control
    /// or format characters.
    #[schema(min_length = 1, max_length = 64)]
    pub name: Option<String>,
    /// Ranks, 3 to 26.
    #[schema(minimum = 3, maximum = 26)]
    pub rows: Option<u32>,
    /// Files, 3 to 26.
    #[schema(minimum = 3, maximum = 26)]
    pub cols: Option<u32>,
    /// With a preset, instead of `rows` and `cols`: the board's side —
    /// `capture` a hexagon's (2 to 13, its centre the hole), `triangle` a
    /// triangle's (3 to 26), `english` 7, the others a square's.
    #[schema(minimum = 2, maximum = 26)]
    pub side: Option<u32>,
    /// Cells that do not exist (`["a1", "a2"]`).
    pub mask: Option<Vec<String>>,
    /// Cells that start empty.
    pub holes: Option<Vec<String>>,
    /// Jump directions.
    pub directions: Option<Directions>,
    /// The kinds of piece.
    pub kinds: Option<Vec<KindSpec>>,
    /// The starting fill.
    pub fill: Option<FillSpec>,
    /// Shared or owned pieces (all of them one or the other).
    pub capture: Option<CaptureRule>,
    /// Free or straight chains.
    pub chain: Option<ChainRule>,
    /// The opening removals.
    pub opening: Option<OpeningSpec>,
    /// Whether a removal scores the removed piece's value.
    pub removals_score: Option<bool>,
    /// How the result is decided.
    pub end: Option<EndRuleId>,
    /// Fewest players (at least 1).
    #[schema(minimum = 1, maximum = 64)]
    pub min_players: Option<usize>,
    /// Most players (at most 64).
    #[schema(minimum = 1, maximum = 64)]
    pub max_players: Option<usize>,
}

/// A complete rule set, every field explicit. It can be sent back as
/// `Rules`. Its pieces are all shared (every `owner` null) or all owned
/// (every kind's `owner` a player), as `capture` says.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RuleSet {
    /// The preset it came from, if any.
    pub preset: Option<PresetId>,
    /// Its name.
    pub name: String,
    /// Ranks, 3 to 26.
    #[schema(minimum = 3, maximum = 26)]
    pub rows: u32,
    /// Files, 3 to 26.
    #[schema(minimum = 3, maximum = 26)]
    pub cols: u32,
    /// Cells that do not exist.
    pub mask: Vec<String>,
    /// Cells that start empty.
    pub holes: Vec<String>,
    /// Jump directions.
    pub directions: Directions,
    /// The kinds of piece.
    pub kinds: Vec<KindSpec>,
    /// The starting fill.
    pub fill: FillSpec,
    /// Shared or owned pieces (all of them one or the other).
    pub capture: CaptureRule,
    /// Free or straight chains.
    pub chain: ChainRule,
    /// The opening removals.
    pub opening: OpeningSpec,
    /// Whether removals score.
    pub removals_score: bool,
    /// How the result is decided.
    pub end: EndRuleId,
    /// Fewest players.
    #[schema(minimum = 1, maximum = 64)]
    pub min_players: usize,
    /// Most players.
    #[schema(minimum = 1, maximum = 64)]
    pub max_players: usize,
}

impl RuleSet {
    /// The explicit form of checked rules.
    pub fn from_rules(rules: &jc::Rules) -> RuleSet {
        let spec = rules.spec();
        let letter_of = |i: usize| spec.kinds.get(i).map(|k| k.letter.to_string());
        let preset = jc::Preset::ALL.into_iter().find(|p| p.id() == spec.name).map(PresetId::from);
        RuleSet {
            preset,
            name: spec.name.clone(),
            rows: spec.rows.into(),
            cols: spec.cols.into(),
            mask: spec.mask.iter().map(ToString::to_string).collect(),
            holes: spec.holes.iter().map(ToString::to_string).collect(),
            directions: spec.directions.into(),
            kinds: spec
                .kinds
                .iter()
                .map(|k| KindSpec {
                    letter: k.letter.to_string(),
                    name: k.name.clone(),
                    value: k.value,
                    owner: k.owner,
                })
                .collect(),
            fill: match &spec.fill {
                jc::Fill::Random { weights } => FillSpec {
                    kind: FillType::Random,
                    weights: Some(weights.clone()),
                    top_left: None,
                    other: None,
                },
                &jc::Fill::Checkerboard { top_left, other } => FillSpec {
                    kind: FillType::Checkerboard,
                    weights: None,
                    top_left: letter_of(top_left),
                    other: letter_of(other),
                },
            },
            capture: spec.capture.into(),
            chain: spec.chain.into(),
            opening: {
                let kinds =
                    |k: &Option<Vec<char>>| k.as_ref().map(|ks| ks.iter().map(|c| c.to_string()).collect());
                match &spec.opening {
                    jc::Opening::None => OpeningSpec { kind: OpeningType::None, kinds: None },
                    jc::Opening::EachPlayerRemoves { kinds: k } => {
                        OpeningSpec { kind: OpeningType::EachPlayerRemoves, kinds: kinds(k) }
                    }
                    jc::Opening::FirstPlayerRemoves { kinds: k } => {
                        OpeningSpec { kind: OpeningType::FirstPlayerRemoves, kinds: kinds(k) }
                    }
                    jc::Opening::Konane => OpeningSpec { kind: OpeningType::Konane, kinds: None },
                }
            },
            removals_score: spec.removals_score,
            end: spec.end.into(),
            min_players: spec.min_players,
            max_players: spec.max_players,
        }
    }
}

leapfrog_core::same_variants!(Directions, DirectionSet; Orthogonal, Diagonal, All, Hex);
leapfrog_core::same_variants!(CaptureRule, Capture; Shared, Owned);
leapfrog_core::same_variants!(ChainRule, Chain; Free, Straight);
leapfrog_core::same_variants!(EndRuleId, EndRule; HighestScore, NoMoveLoses, PiecesLeft);

#[cfg(test)]
mod preset_tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn every_preset_goes_by_the_rules_crates_id_on_the_wire() {
        for preset in jc::Preset::ALL {
            let id = PresetId::from(preset);
            assert_eq!(serde_json::to_value(id).unwrap(), preset.id(), "{preset:?}");
            assert_eq!(jc::Preset::from(id), preset);
        }
    }
}
