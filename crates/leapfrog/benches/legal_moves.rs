//! The work behind one `POST /v1/legal-moves` answer, stage by stage, on
//! the load test's position (15×15 Murray, seed 1, then 40 random moves,
//! pinned):
//! reading the JSON body, resolving the rules, building the position,
//! counting the moves, and the first page as JSON (written while the moves
//! are walked).
//! `cargo bench -p leapfrog`.

#![allow(clippy::unwrap_used)] // a benchmark on a fixed position

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use leapfrog::wire::move_page::write_page;
use leapfrog::wire::stateless::{LegalMovesRequest, rules_and_position};

/// The load test's position (`tests/load/stateless.sh`): 15×15 Murray dealt
/// from seed 1, then 40 random moves, pinned as a string.
const POSITION: &str = include_str!("../../../tests/fixtures/murray-middle-game.txt");

fn body() -> String {
    let mut parts = POSITION.trim().split(' ');
    let (board, ply, scores) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
    format!(
        r#"{{"rules":{{"preset":"murray"}},"position":{{"board":"{board}","ply":{ply},"scores":[{scores}]}}}}"#
    )
}

fn bench(c: &mut Criterion) {
    let body = body();
    let req: LegalMovesRequest = leapfrog::api::json::parse(body.as_bytes()).unwrap();
    let pos = rules_and_position(&req.rules, &req.position).unwrap();
    eprintln!("{} legal moves", pos.count_moves_unbounded());

    let mut g = c.benchmark_group("legal-moves");
    g.bench_function("parse body", |b| {
        b.iter(|| leapfrog::api::json::parse::<LegalMovesRequest>(black_box(body.as_bytes())).unwrap())
    });
    let setup = req.position.setup().unwrap();
    // As the service does: preset rule sets are resolved once and shared.
    g.bench_function("resolve rules", |b| {
        b.iter(|| req.rules.resolve_cached(Some(black_box(&setup.grid))).unwrap())
    });
    g.bench_function("build position", |b| b.iter(|| rules_and_position(&req.rules, &req.position).unwrap()));
    g.bench_function("count moves", |b| b.iter(|| black_box(&pos).count_moves_unbounded()));
    g.bench_function("first page", |b| b.iter(|| write_page(black_box(&pos), None, None, None).unwrap()));
    g.bench_function("whole answer", |b| {
        b.iter(|| {
            let req: LegalMovesRequest = leapfrog::api::json::parse(black_box(body.as_bytes())).unwrap();
            let pos = rules_and_position(&req.rules, &req.position).unwrap();
            write_page(&pos, None, None, None).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
