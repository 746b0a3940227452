//! The computer's play, tested as the rules of good play read.

use std::collections::HashMap;

use jump_capture::{Move, Position, Preset, Rules, Setup};
use jump_search::{
    Budget, GreedyPlayer, Habits, Level, LookaheadPlayer, Player, analyse, analyse_with, top_gain, win_shares,
};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

fn position(preset: Preset, text: &str) -> Position {
    let setup: Setup = text.parse().expect("a position string");
    let rules = Rules::new(preset.spec().with_shape_of(&setup.grid)).expect("rules");
    Position::from_setup(rules, &setup).expect("a position")
}

fn mv(text: &str) -> Move {
    text.parse().expect("a move")
}

fn search(pos: &Position, iterations: u64) -> Move {
    analyse(pos, Budget::Iterations(iterations), 1).expect("a move").best
}

/// Every move's value for the mover with best play by everyone (each
/// player maximising its own share of the win), by plain recursion.
fn brute_force(pos: &Position, memo: &mut HashMap<String, Vec<f64>>) -> Vec<f64> {
    if let Some(shares) = win_shares(pos) {
        return shares;
    }
    let key = pos.to_string();
    if let Some(v) = memo.get(&key) {
        return v.clone();
    }
    let mover = pos.to_move();
    let mut best: Option<Vec<f64>> = None;
    for m in pos.legal_moves_unbounded() {
        let mut next = pos.clone();
        next.play(&m).expect("a legal move");
        let v = brute_force(&next, memo);
        if best.as_ref().is_none_or(|b| v[mover] > b[mover]) {
            best = Some(v);
        }
    }
    let v = best.expect("a game not over has a move");
    memo.insert(key, v.clone());
    v
}

/// The best share of the win the mover can force, and each move's.
fn move_values(pos: &Position) -> (f64, Vec<(Move, f64)>) {
    let mut memo = HashMap::new();
    let mover = pos.to_move();
    let values: Vec<(Move, f64)> = pos
        .legal_moves_unbounded()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(&m).expect("a legal move");
            let v = brute_force(&next, &mut memo)[mover];
            (m, v)
        })
        .collect();
    let best = values.iter().map(|(_, v)| *v).fold(f64::NEG_INFINITY, f64::max);
    (best, values)
}

#[test]
fn it_takes_a_chain_worth_more_than_any_other_move() {
    // a1 jumps the two greens up the a-file (8 points); nothing else
    // scores more than 3.
    let pos = position(Preset::Murray, "5/G4/5/G4/W1RW1 2 0,0");
    assert_eq!(search(&pos, 2_000), mv("a1xa3xa5"));
}

#[test]
fn it_refuses_a_capture_that_hands_the_next_player_a_bigger_chain() {
    // c3xe3 takes the green (4) but leaves c3 empty, and c1 then jumps
    // both reds up the c-file (6); a1xa3 takes a white (1) and wins.
    let pos = position(Preset::Murray, "5/2R2/2WG1/W1R2/W1W2 2 0,0");
    let greedy = GreedyPlayer::new(1).choose(&pos).expect("a move");
    assert_eq!(greedy, mv("c3xe3"), "greedy falls for it");
    let (best, values) = move_values(&pos);
    let value = |m: &Move| values.iter().find(|(x, _)| x == m).expect("a legal move").1;
    assert_eq!((value(&greedy), best), (0.0, 1.0), "greedy's move loses a won game");
    assert_eq!(search(&pos, 2_000), mv("a1xa3"));
    assert_eq!(Level::Medium.player(7).choose(&pos), Some(mv("a1xa3")));
}

#[test]
fn with_one_move_left_it_plays_it() {
    let pos = position(Preset::Murray, "5/5/5/5/WY3 2 0,0");
    assert_eq!(pos.legal_moves_unbounded(), [mv("a1xc1")]);
    let a = analyse(&pos, Budget::Iterations(100), 1).expect("a move");
    assert_eq!(a.best, mv("a1xc1"));
    assert!(a.exact);
    for level in Level::NAMED {
        assert_eq!(level.player(3).choose(&pos), Some(mv("a1xc1")), "{level}");
    }
}

