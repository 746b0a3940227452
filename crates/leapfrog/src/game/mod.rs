//! The game domain: a persisted game — its rules, seats and position — and
//! what can be done with it: create, load, list, play a move, read its
//! history. Nothing here knows of HTTP; the API translates requests into
//! these calls and [`GameError`]s into answers.
//!
//! A seat is held by a person who has its token. The other holders of the
//! rule book's §11 (`docs/rules.md`: the computer, open seats), resigning
//! and move time limits belong to [`Game`] and [`Holder`], not to handlers.

mod error;
mod input;

use std::sync::Arc;

use jump_capture as jc;

pub use error::GameError;
pub use input::{
    GameCursor, IdempotencyKey, InputError, MAX_KEY, MAX_NAME, PlayerName, SeatToken, TokenHash,
};

use crate::store::{Commit, GameRow, MoveRow, SeatRow, Store, StoredAnswer};
use crate::wire::{self, MoveInput, Outcome, RuleSet};

/// Most players in a persisted game.
pub const MAX_SEATS: usize = 64;

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// A person, who proves it with the seat's token.
    Person,
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
    created_at: i64,
    updated_at: i64,
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

/// The answer given to a keyed move, replayed to its retries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// Its status.
    pub status: u16,
    /// Its body.
    pub body: String,
}

/// What came of a move request.
#[derive(Debug)]
pub enum MoveOutcome {
    /// The move is played and stored: the game after it, and the answer
    /// to give.
    Played {
        /// The game after the move (boxed: a game is large).
        game: Box<Game>,
        /// The answer.
        receipt: Receipt,
    },
    /// A retry of a keyed request: its first answer.
    Replayed(Receipt),
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
}

