//! MCTS-Solver: what the tree proves in two-player games where the player
//! who cannot move loses (see the notes of `mcts`), and the order of the
//! best that puts proofs first.

use jump_capture::Position;

use super::Tree;
use crate::{CONSIDERED, Candidate};

/// A candidate's place in the order of the best: proven wins first,
/// proven losses last, the rest by visits, most first.
pub(crate) fn rank(c: &Candidate) -> (u8, std::cmp::Reverse<u64>) {
    let class = match c.proven {
        Some(true) => 0,
        None => 1,
        Some(false) => 2,
    };
    (class, std::cmp::Reverse(c.visits))
}

impl Tree {
    /// Each player's exact reward where `winner` wins.
    pub(super) fn won_by(&self, winner: usize) -> Vec<f64> {
        (0..self.players).map(|p| if p == winner { 1.0 } else { 0.0 }).collect()
    }

    /// The winner of `pos` if the tree proves results and its game is over.
    pub(super) fn ended(&self, pos: &Position) -> Option<usize> {
        if !self.solver {
            return None;
        }
        match pos.outcome()?.winners.as_slice() {
            [w] => Some(*w),
            _ => None,
        }
    }

    /// Proves `node` from its children if they prove it (see the module's
    /// notes); whether it is proven.
    pub(super) fn prove(&mut self, node: usize) -> bool {
        let n = &self.nodes[node];
        if n.winner.is_some() {
            return true;
        }
        let Some(&first) = n.children.first() else { return false };
        let chooser = self.nodes[first as usize].mover;
        let winners = || n.children.iter().map(|&c| self.nodes[c as usize].winner);
        let winner = if winners().any(|w| w == Some(chooser)) {
            Some(chooser)
        } else if self.every_move_made(node) && self.all_lost(node) {
            winners().next().flatten()
        } else {
            None
        };
        self.nodes[node].winner = winner;
        winner.is_some()
    }

    /// Whether every legal move of `node` is one of its children: all of
    /// them counted (not cut at [`CONSIDERED`]), and not only the largest
    /// gains of a player expected to be greedy.
    fn every_move_made(&self, node: usize) -> bool {
        let n = &self.nodes[node];
        let Some(&first) = n.children.first() else { return false };
        !self.greedy[self.nodes[first as usize].mover]
            && n.moves.is_some_and(|m| u64::from(m) < CONSIDERED && m as usize == n.children.len())
    }

    /// Whether `node` has children and each is proven won by a player other
    /// than the one who chose it.
    pub(super) fn all_lost(&self, node: usize) -> bool {
        let children = &self.nodes[node].children;
        !children.is_empty() && children.iter().all(|&c| self.nodes[c as usize].lost())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use jump_capture::{Move, Preset, Rules};
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;
    use web_time::Instant;

    use super::super::Node;
    use super::*;
    use crate::{Budget, Habits};

    /// Konane 6×6 endings small enough to solve: random moves from the
    /// deal until at most 14 pieces are left, the game going on.
    fn konane_positions(count: usize) -> Vec<Position> {
        let rules = Rules::new(Preset::Konane.spec().with_size(6, 6)).unwrap();
        let mut found = Vec::new();
        for seed in 0u64.. {
            let (mut pos, _) = Position::start(rules.clone(), 2, Some(seed)).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while !pos.is_over() && (pos.is_opening() || pos.piece_count() > 14) {
                let Some(m) = pos.random_move_unbounded(&mut rng) else { break };
                pos.play(&m).unwrap();
            }
            if !pos.is_over() && pos.count_moves_unbounded() > 1 {
                found.push(pos);
            }
            if found.len() == count {
                return found;
            }
        }
        unreachable!()
    }

    #[test]
    fn what_the_tree_proves_the_exact_search_confirms_and_a_proven_win_is_played() {
        let (mut proofs, mut won_roots) = (0, 0);
        let never = AtomicBool::new(false);
        for (i, pos) in konane_positions(30).into_iter().enumerate() {
            let mover = pos.to_move();
            let exact =
                crate::exact::Solver::new(usize::MAX, None, &never).analyse(&pos, Instant::now()).unwrap();
            let value = |mv: &Move| exact.candidates.iter().find(|c| &c.mv == mv).unwrap().expected[mover];
            let mut tree = Tree::new(&pos, i as u64, &Habits::new());
            let started = Instant::now();
            let done = tree.run(Budget::Iterations(4_000), started, &never);
            let a = tree.analysis(done, started).unwrap();
            for c in &a.candidates {
                if let Some(won) = c.proven {
                    proofs += 1;
                    assert_eq!(value(&c.mv), if won { 1.0 } else { 0.0 }, "{pos}: {} proven {won}", c.mv);
                }
            }
            if let Some(w) = tree.nodes[0].winner {
                won_roots += usize::from(w == mover);
                assert_eq!(w == mover, value(&a.best) == 1.0, "{pos}: the root proven for {w}");
                assert_eq!(a.candidates[0].proven, Some(w == mover), "{pos}: a proven win comes first");
                assert!(done < 4_000, "{pos}: a proven root ends the search");
            }
        }
        assert!(proofs >= 30 && won_roots >= 3, "too little proven: {proofs} moves, {won_roots} won roots");
    }

    #[test]
    fn a_node_is_lost_once_every_move_is_a_child_lost_and_won_once_one_child_is_won() {
        let pos = konane_positions(1).remove(0);
        let (me, other) = (pos.to_move(), 1 - pos.to_move());
        let child = |tree: &mut Tree, winner: Option<usize>| {
            tree.nodes.push(Node { mover: me, winner, ..Node::empty() });
            let c = tree.nodes.len() as u32 - 1;
            tree.nodes[0].children.push(c);
        };
        let mut tree = Tree::new(&pos, 1, &Habits::new());
        tree.nodes[0].moves = Some(3);
        child(&mut tree, Some(other));
        child(&mut tree, Some(other));
        assert!(!tree.prove(0), "a move not tried yet may save it");
        child(&mut tree, Some(other));
        assert!(tree.prove(0));
        assert_eq!(tree.nodes[0].winner, Some(other));

        let mut tree = Tree::new(&pos, 1, &Habits::new());
        tree.nodes[0].moves = Some(3);
        child(&mut tree, None);
        child(&mut tree, Some(other));
        assert!(!tree.prove(0));
        child(&mut tree, Some(me));
        assert!(tree.prove(0), "one winning move is enough");
        assert_eq!(tree.nodes[0].winner, Some(me));
    }

    #[test]
    fn scored_games_prove_nothing() {
        let pos = super::super::tests::position("5/2R2/2WG1/W1R2/W1W2 2 0,0");
        let mut tree = Tree::new(&pos, 1, &Habits::new());
        tree.run(Budget::Iterations(2_000), Instant::now(), &AtomicBool::new(false));
        assert!(tree.nodes.iter().all(|n| n.winner.is_none()));
    }
}
