//! Bad input gets a clear error and changes nothing: valid requests to every
//! endpoint that takes a body, mutated (at random from fixed seeds, so a
//! failure replays), never get a 5xx or a dropped connection; every refusal
//! is a problem document whose status is the response's; and a refused move
//! leaves its game exactly as it was.
//!
//! Two kinds of mutation: on the value, every one (each node of the JSON
//! tree replaced by each value of a palette of wrong types, extremes, long
//! strings, big arrays and deep nesting; each key removed; an unknown key
//! added to each object), and on the text, at random (truncated, a byte
//! replaced or deleted, a JSON token inserted).

use crate::common::{Response, spawn_unlimited};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::{Value, json};

/// Random text mutations per body (the value mutations are all tried).
const CASES: usize = 200;

/// The board of the 15×15 Murray middle game of the load test.
fn middle_game_board() -> &'static str {
    include_str!("../fixtures/murray-middle-game.txt").split(' ').next().unwrap_or_default()
}

fn custom_rules() -> Value {
    json!({
        "rows": 4, "cols": 4,
        "kinds": [{"letter": "A", "name": "amber", "value": 2, "owner": null}, {"letter": "B", "name": "blue", "value": 5, "owner": null}],
        "fill": {"type": "random", "weights": [3, 1]},
        "opening": {"type": "each_player_removes", "kinds": ["B"]},
        "directions": "all"
    })
}

