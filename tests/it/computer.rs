//! The computer through the API: `POST /v1/analysis`, and the seats the
//! server plays in persisted games, on SQLite and PostgreSQL, across a
//! `kill -9` and with two processes.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::{EventStream, ServerProcess, TestApp, pg, spawn_unlimited, spawn_with};
use leapfrog::server::config::ServeConfig;
use serde_json::{Value, json};

/// The position of the crate's tactics test: c3xe3 takes a green but hands
/// over a chain of two reds; a1xa3 wins.
fn poisoned() -> Value {
    json!({"board": "5/2R2/2WG1/W1R2/W1W2", "ply": 2, "scores": [0, 0]})
}

/// A middle game with too many moves to solve: the search itself thinks.
fn middle_game() -> Value {
    let text = include_str!("../../crates/jump-search/tests/positions/murray-15-orthogonal.txt").trim();
    let parts: Vec<&str> = text.split(' ').collect();
    let scores: Vec<u32> = parts[2].split(',').map(|s| s.parse().unwrap()).collect();
    json!({"board": parts[0], "ply": parts[1].parse::<u32>().unwrap(), "scores": scores})
}

fn analyse(app: &TestApp, body: Value) -> crate::common::Response {
    app.post_json("/v1/analysis", &body)
}

#[test]
fn an_analysis_gives_the_best_move_its_candidates_and_line() {
    let app = spawn_unlimited();
    let r = analyse(&app, json!({"rules": {"preset": "murray"}, "position": poisoned(), "iterations": 2000}));
    assert_eq!(r.status, 200, "{}", r.body);
    let a = r.json();
    assert_eq!(a["best"], "a1xa3");
    assert_eq!(a["exact"], true);
    assert_eq!(a["line"][0], "a1xa3");
    assert_eq!(a["candidates"][0]["notation"], "a1xa3");
    assert_eq!(a["candidates"][0]["path"], json!(["a1", "a3"]));
    assert_eq!(a["candidates"].as_array().unwrap().len(), 4);
    assert_eq!(a["candidates"][0]["expected"].as_array().unwrap().len(), 2);

    // The same seed and iterations: the same analysis, apart from the time.
    let ask =
        json!({"rules": {"preset": "murray"}, "position": middle_game(), "iterations": 3000, "seed": "77"});
    let mut first = analyse(&app, ask.clone()).json();
    let mut again = analyse(&app, ask).json();
    assert_eq!(first["exact"], false);
    assert_eq!(first["iterations"], 3000);
    assert_eq!(first["seed"], "77");
    first["millis"] = json!(0);
    again["millis"] = json!(0);
    assert_eq!(first, again);
}

#[test]
fn budgets_past_their_caps_and_finished_games_are_refused() {
    let app = spawn_unlimited();
    let rules = json!({"preset": "murray"});
    for (extra, field) in [
        (json!({"iterations": 200_001}), "iterations"),
        (json!({"iterations": 0}), "iterations"),
        (json!({"millis": 5_001}), "millis"),
        (json!({"iterations": 10, "millis": 10}), "millis"),
    ] {
        let mut body = json!({"rules": rules, "position": poisoned()});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let r = analyse(&app, body);
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.json()["field"], field, "{}", r.body);
    }
    let over = json!({"board": "W4/5/5/5/4Y", "ply": 2, "scores": [0, 0]});
    let r = analyse(&app, json!({"rules": rules, "position": over}));
    assert_eq!((r.status, r.json()["field"].clone()), (422, json!("position")), "{}", r.body);
}

