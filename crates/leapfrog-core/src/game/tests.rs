//! Rule book §11, rule by rule, on the game core alone: no database, no
//! clock (the time is given), no sleeping.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use jump_capture as jc;
use jump_search::Level;

use super::*;

const T0: i64 = 1_000_000;
/// The service's budget of a start's moves.
const BUDGET: jc::PathBudget = jc::PathBudget::new(1_000_000);

fn name(n: &str) -> PlayerName {
    PlayerName::parse(n).unwrap()
}

fn person(n: &str) -> NewSeat {
    NewSeat::Person(name(n))
}

/// A game of `seats` on a 4×4 `old` board (or Konane's 4×4 for two
/// owners), dealt at `T0`, with a move limit if given.
fn game(seats: Vec<NewSeat>, move_limit: Option<u32>) -> Game {
    let rules = Arc::new(jc::Rules::new(jc::Preset::Old.spec().with_size(4, 4)).unwrap());
    let new = NewGame {
        id: "g".into(),
        max_moves: BUDGET,
        rules,
        seats,
        seed: 5,
        seed_chosen: false,
        move_limit,
        client: String::new(),
        rated: false,
    };
    Game::new(new, T0).unwrap()
}

/// A rated game of `seats` on `rules`, or why it is refused.
fn rated(rules: jc::RulesSpec, seats: Vec<NewSeat>) -> Result<Game, RuleError> {
    let rules = Arc::new(jc::Rules::new(rules).unwrap());
    let new = NewGame {
        max_moves: BUDGET,
        id: "r".into(),
        rules,
        seats,
        seed: 5,
        seed_chosen: false,
        move_limit: None,
        client: String::new(),
        rated: true,
    };
    Game::new(new, T0)
}

fn account(id: &str) -> NewSeat {
    NewSeat::Account(SeatAccount { id: id.into(), bot: false }, name(id))
}

fn join(
    game: &Game,
    who: &str,
    seat: Option<usize>,
    invited: &[usize],
    with_invitation: bool,
) -> Result<(Game, Vec<Change>), RuleError> {
    let command =
        Command::Join { name: name(who), seat, with_invitation, invited: invited.to_vec(), account: None };
    game.apply(command, T0 + 10)
}

/// The first move the rules allow the player to move.
fn first_move(game: &Game) -> jc::Move {
    game.position().legal_moves(jc::PathBudget::default()).unwrap().remove(0)
}

fn play(game: &Game, at: i64) -> (Game, Vec<Change>) {
    let player = game.position().to_move();
    game.apply(Command::Play { player, mv: Ok(first_move(game)) }, at).unwrap()
}

#[test]
fn a_game_with_an_open_seat_waits_and_nothing_is_played_not_even_a_removal() {
    let g = game(vec![person("Ann"), NewSeat::Open(Visibility::Public)], None);
    assert_eq!(g.status(), GameStatus::Waiting);
    assert!(g.position().is_opening(), "the opening removal is not played either");
    let refused = g.apply(Command::Play { player: 0, mv: Ok(first_move(&g)) }, T0).unwrap_err();
    assert!(matches!(refused, RuleError::Waiting), "{refused:?}");
}

#[test]
fn taking_the_last_open_seat_starts_the_game_and_its_first_turn() {
    let g = game(vec![person("Ann"), NewSeat::Open(Visibility::Public)], Some(60));
    let (g, changes) = join(&g, "Bob", None, &[], false).unwrap();
    assert_eq!(changes, [Change::Joined { player: 1 }, Change::Started]);
    assert_eq!((g.status(), g.version(), g.seats()[1].name.as_str()), (GameStatus::Started, 2, "Bob"));
    assert_eq!(g.turn_ends_at(), Some(T0 + 10 + 60_000), "the first turn starts when the last seat is taken");
}

