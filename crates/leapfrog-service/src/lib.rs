//! The leapfrog service's concepts, each in its own module, over the store
//! (`leapfrog-store`) and the game core (`leapfrog-core`); nothing here
//! knows of HTTP.
//!
//! - [`play`]: the games service, the one place a game changes, its
//!   queries, and what drives it: the move clock and the computer's seats.
//! - [`accounts`]: accounts, tokens and Glicko-2 ratings.
//! - [`challenges`]: challenges sent, accepted, declined, canceled; the
//!   last acceptance has the games service deal the game.
//! - [`vacations`]: vacations started and ended, and the absences the
//!   games service asks of them (rule book §11).
//! - [`webhooks`]: an account's endpoints, and its log's events sent to
//!   them (outbox, sender, address filter).
//! - [`events`]: each game's and each account's event log, the hub that
//!   hands new events to the streams of this process, and the streams.
//! - [`compute`]: where a request's work in the engine runs: the thread
//!   pools.
//! - [`tournaments`]: events of rounds that accounts join; each round
//!   paired by the core as the last game of the one before ends.

pub mod accounts;
pub mod challenges;
pub mod compute;
pub mod events;
pub mod play;
pub mod tournaments;
pub mod vacations;
pub mod webhooks;
