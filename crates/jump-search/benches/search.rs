//! Search speed: iterations a second on seeded middle games, one thread.

use criterion::{Criterion, criterion_group, criterion_main};
use jump_capture::{DirectionSet, Position, Preset, Rules, Setup};
use jump_search::{Budget, analyse};

/// The engine's benchmark positions: a seeded deal and 40 random moves.
const MURRAY_15_ORTHOGONAL: &str = include_str!("../tests/positions/murray-15-orthogonal.txt");
const MURRAY_18_ALL: &str = include_str!("../tests/positions/murray-18-all.txt");

fn position(dirs: DirectionSet, text: &str) -> Position {
    let setup: Setup = text.trim().parse().expect("a position string");
    let rules =
        Rules::new(Preset::Murray.spec().with_shape_of(&setup.grid).with_directions(dirs)).expect("rules");
    Position::from_setup(rules, &setup).expect("a position")
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    const N: u64 = 2_000;
    group.throughput(criterion::Throughput::Elements(N));
    for (name, dirs, text) in [
        ("murray 15x15 middle game, 2000 iterations", DirectionSet::Orthogonal, MURRAY_15_ORTHOGONAL),
        ("murray 18x18 all, middle game, 2000 iterations", DirectionSet::All, MURRAY_18_ALL),
    ] {
        let pos = position(dirs, text);
        group.bench_function(name, |b| b.iter(|| analyse(&pos, Budget::Iterations(N), 1)));
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
