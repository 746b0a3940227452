//! The JSON forms of persisted games: the request that creates one, the
//! game as clients see it, its history and the events of its stream.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Outcome, PositionView, RuleSet, Rules, SeedInput, Status, seed_string};
use crate::game::{self, Game, HistoryMove, MAX_NAME, MAX_SEATS};

/// A seat of a new game: a person (`name`) or the computer (`computer`,
/// and a name if wanted).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerInput {
    /// The player's name: 1 to 64 characters once surrounding spaces are
    /// trimmed. Required for a person; for the computer, it defaults to
    /// "Computer (LEVEL)". Null is the same as leaving it out.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 64, pattern = r"\S")]
    pub name: Option<String>,
    /// The computer plays this seat at this level: the server makes its
    /// moves, and the seat has no token. Null or left out: a person.
    #[serde(default)]
    pub computer: Option<ComputerLevel>,
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
    /// person.
    #[schema(required = true)]
    pub computer: Option<ComputerLevel>,
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
    /// Opening, playing or over.
    pub status: Status,
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
    /// Only in the answer that creates the game: one seat per person (the
    /// computer's seats have none), with its secret token.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub seats: Option<Vec<SeatView>>,
}

/// Unix milliseconds as RFC 3339.
pub fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
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
                        game::Holder::Computer(level) => ComputerLevel::of(level),
                        game::Holder::Person => None,
                    },
                })
                .collect(),
            position: PositionView::of(game.position()),
            status: game.phase().into(),
            result: game.outcome().as_ref().map(Outcome::of),
            created_at: rfc3339(game.created_at()),
            updated_at: rfc3339(game.updated_at()),
            abandoned_at: game.abandoned_at().map(rfc3339),
            seats: None,
        }
    }

    /// The view of a new game with its people's seats' tokens.
    pub fn created(game: &Game, tokens: &[(usize, game::SeatToken)]) -> GameView {
        let seats = tokens
            .iter()
            .filter_map(|(player, t)| {
                let s = game.seats().get(*player)?;
                Some(SeatView {
                    player: s.player,
                    name: s.name.as_str().to_string(),
                    token: t.reveal().to_string(),
                })
            })
            .collect();
        GameView { seats: Some(seats), ..GameView::of(game) }
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

/// A move of a game's history: the data of a `move` event, too.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveRecord {
    /// The ply it was played at (0 for the first move).
    pub ply: u32,
    /// Who played it.
    pub player: usize,
    /// The cells of its path.
    pub path: Vec<String>,
    /// Its notation.
    pub notation: String,
    /// The cells of the pieces it took off.
    pub captures: Vec<String>,
    /// Points it scored.
    #[schema(format = "uint32")]
    pub gain: u32,
    /// When (RFC 3339).
    pub at: String,
    /// Whether the computer made it.
    pub computer: bool,
}

impl MoveRecord {
    /// The record of a move of the history.
    pub fn of(m: &HistoryMove) -> MoveRecord {
        MoveRecord {
            ply: m.ply,
            player: m.player,
            path: m.mv.path().iter().map(ToString::to_string).collect(),
            notation: m.mv.to_string(),
            captures: m.captures.clone(),
            gain: m.gain,
            at: rfc3339(m.at),
            computer: m.computer,
        }
    }
}

/// A game's history.
#[derive(Debug, Serialize, ToSchema)]
pub struct History {
    /// Every move, in order.
    pub moves: Vec<MoveRecord>,
}

/// The data of the `over` event that ends a game's stream.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameOverEvent {
    /// Always `over`.
    pub status: Status,
    /// The result.
    #[schema(required = true)]
    pub result: Option<Outcome>,
    /// The final position.
    pub position: PositionView,
}

impl GameOverEvent {
    /// The event of a finished game.
    pub fn of(game: &Game) -> GameOverEvent {
        GameOverEvent {
            status: Status::Over,
            result: game.outcome().as_ref().map(Outcome::of),
            position: PositionView::of(game.position()),
        }
    }
}
