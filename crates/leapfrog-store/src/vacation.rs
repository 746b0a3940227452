//! Vacation days on the `accounts` row (rule book §11): the days left in a
//! year, refilled from the server's allowance in a later year; a vacation
//! taken ahead; a day spent at a deadline, in the transaction of the game's
//! change that moves it.

use std::sync::LazyLock;

use super::sql::Statement;
use super::{Store, StoreError};

/// An account's vacation as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vacation {
    /// Whole days left this year.
    pub days_left: i64,
    /// The vacation taken ahead: its start and end (Unix milliseconds).
    pub taken: Option<(i64, i64)>,
}

static REFILL: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE accounts SET vacation_left = :allowance, vacation_year = :year \
         WHERE id = :account AND vacation_year < :year",
    )
});
static READ: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("SELECT vacation_left, vacation_from, vacation_until FROM accounts WHERE id = :account")
});
static TAKE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE accounts SET vacation_left = vacation_left - :days, vacation_from = :from, vacation_until = :until \
         WHERE id = :account AND vacation_left >= :days AND (vacation_until IS NULL OR vacation_until <= :from)",
    )
});
static END: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE accounts SET vacation_left = vacation_left + :back, vacation_until = :now \
         WHERE id = :account AND vacation_until = :until",
    )
});
/// One day spent at a deadline, only if there is one left.
pub(super) static SPEND_DAY: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE accounts SET vacation_left = vacation_left - 1 WHERE id = :account AND vacation_left >= 1",
    )
});

impl Store {
    /// Account `account_id`'s vacation in `year` (UTC), its days refilled
    /// to `allowance` first when they were last counted in an earlier year;
    /// `None` for an account that is gone.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn vacation(
        &self,
        account_id: &str,
        year: i64,
        allowance: i64,
    ) -> Result<Option<Vacation>, StoreError> {
        let args = [("account", account_id.into()), ("year", year.into()), ("allowance", allowance.into())];
        self.execute(&REFILL, &args).await?;
        let row: Option<(i64, Option<i64>, Option<i64>)> =
            self.row(&READ, &[("account", account_id.into())]).await?;
        Ok(row.map(|(days_left, from, until)| Vacation { days_left, taken: from.zip(until) }))
    }

    /// Takes `days` of the account's days for a vacation from `from` to
    /// `until`; `false` when it has fewer left or is on vacation already.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn take_vacation(
        &self,
        account_id: &str,
        days: i64,
        from: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let args = [
            ("account", account_id.into()),
            ("days", days.into()),
            ("from", from.into()),
            ("until", until.into()),
        ];
        Ok(self.execute(&TAKE, &args).await? == 1)
    }

    /// Ends at `now` the vacation that was to end at `until`, giving
    /// `back` days back; `false` when it is not that vacation any more.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn end_vacation(
        &self,
        account_id: &str,
        until: i64,
        now: i64,
        back: i64,
    ) -> Result<bool, StoreError> {
        let args = [
            ("account", account_id.into()),
            ("until", until.into()),
            ("now", now.into()),
            ("back", back.into()),
        ];
        Ok(self.execute(&END, &args).await? == 1)
    }
}
