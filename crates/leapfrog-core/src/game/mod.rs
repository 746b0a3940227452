//! The game core: a persisted game — its rules, seats and position — and
//! the rules of rule book §11 (`docs/rules.md`) on seats, resigning and
//! move time limits, as pure functions of the game and the time given.
//! Nothing here reads a clock or the system's randomness, touches the
//! store or knows of HTTP or JSON: [`Game::apply`] takes a [`Command`] and
//! the time and answers the new game and what changed, or the
//! [`RuleError`] that refuses it; the games service (the `play` module)
//! loads, commits and tells. The store keeps a game in its own forms and
//! makes it live again with [`Game::restore`].
//!
//! Its parts: `apply` (commands and the changes they make), `seating`
//! (seats, turns, clocks and results), `long` (the long games' rules of
//! §11: vacations and conditional replies, given an account's absence as a
//! plain input), `input` (names, tokens and cursors as they are read),
//! `error` (the refusals).

mod apply;
mod error;
mod input;
mod long;
mod seating;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use jump_capture as jc;
use jump_search::Level;

pub use apply::{Change, Command, NewGame, Postponement};
pub use error::RuleError;
pub use input::{
    Credential, GameCursor, IdempotencyKey, InputError, MAX_KEY, MAX_NAME, PlayerName, SeatToken, TokenHash,
    Unreadable,
};
pub use long::{Away, conditional_reply};
pub use seating::decide;
pub use seating::{
    DAY_MS, DAYS_PER_MOVE, GameResult, GameStatus, MAX_MOVE_LIMIT, MIN_MOVE_LIMIT, RESIGNED_LEVEL,
    RatingChange,
};

/// Most players in a persisted game.
pub const MAX_SEATS: usize = 64;

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// A person, who proves it with the seat's token.
    Person,
    /// The computer at a level: it has no token, the server plays it.
    Computer(Level),
    /// Nobody yet: the game waits until someone joins.
    Open(Visibility),
}

/// Who may join an open seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// Anyone: the game is listed in the lobby.
    Public,
    /// Whoever has the seat's invitation.
    Private,
}

/// How a seat stopped playing for itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resignation {
    /// Its holder resigned.
    Resigned,
    /// It did not move within the game's move time limit.
    TimedOut,
}

/// A seat of a game being created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewSeat {
    /// A person of this name; their token is returned.
    Person(PlayerName),
    /// The computer at a level, under this name.
    Computer(Level, PlayerName),
    /// Open for someone to join.
    Open(Visibility),
    /// A person's or a bot's account, under its name.
    Account(SeatAccount, PlayerName),
}

/// The account that holds a seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatAccount {
    /// Its id.
    pub id: String,
    /// Whether it is a bot (rule book §15).
    pub bot: bool,
}

/// One player's place in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The player (from 0): their place in turn order.
    pub player: usize,
    /// Their name.
    pub name: PlayerName,
    /// Who plays it.
    pub holder: Holder,
    /// Whether it resigned (then, with three or more players, the computer
    /// plays it).
    pub resigned: Option<Resignation>,
    /// The account that holds it (its id), when a person's account does:
    /// its tokens play the seat as well as the seat's own token.
    pub account: Option<String>,
    /// Whether that account is a bot (rule book §15).
    pub bot: bool,
}

/// A persisted game as it stands.
#[derive(Debug, Clone)]
pub struct Game {
    id: String,
    version: i64,
    rules: Arc<jc::Rules>,
    seed: u64,
    seats: Vec<Seat>,
    position: jc::Position,
    /// Whether the player to move in `position` has no move: decided when
    /// the position is made or played on, stored with the game (in its
    /// status and result), never worked out again by a read.
    stuck: bool,
    created_at: i64,
    updated_at: i64,
    client: String,
    abandoned_at: Option<i64>,
    /// Seconds a person's seat has for a move.
    move_limit: Option<u32>,
    /// When the seat to move got its turn, in Unix milliseconds.
    turn_at: i64,
    /// The game that replays this one, once asked for.
    rematch: Option<String>,
    /// Whether it is rated (rule book §13).
    rated: bool,
    /// A rated game's rating changes, once it has ended.
    rating_changes: Option<Vec<RatingChange>>,
    /// How many events its log holds; `None` for a game stored before
    /// there were logs, until its log is made from its rows.
    events: Option<u64>,
}

