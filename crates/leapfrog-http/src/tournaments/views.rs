//! The forms of the tournaments' requests and answers, and the view of
//! an event.

use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::problem::ApiError;
use crate::state::AppState;
use leapfrog_service::tournaments::{Format, Status, Tournament};
use leapfrog_wire::{RuleSet, Rules};

/// How a tournament pairs its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentFormat {
    /// Everyone meets everyone once (Berger tables).
    RoundRobin,
    /// Everyone meets everyone twice, the seats swapped.
    DoubleRoundRobin,
    /// A fixed number of rounds, paired by the Dutch system (rule book §17).
    Swiss,
    /// For a fixed time, whoever finishes a game is paired again at once
    /// (live only; a win 2 points, double after two wins in a row).
    Arena,
}

impl From<TournamentFormat> for Format {
    fn from(f: TournamentFormat) -> Format {
        match f {
            TournamentFormat::RoundRobin => Format::RoundRobin,
            TournamentFormat::DoubleRoundRobin => Format::DoubleRoundRobin,
            TournamentFormat::Swiss => Format::Swiss,
            TournamentFormat::Arena => Format::Arena,
        }
    }
}

/// A tournament asked for.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Autumn Swiss", "format": "swiss", "rounds": 5,
    "rules": {"preset": "murray", "rows": 8, "cols": 8}, "move_time_limit": 60, "max_players": 32}))]
pub struct TournamentRequest {
    /// Its name, 1 to 64 characters.
    #[schema(min_length = 1, max_length = 64)]
    pub name: String,
    /// How it pairs.
    pub format: TournamentFormat,
    /// A Swiss's rounds, 1 to 64 (round-robins: none; theirs follow from
    /// the players).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 64)]
    pub rounds: Option<u32>,
    /// The rule set of its games (two seats).
    pub rules: Rules,
    /// Seconds a move (5 to 1209600), for a live event.
    #[serde(default)]
    #[schema(minimum = 5, maximum = 1209600)]
    pub move_time_limit: Option<u32>,
    /// Days a move (1, 2, 3, 5, 7, 10 or 14), for an event by
    /// correspondence. One of the two is needed.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<u8>,
    /// A round-robin by correspondence: every game paired at the start.
    #[serde(default)]
    pub all_at_once: bool,
    /// An arena's length, 1 to 1440 minutes.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1440)]
    pub duration_minutes: Option<u32>,
    /// Rated (rule book §13); left out or false: casual.
    #[serde(default)]
    pub rated: bool,
    /// Players it needs to start (default 2).
    #[serde(default)]
    #[schema(minimum = 2)]
    pub min_players: Option<usize>,
    /// Players it takes at most (default and most: the server's, 256).
    #[serde(default)]
    #[schema(minimum = 2)]
    pub max_players: Option<usize>,
    /// When it starts by itself (RFC 3339); left out: when its creator
    /// says.
    #[serde(default)]
    pub starts_at: Option<String>,
    /// Whether bots may join (within their acceptance profiles).
    #[serde(default)]
    pub bots: bool,
    /// The accounts invited, by name; left out: open to all.
    #[serde(default)]
    #[schema(max_items = 256)]
    pub invited: Option<Vec<String>>,
}

/// A player of a tournament.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentPlayerView {
    /// The account's name.
    pub name: String,
    /// Whether it is a bot.
    pub bot: bool,
    /// Its rating when it joined.
    pub rating: i64,
    /// Its seed, from 1, once started.
    #[schema(required = true)]
    pub seed: Option<i64>,
    /// Whether it has withdrawn (or was withdrawn: two games lost on time).
    pub withdrawn: bool,
}

/// A tiebreak's value.
#[derive(Debug, Serialize, ToSchema)]
pub struct TiebreakView {
    /// `buchholz`, `sonneborn_berger`, `direct_encounter` or `wins`.
    pub name: String,
    /// Its value (points; wins: games).
    pub value: f64,
}

