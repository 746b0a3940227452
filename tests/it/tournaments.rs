//! Tournaments (rule book §17). The store: an event's change is written
//! whole or not at all, only over the version it was read at — so of two
//! processes pairing one round, one writes — and a player joins once.
//! Over HTTP: events created, joined, started, paired round by round as
//! their games end, with byes, forfeits and standings; refusals name
//! their field or limit.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::accounts::{as_token, players};
use crate::common::{TestApp, pg, spawn_unlimited};
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
    assert!(store.tournaments_due(0, 10).await.unwrap().is_empty());
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
    assert!(store.tournaments_due(i64::MAX, 10).await.unwrap().is_empty());
    assert_eq!(store.tournaments(Some("over"), None, 10).await.unwrap().len(), 1);
    assert!(store.tournaments(Some("open"), None, 10).await.unwrap().is_empty());
    assert_eq!(store.tournaments_under_way("a0").await.unwrap(), (0, 0));
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

/// A tournament of `extra` terms on 6×6 `old` games, a minute a move.
fn terms(extra: Value) -> Value {
    let mut body = json!({"name": "Test event", "rules": {"preset": "old", "rows": 6, "cols": 6},
        "move_time_limit": 60});
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        body[k] = v;
    }
    body
}

/// Creates an event of `extra` terms as `tokens[0]`, has everyone join
/// and its creator start it: its id.
fn started(app: &TestApp, tokens: &[String], extra: Value) -> String {
    let made = as_token(app, "POST", "/v1/tournaments", &tokens[0], &terms(extra));
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    for t in tokens {
        let r = as_token(app, "POST", &format!("/v1/tournaments/{id}/join"), t, &json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = as_token(app, "POST", &format!("/v1/tournaments/{id}/start"), &tokens[0], &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["status"], "running");
    id
}

/// Every game of the event, by round and board, paging through.
fn all_games(app: &TestApp, id: &str) -> Vec<Value> {
    let (mut games, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/tournaments/{id}/games?limit=3&cursor={c}"),
            None => format!("/v1/tournaments/{id}/games?limit=3"),
        };
        let page = app.get(&path).json();
        games.extend(page["games"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return games,
        }
    }
}

/// Plays the event out: in each round, the second seat of every game
/// resigns (so the first wins), until it is over; its last state.
fn play_out(app: &TestApp, id: &str, tokens: &[String], names: &[&str]) -> Value {
    let token_of = |name: &str| tokens[names.iter().position(|n| *n == name).unwrap()].clone();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let t = app.get(&format!("/v1/tournaments/{id}")).json();
        if t["status"] == "over" {
            return t;
        }
        assert!(Instant::now() < deadline, "the event did not end: {t}");
        for g in all_games(app, id) {
            let (Some(game), Value::Null) = (g["game"].as_str(), &g["result"]) else { continue };
            let second = g["second"].as_str().unwrap();
            let r = as_token(app, "POST", &format!("/v1/games/{game}/resign"), &token_of(second), &json!({}));
            assert!(r.status == 200 || r.status == 409 || r.status == 422, "{}", r.body);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn a_swiss_of_nine_is_paired_round_by_round_with_a_bye_each_round_to_a_different_player() {
    let app = spawn_unlimited();
    let names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"];
    let tokens = players(&app, &names);
    let id = started(&app, &tokens, json!({"format": "swiss", "rounds": 3}));
    let over = play_out(&app, &id, &tokens, &names);
    let games = all_games(&app, &id);
    let byes: Vec<&str> =
        games.iter().filter(|g| g["second"].is_null()).map(|g| g["first"].as_str().unwrap()).collect();
    assert_eq!(byes.len(), 3, "{games:?}");
    let mut distinct = byes.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "a bye at most once a player: {byes:?}");
    // No two met twice.
    let mut pairs: Vec<(String, String)> = games
        .iter()
        .filter_map(|g| {
            let (a, b) = (g["first"].as_str()?.to_string(), g["second"].as_str()?.to_string());
            Some(if a < b { (a, b) } else { (b, a) })
        })
        .collect();
    let all = pairs.len();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), all, "a rematch: {games:?}");
    // Points add up: a win a game and a bye, 4 games and a bye a round.
    let standings = over["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 9);
    let total: f64 = standings.iter().map(|s| s["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 15.0, "{standings:?}");
    let places: Vec<u64> = standings.iter().map(|s| s["place"].as_u64().unwrap()).collect();
    assert_eq!(places, (1..=9).collect::<Vec<u64>>());
    // Ann's stream told her of it all: her log's first event (0) is
    // `tournament_started`; resumed after it, the pairings and the end.
    let auth = format!("Authorization: Bearer {}\r\nLast-Event-ID: 0\r\n", tokens[0]);
    let mut stream = crate::common::EventStream::open_with(&app, "/v1/accounts/Ann/events", &auth);
    let mut told = Vec::new();
    let mut first_id = None;
    while let Some(e) = stream.next() {
        first_id = first_id.or(e.id.clone());
        if e.event.starts_with("tournament_") {
            told.push(e.event.clone());
        }
        if e.event == "tournament_over" {
            let data: Value = serde_json::from_str(&e.data).unwrap();
            assert_eq!((data["tournament"].as_str(), data["players"].as_u64()), (Some(id.as_str()), Some(9)));
            break;
        }
    }
    assert_eq!(first_id.as_deref(), Some("1"), "resumed after event 0");
    assert_eq!(told, ["tournament_paired", "tournament_paired", "tournament_paired", "tournament_over"]);
    let first_tiebreaks: Vec<&str> =
        standings[0]["tiebreaks"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(first_tiebreaks, ["buchholz", "sonneborn_berger", "direct_encounter", "wins"]);
}

#[test]
fn a_double_round_robin_of_four_has_twelve_games_each_pair_once_in_each_seat() {
    let app = spawn_unlimited();
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let tokens = players(&app, &names);
    let id = started(&app, &tokens, json!({"format": "double_round_robin"}));
    let over = play_out(&app, &id, &tokens, &names);
    assert_eq!(over["rounds"], 6);
    let games = all_games(&app, &id);
    assert_eq!(games.len(), 12);
    // One round's alone: two games.
    let second = app.get(&format!("/v1/tournaments/{id}/games?round=2")).json();
    let rounds: Vec<i64> =
        second["games"].as_array().unwrap().iter().map(|g| g["round"].as_i64().unwrap()).collect();
    assert_eq!(rounds, [2, 2], "{second}");
    let mut seated: Vec<(String, String)> = games
        .iter()
        .map(|g| (g["first"].as_str().unwrap().into(), g["second"].as_str().unwrap().into()))
        .collect();
    seated.sort();
    seated.dedup();
    assert_eq!(seated.len(), 12, "each ordered pair once: {seated:?}");
    // The first seat won every game: each player won the games it sat first in, 3.
    for s in over["standings"].as_array().unwrap() {
        assert_eq!(s["points"], 3.0, "{s}");
    }
    // The cross table: each pair's two results, one a win and one a loss.
    let table = over["cross_table"].as_array().unwrap();
    assert_eq!(table.len(), 4);
    for (i, row) in table.iter().enumerate() {
        let cells: Vec<&str> =
            row["results"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        for (j, cell) in cells.iter().enumerate() {
            let want: &[&str] = if i == j { &[""] } else { &["10", "01"] };
            assert!(want.contains(cell), "{} against {j}: {cell}", row["name"]);
        }
    }
}

#[test]
fn a_withdrawal_after_the_start_resigns_the_game_under_way_and_forfeits_the_rest() {
    let app = spawn_unlimited();
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let tokens = players(&app, &names);
    let id = started(&app, &tokens, json!({"format": "round_robin"}));
    let left = as_token(&app, "POST", &format!("/v1/tournaments/{id}/leave"), &tokens[3], &json!({}));
    assert_eq!(left.status, 200, "{}", left.body);
    let again = as_token(&app, "POST", &format!("/v1/tournaments/{id}/leave"), &tokens[3], &json!({}));
    assert_eq!(again.status, 409);
    let over = play_out(&app, &id, &tokens, &names);
    let games = all_games(&app, &id);
    let dees: Vec<&Value> = games.iter().filter(|g| g["first"] == "Dee" || g["second"] == "Dee").collect();
    assert_eq!(dees.len(), 3);
    // Round 1 was under way: resigned. Later rounds: forfeits, no game.
    for g in &dees {
        let dee_won = (g["first"] == "Dee" && g["result"] == "first")
            || (g["second"] == "Dee" && g["result"] == "second");
        assert!(!dee_won, "{g}");
        if g["round"].as_i64() > Some(1) {
            assert_eq!((g["forfeit"].as_bool(), g["game"].is_null()), (Some(true), true), "{g}");
        }
    }
    let dee = over["players"].as_array().unwrap().iter().find(|p| p["name"] == "Dee").unwrap().clone();
    assert_eq!(dee["withdrawn"], true);
}

#[test]
fn refusals_name_their_field_or_limit() {
    let app = spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob", "Cy"]);
    let create = |body: Value| as_token(&app, "POST", "/v1/tournaments", &tokens[0], &terms(body));
    let field = |r: crate::common::Response| (r.status, r.json()["field"].as_str().map(str::to_string));
    assert_eq!(field(create(json!({"format": "swiss"}))), (422, Some("rounds".into())));
    assert_eq!(field(create(json!({"format": "round_robin", "rounds": 3}))), (422, Some("rounds".into())));
    assert_eq!(
        field(create(json!({"format": "swiss", "rounds": 3, "name": ""}))),
        (422, Some("name".into()))
    );
    assert_eq!(
        field(create(json!({"format": "swiss", "rounds": 3, "max_players": 257}))),
        (422, Some("max_players".into()))
    );
    assert_eq!(
        field(create(json!({"format": "swiss", "rounds": 3, "min_players": 1}))),
        (422, Some("min_players".into()))
    );
    let untimed = json!({"name": "x", "format": "swiss", "rounds": 1, "rules": {"preset": "old", "rows": 6, "cols": 6}});
    assert_eq!(
        field(as_token(&app, "POST", "/v1/tournaments", &tokens[0], &untimed)),
        (422, Some("move_time_limit".into()))
    );
    assert_eq!(create(json!({"format": "swiss", "rounds": 3, "starts_at": "not a time"})).status, 422);
    assert_eq!(create(json!({"format": "swiss", "rounds": 3, "invited": ["Nobody"]})).status, 404);
    assert_eq!(app.get("/v1/tournaments/nope").status, 404);
    assert_eq!(app.get("/v1/tournaments?status=later").status, 422);
    // By invitation: Cy may not join.
    let made = create(json!({"format": "swiss", "rounds": 1, "invited": ["Bob"], "min_players": 3}));
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    assert_eq!(made.json()["invited"], json!(["Bob"]));
    let join =
        |i: usize| as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), &tokens[i], &json!({}));
    assert_eq!(join(2).status, 403);
    assert_eq!(join(1).status, 200);
    assert_eq!(join(1).status, 409, "joined already");
    // Only its creator starts it, and only with the players it needs.
    let start =
        |i: usize| as_token(&app, "POST", &format!("/v1/tournaments/{id}/start"), &tokens[i], &json!({}));
    assert_eq!(start(1).status, 403);
    assert_eq!(start(0).status, 409);
    // Before the start, leaving takes one off the roster.
    let r = as_token(&app, "POST", &format!("/v1/tournaments/{id}/leave"), &tokens[1], &json!({}));
    assert_eq!((r.status, r.json()["players"].as_array().map(Vec::len)), (200, Some(0)));
    // The listing shows it, newest first, paged.
    let listed = app.get("/v1/tournaments?status=open&limit=1").json();
    assert_eq!(listed["tournaments"][0]["id"], json!(id), "{listed}");
    // At most five open or running events an account.
    for _ in 0..4 {
        assert_eq!(create(json!({"format": "swiss", "rounds": 1})).status, 201);
    }
    let r = create(json!({"format": "swiss", "rounds": 1}));
    assert_eq!((r.status, r.json()["limit"].as_str()), (429, Some("events_per_account")), "{}", r.body);
}

/// The standings of `games` (the event's games list) computed here, by
/// the rule book's words: points (a win 1, a draw ½, a bye 1), then
/// Buchholz, Sonneborn–Berger, direct encounter among those still level,
/// wins. Each player's (name, points, [tiebreaks]) best first.
fn standings_by_hand(games: &[Value], names: &[&str]) -> Vec<(String, f64, [f64; 4])> {
    let score = |g: &Value, who: &str| -> Option<f64> {
        let (first, second) = (g["first"].as_str()?, g["second"].as_str());
        let result = g["result"].as_str()?;
        match (who == first, second == Some(who), result) {
            (true, _, _) if second.is_none() => Some(1.0),
            (true, _, "first") | (_, true, "second") => Some(1.0),
            (true, _, "draw") | (_, true, "draw") => Some(0.5),
            (true, _, _) | (_, true, _) => Some(0.0),
            _ => None,
        }
    };
    let points = |who: &str| games.iter().filter_map(|g| score(g, who)).sum::<f64>() + 0.0;
    let met = |who: &str| -> Vec<(String, f64)> {
        games
            .iter()
            .filter(|g| !g["second"].is_null() && !g["forfeit"].as_bool().unwrap_or(false))
            .filter_map(|g| {
                let s = score(g, who)?;
                let other = if g["first"] == who { g["second"].as_str()? } else { g["first"].as_str()? };
                Some((other.to_string(), s))
            })
            .collect()
    };
    let mut rows: Vec<(String, f64, [f64; 4])> = names
        .iter()
        .map(|&n| {
            let buchholz = met(n).iter().map(|(o, _)| points(o)).sum::<f64>() + 0.0;
            let sb = met(n).iter().map(|(o, s)| s * points(o)).sum::<f64>() + 0.0;
            let wins = met(n).iter().filter(|(_, s)| *s == 1.0).count() as f64;
            (n.to_string(), points(n), [buchholz, sb, 0.0, wins])
        })
        .collect();
    // Direct encounter among those level on points, Buchholz and SB.
    let level: Vec<(String, f64, f64, f64)> =
        rows.iter().map(|r| (r.0.clone(), r.1, r.2[0], r.2[1])).collect();
    for r in &mut rows {
        let group: Vec<&String> =
            level.iter().filter(|l| (l.1, l.2, l.3) == (r.1, r.2[0], r.2[1])).map(|l| &l.0).collect();
        // (An empty sum of floats is −0: add 0 to print it as the server does.)
        r.2[2] = met(&r.0).iter().filter(|(o, _)| group.contains(&o)).map(|(_, s)| s).sum::<f64>() + 0.0;
    }
    rows.sort_by(|a, b| {
        let key = |r: &(String, f64, [f64; 4])| [r.1, r.2[0], r.2[1], r.2[2], r.2[3]];
        key(b).partial_cmp(&key(a)).unwrap()
    });
    rows
}

/// Eight `leapfrog bot` processes on two levels play a 3-round Swiss to its
/// end by themselves; the standings are those computed here by hand.
#[test]
fn eight_bots_play_a_swiss_to_its_end_by_themselves() {
    let app = spawn_unlimited();
    let host = players(&app, &["Host"]);
    let names = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"];
    // Two levels: the first four easy, the others greedy.
    let (mut tokens, mut processes) = bots(&app, &names[..4], "easy");
    let (more, greedy) = bots(&app, &names[4..], "greedy");
    tokens.extend(more);
    processes.extend(greedy);
    let made = as_token(
        &app,
        "POST",
        "/v1/tournaments",
        &host[0],
        &terms(json!({"format": "swiss", "rounds": 3, "bots": true})),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    for t in &tokens {
        let r = as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), t, &json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = as_token(&app, "POST", &format!("/v1/tournaments/{id}/start"), &host[0], &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let deadline = Instant::now() + Duration::from_secs(240);
    let over = loop {
        let t = app.get(&format!("/v1/tournaments/{id}")).json();
        if t["status"] == "over" {
            break t;
        }
        assert!(Instant::now() < deadline, "the bots did not finish: {t}");
        std::thread::sleep(Duration::from_millis(300));
    };
    let games = all_games(&app, &id);
    assert_eq!(games.len(), 12, "{games:?}");
    let by_hand = standings_by_hand(&games, &names);
    let served: Vec<(String, f64, [f64; 4])> = over["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let t: Vec<f64> =
                s["tiebreaks"].as_array().unwrap().iter().map(|t| t["value"].as_f64().unwrap()).collect();
            (s["name"].as_str().unwrap().to_string(), s["points"].as_f64().unwrap(), [t[0], t[1], t[2], t[3]])
        })
        .collect();
    // Equal keys may come in seed order: compare the lines as sets of
    // (name, values), and the order of the values.
    let key = |rows: &[(String, f64, [f64; 4])]| -> Vec<String> {
        let mut v: Vec<String> = rows.iter().map(|r| format!("{} {} {:?}", r.0, r.1, r.2)).collect();
        v.sort();
        v
    };
    assert_eq!(key(&served), key(&by_hand));
    let values = |rows: &[(String, f64, [f64; 4])]| -> Vec<String> {
        rows.iter().map(|r| format!("{} {:?}", r.1, r.2)).collect()
    };
    assert_eq!(values(&served), values(&by_hand));
    for b in processes {
        let out = b.stop();
        assert!(out.contains("tournament") && out.contains("over: place"), "{out}");
    }
}

/// Two server processes on one PostgreSQL: both clocks look for rounds to
/// pair, games end through either; each round is paired once.
#[test]
fn a_fleet_of_two_processes_pairs_each_round_once_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let a = crate::common::ServerProcess::start(&["--database-url", &url, "--no-rate-limits"], &[]);
    let b = crate::common::ServerProcess::start(&["--database-url", &url, "--no-rate-limits"], &[]);
    let names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"];
    let tokens = players(&a.app, &names);
    let id = started(&a.app, &tokens, json!({"format": "swiss", "rounds": 3}));
    // The second seat resigns, through one process or the other.
    let token_of = |name: &str| tokens[names.iter().position(|n| *n == name).unwrap()].clone();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut turn = 0;
    loop {
        let app = if turn % 2 == 0 { &a.app } else { &b.app };
        turn += 1;
        if app.get(&format!("/v1/tournaments/{id}")).json()["status"] == "over" {
            break;
        }
        assert!(Instant::now() < deadline, "the event did not end");
        for g in all_games(app, &id) {
            let (Some(game), Value::Null) = (g["game"].as_str(), &g["result"]) else { continue };
            let second = token_of(g["second"].as_str().unwrap());
            let _ = as_token(app, "POST", &format!("/v1/games/{game}/resign"), &second, &json!({}));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let games = all_games(&b.app, &id);
    assert_eq!(games.len(), 9, "three games a round, three rounds: {games:?}");
    let mut boards: Vec<(i64, i64)> =
        games.iter().map(|g| (g["round"].as_i64().unwrap(), g["board"].as_i64().unwrap())).collect();
    boards.dedup();
    assert_eq!(boards.len(), 9);
    // Each player in one game a round.
    for round in 1..=3 {
        let mut seated: Vec<&str> = games
            .iter()
            .filter(|g| g["round"] == round)
            .flat_map(|g| [g["first"].as_str().unwrap(), g["second"].as_str().unwrap()])
            .collect();
        seated.sort_unstable();
        assert_eq!(seated, names, "round {round}");
    }
}

/// A rated round-robin at five seconds a move: a player who never moves
/// loses each game as a forfeit (aborted: the seat that never moved, §13)
/// and is withdrawn at the second; its last game is a forfeit, not played.
#[test]
fn two_games_lost_on_time_withdraw_a_player_and_an_aborted_game_is_the_idle_seats_loss() {
    let app = spawn_unlimited();
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let tokens = players(&app, &names);
    let id = started(&app, &tokens, json!({"format": "round_robin", "rated": true, "move_time_limit": 5}));
    let seat_tokens = |g: &Value| -> Vec<String> {
        [&g["first"], &g["second"]]
            .iter()
            .map(|n| tokens[names.iter().position(|m| n.as_str() == Some(*m)).unwrap()].clone())
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut handled = std::collections::HashSet::new();
    loop {
        if app.get(&format!("/v1/tournaments/{id}")).json()["status"] == "over" {
            break;
        }
        assert!(Instant::now() < deadline, "the event did not end");
        for g in all_games(&app, &id) {
            let (Some(game), Value::Null) = (g["game"].as_str(), &g["result"]) else { continue };
            if !handled.insert(game.to_string()) {
                continue;
            }
            let seats = seat_tokens(&g);
            if g["second"] == "Dee" {
                // The first seat moves; Dee never does.
                crate::accounts::play_plies(&app, game, &seats, 1);
            } else if g["first"] != "Dee" {
                // Both move, then the second seat resigns: a game played.
                crate::accounts::play_plies(&app, game, &seats, 2);
                let r = as_token(&app, "POST", &format!("/v1/games/{game}/resign"), &seats[1], &json!({}));
                assert_eq!(r.status, 200, "{}", r.body);
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let t = app.get(&format!("/v1/tournaments/{id}")).json();
    let dee = t["players"].as_array().unwrap().iter().find(|p| p["name"] == "Dee").unwrap().clone();
    assert_eq!(dee["withdrawn"], true, "{t}");
    let games = all_games(&app, &id);
    let dees: Vec<&Value> = games.iter().filter(|g| g["first"] == "Dee" || g["second"] == "Dee").collect();
    assert_eq!(dees.len(), 3);
    for g in &dees {
        let dee_lost = (g["first"] == "Dee" && g["result"] == "second")
            || (g["second"] == "Dee" && g["result"] == "first");
        assert!(dee_lost && g["forfeit"] == true, "{g}");
    }
    // The first two were played (and aborted); the third never made.
    let made = dees.iter().filter(|g| !g["game"].is_null()).count();
    assert_eq!(made, 2, "{dees:?}");
    let dee_points =
        t["standings"].as_array().unwrap().iter().find(|s| s["name"] == "Dee").unwrap()["points"].clone();
    assert_eq!(dee_points, 0.0);
}

/// Bot accounts `names`, each with its token, and a `leapfrog bot`
/// process for each at `level`, once each has published its profile.
fn bots(app: &TestApp, names: &[&str], level: &str) -> (Vec<String>, Vec<crate::bots::BotProcess>) {
    use crate::accounts::{PASSWORD, secret, token};
    let mut tokens = Vec::new();
    for n in names {
        let r = app.post_json("/v1/accounts", &json!({"name": n, "password": PASSWORD, "bot": true}));
        assert_eq!(r.status, 201, "{}", r.body);
        tokens.push(secret(&token(app, n, PASSWORD, &["play", "account"])));
    }
    let processes =
        names.iter().zip(&tokens).map(|(n, t)| crate::bots::BotProcess::start(app, n, t, level)).collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    for n in names {
        while app.get(&format!("/v1/accounts/{n}")).json()["accepts"].is_null() {
            assert!(Instant::now() < deadline, "{n} never published its profile");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    (tokens, processes)
}

/// An arena of a minute, six easy bots: they are paired again as their
/// games end, and the event ends on time with no game left running.
#[test]
fn an_arena_of_a_minute_with_six_bots_ends_on_time_with_no_game_left_running() {
    let app = spawn_unlimited();
    let host = players(&app, &["Host"]);
    let names = ["A1", "A2", "A3", "A4", "A5", "A6"];
    let (tokens, processes) = bots(&app, &names, "easy");
    let made = as_token(
        &app,
        "POST",
        "/v1/tournaments",
        &host[0],
        &terms(json!({"format": "arena", "duration_minutes": 1, "bots": true})),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    for t in &tokens {
        assert_eq!(as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), t, &json!({})).status, 200);
    }
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/tournaments/{id}/start"), &host[0], &json!({})).status,
        200
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    let over = loop {
        let t = app.get(&format!("/v1/tournaments/{id}")).json();
        if t["status"] == "over" {
            break t;
        }
        assert!(Instant::now() < deadline, "the arena did not end: {t}");
        std::thread::sleep(Duration::from_millis(300));
    };
    let ms = |field: &str| leapfrog::wire::game::parse_rfc3339(over[field].as_str().unwrap()).unwrap();
    let (started, ended) = (ms("started_at"), ms("ended_at"));
    assert!((60_000..65_000).contains(&(ended - started)), "ended {} ms after it started", ended - started);
    let games = all_games(&app, &id);
    assert!(games.len() > 3, "paired again as games ended: {games:?}");
    for g in &games {
        let game = g["game"].as_str().unwrap();
        assert_eq!(app.get(&format!("/v1/games/{game}")).json()["status"], "over", "{g}");
        assert!(g["result"].is_string(), "{g}");
    }
    // Each player's points are the arena's: 2 a win, double on fire.
    let standings = over["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 6);
    let counted = games.iter().filter(|g| g["result"] != "void").count() as u64;
    let played: u64 = standings.iter().map(|s| s["played"].as_u64().unwrap()).sum();
    assert_eq!(played, 2 * counted);
    assert!(standings.windows(2).all(|w| w[0]["points"].as_f64() >= w[1]["points"].as_f64()));
    for p in processes {
        let out = p.stop();
        assert!(out.contains("over: place"), "{out}");
    }
}

/// A correspondence round-robin waits while the player to move is on
/// vacation (its clock paused, rule book §11), and goes on once the
/// vacation has ended and the game with it.
#[test]
fn a_correspondence_round_robin_waits_on_a_vacation_and_goes_on_when_it_has_ended() {
    use crate::vacation::{app_with_vacation_days, clock, deadline};
    const DAY: i64 = 86_400_000;
    let (app, db, _files) = app_with_vacation_days(20);
    let tokens = players(&app, &["Ann", "Bob"]);
    let id =
        started(&app, &tokens, json!({"format": "round_robin", "move_time_limit": null, "days_per_move": 1}));
    let t = app.get(&format!("/v1/tournaments/{id}")).json();
    assert_eq!(
        (t["correspondence"].as_bool(), t["move_time_limit"].as_i64()),
        (Some(true), Some(DAY / 1000))
    );
    let first = all_games(&app, &id)[0].clone();
    assert_eq!(first["first"], "Ann", "{first}");
    let game = first["game"].as_str().unwrap().to_string();
    let before = deadline(&app, &game);
    // Ann, to move, takes three days off: her turn moves on by them, and at
    // the old deadline no one is timed out; the event waits.
    let v = as_token(&app, "POST", "/v1/accounts/Ann/vacation", &tokens[0], &json!({"days": 3}));
    assert_eq!(v.status, 200, "{}", v.body);
    assert_eq!(deadline(&app, &game), before + 3 * DAY);
    assert_eq!(clock(&db, 3, &[before + 1_000]), [0]);
    std::thread::sleep(Duration::from_millis(1_500));
    assert_eq!(app.get(&format!("/v1/tournaments/{id}")).json()["status"], "running");
    // She ends it at once (the days not begun come back). At each deadline
    // from then a vacation day is spent for a day more (§11) until none is
    // left and she is timed out; then the event goes on to its end.
    assert_eq!(crate::accounts::with(&app, "DELETE", "/v1/accounts/Ann/vacation", &tokens[0]).status, 200);
    assert_eq!(deadline(&app, &game), before + DAY);
    for _ in 0..=20 {
        if app.get(&format!("/v1/games/{game}")).json()["status"] == "over" {
            break;
        }
        assert_eq!(app.get(&format!("/v1/tournaments/{id}")).json()["status"], "running");
        assert_eq!(clock(&db, 3, &[deadline(&app, &game) + 1_000]), [1]);
    }
    let deadline_at = Instant::now() + Duration::from_secs(20);
    let over = loop {
        let t = app.get(&format!("/v1/tournaments/{id}")).json();
        if t["status"] == "over" {
            break t;
        }
        assert!(
            Instant::now() < deadline_at,
            "the event did not go on: {t}\n{}",
            app.get(&format!("/v1/games/{game}")).body
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(over["standings"][0]["name"], "Bob", "{over}");
    assert_eq!(all_games(&app, &id)[0]["result"], "second");
}

/// Who may join (rule book §15, §17): a bot only where bots are welcome
/// and its profile takes the event; a person in a rated event with bots
/// only after agreeing to rated games against bots.
#[test]
fn bots_join_only_where_welcome_and_people_meet_bots_in_rated_events_only_by_consent() {
    use crate::accounts::{PASSWORD, secret, token};
    let app = spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob"]);
    let r = app.post_json("/v1/accounts", &json!({"name": "Robo", "password": PASSWORD, "bot": true}));
    assert_eq!(r.status, 201, "{}", r.body);
    let robo = secret(&token(&app, "Robo", PASSWORD, &["play", "account"]));
    let event = |extra: Value| {
        let r = as_token(&app, "POST", "/v1/tournaments", &tokens[0], &terms(extra));
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["id"].as_str().unwrap().to_string()
    };
    let join =
        |id: &str, who: &str| as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), who, &json!({}));
    let field =
        |r: crate::common::Response| (r.status, r.json()["field"].as_str().map(str::to_string), r.body);
    // No bots here.
    let people_only = event(json!({"format": "swiss", "rounds": 1}));
    let (status, f, body) = field(join(&people_only, &robo));
    assert_eq!((status, f.as_deref()), (422, Some("account")), "{body}");
    // Bots welcome, but Robo's profile takes only Murray's game.
    let welcome = event(json!({"format": "swiss", "rounds": 1, "bots": true}));
    let only_murray = json!({"accepts": {"presets": ["murray"]}});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &only_murray).status, 200);
    let (status, _, body) = field(join(&welcome, &robo));
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("rules"), "{body}");
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &json!({"accepts": null})).status, 200);
    assert_eq!(join(&welcome, &robo).status, 200);
    // A rated event with bots: Bob joins once he has agreed.
    let rated = event(json!({"format": "swiss", "rounds": 1, "bots": true, "rated": true}));
    let (status, f, body) = field(join(&rated, &tokens[1]));
    assert_eq!((status, f.as_deref()), (422, Some("account")), "{body}");
    let agree = json!({"rated_against_bots": true});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Bob", &tokens[1], &agree).status, 200);
    assert_eq!(join(&rated, &tokens[1]).status, 200);
    // Consent is read again at the pairing: Bob takes his agreement back
    // before the start, and is withdrawn then, paired with no one.
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Ann", &tokens[0], &agree).status, 200);
    assert_eq!(join(&rated, &tokens[0]).status, 200);
    assert_eq!(join(&rated, &robo).status, 200);
    let disagree = json!({"rated_against_bots": false});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Bob", &tokens[1], &disagree).status, 200);
    let r = as_token(&app, "POST", &format!("/v1/tournaments/{rated}/start"), &tokens[0], &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let bob = r.json()["players"].as_array().unwrap().iter().find(|p| p["name"] == "Bob").unwrap().clone();
    assert_eq!(bob["withdrawn"], true, "{bob}");
    let games = all_games(&app, &rated);
    assert!(games.iter().all(|g| g["first"] != "Bob" && g["second"] != "Bob"), "{games:?}");
    assert_eq!(games.len(), 1, "Ann meets Robo: {games:?}");
}

/// An event with a start time starts by itself then; one short of players
/// at its start time is called off. A correspondence round-robin played
/// all at once pairs every round at the start.
#[test]
fn events_start_at_their_time_or_are_called_off_and_all_at_once_pairs_every_round() {
    let app = spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob", "Cy", "Dee"]);
    let soon = leapfrog::wire::game::rfc3339(leapfrog::process::now_ms() + 2_000);
    let timed = |min: usize| {
        let body = terms(json!({"format": "round_robin", "starts_at": soon, "min_players": min}));
        let r = as_token(&app, "POST", "/v1/tournaments", &tokens[0], &body);
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["id"].as_str().unwrap().to_string()
    };
    let (full, short) = (timed(2), timed(3));
    for (id, who) in [(&full, &tokens[0]), (&full, &tokens[1]), (&short, &tokens[0])] {
        assert_eq!(
            as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), who, &json!({})).status,
            200
        );
    }
    let deadline = Instant::now() + Duration::from_secs(15);
    let status =
        |id: &str| app.get(&format!("/v1/tournaments/{id}")).json()["status"].as_str().unwrap().to_string();
    while status(&full) == "open" || status(&short) == "open" {
        assert!(Instant::now() < deadline, "neither started nor called off");
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!((status(&full), status(&short)), ("running".to_string(), "canceled".to_string()));
    // All at once: four players, three rounds, six games from the start.
    let id = started(
        &app,
        &tokens,
        json!({"format": "round_robin", "move_time_limit": null, "days_per_move": 3, "all_at_once": true}),
    );
    let t = app.get(&format!("/v1/tournaments/{id}")).json();
    assert_eq!((t["round"].as_i64(), t["rounds"].as_u64()), (Some(3), Some(3)), "{t}");
    let games = all_games(&app, &id);
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|g| g["game"].is_string()), "{games:?}");
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let over = play_out(&app, &id, &tokens, &names);
    assert_eq!(over["standings"].as_array().unwrap().len(), 4);
}
