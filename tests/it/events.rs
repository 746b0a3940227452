//! A game's event log through its streams: a client that reconnects with
//! `Last-Event-ID` after every event — a join, a leave, the start, a move,
//! a resignation, a time-out, the end, the rematch — assembles exactly
//! what an uninterrupted client saw, byte for byte, on SQLite and across
//! two processes on PostgreSQL; and games stored before there were logs
//! read back with their events.

use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Event, EventStream, ServerProcess, TestApp, pg, spawn_app};

/// An event as a client sees it: name, id and data — the whole of what
/// the server wrote for it.
type Seen = (String, Option<String>, String);

fn seen(e: Event) -> Seen {
    (e.event, e.id, e.data)
}

fn events_path(id: &str) -> String {
    format!("/v1/games/{id}/events")
}

/// Follows game `id` on `app` without a break until `last` (an event
/// name) comes: every event after the first `game` event.
fn uninterrupted(app: &TestApp, id: &str, last: &'static str) -> thread::JoinHandle<(Seen, Vec<Seen>)> {
    let mut stream = EventStream::open(app, &events_path(id), None);
    let snapshot = seen(stream.next().expect("the game as it stands"));
    thread::spawn(move || {
        let mut all = Vec::new();
        while let Some(e) = stream.next() {
            let done = e.event == last;
            all.push(seen(e));
            if done {
                break;
            }
        }
        (snapshot, all)
    })
}

/// Follows game `id` until `last` comes, reading one event a connection:
/// after each it closes the stream and opens another, with the event's id
/// as `Last-Event-ID`, on each of `apps` in turn.
fn reconnecting(apps: Vec<TestApp>, id: &str, last: &'static str) -> thread::JoinHandle<(Seen, Vec<Seen>)> {
    let path = events_path(id);
    // The game event and the first event after it on one connection: a
    // game with no events yet has no id to resume from.
    let mut first = EventStream::open(&apps[0], &path, None);
    let snapshot = seen(first.next().expect("the game as it stands"));
    thread::spawn(move || {
        let mut all = vec![seen(first.next().expect("the first event"))];
        drop(first);
        let deadline = Instant::now() + Duration::from_secs(120);
        while all.last().is_some_and(|e| e.0 != last) {
            assert!(Instant::now() < deadline, "no {last} after 120 s: {all:?}");
            let resume = all.last().and_then(|e| e.1.clone()).expect("every event has an id");
            let app = &apps[all.len() % apps.len()];
            let mut stream = EventStream::open(app, &path, Some(&resume));
            let e = stream.next().expect("the event after the last one seen");
            assert_ne!(e.event, "game", "a resumed stream sends no snapshot");
            all.push(seen(e));
        }
        (snapshot, all)
    })
}

fn post(app: &TestApp, path: &str, token: Option<&str>, body: &Value) -> Value {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(a) = &auth {
        headers.push(("Authorization", a.as_str()));
    }
    let r = app.request("POST", path, &headers, body.to_string().as_bytes());
    assert!(r.status < 300, "{path}: {} {}", r.status, r.body);
    r.json()
}

/// Plays the first legal move for the person to move, if a person is;
/// `false` when the game is over.
fn a_persons_move(app: &TestApp, id: &str, tokens: &[String]) -> bool {
    let g = app.get(&format!("/v1/games/{id}")).json();
    if g["status"] == "over" {
        return false;
    }
    let to_move = g["position"]["to_move"].as_u64().unwrap() as usize;
    if g["players"][to_move]["resigned"].is_null() {
        let path = app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["moves"][0]["path"].clone();
        let auth = format!("Bearer {}", tokens[to_move]);
        let headers = [("Content-Type", "application/json"), ("Authorization", auth.as_str())];
        let r = app.request(
            "POST",
            &format!("/v1/games/{id}/moves"),
            &headers,
            json!({"path": path}).to_string().as_bytes(),
        );
        // The computer may have moved for a resigned seat meanwhile.
        assert!(r.status == 201 || r.status == 409, "{}", r.body);
    }
    true
}

/// The events' names and ids, ids checked to run 0, 1, 2, … after the
/// snapshot's.
fn names(snapshot: &Seen, all: &[Seen]) -> Vec<String> {
    let first = snapshot.1.as_ref().map_or(0, |id| id.parse::<u64>().unwrap() + 1);
    for (i, e) in all.iter().enumerate() {
        assert_eq!(e.1.as_deref(), Some((first + i as u64).to_string().as_str()), "{e:?}");
    }
    all.iter().map(|e| e.0.clone()).filter(|n| n != "move").collect()
}

