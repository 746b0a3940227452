//! Who plays in an event: accounts joining (with the consent rules of
//! §15 and §17) and leaving — before the start off the roster, after it
//! withdrawn, their game under way resigned — and consent read again, as
//! the accounts stand, whenever a round is paired.

use leapfrog_core::game::{Credential, GameStatus, preset_pool};
use leapfrog_store::{TournamentPlayerRow, TournamentWrite};

use super::event::{Status, Tournament};
use super::rounds::Step;
use super::{TRIES, TournamentError, Tournaments, limit_with, open};
use crate::accounts::Account;
use crate::play::consent::{self, refusal};
use crate::play::now_ms;
use leapfrog_wire::profile::Reason;

impl Tournaments {
    /// `who` joins event `id`.
    ///
    /// # Errors
    ///
    /// Not found; [`TournamentError::Closed`] once started or full
    /// ([`TournamentError::Limit`] `max_players`); by invitation only
    /// ([`TournamentError::NotYours`]); [`TournamentError::Consent`] (a
    /// bot where bots are not welcome or its profile refuses the event, a
    /// person in a rated event with bots who has not agreed to that);
    /// [`TournamentError::AlreadyIn`]; store failures.
    pub async fn join(&self, id: &str, who: &Account) -> Result<Tournament, TournamentError> {
        for _ in 0..TRIES {
            let mut t = self.get(id).await?;
            open(&t)?;
            if t.invited.as_ref().is_some_and(|list| !list.contains(&who.id)) {
                return Err(TournamentError::NotYours("this tournament is by invitation".into()));
            }
            if t.players.iter().any(|p| p.account_id == who.id) {
                return Err(TournamentError::AlreadyIn(who.name.clone()));
            }
            if t.players.len() as i64 >= t.row.max_players {
                let most = t.row.max_players as u64;
                return Err(limit_with(
                    "max_players",
                    most,
                    format!("the tournament is full: {most} players"),
                ));
            }
            self.consents(&t, who, false).await?;
            let pool = preset_pool(&t.rules);
            let rating = match &pool {
                Some(pool) => {
                    self.games.store().rating(&who.id, pool).await?.map(|r| r.rating.round() as i64)
                }
                None => None,
            };
            let player = TournamentPlayerRow {
                tournament_id: t.id().to_string(),
                account_id: who.id.clone(),
                name: who.name.clone(),
                bot: i64::from(who.bot),
                rating: rating.unwrap_or(1500),
                joined_at: now_ms(),
                seed: None,
                withdrawn_at: None,
                timeouts: 0,
            };
            let mut step = Step::of(&t);
            step.change.joining.push(player.clone());
            match self.write(step).await? {
                TournamentWrite::Done => {
                    t.players.push(player);
                    t.row.version += 1;
                    return Ok(t);
                }
                TournamentWrite::AlreadyIn => return Err(TournamentError::AlreadyIn(who.name.clone())),
                TournamentWrite::Moved => {}
            }
        }
        Err(TournamentError::Game(crate::play::GameError::Conflict))
    }

    /// Whether `who` may play in `t` (rule book §15, §17); `pairing`: read
    /// for a round's pairing, where a bot at its most games at once is no
    /// refusal (it passes; its games end).
    async fn consents(&self, t: &Tournament, who: &Account, pairing: bool) -> Result<(), TournamentError> {
        let terms =
            consent::terms(&t.rules, t.row.move_limit.and_then(|m| u32::try_from(m).ok()), t.row.rated != 0);
        if who.bot {
            if t.row.bots == 0 {
                return Err(TournamentError::Consent("bots do not play in this tournament".into()));
            }
            // A bot meets people and, where bots are welcome, bots: its
            // profile must take the event with both.
            let games = self.games.store().unfinished_games_of_account(&who.id).await?;
            let profile = who.takes();
            for from_bot in [false, true] {
                let refused = refusal(&profile, &consent::Terms { from_bot, ..terms }, games);
                if let Some(reason) = refused.filter(|&r| !(pairing && r == Reason::Busy)) {
                    return Err(TournamentError::Consent(format!(
                        "{} does not take this tournament: {}",
                        who.name,
                        reason.key()
                    )));
                }
            }
        } else if t.row.bots != 0 && t.row.rated != 0 && !who.rated_against_bots {
            let detail = format!(
                "{} has not agreed to rated games against bots, which this tournament may pair",
                who.name
            );
            return Err(TournamentError::Consent(detail));
        }
        Ok(())
    }

    /// Withdraws at `now` the players of `t` whose consent no longer holds
    /// as their accounts stand (rule book §17: read whenever a round is
    /// paired, as §15 reads it whenever a seat is filled): a bot whose
    /// profile stopped taking the event, a person who stopped agreeing to
    /// rated games against bots, an account deleted. The rows changed.
    pub(super) async fn withdraw_refusing(
        &self,
        t: &mut Tournament,
        now: i64,
    ) -> Result<Vec<TournamentPlayerRow>, TournamentError> {
        let mut changed = Vec::new();
        for i in 0..t.players.len() {
            if t.players[i].withdrawn_at.is_some() {
                continue;
            }
            let row = self.games.store().account_by_id(&t.players[i].account_id).await?;
            let refuses = match row.as_ref().map(Account::from) {
                None => true,
                Some(account) => match self.consents(t, &account, true).await {
                    Ok(()) => false,
                    Err(TournamentError::Consent(_)) => true,
                    Err(e) => return Err(e),
                },
            };
            if refuses {
                t.players[i].withdrawn_at = Some(now);
                changed.push(t.players[i].clone());
            }
        }
        Ok(changed)
    }

    /// `who` leaves event `id`: before the start, off the roster; after
    /// it, withdrawn — its game under way resigned, its games to come
    /// forfeited, never paired again.
    ///
    /// # Errors
    ///
    /// Not found; [`TournamentError::NotIn`]; [`TournamentError::Closed`]
    /// once over; store failures.
    pub async fn leave(&self, id: &str, who: &Account) -> Result<Tournament, TournamentError> {
        for _ in 0..TRIES {
            let t = self.get(id).await?;
            let Some(player) = t.players.iter().find(|p| p.account_id == who.id).cloned() else {
                return Err(TournamentError::NotIn(who.name.clone()));
            };
            let mut step = Step::of(&t);
            match t.status {
                Status::Open => step.change.leaving.push(who.id.clone()),
                Status::Running if player.withdrawn_at.is_none() => {
                    step.change.players.push(TournamentPlayerRow { withdrawn_at: Some(now_ms()), ..player });
                }
                Status::Running => {
                    return Err(TournamentError::Closed(format!("{} has withdrawn already", who.name)));
                }
                Status::Over | Status::Canceled => {
                    return Err(TournamentError::Closed(format!("the tournament is {}", t.status.name())));
                }
            }
            if self.write(step).await? == TournamentWrite::Done {
                if t.status == Status::Running {
                    self.resign_games_of(&t, &who.id).await?;
                    self.advance(id).await?;
                }
                return self.get(id).await;
            }
        }
        Err(TournamentError::Game(crate::play::GameError::Conflict))
    }

    /// Resigns the games of `account` in `t` still under way.
    async fn resign_games_of(&self, t: &Tournament, account: &str) -> Result<(), TournamentError> {
        for b in t.under_way_of(account) {
            let Some(game) = &b.game_id else { continue };
            if self.games.load(game).await?.status() == GameStatus::Over {
                continue;
            }
            match self.games.resign(game, &Credential::Account(account.to_string())).await {
                // Over meanwhile: counted as it ended.
                Ok(_) | Err(crate::play::GameError::Game(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }
}
