//! Property tests: notation round-trips, parsers that never panic, and the
//! invariants of play on random positions of every preset.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use std::ops::ControlFlow;

use common::{random_position, rng};
use jump_capture::{Cell, DirectionSet, Grid, Move, Preset, Setup, Square};
use proptest::prelude::*;

fn square() -> impl Strategy<Value = Square> {
    prop_oneof![
        Just(Square::Missing),
        Just(Square::Empty),
        (b'A'..=b'Z').prop_map(|b| Square::Piece(char::from(b))),
    ]
}

/// A random position (see `common`) of preset and direction set number
/// `preset` and `dirs`.
fn any_position(seed: u64, preset: usize, dirs: usize) -> jump_capture::Position {
    let preset = Preset::ALL[preset];
    let dirs = DirectionSet::ALL[dirs];
    random_position(preset, dirs, &mut rng(seed)).1
}

/// A grid of `rows × cols` squares, rank 1 first.
fn grid_of(rows: u8, cols: u8, squares: Vec<Square>) -> Grid {
    let mut g = Grid::filled(rows, cols, Square::Empty);
    for (i, sq) in squares.into_iter().enumerate() {
        let c = Cell::new((i % usize::from(cols)) as u8, (i / usize::from(cols)) as u8).unwrap();
        g.set(c, sq);
    }
    g
}

fn grid() -> impl Strategy<Value = Grid> {
    (1u8..=26, 1u8..=26, 0.0f64..1.0).prop_flat_map(|(rows, cols, _)| {
        proptest::collection::vec(square(), usize::from(rows) * usize::from(cols))
            .prop_map(move |squares| grid_of(rows, cols, squares))
    })
}

/// Board strings of 3 to 6 ranks and files of Murray's pieces, empty and
/// missing cells, written as [`Grid`] writes them.
fn murray_board() -> impl Strategy<Value = String> {
    let square = prop_oneof![
        40 => prop::sample::select(vec!['W', 'Y', 'R', 'G']).prop_map(Square::Piece),
        20 => Just(Square::Empty),
        1 => Just(Square::Missing),
    ];
    (3u8..=6, 3u8..=6).prop_flat_map(move |(rows, cols)| {
        proptest::collection::vec(square.clone(), usize::from(rows) * usize::from(cols))
            .prop_map(move |squares| grid_of(rows, cols, squares).to_string())
    })
}

