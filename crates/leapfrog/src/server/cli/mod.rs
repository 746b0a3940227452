//! Command-line parsing and the `setup`, `moves`, `perft`, `analyse` and
//! `arena` subcommands.
//!
//! Output goes to stdout; every error is one line on stderr and exit code 2.
//!
//! Its parts: `commands` (the subcommands that run the engine), `bot` (the
//! bot client: an account that plays the games of its challenges),
//! `engine` (the search speaking the engine protocol on standard input and
//! output), `external` (players from other programs that speak it).

use std::fmt::Write as _;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use jump_capture::{DirectionSet, Position, Preset, Rules, Setup};

mod bot;
mod commands;
mod engine;
mod external;

use commands::{analyse, arena, position, replay, setup, solve};

use crate::server::config::ServeConfig;
use crate::server::startup::{Application, StartupError, redact};
use leapfrog_store::StoreError;

/// Why a command failed: one line for stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The bot could not start.
    #[error("bot: {0}")]
    Bot(String),
    /// The rules refuse the rule set.
    #[error("{0}")]
    Rules(#[from] jump_capture::RulesError),
    /// A position string that does not read.
    #[error("position: {0}")]
    ParsePosition(#[from] jump_capture::ParsePositionError),
    /// A position or game the rules refuse.
    #[error("position: {0}")]
    Position(#[from] jump_capture::PositionError),
    /// A game that cannot start with these players.
    #[error("{0}")]
    Start(jump_capture::PositionError),
    /// A generated move refused: a bug.
    #[error("internal: a generated move was refused: {0}")]
    Generated(#[from] jump_capture::IllegalMove),
    /// The server could not start.
    #[error(transparent)]
    Startup(#[from] StartupError),
    /// The server stopped with an error.
    #[error("server failed: {0}")]
    Serve(std::io::Error),
    /// The database could not be migrated.
    #[error("cannot migrate {url}: {source}")]
    Migrate {
        /// The database, without its password.
        url: String,
        /// Why.
        source: StoreError,
    },
    /// A game that an arena cannot play.
    #[error("arena: {0}")]
    Arena(String),
    /// Arguments that do not fit together.
    #[error("{0}")]
    Usage(String),
    /// A backup was not made.
    #[error("backup: {0}")]
    Backup(#[from] leapfrog_store::backup::BackupError),
    /// The solver cannot take the position.
    #[error("solve: {0}")]
    Solve(#[from] jump_search::SolveError),
    /// A record that could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A record that does not replay.
    #[error("{0}")]
    Record(#[from] leapfrog_wire::record::RecordError),
    /// An output file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Leap Frog (H. J. R. Murray, 1898), Froglet, Konane and kindred
/// jump-capture games.
#[derive(Debug, Parser)]
#[command(name = "leapfrog", version, about, long_about = None)]
#[command(after_help = "Examples:\n  \
    leapfrog setup --preset murray --players 3 --seed 42\n  \
    leapfrog moves --preset old --position '1OO/1OO/1OO 2 1,1'\n  \
    leapfrog perft --preset old --position '1OO/1OO/1OO 2 1,1' --depth 2 --divide\n  \
    leapfrog analyse --preset murray --position \"$(leapfrog setup --preset murray --seed 1 --random-plies 40)\" --iterations 20000\n  \
    leapfrog arena --preset froglet --players medium,greedy --games 100 --seed 1\n  \
    leapfrog arena --preset konane --size 8 --players 'cmd:./old/leapfrog engine' 'cmd:leapfrog engine' --movetime 2000\n  \
    leapfrog engine          (then type: jcp / rules old / position 1OO/1OO/1OO 2 1,1 / go movetime 500)\n  \
    leapfrog solve --preset english\n  \
    leapfrog solve --preset triangle --position '4O/4-/3--/2---/1---- 13 0'\n  \
    leapfrog serve --bind 0.0.0.0:8080          (then open http://localhost:8080/docs)\n  \
    leapfrog serve --database-url postgres://leapfrog@db/leapfrog\n  \
    leapfrog openapi --output openapi/openapi.json\n  \
    leapfrog backup --database-url sqlite://leapfrog.db --output leapfrog-$(date +%F).db\n  \
    curl -s localhost:8080/v1/games/ID/record > game.txt && leapfrog replay game.txt")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the starting position string of a new game.
    Setup(SetupArgs),
    /// Print every legal move of a position, one per line, sorted.
    Moves(PositionArgs),
    /// Count move sequences of a given depth (the total is the last line).
    Perft(PerftArgs),
    /// Search a position: the best move first on the first line, then the candidates.
    #[command(alias = "analyze")]
    Analyse(AnalyseArgs),
    /// Play seeded games between computer players, seats rotated, and tally them.
    Arena(ArenaArgs),
    /// Speak the engine protocol (JCP) on standard input and output, one
    /// command a line: jcp, isready, newgame, rules, position, go, stop, quit
    /// (see the jump-search crate's README).
    Engine(engine::EngineArgs),
    /// Solve peg solitaire: a solution's moves in order, one per line, then
    /// a summary line (or that there is none, or that the budget ran out).
    Solve(SolveArgs),
    /// Run the REST service (interactive docs at /docs, spec at /openapi.json).
    Serve(Box<ServeConfig>),
    /// Create or update the database schema (serve does this at start too).
    Migrate(crate::server::config::DatabaseArgs),
    /// Copy a SQLite database, while the server runs, into a new file, and
    /// check the copy (PostgreSQL: use pg_dump).
    Backup(BackupArgs),
    /// Print the OpenAPI document (what openapi/openapi.json holds).
    Openapi(OpenapiArgs),
    /// Replay a game record (rule book §14): each ply and the position after
    /// it, then the result; the first bad ply is an error naming it.
    Replay(ReplayArgs),
    /// Play as a bot account on a server (rule book §15): accept the
    /// challenges its profile takes and play each game at a level, until
    /// interrupted. The token comes best from LEAPFROG_BOT_TOKEN.
    Bot(bot::BotArgs),
}

#[derive(Debug, Args)]
struct SolveArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// The board's side (see `setup --size`); default: the preset's board.
    #[arg(long, value_name = "N", value_parser = parse_side)]
    size: Option<u8>,
    /// The position to solve from (its board gives the size); default: the
    /// preset's start.
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    position: Option<String>,
    /// Where the last peg must stand: a cell, `centre` (a perfect
    /// solution, where the board has a centre) or `any`. Default: the
    /// centre where the board has one, else any.
    #[arg(long, value_name = "CELL")]
    goal: Option<String>,
    /// Give up after this many positions (the table of positions that failed
    /// takes some 12 bytes each: 10,000,000 stay near 120 MB).
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    max_positions: u64,
    /// Give up after this many milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    millis: u64,
}

#[derive(Debug, Args)]
struct BackupArgs {
    #[command(flatten)]
    database: crate::server::config::DatabaseArgs,
    /// The new file to write (never overwritten).
    #[arg(long, value_name = "FILE")]
    output: std::path::PathBuf,
}

#[derive(Debug, Args)]
struct ReplayArgs {
    /// The record's file; `-` for standard input.
    #[arg(value_name = "FILE")]
    file: std::path::PathBuf,
}

#[derive(Debug, Args)]
struct OpenapiArgs {
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

/// The rule set: a preset and its overrides.
#[derive(Debug, Args)]
struct RulesArgs {
    /// Rule set: old, murray, froglet, konane, capture (hexagon), english or
    /// triangle (peg solitaire).
    #[arg(long, value_parser = parse_preset)]
    preset: Preset,
    /// Jump directions: orthogonal, diagonal, all (Leap Frog's diagonal
    /// variant) or hex (six, in axial coordinates).
    #[arg(long, value_parser = parse_directions)]
    directions: Option<DirectionSet>,
}

/// The board a command's rules are made for.
enum Shape<'a> {
    /// `--size N` if given, else the preset's.
    Size(Option<u8>),
    /// `--rows R --cols C`.
    RowsCols(u8, u8),
    /// A position's board.
    Of(&'a jump_capture::Grid),
}

impl RulesArgs {
    /// The one place a command's rule set is made: the preset, on the board
    /// of `shape`, with the directions asked for.
    fn rules(&self, shape: Shape<'_>) -> Result<Rules, CliError> {
        let spec = self.preset.spec();
        let mut spec = match shape {
            Shape::Size(Some(n)) => self.preset.spec_with_side(n)?,
            Shape::Size(None) => spec,
            Shape::RowsCols(..) if self.preset.shape() != jump_capture::Shape::Rectangle => {
                return Err(CliError::Usage(format!(
                    "the {} board is a {} drawn by its side: give --size, not --rows and --cols",
                    self.preset,
                    self.preset.shape().name()
                )));
            }
            Shape::RowsCols(r, c) => spec.with_size(r, c),
            Shape::Of(grid) => spec.with_shape_of(grid),
        };
        if let Some(d) = self.directions {
            spec = spec.with_directions(d);
        }
        Ok(Rules::new(spec)?)
    }
}

#[derive(Debug, Args)]
struct SetupArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// The board's side: a square of N×N cells (3 to 26), a hexagon of side
    /// N (capture, 3 to 13), a triangle of side N (triangle); default: the
    /// preset's board.
    #[arg(long, value_name = "N", value_parser = parse_side, conflicts_with_all = ["rows", "cols"])]
    size: Option<u8>,
    /// Cells that do not exist, comma-separated (`a1,a2`), besides the
    /// preset's.
    #[arg(long, value_name = "CELLS", value_delimiter = ',', value_parser = parse_cell)]
    mask: Vec<jump_capture::Cell>,
    /// Cells that start empty, comma-separated, instead of the preset's
    /// (peg solitaire's start hole: `--holes c3`).
    #[arg(long, value_name = "CELLS", value_delimiter = ',', value_parser = parse_cell)]
    holes: Option<Vec<jump_capture::Cell>>,
    /// Number of ranks (use with --cols).
    #[arg(long, value_name = "R", value_parser = parse_side, requires = "cols")]
    rows: Option<u8>,
    /// Number of files (use with --rows).
    #[arg(long, value_name = "C", value_parser = parse_side, requires = "rows")]
    cols: Option<u8>,
    /// Number of players.
    #[arg(long, value_name = "N", default_value_t = 2)]
    players: usize,
    /// Seed of the random deal; drawn (and printed on stderr) when omitted.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Then play this many uniformly random moves (from a generator seeded
    /// with the same seed): a reproducible middle-game position.
    #[arg(long, value_name = "K", default_value_t = 0)]
    random_plies: u32,
}

#[derive(Debug, Args)]
struct PositionArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Position string: '<board> <ply> <score,score,…>'; the board gives the size.
    #[arg(long, value_name = "POS", allow_hyphen_values = true)]
    position: String,
}

#[derive(Debug, Args)]
struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Plies to count.
    #[arg(long, value_name = "N")]
    depth: u32,
    /// Also print '<move> <count>' for each legal move.
    #[arg(long)]
    divide: bool,
}

#[derive(Debug, Args)]
struct AnalyseArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Think for this many iterations (reproducible with --seed); the default is 20000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000), conflicts_with = "millis")]
    iterations: Option<u64>,
    /// Think for about this many milliseconds instead.
    #[arg(long, value_name = "M", value_parser = clap::value_parser!(u64).range(1..=600_000))]
    millis: Option<u64>,
    /// Seed of the search.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// How many candidates to list.
    #[arg(long, value_name = "K", default_value_t = 10)]
    top: usize,
}

