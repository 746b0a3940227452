//! A move's commit — the game's new state checked against the version it
//! was computed from, its events and the idempotency key's record (the
//! `move_keys` table), together or not at all — and the history.
//!
//! A game's history is the `move` events of its log: each holds its move's
//! record. The `moves` table holds the moves of games stored before the
//! log; a game's log, once made from them, holds those too, so a game is
//! read from its log whenever it has one.

use std::sync::LazyLock;

use super::account_events::AccountEvent;
use super::batch::MoveWrite;
use super::rows::{Commit, EventRow, GameRow, KeyRecord, MoveRow};
use super::sql::Statement;
use super::{Store, StoreError};

/// The moves of a game stored before the log, while it has none.
static MOVES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT ply, player, notation, captures, gain, at, computer, kinds FROM moves \
         WHERE game_id = :game AND ply >= :from ORDER BY ply",
    )
});
/// The `move` events of a game's log.
static LOGGED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new("SELECT data, at FROM game_events WHERE game_id = :game AND kind = 'move' ORDER BY seq")
});
/// The length of a game's log: NULL while it has none.
static HAS_LOG: LazyLock<Statement> =
    LazyLock::new(|| Statement::new("SELECT events FROM games WHERE id = :game"));

static KEY_RECORD: LazyLock<Statement> = LazyLock::new(|| {
    Statement::new(
        "SELECT ply, version, request, created_at FROM move_keys \
         WHERE game_id = :game AND player = :player AND key = :key",
    )
});

/// What a `move` event's data says of its move (the rest, the game after
/// it, is not read).
#[derive(serde::Deserialize)]
struct Logged {
    ply: i64,
    player: i64,
    notation: String,
    captures: Vec<String>,
    kinds: Vec<String>,
    gain: i64,
    computer: bool,
}

impl Logged {
    /// The move's row; `at` is its event's time, the move's own.
    fn into_row(self, at: i64) -> Result<MoveRow, StoreError> {
        // A move made from a row without kinds keeps not knowing them (`?`).
        let kinds = (self.kinds.len() == self.captures.len()).then(|| self.kinds.concat());
        Ok(MoveRow {
            ply: self.ply,
            player: self.player,
            notation: self.notation,
            captures: serde_json::to_string(&self.captures)?,
            gain: self.gain,
            at,
            computer: i64::from(self.computer),
            kinds,
        })
    }
}

impl Store {
    /// The moves of a game with ply at least `from`, in order.
    ///
    /// # Errors
    ///
    /// On a database failure.
    pub async fn moves(&self, id: &str, from: i64) -> Result<Vec<MoveRow>, StoreError> {
        let game: &[_] = &[("game", id.into())];
        let logged: Vec<(String, i64)> = self.rows(&LOGGED, game).await?;
        if logged.is_empty() {
            // No move in the log: none at all, or a game without a log yet.
            let log: Option<(Option<i64>,)> = self.row(&HAS_LOG, game).await?;
            if log.and_then(|(events,)| events).is_none() {
                return self.rows(&MOVES, &[("game", id.into()), ("from", from.into())]).await;
            }
        }
        let mut moves = Vec::with_capacity(logged.len());
        for (data, at) in logged {
            let event: Logged = serde_json::from_str(&data)
                .map_err(|e| StoreError::Damaged { what: "move event", detail: format!("game {id}: {e}") })?;
            if event.ply >= from {
                moves.push(event.into_row(at)?);
            }
        }
        Ok(moves)
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
        let args = [("game", id.into()), ("player", player.into()), ("key", key.into())];
        let row: Option<(i64, i64, String, i64)> = self.row(&KEY_RECORD, &args).await?;
        Ok(row.map(|(ply, version, request, created_at)| KeyRecord {
            key: key.to_string(),
            ply,
            version,
            request,
            created_at,
        }))
    }

    /// Commits a move computed from the game at `version`: the game's new
    /// state, its events (the move's — its record, which is how the move
    /// is kept — and the end if it ended the game) and the idempotency
    /// key's record, together or not at all, with the next group commit.
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
