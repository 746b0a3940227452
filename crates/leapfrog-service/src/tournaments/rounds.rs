//! How an event moves on (rule book §17): its start (seeds, the first
//! round), the outcomes of its ended games read off them, the next round
//! paired when the last game of one ends, and its end. Each step is one
//! [`TournamentChange`], written only over the version read: in a fleet,
//! one process pairs each round.

use leapfrog_core::game::{Credential, GameStatus};
use leapfrog_core::game::{Game, NewGame, NewSeat, PlayerName, Resignation, SeatAccount};
use leapfrog_core::tournament::{
    self as core, Entrant, Pairing, Waiting, arena_pairs, arena_records, berger_round, swiss_round,
};
use leapfrog_store::{AccountEvent, TournamentChange, TournamentGameRow, TournamentPlayerRow};
use leapfrog_wire::account_events::{
    AccountEventData, TournamentOverEvent, TournamentPairedEvent, TournamentStartedEvent,
};

use super::event::{Format, Status, Tournament, outcome_name};
use super::{TournamentError, Tournaments};
use crate::events::account::event;
use crate::play::{GameError, now_ms, random_seed};

/// Games lost on time that withdraw a player from an event.
pub const TIMEOUTS_WITHDRAW: i64 = 2;

/// A change being made of an event: what it writes, and the games it
/// makes (told of once written).
pub(super) struct Step {
    /// The event's row after the change.
    pub(super) row: leapfrog_store::TournamentRow,
    /// The rest of what it writes.
    pub(super) change: TournamentChange,
    /// The games it makes.
    pub(super) made: Vec<Game>,
}

impl Step {
    /// A change of `t` to its next version.
    pub(super) fn of(t: &Tournament) -> Step {
        let mut row = t.row.clone();
        row.version += 1;
        let change = TournamentChange { old_version: t.row.version, ..TournamentChange::default() };
        Step { row, change, made: Vec::new() }
    }

    /// What the store writes, and the games to tell of once written.
    pub(super) fn into_parts(mut self) -> (TournamentChange, Vec<Game>) {
        self.change.tournament = Some(self.row);
        (self.change, self.made)
    }
}

impl Tournaments {
    /// Starts `t` (its players seeded by rating, then joining time) and
    /// pairs its first round — every round, for a correspondence
    /// round-robin played all at once.
    pub(super) fn start_step(&self, t: &mut Tournament, now: i64) -> Result<Step, TournamentError> {
        t.players.sort_by_key(|p| (std::cmp::Reverse(p.rating), p.joined_at, p.account_id.clone()));
        for (seed, p) in t.players.iter_mut().enumerate() {
            p.seed = Some(seed as i64);
        }
        t.status = Status::Running;
        let mut step = Step::of(t);
        step.change.players = t.players.clone();
        (step.row.status, step.row.started_at) = (Status::Running.name().into(), Some(now));
        let started = TournamentStartedEvent {
            tournament: t.id().to_string(),
            name: t.row.name.clone(),
            players: t.players.len(),
        };
        for p in &t.players {
            step.change.events.push(event(
                &p.account_id,
                &AccountEventData::TournamentStarted(started.clone()),
                now,
            ));
        }
        let rounds = if t.row.all_at_once != 0 { t.total_rounds() } else { 1 };
        for round in 1..=rounds {
            self.pair_round(t, &mut step, round, now)?;
        }
        Ok(step)
    }

