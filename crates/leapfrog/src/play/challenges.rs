//! Challenges (rule book §15): an account asks another — or anyone with
//! the challenge's id — for a game on given terms; accepting seats the
//! accounts and, once every seat is taken, makes the game, exactly once
//! however many accept at once (the game's id is the challenge's, written
//! in the transaction that marks the challenge accepted).

use std::sync::Arc;

use jump_capture as jc;
use serde::{Deserialize, Serialize};

use super::{GameError, Games, now_ms, random_seed, seat_rows};
use crate::accounts::profile::{Accepts, Reason, Terms};
use crate::game::{Game, MAX_SEATS, NewGame, NewSeat, PlayerName, SeatAccount};
use crate::store::{AccountRow, ChallengeRow, ChallengeWrite, StoreError};
use crate::wire::RuleSet;
use crate::wire::challenge::{ChallengeView, EntrantView};
use crate::wire::game::rfc3339;

/// How long a challenge to one account stays open: 10 minutes.
pub const DIRECT_FOR_MS: i64 = 10 * 60 * 1000;
/// How long an open challenge (to anyone with its id) stays open: a day.
pub const OPEN_FOR_MS: i64 = 24 * 3600 * 1000;
/// Tries of an acceptance that meets others changing the challenge.
const TRIES: usize = 8;

/// An account seated by a challenge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Whether it is a bot.
    pub bot: bool,
}

impl Entrant {
    /// The entrant an account is.
    pub fn of(a: &AccountRow) -> Entrant {
        Entrant { id: a.id.clone(), name: a.name.clone(), bot: a.bot != 0 }
    }
}

/// Where a challenge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Waiting for acceptances.
    Open,
    /// Every seat taken: its game is made (with the challenge's id).
    Accepted,
    /// Declined by the account it was sent to.
    Declined,
    /// Withdrawn by its challenger.
    Canceled,
    /// Open past its time.
    Expired,
}

impl Status {
    /// Its name, as the API writes it.
    pub fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Accepted => "accepted",
            Status::Declined => "declined",
            Status::Canceled => "canceled",
            Status::Expired => "expired",
        }
    }
}

/// A challenge as it stands.
#[derive(Debug, Clone)]
pub struct Challenge {
    /// Its id, also its game's.
    pub id: String,
    /// The account it was sent to (id and name); `None`: anyone.
    pub to: Option<(String, String)>,
    /// Its rules.
    pub rules: Arc<jc::Rules>,
    /// The challenger's seat.
    pub seat: usize,
    /// Seconds a move, if limited.
    pub move_limit: Option<u32>,
    /// Whether its game is rated.
    pub rated: bool,
    /// Where it stands (open past its time: expired).
    pub status: Status,
    /// Why it was declined.
    pub reason: Option<Reason>,
    /// Seat by seat, the accounts seated so far.
    pub entrants: Vec<Option<Entrant>>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub expires_at: i64,
    version: i64,
}

impl Challenge {
    /// The challenger.
    pub fn from(&self) -> Option<&Entrant> {
        self.entrants.get(self.seat).and_then(Option::as_ref)
    }

