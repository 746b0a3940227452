//! The games service without HTTP: a game is created, played and refused
//! through `leapfrog::play::Games` on a real SQLite store, the way the
//! handlers and the computer's seats use it.

use leapfrog::events::{Hub, StreamLimits};
use leapfrog::game::{
    Credential, Expected, Holder, IdempotencyKey, MoveOutcome, MoveRequest, NewSeat, PlayerName, RuleError,
};
use leapfrog::play::GameError;
use leapfrog::play::{Created, Creator, Games};
use leapfrog::store::{Durability, Store};

fn request(token: &leapfrog::game::SeatToken, path: &[&str]) -> MoveRequest {
    MoveRequest {
        credential: Credential::Seat(token.clone()),
        expected: None,
        key: None,
        mv: Ok(path.join("x").parse().unwrap()),
    }
}

/// The games service of `store`, with a hub nobody follows.
fn service(store: &Store) -> Games {
    let hub = Hub::new(store.clone(), StreamLimits { total: 1, per_game: 1, per_client: 0 });
    Games::new(store.clone(), hub).0
}

#[test]
fn a_game_is_played_refused_and_replayed_through_the_domain() {
    let db = crate::common::temp_db();
    let _files = crate::common::TempFiles::of_url(&format!("sqlite://{}", db.display()));
    actix_web::rt::System::new().block_on(async move {
        let store = Store::open(&format!("sqlite://{}", db.display()), Durability::Full).await.unwrap();
        let games = service(&store);
        let rules = jump_capture::Rules::new(jump_capture::Preset::Old.spec().with_size(4, 4)).unwrap();
        let rules = std::sync::Arc::new(rules);
        let names = vec![
            NewSeat::Person(PlayerName::parse("Ann").unwrap()),
            NewSeat::Person(PlayerName::parse(" Bo ").unwrap()),
        ];
        let creator = Creator { client: "192.0.2.1".into(), max_unfinished: 1, max_computer_games: 0 };
        let (game, Created { tokens, .. }) =
            games.create(rules.clone(), names.clone(), Some(5), None, false, &creator).await.unwrap();
        let id = game.id().to_string();
        assert_eq!(game.seats()[1].name.as_str(), "Bo");
        assert_eq!((game.version(), game.position().ply()), (1, 0));

        // The creator's cap of one unfinished game holds.
        let refused = games.create(rules, names, None, None, false, &creator).await.unwrap_err();
        assert!(matches!(refused, GameError::TooManyGames { limit: 1 }), "{refused:?}");

        // The seat not to move is refused, and so is a stale version.
        let refused = games.play(&id, request(&tokens[1].1, &["a1"])).await.unwrap_err();
        assert!(
            matches!(refused, GameError::Game(RuleError::NotYourTurn { to_move: 0, seat: 1 })),
            "{refused:?}"
        );
        let mut stale = request(&tokens[0].1, &["a1"]);
        stale.expected = Some(Expected::OneOf { versions: vec![7], sent: "\"7\"".into() });
        let refused = games.play(&id, stale).await.unwrap_err();
        assert!(matches!(refused, GameError::StaleVersion { version: 1, .. }), "{refused:?}");

        // A keyed move is played once; its retry gets the game as it left
        // it, and the key with another move is refused.
        let mut keyed = request(&tokens[0].1, &["a1"]);
        keyed.key = Some(IdempotencyKey::parse("first").unwrap());
        let MoveOutcome::Played(first) = games.play(&id, keyed.clone()).await.unwrap() else {
            panic!("the first send plays")
        };
        assert_eq!(first.version(), 2);
        let MoveOutcome::Replayed(again) = games.play(&id, keyed.clone()).await.unwrap() else {
            panic!("the retry replays")
        };
        assert_eq!(
            (again.version(), again.position(), again.updated_at()),
            (2, first.position(), first.updated_at())
        );
        let mut other_move = keyed;
        other_move.mv = Ok("b1".parse().unwrap());
        let refused = games.play(&id, other_move).await.unwrap_err();
        assert!(matches!(&refused, GameError::KeyReused { first, .. } if first == "a1"), "{refused:?}");

        // Player 0, whose move was just played, is told it lost a race.
        let refused = games.play(&id, request(&tokens[0].1, &["b1"])).await.unwrap_err();
        assert!(matches!(refused, GameError::Moved { ply: 0, player: 0, to_move: 1 }), "{refused:?}");

        // An illegal move and a token of no seat change nothing.
        let refused = games.play(&id, request(&tokens[1].1, &["a1"])).await.unwrap_err();
        assert!(matches!(refused, GameError::Game(RuleError::Illegal(_))), "{refused:?}");
        let stranger = leapfrog::game::SeatToken::of_bytes(&[7; 32]);
        let refused = games.play(&id, request(&stranger, &["b1"])).await.unwrap_err();
        assert!(matches!(refused, GameError::NotASeat), "{refused:?}");
        let loaded = games.load(&id).await.unwrap();
        assert_eq!((loaded.version(), loaded.position().ply()), (2, 1));
        let history = games.history(&game_now(&games, &id).await, 0).await.unwrap();
        assert_eq!(history.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(), ["a1"]);
        let taken: Vec<(&str, char)> =
            history[0].captures.iter().map(|c| (c.cell.as_str(), c.kind)).collect();
        assert_eq!(taken, [("a1", 'O')]);

        // The position at any ply is replayed from the deal.
        assert_eq!(games.position_at(&loaded, 1).await.unwrap(), *loaded.position());
        let refused = games.position_at(&loaded, 2).await.unwrap_err();
        assert!(matches!(refused, GameError::NoSuchPly { ply: 1, asked: 2, .. }), "{refused:?}");
        assert!(matches!(games.load("nope").await.unwrap_err(), GameError::NotFound(_)));
    });
}

