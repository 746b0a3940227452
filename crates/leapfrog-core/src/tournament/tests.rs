//! The pairings' properties over random events: Swiss rounds pair every
//! active player once, never twice the same two where a pairing without
//! a rematch exists (checked by trying every pairing), give a bye at
//! most once a player and keep every player's seats balanced within one;
//! a round-robin pairs each two players once (twice, seats swapped, in a
//! double); standings add up.

#![allow(clippy::unwrap_used)] // a failed unwrap is a failed test

use proptest::prelude::*;

use super::*;

/// Plays `rounds` Swiss rounds of `players` with results drawn from
/// `seed`; calls `check` with the history before each round and the round.
fn play_swiss(
    players: usize,
    rounds: usize,
    seed: u64,
    mut check: impl FnMut(&History, &SwissRound),
) -> History {
    let mut h = History::new(players);
    let mut s = seed | 1;
    for _ in 0..rounds {
        let round = swiss_round(&h);
        check(&h, &round);
        let games = round
            .games
            .iter()
            .map(|g| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let outcome = [Outcome::FirstWins, Outcome::SecondWins, Outcome::Draw][(s % 3) as usize];
                Pairing { outcome: Some(outcome), ..*g }
            })
            .collect();
        h.rounds.push(Round { games, bye: round.bye });
    }
    h
}

/// Whether the players of `left` can all be paired without a rematch
/// (one of those `may_sit_out` sitting out if they are odd), by trying
/// every pairing.
fn pairable_without_rematch(
    left: &[Entrant],
    may_sit_out: &dyn Fn(Entrant) -> bool,
    met: &dyn Fn(Entrant, Entrant) -> bool,
) -> bool {
    if left.len() % 2 == 1 {
        return left.iter().any(|&out| {
            let rest: Vec<Entrant> = left.iter().copied().filter(|&p| p != out).collect();
            may_sit_out(out) && pairable_without_rematch(&rest, may_sit_out, met)
        });
    }
    let Some((&a, rest)) = left.split_first() else { return true };
    rest.iter().any(|&b| {
        !met(a, b) && {
            let others: Vec<Entrant> = rest.iter().copied().filter(|&x| x != b).collect();
            pairable_without_rematch(&others, may_sit_out, met)
        }
    })
}

