//! The players search is measured against: uniformly random, greedy, and
//! a one-reply lookahead.

use jump_capture::{Move, Position};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::Player;

/// Plays a uniformly random legal move (every path equally likely).
#[derive(Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player drawing from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, pos: &Position) -> Option<Move> {
        match pos.random_move(&mut self.rng, crate::CONSIDERED_BUDGET) {
            Ok(mv) => mv,
            // Too many to draw from all: one of the first considered.
            Err(_) => pick(&mut self.rng, crate::considered_moves(pos).to_moves()),
        }
    }
}

/// The moves of the largest immediate gain (in notation order), and that
/// gain; empty when the game is over.
pub fn best_gains(pos: &Position) -> (Vec<Move>, u32) {
    let mut best = Vec::new();
    let mut top = 0;
    crate::for_each_considered(pos, |m| {
        if m.gain > top || best.is_empty() {
            if m.gain > top {
                best.clear();
            }
            top = top.max(m.gain);
        }
        if m.gain == top {
            // Paths from the engine are always valid moves.
            if let Ok(mv) = Move::new(m.path.to_vec()) {
                best.push(mv);
            }
        }
    });
    (best, top)
}

/// The largest gain of any legal move (0 when there is none).
pub fn top_gain(pos: &Position) -> u32 {
    let mut top = 0;
    crate::for_each_considered(pos, |m| top = top.max(m.gain));
    top
}

/// Plays a move of the largest immediate gain; among equals, one drawn
/// from its seed.
#[derive(Debug)]
pub struct GreedyPlayer {
    rng: ChaCha8Rng,
}

impl GreedyPlayer {
    /// A greedy player breaking ties with `seed`.
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let (best, _) = best_gains(pos);
        pick(&mut self.rng, best)
    }
}

/// Plays the move of the largest "my gain minus the best gain it leaves
/// the next player"; among equals, one drawn from its seed.
#[derive(Debug)]
pub struct LookaheadPlayer {
    rng: ChaCha8Rng,
}

impl LookaheadPlayer {
    /// A one-reply lookahead breaking ties with `seed`.
    pub fn new(seed: u64) -> LookaheadPlayer {
        LookaheadPlayer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Player for LookaheadPlayer {
    fn name(&self) -> String {
        "lookahead".into()
    }

    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let mut best = Vec::new();
        let mut top = i64::MIN;
        for (mv, gain) in scored_moves(pos) {
            let mut next = pos.clone();
            if next.play(&mv).is_err() {
                continue;
            }
            // A move that ends the game leaves no reply.
            let value = i64::from(gain) - i64::from(top_gain(&next));
            if value > top {
                top = value;
                best.clear();
            }
            if value == top {
                best.push(mv);
            }
        }
        pick(&mut self.rng, best)
    }
}

/// Every legal move with its gain, in notation order.
pub fn scored_moves(pos: &Position) -> Vec<(Move, u32)> {
    let list = crate::considered_moves(pos);
    (0..list.len()).filter_map(|i| Some((list.get(i)?, list.gain(i)?))).collect()
}

fn pick(rng: &mut ChaCha8Rng, mut moves: Vec<Move>) -> Option<Move> {
    if moves.is_empty() {
        return None;
    }
    let i = rand::RngExt::random_range(rng, 0..moves.len());
    Some(moves.swap_remove(i))
}
