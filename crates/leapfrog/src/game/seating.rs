//! Seats over a game's life (rule book §11): open seats joined and left
//! while the game waits, resignations, the move time limit, and the result
//! they make.
//!
//! Every change here is stored only if the game is still at the version
//! it was read at, as moves are: of concurrent joins for one seat exactly
//! one wins, and of several processes applying one time-out exactly one
//! does.

use jump_capture as jc;
use jump_search::Level;
use serde::{Deserialize, Serialize};

use super::{Game, GameError, Holder, PlayerName, Resignation, Seat, SeatToken, Visibility, now_ms};
use crate::store::{Commit, SeatRow, Store};

/// The fewest seconds a move time limit may give.
pub const MIN_MOVE_LIMIT: u32 = 5;
/// The most seconds a move time limit may give: a week.
pub const MAX_MOVE_LIMIT: u32 = 7 * 24 * 3600;
/// The level the computer plays a resigned seat at, with three or more
/// players.
pub const RESIGNED_LEVEL: Level = Level::Medium;
/// Tries of a join or a resignation that lost a race to another change of
/// the game (not to a change of its own seat).
const TRIES: usize = 8;

/// Where a game stands with its seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    /// A seat is open: nothing can be played yet.
    Waiting,
    /// Every seat is held and the game is not over.
    Started,
    /// The position is over, or resignations ended the game.
    Over,
}

/// A seat's state beyond its holder, as stored in `games.seating`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SeatState {
    /// Open, and to whom.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<Visibility>,
    /// Whether and how it resigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resigned: Option<Resignation>,
}

/// The secrets of a new game, shown to its creator once.
#[derive(Debug, Default)]
pub struct Created {
    /// The token of each person's seat.
    pub tokens: Vec<(usize, SeatToken)>,
    /// The invitation of each private open seat.
    pub invitations: Vec<(usize, SeatToken)>,
}

/// Which open seat a joiner asks for.
#[derive(Debug, Clone, Default)]
pub struct SeatChoice {
    /// This seat; otherwise the first open one the joiner may take.
    pub player: Option<usize>,
    /// The invitation of a private seat.
    pub invitation: Option<SeatToken>,
}

/// A seat just joined.
#[derive(Debug)]
pub struct Joined {
    /// The game after the join.
    pub game: Game,
    /// The seat.
    pub player: usize,
    /// Its new token.
    pub token: SeatToken,
}

/// The name an open seat carries until someone joins it.
pub(crate) fn open_name() -> PlayerName {
    PlayerName::parse("Open seat").unwrap_or_else(|_| unreachable!("a valid name"))
}

/// The result of a game with resigned seats ranked as §11 says: every seat
/// that did not resign before every seat that did; each group by the end
/// rule (the scores, or "who cannot move loses", with `stuck` the seat that
/// cannot); a resigned seat never shares a win (nor wins at all).
pub(crate) fn decide(
    rule: jc::EndRule,
    scores: &[u32],
    stuck: Option<usize>,
    resigned: &[bool],
) -> jc::Outcome {
    let key = |p: usize| {
        let base = match rule {
            jc::EndRule::HighestScore => u64::from(scores[p]),
            jc::EndRule::NoMoveLoses => u64::from(stuck != Some(p)),
        };
        (!resigned[p], base)
    };
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse(key(p)), p));
    let standings: Vec<jc::Standing> = order
        .iter()
        .map(|&p| jc::Standing {
            player: p,
            score: scores[p],
            rank: 1 + order.iter().filter(|&&q| key(q) > key(p)).count(),
        })
        .collect();
    let mut winners: Vec<usize> =
        standings.iter().filter(|s| s.rank == 1 && !resigned[s.player]).map(|s| s.player).collect();
    winners.sort_unstable();
    jc::Outcome { winners, standings }
}

/// The result of a finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// Winners and standings.
    pub outcome: jc::Outcome,
    /// Which seats resigned (or ran out of time), in player order.
    pub resigned: Vec<bool>,
    /// Whether resignations ended the game before its position was over.
    pub by_resignation: bool,
}

impl Game {
    /// Waiting for players, started, or over.
    pub fn status(&self) -> GameStatus {
        let resigned = self.seats.iter().filter(|s| s.resigned.is_some()).count();
        let people = self.seats.iter().filter(|s| s.holder == Holder::Person).count();
        let people_resigned =
            self.seats.iter().filter(|s| s.holder == Holder::Person && s.resigned.is_some()).count();
        if self.stuck || (self.seats.len() == 2 && resigned > 0) || (people > 0 && people_resigned == people)
        {
            GameStatus::Over
        } else if self.seats.iter().any(|s| matches!(s.holder, Holder::Open(_))) {
            GameStatus::Waiting
        } else {
            GameStatus::Started
        }
    }

