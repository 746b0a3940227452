//! Game records (rule book §14): a game as text any person can read and
//! any program can replay — tag pairs, one a line, a blank line, then the
//! plies in move notation.
//!
//! [`Record::of_game`] writes a persisted game's record; [`Record::parse`]
//! reads the text (tags kept in order, unknown ones too; ply numbers and
//! `{…}` comments dropped); [`Record::replay`] plays it from `Start` under
//! `Rules` and checks `Result`. Writing a game's record and reading it
//! back gives the same game, position for position. `read` is the reading back
//! as an operation: its request and answer.

pub mod read;

use std::fmt::Write as _;
use std::sync::Arc;

use jump_capture as jc;

use crate::{RuleSet, Rules};
use leapfrog_core::game::{Game, GameResult, GameStatus, HistoryMove, Resignation, RuleError};

/// A record: its tags in order and its plies in notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Each tag's name and value, in the order written.
    pub tags: Vec<(String, String)>,
    /// The plies, in the order played.
    pub plies: Vec<String>,
}

/// Why a record does not read or replay; each says where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A line of the tag section that is not `[Name "value"]`.
    #[error("line {line}: {detail}")]
    Syntax {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// A required tag is missing.
    #[error("the record has no {0} tag; it is required")]
    Missing(&'static str),
    /// The `Rules` tag is not a rule set.
    #[error("the Rules tag is not a valid rule set: {0}")]
    Rules(String),
    /// The `Start` tag is not a position of those rules.
    #[error("the Start tag is not a position of these rules: {0}")]
    Start(String),
    /// A ply that does not read or that the rules refuse.
    #[error("ply {ply} ({notation}): {detail}")]
    Ply {
        /// The ply, from 1.
        ply: usize,
        /// What it says.
        notation: String,
        /// Why it is refused.
        detail: String,
    },
    /// `Resigned` names a seat the game does not have.
    #[error("the Resigned tag names seat '{0}'; the game has seats 1 to {1}")]
    Resigned(String, usize),
    /// `Result` is not what the replay gives.
    #[error("the Result tag says {stated}, but the replay {found}")]
    Result {
        /// What the record says.
        stated: String,
        /// What the replay gives.
        found: String,
    },
}

/// A record replayed: the rules, every position from the start, and the
/// result if the record says the game ended.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// The rules.
    pub rules: Arc<jc::Rules>,
    /// The position before the first ply, then after each.
    pub positions: Vec<jc::Position>,
    /// The seats that resigned or ran out of time.
    pub resigned: Vec<bool>,
    /// The result, when the record gives one.
    pub result: Option<GameResult>,
}

