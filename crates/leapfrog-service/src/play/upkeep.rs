//! What the server does of itself, through the service like any change:
//! the sweep (old idempotency records forgotten, idle games marked
//! abandoned, each an `abandoned` event), the computer's claims of its
//! turns, the clock's scan for seats out of time.

use super::{GameError, Games};

/// Most games one sweep marks abandoned (the rest wait for the next).
pub const SWEEP_GAMES: i64 = 1_000;

/// What a sweep removed or marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SweepReport {
    /// Idempotency records past their time.
    pub keys: u64,
    /// Games newly marked abandoned.
    pub abandoned: u64,
}

impl Games {
    /// Forgets idempotency records older than `keys_before` and marks the
    /// games unchanged since `idle_before` (and not over) abandoned at
    /// `now`, each as a change of its own (a new version, an `abandoned`
    /// event); at most [`SWEEP_GAMES`] games a sweep.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn sweep(
        &self,
        now: i64,
        keys_before: i64,
        idle_before: i64,
    ) -> Result<SweepReport, GameError> {
        let keys = self.store.forget_keys(keys_before).await?;
        let mut abandoned = 0;
        for id in self.store.idle_games(idle_before, SWEEP_GAMES).await? {
            match self.abandon(&id, idle_before, now).await {
                Ok(marked) => abandoned += u64::from(marked.is_some()),
                // A move came first; the next sweep looks again.
                Err(GameError::Conflict) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(SweepReport { keys, abandoned })
    }

    /// Claims, until `until`, the games where the computer's turn began
    /// before `before` and no process holds a claim at `now`: their ids.
    /// A claim changes nothing of a game (its version stays): it only
    /// says which process thinks for it.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn claim_computer_turns(
        &self,
        now: i64,
        before: i64,
        until: i64,
    ) -> Result<Vec<String>, GameError> {
        Ok(self.store.claim_computer_turns(now, before, until).await?)
    }

    /// Clears the mark of a computer's turn on game `id`, found at
    /// `version` with a person to move (nothing when it moved since).
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn not_computer_turn(&self, id: &str, version: i64) -> Result<(), GameError> {
        Ok(self.store.not_computer_turn(id, version).await?)
    }

    /// The games whose seat to move is out of time at `now` (at most a
    /// thousand, the longest waiting first), for the clock to time out.
    ///
    /// # Errors
    ///
    /// Store failures.
    pub async fn out_of_time(&self, now: i64) -> Result<Vec<String>, GameError> {
        Ok(self.store.games_out_of_time(now).await?)
    }
}
