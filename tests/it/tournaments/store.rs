//! The store's side of tournaments, on SQLite and PostgreSQL.

use crate::common::pg;
use crate::store::{run, sqlite};

use leapfrog::store::{
    Store, TournamentChange, TournamentGameRow, TournamentPlayerRow, TournamentRow, TournamentWrite,
};

fn event(version: i64) -> TournamentRow {
    TournamentRow {
        id: "t1".into(),
        creator_id: "a0".into(),
        name: "Autumn Swiss".into(),
        format: "swiss".into(),
        rules: r#"{"preset":"murray","rows":8,"cols":8}"#.into(),
        rated: 0,
        rounds: Some(3),
        all_at_once: 0,
        move_limit: Some(60),
        correspondence: 0,
        duration_ms: None,
        min_players: 2,
        max_players: 8,
        starts_at: None,
        bots: 1,
        invited: None,
        status: "open".into(),
        round: 0,
        version,
        created_at: 1_000,
        started_at: None,
        ended_at: None,
    }
}

fn player(account: &str, joined_at: i64) -> TournamentPlayerRow {
    TournamentPlayerRow {
        tournament_id: "t1".into(),
        account_id: account.into(),
        name: account.to_uppercase(),
        bot: 0,
        rating: 1500,
        joined_at,
        seed: None,
        withdrawn_at: None,
        timeouts: 0,
    }
}

/// A change from `version` to the next.
fn change(from: i64) -> TournamentChange {
    TournamentChange { tournament: Some(event(from + 1)), old_version: from, ..TournamentChange::default() }
}

async fn an_events_change_is_written_whole_and_only_over_its_version(store: Store) {
    store.insert_tournament(&event(1), &[]).await.unwrap();
    assert_eq!(store.tournament("t1").await.unwrap().unwrap().version, 1);
    // Two join.
    let join = |from, who: &str, at| TournamentChange { joining: vec![player(who, at)], ..change(from) };
    assert_eq!(store.change_tournament(join(1, "a1", 10)).await.unwrap(), TournamentWrite::Done);
    assert_eq!(store.change_tournament(join(2, "a2", 20)).await.unwrap(), TournamentWrite::Done);
    // A change read at an old version writes nothing.
    assert_eq!(store.change_tournament(join(2, "a3", 30)).await.unwrap(), TournamentWrite::Moved);
    // Joining twice writes nothing, not even the version.
    assert_eq!(store.change_tournament(join(3, "a1", 40)).await.unwrap(), TournamentWrite::AlreadyIn);
    assert_eq!(store.tournament("t1").await.unwrap().unwrap().version, 3);
    let players = store.tournament_players("t1").await.unwrap();
    assert_eq!(players.iter().map(|p| p.account_id.as_str()).collect::<Vec<_>>(), ["a1", "a2"]);

    // The start: seeds, status, the first round's pairing.
    let mut started = change(3);
    if let Some(t) = started.tournament.as_mut() {
        (t.status, t.round, t.started_at) = ("running".into(), 1, Some(2_000));
    }
    started.players = players
        .iter()
        .enumerate()
        .map(|(i, p)| TournamentPlayerRow { seed: Some(i as i64), ..p.clone() })
        .collect();
    started.paired = vec![TournamentGameRow {
        tournament_id: "t1".into(),
        round: 1,
        board: 0,
        game_id: Some("g1".into()),
        first_id: "a1".into(),
        second_id: Some("a2".into()),
        outcome: None,
        forfeit: 0,
    }];
    // Two processes pair the round: one writes.
    assert_eq!(store.change_tournament(started.clone()).await.unwrap(), TournamentWrite::Done);
    assert_eq!(store.change_tournament(started).await.unwrap(), TournamentWrite::Moved);
    let games = store.tournament_games("t1", (0, -1), 10, None).await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(store.tournament_of_game("g1").await.unwrap().as_deref(), Some("t1"));
    assert_eq!(store.tournament_players("t1").await.unwrap()[1].seed, Some(1));
    // Its game is not over (there is no such game): nothing to do.
    assert!(store.tournaments_due(0, "", 10).await.unwrap().is_empty());
    assert!(store.tournament_games_ended("t1").await.unwrap().is_empty());

    // The game's end decided; the event over.
    let mut over = change(4);
    if let Some(t) = over.tournament.as_mut() {
        (t.status, t.round, t.ended_at) = ("over".into(), 1, Some(3_000));
    }
    over.decided = vec![(1, 0, "first".into(), 0)];
    assert_eq!(store.change_tournament(over).await.unwrap(), TournamentWrite::Done);
    let games = store.tournament_games("t1", (0, -1), 10, None).await.unwrap();
    assert_eq!(games[0].outcome.as_deref(), Some("first"));
    assert!(store.tournaments_due(i64::MAX, "", 10).await.unwrap().is_empty());
    assert_eq!(store.tournaments(Some("over"), None, 10).await.unwrap().len(), 1);
    assert!(store.tournaments(Some("open"), None, 10).await.unwrap().is_empty());
    assert_eq!(store.tournaments_under_way("a0").await.unwrap(), (0, 0));
    // Two due to start: the clock goes round them by id, from where it stopped.
    for id in ["t2", "t3"] {
        let due = TournamentRow { id: id.into(), starts_at: Some(5), ..event(1) };
        store.insert_tournament(&due, &[]).await.unwrap();
    }
    assert_eq!(store.tournaments_due(10, "", 10).await.unwrap(), ["t2", "t3"]);
    assert_eq!(store.tournaments_due(10, "t2", 10).await.unwrap(), ["t3"]);
    assert!(store.tournaments_due(10, "t3", 10).await.unwrap().is_empty());
    assert!(store.tournaments_due(4, "", 10).await.unwrap().is_empty(), "not yet");
    store.close().await;
}

#[test]
fn an_events_change_is_written_whole_and_only_over_its_version_sqlite() {
    run(&sqlite(), |s, _| an_events_change_is_written_whole_and_only_over_its_version(s));
}

#[test]
fn an_events_change_is_written_whole_and_only_over_its_version_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |s, _| an_events_change_is_written_whole_and_only_over_its_version(s));
}
