//! Leap Frog and kindred jump-capture games: the `leapfrog` command line,
//! the service's startup and the page. `docs/architecture.md` walks
//! through the crates it is built from, each a layer:
//!
//! - `server` (here): the command line, settings, startup and stopping,
//!   logs, request logs, the page at `/` and the bot client.
//! - [`api`] (`leapfrog-http`): the HTTP API, its per-client limits and
//!   the OpenAPI document.
//! - [`play`], [`accounts`], [`challenges`], [`tournaments`],
//!   [`vacations`], [`webhooks`], [`events`], [`compute`]
//!   (`leapfrog-service`): the service's concepts.
//! - [`store`] (`leapfrog-store`): the database.
//! - [`wire`] (`leapfrog-wire`): the JSON forms, records and the
//!   stateless operations.
//! - [`process`] (`leapfrog-process`): metrics and the stop signal.
//! - [`game`], [`names`], [`tournament`] (`leapfrog-core`): the game core.
//!
//! The layers are re-exported under their old module names, so that the
//! end-to-end tests and benchmarks name them as one product.

pub use leapfrog_core::{game, names, tournament};
pub use leapfrog_http as api;
pub use leapfrog_process as process;
pub use leapfrog_service::{accounts, challenges, compute, events, play, tournaments, vacations, webhooks};
pub use leapfrog_store as store;
pub use leapfrog_wire as wire;

pub mod server;
