//! The `account_events` table: each account's log (rule book §15), written
//! in the transaction of the change it tells of — the account's counter
//! bumped and the event numbered from it in one statement, so events of
//! one account never share a number — and read from a number on.

use std::sync::LazyLock;

use super::rows::EventRow;
use super::sql::{Args, Execute, Statement};
use super::{Backend, CHANNEL, Store, StoreError};

/// An event for an account's log, numbered when written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountEvent {
    /// The account it concerns.
    pub account_id: String,
    /// Its SSE event name.
    pub kind: String,
    /// Its JSON, as streams send it.
    pub data: String,
    /// Unix milliseconds.
    pub at: i64,
    /// Whether it spends one of the account's vacation days (rule book
    /// §11): then it is written only if the account has one left.
    pub vacation_day: bool,
}

/// What a hub's key of an account's log starts with (a game's is its id).
pub const ACCOUNT_KEY: &str = "account:";

/// Appends one event: the account's counter goes up by one and the event
/// takes the number before it. An account that is gone gets nothing.
/// PostgreSQL also tells the other processes (on commit). SQLite's are
/// two statements, run in turn, each taking the arguments it names.
fn append(backend: Backend) -> &'static [Statement] {
    static STATEMENTS: LazyLock<[Vec<Statement>; 2]> = LazyLock::new(|| {
        [
            vec![
                Statement::new("UPDATE accounts SET events = events + 1 WHERE id = :account"),
                Statement::new(
                    "INSERT INTO account_events (account_id, seq, kind, data, at) \
                     SELECT id, events - 1, :kind, :data, :at FROM accounts WHERE id = :account",
                ),
            ],
            vec![Statement::new(&format!(
                "WITH a AS (UPDATE accounts SET events = events + 1 WHERE id = :account RETURNING id, events - 1 AS seq), \
                 i AS (INSERT INTO account_events (account_id, seq, kind, data, at) \
                 SELECT id, seq, :kind, :data, :at FROM a RETURNING 1) \
                 SELECT pg_notify('{CHANNEL}', '{ACCOUNT_KEY}' || :account), (SELECT count(*) FROM i)"
            ))],
        ]
    });
    &STATEMENTS[usize::from(backend == Backend::Postgres)]
}

static READ: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT seq, kind, data, at FROM account_events WHERE account_id = :account AND seq >= :from \
         ORDER BY seq LIMIT :limit",
    )
});
static COUNT: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("SELECT events FROM accounts WHERE id = :account"));

impl Store {
    /// Appends `events` to their accounts' logs within `tx`.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub(super) async fn append_account_events<E: Execute>(
        backend: Backend,
        tx: &mut E,
        events: &[AccountEvent],
    ) -> Result<(), StoreError> {
        // In the order of the accounts' ids (each account's own in theirs):
        // every transaction takes the accounts' rows in one order, so two
        // never wait for each other in a circle.
        let mut ordered: Vec<&AccountEvent> = events.iter().collect();
        ordered.sort_by(|a, b| a.account_id.cmp(&b.account_id));
        for e in ordered {
            let args: &Args = &[
                ("account", (&e.account_id).into()),
                ("kind", (&e.kind).into()),
                ("data", (&e.data).into()),
                ("at", e.at.into()),
            ];
            for statement in append(backend) {
                tx.execute(statement, &statement.pick(args)).await?;
            }
            if e.vacation_day {
                let spent =
                    tx.execute(&super::vacation::SPEND_DAY, &[("account", (&e.account_id).into())]).await?;
                if spent != 1 {
                    return Err(StoreError::NoVacationDay);
                }
            }
            Self::queue_deliveries(tx, e).await?;
        }
        Ok(())
    }

    /// Appends `events` in a transaction of their own (what tells of no
    /// other change).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn write_account_events(&self, events: Vec<AccountEvent>) -> Result<(), StoreError> {
        if events.is_empty() {
            return Ok(());
        }
        self.transaction(move |s, tx| {
            Box::pin(async move { Self::append_account_events(s.backend, tx, &events).await })
        })
        .await
    }

    /// Account `account_id`'s events from number `from` on, at most `limit`.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn account_events(
        &self,
        account_id: &str,
        from: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        self.rows(&READ, &[("account", account_id.into()), ("from", from.into()), ("limit", limit.into())])
            .await
    }

    /// How many events account `account_id`'s log holds (the next number).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn account_event_count(&self, account_id: &str) -> Result<u64, StoreError> {
        let count: Option<(i64,)> = self.row(&COUNT, &[("account", account_id.into())]).await?;
        Ok(count.map_or(0, |(n,)| u64::try_from(n).unwrap_or(0)))
    }

    /// The events of a hub's key from `from` on: a game's log, or an
    /// account's (`account:ID`).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn log(&self, key: &str, from: i64, limit: i64) -> Result<Vec<EventRow>, StoreError> {
        match key.strip_prefix(ACCOUNT_KEY) {
            Some(account) => self.account_events(account, from, limit).await,
            None => self.events(key, from, limit).await,
        }
    }
}