/// A line of the standings.
#[derive(Debug, Serialize, ToSchema)]
pub struct StandingView {
    /// The place, from 1.
    pub place: usize,
    /// The player's name.
    pub name: String,
    /// Points: a win 1, a draw ½, a bye 1 (an arena's: a win 2, a draw 1,
    /// double while on fire).
    pub points: f64,
    /// The tiebreaks, in the order they apply.
    pub tiebreaks: Vec<TiebreakView>,
    /// Games played over the board.
    pub played: u32,
}

/// A tournament.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentView {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Who made it.
    pub creator: String,
    /// How it pairs.
    pub format: TournamentFormat,
    /// `open`, `running`, `over` or `canceled`.
    pub status: String,
    /// The rule set of its games.
    pub rules: RuleSet,
    /// Whether rated.
    pub rated: bool,
    /// The rounds it plays (a round-robin's from its players so far).
    pub rounds: u32,
    /// The round being played (0 before the first).
    pub round: i64,
    /// Seconds a move.
    #[schema(required = true)]
    pub move_time_limit: Option<i64>,
    /// Whether by correspondence.
    pub correspondence: bool,
    /// A correspondence round-robin with every game at once.
    pub all_at_once: bool,
    /// An arena's length in minutes.
    #[schema(required = true)]
    pub duration_minutes: Option<i64>,
    /// When an arena ends (RFC 3339), once started.
    #[schema(required = true)]
    pub ends_at: Option<String>,
    /// Players it needs to start.
    pub min_players: i64,
    /// Players it takes at most.
    pub max_players: i64,
    /// When it starts by itself (RFC 3339).
    #[schema(required = true)]
    pub starts_at: Option<String>,
    /// Whether bots may join.
    pub bots: bool,
    /// The accounts invited; null: open to all.
    #[schema(required = true)]
    pub invited: Option<Vec<String>>,
    /// When it was made, started and ended (RFC 3339).
    pub created_at: String,
    /// When it started.
    #[schema(required = true)]
    pub started_at: Option<String>,
    /// When it ended.
    #[schema(required = true)]
    pub ended_at: Option<String>,
    /// Its players (by seed once started; in the order they joined before).
    pub players: Vec<TournamentPlayerView>,
    /// The standings (after the start).
    pub standings: Vec<StandingView>,
    /// A round-robin's cross table, after the start: a row a player by
    /// seed, a cell an opponent by seed.
    #[schema(required = true)]
    pub cross_table: Option<Vec<CrossRow>>,
}

/// A player's row of a cross table.
#[derive(Debug, Serialize, ToSchema)]
pub struct CrossRow {
    /// The player.
    pub name: String,
    /// Against each player by seed, its results in the order played: `1`,
    /// `½`, `0`, `+` / `−` (won or lost by forfeit), `*` (under way); empty
    /// against itself or before they meet.
    pub results: Vec<String>,
}

/// A page of tournaments (without players or standings).
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentList {
    /// Newest first.
    pub tournaments: Vec<TournamentView>,
    /// The cursor of the next page; null on the last.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// A game (or a bye) of a tournament.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentGameView {
    /// Its round, from 1.
    pub round: i64,
    /// Its place in the round, from 0.
    pub board: i64,
    /// The game's id; null for a bye or a forfeit.
    #[schema(required = true)]
    pub game: Option<String>,
    /// The first seat's player (a bye's player).
    pub first: String,
    /// The second seat's player; null for a bye.
    #[schema(required = true)]
    pub second: Option<String>,
    /// `first`, `second` or `draw` once decided.
    #[schema(required = true)]
    pub result: Option<String>,
    /// Decided without being played.
    pub forfeit: bool,
}

/// A page of a tournament's games, by round and board.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentGameList {
    /// The games.
    pub games: Vec<TournamentGameView>,
    /// The cursor of the next page; null on the last.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Query of the tournament listing.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct TournamentQuery {
    /// Only these: `open`, `running`, `over` or `canceled`.
    pub status: Option<String>,
    /// Tournaments per page, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

/// Query of a tournament's games.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct TournamentGamesQuery {
    /// Only this round's games (an arena's: the games paired together).
    #[param(minimum = 1)]
    pub round: Option<i64>,
    /// Games per page, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<usize>,
    /// A previous page's `next_cursor`.
    #[param(min_length = 1)]
    pub cursor: Option<String>,
}

