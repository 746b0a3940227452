//! The `liveness` row: when a server process last said it was alive, and
//! the move clocks moved on by an outage, once, by the first process that
//! starts after it.

use std::sync::LazyLock;

use sqlx::{Connection, Row};

use super::sql::Statement;
use super::{Store, StoreError};

static READ: LazyLock<Statement> = LazyLock::new(|| Statement::new("SELECT at FROM liveness WHERE id = 1"));
static BEAT: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("UPDATE liveness SET at = :now WHERE id = 1 AND at < :now"));
static CLAIM: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("UPDATE liveness SET at = :now WHERE id = 1 AND at = :seen"));
/// Every running move clock, moved on: the turn began `:outage` later.
static SHIFT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE games SET turn_at = turn_at + :outage \
         WHERE move_limit IS NOT NULL AND status <> 'over' AND turn_at IS NOT NULL AND turn_at < :seen",
    )
});

impl Store {
    /// Says this process is alive at `now`.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn beat(&self, now: i64) -> Result<(), StoreError> {
        self.on_db(move |s| async move {
            BEAT.query(&[("now", now.into())])?.execute(&mut *s.write().await?).await?;
            Ok(())
        })
        .await
    }

    /// At start, at `now`: if no process has said it was alive for longer
    /// than `grace` (milliseconds), moves every running move clock on by
    /// that outage, once in a fleet (the first process to claim it). The
    /// outage moved by, if any.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn move_clocks_past_outage(&self, now: i64, grace: i64) -> Result<Option<i64>, StoreError> {
        self.on_db(move |s| async move {
            let seen: i64 = READ.query(&[])?.fetch_one(&mut *s.read().await?).await?.try_get(0)?;
            let outage = now - seen;
            if seen == 0 || outage <= grace {
                BEAT.query(&[("now", now.into())])?.execute(&mut *s.write().await?).await?;
                return Ok(None);
            }
            let mut conn = s.write().await?;
            let mut tx = conn.begin().await?;
            let claimed = CLAIM
                .query(&[("now", now.into()), ("seen", seen.into())])?
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if claimed != 1 {
                // Another process started first and moved them.
                return Ok(None);
            }
            SHIFT.query(&[("outage", outage.into()), ("seen", now.into())])?.execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(Some(outage))
        })
        .await
    }
}
