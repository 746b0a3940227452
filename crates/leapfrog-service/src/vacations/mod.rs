//! Vacations (rule book §11), in long games only (a day or more a move):
//! a seat that reaches its deadline with a vacation day left spends one and
//! gets a day more; a vacation taken ahead pauses its owner's clocks — the
//! turns running when it starts move on by its length, a turn handed over
//! during it begins when it ends, and ending it early gives back the whole
//! days not begun and moves those turns back by as much. Every moved
//! deadline is a change of its game, stored as an event like any other.
//!
//! The rules are the core's (`Game::at_deadline`, `vacation_shift`,
//! `turn_counted_from_return`); the games service asks an account's
//! absence of [`VacationBook`] through its `Absences` port, and
//! [`Vacations`] starts and ends vacations, moving turns through the games
//! service.

use chrono::Datelike;

use crate::play::{Absences, AwayFuture, GameError, Games};
use leapfrog_core::game::{Away, DAY_MS};
use leapfrog_store::Store;
use leapfrog_wire::account_events::{AccountEventData, VacationEvent};

/// Days a year an account gets by default (`--vacation-days`).
pub const DEFAULT_DAYS: u32 = 20;

/// Why a vacation cannot start or end.
#[derive(Debug, thiserror::Error)]
pub enum VacationError {
    /// Fewer days left than asked for, or none asked.
    #[error("{asked} days asked for; this account has {left} vacation days left this year")]
    Days {
        /// Days asked for.
        asked: i64,
        /// Days left.
        left: i64,
    },
    /// A vacation is under way already.
    #[error("this account is on vacation already, until {0}")]
    Already(String),
    /// No vacation is under way.
    #[error("this account is not on vacation")]
    NotOnVacation,
    /// A store or game failure.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// The UTC year of `now` (Unix milliseconds).
fn year(now: i64) -> i64 {
    chrono::DateTime::from_timestamp_millis(now).map_or(0, |t| i64::from(t.year()))
}

/// An account's vacation days this year, and its vacation under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vacation {
    /// Days left this year.
    pub days_left: i64,
    /// The vacation under way, if any: when it began and when it ends
    /// (Unix milliseconds).
    pub taken: Option<(i64, i64)>,
}

/// The accounts' vacations as the store keeps them, with the days an
/// account gets a year.
#[derive(Debug, Clone)]
pub struct VacationBook {
    store: Store,
    days: i64,
}

impl VacationBook {
    /// The vacations in `store`, `days` a year an account.
    pub fn new(store: Store, days: u32) -> VacationBook {
        VacationBook { store, days: i64::from(days) }
    }

    /// Account `account_id`'s vacation at `now` (its days refilled in a new
    /// year); a vacation taken ahead that has ended is none.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn vacation(&self, account_id: &str, now: i64) -> Result<Vacation, GameError> {
        let v = self.store.vacation(account_id, year(now), self.days).await?;
        let (days_left, taken) = v.map_or((0, None), |v| (v.days_left, v.taken));
        Ok(Vacation { days_left, taken: taken.filter(|&(_, until)| until > now) })
    }
}

impl Absences for VacationBook {
    fn away<'a>(&'a self, account: &'a str, at: i64) -> AwayFuture<'a> {
        Box::pin(async move {
            let v = self.vacation(account, at).await?;
            Ok(Away { until: v.taken.map(|(_, until)| until), days_left: v.days_left })
        })
    }
}

/// The vacations service: an account's vacation read, started, ended.
#[derive(Debug, Clone)]
pub struct Vacations {
    games: Games,
    book: VacationBook,
}

impl Vacations {
    /// The vacations of `book`, moving turns through `games` (whose
    /// absences `book` must answer, [`Games::with_absences`]).
    pub fn new(games: Games, book: VacationBook) -> Vacations {
        Vacations { games, book }
    }

    /// Vacation days an account gets a year.
    pub fn days(&self) -> i64 {
        self.book.days
    }

    /// Account `account_id`'s vacation at `now`.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn vacation(&self, account_id: &str, now: i64) -> Result<Vacation, GameError> {
        self.book.vacation(account_id, now).await
    }

    /// Starts a vacation of `days` whole days for account `account_id` at
    /// `now`: the days are spent at once, and every turn of the account's
    /// long games that is running moves on by the vacation's length.
    ///
    /// # Errors
    ///
    /// [`VacationError::Days`], [`VacationError::Already`]; store failures.
    pub async fn start(&self, account_id: &str, days: i64, now: i64) -> Result<Vacation, VacationError> {
        let v = self.vacation(account_id, now).await?;
        if let Some((_, until)) = v.taken {
            return Err(VacationError::Already(leapfrog_wire::game::rfc3339(until)));
        }
        if days < 1 || days > v.days_left {
            return Err(VacationError::Days { asked: days, left: v.days_left });
        }
        let until = now + days * DAY_MS;
        if !self.book.store.take_vacation(account_id, days, now, until).await.map_err(GameError::from)? {
            // Another request took days or began a vacation meanwhile.
            let v = self.vacation(account_id, now).await?;
            return Err(match v.taken {
                Some((_, until)) => VacationError::Already(leapfrog_wire::game::rfc3339(until)),
                None => VacationError::Days { asked: days, left: v.days_left },
            });
        }
        let data = VacationEvent::Started {
            until: leapfrog_wire::game::rfc3339(until),
            days_left: v.days_left - days,
        };
        self.tell(account_id, data, now).await?;
        self.move_turns(account_id, days * DAY_MS, now).await?;
        Ok(Vacation { days_left: v.days_left - days, taken: Some((now, until)) })
    }

    /// Ends account `account_id`'s vacation at `now`: the whole days not
    /// begun are given back, and the turns it moved move back by as much.
    ///
    /// # Errors
    ///
    /// [`VacationError::NotOnVacation`]; store failures.
    pub async fn end(&self, account_id: &str, now: i64) -> Result<Vacation, VacationError> {
        let v = self.vacation(account_id, now).await?;
        let Some((_, until)) = v.taken else { return Err(VacationError::NotOnVacation) };
        let back = (until - now) / DAY_MS;
        if !self.book.store.end_vacation(account_id, until, now, back).await.map_err(GameError::from)? {
            return Err(VacationError::NotOnVacation);
        }
        self.tell(account_id, VacationEvent::Ended { days_left: v.days_left + back }, now).await?;
        if back > 0 {
            self.move_turns(account_id, -back * DAY_MS, now).await?;
        }
        Ok(Vacation { days_left: v.days_left + back, taken: None })
    }

    /// Moves by `shift` every running turn of account `account_id` in its
    /// long games (the core's `vacation_shift`).
    async fn move_turns(&self, account_id: &str, shift: i64, now: i64) -> Result<(), GameError> {
        for id in self.book.store.unfinished_game_ids_of_account(account_id, 1_000).await? {
            self.games.change_with(&id, now, |game| game.vacation_shift(account_id, shift, now)).await?;
        }
        Ok(())
    }

    /// Writes a `vacation` event to the account's log.
    async fn tell(&self, account_id: &str, data: VacationEvent, now: i64) -> Result<(), GameError> {
        let event = crate::events::account::event(account_id, &AccountEventData::Vacation(data), now);
        self.book.store.write_account_events(vec![event.clone()]).await?;
        self.games.tell_accounts(&[event]);
        Ok(())
    }
}
