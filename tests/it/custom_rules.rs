//! Custom rule sets and ownership (rule book §2 and §5 decisions): a rule
//! set whose pieces are neither all shared nor all owned, or whose
//! first-player removal takes none of that player's own pieces, is refused
//! wherever a rule set enters — the stateless endpoints, setups, game
//! creation, a record's `Rules` tag, `leapfrog replay` — with a 422 that
//! names the kind or the opening. A game stored with such a rule set
//! before the decisions still loads and plays.

use std::process::Command;

use serde_json::{Value, json};

use crate::common::{leapfrog_binary, pg, spawn_app};

fn kind(letter: &str, owner: Value) -> Value {
    json!({"letter": letter, "name": letter.to_lowercase(), "value": 1, "owner": owner})
}

/// A 4×4 custom rule set of `kinds` with pieces `capture` and `opening`.
fn rules(kinds: Vec<Value>, capture: &str, opening: Value) -> Value {
    let weights = vec![1; kinds.len()];
    json!({"rows": 4, "cols": 4, "kinds": kinds, "fill": {"type": "random", "weights": weights},
           "capture": capture, "opening": opening, "min_players": 2, "max_players": 2})
}

/// The refused rule sets: each with what the refusal must say and where.
fn refused() -> Vec<(Value, &'static str, &'static str)> {
    let each = json!({"type": "each_player_removes", "kinds": null});
    vec![
        (
            rules(vec![kind("A", json!(null)), kind("H", json!(1))], "shared", each.clone()),
            "kind H has an owner, but the pieces are shared",
            "rules.kinds",
        ),
        (
            rules(vec![kind("A", json!(0)), kind("B", json!(null))], "owned", each),
            "kind B has no owner, but the pieces are owned",
            "rules.kinds",
        ),
        (
            rules(
                vec![kind("A", json!(0)), kind("B", json!(1))],
                "owned",
                json!({"type": "first_player_removes", "kinds": ["B"]}),
            ),
            "the opening has the first player remove a piece of B, but under owned pieces",
            "rules.opening",
        ),
    ]
}

fn says(r: &crate::common::Response, what: &str, field: &str) {
    assert_eq!(r.status, 422, "{}", r.body);
    let p = r.json();
    assert_eq!(p["type"], "urn:leapfrog:problem:invalid-rules", "{p}");
    assert!(p["detail"].as_str().unwrap().starts_with(what), "{p}");
    assert_eq!(p["field"], field, "{p}");
}

#[test]
fn a_rule_set_mixing_ownership_or_removing_others_pieces_is_refused_wherever_it_enters() {
    let app = spawn_app();
    let position = json!({"board": "4/4/4/4", "ply": 0, "scores": [0, 0]});
    for (rules, what, field) in refused() {
        says(&app.post_json("/v1/setups", &json!({"rules": rules, "players": 2, "seed": 1})), what, field);
        says(&app.post_json("/v1/legal-moves", &json!({"rules": rules, "position": position})), what, field);
        let apply = json!({"rules": rules, "position": position, "move": {"path": ["a1"]}});
        says(&app.post_json("/v1/apply", &apply), what, field);
        let game = json!({"rules": rules, "players": [{"name": "Ann"}, {"name": "Bob"}]});
        says(&app.post_json("/v1/games", &game), what, field);
        // A record's Rules tag, through the API and the command line.
        let record = format!(
            "[Game \"x\"]\n[Rules {}]\n[Start \"AAAA/AAAA/AAAA/AAAA 0 0,0\"]\n\n",
            serde_json::to_string(&rules.to_string()).unwrap()
        );
        let r = app.post_json("/v1/records", &json!({ "record": record }));
        assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("tags.Rules")), "{}", r.body);
        assert!(r.json()["detail"].as_str().unwrap().contains(what), "{}", r.body);
        let file = std::env::temp_dir().join(format!("leapfrog-owned-{}.txt", std::process::id()));
        std::fs::write(&file, &record).unwrap();
        let out = Command::new(leapfrog_binary()).arg("replay").arg(&file).output().unwrap();
        let _ = std::fs::remove_file(&file);
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(what),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn an_owned_custom_game_plays_each_player_with_its_own_pieces() {
    let app = spawn_app();
    // The rule book's example: two armies on a checkerboard, each player
    // removes one of its own, then jumps the other's.
    let owned = json!({"rows": 4, "cols": 4,
        "kinds": [kind("R", json!(0)), kind("G", json!(1))],
        "fill": {"type": "checkerboard", "top_left": "R", "other": "G"},
        "capture": "owned", "opening": {"type": "each_player_removes", "kinds": null},
        "min_players": 2, "max_players": 2});
    let r = app.post_json("/v1/setups", &json!({"rules": owned, "players": 2}));
    assert_eq!(r.status, 200, "{}", r.body);
    let setup = r.json();
    let position = setup["position"].clone();
    let input = json!({"board": position["board"], "ply": 0, "scores": [0, 0]});
    let moves =
        app.post_json("/v1/legal-moves", &json!({"rules": owned, "position": input, "limit": 100})).json();
    let grid = &position["grid"];
    // Every removal the first player may make takes one of its own (R).
    for m in moves["moves"].as_array().unwrap() {
        let cell = m["path"][0].as_str().unwrap();
        let (file, rank) = (cell.as_bytes()[0] - b'a', (cell[1..]).parse::<usize>().unwrap());
        assert_eq!(grid[4 - rank][usize::from(file)], "R", "{cell}");
    }
    assert_eq!(moves["count"], 8);
}

