//! The move time limit (rule book §11): a person's seat that has not moved
//! within the game's limit is resigned by the server.
//!
//! Every second, each process asks the database for the games whose seat
//! to move is out of time and has the games service resign it, only if
//! the game is still at the version it read: with several processes on
//! one database each time-out is applied exactly once, and after a
//! restart the first tick applies every time-out that fell due while the
//! server was down.

use std::time::Duration;

use crate::play::GameError;
use crate::play::{Games, now_ms};

/// How often the clock looks: a time-out is applied at most this late.
pub const TICK: Duration = Duration::from_secs(1);

/// Applies every time-out due at `now`; returns how many it applied.
///
/// # Errors
///
/// On a database failure.
pub async fn apply_time_outs(games: &Games, now: i64) -> Result<usize, GameError> {
    let mut applied = 0;
    for id in games.out_of_time(now).await? {
        if let Some(game) = games.time_out(&id, now).await? {
            tracing::info!(game = %id, player = game.position().to_move(), "a seat ran out of time");
            applied += 1;
        }
    }
    Ok(applied)
}

/// Applies time-outs every [`TICK`] for as long as the process runs.
pub async fn run(games: Games) {
    let mut every = tokio::time::interval(TICK);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(e) = apply_time_outs(&games, now_ms()).await {
            tracing::warn!(error = %e, "applying time-outs failed; the clock tries again");
        }
    }
}
