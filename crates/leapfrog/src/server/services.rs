//! The service's concepts started for a server: the event hub, the games
//! service with its clock, computer and sweep, the webhooks' outbox, the
//! accounts — and the background tasks that drive them — gathered into
//! the state every handler shares.

use std::sync::Arc;

use actix_web::rt::task::JoinHandle;
use leapfrog_http::limits::{Limiter, Slots};
use leapfrog_http::state::AppState;
use leapfrog_process::stopping::Stopping;
use leapfrog_service::compute::pools::{Share, Thinkers};
use leapfrog_service::events::{Hub, StreamLimits};
use leapfrog_service::play::computer::Computer;
use leapfrog_service::play::{Games, move_clock};
use leapfrog_service::tournaments::{TournamentLimits, Tournaments};
use leapfrog_service::vacations::{VacationBook, Vacations};
use leapfrog_service::webhooks::outbox::Outbox;
use leapfrog_service::webhooks::sender::Reach;
use leapfrog_store::{Backend, Store};

use crate::server::config::{LimitArgs, ServeConfig};
use crate::server::startup::StartupError;

/// What [`start`] started.
#[allow(missing_debug_implementations, reason = "the state's parts are not all Debug")]
pub struct Started {
    /// What the handlers share.
    pub state: AppState,
    /// The signal that the process is stopping.
    pub stopping: Stopping,
    /// The background tasks, to end when the server stops.
    pub background: Vec<JoinHandle<()>>,
}

/// Starts the service's concepts on `store` and their background tasks.
///
/// # Errors
///
/// When the clocks cannot be read, or the webhooks' sender or the
/// accounts cannot start.
pub async fn start(
    config: &ServeConfig,
    store: Store,
    metrics_bind: Option<std::net::SocketAddr>,
) -> Result<Started, StartupError> {
    let open_files = raise_open_files();
    let streams = stream_limits(&config.limits, open_files);
    tracing::info!(
        open_files,
        streams = streams.total,
        streams_per_game = streams.per_game,
        durability = ?config.database.durability,
        rate_limits = !config.limits.no_rate_limits,
        "limits"
    );
    let hub = Hub::new(store.clone(), streams);
    let stopping = hub.stopping().clone();
    let mut background = vec![
        actix_web::rt::spawn(give_back_memory(hub.clone())),
        actix_web::rt::spawn(leapfrog_process::meter::upkeep()),
    ];
    if store.backend() == Backend::Postgres {
        let listen = leapfrog_service::events::forward_postgres(store.url().to_string(), hub.clone());
        background.push(actix_web::rt::spawn(listen));
    }
    let thinkers =
        Thinkers::new(config.thinking.threads(), config.thinking.think_queue, config.thinking.think_wait);
    let book = VacationBook::new(store.clone(), config.vacation_days);
    let games = start_games(config, &store, &hub, &thinkers, &book, &mut background).await?;
    let reach = Reach { allow_private: config.webhook_allow_private };
    let outbox =
        Outbox::new(store.clone(), hub.clone(), reach).map_err(|e| StartupError::Webhooks(e.to_string()))?;
    background.push(actix_web::rt::spawn(outbox.run()));
    let accounts = start_accounts(config, &store).await?;
    let tournament_limits = TournamentLimits {
        max_players: config.limits.max_tournament_players.max(2),
        per_account: config.limits.max_tournaments_per_account,
        total: config.limits.max_tournaments,
    };
    let tournaments = Tournaments::new(games.clone(), tournament_limits);
    background.push(actix_web::rt::spawn(leapfrog_service::tournaments::run(tournaments.clone())));
    let state = AppState {
        challenges: leapfrog_service::challenges::Challenges::new(games.clone()),
        tournaments,
        vacations: Vacations::new(games.clone(), book),
        webhooks: leapfrog_service::webhooks::Webhooks::new(store.clone()),
        games,
        accounts,
        hub,
        limiter: Arc::new(Limiter::new(
            config.limits.rates(),
            config.limits.trusted_proxies.clone(),
            config.limits.grouping(),
        )),
        max_unfinished: config.limits.max_unfinished(),
        max_computer_games: config.limits.max_computer_games(),
        engine: leapfrog_service::compute::Engine::new(config.thinking.threads()),
        analyses_per_client: config.thinking.analyses_per_client.max(1),
        thinkers,
        exports: Arc::new(Slots::new(
            leapfrog_http::records::EXPORTS_PER_ACCOUNT,
            config.limits.max_exports.max(1),
        )),
        reach,
        metrics_bind,
    };
    Ok(Started { state, stopping, background })
}

