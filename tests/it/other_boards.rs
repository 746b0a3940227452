//! Other boards over HTTP (`docs/rules.md` §12): the presets drawn by a
//! mask, `hex` directions, `rules.side`, and peg solitaire's result.

use serde_json::{Value, json};

use crate::common::{leapfrog_binary, spawn_app};
use crate::games::{create, play};

#[test]
fn the_presets_list_capture_english_and_triangle_with_their_boards() {
    let app = spawn_app();
    let list = app.get("/v1/presets").json();
    let find = |id: &str| list.as_array().unwrap().iter().find(|p| p["id"] == id).unwrap().clone();
    let capture = find("capture");
    assert_eq!(capture["shape"], "hexagon");
    assert_eq!(capture["rules"]["directions"], "hex");
    assert_eq!(
        capture["board"],
        "----OOOOO/---OOOOOO/--OOOOOOO/-OOOOOOOO/OOOO1OOOO/OOOOOOOO-/OOOOOOO--/OOOOOO---/OOOOO----"
    );
    let english = find("english");
    assert_eq!(
        (english["shape"].clone(), english["rules"]["end"].clone()),
        (json!("cross"), json!("pieces_left"))
    );
    assert_eq!(english["board"], "--OOO--/--OOO--/OOOOOOO/OOO1OOO/OOOOOOO/--OOO--/--OOO--");
    assert_eq!(find("triangle")["board"], "OOOOO/OOOO-/OOO--/OO---/1----");
}

#[test]
fn a_board_is_drawn_by_its_side_and_a_shaped_preset_refuses_rows() {
    let app = spawn_app();
    let r = app.post_json("/v1/setups", &json!({"rules": {"preset": "capture", "side": 3}, "seed": 1}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["position"]["notation"], "--OOO/-OOOO/OO1OO/OOOO-/OOO-- 0 0,0");
    // A complete rule set sent back (rows, cols and the mask with them) is the same board.
    let full = r.json()["rules"].clone();
    let again = app.post_json("/v1/setups", &json!({"rules": full, "seed": 1}));
    assert_eq!(again.json()["position"]["notation"], "--OOO/-OOOO/OO1OO/OOOO-/OOO-- 0 0,0", "{}", again.body);
    let one = app.post_json("/v1/setups", &json!({"rules": {"preset": "english"}, "seed": 1})).json();
    assert_eq!(one["position"]["scores"], json!([0]), "peg solitaire is for one player");
    for (rules, field, says) in [
        (json!({"preset": "capture", "rows": 9}), "rules.rows", "give 'side', not 'rows'"),
        (json!({"preset": "capture", "side": 14}), "rules.side", "side must be from 2 to 13, not 14"),
        (json!({"preset": "old", "side": 9, "cols": 9}), "rules.cols", "not both"),
        (json!({"side": 5, "rows": 5, "cols": 5, "kinds": []}), "rules.side", "give 'preset' too"),
    ] {
        let r = app.post_json("/v1/setups", &json!({"rules": rules}));
        assert_eq!(r.status, 422, "{rules}: {}", r.body);
        let v = r.json();
        assert!(v.to_string().contains(field) && v["detail"].as_str().unwrap().contains(says), "{v}");
    }
}

#[test]
fn capture_is_played_by_three_over_http_with_six_opening_jumps() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "capture"}), 3, 7);
    let moves = app.get(&format!("/v1/games/{}/legal-moves", game.id)).json();
    let names: Vec<&str> =
        moves["moves"].as_array().unwrap().iter().map(|m| m["notation"].as_str().unwrap()).collect();
    assert_eq!(names, ["c3xe5", "c5xe5", "e3xe5", "e7xe5", "g5xe5", "g7xe5"]);
    let r = play(&app, &game, 0, &json!(["c3", "e5"]), &[]);
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["position"]["to_move"], 1);
    // Along the NW–SE diagonal is no jump of `hex`.
    let r = play(&app, &game, 1, &json!(["a5", "c3"]), &[]);
    assert_eq!(r.status, 422, "{}", r.body);
}