/// Valid bodies of the stateless endpoints (each answered 200 unmutated).
fn stateless_seeds() -> Vec<(&'static str, Value)> {
    vec![
        (
            "/v1/setups",
            json!({"rules": {"preset": "murray", "rows": 5, "cols": 6, "directions": "all"}, "players": 3, "seed": 42}),
        ),
        ("/v1/setups", json!({"rules": custom_rules(), "players": 2, "seed": 9})),
        (
            "/v1/legal-moves",
            json!({"rules": {"preset": "murray"}, "position": {"board": middle_game_board(), "ply": 40, "scores": [51, 59]}, "limit": 5, "cursor": "m2"}),
        ),
        (
            "/v1/legal-moves",
            json!({"rules": {"preset": "old", "directions": "diagonal"}, "position": {"board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1]}, "from": "c3"}),
        ),
        (
            "/v1/apply",
            json!({"rules": {"preset": "old"}, "position": {"board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1]}, "move": {"path": ["c2", "a2"]}}),
        ),
        (
            "/v1/games",
            json!({"rules": {"preset": "old", "rows": 4, "cols": 4}, "players": [{"name": "Ann"}, {"name": "Bo"}], "seed": 1}),
        ),
    ]
}

/// Values that stand in for any node: wrong types, edge numbers, odd and
/// long strings (one over the body limit), big and deep structures.
fn palette() -> Vec<Value> {
    let deep = (0..200).fold(json!(0), |v, _| json!([v]));
    vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(2.5),
        json!(300),
        json!(4_294_967_296u64),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(1e308),
        json!(""),
        json!("a1"),
        json!("zz99"),
        json!("🐸"),
        json!("m"),
        json!("W".repeat(20_000)),
        json!("W".repeat(70_000)),
        json!(vec!["W".repeat(26); 27].join("/")),
        json!(vec![0; 3_000]),
        json!([]),
        json!(["a1", "a1", "a1"]),
        json!({}),
        json!({"preset": "konane"}),
        deep,
    ]
}

/// Every node of a JSON tree, as paths of keys and indices.
fn paths(v: &Value, at: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(at.clone());
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                at.push(json!(k));
                paths(child, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                at.push(json!(i));
                paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn node<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, key| match key {
        Value::String(k) => &mut v[k.as_str()],
        k => &mut v[k.as_u64().unwrap() as usize],
    })
}

/// Every value mutation of a valid body: each node replaced by each value
/// of the palette, each key removed, an unknown key added to each object.
fn value_mutations(seed: &Value) -> Vec<Vec<u8>> {
    let mut all = Vec::new();
    paths(seed, &mut Vec::new(), &mut all);
    let palette = palette();
    let mut out = Vec::new();
    for path in &all {
        for value in &palette {
            let mut v = seed.clone();
            *node(&mut v, path) = value.clone();
            out.push(v.to_string().into_bytes());
        }
        if let Some((Value::String(k), parent)) = path.split_last() {
            let mut v = seed.clone();
            node(&mut v, parent).as_object_mut().unwrap().remove(k.as_str());
            out.push(v.to_string().into_bytes());
        }
        let mut v = seed.clone();
        if let Some(map) = node(&mut v, path).as_object_mut() {
            map.insert("surprise".into(), json!(1));
            out.push(v.to_string().into_bytes());
        }
    }
    out
}

/// A random text mutation of a valid body: truncated, a byte replaced or
/// deleted, or a JSON token inserted.
fn text_mutation(rng: &mut ChaCha8Rng, seed: &Value) -> Vec<u8> {
    let mut text = seed.to_string().into_bytes();
    let at = rng.random_range(0..text.len());
    match rng.random_range(0..4) {
        0 => text.truncate(at),
        1 => {
            let bytes = b"{}[]\",:0a-\\\x00\xff ";
            text[at] = bytes[rng.random_range(0..bytes.len())];
        }
        2 => {
            text.remove(at);
        }
        _ => {
            let tokens: [&[u8]; 7] = [b"null", b",", b"\"x\":1,", b"1e999", b"\"\\ud800\"", b"[", b"}"];
            let token = tokens[rng.random_range(0..tokens.len())];
            text.splice(at..at, token.iter().copied());
        }
    }
    text
}

/// The answer has one of the `expected` statuses (never a server error):
/// a success with a JSON body, or a refusal with a problem document of the
/// same status.
fn check(r: &Response, expected: &[u16], what: &str) {
    assert!(expected.contains(&r.status), "{what}: {} {}", r.status, r.body);
    if r.status >= 400 {
        assert_eq!(r.header("content-type"), Some("application/problem+json"), "{what}: {}", r.body);
        let p = r.json();
        assert_eq!(p["status"], r.status, "{what}: {p}");
        for field in ["type", "title", "detail"] {
            assert!(p[field].as_str().is_some_and(|s| !s.is_empty()), "{what}: no {field} in {p}");
        }
    } else {
        let _ = r.json();
    }
}

fn shown(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    text.chars().take(300).collect()
}

#[test]
fn mutated_requests_get_an_answer_or_a_problem_and_never_break_the_server() {
    // Floods of requests, with the rate limits off: this is about input.
    let app = spawn_unlimited();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    for (path, seed) in stateless_seeds() {
        let r = app.post_json(path, &seed);
        assert!(r.status == 200 || r.status == 201, "the unmutated {path} body: {} {}", r.status, r.body);
        let random = (0..CASES).map(|_| text_mutation(&mut rng, &seed));
        for body in value_mutations(&seed).into_iter().chain(random) {
            let r = app.post_raw(path, &body);
            check(&r, &[200, 201, 400, 413, 422], &format!("POST {path} {}", shown(&body)));
            *statuses.entry(r.status).or_default() += 1;
        }
    }
    eprintln!("statuses: {statuses:?}");
    // The mutations reach the JSON reader (400), the size limit (413), the
    // rules (422), and some leave a request that is still good.
    for status in [200, 400, 413, 422] {
        assert!(statuses.contains_key(&status), "no {status} among {statuses:?}");
    }
    assert_eq!(app.get("/healthz").status, 200);
}

#[test]
fn a_refused_mutated_move_leaves_the_game_as_it_was() {
    // Floods of requests, with the rate limits off: this is about input.
    let app = spawn_unlimited();
    let mut rng = ChaCha8Rng::seed_from_u64(1898);
    let created = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "murray", "rows": 6, "cols": 6}, "players": [{"name": "Ann"}, {"name": "Bo"}], "seed": 3}),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let game = created.json();
    let id = game["id"].as_str().unwrap();
    let tokens: Vec<String> =
        game["seats"].as_array().unwrap().iter().map(|s| s["token"].as_str().unwrap().to_string()).collect();
    let path = format!("/v1/games/{id}/moves");
    let post = |body: &[u8], to_move: usize| {
        let auth = format!("Bearer {}", tokens[to_move]);
        app.request("POST", &path, &[("Content-Type", "application/json"), ("Authorization", &auth)], body)
    };
    let mut plies = 0;
    for _ in 0..200 {
        let now = app.get(&format!("/v1/games/{id}")).json();
        if now["status"] == "over" {
            break;
        }
        let to_move = now["position"]["to_move"].as_u64().unwrap() as usize;
        let first = app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json();
        let legal = json!({"path": first["moves"][0]["path"]});
        let mut bodies = value_mutations(&legal);
        bodies.push(text_mutation(&mut rng, &legal));
        let body = bodies.swap_remove(rng.random_range(0..bodies.len()));
        let before = app.game_snapshot(id);
        let r = post(&body, to_move);
        check(&r, &[201, 400, 413, 422], &format!("POST {path} {}", shown(&body)));
        if r.status != 201 {
            assert_eq!(app.game_snapshot(id), before, "refused ({}) but changed: {}", r.status, shown(&body));
            // The game goes on with the move unmutated, so that the
            // mutations meet the opening, the middle game and the end.
            let r = post(legal.to_string().as_bytes(), to_move);
            assert_eq!(r.status, 201, "{}", r.body);
        }
        plies += 1;
    }
    eprintln!("{plies} plies");
    assert!(plies > 10, "the game lasted {plies} plies");
    assert_eq!(app.get("/healthz").status, 200);
}
