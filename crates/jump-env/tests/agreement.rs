//! The environment's step rule is the engine's: from positions met in
//! random games of every preset (and the diagonal and all-directions
//! variants), the paths its jumps and stops walk are exactly the engine's
//! legal moves, its removals the engine's removals; a game played through
//! it ends where the engine's does, and undo takes every step back.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use std::collections::BTreeSet;

use jump_capture::{DirectionSet, Position, Preset, Rules};
use jump_env::{Action, Env};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// Every complete path the environment lets the player to move walk.
fn env_paths(env: &mut Env) -> BTreeSet<String> {
    fn walk(env: &mut Env, path: &mut Vec<String>, out: &mut BTreeSet<String>, ply: u32) {
        for a in env.legal_actions() {
            match env.encoding().decode(a).unwrap() {
                Action::Stop => {
                    out.insert(path.join("x"));
                }
                Action::Remove(c) => {
                    out.insert(c.to_string());
                }
                Action::Jump { from, direction } => {
                    let to = from.step(direction).and_then(|o| o.step(direction)).unwrap();
                    let started = path.is_empty();
                    if started {
                        path.push(from.to_string());
                    }
                    path.push(to.to_string());
                    env.step(a).unwrap();
                    if env.position().ply() != ply {
                        out.insert(path.join("x")); // the chain could not go on: the move ended
                    } else {
                        walk(env, path, out, ply);
                    }
                    assert!(env.undo());
                    path.pop();
                    if started {
                        path.pop();
                    }
                }
            }
        }
    }
    let mut out = BTreeSet::new();
    let ply = env.position().ply();
    walk(env, &mut Vec::new(), &mut out, ply);
    out
}

fn engine_paths(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves_unbounded().iter().map(ToString::to_string).collect()
}

fn rule_sets() -> Vec<(Rules, usize)> {
    let mut out = Vec::new();
    for preset in Preset::ALL {
        let spec = preset.spec();
        let small = match preset {
            Preset::Old | Preset::Murray | Preset::Froglet | Preset::Konane => spec.with_size(6, 6),
            _ => spec,
        };
        let players = *Rules::new(small.clone()).unwrap().player_range().start();
        let players =
            players.max(if preset == Preset::English || preset == Preset::Triangle { 1 } else { 2 });
        out.push((Rules::new(small.clone()).unwrap(), players));
        if matches!(preset, Preset::Old | Preset::Murray | Preset::Froglet) {
            for dirs in [DirectionSet::Diagonal, DirectionSet::All] {
                out.push((Rules::new(small.clone().with_directions(dirs)).unwrap(), players));
            }
        }
    }
    out
}

#[test]
fn the_paths_walked_are_the_engines_legal_moves_in_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut positions = 0;
    for (rules, players) in rule_sets() {
        for seed in 0..4 {
            let (mut pos, _) = Position::start(rules.clone(), players, Some(seed)).unwrap();
            while !pos.is_over() {
                let mut env = Env::new(pos.clone());
                assert!(!env.is_over(), "{} at {}", rules.name(), pos.setup());
                assert_eq!(env_paths(&mut env), engine_paths(&pos), "{} at {}", rules.name(), pos.setup());
                positions += 1;
                let mv = pos.random_move_unbounded(&mut rng).unwrap();
                pos.play(&mv).unwrap();
            }
            // Where the engine says the game is over, so does the environment.
            assert!(Env::new(pos.clone()).is_over(), "{} at {}", rules.name(), pos.setup());
        }
    }
    assert!(positions > 300, "{positions} positions");
}

#[test]
fn a_game_stepped_without_undo_finds_at_each_turn_what_a_fresh_environment_finds() {
    // The environment keeps its board as it steps; a new one reads it off
    // the position. They agree on every turn of random games.
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let mut turns = 0;
    for (rules, players) in rule_sets() {
        for seed in 0..3 {
            let (start, _) = Position::start(rules.clone(), players, Some(seed)).unwrap();
            let mut env = Env::new(start).without_undo();
            while !env.is_over() {
                if !env.in_chain() {
                    let fresh = Env::new(env.position().clone());
                    assert_eq!(
                        env.legal_actions(),
                        fresh.legal_actions(),
                        "{} at {}",
                        rules.name(),
                        env.position().setup()
                    );
                    turns += 1;
                }
                let a = env.random_action(|n| rand::RngExt::random_range(&mut rng, 0..n)).unwrap();
                env.step(a).unwrap();
            }
        }
    }
    assert!(turns > 300, "{turns} turns");
}

#[test]
fn a_game_played_through_the_environment_ends_as_the_engine_says_and_undoes_to_the_start() {
    let rules = Rules::new(Preset::Murray.spec().with_size(6, 6)).unwrap();
    let (start, _) = Position::start(rules, 2, Some(3)).unwrap();
    let mut env = Env::new(start.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut steps, mut scored) = (0, vec![0.0; 2]);
    while !env.is_over() {
        let legal = env.legal_actions();
        assert!(!legal.is_empty());
        let a = legal[rand::RngExt::random_range(&mut rng, 0..legal.len() as u64) as usize];
        let r = env.step(a).unwrap();
        scored.iter_mut().zip(r).for_each(|(s, x)| *s += x);
        steps += 1;
    }
    assert_eq!(scored, env.position().scores().iter().map(|&s| f64::from(s)).collect::<Vec<_>>());
    let returns = env.returns().unwrap();
    // Highest score wins: the returns follow the scores.
    let s = env.position().scores();
    let expected = match s[0].cmp(&s[1]) {
        std::cmp::Ordering::Greater => vec![1.0, -1.0],
        std::cmp::Ordering::Less => vec![-1.0, 1.0],
        std::cmp::Ordering::Equal => vec![0.0, 0.0],
    };
    assert_eq!(returns, expected);
    assert!(env.legal_actions().is_empty());
    assert!(env.step(0).is_err());
    for _ in 0..steps {
        assert!(env.undo());
    }
    assert!(!env.undo());
    assert_eq!(env.position(), &start);
}

#[test]
fn an_illegal_action_changes_nothing_and_says_why() {
    let rules = Rules::new(Preset::Old.spec().with_size(4, 4)).unwrap();
    let (start, _) = Position::start(rules, 2, Some(1)).unwrap();
    let mut env = Env::new(start.clone());
    let mut mask = vec![0u8; env.encoding().actions()];
    env.legal_mask(&mut mask);
    let illegal = (0..mask.len() as u32).find(|&a| mask[a as usize] == 0).unwrap();
    assert!(env.step(illegal).unwrap_err().to_string().contains("not legal"));
    assert!(env.step(u32::MAX).is_err());
    assert_eq!(env.position(), &start);
    let mut obs = vec![
        0.0f32;
        {
            let (c, r, k) = env.encoding().shape();
            c * r * k
        }
    ];
    env.observe(&mut obs);
    // The board plane holds every cell; pieces and empties split them.
    let (channels, plane) = (env.encoding().channels(), 16);
    let sum = |p: usize| obs[p * plane..(p + 1) * plane].iter().sum::<f32>();
    let kinds = channels - 3 - 4;
    assert_eq!(sum(kinds + 1), 16.0);
    assert_eq!((0..=kinds).map(sum).sum::<f32>(), 16.0);
    assert_eq!(sum(kinds + 3), 16.0, "player 0 to move");
}
