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
//! player who cannot move loses. A player expected to be greedy (see
//! [`Habits`]) has, at its nodes, only its moves of the largest gain,
//! tried in turn.
//!
//! In two-player games where the player who cannot move loses (Konane),
//! the tree proves what it can (MCTS-Solver): a node whose game is over is
//! won by the player who made the last move; a node is won by the player to
//! move there once one of its children is, and lost by it once all its
//! moves are children and every one is won by the other. An iteration
//! that reaches a proven node backs up its exact result instead of a
//! playout; selection passes over children proven lost while others remain;
//! the best move is one proven to win, and never one proven to lose while
//! another is not; a search whose root is proven ends (`solver`).

use std::sync::atomic::{AtomicBool, Ordering};

use web_time::Instant;

use jump_capture::{EndRule, Move, Position};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::reward::rewards;
use crate::{Analysis, Budget, CONSIDERED, CONSIDERED_BUDGET, Candidate, Habits};

mod solver;
pub(crate) use solver::rank;

/// The exploration constant of UCT, for rewards between 0 and 1.
const EXPLORATION: f64 = 0.5;

/// Progressive widening: a node visited `n` times may have
/// `1 + WIDEN * sqrt(n)` children.
const WIDEN: f64 = 2.0;

/// Greedy plies played after a new node before the scores are read.
const ROLLOUT_PLIES: u32 = 4;

/// What a game not yet over is worth to each player, from the scores: the
/// softmax of the scores (in units of [`SCORE_SCALE`] points) as the
/// chance to win, mixed with the share of points as in [`rewards`].
fn estimate(pos: &Position) -> Vec<f64> {
    let scores = pos.scores();
    let top = scores.iter().copied().max().unwrap_or(0);
    let weights: Vec<f64> = scores.iter().map(|&s| libm::exp(-(f64::from(top - s)) / SCORE_SCALE)).collect();
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

/// A 64-bit mixer (SplitMix64's finaliser): equal inputs, equal outputs;
/// near inputs, unrelated outputs.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

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
    /// How many legal moves its position has; `None` until the node is
    /// first expanded. The moves themselves are not kept (a list per node
    /// took most of the memory of a long search): each new child is the
    /// next of them in [`Tree::nth_best`] order, generated again.
    moves: Option<u32>,
    /// Orders its moves of equal gain (see [`Tree::nth_best`]): drawn when
    /// it is made, and kept with it when the tree is re-rooted.
    salt: u64,
    /// The player who wins from its position with best play, once proven
    /// (see the module's notes).
    winner: Option<usize>,
}

impl Node {
    /// A node with nothing in it, left where one was moved out.
    fn empty() -> Node {
        Node {
            mv: None,
            mover: usize::MAX,
            visits: 0,
            children: Vec::new(),
            moves: None,
            salt: 0,
            winner: None,
        }
    }

    /// Whether it is proven lost for the player who chose it.
    fn lost(&self) -> bool {
        self.winner.is_some_and(|w| w != self.mover)
    }
}

/// The most moves between the positions of two searches of one game for
/// the second to go on with the first's tree: the players of a game.
pub(crate) const REROOT_PLIES: u32 = 6;

/// The most nodes a tree keeps from one search to the next (a node and
/// its move take about 150 bytes).
pub(crate) const KEPT_NODES: usize = 1 << 20;

/// A search tree over one root position.
#[derive(Debug)]
pub(crate) struct Tree {
    root: Position,
    nodes: Vec<Node>,
    /// Summed rewards: `players` values per node.
    sums: Vec<f64>,
    players: usize,
    rng: ChaCha8Rng,
    /// Draws the nodes' salts.
    salt: u64,
    /// Per player: expected to take a largest gain (see [`Habits`]). Never
    /// the searching player itself.
    greedy: Vec<bool>,
    /// Whether it proves results: two players, and the one who cannot move
    /// loses.
    solver: bool,
}

impl Tree {
    pub(crate) fn new(root: &Position, seed: u64, habits: &Habits) -> Tree {
        let players = root.players();
        let greedy = Tree::greedy_of(root, habits);
        let salt = mix(seed);
        let root_node = Node { salt, ..Node::empty() };
        Tree {
            root: root.clone(),
            nodes: vec![root_node],
            sums: vec![0.0; players],
            players,
            rng: ChaCha8Rng::seed_from_u64(seed),
            salt,
            greedy,
            solver: players == 2 && root.rules().spec().end == EndRule::NoMoveLoses,
        }
    }

