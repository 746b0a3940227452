//! Times perft on seeded middle-game positions (a quick probe;
//! `cargo bench -p jump-capture` is the real measurement).
//!
//! Run: `cargo run --release -p jump-capture --example perft_probe [--shallow] [PLIES...]`,
//! or with `--playouts` for random playouts of 15×15 Murray.

#![allow(clippy::unwrap_used)] // a probe: a failed unwrap is a bug to see at once

use std::time::Instant;

use jump_capture::{DirectionSet, Position, Preset, Rules};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

fn main() {
    if std::env::args().any(|a| a == "--playouts") {
        let rules = std::sync::Arc::new(Preset::Murray.rules());
        let t = Instant::now();
        let (mut games, mut plies) = (0u64, 0u64);
        for seed in 0..2000 {
            let (mut pos, _) = Position::start(rules.clone(), 2, Some(seed)).unwrap();
            plies += u64::from(pos.playout(&mut ChaCha8Rng::seed_from_u64(seed)));
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
    // `--shallow` counts one ply less (for instruction counts under callgrind).
    let shallow = u32::from(std::env::args().any(|a| a == "--shallow"));
    let plies: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let plies = if plies.is_empty() { vec![40] } else { plies };
    for p in plies {
        for (size, dirs, depth) in [(15u8, DirectionSet::Orthogonal, 4u32), (18, DirectionSet::All, 3)] {
            let rules =
                Rules::new(Preset::Murray.spec().with_size(size, size).with_directions(dirs)).unwrap();
            let (mut pos, _) = Position::start(rules, 2, Some(1)).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            for _ in 0..p {
                let Some(mv) = pos.random_move(&mut rng) else { break };
                pos.play(&mv).unwrap();
            }
            let t = Instant::now();
            let depth = depth - shallow;
            let n = pos.perft(depth);
            let s = t.elapsed().as_secs_f64();
            println!(
                "{size}x{size} {dirs} after {p} plies ({} pieces, {} moves): perft({depth}) = {n} in {s:.3} s: {:.1} M moves/s",
                pos.piece_count(),
                pos.count_moves(),
                n as f64 / s / 1e6
            );
        }
    }
}
