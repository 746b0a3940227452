//! The wire form of rule sets: `Rules` (a preset with overrides, or a
//! custom rule set) in requests, `RuleSet` (complete and explicit) in
//! responses. The rules crate knows nothing of JSON; this module
//! translates.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use jump_capture as jc;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::position::Score;
use super::{Invalid, Refusal};

/// A preset's identifier.
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
}

impl From<PresetId> for jc::Preset {
    fn from(p: PresetId) -> Self {
        match p {
            PresetId::Old => jc::Preset::Old,
            PresetId::Murray => jc::Preset::Murray,
            PresetId::Froglet => jc::Preset::Froglet,
            PresetId::Konane => jc::Preset::Konane,
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
}

/// Who moves and captures which pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CaptureRule {
    /// Anyone moves any piece and captures any piece (Leap Frog).
    Shared,
    /// Own pieces move, other players' pieces are captured (Konane).
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
}

/// A kind of piece.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"letter": "G", "name": "green", "value": 4, "owner": null}))]
pub struct KindSpec {
    /// One upper-case letter, used in board strings.
    #[schema(pattern = "^[A-Z]$")]
    pub letter: String,
    /// A human name.
    pub name: String,
    /// Points for capturing one.
    #[schema(format = "uint32", minimum = 0, maximum = 4294967295_u64)]
    pub value: u32,
    /// The owning player (from 0), or null for shared pieces.
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
    /// removed; null for any.
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
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"preset": "murray", "rows": 16, "cols": 16, "directions": "all"}))]
pub struct Rules {
    /// The preset to start from.
    pub preset: Option<PresetId>,
    /// A name for the rule set.
    pub name: Option<String>,
    /// Ranks, 3 to 26.
    #[schema(minimum = 3, maximum = 26)]
    pub rows: Option<u32>,
    /// Files, 3 to 26.
    #[schema(minimum = 3, maximum = 26)]
    pub cols: Option<u32>,
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
    /// Shared or owned pieces.
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
/// `Rules`.
#[derive(Debug, Clone, Serialize, ToSchema)]
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
    /// Shared or owned pieces.
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

fn letter(s: &str, field: &str) -> Result<char, Invalid> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(Invalid::new(Refusal::InvalidRules, format!("'{s}' is not a single letter"), field)),
    }
}

fn cells(list: &[String], field: &str) -> Result<Vec<jc::Cell>, Invalid> {
    list.iter()
        .enumerate()
        .map(|(i, c)| {
            c.parse().map_err(|e: jc::ParseCellError| {
                Invalid::new(Refusal::InvalidNotation, format!("'{c}': {e}"), &format!("{field}[{i}]"))
            })
        })
        .collect()
}

fn side(n: u32) -> u8 {
    // Out-of-range sides become 0, which `Rules::new` refuses with its own
    // message; the reported size is then fixed up by the caller.
    u8::try_from(n).unwrap_or(0)
}

/// A preset with at most its size and directions changed: the preset,
/// the size (and whether it came from the board), the directions.
type PresetKey = (PresetId, Option<u32>, Option<u32>, bool, Option<Directions>);

/// What a cached rule set was made from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum CacheKey {
    /// A request's preset with overrides (what nearly every request sends).
    Preset(PresetKey),
    /// A stored game's complete rule set, as JSON.
    Stored(String),
}

/// The most rule sets the cache holds; past it, it starts again empty.
const CACHE_SIZE: usize = 1024;

/// The one cache of checked rule sets: requests send few distinct rule
/// sets, and games share few; checking one costs far more than a lookup.
fn cache() -> &'static RwLock<HashMap<CacheKey, Arc<jc::Rules>>> {
    static CACHE: OnceLock<RwLock<HashMap<CacheKey, Arc<jc::Rules>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The cached rule set of `key`, if there is one.
fn lookup(key: &CacheKey) -> Option<Arc<jc::Rules>> {
    cache().read().ok()?.get(key).cloned()
}

