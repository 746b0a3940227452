//! Monte Carlo tree search for any number of players.
//!
//! Each node keeps one summed reward per player; a player choosing at a
//! node picks the child best for itself (max-n), by UCT. Children are made
//! lazily, best immediate gain first, and a node may have only as many
//! children as its visits allow (progressive widening): the 225 removals
//! that open a 15×15 game are never all expanded, while a node visited
//! often considers more and more of its moves. A new node is valued by a
//! short greedy rollout and the scores where points decide (see
//! [`Tree::rollout`]), by the engine's random playouts to the end where the
//! player who cannot move loses.

use std::time::Instant;

use jump_capture::{EndRule, Move, Position};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::baseline::scored_moves;
use crate::reward::rewards;
use crate::{Analysis, Budget, Candidate};

/// The exploration constant of UCT, for rewards between 0 and 1.
const EXPLORATION: f64 = 0.5;

/// Progressive widening: a node visited `n` times may have
/// `1 + WIDEN * sqrt(n)` children.
const WIDEN: f64 = 2.0;

/// How often (in iterations) a time budget looks at the clock.
const CLOCK_EVERY: u64 = 32;

/// Greedy plies played after a new node before the scores are read.
const ROLLOUT_PLIES: usize = 4;

/// A move of the largest gain, drawn uniformly among equals; `None` when
/// the game is over.
fn greedy_move(pos: &Position, rng: &mut ChaCha8Rng) -> Option<Move> {
    let mut top = 0;
    let mut ties = 0u32;
    let mut chosen: Vec<jump_capture::Cell> = Vec::new();
    pos.for_each_move(None, |m| {
        if m.gain > top || ties == 0 {
            top = m.gain;
            ties = 0;
        }
        if m.gain == top {
            // Reservoir sampling: the k-th equal replaces the choice with
            // probability 1/k, so each is kept with the same chance.
            ties += 1;
            if rand::RngExt::random_range(rng, 0..ties) == 0 {
                chosen.clear();
                chosen.extend_from_slice(m.path);
            }
        }
        std::ops::ControlFlow::Continue(())
    });
    Move::new(chosen).ok()
}

/// What a game not yet over is worth to each player, from the scores: the
/// softmax of the scores (in units of [`SCORE_SCALE`] points) as the
/// chance to win, mixed with the share of points as in [`rewards`].
fn estimate(pos: &Position) -> Vec<f64> {
    let scores = pos.scores();
    let top = scores.iter().copied().max().unwrap_or(0);
    let weights: Vec<f64> = scores.iter().map(|&s| (-(f64::from(top - s)) / SCORE_SCALE).exp()).collect();
    let sum: f64 = weights.iter().sum();
    let total: u64 = scores.iter().map(|&s| u64::from(s)).sum();
    let n = scores.len() as f64;
    weights
        .iter()
        .zip(scores)
        .map(|(w, &s)| {
            let points = if total == 0 { 1.0 / n } else { f64::from(s) / total as f64 };
            (1.0 - crate::SCORE_WEIGHT) * w / sum + crate::SCORE_WEIGHT * points
        })
        .collect()
}

/// Points of lead that make a player about e times likelier to win.
const SCORE_SCALE: f64 = 4.0;

/// A node of the tree.
#[derive(Debug)]
struct Node {
    /// The move that led here (none at the root).
    mv: Option<Move>,
    /// The player who made it.
    mover: usize,
    visits: u64,
    /// Its children, in the order they were made.
    children: Vec<u32>,
    /// Moves not yet made into children, worst first (the next one is
    /// popped from the end); `None` until the node is first expanded.
    untried: Option<Vec<(Move, u32)>>,
}

/// A search tree over one root position.
#[derive(Debug)]
pub(crate) struct Tree {
    root: Position,
    nodes: Vec<Node>,
    /// Summed rewards: `players` values per node.
    sums: Vec<f64>,
    players: usize,
    rng: ChaCha8Rng,
}