#[test]
fn when_the_game_is_over_there_is_nothing_to_choose() {
    let pos = position(Preset::Murray, "W4/5/5/5/4Y 2 0,0");
    assert!(pos.is_over());
    assert_eq!(analyse(&pos, Budget::Iterations(100), 1), None);
    for level in Level::NAMED {
        assert_eq!(level.player(3).choose(&pos), None, "{level}");
    }
}

/// Seeded two-player positions near the end: a random game on a small
/// board, stopped when few moves are left.
fn endgames(preset: Preset, size: u8, count: usize) -> Vec<Position> {
    let rules = Rules::new(preset.spec().with_size(size, size)).expect("rules");
    let mut found = Vec::new();
    for seed in 0..200u64 {
        let (mut pos, _) = Position::start(rules.clone(), 2, Some(seed)).expect("a deal");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !pos.is_over()
            && (pos.is_opening() || pos.count_moves_unbounded() > 6 || pos.piece_count() > 12)
        {
            let m = pos.random_move_unbounded(&mut rng).expect("a move");
            pos.play(&m).expect("a legal move");
        }
        if !pos.is_over() && pos.count_moves_unbounded() > 1 {
            found.push(pos);
        }
        if found.len() == count {
            break;
        }
    }
    assert_eq!(found.len(), count, "enough endgames");
    found
}

#[test]
fn in_a_two_player_endgame_small_enough_to_solve_it_plays_the_exact_best_move() {
    let mut differs = 0;
    for pos in endgames(Preset::Murray, 5, 20) {
        let (best, values) = move_values(&pos);
        let a = analyse(&pos, Budget::Iterations(1_000), 1).expect("a move");
        assert!(a.exact, "{pos}");
        let chosen = values.iter().find(|(m, _)| *m == a.best).expect("a legal move").1;
        assert_eq!(chosen, best, "{pos}: {} is worth {chosen}, the best {best}", a.best);
        differs += usize::from(values.iter().any(|(_, v)| *v < best));
    }
    assert!(differs >= 5, "too few endgames where the choice matters: {differs}");
}

#[test]
fn konane_it_wins_a_won_ending() {
    let mut won = 0;
    for pos in endgames(Preset::Konane, 6, 40) {
        let me = pos.to_move();
        let (best, _) = move_values(&pos);
        if best < 1.0 {
            continue;
        }
        won += 1;
        // Against the best defence: the opponent picks its best move by
        // brute force.
        let mut at = pos.clone();
        let mut player = Level::Medium.player(5);
        while !at.is_over() {
            let m = if at.to_move() == me {
                player.choose(&at).expect("a move")
            } else {
                let (v, values) = move_values(&at);
                values.into_iter().find(|(_, x)| *x == v).expect("a move").0
            };
            at.play(&m).expect("a legal move");
        }
        assert_eq!(at.outcome().expect("over").winners, [me], "from {pos}");
    }
    assert!(won >= 5, "too few won endings: {won}");
}

#[test]
fn the_same_position_seed_and_iterations_give_the_same_analysis() {
    let pos = position(Preset::Murray, include_str!("positions/murray-15-orthogonal.txt").trim());
    let first = analyse(&pos, Budget::Iterations(1_500), 99).expect("a move");
    let again = analyse(&pos, Budget::Iterations(1_500), 99).expect("a move");
    assert_eq!(first.best, again.best);
    assert_eq!(first.candidates, again.candidates);
    assert_eq!(first.line, again.line);
    assert!(!first.exact);
    assert_eq!(first.iterations, 1_500);
    // The candidates' visits add up to the iterations (every iteration
    // goes through one root move).
    assert_eq!(first.candidates.iter().map(|c| c.visits).sum::<u64>(), 1_500);
    // Expected results are rewards: from 0 to 1 for each player.
    assert!(first.candidates.iter().flat_map(|c| &c.expected).all(|&r| (0.0..=1.0).contains(&r)));
}

#[test]
fn every_level_plays_only_legal_moves_to_the_end() {
    for (preset, players) in
        [(Preset::Murray, 3), (Preset::Froglet, 2), (Preset::Konane, 2), (Preset::Old, 4)]
    {
        let rules = Rules::new(preset.spec().with_size(6, 6)).expect("rules");
        let (mut pos, _) = Position::start(rules, players, Some(3)).expect("a deal");
        let mut seats: Vec<Box<dyn Player>> = (0..players)
            .map(|p| [Level::Random, Level::Greedy, Level::Easy, Level::Lookahead][p % 4].player(p as u64))
            .collect();
        seats[0] = Box::new(LookaheadPlayer::new(9));
        while !pos.is_over() {
            let m = seats[pos.to_move()].choose(&pos).expect("a move while the game goes on");
            pos.play(&m).expect("only legal moves");
        }
    }
}

