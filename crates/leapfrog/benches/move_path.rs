//! The in-process work of one persisted move, step by step, on the load
//! test's kind of game (`tests/load/moves.sh`: Murray's default board,
//! two people, a few moves in): the rules applying the move to the game,
//! the rows its commit writes (the game's changed row and the move's),
//! its events as every stream sends them, and the answer's JSON. The
//! database's part is measured under load by `tests/load/moves.sh`.
//! `cargo bench -p leapfrog --bench move_path`.

#![allow(clippy::unwrap_used)] // a benchmark on a fixed game

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use jump_capture as jc;
use leapfrog::game::{Change, Command, Game, NewGame, NewSeat, PlayerName};
use leapfrog::store::{GameRows, MoveRows};
use leapfrog::wire::game::GameView;
use rand::SeedableRng;

const AT: i64 = 1_800_000_000_000;

/// A game of Murray dealt from seed 1, ten random moves in, with its log's
/// length, and the move to play next.
fn game() -> (Game, jc::Move) {
    let person = |n: &str| NewSeat::Person(PlayerName::parse(n).unwrap());
    let new = NewGame {
        id: "00000000-0000-4000-8000-000000000001".into(),
        max_moves: jc::PathBudget::new(1_000_000),
        rules: Arc::new(jc::Rules::new(jc::Preset::Murray.spec()).unwrap()),
        seats: vec![person("A"), person("B")],
        seed: 1,
        seed_chosen: false,
        move_limit: None,
        client: String::new(),
        rated: false,
    };
    let mut game = Game::new(new, AT).unwrap().with_events(1);
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for ply in 0..10 {
        let mv = game.position().random_move_unbounded(&mut rng).unwrap();
        let player = game.position().to_move();
        let (next, changes) = game.apply(Command::Play { player, mv: Ok(mv) }, AT + ply).unwrap();
        game = next.with_events(game.events().unwrap() + changes.len() as u64);
    }
    let mv = game.position().random_move_unbounded(&mut rng).unwrap();
    (game, mv)
}

fn bench(c: &mut Criterion) {
    let (game, mv) = game();
    let player = game.position().to_move();
    let play = || game.apply(Command::Play { player, mv: Ok(mv.clone()) }, AT + 100).unwrap();
    let (next, changes) = play();
    let next = next.with_events(game.events().unwrap() + changes.len() as u64);
    let first = game.events().unwrap();

    let mut g = c.benchmark_group("move-path");
    g.bench_function("apply", |b| {
        b.iter(|| black_box(&game).apply(Command::Play { player, mv: Ok(mv.clone()) }, AT))
    });
    g.bench_function("rows", |b| {
        b.iter(|| {
            let moved = changes.iter().find_map(|c| match c {
                Change::Moved(m) => Some(m.to_row().unwrap()),
                _ => None,
            });
            (black_box(&next).to_changed_row().unwrap(), moved)
        })
    });
    g.bench_function("events", |b| {
        b.iter(|| leapfrog::events::encode(black_box(&changes), &next, first, AT).unwrap())
    });
    g.bench_function("answer", |b| b.iter(|| serde_json::to_vec(&GameView::of(black_box(&next))).unwrap()));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
