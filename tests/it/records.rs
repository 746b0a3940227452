//! Game records (rule book §14) end to end: a game's record read back
//! position for position, through the API and `leapfrog replay`, and
//! records that do not replay refused with what and where.

use std::process::Command;

use serde_json::{Value, json};

use crate::common::{leapfrog_binary, spawn_app};
use crate::games::{create, play_first};

#[test]
fn a_games_record_reads_back_as_the_same_game_position_for_position() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "murray", "rows": 5, "cols": 5}), 3, 11);
    while play_first(&app, &game).is_some() {}
    let record = app.get(&format!("/v1/games/{}/record", game.id));
    assert_eq!(record.status, 200);
    assert!(record.header("content-type").unwrap().starts_with("text/plain"));
    let text = record.body.clone();
    assert!(text.starts_with("[Game \"Leap Frog (Murray)\"]\n[Rules \"{"), "{text}");
    assert!(text.contains("[Seat3 \"P2\"]") && text.contains("[Termination \"score\"]"), "{text}");
    assert!(text.contains("[Rated \"no\"]"), "{text}");
    let read = app.post_json("/v1/records", &json!({ "record": text }));
    assert_eq!(read.status, 200, "{}", read.body);
    let read = read.json();
    let g = app.get(&format!("/v1/games/{}", game.id)).json();
    let plies = g["position"]["ply"].as_u64().unwrap() as usize;
    assert_eq!(read["positions"].as_array().unwrap().len(), plies + 1);
    for n in [0, plies / 2, plies] {
        let at = app.get(&format!("/v1/games/{}/positions/{n}", game.id)).json();
        assert_eq!(read["positions"][n], at["notation"], "ply {n}");
    }
    assert_eq!(read["result"], g["result"], "the same result");
    assert_eq!(read["rules"], g["rules"]);
}

#[test]
fn a_record_that_does_not_replay_is_refused_naming_the_first_bad_ply() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 5);
    for _ in 0..3 {
        play_first(&app, &game);
    }
    let text = app.get(&format!("/v1/games/{}/record", game.id)).body;
    // The third ply replaced by one the rules refuse.
    let third = app.get(&format!("/v1/games/{}/moves", game.id)).json()["moves"][2]["notation"]
        .as_str()
        .unwrap()
        .to_string();
    let bad = text.replace(&format!("3. {third}"), "3. d4xd2");
    let r = app.post_json("/v1/records", &json!({ "record": bad }));
    assert_eq!(r.status, 422, "{}", r.body);
    let problem: Value = r.json();
    assert_eq!(problem["field"], "plies[2]", "{problem}");
    assert!(problem["detail"].as_str().unwrap().starts_with("ply 3 (d4xd2)"), "{problem}");
    // No Rules tag, a tag that is not one, a stated result the replay does
    // not give: each named.
    for (text, field) in [
        ("[Start \"OOO/OOO/OOO 0 0,0\"]\n\n1. a1\n".to_string(), "tags.Rules"),
        ("[Game \"x\"]\n[Rules nope]\n\n".to_string(), "line 2"),
        // A seat's name with a right-to-left override, as names refuse it.
        (text.replace("[Seat1 \"", "[Seat1 \"\u{202E}"), "line 4"),
        (text.replace("[Termination", "[Result \"9,9\"]\n[Termination"), "tags.Result"),
    ] {
        let r = app.post_json("/v1/records", &json!({ "record": text }));
        assert_eq!((r.status, r.json()["field"].as_str().unwrap()), (422, field), "{}", r.body);
    }
    // An unfinished game's record has no result, and replays.
    let r = app.post_json("/v1/records", &json!({ "record": text }));
    assert_eq!(r.json()["result"], Value::Null);
}

#[test]
fn leapfrog_replay_prints_each_ply_and_the_result_or_names_the_bad_ply() {
    let app = spawn_app();
    let game = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 9);
    while play_first(&app, &game).is_some() {}
    let text = app.get(&format!("/v1/games/{}/record", game.id)).body;
    let file = std::env::temp_dir().join(format!("leapfrog-record-{}.txt", game.id));
    std::fs::write(&file, &text).unwrap();
    let out = Command::new(leapfrog_binary()).arg("replay").arg(&file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let g = app.get(&format!("/v1/games/{}", game.id)).json();
    assert!(stdout.starts_with("start "), "{stdout}");
    assert!(stdout.lines().last().unwrap().starts_with("result: "), "{stdout}");
    assert!(stdout.contains(g["position"]["notation"].as_str().unwrap()), "the final position: {stdout}");
    std::fs::write(&file, text.replace("1. ", "1. z9 ")).unwrap();
    let out = Command::new(leapfrog_binary()).arg("replay").arg(&file).output().unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("ply 1 (z9)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