/// A game's parts as a store kept them, to make it live again
/// ([`Game::restore`]): the store reads and checks each column; nothing
/// here is worked out again.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// Its id.
    pub id: String,
    /// Its version.
    pub version: i64,
    /// Its rule set.
    pub rules: Arc<jc::Rules>,
    /// The seed of its deal.
    pub seed: u64,
    /// Its seats, in turn order.
    pub seats: Vec<Seat>,
    /// Its position now.
    pub position: jc::Position,
    /// Whether the player to move has no move (over by play).
    pub stuck: bool,
    /// When it was created, in Unix milliseconds.
    pub created_at: i64,
    /// When it last changed.
    pub updated_at: i64,
    /// Who created it.
    pub client: String,
    /// When it was found abandoned.
    pub abandoned_at: Option<i64>,
    /// Seconds a person's seat has for a move.
    pub move_limit: Option<u32>,
    /// When the seat to move got its turn.
    pub turn_at: i64,
    /// The game that replays it.
    pub rematch: Option<String>,
    /// Whether it is rated.
    pub rated: bool,
    /// A rated game's rating changes, once it has ended.
    pub rating_changes: Option<Vec<RatingChange>>,
    /// How many events its log holds (`None`: not made yet).
    pub events: Option<u64>,
}

/// The versions a move may be played at (from `If-Match`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// Any version.
    Any,
    /// One of these; `sent` is what the client wrote, for the message.
    OneOf {
        /// The versions.
        versions: Vec<i64>,
        /// The client's words.
        sent: String,
    },
}

/// A request to play a move for a seat.
#[derive(Debug, Clone)]
pub struct MoveRequest {
    /// Who plays: the seat's token, or its account's.
    pub credential: Credential,
    /// Play only at these versions.
    pub expected: Option<Expected>,
    /// A retry with the same key gets the first answer.
    pub key: Option<IdempotencyKey>,
    /// The move as read from the request: refused only once the checks
    /// before it pass (a move to a game that does not exist is a 404
    /// whatever it says).
    pub mv: Result<jc::Move, Unreadable>,
}

/// What came of a move request: the game just after the move.
#[derive(Debug)]
pub enum MoveOutcome {
    /// The move is played and stored (boxed: a game is large).
    Played(Box<Game>),
    /// A retry of a keyed request: the game as the first request left it,
    /// the same answer again.
    Replayed(Box<Game>),
}

/// The secrets of a new game, shown to its creator once.
#[derive(Debug, Default)]
pub struct Created {
    /// The token of each person's seat.
    pub tokens: Vec<(usize, SeatToken)>,
    /// The invitation of each private open seat.
    pub invitations: Vec<(usize, SeatToken)>,
}

/// A piece a move took off: its cell and its kind's letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    /// The cell it stood on.
    pub cell: String,
    /// Its kind's letter.
    pub kind: char,
}

/// A move of a game's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryMove {
    /// The ply it was played at (0 for the first move).
    pub ply: u32,
    /// Who played it.
    pub player: usize,
    /// The move.
    pub mv: jc::Move,
    /// The pieces it took off, in the order taken.
    pub captures: Vec<Captured>,
    /// Points it scored.
    pub gain: u32,
    /// When, in Unix milliseconds.
    pub at: i64,
    /// Whether the computer made it.
    pub computer: bool,
}

impl HistoryMove {
    /// The record of `played`, at `ply`, made at `at`.
    pub fn of(ply: u32, played: &jc::Played, at: i64, computer: bool) -> HistoryMove {
        HistoryMove {
            ply,
            player: played.player,
            mv: played.mv.clone(),
            captures: played
                .captures
                .iter()
                .map(|&(cell, kind)| Captured { cell: cell.to_string(), kind })
                .collect(),
            gain: played.gain,
            at,
            computer,
        }
    }
}

