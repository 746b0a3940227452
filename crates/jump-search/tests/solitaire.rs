//! The peg-solitaire solver (`docs/rules.md` §12): every answer is replayed
//! by the rules engine, and what it claims is checked there.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use jump_capture::{Cell, Position, Preset, Rules, Setup};
use jump_search::{Goal, SolveBudget, Solved, solve};

fn start(preset: Preset) -> Position {
    Position::start(Rules::new(preset.spec()).unwrap(), 1, Some(1)).unwrap().0
}

/// Plays `moves` from `pos` with the engine; the position at the end.
fn replayed(pos: &Position, moves: &[jump_capture::Move]) -> Position {
    let mut p = pos.clone();
    for m in moves {
        p.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    p
}

#[test]
fn english_is_solved_perfectly_with_the_last_peg_on_d4() {
    let pos = start(Preset::English);
    let d4: Cell = "d4".parse().unwrap();
    let s = solve(&pos, Goal::OnePegOn(d4), SolveBudget::default()).unwrap();
    let Solved::Solution(moves) = s.solved else { panic!("{:?}", s.solved) };
    let end = replayed(&pos, &moves);
    let result = end.outcome().expect("no jump is left").solitaire.unwrap();
    assert_eq!((result.pieces_left, result.perfect, result.last), (1, Some(true), Some(d4)));
    // 31 jumps, some of them joined into chains.
    assert_eq!(moves.iter().map(|m| m.path().len() - 1).sum::<usize>(), 31);
}

#[test]
fn the_15_hole_triangle_is_solved_from_every_start_hole() {
    let rules = std::sync::Arc::new(Preset::Triangle.rules());
    for hole in rules.cells().collect::<Vec<_>>() {
        let board = Preset::Triangle.spec().holes;
        assert_eq!(board, ["a1".parse::<Cell>().unwrap()]);
        let mut grid = Position::start(rules.clone(), 1, Some(1)).unwrap().0.grid();
        grid.set("a1".parse().unwrap(), jump_capture::Square::Piece('O'));
        grid.set(hole, jump_capture::Square::Empty);
        let pos = Position::from_setup(rules.clone(), &Setup { grid, ply: 0, scores: vec![0] }).unwrap();
        let s = solve(&pos, Goal::OnePeg, SolveBudget::default()).unwrap();
        let Solved::Solution(moves) = s.solved else { panic!("from {hole}: {:?}", s.solved) };
        let result = replayed(&pos, &moves).outcome().unwrap().solitaire.unwrap();
        assert!(result.solved, "from {hole}");
    }
}

#[test]
fn a_capture_game_of_two_players_is_not_peg_solitaire() {
    let pos = Position::start(Preset::Capture.rules(), 2, Some(1)).unwrap().0;
    let err = solve(&pos, Goal::OnePeg, SolveBudget::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the solver plays peg solitaire: one player, any piece moves (2 players here)"
    );
}
