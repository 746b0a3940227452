//! Tournaments (rule book §17): events of round-robin or Swiss rounds,
//! live or by correspondence, that accounts join and leave; started by
//! their creator or at their start time; paired round by round by the
//! core's pure functions as the last game of a round ends; their
//! standings read from their games.
//!
//! Every change of an event is one [`leapfrog_store::TournamentChange`]
//! written over the version read, so in a fleet each round is paired by
//! one process; a clock ([`run`]) looks every second for events with
//! something to do.
//!
//! Its parts: `event` (an event as it stands, its history as the core
//! reads it), `terms` (a new event's terms checked), `roster` (joining
//! and leaving), `rounds` (the start, the counting of ended games, the
//! next round, the end), `error` (why a change is refused).

mod error;
mod event;
mod roster;
mod rounds;
mod terms;

pub use error::TournamentError;
pub use event::{Format, Status, Tournament, outcome_name};
pub use rounds::TIMEOUTS_WITHDRAW;

use std::sync::Arc;
use std::time::Duration;

use jump_capture as jc;
use leapfrog_store::{TournamentPlayerRow, TournamentRow, TournamentWrite};

use crate::accounts::Account;
use crate::play::{Games, now_ms};
use rounds::Step;

/// Tries of a change that meets others changing the event.
pub(super) const TRIES: usize = 8;
/// Events the clock looks at a tick, at most.
const DUE_A_TICK: i64 = 100;
/// How often the clock looks.
pub const TICK: Duration = Duration::from_secs(1);
/// Longest name of an event, in characters.
pub const MAX_NAME: usize = 64;
/// Most rounds of a Swiss.
pub const MAX_ROUNDS: u32 = 64;
/// Shortest arena: a minute.
pub const MIN_ARENA_MS: i64 = 60_000;
/// Longest arena: a day.
pub const MAX_ARENA_MS: i64 = 24 * 3_600_000;

/// The server's bounds on events (rule book §17).
#[derive(Debug, Clone, Copy)]
pub struct TournamentLimits {
    /// Most players of one event.
    pub max_players: usize,
    /// Most events open or running that one account created.
    pub per_account: u64,
    /// Most events open or running in all.
    pub total: u64,
}

impl Default for TournamentLimits {
    fn default() -> Self {
        TournamentLimits { max_players: 256, per_account: 5, total: 1_000 }
    }
}

/// An event asked for.
#[derive(Debug, Clone)]
pub struct NewTournament {
    /// Its name.
    pub name: String,
    /// Its format.
    pub format: Format,
    /// Its rules (two seats).
    pub rules: Arc<jc::Rules>,
    /// Whether its games are rated.
    pub rated: bool,
    /// A Swiss's rounds.
    pub rounds: Option<u32>,
    /// A correspondence round-robin: every game paired at the start.
    pub all_at_once: bool,
    /// Seconds a move.
    pub move_limit: u32,
    /// Whether it is played by correspondence (days a move).
    pub correspondence: bool,
    /// An arena's length, in milliseconds.
    pub duration_ms: Option<i64>,
    /// Players it needs to start, and takes at most.
    pub players: (usize, usize),
    /// When it starts by itself (Unix milliseconds); `None`: when its
    /// creator says.
    pub starts_at: Option<i64>,
    /// Whether bots may join.
    pub bots: bool,
    /// The accounts invited; `None`: open to all.
    pub invited: Option<Vec<String>>,
}

/// The tournaments service.
#[derive(Debug, Clone)]
pub struct Tournaments {
    games: Games,
    limits: TournamentLimits,
    /// The id of the last event the clock looked at: the next tick goes
    /// on from there.
    turn: Arc<std::sync::Mutex<String>>,
}

impl Tournaments {
    /// The tournaments service, making its games through `games`.
    pub fn new(games: Games, limits: TournamentLimits) -> Tournaments {
        Tournaments { games, limits, turn: Arc::default() }
    }

    /// Its bounds.
    pub fn limits(&self) -> TournamentLimits {
        self.limits
    }