#[test]
fn a_private_seat_is_taken_only_with_its_invitation() {
    let g = game(vec![person("Ann"), NewSeat::Open(Visibility::Private)], None);
    assert!(matches!(join(&g, "Bob", Some(1), &[], false), Err(RuleError::Invitation)));
    assert!(matches!(join(&g, "Bob", None, &[], false), Err(RuleError::NoOpenSeat)));
    assert!(matches!(join(&g, "Bob", None, &[], true), Err(RuleError::Invitation)), "a wrong invitation");
    let (g, _) = join(&g, "Bob", None, &[1], true).unwrap();
    assert_eq!(g.seats()[1].holder, Holder::Person);
}

#[test]
fn a_held_seat_cannot_be_joined_and_a_missing_one_is_named() {
    let g = game(vec![person("Ann"), NewSeat::Open(Visibility::Public)], None);
    assert!(matches!(join(&g, "Bob", Some(0), &[], false), Err(RuleError::SeatTaken { player: 0 })));
    assert!(matches!(
        join(&g, "Bob", Some(5), &[], false),
        Err(RuleError::NoSuchSeat { player: 5, seats: 2 })
    ));
    let (started, _) = join(&g, "Bob", None, &[], false).unwrap();
    assert!(matches!(join(&started, "Cy", None, &[], false), Err(RuleError::NotWaiting)));
}

#[test]
fn a_seat_left_while_waiting_opens_again_to_whom_it_was_open_before() {
    let g = game(
        vec![person("Ann"), NewSeat::Open(Visibility::Private), NewSeat::Open(Visibility::Public)],
        None,
    );
    let (g, _) = join(&g, "Bob", None, &[1], true).unwrap();
    let (left, changes) = g.apply(Command::Leave { player: 1, private: true }, T0 + 20).unwrap();
    assert_eq!(changes, [Change::Left { player: 1 }]);
    assert_eq!(left.seats()[1].holder, Holder::Open(Visibility::Private));
    // The creator's own seat, never open, opens to anyone.
    let (left, _) = g.apply(Command::Leave { player: 0, private: false }, T0 + 20).unwrap();
    assert_eq!(left.seats()[0].holder, Holder::Open(Visibility::Public));
}

#[test]
fn once_every_seat_is_held_seats_are_resigned_not_left_and_a_waiting_game_is_not_resigned() {
    let waiting = game(vec![person("Ann"), NewSeat::Open(Visibility::Public)], None);
    assert!(matches!(waiting.apply(Command::Resign { player: 0 }, T0), Err(RuleError::Waiting)));
    let started = game(vec![person("Ann"), person("Bob")], None);
    let refused = started.apply(Command::Leave { player: 0, private: false }, T0).unwrap_err();
    assert!(matches!(refused, RuleError::NotWaiting), "{refused:?}");
}

#[test]
fn with_two_players_a_resignation_ends_the_game_at_once_on_any_turn_and_the_other_wins() {
    let g = game(vec![person("Ann"), person("Bob")], None);
    let (g, _) = play(&g, T0 + 1);
    // Bob is to move; Ann resigns.
    let (over, changes) = g.apply(Command::Resign { player: 0 }, T0 + 2).unwrap();
    assert_eq!(changes, [Change::Resigned { player: 0 }, Change::Over]);
    let result = over.result().unwrap();
    assert_eq!(result.outcome.winners, [1], "whatever the scores");
    assert!(result.by_resignation);
    assert!(matches!(over.apply(Command::Resign { player: 1 }, T0 + 3), Err(RuleError::Over)));
}

#[test]
fn with_three_players_the_computer_plays_a_resigned_seat_which_ranks_last() {
    let g = game(vec![person("Ann"), person("Bob"), person("Cy")], None);
    let (g, changes) = g.apply(Command::Resign { player: 1 }, T0 + 1).unwrap();
    assert_eq!(changes, [Change::Resigned { player: 1 }], "the game goes on");
    assert!(matches!(
        g.apply(Command::Resign { player: 1 }, T0 + 2),
        Err(RuleError::AlreadyResigned { player: 1 })
    ));
    // Ann moves; then it is the resigned seat's turn, the computer's.
    let (g, _) = play(&g, T0 + 3);
    assert_eq!(g.computer_to_move(), Some(RESIGNED_LEVEL));
    let refused = g.apply(Command::Play { player: 1, mv: Ok(first_move(&g)) }, T0 + 4).unwrap_err();
    assert!(
        matches!(refused, RuleError::AlreadyResigned { player: 1 }),
        "its holder no longer plays it: {refused:?}"
    );
    let (g, changes) = g.apply(Command::PlayForComputer { mv: first_move(&g) }, T0 + 4).unwrap();
    assert!(matches!(&changes[0], Change::Moved(m) if m.computer && m.player == 1));
    // However the game ends, the resigned seat ranks after the others.
    let (g, _) = g.apply(Command::Resign { player: 2 }, T0 + 5).unwrap();
    let (over, _) = g.apply(Command::Resign { player: 0 }, T0 + 6).unwrap();
    let last = over.result().unwrap().outcome.standings.last().unwrap().player;
    assert!(over.result().unwrap().resigned[last]);
}

