//! The process is stopping: what each part does about it.
//!
//! On SIGTERM or SIGINT the server stops accepting connections and tells
//! the parts through a [`Stopping`]: answers say `Connection: close` (a
//! kept-alive connection takes no second request), `/readyz` says 503,
//! event streams end with an SSE `retry:` hint (their clients reconnect,
//! through the proxy to another process, with `Last-Event-ID`), and a new
//! stream is refused with 503 and `Retry-After`. Requests in flight finish;
//! then the process exits.

use std::sync::Arc;

use tokio::sync::watch;

/// Milliseconds an event stream's client is told to wait before it
/// reconnects when the process stops.
pub const RECONNECT_MS: u64 = 500;

/// Whether the process is stopping; clones share it.
#[derive(Debug, Clone)]
pub struct Stopping(Arc<watch::Sender<bool>>);

impl Default for Stopping {
    fn default() -> Self {
        Stopping(Arc::new(watch::channel(false).0))
    }
}

impl Stopping {
    /// The process is stopping from now on.
    pub fn begin(&self) {
        self.0.send_replace(true);
    }

    /// Whether it is stopping.
    pub fn is_stopping(&self) -> bool {
        *self.0.borrow()
    }

    /// A watch that [`Watch::stopped`] resolves once the process stops.
    pub fn watch(&self) -> Watch {
        Watch(self.0.subscribe())
    }
}

/// One waiter for the stop (an event stream's).
#[derive(Debug)]
pub struct Watch(watch::Receiver<bool>);

impl Watch {
    /// Resolves once the process is stopping (at once if it is).
    pub async fn stopped(&mut self) {
        // An error means every sender is gone: nothing can stop it then.
        if self.0.wait_for(|stopping| *stopping).await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// The last bytes of an event stream when the process stops: a comment
/// and the reconnection time.
pub fn last_event() -> bytes::Bytes {
    bytes::Bytes::from(format!(
        ": this server is stopping; reconnect with Last-Event-ID\nretry: {RECONNECT_MS}\n\n"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_watch_resolves_once_stopping_begins_and_at_once_after() {
        let stopping = Stopping::default();
        let mut watch = stopping.watch();
        assert!(!stopping.is_stopping());
        let waiting = tokio::time::timeout(std::time::Duration::from_millis(20), watch.stopped()).await;
        assert!(waiting.is_err(), "resolved before the stop");
        stopping.begin();
        assert!(stopping.is_stopping());
        watch.stopped().await;
        stopping.watch().stopped().await;
    }

    #[test]
    fn the_last_event_carries_a_retry_field() {
        let text = String::from_utf8(last_event().to_vec()).unwrap();
        assert!(text.ends_with(&format!("\nretry: {RECONNECT_MS}\n\n")), "{text}");
    }
}
