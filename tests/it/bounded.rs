//! Bounded work: no request, stored game or client can take the server
//! down. Each test is one of the ways found to do it, answered now by a
//! clear refusal or a bounded answer.

use std::sync::Arc;
use std::time::Duration;

use crate::common::{EventStream, Response, TestApp, spawn_app, spawn_with};
use crate::games::{GameRef, create, play};
use leapfrog::server::config::ServeConfig;
use serde_json::{Value, json};

/// Leap Frog `old` on `ranks × files`, full but for the cells on even files
/// and even ranks (from 0), with a piece on a1: the chains from a1 branch
/// at every hole, and the moves are too many to count.
fn lattice_board(ranks: u8, files: u8) -> String {
    let rows: Vec<String> = (0..ranks)
        .rev()
        .map(|r| {
            (0..files).map(|f| if r % 2 == 0 && f % 2 == 0 && (r, f) != (0, 0) { '1' } else { 'O' }).collect()
        })
        .collect();
    rows.join("/")
}

/// The holes of [`lattice_board`], as cell names.
fn lattice_holes(ranks: u8, files: u8) -> Vec<String> {
    let mut holes = Vec::new();
    for r in (0..ranks).step_by(2) {
        for f in (0..files).step_by(2) {
            if (r, f) != (0, 0) {
                holes.push(format!("{}{}", char::from(b'a' + f), r + 1));
            }
        }
    }
    holes
}

fn lattice_request(ranks: u8, files: u8, extra: Value) -> Value {
    let mut body = json!({
        "rules": {"preset": "old"},
        "position": {"board": lattice_board(ranks, files), "ply": 10, "scores": [0, 0]},
    });
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

fn assert_over_budget(r: &Response, field: &str) {
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("application/problem+json"));
    let p = r.json();
    assert!(p["type"].as_str().unwrap().ends_with("over-budget"), "{p}");
    assert_eq!(p["field"], field, "{p}");
    assert!(p["detail"].as_str().unwrap().contains("the most one request"), "{p}");
}

#[test]
fn moves_too_many_to_count_are_refused_at_once_and_the_server_keeps_answering() {
    let app = spawn_app();
    // Three at once took both workers for good; now each is refused and
    // the health check answers meanwhile.
    let app = Arc::new(app);
    let attackers: Vec<_> = (0..3)
        .map(|_| {
            let app = app.clone();
            std::thread::spawn(move || {
                app.post_json("/v1/legal-moves", &lattice_request(11, 11, json!({"limit": 1})))
            })
        })
        .collect();
    assert_eq!(app.get("/healthz").status, 200);
    for a in attackers {
        assert_over_budget(&a.join().unwrap(), "position");
    }
    // The moves of one cell are the way in, within their own budget.
    let r = app.post_json("/v1/legal-moves", &lattice_request(11, 11, json!({"from": "k11", "limit": 5})));
    assert_eq!(r.status, 200, "{}", r.body);
    // Whether the game goes on is never counted: a move applies at once.
    let r = app.post_json("/v1/apply", &lattice_request(11, 11, json!({"move": {"path": ["a1", "a3"]}})));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["status"], "playing");
    // The computer thinks about its first moves, within its time.
    let r = app.post_json("/v1/analysis", &lattice_request(11, 11, json!({"millis": 300, "seed": "1"})));
    assert_eq!(r.status, 200, "{}", r.body);
    let best = r.json()["best"].as_str().unwrap().to_string();
    let path: Vec<&str> = best.split('x').collect();
    let r = app.post_json("/v1/apply", &lattice_request(11, 11, json!({"move": {"path": path}})));
    assert_eq!(r.status, 200, "the best move {best} is legal: {}", r.body);
}

#[test]
fn a_jump_tree_past_its_budget_is_refused_not_built() {
    let app = spawn_app();
    let r = app.post_json("/v1/legal-moves", &lattice_request(9, 9, json!({"from": "a1"})));
    assert_over_budget(&r, "from");
    assert!(r.body.len() < 1_000, "a short refusal, not a tree: {} bytes", r.body.len());
}