    /// What `t` does next at `now`: the outcomes of its round's ended
    /// games; then, once every one is decided, the next round or its end.
    /// `None` when nothing changes.
    pub(super) async fn advance_step(
        &self,
        t: &mut Tournament,
        now: i64,
    ) -> Result<Option<Step>, TournamentError> {
        let mut step = Step::of(t);
        let mut changed = false;
        // Only the games over and not yet counted are read.
        for game_id in self.games.store().tournament_games_ended(t.id()).await? {
            let Some(i) = t.boards.iter().position(|b| b.game_id.as_deref() == Some(game_id.as_str())) else {
                continue;
            };
            let game = self.games.load(&game_id).await?;
            let Some((outcome, forfeit, timed_out)) = decided(&game) else { continue };
            let b = &mut t.boards[i];
            b.outcome = Some(outcome_name(outcome).to_string());
            b.forfeit = i64::from(forfeit);
            step.change.decided.push((b.round, b.board, outcome_name(outcome).into(), i64::from(forfeit)));
            // A second game lost on time withdraws its player.
            let late = timed_out
                .and_then(|seat| if seat == 0 { Some(b.first_id.clone()) } else { b.second_id.clone() });
            if let Some(p) = late.and_then(|a| t.players.iter_mut().find(|p| p.account_id == a)) {
                p.timeouts += 1;
                if p.timeouts >= TIMEOUTS_WITHDRAW && p.withdrawn_at.is_none() {
                    p.withdrawn_at = Some(now);
                }
                step.change.players.push(p.clone());
            }
            changed = true;
        }
        if t.format == Format::Arena {
            let moved_on = self.arena_step(t, &mut step, now).await?;
            return Ok((changed || moved_on).then_some(step));
        }
        let round_done = t.boards.iter().filter(|b| b.round <= t.row.round).all(|b| b.outcome.is_some());
        if round_done {
            if u32::try_from(t.row.round).unwrap_or(u32::MAX) < t.total_rounds() {
                let next = u32::try_from(t.row.round + 1).unwrap_or(u32::MAX);
                let refusing = self.withdraw_refusing(t, now).await?;
                step.change.players.extend(refusing);
                self.pair_round(t, &mut step, next, now)?;
            } else {
                finish(t, &mut step, now);
            }
            changed = true;
        }
        Ok(changed.then_some(step))
    }

    /// Pairs round `round` of `t` into `step`: its games made, its byes
    /// and forfeits (a withdrawn player's games) recorded, each player told.
    fn pair_round(
        &self,
        t: &mut Tournament,
        step: &mut Step,
        round: u32,
        now: i64,
    ) -> Result<(), TournamentError> {
        let history = t.history();
        let (games, bye): (Vec<Pairing>, Option<Entrant>) = match t.format {
            Format::Swiss => {
                let r = swiss_round(&history);
                (r.games, r.bye)
            }
            Format::RoundRobin | Format::DoubleRoundRobin => {
                let r = berger_round(t.players.len(), round as usize - 1);
                (r.games, r.bye)
            }
            Format::Arena => (arena_pairs(&arena_waiting(t)), None),
        };
        let mut boards = Vec::new();
        for g in games {
            if let Some(row) = self.board(t, step, (round, boards.len() as i64), [g.first, g.second], now)? {
                boards.push(row);
            }
        }
        if let Some(b) = bye.filter(|&b| t.players[b].withdrawn_at.is_none()) {
            let p = &t.players[b];
            boards.push(TournamentGameRow {
                tournament_id: t.id().to_string(),
                round: i64::from(round),
                board: boards.len() as i64,
                game_id: None,
                first_id: p.account_id.clone(),
                second_id: None,
                outcome: Some(outcome_name(core::Outcome::FirstWins).into()),
                forfeit: 0,
            });
            let paired = TournamentPairedEvent {
                tournament: t.id().to_string(),
                round,
                game: None,
                opponent: None,
                seat: None,
            };
            step.change.events.push(event(&p.account_id, &AccountEventData::TournamentPaired(paired), now));
        }
        step.change.paired.extend(boards.iter().cloned());
        t.boards.extend(boards);
        t.row.round = i64::from(round);
        step.row.round = i64::from(round);
        Ok(())
    }