    /// Makes an event created by `creator`, or says why not.
    ///
    /// # Errors
    ///
    /// [`TournamentError::Invalid`] (the field named), a
    /// [`TournamentError::Limit`] reached; store failures.
    pub async fn create(&self, creator: &Account, new: NewTournament) -> Result<Tournament, TournamentError> {
        let now = now_ms();
        self.check_new(&new, now)?;
        let (mine, all) = self.games.store().tournaments_under_way(&creator.id).await?;
        if mine >= self.limits.per_account {
            return Err(limit(
                "events_per_account",
                self.limits.per_account,
                "events open or running of one account",
            ));
        }
        if all >= self.limits.total {
            return Err(limit("events", self.limits.total, "events open or running on this server"));
        }
        // A list of ids always encodes.
        let invited = new.invited.as_ref().map(|ids| serde_json::to_string(ids).unwrap_or_default());
        let row = TournamentRow {
            id: uuid::Uuid::new_v4().to_string(),
            creator_id: creator.id.clone(),
            name: new.name.trim().to_string(),
            format: new.format.name().into(),
            rules: leapfrog_store::stored::rules_json(&new.rules).map_err(crate::play::GameError::from)?,
            rated: i64::from(new.rated),
            rounds: new.rounds.map(i64::from),
            all_at_once: i64::from(new.all_at_once),
            move_limit: Some(i64::from(new.move_limit)),
            correspondence: i64::from(new.correspondence),
            duration_ms: new.duration_ms,
            min_players: new.players.0 as i64,
            max_players: new.players.1 as i64,
            starts_at: new.starts_at,
            bots: i64::from(new.bots),
            invited,
            status: Status::Open.name().into(),
            round: 0,
            version: 1,
            created_at: now,
            started_at: None,
            ended_at: None,
        };
        self.games.store().insert_tournament(&row, &[]).await?;
        Tournament::read(row, Vec::new(), Vec::new())
    }

    /// Event `id` as it stands.
    ///
    /// # Errors
    ///
    /// [`TournamentError::NotFound`]; store failures; a damaged row.
    pub async fn get(&self, id: &str) -> Result<Tournament, TournamentError> {
        let store = self.games.store();
        let row = store.tournament(id).await?.ok_or_else(|| TournamentError::NotFound(id.to_string()))?;
        let players = store.tournament_players(id).await?;
        let boards = store.tournament_games(id, (0, -1), i64::MAX, None).await?;
        Tournament::read(row, players, boards)
    }

    /// A page of event `id`'s games and byes by round and board (of round
    /// `round` alone, if given): at most `limit` after `after` (round,
    /// board), with its players to name them.
    ///
    /// # Errors
    ///
    /// [`TournamentError::NotFound`]; store failures.
    pub async fn games_page(
        &self,
        id: &str,
        after: (i64, i64),
        limit: usize,
        round: Option<i64>,
    ) -> Result<(Vec<TournamentPlayerRow>, Vec<leapfrog_store::TournamentGameRow>), TournamentError> {
        let store = self.games.store();
        if store.tournament(id).await?.is_none() {
            return Err(TournamentError::NotFound(id.to_string()));
        }
        let players = store.tournament_players(id).await?;
        Ok((players, store.tournament_games(id, after, limit as i64, round).await?))
    }

    /// Events newest first (of `status`, if given), a page of `limit`
    /// after the event made at `before` (time and id); without players.
    ///
    /// # Errors
    ///
    /// Store failures; a damaged row.
    pub async fn list(
        &self,
        status: Option<Status>,
        before: Option<(i64, &str)>,
        limit: usize,
    ) -> Result<Vec<Tournament>, TournamentError> {
        let rows = self.games.store().tournaments(status.map(Status::name), before, limit as i64).await?;
        rows.into_iter().map(|r| Tournament::read(r, Vec::new(), Vec::new())).collect()
    }

    /// Its creator starts event `id` now.
    ///
    /// # Errors
    ///
    /// Not found; [`TournamentError::NotYours`]; [`TournamentError::Closed`]
    /// when not open or with fewer players than it needs; store failures.
    pub async fn start(&self, id: &str, who: &Account) -> Result<Tournament, TournamentError> {
        for _ in 0..TRIES {
            let mut t = self.get(id).await?;
            if t.row.creator_id != who.id {
                return Err(TournamentError::NotYours("only its creator starts a tournament".into()));
            }
            open(&t)?;
            if (t.players.len() as i64) < t.row.min_players {
                let detail =
                    format!("the tournament needs {} players; it has {}", t.row.min_players, t.players.len());
                return Err(TournamentError::Closed(detail));
            }
            let now = now_ms();
            self.withdraw_refusing(&mut t, now).await?;
            let step = self.start_step(&mut t, now)?;
            if self.write(step).await? == TournamentWrite::Done {
                return self.get(id).await;
            }
        }
        Err(TournamentError::Game(crate::play::GameError::Conflict))
    }

