//! Live updates: which games just changed, within a process and (with
//! PostgreSQL `LISTEN`/`NOTIFY`) across processes. A notification carries
//! only the game id; subscribers read the moves themselves from the
//! database, so nothing is lost or sent twice whatever the timing.

use std::time::Duration;

use tokio::sync::broadcast;

/// The channel PostgreSQL notifications go on.
pub const CHANNEL: &str = "leapfrog_moves";

/// The in-process fan-out of "game X changed".
#[derive(Debug, Clone)]
pub struct Hub {
    tx: broadcast::Sender<String>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub { tx: broadcast::channel(1024).0 }
    }
}

impl Hub {
    /// Wakes the subscribers of `game`.
    pub fn notify(&self, game: &str) {
        let _ = self.tx.send(game.to_string());
    }

    /// A receiver of every notification.
    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.tx.subscribe()
    }
}

/// Forwards PostgreSQL notifications into `hub` for as long as the process
/// runs, reconnecting after failures.
pub async fn forward_postgres(url: String, hub: Hub) {
    loop {
        match sqlx::postgres::PgListener::connect(&url).await {
            Ok(mut listener) => {
                if let Err(e) = listener.listen(CHANNEL).await {
                    tracing::warn!(error = %e, "LISTEN failed; retrying");
                } else {
                    tracing::info!(channel = CHANNEL, "listening for moves made by other processes");
                    loop {
                        match listener.recv().await {
                            Ok(n) => hub.notify(n.payload()),
                            Err(e) => {
                                tracing::warn!(error = %e, "notification listener lost its connection");
                                break;
                            }
                        }
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot connect the notification listener; retrying"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
