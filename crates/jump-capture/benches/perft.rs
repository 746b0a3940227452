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

/// The middle games measured: each dealt from seed 1, then 40 uniformly
/// random moves from a ChaCha8 generator seeded with 1, as the engine chose
/// them on 2026-11-22. Pinned as position strings, so that the figures stay
/// comparable when the engine's own move order (which `random_move` draws
/// from) changes.
const MURRAY_15_ORTHOGONAL: &str = "YRYRYYRRGWWYRGY/RWWRRYYRWYWWWYW/YYWRWGWWWY1YRWW/YRRWRWYRRY3YG/WWRWWRRW2Y1YRG/WGWRWW1RG3WRY/WGWWYY1Y4WWW/WGGWR1R5WWW/YWWRWRWY2WYYYY/RYRYYW6WYY/G2YYW6WWW/WW1YWWW5YWY/GRR1YYW1RY1W2Y/W1GYRGG3W3Y/RYRWYYWR1WWYRWR 40 51,59";
const MURRAY_18_ALL: &str = "YRYWWWYGWYRYGWYWYW/WYWYWYYWRYYRYRYWWW/WGWYWGRGYWYWWYYWWW/RWYYYYRWWWYWRWGRWW/WYWWRWWWRGWWWGWGWR/YYYGRWYYWYYWWWWWWR/WRRY1YYYGGG1RGW2Y/WYGG1RW1RYW1W4R/GYYWR1YR7W2/WYGYGRWW9W/RYYWW2G2Y2Y2YR/WYRRWWG1R1W5RW/RYWYYWYWW7YY/YYRRYW6W3RR/RYYYYWW1Y7YY/WRWRWRWW1YY3YWWY/WRRRYYYRRWWW1WRYRW/WWWYYRWGRYYGGWWYWW 40 78,71";

fn position(preset: Preset, dirs: DirectionSet, text: &str) -> Position {
    let setup: jump_capture::Setup = text.parse().unwrap();
    let rules = Rules::new(preset.spec().with_shape_of(&setup.grid).with_directions(dirs)).unwrap();
    Position::from_setup(rules, &setup).unwrap()
}

fn perft(c: &mut Criterion) {
    let cases = [
        (
            "murray 15x15 orthogonal",
            position(Preset::Murray, DirectionSet::Orthogonal, MURRAY_15_ORTHOGONAL),
            3,
        ),
        ("murray 18x18 all", position(Preset::Murray, DirectionSet::All, MURRAY_18_ALL), 3),
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