    /// Does what event `id` has to do now: start it (or call it off, short
    /// of players) at its start time; count its ended games; pair its next
    /// round, or end it. Another process doing it first is no error.
    ///
    /// # Errors
    ///
    /// Not found; store failures.
    pub async fn advance(&self, id: &str) -> Result<(), TournamentError> {
        for _ in 0..TRIES {
            let now = now_ms();
            let mut t = self.get(id).await?;
            let step = match t.status {
                Status::Open if t.row.starts_at.is_some_and(|at| at <= now) => {
                    if (t.players.len() as i64) < t.row.min_players {
                        let mut step = Step::of(&t);
                        step.row.status = Status::Canceled.name().into();
                        step.row.ended_at = Some(now);
                        Some(step)
                    } else {
                        self.withdraw_refusing(&mut t, now).await?;
                        Some(self.start_step(&mut t, now)?)
                    }
                }
                Status::Running => self.advance_step(&mut t, now).await?,
                _ => None,
            };
            let Some(step) = step else { return Ok(()) };
            if self.write(step).await? == TournamentWrite::Done {
                // A round paired may end at once (forfeits only): look again.
                continue;
            }
        }
        Ok(())
    }

    /// The names of the accounts `ids` (a deleted one's id stays as it is).
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn names_of(&self, ids: &[String]) -> Result<Vec<String>, TournamentError> {
        let mut names = Vec::with_capacity(ids.len());
        for id in ids {
            let row = self.games.store().account_by_id(id).await?;
            names.push(row.map_or_else(|| id.clone(), |a| a.name));
        }
        Ok(names)
    }

    /// Writes `step`; tells of the games it made once written.
    async fn write(&self, step: Step) -> Result<TournamentWrite, TournamentError> {
        let (change, made) = step.into_parts();
        let events = change.events.clone();
        let written = self.games.store().change_tournament(change).await?;
        if written == TournamentWrite::Done {
            for g in &made {
                self.games.tell(g);
            }
            self.games.tell_accounts(&events);
        }
        Ok(written)
    }

    /// Advances the events with something to do at `now`, at most
    /// `DUE_A_TICK` a tick, going round them in order of id from where
    /// the last tick stopped (so that many due at once each get their
    /// turn); how many.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn tick(&self, now: i64) -> Result<usize, TournamentError> {
        let store = self.games.store();
        let after = self.turn.lock().map(|t| t.clone()).unwrap_or_default();
        let mut due = store.tournaments_due(now, &after, DUE_A_TICK).await?;
        if due.is_empty() && !after.is_empty() {
            due = store.tournaments_due(now, "", DUE_A_TICK).await?;
        }
        if let Ok(mut turn) = self.turn.lock() {
            *turn = due.last().cloned().unwrap_or_default();
        }
        for id in &due {
            // One event that fails (a damaged row) holds up no other.
            if let Err(e) = self.advance(id).await {
                tracing::warn!(tournament = %id, error = %e, "moving a tournament on failed; the clock tries again");
            }
        }
        Ok(due.len())
    }
}

/// Advances events every [`TICK`] for as long as the process runs.
pub async fn run(tournaments: Tournaments) {
    let mut every = tokio::time::interval(TICK);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(e) = tournaments.tick(now_ms()).await {
            tracing::warn!(error = %e, "moving tournaments on failed; the clock tries again");
        }
    }
}

/// Refuses a change of an event that no longer takes players.
pub(super) fn open(t: &Tournament) -> Result<(), TournamentError> {
    match t.status {
        Status::Open => Ok(()),
        other => Err(TournamentError::Closed(format!("the tournament is {}", other.name()))),
    }
}

fn limit(name: &'static str, value: u64, what: &str) -> TournamentError {
    limit_with(name, value, format!("at most {value} {what}"))
}

pub(super) fn limit_with(name: &'static str, value: u64, detail: String) -> TournamentError {
    TournamentError::Limit { limit: name, value, detail }
}
