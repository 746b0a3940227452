//! Persisted games end to end: SQLite always, PostgreSQL in the same suite
//! (a throwaway cluster; see `common/pg.rs`). Over 500 lines: one file for
//! the persisted-games resource, as each test file covers one.

use std::collections::BTreeSet;
use std::time::Duration;

use crate::common::{EventStream, Response, ServerProcess, TestApp, pg, spawn_app};
use jump_capture::{Move, Position, Rules};
use serde_json::{Value, json};

/// A created game: its id and one token per seat.
pub(crate) struct GameRef {
    pub(crate) id: String,
    pub(crate) tokens: Vec<String>,
}

pub(crate) fn create(app: &TestApp, rules: Value, players: usize, seed: u64) -> GameRef {
    let names: Vec<Value> = (0..players).map(|i| json!({"name": format!("P{i}")})).collect();
    let r = app.post_json("/v1/games", &json!({"rules": rules, "players": names, "seed": seed}));
    assert_eq!(r.status, 201, "{}", r.body);
    let v = r.json();
    let id = v["id"].as_str().unwrap().to_string();
    assert_eq!(r.header("location"), Some(format!("/v1/games/{id}").as_str()));
    assert_eq!(r.header("etag"), Some("\"1\""));
    let tokens =
        v["seats"].as_array().unwrap().iter().map(|s| s["token"].as_str().unwrap().to_string()).collect();
    GameRef { id, tokens }
}

pub(crate) fn play(
    app: &TestApp,
    game: &GameRef,
    player: usize,
    path: &Value,
    extra: &[(&str, &str)],
) -> Response {
    let auth = format!("Bearer {}", game.tokens[player]);
    let mut headers = vec![("Content-Type", "application/json"), ("Authorization", auth.as_str())];
    headers.extend_from_slice(extra);
    app.request(
        "POST",
        &format!("/v1/games/{}/moves", game.id),
        &headers,
        json!({"path": path}).to_string().as_bytes(),
    )
}

/// Plays the first legal move of the current position; returns the answer.
pub(crate) fn play_first(app: &TestApp, game: &GameRef) -> Option<Response> {
    let g = app.get(&format!("/v1/games/{}", game.id)).json();
    if g["status"] == "over" {
        return None;
    }
    let moves = app.get(&format!("/v1/games/{}/legal-moves?limit=1", game.id)).json();
    let path = moves["moves"][0]["path"].clone();
    let player = g["position"]["to_move"].as_u64().unwrap() as usize;
    Some(play(app, game, player, &path, &[]))
}

/// Plays a whole game and checks the result and the replay.
fn whole_game(app: &TestApp) {
    let game = create(app, json!({"preset": "froglet", "rows": 6, "cols": 6}), 3, 11);
    let mut plies = 0;
    while let Some(r) = play_first(app, &game) {
        assert_eq!(r.status, 201, "{}", r.body);
        plies += 1;
    }
    let g = app.get(&format!("/v1/games/{}", game.id)).json();
    assert_eq!(g["status"], "over");
    assert_eq!(g["version"], plies + 1);
    // The crate, replaying the history from the seed, agrees.
    let history = app.get(&format!("/v1/games/{}/moves", game.id)).json();
    let moves = history["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, plies);
    let rules = Rules::new(jump_capture::Preset::Froglet.spec().with_size(6, 6)).unwrap();
    let (mut pos, _) = Position::start(rules, 3, Some(11)).unwrap();
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i as u64, "no gaps");
        assert_eq!(m["player"], pos.to_move() as u64);
        pos.play(&m["notation"].as_str().unwrap().parse::<Move>().unwrap()).unwrap();
    }
    assert_eq!(g["position"]["notation"], pos.to_string());
    let outcome = pos.outcome().unwrap();
    assert_eq!(g["result"]["winners"], json!(outcome.winners));
    let replayed = app.get(&format!("/v1/games/{}/positions/{plies}", game.id)).json();
    assert_eq!(replayed["notation"], pos.to_string());
    let start = app.get(&format!("/v1/games/{}/positions/0", game.id)).json();
    assert_eq!(start["ply"], 0);
    assert_eq!(app.get(&format!("/v1/games/{}/positions/{}", game.id, plies + 1)).status, 404);
    // No more moves.
    let r = play(app, &game, pos.to_move(), &json!(["a1", "a3"]), &[]);
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["type"], "urn:leapfrog:problem:game-over");
}

