//! Turning a request's rule set into checked rules: a preset with its
//! overrides, or a custom rule set, with the field at fault named when the
//! rules refuse it; and the one cache of checked rule sets (request presets
//! and stored games).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use jump_capture as jc;

use super::rules::{Directions, FillType, KindSpec, OpeningSpec, OpeningType, PresetId, Rules};
use super::{Invalid, Refusal};

pub use leapfrog_core::names::{MAX_KIND_NAME, MAX_RULES_NAME};

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

/// What a cached rule set was made from: a request's preset with
/// overrides (what nearly every request sends).
type CacheKey = PresetKey;

/// The most rule sets the cache holds; past it, it starts again empty.
const CACHE_SIZE: usize = 1024;

/// The one cache of checked rule sets: requests send few distinct rule
/// sets; checking one costs far more than a lookup.
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

impl Rules {
    /// Whether the request fixes the board's shape itself.
    pub fn has_shape(&self) -> bool {
        self.rows.is_some() || self.cols.is_some() || self.side.is_some() || self.mask.is_some()
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
            side: None,
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
            Some(key) => cached_or(key, || self.resolve(grid)),
            None => self.resolve(grid).map(Arc::new),
        }
    }

    /// The cached rule set these rules give on a board of `rows × cols`
    /// without missing cells, if one is made already (see
    /// [`resolve_cached`](Self::resolve_cached)).
    pub fn cached(&self, rows: u8, cols: u8) -> Option<Arc<jc::Rules>> {
        lookup(&self.preset_key(Some((rows, cols, false)))?)
    }

    /// The preset's rule set, on the board of `side` if the request gives
    /// one; a preset drawn by a mask takes `rows` and `cols` only with the
    /// `mask` that goes with them (as a complete rule set sent back has).
    fn preset_spec(&self, preset: jc::Preset) -> Result<jc::RulesSpec, Invalid> {
        let shaped = preset.shape() != jc::Shape::Rectangle;
        let sized = [("rows", self.rows), ("cols", self.cols)].into_iter().find(|(_, v)| v.is_some());
        match (self.side, sized) {
            (Some(_), Some((field, _))) => Err(Invalid::new(
                Refusal::InvalidRules,
                format!("give the board's 'side' or its '{field}', not both"),
                &format!("rules.{field}"),
            )),
            (None, Some((field, _))) if shaped && self.mask.is_none() => Err(Invalid::new(
                Refusal::InvalidRules,
                format!(
                    "the {preset} board is a {} drawn by its side: give 'side', not '{field}' (or '{field}' with its 'mask')",
                    preset.shape().name()
                ),
                &format!("rules.{field}"),
            )),
            (Some(side), None) => preset
                .spec_with_side(u8::try_from(side).unwrap_or(u8::MAX))
                .map_err(|e| Invalid::new(Refusal::InvalidRules, e.to_string(), "rules.side")),
            (None, _) => Ok(preset.spec()),
        }
    }

    /// The rule set this asks for, optionally shaped like `grid` (when the
    /// request does not give a shape itself).
    ///
    /// # Errors
    ///
    /// What is invalid, and the field at fault.
    pub fn resolve(&self, grid: Option<&jc::Grid>) -> Result<jc::Rules, Invalid> {
        let mut spec = match self.preset {
            Some(p) => self.preset_spec(p.into())?,
            None => self.custom_spec(grid.is_some())?,
        };
        if let (Some(grid), false) = (grid, self.has_shape()) {
            spec = spec.with_shape_of(grid);
        }
        self.set_board(&mut spec)?;
        self.set_kinds(&mut spec)?;
        self.set_play(&mut spec)?;
        let asked = (self.rows.unwrap_or(spec.rows.into()), self.cols.unwrap_or(spec.cols.into()));
        jc::Rules::new(spec).map_err(|e| rules_refused(e, asked))
    }

    /// The blank a rule set without a preset starts from, once it names
    /// what such a rule set must (a board's size, unless `shaped`, and its
    /// kinds).
    fn custom_spec(&self, shaped: bool) -> Result<jc::RulesSpec, Invalid> {
        if self.side.is_some() {
            return Err(Invalid::new(
                Refusal::InvalidRules,
                "a board's side is a preset's: give 'preset' too, or 'rows' and 'cols'",
                "rules.side",
            ));
        }
        let missing = [
            ("rows", self.rows.is_none() && !shaped),
            ("cols", self.cols.is_none() && !shaped),
            ("kinds", self.kinds.is_none()),
        ];
        if let Some((field, _)) = missing.iter().find(|(_, m)| *m) {
            return Err(Invalid::new(
                Refusal::InvalidRules,
                format!("a rule set without a preset needs '{field}'"),
                &format!("rules.{field}"),
            ));
        }
        Ok(jc::RulesSpec {
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
        })
    }

    /// The name, the board's size and cells, and the directions asked for.
    fn set_board(&self, spec: &mut jc::RulesSpec) -> Result<(), Invalid> {
        if let Some(name) = &self.name {
            spec.name = leapfrog_core::names::check(name, "rule set's name", MAX_RULES_NAME)
                .map_err(|e| Invalid::new(Refusal::InvalidRules, e, "rules.name"))?
                .to_string();
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
            spec.directions = d.into();
        }
        Ok(())
    }

    /// The kinds of piece and the fill asked for; new kinds without a fill
    /// share the board equally.
    fn set_kinds(&self, spec: &mut jc::RulesSpec) -> Result<(), Invalid> {
        if let Some(kinds) = &self.kinds {
            spec.kinds = kinds.iter().enumerate().map(|(i, k)| kind(k, i)).collect::<Result<_, Invalid>>()?;
            if self.fill.is_none() {
                spec.fill = jc::Fill::Random { weights: vec![1; spec.kinds.len()] };
            }
        }
        if let Some(fill) = &self.fill {
            spec.fill = match fill.kind {
                FillType::Random => jc::Fill::Random { weights: fill.weights.clone().unwrap_or_default() },
                FillType::Checkerboard => jc::Fill::Checkerboard {
                    top_left: kind_index(&spec.kinds, fill.top_left.as_deref(), "top_left")?,
                    other: kind_index(&spec.kinds, fill.other.as_deref(), "other")?,
                },
            };
        }
        Ok(())
    }

    /// The rules of play asked for: capture, chains, the opening, scoring,
    /// the end and the number of players.
    fn set_play(&self, spec: &mut jc::RulesSpec) -> Result<(), Invalid> {
        if let Some(c) = self.capture {
            spec.capture = c.into();
        }
        if let Some(c) = self.chain {
            spec.chain = c.into();
        }
        if let Some(o) = &self.opening {
            spec.opening = opening(o)?;
        }
        if let Some(r) = self.removals_score {
            spec.removals_score = r;
        }
        if let Some(e) = self.end {
            spec.end = e.into();
        }
        if let Some(n) = self.min_players {
            spec.min_players = n;
        }
        if let Some(n) = self.max_players {
            spec.max_players = n;
        }
        Ok(())
    }
}

