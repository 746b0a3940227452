//! The service under abuse: concurrent retries, lost races, floods of
//! requests from one client, event streams at their limits, and the
//! process's open-file limit.

use std::collections::BTreeMap;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use crate::common::{EventStream, Response, ServerProcess, TestApp, pg, spawn_app, spawn_with};
use crate::games::{GameRef, create, play, play_first};
use leapfrog::server::config::ServeConfig;
use serde_json::{Value, json};

/// Sends `n` requests at once (threads released together by a barrier)
/// and returns the answers in thread order.
fn at_once(
    app: &TestApp,
    n: usize,
    send: impl Fn(&TestApp, usize) -> Response + Send + Sync + 'static,
) -> Vec<Response> {
    let barrier = Arc::new(Barrier::new(n));
    let send = Arc::new(send);
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let app = app.clone();
            let (barrier, send) = (barrier.clone(), send.clone());
            std::thread::spawn(move || {
                barrier.wait();
                send(&app, i)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

fn tally(answers: &[Response]) -> BTreeMap<u16, usize> {
    let mut t = BTreeMap::new();
    for r in answers {
        *t.entry(r.status).or_default() += 1;
    }
    t
}

fn same_game(game: &GameRef) -> GameRef {
    GameRef { id: game.id.clone(), tokens: game.tokens.clone() }
}

fn keyed_retries(app: &TestApp) {
    let game = create(app, json!({"preset": "old", "rows": 8, "cols": 8}), 2, 3);
    let before = app.game_snapshot(&game.id);
    let g = same_game(&game);
    let answers =
        at_once(app, 16, move |app, _| play(app, &g, 0, &json!(["d4"]), &[("Idempotency-Key", "one-move")]));
    assert_eq!(tally(&answers), BTreeMap::from([(201, 16)]), "every send gets the first answer");
    assert!(answers.iter().all(|r| r.body == answers[0].body), "the same body to every send");
    assert!(answers.iter().all(|r| r.header("etag") == Some("\"2\"")));
    let history = app.get(&format!("/v1/games/{}/moves", game.id)).json();
    assert_eq!(history["moves"].as_array().unwrap().len(), 1, "applied once");
    assert_ne!(app.game_snapshot(&game.id), before);

    // Later, the same key and move: the same answer again, though the game
    // has moved on since.
    assert_eq!(play(app, &game, 1, &json!(["d5"]), &[]).status, 201);
    let late = play(app, &game, 0, &json!(["d4"]), &[("Idempotency-Key", "one-move")]);
    assert_eq!((late.status, &late.body), (201, &answers[0].body));

    // The key with another move is refused, and changes nothing.
    let after = app.game_snapshot(&game.id);
    let reused = play(app, &game, 0, &json!(["e4"]), &[("Idempotency-Key", "one-move")]);
    assert_eq!(reused.status, 422, "{}", reused.body);
    let problem = reused.json();
    assert_eq!(problem["type"], "urn:leapfrog:problem:idempotency-key-reused");
    assert_eq!(problem["field"], "Idempotency-Key");
    assert!(problem["detail"].as_str().unwrap().contains("d4"), "{problem}");
    assert_eq!(app.game_snapshot(&game.id), after);
}

#[test]
fn concurrent_sends_of_one_keyed_move_all_get_the_first_answer_sqlite() {
    keyed_retries(&spawn_app());
}

#[test]
fn concurrent_sends_of_one_keyed_move_all_get_the_first_answer_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let mut config = ServeConfig::for_tests();
    config.database.url = url;
    keyed_retries(&spawn_with(config));
}

#[test]
fn a_seat_that_loses_a_race_without_if_match_gets_409_never_403() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 8, "cols": 8}), 2, 3);
    let cells = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"];
    let g = same_game(&game);
    let answers = at_once(&app, 16, move |app, i| play(app, &g, 0, &json!([cells[i % 8]]), &[]));
    assert_eq!(tally(&answers), BTreeMap::from([(201, 1), (409, 15)]));
    let lost = answers.iter().find(|r| r.status == 409).unwrap().json();
    assert!(lost["detail"].as_str().unwrap().contains("read the game again"), "{lost}");
    // The rule, for a seat whose own move is the latest: without If-Match
    // it crossed that move (409); with the version it read, it knows the
    // turn has passed (403). A seat that did not just move gets 403.
    assert_eq!(play(&app, &game, 0, &json!(["b1"]), &[]).status, 409);
    assert_eq!(play(&app, &game, 0, &json!(["b1"]), &[("If-Match", "\"2\"")]).status, 403);
    let taken = app.get(&format!("/v1/games/{}/moves", game.id)).json()["moves"][0]["path"][0].clone();
    let second = ["a1", "b2"].iter().find(|c| json!(c) != taken).unwrap();
    assert_eq!(play(&app, &game, 1, &json!([second]), &[]).status, 201);
    assert_eq!(play(&app, &game, 1, &json!(["a2"]), &[]).status, 409);
}