    fn read(row: &ChallengeRow, now: i64) -> Result<Challenge, ChallengeError> {
        let damaged = |what: &'static str, e: &dyn std::fmt::Display| {
            ChallengeError::Game(GameError::Store(StoreError::Damaged {
                what,
                detail: format!("{}: {e}", row.id),
            }))
        };
        let rules = crate::store::stored::read_rules(&row.rules).map_err(|e| damaged("rules", &e))?;
        let entrants: Vec<Option<Entrant>> =
            serde_json::from_str(&row.accepted).map_err(|e| damaged("challenge seats", &e))?;
        let status = match row.status.as_str() {
            "open" if now >= row.expires_at => Status::Expired,
            "open" => Status::Open,
            "accepted" => Status::Accepted,
            "declined" => Status::Declined,
            "canceled" => Status::Canceled,
            other => return Err(damaged("challenge status", &other)),
        };
        let reason = row
            .reason
            .as_deref()
            .map(|r| serde_json::from_value(serde_json::Value::String(r.to_string())))
            .transpose()
            .map_err(|e| damaged("decline reason", &e))?;
        Ok(Challenge {
            id: row.id.clone(),
            to: row.challenged_id.clone().zip(row.challenged_name.clone()),
            rules,
            seat: usize::try_from(row.seat).map_err(|e| damaged("challenge seat", &e))?,
            move_limit: row.move_limit.map(|l| u32::try_from(l).unwrap_or(u32::MAX)),
            rated: row.rated != 0,
            status,
            reason,
            entrants,
            created_at: row.created_at,
            expires_at: row.expires_at,
            version: row.version,
        })
    }

    fn row(&self, challenger_id: &str) -> Result<ChallengeRow, ChallengeError> {
        let status = match self.status {
            Status::Expired => "open",
            other => other.name(),
        };
        Ok(ChallengeRow {
            id: self.id.clone(),
            challenger_id: challenger_id.to_string(),
            challenged_id: self.to.as_ref().map(|(id, _)| id.clone()),
            challenged_name: self.to.as_ref().map(|(_, name)| name.clone()),
            rules: crate::store::stored::rules_json(&self.rules).map_err(GameError::from)?,
            seats: self.entrants.len() as i64,
            seat: self.seat as i64,
            move_limit: self.move_limit.map(i64::from),
            rated: i64::from(self.rated),
            status: status.to_string(),
            reason: self.reason.map(|r| r.key().to_string()),
            accepted: serde_json::to_string(&self.entrants)
                .map_err(|e| GameError::from(StoreError::Encode(e)))?,
            version: self.version,
            created_at: self.created_at,
            expires_at: self.expires_at,
        })
    }

    /// The view the API and the account streams show.
    pub fn view(&self) -> ChallengeView {
        let entrant = |e: &Entrant| EntrantView { name: e.name.clone(), bot: e.bot };
        ChallengeView {
            id: self.id.clone(),
            from: self.from().map_or(EntrantView { name: String::new(), bot: false }, entrant),
            to: self.to.as_ref().map(|(_, name)| name.clone()),
            rules: RuleSet::from_rules(&self.rules),
            players: self.entrants.len(),
            seat: self.seat,
            seats: self.entrants.iter().map(|e| e.as_ref().map(entrant)).collect(),
            move_time_limit: self.move_limit,
            rated: self.rated,
            status: self.status.name().to_string(),
            reason: self.reason,
            game: (self.status == Status::Accepted).then(|| self.id.clone()),
            created_at: rfc3339(self.created_at),
            expires_at: rfc3339(self.expires_at),
        }
    }

    /// Its terms, as a profile judges them, from a challenger bot or not.
    fn terms(&self, from_bot: bool) -> Terms<'_> {
        let spec = self.rules.spec();
        let preset = crate::game::preset_pool(&self.rules).map(|_| spec.name.as_str());
        Terms {
            preset,
            size: (spec.rows, spec.cols),
            move_limit: self.move_limit,
            rated: self.rated,
            from_bot,
        }
    }
}

/// A challenge asked for.
#[derive(Debug, Clone)]
pub struct NewChallenge {
    /// Its rules.
    pub rules: Arc<jc::Rules>,
    /// How many seats its game has.
    pub seats: usize,
    /// The challenger's seat.
    pub seat: usize,
    /// Seconds a move, if limited.
    pub move_limit: Option<u32>,
    /// Whether its game is rated.
    pub rated: bool,
}