/// The games service (asking `book` of absences), its computer, its clock
/// (an outage's time given back first) and its sweep.
async fn start_games(
    config: &ServeConfig,
    store: &Store,
    hub: &Hub,
    thinkers: &Thinkers,
    book: &VacationBook,
    background: &mut Vec<JoinHandle<()>>,
) -> Result<Games, StartupError> {
    let (games, wakes) = Games::new(store.clone(), hub.clone());
    let games = games.with_absences(Arc::new(book.clone()));
    let computer = Computer::new(games.clone(), thinkers.clone());
    background.push(actix_web::rt::spawn(computer.clone().listen(wakes)));
    background.push(actix_web::rt::spawn(computer.scan()));
    // An outage's time is given back before the clock times anyone out.
    move_clock::after_outage(&games, leapfrog_process::now_ms())
        .await
        .map_err(|e| StartupError::Clocks(e.to_string()))?;
    background.push(actix_web::rt::spawn(move_clock::beat(games.clone())));
    background.push(actix_web::rt::spawn(move_clock::run(games.clone())));
    background.push(actix_web::rt::spawn(sweep(games.clone(), config.limits.clone())));
    Ok(games)
}

/// The accounts service, with its password hasher; accounts made before
/// their names' looks were kept get them now.
async fn start_accounts(
    config: &ServeConfig,
    store: &Store,
) -> Result<leapfrog_service::accounts::Accounts, StartupError> {
    let hasher = leapfrog_service::accounts::Hasher::new(Share::percent(config.limits.password_share))
        .map_err(|e| StartupError::Accounts(e.to_string()))?;
    let filled = store
        .fill_account_looks(leapfrog_core::names::look)
        .await
        .map_err(|e| StartupError::Accounts(e.to_string()))?;
    if filled > 0 {
        tracing::info!(accounts = filled, "kept what older accounts' names look like");
    }
    Ok(leapfrog_service::accounts::Accounts::new(store.clone(), Arc::new(hasher)))
}

/// File descriptors kept back from event streams: the database's
/// connections, the listener, and room for other requests (`/healthz`
/// among them) when the streams are at their limit.
pub const RESERVED_FILES: u64 = 256;

/// Raises the open-file soft limit to the hard limit, and returns the
/// limit in force (`None` where the platform has none to read).
fn raise_open_files() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => Some(limit),
        Err(e) => {
            tracing::warn!(error = %e, "cannot read or raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).ok().map(|(soft, _)| soft)
        }
    }
}

/// The stream limits: as configured, within the open files less the
/// reserve.
fn stream_limits(limits: &LimitArgs, open_files: Option<u64>) -> StreamLimits {
    let room = open_files
        .map_or(usize::MAX, |n| usize::try_from(n.saturating_sub(RESERVED_FILES)).unwrap_or(usize::MAX));
    StreamLimits {
        total: limits.max_streams.min(room).max(1),
        per_game: limits.max_streams_per_game.max(1),
        per_client: if limits.no_rate_limits { 0 } else { limits.max_streams_per_client },
    }
}

/// Sweeps old idempotency keys and abandoned games every so often, for as
/// long as the process runs.
async fn sweep(games: Games, limits: LimitArgs) {
    let ms = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    let mut every = tokio::time::interval(limits.sweep_every.max(std::time::Duration::from_secs(1)));
    loop {
        every.tick().await;
        let now = leapfrog_service::play::now_ms();
        let keys_before = now.saturating_sub(ms(limits.idempotency_ttl));
        let idle_before = now.saturating_sub(ms(limits.abandon_after));
        match games.sweep(now, keys_before, idle_before).await {
            Ok(swept) if swept.keys > 0 || swept.abandoned > 0 => {
                tracing::info!(
                    keys = swept.keys,
                    abandoned = swept.abandoned,
                    "swept old idempotency keys and idle games"
                );
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "the sweep failed; it runs again later"),
        }
    }
}

/// Gives the memory of closed event streams back to the system once
/// enough of them have closed: glibc keeps freed pages in its per-thread
/// arenas otherwise (2,000 streams opened and closed three times left the
/// server at 68 MB instead of 15).
async fn give_back_memory(hub: Hub) {
    const EVERY: std::time::Duration = std::time::Duration::from_secs(5);
    const CLOSED: u64 = 256;
    let mut every = tokio::time::interval(EVERY);
    let mut trimmed_at = 0;
    loop {
        every.tick().await;
        let closed = hub.closed();
        if closed.saturating_sub(trimmed_at) >= CLOSED {
            trimmed_at = closed;
            trim_heap();
        }
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code, reason = "one call into the C library, which has no safe wrapper")]
fn trim_heap() {
    // SAFETY: malloc_trim only returns free pages of the heap to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim_heap() {}
