//! Tournaments (rule book §17) end to end: `store` (an event's change is
//! written whole or not at all, only over the version it was read at —
//! so of two processes pairing one round, one writes — and a player joins
//! once), `events` (events created, joined, started and paired round by
//! round as their games end, with byes, forfeits, time-outs, vacations,
//! consent and standings; refusals name their field or limit; a fleet
//! pairs each round once), `bots` (`leapfrog bot` processes playing a
//! Swiss and an arena by themselves). Here: the helpers they share.

mod bots;
mod events;
mod store;

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::accounts::as_token;
use crate::common::TestApp;

/// A tournament of `extra` terms on 6×6 `old` games, a minute a move.
pub(super) fn terms(extra: Value) -> Value {
    let mut body = json!({"name": "Test event", "rules": {"preset": "old", "rows": 6, "cols": 6},
        "move_time_limit": 60});
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        body[k] = v;
    }
    body
}

/// Creates an event of `extra` terms as `tokens[0]`, has everyone join
/// and its creator start it: its id.
pub(super) fn started(app: &TestApp, tokens: &[String], extra: Value) -> String {
    let made = as_token(app, "POST", "/v1/tournaments", &tokens[0], &terms(extra));
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    for t in tokens {
        let r = as_token(app, "POST", &format!("/v1/tournaments/{id}/join"), t, &json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = as_token(app, "POST", &format!("/v1/tournaments/{id}/start"), &tokens[0], &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["status"], "running");
    id
}

/// Every game of the event, by round and board, paging through.
pub(super) fn all_games(app: &TestApp, id: &str) -> Vec<Value> {
    let (mut games, mut cursor) = (Vec::new(), None::<String>);
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/tournaments/{id}/games?limit=3&cursor={c}"),
            None => format!("/v1/tournaments/{id}/games?limit=3"),
        };
        let page = app.get(&path).json();
        games.extend(page["games"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return games,
        }
    }
}

/// Plays the event out: in each round, the second seat of every game
/// resigns (so the first wins), until it is over; its last state.
pub(super) fn play_out(app: &TestApp, id: &str, tokens: &[String], names: &[&str]) -> Value {
    let token_of = |name: &str| tokens[names.iter().position(|n| *n == name).unwrap()].clone();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let t = app.get(&format!("/v1/tournaments/{id}")).json();
        if t["status"] == "over" {
            return t;
        }
        assert!(Instant::now() < deadline, "the event did not end: {t}");
        for g in all_games(app, id) {
            let (Some(game), Value::Null) = (g["game"].as_str(), &g["result"]) else { continue };
            let second = g["second"].as_str().unwrap();
            let r = as_token(app, "POST", &format!("/v1/games/{game}/resign"), &token_of(second), &json!({}));
            assert!(r.status == 200 || r.status == 409 || r.status == 422, "{}", r.body);
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}