fn time(ms: i64) -> String {
    leapfrog_wire::game::rfc3339(ms)
}

/// The view of `t`; with `full`, its players and standings.
pub(super) async fn view(state: &AppState, t: &Tournament, full: bool) -> Result<TournamentView, ApiError> {
    let format = match t.format {
        Format::RoundRobin => TournamentFormat::RoundRobin,
        Format::DoubleRoundRobin => TournamentFormat::DoubleRoundRobin,
        Format::Swiss => TournamentFormat::Swiss,
        Format::Arena => TournamentFormat::Arena,
    };
    let creator = state.tournaments.names_of(std::slice::from_ref(&t.row.creator_id)).await?.remove(0);
    let invited = match &t.invited {
        Some(ids) => Some(state.tournaments.names_of(ids).await?),
        None => None,
    };
    let players = if full {
        t.players
            .iter()
            .map(|p| TournamentPlayerView {
                name: p.name.clone(),
                bot: p.bot != 0,
                rating: p.rating,
                seed: p.seed.map(|s| s + 1),
                withdrawn: p.withdrawn_at.is_some(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let standings = if full && t.status != Status::Open {
        t.standings()
            .into_iter()
            .map(|s| StandingView {
                place: s.place,
                name: t.players[s.entrant].name.clone(),
                points: t.shown_points(s.points),
                tiebreaks: s
                    .tiebreaks
                    .iter()
                    .map(|(k, v)| TiebreakView { name: tiebreak_name(*k), value: *v })
                    .collect(),
                played: s.played,
            })
            .collect()
    } else {
        Vec::new()
    };
    let cross_table = (full
        && t.status != Status::Open
        && matches!(t.format, Format::RoundRobin | Format::DoubleRoundRobin))
    .then(|| cross_table(t));
    let r = &t.row;
    Ok(TournamentView {
        id: r.id.clone(),
        name: r.name.clone(),
        creator,
        format,
        status: t.status.name().into(),
        rules: RuleSet::from_rules(&t.rules),
        rated: r.rated != 0,
        rounds: t.total_rounds(),
        round: r.round,
        move_time_limit: r.move_limit,
        correspondence: r.correspondence != 0,
        all_at_once: r.all_at_once != 0,
        duration_minutes: r.duration_ms.map(|ms| ms / 60_000),
        ends_at: t.ends_at().map(time),
        min_players: r.min_players,
        max_players: r.max_players,
        starts_at: r.starts_at.map(time),
        bots: r.bots != 0,
        invited,
        created_at: time(r.created_at),
        started_at: r.started_at.map(time),
        ended_at: r.ended_at.map(time),
        players,
        standings,
        cross_table,
    })
}

/// `t`'s cross table: by seed, each player's results against each other.
fn cross_table(t: &Tournament) -> Vec<CrossRow> {
    let n = t.players.len();
    let mut cells = vec![vec![String::new(); n]; n];
    for b in &t.boards {
        let (Some(first), Some(second)) =
            (t.entrant_of(&b.first_id), b.second_id.as_deref().and_then(|s| t.entrant_of(s)))
        else {
            continue;
        };
        let forfeit = b.forfeit != 0;
        let (f, s) = match b.outcome.as_deref() {
            Some("first") if forfeit => ("+", "−"),
            Some("second") if forfeit => ("−", "+"),
            Some("first") => ("1", "0"),
            Some("second") => ("0", "1"),
            Some("draw") => ("½", "½"),
            _ => ("*", "*"),
        };
        cells[first][second].push_str(f);
        cells[second][first].push_str(s);
    }
    t.players.iter().zip(cells).map(|(p, results)| CrossRow { name: p.name.clone(), results }).collect()
}

fn tiebreak_name(t: leapfrog_core::tournament::Tiebreak) -> String {
    use leapfrog_core::tournament::Tiebreak;
    match t {
        Tiebreak::Buchholz => "buchholz",
        Tiebreak::SonnebornBerger => "sonneborn_berger",
        Tiebreak::DirectEncounter => "direct_encounter",
        Tiebreak::Wins => "wins",
    }
    .into()
}
