//! The process around the API: the command line (`cli`) and settings
//! (`config`), starting and stopping the server (`startup`) with the
//! service's concepts and their background tasks (`services`), logs
//! (`telemetry`, `request_log`) and the page at `/` (`page`, sources in
//! `web/`). Its metrics and stop signal are in `process`, below every
//! layer that uses them; per-client rate limits are the API's
//! (`api::limits`).

pub mod cli;
pub mod config;
pub mod page;
pub mod request_log;
pub mod services;
pub mod startup;
pub mod telemetry;
