//! Exact play near the end: the whole game tree searched to the end, with
//! a transposition table, when it is small enough.
//!
//! Each player picks the move whose end is best for itself (max-n; with
//! two players that is minimax), by the rewards of [`crate::rewards`];
//! among equal moves, the first in notation order. A position is keyed
//! by its full position string, so two positions never share an entry.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use web_time::Instant;

use jump_capture::{Move, Position};

use crate::reward::rewards;
use crate::{Analysis, Candidate};

/// A solved position: each player's reward with best play, and the best
/// move (none when the game is over).
#[derive(Debug, Clone)]
struct Entry {
    value: Vec<f64>,
    best: Option<Move>,
}

/// A search to the end within a number of positions.
#[derive(Debug)]
pub(crate) struct Solver<'s> {
    table: HashMap<String, Entry>,
    limit: usize,
    deadline: Option<Instant>,
    /// Set when the search is to end now (the protocol's `stop`).
    stop: &'s AtomicBool,
    visited: usize,
}

/// The search met its limit.
#[derive(Debug)]
struct TooBig;

impl<'s> Solver<'s> {
    /// A solver that gives up past `limit` positions or the deadline, or
    /// once `stop` is set.
    pub(crate) fn new(limit: usize, deadline: Option<Instant>, stop: &'s AtomicBool) -> Solver<'s> {
        Solver { table: HashMap::new(), limit, deadline, stop, visited: 0 }
    }

    /// The exact analysis of `pos` (every root move with its value), or
    /// `None` when the game tree is larger than the limit or the game is
    /// over.
    pub(crate) fn analyse(&mut self, pos: &Position, started: Instant) -> Option<Analysis> {
        if pos.is_over() {
            return None;
        }
        let mover = pos.to_move();
        let mut candidates = Vec::new();
        for mv in pos.legal_moves(crate::CONSIDERED_BUDGET).ok()? {
            let mut next = pos.clone();
            next.play(&mv).ok()?;
            let entry = self.solve(&next).ok()?;
            candidates.push(Candidate { mv, visits: 0, expected: entry.value, proven: None });
        }
        // Best for the mover first; among equals, notation order (the sort
        // is stable).
        candidates.sort_by(|a, b| b.expected[mover].total_cmp(&a.expected[mover]));
        let best = candidates.first()?.mv.clone();
        let mut line = vec![best.clone()];
        let mut at = pos.clone();
        at.play(&best).ok()?;
        while let Some(Entry { best: Some(mv), .. }) = self.table.get(&at.to_string()) {
            line.push(mv.clone());
            let mv = mv.clone();
            if at.play(&mv).is_err() {
                break;
            }
        }
        Some(Analysis {
            best,
            candidates,
            line,
            iterations: self.visited as u64,
            elapsed: started.elapsed(),
            exact: true,
        })
    }

    fn solve(&mut self, pos: &Position) -> Result<Entry, TooBig> {
        if let Some(value) = rewards(pos) {
            return Ok(Entry { value, best: None });
        }
        let key = pos.to_string();
        if let Some(entry) = self.table.get(&key) {
            return Ok(entry.clone());
        }
        self.visited += 1;
        let late = || self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop.load(Ordering::Relaxed);
        if self.visited > self.limit || (self.visited.is_multiple_of(1024) && late()) {
            return Err(TooBig);
        }
        let mover = pos.to_move();
        let mut best: Option<Entry> = None;
        for mv in pos.legal_moves(crate::CONSIDERED_BUDGET).map_err(|_| TooBig)? {
            let mut next = pos.clone();
            if next.play(&mv).is_err() {
                continue;
            }
            let value = self.solve(&next)?.value;
            if best.as_ref().is_none_or(|b| value[mover] > b.value[mover]) {
                best = Some(Entry { value, best: Some(mv) });
            }
        }
        let entry = best.ok_or(TooBig)?;
        self.table.insert(key, entry.clone());
        Ok(entry)
    }
}
