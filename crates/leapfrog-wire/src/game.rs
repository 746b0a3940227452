//! The JSON forms of persisted games: the request that creates one and
//! the game as clients see it (its history and the data of its events are
//! `events`).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Outcome, PositionView, RuleSet, Rules, SeedInput, Status, seed_string};
use leapfrog_core::game::{self, Game, GameStatus, Holder, MAX_NAME, MAX_SEATS};

/// A seat of a new game: a person (`name`), the computer (`computer`, and
/// a name if wanted), or open for someone to join (`open`).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerInput {
    /// The player's name: 1 to 64 characters once surrounding spaces are
    /// trimmed. Required for a person; for the computer, it defaults to
    /// "Computer (LEVEL)"; not for an open seat. Null is the same as
    /// leaving it out.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64, pattern = r"\S")]
    pub name: Option<String>,
    /// The computer plays this seat at this level: the server makes its
    /// moves, and the seat has no token. Null or left out: a person.
    #[serde(default)]
    pub computer: Option<ComputerLevel>,
    /// The seat is open until someone joins it: `public` (the game is
    /// listed in the lobby, anyone may join) or `private` (the answer that
    /// creates the game gives its invitation; joining needs it). The game
    /// waits, nothing played, until every seat is held.
    #[serde(default)]
    pub open: Option<OpenSeat>,
    /// The seat is held by the account of this name: the creator's own,
    /// whose personal access token (with the `play` scope) comes with the
    /// request. The account's tokens play the seat as well as the seat's
    /// own token; its name is the seat's.
    #[serde(default)]
    #[schema(min_length = 2, max_length = 24, pattern = "^[A-Za-z][A-Za-z0-9_-]{1,23}$")]
    pub account: Option<String>,
}

/// Who may join an open seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OpenSeat {
    /// Anyone: the game is listed by `GET /v1/games?status=waiting`.
    Public,
    /// Whoever has the seat's invitation.
    Private,
}

impl OpenSeat {
    /// The domain's visibility.
    pub fn visibility(self) -> game::Visibility {
        match self {
            OpenSeat::Public => game::Visibility::Public,
            OpenSeat::Private => game::Visibility::Private,
        }
    }
}

/// How a seat stopped playing for itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResignationView {
    /// Its holder resigned.
    Resigned,
    /// It did not move within the move time limit.
    TimedOut,
}

/// Where a persisted game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GameStatusView {
    /// A seat is open: nothing is played until every seat is held.
    Waiting,
    /// The opening: each move removes one piece.
    Opening,
    /// Jumps.
    Playing,
    /// Over: the player to move could not move, or resignations ended it.
    Over,
}

impl GameStatusView {
    /// The status of a game.
    pub fn of(game: &Game) -> GameStatusView {
        match (game.status(), Status::from(game.phase())) {
            (GameStatus::Waiting, _) => GameStatusView::Waiting,
            (GameStatus::Over, _) | (_, Status::Over) => GameStatusView::Over,
            (GameStatus::Started, Status::Opening) => GameStatusView::Opening,
            (GameStatus::Started, Status::Playing) => GameStatusView::Playing,
        }
    }
}

/// How strongly the computer plays a seat, weakest first: `random`
/// (uniformly random moves), `greedy` (the largest immediate gain),
/// `lookahead` (gain less the best reply), `easy` (search, 300
/// iterations), `medium` (search, 3000 iterations), `hard` (search, 2
/// seconds a move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ComputerLevel {
    /// Uniformly random moves.
    Random,
    /// The largest immediate gain.
    Greedy,
    /// Gain less the best reply.
    Lookahead,
    /// Search, 300 iterations a move.
    Easy,
    /// Search, 3000 iterations a move.
    Medium,
    /// Search, 2 seconds a move.
    Hard,
}

impl ComputerLevel {
    /// The search crate's level.
    pub fn level(self) -> jump_search::Level {
        use jump_search::Level;
        match self {
            ComputerLevel::Random => Level::Random,
            ComputerLevel::Greedy => Level::Greedy,
            ComputerLevel::Lookahead => Level::Lookahead,
            ComputerLevel::Easy => Level::Easy,
            ComputerLevel::Medium => Level::Medium,
            ComputerLevel::Hard => Level::Hard,
        }
    }

    /// The wire level of one of the search crate's named levels.
    pub fn of(level: jump_search::Level) -> Option<ComputerLevel> {
        [
            ComputerLevel::Random,
            ComputerLevel::Greedy,
            ComputerLevel::Lookahead,
            ComputerLevel::Easy,
            ComputerLevel::Medium,
            ComputerLevel::Hard,
        ]
        .into_iter()
        .find(|c| c.level() == level)
    }
}