/// A POST with JSON from `client` (sent as `X-Forwarded-For`).
fn post_as(app: &TestApp, client: &str, path: &str, body: &Value, auth: Option<&str>) -> Response {
    let bearer = auth.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json"), ("X-Forwarded-For", client)];
    if let Some(b) = &bearer {
        headers.push(("Authorization", b.as_str()));
    }
    app.request("POST", path, &headers, body.to_string().as_bytes())
}

fn assert_429(r: &Response) {
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.json()["type"], "urn:leapfrog:problem:too-many-requests");
    assert!(r.json()["limit"].as_str().is_some_and(|l| l.starts_with("rate_")), "{}", r.body);
    let wait: u64 = r.header("retry-after").expect("Retry-After").parse().unwrap();
    assert!(wait >= 1, "Retry-After: {wait}");
}

#[test]
fn floods_from_one_client_get_429_with_retry_after_and_others_are_untouched() {
    let mut config = ServeConfig::for_tests();
    config.limits.create_rate = leapfrog::api::limits::Rate { burst: 3.0, per_second: 0.01 };
    config.limits.move_rate = leapfrog::api::limits::Rate { burst: 4.0, per_second: 0.01 };
    config.limits.stream_rate = leapfrog::api::limits::Rate { burst: 2.0, per_second: 0.01 };
    config.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let app = spawn_with(config);
    let new_game =
        json!({"rules": {"preset": "old", "rows": 8, "cols": 8}, "players": [{"name": "A"}, {"name": "B"}]});
    let mut games = Vec::new();
    for _ in 0..3 {
        let r = post_as(&app, "198.51.100.1", "/v1/games", &new_game, None);
        assert_eq!(r.status, 201, "{}", r.body);
        games.push(r.json());
    }
    let flood = post_as(&app, "198.51.100.1", "/v1/games", &new_game, None);
    assert_429(&flood);
    assert!(flood.json()["detail"].as_str().unwrap().contains("games created"), "{}", flood.body);
    // Another client behind the same trusted proxy has its own bucket.
    assert_eq!(post_as(&app, "198.51.100.2", "/v1/games", &new_game, None).status, 201);

    // Moves: four, then 429; the refused move changes nothing.
    let game = &games[0];
    let id = game["id"].as_str().unwrap();
    let token = |p: usize| game["seats"][p]["token"].as_str().unwrap().to_string();
    let moves_path = format!("/v1/games/{id}/moves");
    for (p, cell) in [(0, "d4"), (1, "d5")] {
        let r = post_as(&app, "198.51.100.1", &moves_path, &json!({"path": [cell]}), Some(&token(p)));
        assert_eq!(r.status, 201, "{}", r.body);
    }
    for _ in 0..2 {
        let r = post_as(&app, "198.51.100.1", &moves_path, &json!({"path": ["zz"]}), Some(&token(0)));
        assert_eq!(r.status, 422, "a refused move counts too");
    }
    let before = app.game_snapshot(id);
    let flood = post_as(&app, "198.51.100.1", &moves_path, &json!({"path": ["d6", "d4"]}), Some(&token(0)));
    assert_429(&flood);
    assert_eq!(app.game_snapshot(id), before);

    // Streams: two, then 429.
    let events = format!("/v1/games/{id}/events");
    let open = |client: &str| {
        app.request("GET", &events, &[("X-Forwarded-For", client), ("Connection", "close")], b"")
    };
    let _streams: Vec<EventStream> =
        (0..2).map(|_| EventStream::open_as(&app, &events, "198.51.100.1")).collect();
    assert_429(&open("198.51.100.1"));
}

