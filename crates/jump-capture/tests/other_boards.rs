//! Other boards through the same model (`docs/rules.md` §12): the `hex`
//! direction set, boards drawn by a mask, holes at the start, and results
//! for one player. Each test is one rule or one of the rule book's checks.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::collections::HashSet;

use common::pos;
use jump_capture::{Cell, DirectionSet, EndRule, Position, Preset, Rules, RulesError, Shape};

fn start(preset: Preset, players: usize) -> Position {
    Position::start(preset.rules(), players, Some(1)).unwrap().0
}

fn moves(p: &Position) -> Vec<String> {
    p.legal_moves_unbounded().iter().map(ToString::to_string).collect()
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

#[test]
fn hex_directions_touch_six_neighbours_in_axial_coordinates() {
    // The cell on (f, r) touches (f±1, r), (f, r±1), (f+1, r+1) and
    // (f−1, r−1): into the one hole of a full 5×5 board, c3, the jumps come
    // along the file, the rank and the NE–SW diagonal, never the NW–SE one.
    let hex = Preset::Old.spec().with_directions(DirectionSet::Hex);
    let p = pos(hex, "OOOOO/OOOOO/OO1OO/OOOOO/OOOOO 2 0,0");
    assert_eq!(moves(&p), ["a1xc3", "a3xc3", "c1xc3", "c5xc3", "e3xc3", "e5xc3"]);
    assert_eq!(DirectionSet::Hex.directions().len(), 6);
    assert_eq!("hex".parse::<DirectionSet>().unwrap(), DirectionSet::Hex);
}

#[test]
fn a_hexagon_of_side_five_has_61_cells_centre_e5_and_capture_opens_with_six_jumps_into_it() {
    let rules = Preset::Capture.rules();
    assert_eq!((rules.rows(), rules.cols(), rules.cells().count()), (9, 9, 61));
    assert_eq!(rules.centre(), Some(cell("e5")));
    let p = start(Preset::Capture, 2);
    assert_eq!(p.piece_count(), 60);
    assert_eq!(moves(&p), ["c3xe5", "c5xe5", "e3xe5", "e7xe5", "g5xe5", "g7xe5"]);
    assert!(Rules::new(Preset::Capture.spec()).unwrap().check_players(6).is_ok());
    assert!(Preset::Capture.rules().check_players(7).is_err());
    assert!(Preset::Capture.rules().check_players(1).is_err());
}

#[test]
fn english_opens_with_exactly_the_four_jumps_into_the_centre() {
    let rules = Preset::English.rules();
    assert_eq!(rules.cells().count(), 33);
    let p = start(Preset::English, 1);
    assert_eq!(p.piece_count(), 32);
    let mut m = moves(&p);
    m.sort();
    assert_eq!(m, ["b4xd4", "d2xd4", "d6xd4", "f4xd4"]);
}

#[test]
fn triangle_opens_with_exactly_two_jumps_into_a1() {
    let rules = Preset::Triangle.rules();
    assert_eq!(rules.cells().count(), 15);
    assert_eq!(rules.centre(), None, "a triangle has no centre");
    let p = start(Preset::Triangle, 1);
    assert_eq!(moves(&p), ["a3xa1", "c3xa1"]);
}

/// A map of (file, rank) onto (file, rank).
type Symmetry = Box<dyn Fn(u8, u8) -> (u8, u8)>;

/// The eight symmetries of a square board.
fn symmetries(n: u8) -> [Symmetry; 8] {
    let m = n - 1;
    [
        Box::new(|f, r| (f, r)),
        Box::new(move |f, r| (m - f, r)),
        Box::new(move |f, r| (f, m - r)),
        Box::new(move |f, r| (m - f, m - r)),
        Box::new(|f, r| (r, f)),
        Box::new(move |f, r| (m - r, f)),
        Box::new(move |f, r| (r, m - f)),
        Box::new(move |f, r| (m - r, m - f)),
    ]
}

/// A position's pegs as a bit set, the least over the board's symmetries.
fn canonical(p: &Position, syms: &[Symmetry; 8]) -> u64 {
    syms.iter()
        .map(|s| {
            p.rules().cells().filter(|&c| p.piece_at(c).is_some()).fold(0u64, |set, c| {
                let (f, r) = s(c.file(), c.rank());
                set | 1 << (r * 7 + f)
            })
        })
        .min()
        .unwrap()
}

#[test]
fn english_positions_after_n_single_jumps_up_to_symmetry_are_oeis_a112737() {
    let syms = symmetries(7);
    let mut level = vec![start(Preset::English, 1)];
    let mut counts = vec![1];
    for _ in 1..=7 {
        let (mut seen, mut next) = (HashSet::new(), Vec::new());
        for p in &level {
            // A single jump is a move of one step: the prefix of every chain.
            for m in p.legal_moves_unbounded().into_iter().filter(|m| m.path().len() == 2) {
                let mut child = p.clone();
                child.play(&m).unwrap();
                if seen.insert(canonical(&child, &syms)) {
                    next.push(child);
                }
            }
        }
        counts.push(next.len());
        level = next;
    }
    assert_eq!(counts, [1, 1, 2, 8, 39, 171, 719, 2757]);
}

#[test]
fn a_peg_solitaire_result_gives_the_pieces_left_solved_and_perfect() {
    let english = Preset::English.spec();
    assert_eq!(english.end, EndRule::PiecesLeft);
    // One peg left, on the centre: solved and perfect.
    let perfect = pos(english.clone(), "--3--/--3--/7/3O3/7/--3--/--3-- 31 0");
    let o = perfect.outcome().unwrap().solitaire.unwrap();
    assert_eq!((o.pieces_left, o.solved, o.perfect, o.last), (1, true, Some(true), Some(cell("d4"))));
    // One peg left elsewhere: solved, not perfect.
    let solved = pos(english.clone(), "--O2--/--3--/7/7/7/--3--/--3-- 31 0");
    let o = solved.outcome().unwrap().solitaire.unwrap();
    assert_eq!((o.pieces_left, o.solved, o.perfect), (1, true, Some(false)));
    // Two pegs apart: no jump, not solved.
    let stuck = pos(english, "--O2--/--3--/7/7/7/--3--/--2O-- 30 0");
    let o = stuck.outcome().unwrap().solitaire.unwrap();
    assert_eq!((o.pieces_left, o.solved, o.perfect, o.last), (2, false, Some(false), None));
    // A triangle has no centre: solved, and perfect is not asked.
    let triangle = pos(Preset::Triangle.spec(), "4O/4-/3--/2---/1---- 13 0");
    let o = triangle.outcome().unwrap().solitaire.unwrap();
    assert_eq!((o.pieces_left, o.solved, o.perfect), (1, true, None));
}

#[test]
fn boards_are_drawn_by_their_side_and_refused_outside_it() {
    let hex = Preset::Capture.spec_with_side(3).unwrap();
    assert_eq!((hex.rows, hex.cols, hex.holes.clone()), (5, 5, vec![cell("c3")]));
    assert_eq!(Rules::new(hex).unwrap().cells().count(), 19);
    let tri = Preset::Triangle.spec_with_side(6).unwrap();
    assert_eq!(Rules::new(tri).unwrap().cells().count(), 21);
    assert_eq!(Preset::Old.spec_with_side(9).unwrap().rows, 9);
    let err = Preset::Capture.spec_with_side(14).unwrap_err();
    assert_eq!(err.to_string(), "a hexagon board's side must be from 2 to 13, not 14");
    assert!(matches!(Preset::English.spec_with_side(9), Err(RulesError::Side { .. })));
    assert_eq!(Preset::Triangle.shape(), Shape::Triangle);
}