    /// The result, once over.
    pub fn result(&self) -> Option<GameResult> {
        if self.status() != GameStatus::Over {
            return None;
        }
        let resigned: Vec<bool> = self.seats.iter().map(|s| s.resigned.is_some()).collect();
        let stuck = self.stuck.then(|| self.position.to_move());
        let outcome = decide(self.rules.spec().end, self.position.scores(), stuck, &resigned);
        Some(GameResult { outcome, resigned, by_resignation: !self.stuck })
    }

    /// When the seat to move runs out of time (Unix milliseconds): while
    /// the game is started with a move time limit and a person who has not
    /// resigned is to move.
    pub fn turn_ends_at(&self) -> Option<i64> {
        let limit = self.move_limit?;
        let seat = self.seats.get(self.position.to_move())?;
        (self.status() == GameStatus::Started && seat.holder == Holder::Person && seat.resigned.is_none())
            .then(|| self.turn_at.saturating_add(i64::from(limit) * 1000))
    }

    /// Refuses a move while the game waits for players or is over.
    pub(crate) fn check_playable(&self) -> Result<(), GameError> {
        match self.status() {
            GameStatus::Waiting => Err(GameError::Waiting),
            GameStatus::Over => Err(GameError::Over),
            GameStatus::Started => Ok(()),
        }
    }

    /// Each seat's state as JSON; `None` when every seat is simply held.
    pub(crate) fn seating_json(&self) -> Option<String> {
        let states: Vec<SeatState> = self
            .seats
            .iter()
            .map(|s| SeatState {
                open: match s.holder {
                    Holder::Open(visibility) => Some(visibility),
                    _ => None,
                },
                resigned: s.resigned,
            })
            .collect();
        // Plain serde values of strings: this cannot fail.
        states
            .iter()
            .any(|s| *s != SeatState::default())
            .then(|| serde_json::to_string(&states).unwrap_or_default())
    }

    /// Joins an open seat of game `id` as `name`, with a fresh token.
    ///
    /// # Errors
    ///
    /// [`GameError::NotWaiting`] once the game has started;
    /// [`GameError::NoSuchSeat`], [`GameError::SeatTaken`] (also to the
    /// losers of a race for one seat), [`GameError::NoOpenSeat`],
    /// [`GameError::Invitation`] for a private seat without its
    /// invitation; store failures.
    pub async fn join(
        store: &Store,
        id: &str,
        name: PlayerName,
        choice: &SeatChoice,
    ) -> Result<Joined, GameError> {
        for _ in 0..TRIES {
            let mut game = Game::load(store, id).await?;
            if game.status() != GameStatus::Waiting {
                return Err(GameError::NotWaiting);
            }
            let invitations = store.invitations(id).await?;
            let invited = |player: usize| {
                choice.invitation.as_ref().is_some_and(|i| {
                    invitations.iter().any(|(p, h)| *p == player as i64 && *h == i.hash().as_str())
                })
            };
            let player = match choice.player {
                Some(p) => {
                    let seat = game
                        .seats
                        .get(p)
                        .ok_or(GameError::NoSuchSeat { player: p, seats: game.seats.len() })?;
                    match seat.holder {
                        Holder::Open(Visibility::Public) => p,
                        Holder::Open(Visibility::Private) if invited(p) => p,
                        Holder::Open(Visibility::Private) => return Err(GameError::Invitation),
                        _ => return Err(GameError::SeatTaken { player: p }),
                    }
                }
                None if choice.invitation.is_some() => game
                    .seats
                    .iter()
                    .find(|s| s.holder == Holder::Open(Visibility::Private) && invited(s.player))
                    .map(|s| s.player)
                    .ok_or(GameError::Invitation)?,
                None => game
                    .seats
                    .iter()
                    .find(|s| s.holder == Holder::Open(Visibility::Public))
                    .map(|s| s.player)
                    .ok_or(GameError::NoOpenSeat)?,
            };
            let token = SeatToken::generate()?;
            let version = game.version;
            game.seats[player] = Seat { player, name: name.clone(), holder: Holder::Person, resigned: None };
            game.touch();
            if game.status() == GameStatus::Started {
                game.turn_at = game.updated_at;
            }
            let row = SeatRow {
                player: player as i64,
                name: name.as_str().to_string(),
                token_hash: token.hash().as_str().to_string(),
                invite_hash: None,
                claim_hash: None,
            };
            if store.update_game(&game.to_row(), version, Some(&row)).await? == Commit::Done {
                return Ok(Joined { game, player, token });
            }
            // Another change came first: look again (the seat may be gone).
        }
        Err(GameError::Conflict)
    }