#[test]
fn when_every_person_has_resigned_the_game_ends_even_with_computers_left() {
    let computer = NewSeat::Computer(Level::Greedy, name("Computer"));
    let g = game(vec![person("Ann"), computer.clone(), person("Bob")], None);
    let (g, _) = g.apply(Command::Resign { player: 0 }, T0 + 1).unwrap();
    assert_ne!(g.status(), GameStatus::Over, "a person still plays");
    let (g, changes) = g.apply(Command::Resign { player: 2 }, T0 + 2).unwrap();
    assert_eq!(changes, [Change::Resigned { player: 2 }, Change::Over]);
    assert!(g.result().unwrap().outcome.winners == [1], "the computer alone did not resign");
}

#[test]
fn a_seat_out_of_time_is_resigned_only_once_its_limit_has_passed_since_its_turn_began() {
    let g = game(vec![person("Ann"), person("Bob"), person("Cy")], Some(30));
    let (g, _) = play(&g, T0 + 1_000);
    // Bob's turn began with Ann's move.
    let (same, changes) = g.apply(Command::TimeOut, T0 + 1_000 + 29_999).unwrap();
    assert!(changes.is_empty() && same.version() == g.version(), "not yet");
    let (g, changes) = g.apply(Command::TimeOut, T0 + 1_000 + 30_000).unwrap();
    assert_eq!(changes, [Change::TimedOut { player: 1 }]);
    assert_eq!(g.seats()[1].resigned, Some(Resignation::TimedOut));
    // The computer plays it now, and has no limit.
    assert_eq!((g.computer_to_move(), g.turn_ends_at()), (Some(RESIGNED_LEVEL), None));
}

#[test]
fn a_resignation_of_another_seat_does_not_restart_the_clock_of_the_seat_to_move() {
    let g = game(vec![person("Ann"), person("Bob"), person("Cy")], Some(30));
    let ends = g.turn_ends_at();
    let (g, _) = g.apply(Command::Resign { player: 2 }, T0 + 10_000).unwrap();
    assert_eq!(g.turn_ends_at(), ends);
}

#[test]
fn a_postponed_turn_counts_from_its_new_start_and_is_one_change_of_the_game() {
    let day = 86_400;
    let g = game(vec![person("Ann"), person("Bob")], Some(day));
    assert!(g.long());
    let ends = g.turn_ends_at().unwrap();
    let postpone = Command::Postpone { turn_at: T0 + DAY_MS, reason: Postponement::VacationDay };
    let (g2, changes) = g.apply(postpone.clone(), ends).unwrap();
    assert_eq!(changes, [Change::Postponed { player: 0, reason: Postponement::VacationDay }]);
    assert_eq!((g2.turn_ends_at(), g2.version()), (Some(ends + DAY_MS), g.version() + 1));
    // No clock, no postponement: a game of seconds is long only from a day a move.
    let quick = game(vec![person("Ann"), person("Bob")], Some(60));
    assert!(!quick.long());
    let untimed = game(vec![person("Ann"), person("Bob")], None);
    let (same, changes) = untimed.apply(postpone, T0).unwrap();
    assert!(changes.is_empty() && same.version() == untimed.version());
}

