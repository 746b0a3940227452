//! The forms the store writes into its text columns — a game's rules,
//! result, seats and computer levels, a move's captures — owned here, not
//! borrowed from the API: changing the API never changes the database.
//!
//! Each form is version 1, as every row written so far has it; a row
//! without a version is version 1. A later form adds a `"v"` field and the
//! reader keeps reading every earlier one (`tests` holds rows as they were
//! written).

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use jump_capture as jc;
use serde::{Deserialize, Serialize};

use super::StoreError;
use crate::names::{MAX_KIND_NAME, MAX_RULES_NAME, sanitized};

/// A rule set as stored in `games.rules`: written complete and explicit;
/// read also as the earliest rows have it, a preset with some fields
/// changed (a field left out is the preset's).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
struct StoredRules {
    /// The preset it was made from (null for a custom set).
    preset: Option<String>,
    name: Option<String>,
    rows: Option<u32>,
    cols: Option<u32>,
    mask: Option<Vec<String>>,
    holes: Option<Vec<String>>,
    directions: Option<Directions>,
    kinds: Option<Vec<StoredKind>>,
    fill: Option<StoredFill>,
    capture: Option<Capture>,
    chain: Option<Chain>,
    opening: Option<StoredOpening>,
    removals_score: Option<bool>,
    end: Option<End>,
    min_players: Option<usize>,
    max_players: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Directions {
    Orthogonal,
    Diagonal,
    All,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredKind {
    letter: String,
    name: String,
    value: u32,
    #[serde(default)]
    owner: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum StoredFill {
    Random {
        #[serde(default)]
        weights: Vec<u32>,
    },
    Checkerboard {
        top_left: String,
        other: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Capture {
    Shared,
    Owned,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Chain {
    Free,
    Straight,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredOpening {
    #[serde(rename = "type")]
    kind: OpeningKind,
    #[serde(default)]
    kinds: Option<Vec<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum OpeningKind {
    None,
    EachPlayerRemoves,
    FirstPlayerRemoves,
    Konane,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum End {
    HighestScore,
    NoMoveLoses,
}

/// The stored form of `rules`.
///
/// # Errors
///
/// [`StoreError::Encode`] if it does not encode (it always does).
pub fn rules_json(rules: &jc::Rules) -> Result<String, StoreError> {
    let spec = rules.spec();
    let letter_of = |i: usize| spec.kinds.get(i).map(|k| k.letter.to_string()).unwrap_or_default();
    let letters = |k: &Option<Vec<char>>| k.as_ref().map(|ks| ks.iter().map(char::to_string).collect());
    let stored = StoredRules {
        preset: jc::Preset::ALL.into_iter().find(|p| p.id() == spec.name).map(|p| p.id().to_string()),
        name: Some(spec.name.clone()),
        rows: Some(spec.rows.into()),
        cols: Some(spec.cols.into()),
        mask: Some(spec.mask.iter().map(ToString::to_string).collect()),
        holes: Some(spec.holes.iter().map(ToString::to_string).collect()),
        directions: Some(match spec.directions {
            jc::DirectionSet::Orthogonal => Directions::Orthogonal,
            jc::DirectionSet::Diagonal => Directions::Diagonal,
            jc::DirectionSet::All => Directions::All,
        }),
        kinds: Some(
            spec.kinds
                .iter()
                .map(|k| StoredKind {
                    letter: k.letter.to_string(),
                    name: k.name.clone(),
                    value: k.value,
                    owner: k.owner,
                })
                .collect(),
        ),
        fill: Some(match &spec.fill {
            jc::Fill::Random { weights } => StoredFill::Random { weights: weights.clone() },
            &jc::Fill::Checkerboard { top_left, other } => {
                StoredFill::Checkerboard { top_left: letter_of(top_left), other: letter_of(other) }
            }
        }),
        capture: Some(match spec.capture {
            jc::Capture::Shared => Capture::Shared,
            jc::Capture::Owned => Capture::Owned,
        }),
        chain: Some(match spec.chain {
            jc::Chain::Free => Chain::Free,
            jc::Chain::Straight => Chain::Straight,
        }),
        opening: Some(match &spec.opening {
            jc::Opening::None => StoredOpening { kind: OpeningKind::None, kinds: None },
            jc::Opening::EachPlayerRemoves { kinds } => {
                StoredOpening { kind: OpeningKind::EachPlayerRemoves, kinds: letters(kinds) }
            }
            jc::Opening::FirstPlayerRemoves { kinds } => {
                StoredOpening { kind: OpeningKind::FirstPlayerRemoves, kinds: letters(kinds) }
            }
            jc::Opening::Konane => StoredOpening { kind: OpeningKind::Konane, kinds: None },
        }),
        removals_score: Some(spec.removals_score),
        end: Some(match spec.end {
            jc::EndRule::HighestScore => End::HighestScore,
            jc::EndRule::NoMoveLoses => End::NoMoveLoses,
        }),
        min_players: Some(spec.min_players),
        max_players: Some(spec.max_players),
    };
    Ok(serde_json::to_string(&stored)?)
}

/// The most rule sets the cache of read rules holds; past it, it starts
/// again empty.
const CACHE_SIZE: usize = 1024;

/// The rule set stored as `json`, checked by the rules crate. Games share
/// few rule sets and every read of a game needs its own: read once, kept.
///
/// # Errors
///
/// What is wrong with it (a damaged row).
pub fn read_rules(json: &str) -> Result<Arc<jc::Rules>, String> {
    static CACHE: OnceLock<RwLock<HashMap<String, Arc<jc::Rules>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(rules) = cache.read().ok().and_then(|c| c.get(json).cloned()) {
        return Ok(rules);
    }
    let rules = Arc::new(rules_of(serde_json::from_str(json).map_err(|e| e.to_string())?)?);
    if let Ok(mut c) = cache.write() {
        if c.len() >= CACHE_SIZE {
            c.clear();
        }
        c.insert(json.to_string(), rules.clone());
    }
    Ok(rules)
}

fn rules_of(s: StoredRules) -> Result<jc::Rules, String> {
    let letter = |l: &str| {
        let mut chars = l.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Ok(c),
            _ => Err(format!("'{l}' is not a kind's letter")),
        }
    };
    let cells = |cells: &[String]| {
        cells
            .iter()
            .map(|c| c.parse::<jc::Cell>().map_err(|e| format!("'{c}': {e}")))
            .collect::<Result<Vec<_>, _>>()
    };
    let side = |n: u32| u8::try_from(n).map_err(|_| format!("a side of {n}"));
    let mut spec = match s.preset.as_deref() {
        Some(id) => jc::Preset::ALL
            .into_iter()
            .find(|p| p.id() == id)
            .ok_or_else(|| format!("no preset '{id}'"))?
            .spec(),
        None => jc::RulesSpec {
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
        },
    };
    // Names stored before they were checked: read within today's rules.
    if let Some(name) = &s.name {
        spec.name = stored_name(name, MAX_RULES_NAME);
    }
    if let Some(rows) = s.rows {
        spec.rows = side(rows)?;
    }
    if let Some(cols) = s.cols {
        spec.cols = side(cols)?;
    }
    if let Some(mask) = &s.mask {
        spec.mask = cells(mask)?;
    }
    if let Some(holes) = &s.holes {
        spec.holes = cells(holes)?;
    }
    if let Some(d) = s.directions {
        spec.directions = match d {
            Directions::Orthogonal => jc::DirectionSet::Orthogonal,
            Directions::Diagonal => jc::DirectionSet::Diagonal,
            Directions::All => jc::DirectionSet::All,
        };
    }
    if let Some(kinds) = &s.kinds {
        spec.kinds = kinds
            .iter()
            .map(|k| {
                let name = stored_name(&k.name, MAX_KIND_NAME);
                Ok(jc::Kind { letter: letter(&k.letter)?, name, value: k.value, owner: k.owner })
            })
            .collect::<Result<_, String>>()?;
        // Kinds without a fill: equal shares.
        spec.fill = jc::Fill::Random { weights: vec![1; spec.kinds.len()] };
    }
    if let Some(fill) = &s.fill {
        let index = |l: &str| -> Result<usize, String> {
            let c = letter(l)?;
            spec.kinds
                .iter()
                .position(|k| k.letter == c)
                .ok_or_else(|| format!("no kind has the letter '{c}'"))
        };
        spec.fill = match fill {
            StoredFill::Random { weights } => jc::Fill::Random { weights: weights.clone() },
            StoredFill::Checkerboard { top_left, other } => {
                jc::Fill::Checkerboard { top_left: index(top_left)?, other: index(other)? }
            }
        };
    }
    if let Some(c) = s.capture {
        spec.capture = match c {
            Capture::Shared => jc::Capture::Shared,
            Capture::Owned => jc::Capture::Owned,
        };
    }
    if let Some(c) = s.chain {
        spec.chain = match c {
            Chain::Free => jc::Chain::Free,
            Chain::Straight => jc::Chain::Straight,
        };
    }
    if let Some(o) = &s.opening {
        let kinds = o
            .kinds
            .as_ref()
            .map(|ks| ks.iter().map(|k| letter(k)).collect::<Result<Vec<_>, _>>())
            .transpose()?;
        spec.opening = match o.kind {
            OpeningKind::None => jc::Opening::None,
            OpeningKind::EachPlayerRemoves => jc::Opening::EachPlayerRemoves { kinds },
            OpeningKind::FirstPlayerRemoves => jc::Opening::FirstPlayerRemoves { kinds },
            OpeningKind::Konane => jc::Opening::Konane,
        };
    }
    if let Some(r) = s.removals_score {
        spec.removals_score = r;
    }
    if let Some(e) = s.end {
        spec.end = match e {
            End::HighestScore => jc::EndRule::HighestScore,
            End::NoMoveLoses => jc::EndRule::NoMoveLoses,
        };
    }
    if let Some(n) = s.min_players {
        spec.min_players = n;
    }
    if let Some(n) = s.max_players {
        spec.max_players = n;
    }
    jc::Rules::new(spec).map_err(|e| e.to_string())
}

/// A name as stored, made to pass today's checks: forbidden characters
/// shown as U+FFFD, cut to `max` characters, never empty.
fn stored_name(name: &str, max: usize) -> String {
    let name: String = sanitized(name.trim()).chars().take(max).collect();
    let name = name.trim();
    if name.is_empty() { "unnamed".to_string() } else { name.to_string() }
}

/// A finished game's result as stored in `games.result`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredResult {
    /// The winners, in player order.
    pub winners: Vec<usize>,
    /// Whether two or more share the win.
    pub shared: bool,
    /// Every player, best first.
    pub standings: Vec<StoredStanding>,
    /// How it ended: by `play` or by `resignation`.
    #[serde(default)]
    pub ended: Ended,
}

/// One player's place in a stored result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredStanding {
    /// The player, from 0.
    pub player: usize,
    /// Their score.
    pub score: u32,
    /// Their rank, from 1.
    pub rank: usize,
    /// Whether they resigned or ran out of time.
    #[serde(default)]
    pub resigned: bool,
}

/// How a stored game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ended {
    /// Its position was over.
    #[default]
    Play,
    /// Resignations ended it.
    Resignation,
}

impl StoredResult {
    /// Its stored form.
    ///
    /// # Errors
    ///
    /// [`StoreError::Encode`] if it does not encode (it always does).
    pub fn to_json(&self) -> Result<String, StoreError> {
        Ok(serde_json::to_string(self)?)
    }

    /// The result stored as `json`.
    ///
    /// # Errors
    ///
    /// What is wrong with it.
    pub fn read(json: &str) -> Result<StoredResult, serde_json::Error> {
        serde_json::from_str(json)
    }
}

/// A seat's state beyond its holder, as stored in `games.seating` (one per
/// seat, only when some seat is open or resigned).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    /// Open, and to whom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<OpenTo>,
    /// Whether and how it resigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<Resigned>,
}

/// Who may join a stored open seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpenTo {
    /// Anyone.
    Public,
    /// Whoever has its invitation.
    Private,
}

/// How a stored seat stopped playing for itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resigned {
    /// Its holder resigned.
    Resigned,
    /// It ran out of time.
    TimedOut,
}

/// The stored form of a list of strings, of levels, of seats: JSON.
///
/// # Errors
///
/// [`StoreError::Encode`] if it does not encode (plain values always do).
pub fn json_of<T: Serialize + ?Sized>(value: &T) -> Result<String, StoreError> {
    Ok(serde_json::to_string(value)?)
}

/// The stored form of the kinds a move took: their letters in order.
pub fn kinds_text(kinds: impl IntoIterator<Item = char>) -> String {
    kinds.into_iter().collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Rule sets as the code before this module wrote them (through the
    /// API's `RuleSet`): they read as the same rules, and are written again
    /// byte for byte.
    #[test]
    fn rules_stored_before_read_as_the_same_rules_and_write_the_same() {
        let written = [
            (
                jc::Preset::Old.rules(),
                r#"{"preset":"old","name":"old","rows":15,"cols":15,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{"letter":"O","name":"piece","value":1,"owner":null}],"fill":{"type":"random","weights":[1]},"capture":"shared","chain":"free","opening":{"type":"each_player_removes","kinds":null},"removals_score":true,"end":"highest_score","min_players":1,"max_players":64}"#,
            ),
            (
                jc::Preset::Konane.rules(),
                r#"{"preset":"konane","name":"konane","rows":8,"cols":8,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{"letter":"B","name":"black","value":0,"owner":0},{"letter":"W","name":"white","value":0,"owner":1}],"fill":{"type":"checkerboard","top_left":"B","other":"W"},"capture":"owned","chain":"straight","opening":{"type":"konane","kinds":null},"removals_score":false,"end":"no_move_loses","min_players":2,"max_players":2}"#,
            ),
            (
                jc::Preset::Murray.rules(),
                r#"{"preset":"murray","name":"murray","rows":15,"cols":15,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{"letter":"W","name":"white","value":1,"owner":null},{"letter":"Y","name":"yellow","value":2,"owner":null},{"letter":"R","name":"red","value":3,"owner":null},{"letter":"G","name":"green","value":4,"owner":null}],"fill":{"type":"random","weights":[4,3,2,1]},"capture":"shared","chain":"free","opening":{"type":"each_player_removes","kinds":null},"removals_score":true,"end":"highest_score","min_players":1,"max_players":64}"#,
            ),
        ];
        for (rules, json) in written {
            let read = read_rules(json).unwrap();
            assert_eq!(*read, rules, "{json}");
            assert_eq!(rules_json(&rules).unwrap(), json);
        }
        // A custom set with a mask, holes and a name stored before names
        // were checked.
        let custom = r#"{"preset":null,"name":"mine\u0007","rows":3,"cols":4,"mask":["a1"],"holes":["b2"],"directions":"all","kinds":[{"letter":"X","name":"x","value":2,"owner":null}],"fill":{"type":"random","weights":[1]},"capture":"shared","chain":"free","opening":{"type":"first_player_removes","kinds":["X"]},"removals_score":false,"end":"highest_score","min_players":1,"max_players":4}"#;
        let read = read_rules(custom).unwrap();
        assert_eq!(read.spec().name, "mine\u{FFFD}");
        assert_eq!(read.spec().mask.len(), 1);
        assert_eq!(read.spec().directions, jc::DirectionSet::All);
    }

    #[test]
    fn results_stored_before_read_with_and_without_how_they_ended() {
        let old = r#"{"winners":[1],"shared":false,"standings":[{"player":1,"score":4,"rank":1},{"player":0,"score":2,"rank":2}]}"#;
        let r = StoredResult::read(old).unwrap();
        assert_eq!((r.ended, r.standings[1].resigned), (Ended::Play, false));
        let resigned = r#"{"winners":[0],"shared":false,"standings":[{"player":0,"score":0,"rank":1,"resigned":false},{"player":1,"score":3,"rank":2,"resigned":true}],"ended":"resignation"}"#;
        let r = StoredResult::read(resigned).unwrap();
        assert_eq!(r.ended, Ended::Resignation);
        assert_eq!(r.to_json().unwrap(), resigned);
    }

    #[test]
    fn seats_stored_before_read_back() {
        let seating: Vec<StoredSeat> =
            serde_json::from_str(r#"[{},{"open":"private"},{"resigned":"timed_out"}]"#).unwrap();
        assert_eq!(seating[1].open, Some(OpenTo::Private));
        assert_eq!(seating[2].resigned, Some(Resigned::TimedOut));
        assert_eq!(json_of(&seating).unwrap(), r#"[{},{"open":"private"},{"resigned":"timed_out"}]"#);
    }
}
