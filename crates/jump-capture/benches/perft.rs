//! Perft and random-playout throughput (issue targets: ≥ 250 M moves/s
//! orthogonal, ≥ 100 M moves/s with all 8 directions, ≥ 5,000 playouts/s
//! on 15×15 Murray, one core).
//!
//! Run: `cargo bench -p jump-capture`.

#![allow(clippy::unwrap_used)] // a probe: a failed unwrap is a bug to see at once

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jump_capture::{DirectionSet, Position, Preset, Rules};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// A seeded middle-game position: dealt from `seed`, then `plies` random
/// moves chosen by a generator seeded the same way.
fn middle_game(preset: Preset, size: u8, dirs: DirectionSet, seed: u64, plies: usize) -> Position {
    let rules = Rules::new(preset.spec().with_size(size, size).with_directions(dirs)).unwrap();
    let (mut pos, _) = Position::start(rules, 2, Some(seed)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let mv = pos.random_move(&mut rng).expect("the game is still on");
        pos.play(&mv).unwrap();
    }
    pos
}

fn perft(c: &mut Criterion) {
    let cases = [
        ("murray 15x15 orthogonal", middle_game(Preset::Murray, 15, DirectionSet::Orthogonal, 1, 40), 3),
        ("murray 18x18 all", middle_game(Preset::Murray, 18, DirectionSet::All, 1, 40), 3),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth) in cases {
        let nodes = pos.perft(depth);
        eprintln!("{name}: {pos}  perft({depth}) = {nodes}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| black_box(&pos).perft(depth)));
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    let rules = std::sync::Arc::new(Preset::Murray.rules());
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0;
    group.bench_function("murray 15x15 random playout", |b| {
        b.iter(|| {
            seed += 1;
            let (mut pos, _) = Position::start(rules.clone(), 2, Some(seed)).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            black_box(pos.playout(&mut rng))
        })
    });
    group.finish();
}

criterion_group!(benches, perft, playouts);
criterion_main!(benches);
