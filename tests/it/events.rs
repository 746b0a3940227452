//! A game's event log through its streams: a client that reconnects with
//! `Last-Event-ID` after every event — a join, a leave, the start, a move,
//! a resignation, a time-out, the end, the rematch — assembles exactly
//! what an uninterrupted client saw, byte for byte, on SQLite and across
//! two processes on PostgreSQL; and games stored before there were logs
//! read back with their events.

use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Event, EventStream, ServerProcess, TestApp, pg, spawn_app};

/// An event as a client sees it: name, id and data — the whole of what
/// the server wrote for it.
type Seen = (String, Option<String>, String);

fn seen(e: Event) -> Seen {
    (e.event, e.id, e.data)
}

fn events_path(id: &str) -> String {
    format!("/v1/games/{id}/events")
}

/// Follows game `id` on `app` without a break until `last` (an event
/// name) comes: every event after the first `game` event.
fn uninterrupted(app: &TestApp, id: &str, last: &'static str) -> thread::JoinHandle<(Seen, Vec<Seen>)> {
    let mut stream = EventStream::open(app, &events_path(id), None);
    let snapshot = seen(stream.next().expect("the game as it stands"));
    thread::spawn(move || {
        let mut all = Vec::new();
        while let Some(e) = stream.next() {
            let done = e.event == last;
            all.push(seen(e));
            if done {
                break;
            }
        }
        (snapshot, all)
    })
}

/// Follows game `id` until `last` comes, reading one event a connection:
/// after each it closes the stream and opens another, with the event's id
/// as `Last-Event-ID`, on each of `apps` in turn.
fn reconnecting(apps: Vec<TestApp>, id: &str, last: &'static str) -> thread::JoinHandle<(Seen, Vec<Seen>)> {
    let path = events_path(id);
    // The game event and the first event after it on one connection: a
    // game with no events yet has no id to resume from.
    let mut first = EventStream::open(&apps[0], &path, None);
    let snapshot = seen(first.next().expect("the game as it stands"));
    thread::spawn(move || {
        let mut all = vec![seen(first.next().expect("the first event"))];
        drop(first);
        let deadline = Instant::now() + Duration::from_secs(120);
        while all.last().is_some_and(|e| e.0 != last) {
            assert!(Instant::now() < deadline, "no {last} after 120 s: {all:?}");
            let resume = all.last().and_then(|e| e.1.clone()).expect("every event has an id");
            let app = &apps[all.len() % apps.len()];
            let mut stream = EventStream::open(app, &path, Some(&resume));
            let e = stream.next().expect("the event after the last one seen");
            assert_ne!(e.event, "game", "a resumed stream sends no snapshot");
            all.push(seen(e));
        }
        (snapshot, all)
    })
}

fn post(app: &TestApp, path: &str, token: Option<&str>, body: &Value) -> Value {
    let auth = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(a) = &auth {
        headers.push(("Authorization", a.as_str()));
    }
    let r = app.request("POST", path, &headers, body.to_string().as_bytes());
    assert!(r.status < 300, "{path}: {} {}", r.status, r.body);
    r.json()
}

/// Plays the first legal move for the person to move, if a person is;
/// `false` when the game is over.
fn a_persons_move(app: &TestApp, id: &str, tokens: &[String]) -> bool {
    let g = app.get(&format!("/v1/games/{id}")).json();
    if g["status"] == "over" {
        return false;
    }
    let to_move = g["position"]["to_move"].as_u64().unwrap() as usize;
    if g["players"][to_move]["resigned"].is_null() {
        let path = app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["moves"][0]["path"].clone();
        let auth = format!("Bearer {}", tokens[to_move]);
        let headers = [("Content-Type", "application/json"), ("Authorization", auth.as_str())];
        let r = app.request(
            "POST",
            &format!("/v1/games/{id}/moves"),
            &headers,
            json!({"path": path}).to_string().as_bytes(),
        );
        // The computer may have moved for a resigned seat meanwhile.
        assert!(r.status == 201 || r.status == 409, "{}", r.body);
    }
    true
}

/// The events' names and ids, ids checked to run 0, 1, 2, … after the
/// snapshot's.
fn names(snapshot: &Seen, all: &[Seen]) -> Vec<String> {
    let first = snapshot.1.as_ref().map_or(0, |id| id.parse::<u64>().unwrap() + 1);
    for (i, e) in all.iter().enumerate() {
        assert_eq!(e.1.as_deref(), Some((first + i as u64).to_string().as_str()), "{e:?}");
    }
    all.iter().map(|e| e.0.clone()).filter(|n| n != "move").collect()
}