#[test]
fn computer_seats_have_no_time_limit() {
    let computer = NewSeat::Computer(Level::Greedy, name("Computer"));
    let g = game(vec![computer, person("Ann")], Some(30));
    assert_eq!(g.turn_ends_at(), None);
    let (same, changes) = g.apply(Command::TimeOut, T0 + 10_000_000).unwrap();
    assert!(changes.is_empty() && same.version() == g.version());
}

#[test]
fn a_move_time_limit_is_five_seconds_to_fourteen_days() {
    let rules = Arc::new(jc::Preset::Old.rules());
    for (limit, ok) in [(4, false), (5, true), (14 * 24 * 3600, true), (14 * 24 * 3600 + 1, false)] {
        let new = NewGame {
            max_moves: BUDGET,
            id: "g".into(),
            rules: rules.clone(),
            seats: vec![person("A"), person("B")],
            seed: 1,
            seed_chosen: false,
            move_limit: Some(limit),
            client: String::new(),
            rated: false,
        };
        assert_eq!(Game::new(new, T0).is_ok(), ok, "{limit} s");
    }
}

#[test]
fn only_the_seat_to_move_plays_and_only_legal_moves() {
    let g = game(vec![person("Ann"), person("Bob")], None);
    let refused = g.apply(Command::Play { player: 1, mv: Ok(first_move(&g)) }, T0).unwrap_err();
    assert!(matches!(refused, RuleError::NotYourTurn { to_move: 0, seat: 1 }));
    let jump: jc::Move = "a1xa3".parse().unwrap();
    assert!(matches!(g.apply(Command::Play { player: 0, mv: Ok(jump) }, T0), Err(RuleError::Illegal(_))));
    let unread = Unreadable { detail: "no".into(), field: "path".into() };
    assert!(matches!(g.apply(Command::Play { player: 0, mv: Err(unread) }, T0), Err(RuleError::Invalid(_))));
    let refused = g.apply(Command::PlayForComputer { mv: first_move(&g) }, T0).unwrap_err();
    assert!(matches!(refused, RuleError::NotYourTurn { .. }), "the computer holds no seat to move");
    let (next, changes) = play(&g, T0 + 5);
    assert_eq!((next.version(), next.position().ply(), next.turn_at()), (2, 1, T0 + 5));
    assert!(
        matches!(&changes[..], [Change::Moved(m)] if m.ply == 0 && m.captures.len() == 1 && m.captures[0].kind == 'O')
    );
}

#[test]
fn playing_again_rotates_the_seats_keeps_their_kinds_and_deals_anew() {
    let computer = NewSeat::Computer(Level::Greedy, name("Computer"));
    let g = game(vec![person("Ann"), computer, person("Bob")], Some(60));
    assert!(matches!(g.rematch_game("r".into(), 9, String::new(), T0, BUDGET), Err(RuleError::NotOver)));
    let (g, _) = g.apply(Command::Resign { player: 0 }, T0 + 1).unwrap();
    let (over, _) = g.apply(Command::Resign { player: 2 }, T0 + 2).unwrap();
    let next = over.rematch_game("r".into(), 9, "client".into(), T0 + 3, BUDGET).unwrap();
    let seats: Vec<(&str, Holder)> = next.seats().iter().map(|s| (s.name.as_str(), s.holder)).collect();
    assert_eq!(
        seats,
        [("Computer", Holder::Computer(Level::Greedy)), ("Bob", Holder::Person), ("Ann", Holder::Person)]
    );
    assert!(next.seats().iter().all(|s| s.resigned.is_none()), "a resigned person plays again as a person");
    assert_eq!((next.id(), next.seed(), next.move_limit(), next.version()), ("r", 9, Some(60), 1));
}

