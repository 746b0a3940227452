//! Random playouts, moves a second: the engine's own loop (a random legal
//! move, played) and the same through `Batch` (a random legal action of
//! each game, stepped), on Murray's game 9×9, two players. The Python
//! package's `bench/playouts.py` runs the batched loop from Python.
//!
//! Usage: cargo run --release -p jump-env --example playouts [SECONDS] [GAMES]

use std::time::{Duration, Instant};

use jump_capture::{Position, Preset, Rules};
use jump_env::{Batch, Outputs};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let secs: f64 = args.next().map_or(Ok(3.0), |s| s.parse())?;
    let games: usize = args.next().map_or(Ok(256), |s| s.parse())?;
    let rules = Rules::new(Preset::Murray.spec().with_size(9, 9))?;
    let start = |seed: u64| Position::start(rules.clone(), 2, Some(seed)).map(|(p, _)| p);

    // The engine's loop.
    let (mut rng, mut moves, mut seed) = (ChaCha8Rng::seed_from_u64(1), 0u64, 0);
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs_f64(secs) {
        let mut pos = start(seed)?;
        seed += 1;
        while let Some(mv) = pos.random_move_unbounded(&mut rng) {
            pos.play(&mv)?;
            moves += 1;
        }
    }
    let engine = moves as f64 / began.elapsed().as_secs_f64();
    println!("engine loop:  {engine:>10.0} moves/s (a random legal move, played)");

    // The batched environment, from Rust.
    let starts = (0..games as u64).map(start).collect::<Result<Vec<_>, _>>()?;
    let mut batch = Batch::new(starts, 2);
    let e = batch.envs()[0].encoding().clone();
    let (c, r, k) = e.shape();
    let mut obs = vec![0.0; games * c * r * k];
    let mut masks = vec![0; games * e.actions()];
    let (mut rewards, mut done, mut returns) = (vec![0.0; games * 2], vec![0; games], vec![0.0; games * 2]);
    let mut actions = vec![0; games];
    let (mut steps, began) = (0u64, Instant::now());
    while began.elapsed() < Duration::from_secs_f64(secs) {
        batch.sample(&mut actions);
        let out = Outputs {
            observations: &mut obs,
            masks: &mut masks,
            rewards: &mut rewards,
            done: &mut done,
            returns: &mut returns,
        };
        batch.step(&actions, out).map_err(|(i, e)| format!("game {i}: {e}"))?;
        steps += games as u64;
    }
    let t = began.elapsed().as_secs_f64();
    println!(
        "batched env:  {:>10.0} moves/s, {:.0} steps/s ({games} games, observations and masks written each step)",
        batch.moves() as f64 / t,
        steps as f64 / t
    );
    // Rollouts: the same without observations or masks.
    let (moves, began) = (batch.moves(), Instant::now());
    while began.elapsed() < Duration::from_secs_f64(secs) {
        batch.sample(&mut actions);
        let out = Outputs {
            observations: &mut [],
            masks: &mut [],
            rewards: &mut rewards,
            done: &mut done,
            returns: &mut returns,
        };
        batch.step(&actions, out).map_err(|(i, e)| format!("game {i}: {e}"))?;
    }
    let t = began.elapsed().as_secs_f64();
    println!(
        "batched env:  {:>10.0} moves/s (rollouts: no observations)",
        (batch.moves() - moves) as f64 / t
    );
    Ok(())
}
