//! Settings of `leapfrog serve`, from flags and the environment.

use std::time::Duration;

use clap::Args;

use leapfrog_http::json::DEFAULT_BODY_LIMIT;
use leapfrog_http::limits::{Class, Network, Rate};
use leapfrog_store::Durability;

/// How the server runs.
#[derive(Debug, Clone, Args)]
pub struct ServeConfig {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, env = "LEAPFROG_BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Serve `/metrics` on this address alone (`127.0.0.1:9464`), apart
    /// from the API's; without it, `/metrics` is served with the API.
    #[arg(long, env = "LEAPFROG_METRICS_BIND")]
    pub metrics_bind: Option<String>,
    /// Origins browsers may call the API from, comma-separated; `*` for any.
    /// Any origin suits a public API: seat tokens travel in a header, never
    /// in a cookie, so another site's page cannot play with them.
    #[arg(long = "cors-origin", env = "LEAPFROG_CORS_ORIGINS", value_delimiter = ',', default_value = "*")]
    pub cors_origins: Vec<String>,
    /// Log lines as `text` or `json` (one object a line, each with the
    /// request's `request_id` and `trace_id`).
    #[arg(long, env = "LEAPFROG_LOG_FORMAT", value_enum, default_value_t = crate::server::telemetry::LogFormat::Text)]
    pub log_format: crate::server::telemetry::LogFormat,
    /// Largest request body accepted, in bytes.
    #[arg(long, env = "LEAPFROG_BODY_LIMIT", default_value_t = DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,
    /// On SIGTERM or SIGINT, how long requests in flight may take to finish
    /// (`10s`) before they are cut; a second signal cuts them at once.
    #[arg(long, env = "LEAPFROG_STOP_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub stop_timeout: Duration,
    /// Let webhooks reach `http://` endpoints and private, loopback and
    /// link-local addresses (tests and closed networks); without it only
    /// `https://` endpoints at public addresses are reached.
    #[arg(long, env = "LEAPFROG_WEBHOOK_ALLOW_PRIVATE")]
    pub webhook_allow_private: bool,
    /// Vacation days an account gets each calendar year (UTC) for its long
    /// games (a day or more a move); 0: none. A change applies from the
    /// next year on.
    #[arg(long, env = "LEAPFROG_VACATION_DAYS", default_value_t = leapfrog_service::vacations::DEFAULT_DAYS,
        value_parser = clap::value_parser!(u32).range(0..=366))]
    pub vacation_days: u32,
    #[command(flatten)]
    pub database: DatabaseArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub thinking: ThinkingArgs,
}

/// Where the computer thinks.
#[derive(Debug, Clone, Args)]
pub struct ThinkingArgs {
    /// Threads that search (for analyses and computer seats), apart from
    /// the request threads; 0: the number of cores.
    #[arg(long, env = "LEAPFROG_THINK_THREADS", default_value_t = 0)]
    pub think_threads: usize,
    /// Searches that may wait for a thread; past them, an analysis gets 503.
    #[arg(long, env = "LEAPFROG_THINK_QUEUE", default_value_t = 64)]
    pub think_queue: usize,
    /// Analyses one client may have running or waiting at once; past them,
    /// 429.
    #[arg(long, env = "LEAPFROG_ANALYSES_PER_CLIENT", default_value_t = 2)]
    pub analyses_per_client: usize,
    /// How long an analysis (or a move of a game of computer seats alone)
    /// may wait for a thread (`2s`, `1m`); past it, an analysis gets 503.
    #[arg(long, env = "LEAPFROG_THINK_WAIT", default_value = "2s", value_parser = parse_duration)]
    pub think_wait: Duration,
}

impl ThinkingArgs {
    /// The number of threads: as asked, or one per core.
    pub fn threads(&self) -> usize {
        match self.think_threads {
            0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            n => n,
        }
    }
}

