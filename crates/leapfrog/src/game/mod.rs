//! The game domain: a persisted game — its rules, seats and position — and
//! what can be done with it: create, load, list, play a move, read its
//! history. Nothing here knows of HTTP; the API translates requests into
//! these calls and [`GameError`]s into answers.
//!
//! A seat is held by a person who has its token, by the computer, or is
//! open until someone joins it; the rule book's §11 (`docs/rules.md`) on
//! seats, resigning and move time limits lives in [`Game`] and the module
//! `seating`, never in handlers.

mod error;
mod input;
mod rematch;
mod seating;

use std::sync::Arc;

use jump_capture as jc;
use jump_search::Level;
use serde::{Deserialize, Serialize};

pub use error::GameError;
pub use input::{
    GameCursor, IdempotencyKey, InputError, MAX_KEY, MAX_NAME, PlayerName, SeatToken, TokenHash,
};
pub use rematch::Rematch;
pub use seating::{
    Created, GameResult, GameStatus, Joined, MAX_MOVE_LIMIT, MIN_MOVE_LIMIT, RESIGNED_LEVEL, SeatChoice,
};

use crate::store::{Commit, GameRow, KeyRecord, MoveRow, SeatRow, Store};
use crate::wire::{self, MoveInput, Outcome, RuleSet};

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Anyone: the game is listed in the lobby.
    Public,
    /// Whoever has the seat's invitation.
    Private,
}

/// How a seat stopped playing for itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
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
}

/// Who creates a game, and how many unfinished games they may have.
#[derive(Debug, Clone)]
pub struct Creator {
    /// The client's address as the server sees it (or empty).
    pub client: String,
    /// Most games this client may have that are neither over nor
    /// abandoned; 0 for no limit.
    pub max_unfinished: u32,
    /// Most of those where the computer holds every seat; 0 for no limit.
    pub max_computer_games: u32,
}

impl Creator {
    /// Whether this creator may make one more game.
    ///
    /// # Errors
    ///
    /// [`GameError::TooManyGames`] at the cap (concurrent creations may
    /// pass it by a few: it stops floods, it is not a ledger); store
    /// failures.
    pub async fn check_cap(&self, store: &Store) -> Result<(), GameError> {
        if self.max_unfinished > 0
            && store.unfinished_games_of(&self.client).await? >= i64::from(self.max_unfinished)
        {
            return Err(GameError::TooManyGames { limit: self.max_unfinished });
        }
        Ok(())
    }
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
    /// The token of the seat that plays.
    pub token: SeatToken,
    /// Play only at these versions.
    pub expected: Option<Expected>,
    /// A retry with the same key gets the first answer.
    pub key: Option<IdempotencyKey>,
    /// The move, as sent.
    pub mv: MoveInput,
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

/// A move of a game's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryMove {
    /// The ply it was played at (0 for the first move).
    pub ply: u32,
    /// Who played it.
    pub player: usize,
    /// The move.
    pub mv: jc::Move,
    /// The cells of the pieces it took off.
    pub captures: Vec<String>,
    /// Points it scored.
    pub gain: u32,
    /// When, in Unix milliseconds.
    pub at: i64,
    /// Whether the computer made it.
    pub computer: bool,
}

