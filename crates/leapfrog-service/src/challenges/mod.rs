//! Challenges (rule book §15): an account asks another — or anyone with
//! the challenge's id — for a game on given terms; accepting seats the
//! accounts and, once every seat is taken, makes the game, exactly once
//! however many accept at once (the game's id is the challenge's, written
//! in the transaction that marks the challenge accepted).
//!
//! Its parts: `challenge` (a challenge as it stands, read from and
//! written to its row), `error` (why a challenge is refused).

mod challenge;
mod error;

pub use challenge::{Challenge, Entrant, Status};
pub use error::ChallengeError;

use std::sync::Arc;

use jump_capture as jc;

use crate::accounts::Account;
use crate::events::account::of_challenge;
use crate::play::consent::{self, Party, Path, Role};
use crate::play::{Creator, GameError, Games, now_ms, random_seed};
use leapfrog_core::game::{Game, MAX_SEATS, NewGame, NewSeat, PlayerName, SeatAccount};
use leapfrog_store::{ChallengeRow, ChallengeWrite, Store, StoreError};
use leapfrog_wire::account_events::AccountEventData;
use leapfrog_wire::profile::Reason;

/// How long a challenge to one account stays open: 10 minutes.
pub const DIRECT_FOR_MS: i64 = 10 * 60 * 1000;
/// How long an open challenge (to anyone with its id) stays open: a day.
pub const OPEN_FOR_MS: i64 = 24 * 3600 * 1000;
/// Challenges, and games, a fresh account stream starts with at most.
const SNAPSHOT: usize = 100;
/// Tries of an acceptance that meets others changing the challenge.
const TRIES: usize = 8;

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

/// The challenges service: challenges sent, accepted, declined and
/// canceled; an acceptance that takes the last seat has the games service
/// deal the game, written with the challenge.
#[derive(Debug, Clone)]
pub struct Challenges {
    games: Games,
}

impl Challenges {
    /// The challenges service, making its games through `games`.
    pub fn new(games: Games) -> Challenges {
        Challenges { games }
    }