/// Where games are stored.
#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// `sqlite://FILE` (created if missing) or `postgres://USER@HOST/DB`.
    #[arg(long = "database-url", env = "DATABASE_URL", default_value = "sqlite://leapfrog.db")]
    pub url: String,
    /// `full`: an answered move survives a power loss (SQLite syncs every
    /// commit, moves of concurrent games grouped into one). `fast`: it
    /// survives a killed process, not an OS crash (SQLite synchronous=NORMAL,
    /// PostgreSQL synchronous_commit=off).
    #[arg(long, env = "LEAPFROG_DURABILITY", value_parser = durability(), default_value = "full")]
    pub durability: Durability,
    /// Database connections this process keeps at most (SQLite: readers;
    /// writes take one more). With PostgreSQL each process also holds one
    /// for notifications: N processes need N × (this + 1) connections.
    #[arg(long = "db-pool-size", env = "LEAPFROG_DB_POOL_SIZE", default_value_t = leapfrog_store::DEFAULT_POOL_SIZE,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub pool_size: u32,
}

/// Quotas, rate limits and housekeeping.
#[derive(Debug, Clone, Args)]
pub struct LimitArgs {
    /// Turns off the per-client rate limits and the cap on unfinished games
    /// (for load tests; never on a public server).
    #[arg(long, env = "LEAPFROG_NO_RATE_LIMITS")]
    pub no_rate_limits: bool,
    /// Games one client may create: BURST at once, then RATE a second.
    #[arg(long, env = "LEAPFROG_CREATE_RATE", value_name = "BURST/RATE", default_value = "20/0.5", value_parser = parse_rate)]
    pub create_rate: Rate,
    /// Moves one client may send: BURST at once, then RATE a second.
    #[arg(long, env = "LEAPFROG_MOVE_RATE", value_name = "BURST/RATE", default_value = "600/50", value_parser = parse_rate)]
    pub move_rate: Rate,
    /// Event streams one client may open: BURST at once, then RATE a second.
    #[arg(long, env = "LEAPFROG_STREAM_RATE", value_name = "BURST/RATE", default_value = "30/1", value_parser = parse_rate)]
    pub stream_rate: Rate,
    /// Analyses one client may ask for: BURST at once, then RATE a second.
    #[arg(long, env = "LEAPFROG_ANALYSIS_RATE", value_name = "BURST/RATE", default_value = "10/1", value_parser = parse_rate)]
    pub analysis_rate: Rate,
    /// Sign-ups and sign-ins (tokens made with a password) one client may
    /// make: BURST at once, then RATE a second.
    #[arg(long, env = "LEAPFROG_SIGN_IN_RATE", value_name = "BURST/RATE", default_value = "10/0.5", value_parser = parse_rate)]
    pub sign_in_rate: Rate,
    /// Wrong passwords one account name may be given, from all networks
    /// together: BURST at once, then RATE a second (20/0.02 is 72 an
    /// hour). A network that signed in to the account in the last 30 days
    /// is spared it, so guesses cannot lock its owner out.
    #[arg(long, env = "LEAPFROG_WRONG_PASSWORD_RATE", value_name = "BURST/RATE", default_value = "20/0.02", value_parser = parse_rate)]
    pub wrong_password_rate: Rate,
    /// How many leading bits of an IPv4 address make one client (0–32).
    #[arg(long, env = "LEAPFROG_CLIENT_PREFIX_V4", value_name = "BITS", default_value_t = 32,
          value_parser = clap::value_parser!(u8).range(0..=32))]
    pub client_prefix_v4: u8,
    /// How many leading bits of an IPv6 address make one client (0–128):
    /// 64, because one ordinary connection is given a /64.
    #[arg(long, env = "LEAPFROG_CLIENT_PREFIX_V6", value_name = "BITS", default_value_t = 64,
          value_parser = clap::value_parser!(u8).range(0..=128))]
    pub client_prefix_v6: u8,
    /// The share of one core password checks may take, in percent (1–100).
    /// A check takes about 35 ms on a recent core, so 15 is about four
    /// sign-ins a second; past them, sign-ins wait (every one is answered
    /// within 3 s: past that, 503) while play keeps its speed. Sign-ins for
    /// names nobody has get a third of it, apart. Applies with
    /// `--no-rate-limits` too.
    #[arg(long, env = "LEAPFROG_PASSWORD_SHARE", value_name = "PERCENT", default_value_t = 15,
          value_parser = clap::value_parser!(u8).range(1..=100))]
    pub password_share: u8,
    /// Games one client may have that are neither over nor abandoned (0: no cap).
    #[arg(long, env = "LEAPFROG_MAX_UNFINISHED_GAMES", default_value_t = 100)]
    pub max_unfinished_games: u32,
    /// Reverse proxies whose `X-Forwarded-For` names the client: addresses
    /// or networks (`10.0.0.0/8`), comma-separated. Without it, the client
    /// is the connection's peer.
    #[arg(long = "trust-proxy", env = "LEAPFROG_TRUST_PROXY", value_delimiter = ',')]
    pub trusted_proxies: Vec<Network>,
    /// Open event streams, in all (also capped by the open-file limit less a
    /// reserve for the database and other requests).
    #[arg(long, env = "LEAPFROG_MAX_STREAMS", default_value_t = 10_000)]
    pub max_streams: usize,
    /// Open event streams on one game.
    #[arg(long, env = "LEAPFROG_MAX_STREAMS_PER_GAME", default_value_t = 1_000)]
    pub max_streams_per_game: usize,
    /// Open event streams of one client, on one server process (0: no cap).
    #[arg(long, env = "LEAPFROG_MAX_STREAMS_PER_CLIENT", default_value_t = 100)]
    pub max_streams_per_client: usize,
    /// Record exports one server process streams at once, for all accounts
    /// (each account: at most 2 at once).
    #[arg(long, env = "LEAPFROG_MAX_EXPORTS", default_value_t = 8)]
    pub max_exports: usize,
    /// Most players of one tournament.
    #[arg(long, env = "LEAPFROG_MAX_TOURNAMENT_PLAYERS", default_value_t = 256)]
    pub max_tournament_players: usize,
    /// Tournaments open or running that one account may have created.
    #[arg(long, env = "LEAPFROG_MAX_TOURNAMENTS_PER_ACCOUNT", default_value_t = 5)]
    pub max_tournaments_per_account: u64,
    /// Tournaments open or running on the server, all accounts together.
    #[arg(long, env = "LEAPFROG_MAX_TOURNAMENTS", default_value_t = 1000)]
    pub max_tournaments: u64,
    /// Unfinished games of computer seats alone one client may have (0: no cap).
    #[arg(long, env = "LEAPFROG_MAX_COMPUTER_GAMES", default_value_t = 2)]
    pub max_computer_games: u32,
    /// How long a move's idempotency key is remembered (`24h`, `90m`, `30s`).
    #[arg(long, env = "LEAPFROG_IDEMPOTENCY_TTL", default_value = "24h", value_parser = parse_duration)]
    pub idempotency_ttl: Duration,
    /// A game with no move for this long is marked abandoned (`30d`).
    #[arg(long, env = "LEAPFROG_ABANDON_AFTER", default_value = "30d", value_parser = parse_duration)]
    pub abandon_after: Duration,
    /// How often the sweep of old keys and abandoned games runs.
    #[arg(long, env = "LEAPFROG_SWEEP_EVERY", default_value = "10m", value_parser = parse_duration)]
    pub sweep_every: Duration,
}