    /// Makes the node of `pos` the root, keeping its subtree and dropping
    /// the rest, if `pos` follows the root by at most [`REROOT_PLIES`]
    /// moves the tree has made, expecting the same of the other players
    /// (`habits`), and the subtree is at most [`KEPT_NODES`]; whether it
    /// did. When not, the tree is as it was.
    pub(crate) fn reroot(&mut self, pos: &Position, habits: &Habits) -> bool {
        let depth = pos.ply().wrapping_sub(self.root.ply());
        if !(1..=REROOT_PLIES).contains(&depth) || Tree::greedy_of(pos, habits) != self.greedy {
            return false;
        }
        let Some(top) = self.find(0, &self.root, depth, pos) else { return false };
        // The subtree, breadth first, its nodes numbered anew.
        let mut order = vec![top];
        let mut i = 0;
        while i < order.len() {
            order.extend_from_slice(&self.nodes[order[i] as usize].children);
            if order.len() > KEPT_NODES {
                return false;
            }
            i += 1;
        }
        let mut number = std::collections::HashMap::with_capacity(order.len());
        for (new, &old) in order.iter().enumerate() {
            number.insert(old, new as u32);
        }
        let (mut nodes, mut sums) =
            (Vec::with_capacity(order.len()), Vec::with_capacity(order.len() * self.players));
        for &old in &order {
            let old = old as usize;
            let node = std::mem::replace(&mut self.nodes[old], Node::empty());
            let children = node.children.iter().map(|c| number[c]).collect();
            nodes.push(Node { children, ..node });
            sums.extend_from_slice(&self.sums[old * self.players..(old + 1) * self.players]);
        }
        nodes[0].mv = None;
        nodes[0].mover = usize::MAX;
        (self.nodes, self.sums, self.root) = (nodes, sums, pos.clone());
        true
    }

    /// The node `depth` moves below `node` (whose position is `at`) whose
    /// position is `pos`, among those made.
    fn find(&self, node: u32, at: &Position, depth: u32, pos: &Position) -> Option<u32> {
        if depth == 0 {
            return (at == pos).then_some(node);
        }
        self.nodes[node as usize].children.iter().find_map(|&c| {
            let mut next = at.clone();
            next.play(self.nodes[c as usize].mv.as_ref()?).ok()?;
            self.find(c, &next, depth - 1, pos)
        })
    }

    /// Per player: expected to be greedy at `pos`.
    fn greedy_of(pos: &Position, habits: &Habits) -> Vec<bool> {
        (0..pos.players()).map(|p| p != pos.to_move() && habits.is_greedy(p)).collect()
    }

    /// Runs the search within `budget`, or until `stop` is set once an
    /// iteration is done; returns the iterations done.
    pub(crate) fn run(&mut self, budget: Budget, started: Instant, stop: &AtomicBool) -> u64 {
        let mut done = 0;
        let (iterations, millis) = (budget.iterations(), budget.millis());
        loop {
            if iterations.is_some_and(|n| done >= n) || (done > 0 && stop.load(Ordering::Relaxed)) {
                break;
            }
            // Proven: nothing more to learn (it has children, or it would
            // not be).
            if self.nodes[0].winner.is_some() {
                break;
            }
            // The clock every iteration: it costs a few tens of nanoseconds,
            // and an iteration on a position of very many moves takes
            // milliseconds, so a time budget is not overrun by many.
            if let Some(ms) = millis
                && done > 0
                && started.elapsed().as_millis() >= u128::from(ms)
            {
                break;
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
            if pos.is_over() || self.nodes[node].winner.is_some() {
                break;
            }
            let greedy = self.greedy[pos.to_move()];
            let moves = match self.nodes[node].moves {
                Some(n) => n,
                None => {
                    // A player expected to be greedy has only its moves of
                    // the largest gain: they come first in `nth_best` order.
                    let n = if greedy {
                        pos.largest_gain(CONSIDERED).map_or(0, |(_, n)| n as usize)
                    } else {
                        // Past the budget: the first CONSIDERED moves.
                        pos.count_moves(CONSIDERED_BUDGET).unwrap_or(CONSIDERED) as usize
                    };
                    let n = u32::try_from(n).unwrap_or(u32::MAX);
                    self.nodes[node].moves = Some(n);
                    n
                }
            };
            let n = &self.nodes[node];
            let room = 1.0 + WIDEN * (n.visits as f64).sqrt();
            let tried = n.children.len();
            if tried < moves as usize && ((tried as f64) < room || self.all_lost(node)) {
                let mover = pos.to_move();
                let Some(mv) = self.nth_best(&pos, node, tried) else { break };
                if pos.play(&mv).is_err() {
                    // Moves come from the engine: this does not happen.
                    break;
                }
                let child = self.nodes.len() as u32;
                let salt = self.salt ^ u64::from(child).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                self.nodes.push(Node {
                    mv: Some(mv),
                    mover,
                    visits: 0,
                    children: Vec::new(),
                    moves: None,
                    salt,
                    winner: self.ended(&pos),
                });
                self.sums.extend(std::iter::repeat_n(0.0, self.players));
                self.nodes[node].children.push(child);
                path.push(child);
                break;
            }
            let chosen = if greedy { self.least_visited(node) } else { self.select(node) };
            let Some(child) = chosen else { break };
            let Some(mv) = &self.nodes[child as usize].mv else { break };
            if pos.play(mv).is_err() {
                break;
            }
            path.push(child);
            node = child as usize;
        }
        let leaf = path[path.len() - 1] as usize;
        let reward = match self.nodes[leaf].winner {
            Some(w) => self.won_by(w),
            None => self.rollout(&mut pos),
        };
        if self.solver {
            // Up from the leaf's parent while nodes become proven.
            for &n in path.iter().rev().skip(1) {
                if !self.prove(n as usize) {
                    break;
                }
            }
        }
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
            // A ply past the budget ends the playout where it is.
            let _ = pos.playout(&mut self.rng, CONSIDERED_BUDGET);
        } else {
            pos.greedy_playout(&mut self.rng, ROLLOUT_PLIES, CONSIDERED);
        }
        rewards(pos).unwrap_or_else(|| estimate(pos))
    }