#[test]
fn a_full_queue_answers_503_at_once_and_health_answers_while_the_computer_thinks() {
    let mut config = ServeConfig::for_tests();
    config.limits.no_rate_limits = true;
    config.thinking.think_threads = 1;
    config.thinking.think_queue = 1;
    // The queued search waits for the first to end (past the default 2 s).
    config.thinking.think_wait = std::time::Duration::from_secs(60);
    let app = spawn_with(config);
    let done = Arc::new(AtomicUsize::new(0));
    // One thinks, one waits: 2 × 3 s of thinking.
    let long = json!({"rules": {"preset": "murray"}, "position": middle_game(), "millis": 3000});
    let thinking: Vec<_> = (0..2)
        .map(|i| {
            let (app, long, done) = (app.clone(), long.clone(), done.clone());
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(200 * i));
                let r = analyse(&app, long);
                done.fetch_add(1, Ordering::SeqCst);
                r.status
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    // Both are in the pool now: the next is refused, and answered before
    // either search ends.
    let refused = analyse(&app, long.clone());
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert!(refused.header("retry-after").is_some());
    assert!(refused.json()["detail"].as_str().unwrap().contains("busy"));
    assert_eq!(app.get("/healthz").status, 200);
    assert_eq!(done.load(Ordering::SeqCst), 0, "the refusal and healthz came while both searches ran");
    let statuses: Vec<u16> = thinking.into_iter().map(|t| t.join().unwrap()).collect();
    assert_eq!(statuses, [200, 200]);
}

/// Creates a game of these seats on 8×8 Murray and returns its id.
fn create_seated(app: &TestApp, players: Value) -> Value {
    let r = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "murray", "rows": 8, "cols": 8}, "players": players, "seed": "3"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

/// Waits until game `id` is over (at most a minute) and returns it.
fn until_over(app: &TestApp, id: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let game = app.get(&format!("/v1/games/{id}")).json();
        if game["status"] == "over" {
            return game;
        }
        assert!(Instant::now() < deadline, "game {id} is still {} after a minute", game["status"]);
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Checks that the history of a finished game has each ply once, in
/// order, all of it the computer's where `all_computer`.
fn check_history(app: &TestApp, game: &Value, all_computer: bool) -> usize {
    let id = game["id"].as_str().unwrap();
    let history = app.get(&format!("/v1/games/{id}/moves?limit=1000")).json();
    let moves = history["moves"].as_array().unwrap();
    let plies: Vec<u64> = moves.iter().map(|m| m["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, (0..moves.len() as u64).collect::<Vec<_>>(), "each ply once, in order");
    assert_eq!(game["position"]["ply"].as_u64().unwrap() as usize, moves.len());
    assert_eq!(game["version"].as_u64().unwrap() as usize, moves.len() + 1, "one version per move");
    if all_computer {
        assert!(moves.iter().all(|m| m["computer"] == true), "every move marked as the computer's");
    }
    moves.len()
}

fn computer_seats_play_to_the_end(app: &TestApp) {
    let game = create_seated(app, json!([{"computer": "greedy"}, {"computer": "easy", "name": "Frog"}]));
    assert_eq!(game["seats"], json!([]), "the computer's seats have no token");
    assert_eq!(
        game["players"][0],
        json!({"player": 0, "name": "Computer (greedy)", "computer": "greedy", "open": null, "resigned": null, "account": false, "bot": false})
    );
    assert_eq!(game["players"][1]["name"], "Frog");
    let id = game["id"].as_str().unwrap();
    let mut stream = EventStream::open(app, &format!("/v1/games/{id}/events"), None);
    // The request threads answer while the computer thinks.
    assert_eq!(app.get("/healthz").status, 200);
    let over = until_over(app, id);
    let plies = check_history(app, &over, true);
    assert!(plies > 10);
    // The event stream: the game as it stands when it opened, then the
    // moves after it, marked, then the end.
    let first = stream.next().unwrap();
    assert_eq!(first.event, "game");
    let mut seen =
        serde_json::from_str::<Value>(&first.data).unwrap()["position"]["ply"].as_u64().unwrap() as usize;
    while let Some(event) = stream.next() {
        if event.event == "over" {
            break;
        }
        let record: Value = serde_json::from_str(&event.data).unwrap();
        assert_eq!((record["ply"].as_u64(), &record["computer"]), (Some(seen as u64), &json!(true)));
        seen += 1;
    }
    assert_eq!(seen, plies, "moves seen on the stream (from the snapshot's ply) and played");
}

#[test]
fn a_game_of_computer_seats_plays_itself_to_the_end_sqlite() {
    computer_seats_play_to_the_end(&spawn_unlimited());
}

#[test]
fn a_game_of_computer_seats_plays_itself_to_the_end_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let mut config = ServeConfig::for_tests();
    config.database.url = url;
    computer_seats_play_to_the_end(&spawn_with(config));
}

#[test]
fn a_person_plays_the_computer_and_it_answers_each_move() {
    let app = spawn_unlimited();
    let game = create_seated(&app, json!([{"name": "Ann"}, {"computer": "medium"}]));
    let id = game["id"].as_str().unwrap().to_string();
    let token = game["seats"][0]["token"].as_str().unwrap().to_string();
    assert_eq!(game["seats"].as_array().unwrap().len(), 1);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let g = app.get(&format!("/v1/games/{id}")).json();
        if g["status"] == "over" {
            check_history(&app, &g, false);
            break;
        }
        assert!(Instant::now() < deadline);
        if g["position"]["to_move"] != 0 {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        let moves = app.get(&format!("/v1/games/{id}/legal-moves")).json();
        let path = moves["moves"][0]["path"].clone();
        let auth = format!("Bearer {token}");
        let r = app.request(
            "POST",
            &format!("/v1/games/{id}/moves"),
            &[("Authorization", &auth), ("Content-Type", "application/json")],
            json!({"path": path}).to_string().as_bytes(),
        );
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let history = app.get(&format!("/v1/games/{id}/moves?limit=1000")).json();
    for m in history["moves"].as_array().unwrap() {
        assert_eq!(m["computer"], m["player"] == 1, "{m}");
    }
}

#[test]
fn a_computer_turn_left_pending_by_a_kill_is_played_after_the_restart() {
    let db = format!("sqlite://{}", crate::common::temp_db().display());
    let _files = crate::common::TempFiles::of_url(&db);
    let first = ServerProcess::start(&["--database-url", &db], &[]);
    // `hard` thinks two seconds on its first removal: the kill comes first.
    let game = create_seated(&first.app, json!([{"computer": "hard"}, {"name": "Ann"}]));
    first.signal("KILL");
    drop(first);
    let id = game["id"].as_str().unwrap();
    let stored = actix_web::rt::System::new().block_on(async {
        let store = leapfrog::store::Store::open(&db, leapfrog::store::Durability::Full).await.unwrap();
        store.moves(id, 0).await.unwrap().len()
    });
    assert_eq!(stored, 0, "the killed process had not moved");
    let second = ServerProcess::start(&["--database-url", &db], &[]);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let g = second.app.get(&format!("/v1/games/{id}")).json();
        if g["version"] == 2 {
            assert_eq!(g["position"]["to_move"], 1, "Ann is to move");
            break;
        }
        assert!(Instant::now() < deadline, "the computer's move was not picked up");
        std::thread::sleep(Duration::from_millis(50));
    }
    let history = second.app.get(&format!("/v1/games/{id}/moves")).json();
    assert_eq!(history["moves"].as_array().unwrap().len(), 1);
    assert_eq!(history["moves"][0]["computer"], true);
}

#[test]
fn two_processes_on_one_postgres_never_both_move_for_the_computer() {
    let Some(url) = pg::fresh_database() else { return };
    // Four games of computer seats alone from one client: past the default cap.
    let a = ServerProcess::start(&["--database-url", &url, "--max-computer-games", "0"], &[]);
    let games: Vec<Value> = (0..4)
        .map(|_| {
            create_seated(
                &a.app,
                json!([{"computer": "medium"}, {"computer": "easy"}, {"computer": "medium"}]),
            )
        })
        .collect();
    // The second process picks up every unfinished game as it starts:
    // both now think for the same games.
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    for game in &games {
        let id = game["id"].as_str().unwrap();
        let over = until_over(&b.app, id);
        check_history(&a.app, &over, true);
    }
}