/// The `i`th kind of a request, checked.
fn kind(k: &KindSpec, i: usize) -> Result<jc::Kind, Invalid> {
    Ok(jc::Kind {
        letter: letter(&k.letter, &format!("rules.kinds[{i}].letter"))?,
        name: leapfrog_core::names::check(&k.name, "kind's name", MAX_KIND_NAME)
            .map_err(|e| Invalid::new(Refusal::InvalidRules, e, &format!("rules.kinds[{i}].name")))?
            .to_string(),
        value: k.value,
        owner: k.owner,
    })
}

/// The index among `kinds` of the kind a checkerboard fill names in its
/// field `f`.
fn kind_index(kinds: &[jc::Kind], named: Option<&str>, f: &str) -> Result<usize, Invalid> {
    let field = format!("rules.fill.{f}");
    let named = named.ok_or_else(|| {
        Invalid::new(Refusal::InvalidRules, format!("a checkerboard fill needs '{f}'"), &field)
    })?;
    let c = letter(named, &field)?;
    kinds
        .iter()
        .position(|k| k.letter == c)
        .ok_or_else(|| Invalid::new(Refusal::InvalidRules, format!("no kind has the letter '{c}'"), &field))
}

/// The opening a request asks for.
fn opening(o: &OpeningSpec) -> Result<jc::Opening, Invalid> {
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
    Ok(match o.kind {
        OpeningType::None => jc::Opening::None,
        OpeningType::EachPlayerRemoves => jc::Opening::EachPlayerRemoves { kinds },
        OpeningType::FirstPlayerRemoves => jc::Opening::FirstPlayerRemoves { kinds },
        OpeningType::Konane => jc::Opening::Konane,
    })
}

/// The refusal of a rule set the rules crate will not build, naming where
/// in it: what names a kind, or the opening. `asked` is the board's size
/// as requested (sides past 255 were clamped to 0 on the way).
fn rules_refused(e: jc::RulesError, asked: (u32, u32)) -> Invalid {
    let field = match e {
        jc::RulesError::OwnerButShared { .. } | jc::RulesError::NoOwner { .. } => "rules.kinds",
        jc::RulesError::RemovalNotOwn { .. } => "rules.opening",
        _ => "rules",
    };
    let detail = match e {
        jc::RulesError::Size { .. } => {
            format!("the board is {}×{}; each side must be from 3 to {}", asked.0, asked.1, jc::MAX_SIDE)
        }
        other => other.to_string(),
    };
    Invalid { kind: Refusal::InvalidRules, detail, field: field.into() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ChainRule;

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