    /// The board of the players `pair` (seeds, the first moving first) at
    /// `at` (round, board): their game made into `step` — or, if one has
    /// withdrawn, the other's forfeit win; none if both have. Each player
    /// is told.
    fn board(
        &self,
        t: &Tournament,
        step: &mut Step,
        (round, board): (u32, i64),
        pair: [Entrant; 2],
        now: i64,
    ) -> Result<Option<TournamentGameRow>, TournamentError> {
        let (first, second) = (&t.players[pair[0]], &t.players[pair[1]]);
        let forfeit = match (first.withdrawn_at.is_some(), second.withdrawn_at.is_some()) {
            (false, false) => None,
            (true, false) => Some(core::Outcome::SecondWins),
            (false, true) => Some(core::Outcome::FirstWins),
            // Neither plays: no game, nothing scored.
            (true, true) => return Ok(None),
        };
        let game = match forfeit {
            None => Some(self.game_between(t, [first, second])?),
            Some(_) => None,
        };
        let row = TournamentGameRow {
            tournament_id: t.id().to_string(),
            round: i64::from(round),
            board,
            game_id: game.as_ref().map(|g| g.id().to_string()),
            first_id: first.account_id.clone(),
            second_id: Some(second.account_id.clone()),
            outcome: forfeit.map(|o| outcome_name(o).to_string()),
            forfeit: i64::from(forfeit.is_some()),
        };
        for (seat, (me, other)) in [(first, second), (second, first)].into_iter().enumerate() {
            let paired = TournamentPairedEvent {
                tournament: t.id().to_string(),
                round,
                game: row.game_id.clone(),
                opponent: Some(other.name.clone()),
                seat: Some(seat),
            };
            step.change.events.push(event(&me.account_id, &AccountEventData::TournamentPaired(paired), now));
        }
        if let Some(game) = game {
            let rows = self.games.rows_of_new(&game)?;
            step.change.events.extend(rows.events);
            step.change.games.push((rows.game, rows.seats));
            step.made.push(game);
        }
        Ok(Some(row))
    }

    /// An arena's next step at `now`, after its ended games are counted:
    /// past its end, the games still under way stopped (the seat to move
    /// resigns, the game counts for no one) and the event over; before,
    /// whoever waits paired. Whether anything changed.
    async fn arena_step(
        &self,
        t: &mut Tournament,
        step: &mut Step,
        now: i64,
    ) -> Result<bool, TournamentError> {
        if t.ends_at().is_some_and(|end| now >= end) {
            for i in 0..t.boards.len() {
                let b = &t.boards[i];
                let Some(id) = b.game_id.clone().filter(|_| b.outcome.is_none()) else { continue };
                let game = self.games.load(&id).await?;
                let to_move = game.seats().get(game.position().to_move()).and_then(|s| s.account.clone());
                if let (GameStatus::Started, Some(account)) = (game.status(), to_move) {
                    match self.games.resign(&id, &Credential::Account(account)).await {
                        // Over meanwhile: it counts for no one all the same.
                        Ok(_) | Err(GameError::Game(_)) => {}
                        Err(e) => return Err(e.into()),
                    }
                }
                let b = &mut t.boards[i];
                b.outcome = Some(VOID.into());
                step.change.decided.push((b.round, b.board, VOID.into(), 0));
            }
            finish(t, step, now);
            return Ok(true);
        }
        let before = step.change.paired.len();
        if arena_pairs(&arena_waiting(t)).is_empty() {
            return Ok(false);
        }
        let next = u32::try_from(t.row.round + 1).unwrap_or(u32::MAX);
        let refusing = self.withdraw_refusing(t, now).await?;
        step.change.players.extend(refusing);
        self.pair_round(t, step, next, now)?;
        Ok(step.change.paired.len() > before)
    }

    /// A game of `t` between two of its players, the first moving first.
    fn game_between(
        &self,
        t: &Tournament,
        players: [&TournamentPlayerRow; 2],
    ) -> Result<Game, TournamentError> {
        let terms = (t.rules.clone(), t.row.move_limit.and_then(|m| u32::try_from(m).ok()), t.row.rated != 0);
        new_game(t.id(), terms, players)
    }
}