#[test]
fn a_start_with_more_moves_than_a_request_lists_is_not_dealt() {
    // 11×11 `old`, full but for the cells on even files and ranks:
    // every prefix of every chain is a move.
    let mut spec = jc::Preset::Old.spec().with_size(11, 11);
    spec.holes = (0..11u8)
        .flat_map(|r| (0..11u8).map(move |f| (r, f)))
        .filter(|&(r, f)| r % 2 == 0 && f % 2 == 0 && (r, f) != (0, 0))
        .filter_map(|(r, f)| jc::Cell::new(r, f))
        .collect();
    spec.opening = jc::Opening::None;
    let rules = Arc::new(jc::Rules::new(spec).unwrap());
    let new = NewGame {
        max_moves: BUDGET,
        id: "g".into(),
        rules,
        seats: vec![person("A"), person("B")],
        seed: 1,
        seed_chosen: false,
        move_limit: None,
        client: String::new(),
        rated: false,
    };
    assert!(matches!(Game::new(new, T0), Err(RuleError::TooManyMoves { .. })));
}

/// Rule book §13: a rated game has only seats held by accounts (or open
/// for one), no computer seat, no account in two seats, a preset's rules
/// at any size and direction set.
#[test]
fn a_rated_game_has_account_seats_only_and_a_presets_rules() {
    let murray = || jc::Preset::Murray.spec().with_size(6, 6);
    let ok = rated(
        murray().with_directions(jc::DirectionSet::All),
        vec![account("ann"), NewSeat::Open(Visibility::Public)],
    )
    .unwrap();
    assert_eq!((ok.rated(), ok.pool().as_deref()), (true, Some("murray/all")));
    for seats in [
        vec![account("ann"), person("Bob")],
        vec![account("ann"), NewSeat::Computer(Level::Greedy, name("Computer"))],
        vec![account("ann"), account("ann")],
    ] {
        assert!(matches!(rated(murray(), seats), Err(RuleError::NotRateable(_))));
    }
    let mut changed = murray();
    changed.removals_score = !changed.removals_score;
    assert!(matches!(rated(changed, vec![account("ann"), account("bob")]), Err(RuleError::NotRateable(_))));
}

#[test]
fn a_rated_games_open_seat_is_joined_by_an_account_that_holds_no_other_seat() {
    let g = rated(
        jc::Preset::Old.spec().with_size(6, 6),
        vec![account("ann"), NewSeat::Open(Visibility::Public)],
    )
    .unwrap();
    assert!(matches!(join(&g, "Bob", None, &[], false), Err(RuleError::RatedNeedsAccount)));
    let as_ann = Command::Join {
        name: name("Ann"),
        seat: None,
        with_invitation: false,
        invited: vec![],
        account: Some(SeatAccount { id: "ann".into(), bot: false }),
    };
    assert!(matches!(g.apply(as_ann, T0), Err(RuleError::AlreadySeated { player: 0 })));
    let as_bob = Command::Join {
        name: name("Bob"),
        seat: None,
        with_invitation: false,
        invited: vec![],
        account: Some(SeatAccount { id: "bob".into(), bot: false }),
    };
    let (started, _) = g.apply(as_bob, T0).unwrap();
    assert_eq!(started.status(), GameStatus::Started);
    // Its rematch is rated too, the accounts keeping their seats.
    let (over, _) = started.apply(Command::Resign { player: 0 }, T0 + 1).unwrap();
    let next = over.rematch_game("n".into(), 1, String::new(), T0 + 2, BUDGET).unwrap();
    assert!(next.rated());
    assert_eq!(next.seats()[0].account.as_deref(), Some("bob"));
}

/// A rated 6×6 `old` game of the accounts `ids`, every seat held.
fn rated_of(ids: &[&str]) -> Game {
    let seats = ids.iter().map(|id| account(id)).collect();
    rated(jc::Preset::Old.spec().with_size(6, 6), seats).unwrap()
}