/// A request to create a game.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rules": {"preset": "murray"}, "players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7}))]
pub struct CreateGameRequest {
    /// The rule set.
    pub rules: Rules,
    /// The players in turn order; their number is the game's (1 to 64,
    /// within the rule set's range).
    #[schema(min_items = 1, max_items = 64)]
    pub players: Vec<PlayerInput>,
    /// Seed of the deal (a decimal string or a number); drawn when omitted
    /// or null.
    #[serde(default)]
    pub seed: Option<SeedInput>,
    /// Seconds a person's seat has for each move, from the moment it
    /// becomes its turn (5 to 1209600, two weeks); past it the server
    /// resigns the seat (rule book §11). The computer's seats have no
    /// limit. Null or left out: no limit (or `days_per_move`).
    #[serde(default)]
    #[schema(minimum = 5, maximum = 1209600)]
    pub move_time_limit: Option<u32>,
    /// A long game's control instead: 1, 2, 3, 5, 7, 10 or 14 days per
    /// move (a game view then shows `move_time_limit` in seconds and its
    /// `turn_ends_at`). Not with `move_time_limit`.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 14)]
    pub days_per_move: Option<u8>,
    /// A rated game (rule book §13): at least two seats, every one held by
    /// an account (the creator's own, with its token) or open for one, no
    /// computer seat, no account in two seats, a preset's rules (any
    /// direction set, a board of at least 6×6) and no `seed`. Its end
    /// changes its players' ratings in the pool of its preset and
    /// direction set — unless it ends before every seat has moved: then
    /// it is aborted (`"ended": "aborted"`), rated nowhere. Left out or
    /// false: a casual game.
    #[serde(default)]
    pub rated: bool,
}

const _: () = assert!(
    game::MIN_MOVE_LIMIT == 5 && game::MAX_MOVE_LIMIT == 1_209_600,
    "the schema's bounds above say 5 and 1209600"
);

/// A request to join an open seat.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Cleo"}))]
pub struct JoinRequest {
    /// The joiner's name: 1 to 64 characters once trimmed. Required
    /// unless the request carries a personal access token (with the `play`
    /// scope): then the account holds the seat under its own name.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64, pattern = r"\S")]
    pub name: Option<String>,
    /// The seat to join; left out or null: the private seat the invitation
    /// opens, or else the first open public seat.
    #[serde(default)]
    pub player: Option<usize>,
    /// A private seat's invitation.
    #[serde(default)]
    #[schema(min_length = 1)]
    pub invitation: Option<String>,
}

/// The answer to a join: the game, and the seat with its token.
#[derive(Debug, Serialize, ToSchema)]
pub struct Joined {
    /// The game after the join.
    pub game: GameView,
    /// The seat joined, with its token (shown only here).
    pub seat: SeatView,
}

/// A private open seat's invitation, shown once.
#[derive(Debug, Serialize, ToSchema)]
pub struct InvitationView {
    /// The seat.
    pub player: usize,
    /// The secret a joiner sends as `invitation`.
    pub invitation: String,
}

const _: () = assert!(MAX_SEATS == 64 && MAX_NAME == 64, "the schema's limits above say 64");

/// A player of a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerView {
    /// The player (from 0), their place in turn order.
    pub player: usize,
    /// Their name.
    pub name: String,
    /// The computer's level when the computer plays this seat; null for a
    /// person or an open seat.
    #[schema(required = true)]
    pub computer: Option<ComputerLevel>,
    /// Who may join the seat while it is open; null once someone holds it.
    #[schema(required = true)]
    pub open: Option<OpenSeat>,
    /// Whether the seat resigned or ran out of time; null while it plays.
    /// With three or more players the computer plays a resigned seat.
    #[schema(required = true)]
    pub resigned: Option<ResignationView>,
    /// Whether an account holds the seat (under the seat's name, its
    /// profile at `/v1/accounts/{name}`).
    pub account: bool,
    /// Whether that account is a bot (rule book §15).
    pub bot: bool,
}

/// A seat's secret, shown once.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    /// The player.
    pub player: usize,
    /// Their name.
    pub name: String,
    /// The bearer token that plays this seat. Shown only in the answer
    /// that creates the game; the server keeps only its hash.
    pub token: String,
}

