//! The fast bitboard generator agrees with the deliberately simple one in
//! `common/mod.rs` on hundreds of random positions of every preset and
//! direction set: the same moves, and the same perft to depth 2.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{random_position, reference_moves, reference_perft, rng};
use jump_capture::{DirectionSet, Preset};

#[test]
fn the_fast_generator_lists_exactly_the_reference_moves() {
    let mut r = rng(2026);
    let mut checked = 0;
    for preset in Preset::ALL {
        for dirs in [DirectionSet::Orthogonal, DirectionSet::Diagonal, DirectionSet::All] {
            for _ in 0..60 {
                let (spec, pos) = random_position(preset, dirs, &mut r);
                let fast: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
                let slow = reference_moves(&spec, &pos.setup());
                assert_eq!(fast, slow, "{preset} {dirs} {pos}");
                assert_eq!(pos.count_moves(), slow.len() as u64, "count, {preset} {dirs} {pos}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 720);
}

#[test]
fn fast_perft_agrees_with_the_reference_to_depth_two() {
    let mut r = rng(7);
    for preset in Preset::ALL {
        for dirs in [DirectionSet::Orthogonal, DirectionSet::Diagonal, DirectionSet::All] {
            for _ in 0..12 {
                let (spec, pos) = random_position(preset, dirs, &mut r);
                for depth in 0..=2 {
                    assert_eq!(
                        pos.perft(depth),
                        reference_perft(&spec, &pos, depth),
                        "{preset} {dirs} {pos} depth {depth}"
                    );
                }
            }
        }
    }
}
