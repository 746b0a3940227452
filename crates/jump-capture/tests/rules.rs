//! One test per rule of the rule book (`docs/rules.md`), named for the rule it checks.
//! Over 500 lines: the rule book is one document, and so is its test.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::{moves, play, pos};
use jump_capture::{
    Cell, Chain, DirectionSet, IllegalMove, Move, Opening, Phase, Position, Preset, Rules, RulesError,
    RulesSpec, Setup, apportion,
};

fn cell(s: &str) -> Cell {
    s.parse().unwrap()
}

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

// §1 Board -------------------------------------------------------------

#[test]
fn cells_are_named_chess_style_from_the_bottom_left() {
    let rules = Preset::Old.rules();
    let cells: Vec<Cell> = rules.cells().collect();
    assert_eq!(cells.first().unwrap().to_string(), "a1");
    assert_eq!(cells.last().unwrap().to_string(), "o15");
}

#[test]
fn boards_from_3_to_26_a_side_are_accepted_and_others_refused() {
    for n in 3..=26 {
        assert!(Rules::new(Preset::Old.spec().with_size(n, 29 - n)).is_ok(), "{n}×{}", 29 - n);
        assert!(Rules::new(Preset::Murray.spec().with_size(n, n)).is_ok());
    }
    for (r, c) in [(2, 5), (5, 2), (27, 5), (5, 27), (0, 0)] {
        assert_eq!(
            Rules::new(Preset::Old.spec().with_size(r, c)).unwrap_err(),
            RulesError::Size { rows: r.into(), cols: c.into() }
        );
    }
}

#[test]
fn a_masked_cell_is_neither_jumped_over_nor_landed_on() {
    // b2 is masked out: a2 cannot jump east over it, and nothing lands on it.
    let p = pos(Preset::Old.spec(), "OOO/O-O/1OO 3 0,0");
    assert_eq!(moves(&p), ["a3xa1", "c1xa1"]);
    let setup: Setup = "OOO/OOO/1OO 3 0,0".parse().unwrap();
    let masked =
        Rules::new(RulesSpec { mask: vec![cell("b2")], ..Preset::Old.spec().with_size(3, 3) }).unwrap();
    let err = Position::from_setup(masked, &setup).unwrap_err();
    assert_eq!(err.to_string(), "b2 is not a cell of this board (masked out); write it '-'");
}

#[test]
fn orthogonal_diagonal_and_all_are_the_direction_sets() {
    assert_eq!(DirectionSet::Orthogonal.directions().len(), 4);
    assert_eq!(DirectionSet::Diagonal.directions().len(), 4);
    assert_eq!(DirectionSet::All.directions().len(), 8);
    // A lone hole in the centre of 5×5: two pieces in line with it per direction.
    let text = "OOOOO/OOOOO/OO1OO/OOOOO/OOOOO 2 0,0";
    assert_eq!(moves(&pos(Preset::Old.spec(), text)), ["a3xc3", "c1xc3", "c5xc3", "e3xc3"]);
    let diag = pos(Preset::Old.spec().with_directions(DirectionSet::Diagonal), text);
    assert_eq!(moves(&diag), ["a1xc3", "a5xc3", "e1xc3", "e5xc3"]);
    let all = pos(Preset::Old.spec().with_directions(DirectionSet::All), text);
    assert_eq!(moves(&all).len(), 8);
}

// §2 Pieces ------------------------------------------------------------

