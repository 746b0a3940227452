//! The `game_events` table: each game's log of events, written with the
//! change that makes them (by `moves` and `games`), read in order by the
//! streams, and made once from the rows of a game stored before the log.

use std::sync::LazyLock;

use super::rows::{Commit, EventRow};
use super::sql::Statement;
use super::{Store, StoreError, is_unique_violation};

/// One event of game `:game`.
pub(super) const INSERT_EVENT: &str =
    "INSERT INTO game_events (game_id, seq, kind, data, at) VALUES (:game, :seq, :kind, :data, :at)";

static INSERT: LazyLock<Statement> = LazyLock::new(|| Statement::new(INSERT_EVENT));
static EVENTS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT seq, kind, data, at FROM game_events WHERE game_id = :game AND seq >= :from \
         ORDER BY seq LIMIT :limit",
    )
});
/// Claims the making of an old game's log: only one reader does it.
static START_LOG: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("UPDATE games SET events = :events WHERE id = :game AND events IS NULL"));

impl Store {
    /// Up to `limit` events of game `id` from number `from` on, in order.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn events(&self, id: &str, from: i64, limit: i64) -> Result<Vec<EventRow>, StoreError> {
        self.rows(&EVENTS, &[("game", id.into()), ("from", from.into()), ("limit", limit.into())]).await
    }

    /// Stores `events` as the log of game `id`, stored before there were
    /// logs, unless it has one already (another reader made it first):
    /// whether this call stored them.
    ///
    /// # Errors
    ///
    /// On a database failure; nothing is stored then.
    pub async fn start_log(&self, id: &str, events: Vec<EventRow>) -> Result<bool, StoreError> {
        let id = id.to_string();
        self.transaction_kept_if(
            |stored| *stored,
            move |_, tx| {
                Box::pin(async move {
                    let n = events.len() as i64;
                    let claimed = START_LOG
                        .query(&[("game", (&id).into()), ("events", n.into())])?
                        .execute(&mut **tx)
                        .await?
                        .rows_affected();
                    Ok(claimed == 1 && Self::write_events(tx, &id, &events).await? == Commit::Done)
                })
            },
        )
        .await
    }

    /// Writes `events` of game `id` within `tx`: a conflict when one of
    /// their numbers is taken (another change came first).
    pub(super) async fn write_events(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        id: &str,
        events: &[EventRow],
    ) -> Result<Commit, StoreError> {
        for e in events {
            let written = INSERT
                .query(&[
                    ("game", id.into()),
                    ("seq", e.seq.into()),
                    ("kind", (&e.kind).into()),
                    ("data", (&e.data).into()),
                    ("at", e.at.into()),
                ])?
                .execute(&mut **tx)
                .await;
            match written {
                Ok(_) => {}
                Err(e) if is_unique_violation(&e) => return Ok(Commit::Conflict),
                Err(e) => return Err(e.into()),
            }
        }
        Ok(Commit::Done)
    }
}