/// Why a challenge, or a change of one, was refused.
#[derive(Debug, thiserror::Error)]
pub enum ChallengeError {
    /// No challenge has this id.
    #[error("there is no challenge {0}")]
    NotFound(String),
    /// A challenge to oneself.
    #[error("a challenge goes to another account than one's own")]
    Yourself,
    /// What the account it goes to (or the one accepting) does not take.
    #[error("{detail}")]
    Declined {
        /// The key a program acts on.
        reason: Reason,
        /// In words.
        detail: String,
    },
    /// A person who has not agreed to rated games against bots.
    #[error("{0} has not agreed to rated games against bots (the account's setting rated_against_bots)")]
    OptIn(String),
    /// Not the challenger, or not the account it was sent to.
    #[error("{0}")]
    NotYours(&'static str),
    /// No longer open.
    #[error("this challenge is {0}")]
    Closed(&'static str),
    /// Open past its time.
    #[error("this challenge expired; send another")]
    Expired,
    /// The account holds a seat of it already.
    #[error("this account holds seat {0} of this challenge already")]
    AlreadyIn(usize),
    /// A seat out of range, or a number of seats out of range.
    #[error("{0}")]
    Seats(String),
    /// The game it asks for cannot be made, or the store failed.
    #[error(transparent)]
    Game(#[from] GameError),
}

impl From<StoreError> for ChallengeError {
    fn from(e: StoreError) -> ChallengeError {
        ChallengeError::Game(GameError::Store(e))
    }
}

impl Games {
    /// Sends a challenge from `from` to `to` (or to anyone), or says why not.
    ///
    /// # Errors
    ///
    /// [`ChallengeError::Seats`], what [`Game::new`] refuses of its game
    /// (rules for the number of seats, a rated game the rule book does not
    /// allow, a move limit out of range), [`ChallengeError::Yourself`],
    /// [`ChallengeError::Declined`] when the profile of `to` would decline
    /// it, [`ChallengeError::OptIn`] for a rated game of a bot and a person
    /// who has not agreed to that; store failures.
    pub async fn challenge(
        &self,
        from: &AccountRow,
        to: Option<&AccountRow>,
        new: NewChallenge,
    ) -> Result<Challenge, ChallengeError> {
        if !(2..=MAX_SEATS).contains(&new.seats) || new.seat >= new.seats {
            return Err(ChallengeError::Seats(format!(
                "a challenge has 2 to {MAX_SEATS} seats and the challenger one of them: {} seats, seat {}",
                new.seats, new.seat
            )));
        }
        // The game it asks for, dealt for nothing: what the rules refuse
        // of it is refused now, not when it is accepted.
        let trial: Vec<Entrant> = (0..new.seats)
            .map(|i| Entrant { id: format!("trial-{i}"), name: format!("Seat{i}"), bot: false })
            .collect();
        deal(&new, "trial", &trial, 0)?;
        let now = now_ms();
        let mut entrants = vec![None; new.seats];
        entrants[new.seat] = Some(Entrant::of(from));
        let challenge = Challenge {
            id: uuid::Uuid::new_v4().to_string(),
            to: to.map(|a| (a.id.clone(), a.name.clone())),
            rules: new.rules,
            seat: new.seat,
            move_limit: new.move_limit,
            rated: new.rated,
            status: Status::Open,
            reason: None,
            entrants,
            created_at: now,
            expires_at: now + if to.is_some() { DIRECT_FOR_MS } else { OPEN_FOR_MS },
            version: 1,
        };
        if let Some(to) = to {
            if to.id == from.id {
                return Err(ChallengeError::Yourself);
            }
            let games = self.store.unfinished_games_of_account(&to.id).await?;
            if let Some(reason) = accepts(to).refusal(&challenge.terms(from.bot != 0), games) {
                let detail = format!("{} declines it at once: {}", to.name, reason.key());
                return Err(ChallengeError::Declined { reason, detail });
            }
            check_bots(challenge.rated, &[from, to])?;
        }
        self.store.insert_challenge(&challenge.row(&from.id)?).await?;
        Ok(challenge)
    }

    /// Challenge `id` as it stands.
    ///
    /// # Errors
    ///
    /// [`ChallengeError::NotFound`]; store failures.
    pub async fn get_challenge(&self, id: &str) -> Result<Challenge, ChallengeError> {
        let row = self.store.challenge(id).await?.ok_or_else(|| ChallengeError::NotFound(id.to_string()))?;
        Challenge::read(&row, now_ms())
    }

    /// The challenges `account` sent or was sent, newest first, a page.
    ///
    /// # Errors
    ///
    /// Store failures; a damaged row.
    pub async fn challenges_of(
        &self,
        account: &AccountRow,
        before: Option<(i64, &str)>,
        limit: usize,
    ) -> Result<Vec<Challenge>, ChallengeError> {
        let now = now_ms();
        let rows = self.store.challenges_of(&account.id, before, limit as i64).await?;
        rows.iter().map(|r| Challenge::read(r, now)).collect()
    }

    /// `who` accepts challenge `id`: seated in the first free seat; the
    /// last seat taken makes the game (answered with it).
    ///
    /// # Errors
    ///
    /// [`ChallengeError::NotFound`], [`ChallengeError::Closed`],
    /// [`ChallengeError::Expired`], [`ChallengeError::NotYours`] (the
    /// challenger, or not the account it was sent to),
    /// [`ChallengeError::AlreadyIn`], [`ChallengeError::Declined`] with
    /// `busy` at the accepter's most games, [`ChallengeError::OptIn`];
    /// store failures.
    pub async fn accept(
        &self,
        id: &str,
        who: &AccountRow,
    ) -> Result<(Challenge, Option<Game>), ChallengeError> {
        for _ in 0..TRIES {
            let row =
                self.store.challenge(id).await?.ok_or_else(|| ChallengeError::NotFound(id.to_string()))?;
            let mut challenge = Challenge::read(&row, now_ms())?;
            open(&challenge)?;
            if row.challenger_id == who.id {
                return Err(ChallengeError::NotYours("the challenger waits for others to accept"));
            }
            if row.challenged_id.as_ref().is_some_and(|to| *to != who.id) {
                return Err(ChallengeError::NotYours("this challenge was sent to another account"));
            }
            if let Some(seat) =
                challenge.entrants.iter().position(|e| e.as_ref().is_some_and(|e| e.id == who.id))
            {
                return Err(ChallengeError::AlreadyIn(seat));
            }
            let games = self.store.unfinished_games_of_account(&who.id).await?;
            if accepts(who).max_games.is_some_and(|most| games >= u64::from(most)) {
                let detail = format!("{} plays its most games at once", who.name);
                return Err(ChallengeError::Declined { reason: Reason::Busy, detail });
            }
            if challenge.rated {
                let mut seated = vec![who.clone()];
                for e in challenge.entrants.iter().flatten() {
                    if let Some(a) = self.store.account_by_id(&e.id).await? {
                        seated.push(a);
                    }
                }
                check_bots(true, &seated.iter().collect::<Vec<_>>())?;
            }
            let Some(free) = challenge.entrants.iter().position(Option::is_none) else {
                return Err(ChallengeError::Closed("full"));
            };
            challenge.entrants[free] = Some(Entrant::of(who));
            let old = challenge.version;
            challenge.version += 1;
            let full = challenge.entrants.iter().all(Option::is_some);
            let game = if full {
                challenge.status = Status::Accepted;
                let entrants: Vec<Entrant> = challenge.entrants.iter().flatten().cloned().collect();
                let new = NewChallenge {
                    rules: challenge.rules.clone(),
                    seats: entrants.len(),
                    seat: challenge.seat,
                    move_limit: challenge.move_limit,
                    rated: challenge.rated,
                };
                Some(deal(&new, &challenge.id, &entrants, random_seed()?)?)
            } else {
                None
            };
            let rows =
                game.as_ref().map(|g| Ok::<_, GameError>((g.to_row()?, seat_rows(g)?.1))).transpose()?;
            let write = self
                .store
                .update_challenge(
                    &challenge.row(&row.challenger_id)?,
                    old,
                    rows.as_ref().map(|(g, seats)| (g, seats.as_slice())),
                )
                .await?;
            match write {
                ChallengeWrite::Done => {
                    if let Some(g) = &game {
                        self.tell(g);
                    }
                    return Ok((challenge, game));
                }
                ChallengeWrite::GameExists => return Err(ChallengeError::Closed("accepted")),
                // Another acceptance (or a decline) came first: read again.
                ChallengeWrite::Moved => {}
            }
        }
        Err(ChallengeError::Game(GameError::Conflict))
    }

    /// The account challenge `id` was sent to declines it, for `reason`.
    ///
    /// # Errors
    ///
    /// As [`Games::accept`]: not found, closed, expired, not the account
    /// it was sent to (an open challenge is not declined: let it expire);
    /// store failures.
    pub async fn decline(
        &self,
        id: &str,
        who: &AccountRow,
        reason: Reason,
    ) -> Result<Challenge, ChallengeError> {
        self.close(id, |row| {
            if row.challenged_id.as_deref() == Some(who.id.as_str()) {
                Ok((Status::Declined, Some(reason)))
            } else {
                Err(ChallengeError::NotYours("only the account a challenge was sent to declines it"))
            }
        })
        .await
    }

    /// The challenger withdraws challenge `id`.
    ///
    /// # Errors
    ///
    /// As [`Games::decline`], for the challenger.
    pub async fn cancel(&self, id: &str, who: &AccountRow) -> Result<Challenge, ChallengeError> {
        self.close(id, |row| {
            if row.challenger_id == who.id {
                Ok((Status::Canceled, None))
            } else {
                Err(ChallengeError::NotYours("only its challenger cancels a challenge"))
            }
        })
        .await
    }

    async fn close(
        &self,
        id: &str,
        how: impl Fn(&ChallengeRow) -> Result<(Status, Option<Reason>), ChallengeError>,
    ) -> Result<Challenge, ChallengeError> {
        for _ in 0..TRIES {
            let row =
                self.store.challenge(id).await?.ok_or_else(|| ChallengeError::NotFound(id.to_string()))?;
            let mut challenge = Challenge::read(&row, now_ms())?;
            let (status, reason) = how(&row)?;
            open(&challenge)?;
            let old = challenge.version;
            (challenge.status, challenge.reason, challenge.version) = (status, reason, old + 1);
            match self.store.update_challenge(&challenge.row(&row.challenger_id)?, old, None).await? {
                ChallengeWrite::Done => return Ok(challenge),
                ChallengeWrite::Moved | ChallengeWrite::GameExists => {}
            }
        }
        Err(ChallengeError::Game(GameError::Conflict))
    }
}

/// Refuses a change of a challenge that is no longer open.
fn open(c: &Challenge) -> Result<(), ChallengeError> {
    match c.status {
        Status::Open => Ok(()),
        Status::Expired => Err(ChallengeError::Expired),
        other => Err(ChallengeError::Closed(other.name())),
    }
}

/// What an account accepts: its profile, or anything.
fn accepts(a: &AccountRow) -> Accepts {
    a.accepts.as_deref().and_then(|json| serde_json::from_str(json).ok()).unwrap_or_default()
}

/// Refuses a rated game of bots and people unless every person agreed to
/// rated games against bots (rule book §15).
fn check_bots(rated: bool, accounts: &[&AccountRow]) -> Result<(), ChallengeError> {
    if !rated || !accounts.iter().any(|a| a.bot != 0) {
        return Ok(());
    }
    match accounts.iter().find(|a| a.bot == 0 && a.rated_against_bots == 0) {
        Some(person) => Err(ChallengeError::OptIn(person.name.clone())),
        None => Ok(()),
    }
}

/// The game of `new` between `entrants` (seat by seat), with id `id`.
fn deal(new: &NewChallenge, id: &str, entrants: &[Entrant], seed: u64) -> Result<Game, GameError> {
    let seats = entrants
        .iter()
        .map(|e| NewSeat::Account(SeatAccount { id: e.id.clone(), bot: e.bot }, PlayerName::stored(&e.name)))
        .collect();
    let game = NewGame {
        id: id.to_string(),
        max_moves: crate::compute::MOVES,
        rules: new.rules.clone(),
        seats,
        seed,
        seed_chosen: false,
        move_limit: new.move_limit,
        client: String::new(),
        rated: new.rated,
    };
    Ok(Game::new(game, now_ms())?)
}