fn met_in(h: &History, a: Entrant, b: Entrant) -> bool {
    h.games().any(|g| g.opponent_of(a) == Some(b))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn swiss_rounds_pair_everyone_once_without_rematches_or_second_byes(
        players in 2usize..11, rounds in 1usize..9, seed in any::<u64>()
    ) {
        play_swiss(players, rounds, seed, |h, round| {
            let mut seen = vec![0; players];
            for g in &round.games {
                seen[g.first] += 1;
                seen[g.second] += 1;
            }
            if let Some(b) = round.bye {
                seen[b] += 1;
                let byes = h.rounds.iter().filter(|r| r.bye == Some(b)).count();
                // A second bye only once everyone has had one.
                let everyone = (0..players).all(|p| h.rounds.iter().any(|r| r.bye == Some(p)));
                assert!(byes == 0 || everyone, "{b} has a second bye");
            }
            assert!(seen.iter().all(|&k| k == 1), "{seen:?}");
            assert_eq!(round.bye.is_some(), players % 2 == 1);
            let rematches = round.games.iter().any(|g| met_in(h, g.first, g.second));
            if rematches {
                // Avoidable only by a bye the rule allows: to one of those
                // with the fewest.
                let all: Vec<Entrant> = (0..players).collect();
                let byes = |p| h.rounds.iter().filter(|r| r.bye == Some(p)).count();
                let fewest = all.iter().map(|&p| byes(p)).min().unwrap();
                let may_sit_out = |p| byes(p) == fewest;
                assert!(!pairable_without_rematch(&all, &may_sit_out, &|a, b| met_in(h, a, b)), "a rematch was avoidable");
                assert!(round.relaxed >= Relaxed::Rematches);
            }
        });
    }

    #[test]
    fn swiss_seats_stay_within_one_of_even_unless_no_pairing_without_a_rematch_allows_it(
        players in 4usize..11, rounds in 1usize..7, seed in any::<u64>()
    ) {
        let balance = |h: &History, p: Entrant| -> i32 {
            h.games().map(|g| if g.first == p { 1 } else if g.second == p { -1 } else { 0 }).sum()
        };
        let mut kept = true;
        let h = play_swiss(players, rounds, seed, |h, round| {
            if matches!(round.relaxed, Relaxed::Seats | Relaxed::SeatsAndRematches) {
                // No pairing (with a bye the rule allows) kept the seats
                // (and no rematch, if none was played).
                let all: Vec<Entrant> = (0..players).collect();
                let byes = |p| h.rounds.iter().filter(|r| r.bye == Some(p)).count();
                let fewest = all.iter().map(|&p| byes(p)).min().unwrap();
                let may_sit_out = |p| byes(p) == fewest;
                let both = |a, b| {
                    let (da, db) = (balance(h, a), balance(h, b));
                    let rematch = round.relaxed == Relaxed::Seats && met_in(h, a, b);
                    let same_seat_due = da != 0 && da.signum() == db.signum();
                    !(rematch || same_seat_due)
                };
                assert!(!pairable_without_rematch(&all, &may_sit_out, &|a, b| !both(a, b)), "seats gave way needlessly");
                kept = false;
            }
        });
        if kept {
            for p in 0..players {
                assert!(balance(&h, p).abs() <= 1, "player {p}: {}", balance(&h, p));
            }
        }
    }

    #[test]
    fn round_robins_pair_each_two_once_or_twice_with_seats_swapped(players in 1usize..20, double in any::<bool>()) {
        let rounds = berger_rounds(players, double);
        let mut times = vec![0; players * players];
        for round in &rounds {
            let mut busy = vec![false; players];
            for g in &round.games {
                assert!(!busy[g.first] && !busy[g.second]);
                busy[g.first] = true;
                busy[g.second] = true;
                times[g.first * players + g.second] += 1;
            }
            if let Some(b) = round.bye {
                assert!(!busy[b]);
            }
        }
        for a in 0..players {
            for b in 0..players {
                if a == b {
                    continue;
                }
                let (ab, ba) = (times[a * players + b], times[b * players + a]);
                if double {
                    assert_eq!((ab, ba), (1, 1), "{a} and {b}");
                } else {
                    assert_eq!(ab + ba, 1, "{a} and {b}");
                }
            }
        }
    }

    #[test]
    fn standings_list_everyone_once_and_their_points_add_up(players in 2usize..16, seed in any::<u64>()) {
        let h = play_swiss(players, 4, seed, |_, _| {});
        let order = [Tiebreak::Buchholz, Tiebreak::SonnebornBerger, Tiebreak::DirectEncounter, Tiebreak::Wins];
        let table = standings(&h, &order);
        let mut who: Vec<Entrant> = table.iter().map(|s| s.entrant).collect();
        who.sort_unstable();
        assert_eq!(who, (0..players).collect::<Vec<_>>());
        // Every game hands out a win's points; every bye one.
        let total: Points = table.iter().map(|s| s.points).sum();
        assert_eq!(total, WIN * (h.games().count() + h.rounds.iter().filter(|r| r.bye.is_some()).count()) as Points);
        assert!(table.windows(2).all(|w| w[0].points >= w[1].points));
        assert_eq!(table.iter().map(|s| s.place).collect::<Vec<_>>(), (1..=players).collect::<Vec<_>>());
    }
}

