//! Logging: `tracing` to stderr, filtered by `RUST_LOG` (default `info`),
//! as text for people or as one JSON object a line for log search.

use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Text for people (coloured on a terminal unless `NO_COLOR` is set).
    #[default]
    Text,
    /// One JSON object a line, with the request's span fields
    /// (`request_id`, `trace_id`, `http.route`, …) on each.
    Json,
}

/// Installs the subscriber once; later calls do nothing.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Text => {
            let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr())
                && std::env::var_os("NO_COLOR").is_none();
            builder.with_ansi(ansi).try_init()
        }
        LogFormat::Json => {
            builder.json().flatten_event(true).with_current_span(true).with_span_list(false).try_init()
        }
    };
}
