//! Leap Frog and kindred jump-capture games: the `leapfrog` command line
//! and REST service.
//!
//! The rules live in the `jump-capture` crate; this crate translates: the
//! command line (`cli`), the HTTP API (`api`), server start-up (`startup`),
//! storage of games (`store`) and live updates (`events`).

pub mod api;
pub mod cli;
pub mod config;
pub mod events;
pub mod startup;
pub mod store;
pub mod telemetry;
