//! An account's event stream (rule book §15): challenges, games started,
//! turns and ends, each once with its number; several streams of one
//! account each get every event; a client that reconnects with
//! `Last-Event-ID` after every event assembles what an uninterrupted one
//! saw — on SQLite, and across two processes on PostgreSQL.

use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::accounts::{PASSWORD, as_token, person, secret, token};
use crate::common::{Event, EventStream, ServerProcess, TestApp, pg, spawn_app};

type Seen = (String, Option<String>, String);

fn seen(e: Event) -> Seen {
    (e.event, e.id, e.data)
}

fn follow(app: &TestApp, name: &str, token: &str, last: Option<&str>) -> EventStream {
    let mut headers = format!("Authorization: Bearer {token}\r\n");
    if let Some(last) = last {
        headers.push_str(&format!("Last-Event-ID: {last}\r\n"));
    }
    EventStream::open_with(app, &format!("/v1/accounts/{name}/events"), &headers)
}

/// Reads `stream` until `last` (an event name) comes.
fn until(mut stream: EventStream, last: &'static str) -> thread::JoinHandle<Vec<Seen>> {
    thread::spawn(move || {
        let mut all = Vec::new();
        while let Some(e) = stream.next() {
            let done = e.event == last;
            all.push(seen(e));
            if done {
                break;
            }
        }
        all
    })
}

/// Reads `name`'s events until `last`, one event a connection, resuming
/// with the last id on each of `apps` in turn. The first event opens the
/// way: a stream with nothing logged has no id to resume from.
fn reconnecting(
    apps: Vec<TestApp>,
    name: &str,
    tok: &str,
    last: &'static str,
) -> thread::JoinHandle<Vec<Seen>> {
    let mut first = follow(&apps[0], name, tok, None);
    let (name, tok) = (name.to_string(), tok.to_string());
    thread::spawn(move || {
        let mut all = vec![seen(first.next().expect("the first event"))];
        drop(first);
        let deadline = Instant::now() + Duration::from_secs(60);
        while all.last().is_some_and(|e| e.0 != last) {
            assert!(Instant::now() < deadline, "no {last} after 60 s: {all:?}");
            let resume = all.last().and_then(|e| e.1.clone()).expect("every logged event has an id");
            let app = &apps[all.len() % apps.len()];
            let e =
                follow(app, &name, &tok, Some(&resume)).next().expect("the event after the last one seen");
            all.push(seen(e));
        }
        all
    })
}

fn bot(app: &TestApp, name: &str) -> String {
    let r = app.post_json("/v1/accounts", &json!({"name": name, "password": PASSWORD, "bot": true}));
    assert_eq!(r.status, 201, "{}", r.body);
    secret(&token(app, name, PASSWORD, &["play", "account"]))
}

fn data(e: &Seen) -> Value {
    serde_json::from_str(&e.2).unwrap_or_else(|err| panic!("{err}: {e:?}"))
}

/// Ann challenges Robo twice (he declines the first), the second game is
/// played a move each and Ann resigns; `act` acts, `follow` is followed.
fn a_challenge_and_a_game(act: &TestApp, follow_on: &TestApp, apps: Vec<TestApp>) {
    let robo = bot(act, "Robo");
    let ann = person(act, "Ann");
    let plain = until(follow(follow_on, "Robo", &robo, None), "game_over");
    let second = until(follow(follow_on, "robo", &robo, None), "game_over");
    let anns = until(follow(follow_on, "Ann", &ann, None), "game_over");
    let resumed = reconnecting(apps, "Robo", &robo, "game_over");
    let terms = json!({"to": "Robo", "rules": {"preset": "old", "rows": 6, "cols": 6}});
    let sent = as_token(act, "POST", "/v1/challenges", &ann, &terms).json();
    let first = sent["id"].as_str().unwrap();
    let r =
        as_token(act, "POST", &format!("/v1/challenges/{first}/decline"), &robo, &json!({"reason": "later"}));
    assert_eq!(r.status, 200, "{}", r.body);
    let id = as_token(act, "POST", "/v1/challenges", &ann, &terms).json()["id"].as_str().unwrap().to_string();
    assert_eq!(as_token(act, "POST", &format!("/v1/challenges/{id}/accept"), &robo, &json!({})).status, 200);
    // A fresh stream now starts with the game as it stands.
    let mut fresh = follow(follow_on, "Robo", &robo, None);
    let started = seen(fresh.next().expect("the game"));
    assert_eq!((started.0.as_str(), started.1.as_deref()), ("game_started", None), "{started:?}");
    drop(fresh);
    for mover in [&ann, &robo] {
        let path = act.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["moves"][0]["path"].clone();
        let r = as_token(act, "POST", &format!("/v1/games/{id}/moves"), mover, &json!({"path": path}));
        assert_eq!(r.status, 201, "{}", r.body);
    }
    assert_eq!(as_token(act, "POST", &format!("/v1/games/{id}/resign"), &ann, &json!({})).status, 200);
    let (plain, second, resumed, anns) =
        (plain.join().unwrap(), second.join().unwrap(), resumed.join().unwrap(), anns.join().unwrap());
    let names: Vec<&str> = plain.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names, ["challenge", "challenge", "game_started", "your_turn", "game_over"], "{plain:?}");
    let ids: Vec<Option<&str>> = plain.iter().map(|e| e.1.as_deref()).collect();
    assert_eq!(ids, [Some("0"), Some("1"), Some("2"), Some("3"), Some("4")]);
    assert_eq!(second, plain, "every stream of the account gets every event");
    assert_eq!(resumed, plain, "reconnecting after every event misses none and repeats none");
    assert_eq!(data(&plain[2])["game"], json!(id));
    assert_eq!((data(&plain[3])["ply"].as_u64(), data(&plain[3])["seat"].as_u64()), (Some(1), Some(1)));
    let over = data(&plain[4]);
    assert_eq!(
        (over["game"].as_str(), over["result"]["winners"].clone()),
        (Some(id.as_str()), json!([1])),
        "{over}"
    );
    // Ann's side: her challenges, the decline with its key, her turns, the end.
    let declined = anns.iter().find(|e| e.0 == "challenge_declined").expect("the decline");
    assert_eq!(data(declined)["reason"], "later");
    let anns_names: Vec<&str> = anns.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        anns_names,
        [
            "challenge",
            "challenge_declined",
            "challenge",
            "game_started",
            "your_turn",
            "your_turn",
            "game_over"
        ],
        "{anns:?}"
    );
}

#[test]
fn an_accounts_stream_tells_its_challenges_and_games_once_each_and_resumes_sqlite() {
    let app = spawn_app();
    a_challenge_and_a_game(&app, &app, vec![app.clone()]);
    // Streams of another account's name, or without a token, are refused.
    let ann = secret(&token(&app, "Ann", PASSWORD, &["play"]));
    let other =
        app.request("GET", "/v1/accounts/Robo/events", &[("Authorization", &format!("Bearer {ann}"))], b"");
    assert_eq!(other.status, 403);
    assert_eq!(app.get("/v1/accounts/Robo/events").status, 401);
}

#[test]
fn an_accounts_stream_tells_changes_made_through_another_process_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url], &[]);
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    a_challenge_and_a_game(&a.app, &b.app, vec![a.app.clone(), b.app.clone()]);
}