    fn store(&self) -> &Store {
        self.games.store()
    }

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
        from: &Account,
        to: Option<&Account>,
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
        deal(&new, ("trial", ""), &trial, 0)?;
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
            let games = self.store().unfinished_games_of_account(&to.id).await?;
            let parties = [
                Party { account: from, games: 0, role: Role::Asking },
                Party { account: to, games, role: Role::Asked },
            ];
            consent::check(&parties, &challenge.terms(), Path::Challenge)?;
        }
        // The challenge is told to both sides of a direct one (a bot
        // follows its own as well), to its challenger alone when open.
        let view = challenge.view();
        let told: Vec<&str> = std::iter::once(from.id.as_str()).chain(to.map(|a| a.id.as_str())).collect();
        let events: Vec<_> =
            told.iter().map(|a| of_challenge(a, AccountEventData::Challenge, &view, now)).collect();
        self.store().insert_challenge(&challenge.row(&from.id)?, &events).await?;
        self.games.tell_accounts(&events);
        Ok(challenge)
    }

    /// Challenge `id` as it stands.
    ///
    /// # Errors
    ///
    /// [`ChallengeError::NotFound`]; store failures.
    pub async fn get_challenge(&self, id: &str) -> Result<Challenge, ChallengeError> {
        let row =
            self.store().challenge(id).await?.ok_or_else(|| ChallengeError::NotFound(id.to_string()))?;
        Challenge::read(&row, now_ms())
    }

    /// The challenges `account` sent or was sent, newest first, a page.
    ///
    /// # Errors
    ///
    /// Store failures; a damaged row.
    pub async fn challenges_of(
        &self,
        account: &Account,
        before: Option<(i64, &str)>,
        limit: usize,
    ) -> Result<Vec<Challenge>, ChallengeError> {
        let now = now_ms();
        let rows = self.store().challenges_of(&account.id, before, limit as i64).await?;
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
        who: &Account,
        creator: &Creator,
    ) -> Result<(Challenge, Option<Game>), ChallengeError> {
        for _ in 0..TRIES {
            let row =
                self.store().challenge(id).await?.ok_or_else(|| ChallengeError::NotFound(id.to_string()))?;
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
            let Some(free) = challenge.entrants.iter().position(Option::is_none) else {
                return Err(ChallengeError::Closed("full"));
            };
            challenge.entrants[free] = Some(Entrant::of(who));
            self.consent_to(&mut challenge, &who.id, creator.max_unfinished).await?;
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
                // The game is the accepter's client's creation, counted against its caps.
                self.games.check_caps(creator, false).await?;
                Some(deal(&new, (&challenge.id, &creator.client), &entrants, random_seed()?)?)
            } else {
                None
            };
            // Every entrant hears that the game started (and whose turn it is).
            let made = game.as_ref().map(|g| self.games.rows_of_new(g)).transpose()?;
            let events = made.as_ref().map(|m| m.events.clone()).unwrap_or_default();
            let rows = made.as_ref().map(|m| (&m.game, m.seats.as_slice()));
            let write = self
                .store()
                .update_challenge(&challenge.row(&row.challenger_id)?, old, rows, &events)
                .await?;
            match write {
                ChallengeWrite::Done => {
                    if let Some(g) = &game {
                        self.games.tell(g);
                    }
                    self.games.tell_accounts(&events);
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
    /// As [`Challenges::accept`]: not found, closed, expired, not the account
    /// it was sent to (an open challenge is not declined: let it expire);
    /// store failures.
    pub async fn decline(
        &self,
        id: &str,
        who: &Account,
        reason: Reason,
    ) -> Result<Challenge, ChallengeError> {
        self.close(id, |row| {
            if row.challenged_id.as_deref() == Some(who.id.as_str()) {
                Ok((Status::Declined, Some(reason), vec![row.challenger_id.clone()]))
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
    /// As [`Challenges::decline`], for the challenger.
    pub async fn cancel(&self, id: &str, who: &Account) -> Result<Challenge, ChallengeError> {
        self.close(id, |row| {
            if row.challenger_id == who.id {
                Ok((Status::Canceled, None, row.challenged_id.iter().cloned().collect()))
            } else {
                Err(ChallengeError::NotYours("only its challenger cancels a challenge"))
            }
        })
        .await
    }

    async fn close(
        &self,
        id: &str,
        how: impl Fn(&ChallengeRow) -> Result<(Status, Option<Reason>, Vec<String>), ChallengeError>,
    ) -> Result<Challenge, ChallengeError> {
        for _ in 0..TRIES {
            let row =
                self.store().challenge(id).await?.ok_or_else(|| ChallengeError::NotFound(id.to_string()))?;
            let now = now_ms();
            let mut challenge = Challenge::read(&row, now)?;
            let (status, reason, told) = how(&row)?;
            open(&challenge)?;
            let old = challenge.version;
            (challenge.status, challenge.reason, challenge.version) = (status, reason, old + 1);
            let kind = if status == Status::Declined {
                AccountEventData::ChallengeDeclined
            } else {
                AccountEventData::ChallengeCanceled
            };
            let view = challenge.view();
            let events: Vec<_> = told.iter().map(|a| of_challenge(a, kind, &view, now)).collect();
            match self
                .store()
                .update_challenge(&challenge.row(&row.challenger_id)?, old, None, &events)
                .await?
            {
                ChallengeWrite::Done => {
                    self.games.tell_accounts(&events);
                    return Ok(challenge);
                }
                ChallengeWrite::Moved | ChallengeWrite::GameExists => {}
            }
        }
        Err(ChallengeError::Game(GameError::Conflict))
    }

    /// What a fresh stream of `account` sends first: its open challenges
    /// (sent and received, newest first) and its unfinished games (oldest
    /// first, each `game_started` and, on its turn, `your_turn`), a
    /// hundred of each at most.
    ///
    /// # Errors
    ///
    /// Store failures; a damaged row.
    pub async fn account_snapshot(
        &self,
        account: &Account,
    ) -> Result<Vec<leapfrog_store::AccountEvent>, ChallengeError> {
        let now = now_ms();
        let mut events = Vec::new();
        for c in self.challenges_of(account, None, SNAPSHOT).await? {
            if c.status == Status::Open {
                events.push(of_challenge(&account.id, AccountEventData::Challenge, &c.view(), now));
            }
        }
        for id in self.store().unfinished_game_ids_of_account(&account.id, SNAPSHOT as i64).await? {
            let game = self.games.load(&id).await?;
            let told =
                crate::events::account::of_changes(&[leapfrog_core::game::Change::Started], &game, now);
            events.extend(told.into_iter().filter(|e| e.account_id == account.id));
        }
        Ok(events)
    }

    /// The one check of who sits with whom (see [`consent`]), made with
    /// every account seated so far — `asking` the one whose acceptance
    /// this is, the others having offered its terms — each entrant's bot
    /// status read afresh (an entrant whose account is gone closes the
    /// challenge).
    async fn consent_to(
        &self,
        challenge: &mut Challenge,
        asking: &str,
        most: u32,
    ) -> Result<(), ChallengeError> {
        let ids: Vec<String> = challenge.entrants.iter().flatten().map(|e| e.id.clone()).collect();
        let role = |id: &String| if id == asking { Role::Asking } else { Role::Offered };
        let seated: Vec<(&str, Role)> = ids.iter().map(|id| (id.as_str(), role(id))).collect();
        let read = self.games.consent(&seated, &challenge.terms(), Path::Challenge, most).await?;
        for (e, account) in challenge.entrants.iter_mut().flatten().zip(read) {
            e.bot = account.ok_or(ChallengeError::Closed("canceled"))?.bot;
        }
        Ok(())
    }

    /// Deletes account `account_id` (its tokens die at once, its games
    /// stay under their names) and, in the same transaction, cancels its
    /// open challenges, telling the other side (`challenge_canceled`).
    ///
    /// # Errors
    ///
    /// Store failures; nothing is deleted then.
    pub async fn delete_account(&self, account_id: &str) -> Result<(), ChallengeError> {
        for _ in 0..TRIES {
            let now = now_ms();
            let gone = account_id.to_string();
            let close: leapfrog_store::CloseChallenges = Box::new(move |rows| cancel_all(rows, &gone, now));
            match self.store().delete_account(account_id, now, close).await {
                Ok(events) => {
                    self.games.tell_accounts(&events);
                    return Ok(());
                }
                Err(StoreError::Moved(_)) => {}
                Err(e) => return Err(e.into()),
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

/// The open challenges of an account being deleted, canceled: each new
/// row with the version it was read at, and a `challenge_canceled` event
/// for every other account in it.
fn cancel_all(
    rows: &[ChallengeRow],
    gone: &str,
    now: i64,
) -> Result<leapfrog_store::ClosedChallenges, StoreError> {
    let damaged = |e: ChallengeError| StoreError::Damaged { what: "challenge", detail: e.to_string() };
    let (mut closed, mut events) = (Vec::new(), Vec::new());
    for row in rows {
        let mut c = Challenge::read(row, now).map_err(damaged)?;
        (c.status, c.reason, c.version) = (Status::Canceled, None, row.version + 1);
        let view = c.view();
        let others = std::iter::once(row.challenger_id.as_str())
            .chain(row.challenged_id.as_deref())
            .chain(c.entrants.iter().flatten().map(|e| e.id.as_str()))
            .filter(|a| *a != gone)
            .collect::<std::collections::BTreeSet<_>>();
        events.extend(
            others.into_iter().map(|a| of_challenge(a, AccountEventData::ChallengeCanceled, &view, now)),
        );
        closed.push((c.row(&row.challenger_id).map_err(damaged)?, row.version));
    }
    Ok((closed, events))
}

/// The game of `new` between `entrants` (seat by seat), with id `id`.
fn deal(
    new: &NewChallenge,
    (id, client): (&str, &str),
    entrants: &[Entrant],
    seed: u64,
) -> Result<Game, GameError> {
    let seats = entrants
        .iter()
        .map(|e| NewSeat::Account(SeatAccount { id: e.id.clone(), bot: e.bot }, PlayerName::stored(&e.name)))
        .collect();
    let game = NewGame {
        id: id.to_string(),
        max_moves: leapfrog_wire::budget::MOVES,
        rules: new.rules.clone(),
        seats,
        seed,
        seed_chosen: false,
        move_limit: new.move_limit,
        client: client.to_string(),
        rated: new.rated,
    };
    Ok(Game::new(game, now_ms())?)
}
