//! The search and every player stay bounded on positions whose moves are
//! too many to count: they consider the first moves and watch the clock.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use std::time::{Duration, Instant};

use jump_capture::{Position, Preset, Rules, Setup};
use jump_search::{Budget, Level, analyse};

/// Leap Frog `old` on 11×11, full but for the cells on even files and
/// ranks, with a piece on a1: more moves than can be counted.
fn lattice() -> Position {
    let board: Vec<String> = (0..11u8)
        .rev()
        .map(|r| {
            (0..11u8).map(|f| if r % 2 == 0 && f % 2 == 0 && (r, f) != (0, 0) { '1' } else { 'O' }).collect()
        })
        .collect();
    let setup: Setup = format!("{} 10 0,0", board.join("/")).parse().unwrap();
    let rules = Rules::new(Preset::Old.spec().with_shape_of(&setup.grid)).unwrap();
    Position::from_setup(rules, &setup).unwrap()
}

#[test]
fn an_analysis_by_iterations_stops_at_its_time_cap() {
    let pos = lattice();
    let started = Instant::now();
    let a = analyse(&pos, Budget::IterationsWithin { iterations: 10_000_000, millis: 300 }, 1).unwrap();
    assert!(pos.check(&a.best).is_ok());
    assert!(a.iterations < 10_000_000, "the clock, not the iterations, ended it");
    // Generous: the cap is 300 ms; a slow test machine still ends well within.
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
}

#[test]
fn every_level_plays_a_legal_move_where_moves_cannot_be_counted() {
    let pos = lattice();
    for level in [Level::Random, Level::Greedy, Level::Lookahead, Level::Easy] {
        let mv = level.player(1).choose(&pos).unwrap();
        assert!(pos.check(&mv).is_ok(), "{level}: {mv}");
    }
}