    /// Move `k` (from 0) of `pos`, the position of `node`, in the order
    /// its children are made: largest gain first, equal gains in an order
    /// drawn from the search's seed and the node (the same every time it
    /// is asked, so the list need not be kept).
    fn nth_best(&self, pos: &Position, node: usize, k: usize) -> Option<Move> {
        pos.ranked_move(k as u64, self.nodes[node].salt, CONSIDERED)
    }

    /// The child of `node` with the best UCT value for the player to move
    /// there.
    fn select(&self, node: usize) -> Option<u32> {
        let parent = &self.nodes[node];
        let log_n = libm::log(parent.visits.max(1) as f64);
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        for &c in &parent.children {
            let child = &self.nodes[c as usize];
            let value = if child.lost() {
                // Proven lost: only when nothing else is left.
                f64::MIN
            } else if child.visits == 0 {
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

    /// The child of `node` visited least (the first made among equals):
    /// a greedy player's moves of equal gain, tried in turn as it would
    /// pick them, at random.
    fn least_visited(&self, node: usize) -> Option<u32> {
        self.nodes[node].children.iter().copied().min_by_key(|&c| self.nodes[c as usize].visits)
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
                let expected = match node.winner {
                    Some(w) => self.won_by(w),
                    None => self.mean(c as usize),
                };
                let proven = node.winner.map(|w| w == node.mover);
                Some(Candidate { mv: node.mv.clone()?, visits: node.visits, expected, proven })
            })
            .collect();
        // Proven wins first, proven losses last, the rest most visited
        // first; among equals, the earlier made (better gain).
        candidates.sort_by_key(rank);
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
        let mut tree = Tree::new(&pos, 1, &Habits::new());
        let started = Instant::now();
        let done = tree.run(Budget::Iterations(iterations), started, &AtomicBool::new(false));
        tree.analysis(done, started).unwrap()
    }

    pub(super) fn position(text: &str) -> Position {
        let setup: Setup = text.parse().unwrap();
        let rules = Rules::new(Preset::Murray.spec().with_shape_of(&setup.grid)).unwrap();
        Position::from_setup(rules, &setup).unwrap()
    }

    /// Every node's children are different moves.
    fn no_child_twice(tree: &Tree) -> bool {
        tree.nodes.iter().all(|n| {
            let moves: std::collections::HashSet<_> =
                n.children.iter().map(|&c| tree.nodes[c as usize].mv.clone()).collect();
            moves.len() == n.children.len()
        })
    }

    #[test]
    fn a_tree_goes_on_from_the_node_of_the_position_two_moves_on() {
        let start = position(include_str!("../../tests/positions/murray-15-orthogonal.txt").trim());
        let never = AtomicBool::new(false);
        let mut tree = Tree::new(&start, 3, &Habits::new());
        tree.run(Budget::Iterations(3_000), Instant::now(), &never);
        // Down the most visited line two moves.
        let first = tree.most_visited(0).unwrap();
        let second = tree.most_visited(first as usize).unwrap();
        let mut pos = start.clone();
        for n in [first, second] {
            pos.play(tree.nodes[n as usize].mv.as_ref().unwrap()).unwrap();
        }
        let (visits, kept) = (tree.nodes[second as usize].visits, tree.nodes.len());
        // Not the start, nor a position the tree has not made.
        assert!(!tree.reroot(&start, &Habits::new()));
        let mut elsewhere = start.clone();
        elsewhere.play(&start.legal_moves_unbounded()[0]).unwrap();
        elsewhere.play(&elsewhere.legal_moves_unbounded()[0]).unwrap();
        if elsewhere != pos {
            assert!(!tree.reroot(&elsewhere, &Habits::new()));
        }
        assert_eq!(tree.nodes.len(), kept, "a refused re-rooting changes nothing");
        assert!(tree.reroot(&pos, &Habits::new()));
        assert_eq!(tree.nodes[0].visits, visits);
        assert!(tree.nodes.len() < kept && tree.nodes[0].mv.is_none());
        // It goes on: new children are the next in each node's own order.
        tree.run(Budget::Iterations(3_000), Instant::now(), &never);
        assert_eq!(tree.nodes[0].visits, visits + 3_000);
        assert!(no_child_twice(&tree));
        let a = tree.analysis(3_000, Instant::now()).unwrap();
        assert!(pos.check(&a.best).is_ok());
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
