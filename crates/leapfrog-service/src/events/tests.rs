//! The hub on a real SQLite store: one read of the log per change, one
//! encoding per event shared by every follower, limits per game, per
//! process and per client; the log's rows of the core's changes.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use tokio::sync::broadcast;

use super::*;
use leapfrog_core::game::{NewSeat, PlayerName};
use leapfrog_store::GameRows;
use leapfrog_store::{Durability, EventRow, Store};

/// A new game stored with one event in its log, as the games service
/// would store a change.
async fn game_with_a_move(store: &Store) -> String {
    let id = uuid::Uuid::new_v4().to_string();
    let game = leapfrog_core::game::Game::new(new_game(&id), 1).unwrap();
    let row = game.to_row().unwrap();
    store.insert_game(&row, &[]).await.unwrap();
    let moved = leapfrog_store::GameRow { version: 2, events: Some(1), ..row };
    let event = EventRow { seq: 0, kind: "move".into(), data: "{}".into(), at: 2 };
    let commit = store.update_game(&moved, 1, None, &[event], &[]).await.unwrap();
    assert_eq!(commit, leapfrog_store::Commit::Done);
    id
}

fn new_game(id: &str) -> leapfrog_core::game::NewGame {
    leapfrog_core::game::NewGame {
        id: id.into(),
        max_moves: jump_capture::PathBudget::new(1_000),
        rules: std::sync::Arc::new(jump_capture::Preset::Old.rules()),
        seats: vec![
            NewSeat::Person(PlayerName::parse("A").unwrap()),
            NewSeat::Person(PlayerName::parse("B").unwrap()),
        ],
        seed: 1,
        seed_chosen: false,
        move_limit: None,
        client: String::new(),
        rated: false,
    }
}

async fn next(rx: &mut broadcast::Receiver<Event>) -> Event {
    tokio::time::timeout(Duration::from_secs(5), rx.recv()).await.unwrap().unwrap()
}

/// A fresh SQLite file's files, removed when dropped (after the store
/// declared after it).
struct DbFiles(std::path::PathBuf);

impl Drop for DbFiles {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

/// A store on a fresh SQLite file in the temporary folder.
async fn fresh_store() -> (DbFiles, Store) {
    let db = std::env::temp_dir().join(format!("leapfrog-hub-{}.db", uuid::Uuid::new_v4()));
    let store = Store::open(&format!("sqlite://{}", db.display()), Durability::Fast).await.unwrap();
    (DbFiles(db), store)
}

#[tokio::test]
async fn a_logged_move_is_read_once_and_sent_to_every_follower_of_its_game_only() {
    let (_files, store) = fresh_store().await;
    let (a, b) = (game_with_a_move(&store).await, game_with_a_move(&store).await);
    let hub = Hub::new(store, StreamLimits { total: 10, per_game: 10, per_client: 0 });
    let (mut one, mut two, mut other) =
        (hub.follow(&a, "").unwrap(), hub.follow(&a, "").unwrap(), hub.follow(&b, "").unwrap());
    assert_eq!(hub.streams().0, 3);
    // A follower that found an empty log starts the reader there: it
    // reads the move at once.
    hub.caught_up(&a, 0).await;
    let (first, second) = (next(&mut one.rx).await, next(&mut two.rx).await);
    assert_eq!((first.seq, first.kind), (0, Kind::Other));
    // One encoding, shared: the same bytes in memory, not a copy each.
    assert_eq!(first.bytes.as_ptr(), second.bytes.as_ptr());
    assert!(std::str::from_utf8(&first.bytes).unwrap().starts_with("event: move\nid: 0\n"));
    // The other game's follower is not woken; told again, the reader
    // sends nothing twice.
    hub.notify(&a);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(matches!(other.rx.try_recv(), Err(broadcast::error::TryRecvError::Empty)));
    assert!(matches!(one.rx.try_recv(), Err(broadcast::error::TryRecvError::Empty)));
    // A follower's place is given back when it goes, and a game with
    // none left is forgotten.
    drop((one, two));
    assert_eq!(hub.streams().0, 1);
    assert!(!hub.followed(&a));
    drop(other);
    assert_eq!(hub.streams().0, 0);
}

#[tokio::test]
async fn streams_past_a_limit_are_refused() {
    let (_files, store) = fresh_store().await;
    let hub = Hub::new(store, StreamLimits { total: 3, per_game: 2, per_client: 0 });
    let _kept = [hub.follow("a", "x").unwrap(), hub.follow("a", "x").unwrap()];
    assert_eq!(hub.follow("a", "x").unwrap_err(), StreamsFull::Game(2));
    let b = hub.follow("b", "x").unwrap();
    assert_eq!(hub.follow("c", "x").unwrap_err(), StreamsFull::Server(3));
    drop(b);
    assert_eq!((hub.streams(), hub.closed()), ((2, 3), 1), "a closed stream gives its place back");
    assert!(hub.follow("c", "x").is_ok());
}

#[tokio::test]
async fn a_client_past_its_streams_is_refused_and_others_are_not() {
    let (_files, store) = fresh_store().await;
    let hub = Hub::new(store, StreamLimits { total: 100, per_game: 100, per_client: 2 });
    let first = hub.follow("a", "greedy").unwrap();
    let _second = hub.follow("b", "greedy").unwrap();
    assert_eq!(hub.follow("a", "greedy").unwrap_err(), StreamsFull::Client(2));
    assert!(hub.follow("a", "modest").is_ok());
    drop(first);
    assert!(hub.follow("a", "greedy").is_ok(), "a closed stream gives its client's place back");
}

#[test]
fn a_changes_events_are_numbered_on_from_the_log_in_the_order_they_happened() {
    let new = new_game("g");
    let game = leapfrog_core::game::Game::new(new, 5).unwrap();
    let (after, changes) = game.apply(leapfrog_core::game::Command::Resign { player: 0 }, 9).unwrap();
    let rows = encode(&changes, &after, 7, 9).unwrap();
    let kinds: Vec<(i64, &str)> = rows.iter().map(|r| (r.seq, r.kind.as_str())).collect();
    assert_eq!(kinds, [(7, "resigned"), (8, "over")]);
    let data: serde_json::Value = serde_json::from_str(&rows[0].data).unwrap();
    assert_eq!((data["player"].as_u64(), data["game"]["status"].as_str()), (Some(0), Some("over")));
    let event = Event::of_row(&rows[1]);
    assert_eq!((event.seq, event.kind), (8, Kind::Over));
    assert!(std::str::from_utf8(&event.bytes).unwrap().starts_with("event: over\nid: 8\ndata: {"));
}