#[test]
fn a_whole_game_is_played_to_the_end_and_its_history_replays_sqlite() {
    whole_game(&spawn_app());
}

#[test]
fn a_whole_game_is_played_to_the_end_and_its_history_replays_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let server = ServerProcess::start(&["--database-url", &url], &[]);
    whole_game(&server.app);
}

#[test]
fn if_match_compares_versions_strongly_and_refuses_what_is_not_an_etag() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 1);
    // A weak tag of the right version does not pass the strong comparison.
    assert_eq!(play(&app, &game, 0, &json!(["a1"]), &[("If-Match", "W/\"1\"")]).status, 412);
    // A bare version is not an entity tag: the answer says how to write one.
    let bare = play(&app, &game, 0, &json!(["a1"]), &[("If-Match", "1")]);
    assert_eq!(bare.status, 400, "{}", bare.body);
    assert_eq!(bare.json()["field"], "If-Match");
    assert!(bare.json()["detail"].as_str().unwrap().contains(r#""3""#), "{}", bare.body);
    // The strong tag, alone or in a list with a weak one, passes.
    assert_eq!(play(&app, &game, 0, &json!(["a1"]), &[("If-Match", "W/\"1\", \"1\"")]).status, 201);
    assert_eq!(play(&app, &game, 1, &json!(["b1"]), &[("If-Match", "*")]).status, 201);
}

#[test]
fn seats_need_their_token_and_their_turn_and_no_plain_token_is_stored() {
    let db = crate::common::temp_db();
    let _files = crate::common::TempFiles::of_url(&format!("sqlite://{}", db.display()));
    let config = leapfrog::server::config::ServeConfig {
        database: leapfrog::server::config::DatabaseArgs {
            url: format!("sqlite://{}", db.display()),
            durability: leapfrog::store::Durability::Full,
            pool_size: leapfrog::store::DEFAULT_POOL_SIZE,
        },
        ..leapfrog::server::config::ServeConfig::for_tests()
    };
    let app = crate::common::spawn_with(config);
    let game = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 1);
    let path = format!("/v1/games/{}/moves", game.id);
    let body = json!({"path": ["a1"]}).to_string();
    let none = app.request("POST", &path, &[("Content-Type", "application/json")], body.as_bytes());
    assert_eq!(none.status, 401);
    assert_eq!(none.header("www-authenticate"), Some("Bearer"));
    let wrong = app.request("POST", &path, &[("Authorization", "Bearer not-a-token")], body.as_bytes());
    assert_eq!(wrong.status, 401);
    let other = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 1);
    let foreign = format!("Bearer {}", other.tokens[0]);
    assert_eq!(app.request("POST", &path, &[("Authorization", &foreign)], body.as_bytes()).status, 401);
    let not_yours = play(&app, &game, 1, &json!(["a1"]), &[]);
    assert_eq!(not_yours.status, 403);
    assert_eq!(not_yours.json()["detail"], "it is player 0's turn, not player 1's");
    assert_eq!(play(&app, &game, 0, &json!(["a1"]), &[]).status, 201);
    // The database holds hashes, never the tokens.
    let mut bytes = std::fs::read(&db).unwrap();
    bytes.extend(std::fs::read(db.with_extension("db-wal")).unwrap_or_default());
    let text = String::from_utf8_lossy(&bytes);
    for token in game.tokens.iter().chain(&other.tokens) {
        assert!(!text.contains(token.as_str()), "a plain token is stored");
    }
    assert!(text.contains("P0"), "the database file was read");
}

