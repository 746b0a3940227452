//! Vacations (rule book §11), in long games only (a day or more a move):
//! a seat that reaches its deadline with a vacation day left spends one and
//! gets a day more; a vacation taken ahead pauses its owner's clocks — the
//! turns running when it starts move on by its length, a turn handed over
//! during it begins when it ends, and ending it early gives back the whole
//! days not begun and moves those turns back by as much. Every moved
//! deadline is a change of its game, stored as an event like any other.

use chrono::Datelike;

use super::{GameError, Games, TRIES};
use leapfrog_core::game::{Command, DAY_MS, Game, GameStatus, Postponement};
use leapfrog_store::{AccountEvent, Vacation};

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

impl Games {
    /// Vacation days an account gets a year.
    pub fn vacation_days(&self) -> i64 {
        self.vacation_days
    }

    /// Account `account_id`'s vacation at `now` (its days refilled in a new
    /// year); a vacation taken ahead that has ended is none.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn vacation(&self, account_id: &str, now: i64) -> Result<Vacation, GameError> {
        let v = self.store.vacation(account_id, year(now), self.vacation_days).await?;
        let v = v.unwrap_or(Vacation { days_left: 0, taken: None });
        Ok(Vacation { taken: v.taken.filter(|&(_, until)| until > now), ..v })
    }

    /// Starts a vacation of `days` whole days for account `account_id` at
    /// `now`: the days are spent at once, and every turn of the account's
    /// long games that is running moves on by the vacation's length.
    ///
    /// # Errors
    ///
    /// [`VacationError::Days`], [`VacationError::Already`]; store failures.
    pub async fn start_vacation(
        &self,
        account_id: &str,
        days: i64,
        now: i64,
    ) -> Result<Vacation, VacationError> {
        let v = self.vacation(account_id, now).await?;
        if let Some((_, until)) = v.taken {
            return Err(VacationError::Already(leapfrog_wire::game::rfc3339(until)));
        }
        if days < 1 || days > v.days_left {
            return Err(VacationError::Days { asked: days, left: v.days_left });
        }
        let until = now + days * DAY_MS;
        if !self.store.take_vacation(account_id, days, now, until).await.map_err(GameError::from)? {
            // Another request took days or began a vacation meanwhile.
            let v = self.vacation(account_id, now).await?;
            return Err(match v.taken {
                Some((_, until)) => VacationError::Already(leapfrog_wire::game::rfc3339(until)),
                None => VacationError::Days { asked: days, left: v.days_left },
            });
        }
        let data = serde_json::json!({"reason": "started", "until": leapfrog_wire::game::rfc3339(until),
            "days_left": v.days_left - days});
        self.tell_vacation(account_id, &data, now).await?;
        self.move_turns(account_id, days * DAY_MS, now).await?;
        Ok(Vacation { days_left: v.days_left - days, taken: Some((now, until)) })
    }

    /// Ends account `account_id`'s vacation at `now`: the whole days not
    /// begun are given back, and the turns it moved move back by as much.
    ///
    /// # Errors
    ///
    /// [`VacationError::NotOnVacation`]; store failures.
    pub async fn end_vacation(&self, account_id: &str, now: i64) -> Result<Vacation, VacationError> {
        let v = self.vacation(account_id, now).await?;
        let Some((_, until)) = v.taken else { return Err(VacationError::NotOnVacation) };
        let back = (until - now) / DAY_MS;
        if !self.store.end_vacation(account_id, until, now, back).await.map_err(GameError::from)? {
            return Err(VacationError::NotOnVacation);
        }
        let data = serde_json::json!({"reason": "ended", "days_left": v.days_left + back});
        self.tell_vacation(account_id, &data, now).await?;
        if back > 0 {
            self.move_turns(account_id, -back * DAY_MS, now).await?;
        }
        Ok(Vacation { days_left: v.days_left + back, taken: None })
    }

    /// What the clock does to `game`, whose seat to move is out of time at
    /// `now`: in a long game, an account on vacation has its turn begin at
    /// the vacation's end; one with a day left spends it for a day more;
    /// anyone else is timed out.
    pub(super) async fn at_deadline(&self, game: &Game, now: i64) -> Result<Command, GameError> {
        let Some(account) = self.account_to_move(game) else { return Ok(Command::TimeOut) };
        if !game.long() {
            return Ok(Command::TimeOut);
        }
        let v = self.vacation(account, now).await?;
        Ok(match v.taken {
            Some((_, until)) => Command::Postpone { turn_at: until, reason: Postponement::Vacation },
            None if v.days_left >= 1 => {
                Command::Postpone { turn_at: game.turn_at() + DAY_MS, reason: Postponement::VacationDay }
            }
            None => Command::TimeOut,
        })
    }

    /// Before `next` is stored: a turn of a long game that began with this
    /// change, of an account on vacation, begins when the vacation ends.
    pub(super) async fn turn_in_vacation(&self, before: &Game, next: &mut Game) -> Result<(), GameError> {
        let began =
            next.position().ply() != before.position().ply() || before.status() != GameStatus::Started;
        if !began || !next.long() || next.status() != GameStatus::Started {
            return Ok(());
        }
        let Some(account) = self.account_to_move(next) else { return Ok(()) };
        if let Some((_, until)) = self.vacation(account, next.turn_at()).await?.taken {
            next.begin_turn_at(until);
        }
        Ok(())
    }

    /// The account of the person's seat to move, if any.
    fn account_to_move<'g>(&self, game: &'g Game) -> Option<&'g str> {
        game.turn_ends_at()?;
        game.seats().get(game.position().to_move())?.account.as_deref()
    }

    /// Moves by `shift` every running turn of account `account_id` in its
    /// long games. A vacation's start (`shift` > 0) moves only the turns
    /// that began before it (`now`): a turn handed over since — by a move
    /// racing the start — begins at the vacation's end already
    /// (`turn_in_vacation`), and is not moved twice.
    async fn move_turns(&self, account_id: &str, shift: i64, now: i64) -> Result<(), GameError> {
        for id in self.store.unfinished_game_ids_of_account(account_id, 1_000).await? {
            for _ in 0..TRIES {
                let game = self.load(&id).await?;
                if !game.long()
                    || self.account_to_move(&game) != Some(account_id)
                    || (shift > 0 && game.turn_at() >= now)
                {
                    break;
                }
                let command =
                    Command::Postpone { turn_at: game.turn_at() + shift, reason: Postponement::Vacation };
                let (next, changes) = game.apply(command, now)?;
                if changes.is_empty() || self.commit(&game, next, &changes, None, None).await?.is_some() {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Writes a `vacation` event to the account's log.
    async fn tell_vacation(
        &self,
        account_id: &str,
        data: &serde_json::Value,
        now: i64,
    ) -> Result<(), GameError> {
        let event = AccountEvent {
            account_id: account_id.to_string(),
            kind: "vacation".into(),
            data: data.to_string(),
            at: now,
            vacation_day: false,
        };
        self.store.write_account_events(vec![event.clone()]).await?;
        self.tell_accounts(&[event]);
        Ok(())
    }
}