impl LimitArgs {
    /// How addresses group into clients.
    pub fn grouping(&self) -> leapfrog_http::limits::Grouping {
        leapfrog_http::limits::Grouping { v4: self.client_prefix_v4, v6: self.client_prefix_v6 }
    }

    /// The rate of each class, unless rate limits are off.
    pub fn rates(&self) -> Vec<(Class, Rate)> {
        if self.no_rate_limits {
            return Vec::new();
        }
        vec![
            (Class::Create, self.create_rate),
            (Class::Move, self.move_rate),
            (Class::Stream, self.stream_rate),
            (Class::Analysis, self.analysis_rate),
            (Class::SignIn, self.sign_in_rate),
            (Class::WrongPassword, self.wrong_password_rate),
        ]
    }

    /// The cap on unfinished games per client (0: none).
    pub fn max_unfinished(&self) -> u32 {
        if self.no_rate_limits { 0 } else { self.max_unfinished_games }
    }

    /// The cap on unfinished games of computer seats alone per client (0:
    /// none).
    pub fn max_computer_games(&self) -> u32 {
        if self.no_rate_limits { 0 } else { self.max_computer_games }
    }
}

/// `BURST/RATE`: requests at once, then per second (`20/0.5`).
fn parse_rate(s: &str) -> Result<Rate, String> {
    let bad = || format!("'{s}' is not BURST/RATE, such as 20/0.5 (20 at once, then one every 2 s)");
    let (burst, rate) = s.split_once('/').ok_or_else(bad)?;
    let burst: f64 = burst.trim().parse().map_err(|_| bad())?;
    let per_second: f64 = rate.trim().parse().map_err(|_| bad())?;
    if !(burst >= 1.0 && per_second > 0.0 && burst.is_finite() && per_second.is_finite()) {
        return Err(format!("'{s}': the burst must be at least 1 and the rate above 0"));
    }
    Ok(Rate { burst, per_second })
}

