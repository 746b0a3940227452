//! Reading a record back (rule book §14): its tags, rules, plies, every
//! position and its result, or the first thing wrong with it and where.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Record, RecordError};
use crate::{Invalid, Outcome, Refusal, RuleSet};

/// A record to read.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"record": "[Rules \"{\\\"preset\\\":\\\"old\\\",\\\"rows\\\":3,\\\"cols\\\":3}\"]\n[Start \"OOO/OOO/OOO 0 0,0\"]\n\n1. a1 2. b1 3. a3xa1\n"}))]
pub struct RecordInput {
    /// The record's text (rule book §14), as `GET /v1/games/{id}/record`
    /// gives it.
    pub record: String,
}

/// A tag of a record.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecordTag {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// A record read back: its tags, rules, plies, every position, and the
/// result when the record gives one.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReadRecord {
    /// The tags, in the record's order (unknown ones too).
    pub tags: Vec<RecordTag>,
    /// The rule set of `Rules`, complete.
    pub rules: RuleSet,
    /// The plies in notation, in the order played.
    pub plies: Vec<String>,
    /// The position before the first ply, then after each (position
    /// strings, §8): one more than the plies.
    pub positions: Vec<String>,
    /// The result the record states, checked by the replay; null for an
    /// unfinished game.
    pub result: Option<Outcome>,
}

/// Reads and replays the record `input` holds.
///
/// # Errors
///
/// What does not read or replay, its field a line, a tag or a ply.
pub fn read(input: &RecordInput) -> Result<ReadRecord, Invalid> {
    let refuse = |e: RecordError| {
        let field = match &e {
            RecordError::Syntax { line, .. } => format!("line {line}"),
            RecordError::Missing(tag) => format!("tags.{tag}"),
            RecordError::Rules(_) => "tags.Rules".into(),
            RecordError::Start(_) => "tags.Start".into(),
            RecordError::Ply { ply, .. } => format!("plies[{}]", ply - 1),
            RecordError::Resigned(..) => "tags.Resigned".into(),
            RecordError::Result { .. } => "tags.Result".into(),
        };
        Invalid::new(Refusal::InvalidRecord, e, &field)
    };
    let record = Record::parse(&input.record).map_err(refuse)?;
    let replayed = record.replay().map_err(refuse)?;
    Ok(ReadRecord {
        tags: record
            .tags
            .iter()
            .map(|(name, value)| RecordTag { name: name.clone(), value: value.clone() })
            .collect(),
        rules: RuleSet::from_rules(&replayed.rules),
        positions: replayed.positions.iter().map(ToString::to_string).collect(),
        plies: record.plies,
        result: replayed.result.as_ref().map(Outcome::of_game),
    })
}
