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
//! - [`events`]: each game's and each account's event log, the hub that
//!   hands new events to the streams of this process, the streams, and the
//!   webhooks' outbox and sender.
//! - [`compute`]: the budgets of a request's work in the engine and the
//!   thread pools it runs on.

pub mod accounts;
pub mod challenges;
pub mod compute;
pub mod events;
pub mod play;
pub mod vacations;
