//! Seats over a game's life (rule book §11) through the service: joins,
//! leaves, resignations and time-outs, each applied to the game as stored
//! and committed against its version (of concurrent joins for one seat
//! exactly one wins; of several processes applying one time-out exactly
//! one does).

use super::{Games, SeatChoice, Seated, TRIES, now_ms};
use crate::play::GameError;
use crate::play::queries as read;
use leapfrog_core::game::{Change, Command, Credential, Game, Holder, PlayerName};
use leapfrog_store::SeatRow;

impl Games {
    /// Joins an open seat of game `id` as `name`, with a fresh token; of
    /// concurrent joins for one seat exactly one wins.
    ///
    /// # Errors
    ///
    /// What [`Command::Join`] refuses (the losers of a race for one seat
    /// get [`RuleError::SeatTaken`](leapfrog_core::game::RuleError::SeatTaken)); store failures.
    pub async fn join(&self, id: &str, name: PlayerName, choice: &SeatChoice) -> Result<Seated, GameError> {
        if let Some(joiner) = &choice.account {
            // The one check of who sits with whom: the accounts seated took their seats by
            // asking; the joiner asks now (a bot is refused: no game but a challenge's seats one).
            use super::consent::{self, Path, Role};
            let game = self.load(id).await?;
            let mut seated: Vec<(&str, Role)> = game
                .seats()
                .iter()
                .filter_map(|s| s.account.as_deref())
                .filter(|a| *a != joiner.id)
                .map(|a| (a, Role::Seated))
                .collect();
            seated.push((&joiner.id, Role::Asking));
            let terms = consent::terms(game.rules(), game.move_limit(), game.rated());
            self.consent(&seated, &terms, Path::Other, 0).await?;
        }
        let invited: Vec<usize> = match &choice.invitation {
            Some(invitation) => {
                let hash = invitation.hash();
                let seats = self.store.invitations(id).await?;
                seats
                    .iter()
                    .filter(|(_, h)| h == hash.as_str())
                    .filter_map(|(p, _)| usize::try_from(*p).ok())
                    .collect()
            }
            None => Vec::new(),
        };
        let token = crate::play::new_token()?;
        let command = |_| {
            Ok(Command::Join {
                name: name.clone(),
                seat: choice.player,
                with_invitation: choice.invitation.is_some(),
                invited: invited.clone(),
                account: choice.account.clone(),
            })
        };
        let row = |player: usize| {
            Some(SeatRow {
                player: player as i64,
                name: name.as_str().to_string(),
                token_hash: token.hash().as_str().to_string(),
                invite_hash: None,
                claim_hash: None,
                account_id: choice.account.as_ref().map(|a| a.id.clone()),
            })
        };
        let (game, player) = self.change(id, None, command, row).await?;
        Ok(Seated { game, player, token, created: false })
    }

    /// Leaves the seat `credential` acts for while the game waits: it opens again
    /// (to whom it was open before, public if it never was) and the token
    /// stops working at once.
    ///
    /// # Errors
    ///
    /// [`GameError::NotASeat`], [`RuleError::NotWaiting`](leapfrog_core::game::RuleError::NotWaiting) once the game
    /// has started (resign instead), a lost race, store failures.
    pub async fn leave(&self, id: &str, credential: &Credential) -> Result<Game, GameError> {
        let (game, seat) = read::with_seat(&self.store, id, credential).await?;
        let player = seat.ok_or(GameError::NotASeat)?;
        let private = self.store.invitations(id).await?.iter().any(|(p, _)| *p == player as i64);
        let (next, changes) = game.apply(Command::Leave { player, private }, now_ms())?;
        let row = SeatRow {
            player: player as i64,
            name: next.seats()[player].name.as_str().to_string(),
            token_hash: no_token(&next, player),
            invite_hash: None,
            claim_hash: None,
            account_id: None,
        };
        self.commit(&game, next, &changes, Some(&row), None).await?.ok_or(GameError::Conflict)
    }

    /// Resigns the seat `credential` acts for (§11): with two players the other
    /// wins at once; with more the computer plays the seat from now on and
    /// it ranks after every seat that did not resign; when every person
    /// has resigned, the game ends.
    ///
    /// # Errors
    ///
    /// [`GameError::NotASeat`]; what [`Command::Resign`] refuses; store
    /// failures.
    pub async fn resign(&self, id: &str, credential: &Credential) -> Result<Game, GameError> {
        let command = |seat: Option<usize>| Ok(Command::Resign { player: seat.ok_or(GameError::NotASeat)? });
        Ok(self.change(id, Some(credential), command, |_| None).await?.0)
    }

    /// Resigns the seat to move of game `id` if it has run out of time at
    /// `now` — or, in a long game, moves its deadline for its owner's
    /// vacation (rule book §11); `None` when it has not (or another
    /// process did it first, or a move came in time).
    ///
    /// # Errors
    ///
    /// Store failures; a damaged row.
    pub async fn time_out(&self, id: &str, now: i64) -> Result<Option<Game>, GameError> {
        let game = self.load(id).await?;
        let command = game.at_deadline(self.away_to_move(&game, now).await?);
        let (next, changes) = game.apply(command, now)?;
        if changes.is_empty() {
            return Ok(None);
        }
        self.commit(&game, next, &changes, None, None).await
    }

    /// Marks game `id` abandoned at `now` if nothing changed in it before
    /// `idle_before` and it is not over; `None` when it is not idle (or
    /// another change came first).
    ///
    /// # Errors
    ///
    /// Store failures; a damaged row.
    pub async fn abandon(&self, id: &str, idle_before: i64, now: i64) -> Result<Option<Game>, GameError> {
        let game = self.load(id).await?;
        let (next, changes) = game.apply(Command::Abandon { idle_before }, now)?;
        if changes.is_empty() {
            return Ok(None);
        }
        self.commit(&game, next, &changes, None, None).await
    }

    /// Applies the command `command_of` makes of game `id` and the seat
    /// `credential` acts for (when given), and commits it, trying again after a
    /// lost race to another change; a join stores the `joined_row` of the
    /// seat taken. Answers the game after it and the seat joined (or the
    /// seat of `credential`).
    async fn change(
        &self,
        id: &str,
        credential: Option<&Credential>,
        command_of: impl Fn(Option<usize>) -> Result<Command, GameError>,
        joined_row: impl Fn(usize) -> Option<SeatRow>,
    ) -> Result<(Game, usize), GameError> {
        for _ in 0..TRIES {
            let (game, seat) = match credential {
                Some(credential) => read::with_seat(&self.store, id, credential).await?,
                None => (self.load(id).await?, None),
            };
            let (next, changes) = game.apply(command_of(seat)?, now_ms())?;
            let joined = changes.iter().find_map(|c| match c {
                Change::Joined { player } => Some(*player),
                _ => None,
            });
            let row = joined.and_then(&joined_row);
            if let Some(next) = self.commit(&game, next, &changes, row.as_ref(), None).await? {
                return Ok((next, joined.or(seat).unwrap_or_default()));
            }
            // Another change came first: look again (the seat may be gone).
        }
        Err(GameError::Conflict)
    }
}

/// What a seat no token opens keeps as its token hash: never a SHA-256 in
/// hex, and unique (the version tells apart the times a seat was opened).
pub(crate) fn no_token(game: &Game, player: usize) -> String {
    match game.seats()[player].holder {
        Holder::Computer(_) => format!("computer:{}:{player}", game.id()),
        _ => format!("open:{}:{player}:{}", game.id(), game.version()),
    }
}