    /// Leaves the seat `token` holds while the game waits: it opens again
    /// (to whom it was open before, public if it never was) and the token
    /// stops working at once.
    ///
    /// # Errors
    ///
    /// [`GameError::NotASeat`], [`GameError::NotWaiting`] once the game
    /// has started (resign instead), a lost race, store failures.
    pub async fn leave(store: &Store, id: &str, token: &SeatToken) -> Result<Game, GameError> {
        let (mut game, player) = Game::with_seat(store, id, token).await?;
        if game.status() != GameStatus::Waiting {
            return Err(GameError::NotWaiting);
        }
        let invited = store.invitations(id).await?.iter().any(|(p, _)| *p == player as i64);
        let visibility = if invited { Visibility::Private } else { Visibility::Public };
        let version = game.version;
        game.seats[player] =
            Seat { player, name: open_name(), holder: Holder::Open(visibility), resigned: None };
        game.touch();
        let row = SeatRow {
            player: player as i64,
            name: open_name().as_str().to_string(),
            token_hash: game.no_token(player),
            invite_hash: None,
            claim_hash: None,
        };
        match store.update_game(&game.to_row(), version, Some(&row)).await? {
            Commit::Done => Ok(game),
            Commit::Conflict => Err(GameError::Conflict),
        }
    }

    /// Resigns the seat `token` holds (§11): with two players the other
    /// wins at once; with more the computer plays the seat from now on and
    /// it ranks after every seat that did not resign; when every person
    /// has resigned, the game ends.
    ///
    /// # Errors
    ///
    /// [`GameError::NotASeat`]; [`GameError::Waiting`] before the game
    /// starts (leave instead); [`GameError::Over`];
    /// [`GameError::AlreadyResigned`]; store failures.
    pub async fn resign(store: &Store, id: &str, token: &SeatToken) -> Result<Game, GameError> {
        for _ in 0..TRIES {
            let (mut game, player) = Game::with_seat(store, id, token).await?;
            game.check_playable()?;
            if game.seats[player].resigned.is_some() {
                return Err(GameError::AlreadyResigned { player });
            }
            let version = game.version;
            game.seats[player].resigned = Some(Resignation::Resigned);
            game.touch();
            if store.update_game(&game.to_row(), version, None).await? == Commit::Done {
                return Ok(game);
            }
        }
        Err(GameError::Conflict)
    }

    /// Resigns the seat to move of game `id` if it has run out of time at
    /// `now`; `None` when it has not (or another process did it first, or
    /// a move came in time).
    ///
    /// # Errors
    ///
    /// Store failures; a damaged row.
    pub async fn time_out(store: &Store, id: &str, now: i64) -> Result<Option<Game>, GameError> {
        let mut game = Game::load(store, id).await?;
        if game.turn_ends_at().is_none_or(|end| now < end) {
            return Ok(None);
        }
        let version = game.version;
        let player = game.position.to_move();
        game.seats[player].resigned = Some(Resignation::TimedOut);
        game.touch();
        Ok(match store.update_game(&game.to_row(), version, None).await? {
            Commit::Done => Some(game),
            Commit::Conflict => None,
        })
    }

    /// Game `id` and the seat `token` holds in it.
    pub(super) async fn with_seat(
        store: &Store,
        id: &str,
        token: &SeatToken,
    ) -> Result<(Game, usize), GameError> {
        let (row, seat) = store
            .game_and_seat(id, token.hash().as_str())
            .await?
            .ok_or_else(|| GameError::NotFound(id.to_string()))?;
        let game = Game::from_row(row)?;
        let seat = seat.ok_or(GameError::NotASeat)?;
        Ok((game, seat as usize))
    }

    /// A new version, changed now.
    fn touch(&mut self) {
        self.version += 1;
        self.updated_at = now_ms();
        self.abandoned_at = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigned_seats_rank_after_the_others_whatever_their_scores() {
        let o = decide(jc::EndRule::HighestScore, &[30, 10, 20], None, &[true, false, false]);
        let order: Vec<(usize, usize)> = o.standings.iter().map(|s| (s.player, s.rank)).collect();
        assert_eq!(order, [(2, 1), (1, 2), (0, 3)]);
        assert_eq!(o.winners, [2]);
    }

    #[test]
    fn a_resigned_seat_never_shares_a_win() {
        let o = decide(jc::EndRule::HighestScore, &[5, 5, 5], None, &[false, true, false]);
        assert_eq!(o.winners, [0, 2]);
        assert_eq!(o.standings.iter().find(|s| s.player == 1).map(|s| s.rank), Some(3));
    }

    #[test]
    fn resigned_seats_rank_among_themselves_by_score() {
        let o = decide(jc::EndRule::HighestScore, &[1, 9, 4, 7], None, &[true, false, true, true]);
        let order: Vec<usize> = o.standings.iter().map(|s| s.player).collect();
        assert_eq!(order, [1, 3, 2, 0]);
    }

    #[test]
    fn with_two_players_the_one_who_did_not_resign_wins_even_when_stuck() {
        let o = decide(jc::EndRule::NoMoveLoses, &[0, 0], Some(1), &[true, false]);
        assert_eq!(o.winners, [1]);
    }
}
