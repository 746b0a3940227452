//! The move time limit (rule book §11): a person's seat that has not moved
//! within the game's limit is resigned by the server — unless, in a long
//! game, its owner's vacation moves the deadline (`vacation`).
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
            tracing::info!(game = %id, turn_ends_at = ?game.turn_ends_at(), "a seat reached its deadline");
            applied += 1;
        }
    }
    Ok(applied)
}

/// How often a process says it is alive.
pub const BEAT: Duration = Duration::from_secs(2);
/// A silence longer than this (no process alive) is an outage.
const GRACE_MS: i64 = 3_000;

/// Moves every running move clock on by an outage that ended at `now`,
/// before the clock times anyone out: the server's own outages cost no one
/// time (rule book §11). Once in a fleet.
///
/// # Errors
///
/// On a database failure.
pub async fn after_outage(games: &Games, now: i64) -> Result<Option<i64>, GameError> {
    let moved = games.store().move_clocks_past_outage(now, GRACE_MS).await?;
    if let Some(outage) = moved {
        tracing::info!(
            outage_ms = outage,
            "no server ran for a while: every running move clock moves on by it"
        );
    }
    Ok(moved)
}

/// Says this process is alive every [`BEAT`], for as long as it runs.
pub async fn beat(games: Games) {
    let mut every = tokio::time::interval(BEAT);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(e) = games.store().beat(now_ms()).await {
            tracing::warn!(error = %e, "saying this process is alive failed; it tries again");
        }
    }
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