fn cell() -> impl Strategy<Value = Cell> {
    (0u8..26, 0u8..26).prop_map(|(f, r)| Cell::new(f, r).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn board_strings_round_trip(g in grid()) {
        let text = g.to_string();
        let back: Grid = text.parse().unwrap();
        prop_assert_eq!(&back, &g);
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn position_strings_round_trip(g in grid(), ply in any::<u32>(), scores in proptest::collection::vec(any::<u32>(), 1..8)) {
        let s = Setup { grid: g, ply, scores };
        let back: Setup = s.to_string().parse().unwrap();
        prop_assert_eq!(back, s);
    }

    #[test]
    fn move_strings_round_trip(path in proptest::collection::vec(cell(), 1..12)) {
        let mv = Move::new(path).unwrap();
        let back: Move = mv.to_string().parse().unwrap();
        prop_assert_eq!(back, mv);
    }

    #[test]
    fn moves_sort_as_their_notation_strings(
        paths in prop::collection::vec(prop::collection::vec((0u8..3, 7u8..12), 1..9), 0..60)
    ) {
        // Few files and ranks across 9 and 10, so that many notations share
        // long prefixes and one- and two-digit ranks meet.
        let mut moves: Vec<Move> = paths
            .into_iter()
            .map(|p| Move::new(p.into_iter().map(|(f, r)| Cell::new(f, r).unwrap()).collect()).unwrap())
            .collect();
        let mut expected: Vec<String> = moves.iter().map(ToString::to_string).collect();
        expected.sort();
        jump_capture::sort_by_notation(&mut moves);
        let sorted: Vec<String> = moves.iter().map(ToString::to_string).collect();
        prop_assert_eq!(sorted, expected);
    }

    #[test]
    fn cell_names_round_trip(c in cell()) {
        prop_assert_eq!(c.to_string().parse::<Cell>().unwrap(), c);
    }

    #[test]
    fn parsers_never_panic_on_arbitrary_text(s in any::<String>()) {
        let _ = s.parse::<Grid>();
        let _ = s.parse::<Setup>();
        let _ = s.parse::<Move>();
        let _ = s.parse::<Cell>();
        let _ = s.parse::<Preset>();
        let _ = s.parse::<DirectionSet>();
    }

    #[test]
    fn parsers_never_panic_on_near_notation(s in "[A-Za-z0-9./ ,x-]{0,80}") {
        let _ = s.parse::<Grid>();
        if let Ok(setup) = s.parse::<Setup>() {
            // A well-formed setup either becomes a position or is refused.
            let spec = Preset::Murray.spec().with_shape_of(&setup.grid);
            if let Ok(rules) = jump_capture::Rules::new(spec) {
                let _ = jump_capture::Position::from_setup(rules, &setup).map(|p| p.legal_moves_unbounded());
            }
        }
        let _ = s.parse::<Move>();
    }

    /// The quick reader of board strings never takes what the careful
    /// path (a grid, then a position) refuses, and when it takes a board
    /// it reads the same position; a board without missing cells that the
    /// careful path takes, it takes too.
    #[test]
    fn the_quick_board_reader_agrees_with_grid_and_setup(
        board in murray_board(),
        edit in proptest::option::of((any::<prop::sample::Index>(), 0usize..3, prop::sample::select(vec!['0', '1', '9', '.', '-', '/', 'Q', 'o', ' ']))),
        ply in 0u32..6,
        players in 0usize..4,
    ) {
        // A board string, perhaps with one character replaced, inserted or
        // taken out.
        let mut board: Vec<char> = board.chars().collect();
        if let Some((at, how, ch)) = edit {
            let i = at.index(board.len() + 1);
            match how {
                0 if i < board.len() => board[i] = ch,
                1 => board.insert(i, ch),
                _ if i < board.len() => { board.remove(i); }
                _ => {}
            }
        }
        let board: String = board.into_iter().collect();
        let scores = vec![3; players];
        let rules_for = |rows, cols| {
            jump_capture::Rules::new(Preset::Murray.spec().with_size(rows, cols)).ok().map(std::sync::Arc::new)
        };
        let quick = jump_capture::Position::from_board_str(&board, ply, &scores, rules_for);
        let careful = board.parse::<Grid>().ok().and_then(|grid| {
            let rules = rules_for(grid.rows(), grid.cols())?;
            let setup = Setup { grid, ply, scores: scores.clone() };
            jump_capture::Position::from_setup(rules, &setup).ok()
        });
        match (&quick, &careful) {
            (Some(q), Some(c)) => prop_assert!(q == c && q.to_string() == c.to_string(), "{board}: {q} vs {c}"),
            (Some(q), None) => prop_assert!(false, "{board}: the quick reader took {q}"),
            (None, Some(c)) => prop_assert!(board.contains('-'), "{board}: the quick reader refused {c}"),
            (None, None) => {}
        }
    }

    #[test]
    fn parsers_never_panic_on_board_shaped_text(
        s in "[OWYRGB.1-9-]{1,7}(/[OWYRGB.1-9-]{1,7}){0,7}( [0-9]{1,4}( [0-9]{1,3}(,[0-9]{1,3}){0,3})?)?"
    ) {
        if let Ok(setup) = s.parse::<Setup>() {
            prop_assert_eq!(setup.to_string().parse::<Setup>().ok(), Some(setup.clone()));
            let spec = Preset::Murray.spec().with_shape_of(&setup.grid);
            if let Ok(rules) = jump_capture::Rules::new(spec) {
                if let Ok(pos) = jump_capture::Position::from_setup(rules, &setup) {
                    prop_assert_eq!(pos.perft_unbounded(1), pos.legal_moves_unbounded().len() as u64);
                }
            }
        }
    }

    #[test]
    fn the_quick_board_reader_reads_every_position(seed in any::<u64>(), preset in 0usize..4, dirs in 0usize..4) {
        let pos = any_position(seed, preset, dirs);
        let setup = pos.setup();
        let size = (pos.rules().rows(), pos.rules().cols());
        let quick = jump_capture::Position::from_board_str(&setup.grid.to_string(), setup.ply, &setup.scores, |r, c| {
            ((r, c) == size).then(|| pos.rules_arc().clone())
        });
        if setup.grid.has_missing() {
            prop_assert!(quick.is_none());
        } else {
            prop_assert_eq!(quick, Some(pos));
        }
    }

    #[test]
    fn every_generated_move_applies_and_captures_and_scores_add_up(seed in any::<u64>(), preset in 0usize..4, dirs in 0usize..4) {
        let pos = any_position(seed, preset, dirs);
        let moves = pos.legal_moves_unbounded();
        prop_assert_eq!(pos.perft_unbounded(1), moves.len() as u64);
        prop_assert_eq!(pos.count_moves_unbounded(), moves.len() as u64);
        // Indexed access reaches every legal move exactly once.
        let mut indexed: Vec<String> = (0..moves.len() as u64)
            .map(|k| pos.nth_move(k, jump_capture::PathBudget::UNLIMITED).unwrap().map(|m| m.to_string()).unwrap_or_default())
            .collect();
        indexed.sort();
        let listed: Vec<String> = moves.iter().map(ToString::to_string).collect();
        prop_assert_eq!(indexed, listed);
        prop_assert_eq!(pos.nth_move(moves.len() as u64, jump_capture::PathBudget::UNLIMITED).unwrap(), None);
        let opening = pos.is_opening();
        let list = pos.move_list_unbounded(None);
        // Walking the moves with their gains and stopping part way visits
        // the list's first moves, and no more.
        let stop = (moves.len() / 2).max(1);
        let mut walked = Vec::new();
        pos.for_each_move(None, |m| {
            walked.push((m.path.to_vec(), m.gain));
            if walked.len() == stop { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        prop_assert_eq!(walked.len(), stop.min(moves.len()));
        for (i, (path, gain)) in walked.iter().enumerate() {
            prop_assert_eq!(list.path(i), Some(&path[..]));
            prop_assert_eq!(list.gain(i), Some(*gain));
        }
        for (i, mv) in moves.iter().enumerate().take(300) {
            let mut after = pos.clone();
            let played = after.play(mv).map_err(|e| TestCaseError::fail(format!("{mv}: {e}")))?;
            let mover = pos.to_move();
            prop_assert_eq!(played.player, mover);
            prop_assert_eq!(after.ply(), pos.ply() + 1);
            // Captures: k for a path of k steps, one for a removal.
            let expected = if opening { 1 } else { mv.path().len() - 1 };
            prop_assert_eq!(played.captures.len(), expected);
            prop_assert_eq!(after.piece_count(), pos.piece_count() - expected);
            if !opening {
                let jumped: Vec<Cell> = mv.jumped().collect();
                let captured: Vec<Cell> = played.captures.iter().map(|c| c.0).collect();
                prop_assert_eq!(jumped, captured);
            }
            // Scores: the mover gains the captured values (removals only
            // where the rules say so); nobody else's score moves.
            let values: u32 = played.captures.iter().map(|&(_, l)| {
                pos.rules().kinds()[pos.rules().kind_index(l).unwrap()].value
            }).sum();
            let gain = if opening && !pos.rules().spec().removals_score { 0 } else { values };
            prop_assert_eq!(played.gain, gain);
            // The flat list says the same, move for move.
            prop_assert_eq!(list.path(i), Some(mv.path()));
            prop_assert_eq!(list.gain(i), Some(gain));
            for p in 0..pos.players() {
                let delta = if p == mover { gain } else { 0 };
                prop_assert_eq!(after.scores()[p], pos.scores()[p] + delta);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `playout` plays legal moves only: replaying its game through `play`
    /// (which checks every move) from the same generator state ends in the
    /// same position.
    #[test]
    fn a_playout_ends_where_checked_random_play_ends(seed in any::<u64>(), preset in 0usize..4, dirs in 0usize..4) {
        let start = any_position(seed, preset, dirs);
        let mut fast = start.clone();
        let plies = fast.playout_unbounded(&mut rng(seed ^ 1));
        let mut slow = start.clone();
        let mut r = rng(seed ^ 1);
        while let Some(mv) = slow.random_move_unbounded(&mut r) {
            slow.play(&mv).map_err(|e| TestCaseError::fail(format!("{mv}: {e}")))?;
        }
        prop_assert_eq!(fast.to_string(), slow.to_string());
        prop_assert_eq!(plies, slow.ply() - start.ply());
        prop_assert!(fast.is_over());
    }

    /// Perft keeps the counts of positions reached again (a chain's
    /// captures in another order, two moves made in the other order): its
    /// totals equal those of playing every sequence out one by one.
    #[test]
    fn perft_with_its_table_counts_what_playing_every_sequence_counts(seed in any::<u64>(), preset in 0usize..4, dirs in 0usize..4) {
        let pos = any_position(seed, preset, dirs);
        // Small enough to play out one by one.
        prop_assume!(pos.perft(2, jump_capture::PathBudget::new(20_000)).is_ok());
        prop_assert_eq!(pos.perft_unbounded(3), played_out(&pos, 3));
        let divided: u64 = pos.divide_unbounded(3).iter().map(|(_, n)| n).sum();
        prop_assert_eq!(divided, played_out(&pos, 3));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `greedy_move` answers a legal move of the largest gain of all the
    /// moves, with that gain; drawn again and again, each move of that
    /// gain in turn; and, looking at one move only, some legal move.
    #[test]
    fn the_greedy_move_is_any_legal_move_of_the_largest_gain(seed in any::<u64>(), preset in 0usize..4, dirs in 0usize..4) {
        let pos = any_position(seed, preset, dirs);
        prop_assume!(pos.count_moves(jump_capture::PathBudget::new(5_000)).is_ok());
        let mut all = Vec::new();
        pos.for_each_move(None, |m| {
            all.push((Move::new(m.path.to_vec()).unwrap(), m.gain));
            ControlFlow::Continue(())
        });
        let top = all.iter().map(|&(_, g)| g).max();
        let ties: Vec<&Move> = all.iter().filter(|(_, g)| Some(*g) == top).map(|(m, _)| m).collect();
        let mut r = rng(seed ^ 2);
        let Some(first) = pos.greedy_move(&mut r, u64::MAX) else {
            prop_assert!(all.is_empty() && pos.largest_gain(u64::MAX).is_none());
            return Ok(());
        };
        prop_assert_eq!(Some(first.1), top);
        prop_assert_eq!(pos.largest_gain(u64::MAX), Some((first.1, ties.len() as u32)));
        prop_assert_eq!(pos.check(&first.0).unwrap().gain, first.1);
        // Each of k equals is missed in 30k draws with odds below e^-30.
        let mut seen = std::collections::HashSet::new();
        for _ in 0..30 * ties.len().min(40) {
            let (mv, gain) = pos.greedy_move(&mut r, u64::MAX).unwrap();
            prop_assert!(ties.contains(&&mv) && Some(gain) == top, "{mv} ({gain}) is not of the largest gain");
            seen.insert(mv);
        }
        if ties.len() <= 40 {
            prop_assert_eq!(seen.len(), ties.len());
        }
        let (one, gain) = pos.greedy_move(&mut r, 1).unwrap();
        prop_assert!(all.contains(&(one, gain)));
        prop_assert!(pos.greedy_move(&mut r, 0).is_none());
    }

    /// `ranked_move` ranks every legal move once, largest gain first, in
    /// the same order for the same salt.
    #[test]
    fn ranked_moves_are_every_move_once_by_gain(seed in any::<u64>(), preset in 0usize..4, dirs in 0usize..4) {
        let pos = any_position(seed, preset, dirs);
        prop_assume!(pos.count_moves(jump_capture::PathBudget::new(300)).is_ok());
        let mut all = Vec::new();
        pos.for_each_move(None, |m| {
            all.push((m.gain, Move::new(m.path.to_vec()).unwrap()));
            ControlFlow::Continue(())
        });
        let ranked: Vec<(u32, Move)> = (0..all.len() as u64)
            .map(|k| {
                let mv = pos.ranked_move(k, seed, u64::MAX).unwrap();
                (pos.check(&mv).unwrap().gain, mv)
            })
            .collect();
        prop_assert!(ranked.windows(2).all(|w| w[0].0 >= w[1].0), "not by gain: {:?}", ranked);
        prop_assert!(pos.ranked_move(all.len() as u64, seed, u64::MAX).is_none());
        let again: Vec<Move> = (0..all.len() as u64).map(|k| pos.ranked_move(k, seed, u64::MAX).unwrap()).collect();
        prop_assert_eq!(&again, &ranked.iter().map(|(_, m)| m.clone()).collect::<Vec<_>>());
        let mut sorted = ranked;
        sorted.sort_by(|a, b| a.1.cmp(&b.1));
        all.sort_by(|a, b| a.1.cmp(&b.1));
        prop_assert_eq!(sorted, all);
    }

    /// `greedy_playout` plays what `greedy_move` and `play` (which checks
    /// every move) play from the same generator state.
    #[test]
    fn a_greedy_playout_plays_the_greedy_moves(seed in any::<u64>(), preset in 0usize..4, dirs in 0usize..4) {
        let start = any_position(seed, preset, dirs);
        let mut fast = start.clone();
        let plies = fast.greedy_playout(&mut rng(seed ^ 3), 6, 10_000);
        let mut slow = start.clone();
        let mut r = rng(seed ^ 3);
        for _ in 0..6 {
            let Some((mv, gain)) = slow.greedy_move(&mut r, 10_000) else { break };
            let played = slow.play(&mv).map_err(|e| TestCaseError::fail(format!("{mv}: {e}")))?;
            prop_assert_eq!(played.gain, gain);
        }
        prop_assert_eq!(fast.to_string(), slow.to_string());
        prop_assert_eq!(plies, slow.ply() - start.ply());
    }
}

/// Perft by playing every move of every sequence, one position at a time.
fn played_out(pos: &jump_capture::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves_unbounded()
        .iter()
        .map(|mv| {
            let mut next = pos.clone();
            next.play(mv).unwrap();
            played_out(&next, depth - 1)
        })
        .sum()
}

proptest! {
    #[test]
    fn moves_order_by_notation_as_strings_do(a in proptest::collection::vec(cell(), 1..5), b in proptest::collection::vec(cell(), 1..5)) {
        let (a, b) = (Move::new(a).unwrap(), Move::new(b).unwrap());
        prop_assert_eq!(a.cmp_notation(&b), a.to_string().cmp(&b.to_string()));
    }

    #[test]
    fn the_walk_gives_what_playing_each_move_captures_and_scores(seed in any::<u64>(), preset in 0usize..4) {
        let (_, pos) = random_position(Preset::ALL[preset], DirectionSet::All, &mut rng(seed));
        let mut checked = 0;
        let mut outcome = Ok(());
        pos.for_each_move(None, |m| {
            let mv = Move::new(m.path.to_vec()).unwrap();
            let played = pos.check(&mv).unwrap();
            let captured: Vec<_> = played.captures.iter().map(|c| c.0).collect();
            let walked: Vec<_> = m.captures().collect();
            if walked != captured || m.gain != played.gain {
                outcome = Err(format!("{mv}: walked {walked:?} for {}, played {captured:?} for {}", m.gain, played.gain));
                return ControlFlow::Break(());
            }
            checked += 1;
            if checked == 200 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        });
        prop_assert_eq!(outcome, Ok(()));
    }
}