#[test]
fn refused_requests_change_nothing() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 1);
    assert_eq!(play(&app, &game, 0, &json!(["a1"]), &[]).status, 201);
    let before = app.game_snapshot(&game.id);
    let path = format!("/v1/games/{}/moves", game.id);
    let auth = format!("Bearer {}", game.tokens[1]);
    let refusals: Vec<(u16, Response)> = vec![
        (422, play(&app, &game, 1, &json!(["d4", "d2"]), &[])),
        (422, play(&app, &game, 1, &json!(["zz"]), &[])),
        (422, play(&app, &game, 1, &json!(["a1", "a3"]), &[])),
        (403, play(&app, &game, 0, &json!(["b1"]), &[("If-Match", "\"2\"")])),
        (409, play(&app, &game, 0, &json!(["b1"]), &[])),
        (401, app.request("POST", &path, &[], b"{\"path\": [\"b1\"]}")),
        (412, play(&app, &game, 1, &json!(["b1"]), &[("If-Match", "\"1\"")])),
        (400, app.request("POST", &path, &[("Authorization", &auth)], b"{\"path\": ")),
        (400, app.request("POST", &path, &[("Authorization", &auth)], b"{\"path\": \"b1\"}")),
    ];
    for (want, r) in refusals {
        assert_eq!(r.status, want, "{}", r.body);
        assert_eq!(r.header("content-type"), Some("application/problem+json"));
    }
    assert_eq!(app.game_snapshot(&game.id), before, "game row and history are unchanged");
    assert_eq!(play(&app, &game, 1, &json!(["b1"]), &[("If-Match", "\"2\"")]).status, 201);
}

#[test]
fn a_retry_with_the_same_idempotency_key_replays_the_first_answer() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 1);
    let first = play(&app, &game, 0, &json!(["c3"]), &[("Idempotency-Key", "move-1")]);
    assert_eq!(first.status, 201);
    let again = play(&app, &game, 0, &json!(["c3"]), &[("Idempotency-Key", "move-1")]);
    assert_eq!(again.status, 201);
    assert_eq!(again.body, first.body);
    let history = app.get(&format!("/v1/games/{}/moves", game.id)).json();
    assert_eq!(history["moves"].as_array().unwrap().len(), 1, "applied once");
    // A new key is a new request: now it is player 1's turn.
    let second =
        play(&app, &game, 0, &json!(["d4"]), &[("Idempotency-Key", "move-2"), ("If-Match", "\"2\"")]);
    assert_eq!(second.status, 403);
}

#[test]
fn etags_give_304_until_the_game_changes() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "murray", "rows": 5, "cols": 5}), 2, 4);
    let path = format!("/v1/games/{}", game.id);
    let r = app.get(&path);
    assert_eq!(r.header("etag"), Some("\"1\""));
    assert_eq!(app.request("GET", &path, &[("If-None-Match", "\"1\"")], b"").status, 304);
    assert_eq!(play(&app, &game, 0, &json!(["a1"]), &[]).status, 201);
    let r = app.request("GET", &path, &[("If-None-Match", "\"1\"")], b"");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("etag"), Some("\"2\""));
    assert_eq!(app.get("/v1/games/no-such-game").status, 404);
}

#[test]
fn the_listing_pages_newest_first_and_filters_by_status() {
    let app = spawn_app();
    let ids: Vec<String> = (0..5)
        .map(|i| {
            std::thread::sleep(Duration::from_millis(3));
            create(&app, json!({"preset": "old", "rows": 3, "cols": 3}), 1, i).id
        })
        .collect();
    let mut seen = Vec::new();
    let mut url = "/v1/games?limit=2".to_string();
    loop {
        let page = app.get(&url).json();
        for g in page["games"].as_array().unwrap() {
            seen.push(g["id"].as_str().unwrap().to_string());
        }
        match page["next_cursor"].as_str() {
            Some(c) => url = format!("/v1/games?limit=2&cursor={c}"),
            None => break,
        }
    }
    let newest_first: Vec<String> = ids.iter().rev().cloned().collect();
    assert_eq!(seen, newest_first);
    let playing = app.get("/v1/games?status=playing").json();
    assert_eq!(playing["games"].as_array().unwrap().len(), 0);
    let opening = app.get("/v1/games?status=opening").json();
    assert_eq!(opening["games"].as_array().unwrap().len(), 5);
    assert_eq!(app.get("/v1/games?limit=0").status, 422);
    assert_eq!(app.get("/v1/games?status=won").status, 400);
}

#[test]
fn bad_query_strings_and_path_segments_are_problems_too() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 3, "cols": 3}), 1, 1);
    let cases = [
        ("/v1/games?status=won".to_string(), 400, "status"),
        ("/v1/games?colour=red".to_string(), 400, "colour"),
        (format!("/v1/games/{}/legal-moves?limit=many", game.id), 400, "limit"),
        (format!("/v1/games/{}/legal-moves?x=1", game.id), 400, "unknown field"),
        (format!("/v1/games/{}/positions/-1", game.id), 404, "-1"),
        (format!("/v1/games/{}/positions/99999999999", game.id), 404, "99999999999"),
        (format!("/v1/games/{}/positions/7", game.id), 404, "ply 7"),
    ];
    for (url, status, says) in cases {
        let r = app.get(&url);
        assert_eq!(r.status, status, "{url}: {}", r.body);
        assert_eq!(r.header("content-type"), Some("application/problem+json"), "{url}");
        let detail = r.json()["detail"].as_str().unwrap().to_string();
        assert!(detail.contains(says), "{url}: {detail}");
    }
}