impl Game {
    /// A stored game made live again from its parts.
    pub fn restore(p: StoredGame) -> Game {
        Game {
            id: p.id,
            version: p.version,
            rules: p.rules,
            seed: p.seed,
            seats: p.seats,
            position: p.position,
            stuck: p.stuck,
            created_at: p.created_at,
            updated_at: p.updated_at,
            client: p.client,
            abandoned_at: p.abandoned_at,
            move_limit: p.move_limit,
            turn_at: p.turn_at,
            rematch: p.rematch,
            rated: p.rated,
            rating_changes: p.rating_changes,
            events: p.events,
        }
    }

    /// The deal with `moves` played on it, each checked against the rules;
    /// also gives the pieces each move took.
    ///
    /// # Errors
    ///
    /// A history that does not replay (a damaged row).
    pub fn replay(&self, moves: &[HistoryMove]) -> Result<(jc::Position, Vec<jc::Played>), RuleError> {
        let replay = |e: &dyn std::fmt::Display| RuleError::corrupt(&self.id, "history", e);
        let (mut pos, _) = jc::Position::start(self.rules.clone(), self.seats.len(), Some(self.seed))
            .map_err(|e| replay(&e))?;
        let mut played = Vec::with_capacity(moves.len());
        for m in moves {
            played.push(pos.play(&m.mv).map_err(|e| replay(&e))?);
        }
        Ok((pos, played))
    }

    /// The game as a keyed move left it: at `version`, after the moves of
    /// `history` (its first moves, up to and with that move).
    ///
    /// # Errors
    ///
    /// A history that does not replay.
    pub fn as_after(&self, history: &[HistoryMove], version: i64) -> Result<Game, RuleError> {
        let (position, _) = self.replay(history)?;
        Ok(Game {
            version,
            stuck: position.is_over(),
            position,
            updated_at: history.last().map_or(self.created_at, |m| m.at),
            abandoned_at: None,
            ..self.clone()
        })
    }

    /// The level of the computer if it is to move in this game: at a
    /// computer's seat, or at a resigned seat it plays.
    pub fn computer_to_move(&self) -> Option<Level> {
        if self.status() != GameStatus::Started {
            return None;
        }
        let seat = self.seats.get(self.position.to_move())?;
        seat_level(seat)
    }

    /// The computer's choice at this game's position, by a player of
    /// `level` that has watched the moves of `history` (this game's, from
    /// the first; any past the position are ignored): a search learns
    /// from them how the others choose. Thinks, on as many of `threads` as
    /// the level's budget uses (`jump_search::Level::player_on`): run it on
    /// the pool, with the threads it gives.
    ///
    /// # Errors
    ///
    /// A history that does not replay from the deal.
    pub fn computer_choice(
        &self,
        level: Level,
        seed: u64,
        history: &[HistoryMove],
        threads: usize,
    ) -> Result<Option<jc::Move>, RuleError> {
        let mut player = level.player_on(seed, threads);
        let (mut pos, _) = self.replay(&[])?;
        for m in history.iter().take(self.position.ply() as usize) {
            player.observe(&pos, &m.mv);
            pos.play(&m.mv).map_err(|e| RuleError::corrupt(&self.id, "history", &e))?;
        }
        Ok(player.choose(&self.position))
    }

    /// Its id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Its version: 1 when created, one more after each move.
    pub fn version(&self) -> i64 {
        self.version
    }

    /// Its rule set.
    pub fn rules(&self) -> &Arc<jc::Rules> {
        &self.rules
    }

    /// The seed of its deal.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Its seats, in turn order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// Its position now.
    pub fn position(&self) -> &jc::Position {
        &self.position
    }