/// The cached rule set of `key`, made by `make` if there is none yet.
fn cached_or<E>(key: CacheKey, make: impl FnOnce() -> Result<jc::Rules, E>) -> Result<Arc<jc::Rules>, E> {
    if let Some(rules) = lookup(&key) {
        return Ok(rules);
    }
    let rules = Arc::new(make()?);
    if let Ok(mut c) = cache().write() {
        if c.len() >= CACHE_SIZE {
            c.clear();
        }
        c.insert(key, rules.clone());
    }
    Ok(rules)
}

/// A stored game's rule set, from the JSON of its [`RuleSet`] (see
/// [`RuleSet::to_json`]).
///
/// # Errors
///
/// When the JSON is not a valid rule set (a damaged row).
pub fn stored_rules(json: &str) -> Result<Arc<jc::Rules>, String> {
    cached_or(CacheKey::Stored(json.to_string()), || {
        let spec: Rules = serde_json::from_str(json).map_err(|e| e.to_string())?;
        spec.resolve(None).map_err(|e| e.detail)
    })
}

impl Rules {
    /// Whether the request fixes the board's shape itself.
    pub fn has_shape(&self) -> bool {
        self.rows.is_some() || self.cols.is_some() || self.mask.is_some()
    }

    /// The key of these rules on a board of `shape` (ranks, files, whether
    /// it has missing cells) in the rule-set cache, if they are
    /// kept there: a preset with at most its size and directions changed,
    /// on a board without missing cells unless the request gives the shape.
    fn preset_key(&self, shape: Option<(u8, u8, bool)>) -> Option<PresetKey> {
        // Every field is named, so that a new one cannot slip past the key.
        let Rules {
            preset: Some(preset),
            name: None,
            rows,
            cols,
            mask: None,
            holes: None,
            directions,
            kinds: None,
            fill: None,
            capture: None,
            chain: None,
            opening: None,
            removals_score: None,
            end: None,
            min_players: None,
            max_players: None,
        } = self
        else {
            return None;
        };
        // The shape comes from the board when the request gives none; a
        // board with missing cells makes a mask, and such rule sets are not
        // kept.
        Some(match shape {
            Some((_, _, true)) if !self.has_shape() => return None,
            Some((r, c, false)) if !self.has_shape() => {
                (*preset, Some(u32::from(r)), Some(u32::from(c)), true, *directions)
            }
            _ => (*preset, *rows, *cols, false, *directions),
        })
    }

    /// As [`resolve`](Self::resolve), through the cache: a preset with at most its
    /// size and directions changed (what nearly every request sends) is
    /// checked once and then handed out from a cache.
    ///
    /// # Errors
    ///
    /// What is invalid, and the field at fault.
    pub fn resolve_cached(&self, grid: Option<&jc::Grid>) -> Result<Arc<jc::Rules>, Invalid> {
        match self.preset_key(grid.map(|g| (g.rows(), g.cols(), g.has_missing()))) {
            Some(key) => cached_or(CacheKey::Preset(key), || self.resolve(grid)),
            None => self.resolve(grid).map(Arc::new),
        }
    }

    /// The cached rule set these rules give on a board of `rows × cols`
    /// without missing cells, if one is made already (see
    /// [`resolve_cached`](Self::resolve_cached)).
    pub fn cached(&self, rows: u8, cols: u8) -> Option<Arc<jc::Rules>> {
        lookup(&CacheKey::Preset(self.preset_key(Some((rows, cols, false)))?))
    }

