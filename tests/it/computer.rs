//! The computer through the API: `POST /v1/analysis`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::{TestApp, spawn_unlimited, spawn_with};
use leapfrog::config::ServeConfig;
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
    let app = spawn_with(config);
    let done = Arc::new(AtomicUsize::new(0));
    // One thinks, one waits: 2 × 3 s of thinking.
    let long = json!({"rules": {"preset": "murray"}, "position": middle_game(), "millis": 3000});
    let thinking: Vec<_> = (0..2)
        .map(|i| {
            let (app, long, done) =
                (TestApp { address: app.address.clone(), port: app.port }, long.clone(), done.clone());
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