/// A tag's value with `"` and `\` escaped.
fn escaped(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The name a game goes by in its record: its preset's title, or its rule
/// set's name.
fn game_name(rules: &jc::Rules) -> String {
    match jc::Preset::ALL.into_iter().find(|p| p.id() == rules.name()) {
        Some(preset) => preset.title().to_string(),
        None => rules.name().to_string(),
    }
}

impl Record {
    /// The record of `game`, whose moves from the first are `history`.
    ///
    /// # Errors
    ///
    /// A history that does not replay from the deal (a damaged game).
    pub fn of_game(game: &Game, history: &[HistoryMove]) -> Result<Record, RuleError> {
        let (start, _) = game.replay(&[])?;
        let rules = serde_json::to_string(&RuleSet::from_rules(game.rules()))
            .map_err(|e| RuleError::corrupt(game.id(), "rules", e))?;
        let mut tags = vec![
            ("Game".to_string(), game_name(game.rules())),
            ("Rules".to_string(), rules),
            ("Start".to_string(), start.to_string()),
        ];
        for seat in game.seats() {
            tags.push((format!("Seat{}", seat.player + 1), seat.name.as_str().to_string()));
        }
        let date = chrono::DateTime::from_timestamp_millis(game.created_at()).unwrap_or_default();
        tags.push(("Date".into(), date.format("%Y.%m.%d").to_string()));
        tags.push(("Rated".into(), if game.rated() { "yes" } else { "no" }.into()));
        let resigned: Vec<String> = game
            .seats()
            .iter()
            .filter(|s| s.resigned.is_some())
            .map(|s| (s.player + 1).to_string())
            .collect();
        tags.push(("Resigned".into(), resigned.join(",")));
        let bots: Vec<String> =
            game.seats().iter().filter(|s| s.bot).map(|s| (s.player + 1).to_string()).collect();
        if !bots.is_empty() {
            tags.push(("Bots".into(), bots.join(",")));
        }
        let result = game.result();
        let timed_out = game.seats().iter().any(|s| s.resigned == Some(Resignation::TimedOut));
        let resigning = game.seats().iter().any(|s| s.resigned == Some(Resignation::Resigned));
        let termination = match &result {
            Some(r) if r.aborted => "aborted",
            Some(r) if !r.by_resignation => "score",
            Some(_) if timed_out && !resigning => "time",
            Some(_) => "resignation",
            None if game.abandoned_at().is_some() => "abandoned",
            None => "unfinished",
        };
        tags.push(("Termination".into(), termination.into()));
        if game.status() == GameStatus::Over {
            let scores: Vec<String> = game.position().scores().iter().map(u32::to_string).collect();
            tags.push(("Result".into(), scores.join(",")));
        }
        let plies = history.iter().map(|m| m.mv.to_string()).collect();
        Ok(Record { tags, plies })
    }

    /// The record as text: tags, a blank line, the numbered plies (jumps
    /// that scored with their gain in a comment), lines of at most about
    /// 80 characters.
    pub fn write(&self, gains: &[u32]) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let _ = writeln!(out, "[{name} \"{}\"]", escaped(value));
        }
        out.push('\n');
        let mut line = String::new();
        for (i, ply) in self.plies.iter().enumerate() {
            let mut token = format!("{}. {ply}", i + 1);
            if let Some(&gain) = gains.get(i).filter(|&&g| g > 0 && ply.contains('x')) {
                let _ = write!(token, " {{+{gain}}}");
            }
            if !line.is_empty() && line.len() + 1 + token.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        if !line.is_empty() {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// Reads a record's text.
    ///
    /// # Errors
    ///
    /// [`RecordError::Syntax`] naming the first line of the tag section
    /// that is not a tag.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut tags = Vec::new();
        let mut lines = text.lines().enumerate().peekable();
        while let Some((i, line)) = lines.peek().copied() {
            let line = line.trim();
            if line.is_empty() {
                lines.next();
                if tags.is_empty() {
                    continue;
                }
                break;
            }
            if !line.starts_with('[') {
                break;
            }
            tags.push(tag(line).map_err(|detail| RecordError::Syntax { line: i + 1, detail })?);
            lines.next();
        }
        let rest: Vec<&str> = lines.map(|(_, l)| l).collect();
        Ok(Record { tags, plies: plies(&rest.join("\n")) })
    }

    /// The value of the first tag of this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Plays the record from `Start` under `Rules` and checks its
    /// `Result` against the replay (with `Resigned`).
    ///
    /// # Errors
    ///
    /// A missing or bad `Rules` or `Start`, the first ply that does not
    /// read or that the rules refuse, a `Resigned` seat the game lacks, a
    /// `Result` that is not the replay's.
    pub fn replay(&self) -> Result<Replayed, RecordError> {
        let rules_json = self.tag("Rules").ok_or(RecordError::Missing("Rules"))?;
        let start = self.tag("Start").ok_or(RecordError::Missing("Start"))?;
        let setup: jc::Setup =
            start.parse().map_err(|e: jc::ParsePositionError| RecordError::Start(e.to_string()))?;
        let asked: Rules = serde_json::from_str(rules_json).map_err(|e| RecordError::Rules(e.to_string()))?;
        let rules = asked.resolve_cached(Some(&setup.grid)).map_err(|e| RecordError::Rules(e.detail))?;
        let mut pos =
            jc::Position::from_setup(rules.clone(), &setup).map_err(|e| RecordError::Start(e.to_string()))?;
        let mut positions = vec![pos.clone()];
        for (i, notation) in self.plies.iter().enumerate() {
            let refused =
                |detail: String| RecordError::Ply { ply: i + 1, notation: notation.clone(), detail };
            let mv: jc::Move = notation.parse().map_err(|e: jc::ParseMoveError| refused(e.to_string()))?;
            pos.play(&mv).map_err(|e| refused(e.to_string()))?;
            positions.push(pos.clone());
        }
        let seats = pos.scores().len();
        let mut resigned = vec![false; seats];
        for seat in self.tag("Resigned").unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match seat.parse::<usize>() {
                Ok(n) if (1..=seats).contains(&n) => resigned[n - 1] = true,
                _ => return Err(RecordError::Resigned(seat.to_string(), seats)),
            }
        }
        let result = match self.tag("Result") {
            None => None,
            Some(stated) => Some(check_result(&pos, &resigned, stated)?),
        };
        Ok(Replayed { rules, positions, resigned, result })
    }
}