    /// The rule set this asks for, optionally shaped like `grid` (when the
    /// request does not give a shape itself).
    ///
    /// # Errors
    ///
    /// What is invalid, and the field at fault.
    pub fn resolve(&self, grid: Option<&jc::Grid>) -> Result<jc::Rules, Invalid> {
        let mut spec = match self.preset {
            Some(p) => jc::Preset::from(p).spec(),
            None => {
                let missing = [
                    ("rows", self.rows.is_none() && grid.is_none()),
                    ("cols", self.cols.is_none() && grid.is_none()),
                    ("kinds", self.kinds.is_none()),
                ];
                if let Some((field, _)) = missing.iter().find(|(_, m)| *m) {
                    return Err(Invalid::new(
                        Refusal::InvalidRules,
                        format!("a rule set without a preset needs '{field}'"),
                        &format!("rules.{field}"),
                    ));
                }
                jc::RulesSpec {
                    name: "custom".into(),
                    rows: 0,
                    cols: 0,
                    mask: Vec::new(),
                    holes: Vec::new(),
                    directions: jc::DirectionSet::Orthogonal,
                    kinds: Vec::new(),
                    fill: jc::Fill::Random { weights: Vec::new() },
                    capture: jc::Capture::Shared,
                    chain: jc::Chain::Free,
                    opening: jc::Opening::None,
                    removals_score: false,
                    end: jc::EndRule::HighestScore,
                    min_players: 1,
                    max_players: jc::MAX_PLAYERS,
                }
            }
        };
        if let (Some(grid), false) = (grid, self.has_shape()) {
            spec = spec.with_shape_of(grid);
        }
        if let Some(name) = &self.name {
            spec.name = name.chars().take(100).collect();
        }
        if let Some(r) = self.rows {
            spec.rows = side(r);
        }
        if let Some(c) = self.cols {
            spec.cols = side(c);
        }
        if let Some(mask) = &self.mask {
            spec.mask = cells(mask, "rules.mask")?;
        }
        if let Some(holes) = &self.holes {
            spec.holes = cells(holes, "rules.holes")?;
        }
        if let Some(d) = self.directions {
            spec.directions = match d {
                Directions::Orthogonal => jc::DirectionSet::Orthogonal,
                Directions::Diagonal => jc::DirectionSet::Diagonal,
                Directions::All => jc::DirectionSet::All,
            };
        }
        if let Some(kinds) = &self.kinds {
            spec.kinds = kinds
                .iter()
                .enumerate()
                .map(|(i, k)| {
                    Ok(jc::Kind {
                        letter: letter(&k.letter, &format!("rules.kinds[{i}].letter"))?,
                        name: k.name.chars().take(40).collect(),
                        value: k.value,
                        owner: k.owner,
                    })
                })
                .collect::<Result<_, Invalid>>()?;
            if self.fill.is_none() {
                // New kinds without a fill: equal shares.
                spec.fill = jc::Fill::Random { weights: vec![1; spec.kinds.len()] };
            }
        }
        if let Some(fill) = &self.fill {
            spec.fill = match fill.kind {
                FillType::Random => jc::Fill::Random { weights: fill.weights.clone().unwrap_or_default() },
                FillType::Checkerboard => {
                    let index = |l: &Option<String>, f: &str| -> Result<usize, Invalid> {
                        let field = format!("rules.fill.{f}");
                        let l = l.as_deref().ok_or_else(|| {
                            Invalid::new(
                                Refusal::InvalidRules,
                                format!("a checkerboard fill needs '{f}'"),
                                &field,
                            )
                        })?;
                        let c = letter(l, &field)?;
                        spec.kinds.iter().position(|k| k.letter == c).ok_or_else(|| {
                            Invalid::new(
                                Refusal::InvalidRules,
                                format!("no kind has the letter '{c}'"),
                                &field,
                            )
                        })
                    };
                    jc::Fill::Checkerboard {
                        top_left: index(&fill.top_left, "top_left")?,
                        other: index(&fill.other, "other")?,
                    }
                }
            };
        }
        if let Some(c) = self.capture {
            spec.capture = match c {
                CaptureRule::Shared => jc::Capture::Shared,
                CaptureRule::Owned => jc::Capture::Owned,
            };
        }
        if let Some(c) = self.chain {
            spec.chain = match c {
                ChainRule::Free => jc::Chain::Free,
                ChainRule::Straight => jc::Chain::Straight,
            };
        }
        if let Some(o) = &self.opening {
            let kinds = o
                .kinds
                .as_ref()
                .map(|ks| {
                    ks.iter()
                        .enumerate()
                        .map(|(i, k)| letter(k, &format!("rules.opening.kinds[{i}]")))
                        .collect::<Result<Vec<_>, _>>()
                })
                .transpose()?;
            spec.opening = match o.kind {
                OpeningType::None => jc::Opening::None,
                OpeningType::EachPlayerRemoves => jc::Opening::EachPlayerRemoves { kinds },
                OpeningType::FirstPlayerRemoves => jc::Opening::FirstPlayerRemoves { kinds },
                OpeningType::Konane => jc::Opening::Konane,
            };
        }
        if let Some(r) = self.removals_score {
            spec.removals_score = r;
        }
        if let Some(e) = self.end {
            spec.end = match e {
                EndRuleId::HighestScore => jc::EndRule::HighestScore,
                EndRuleId::NoMoveLoses => jc::EndRule::NoMoveLoses,
            };
        }
        if let Some(n) = self.min_players {
            spec.min_players = n;
        }
        if let Some(n) = self.max_players {
            spec.max_players = n;
        }
        let asked = (self.rows.unwrap_or(spec.rows.into()), self.cols.unwrap_or(spec.cols.into()));
        jc::Rules::new(spec).map_err(|e| {
            let detail = match e {
                // Sides past 255 were clamped to 0 above: report what was asked.
                jc::RulesError::Size { .. } => format!(
                    "the board is {}×{}; each side must be from 3 to {}",
                    asked.0,
                    asked.1,
                    jc::MAX_SIDE
                ),
                other => other.to_string(),
            };
            Invalid { kind: Refusal::InvalidRules, detail, field: "rules".into() }
        })
    }
}