/// Rule book §13: a rated game ended before every seat made its first
/// move is aborted — over, no winner's rating, counted nowhere.
#[test]
fn a_rated_game_resigned_before_every_seat_moved_is_aborted() {
    // Resigned at ply 0, in the opening removal: the farmer's shortcut.
    let g = rated_of(&["ann", "bob"]);
    let (over, changes) = g.apply(Command::Resign { player: 1 }, T0 + 1).unwrap();
    assert_eq!(changes, [Change::Resigned { player: 1 }, Change::Over]);
    assert!(over.aborted() && over.result().unwrap().aborted);
    assert!(over.result().unwrap().outcome.winners.is_empty(), "nobody wins it");
    // The first player moved, the second never did: aborted too, whoever resigns.
    let (moved, _) = play(&g, T0 + 1);
    for player in [0, 1] {
        let (over, _) = moved.apply(Command::Resign { player }, T0 + 2).unwrap();
        assert_eq!(over.status(), GameStatus::Over);
        assert!(over.aborted(), "seat 1 never moved, seat {player} resigned");
    }
    // Once both have moved, a resignation is a result like any other.
    let (both, _) = play(&moved, T0 + 2);
    let (over, _) = both.apply(Command::Resign { player: 1 }, T0 + 3).unwrap();
    assert!(!over.aborted() && !over.result().unwrap().aborted);
    assert_eq!(over.result().unwrap().outcome.winners, [0]);
}

#[test]
fn a_seat_resigning_before_its_first_move_ends_a_rated_game_of_three_at_once() {
    let g = rated_of(&["ann", "bob", "cy"]);
    let (moved, _) = play(&g, T0 + 1);
    // Seat 2 has not moved: the game ends for everyone, aborted.
    let (over, changes) = moved.apply(Command::Resign { player: 2 }, T0 + 2).unwrap();
    assert_eq!(changes, [Change::Resigned { player: 2 }, Change::Over]);
    assert!(over.aborted());
    // Seat 0 has moved: the computer plays its seat, the game goes on (§11).
    let (on, changes) = moved.apply(Command::Resign { player: 0 }, T0 + 2).unwrap();
    assert_eq!(changes, [Change::Resigned { player: 0 }]);
    assert_eq!(on.status(), GameStatus::Started);
    // A casual game of three plays on whoever resigns (§11).
    let casual = game(vec![person("A"), person("B"), person("C")], None);
    let (on, _) = casual.apply(Command::Resign { player: 2 }, T0 + 1).unwrap();
    assert_eq!((on.status(), on.aborted()), (GameStatus::Started, false));
}

#[test]
fn running_out_of_time_before_the_first_move_aborts_a_rated_game() {
    let seats = vec![account("ann"), account("bob")];
    let rules = Arc::new(jc::Rules::new(jc::Preset::Old.spec().with_size(6, 6)).unwrap());
    let new = NewGame {
        max_moves: BUDGET,
        id: "t".into(),
        rules,
        seats,
        seed: 5,
        seed_chosen: false,
        move_limit: Some(60),
        client: String::new(),
        rated: true,
    };
    let g = Game::new(new, T0).unwrap();
    let (over, changes) = g.apply(Command::TimeOut, T0 + 61_000).unwrap();
    assert_eq!(changes, [Change::TimedOut { player: 0 }, Change::Over]);
    assert!(over.aborted());
}

/// Rule book §13: at least two seats, a board of at least 6×6, a deal
/// the server chose.
#[test]
fn a_rated_game_has_two_accounts_a_board_of_six_by_six_and_the_servers_deal() {
    let old = |n| jc::Preset::Old.spec().with_size(n, n);
    let refused = |r: Result<Game, RuleError>| match r {
        Err(RuleError::NotRateable(why)) => why,
        other => panic!("not refused: {other:?}"),
    };
    assert!(refused(rated(old(6), vec![account("ann")])).contains("at least two seats"));
    assert!(refused(rated(old(5), vec![account("ann"), account("bob")])).contains("at least 6×6"));
    let wide = jc::Preset::Konane.spec().with_size(4, 12);
    assert!(refused(rated(wide, vec![account("ann"), account("bob")])).contains("4×12"));
    let chosen = NewGame {
        max_moves: BUDGET,
        id: "s".into(),
        rules: Arc::new(jc::Rules::new(old(6)).unwrap()),
        seats: vec![account("ann"), account("bob")],
        seed: 5,
        seed_chosen: true,
        move_limit: None,
        client: String::new(),
        rated: true,
    };
    assert!(refused(Game::new(chosen, T0)).contains("no seed"));
    // The same, unrated, are fine casual games.
    assert!(!game(vec![person("A"), person("B")], None).rated());
}
