//! New games on SQLite are written by the group committer's own
//! connection, several in one transaction when they queue together: one
//! that cannot be stored is refused alone and costs the others nothing.

use leapfrog::store::{GameRow, SeatRow, Store};

use crate::common::pg;
use crate::store::{game, run, sqlite};

/// Game `id`'s row, and two seats whose tokens are its own.
fn new_game(id: &str) -> (GameRow, Vec<SeatRow>) {
    let seats = (0..2)
        .map(|p| SeatRow {
            player: p,
            name: format!("P{p}"),
            token_hash: format!("{id}-{p}"),
            invite_hash: None,
            claim_hash: None,
            account_id: None,
        })
        .collect();
    (GameRow { id: id.into(), ..game(1, "start") }, seats)
}

async fn new_games_are_stored_or_refused_each_alone(store: Store) {
    let (taken, seats) = new_game("taken");
    store.insert_game(&taken, &seats).await.unwrap();
    let (a, a_seats) = new_game("a");
    let (b, b_seats) = new_game("b");
    let (again, _) = new_game("taken");
    let other_seats = new_game("other").1;
    let (a, again, b) = tokio::join!(
        store.insert_game(&a, &a_seats),
        store.insert_game(&again, &other_seats),
        store.insert_game(&b, &b_seats),
    );
    assert!(a.is_ok() && b.is_ok(), "{a:?} {b:?}");
    assert!(again.is_err(), "a second game with a taken id is refused");
    for id in ["taken", "a", "b"] {
        assert!(store.game(id).await.unwrap().is_some(), "{id}");
    }
    let kept = store.token_hashes("taken").await.unwrap();
    assert_eq!(
        kept,
        [(0, "taken-0".to_string()), (1, "taken-1".to_string())],
        "nothing of the refused game is kept"
    );
    store.close().await;
}

#[test]
fn new_games_are_stored_or_refused_each_alone_sqlite() {
    run(&sqlite(), |s, _| new_games_are_stored_or_refused_each_alone(s));
}

#[test]
fn new_games_are_stored_or_refused_each_alone_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |s, _| new_games_are_stored_or_refused_each_alone(s));
}
