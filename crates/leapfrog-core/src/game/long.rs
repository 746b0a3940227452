//! The rules of long games (rule book §11) as pure functions of a game,
//! the time and plain inputs: what an account's absence (a vacation under
//! way, the vacation days it has left) does to a turn — when a turn handed
//! to it begins, what its deadline brings, how its vacation's start or
//! early end moves its running turns — and which reply a seat's kept
//! conditional lines play.

use jump_capture as jc;

use super::seating::DAY_MS;
use super::{Command, Game, GameStatus, Postponement};

/// An account's absence at a moment, as the rules of §11 ask about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Away {
    /// The end of its vacation under way (Unix milliseconds), if it is on one.
    pub until: Option<i64>,
    /// Vacation days it has left.
    pub days_left: i64,
}

impl Game {
    /// The account of the person's seat to move while its clock runs.
    pub fn account_to_move(&self) -> Option<&str> {
        self.turn_ends_at()?;
        self.seats().get(self.position().to_move())?.account.as_deref()
    }

    /// The account whose turn began with the change that made this game
    /// from `before` (a move, or the start) in a long game under way: the
    /// one whose absence [`Game::turn_counted_from_return`] asks about.
    pub fn turn_begun_from(&self, before: &Game) -> Option<&str> {
        let began =
            self.position().ply() != before.position().ply() || before.status() != GameStatus::Started;
        if !began || !self.long() || self.status() != GameStatus::Started {
            return None;
        }
        self.account_to_move()
    }

    /// A turn handed to an account on vacation counts from the vacation's
    /// end (§11): this game with its turn so, given the absence of the
    /// account [`Game::turn_begun_from`] names.
    pub fn turn_counted_from_return(mut self, away: Away) -> Game {
        if let Some(until) = away.until {
            self.turn_at = until;
        }
        self
    }

    /// What the clock does when the seat to move is out of time at its
    /// deadline, given the absence of its account (`None`: a seat no
    /// account holds): in a long game, an account on vacation has its
    /// turn begin at the vacation's end; one with a day left spends it for
    /// a day more; anyone else is timed out.
    pub fn at_deadline(&self, away: Option<Away>) -> Command {
        let Some(away) = away.filter(|_| self.long() && self.account_to_move().is_some()) else {
            return Command::TimeOut;
        };
        match away.until {
            Some(until) => Command::Postpone { turn_at: until, reason: Postponement::Vacation },
            None if away.days_left >= 1 => {
                Command::Postpone { turn_at: self.turn_at() + DAY_MS, reason: Postponement::VacationDay }
            }
            None => Command::TimeOut,
        }
    }

    /// How account `account`'s vacation starting (`shift` > 0) or ending
    /// early (`shift` < 0) at `now` moves its running turn here, if it
    /// does: a start moves only a turn begun before it (one handed over
    /// since begins at the vacation's end already).
    pub fn vacation_shift(&self, account: &str, shift: i64, now: i64) -> Option<Command> {
        if !self.long() || self.account_to_move() != Some(account) || (shift > 0 && self.turn_at() >= now) {
            return None;
        }
        Some(Command::Postpone { turn_at: self.turn_at() + shift, reason: Postponement::Vacation })
    }

    /// Whether seats may keep conditional moves: a long game of two seats
    /// under way.
    pub fn takes_conditional_moves(&self) -> bool {
        self.long() && self.seats().len() == 2 && self.status() == GameStatus::Started
    }
}

/// The reply a seat's kept `lines` (each the opponent's move, a reply, and
/// so on) play to the opponent's move `last`: the first matching line's
/// reply, and the lines that go on after it (those that begin with the
/// same two moves), for the opponent's next move. `None`: no line begins
/// with `last`, and every line is dropped.
pub fn conditional_reply(lines: &[Vec<jc::Move>], last: &jc::Move) -> Option<(jc::Move, Vec<Vec<jc::Move>>)> {
    let matching: Vec<&Vec<jc::Move>> = lines.iter().filter(|l| l.len() >= 2 && l[0] == *last).collect();
    let reply = matching.first()?[1].clone();
    let rest = matching.iter().filter(|l| l[1] == reply && l.len() > 2).map(|l| l[2..].to_vec()).collect();
    Some((reply, rest))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn mv(s: &str) -> jc::Move {
        s.parse().unwrap()
    }

    #[test]
    fn a_reply_is_the_first_matching_lines_and_the_lines_that_go_on_are_kept() {
        let lines = vec![
            vec![mv("a1xa3"), mv("c1xc3"), mv("e1xe3"), mv("g1xg3")],
            vec![mv("a1xa3"), mv("c1xc3")],
            vec![mv("a1xa3"), mv("b2xb4"), mv("e1xe3"), mv("h1xh3")],
            vec![mv("d1xd3"), mv("c1xc3")],
        ];
        let (reply, rest) = conditional_reply(&lines, &mv("a1xa3")).unwrap();
        assert_eq!(reply, mv("c1xc3"));
        assert_eq!(rest, vec![vec![mv("e1xe3"), mv("g1xg3")]]);
        assert_eq!(conditional_reply(&lines, &mv("f1xf3")), None);
    }
}