/// The result a record states, if the replay ends as it says.
fn check_result(pos: &jc::Position, resigned: &[bool], stated: &str) -> Result<GameResult, RecordError> {
    let scores: Vec<String> = pos.scores().iter().map(u32::to_string).collect();
    let found = scores.join(",");
    let written: Vec<&str> = stated.split(',').map(str::trim).collect();
    if written != scores {
        return Err(RecordError::Result {
            stated: stated.to_string(),
            found: format!("gives the scores {found}"),
        });
    }
    // A game ends with its position, or by resignations (which seats were
    // people's a record does not say: one resignation is enough here).
    let stuck = pos.is_over();
    if !stuck && !resigned.contains(&true) {
        return Err(RecordError::Result {
            stated: stated.to_string(),
            found: "is not over: the player to move has a move and no seat resigned".into(),
        });
    }
    let mut outcome = leapfrog_core::game::decide(
        pos.rules().spec().end,
        pos.scores(),
        stuck.then(|| pos.to_move()),
        resigned,
    );
    outcome.solitaire = pos.solitaire();
    let by_resignation = !stuck;
    Ok(GameResult {
        outcome,
        resigned: resigned.to_vec(),
        by_resignation,
        aborted: false,
        ratings: Vec::new(),
    })
}

/// A peg-solitaire result in words: `1 piece left, on d4: solved, perfect`.
fn told_solitaire(s: &jc::Solitaire) -> String {
    let left = if s.pieces_left == 1 {
        "1 piece left".to_string()
    } else {
        format!("{} pieces left", s.pieces_left)
    };
    let on = s.last.map(|c| format!(", on {c}")).unwrap_or_default();
    let verdict = match (s.solved, s.perfect) {
        (true, Some(true)) => ": solved, perfect",
        (true, _) => ": solved",
        (false, _) => ": not solved",
    };
    format!("{left}{on}{verdict}")
}

impl Record {
    /// The replay told as text: the start, each ply with the position
    /// after it, then the result (or that the game is unfinished).
    pub fn told(&self, replayed: &Replayed) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "start {}", replayed.positions[0]);
        for (i, (ply, pos)) in self.plies.iter().zip(&replayed.positions[1..]).enumerate() {
            let _ = writeln!(out, "{}. {ply} {pos}", i + 1);
        }
        let seat = |p: usize| {
            self.tag(&format!("Seat{}", p + 1)).map_or_else(|| format!("seat {}", p + 1), str::to_string)
        };
        match &replayed.result {
            Some(GameResult { outcome: jc::Outcome { solitaire: Some(left), .. }, .. }) => {
                let _ = writeln!(out, "result: {}", told_solitaire(left));
            }
            Some(result) => {
                let winners: Vec<String> = result.outcome.winners.iter().map(|&p| seat(p)).collect();
                let how = if result.by_resignation { " (by resignation)" } else { "" };
                let scores: Vec<String> = replayed
                    .positions
                    .last()
                    .map_or_else(Vec::new, |p| p.scores().iter().map(u32::to_string).collect());
                let _ =
                    writeln!(out, "result: {} won{how}; scores {}", winners.join(" and "), scores.join(","));
            }
            None => {
                let _ = writeln!(out, "unfinished after {} plies", self.plies.len());
            }
        }
        out
    }
}

