//! Rule book §2 and §5 on owned pieces, for custom rule sets: pieces are
//! all shared or all owned (a rule set that mixes them, or names owners of
//! shared pieces, is refused naming the kind); under owned pieces a
//! removal takes one of the remover's own (a first-player removal of
//! other players' kinds only is refused). A rule set stored before these
//! decisions still plays as it did. And, over random owned rule sets and
//! random play: every move moves the mover's piece, every capture takes
//! another player's.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

mod common;

use common::rng;
use jump_capture::{
    Capture, Chain, DirectionSet, EndRule, Fill, Kind, Opening, Position, Preset, Rules, RulesError,
    RulesSpec, Square,
};
use proptest::prelude::*;
use rand::RngExt;

fn kind(letter: char, owner: Option<usize>) -> Kind {
    Kind { letter, name: letter.to_string(), value: 1, owner }
}

/// A 6×6 game of kinds `kinds`, pieces `capture`, with `opening`.
fn spec(kinds: Vec<Kind>, capture: Capture, opening: Opening) -> RulesSpec {
    let weights = vec![1; kinds.len()];
    RulesSpec {
        name: "custom".into(),
        kinds,
        fill: Fill::Random { weights },
        capture,
        opening,
        min_players: 2,
        max_players: 2,
        ..Preset::Old.spec().with_size(6, 6)
    }
}

#[test]
fn a_kind_with_an_owner_among_shared_pieces_is_refused_naming_it() {
    let refused = Rules::new(spec(
        vec![kind('A', None), kind('H', Some(1))],
        Capture::Shared,
        Opening::EachPlayerRemoves { kinds: None },
    ))
    .unwrap_err();
    assert_eq!(refused, RulesError::OwnerButShared { letter: 'H' });
    assert!(refused.to_string().starts_with("kind H has an owner, but the pieces are shared"), "{refused}");
}

#[test]
fn a_kind_without_an_owner_among_owned_pieces_is_refused_naming_it() {
    let refused = Rules::new(spec(vec![kind('A', Some(0)), kind('B', None)], Capture::Owned, Opening::None))
        .unwrap_err();
    assert_eq!(refused, RulesError::NoOwner { letter: 'B' });
    assert!(refused.to_string().starts_with("kind B has no owner, but the pieces are owned"), "{refused}");
    // None owned at all is refused as before.
    let none = Rules::new(spec(vec![kind('A', None)], Capture::Owned, Opening::None)).unwrap_err();
    assert_eq!(none, RulesError::NoOwners);
}

#[test]
fn a_first_player_removal_of_other_players_kinds_only_is_refused() {
    let owned = vec![kind('A', Some(0)), kind('B', Some(1))];
    let only_b = Opening::FirstPlayerRemoves { kinds: Some(vec!['B']) };
    let refused = Rules::new(spec(owned.clone(), Capture::Owned, only_b)).unwrap_err();
    assert_eq!(refused, RulesError::RemovalNotOwn { kinds: "B".into() });
    // Any kind, but the first player owns none.
    let theirs = vec![kind('A', Some(1)), kind('B', Some(1))];
    let any = Opening::FirstPlayerRemoves { kinds: None };
    assert_eq!(
        Rules::new(spec(theirs, Capture::Owned, any.clone())).unwrap_err(),
        RulesError::RemovalNotOwn { kinds: "any kind".into() }
    );
    // One of its own among them: accepted.
    let mine = Opening::FirstPlayerRemoves { kinds: Some(vec!['A', 'B']) };
    assert!(Rules::new(spec(owned.clone(), Capture::Owned, mine)).is_ok());
    assert!(Rules::new(spec(owned, Capture::Owned, any)).is_ok());
}

#[test]
fn every_preset_is_all_shared_or_all_owned() {
    for preset in Preset::ALL {
        for dirs in DirectionSet::ALL {
            assert!(Rules::new(preset.spec().with_directions(dirs)).is_ok(), "{preset:?} {dirs:?}");
        }
    }
}

