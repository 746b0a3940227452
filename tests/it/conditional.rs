//! Conditional moves (rule book §11): a seat whose opponent is to move in
//! a long game keeps lines; the opponent's move that begins one is
//! answered at once by the server with the line's reply; lines that no
//! longer match are dropped; a line that is not legal is refused, naming
//! its line and ply.

use serde_json::{Value, json};

use crate::accounts::{as_token, person, with};
use crate::common::{TestApp, spawn_app};
use crate::vacation::long_game;

/// The position of a game view or an apply answer, as a request sends it.
fn position_of(notation: &str) -> Value {
    let parts: Vec<&str> = notation.split(' ').collect();
    let scores: Vec<u32> = parts[2].split(',').map(|s| s.parse().unwrap()).collect();
    json!({"board": parts[0], "ply": parts[1].parse::<u32>().unwrap(), "scores": scores})
}

/// The first `n` legal moves at `position` under `rules`: each (notation, path).
fn legal(app: &TestApp, rules: &Value, position: &Value, n: usize) -> Vec<(String, Value)> {
    let r = app.post_json("/v1/legal-moves", &json!({"rules": rules, "position": position, "limit": n}));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["notation"].as_str().unwrap().to_string(), m["path"].clone()))
        .collect()
}

fn after(app: &TestApp, rules: &Value, position: &Value, path: &Value) -> Value {
    let r =
        app.post_json("/v1/apply", &json!({"rules": rules, "position": position, "move": {"path": path}}));
    assert_eq!(r.status, 200, "{}", r.body);
    position_of(r.json()["position"]["notation"].as_str().unwrap())
}

fn keep(app: &TestApp, id: &str, tok: &str, lines: &Value) -> crate::common::Response {
    as_token(app, "PUT", &format!("/v1/games/{id}/conditional-moves"), tok, &json!({"lines": lines}))
}

fn last_move(app: &TestApp, id: &str) -> (u64, String) {
    let h = app.get(&format!("/v1/games/{id}/moves")).json();
    let moves = h["moves"].as_array().unwrap();
    let m = moves.last().unwrap();
    (moves.len() as u64, m["notation"].as_str().unwrap().to_string())
}

#[test]
fn a_conditional_line_is_played_at_once_and_one_that_no_longer_matches_is_dropped() {
    let app = spawn_app();
    let (ann, bob) = (person(&app, "Ann"), person(&app, "Bob"));
    let id = long_game(&app, &ann, &bob);
    let g = app.get(&format!("/v1/games/{id}")).json();
    let rules = g["rules"].clone();
    // Ann moves first; then, Bob to move, she keeps her lines.
    let first = legal(&app, &rules, &position_of(g["position"]["notation"].as_str().unwrap()), 1);
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/games/{id}/moves"), &ann, &json!({"path": first[0].1})).status,
        201
    );
    assert_eq!(keep(&app, &id, &bob, &json!([])).status, 409, "Bob is to move: he plays instead");
    let now =
        position_of(app.get(&format!("/v1/games/{id}")).json()["position"]["notation"].as_str().unwrap());
    let bobs = legal(&app, &rules, &now, 2);
    let (b1, b2) = (&bobs[0], &bobs[1]);
    let at_b1 = after(&app, &rules, &now, &b1.1);
    let a1 = &legal(&app, &rules, &at_b1, 1)[0];
    let at_a1 = after(&app, &rules, &at_b1, &a1.1);
    let b3 = legal(&app, &rules, &at_a1, 2);
    let at_b3 = after(&app, &rules, &at_a1, &b3[0].1);
    let a3 = &legal(&app, &rules, &at_b3, 1)[0];
    let at_b2 = after(&app, &rules, &now, &b2.1);
    let a2 = &legal(&app, &rules, &at_b2, 1)[0];
    // Refused: a reply that is not legal (named by line and ply), an odd line.
    let wrong = keep(&app, &id, &ann, &json!([[b1.0, a1.0], [b2.0, b2.0]]));
    assert_eq!((wrong.status, wrong.json()["field"].as_str()), (422, Some("lines")), "{}", wrong.body);
    assert!(wrong.json()["detail"].as_str().unwrap().starts_with("line 1, ply 1:"), "{}", wrong.body);
    assert_eq!(keep(&app, &id, &ann, &json!([[b1.0]])).status, 422);
    let lines = json!([[b1.0, a1.0, b3[0].0, a3.0], [b2.0, a2.0]]);
    let kept = keep(&app, &id, &ann, &lines);
    assert_eq!(kept.status, 200, "{}", kept.body);
    assert_eq!((kept.json()["ply"].as_u64(), kept.json()["lines"].clone()), (Some(1), lines.clone()));
    // Private: Bob's token reads his own seat's lines, none.
    assert_eq!(
        with(&app, "GET", &format!("/v1/games/{id}/conditional-moves"), &bob).json()["lines"],
        json!([])
    );
    // Bob plays b1: Ann's reply is played at once.
    let r = as_token(&app, "POST", &format!("/v1/games/{id}/moves"), &bob, &json!({"path": b1.1}));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(last_move(&app, &id), (3, a1.0.clone()), "the reply, played by the server");
    let left = with(&app, "GET", &format!("/v1/games/{id}/conditional-moves"), &ann).json();
    assert_eq!(
        (left["ply"].as_u64(), left["lines"].clone()),
        (Some(3), json!([[b3[0].0, a3.0]])),
        "the line goes on"
    );
    // Bob plays something else: the line no longer matches and is dropped; Ann is to move.
    let r = as_token(&app, "POST", &format!("/v1/games/{id}/moves"), &bob, &json!({"path": b3[1].1}));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(last_move(&app, &id), (4, b3[1].0.clone()));
    assert_eq!(app.get(&format!("/v1/games/{id}")).json()["position"]["to_move"], 0);
    assert_eq!(
        with(&app, "GET", &format!("/v1/games/{id}/conditional-moves"), &ann).json()["lines"],
        json!([])
    );
    // Not in a game of seconds a move.
    let quick = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "move_time_limit": 60, "players": [{"name": "A P"}, {"name": "B P"}]}),
    );
    let q = quick.json();
    let seat = q["seats"][1]["token"].as_str().unwrap_or_default().to_string();
    let r = keep(&app, q["id"].as_str().unwrap(), &seat, &json!([]));
    assert_eq!(r.status, 409, "{}", r.body);
}
