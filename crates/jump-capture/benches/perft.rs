//! Perft and random-playout throughput (issue targets: ≥ 250 M moves/s
//! orthogonal, ≥ 100 M moves/s with all 8 directions, ≥ 5,000 playouts/s
//! on 15×15 Murray, one core).
//!
//! Run: `cargo bench -p jump-capture`.

#![allow(clippy::unwrap_used)] // a probe: a failed unwrap is a bug to see at once

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use jump_capture::{DirectionSet, Position, Preset};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

#[path = "shared/positions.rs"]
mod positions;
use positions::{CAPTURE_START, MURRAY_15_ORTHOGONAL, MURRAY_18_ALL, position};

fn perft(c: &mut Criterion) {
    let cases = [
        (
            "murray 15x15 orthogonal",
            position(Preset::Murray, DirectionSet::Orthogonal, MURRAY_15_ORTHOGONAL),
            3,
        ),
        ("murray 18x18 all", position(Preset::Murray, DirectionSet::All, MURRAY_18_ALL), 3),
        ("capture hexagon 61 hex", position(Preset::Capture, DirectionSet::Hex, CAPTURE_START), 6),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth) in cases {
        let nodes = pos.perft_unbounded(depth);
        eprintln!("{name}: {pos}  perft({depth}) = {nodes}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| black_box(&pos).perft_unbounded(depth)));
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
            black_box(pos.playout_unbounded(&mut rng))
        })
    });
    group.finish();
}

criterion_group!(benches, perft, playouts);
criterion_main!(benches);