/// A game of event `event` on `terms` (rules, seconds a move, rated)
/// between two players, the first moving first.
pub(super) fn new_game(
    event: &str,
    (rules, move_limit, rated): (std::sync::Arc<jump_capture::Rules>, Option<u32>, bool),
    players: [&TournamentPlayerRow; 2],
) -> Result<Game, TournamentError> {
    let seats = players
        .iter()
        .map(|p| {
            let account = SeatAccount { id: p.account_id.clone(), bot: p.bot != 0 };
            NewSeat::Account(account, PlayerName::stored(&p.name))
        })
        .collect();
    let new = NewGame {
        id: uuid::Uuid::new_v4().to_string(),
        max_moves: leapfrog_wire::budget::MOVES,
        rules,
        seats,
        seed: random_seed()?,
        seed_chosen: false,
        move_limit,
        // The event makes its games: no client's cap counts them.
        client: format!("tournament:{event}"),
        rated,
    };
    Ok(Game::new(new, now_ms()).map_err(GameError::from)?)
}

/// The outcome of an arena's game stopped at its end: counted for no one.
pub const VOID: &str = "void";

/// An arena's players waiting for a game: in it, not withdrawn, not in a
/// game under way; with their points, last opponent and seat.
fn waiting(t: &Tournament) -> Vec<Waiting> {
    let history = t.history();
    let records = arena_records(&history);
    let busy = |account: &str| t.under_way_of(account).next().is_some();
    (0..t.players.len())
        .filter(|&p| t.players[p].withdrawn_at.is_none() && !busy(&t.players[p].account_id))
        .map(|p| {
            let last = history.games().filter(|g| g.opponent_of(p).is_some()).last();
            Waiting {
                entrant: p,
                points: records[p].points,
                last_opponent: last.and_then(|g| g.opponent_of(p)),
                last_first: last.map(|g| g.first == p),
            }
        })
        .collect()
}

/// Those waiting in an arena as its pairing takes them: when no game is
/// under way and none but players who just met wait, they may meet again
/// (else they would wait for good).
fn arena_waiting(t: &Tournament) -> Vec<Waiting> {
    let mut w = waiting(t);
    let playing = t.boards.iter().any(|b| b.outcome.is_none());
    if !playing && arena_pairs(&w).is_empty() {
        w.iter_mut().for_each(|p| p.last_opponent = None);
    }
    w
}

/// Ends `t`: over, each player told its place and points.
fn finish(t: &mut Tournament, step: &mut Step, now: i64) {
    t.status = Status::Over;
    (step.row.status, step.row.ended_at) = (Status::Over.name().into(), Some(now));
    let standings = t.standings();
    let players = standings.len();
    let told: Vec<AccountEvent> = standings
        .iter()
        .map(|s| {
            let over = TournamentOverEvent {
                tournament: t.id().to_string(),
                place: s.place,
                points: t.shown_points(s.points),
                players,
            };
            event(&t.players[s.entrant].account_id, &AccountEventData::TournamentOver(over), now)
        })
        .collect();
    step.change.events.extend(told);
}

/// How an event's game ended, once over: the outcome, whether it is a
/// forfeit (an aborted game: the seat that never moved loses), and the
/// seat that ran out of time, if one did.
fn decided(game: &Game) -> Option<(core::Outcome, bool, Option<usize>)> {
    let result = game.result()?;
    let timed_out = game.seats().iter().position(|s| s.resigned == Some(Resignation::TimedOut));
    if result.aborted {
        // Aborted (§13): a seat resigned or ran out of time before its
        // first move. That seat loses; the other wins by forfeit.
        let never_moved = result.resigned.iter().position(|&r| r).unwrap_or(game.position().to_move());
        let outcome = if never_moved == 0 { core::Outcome::SecondWins } else { core::Outcome::FirstWins };
        return Some((outcome, true, timed_out));
    }
    let winners = &result.outcome.winners;
    let outcome = match (winners.contains(&0), winners.contains(&1)) {
        (true, false) => core::Outcome::FirstWins,
        (false, true) => core::Outcome::SecondWins,
        _ => core::Outcome::Draw,
    };
    Some((outcome, false, timed_out))
}
