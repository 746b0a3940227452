//! The forms the store writes into its text columns — a game's rules,
//! result, seats and computer levels, a move's captures — owned here, not
//! borrowed from the API: changing the API never changes the database.
//!
//! Each form is version 1, as every row written so far has it; a row
//! without a version is version 1. A later form adds a `"v"` field and the
//! reader keeps reading every earlier one (`tests` holds rows as they were
//! written).
//!
//! `game` maps a game and its moves to the store's rows and back.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, RwLock};

use jump_capture as jc;
use serde::{Deserialize, Serialize};

use super::StoreError;
use leapfrog_core::names::{MAX_KIND_NAME, MAX_RULES_NAME, sanitized};

/// A rule set as stored in `games.rules`: complete and explicit, as every
/// version of the service has written it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct StoredRules {
    /// The preset it was made from, if its name is a preset's (not read:
    /// the other fields say it all).
    preset: Option<String>,
    name: String,
    rows: u32,
    cols: u32,
    mask: Vec<String>,
    holes: Vec<String>,
    directions: Directions,
    kinds: Vec<StoredKind>,
    fill: StoredFill,
    capture: Capture,
    chain: Chain,
    opening: StoredOpening,
    removals_score: bool,
    end: End,
    min_players: usize,
    max_players: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Directions {
    Orthogonal,
    Diagonal,
    All,
    Hex,
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
    PiecesLeft,
}

leapfrog_core::same_variants!(Directions, DirectionSet; Orthogonal, Diagonal, All, Hex);
leapfrog_core::same_variants!(Capture, Capture; Shared, Owned);
leapfrog_core::same_variants!(Chain, Chain; Free, Straight);
leapfrog_core::same_variants!(End, EndRule; HighestScore, NoMoveLoses, PiecesLeft);

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
        name: spec.name.clone(),
        rows: spec.rows.into(),
        cols: spec.cols.into(),
        mask: spec.mask.iter().map(ToString::to_string).collect(),
        holes: spec.holes.iter().map(ToString::to_string).collect(),
        directions: spec.directions.into(),
        kinds: spec
            .kinds
            .iter()
            .map(|k| StoredKind {
                letter: k.letter.to_string(),
                name: k.name.clone(),
                value: k.value,
                owner: k.owner,
            })
            .collect(),
        fill: match &spec.fill {
            jc::Fill::Random { weights } => StoredFill::Random { weights: weights.clone() },
            &jc::Fill::Checkerboard { top_left, other } => {
                StoredFill::Checkerboard { top_left: letter_of(top_left), other: letter_of(other) }
            }
        },
        capture: spec.capture.into(),
        chain: spec.chain.into(),
        opening: match &spec.opening {
            jc::Opening::None => StoredOpening { kind: OpeningKind::None, kinds: None },
            jc::Opening::EachPlayerRemoves { kinds } => {
                StoredOpening { kind: OpeningKind::EachPlayerRemoves, kinds: letters(kinds) }
            }
            jc::Opening::FirstPlayerRemoves { kinds } => {
                StoredOpening { kind: OpeningKind::FirstPlayerRemoves, kinds: letters(kinds) }
            }
            jc::Opening::Konane => StoredOpening { kind: OpeningKind::Konane, kinds: None },
        },
        removals_score: spec.removals_score,
        end: spec.end.into(),
        min_players: spec.min_players,
        max_players: spec.max_players,
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
    // Names stored before they were checked: read within today's rules.
    let kinds = s
        .kinds
        .iter()
        .map(|k| {
            let name = stored_name(&k.name, MAX_KIND_NAME);
            Ok(jc::Kind { letter: letter(&k.letter)?, name, value: k.value, owner: k.owner })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let index = |l: &str| -> Result<usize, String> {
        let c = letter(l)?;
        kinds.iter().position(|k| k.letter == c).ok_or_else(|| format!("no kind has the letter '{c}'"))
    };
    let fill = match &s.fill {
        StoredFill::Random { weights } => jc::Fill::Random { weights: weights.clone() },
        StoredFill::Checkerboard { top_left, other } => {
            jc::Fill::Checkerboard { top_left: index(top_left)?, other: index(other)? }
        }
    };
    let removable = s.opening.kinds.as_ref().map(|ks| ks.iter().map(|k| letter(k)).collect()).transpose()?;
    let spec = jc::RulesSpec {
        name: stored_name(&s.name, MAX_RULES_NAME),
        rows: side(s.rows)?,
        cols: side(s.cols)?,
        mask: cells(&s.mask)?,
        holes: cells(&s.holes)?,
        directions: s.directions.into(),
        kinds,
        fill,
        capture: s.capture.into(),
        chain: s.chain.into(),
        opening: match s.opening.kind {
            OpeningKind::None => jc::Opening::None,
            OpeningKind::EachPlayerRemoves => jc::Opening::EachPlayerRemoves { kinds: removable },
            OpeningKind::FirstPlayerRemoves => jc::Opening::FirstPlayerRemoves { kinds: removable },
            OpeningKind::Konane => jc::Opening::Konane,
        },
        removals_score: s.removals_score,
        end: s.end.into(),
        min_players: s.min_players,
        max_players: s.max_players,
    };
    // As stored: a rule set accepted before the ownership decisions of
    // rule book §2 and §5 still loads, and plays as it always did.
    jc::Rules::stored(spec).map_err(|e| e.to_string())
}

/// A name as stored, made to pass today's checks: forbidden characters
/// shown as U+FFFD, cut to `max` characters, never empty.
fn stored_name(name: &str, max: usize) -> String {
    let name: String = sanitized(name.trim()).chars().take(max).collect();
    let name = name.trim();
    if name.is_empty() { "unnamed".to_string() } else { name.to_string() }
}

/// A finished game's result as stored in `games.result`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// A rated game's rating changes, one per player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<Vec<StoredRatingChange>>,
}

/// A player's rating and deviation before and after a rated game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StoredRatingChange {
    /// The player, from 0.
    pub player: usize,
    /// Rating before.
    pub rating_before: f64,
    /// Deviation before.
    pub deviation_before: f64,
    /// Rating after.
    pub rating_after: f64,
    /// Deviation after.
    pub deviation_after: f64,
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
    /// A rated game ended before every seat moved: aborted (§13).
    Aborted,
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    /// Open, and to whom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<OpenTo>,
    /// Whether and how it resigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<Resigned>,
    /// Whether the account that holds it is a bot (before `account`,
    /// which a deleted account's removal expects last).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The id of the account that holds it (set to null when the account
    /// is deleted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
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

mod game;
pub use game::{GameRows, MoveRows};
#[cfg(test)]
mod tests;