/// A tag line's name and value.
fn tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| format!("'{line}' is not a tag: write [Name \"value\"]"))?;
    let (name, value) = inner.split_once(' ').ok_or_else(|| format!("'{line}' has no value"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("'{name}' is not a tag name (letters, digits and _)"));
    }
    let quoted = value
        .trim()
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| format!("the value of {name} is not in double quotes"))?;
    let mut out = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('"' | '\\')) => out.push(e),
                other => {
                    return Err(format!(
                        "the value of {name} has '\\{}': only \\\" and \\\\ are escapes",
                        other.map(String::from).unwrap_or_default()
                    ));
                }
            },
            '"' => return Err(format!("the value of {name} has an unescaped quote: write \\\"")),
            c => out.push(c),
        }
    }
    // As names are: no control, format or separator character (a bidi
    // override in a seat's name would show another name).
    if let Some((at, c)) = out.chars().enumerate().find(|&(_, c)| leapfrog_core::names::is_forbidden(c)) {
        return Err(format!(
            "the value of {name} may not hold control or format characters; character {} is U+{:04X}",
            at + 1,
            u32::from(c)
        ));
    }
    Ok((name.to_string(), out))
}

/// The plies of a record's move section: comments in braces and ply
/// numbers (`12.`) dropped.
fn plies(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_comment = false;
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut Vec<String>| {
        // A number and a dot before a ply, alone or stuck to it (`12.b3`).
        let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest =
            if rest.len() < token.len() { rest.strip_prefix('.').unwrap_or(token) } else { token.as_str() };
        if !rest.is_empty() {
            out.push(rest.to_string());
        }
        token.clear();
    };
    for c in text.chars() {
        match (in_comment, c) {
            (true, '}') => in_comment = false,
            (true, _) => {}
            (false, '{') => {
                flush(&mut token, &mut out);
                in_comment = true;
            }
            (false, c) if c.is_whitespace() => flush(&mut token, &mut out),
            (false, c) => token.push(c),
        }
    }
    flush(&mut token, &mut out);
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    const RECORD: &str = "[Game \"Leap Frog (old)\"]\n[Rules \"{\\\"preset\\\":\\\"old\\\",\\\"rows\\\":3,\\\"cols\\\":3}\"]\n[Start \"OOO/OOO/OOO 0 0,0\"]\n[Seat1 \"Ann \\\"the frog\\\"\"]\n[Extra \"kept\"]\n\n1. a1 2. b1 {a comment} 3.a3xa1\n";

    #[test]
    fn tags_read_with_escapes_and_unknown_ones_are_kept() {
        let r = Record::parse(RECORD).unwrap();
        assert_eq!(r.tag("Seat1"), Some("Ann \"the frog\""));
        assert_eq!(r.tag("Extra"), Some("kept"));
        assert_eq!(r.plies, ["a1", "b1", "a3xa1"], "numbers and comments dropped");
    }

    #[test]
    fn a_record_replays_from_its_start_and_the_first_bad_ply_is_named() {
        let r = Record::parse(RECORD).unwrap();
        let replayed = r.replay().unwrap();
        assert_eq!(replayed.positions.len(), 4);
        assert_eq!(replayed.positions[3].scores(), [2, 1]);
        let bad = Record::parse(&RECORD.replace("3.a3xa1", "3. a3xa1 4. c3xc9")).unwrap();
        let e = bad.replay().unwrap_err();
        assert!(matches!(&e, RecordError::Ply { ply: 4, .. }), "{e}");
        let unread = Record::parse(&RECORD.replace("2. b1", "2. zz")).unwrap();
        assert!(matches!(unread.replay().unwrap_err(), RecordError::Ply { ply: 2, .. }));
    }

    #[test]
    fn a_result_the_replay_does_not_give_is_refused() {
        let over = format!("{}[Result \"9,9\"]\n\n1. a1\n", &RECORD[..RECORD.find("\n\n").unwrap() + 1]);
        let e = Record::parse(&over).unwrap().replay().unwrap_err();
        assert!(matches!(e, RecordError::Result { .. }), "{e}");
    }

    #[test]
    fn a_tag_line_that_is_not_a_tag_is_named_by_its_line() {
        let e = Record::parse("[Game \"x\"]\n[Rules oops]\n\n").unwrap_err();
        assert!(matches!(e, RecordError::Syntax { line: 2, .. }), "{e}");
        assert!(matches!(Record::parse("\n1. a1").unwrap().replay(), Err(RecordError::Missing("Rules"))));
    }

    #[test]
    fn escaped_values_read_back_as_written() {
        for value in ["plain", "a \"quote\"", "back\\slash", "{\"json\":[1,2]}"] {
            let text = format!("[T \"{}\"]\n\n", escaped(value));
            assert_eq!(Record::parse(&text).unwrap().tag("T"), Some(value));
        }
    }
}