#[test]
fn the_last_jump_of_peg_solitaire_gives_the_pieces_left_solved_and_perfect() {
    let app = spawn_app();
    let apply = |board: &str, path: Value| {
        let body = json!({"rules": {"preset": "english"}, "position": {"board": board, "ply": 30, "scores": [30]}, "move": {"path": path}});
        app.post_json("/v1/apply", &body)
    };
    let r = apply("--3--/--3--/7/2OO3/7/--3--/--3--", json!(["c4", "e4"]));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["status"], "over");
    assert_eq!(
        v["result"]["solitaire"],
        json!({"pieces_left": 1, "solved": true, "perfect": false, "last": "e4"})
    );
    let v = apply("--3--/--3--/7/1OO4/7/--3--/--3--", json!(["b4", "d4"])).json();
    assert_eq!(
        v["result"]["solitaire"],
        json!({"pieces_left": 1, "solved": true, "perfect": true, "last": "d4"})
    );
}

#[test]
fn the_solver_answers_a_solution_a_hint_or_that_none_is_left() {
    let app = spawn_app();
    let solve = |rules: Value, board: &str, ply: u32, scores: Value| {
        app.post_json(
            "/v1/solutions",
            &json!({"rules": rules, "position": {"board": board, "ply": ply, "scores": scores}}),
        )
    };
    let start = "--OOO--/--OOO--/OOOOOOO/OOO1OOO/OOOOOOO/--OOO--/--OOO--";
    let r = solve(json!({"preset": "english"}), start, 0, json!([0]));
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!((v["status"].clone(), v["goal"].clone()), (json!("solved"), json!("d4")));
    // The moves replay through the engine to one peg on d4.
    let rules = std::sync::Arc::new(jump_capture::Preset::English.rules());
    let mut pos =
        jump_capture::Position::from_setup(rules, &format!("{start} 0 0").parse().unwrap()).unwrap();
    for m in v["moves"].as_array().unwrap() {
        pos.play(&m.as_str().unwrap().parse().unwrap()).unwrap();
    }
    assert_eq!(pos.outcome().unwrap().solitaire.unwrap().perfect, Some(true));
    let stuck =
        solve(json!({"preset": "english"}), "--O2--/--3--/7/7/7/--3--/--2O--", 30, json!([30])).json();
    assert_eq!((stuck["status"].clone(), stuck["moves"].clone()), (json!("no_solution"), json!([])));
    let two = solve(json!({"preset": "capture"}), "--OOO/-OOOO/OO1OO/OOOO-/OOO--", 0, json!([0, 0]));
    assert_eq!(two.status, 422, "{}", two.body);
    let r = app.post_json("/v1/solutions", &json!({"rules": {"preset": "triangle"}, "position": {"board": "OOOOO/OOOO-/OOO--/OO---/1----", "ply": 0, "scores": [0]}, "goal": "centre"}));
    assert_eq!(r.status, 422, "a triangle has no centre: {}", r.body);
}

#[test]
fn a_persisted_puzzle_solved_perfectly_says_so_in_its_result_and_record() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "english"}), 1, 1);
    let start = app.get(&format!("/v1/games/{}", game.id)).json();
    let body = json!({"rules": {"preset": "english"}, "position": {
        "board": start["position"]["board"], "ply": 0, "scores": [0]}});
    let solution = app.post_json("/v1/solutions", &body).json();
    for m in solution["moves"].as_array().unwrap() {
        let path: Vec<&str> = m.as_str().unwrap().split('x').collect();
        let r = play(&app, &game, 0, &json!(path), &[]);
        assert_eq!(r.status, 201, "{}", r.body);
    }
    let over = app.get(&format!("/v1/games/{}", game.id)).json();
    assert_eq!(over["status"], "over");
    assert_eq!(
        over["result"]["solitaire"],
        json!({"pieces_left": 1, "solved": true, "perfect": true, "last": "d4"})
    );
    let text = app.get(&format!("/v1/games/{}/record", game.id)).body;
    let file = std::env::temp_dir().join(format!("leapfrog-record-{}.txt", game.id));
    std::fs::write(&file, &text).unwrap();
    let out = std::process::Command::new(leapfrog_binary()).arg("replay").arg(&file).output().unwrap();
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.lines().last(), Some("result: 1 piece left, on d4: solved, perfect"), "{stdout}");
}
