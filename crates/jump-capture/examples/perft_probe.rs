//! Times perft on the benchmark's middle-game positions (a quick probe;
//! `cargo bench -p jump-capture` is the real measurement).
//!
//! Run: `cargo run --release -p jump-capture --example perft_probe [--shallow]`
//! (15×15 orthogonal perft(4) and 18×18 all-directions perft(3); one ply
//! less with `--shallow`, for instruction counts under callgrind), or with
//! `--playouts` for random playouts of 15×15 Murray.

#![allow(clippy::unwrap_used)] // a probe: a failed unwrap is a bug to see at once

use std::time::Instant;

use jump_capture::{DirectionSet, Position, Preset};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

#[path = "../benches/shared/positions.rs"]
mod positions;
use positions::{MURRAY_15_ORTHOGONAL, MURRAY_18_ALL, position};

fn main() {
    if std::env::args().any(|a| a == "--playouts") {
        let rules = std::sync::Arc::new(Preset::Murray.rules());
        let t = Instant::now();
        let (mut games, mut plies) = (0u64, 0u64);
        for seed in 0..2000 {
            let (mut pos, _) = Position::start(rules.clone(), 2, Some(seed)).unwrap();
            plies += u64::from(pos.playout_unbounded(&mut ChaCha8Rng::seed_from_u64(seed)));
            games += 1;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{games} playouts of 15x15 murray, {:.1} plies each: {:.0} playouts/s",
            plies as f64 / games as f64,
            games as f64 / s
        );
        return;
    }
    let shallow = u32::from(std::env::args().any(|a| a == "--shallow"));
    for (name, dirs, text, depth) in [
        ("15x15 orthogonal", DirectionSet::Orthogonal, MURRAY_15_ORTHOGONAL, 4u32),
        ("18x18 all", DirectionSet::All, MURRAY_18_ALL, 3),
    ] {
        let pos = position(Preset::Murray, dirs, text);
        let depth = depth - shallow;
        let t = Instant::now();
        let n = pos.perft_unbounded(depth);
        let s = t.elapsed().as_secs_f64();
        println!("{name}: perft({depth}) = {n} in {s:.3} s: {:.1} M moves/s", n as f64 / s / 1e6);
    }
}