/// The time now, in Unix milliseconds.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl Game {
    /// Deals a new game of `names` in turn order under `rules` and stores
    /// it; returns it with one new token per seat, in seat order (shown to
    /// the creator once, stored only as hashes).
    ///
    /// # Errors
    ///
    /// [`GameError::Players`] for a number of players the rules refuse;
    /// store failures.
    pub async fn create(
        store: &Store,
        rules: Arc<jc::Rules>,
        names: Vec<PlayerName>,
        seed: Option<u64>,
    ) -> Result<(Game, Vec<SeatToken>), GameError> {
        let (position, seed) = jc::Position::start(rules.clone(), names.len(), seed)?;
        let now = now_ms();
        let seats =
            names.into_iter().enumerate().map(|(player, name)| Seat { player, name, holder: Holder::Person });
        let game = Game {
            id: uuid::Uuid::new_v4().to_string(),
            version: 1,
            rules,
            seed,
            seats: seats.collect(),
            position,
            created_at: now,
            updated_at: now,
        };
        let tokens = game.seats.iter().map(|_| SeatToken::generate()).collect::<Result<Vec<_>, _>>()?;
        let rows: Vec<SeatRow> = game
            .seats
            .iter()
            .zip(&tokens)
            .map(|(seat, token)| SeatRow {
                player: seat.player as i64,
                name: seat.name.as_str().to_string(),
                token_hash: token.hash().as_str().to_string(),
            })
            .collect();
        store.insert_game(&game.to_row(), &rows).await?;
        Ok((game, tokens))
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

    /// A page of up to `limit` games, newest first, only those in `phase`
    /// if given, after `after`; and the cursor of the next page, if there
    /// is one.
    ///
    /// # Errors
    ///
    /// A damaged row; store failures.
    pub async fn list(
        store: &Store,
        phase: Option<jc::Phase>,
        limit: usize,
        after: Option<&GameCursor>,
    ) -> Result<(Vec<Game>, Option<GameCursor>), GameError> {
        let after = after.map(|c| (c.created_at, c.id.clone()));
        let mut rows = store.list_games(phase.map(jc::Phase::name), limit as i64 + 1, after).await?;
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
        let replay = |e: &dyn std::fmt::Display| GameError::corrupt(&self.id, "history", e);
        let (mut pos, _) = jc::Position::start(self.rules.clone(), self.seats.len(), Some(self.seed))
            .map_err(|e| replay(&e))?;
        for m in Game::moves_since(store, &self.id, 0).await?.into_iter().take(ply as usize) {
            pos.play(&m.mv).map_err(|e| replay(&e))?;
        }
        Ok(pos)
    }

    /// Plays a move for the seat whose token `request` carries, on the
    /// game as stored, and stores it with `answer`'s receipt for retries —
    /// all in one transaction: of concurrent moves on a game exactly one is
    /// stored. A keyed retry gets its first receipt and changes nothing.
    ///
    /// The checks, in order: the game exists, the token is one of its
    /// seats, a retry is replayed, the version is expected, the game is not
    /// over, it is the seat's turn, the move reads, the rules allow it.
    ///
    /// # Errors
    ///
    /// The first check that fails; [`GameError::Conflict`] when another
    /// move was stored first.
    pub async fn play(
        store: &Store,
        id: &str,
        request: MoveRequest,
        answer: impl FnOnce(&Game) -> Receipt,
    ) -> Result<MoveOutcome, GameError> {
        let (row, seat) = store
            .game_and_seat(id, request.token.hash().as_str())
            .await?
            .ok_or_else(|| GameError::NotFound(id.to_string()))?;
        let mut game = Game::from_row(row)?;
        let seat = seat.ok_or(GameError::NotASeat)?;
        if let Some(key) = &request.key
            && let Some(first) = store.answer(&game.id, seat, key.as_str()).await?
        {
            let status = u16::try_from(first.status).map_err(|e| GameError::corrupt(id, "answer", e))?;
            return Ok(MoveOutcome::Replayed(Receipt { status, body: first.body }));
        }
        let version = game.version;
        if let Some(Expected::OneOf { versions, sent }) = &request.expected
            && !versions.contains(&version)
        {
            return Err(GameError::StaleVersion { version, expected: sent.clone() });
        }
        if game.position.is_over() {
            return Err(GameError::Over);
        }
        let to_move = game.position.to_move();
        let player = seat as usize;
        if player != to_move {
            return Err(GameError::NotYourTurn { to_move, seat: player });
        }
        let mv = request.mv.to_move("path").map_err(GameError::Invalid)?;
        let ply = game.position.ply();
        let played = game.position.play(&mv)?;
        let now = now_ms();
        game.version = version + 1;
        game.updated_at = now;
        let receipt = answer(&game);
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
        };
        // The receipt is kept for retries only when the request has a key.
        let stored = request.key.as_ref().map(|k| {
            (k.as_str(), StoredAnswer { status: i64::from(receipt.status), body: receipt.body.clone() })
        });
        let key = stored.as_ref().map(|(k, answer)| (*k, answer));
        match store.commit_move(&game.to_row(), version, &row, key).await? {
            Commit::Done => Ok(MoveOutcome::Played { game: Box::new(game), receipt }),
            Commit::Conflict => Err(GameError::Conflict),
        }
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

    /// Opening, playing or over.
    pub fn phase(&self) -> jc::Phase {
        self.position.phase()
    }

    /// The result, once over.
    pub fn outcome(&self) -> Option<jc::Outcome> {
        self.position.outcome()
    }

    /// When it was created, in Unix milliseconds.
    pub fn created_at(&self) -> i64 {
        self.created_at
    }

    /// When it last changed, in Unix milliseconds.
    pub fn updated_at(&self) -> i64 {
        self.updated_at
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
        let seats = names
            .iter()
            .enumerate()
            .map(|(player, name)| {
                let name = PlayerName::parse(name).map_err(|e| corrupt("players", &e))?;
                Ok(Seat { player, name, holder: Holder::Person })
            })
            .collect::<Result<_, GameError>>()?;
        let seed = row.seed.parse().map_err(|e| corrupt("seed", &e))?;
        Ok(Game {
            version: row.version,
            rules,
            seed,
            seats,
            position,
            created_at: row.created_at,
            updated_at: row.updated_at,
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
            result: self.outcome().map(|o| serde_json::to_string(&Outcome::of(&o)).unwrap_or_default()),
            created_at: self.created_at,
            updated_at: self.updated_at,
        }
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
        })
    }
}
