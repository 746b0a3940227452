//! The stateless REST API end to end: the real app on a random port.

use crate::common::spawn_app;
use jump_capture::{Position, Preset, Rules, Setup};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use serde_json::{Value, json};

fn worked_example() -> Value {
    json!({"board": "1OO/1OO/1OO", "ply": 2, "scores": [1, 1]})
}

fn assert_problem(r: &crate::common::Response, status: u16, slug: &str) -> Value {
    assert_eq!(r.status, status, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("application/problem+json"), "{}", r.body);
    let p = r.json();
    assert_eq!(p["type"], format!("urn:leapfrog:problem:{slug}"), "{p}");
    assert_eq!(p["status"], status);
    assert!(p["title"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(p["detail"].as_str().is_some_and(|t| !t.is_empty()));
    p
}

#[test]
fn presets_lists_every_preset_with_its_full_rules() {
    let app = spawn_app();
    let r = app.get("/v1/presets");
    assert_eq!(r.status, 200);
    let list = r.json();
    let ids: Vec<&str> = list.as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["old", "murray", "froglet", "konane", "capture", "english", "triangle"]);
    let murray = &list[1];
    assert_eq!(murray["rules"]["rows"], 15);
    assert_eq!(
        murray["rules"]["kinds"][3],
        json!({"letter": "G", "name": "green", "value": 4, "owner": null})
    );
    assert_eq!(list[2]["rules"]["opening"], json!({"type": "first_player_removes", "kinds": ["G"]}));
    assert_eq!(list[3]["rules"]["chain"], "straight");
    assert!(murray["description"].as_str().unwrap().contains("1898"));
}

#[test]
fn setups_are_reproducible_by_seed_and_report_a_drawn_seed() {
    let app = spawn_app();
    let body = json!({"rules": {"preset": "murray", "rows": 5, "cols": 5}, "players": 3, "seed": 2});
    let a = app.post_json("/v1/setups", &body).json();
    let b = app.post_json("/v1/setups", &body).json();
    assert_eq!(a, b);
    assert_eq!(a["seed"], "2", "seeds are decimal strings on the wire");
    assert_eq!(a["position"]["notation"], "RWYRW/RWRWW/YWWWY/YGRYG/YYWYW 0 0,0,0");
    assert_eq!(a["position"]["players"], 3);
    assert_eq!(a["position"]["phase"], "opening");
    assert_eq!(a["rules"]["rows"], 5);
    assert_eq!(a["rules"]["fill"], json!({"type": "random", "weights": [4, 3, 2, 1]}));
    // The crate gives the same board for the same seed.
    let rules = Rules::new(Preset::Murray.spec().with_size(5, 5)).unwrap();
    let (pos, _) = Position::start(rules, 3, Some(2)).unwrap();
    assert_eq!(a["position"]["notation"], pos.to_string());

    let drawn = app.post_json("/v1/setups", &json!({"rules": {"preset": "froglet"}})).json();
    let seed = drawn["seed"].as_str().unwrap();
    let again = app.post_json("/v1/setups", &json!({"rules": {"preset": "froglet"}, "seed": seed})).json();
    assert_eq!(drawn["position"], again["position"]);
    // A seed past 2^53 (where JavaScript numbers stop being exact) comes
    // back exactly, and reads the same as a string or a number.
    let big = "13202136478012763868";
    let as_text = app.post_json("/v1/setups", &json!({"rules": {"preset": "old"}, "seed": big})).json();
    assert_eq!(as_text["seed"], big);
    let number: Value =
        serde_json::from_str(&format!(r#"{{"rules": {{"preset": "old"}}, "seed": {big}}}"#)).unwrap();
    assert_eq!(app.post_json("/v1/setups", &number).json(), as_text);
    for bad in [json!("-1"), json!("1e3"), json!(-1), json!("18446744073709551616"), json!("")] {
        let r = app.post_json("/v1/setups", &json!({"rules": {"preset": "old"}, "seed": bad}));
        assert_eq!((r.status, r.json()["field"].as_str()), (400, Some("seed")), "{bad}: {}", r.body);
        assert!(r.json()["detail"].as_str().unwrap().contains("decimal string"), "{}", r.body);
    }
    assert_eq!(drawn["position"]["players"], 2, "two players by default");
}

#[test]
fn full_rules_can_be_sent_back_as_rules() {
    let app = spawn_app();
    let first = app
        .post_json("/v1/setups", &json!({"rules": {"preset": "konane", "rows": 6, "cols": 6}, "seed": 1}))
        .json();
    let again = app.post_json("/v1/setups", &json!({"rules": first["rules"], "seed": 1})).json();
    assert_eq!(first, again);
    let mut custom = first["rules"].clone();
    custom.as_object_mut().unwrap().remove("preset");
    let third = app.post_json("/v1/setups", &json!({"rules": custom, "seed": 1})).json();
    assert_eq!(third["position"], first["position"]);
}

#[test]
fn a_custom_rule_set_without_a_preset_plays() {
    let app = spawn_app();
    let rules = json!({
        "rows": 4, "cols": 4,
        "kinds": [{"letter": "A", "name": "amber", "value": 2, "owner": null}, {"letter": "B", "name": "blue", "value": 5, "owner": null}],
        "fill": {"type": "random", "weights": [3, 1]},
        "opening": {"type": "each_player_removes", "kinds": ["B"]},
        "directions": "all"
    });
    let r = app.post_json("/v1/setups", &json!({"rules": rules, "players": 2, "seed": 9}));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["rules"]["preset"], Value::Null);
    assert_eq!(v["rules"]["name"], "custom");
    let board = v["position"]["board"].as_str().unwrap();
    assert_eq!(board.chars().filter(|&c| c == 'A').count(), 12);
    let missing = app.post_json("/v1/setups", &json!({"rules": {"rows": 4, "cols": 4}}));
    let p = assert_problem(&missing, 422, "invalid-rules");
    assert_eq!(p["field"], "rules.kinds");
}

#[test]
fn legal_moves_counts_as_the_rules_crate_does_and_pages_through_all() {
    let app = spawn_app();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut pos, _) = Position::start(Preset::Murray.rules(), 2, Some(5)).unwrap();
    for _ in 0..30 {
        let mv = pos.random_move_unbounded(&mut rng).unwrap();
        pos.play(&mv).unwrap();
    }
    let setup = pos.setup();
    let position = json!({"board": setup.grid.to_string(), "ply": setup.ply, "scores": setup.scores});
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut body = json!({"rules": {"preset": "murray"}, "position": position, "limit": 7});
        if let Some(c) = &cursor {
            body["cursor"] = json!(c);
        }
        let page = app.post_json("/v1/legal-moves", &body).json();
        assert_eq!(page["count"], pos.count_moves_unbounded());
        for m in page["moves"].as_array().unwrap() {
            seen.push(m["notation"].as_str().unwrap().to_string());
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let expected: Vec<String> = pos.legal_moves_unbounded().iter().map(ToString::to_string).collect();
    assert_eq!(seen, expected, "pages cover every move once, in notation order");
}

#[test]
fn legal_moves_from_a_cell_gives_its_jump_tree() {
    let app = spawn_app();
    let body = json!({"rules": {"preset": "old"}, "position": {"board": "1O1/OOO/OO1", "ply": 1, "scores": [0]}, "from": "a1"});
    let r = app.post_json("/v1/legal-moves", &body).json();
    assert_eq!(r["count"], 8, "two ways round the ring, each prefix a move");
    let tree = &r["tree"];
    assert_eq!(tree["cell"], "a1");
    let firsts: Vec<&str> =
        tree["next"].as_array().unwrap().iter().map(|n| n["cell"].as_str().unwrap()).collect();
    assert_eq!(firsts, ["a3", "c1"]);
    assert_eq!(tree["next"][0]["over"], "a2");
    let m = &r["moves"][0];
    assert_eq!(m["path"], json!(["a1", "a3"]));
    assert_eq!(m["captures"], json!(["a2"]));
    assert_eq!(m["gain"], 1);
}

#[test]
fn apply_plays_a_move_and_reports_status_and_result() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/apply",
        &json!({"rules": {"preset": "old"}, "position": worked_example(), "move": {"path": ["c2", "a2"]}}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["position"]["notation"], "1OO/O2/1OO 3 2,1");
    assert_eq!(v["position"]["to_move"], 1);
    assert_eq!(v["position"]["grid"][1], json!(["O", null, null]));
    assert_eq!(v["move"], json!({"path": ["c2", "a2"], "notation": "c2xa2", "captures": ["b2"], "gain": 1}));
    assert_eq!(v["status"], "playing");
    assert_eq!(v["result"], Value::Null);
    // A move that ends the game.
    let end = app.post_json(
        "/v1/apply",
        &json!({"rules": {"preset": "murray"}, "position": {"board": "W1W/3/WW1", "ply": 4, "scores": [3, 3]}, "move": {"path": ["a1", "c1"]}}),
    );
    let v = end.json();
    assert_eq!(v["status"], "over", "{v}");
    assert_eq!(v["result"]["winners"], json!([0]));
    assert_eq!(v["result"]["shared"], false);
}

#[test]
fn an_illegal_move_is_refused_with_the_reason() {
    let app = spawn_app();
    let cases = [
        (json!(["b1", "b3"]), "b3 is not empty"),
        (json!(["a1", "c1"]), "no piece on a1"),
        (json!(["c2", "a1"]), "c2 to a1 is not a jump of this rule set"),
        (json!(["c2"]), "the opening is over: a move is a jump, a path of two or more cells"),
    ];
    for (path, reason) in cases {
        let r = app.post_json(
            "/v1/apply",
            &json!({"rules": {"preset": "old"}, "position": worked_example(), "move": {"path": path}}),
        );
        let p = assert_problem(&r, 422, "illegal-move");
        assert_eq!(p["detail"], reason);
        assert_eq!(p["field"], "move.path");
    }
    let bad_cell = app.post_json(
        "/v1/apply",
        &json!({"rules": {"preset": "old"}, "position": worked_example(), "move": {"path": ["c2", "zz"]}}),
    );
    let p = assert_problem(&bad_cell, 422, "invalid-notation");
    assert_eq!(p["field"], "move.path[1]");
}

#[test]
fn malformed_or_mistyped_json_is_400_naming_the_field() {
    let app = spawn_app();
    let p = assert_problem(&app.post_raw("/v1/apply", b"{\"rules\": "), 400, "invalid-request");
    assert!(p["detail"].as_str().unwrap().starts_with("malformed JSON"), "{p}");
    let p = assert_problem(&app.post_raw("/v1/apply", b""), 400, "invalid-request");
    assert!(p["detail"].as_str().unwrap().contains("empty"));
    // A whole object followed by more is malformed too.
    let p = assert_problem(
        &app.post_raw("/v1/setups", b"{\"rules\": {\"preset\": \"old\"}} {}"),
        400,
        "invalid-request",
    );
    assert!(p["detail"].as_str().unwrap().contains("trailing characters"), "{p}");
    let p = assert_problem(&app.post_raw("/v1/setups", &[0xff, 0xfe, 0x00]), 400, "invalid-request");
    assert!(p["detail"].as_str().is_some());
    let r = app.post_json("/v1/setups", &json!({"rules": {"preset": "murray"}, "players": "three"}));
    let p = assert_problem(&r, 400, "invalid-request");
    assert_eq!(p["field"], "players");
    let r = app.post_json("/v1/setups", &json!({"rules": {"preset": "murray", "rowz": 5}}));
    let p = assert_problem(&r, 400, "invalid-request");
    assert!(p["detail"].as_str().unwrap().contains("unknown field `rowz`"), "{p}");
    let r = app.post_json("/v1/apply", &json!({"rules": {"preset": "old"}, "position": worked_example()}));
    let p = assert_problem(&r, 400, "invalid-request");
    assert!(p["detail"].as_str().unwrap().contains("missing field `move`"), "{p}");
    let r = app.post_json("/v1/setups", &json!({"rules": {"preset": "chess"}}));
    let p = assert_problem(&r, 400, "invalid-request");
    assert_eq!(p["field"], "rules.preset");
}

#[test]
fn refused_rules_positions_and_counts_are_422_saying_where() {
    let app = spawn_app();
    let cases = [
        (
            json!({"rules": {"preset": "murray", "rows": 300}}),
            "invalid-rules",
            "the board is 300×15; each side must be from 3 to 26",
        ),
        (
            json!({"rules": {"preset": "konane"}, "players": 3}),
            "invalid-value",
            "3 players; these rules take 2 to 2",
        ),
        (
            json!({"rules": {"preset": "old", "rows": 3, "cols": 3}, "players": 10}),
            "invalid-value",
            "10 players each remove a piece in the opening, but the board has only 9 pieces",
        ),
    ];
    for (body, slug, detail) in cases {
        let p = assert_problem(&app.post_json("/v1/setups", &body), 422, slug);
        assert_eq!(p["detail"], detail);
    }
    let bad_rank =
        json!({"rules": {"preset": "old"}, "position": {"board": "OOO/OOOO/OOO", "ply": 0, "scores": [0]}});
    let p = assert_problem(&app.post_json("/v1/legal-moves", &bad_rank), 422, "invalid-position");
    assert_eq!(p["detail"], "rank 2 has 4 cells; the board is 3 wide");
    assert_eq!(p["field"], "position.board");
    let bad_letter =
        json!({"rules": {"preset": "murray"}, "position": {"board": "OOO/OOO/OOO", "ply": 0, "scores": [0]}});
    let p = assert_problem(&app.post_json("/v1/legal-moves", &bad_letter), 422, "invalid-position");
    assert!(p["detail"].as_str().unwrap().starts_with("a1 holds 'O', which is not a piece of these rules"));
    let wide = json!({"rules": {"preset": "old"}, "position": {"board": vec!["O".repeat(1000); 26].join("/"), "ply": 0, "scores": [0]}});
    let p = assert_problem(&app.post_json("/v1/legal-moves", &wide), 422, "invalid-position");
    assert_eq!(p["detail"], "rank 26 has more than 26 cells; at most 26 files are supported");
    let limit = json!({"rules": {"preset": "old"}, "position": worked_example(), "limit": 0});
    assert_eq!(
        assert_problem(&app.post_json("/v1/legal-moves", &limit), 422, "invalid-value")["field"],
        "limit"
    );
    let cursor = json!({"rules": {"preset": "old"}, "position": worked_example(), "cursor": "nonsense"});
    assert_eq!(
        assert_problem(&app.post_json("/v1/legal-moves", &cursor), 422, "invalid-value")["field"],
        "cursor"
    );
    let no_scores =
        json!({"rules": {"preset": "old"}, "position": {"board": "OOO/OOO/OOO", "ply": 0, "scores": []}});
    assert_eq!(
        assert_problem(&app.post_json("/v1/legal-moves", &no_scores), 422, "invalid-position")["field"],
        "position.scores"
    );
}

#[test]
fn a_body_over_the_limit_is_413_and_a_board_of_a_million_cells_never_reaches_the_engine() {
    let app = spawn_app();
    let huge = json!({"rules": {"preset": "old"}, "position": {"board": vec!["O".repeat(1000); 1000].join("/"), "ply": 0, "scores": [0]}});
    let p = assert_problem(&app.post_json("/v1/legal-moves", &huge), 413, "payload-too-large");
    assert!(p["detail"].as_str().unwrap().contains("65536 bytes"));
    // The server is still healthy.
    assert_eq!(app.get("/healthz").status, 200);
}

#[test]
fn unknown_paths_are_404_and_wrong_methods_405_with_allow() {
    let app = spawn_app();
    assert_problem(&app.get("/v1/nothing"), 404, "not-found");
    let r = app.get("/v1/apply");
    assert_problem(&r, 405, "method-not-allowed");
    assert_eq!(r.header("allow"), Some("POST"));
    let r = app.request("DELETE", "/v1/presets", &[], b"");
    assert_problem(&r, 405, "method-not-allowed");
    assert_eq!(r.header("allow"), Some("GET"));
}

#[test]
fn health_docs_and_request_ids() {
    let app = spawn_app();
    let r = app.get("/healthz");
    assert_eq!(r.json(), json!({"status": "ok"}));
    let id = r.header("x-request-id").unwrap();
    assert_eq!(id.len(), 36, "a UUID: {id}");
    let r = app.get("/docs");
    assert_eq!(r.status, 308);
    assert_eq!(r.header("location"), Some("/docs/"));
    let r = app.get("/docs/");
    assert_eq!(r.status, 200);
    assert!(r.body.contains("swagger-ui"));
    let css = app.get("/docs/swagger-ui.css");
    assert_eq!(css.status, 200, "the Swagger UI assets are built in");
    assert!(css.body.len() > 10_000);
}

#[test]
fn cors_preflight_allows_other_origins() {
    let app = spawn_app();
    let r = app.request(
        "OPTIONS",
        "/v1/apply",
        &[
            ("Origin", "http://frontend.example"),
            ("Access-Control-Request-Method", "POST"),
            ("Access-Control-Request-Headers", "content-type"),
        ],
        b"",
    );
    assert_eq!(r.status, 200, "{r:?}");
    assert_eq!(r.header("access-control-allow-origin"), Some("http://frontend.example"));
    assert!(r.header("access-control-allow-methods").unwrap().contains("POST"));
    let restricted = crate::common::spawn_with(leapfrog::server::config::ServeConfig {
        cors_origins: vec!["http://allowed.example".into()],
        ..leapfrog::server::config::ServeConfig::for_tests()
    });
    let r = restricted.request(
        "OPTIONS",
        "/v1/apply",
        &[("Origin", "http://other.example"), ("Access-Control-Request-Method", "POST")],
        b"",
    );
    // A preflight from an origin not on the list is refused, and nothing
    // tells the browser it may call.
    assert_eq!(r.status, 400, "{r:?}");
    assert_eq!(r.header("access-control-allow-origin"), None, "{r:?}");
}

#[test]
fn the_committed_spec_is_what_the_code_produces_and_what_is_served() {
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json")).unwrap();
    let generated = leapfrog::server::cli::openapi_json();
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: run `cargo run -p leapfrog -- openapi --output openapi/openapi.json`"
    );
    let app = spawn_app();
    let served = app.get("/openapi.json").json();
    let committed: Value = serde_json::from_str(&committed).unwrap();
    assert_eq!(served, committed);
    assert_eq!(committed["openapi"], "3.1.0");
    for path in ["/v1/presets", "/v1/setups", "/v1/legal-moves", "/v1/apply", "/healthz"] {
        assert!(committed["paths"][path].is_object(), "{path} is documented");
    }
    for status in ["400", "413", "422"] {
        assert!(
            committed["paths"]["/v1/apply"]["post"]["responses"][status].is_object(),
            "{status} documented"
        );
    }
    assert!(!committed["info"]["license"]["name"].as_str().unwrap().is_empty());
}

