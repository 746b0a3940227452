//! The `liveness` row: when a server process last said it was alive, and
//! the move clocks moved on by an outage, once, by the first process that
//! starts after it.

use std::sync::LazyLock;

use super::sql::{Execute, Statement};
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
        self.execute(&BEAT, &[("now", now.into())]).await?;
        Ok(())
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
        let (seen,): (i64,) = self.one(&READ, &[]).await?;
        let outage = now - seen;
        if seen == 0 || outage <= grace {
            self.execute(&BEAT, &[("now", now.into())]).await?;
            return Ok(None);
        }
        self.transaction(move |_, tx| {
            Box::pin(async move {
                if tx.execute(&CLAIM, &[("now", now.into()), ("seen", seen.into())]).await? != 1 {
                    // Another process started first and moved them.
                    return Ok(None);
                }
                tx.execute(&SHIFT, &[("outage", outage.into()), ("seen", now.into())]).await?;
                Ok(Some(outage))
            })
        })
        .await
    }
}