#[test]
fn the_computer_moves_only_on_its_turn_and_each_of_its_moves_is_stored_once() {
    let db = crate::common::temp_db();
    let _files = crate::common::TempFiles::of_url(&format!("sqlite://{}", db.display()));
    actix_web::rt::System::new().block_on(async move {
        let store = Store::open(&format!("sqlite://{}", db.display()), Durability::Full).await.unwrap();
        let games = service(&store);
        let rules = jump_capture::Rules::new(jump_capture::Preset::Old.spec().with_size(4, 4)).unwrap();
        let seats = vec![
            NewSeat::Person(PlayerName::parse("Ann").unwrap()),
            NewSeat::Computer(jump_search::Level::Greedy, PlayerName::parse("Computer").unwrap()),
        ];
        let creator = Creator { client: String::new(), max_unfinished: 0, max_computer_games: 0 };
        let (game, Created { tokens, .. }) =
            games.create(std::sync::Arc::new(rules), seats, Some(5), None, false, &creator).await.unwrap();
        let id = game.id().to_string();
        assert_eq!(tokens.len(), 1, "only the person gets a token");
        assert_eq!(game.seats()[1].holder, Holder::Computer(jump_search::Level::Greedy));
        assert_eq!(game.computer_to_move(), None, "Ann is to move");
        let refused = games.play_for_computer(&game, "a1".parse().unwrap()).await.unwrap_err();
        assert!(matches!(refused, GameError::Game(RuleError::NotYourTurn { .. })), "{refused:?}");

        games.play(&id, request(&tokens[0].1, &["a1"])).await.unwrap();
        let game = games.load(&id).await.unwrap();
        assert_eq!(game.computer_to_move(), Some(jump_search::Level::Greedy));
        // Two thinkers read the same version: the first to store wins.
        let (first, second) = (game.clone(), game);
        games.play_for_computer(&first, "a2".parse().unwrap()).await.unwrap();
        let refused = games.play_for_computer(&second, "b1".parse().unwrap()).await.unwrap_err();
        assert!(matches!(refused, GameError::Conflict), "{refused:?}");
        let history = games.history(&game_now(&games, &id).await, 0).await.unwrap();
        let made: Vec<(String, bool)> = history.iter().map(|m| (m.mv.to_string(), m.computer)).collect();
        assert_eq!(made, [("a1".to_string(), false), ("a2".to_string(), true)]);
        // The seats survive a reload.
        let loaded = games.load(&id).await.unwrap();
        assert_eq!(loaded.seats()[1].holder, Holder::Computer(jump_search::Level::Greedy));
    });
}

#[test]
fn the_computer_chooses_as_a_player_that_watched_the_whole_game() {
    use jump_search::{GreedyPlayer, Level, Player};
    let db = crate::common::temp_db();
    let _files = crate::common::TempFiles::of_url(&format!("sqlite://{}", db.display()));
    actix_web::rt::System::new().block_on(async move {
        let store = Store::open(&format!("sqlite://{}", db.display()), Durability::Fast).await.unwrap();
        let games = service(&store);
        let rules = jump_capture::Rules::new(jump_capture::Preset::Murray.spec().with_size(8, 8)).unwrap();
        let seats = vec![
            NewSeat::Person(PlayerName::parse("Ann").unwrap()),
            NewSeat::Person(PlayerName::parse("Bea").unwrap()),
            NewSeat::Computer(Level::Easy, PlayerName::parse("Computer").unwrap()),
        ];
        let creator = Creator { client: String::new(), max_unfinished: 0, max_computer_games: 0 };
        let (game, Created { tokens, .. }) =
            games.create(std::sync::Arc::new(rules), seats, Some(5), None, false, &creator).await.unwrap();
        let id = game.id().to_string();
        // Ann and Bea always take a largest gain.
        let mut people = GreedyPlayer::new(5);
        let (mut turns, mut learned) = (0, 0);
        loop {
            let game = games.load(&id).await.unwrap();
            if game.position().is_over() {
                break;
            }
            let pos = game.position().clone();
            let Some(level) = game.computer_to_move() else {
                let mv = people.choose(&pos).unwrap();
                let path: Vec<String> = mv.path().iter().map(ToString::to_string).collect();
                let refs: Vec<&str> = path.iter().map(String::as_str).collect();
                games.play(&id, request(&tokens[pos.to_move()].1, &refs)).await.unwrap();
                continue;
            };
            // The computer's choice is that of a player of its level that
            // saw every move from the deal, ...
            let history = games.history(&game_now(&games, &id).await, 0).await.unwrap();
            // (Offered two threads, a level counted in iterations searches on one.)
            let choice = game.computer_choice(level, 7, &history, 2).unwrap().unwrap();
            let mut watcher = level.player(7);
            let mut replay = games.position_at(&game, 0).await.unwrap();
            for m in &history {
                watcher.observe(&replay, &m.mv);
                replay.play(&m.mv).unwrap();
            }
            assert_eq!(choice, watcher.choose(&pos).unwrap(), "at ply {}", pos.ply());
            // ... which is not always that of one that saw nothing.
            if level.player(7).choose(&pos).unwrap() != choice {
                learned += 1;
            }
            turns += 1;
            games.play_for_computer(&game, choice).await.unwrap();
        }
        assert!(turns > 5, "the computer moved {turns} times");
        assert!(learned > 0, "what it saw changed none of its {turns} moves");
    });
}

/// Game `id` as it stands.
async fn game_now(games: &Games, id: &str) -> leapfrog::game::Game {
    games.load(id).await.unwrap()
}
