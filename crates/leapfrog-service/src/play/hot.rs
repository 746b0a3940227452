//! The hot games (issue: the move path at the speed of the disk): each
//! game this process changed lately, as it stored it, with the seat
//! tokens it has checked — so that a move neither reads its game back nor
//! parses its rules and position again.
//!
//! A hot copy is only ever a guess: every change is stored only if the
//! stored game is still at the copy's version (the same optimistic check
//! as always), so a copy made stale by another process never answers —
//! its move is a conflict, the copy is dropped, and the move is made
//! again on the game read afresh.

use std::collections::HashMap;
use std::sync::Mutex;

use leapfrog_core::game::{Change, Game};

/// Most games kept; past it the copies are dropped (they are read again).
const MOST: usize = 4_096;

/// A game's hot copy and the tokens seen to hold its seats.
#[derive(Debug)]
struct Entry {
    game: Game,
    /// (token hash, seat) pairs checked against the store.
    tokens: Vec<(String, usize)>,
}

/// The hot copies of one process.
#[derive(Debug, Default)]
pub struct Hot {
    games: Mutex<HashMap<String, Entry>>,
}

impl Hot {
    /// Game `id` and the seat of the token whose hash is `token`, if both
    /// are known here.
    pub fn seat(&self, id: &str, token: &str) -> Option<(Game, usize)> {
        let games = self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let e = games.get(id)?;
        let seat = e.tokens.iter().find(|(t, _)| t == token)?.1;
        Some((e.game.clone(), seat))
    }

    /// Keeps `game` as read from the store, with a token seen to hold `seat`.
    pub fn keep(&self, game: &Game, token: &str, seat: usize) {
        let mut games = self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if games.len() >= MOST && !games.contains_key(game.id()) {
            // Bounded memory: the copies are a cache, dropped whole.
            games.clear();
        }
        let e = games
            .entry(game.id().to_string())
            .or_insert_with(|| Entry { game: game.clone(), tokens: vec![] });
        if e.game.version() != game.version() {
            *e = Entry { game: game.clone(), tokens: vec![] };
        }
        if !e.tokens.iter().any(|(t, _)| t == token) {
            e.tokens.push((token.to_string(), seat));
        }
    }

    /// After `changes` made `next` and were stored: the copy follows when
    /// only play went on; a change of the seats drops it (tokens change).
    pub fn stored(&self, next: &Game, changes: &[Change]) {
        let mut games = self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let seats_changed = changes.iter().any(|c| matches!(c, Change::Joined { .. } | Change::Left { .. }));
        if seats_changed {
            games.remove(next.id());
        } else if let Some(e) = games.get_mut(next.id()) {
            e.game = next.clone();
        }
    }

    /// Drops game `id`'s copy (stale: another process changed the game).
    pub fn forget(&self, id: &str) {
        self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(id);
    }
}
