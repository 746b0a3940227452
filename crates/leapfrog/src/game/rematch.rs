//! Play again: any seat of a finished game asks for the next one. The
//! first ask creates it — the same rules, move time limit and kinds of
//! seat, the seats rotated by one (the second player moves first), a new
//! deal — and every later ask finds the same game. Each person claims
//! their new seat with their old token and gets a new, random token for
//! it; asking again (an answer lost on the way) issues another, and the
//! one before stops working. The store records which old token claims
//! which seat (by its hash); nothing of the new token is derived from the
//! old one.

use super::{Creator, Game, GameError, GameStatus, Holder, Seat, SeatToken, now_ms};
use crate::store::{SeatRow, Store};

/// A seat of a rematch, claimed.
#[derive(Debug)]
pub struct Rematch {
    /// The new game.
    pub game: Game,
    /// The caller's seat in it.
    pub player: usize,
    /// Its token.
    pub token: SeatToken,
    /// Whether this ask created the game.
    pub created: bool,
}

impl Game {
    /// The rematch of game `id` for the holder of `token`, created by the
    /// first ask.
    ///
    /// # Errors
    ///
    /// [`GameError::NotASeat`]; [`GameError::NotOver`] before the end;
    /// [`GameError::TooManyGames`] when creating it would pass the
    /// creator's cap of unfinished games (a rematch is a creation, charged
    /// to whoever asks first); store failures.
    pub async fn play_again(
        store: &Store,
        id: &str,
        token: &SeatToken,
        creator: &Creator,
    ) -> Result<Rematch, GameError> {
        let (old, _) = Game::with_seat(store, id, token).await?;
        if old.status() != GameStatus::Over {
            return Err(GameError::NotOver);
        }
        let (next_id, created) = match &old.rematch {
            Some(next) => (next.clone(), false),
            None => old.create_rematch(store, creator).await?,
        };
        let new_token = SeatToken::generate()?;
        let player = store
            .claim_seat(&next_id, token.hash().as_str(), new_token.hash().as_str())
            .await?
            .ok_or(GameError::NotASeat)?;
        let game = Game::load(store, &next_id).await?;
        Ok(Rematch { game, player: player as usize, token: new_token, created })
    }

    /// Stores the rematch of this finished game unless another ask stored
    /// one first; returns its id and whether this call made it.
    async fn create_rematch(&self, store: &Store, creator: &Creator) -> Result<(String, bool), GameError> {
        creator.check_cap(store).await?;
        let n = self.seats.len();
        let (position, seed) = jump_capture::Position::start(self.rules.clone(), n, None)?;
        let now = now_ms();
        // New seat q is old seat q + 1: the second player moves first.
        let seats = (0..n)
            .map(|q| {
                let old = &self.seats[(q + 1) % n];
                let holder = match old.holder {
                    Holder::Computer(level) => Holder::Computer(level),
                    Holder::Person | Holder::Open(_) => Holder::Person,
                };
                Seat { player: q, name: old.name.clone(), holder, resigned: None }
            })
            .collect();
        let next = Game {
            id: uuid::Uuid::new_v4().to_string(),
            version: 1,
            rules: self.rules.clone(),
            seed,
            seats,
            stuck: position.is_over(),
            position,
            created_at: now,
            updated_at: now,
            client: creator.client.clone(),
            abandoned_at: None,
            move_limit: self.move_limit,
            turn_at: now,
            rematch: None,
        };
        let old_hashes = store.token_hashes(&self.id).await?;
        let rows: Vec<SeatRow> = next
            .seats
            .iter()
            .map(|seat| {
                let old = (seat.player + 1) % n;
                let person = seat.holder == Holder::Person;
                SeatRow {
                    player: seat.player as i64,
                    name: seat.name.as_str().to_string(),
                    // Until claimed, no token opens a person's seat.
                    token_hash: if person {
                        format!("claim:{}:{}", next.id, seat.player)
                    } else {
                        next.no_token(seat.player)
                    },
                    invite_hash: None,
                    claim_hash: person
                        .then(|| old_hashes.iter().find(|(p, _)| *p == old as i64).map(|(_, h)| h.clone()))
                        .flatten(),
                }
            })
            .collect();
        if store.insert_rematch(&self.id, &next.to_row(), &rows).await? {
            return Ok((next.id, true));
        }
        let again = Game::load(store, &self.id).await?;
        let id =
            again.rematch.ok_or_else(|| GameError::corrupt(&self.id, "rematch", "lost the race to none"))?;
        Ok((id, false))
    }
}