/// A game stored before the decisions, with owners among shared pieces: it
/// loads, its rules read back as stored, and it plays as it always did
/// (any player moves any piece).
fn a_game_stored_with_a_now_refused_rule_set_still_plays(url: &str) {
    let server = crate::common::ServerProcess::start(&["--database-url", url], &[]);
    let app = &server.app;
    let token = leapfrog::game::SeatToken::parse("old-owned-seat-0").unwrap();
    let other = leapfrog::game::SeatToken::parse("old-owned-seat-1").unwrap();
    actix_web::rt::System::new().block_on(async {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(url).await.unwrap();
        let rules = r#"{"preset":null,"name":"custom","rows":3,"cols":3,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{"letter":"A","name":"a","value":1,"owner":1},{"letter":"B","name":"b","value":1,"owner":null}],"fill":{"type":"random","weights":[1,1]},"capture":"shared","chain":"free","opening":{"type":"none","kinds":null},"removals_score":true,"end":"highest_score","min_players":2,"max_players":2}"#;
        sqlx::query(
            "INSERT INTO games (id, version, rules, seed, players, position, status, created_at, updated_at, \
             turn_at, events) VALUES ('old-owned', 1, $1, '1', '[\"Ann\",\"Bob\"]', 'AB1/BAA/AAB 0 0,0', \
             'playing', $2, $2, $2, 0)",
        )
        .bind(rules)
        // Played lately: not a game the sweep would mark abandoned.
        .bind(leapfrog::play::now_ms())
        .execute(&pool)
        .await
        .unwrap();
        for (p, t) in [(0i64, &token), (1, &other)] {
            sqlx::query("INSERT INTO seats (game_id, player, name, token_hash) VALUES ('old-owned', $1, $2, $3)")
                .bind(p)
                .bind(["Ann", "Bob"][p as usize])
                .bind(t.hash().as_str().to_string())
                .execute(&pool)
                .await
                .unwrap();
        }
        pool.close().await;
    });
    let game = app.get("/v1/games/old-owned");
    assert_eq!(game.status, 200, "{}", game.body);
    assert_eq!(game.json()["rules"]["kinds"][0]["owner"], 1, "read back as stored");
    // Ann (player 0) moves an A, "owned" by player 1 under shared pieces.
    let auth = format!("Bearer {}", token.reveal());
    let r = app.request(
        "POST",
        "/v1/games/old-owned/moves",
        &[("Content-Type", "application/json"), ("Authorization", &auth)],
        json!({"path": ["a3", "c3"]}).to_string().as_bytes(),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["position"]["board"], "2A/BAA/AAB");
}

#[test]
fn a_game_stored_with_a_now_refused_rule_set_still_plays_sqlite() {
    let db = crate::common::temp_db();
    let _files = crate::common::TempFiles::of_url(&format!("sqlite://{}", db.display()));
    let url = format!("sqlite://{}?mode=rwc", db.display());
    // The schema first: the server migrates it.
    let out = Command::new(leapfrog_binary()).args(["migrate", "--database-url", &url]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    a_game_stored_with_a_now_refused_rule_set_still_plays(&url);
}

#[test]
fn a_game_stored_with_a_now_refused_rule_set_still_plays_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let out = Command::new(leapfrog_binary()).args(["migrate", "--database-url", &url]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    a_game_stored_with_a_now_refused_rule_set_still_plays(&url);
}
