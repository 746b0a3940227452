//! The `conditional_moves` table (rule book §11): a seat's lines, kept for
//! the ply at which its opponent is to move; private to the seat.

use std::sync::LazyLock;

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
        match &lines {
            Some(lines) => {
                let args = [
                    ("game", game_id.into()),
                    ("player", player.into()),
                    ("ply", ply.into()),
                    ("lines", lines.into()),
                    ("at", at.into()),
                ];
                self.execute(&UPSERT, &args).await?
            }
            None => self.execute(&DELETE, &[("game", game_id.into()), ("player", player.into())]).await?,
        };
        Ok(())
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
        let row: Option<(i64, String)> =
            self.row(&READ, &[("game", game_id.into()), ("player", player.into())]).await?;
        let damaged =
            |e: serde_json::Error| StoreError::Damaged { what: "conditional moves", detail: e.to_string() };
        row.map(|(ply, json)| Ok((ply, serde_json::from_str(&json).map_err(damaged)?))).transpose()
    }
}