#[test]
fn presets_define_their_kinds_and_values() {
    let letters = |p: Preset| {
        p.rules().kinds().iter().map(|k| format!("{}{}", k.letter, k.value)).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(letters(Preset::Old), "O1");
    assert_eq!(letters(Preset::Murray), "W1 Y2 R3 G4");
    assert_eq!(letters(Preset::Froglet), "G1 Y2 R3 B4");
    assert_eq!(letters(Preset::Konane), "B0 W0");
    let konane = Preset::Konane.rules();
    assert_eq!(konane.kinds()[0].owner, Some(0));
    assert_eq!(konane.kinds()[1].owner, Some(1));
    assert!(Preset::Murray.rules().kinds().iter().all(|k| k.owner.is_none()));
}

#[test]
fn the_default_boards_have_the_sources_counts() {
    let count = |p: Preset, letter: char| {
        let (pos, _) = Position::start(p.rules(), 2, Some(1)).unwrap();
        pos.rules().cells().filter(|&c| pos.piece_at(c).is_some_and(|k| k.letter == letter)).count()
    };
    assert_eq!(
        [
            count(Preset::Murray, 'W'),
            count(Preset::Murray, 'Y'),
            count(Preset::Murray, 'R'),
            count(Preset::Murray, 'G')
        ],
        [90, 68, 45, 22]
    );
    assert_eq!(
        [
            count(Preset::Froglet, 'G'),
            count(Preset::Froglet, 'Y'),
            count(Preset::Froglet, 'R'),
            count(Preset::Froglet, 'B')
        ],
        [66, 51, 21, 6]
    );
    assert_eq!(count(Preset::Old, 'O'), 225);
    assert_eq!([count(Preset::Konane, 'B'), count(Preset::Konane, 'W')], [32, 32]);
}

/// Checks the largest-remainder rule directly: every kind gets the floor
/// or the ceiling of its quota, the counts add up, and no kind left at its
/// floor has a larger remainder (or an equal one and a lower value) than a
/// kind that got an extra piece.
fn check_apportionment(n: u32, weights: &[u32], values: &[u32]) {
    let counts = apportion(n, weights, values);
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    assert_eq!(counts.iter().sum::<u32>(), n);
    let rem = |i: usize| (u64::from(n) * u64::from(weights[i])) % total;
    let floor = |i: usize| (u64::from(n) * u64::from(weights[i]) / total) as u32;
    for i in 0..counts.len() {
        assert!(counts[i] == floor(i) || counts[i] == floor(i) + 1, "n={n} kind {i}");
        for j in 0..counts.len() {
            let (got, not) = (counts[i] > floor(i), counts[j] == floor(j));
            if got && not {
                assert!(
                    rem(i) > rem(j) || (rem(i) == rem(j) && values[i] <= values[j]),
                    "n={n}: {i} before {j}"
                );
            }
        }
    }
}

#[test]
fn counts_on_every_size_from_3_to_26_follow_largest_remainder_ties_to_the_lower_value() {
    for preset in [Preset::Murray, Preset::Froglet] {
        let spec = preset.spec();
        let jump_capture::Fill::Random { weights } = &spec.fill else { unreachable!() };
        let values: Vec<u32> = spec.kinds.iter().map(|k| k.value).collect();
        for n in 3..=26u8 {
            check_apportionment(u32::from(n) * u32::from(n), weights, &values);
            // The dealt board holds exactly the apportioned counts.
            let rules = Rules::new(preset.spec().with_size(n, n)).unwrap();
            let (p, _) = Position::start(rules, 2, Some(u64::from(n))).unwrap();
            let expected = apportion(u32::from(n) * u32::from(n), weights, &values);
            for (k, want) in spec.kinds.iter().zip(expected) {
                let got = p
                    .rules()
                    .cells()
                    .filter(|&c| p.piece_at(c).is_some_and(|x| x.letter == k.letter))
                    .count();
                assert_eq!(got as u32, want, "{preset} {n}×{n} {}", k.letter);
            }
        }
    }
    // The sources' 15×15 figures: 22.5 green and 67.5 yellow become 22 and 68.
    assert_eq!(apportion(225, &[4, 3, 2, 1], &[1, 2, 3, 4]), [90, 68, 45, 22]);
    assert_eq!(apportion(144, &[66, 51, 21, 6], &[1, 2, 3, 4]), [66, 51, 21, 6]);
    // 3×3 Murray: quotas 3.6, 2.7, 1.8, 0.9 → 3, 2, 1, 0 plus 3 seats by remainder.
    assert_eq!(apportion(9, &[4, 3, 2, 1], &[1, 2, 3, 4]), [3, 3, 2, 1]);
}

// §3 Setup -------------------------------------------------------------

#[test]
fn every_game_starts_with_a_full_board_but_its_holes() {
    for preset in Preset::ALL {
        let players = *preset.rules().player_range().start();
        let (p, _) = Position::start(preset.rules(), players, Some(9)).unwrap();
        let holes = preset.spec().holes.len();
        assert_eq!(p.piece_count(), p.rules().cells().count() - holes, "{preset}");
        assert_eq!(p.ply(), 0);
        assert_eq!(p.scores(), vec![0; players]);
    }
}

#[test]
fn the_same_rules_and_seed_give_the_same_board_and_a_missing_seed_is_drawn_and_reported() {
    let (a, _) = Position::start(Preset::Murray.rules(), 2, Some(5)).unwrap();
    let (b, _) = Position::start(Preset::Murray.rules(), 2, Some(5)).unwrap();
    let (c, _) = Position::start(Preset::Murray.rules(), 2, Some(6)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
    let (d, seed) = Position::start(Preset::Murray.rules(), 2, None).unwrap();
    let (e, _) = Position::start(Preset::Murray.rules(), 2, Some(seed)).unwrap();
    assert_eq!(d, e);
}

// §4 Turns -------------------------------------------------------------

#[test]
fn leap_frog_takes_1_to_at_least_16_players_and_konane_exactly_2() {
    for n in 1..=16 {
        assert!(Position::start(Preset::Old.rules(), n, Some(1)).is_ok(), "{n} players");
    }
    assert!(Position::start(Preset::Old.rules(), 0, Some(1)).is_err());
    assert!(Position::start(Preset::Konane.rules(), 2, Some(1)).is_ok());
    for n in [1, 3] {
        let err = Position::start(Preset::Konane.rules(), n, Some(1)).unwrap_err();
        assert_eq!(err.to_string(), format!("{n} players; these rules take 2 to 2"));
    }
}

#[test]
fn with_every_player_removing_there_are_no_more_players_than_pieces() {
    let rules = Rules::new(Preset::Old.spec().with_size(3, 3)).unwrap();
    assert!(Position::start(rules.clone(), 9, Some(1)).is_ok());
    let err = Position::start(rules, 10, Some(1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "10 players each remove a piece in the opening, but the board has only 9 pieces"
    );
}

#[test]
fn the_player_to_move_is_the_ply_modulo_the_number_of_players() {
    let p = pos(Preset::Old.spec(), "OOO/OOO/OO1 7 0,0,0");
    assert_eq!(p.players(), 3);
    assert_eq!(p.to_move(), 1);
}

// §5 Opening -----------------------------------------------------------

#[test]
fn in_old_and_murray_every_player_removes_one_piece_in_turn_and_it_scores() {
    let rules = Rules::new(Preset::Murray.spec().with_size(4, 4)).unwrap();
    let setup: Setup = "WYRG/WGYR/GGWW/RYWY 0 0,0,0".parse().unwrap();
    let mut p = Position::from_setup(rules, &setup).unwrap();
    assert_eq!(p.phase(), Phase::Opening);
    assert_eq!(p.count_moves_unbounded(), 16, "any piece may be removed");
    p.play(&mv("d4")).unwrap(); // G = 4
    p.play(&mv("a4")).unwrap(); // W = 1
    assert_eq!(p.phase(), Phase::Opening, "the third player has not removed yet");
    p.play(&mv("c4")).unwrap(); // R = 3
    assert_eq!(p.scores(), [4, 1, 3]);
    assert_eq!(p.phase(), Phase::Playing);
    assert_eq!(p.play(&mv("b1")).unwrap_err(), IllegalMove::JumpExpected);
}

#[test]
fn in_froglet_only_the_first_player_removes_only_a_green_piece_and_it_does_not_score() {
    let rules = Rules::new(Preset::Froglet.spec().with_size(3, 3)).unwrap();
    let setup: Setup = "GYR/BGY/RBG 0 0,0".parse().unwrap();
    let mut p = Position::from_setup(rules, &setup).unwrap();
    assert_eq!(moves(&p), ["a3", "b2", "c1"]);
    let err = p.play(&mv("b3")).unwrap_err();
    assert_eq!(err.to_string(), "only a green piece may be removed");
    p.play(&mv("a3")).unwrap();
    assert_eq!(p.scores(), [0, 0]);
    assert_eq!(p.phase(), Phase::Playing, "the second player jumps at once");
    assert_eq!(p.to_move(), 1);
    assert_eq!(moves(&p), ["a1xa3", "c3xa3"]);
}

#[test]
fn konane_opening_is_centre_or_corner_then_next_to_the_hole() {
    // The OpenSpiel figures of `docs/rules.md` §7.
    let (mut p, _) = Position::start(Preset::Konane.rules(), 2, None).unwrap();
    assert_eq!(moves(&p), ["a8", "d5", "e4", "h1"]);
    assert_eq!(p.play(&mv("a1")).unwrap_err(), IllegalMove::NotYourPiece { cell: cell("a1"), player: 0 });
    assert_eq!(p.play(&mv("b7")).unwrap_err(), IllegalMove::NotCentreOrCorner(cell("b7")));
    play(&mut p, "a8");
    assert_eq!(moves(&p), ["a7", "b8"]);
    assert_eq!(p.play(&mv("h8")).unwrap_err(), IllegalMove::NotNextToHole(cell("h8")));
    play(&mut p, "b8");
    assert_eq!(p.phase(), Phase::Playing);
    assert_eq!(moves(&p), ["a6xa8"]);
    assert_eq!(p.scores(), [0, 0]);
}

#[test]
fn opening_removals_are_made_in_turn_order() {
    let mut p = pos(Preset::Old.spec(), "OOO/OOO/OOO 0 0,0");
    play(&mut p, "b2");
    assert_eq!(p.to_move(), 1);
    assert_eq!(p.phase(), Phase::Opening);
}

// §6 Jumps -------------------------------------------------------------

#[test]
fn a_jump_goes_over_a_neighbour_into_the_empty_cell_behind_and_captures_it() {
    // The rule book's 4×4 Murray board with a hole at b3, three players.
    let mut p = pos(Preset::Murray.spec(), "WYRG/W1YR/GGWW/RYWY 3 4,0,2");
    assert_eq!(moves(&p), ["b1xb3", "d3xb3"]);
    assert_eq!(p.play(&mv("b3xb1")).unwrap_err(), IllegalMove::NoPiece(cell("b3")));
    assert_eq!(p.play(&mv("a1xa3")).unwrap_err(), IllegalMove::NotEmpty(cell("a3")));
    assert_eq!(
        p.play(&mv("b4xb2")).unwrap_err(),
        IllegalMove::NothingToJump { from: cell("b4"), over: cell("b3"), to: cell("b2") }
    );
    assert_eq!(p.play(&mv("b1xb2")).unwrap_err().to_string(), "b1 to b2 is not a jump of this rule set");
    assert_eq!(p.play(&mv("a1xc3")).unwrap_err().to_string(), "a1 to c3 is not a jump of this rule set");
    assert_eq!(p.to_string(), "WYRG/W1YR/GGWW/RYWY 3 4,0,2", "refused moves change nothing");
    let done = p.play(&mv("d3xb3")).unwrap();
    assert_eq!(done.captures, vec![(cell("c3"), 'Y')]);
    assert_eq!((done.player, done.gain), (0, 2));
    assert_eq!(p.to_string(), "WYRG/WR2/GGWW/RYWY 4 6,0,2");
}

#[test]
fn the_jumped_piece_is_removed_at_once_and_the_start_cell_is_empty_once_left() {
    // a1 jumps east over b1 to c1, then north over c2 to c3, then west over
    // b3 to a3, then south over a2 back to a1, its start cell.
    let p = pos(Preset::Old.spec(), "1O1/OOO/OO1 1 0");
    let all = moves(&p);
    assert!(all.contains(&"a1xc1xc3xa3xa1".to_string()), "{all:?}");
}

#[test]
fn a_path_may_come_back_to_its_start_cell() {
    let mut p = pos(Preset::Old.spec(), "1O1/OOO/OO1 1 0");
    let done = p.play(&mv("a1xc1xc3xa3xa1")).unwrap();
    assert_eq!(done.captures.len(), 4);
    assert_eq!(p.to_string(), "3/1O1/O2 2 4");
}

#[test]
fn leap_frog_may_change_direction_between_steps() {
    // a1 jumps north over a2 to a3, then turns east over b3 to c3.
    let p = pos(Preset::Old.spec(), "1O1/O2/O2 1 0");
    assert_eq!(moves(&p), ["a1xa3", "a1xa3xc3"]);
}

#[test]
fn konane_keeps_the_first_steps_direction() {
    let straight = pos(Preset::Konane.spec(), "6/6/6/BW1W2 2 0,0");
    assert_eq!(moves(&straight), ["a1xc1", "a1xc1xe1"]);
    // After a1xc1 a turn north over c2 to c3 would be legal in Leap Frog.
    let mut turn = pos(Preset::Konane.spec(), "1W2/4/W1W1/BW2 2 0,0");
    assert_eq!(moves(&turn), ["a1xa3", "a1xc1"]);
    assert_eq!(
        turn.play(&mv("a1xc1xc3")).unwrap_err().to_string(),
        "c1 to c3 changes direction; this rule set jumps in a straight line"
    );
    let free = Rules::new(RulesSpec { chain: Chain::Free, ..Preset::Konane.spec().with_size(4, 4) }).unwrap();
    let setup: Setup = "1W2/4/W1W1/BW2 2 0,0".parse().unwrap();
    let free = Position::from_setup(free, &setup).unwrap();
    assert_eq!(moves(&free), ["a1xa3", "a1xc1", "a1xc1xc3"]);
}

#[test]
fn konane_moves_own_pieces_over_the_opponents_only() {
    let mut p = pos(Preset::Konane.spec(), "4/4/4/BB1W 2 0,0");
    assert_eq!(moves(&p), Vec::<String>::new(), "black cannot jump its own piece");
    assert_eq!(p.phase(), Phase::Over);
    let q = pos(Preset::Konane.spec(), "4/4/4/BW1W 3 0,0");
    assert_eq!(moves(&q), Vec::<String>::new(), "white moves white pieces only, and d1 has no black to jump");
    assert!(p.play(&mv("a1xc1")).is_err());
}

#[test]
fn every_prefix_of_a_legal_path_is_itself_a_legal_move() {
    let p = pos(Preset::Old.spec(), "1O1/OOO/OO1 1 0");
    let all = moves(&p);
    for m in p.legal_moves_unbounded() {
        for k in 2..m.path().len() {
            let prefix = Move::new(m.path()[..k].to_vec()).unwrap();
            assert!(all.contains(&prefix.to_string()), "{prefix} is a prefix of {m}");
        }
    }
    assert!(all.contains(&"a1xc1".to_string()) && all.contains(&"a1xc1xc3".to_string()));
}

#[test]
fn distinct_paths_are_distinct_moves_even_with_the_same_captures_and_end() {
    // a1 can go round the ring either way: both capture b1, c2, b3 and a2
    // and end on a1, and both are moves.
    let p = pos(Preset::Old.spec(), "1O1/OOO/OO1 1 0");
    let all = moves(&p);
    assert!(all.contains(&"a1xc1xc3xa3xa1".to_string()), "{all:?}");
    assert!(all.contains(&"a1xa3xc3xc1xa1".to_string()), "{all:?}");
    let mut a = p.clone();
    let mut b = p.clone();
    a.play(&mv("a1xc1xc3xa3xa1")).unwrap();
    b.play(&mv("a1xa3xc3xc1xa1")).unwrap();
    assert_eq!(a, b, "the same end position by two paths");
}

#[test]
fn the_mover_scores_the_values_of_all_captured_pieces_and_captures_grow_by_k() {
    let mut p = pos(Preset::Murray.spec(), "1GR/1YW/1WW 5 3,4");
    let done = p.play(&mv("c2xa2")).unwrap();
    assert_eq!((done.gain, done.captures.len()), (2, 1));
    assert_eq!(p.scores(), [3, 6]);
    let mut q = pos(Preset::Murray.spec(), "1GR/GYW/1WW 5 0,0");
    let done = q.play(&mv("c3xa3xa1")).unwrap();
    assert_eq!(done.captures, vec![(cell("b3"), 'G'), (cell("a2"), 'G')]);
    assert_eq!(done.gain, 8);
    assert_eq!(q.scores(), [0, 8]);
}

#[test]
fn diagonal_jumps_go_corner_to_corner() {
    let p = pos(Preset::Murray.spec().with_directions(DirectionSet::Diagonal), "WWW/WWW/WW1 2 0,0");
    assert_eq!(moves(&p), ["a3xc1"]);
    let all = pos(Preset::Murray.spec().with_directions(DirectionSet::All), "WWW/WWW/WW1 2 0,0");
    assert_eq!(moves(&all), ["a1xc1", "a3xc1", "c3xc1"]);
}

// §7 End and result ----------------------------------------------------

#[test]
fn the_game_ends_when_the_player_to_move_has_no_legal_move() {
    let p = pos(Preset::Old.spec(), "O1O/3/O1O 5 2,3");
    assert_eq!(p.phase(), Phase::Over);
    assert!(p.is_over());
    let mut q = pos(Preset::Old.spec(), "O1O/3/O1O 5 2,3");
    assert_eq!(q.play(&mv("a1xa3")).unwrap_err(), IllegalMove::GameOver);
}

#[test]
fn if_the_opening_leaves_no_jump_the_game_ends_right_after_it() {
    let mut q = pos(Preset::Old.spec(), "O1O/3/O1O 1 0,0");
    assert_eq!(q.phase(), Phase::Opening);
    q.play(&mv("a1")).unwrap();
    assert_eq!(q.phase(), Phase::Over, "no jump after the opening: over at once");
    assert_eq!(q.outcome().unwrap().winners, [1]);
}

#[test]
fn leap_frog_ranks_by_score_and_every_top_scorer_wins() {
    let p = pos(Preset::Murray.spec(), "W1W/3/W1W 9 5,7,3");
    let o = p.outcome().unwrap();
    assert_eq!(o.winners, [1]);
    assert!(!o.is_shared());
    assert_eq!(o.standings.iter().map(|s| (s.player, s.rank)).collect::<Vec<_>>(), [(1, 1), (0, 2), (2, 3)]);
}

#[test]
fn equal_top_scores_share_the_win() {
    let p = pos(Preset::Murray.spec(), "W1W/3/W1W 9 7,2,7,2");
    let o = p.outcome().unwrap();
    assert_eq!(o.winners, [0, 2]);
    assert!(o.is_shared());
    let ranks: Vec<(usize, usize)> = o.standings.iter().map(|s| (s.player, s.rank)).collect();
    assert_eq!(ranks, [(0, 1), (2, 1), (1, 3), (3, 3)]);
}

#[test]
fn in_konane_the_player_who_cannot_move_loses() {
    let p = pos(Preset::Konane.spec(), "4/4/4/BW1W 3 0,0");
    let o = p.outcome().unwrap();
    assert_eq!(p.to_move(), 1);
    assert_eq!(o.winners, [0]);
}

#[test]
fn a_game_in_progress_has_no_result() {
    let p = pos(Preset::Old.spec(), "1OO/1OO/1OO 2 1,1");
    assert_eq!(p.outcome(), None);
    assert_eq!(p.phase(), Phase::Playing);
}

// §10 Worked example ---------------------------------------------------

#[test]
fn the_worked_example_of_the_rule_book() {
    let p = pos(Preset::Old.spec(), "1OO/1OO/1OO 2 1,1");
    assert_eq!(moves(&p), ["c1xa1", "c2xa2", "c3xa3"]);
    assert_eq!(p.perft_unbounded(1), 3);
    let mut a = p.clone();
    play(&mut a, "c2xa2");
    assert_eq!(moves(&a), ["c1xa1", "c1xa1xa3", "c3xa3", "c3xa3xa1"]);
    let mut b = p.clone();
    play(&mut b, "c3xa3");
    assert_eq!(moves(&b), ["b1xb3", "c1xa1", "c1xc3", "c2xa2"]);
    let mut c = p.clone();
    play(&mut c, "c1xa1");
    assert_eq!(moves(&c).len(), 4);
    assert_eq!(p.perft_unbounded(2), 12);
    let divide: Vec<(String, u64)> =
        p.divide_unbounded(2).into_iter().map(|(m, n)| (m.to_string(), n)).collect();
    assert_eq!(divide, [("c1xa1".into(), 4), ("c2xa2".into(), 4), ("c3xa3".into(), 4)]);
}

// Rule sets ------------------------------------------------------------

#[test]
fn invalid_rule_sets_are_refused_with_the_reason() {
    let dup = RulesSpec {
        kinds: vec![jump_capture::Kind::shared('W', "a", 1), jump_capture::Kind::shared('W', "b", 2)],
        fill: jump_capture::Fill::Random { weights: vec![1, 1] },
        ..Preset::Murray.spec()
    };
    assert_eq!(Rules::new(dup).unwrap_err().to_string(), "two kinds share the letter 'W'");
    let lower = RulesSpec {
        kinds: vec![jump_capture::Kind::shared('w', "a", 1)],
        fill: jump_capture::Fill::Random { weights: vec![1] },
        ..Preset::Old.spec()
    };
    assert_eq!(
        Rules::new(lower).unwrap_err().to_string(),
        "kind letter 'w' is not an upper-case letter A to Z"
    );
    let odd = Preset::Konane.spec().with_size(7, 8);
    assert_eq!(Rules::new(odd).unwrap_err(), RulesError::KonaneShape);
    let weights =
        RulesSpec { fill: jump_capture::Fill::Random { weights: vec![1, 2] }, ..Preset::Murray.spec() };
    assert!(matches!(Rules::new(weights).unwrap_err(), RulesError::FillWeights { .. }));
    let unknown = RulesSpec {
        opening: Opening::FirstPlayerRemoves { kinds: Some(vec!['Q']) },
        ..Preset::Murray.spec()
    };
    assert_eq!(
        Rules::new(unknown).unwrap_err().to_string(),
        "the opening lets kind 'Q' be removed, but there is no such kind"
    );
    let players = RulesSpec { min_players: 3, max_players: 2, ..Preset::Old.spec() };
    assert!(matches!(Rules::new(players).unwrap_err(), RulesError::PlayerRange { .. }));
    let mask = RulesSpec { mask: vec![cell("p1")], ..Preset::Old.spec() };
    assert_eq!(Rules::new(mask).unwrap_err().to_string(), "mask cell p1 is off the 15×15 board");
}

#[test]
fn every_preset_is_valid_with_every_direction_set() {
    for preset in Preset::ALL {
        for dirs in DirectionSet::ALL {
            assert!(Rules::new(preset.spec().with_directions(dirs)).is_ok());
        }
        assert_eq!(preset.id().parse::<Preset>().unwrap(), preset);
    }
    assert_eq!(
        "chess".parse::<Preset>().unwrap_err().to_string(),
        "unknown preset 'chess'; expected old, murray, froglet, konane, capture, english or triangle"
    );
}
