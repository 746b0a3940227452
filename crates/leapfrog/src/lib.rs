//! Leap Frog and kindred jump-capture games: the `leapfrog` command line
//! and REST service. `docs/architecture.md` walks through it.
//!
//! The rules live in the `jump-capture` crate. This crate has, from the
//! outside in (each layer uses only those below it):
//!
//! - `server`: the command line, settings, startup and stopping, logs,
//!   request logs and the page at `/`.
//! - `api`: the HTTP API — handlers that translate requests and answers —
//!   and its per-client rate limits.
//! - `play`: the games service, the one place a game changes (load,
//!   apply, commit with its events, tell), its queries, and what drives
//!   it: the move clock and the computer's seats. `accounts`: accounts,
//!   tokens and Glicko-2 ratings.
//! - `events`: each game's event log — the core's changes encoded once,
//!   the hub that hands new events to the streams of this process, one
//!   follower's stream.
//! - `wire`: the JSON forms of rules, positions, moves, games and events;
//!   `record`: game records (§14).
//! - `compute`: the budgets of a request's work in the engine and the
//!   thread pools it runs on.
//! - `store`: the database (SQLite or PostgreSQL) in its own stored forms.
//! - `process`: metrics and the stop signal, shared by every layer.
//! - `game`: the game core — a game, its seats and the rules of §11 as
//!   pure functions (`Game::apply` of a command at a given time); `names`:
//!   the checks of names people and rule sets give.

pub mod accounts;
pub mod api;
pub mod compute;
pub mod events;
pub mod game;
pub mod names;
pub mod play;
pub mod process;
pub mod record;
pub mod server;
pub mod store;
pub mod wire;
