//! The hot games (a move neither reads its game back nor parses it when
//! this process changed it last): a game changed by another process is
//! read again before the next move applies, and a stale copy never
//! answers — not with a move, not with a refusal.

use serde_json::{Value, json};

use crate::common::{ServerProcess, TempFiles, TestApp, pg, temp_db};

fn legal(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["moves"][0]["path"].clone()
}

fn play(app: &TestApp, id: &str, token: &str, path: &Value) -> crate::common::Response {
    let auth = format!("Bearer {token}");
    app.request(
        "POST",
        &format!("/v1/games/{id}/moves"),
        &[("Content-Type", "application/json"), ("Authorization", &auth)],
        json!({"path": path}).to_string().as_bytes(),
    )
}

fn two_processes_one_game(url: &str) {
    let a = ServerProcess::start(&["--database-url", url], &[]);
    let b = ServerProcess::start(&["--database-url", url], &[]);
    let created = a.app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": "Ann P"}, {"name": "Bob P"}]}),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let g = created.json();
    let id = g["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> =
        g["seats"].as_array().unwrap().iter().map(|s| s["token"].as_str().unwrap().into()).collect();
    // Ann moves through A, which now keeps the game hot; Bob through B.
    let r = play(&a.app, &id, &tokens[0], &legal(&a.app, &id));
    assert_eq!(r.status, 201, "{}", r.body);
    let r = play(&b.app, &id, &tokens[1], &legal(&b.app, &id));
    assert_eq!(r.status, 201, "{}", r.body);
    // A's copy is stale (ply 1, Bob to move): on it, a second move of Bob's
    // would be played. It must not: the game as stored says he just moved.
    let stale_path = legal(&a.app, &id);
    let r = play(&a.app, &id, &tokens[1], &stale_path);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("player 1's move at ply 1 was played first"), "{}", r.body);
    // Ann's move through A applies to the game as stored now: ply 2.
    let r = play(&a.app, &id, &tokens[0], &stale_path);
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["position"]["ply"], 3, "{}", r.body);
    let history = b.app.get(&format!("/v1/games/{id}/moves")).json();
    assert_eq!(history["moves"].as_array().unwrap().len(), 3, "{history}");
    // B, stale in turn (ply 2, Ann to move), refuses Ann's move that its
    // copy would take, and plays Bob's.
    let r = play(&b.app, &id, &tokens[0], &legal(&b.app, &id));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("player 0's move at ply 2 was played first"), "{}", r.body);
    let r = play(&b.app, &id, &tokens[1], &legal(&b.app, &id));
    assert_eq!((r.status, r.json()["position"]["ply"].as_u64()), (201, Some(4)), "{}", r.body);
}

#[test]
fn a_game_changed_by_another_process_is_read_again_before_a_move_sqlite() {
    let db = format!("sqlite://{}", temp_db().display());
    let _files = TempFiles::of_url(&db);
    two_processes_one_game(&db);
}

#[test]
fn a_game_changed_by_another_process_is_read_again_before_a_move_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    two_processes_one_game(&url);
}