/// The time now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl Game {
    /// Deals a new game of `new_seats` in turn order under `rules`, with
    /// an optional move time limit in seconds, and stores it; returns it
    /// with one new token per person's seat and one invitation per private
    /// open seat (shown to the creator once, stored only as hashes).
    ///
    /// # Errors
    ///
    /// [`GameError::Players`] for a number of players the rules refuse;
    /// [`GameError::MoveLimit`] for a limit out of bounds;
    /// [`GameError::TooManyGames`] when the creator has their most
    /// unfinished games (concurrent creations may pass the cap by a few:
    /// it stops floods, it is not a ledger); store failures.
    pub async fn create(
        store: &Store,
        rules: Arc<jc::Rules>,
        new_seats: Vec<NewSeat>,
        seed: Option<u64>,
        move_limit: Option<u32>,
        creator: &Creator,
    ) -> Result<(Game, Created), GameError> {
        if let Some(limit) = move_limit
            && !(MIN_MOVE_LIMIT..=MAX_MOVE_LIMIT).contains(&limit)
        {
            return Err(GameError::MoveLimit(limit));
        }
        let (position, seed) = jc::Position::start(rules.clone(), new_seats.len(), seed)?;
        if position.count_moves(crate::work::MOVES).is_err() {
            return Err(GameError::TooManyMoves);
        }
        creator.check_cap(store).await?;
        if creator.max_computer_games > 0
            && new_seats.iter().all(|s| matches!(s, NewSeat::Computer(..)))
            && store.unfinished_computer_games_of(&creator.client).await?
                >= i64::from(creator.max_computer_games)
        {
            return Err(GameError::TooManyComputerGames { limit: creator.max_computer_games });
        }
        let now = now_ms();
        let seats = new_seats.into_iter().enumerate().map(|(player, seat)| {
            let (name, holder) = match seat {
                NewSeat::Person(name) => (name, Holder::Person),
                NewSeat::Computer(level, name) => (name, Holder::Computer(level)),
                NewSeat::Open(visibility) => (seating::open_name(), Holder::Open(visibility)),
            };
            Seat { player, name, holder, resigned: None }
        });
        let game = Game {
            id: uuid::Uuid::new_v4().to_string(),
            version: 1,
            rules,
            seed,
            seats: seats.collect(),
            stuck: position.is_over(),
            position,
            created_at: now,
            updated_at: now,
            client: creator.client.clone(),
            abandoned_at: None,
            move_limit,
            turn_at: now,
            rematch: None,
        };
        let mut created = Created::default();
        for seat in &game.seats {
            match seat.holder {
                Holder::Person => created.tokens.push((seat.player, SeatToken::generate()?)),
                Holder::Open(Visibility::Private) => {
                    created.invitations.push((seat.player, SeatToken::generate()?));
                }
                Holder::Open(Visibility::Public) | Holder::Computer(_) => {}
            }
        }
        let secret = |list: &[(usize, SeatToken)], player| {
            list.iter().find(|(p, _)| *p == player).map(|(_, t)| t.hash().as_str().to_string())
        };
        let rows: Vec<SeatRow> = game
            .seats
            .iter()
            .map(|seat| SeatRow {
                player: seat.player as i64,
                name: seat.name.as_str().to_string(),
                token_hash: secret(&created.tokens, seat.player)
                    .unwrap_or_else(|| game.no_token(seat.player)),
                invite_hash: secret(&created.invitations, seat.player),
                claim_hash: None,
            })
            .collect();
        store.insert_game(&game.to_row(), &rows).await?;
        Ok((game, created))
    }

    /// What a seat no token opens keeps as its token hash: never a SHA-256
    /// in hex, and unique (the version tells apart the times a seat was
    /// opened).
    fn no_token(&self, player: usize) -> String {
        match self.seats[player].holder {
            Holder::Computer(_) => format!("computer:{}:{player}", self.id),
            _ => format!("open:{}:{player}:{}", self.id, self.version),
        }
    }

    /// The game with this id.
    ///
    /// # Errors
    ///
    /// [`GameError::NotFound`]; a damaged row; store failures.
    pub async fn load(store: &Store, id: &str) -> Result<Game, GameError> {
        let row = store.game(id).await?.ok_or_else(|| GameError::NotFound(id.to_string()))?;
        Game::from_row(row)
    }

    /// A page of up to `limit` games, newest first, only those of `status`
    /// if given (a stored status, or [`crate::store::WAITING`]: waiting
    /// with public seats), after `after`; and the cursor of the next page,
    /// if there is one.
    ///
    /// # Errors
    ///
    /// A damaged row; store failures.
    pub async fn list(
        store: &Store,
        status: Option<&str>,
        limit: usize,
        after: Option<&GameCursor>,
    ) -> Result<(Vec<Game>, Option<GameCursor>), GameError> {
        let after = after.map(|c| (c.created_at, c.id.clone()));
        let mut rows = store.list_games(status, limit as i64 + 1, after).await?;
        let more = rows.len() > limit;
        rows.truncate(limit);
        let next =
            rows.last().filter(|_| more).map(|r| GameCursor { created_at: r.created_at, id: r.id.clone() });
        let games = rows.into_iter().map(Game::from_row).collect::<Result<_, _>>()?;
        Ok((games, next))
    }

    /// The moves of game `id` from ply `from` on, in order.
    ///
    /// # Errors
    ///
    /// A damaged row; store failures.
    pub async fn moves_since(store: &Store, id: &str, from: u32) -> Result<Vec<HistoryMove>, GameError> {
        store.moves(id, i64::from(from)).await?.into_iter().map(|m| HistoryMove::from_row(id, m)).collect()
    }

    /// The position after the first `ply` moves (0: the deal), replayed
    /// from the rules, the seed and the history.
    ///
    /// # Errors
    ///
    /// [`GameError::NoSuchPly`] past the game's ply; a damaged row.
    pub async fn position_at(&self, store: &Store, ply: u32) -> Result<jc::Position, GameError> {
        if ply > self.position.ply() {
            return Err(GameError::NoSuchPly { id: self.id.clone(), ply: self.position.ply(), asked: ply });
        }
        let moves = Game::moves_since(store, &self.id, 0).await?;
        self.replay(&moves[..moves.len().min(ply as usize)])
    }

    /// The deal with `moves` played on it.
    fn replay(&self, moves: &[HistoryMove]) -> Result<jc::Position, GameError> {
        let replay = |e: &dyn std::fmt::Display| GameError::corrupt(&self.id, "history", e);
        let (mut pos, _) = jc::Position::start(self.rules.clone(), self.seats.len(), Some(self.seed))
            .map_err(|e| replay(&e))?;
        for m in moves {
            pos.play(&m.mv).map_err(|e| replay(&e))?;
        }
        Ok(pos)
    }

    /// Plays a move for the seat whose token `request` carries, on the
    /// game as stored, and stores it — with the idempotency key's record,
    /// if any — in one transaction: of concurrent moves on a game exactly
    /// one is stored. Every request with the key of a stored move gets the
    /// game as that move left it, whenever it arrives, concurrent ones
    /// included, and changes nothing.
    ///
    /// The checks, in order: the game exists, the token is one of its
    /// seats, a retry is replayed, the version is expected, the game is not
    /// over, it is the seat's turn, the move reads, the rules allow it.
    ///
    /// # Errors
    ///
    /// The first check that fails. Lost races: [`GameError::Conflict`]
    /// when another move was stored between reading the game and writing,
    /// and [`GameError::Moved`] when, without `If-Match`, the seat is no
    /// longer to move because its own move was just played (the request
    /// crossed that move). [`GameError::KeyReused`] for a key that made a
    /// different move.
    pub async fn play(store: &Store, id: &str, request: MoveRequest) -> Result<MoveOutcome, GameError> {
        let (row, seat) = store
            .game_and_seat(id, request.token.hash().as_str())
            .await?
            .ok_or_else(|| GameError::NotFound(id.to_string()))?;
        let mut game = Game::from_row(row)?;
        let seat = seat.ok_or(GameError::NotASeat)?;
        let asked = request.mv.to_move("path");
        if let Some(key) = &request.key
            && let Some(first) = store.key_record(&game.id, seat, key.as_str()).await?
        {
            return game.replay_key(store, &first, asked.as_ref().ok()).await;
        }
        let version = game.version;
        if let Some(Expected::OneOf { versions, sent }) = &request.expected
            && !versions.contains(&version)
        {
            return Err(GameError::StaleVersion { version, expected: sent.clone() });
        }
        game.check_playable()?;
        let player = seat as usize;
        if player != game.position.to_move() {
            return Err(game.not_to_move(store, player, request.expected.is_none()).await?);
        }
        let mv = asked.map_err(GameError::Invalid)?;
        let key = request.key.as_ref();
        match game.commit(store, mv.clone(), key, false).await? {
            Commit::Done => Ok(MoveOutcome::Played(Box::new(game))),
            // A concurrent request with the same key may be the one that
            // won: then this one is its retry.
            Commit::Conflict => match key {
                Some(key) => match store.key_record(&game.id, seat, key.as_str()).await? {
                    Some(first) => game.replay_key(store, &first, Some(&mv)).await,
                    None => Err(GameError::Conflict),
                },
                None => Err(GameError::Conflict),
            },
        }
    }

    /// Plays `mv` for the computer's seat, which is to move, on the game as
    /// this value holds it; stored only if the game is still at this
    /// version (several processes may think for one game: the first to
    /// store wins, the others get [`GameError::Conflict`]).
    ///
    /// # Errors
    ///
    /// [`GameError::NotYourTurn`] when the seat to move is not the
    /// computer's, [`GameError::Over`], an illegal move, a lost race, store
    /// failures.
    pub async fn play_for_computer(mut self, store: &Store, mv: jc::Move) -> Result<Game, GameError> {
        self.check_playable()?;
        let to_move = self.position.to_move();
        if self.computer_to_move().is_none() {
            return Err(GameError::NotYourTurn { to_move, seat: to_move });
        }
        match self.commit(store, mv, None, true).await? {
            Commit::Done => Ok(self),
            Commit::Conflict => Err(GameError::Conflict),
        }
    }

    /// The level of the computer if it is to move in this game: at a
    /// computer's seat, or at a resigned seat it plays.
    pub fn computer_to_move(&self) -> Option<Level> {
        if self.status() != GameStatus::Started {
            return None;
        }
        let seat = self.seats.get(self.position.to_move())?;
        match (seat.holder, seat.resigned) {
            (Holder::Computer(level), _) => Some(level),
            (_, Some(_)) => Some(RESIGNED_LEVEL),
            (Holder::Person | Holder::Open(_), None) => None,
        }
    }

    /// The computer's choice at this game's position, by a player of
    /// `level` that has watched the moves of `history` (this game's, from
    /// the first; any past the position are ignored): a search learns
    /// from them how the others choose. Thinks: run it on the pool.
    ///
    /// # Errors
    ///
    /// A history that does not replay from the deal.
    pub fn computer_choice(
        &self,
        level: Level,
        seed: u64,
        history: &[HistoryMove],
    ) -> Result<Option<jc::Move>, GameError> {
        let mut player = level.player(seed);
        let mut pos = self.replay(&[])?;
        for m in history.iter().take(self.position.ply() as usize) {
            player.observe(&pos, &m.mv);
            pos.play(&m.mv).map_err(|e| GameError::corrupt(&self.id, "history", &e))?;
        }
        Ok(player.choose(&self.position))
    }

    /// Plays `mv` for the seat to move and stores it, with the key's record
    /// if any, if the stored game is still at this one's version.
    async fn commit(
        &mut self,
        store: &Store,
        mv: jc::Move,
        key: Option<&IdempotencyKey>,
        computer: bool,
    ) -> Result<Commit, GameError> {
        let version = self.version;
        let seat = self.position.to_move() as i64;
        let ply = self.position.ply();
        let played = self.position.play(&mv)?;
        self.stuck = self.position.is_over();
        let now = now_ms();
        self.version = version + 1;
        self.updated_at = now;
        self.turn_at = now;
        self.abandoned_at = None;
        let row = MoveRow {
            ply: i64::from(ply),
            player: seat,
            notation: played.mv.to_string(),
            // A plain serde value of strings: this cannot fail.
            captures: serde_json::to_string(
                &played.captures.iter().map(|(c, _)| c.to_string()).collect::<Vec<_>>(),
            )
            .unwrap_or_default(),
            gain: i64::from(played.gain),
            at: now,
            computer: i64::from(computer),
        };
        let record = key.map(|k| KeyRecord {
            key: k.as_str().to_string(),
            ply: i64::from(ply),
            version: self.version,
            request: mv.to_string(),
            created_at: now,
        });
        Ok(store.commit_move(&self.to_row(), version, &row, record.as_ref()).await?)
    }

    /// The refusal for `player`, who is not to move: a lost race when,
    /// without an expected version, the latest move is the player's own
    /// (the request crossed it), otherwise "not your turn".
    async fn not_to_move(
        &self,
        store: &Store,
        player: usize,
        unversioned: bool,
    ) -> Result<GameError, GameError> {
        let to_move = self.position.to_move();
        let ply = self.position.ply();
        if unversioned && ply > 0 {
            let last = Game::moves_since(store, &self.id, ply - 1).await?;
            if last.first().is_some_and(|m| m.player == player) {
                return Ok(GameError::Moved { ply: ply - 1, player, to_move });
            }
        }
        Ok(GameError::NotYourTurn { to_move, seat: player })
    }

    /// The answer to a retry of the keyed request that made `first`: the
    /// game as that move left it, if the retry asks for the same move.
    async fn replay_key(
        &self,
        store: &Store,
        first: &KeyRecord,
        asked: Option<&jc::Move>,
    ) -> Result<MoveOutcome, GameError> {
        if asked.map(ToString::to_string).as_deref() != Some(first.request.as_str()) {
            return Err(GameError::KeyReused { key: first.key.clone(), first: first.request.clone() });
        }
        let corrupt = |e: &dyn std::fmt::Display| GameError::corrupt(&self.id, "idempotency record", e);
        let ply = usize::try_from(first.ply).map_err(|e| corrupt(&e))?;
        let moves = Game::moves_since(store, &self.id, 0).await?;
        let made = moves.get(ply).ok_or_else(|| corrupt(&"its move is not in the history"))?;
        let position = self.replay(&moves[..=ply])?;
        Ok(MoveOutcome::Replayed(Box::new(Game {
            version: first.version,
            stuck: position.is_over(),
            position,
            updated_at: made.at,
            abandoned_at: None,
            ..self.clone()
        })))
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

    /// A stored game made live again.
    fn from_row(row: GameRow) -> Result<Game, GameError> {
        let id = row.id;
        let corrupt = |what, e: &dyn std::fmt::Display| GameError::corrupt(&id, what, e);
        let rules = wire::stored_rules(&row.rules).map_err(|e| corrupt("rules", &e))?;
        let setup: jc::Setup = row.position.parse().map_err(|e| corrupt("position", &e))?;
        let position =
            jc::Position::from_setup(rules.clone(), &setup).map_err(|e| corrupt("position", &e))?;
        let names: Vec<String> = serde_json::from_str(&row.players).map_err(|e| corrupt("players", &e))?;
        let levels: Vec<Option<String>> = match &row.computers {
            Some(json) => serde_json::from_str(json).map_err(|e| corrupt("computers", &e))?,
            None => Vec::new(),
        };
        let states: Vec<seating::SeatState> = match &row.seating {
            Some(json) => serde_json::from_str(json).map_err(|e| corrupt("seating", &e))?,
            None => Vec::new(),
        };
        let seats = names
            .iter()
            .enumerate()
            .map(|(player, name)| {
                let name = PlayerName::stored(name);
                let state = states.get(player).cloned().unwrap_or_default();
                // A resigned person's seat is in `computers` too (the
                // computer plays it), but its holder stays the person.
                let holder = match (state.open, state.resigned, levels.get(player).and_then(Option::as_deref))
                {
                    (Some(visibility), _, _) => Holder::Open(visibility),
                    (None, None, Some(level)) => {
                        Holder::Computer(level.parse().map_err(|e| corrupt("computers", &e))?)
                    }
                    _ => Holder::Person,
                };
                Ok(Seat { player, name, holder, resigned: state.resigned })
            })
            .collect::<Result<_, GameError>>()?;
        let seed = row.seed.parse().map_err(|e| corrupt("seed", &e))?;
        // Over, and not by resignation: the position is.
        let stuck = row.status == "over"
            && !row.result.as_deref().is_some_and(|r| {
                serde_json::from_str::<serde_json::Value>(r)
                    .is_ok_and(|v| v.get("ended").and_then(|e| e.as_str()) == Some("resignation"))
            });
        Ok(Game {
            stuck,
            version: row.version,
            rules,
            seed,
            seats,
            position,
            created_at: row.created_at,
            updated_at: row.updated_at,
            client: row.client,
            abandoned_at: row.abandoned_at,
            move_limit: row
                .move_limit
                .map(|l| u32::try_from(l).map_err(|e| corrupt("move limit", &e)))
                .transpose()?,
            turn_at: row.turn_at.unwrap_or(row.updated_at),
            rematch: row.rematch,
            id,
        })
    }

    /// The row that stores it.
    fn to_row(&self) -> GameRow {
        let names: Vec<&str> = self.seats.iter().map(|s| s.name.as_str()).collect();
        GameRow {
            id: self.id.clone(),
            version: self.version,
            rules: RuleSet::to_json(&self.rules),
            seed: self.seed.to_string(),
            // Plain serde values of strings and numbers: these cannot fail.
            players: serde_json::to_string(&names).unwrap_or_default(),
            position: self.position.to_string(),
            status: self.phase().name().to_string(),
            result: self.result().map(|r| serde_json::to_string(&Outcome::of_game(&r)).unwrap_or_default()),
            created_at: self.created_at,
            updated_at: self.updated_at,
            client: self.client.clone(),
            abandoned_at: self.abandoned_at,
            computers: self.computers_json(),
            seating: self.seating_json(),
            open_seats: self.seats.iter().filter(|s| matches!(s.holder, Holder::Open(_))).count() as i64,
            public_seats: self.seats.iter().filter(|s| s.holder == Holder::Open(Visibility::Public)).count()
                as i64,
            move_limit: self.move_limit.map(i64::from),
            turn_at: Some(self.turn_at),
            rematch: self.rematch.clone(),
        }
    }

    /// Each seat's level or null, as JSON: the computer's seats and the
    /// resigned seats it plays; `None` when it plays none.
    fn computers_json(&self) -> Option<String> {
        let levels: Vec<Option<String>> = self
            .seats
            .iter()
            .map(|s| match (s.holder, s.resigned) {
                (Holder::Computer(level), _) => Some(level.to_string()),
                (_, Some(_)) => Some(RESIGNED_LEVEL.to_string()),
                (Holder::Person | Holder::Open(_), None) => None,
            })
            .collect();
        // A plain serde value of strings: this cannot fail.
        levels.iter().any(Option::is_some).then(|| serde_json::to_string(&levels).unwrap_or_default())
    }
}

impl HistoryMove {
    fn from_row(id: &str, m: MoveRow) -> Result<HistoryMove, GameError> {
        let corrupt = |e: &dyn std::fmt::Display| GameError::corrupt(id, "move", e);
        Ok(HistoryMove {
            ply: u32::try_from(m.ply).map_err(|e| corrupt(&e))?,
            player: usize::try_from(m.player).map_err(|e| corrupt(&e))?,
            mv: m.notation.parse().map_err(|e| corrupt(&e))?,
            captures: serde_json::from_str(&m.captures).map_err(|e| corrupt(&e))?,
            gain: u32::try_from(m.gain).map_err(|e| corrupt(&e))?,
            at: m.at,
            computer: m.computer != 0,
        })
    }
}
