//! The game store itself, on SQLite and on PostgreSQL: a move commits
//! whole or not at all. Its row, the game's new state and the idempotency
//! record are written together; a taken ply, a moved version or a reused
//! key leaves nothing behind.

use crate::common::pg;
use leapfrog::store::{Commit, GameRow, MoveRow, SeatRow, Store, StoredAnswer};

fn game(version: i64, position: &str) -> GameRow {
    GameRow {
        id: "g1".into(),
        version,
        rules: r#"{"preset":"old"}"#.into(),
        seed: "1".into(),
        players: r#"["Ann","Bo"]"#.into(),
        position: position.into(),
        status: "opening".into(),
        result: None,
        created_at: 1,
        updated_at: version,
    }
}

fn a_move(ply: i64, notation: &str) -> MoveRow {
    MoveRow { ply, player: ply % 2, notation: notation.into(), captures: "[]".into(), gain: 0, at: ply }
}

/// The game's version and position, and the notations of its moves.
async fn state(store: &Store) -> (i64, String, Vec<String>) {
    let g = store.game("g1").await.unwrap().unwrap();
    let moves = store.moves("g1", 0).await.unwrap();
    (g.version, g.position, moves.into_iter().map(|m| m.notation).collect())
}

async fn a_move_commits_whole_or_not_at_all(store: Store) {
    let seats: Vec<SeatRow> = (0..2)
        .map(|p| SeatRow { player: p, name: format!("P{p}"), token_hash: format!("hash-{p}") })
        .collect();
    store.insert_game(&game(1, "start"), &seats).await.unwrap();

    let done = store.commit_move(&game(2, "after a1"), 1, &a_move(0, "a1"), None).await.unwrap();
    assert_eq!(done, Commit::Done);
    assert_eq!(state(&store).await, (2, "after a1".into(), vec!["a1".into()]));

    // The ply is taken: the move's row is refused, the game is as it was.
    let taken = store.commit_move(&game(2, "after b1"), 1, &a_move(0, "b1"), None).await.unwrap();
    assert_eq!(taken, Commit::Conflict);
    assert_eq!(state(&store).await, (2, "after a1".into(), vec!["a1".into()]));

    // A new ply, computed from a version that has moved on: the game's
    // update finds no row, and the move's row goes with it.
    let stale = store.commit_move(&game(2, "stale"), 1, &a_move(1, "b1"), None).await.unwrap();
    assert_eq!(stale, Commit::Conflict);
    assert_eq!(state(&store).await, (2, "after a1".into(), vec!["a1".into()]));

    // With an idempotency key: the answer is stored with the move.
    let answer = StoredAnswer { status: 201, body: "{\"ply\":1}".into() };
    let keyed = store.commit_move(&game(3, "after b1"), 2, &a_move(1, "b1"), Some(("k", &answer))).await;
    assert_eq!(keyed.unwrap(), Commit::Done);
    assert_eq!(state(&store).await, (3, "after b1".into(), vec!["a1".into(), "b1".into()]));
    let stored = store.answer("g1", 1, "k").await.unwrap().unwrap();
    assert_eq!((stored.status, stored.body.as_str()), (201, "{\"ply\":1}"));

    // A key with a stale move: neither the move nor the answer is kept.
    let stale_keyed = store.commit_move(&game(4, "stale"), 2, &a_move(2, "x"), Some(("k2", &answer))).await;
    assert_eq!(stale_keyed.unwrap(), Commit::Conflict);
    assert!(store.answer("g1", 0, "k2").await.unwrap().is_none());
    assert_eq!(state(&store).await, (3, "after b1".into(), vec!["a1".into(), "b1".into()]));

    // The same player's key again, on a new move: nothing is written.
    let player_1_again = a_move(3, "c1");
    let reused = store.commit_move(&game(4, "reused"), 3, &player_1_again, Some(("k", &answer))).await;
    assert_eq!(reused.unwrap(), Commit::Conflict);
    assert_eq!(state(&store).await, (3, "after b1".into(), vec!["a1".into(), "b1".into()]));

    // And the game goes on.
    let next = store.commit_move(&game(4, "after c1"), 3, &a_move(2, "c1"), None).await.unwrap();
    assert_eq!(next, Commit::Done);
    assert_eq!(state(&store).await, (4, "after c1".into(), vec!["a1".into(), "b1".into(), "c1".into()]));
    store.close().await;
}

fn run(url: &str) {
    let url = url.to_string();
    actix_web::rt::System::new().block_on(async move {
        let store = Store::open(&url).await.unwrap();
        a_move_commits_whole_or_not_at_all(store).await;
    });
}

#[test]
fn a_move_commits_whole_or_not_at_all_sqlite() {
    let db = crate::common::temp_db();
    run(&format!("sqlite://{}", db.display()));
}

#[test]
fn a_move_commits_whole_or_not_at_all_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url);
}