#[test]
fn a_game_whose_start_is_past_the_budget_is_refused_and_one_within_it_reads_fast() {
    let app = spawn_app();
    let rules = |ranks: u8, files: u8| {
        json!({"preset": "old", "rows": ranks, "cols": files, "holes": lattice_holes(ranks, files),
               "opening": {"type": "none"}})
    };
    // 11 ranks by 9 files: more moves than a request lists.
    let body = json!({"rules": rules(11, 9), "players": [{"name": "Ann"}, {"open": "public"}]});
    let r = app.post_json("/v1/games", &body);
    assert_over_budget(&r, "rules");
    assert_eq!(app.get("/v1/games?status=waiting").json()["games"], json!([]), "nothing was stored");
    // 7 by 7 fits: stored, listed and read like any game.
    let body = json!({"rules": rules(7, 7), "players": [{"name": "Ann"}, {"open": "public"}]});
    let r = app.post_json("/v1/games", &body);
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let lobby = app.get("/v1/games?status=waiting").json();
    assert_eq!(lobby["games"][0]["id"], id.as_str());
    assert_eq!(app.get(&format!("/v1/games/{id}")).json()["status"], "waiting");
    assert_eq!(app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["count"], 16_920);
}

#[test]
fn an_analysis_by_iterations_stops_at_the_time_cap_and_a_client_has_its_share() {
    let mut config = ServeConfig::for_tests();
    config.thinking.analyses_per_client = 1;
    // On a loaded machine the background threads (the lowest priority) may
    // start late: this test is about the cap, not the wait.
    config.thinking.think_wait = Duration::from_secs(60);
    let app = Arc::new(spawn_with(config));
    // 200000 iterations on a board whose moves cannot be counted: the
    // 5-second cap ends it. While it thinks, the same client's next
    // analysis is refused at once. (A short one sent before the long one
    // is in takes the client's place, and the long one is refused: then
    // both go again.)
    let long = lattice_request(11, 11, json!({"iterations": 200_000, "seed": "1"}));
    for _ in 0..10 {
        let slow = {
            let (app, long) = (app.clone(), long.clone());
            std::thread::spawn(move || app.post_json("/v1/analysis", &long))
        };
        // A head start for the long one.
        std::thread::sleep(Duration::from_millis(300));
        let mut refused = None;
        while refused.is_none() && !slow.is_finished() {
            let r = app.post_json("/v1/analysis", &lattice_request(7, 7, json!({"iterations": 10})));
            match r.status {
                429 if !slow.is_finished() => refused = Some(r),
                200 | 429 => std::thread::sleep(Duration::from_millis(20)),
                _ => panic!("{}", r.body),
            }
        }
        let slow = slow.join().unwrap();
        let Some(refused) = refused else { continue };
        assert!(refused.header("retry-after").is_some());
        assert_eq!(slow.status, 200, "{}", slow.body);
        let a = slow.json();
        assert!(a["iterations"].as_u64().unwrap() < 200_000, "{a}");
        // The cap is 5000 ms; one iteration on this board may run past it,
        // the more so on a loaded machine (the search runs at the lowest
        // priority).
        assert!(a["millis"].as_u64().unwrap() <= 8_000, "the cap is 5000 ms: {a}");
        return;
    }
    panic!("no analysis of the client was refused while another thought");
}

#[test]
fn computer_only_games_are_capped_per_client() {
    let app = spawn_app();
    let body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6},
                      "players": [{"computer": "hard"}, {"computer": "hard"}]});
    for _ in 0..2 {
        let r = app.post_json("/v1/games", &body);
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let r = app.post_json("/v1/games", &body);
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.json()["detail"].as_str().unwrap().contains("the computer holds every seat"));
    // A game with a person in it is not one of them.
    let r = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": "Ann"}, {"computer": "easy"}]}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
}