#[test]
fn a_whole_game_played_as_fast_as_it_goes_and_a_page_of_streams_are_never_limited() {
    // The default limits.
    let app = spawn_app();
    let game = create(&app, json!({"preset": "murray", "rows": 15, "cols": 15}), 2, 9);
    let streams: Vec<EventStream> =
        (0..8).map(|_| EventStream::open(&app, &format!("/v1/games/{}/events", game.id), None)).collect();
    let mut plies = 0;
    while let Some(r) = play_first(&app, &game) {
        assert_eq!(r.status, 201, "ply {plies}: {}", r.body);
        plies += 1;
    }
    assert!(plies > 30, "a whole 15×15 game: {plies} plies");
    drop(streams);
}

#[test]
fn unfinished_games_are_capped_per_client_and_finished_ones_free_a_place() {
    let mut config = ServeConfig::for_tests();
    config.limits.max_unfinished_games = 2;
    let app = spawn_with(config);
    let tiny = json!({"preset": "old", "rows": 3, "cols": 3});
    let first = create(&app, tiny.clone(), 1, 1);
    create(&app, tiny.clone(), 1, 1);
    let names = json!([{"name": "A"}]);
    let capped = app.post_json("/v1/games", &json!({"rules": tiny, "players": names}));
    assert_eq!(capped.status, 429, "{}", capped.body);
    assert!(
        capped.json()["detail"].as_str().unwrap().contains("neither over nor abandoned"),
        "{}",
        capped.body
    );
    while let Some(r) = play_first(&app, &first) {
        assert_eq!(r.status, 201);
    }
    assert_eq!(app.post_json("/v1/games", &json!({"rules": tiny, "players": names})).status, 201);
}

fn streams_open(app: &TestApp) -> u64 {
    app.get("/readyz").json()["streams_open"].as_u64().unwrap()
}

#[test]
fn streams_are_limited_per_game_and_in_all_and_a_closed_one_frees_its_place_at_once() {
    let mut config = ServeConfig::for_tests();
    config.limits.max_streams = 3;
    config.limits.max_streams_per_game = 2;
    let app = spawn_with(config);
    let games: Vec<GameRef> =
        (0..3).map(|s| create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, s)).collect();
    let path = |g: &GameRef| format!("/v1/games/{}/events", g.id);
    let a1 = EventStream::open(&app, &path(&games[0]), None);
    let _a2 = EventStream::open(&app, &path(&games[0]), None);
    let full = app.get(&path(&games[0]));
    assert_eq!(full.status, 503, "{}", full.body);
    assert!(full.header("retry-after").is_some());
    assert!(full.json()["detail"].as_str().unwrap().contains("this game has 2"), "{}", full.body);
    let _b = EventStream::open(&app, &path(&games[1]), None);
    let full = app.get(&path(&games[2]));
    assert_eq!(full.status, 503);
    assert!(full.json()["detail"].as_str().unwrap().contains("the server has 3"), "{}", full.body);
    assert_eq!(streams_open(&app), 3);
    // /healthz and moves still work with the streams at their limit.
    assert_eq!(app.get("/healthz").status, 200);
    assert_eq!(play_first(&app, &games[2]).unwrap().status, 201);

    // A client that goes away gives its place back within a heartbeat or
    // two (the server notices only when it writes).
    drop(a1);
    let deadline = Instant::now() + Duration::from_secs(5);
    while streams_open(&app) > 2 {
        assert!(Instant::now() < deadline, "a closed stream still holds its place after 5 s");
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut c = EventStream::open(&app, &path(&games[2]), None);
    let first = c.next().unwrap();
    assert_eq!(
        (first.event.as_str(), first.id.as_deref()),
        ("game", Some("0")),
        "with the move made meanwhile"
    );
}

#[test]
fn the_server_raises_its_open_file_limit_and_keeps_a_reserve_from_streams() {
    if std::process::Command::new("prlimit").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "prlimit (util-linux) is needed under CI");
        eprintln!("SKIPPED: the open-file limit test needs prlimit (util-linux)");
        return;
    }
    let server = ServerProcess::start_under(&["prlimit", "--nofile=512:1024", "--"], &[], &[]);
    let ready = server.app.get("/readyz").json();
    // Raised from 512 to the hard limit, 1024; 256 kept back.
    assert_eq!(ready["streams_limit"], 1024 - leapfrog::server::startup::RESERVED_FILES, "{ready}");
}