/// Seats joined, left and taken again, a move, resignations while the
/// computer plays the resigned seats, the end and the rematch: `act` makes
/// the changes, `follow` serves the uninterrupted stream, `apps` the
/// reconnecting one.
fn seats_moves_resignations_and_a_rematch(act: &TestApp, follow: &TestApp, apps: Vec<TestApp>) {
    let created = post(
        act,
        "/v1/games",
        None,
        &json!({"rules": {"preset": "old", "rows": 5, "cols": 5}, "seed": "5",
                "players": [{"name": "Ann"}, {"open": "public"}, {"open": "public"}]}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let ann = created["seats"][0]["token"].as_str().unwrap().to_string();
    let whole = uninterrupted(follow, &id, "rematch");
    let pieces = reconnecting(apps, &id, "rematch");
    let join = |name: &str| post(act, &format!("/v1/games/{id}/join"), None, &json!({"name": name}));
    let bob = join("Bob")["seat"]["token"].as_str().unwrap().to_string();
    post(act, &format!("/v1/games/{id}/leave"), Some(&bob), &json!({}));
    let bob = join("Bob")["seat"]["token"].as_str().unwrap().to_string();
    let cleo = join("Cleo")["seat"]["token"].as_str().unwrap().to_string();
    let tokens = [ann.clone(), bob.clone(), cleo.clone()];
    assert!(a_persons_move(act, &id, &tokens));
    assert!(a_persons_move(act, &id, &tokens));
    post(act, &format!("/v1/games/{id}/resign"), Some(&bob), &json!({}));
    assert!(a_persons_move(act, &id, &tokens));
    post(act, &format!("/v1/games/{id}/resign"), Some(&ann), &json!({}));
    post(act, &format!("/v1/games/{id}/resign"), Some(&cleo), &json!({}));
    post(act, &format!("/v1/games/{id}/rematch"), Some(&ann), &json!({}));
    let (whole_snapshot, whole) = whole.join().unwrap();
    let (pieces_snapshot, pieces) = pieces.join().unwrap();
    assert_eq!(pieces_snapshot, whole_snapshot);
    assert_eq!(pieces, whole, "reconnecting after every event");
    assert_eq!(
        names(&whole_snapshot, &whole),
        [
            "joined", "left", "joined", "joined", "started", "resigned", "resigned", "resigned", "over",
            "rematch"
        ]
    );
    // Every move event carries the game after it.
    for (_, _, data) in whole.iter().filter(|e| e.0 == "move") {
        let m: Value = serde_json::from_str(data).unwrap();
        assert_eq!(m["game"]["position"]["ply"], m["ply"].as_u64().unwrap() + 1, "{m}");
    }
}

/// A seat that runs out of time: `timed_out`, then `over`.
fn a_time_out(act: &TestApp, follow: &TestApp, apps: Vec<TestApp>) {
    let created = post(
        act,
        "/v1/games",
        None,
        &json!({"rules": {"preset": "old", "rows": 4, "cols": 4}, "seed": "5", "move_time_limit": 5,
                "players": [{"name": "Ann"}, {"name": "Bob"}]}),
    );
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> =
        (0..2).map(|p| created["seats"][p]["token"].as_str().unwrap().to_string()).collect();
    let whole = uninterrupted(follow, &id, "over");
    let pieces = reconnecting(apps, &id, "over");
    assert!(a_persons_move(act, &id, &tokens));
    // Bob does not move: the server times his seat out after 5 s.
    let (whole_snapshot, whole) = whole.join().unwrap();
    let (_, pieces) = pieces.join().unwrap();
    assert_eq!(pieces, whole, "reconnecting after every event");
    assert_eq!(names(&whole_snapshot, &whole), ["timed_out", "over"]);
}

#[test]
fn a_client_reconnecting_after_every_event_sees_what_an_uninterrupted_one_saw_sqlite() {
    let app = spawn_app();
    let apps = || vec![TestApp::at(app.port)];
    thread::scope(|s| {
        s.spawn(|| seats_moves_resignations_and_a_rematch(&app, &app, apps()));
        s.spawn(|| a_time_out(&app, &app, apps()));
    });
}

#[test]
fn a_client_reconnecting_after_every_event_sees_what_an_uninterrupted_one_saw_across_processes_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url], &[]);
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    let apps = || vec![TestApp::at(a.app.port), TestApp::at(b.app.port)];
    thread::scope(|s| {
        s.spawn(|| seats_moves_resignations_and_a_rematch(&a.app, &b.app, apps()));
        s.spawn(|| a_time_out(&a.app, &b.app, apps()));
    });
}