impl RuleSet {
    /// The JSON a game's rule set is stored as (read back by
    /// [`stored_rules`]).
    pub fn to_json(rules: &jc::Rules) -> String {
        // A plain serde value of strings and numbers: this cannot fail.
        serde_json::to_string(&RuleSet::from_rules(rules)).unwrap_or_default()
    }

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
            directions: match spec.directions {
                jc::DirectionSet::Orthogonal => Directions::Orthogonal,
                jc::DirectionSet::Diagonal => Directions::Diagonal,
                jc::DirectionSet::All => Directions::All,
            },
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
            capture: match spec.capture {
                jc::Capture::Shared => CaptureRule::Shared,
                jc::Capture::Owned => CaptureRule::Owned,
            },
            chain: match spec.chain {
                jc::Chain::Free => ChainRule::Free,
                jc::Chain::Straight => ChainRule::Straight,
            },
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
            end: match spec.end {
                jc::EndRule::HighestScore => EndRuleId::HighestScore,
                jc::EndRule::NoMoveLoses => EndRuleId::NoMoveLoses,
            },
            min_players: spec.min_players,
            max_players: spec.max_players,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache hands out what `resolve` would build, whatever mix of
    /// presets, sizes, directions and board shapes comes in, in any order.
    #[test]
    fn cached_rules_are_the_resolved_rules() {
        let full: jc::Grid = "3/3/3".parse().unwrap();
        let holed: jc::Grid = "3/1-1/3".parse().unwrap();
        let wide: jc::Grid = "5/5/5".parse().unwrap();
        let requests = [
            Rules { preset: Some(PresetId::Murray), ..Rules::default() },
            Rules { preset: Some(PresetId::Murray), directions: Some(Directions::All), ..Rules::default() },
            Rules { preset: Some(PresetId::Old), rows: Some(4), cols: Some(7), ..Rules::default() },
            Rules { preset: Some(PresetId::Old), rows: Some(5), ..Rules::default() },
            Rules { preset: Some(PresetId::Konane), ..Rules::default() },
            Rules { preset: Some(PresetId::Froglet), name: Some("mine".into()), ..Rules::default() },
            Rules { preset: Some(PresetId::Old), chain: Some(ChainRule::Straight), ..Rules::default() },
        ];
        for _ in 0..2 {
            for req in &requests {
                for grid in [None, Some(&full), Some(&holed), Some(&wide)] {
                    let cached = req.resolve_cached(grid).map(|r| (*r).clone());
                    let built = req.resolve(grid);
                    assert_eq!(cached.is_ok(), built.is_ok(), "{req:?} on {grid:?}");
                    if let (Ok(cached), Ok(built)) = (cached, built) {
                        assert_eq!(cached, built, "{req:?} on {grid:?}");
                    }
                }
            }
        }
    }
}
