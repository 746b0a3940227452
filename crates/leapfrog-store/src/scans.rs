//! The scans over every game: the clock's (seats out of time), the
//! computer's (its turns, claimed by one process), the sweep (old keys,
//! abandoned games) and the count of games by state for the metrics.

use std::sync::LazyLock;

use super::sql::Statement;
use super::{Store, StoreError};

static BY_STATUS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT CASE WHEN status = 'over' THEN 'over' WHEN abandoned_at IS NOT NULL THEN 'abandoned' \
         WHEN open_seats > 0 THEN 'waiting' ELSE status END AS state, count(*) FROM games GROUP BY 1",
    )
});
static OUT_OF_TIME: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT id FROM games WHERE move_limit IS NOT NULL AND status <> 'over' AND open_seats = 0 \
         AND turn_at + move_limit * 1000 <= :now ORDER BY turn_at LIMIT 1000",
    )
});
/// Claims the games where the computer's turn began before `:before` and
/// no process holds a claim at `:now` (oldest first, at most 1000), until
/// `:until`. The claim is checked again on the row itself: of two
/// processes claiming at once, PostgreSQL lets the second see the first's.
static CLAIM_COMPUTER_TURNS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE games SET claimed_until = :until WHERE id IN (SELECT id FROM games \
         WHERE computer_due IS NOT NULL AND computer_due < :before \
         AND (claimed_until IS NULL OR claimed_until < :now) ORDER BY computer_due LIMIT 1000) \
         AND (claimed_until IS NULL OR claimed_until < :now) RETURNING id",
    )
});
/// Clears a game's mark of a computer's turn where a person is to move.
static NOT_COMPUTER_TURN: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "UPDATE games SET computer_due = NULL WHERE id = :id AND version = :version AND computer_due IS NOT NULL",
    )
});
static FORGET_KEYS: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("DELETE FROM move_keys WHERE created_at < :before"));
/// Games not over, not yet abandoned, unchanged since `:before`: the
/// sweep marks each through the games service.
static IDLE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT id FROM games WHERE status IN ('opening', 'playing') \
         AND abandoned_at IS NULL AND updated_at < :before ORDER BY updated_at LIMIT :limit",
    )
});

impl Store {
    /// How many games are `waiting` (for players), `opening`, `playing`,
    /// `abandoned` or `over`; a state with none is left out.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn games_by_state(&self) -> Result<Vec<(String, i64)>, StoreError> {
        self.rows(&BY_STATUS, &[]).await
    }

    /// The games with a move time limit, not over and not waiting, whose
    /// seat to move has had its turn for the limit or longer at `now`
    /// (Unix milliseconds), longest waiting first (at most 1000). Whether
    /// that seat is a person's, whom the limit binds, the caller checks.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn games_out_of_time(&self, now: i64) -> Result<Vec<String>, StoreError> {
        Ok(self
            .rows::<(String,)>(&OUT_OF_TIME, &[("now", now.into())])
            .await?
            .into_iter()
            .map(|(id,)| id)
            .collect())
    }

    /// Claims for this process, until `until`, the games where the
    /// computer's turn began before `due_before` and that no other process
    /// holds at `now` (all Unix milliseconds), oldest first (at most
    /// 1000); their ids.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn claim_computer_turns(
        &self,
        now: i64,
        due_before: i64,
        until: i64,
    ) -> Result<Vec<String>, StoreError> {
        let args = [("until", until.into()), ("before", due_before.into()), ("now", now.into())];
        Ok(self
            .written::<(String,)>(&CLAIM_COMPUTER_TURNS, &args)
            .await?
            .into_iter()
            .map(|(id,)| id)
            .collect())
    }

    /// Clears game `id`'s mark of a computer's turn if it is still at
    /// `version` (a person is to move there: the mark was set for every
    /// game with computer seats when the marks began).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn not_computer_turn(&self, id: &str, version: i64) -> Result<(), StoreError> {
        self.execute(&NOT_COMPUTER_TURN, &[("id", id.into()), ("version", version.into())]).await?;
        Ok(())
    }

    /// Removes idempotency records older than `before` (Unix
    /// milliseconds): how many.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn forget_keys(&self, before: i64) -> Result<u64, StoreError> {
        self.execute(&FORGET_KEYS, &[("before", before.into())]).await
    }

    /// Up to `limit` games, not over and not abandoned, unchanged since
    /// `before` (Unix milliseconds), the longest idle first.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn idle_games(&self, before: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let args = [("before", before.into()), ("limit", limit.into())];
        Ok(self.rows::<(String,)>(&IDLE, &args).await?.into_iter().map(|(id,)| id).collect())
    }
}
