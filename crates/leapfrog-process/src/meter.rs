//! Prometheus metrics: their names, and the recorder that serves them.
//!
//! Counters and histograms are recorded where things happen, through the
//! `metrics` macros and the names below; gauges of state (streams open,
//! connections, games by status) are read when `/metrics` is scraped. Every
//! label has a bounded set of values: route templates, never paths or ids.

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Requests answered, by `method`, `route` (its template) and `status`.
pub const REQUESTS: &str = "leapfrog_http_requests_total";
/// Time to answer a request (to its headers, for a stream), by `method` and
/// `route`.
pub const REQUEST_SECONDS: &str = "leapfrog_http_request_duration_seconds";
/// Moves stored, `by` a person or the computer.
pub const MOVES: &str = "leapfrog_moves_total";
/// Games stored, by `status` (read at each scrape).
pub const GAMES: &str = "leapfrog_games";
/// Event streams open on this process.
pub const STREAMS: &str = "leapfrog_event_streams_open";
/// Jobs waiting for a thread, by `pool` (`play`, `think`, `password`).
pub const THINK_QUEUED: &str = "leapfrog_thinking_queued";
/// Time a job waited for a thread, by `pool`.
pub const THINK_WAIT: &str = "leapfrog_thinking_wait_seconds";
/// Time the computer took to choose a move.
pub const COMPUTER_MOVE: &str = "leapfrog_computer_move_seconds";
/// Database connections open, by `state` (`in_use`, `idle`).
pub const DB_CONNECTIONS: &str = "leapfrog_db_connections";
/// The most database connections the process keeps.
pub const DB_CONNECTIONS_MAX: &str = "leapfrog_db_connections_max";
/// Time a statement waited for a database connection.
pub const DB_WAIT: &str = "leapfrog_db_acquire_seconds";
/// Requests refused by a limit, by `limit`.
pub const REFUSALS: &str = "leapfrog_refusals_total";
/// Sign-ins (tokens asked for with a password), by `outcome` (`ok`,
/// `wrong`, `busy`, `failed`).
pub const SIGN_INS: &str = "leapfrog_sign_ins_total";

/// Bucket bounds of every `_seconds` histogram: half a millisecond to ten
/// seconds.
const BUCKETS: [f64; 14] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// How often histograms are folded in (the exporter's own upkeep).
pub const UPKEEP: Duration = Duration::from_secs(5);

/// The recorder's handle, installed as the process's recorder on first
/// use (every server of a process shares it).
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new();
        // Only a NaN or an empty list is refused; the constant is neither.
        let builder = builder
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
            .unwrap_or_else(|e| {
                tracing::warn!(error = %e, "metrics: histogram buckets refused; summaries instead");
                PrometheusBuilder::new()
            });
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if let Err(e) = metrics::set_global_recorder(recorder) {
            tracing::warn!(error = %e, "metrics: another recorder is installed; /metrics shows only gauges");
        }
        describe();
        handle
    })
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(REQUESTS, "Requests answered, by method, route template and status.");
    describe_histogram!(
        REQUEST_SECONDS,
        Unit::Seconds,
        "Time to answer a request (to its headers for a stream)."
    );
    describe_counter!(MOVES, "Moves stored, by a person or the computer.");
    describe_gauge!(GAMES, "Games stored, by status.");
    describe_gauge!(STREAMS, "Event streams open on this process.");
    describe_gauge!(THINK_QUEUED, "Jobs waiting for a thread, by pool.");
    describe_histogram!(THINK_WAIT, Unit::Seconds, "Time a job waited for a thread, by pool.");
    describe_histogram!(COMPUTER_MOVE, Unit::Seconds, "Time the computer took to choose a move.");
    describe_gauge!(DB_CONNECTIONS, "Database connections open, by state (in_use, idle).");
    describe_gauge!(DB_CONNECTIONS_MAX, "The most database connections the process keeps.");
    describe_histogram!(DB_WAIT, Unit::Seconds, "Time a statement waited for a database connection.");
    describe_counter!(REFUSALS, "Requests refused by a limit, by limit.");
    describe_counter!(SIGN_INS, "Sign-ins with a password, by outcome.");
}

/// Counts a refusal by `limit` (a fixed name such as `rate_move`).
pub fn refused(limit: &'static str) {
    metrics::counter!(REFUSALS, "limit" => limit).increment(1);
}

/// A request method (as HTTP spells it) as a label: the standard ones, or
/// `other`, so that a client cannot grow the label set.
pub fn method_label(method: &str) -> &'static str {
    match method {
        "GET" => "GET",
        "POST" => "POST",
        "HEAD" => "HEAD",
        "OPTIONS" => "OPTIONS",
        "PUT" => "PUT",
        "DELETE" => "DELETE",
        "PATCH" => "PATCH",
        _ => "other",
    }
}

/// Folds histogram samples in every [`UPKEEP`], for as long as the process
/// runs.
pub async fn upkeep() {
    let mut every = tokio::time::interval(UPKEEP);
    loop {
        every.tick().await;
        handle().run_upkeep();
    }
}