#[derive(Debug, Args)]
struct ArenaArgs {
    #[command(flatten)]
    rules: RulesArgs,
    /// Square board of N×N cells (3 to 26); default: the preset's size.
    #[arg(long, value_name = "N", value_parser = parse_side)]
    size: Option<u8>,
    /// One player per seat, comma-separated: random, greedy, lookahead, easy,
    /// medium, hard, mcts-N (iterations), mcts-Nms (milliseconds), or
    /// cmd:COMMAND, a program speaking the engine protocol (started by sh for
    /// each game; give it as a value of its own, and without commas).
    #[arg(long, value_name = "LIST", value_delimiter = ',', required = true, num_args = 1..)]
    players: Vec<external::Contestant>,
    /// Milliseconds a move for the cmd: players.
    #[arg(long, value_name = "MS", default_value_t = external::DEFAULT_MOVETIME,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    movetime: u64,
    /// Number of games (seats rotate every game; a deal is played once per rotation).
    #[arg(long, value_name = "G", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Seed of the deals and of the players' choices.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Games played at once; default: the number of cores, or one when a
    /// cmd: player takes part (a program may use every core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    s.parse().map_err(|e: jump_capture::ParsePresetError| e.to_string())
}

/// A board side: any whole number reads, so that one out of range gets the
/// rules' own message rather than the integer type's.
fn parse_side(s: &str) -> Result<u8, String> {
    let n: u64 = s.parse().map_err(|_| format!("'{s}' is not a whole number"))?;
    u8::try_from(n)
        .ok()
        .filter(|n| (3..=jump_capture::MAX_SIDE).contains(n))
        .ok_or_else(|| format!("each side must be from 3 to {}", jump_capture::MAX_SIDE))
}