/// The next `n` moves of a stream, past the `game` event (the game as it
/// stands, first on a fresh stream). In a game with no seat events each
/// move's event number is its ply.
fn moves_seen(stream: &mut EventStream, n: usize) -> Vec<Value> {
    (0..n)
        .map(|_| {
            let mut e = stream.next().expect("an event");
            while e.event == "game" {
                e = stream.next().expect("an event");
            }
            assert_eq!(e.event, "move");
            let v: Value = serde_json::from_str(&e.data).unwrap();
            assert_eq!(e.id.as_deref(), Some(v["ply"].to_string().as_str()));
            v
        })
        .collect()
}

#[test]
fn events_stream_moves_resume_after_last_event_id_and_end_with_over() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 3, "cols": 3}), 1, 1);
    let mut stream = EventStream::open(&app, &format!("/v1/games/{}/events", game.id), None);
    // First the game as it stands: no move yet, so no id to resume from.
    let first = stream.next().unwrap();
    assert_eq!((first.event.as_str(), first.id.as_deref()), ("game", None));
    let snapshot: Value = serde_json::from_str(&first.data).unwrap();
    assert_eq!((&snapshot["id"], &snapshot["position"]["ply"]), (&json!(game.id), &json!(0)));
    assert_eq!(play_first(&app, &game).unwrap().status, 201);
    let first = moves_seen(&mut stream, 1);
    assert_eq!(first[0]["ply"], 0);
    assert_eq!(play_first(&app, &game).unwrap().status, 201);
    assert_eq!(moves_seen(&mut stream, 1)[0]["ply"], 1);
    drop(stream);
    // Moves made while disconnected arrive after a reconnect, none twice.
    assert_eq!(play_first(&app, &game).unwrap().status, 201);
    let mut resumed = EventStream::open(&app, &format!("/v1/games/{}/events", game.id), Some("1"));
    // Exactly the move missed (no `game` event: a resumed stream sends
    // only what the client has not seen), each move carrying the game
    // after it.
    let missed = moves_seen(&mut resumed, 1);
    assert_eq!((&missed[0]["ply"], &missed[0]["game"]["version"]), (&json!(2), &json!(4)));
    assert_eq!(missed[0]["game"]["position"]["ply"], 3);
    while let Some(r) = play_first(&app, &game) {
        assert_eq!(r.status, 201);
    }
    let total = app.get(&format!("/v1/games/{}/moves", game.id)).json()["moves"].as_array().unwrap().len();
    let rest = moves_seen(&mut resumed, total - 3);
    assert_eq!(rest.last().unwrap()["ply"], total as u64 - 1);
    let over = resumed.next().unwrap();
    assert_eq!(over.event, "over");
    let v: Value = serde_json::from_str(&over.data).unwrap();
    assert_eq!(v["result"]["winners"], json!([0]));
    // It stays open for a rematch, tells it, and ends.
    let r = app.request(
        "POST",
        &format!("/v1/games/{}/rematch", game.id),
        &[("Authorization", &format!("Bearer {}", game.tokens[0]))],
        b"",
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let rematch = resumed.next().unwrap();
    assert_eq!(rematch.event, "rematch");
    assert_eq!(serde_json::from_str::<Value>(&rematch.data).unwrap()["id"], r.json()["game"]["id"]);
    assert_eq!(resumed.next(), None, "the stream ends after the rematch");
    // Later: resumed after the end, only the rematch (never `over` again);
    // resumed after the rematch, nothing; fresh, the game naming its
    // rematch, and the end.
    let path = format!("/v1/games/{}/events", game.id);
    let mut after_over = EventStream::open(&app, &path, over.id.as_deref());
    assert_eq!(after_over.next().map(|e| e.event), Some("rematch".into()));
    assert_eq!(after_over.next(), None);
    assert_eq!(EventStream::open(&app, &path, rematch.id.as_deref()).next(), None);
    let mut fresh = EventStream::open(&app, &path, None);
    let first = fresh.next().unwrap();
    assert_eq!(first.event, "game");
    assert_eq!(serde_json::from_str::<Value>(&first.data).unwrap()["rematch"], r.json()["game"]["id"]);
    assert_eq!(fresh.next(), None);
}