fn with_token(app: &TestApp, path: &str, token: &str) -> Response {
    app.request("POST", path, &[("Authorization", &format!("Bearer {token}"))], b"")
}

#[test]
fn a_rematch_is_charged_as_a_creation() {
    let mut config = ServeConfig::for_tests();
    config.limits.create_rate = leapfrog::api::limits::Rate { burst: 3.0, per_second: 0.01 };
    let app = spawn_with(config);
    let game = create(&app, json!({"preset": "old", "rows": 6, "cols": 6}), 2, 1);
    // Resign and play again, over and over: the creation rate says no on
    // the third rematch (the game's creation took the first of three).
    let (mut id, mut token) = (game.id, game.tokens[0].clone());
    for round in 0..3 {
        let r = with_token(&app, &format!("/v1/games/{id}/resign"), &token);
        assert_eq!(r.status, 200, "{}", r.body);
        let r = with_token(&app, &format!("/v1/games/{id}/rematch"), &token);
        if round == 2 {
            assert_eq!(r.status, 429, "{}", r.body);
            assert!(r.header("retry-after").is_some());
            return;
        }
        assert_eq!(r.status, 201, "{}", r.body);
        let next = r.json();
        id = next["game"]["id"].as_str().unwrap().to_string();
        token = next["seat"]["token"].as_str().unwrap().to_string();
    }
}

#[test]
fn a_rematch_counts_against_the_cap_of_unfinished_games() {
    let mut config = ServeConfig::for_tests();
    config.limits.max_unfinished_games = 1;
    let app = spawn_with(config);
    let game = create(&app, json!({"preset": "old", "rows": 6, "cols": 6}), 2, 1);
    assert_eq!(with_token(&app, &format!("/v1/games/{}/resign", game.id), &game.tokens[0]).status, 200);
    // The finished game no longer counts: one rematch, then the cap.
    let blocker = create(&app, json!({"preset": "old", "rows": 6, "cols": 6}), 2, 2);
    let r = with_token(&app, &format!("/v1/games/{}/rematch", game.id), &game.tokens[0]);
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(with_token(&app, &format!("/v1/games/{}/resign", blocker.id), &blocker.tokens[0]).status, 200);
    let r = with_token(&app, &format!("/v1/games/{}/rematch", game.id), &game.tokens[0]);
    assert_eq!(r.status, 201, "{}", r.body);
}

#[test]
fn one_client_cannot_hold_every_stream_of_a_game() {
    let mut config = ServeConfig::for_tests();
    config.limits.max_streams_per_client = 2;
    config.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    let app = spawn_with(config);
    let game = create(&app, json!({"preset": "old", "rows": 6, "cols": 6}), 2, 1);
    let path = format!("/v1/games/{}/events", game.id);
    let _held =
        [EventStream::open_as(&app, &path, "10.0.0.1"), EventStream::open_as(&app, &path, "10.0.0.1")];
    let r = app.request("GET", &path, &[("X-Forwarded-For", "10.0.0.1")], b"");
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.json()["detail"].as_str().unwrap().contains("event streams open"));
    // Another client is not refused.
    let _other = EventStream::open_as(&app, &path, "10.0.0.2");
}

