//! The move path: a person's move (on the game kept hot when this
//! process has it, otherwise read), a retry replayed by its idempotency
//! key, and the computer's move.

use jump_capture as jc;

use super::queries as read;
use super::{GameError, Games, now_ms};
use leapfrog_core::game::{
    Command, Credential, Expected, Game, HistoryMove, MoveOutcome, MoveRequest, RuleError,
};
use leapfrog_store::KeyRecord;
use leapfrog_store::MoveRows;

impl Games {
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
    pub async fn play(&self, id: &str, request: MoveRequest) -> Result<MoveOutcome, GameError> {
        let hot = match &request.credential {
            Credential::Seat(token) => self.hot.seat(id, token.hash().as_str()),
            Credential::Account(_) => None,
        };
        if let Some((game, player)) = hot {
            match self.play_on(game, player, &request).await {
                Ok(done) => return Ok(done),
                // Perhaps the copy was stale (another process changed the game), and so the
                // refusal: it is dropped, and the game read afresh decides (nothing was stored).
                Err(_) => self.hot.forget(id),
            }
        }
        let (game, seat) = read::with_seat(&self.store, id, &request.credential).await?;
        let player = seat.ok_or(GameError::NotASeat)?;
        if let Credential::Seat(token) = &request.credential {
            self.hot.keep(&game, token.hash().as_str(), player);
        }
        self.play_on(game, player, &request).await
    }

    /// [`Games::play`] on `game` as read (or kept hot), for seat `player`.
    async fn play_on(
        &self,
        game: Game,
        player: usize,
        request: &MoveRequest,
    ) -> Result<MoveOutcome, GameError> {
        let key = request.key.as_ref();
        if let Some(key) = key
            && let Some(first) = self.store.key_record(game.id(), player as i64, key.as_str()).await?
        {
            return self.replay_key(&game, &first, request.mv.as_ref().ok()).await;
        }
        let version = game.version();
        if let Some(Expected::OneOf { versions, sent }) = &request.expected
            && !versions.contains(&version)
        {
            return Err(GameError::StaleVersion { version, expected: sent.clone() });
        }
        // The move asked for, as a keyed request's record names it.
        let asked = request.mv.as_ref().ok().cloned();
        let (next, changes) = match game.apply(Command::Play { player, mv: request.mv.clone() }, now_ms()) {
            Err(RuleError::NotYourTurn { to_move, seat }) if request.expected.is_none() => {
                return Err(self.not_to_move(&game, seat, to_move).await?);
            }
            applied => applied?,
        };
        let record = key.zip(asked.as_ref()).map(|(k, mv)| KeyRecord {
            key: k.as_str().to_string(),
            ply: i64::from(game.position().ply()),
            version: next.version(),
            request: mv.to_string(),
            created_at: next.updated_at(),
        });
        match self.commit(&game, next, &changes, None, record.as_ref()).await? {
            Some(next) => {
                self.follow_conditional_moves(&next).await;
                Ok(MoveOutcome::Played(Box::new(next)))
            }
            // A concurrent request with the same key may be the one that
            // won: then this one is its retry.
            None => match key {
                Some(key) => match self.store.key_record(game.id(), player as i64, key.as_str()).await? {
                    Some(first) => self.replay_key(&game, &first, asked.as_ref()).await,
                    None => Err(GameError::Conflict),
                },
                None => Err(GameError::Conflict),
            },
        }
    }

    /// The refusal for `player`, who is not to move, of a request without
    /// an expected version: a lost race when the latest move is the
    /// player's own (the request crossed it), otherwise "not your turn".
    async fn not_to_move(&self, game: &Game, player: usize, to_move: usize) -> Result<GameError, GameError> {
        let ply = game.position().ply();
        if ply > 0 {
            let last = self.store.moves(game.id(), i64::from(ply - 1)).await?;
            if last.first().is_some_and(|m| m.player == player as i64) {
                return Ok(GameError::Moved { ply: ply - 1, player, to_move });
            }
        }
        Ok(GameError::Game(RuleError::NotYourTurn { to_move, seat: player }))
    }

    /// The answer to a retry of the keyed request that made `first`: the
    /// game as that move left it, if the retry asks for the same move.
    async fn replay_key(
        &self,
        game: &Game,
        first: &KeyRecord,
        asked: Option<&jc::Move>,
    ) -> Result<MoveOutcome, GameError> {
        if asked.map(ToString::to_string).as_deref() != Some(first.request.as_str()) {
            return Err(GameError::KeyReused { key: first.key.clone(), first: first.request.clone() });
        }
        let corrupt = |e: &dyn std::fmt::Display| GameError::corrupt(game.id(), "idempotency record", e);
        let ply = usize::try_from(first.ply).map_err(|e| corrupt(&e))?;
        let rows = self.store.moves(game.id(), 0).await?;
        if rows.len() <= ply {
            return Err(corrupt(&"its move is not in the history"));
        }
        let moves = rows
            .into_iter()
            .take(ply + 1)
            .map(|m| HistoryMove::from_row(game.id(), m))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MoveOutcome::Replayed(Box::new(game.as_after(&moves, first.version)?)))
    }

    /// Plays `mv` for the computer's seat, which is to move, on `game` as
    /// read; stored only if the game is still at that version (several
    /// processes may think for one game: the first to store wins, the
    /// others get [`GameError::Conflict`]).
    ///
    /// # Errors
    ///
    /// [`RuleError::NotYourTurn`] when the seat to move is not the
    /// computer's, [`RuleError::Over`], an illegal move, a lost race, store
    /// failures.
    pub async fn play_for_computer(&self, game: &Game, mv: jc::Move) -> Result<Game, GameError> {
        let (next, changes) = game.apply(Command::PlayForComputer { mv }, now_ms())?;
        let next = self.commit(game, next, &changes, None, None).await?.ok_or(GameError::Conflict)?;
        self.follow_conditional_moves(&next).await;
        Ok(next)
    }
}