#[test]
fn players_seen_to_take_the_largest_gain_are_expected_to_go_on_taking_it() {
    // Three greedy players on Murray 8×8, watched until each has shown it.
    let rules = Rules::new(Preset::Murray.spec().with_size(8, 8)).expect("rules");
    let (mut pos, _) = Position::start(rules, 3, Some(5)).expect("a deal");
    let mut greedy = GreedyPlayer::new(5);
    let mut habits = Habits::new();
    let mut searched = 0;
    while !pos.is_over() {
        if (0..3).all(|p| habits.is_greedy(p)) && pos.count_moves_unbounded() > jump_search::EXACT_MOVES {
            // The principal line: the searcher's move, then the others'
            // expected replies, each a largest gain of its position.
            let a = analyse_with(&pos, Budget::Iterations(2_000), 1, &habits).expect("a move");
            assert!(a.line.len() >= 3, "the line reaches both others' replies");
            let mut line = pos.clone();
            for (i, m) in a.line.iter().enumerate().take(3) {
                let top = top_gain(&line);
                let gain = line.play(m).expect("a legal line").gain;
                if i > 0 {
                    assert_eq!(
                        gain,
                        top,
                        "reply {i} of {} at ply {} takes the largest gain",
                        a.line[0],
                        pos.ply()
                    );
                }
            }
            searched += 1;
        }
        let m = greedy.choose(&pos).expect("a move while the game goes on");
        habits.observe(&pos, &m);
        pos.play(&m).expect("a legal move");
    }
    assert!(searched >= 5, "{searched} positions searched");
}

#[test]
fn without_habits_seen_the_others_are_expected_to_search() {
    // The same kind of position, nothing watched: some expected reply is
    // not the largest gain (a searcher does not always take the bait).
    let rules = Rules::new(Preset::Murray.spec().with_size(8, 8)).expect("rules");
    let (mut pos, _) = Position::start(rules, 3, Some(5)).expect("a deal");
    let mut greedy = GreedyPlayer::new(5);
    let mut smaller = 0;
    while !pos.is_over() {
        if pos.count_moves_unbounded() > jump_search::EXACT_MOVES && !pos.is_opening() {
            let a = analyse(&pos, Budget::Iterations(2_000), 1).expect("a move");
            let mut line = pos.clone();
            for m in a.line.iter().take(3) {
                let top = top_gain(&line);
                if line.play(m).expect("a legal line").gain < top && line.ply() > pos.ply() + 1 {
                    smaller += 1;
                }
            }
        }
        let m = greedy.choose(&pos).expect("a move while the game goes on");
        pos.play(&m).expect("a legal move");
    }
    assert!(smaller > 0, "a searcher is expected to pass up bait somewhere in the game");
}

#[test]
fn a_searcher_goes_on_from_its_tree_two_moves_on_and_afresh_elsewhere() {
    let start = position(Preset::Murray, include_str!("positions/murray-15-orthogonal.txt").trim());
    let (never, habits) = (std::sync::atomic::AtomicBool::new(false), jump_search::Habits::new());
    let visits = |a: &jump_search::Analysis| a.candidates.iter().map(|c| c.visits).sum::<u64>();
    for threads in [1, 2] {
        let mut searcher = jump_search::Searcher::new();
        let first = searcher.analyse(&start, Budget::Iterations(4_000), 5, &habits, &never, threads).unwrap();
        assert_eq!(visits(&first), 4_000);
        // The move it chose and the reply it expects.
        let mut next = start.clone();
        for mv in &first.line[..2] {
            next.play(mv).unwrap();
        }
        let second = searcher.analyse(&next, Budget::Iterations(4_000), 6, &habits, &never, threads).unwrap();
        assert_eq!(second.iterations, 4_000);
        assert!(visits(&second) > 4_000, "{threads} threads: the tree under the reply was kept");
        // A position it did not see coming: a new tree.
        let third = searcher.analyse(&start, Budget::Iterations(4_000), 7, &habits, &never, threads).unwrap();
        assert_eq!(visits(&third), 4_000);
    }
}
