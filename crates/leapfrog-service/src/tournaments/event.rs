//! A tournament as it stands: read from its rows, written back to them,
//! and its history in the form the core's pairing and standings take.

use std::sync::Arc;

use jump_capture as jc;
use leapfrog_core::tournament::{self as core, Entrant, History, Pairing, Round, Tiebreak};
use leapfrog_store::{TournamentGameRow, TournamentPlayerRow, TournamentRow};

use super::TournamentError;
use crate::play::GameError;

/// How an event pairs its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Everyone meets everyone once (Berger tables).
    RoundRobin,
    /// Everyone meets everyone twice, the seats swapped.
    DoubleRoundRobin,
    /// A fixed number of rounds, the Dutch system (rule book §17).
    Swiss,
    /// For a fixed time, whoever waits is paired at once (live only).
    Arena,
}

impl Format {
    /// Its stored and API name.
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round_robin",
            Format::DoubleRoundRobin => "double_round_robin",
            Format::Swiss => "swiss",
            Format::Arena => "arena",
        }
    }

    fn of_name(name: &str) -> Option<Format> {
        [Format::RoundRobin, Format::DoubleRoundRobin, Format::Swiss, Format::Arena]
            .into_iter()
            .find(|f| f.name() == name)
    }

    /// The tiebreaks of its standings, in order (rule book §17).
    pub fn tiebreaks(self) -> &'static [Tiebreak] {
        match self {
            Format::Swiss => {
                &[Tiebreak::Buchholz, Tiebreak::SonnebornBerger, Tiebreak::DirectEncounter, Tiebreak::Wins]
            }
            Format::RoundRobin | Format::DoubleRoundRobin => {
                &[Tiebreak::SonnebornBerger, Tiebreak::DirectEncounter, Tiebreak::Wins]
            }
            Format::Arena => &[Tiebreak::Wins],
        }
    }
}

/// Where an event is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Taking players.
    Open,
    /// Being played.
    Running,
    /// Finished: its standings are final.
    Over,
    /// Called off before it started (too few players).
    Canceled,
}

impl Status {
    /// Its stored and API name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Running => "running",
            Status::Over => "over",
            Status::Canceled => "canceled",
        }
    }

    fn of_name(name: &str) -> Option<Status> {
        [Status::Open, Status::Running, Status::Over, Status::Canceled].into_iter().find(|s| s.name() == name)
    }
}

/// An event: its terms, where it stands, its players (in the order they
/// joined; by seed once started) and its games.
#[derive(Debug, Clone)]
pub struct Tournament {
    /// Its row as read (the terms; its version is the one read).
    pub row: TournamentRow,
    /// Its format.
    pub format: Format,
    /// Its status.
    pub status: Status,
    /// Its rules.
    pub rules: Arc<jc::Rules>,
    /// The accounts invited; `None`: open to all.
    pub invited: Option<Vec<String>>,
    /// Its players.
    pub players: Vec<TournamentPlayerRow>,
    /// Its games and byes, by round and board.
    pub boards: Vec<TournamentGameRow>,
}

impl Tournament {
    /// The event of these rows.
    ///
    /// # Errors
    ///
    /// A row this server did not write.
    pub fn read(
        row: TournamentRow,
        mut players: Vec<TournamentPlayerRow>,
        boards: Vec<TournamentGameRow>,
    ) -> Result<Tournament, TournamentError> {
        let damaged = |what: &'static str| GameError::corrupt(&row.id, what, "unreadable");
        let format = Format::of_name(&row.format).ok_or_else(|| damaged("format"))?;
        let status = Status::of_name(&row.status).ok_or_else(|| damaged("status"))?;
        let rules = leapfrog_store::stored::read_rules(&row.rules).map_err(|_| damaged("rules"))?;
        let invited = row
            .invited
            .as_deref()
            .map(serde_json::from_str::<Vec<String>>)
            .transpose()
            .map_err(|_| damaged("invited"))?;
        if status != Status::Open {
            players.sort_by_key(|p| p.seed.unwrap_or(i64::MAX));
        }
        Ok(Tournament { row, format, status, rules, invited, players, boards })
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.row.id
    }

    /// The seed (roster index) of account `id`, once started.
    pub fn entrant_of(&self, id: &str) -> Option<Entrant> {
        self.players.iter().position(|p| p.account_id == id)
    }

    /// Its history as the core reads it: the roster by seed, each round's
    /// games and bye, those who have withdrawn.
    pub fn history(&self) -> History {
        let mut h = History::new(self.players.len());
        let rounds = self.boards.iter().map(|b| b.round).max().unwrap_or(0);
        h.rounds = vec![Round::default(); usize::try_from(rounds).unwrap_or(0)];
        for b in &self.boards {
            let (Some(round), Some(first)) = (
                usize::try_from(b.round - 1).ok().and_then(|r| h.rounds.get_mut(r)),
                self.entrant_of(&b.first_id),
            ) else {
                continue;
            };
            match b.second_id.as_deref().and_then(|s| self.entrant_of(s)) {
                None => round.bye = Some(first),
                Some(second) => round.games.push(Pairing {
                    first,
                    second,
                    outcome: b.outcome.as_deref().and_then(outcome_of),
                    forfeit: b.forfeit != 0,
                }),
            }
        }
        h.withdrawn = (0..self.players.len()).filter(|&i| self.players[i].withdrawn_at.is_some()).collect();
        h
    }

    /// Its standings: every player, best first.
    pub fn standings(&self) -> Vec<core::Standing> {
        match self.format {
            Format::Arena => core::arena_standings(&self.history()),
            _ => core::standings(&self.history(), self.format.tiebreaks()),
        }
    }

    /// A standing's points as shown: points for a round-based event
    /// (counted in half-points), an arena's own.
    pub fn shown_points(&self, points: core::Points) -> f64 {
        match self.format {
            Format::Arena => f64::from(points),
            _ => f64::from(points) / 2.0,
        }
    }

    /// When an arena ends (Unix milliseconds), once started.
    pub fn ends_at(&self) -> Option<i64> {
        Some(self.row.started_at? + self.row.duration_ms?)
    }

    /// The number of rounds it plays, given its players (a Swiss's own;
    /// a round-robin's from its field).
    pub fn total_rounds(&self) -> u32 {
        let n = u32::try_from(self.players.len()).unwrap_or(u32::MAX);
        let even = n + n % 2;
        match self.format {
            Format::Swiss => u32::try_from(self.row.rounds.unwrap_or(1)).unwrap_or(1),
            Format::RoundRobin => even.saturating_sub(1),
            Format::DoubleRoundRobin => 2 * even.saturating_sub(1),
            // An arena's rounds are its pairings so far.
            Format::Arena => u32::try_from(self.row.round).unwrap_or(0),
        }
    }

    /// The boards of `account` not yet decided: its games under way.
    pub fn under_way_of<'a>(&'a self, account: &'a str) -> impl Iterator<Item = &'a TournamentGameRow> {
        self.boards.iter().filter(move |b| {
            b.outcome.is_none() && (b.first_id == account || b.second_id.as_deref() == Some(account))
        })
    }
}

/// The stored name of an outcome.
pub fn outcome_name(o: core::Outcome) -> &'static str {
    match o {
        core::Outcome::FirstWins => "first",
        core::Outcome::SecondWins => "second",
        core::Outcome::Draw => "draw",
    }
}

fn outcome_of(name: &str) -> Option<core::Outcome> {
    match name {
        "first" => Some(core::Outcome::FirstWins),
        "second" => Some(core::Outcome::SecondWins),
        "draw" => Some(core::Outcome::Draw),
        _ => None,
    }
}
