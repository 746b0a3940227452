//! The rows the store reads and writes, one type per table. Their text
//! columns hold the forms of `stored`.

/// A game as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    /// Its id (a UUID).
    pub id: String,
    /// Bumped by every move.
    pub version: i64,
    /// The complete rule set, JSON.
    pub rules: String,
    /// The deal's seed, decimal.
    pub seed: String,
    /// Player names, JSON array.
    pub players: String,
    /// The position string.
    pub position: String,
    /// `opening`, `playing` or `over`.
    pub status: String,
    /// The result JSON, when over.
    pub result: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub updated_at: i64,
    /// Who created it: the client's address, or empty.
    pub client: String,
    /// When the sweep found it abandoned (Unix milliseconds), if it did.
    pub abandoned_at: Option<i64>,
    /// For a game with computer seats: JSON, each seat's level or null.
    pub computers: Option<String>,
    /// For a game with open or resigned seats: JSON, one entry per seat
    /// (see the migration that made it).
    pub seating: Option<String>,
    /// How many seats are open.
    pub open_seats: i64,
    /// How many of them are public.
    pub public_seats: i64,
    /// Seconds a seat has for a move, if limited.
    pub move_limit: Option<i64>,
    /// When the seat to move got its turn (Unix milliseconds); `None` for
    /// games older than the clock.
    pub turn_at: Option<i64>,
    /// The id of the game that replays this one, once asked for.
    pub rematch: Option<String>,
    /// 1 for a rated game.
    pub rated: i64,
    /// The preset and direction set of a game with a preset's rules.
    pub pool: Option<String>,
    /// When the computer's turn began, while a computer seat is to move.
    pub computer_due: Option<i64>,
    /// How many events its log holds (the next event's number); `None`
    /// for a game stored before the log, until its first read makes it.
    pub events: Option<i64>,
}

/// One event of a game's log.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EventRow {
    /// Its number in the game's log, from 0.
    pub seq: i64,
    /// What it is: its event name on a stream (`move`, `joined`, …).
    pub kind: String,
    /// Its data, JSON, as every stream sends it.
    pub data: String,
    /// When, in Unix milliseconds.
    pub at: i64,
}

/// A seat: a player's name and the hash of their token.
#[derive(Debug, Clone)]
pub struct SeatRow {
    /// The player, from 0.
    pub player: i64,
    /// Their name.
    pub name: String,
    /// SHA-256 of the token, hex; for a seat no token opens (the
    /// computer's, an open one), a text that is never such a hash.
    pub token_hash: String,
    /// A private seat: SHA-256 of its invitation, hex.
    pub invite_hash: Option<String>,
    /// A rematch's seat: the hash of the old seat's token, which claims it.
    pub claim_hash: Option<String>,
    /// The account that holds it, if one does.
    pub account_id: Option<String>,
}

/// Most events a move makes: the move and the end.
pub const MOVE_EVENTS: usize = 2;

/// A move as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    /// The ply it was played at (0 for the first move).
    pub ply: i64,
    /// Who played it.
    pub player: i64,
    /// Its notation.
    pub notation: String,
    /// JSON array of captured cells.
    pub captures: String,
    /// Points scored.
    pub gain: i64,
    /// Unix milliseconds.
    pub at: i64,
    /// 1 when the computer made it, 0 when a person did.
    pub computer: i64,
    /// The letters of the kinds it took, in the order of `captures`;
    /// `None` for moves stored before kinds were.
    pub kinds: Option<String>,
}

/// What an idempotency key made: enough to answer a retry again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    /// The key, as the client sent it.
    pub key: String,
    /// The ply of the move it made.
    pub ply: i64,
    /// The game's version after that move.
    pub version: i64,
    /// The move asked for, in notation: a retry must ask for the same.
    pub request: String,
    /// When, in Unix milliseconds: stored as the move's time.
    pub created_at: i64,
}

/// The outcome of trying to commit a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commit {
    /// The move and the game's new state are stored.
    Done,
    /// Another move got there first (the ply is taken or the version moved).
    Conflict,
}