/// Seats joined, left and taken again, a move, resignations while the
/// computer plays the resigned seats, the end and the rematch: `act` makes
/// the changes, `follow` serves the uninterrupted stream, `apps` the
/// reconnecting one.
fn seats_moves_resignations_and_a_rematch(act: &TestApp, follow: &TestApp, apps: Vec<TestApp>) {
    let created = post(
        act,
        "/v1/games",
        None,
        &json!({"rules": {"preset": "old", "rows": 5, "cols": 5}, "seed": "5",
                "players": [{"name": "Ann"}, {"open": "public"}, {"open": "public"}]}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let ann = created["seats"][0]["token"].as_str().unwrap().to_string();
    let whole = uninterrupted(follow, &id, "rematch");
    let pieces = reconnecting(apps, &id, "rematch");
    let join = |name: &str| post(act, &format!("/v1/games/{id}/join"), None, &json!({"name": name}));
    let bob = join("Bob")["seat"]["token"].as_str().unwrap().to_string();
    post(act, &format!("/v1/games/{id}/leave"), Some(&bob), &json!({}));
    let bob = join("Bob")["seat"]["token"].as_str().unwrap().to_string();
    let cleo = join("Cleo")["seat"]["token"].as_str().unwrap().to_string();
    let tokens = [ann.clone(), bob.clone(), cleo.clone()];
    assert!(a_persons_move(act, &id, &tokens));
    assert!(a_persons_move(act, &id, &tokens));
    post(act, &format!("/v1/games/{id}/resign"), Some(&bob), &json!({}));
    assert!(a_persons_move(act, &id, &tokens));
    post(act, &format!("/v1/games/{id}/resign"), Some(&ann), &json!({}));
    post(act, &format!("/v1/games/{id}/resign"), Some(&cleo), &json!({}));
    post(act, &format!("/v1/games/{id}/rematch"), Some(&ann), &json!({}));
    let (whole_snapshot, whole) = whole.join().unwrap();
    let (pieces_snapshot, pieces) = pieces.join().unwrap();
    assert_eq!(pieces_snapshot, whole_snapshot);
    assert_eq!(pieces, whole, "reconnecting after every event");
    assert_eq!(
        names(&whole_snapshot, &whole),
        [
            "joined", "left", "joined", "joined", "started", "resigned", "resigned", "resigned", "over",
            "rematch"
        ]
    );
    // Every move event carries the game after it.
    for (_, _, data) in whole.iter().filter(|e| e.0 == "move") {
        let m: Value = serde_json::from_str(data).unwrap();
        assert_eq!(m["game"]["position"]["ply"], m["ply"].as_u64().unwrap() + 1, "{m}");
    }
}

/// A seat that runs out of time: `timed_out`, then `over`.
fn a_time_out(act: &TestApp, follow: &TestApp, apps: Vec<TestApp>) {
    let created = post(
        act,
        "/v1/games",
        None,
        &json!({"rules": {"preset": "old", "rows": 4, "cols": 4}, "seed": "5", "move_time_limit": 5,
                "players": [{"name": "Ann"}, {"name": "Bob"}]}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> =
        (0..2).map(|p| created["seats"][p]["token"].as_str().unwrap().to_string()).collect();
    let whole = uninterrupted(follow, &id, "over");
    let pieces = reconnecting(apps, &id, "over");
    assert!(a_persons_move(act, &id, &tokens));
    // Bob does not move: the server times his seat out after 5 s.
    let (whole_snapshot, whole) = whole.join().unwrap();
    let (_, pieces) = pieces.join().unwrap();
    assert_eq!(pieces, whole, "reconnecting after every event");
    assert_eq!(names(&whole_snapshot, &whole), ["timed_out", "over"]);
}

#[test]
fn a_client_reconnecting_after_every_event_sees_what_an_uninterrupted_one_saw_sqlite() {
    let app = spawn_app();
    let apps = || vec![TestApp::at(app.port)];
    thread::scope(|s| {
        s.spawn(|| seats_moves_resignations_and_a_rematch(&app, &app, apps()));
        s.spawn(|| a_time_out(&app, &app, apps()));
    });
}

#[test]
fn a_client_reconnecting_after_every_event_sees_what_an_uninterrupted_one_saw_across_processes_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url], &[]);
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    let apps = || vec![TestApp::at(a.app.port), TestApp::at(b.app.port)];
    thread::scope(|s| {
        s.spawn(|| seats_moves_resignations_and_a_rematch(&a.app, &b.app, apps()));
        s.spawn(|| a_time_out(&a.app, &b.app, apps()));
    });
}

/// Old `old` 3×3 games, seed 1, as the service stored them: the rule set,
/// the moves (with their positions after each) and a finished game's
/// result, as written before the event log.
const RULES: &str = r#"{"preset":"old","name":"old","rows":3,"cols":3,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{"letter":"O","name":"piece","value":1,"owner":null}],"fill":{"type":"random","weights":[1]},"capture":"shared","chain":"free","opening":{"type":"each_player_removes","kinds":null},"removals_score":true,"end":"highest_score","min_players":1,"max_players":64}"#;
/// Each move: notation, captured cells, and the position after it.
const MOVES: [(&str, &str, &str); 5] = [
    ("a1", r#"["a1"]"#, "OOO/OOO/1OO 1 1,0"),
    ("a2", r#"["a2"]"#, "OOO/1OO/1OO 2 1,1"),
    ("c1xa1", r#"["b1"]"#, "OOO/1OO/O2 3 2,1"),
    ("b3xb1", r#"["b2"]"#, "O1O/2O/O1O 4 2,2"),
    ("a1xc1", r#"["b1"]"#, "O1O/2O/2O 5 3,2"),
];
/// The result of the finished game, as stored before results said how
/// the game ended.
const RESULT: &str = r#"{"winners":[0],"shared":false,"standings":[{"player":0,"score":3,"rank":1,"resigned":false},{"player":1,"score":2,"rank":2,"resigned":false}]}"#;

/// Stores game `id` as the migrations up to `applied` (their number)
/// had it: in progress after three moves, or finished after five (with a
/// rematch, once games had one), each column a later migration added
/// written as the service of that time wrote it.
async fn store_old_game(pool: &sqlx::AnyPool, applied: usize, id: &str, finished: bool) {
    let moves = if finished { 5 } else { 3 };
    let (status, result) = if finished { ("over", Some(RESULT)) } else { ("playing", None) };
    let exec = |sql: &'static str| sqlx::query(sql);
    exec(
        "INSERT INTO games (id, version, rules, seed, players, position, status, result, created_at, updated_at) \
         VALUES ($1, $2, $3, '1', '[\"Ann\",\"Bob\"]', $4, $5, $6, 1000, $7)",
    )
    .bind(id)
    .bind(1 + moves as i64)
    .bind(RULES)
    .bind(MOVES[moves - 1].2)
    .bind(status)
    .bind(result)
    .bind(1000 + moves as i64)
    .execute(pool)
    .await
    .unwrap();
    for p in 0..2i64 {
        exec("INSERT INTO seats (game_id, player, name, token_hash) VALUES ($1, $2, $3, $4)")
            .bind(id)
            .bind(p)
            .bind(["Ann", "Bob"][p as usize])
            .bind(token(id, p).hash().as_str().to_string())
            .execute(pool)
            .await
            .unwrap();
    }
    for (ply, (notation, captures, _)) in MOVES[..moves].iter().enumerate() {
        exec("INSERT INTO moves (game_id, ply, player, notation, captures, gain, at) VALUES ($1, $2, $3, $4, $5, 1, $6)")
            .bind(id)
            .bind(ply as i64)
            .bind(ply as i64 % 2)
            .bind(*notation)
            .bind(*captures)
            .bind(1001 + ply as i64)
            .execute(pool)
            .await
            .unwrap();
    }
    // What later migrations added, as the service then wrote it.
    let later: [(usize, &str); 5] = [
        (2, "UPDATE games SET client = '192.0.2.7' WHERE id = $1"),
        (4, "UPDATE games SET turn_at = updated_at WHERE id = $1"),
        (5, "UPDATE games SET rematch = 'the-rematch' WHERE id = $1 AND status = 'over'"),
        (6, "UPDATE moves SET kinds = 'O' WHERE game_id = $1"),
        (8, "UPDATE games SET rated = 0 WHERE id = $1"),
    ];
    for (migration, sql) in later {
        if applied >= migration {
            exec(sql).bind(id).execute(pool).await.unwrap();
        }
    }
}

/// Games stored under every earlier schema, each in progress and finished,
/// read back through the games service with their events made from their
/// rows: moves in order (kinds replayed where none were stored), the end,
/// the rematch; and their logs go on from there.
async fn old_games_read_back_with_their_events(url: &str) {
    use leapfrog::events::{Hub, StreamLimits};
    use leapfrog::play::Games;
    sqlx::any::install_default_drivers();
    let migrator = sqlx::migrate!("./migrations");
    let versions: Vec<i64> = migrator.iter().map(|m| m.version).collect();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let mut games = Vec::new();
    // Every migration but the log's own.
    for (i, version) in versions[..versions.len() - 1].iter().enumerate() {
        migrator.run_to(*version, &pool).await.unwrap();
        for finished in [false, true] {
            let id = format!("old-{i}-{}", if finished { "over" } else { "playing" });
            store_old_game(&pool, i + 1, &id, finished).await;
            games.push((i + 1, id, finished));
        }
    }
    pool.close().await;
    let store = leapfrog::store::Store::open(url, leapfrog::store::Durability::Fast).await.unwrap();
    let hub = Hub::new(store.clone(), StreamLimits { total: 1, per_game: 1, per_client: 0 });
    let (service, _wakes) = Games::new(store.clone(), hub);
    for (applied, id, finished) in &games {
        let game = service.load(id).await.unwrap();
        let log = store.events(id, 0, 100).await.unwrap();
        assert_eq!(game.events(), Some(log.len() as u64), "{id}");
        let kinds: Vec<&str> = log.iter().map(|e| e.kind.as_str()).collect();
        let moves = if *finished { 5 } else { 3 };
        let mut expected = vec!["move"; moves];
        if *finished {
            expected.push("over");
            if *applied >= 5 {
                expected.push("rematch");
            }
        }
        assert_eq!(kinds, expected, "{id}");
        for (ply, e) in log.iter().take(moves).enumerate() {
            let m: Value = serde_json::from_str(&e.data).unwrap();
            assert_eq!(
                (m["ply"].as_u64(), m["notation"].as_str()),
                (Some(ply as u64), Some(MOVES[ply].0)),
                "{id}"
            );
            assert_eq!(m["kinds"], json!(["O"]), "{id}: kinds stored or replayed");
            assert!(m.get("game").is_none(), "{id}: the game after an old move was not stored");
            assert_eq!((e.seq, e.at), (ply as i64, 1001 + ply as i64));
        }
        if let Some(rematch) = log.iter().find(|e| e.kind == "rematch") {
            assert_eq!(rematch.data, r#"{"id":"the-rematch"}"#);
        }
        // Made once: read again, the same log.
        service.load(id).await.unwrap();
        assert_eq!(store.events(id, 0, 100).await.unwrap(), log);
    }
    // An old game in progress goes on: its next changes are numbered after
    // the log made for it, and its history is the log's moves, the three
    // made from its rows and the new one.
    let (_, id, _) = &games[0];
    let request = leapfrog::game::MoveRequest {
        credential: leapfrog::game::Credential::Seat(token(id, 1)),
        expected: None,
        key: None,
        mv: Ok(MOVES[3].0.parse().unwrap()),
    };
    let played = service.play(id, request).await;
    assert!(played.is_ok(), "{played:?}");
    let game = service.load(id).await.unwrap();
    let history = service.history(&game, 0).await.unwrap();
    let notations: Vec<String> = history.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(notations, MOVES[..4].iter().map(|m| m.0).collect::<Vec<_>>());
    assert_eq!(history.iter().map(|m| m.at).take(3).collect::<Vec<_>>(), [1001, 1002, 1003]);
    assert!(history.iter().all(|m| m.captures.iter().all(|c| c.kind == 'O')), "{history:?}");
    let resigned = service.resign(id, &leapfrog::game::Credential::Seat(token(id, 0))).await;
    assert!(resigned.is_ok(), "{resigned:?}");
    let log = store.events(id, 3, 10).await.unwrap();
    let kinds: Vec<(i64, &str)> = log.iter().map(|e| (e.seq, e.kind.as_str())).collect();
    assert_eq!(kinds, [(3, "move"), (4, "resigned"), (5, "over")]);
    store.close().await;
}

/// The token of seat `player` of old game `id`.
fn token(id: &str, player: i64) -> leapfrog::game::SeatToken {
    leapfrog::game::SeatToken::parse(&format!("{id}-seat-{player}")).unwrap()
}

#[test]
fn games_stored_under_every_earlier_schema_read_back_with_their_events_sqlite() {
    let db = crate::common::temp_db();
    let _files = crate::common::TempFiles::of_url(&format!("sqlite://{}", db.display()));
    let url = format!("sqlite://{}?mode=rwc", db.display());
    actix_web::rt::System::new().block_on(old_games_read_back_with_their_events(&url));
}

#[test]
fn games_stored_under_every_earlier_schema_read_back_with_their_events_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    actix_web::rt::System::new().block_on(old_games_read_back_with_their_events(&url));
}