/// A persisted game.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Game)]
pub struct GameView {
    /// Its id.
    pub id: String,
    /// Bumped by every move; the `ETag`.
    pub version: i64,
    /// The complete rule set.
    pub rules: RuleSet,
    /// The seed of the deal, as a decimal string (seeds go past what
    /// JavaScript numbers hold exactly); send it back as it is.
    #[schema(pattern = "^[0-9]{1,20}$", example = "13202136478012763868")]
    pub seed: String,
    /// The players in turn order.
    pub players: Vec<PlayerView>,
    /// The current position.
    pub position: PositionView,
    /// Whether it is rated (rule book §13).
    pub rated: bool,
    /// Waiting for players, opening, playing or over.
    pub status: GameStatusView,
    /// The result once over; null until then.
    #[schema(required = true)]
    pub result: Option<Outcome>,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// When it last changed (RFC 3339).
    pub updated_at: String,
    /// When the server marked it abandoned (RFC 3339): it had no move for
    /// the configured time (30 days by default) and no longer counts
    /// against its creator's cap. A move ends that; null otherwise.
    #[schema(required = true)]
    pub abandoned_at: Option<String>,
    /// Seconds a person's seat has for a move; null for no limit.
    #[schema(required = true, minimum = 5, maximum = 1209600)]
    pub move_time_limit: Option<u32>,
    /// When the seat to move runs out of time (RFC 3339): while a person's
    /// seat is to move in a started game with a limit; null otherwise.
    #[schema(required = true)]
    pub turn_ends_at: Option<String>,
    /// The id of the game that replays this one, once a seat asked for it
    /// (`POST /v1/games/{id}/rematch`); null until then.
    #[schema(required = true)]
    pub rematch: Option<String>,
    /// Only in the answer that creates the game: one seat per person (the
    /// computer's and open seats have none), with its secret token.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub seats: Option<Vec<SeatView>>,
    /// Only in the answer that creates the game: each private open seat's
    /// invitation.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub invitations: Option<Vec<InvitationView>>,
}

/// Unix milliseconds as RFC 3339.
pub fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}

/// RFC 3339 as Unix milliseconds, if it reads.
pub fn parse_rfc3339(text: &str) -> Option<i64> {
    chrono::DateTime::parse_from_rfc3339(text).ok().map(|t| t.timestamp_millis())
}

impl GameView {
    /// The view of a game.
    pub fn of(game: &Game) -> GameView {
        GameView {
            id: game.id().to_string(),
            version: game.version(),
            rules: RuleSet::from_rules(game.rules()),
            seed: seed_string(game.seed()),
            players: game
                .seats()
                .iter()
                .map(|s| PlayerView {
                    player: s.player,
                    name: s.name.as_str().to_string(),
                    computer: match s.holder {
                        Holder::Computer(level) => ComputerLevel::of(level),
                        Holder::Person | Holder::Open(_) => None,
                    },
                    open: match s.holder {
                        Holder::Open(game::Visibility::Public) => Some(OpenSeat::Public),
                        Holder::Open(game::Visibility::Private) => Some(OpenSeat::Private),
                        Holder::Person | Holder::Computer(_) => None,
                    },
                    resigned: s.resigned.map(|r| match r {
                        game::Resignation::Resigned => ResignationView::Resigned,
                        game::Resignation::TimedOut => ResignationView::TimedOut,
                    }),
                    account: s.account.is_some(),
                    bot: s.bot,
                })
                .collect(),
            position: PositionView::of(game.position()),
            rated: game.rated(),
            status: GameStatusView::of(game),
            result: game.result().as_ref().map(Outcome::of_game),
            created_at: rfc3339(game.created_at()),
            updated_at: rfc3339(game.updated_at()),
            abandoned_at: game.abandoned_at().map(rfc3339),
            move_time_limit: game.move_limit(),
            turn_ends_at: game.turn_ends_at().map(rfc3339),
            rematch: game.rematch().map(str::to_string),
            seats: None,
            invitations: None,
        }
    }

    /// The view of a new game with its people's seats' tokens and its
    /// private seats' invitations.
    pub fn created(game: &Game, created: &game::Created) -> GameView {
        let seats = created.tokens.iter().filter_map(|(player, t)| SeatView::of(game, *player, t)).collect();
        let invitations = created
            .invitations
            .iter()
            .map(|(player, t)| InvitationView { player: *player, invitation: t.reveal().to_string() })
            .collect();
        GameView { seats: Some(seats), invitations: Some(invitations), ..GameView::of(game) }
    }
}

impl SeatView {
    /// The view of seat `player` of `game` with its token.
    pub fn of(game: &Game, player: usize, token: &game::SeatToken) -> Option<SeatView> {
        let s = game.seats().get(player)?;
        Some(SeatView {
            player: s.player,
            name: s.name.as_str().to_string(),
            token: token.reveal().to_string(),
        })
    }
}

/// A page of games, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameList {
    /// The games.
    pub games: Vec<GameView>,
    /// The cursor of the next page; null on the last.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}
