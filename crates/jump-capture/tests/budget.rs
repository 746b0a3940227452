//! Budgets: every enumeration of a position's moves stops cleanly past its
//! budget, and whether a move exists is never counted. The moves of these
//! games can be exponentially many (every prefix of a chain is a move).

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::ops::ControlFlow;

use common::{random_position, rng};
use jump_capture::{Cell, DirectionSet, OverBudget, PathBudget, Phase, Position, Preset, Rules, Setup};
use proptest::prelude::*;

/// Leap Frog `old` on `rows × cols`, full but for the cells on even files
/// and even ranks (from 0), with a piece on a1: every piece can run
/// through a lattice of holes, so the chains from a1 branch at every hole.
fn lattice(rows: u8, cols: u8) -> Position {
    let board: Vec<String> = (0..rows)
        .rev()
        .map(|r| {
            (0..cols)
                .map(|f| if r % 2 == 0 && f % 2 == 0 && (r, f) != (0, 0) { '1' } else { 'O' })
                .collect::<String>()
        })
        .collect();
    let setup: Setup = format!("{} 10 0,0", board.join("/")).parse().unwrap();
    let rules = Rules::new(Preset::Old.spec().with_shape_of(&setup.grid)).unwrap();
    Position::from_setup(rules, &setup).unwrap()
}

const SMALL: PathBudget = PathBudget::new(10_000);

#[test]
fn whether_a_move_exists_is_answered_without_counting_on_a_board_of_uncountable_moves() {
    let pos = lattice(11, 11);
    assert!(pos.has_moves());
    assert!(!pos.is_over());
    assert_eq!(pos.phase(), Phase::Playing);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn every_enumeration_stops_at_its_budget_on_a_board_of_uncountable_moves() {
    let pos = lattice(11, 11);
    let over = Err(OverBudget { budget: SMALL.paths() });
    assert_eq!(pos.count_moves(SMALL), over);
    assert_eq!(pos.legal_moves(SMALL).map(|m| m.len()), over.map(|_: u64| 0));
    assert!(pos.move_list(None, SMALL).is_err());
    assert!(pos.jump_tree("a1".parse().unwrap(), SMALL).is_err());
    assert_eq!(pos.perft(1, SMALL), over);
    assert_eq!(pos.perft(2, SMALL), over);
    assert!(pos.divide(2, SMALL).is_err());
    assert!(pos.random_move(&mut rng(1), SMALL).is_err());
    assert!(pos.nth_move(0, SMALL).is_err());
    let mut playing = pos.clone();
    assert!(playing.playout(&mut rng(1), SMALL).is_err());
    assert_eq!(playing, pos, "a playout that cannot choose its first ply plays none");
    // The first moves are there to be had, in notation order.
    let first = pos.first_moves(None, 5);
    assert_eq!(first.len(), 5);
    let notation: Vec<String> = first.to_moves().iter().map(ToString::to_string).collect();
    let mut sorted = notation.clone();
    sorted.sort();
    assert_eq!(notation, sorted);
    // The error says what to do.
    let text = pos.count_moves(SMALL).unwrap_err().to_string();
    assert!(text.contains("more than 10000 move paths"), "{text}");
}

#[test]
fn the_service_sized_boards_of_the_lattice_stay_within_a_default_budget_or_say_so() {
    // 9 ranks by 11 files: a board the service accepts. Whatever the answer,
    // it comes, and the tree from a1 is refused rather than built.
    let pos = lattice(9, 11);
    let _ = pos.count_moves(PathBudget::default());
    assert!(pos.jump_tree("a1".parse().unwrap(), PathBudget::new(100_000)).is_err());
}

#[test]
fn a_budget_of_exactly_the_count_is_enough_and_one_less_is_not() {
    let setup: Setup = "1OO/1OO/1OO 2 1,1".parse().unwrap();
    let pos = Position::from_setup(Rules::new(Preset::Old.spec().with_size(3, 3)).unwrap(), &setup).unwrap();
    assert_eq!(pos.count_moves(PathBudget::new(3)), Ok(3));
    assert_eq!(pos.count_moves(PathBudget::new(2)), Err(OverBudget { budget: 2 }));
    assert_eq!(pos.legal_moves(PathBudget::new(3)).unwrap().len(), 3);
    assert!(pos.legal_moves(PathBudget::new(2)).is_err());
    assert_eq!(pos.perft(2, PathBudget::default()), Ok(12));
    assert_eq!(pos.divide(2, PathBudget::default()).unwrap(), pos.divide_unbounded(2));
    assert_eq!(pos.first_moves(None, 2).len(), 2);
    assert_eq!(pos.first_moves(None, 0).len(), 0);
}

fn any_position(seed: u64, preset: usize, dirs: usize) -> Position {
    let preset = Preset::ALL[preset];
    let dirs = DirectionSet::ALL[dirs];
    random_position(preset, dirs, &mut rng(seed)).1
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// On random positions of every preset: a bounded call answers as the
    /// unbounded one when the moves fit, and refuses when they do not.
    #[test]
    fn bounded_calls_agree_with_unbounded_ones_within_their_budget(
        seed in any::<u64>(), preset in 0..Preset::ALL.len(), dirs in 0usize..4, cut in 0.0f64..1.5,
    ) {
        let pos = any_position(seed, preset, dirs);
        let n = pos.count_moves_unbounded();
        let budget = PathBudget::new((n as f64 * cut) as u64);
        let fits = n <= budget.paths();
        prop_assert_eq!(pos.count_moves(budget).ok(), fits.then_some(n));
        prop_assert_eq!(pos.legal_moves(budget).ok(), fits.then(|| pos.legal_moves_unbounded()));
        prop_assert_eq!(pos.has_moves(), n > 0);
        let first = pos.first_moves(None, budget.paths() as usize);
        prop_assert_eq!(first.len() as u64, n.min(budget.paths()));
        if let Some(mv) = pos.legal_moves_unbounded().first() {
            let from: Cell = mv.from();
            let mut from_cell = 0u64;
            pos.for_each_move(Some(from), |_| { from_cell += 1; ControlFlow::Continue(()) });
            let tree = pos.jump_tree(from, budget);
            prop_assert_eq!(tree.is_ok(), from_cell <= budget.paths() || pos.is_opening());
            if let Ok(tree) = tree {
                prop_assert_eq!(tree, pos.jump_tree_unbounded(from));
            }
        }
        match pos.random_move(&mut rng(seed), budget) {
            Ok(Some(mv)) => prop_assert!(fits && pos.check(&mv).is_ok()),
            Ok(None) => prop_assert!(fits && n == 0),
            Err(_) => prop_assert!(!fits),
        }
    }
}
