//! Tournaments as pure functions (rule book §17, `docs/rules.md`): an
//! event's history in, the next round's pairings or the standings out.
//! Nothing here stores, times or tells; the tournaments service does,
//! and one process pairs each round.
//!
//! A player is an [`Entrant`]: its place in the event's roster, which is
//! in seeding order (the first is the highest seed). Points are counted
//! in half-points ([`Points`]: a win 2, a draw 1) so that they stay whole.
//!
//! Its parts: `round_robin` (Berger tables, single and double), `swiss`
//! (the Dutch system as the rule book simplifies it), `arena` (pairing
//! whoever waits, and the arena's scoring), `standings` (points and
//! tiebreaks), `matching` (perfect matchings, the Swiss pairing's
//! look-ahead).

mod arena;
mod matching;
mod round_robin;
mod standings;
mod swiss;
#[cfg(test)]
mod tests;

pub use arena::{
    ArenaRecord, Waiting, arena_pairs, arena_points, arena_records, arena_standings, result_for,
};
pub use round_robin::{berger_round, berger_rounds};
pub use standings::{Standing, Tiebreak, standings};
pub use swiss::{Relaxed, SwissRound, swiss_round};

/// A player of an event: its index in the event's roster, in seeding
/// order.
pub type Entrant = usize;

/// Points in half-points: a win is 2, a draw 1, a loss 0.
pub type Points = u32;

/// A win's points (and a bye's).
pub const WIN: Points = 2;
/// A draw's points.
pub const DRAW: Points = 1;

/// The end of one game of an event, from its first seat's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The first seat won.
    FirstWins,
    /// The second seat won.
    SecondWins,
    /// Both shared the win (equal scores, rule book §7).
    Draw,
}

/// One game of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pairing {
    /// The player in the first seat (who moves first).
    pub first: Entrant,
    /// The player in the second seat.
    pub second: Entrant,
    /// How it ended; `None` while it is played.
    pub outcome: Option<Outcome>,
    /// Whether it was decided without being played over the board (a
    /// withdrawal, two time-outs, an aborted game): it counts its points
    /// but no win for the tiebreaks, nor an opponent met.
    pub forfeit: bool,
}

impl Pairing {
    /// A game to be played.
    pub fn new(first: Entrant, second: Entrant) -> Pairing {
        Pairing { first, second, outcome: None, forfeit: false }
    }

    /// The points `who` scored in it (0 if it is not theirs or not over).
    pub fn points_of(&self, who: Entrant) -> Points {
        match (self.outcome, who == self.first, who == self.second) {
            (Some(Outcome::Draw), true, _) | (Some(Outcome::Draw), _, true) => DRAW,
            (Some(Outcome::FirstWins), true, _) | (Some(Outcome::SecondWins), _, true) => WIN,
            _ => 0,
        }
    }

    /// The other player, if `who` played it.
    pub fn opponent_of(&self, who: Entrant) -> Option<Entrant> {
        if who == self.first {
            Some(self.second)
        } else if who == self.second {
            Some(self.first)
        } else {
            None
        }
    }
}

/// One round of a round-based event: its games and the player who sat
/// out with a win's points, if the number of players was odd.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Round {
    /// The round's games.
    pub games: Vec<Pairing>,
    /// The player given the bye.
    pub bye: Option<Entrant>,
}

/// What an event has played so far: its players and rounds, and who has
/// left it.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// The number of players on the roster.
    pub players: usize,
    /// The rounds, first first.
    pub rounds: Vec<Round>,
    /// Players who have withdrawn (or been withdrawn): not paired again.
    pub withdrawn: Vec<Entrant>,
}

impl History {
    /// No rounds yet.
    pub fn new(players: usize) -> History {
        History { players, rounds: Vec::new(), withdrawn: Vec::new() }
    }

    /// Every game of every round, first first.
    pub fn games(&self) -> impl Iterator<Item = &Pairing> {
        self.rounds.iter().flat_map(|r| r.games.iter())
    }

    /// Each player's points: games' points, and a win's for a bye.
    pub fn points(&self) -> Vec<Points> {
        let mut points = vec![0; self.players];
        for round in &self.rounds {
            for g in &round.games {
                points[g.first] += g.points_of(g.first);
                points[g.second] += g.points_of(g.second);
            }
            if let Some(b) = round.bye {
                points[b] += WIN;
            }
        }
        points
    }

    /// The players still in the event, in seeding order.
    pub fn active(&self) -> Vec<Entrant> {
        (0..self.players).filter(|p| !self.withdrawn.contains(p)).collect()
    }
}