/// Standings by hand: four players, two rounds.
///
/// Round 1: 0 beats 1, 2 and 3 draw. Round 2: 0 beats 2, 1 beats 3.
/// Points: 0: 4 (2.0), 1: 2 (1.0), 2: 1 (0.5), 3: 1 (0.5).
/// Buchholz: 0: 1 + 0.5 = 1.5; 1: 2 + 0.5 = 2.5; 2: 0.5 + 2 = 2.5; 3: 0.5 + 1 = 1.5.
/// Sonneborn–Berger: 0: 1 + 0.5 = 1.5; 1: 0.5; 2: ½·0.5 = 0.25; 3: ½·0.5 = 0.25.
#[test]
fn standings_by_hand() {
    let played = |first, second, outcome| Pairing { first, second, outcome: Some(outcome), forfeit: false };
    let mut h = History::new(4);
    h.rounds.push(Round {
        games: vec![played(0, 1, Outcome::FirstWins), played(2, 3, Outcome::Draw)],
        bye: None,
    });
    h.rounds.push(Round {
        games: vec![played(2, 0, Outcome::SecondWins), played(1, 3, Outcome::FirstWins)],
        bye: None,
    });
    let order = [Tiebreak::Buchholz, Tiebreak::SonnebornBerger, Tiebreak::DirectEncounter, Tiebreak::Wins];
    let table = standings(&h, &order);
    let lines: Vec<(Entrant, Points, Vec<f64>)> =
        table.iter().map(|s| (s.entrant, s.points, s.tiebreaks.iter().map(|t| t.1).collect())).collect();
    assert_eq!(
        lines,
        [
            (0, 4, vec![1.5, 1.5, 0.0, 2.0]),
            (1, 2, vec![2.5, 0.5, 0.0, 1.0]),
            // 2 and 3 are level on points; Buchholz puts 2 first, and
            // their draw leaves direct encounter level.
            (2, 1, vec![2.5, 0.25, 0.0, 0.0]),
            (3, 1, vec![1.5, 0.25, 0.0, 0.0]),
        ]
    );
}

#[test]
fn direct_encounter_separates_players_level_on_everything_before_it() {
    // 0 beat 1, and the two are level on points (3 each, 1.5 points);
    // direct encounter puts 0 before 1.
    let played = |first, second, outcome| Pairing { first, second, outcome: Some(outcome), forfeit: false };
    let mut h = History::new(4);
    h.rounds.push(Round {
        games: vec![played(0, 1, Outcome::FirstWins), played(2, 3, Outcome::FirstWins)],
        bye: None,
    });
    h.rounds.push(Round {
        games: vec![played(0, 2, Outcome::SecondWins), played(1, 3, Outcome::FirstWins)],
        bye: None,
    });
    h.rounds.push(Round { games: vec![played(0, 3, Outcome::Draw), played(1, 2, Outcome::Draw)], bye: None });
    let table = standings(&h, &[Tiebreak::DirectEncounter]);
    let order: Vec<Entrant> = table.iter().map(|s| s.entrant).collect();
    assert_eq!(order, [2, 0, 1, 3]);
    assert_eq!(table[1].tiebreaks, vec![(Tiebreak::DirectEncounter, 1.0)]);
    assert_eq!(table[2].tiebreaks, vec![(Tiebreak::DirectEncounter, 0.0)]);
}

#[test]
fn the_first_swiss_round_pairs_the_top_half_against_the_bottom_half() {
    let round = swiss_round(&History::new(8));
    let pairs: Vec<(Entrant, Entrant)> = round.games.iter().map(|g| (g.first, g.second)).collect();
    // 1-5, 2-6, 3-7, 4-8 (numbered from 1); the higher seed first.
    assert_eq!(pairs, [(0, 4), (1, 5), (2, 6), (3, 7)]);
    assert_eq!(round.bye, None);
    // An odd field: the lowest seed sits out.
    assert_eq!(swiss_round(&History::new(7)).bye, Some(6));
}

#[test]
fn a_withdrawn_player_is_not_paired() {
    let mut h = History::new(5);
    h.withdrawn.push(2);
    let round = swiss_round(&h);
    assert!(round.games.iter().all(|g| g.opponent_of(2).is_none()));
    assert_eq!(round.bye, None);
}
