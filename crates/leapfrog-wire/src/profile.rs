//! What an account accepts (rule book §15): its acceptance profile, and
//! the machine-readable reasons a challenge is declined.
//!
//! A challenge the profile would refuse is refused at once with the key,
//! never sent; a profile left unset accepts everything. How a profile
//! judges a game is the service's policy (its consent check); here is the
//! form, and its check of a profile that contradicts itself.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Why a challenge was declined: a key a program can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// No reason given.
    Generic,
    /// Not now; perhaps later.
    Later,
    /// The time per move is too short.
    TooFast,
    /// The time per move is too long (or there is no limit).
    TooSlow,
    /// Not these rules (preset, custom rules, or board size).
    Rules,
    /// Send a rated challenge instead.
    Rated,
    /// Send a casual challenge instead.
    Casual,
    /// Bots are not accepted.
    NoBot,
    /// Only bots are accepted.
    OnlyBot,
    /// At its most games at once.
    Busy,
}

impl Reason {
    /// Its key, as the API writes it.
    pub fn key(self) -> &'static str {
        match self {
            Reason::Generic => "generic",
            Reason::Later => "later",
            Reason::TooFast => "too_fast",
            Reason::TooSlow => "too_slow",
            Reason::Rules => "rules",
            Reason::Rated => "rated",
            Reason::Casual => "casual",
            Reason::NoBot => "no_bot",
            Reason::OnlyBot => "only_bot",
            Reason::Busy => "busy",
        }
    }
}

/// What an account accepts. Every field may be left out: then anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"presets": ["murray", "konane"], "min_size": 6, "max_size": 15,
    "min_move_time": 10, "max_move_time": 600, "untimed": false, "rated": true, "casual": true,
    "bots": true, "people": true, "max_games": 4}))]
pub struct Accepts {
    /// Presets accepted (`old`, `murray`, `froglet`, `konane`, `capture`, …); empty: any preset and
    /// custom rule sets too. Named: only those presets' rules, at any size the sizes allow.
    #[serde(default)]
    #[schema(max_items = 16)]
    pub presets: Vec<String>,
    /// The fewest rows and columns a board may have.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 26)]
    pub min_size: Option<u8>,
    /// The most rows and columns a board may have.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 26)]
    pub max_size: Option<u8>,
    /// The fewest seconds per move accepted.
    #[serde(default)]
    #[schema(minimum = 5, maximum = 1209600)]
    pub min_move_time: Option<u32>,
    /// The most seconds per move accepted.
    #[serde(default)]
    #[schema(minimum = 5, maximum = 1209600)]
    pub max_move_time: Option<u32>,
    /// Games with no time limit accepted (default true).
    #[serde(default = "yes")]
    pub untimed: bool,
    /// Rated challenges accepted (default true).
    #[serde(default = "yes")]
    pub rated: bool,
    /// Casual challenges accepted (default true).
    #[serde(default = "yes")]
    pub casual: bool,
    /// Challenges from bots accepted (default true).
    #[serde(default = "yes")]
    pub bots: bool,
    /// Challenges from people accepted (default true).
    #[serde(default = "yes")]
    pub people: bool,
    /// The most unfinished games at once; past it, `busy`.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1000)]
    pub max_games: Option<u32>,
}

fn yes() -> bool {
    true
}

impl Default for Accepts {
    fn default() -> Accepts {
        Accepts {
            presets: Vec::new(),
            min_size: None,
            max_size: None,
            min_move_time: None,
            max_move_time: None,
            untimed: true,
            rated: true,
            casual: true,
            bots: true,
            people: true,
            max_games: None,
        }
    }
}

impl Accepts {
    /// Refuses a profile that contradicts itself or names no preset there is.
    ///
    /// # Errors
    ///
    /// What is wrong, and the field.
    pub fn check(&self) -> Result<(), (String, &'static str)> {
        if let Some(p) = self.presets.iter().find(|p| !jump_capture::Preset::ALL.iter().any(|q| q.id() == *p))
        {
            return Err((format!("'{p}' is not a preset"), "accepts.presets"));
        }
        if self.presets.len() > 16 {
            return Err(("at most 16 presets".into(), "accepts.presets"));
        }
        if let (Some(min), Some(max)) = (self.min_size, self.max_size)
            && min > max
        {
            return Err((format!("min_size {min} is above max_size {max}"), "accepts.min_size"));
        }
        for (value, field) in [(self.min_size, "accepts.min_size"), (self.max_size, "accepts.max_size")] {
            if value.is_some_and(|v| !(1..=26).contains(&v)) {
                return Err(("a board side is 1 to 26".into(), field));
            }
        }
        if let (Some(min), Some(max)) = (self.min_move_time, self.max_move_time)
            && min > max
        {
            return Err((
                format!("min_move_time {min} is above max_move_time {max}"),
                "accepts.min_move_time",
            ));
        }
        if !self.rated && !self.casual {
            return Err((
                "a profile that takes neither rated nor casual games takes none".into(),
                "accepts.rated",
            ));
        }
        if !self.bots && !self.people {
            return Err((
                "a profile that takes neither bots nor people takes nobody".into(),
                "accepts.people",
            ));
        }
        if self.max_games == Some(0) {
            return Err(("max_games is at least 1".into(), "accepts.max_games"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_that_contradicts_itself_is_refused_with_its_field() {
        let bad = |a: Accepts| a.check().unwrap_err().1;
        assert_eq!(bad(Accepts { presets: vec!["chess".into()], ..Accepts::default() }), "accepts.presets");
        assert_eq!(
            bad(Accepts { min_size: Some(9), max_size: Some(8), ..Accepts::default() }),
            "accepts.min_size"
        );
        assert_eq!(bad(Accepts { rated: false, casual: false, ..Accepts::default() }), "accepts.rated");
        assert_eq!(bad(Accepts { max_games: Some(0), ..Accepts::default() }), "accepts.max_games");
        assert!(Accepts::default().check().is_ok());
    }
}