/// Starts a server process, streams moves from another thread, kills the
/// server with SIGKILL in the middle, restarts it on the same database,
/// and checks that every move answered 201 is there.
fn durability(db_url: &str) {
    let server = ServerProcess::start(&["--database-url", db_url], &[]);
    let app = server.app.clone();
    let game = create(&app, json!({"preset": "old", "rows": 12, "cols": 12}), 2, 5);
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let mover = {
        let app = app.clone();
        let game = GameRef { id: game.id.clone(), tokens: game.tokens.clone() };
        std::thread::spawn(move || {
            for _ in 0..400 {
                let r = std::panic::catch_unwind(|| play_first(&app, &game));
                match r {
                    Ok(Some(r)) if r.status == 201 => {
                        let v: Value = serde_json::from_str(&r.body).unwrap();
                        let _ = tx.send(v["version"].to_string());
                    }
                    _ => return,
                }
            }
        })
    };
    // Let some moves land, then kill -9.
    let mut answered = Vec::new();
    while answered.len() < 8 {
        answered.push(rx.recv_timeout(Duration::from_secs(30)).expect("moves are answered"));
    }
    server.signal("KILL");
    let _ = mover.join();
    answered.extend(rx.try_iter());
    let restarted = ServerProcess::start(&["--database-url", db_url], &[]);
    let g = restarted.app.get(&format!("/v1/games/{}", game.id)).json();
    let history = restarted.app.get(&format!("/v1/games/{}/moves", game.id)).json();
    let stored = history["moves"].as_array().unwrap().len();
    assert!(stored >= answered.len(), "{} moves answered 201, {stored} stored", answered.len());
    assert_eq!(g["version"].as_u64().unwrap(), stored as u64 + 1);
    // And the game goes on.
    let game_again = GameRef { id: game.id, tokens: game.tokens };
    if let Some(r) = play_first(&restarted.app, &game_again) {
        assert_eq!(r.status, 201);
    }
}

#[test]
fn every_answered_move_survives_kill_9_sqlite() {
    let db = format!("sqlite://{}", crate::common::temp_db().display());
    let _files = crate::common::TempFiles::of_url(&db);
    durability(&db);
}

#[test]
fn every_answered_move_survives_kill_9_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    durability(&url);
}