fn parse_cell(s: &str) -> Result<jump_capture::Cell, String> {
    s.parse().map_err(|e: jump_capture::ParseCellError| e.to_string())
}

fn parse_directions(s: &str) -> Result<DirectionSet, String> {
    s.parse().map_err(|e: jump_capture::ParseDirectionSetError| e.to_string())
}

/// Runs the command line; the process's exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // clap's message, without the usage block, on one line.
            let text = e.to_string();
            let message = text.split("\n\n").next().unwrap_or("invalid arguments");
            eprintln!("{}", message.split_whitespace().collect::<Vec<_>>().join(" "));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Runs a parsed command and returns what it prints, or a one-line error.
///
/// # Errors
///
/// The message to show, for any argument or position the rules refuse.
pub fn run(cli: Cli) -> Result<String, CliError> {
    match cli.command {
        Command::Setup(args) => setup(args),
        Command::Serve(config) => serve(*config).map(|()| String::new()),
        Command::Migrate(db) => actix_web::rt::System::new().block_on(async move {
            leapfrog_store::Store::open(&db.url, db.durability)
                .await
                .map(|_| format!("migrated {}\n", redact(&db.url)))
                .map_err(|source| CliError::Migrate { url: redact(&db.url), source })
        }),
        Command::Backup(args) => actix_web::rt::System::new().block_on(async move {
            let made = leapfrog_store::backup::backup(&args.database.url, &args.output).await?;
            Ok(format!(
                "backed up {} to {}: {} bytes, {} games, {} moves; integrity ok\n",
                redact(&args.database.url),
                args.output.display(),
                made.bytes,
                made.games,
                made.moves
            ))
        }),
        Command::Openapi(args) => {
            let json = openapi_json();
            match args.output {
                Some(path) => std::fs::write(&path, json)
                    .map(|()| String::new())
                    .map_err(|source| CliError::Write { path: path.display().to_string(), source }),
                None => Ok(json),
            }
        }
        Command::Moves(args) => {
            let pos = position(&args)?;
            let mut out = String::new();
            for mv in pos.legal_moves_unbounded() {
                let _ = writeln!(out, "{mv}");
            }
            Ok(out)
        }
        Command::Analyse(args) => analyse(&args),
        Command::Replay(args) => replay(&args),
        Command::Bot(args) => bot::run(&args).map_err(CliError::Bot),
        Command::Arena(args) => arena(&args),
        Command::Engine(args) => engine::run(&args).map_err(CliError::Usage),
        Command::Solve(args) => solve(&args),
        Command::Perft(args) => {
            let pos = position(&args.position)?;
            let mut out = String::new();
            let total = if args.divide {
                let mut total = 0;
                for (mv, n) in pos.divide_unbounded(args.depth) {
                    let _ = writeln!(out, "{mv} {n}");
                    total += n;
                }
                if args.depth == 0 { 1 } else { total }
            } else {
                pos.perft_unbounded(args.depth)
            };
            let _ = writeln!(out, "{total}");
            Ok(out)
        }
    }
}

/// The OpenAPI document as pretty JSON with a final newline.
pub fn openapi_json() -> String {
    let api = leapfrog_http::openapi();
    let mut json = api.to_pretty_json().unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    json.push('\n');
    json
}

fn serve(config: ServeConfig) -> Result<(), CliError> {
    crate::server::telemetry::init(config.log_format);
    actix_web::rt::System::new().block_on(async move {
        let app = Application::build(config.clone()).await?;
        tracing::info!(
            port = app.port(),
            metrics_port = app.metrics_port(),
            bind = %config.bind,
            database = %redact(&config.database.url),
            "serving; docs at /docs, spec at /openapi.json"
        );
        app.run_until_stopped().await.map_err(CliError::Serve)
    })
}
