//! The `moves` and `move_keys` tables: a move's commit — its row, the
//! game's new state checked against the version it was computed from,
//! and the idempotency key's record, together or not at all — and the
//! history.

use std::sync::LazyLock;

use sqlx::Row;

use super::account_events::AccountEvent;
use super::batch::MoveWrite;
use super::rows::{Commit, EventRow, GameRow, KeyRecord, MoveRow};
use super::sql::Statement;
use super::{Store, StoreError};

static MOVES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT ply, player, notation, captures, gain, at, computer, kinds FROM moves \
         WHERE game_id = :game AND ply >= :from ORDER BY ply",
    )
});
static KEY_RECORD: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT ply, version, request, created_at FROM move_keys \
         WHERE game_id = :game AND player = :player AND key = :key",
    )
});

impl Store {
    /// The moves of a game with ply at least `from`, in order.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn moves(&self, id: &str, from: i64) -> Result<Vec<MoveRow>, StoreError> {
        let id = id.to_string();
        self.on_db(move |s| async move {
            let rows = MOVES
                .query(&[("game", (&id).into()), ("from", from.into())])?
                .fetch_all(&mut *s.read().await?)
                .await?;
            Ok(rows.iter().map(sqlx::FromRow::from_row).collect::<Result<_, _>>()?)
        })
        .await
    }

    /// What an earlier request of `player` with this idempotency key made.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn key_record(
        &self,
        id: &str,
        player: i64,
        key: &str,
    ) -> Result<Option<KeyRecord>, StoreError> {
        let (game, owned_key) = (id.to_string(), key.to_string());
        let row = self
            .on_db(move |s| async move {
                Ok(KEY_RECORD
                    .query(&[
                        ("game", (&game).into()),
                        ("player", player.into()),
                        ("key", (&owned_key).into()),
                    ])?
                    .fetch_optional(&mut *s.read().await?)
                    .await?)
            })
            .await?;
        Ok(row
            .map(|r| {
                Ok::<_, sqlx::Error>(KeyRecord {
                    key: key.to_string(),
                    ply: r.try_get(0)?,
                    version: r.try_get(1)?,
                    request: r.try_get(2)?,
                    created_at: r.try_get(3)?,
                })
            })
            .transpose()?)
    }

    /// Commits a move computed from the game at `version`: the move row,
    /// the game's new state, its events (the move, and the end if it ended
    /// the game) and the idempotency key's record, together or not at all,
    /// with the next group commit.
    ///
    /// # Errors
    ///
    /// On a database failure; a lost race is `Ok(Commit::Conflict)`.
    pub async fn commit_move(
        &self,
        game: &GameRow,
        version: i64,
        mv: &MoveRow,
        key: Option<&KeyRecord>,
        events: &[EventRow],
        accounts: &[AccountEvent],
    ) -> Result<Commit, StoreError> {
        let write = MoveWrite {
            game: game.clone(),
            version,
            mv: mv.clone(),
            key: key.cloned(),
            events: events.to_vec(),
            accounts: accounts.to_vec(),
        };
        self.group.commit(write).await
    }
}