#[test]
fn two_processes_on_postgres_race_and_exactly_one_move_wins() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url], &[]);
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    let game = create(&a.app, json!({"preset": "old", "rows": 8, "cols": 8}), 2, 3);
    // Four plies in, then 32 submissions of the same ply, half to each.
    for _ in 0..4 {
        assert_eq!(play_first(&a.app, &game).unwrap().status, 201);
    }
    let g = a.app.get(&format!("/v1/games/{}", game.id)).json();
    let player = g["position"]["to_move"].as_u64().unwrap() as usize;
    let moves = a.app.get(&format!("/v1/games/{}/legal-moves", game.id)).json();
    let options: Vec<Value> = moves["moves"].as_array().unwrap().iter().map(|m| m["path"].clone()).collect();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(32));
    let handles: Vec<_> = (0..32)
        .map(|i| {
            let app = if i % 2 == 0 { &a.app } else { &b.app };
            let app = app.clone();
            let game = GameRef { id: game.id.clone(), tokens: game.tokens.clone() };
            let path = options[i % options.len()].clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                play(&app, &game, player, &path, &[]).status
            })
        })
        .collect();
    let statuses: Vec<u16> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(statuses.iter().filter(|&&s| s == 201).count(), 1, "{statuses:?}");
    // Losers read the game before the winner committed or after it: a
    // lost race either way, never "not your turn".
    let refused: BTreeSet<u16> = statuses.iter().copied().filter(|&s| s != 201).collect();
    assert_eq!(refused, BTreeSet::from([409]), "{statuses:?}");
    let history = b.app.get(&format!("/v1/games/{}/moves", game.id)).json();
    let plies: Vec<u64> =
        history["moves"].as_array().unwrap().iter().map(|m| m["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, (0..5).collect::<Vec<_>>(), "the history has no gaps");
    // With If-Match every loser is refused as stale.
    let version = b.app.get(&format!("/v1/games/{}", game.id)).json()["version"].to_string();
    let g = b.app.get(&format!("/v1/games/{}", game.id)).json();
    let player = g["position"]["to_move"].as_u64().unwrap() as usize;
    let path =
        b.app.get(&format!("/v1/games/{}/legal-moves?limit=1", game.id)).json()["moves"][0]["path"].clone();
    let stale = format!("\"{}\"", version.parse::<u64>().unwrap() - 1);
    assert_eq!(play(&b.app, &game, player, &path, &[("If-Match", &stale)]).status, 412);
}

#[test]
fn a_subscriber_on_one_process_sees_moves_made_through_another_in_order() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url], &[]);
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    let game = create(&a.app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 8);
    let mut stream = EventStream::open(&a.app, &format!("/v1/games/{}/events", game.id), None);
    for _ in 0..3 {
        assert_eq!(play_first(&b.app, &game).unwrap().status, 201);
    }
    let seen = moves_seen(&mut stream, 3);
    assert_eq!(seen.iter().map(|m| m["ply"].as_u64().unwrap()).collect::<Vec<_>>(), [0, 1, 2]);
    // Pushed by NOTIFY: nothing else reads the moves for a stream that has
    // caught up, so without it they would never come.
    drop(stream);
    assert_eq!(play_first(&b.app, &game).unwrap().status, 201);
    let mut resumed = EventStream::open(&a.app, &format!("/v1/games/{}/events", game.id), Some("2"));
    assert_eq!(play_first(&b.app, &game).unwrap().status, 201);
    let rest = moves_seen(&mut resumed, 2);
    assert_eq!(rest.iter().map(|m| m["ply"].as_u64().unwrap()).collect::<Vec<_>>(), [3, 4]);
}

#[test]
fn readyz_answers_while_the_database_does() {
    let app = spawn_app();
    let ready = app.get("/readyz").json();
    assert_eq!((&ready["status"], &ready["streams_open"]), (&json!("ok"), &json!(0)), "{ready}");
    assert!(ready["streams_limit"].as_u64().unwrap() >= 1, "{ready}");
}

/// Plays one move under `strace` and returns the trace between the
/// creation's answer and the move's: the syncs and writes the move made.
fn syscalls_of_one_move(durability: &str) -> Option<Vec<String>> {
    if std::process::Command::new("strace").arg("-V").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "strace is needed under CI");
        eprintln!("SKIPPED: the sync-before-answer test needs strace");
        return None;
    }
    let log = crate::common::temp_db().with_extension("strace");
    let log_path = log.display().to_string();
    let tracer =
        ["strace", "-f", "-y", "-s", "2000", "-e", "trace=fsync,fdatasync,write,writev,sendto,sendmsg", "-o"];
    let wrapper: Vec<&str> = tracer.iter().copied().chain([log_path.as_str(), "--"]).collect();
    let server = ServerProcess::start_under(&wrapper, &["--durability", durability], &[]);
    let game = create(&server.app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 1);
    assert_eq!(play(&server.app, &game, 0, &json!(["a1"]), &[]).status, 201);
    drop(server);
    let trace = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    let lines: Vec<String> = trace.lines().map(str::to_string).collect();
    // The answers: the game at version 1, then after the move at 2.
    let answer = |version: &str| {
        let etag = format!(r#"etag: \"{version}\""#);
        lines.iter().position(|l| l.contains("201 Created") && l.contains(&etag))
    };
    let (created, moved) =
        (answer("1").expect("the creation's answer"), answer("2").expect("the move's answer"));
    Some(lines[created + 1..moved].to_vec())
}

#[test]
fn an_answered_move_is_synced_to_disk_before_its_answer_sqlite() {
    let Some(full) = syscalls_of_one_move("full") else { return };
    let synced_wal = |l: &String| (l.contains("fdatasync(") || l.contains("fsync(")) && l.contains("-wal>");
    assert!(
        full.iter().any(synced_wal),
        "no sync of the WAL between the move's request and its answer:\n{}",
        full.join("\n")
    );
    // The weaker mode answers before any sync: this test can tell.
    let fast = syscalls_of_one_move("fast").unwrap();
    assert!(!fast.iter().any(synced_wal), "durability fast synced:\n{}", fast.join("\n"));
}
