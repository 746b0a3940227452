//! Root parallelism: several trees over one position, each on a thread of
//! its own and drawn from its own seed, their root statistics summed at
//! the end. The trees share nothing while they run (no locks, no shared
//! node counts), so two cores give close to twice the iterations; the
//! price is that each tree is shallower than one tree of them all would
//! be.

use web_time::Instant;

use crate::{Analysis, Candidate};

/// The analyses of several trees over one position as one: each move's
/// visits summed, its expected results averaged by visits (those of the
/// tree that proved it, where one did), proven as any tree proved it
/// (proofs never disagree); the best move one proven to
/// win, else the most visited not proven to lose; the line of the tree
/// that visited it most.
pub(crate) fn merged(analyses: Vec<Analysis>, started: Instant) -> Option<Analysis> {
    let mut candidates: Vec<Candidate> = Vec::new();
    for a in &analyses {
        for c in &a.candidates {
            match candidates.iter_mut().find(|m| m.mv == c.mv) {
                Some(m) => {
                    let total = (m.visits + c.visits).max(1) as f64;
                    match (m.proven, c.proven) {
                        // A proof's expected results are exact: kept whole.
                        (Some(_), _) => {}
                        (None, Some(_)) => m.expected.clone_from(&c.expected),
                        (None, None) => {
                            for (e, x) in m.expected.iter_mut().zip(&c.expected) {
                                *e = (*e * m.visits as f64 + x * c.visits as f64) / total;
                            }
                        }
                    }
                    m.visits += c.visits;
                    m.proven = m.proven.or(c.proven);
                }
                None => candidates.push(c.clone()),
            }
        }
    }
    // Proven wins first and losses last, most visited first among the
    // rest; among equals, the order the first tree made them.
    candidates.sort_by_key(crate::mcts::rank);
    let best = candidates.first()?.mv.clone();
    let visits_of_best = |a: &Analysis| a.candidates.iter().find(|c| c.mv == best).map_or(0, |c| c.visits);
    let line = analyses.iter().max_by_key(|a| visits_of_best(a)).map(|a| a.line.clone()).unwrap_or_default();
    let iterations = analyses.iter().map(|a| a.iterations).sum();
    Some(Analysis { best, candidates, line, iterations, elapsed: started.elapsed(), exact: false })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jump_capture::Move;

    fn candidate(mv: &str, visits: u64, mine: f64) -> Candidate {
        Candidate { mv: mv.parse::<Move>().unwrap(), visits, expected: vec![mine, 1.0 - mine], proven: None }
    }

    fn analysis(candidates: Vec<Candidate>, line: &str) -> Analysis {
        Analysis {
            best: candidates[0].mv.clone(),
            line: line.split(' ').map(|m| m.parse().unwrap()).collect(),
            candidates,
            iterations: 100,
            elapsed: web_time::Duration::ZERO,
            exact: false,
        }
    }

    #[test]
    fn visits_add_up_and_the_most_visited_move_of_all_trees_is_best() {
        let a = analysis(vec![candidate("a1xa3", 60, 0.6), candidate("c1xa1", 40, 0.5)], "a1xa3 b1xb3");
        let b = analysis(vec![candidate("c1xa1", 70, 0.7), candidate("a1xa3", 30, 0.4)], "c1xa1 a3xc3");
        let m = merged(vec![a, b], Instant::now()).unwrap();
        assert_eq!(m.best.to_string(), "c1xa1");
        assert_eq!(m.candidates.iter().map(|c| c.visits).collect::<Vec<_>>(), [110, 90]);
        // Expected results weighed by visits: (40 × 0.5 + 70 × 0.7) / 110.
        assert!((m.candidates[0].expected[0] - 69.0 / 110.0).abs() < 1e-12);
        assert_eq!(m.line[0].to_string(), "c1xa1", "the line of the tree that chose it");
        assert_eq!(m.iterations, 200);
    }

    #[test]
    fn a_move_one_tree_proved_to_win_is_best_and_one_proved_to_lose_last() {
        let proven = |mv, visits, won| Candidate { proven: Some(won), ..candidate(mv, visits, 0.5) };
        let a = analysis(vec![candidate("a1xa3", 60, 0.6), proven("c1xa1", 5, true)], "a1xa3");
        let b = analysis(
            vec![proven("e1xc1", 90, false), candidate("a1xa3", 30, 0.4), candidate("c1xa1", 20, 0.9)],
            "e1xc1",
        );
        let m = merged(vec![a, b], Instant::now()).unwrap();
        assert_eq!(m.best.to_string(), "c1xa1");
        assert_eq!(m.candidates[0].expected, [0.5, 0.5], "the proving tree's results, not averaged");
        let order: Vec<_> = m.candidates.iter().map(|c| (c.mv.to_string(), c.proven)).collect();
        assert_eq!(
            order,
            [("c1xa1".into(), Some(true)), ("a1xa3".into(), None), ("e1xc1".into(), Some(false))]
        );
    }
}