#[test]
fn names_with_control_or_format_characters_or_past_their_length_are_refused() {
    let app = spawn_app();
    let game = |players: Value, rules: Value| {
        app.post_json("/v1/games", &json!({"rules": rules, "players": players}))
    };
    let old = json!({"preset": "old", "rows": 6, "cols": 6});
    for name in ["Ann\u{202E}nnA", "A\u{0}B", "\u{1B}[2Jx", "zero\u{200B}width"] {
        let r = game(json!([{"name": name}, {"name": "Bob"}]), old.clone());
        assert_eq!(r.status, 422, "{name:?}: {}", r.body);
        assert_eq!(r.json()["field"], "players[0].name");
        assert!(r.json()["detail"].as_str().unwrap().contains("U+"), "{}", r.body);
    }
    let long_rules = json!({"preset": "old", "rows": 6, "cols": 6, "name": "x".repeat(60_000)});
    let r = game(json!([{"name": "Ann"}, {"name": "Bob"}]), long_rules);
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("rules.name")), "{}", r.body);
    let kinds = json!({"rows": 6, "cols": 6, "kinds": [{"letter": "O", "name": "fr\u{202E}og", "value": 1}]});
    let r = game(json!([{"name": "Ann"}, {"name": "Bob"}]), kinds);
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("rules.kinds[0].name")), "{}", r.body);
    // A joiner's name too.
    let r = game(json!([{"name": "Ann"}, {"open": "public"}]), old);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = app.post_json(&format!("/v1/games/{id}/join"), &json!({"name": "\u{202E}boB"}));
    assert_eq!(r.status, 422, "{}", r.body);
}

#[test]
fn answers_carry_the_headers_that_keep_secrets_and_pages_safe() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": "Ann"}, {"open": "public"}]}),
    );
    assert_eq!(r.header("cache-control"), Some("no-store"), "a created game carries tokens");
    let id = r.json()["id"].as_str().unwrap().to_string();
    let ann = r.json()["seats"][0]["token"].as_str().unwrap().to_string();
    let joined = app.post_json(&format!("/v1/games/{id}/join"), &json!({"name": "Bob"}));
    assert_eq!(joined.header("cache-control"), Some("no-store"), "a join carries a token");
    assert_eq!(with_token(&app, &format!("/v1/games/{id}/resign"), &ann).status, 200);
    let again = with_token(&app, &format!("/v1/games/{id}/rematch"), &ann);
    assert_eq!(again.header("cache-control"), Some("no-store"), "a rematch carries a token");
    for path in ["/v1/presets", "/healthz", "/", "/docs/", "/v1/nothing-here", &format!("/v1/games/{id}")] {
        let r = app.get(path);
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{path}");
    }
    let csp = app.get("/docs/").header("content-security-policy").unwrap_or_default().to_string();
    assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'self'"), "{csp}");
}

#[test]
fn a_rematch_token_is_random_not_derived_from_the_old_one() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 6, "cols": 6}), 2, 1);
    assert_eq!(with_token(&app, &format!("/v1/games/{}/resign", game.id), &game.tokens[0]).status, 200);
    let ask = || with_token(&app, &format!("/v1/games/{}/rematch", game.id), &game.tokens[0]).json();
    let (first, second) = (ask(), ask());
    assert_eq!(first["game"]["id"], second["game"]["id"]);
    let (a, b) = (first["seat"]["token"].as_str().unwrap(), second["seat"]["token"].as_str().unwrap());
    assert_ne!(a, b, "each ask issues a new random token");
    assert!(a.len() >= 32 && b.len() >= 32);
    // Only the last one plays: Bob claims his seat and moves first (the
    // seats rotated), then Ann's first token is refused and her last one
    // plays.
    let bob = with_token(&app, &format!("/v1/games/{}/rematch", game.id), &game.tokens[1]).json();
    assert_eq!((first["seat"]["player"].as_u64(), bob["seat"]["player"].as_u64()), (Some(1), Some(0)));
    let id = first["game"]["id"].as_str().unwrap().to_string();
    let bob_token = bob["seat"]["token"].as_str().unwrap().to_string();
    let first_move = GameRef { id: id.clone(), tokens: vec![bob_token.clone(), a.to_string()] };
    let path = |app: &TestApp| {
        app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["moves"][0]["path"].clone()
    };
    assert_eq!(play(&app, &first_move, 0, &path(&app), &[]).status, 201);
    assert_eq!(play(&app, &first_move, 1, &path(&app), &[]).status, 401, "the replaced token");
    let last = GameRef { id: id.clone(), tokens: vec![bob_token, b.to_string()] };
    assert_eq!(play(&app, &last, 1, &path(&app), &[]).status, 201, "the last one");
}