#[test]
fn the_engine_and_the_api_agree_on_a_whole_game() {
    // Plays a Froglet game through /v1/apply, choosing moves from
    // /v1/legal-moves, and checks each step against the crate.
    let app = spawn_app();
    let setup = app
        .post_json("/v1/setups", &json!({"rules": {"preset": "froglet", "rows": 6, "cols": 6}, "seed": 3}))
        .json();
    let mut position = setup["position"].clone();
    let rules = Rules::new(Preset::Froglet.spec().with_size(6, 6)).unwrap();
    let mut pos =
        Position::from_setup(rules, &position["notation"].as_str().unwrap().parse::<Setup>().unwrap())
            .unwrap();
    let mut plies = 0;
    loop {
        let input = json!({"board": position["board"], "ply": position["ply"], "scores": position["scores"]});
        let moves = app
            .post_json(
                "/v1/legal-moves",
                &json!({"rules": {"preset": "froglet"}, "position": input, "limit": 1000}),
            )
            .json();
        assert_eq!(moves["count"], pos.count_moves_unbounded());
        let Some(first) = moves["moves"].as_array().unwrap().last() else { break };
        let played = app
            .post_json(
                "/v1/apply",
                &json!({"rules": {"preset": "froglet"}, "position": input, "move": {"path": first["path"]}}),
            )
            .json();
        pos.play(&first["notation"].as_str().unwrap().parse().unwrap()).unwrap();
        assert_eq!(played["position"]["notation"], pos.to_string());
        position = played["position"].clone();
        plies += 1;
        if played["status"] == "over" {
            assert!(played["result"]["winners"].as_array().is_some_and(|w| !w.is_empty()));
            break;
        }
    }
    assert!(pos.is_over());
    assert!(plies > 3);
}