#[test]
fn a_rule_set_stored_before_the_decisions_still_plays_as_it_did() {
    let small = |kinds, capture| RulesSpec { rows: 3, cols: 3, ..spec(kinds, capture, Opening::None) };
    // Owners among shared pieces were ignored: player 0 moves the kind
    // "owned" by player 1 as well as the unowned one.
    let shared = small(vec![kind('A', Some(1)), kind('B', None)], Capture::Shared);
    assert!(Rules::new(shared.clone()).is_err());
    let pos =
        Position::from_setup(Rules::stored(shared).unwrap(), &"AB1/BAA/AAB 0 0,0".parse().unwrap()).unwrap();
    assert_eq!(common::moves(&pos), ["a3xc3", "c1xc3"]);
    // Unowned pieces among owned ones neither moved nor were captured:
    // c1 may not jump the unowned b1; c3 jumps player 1's b3.
    let mixed = small(vec![kind('A', Some(0)), kind('N', None), kind('B', Some(1))], Capture::Owned);
    assert!(Rules::new(mixed.clone()).is_err());
    let pos =
        Position::from_setup(Rules::stored(mixed).unwrap(), &"1BA/NNN/1NA 0 0,0".parse().unwrap()).unwrap();
    assert_eq!(common::moves(&pos), ["c3xa3"]);
}

/// A random owned rule set: 2 to 4 players, 2 to 4 kinds, each owned by
/// one of the players and each player owning one at least (the first
/// player the first kind, so that any first-player removal has one of its
/// own), a third of the cells empty,
/// any direction set and chain, and an opening of none, each player
/// removes, or the first player removes (any kind, or some kinds including
/// one of its own).
fn owned_spec(seed: u64) -> RulesSpec {
    let mut rng = rng(seed);
    let players = rng.random_range(2..=4usize);
    let kinds: Vec<Kind> = (0..rng.random_range(players..=4usize))
        .map(|i| {
            let owner = if i < players { i } else { rng.random_range(0..players) };
            Kind {
                letter: char::from(b'A' + i as u8),
                name: format!("k{i}"),
                value: rng.random_range(0..=4),
                owner: Some(owner),
            }
        })
        .collect();
    let opening = match rng.random_range(0..4) {
        0 => Opening::None,
        1 => Opening::EachPlayerRemoves { kinds: None },
        2 => Opening::FirstPlayerRemoves { kinds: None },
        _ => Opening::FirstPlayerRemoves { kinds: Some(vec!['A', kinds[kinds.len() - 1].letter]) },
    };
    let (rows, cols) = (rng.random_range(4..=7u8), rng.random_range(4..=7u8));
    // A third of the cells start empty: room to jump.
    let holes = (0..rows)
        .flat_map(|r| (0..cols).map(move |f| (f, r)))
        .filter(|_| rng.random_bool(0.3))
        .filter_map(|(f, r)| jump_capture::Cell::new(f, r))
        .collect();
    RulesSpec {
        name: "owned".into(),
        rows,
        cols,
        mask: Vec::new(),
        holes,
        directions: DirectionSet::ALL[rng.random_range(0..DirectionSet::ALL.len())],
        fill: Fill::Random { weights: kinds.iter().map(|_| rng.random_range(1..=3)).collect() },
        kinds,
        capture: Capture::Owned,
        chain: if rng.random_bool(0.5) { Chain::Free } else { Chain::Straight },
        opening,
        removals_score: rng.random_bool(0.5),
        end: if rng.random_bool(0.5) { EndRule::HighestScore } else { EndRule::NoMoveLoses },
        min_players: players,
        max_players: players,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn under_owned_pieces_every_move_is_the_movers_and_every_capture_anothers(seed in any::<u64>()) {
        let spec = owned_spec(seed);
        let players = spec.max_players;
        let owner = |letter: char| spec.kinds.iter().find(|k| k.letter == letter).and_then(|k| k.owner);
        let rules = Rules::new(spec.clone()).unwrap();
        let (mut pos, _) = Position::start(rules, players, Some(seed)).unwrap();
        let mut rng = rng(seed ^ 1);
        for _ in 0..40 {
            let moves = pos.legal_moves_unbounded();
            if moves.is_empty() {
                break;
            }
            let mover = pos.to_move();
            let grid = pos.grid();
            for m in &moves {
                let Some(Square::Piece(letter)) = grid.get(m.path()[0]) else {
                    panic!("{m} starts on no piece");
                };
                prop_assert_eq!(owner(letter), Some(mover), "{} moves {}'s piece", m, letter);
            }
            let mv = moves[rng.random_range(0..moves.len())].clone();
            let opening = pos.is_opening();
            let played = pos.play(&mv).unwrap();
            for &(cell, letter) in &played.captures {
                if opening {
                    prop_assert_eq!(owner(letter), Some(mover), "a removal at {} takes one of the remover's own", cell);
                } else {
                    prop_assert_ne!(owner(letter), Some(mover), "{} captures the mover's own piece at {}", mv, cell);
                }
            }
        }
    }
}
