//! The `seats` table: who holds each seat of a game, by the hash of its
//! token, and the hashes of invitations and rematch claims.

use std::sync::LazyLock;

use sqlx::Row;

use super::games::GAME_COLUMNS;
use super::rows::GameRow;
use super::sql::{Execute, Statement};
use super::{Store, StoreError};

static TOKEN_HASHES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("SELECT player, token_hash FROM seats WHERE game_id = :game ORDER BY player")
});
static INVITATIONS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("SELECT player, invite_hash FROM seats WHERE game_id = :game AND invite_hash IS NOT NULL")
});
static CLAIMED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("SELECT player FROM seats WHERE game_id = :game AND claim_hash = :claim")
});
static CLAIM: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("UPDATE seats SET token_hash = :token_hash WHERE game_id = :game AND player = :player")
});
static GAME_AND_SEAT: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(&format!(
        "SELECT {}, (SELECT player FROM seats WHERE seats.game_id = games.id AND token_hash = :token_hash) \
         AS seat FROM games WHERE id = :game",
        GAME_COLUMNS.join(", ")
    ))
});

/// A game with the seat a token holds in it.
#[derive(sqlx::FromRow)]
struct GameAndSeat {
    #[sqlx(flatten)]
    game: GameRow,
    seat: Option<i64>,
}

impl Store {
    /// Each seat's token hash of game `id`, by player.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn token_hashes(&self, id: &str) -> Result<Vec<(i64, String)>, StoreError> {
        self.rows(&TOKEN_HASHES, &[("game", id.into())]).await
    }

    /// The invitation hashes of game `id`'s private seats, by player.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn invitations(&self, id: &str) -> Result<Vec<(i64, String)>, StoreError> {
        self.rows(&INVITATIONS, &[("game", id.into())]).await
    }

    /// Gives the seat of game `id` that `claim_hash` claims the token hash
    /// `token_hash`; returns the seat, or `None` when no seat is claimed
    /// by it. Claiming again replaces the token hash given before.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn claim_seat(
        &self,
        id: &str,
        claim_hash: &str,
        token_hash: &str,
    ) -> Result<Option<i64>, StoreError> {
        let (id, claim_hash, token_hash) = (id.to_string(), claim_hash.to_string(), token_hash.to_string());
        self.transaction(move |_, tx| {
            Box::pin(async move {
                let seat = CLAIMED
                    .query(&[("game", (&id).into()), ("claim", (&claim_hash).into())])?
                    .fetch_optional(&mut **tx)
                    .await?;
                let Some(seat) = seat else { return Ok(None) };
                let player: i64 = seat.try_get(0)?;
                let args =
                    [("game", (&id).into()), ("player", player.into()), ("token_hash", (&token_hash).into())];
                tx.execute(&CLAIM, &args).await?;
                Ok(Some(player))
            })
        })
        .await
    }

    /// Gives seat `player` of game `id` the token hash `token_hash` (the
    /// one before stops working).
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn set_seat_token(&self, id: &str, player: i64, token_hash: &str) -> Result<(), StoreError> {
        self.execute(
            &CLAIM,
            &[("game", id.into()), ("player", player.into()), ("token_hash", token_hash.into())],
        )
        .await?;
        Ok(())
    }

    /// One game, with the player whose seat has this token hash (if any),
    /// in one query.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn game_and_seat(
        &self,
        id: &str,
        token_hash: &str,
    ) -> Result<Option<(GameRow, Option<i64>)>, StoreError> {
        let row: Option<GameAndSeat> =
            self.row(&GAME_AND_SEAT, &[("game", id.into()), ("token_hash", token_hash.into())]).await?;
        Ok(row.map(|r| (r.game, r.seat)))
    }
}
