//! Play again: the first ask for a finished game's rematch creates it (a
//! creation, charged to whoever asks first); every ask claims the asker's
//! seat in it with their old token and gets a new, random one. The store
//! records which old token claims which seat (by its hash); nothing of
//! the new token is derived from the old one.

use super::consent::{self, Path, Refused, Role};
use super::{Creator, Games, Seated, no_token, now_ms, random_seed};
use crate::play::GameError;
use crate::play::queries as read;
use leapfrog_core::game::{Credential, Game, GameStatus, Holder, RuleError};
use leapfrog_store::GameRows;
use leapfrog_store::{Commit, SeatRow, StoreError};

impl Games {
    /// The rematch of game `id` for the holder of `token`, created by the
    /// first ask: see [`Game::rematch_game`]. Each person claims their
    /// seat with their old token and gets a new, random one; asking again
    /// issues another, and the one before stops working.
    ///
    /// # Errors
    ///
    /// [`GameError::NotASeat`]; [`RuleError::NotOver`] before the end;
    /// [`GameError::TooManyGames`] when creating it would pass the
    /// creator's cap (a rematch is a creation, charged to whoever asks
    /// first); store failures.
    pub async fn play_again(
        &self,
        id: &str,
        credential: &Credential,
        creator: &Creator,
    ) -> Result<Seated, GameError> {
        let (old, seat) = read::with_seat(&self.store, id, credential).await?;
        let player = seat.ok_or(GameError::NotASeat)?;
        if old.status() != GameStatus::Over {
            return Err(GameError::Game(RuleError::NotOver));
        }
        let (next_id, created) = match old.rematch() {
            Some(next) => (next.to_string(), false),
            None => {
                let asking = match credential {
                    Credential::Account(account) => Some(account.as_str()),
                    Credential::Seat(_) => old.seats().get(player).and_then(|s| s.account.as_deref()),
                };
                self.consent_to_rematch(&old, asking, creator.max_unfinished).await?;
                self.create_rematch(&old, creator).await?
            }
        };
        let new_token = crate::play::new_token()?;
        let hash = new_token.hash();
        let player = match credential {
            Credential::Seat(token) => self
                .store
                .claim_seat(&next_id, token.hash().as_str(), hash.as_str())
                .await?
                .ok_or(GameError::NotASeat)?,
            // An account holds its seat in the rematch too: a new token for it.
            Credential::Account(account) => {
                let next = self.load(&next_id).await?;
                let seat = next.seats().iter().find(|s| s.account.as_ref() == Some(account));
                let player = seat.ok_or(GameError::NotASeat)?.player as i64;
                self.store.set_seat_token(&next_id, player, hash.as_str()).await?;
                player
            }
        };
        let game = self.load(&next_id).await?;
        Ok(Seated { game, player: player as usize, token: new_token, created })
    }

    /// The one check of who sits with whom (see [`consent`]) for the
    /// rematch of `old` asked by the account `asking` (if any): a game
    /// with a bot seat is played again by a challenge, never by a rematch
    /// (a bot creates no game, and a person's consent to a bot is given
    /// to a challenge); the accounts as they stand now.
    async fn consent_to_rematch(&self, old: &Game, asking: Option<&str>, most: u32) -> Result<(), GameError> {
        if old.seats().iter().any(|s| s.bot) {
            return Err(Refused::BotsPlayChallenges.into());
        }
        let role = |id: &str| if Some(id) == asking { Role::Asking } else { Role::Asked };
        let seated: Vec<(&str, Role)> =
            old.seats().iter().filter_map(|s| s.account.as_deref()).map(|id| (id, role(id))).collect();
        let terms = consent::terms(old.rules(), old.move_limit(), old.rated());
        self.consent(&seated, &terms, Path::Other, most).await.map(drop)
    }

    /// Stores the rematch of the finished game `old` unless another ask
    /// stored one first; returns its id and whether this call made it.
    async fn create_rematch(&self, old: &Game, creator: &Creator) -> Result<(String, bool), GameError> {
        self.check_caps(creator, false).await?;
        let next = old.rematch_game(
            uuid::Uuid::new_v4().to_string(),
            random_seed()?,
            creator.client.clone(),
            now_ms(),
            leapfrog_wire::budget::MOVES,
        )?;
        let old_hashes = self.store.token_hashes(old.id()).await?;
        let n = next.seats().len();
        let rows: Vec<SeatRow> = next
            .seats()
            .iter()
            .map(|seat| {
                // New seat q is old seat q + 1.
                let was = ((seat.player + 1) % n) as i64;
                let person = seat.holder == Holder::Person;
                SeatRow {
                    player: seat.player as i64,
                    name: seat.name.as_str().to_string(),
                    // Until claimed, no token opens a person's seat.
                    token_hash: if person {
                        format!("claim:{}:{}", next.id(), seat.player)
                    } else {
                        no_token(&next, seat.player)
                    },
                    invite_hash: None,
                    claim_hash: person
                        .then(|| old_hashes.iter().find(|(p, _)| *p == was).map(|(_, h)| h.clone()))
                        .flatten(),
                    account_id: seat.account.clone(),
                }
            })
            .collect();
        let seq = old.events().ok_or_else(|| GameError::corrupt(old.id(), "events", "no log"))?;
        let event = crate::events::rematch(seq, next.id(), next.created_at()).map_err(StoreError::Encode)?;
        if self.store.insert_rematch(old.id(), old.version(), &event, &next.to_row()?, &rows).await?
            == Commit::Done
        {
            // The old game now points to it: its followers hear of it.
            self.hub.notify(old.id());
            self.tell(&next);
            return Ok((next.id().to_string(), true));
        }
        let again = self.load(old.id()).await?;
        let id = again
            .rematch()
            .ok_or_else(|| GameError::corrupt(old.id(), "rematch", "lost the race to none"))?;
        Ok((id.to_string(), false))
    }
}
