//! The `conditional_moves` table (rule book §11): a seat's lines, kept for
//! the ply at which its opponent is to move; private to the seat.

use std::sync::LazyLock;

use sqlx::Row;

use super::sql::Statement;
use super::{Store, StoreError};

static UPSERT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "INSERT INTO conditional_moves (game_id, player, ply, lines, updated_at) \
         VALUES (:game, :player, :ply, :lines, :at) \
         ON CONFLICT (game_id, player) DO UPDATE SET ply = :ply, lines = :lines, updated_at = :at",
    )
});
static READ: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("SELECT ply, lines FROM conditional_moves WHERE game_id = :game AND player = :player")
});
static DELETE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("DELETE FROM conditional_moves WHERE game_id = :game AND player = :player")
});

impl Store {
    /// Keeps `lines` (each a list of moves in notation) for seat `player`
    /// of game `game_id`, standing for ply `ply`; no lines delete them.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn set_conditional_moves(
        &self,
        game_id: &str,
        player: i64,
        ply: i64,
        lines: &[Vec<String>],
        at: i64,
    ) -> Result<(), StoreError> {
        let lines = (!lines.is_empty()).then(|| serde_json::to_string(lines)).transpose()?;
        let game = game_id.to_string();
        self.on_db(move |s| async move {
            let mut conn = s.write().await?;
            match &lines {
                Some(lines) => {
                    UPSERT
                        .query(&[
                            ("game", (&game).into()),
                            ("player", player.into()),
                            ("ply", ply.into()),
                            ("lines", lines.into()),
                            ("at", at.into()),
                        ])?
                        .execute(&mut *conn)
                        .await?
                }
                None => {
                    DELETE
                        .query(&[("game", (&game).into()), ("player", player.into())])?
                        .execute(&mut *conn)
                        .await?
                }
            };
            Ok(())
        })
        .await
    }

    /// Seat `player`'s lines in game `game_id`: the ply they stand for and
    /// the lines.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn conditional_moves(
        &self,
        game_id: &str,
        player: i64,
    ) -> Result<Option<(i64, Vec<Vec<String>>)>, StoreError> {
        let game = game_id.to_string();
        let row: Option<(i64, String)> = self
            .on_db(move |s| async move {
                let row = READ
                    .query(&[("game", (&game).into()), ("player", player.into())])?
                    .fetch_optional(&mut *s.read().await?)
                    .await?;
                Ok(row.map(|r| Ok::<_, sqlx::Error>((r.try_get(0)?, r.try_get(1)?))).transpose()?)
            })
            .await?;
        let damaged =
            |e: serde_json::Error| StoreError::Damaged { what: "conditional moves", detail: e.to_string() };
        row.map(|(ply, json)| Ok((ply, serde_json::from_str(&json).map_err(damaged)?))).transpose()
    }
}
