//! The fast bitboard generator agrees with the deliberately simple one in
//! `common/mod.rs` on hundreds of random positions of every preset and
//! direction set: the same moves, and the same perft to depth 2.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{
    lattice_position, random_position, random_position_within, reference_moves, reference_perft, rng,
};
use jump_capture::{Chain, DirectionSet, Move, Position, Preset, Rules};

#[test]
fn the_fast_generator_lists_exactly_the_reference_moves() {
    let mut r = rng(2026);
    let mut checked = 0;
    for preset in Preset::ALL {
        for dirs in DirectionSet::ALL {
            for _ in 0..60 {
                let (spec, pos) = random_position(preset, dirs, &mut r);
                let fast: Vec<String> = pos.legal_moves_unbounded().iter().map(ToString::to_string).collect();
                let slow = reference_moves(&spec, &pos.setup());
                assert_eq!(fast, slow, "{preset} {dirs} {pos}");
                assert_eq!(pos.count_moves_unbounded(), slow.len() as u64, "count, {preset} {dirs} {pos}");
                // The moves from one cell: every start cell, and a cell
                // that starts nothing.
                let mut starts: Vec<_> = pos.legal_moves_unbounded().iter().map(|m| m.from()).collect();
                starts.dedup();
                starts.push("a1".parse().unwrap());
                for from in starts {
                    let fast: Vec<String> = pos
                        .move_list_unbounded(Some(from))
                        .to_moves()
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    let slow: Vec<String> = slow
                        .iter()
                        .filter(|m| m.split('x').next() == Some(from.to_string().as_str()))
                        .cloned()
                        .collect();
                    assert_eq!(fast, slow, "from {from}, {preset} {dirs} {pos}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 60 * Preset::ALL.len() * DirectionSet::ALL.len());
}

/// Boards of 9 to 16 ranks, where one- and two-digit rank names meet (`c10` sorts
/// before `c1x…`): the moves still come out in notation order.
#[test]
fn on_boards_of_two_digit_ranks_the_moves_come_in_notation_order() {
    let mut r = rng(1898);
    for preset in Preset::ALL {
        for dirs in DirectionSet::ALL {
            for _ in 0..6 {
                let (spec, pos) = random_position_within(preset, dirs, 5..=8, &mut r);
                let fast: Vec<String> = pos.legal_moves_unbounded().iter().map(ToString::to_string).collect();
                assert_eq!(fast, reference_moves(&spec, &pos.setup()), "{preset} {dirs} {pos}");
            }
        }
    }
}

#[test]
fn fast_perft_agrees_with_the_reference_to_depth_two() {
    let mut r = rng(7);
    for preset in Preset::ALL {
        for dirs in DirectionSet::ALL {
            for _ in 0..12 {
                let (spec, pos) = random_position(preset, dirs, &mut r);
                for depth in 0..=2 {
                    assert_eq!(
                        pos.perft_unbounded(depth),
                        reference_perft(&spec, &pos, depth),
                        "{preset} {dirs} {pos} depth {depth}"
                    );
                }
            }
        }
    }
}

/// Boards made for long paths (see `lattice_position`): the count, the
/// list, every indexed move and (where the tree stays small) perft 2 agree
/// with the reference, for free and straight chains.
#[test]
fn on_boards_of_long_paths_and_loops_the_counts_agree_with_the_reference() {
    let mut r = rng(1898_0402);
    let (mut longest, mut deep) = (0, 0);
    for preset in Preset::ALL {
        for dirs in DirectionSet::ALL {
            for chain in [Chain::Free, Chain::Straight] {
                for _ in 0..10 {
                    let (mut spec, pos) = lattice_position(preset, dirs, &mut r);
                    spec.chain = chain;
                    let setup = pos.setup();
                    let pos = Position::from_setup(Rules::new(spec.clone()).unwrap(), &setup).unwrap();
                    let count = pos.count_moves_unbounded();
                    if count > 3_000 {
                        continue;
                    }
                    let slow = reference_moves(&spec, &setup);
                    assert_eq!(count, slow.len() as u64, "count, {preset} {dirs} {chain:?} {pos}");
                    let mut nth: Vec<Move> = (0..count)
                        .map(|k| pos.nth_move(k, jump_capture::PathBudget::UNLIMITED).unwrap().unwrap())
                        .collect();
                    nth.sort_by(Move::cmp_notation);
                    let nth: Vec<String> = nth.iter().map(ToString::to_string).collect();
                    assert_eq!(nth, slow, "every index one move, {preset} {dirs} {chain:?} {pos}");
                    if count <= 200 {
                        assert_eq!(
                            pos.perft_unbounded(2),
                            reference_perft(&spec, &pos, 2),
                            "{preset} {dirs} {chain:?} {pos}"
                        );
                        deep += 1;
                    }
                    longest = longest.max(slow.iter().map(|m| m.matches('x').count()).max().unwrap_or(0));
                }
            }
        }
    }
    // The boards do what they are for.
    assert!(longest >= 8 && deep >= 100, "longest path {longest} jumps, {deep} perft checks");
}