impl Tree {
    pub(crate) fn new(root: &Position, seed: u64) -> Tree {
        let players = root.players();
        let root_node = Node { mv: None, mover: usize::MAX, visits: 0, children: Vec::new(), untried: None };
        Tree {
            root: root.clone(),
            nodes: vec![root_node],
            sums: vec![0.0; players],
            players,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Runs the search within `budget`; returns the iterations done.
    pub(crate) fn run(&mut self, budget: Budget, started: Instant) -> u64 {
        let mut done = 0;
        loop {
            match budget {
                Budget::Iterations(n) if done >= n => break,
                Budget::Millis(ms)
                    if done.is_multiple_of(CLOCK_EVERY)
                        && done > 0
                        && started.elapsed().as_millis() >= u128::from(ms) =>
                {
                    break;
                }
                _ => {}
            }
            self.iterate();
            done += 1;
        }
        done
    }

    /// One iteration: down the tree, one new node, a playout, and its
    /// rewards added along the way.
    fn iterate(&mut self) {
        let mut pos = self.root.clone();
        let mut path = vec![0u32];
        let mut node = 0usize;
        loop {
            if pos.is_over() {
                break;
            }
            if self.nodes[node].untried.is_none() {
                self.nodes[node].untried = Some(self.ordered_moves(&pos));
            }
            let n = &self.nodes[node];
            let room = 1.0 + WIDEN * (n.visits as f64).sqrt();
            let can_widen =
                n.untried.as_ref().is_some_and(|u| !u.is_empty()) && (n.children.len() as f64) < room;
            if can_widen {
                let mover = pos.to_move();
                let (mv, _) = self.nodes[node].untried.as_mut().and_then(Vec::pop).expect("checked above");
                if pos.play(&mv).is_err() {
                    // Moves come from the engine: this does not happen.
                    break;
                }
                let child = self.nodes.len() as u32;
                self.nodes.push(Node { mv: Some(mv), mover, visits: 0, children: Vec::new(), untried: None });
                self.sums.extend(std::iter::repeat_n(0.0, self.players));
                self.nodes[node].children.push(child);
                path.push(child);
                break;
            }
            let Some(child) = self.select(node) else { break };
            let Some(mv) = &self.nodes[child as usize].mv else { break };
            if pos.play(mv).is_err() {
                break;
            }
            path.push(child);
            node = child as usize;
        }
        let reward = self.rollout(&mut pos);
        for &n in &path {
            let n = n as usize;
            self.nodes[n].visits += 1;
            for (sum, r) in self.sums[n * self.players..(n + 1) * self.players].iter_mut().zip(&reward) {
                *sum += r;
            }
        }
    }

    /// Plays on from `pos` and returns what the end is worth to each
    /// player. Where players are ranked by score: greedy moves (ties drawn
    /// at random) for [`ROLLOUT_PLIES`], then the [`estimate`] from the
    /// scores — random moves to the end measured far weaker, as random
    /// captures share the points out evenly whatever the position. Where
    /// the player who cannot move loses: random moves to the end, with the
    /// engine's fast selection.
    fn rollout(&mut self, pos: &mut Position) -> Vec<f64> {
        if pos.rules().spec().end == EndRule::NoMoveLoses {
            pos.playout(&mut self.rng);
        } else {
            for _ in 0..ROLLOUT_PLIES {
                let Some(mv) = greedy_move(pos, &mut self.rng) else { break };
                if pos.play(&mv).is_err() {
                    break;
                }
            }
        }
        rewards(pos).unwrap_or_else(|| estimate(pos))
    }

    /// The position's moves, worst first: ordered by gain, equal gains in
    /// an order drawn from the search's generator.
    fn ordered_moves(&mut self, pos: &Position) -> Vec<(Move, u32)> {
        let mut moves = scored_moves(pos);
        // Shuffle, then a stable sort by gain: ties stay shuffled.
        for i in (1..moves.len()).rev() {
            let j = rand::RngExt::random_range(&mut self.rng, 0..=i);
            moves.swap(i, j);
        }
        moves.sort_by_key(|&(_, gain)| gain);
        moves
    }

    /// The child of `node` with the best UCT value for the player to move
    /// there.
    fn select(&self, node: usize) -> Option<u32> {
        let parent = &self.nodes[node];
        let log_n = (parent.visits.max(1) as f64).ln();
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for &c in &parent.children {
            let child = &self.nodes[c as usize];
            let value = if child.visits == 0 {
                f64::INFINITY
            } else {
                let mean = self.sums[c as usize * self.players + child.mover] / child.visits as f64;
                mean + EXPLORATION * (log_n / child.visits as f64).sqrt()
            };
            if value > best_value {
                best_value = value;
                best = Some(c);
            }
        }
        best
    }

    fn mean(&self, node: usize) -> Vec<f64> {
        let visits = self.nodes[node].visits.max(1) as f64;
        self.sums[node * self.players..(node + 1) * self.players].iter().map(|s| s / visits).collect()
    }

    /// The most visited child of `node` (the first made among equals).
    fn most_visited(&self, node: usize) -> Option<u32> {
        let mut best: Option<u32> = None;
        for &c in &self.nodes[node].children {
            if best.is_none_or(|b| self.nodes[c as usize].visits > self.nodes[b as usize].visits) {
                best = Some(c);
            }
        }
        best
    }

    /// What the search found: candidates by visits, and the line of most
    /// visited moves.
    pub(crate) fn analysis(&self, iterations: u64, started: Instant) -> Option<Analysis> {
        let mut candidates: Vec<Candidate> = self.nodes[0]
            .children
            .iter()
            .filter_map(|&c| {
                let node = &self.nodes[c as usize];
                Some(Candidate { mv: node.mv.clone()?, visits: node.visits, expected: self.mean(c as usize) })
            })
            .collect();
        // Most visited first; among equals, the earlier made (better gain).
        candidates.sort_by_key(|c| std::cmp::Reverse(c.visits));
        let best = candidates.first()?.mv.clone();
        let mut line = Vec::new();
        let mut node = 0;
        while let Some(c) = self.most_visited(node) {
            if self.nodes[c as usize].visits == 0 {
                break;
            }
            line.extend(self.nodes[c as usize].mv.clone());
            node = c as usize;
        }
        Some(Analysis { best, candidates, line, iterations, elapsed: started.elapsed(), exact: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jump_capture::{Preset, Rules, Setup};

    fn search(text: &str, iterations: u64) -> Analysis {
        let setup: Setup = text.parse().unwrap();
        let rules = Rules::new(Preset::Murray.spec().with_shape_of(&setup.grid)).unwrap();
        let pos = Position::from_setup(rules, &setup).unwrap();
        let mut tree = Tree::new(&pos, 1);
        let started = Instant::now();
        let done = tree.run(Budget::Iterations(iterations), started);
        tree.analysis(done, started).unwrap()
    }

    // The positions of `tests/tactics.rs`, without the exact search.

    #[test]
    fn the_tree_alone_takes_the_bigger_chain() {
        assert_eq!(search("5/G4/5/G4/W1RW1 2 0,0", 2_000).best.to_string(), "a1xa3xa5");
    }

    #[test]
    fn the_tree_alone_refuses_the_capture_that_hands_over_a_chain() {
        let a = search("5/2R2/2WG1/W1R2/W1W2 2 0,0", 2_000);
        assert_eq!(a.best.to_string(), "a1xa3");
        assert_eq!(a.line.first(), Some(&a.best));
        let visits: u64 = a.candidates.iter().map(|c| c.visits).sum();
        assert_eq!(visits, 2_000);
    }
}