/// An endpoint as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct WebhookRow {
    /// Its id (`wh_…`).
    pub id: String,
    /// Its owner.
    pub account_id: String,
    /// Where deliveries go.
    pub url: String,
    /// The kinds sent, `,kind,kind,`, or `*` for all.
    pub events: String,
    /// The signing secret (`whsec_…`).
    pub secret: String,
    /// The secret before the last rotation, still signing until `old_until`.
    pub old_secret: Option<String>,
    /// Unix milliseconds.
    pub old_until: Option<i64>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// The first failure since the last success (Unix milliseconds).
    pub failing_since: Option<i64>,
    /// Why it was switched off: `gone` (410) or `failing` (a day of failures).
    pub disabled: Option<String>,
}

/// A delivery as its owner lists it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DeliveryRow {
    /// The `webhook-id` every try sends.
    pub id: String,
    /// The event's kind.
    pub kind: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// `pending`, `delivered`, `failed` or `dropped`.
    pub status: String,
    /// Tries made.
    pub tries: i64,
    /// The next try, while pending (Unix milliseconds).
    pub next_at: Option<i64>,
    /// The last answer's status.
    pub last_status: Option<i64>,
    /// The last try's failure, when it got no answer.
    pub last_error: Option<String>,
}

/// An event as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentRow {
    /// Its id (a UUID).
    pub id: String,
    /// Who made it.
    pub creator_id: String,
    /// Its name.
    pub name: String,
    /// `round_robin`, `double_round_robin`, `swiss` or `arena`.
    pub format: String,
    /// The rule set, JSON as the API gives it.
    pub rules: String,
    /// 1 for rated.
    pub rated: i64,
    /// A Swiss's rounds.
    pub rounds: Option<i64>,
    /// 1: a correspondence round-robin pairs every game at the start.
    pub all_at_once: i64,
    /// Seconds a move (days × 86400 by correspondence).
    pub move_limit: Option<i64>,
    /// 1 for correspondence.
    pub correspondence: i64,
    /// An arena's length, in milliseconds.
    pub duration_ms: Option<i64>,
    /// Players it needs to start.
    pub min_players: i64,
    /// Players it takes at most.
    pub max_players: i64,
    /// When it starts by itself (Unix milliseconds); `None`: when its
    /// creator says.
    pub starts_at: Option<i64>,
    /// 1 when bots may join.
    pub bots: i64,
    /// JSON list of the account ids invited; `None`: open to all.
    pub invited: Option<String>,
    /// `open`, `running`, `over` or `canceled`.
    pub status: String,
    /// The round being played (0 before the first).
    pub round: i64,
    /// Bumped by every change.
    pub version: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub started_at: Option<i64>,
    /// Unix milliseconds.
    pub ended_at: Option<i64>,
}

/// A player of an event.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentPlayerRow {
    /// The event.
    pub tournament_id: String,
    /// The account.
    pub account_id: String,
    /// Its name when it joined.
    pub name: String,
    /// 1 for a bot.
    pub bot: i64,
    /// Its rating when it joined, rounded.
    pub rating: i64,
    /// Unix milliseconds.
    pub joined_at: i64,
    /// Its place in the roster, from 0, set at the start.
    pub seed: Option<i64>,
    /// When it left the running event, or was withdrawn.
    pub withdrawn_at: Option<i64>,
    /// Games of the event it lost on time.
    pub timeouts: i64,
}

/// A game (or a bye) of an event.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentGameRow {
    /// The event.
    pub tournament_id: String,
    /// Its round, from 1 (an arena's games count up as they are paired).
    pub round: i64,
    /// Its place in the round, from 0.
    pub board: i64,
    /// The game; `None` for a bye.
    pub game_id: Option<String>,
    /// The first seat's account (a bye's player).
    pub first_id: String,
    /// The second seat's account.
    pub second_id: Option<String>,
    /// `first`, `second` or `draw` once decided.
    pub outcome: Option<String>,
    /// 1 when decided without being played over the board.
    pub forfeit: i64,
}
