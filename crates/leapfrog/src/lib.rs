//! Leap Frog and kindred jump-capture games: the `leapfrog` command line
//! and REST service.
//!
//! The rules live in the `jump-capture` crate. This crate has, from the
//! outside in:
//!
//! - `cli`: the command line; `config`: the server's settings;
//!   `startup`: building and running the server; `telemetry`: logs.
//! - `api`: the HTTP API — handlers that translate requests and answers;
//!   `page`: the web page at `/` (sources in `web/`).
//! - `wire`: the JSON forms of rules, positions, moves, games and results.
//! - `game`: the game core — a game, its seats and the rules of §11 as pure
//!   functions (`Game::apply` of a command at a given time) — with no
//!   store, clock, HTTP or JSON.
//! - `games`: the games service, the one place a game changes: load, apply,
//!   commit against the version read, tell the hub and the computer;
//!   `reading`: the reads of games it shares with the hub.
//! - `store`: the database (SQLite or PostgreSQL) in its own stored forms;
//!   `events`: the fan-out of each game's changes to its live streams;
//!   `limits`: per-client rate limits.
//! - `accounts`: accounts and personal access tokens; `rating`: Glicko-2;
//!   `record`: game records (§14).
//! - `thinking`: the threads the computer thinks on; `computer`: the seats
//!   it plays; `clock`: the move time limit.

pub mod accounts;
pub mod api;
pub mod cli;
pub mod clock;
pub mod computer;
pub mod config;
pub mod events;
pub mod game;
pub mod games;
pub mod limits;
pub mod meter;
pub mod names;
pub mod page;
pub mod rating;
pub mod reading;
pub mod record;
pub mod request_log;
pub mod startup;
pub mod stopping;
pub mod store;
pub mod telemetry;
pub mod thinking;
pub mod wire;
pub mod work;