    /// The position's phase: opening, playing or over. The game may be
    /// over before its position is (see [`Game::status`]).
    pub fn phase(&self) -> jc::Phase {
        if self.status() == GameStatus::Over {
            jc::Phase::Over
        } else if self.position.is_opening() {
            jc::Phase::Opening
        } else {
            jc::Phase::Playing
        }
    }

    /// Who created it: the client's address, or empty.
    pub fn client(&self) -> &str {
        &self.client
    }

    /// Whether a person plays in it: a seat held by a person who has not
    /// resigned.
    pub fn has_people(&self) -> bool {
        self.seats.iter().any(|s| s.holder == Holder::Person && s.resigned.is_none())
    }

    /// Seconds a person's seat has for a move, if limited.
    pub fn move_limit(&self) -> Option<u32> {
        self.move_limit
    }

    /// When the seat to move got its turn, in Unix milliseconds.
    pub fn turn_at(&self) -> i64 {
        self.turn_at
    }

    /// Whether it is a long game: a day or more a move (rule book §11),
    /// where vacations and conditional moves apply.
    pub fn long(&self) -> bool {
        self.move_limit.is_some_and(|l| i64::from(l) * 1000 >= DAY_MS)
    }

    /// The id of the game that replays this one, once a seat asked for it.
    pub fn rematch(&self) -> Option<&str> {
        self.rematch.as_deref()
    }

    /// When it was created, in Unix milliseconds.
    pub fn created_at(&self) -> i64 {
        self.created_at
    }

    /// When it last changed, in Unix milliseconds.
    pub fn updated_at(&self) -> i64 {
        self.updated_at
    }

    /// When the sweep found it abandoned (no move for the configured
    /// time), in Unix milliseconds; a move ends that.
    pub fn abandoned_at(&self) -> Option<i64> {
        self.abandoned_at
    }

    /// Whether it is rated.
    pub fn rated(&self) -> bool {
        self.rated
    }

    /// A rated game's rating pool: its preset and direction set
    /// (`murray/orthogonal`), and `/bots` when a bot holds a seat (bots are
    /// rated in pools of their own, rule book §15).
    pub fn pool(&self) -> Option<String> {
        let pool = if self.rated { preset_pool(&self.rules) } else { None }?;
        Some(if self.seats.iter().any(|s| s.bot) { format!("{pool}/{BOT_POOL}") } else { pool })
    }

    /// How many events its log holds (the next event's number); `None`
    /// for a game stored before there were logs, until its log is made.
    pub fn events(&self) -> Option<u64> {
        self.events
    }

    /// The game with `n` events in its log: set by whoever writes them.
    pub fn with_events(mut self, n: u64) -> Game {
        self.events = Some(n);
        self
    }

    /// The game with its rating changes, as its end writes them.
    pub fn with_rating_changes(mut self, changes: Vec<RatingChange>) -> Game {
        self.rating_changes = Some(changes);
        self
    }

    /// Whether the computer holds every seat.
    pub fn computer_only(&self) -> bool {
        self.seats.iter().all(|s| matches!(s.holder, Holder::Computer(_)))
    }
}

/// The pool of rules that are a preset's at some size and direction set
/// (`murray/orthogonal`); `None` for other rules.
/// What a bot pool's name ends with, after its preset and direction set.
pub const BOT_POOL: &str = "bots";

pub fn preset_pool(rules: &jc::Rules) -> Option<String> {
    let spec = rules.spec();
    let preset = jc::Preset::ALL.into_iter().find(|p| p.id() == spec.name)?;
    let as_preset = preset.spec().with_size(spec.rows, spec.cols).with_directions(spec.directions);
    (as_preset == *spec).then(|| format!("{}/{}", spec.name, spec.directions))
}

/// The level the computer plays `seat` at, if it plays it: its own seat,
/// or a resigned one.
pub fn seat_level(seat: &Seat) -> Option<Level> {
    match (seat.holder, seat.resigned) {
        (Holder::Computer(level), _) => Some(level),
        (_, Some(_)) => Some(RESIGNED_LEVEL),
        (Holder::Person | Holder::Open(_), None) => None,
    }
}
