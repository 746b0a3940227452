//! End-to-end tests of the `leapfrog` service and command line, in one
//! binary (one link of the whole service, not one per file): the real
//! server on a random port with a fresh database, driven over HTTP.
//!
//! - `accounts`: accounts and tokens; `ratings`: rated games and ratings; `api`: the stateless endpoints; `browser`: the web page, in Chromium; `computer`: analyses and computer
//!   seats; `abuse`: races, retries, floods and
//!   stream limits; `games`: persisted games on SQLite and
//!   PostgreSQL; `lobby`: open seats, joins, resignations and time limits;
//!   `domain`: the game domain without HTTP; `local`: the stateless API
//!   in-process, as the bindings call it; `packages`: the npm package built
//!   and tested in Node; `store`: the
//!   store's transactions on both databases; `tournaments`: events,
//!   their pairings and standings;
//!   `bad_input`: mutated requests to every endpoint that takes a body;
//!   `process`: `leapfrog serve` as a process, and how it stops; `metrics`: `/metrics` and a real Prometheus; `fleet`: three processes behind nginx (`deploy/`); `records`: game records; `engine`: the rules crate
//!   through its public API; `engine_protocol`: `leapfrog engine` and other
//!   programs as players of `leapfrog arena` and `leapfrog bot`; `generated_client`: clients generated from the
//!   committed spec.
//! - `common`: `spawn_app`, a small HTTP client, and a throwaway
//!   PostgreSQL cluster (`common::pg`).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod abuse;
mod account_events;
mod accounts;
mod api;
mod architecture;
mod backup;
mod bad_input;
mod bots;
mod bounded;
mod browser;
mod caps;
mod challenges;
mod common;
mod computer;
mod conditional;
mod custom_rules;
mod domain;
mod engine;
mod engine_protocol;
mod events;
mod fleet;
mod games;
mod generated_client;
mod hot;
mod lobby;
mod local;
mod metrics;
mod new_games;
mod other_boards;
mod outages;
mod ownership;
mod packages;
mod process;
mod ratings;
mod records;
mod request_log;
mod sign_in;
mod store;
mod tournaments;
mod vacation;
mod walls;
mod webhooks;