/// A duration: a whole number with `s`, `m`, `h` or `d` (seconds if none).
fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (digits, unit) = s.find(|c: char| !c.is_ascii_digit()).map_or((s, ""), |i| s.split_at(i));
    let n: u64 =
        digits.parse().map_err(|_| format!("'{s}' is not a duration such as 30s, 10m, 24h or 30d"))?;
    let secs = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return Err(format!("'{s}': the unit must be s, m, h or d")),
    };
    n.checked_mul(secs).map(Duration::from_secs).ok_or_else(|| format!("'{s}' is too long"))
}

impl ServeConfig {
    /// Settings for tests: port 0 on loopback, any origin, a fresh SQLite
    /// file in the temporary directory, the default limits.
    pub fn for_tests() -> ServeConfig {
        use clap::Parser;
        #[derive(Parser)]
        struct Defaults {
            #[command(flatten)]
            config: ServeConfig,
        }
        let file = std::env::temp_dir().join(format!("leapfrog-test-{}.db", uuid::Uuid::new_v4()));
        let url = format!("sqlite://{}", file.display());
        // The flags' defaults, exactly as `leapfrog serve` has them; clap
        // cannot fail on these arguments.
        let mut config = Defaults::try_parse_from(["serve", "--database-url", &url])
            .map(|d| d.config)
            .unwrap_or_else(|e| panic!("the default settings parse: {e}"));
        config.bind = "127.0.0.1:0".into();
        // Tests run many servers at once on few cores, and sign in often:
        // their password checks run whenever they can (the share is tested
        // on its own).
        config.limits.password_share = 100;
        config
    }
}

/// `--durability`'s values, described as `--help` lists them (the store's
/// enum knows nothing of the command line).
fn durability() -> impl clap::builder::TypedValueParser<Value = Durability> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser as _};
    PossibleValuesParser::new([
        PossibleValue::new("full").help("A power loss or OS crash: the commit is synced before the answer"),
        PossibleValue::new("fast")
            .help("A killed process, but not a power loss: the last commits may be lost then"),
    ])
    .map(|v| if v == "fast" { Durability::Fast } else { Durability::Full })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_durations_read_as_documented() {
        assert_eq!(parse_rate("20/0.5"), Ok(Rate { burst: 20.0, per_second: 0.5 }));
        assert!(parse_rate("0/1").is_err() && parse_rate("5").is_err() && parse_rate("5/-1").is_err());
        assert_eq!(parse_duration("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("30d"), Ok(Duration::from_secs(30 * 86_400)));
        assert!(parse_duration("3w").unwrap_err().contains("unit"));
        assert!(parse_duration("h").is_err());
    }
}
