//! The server's own outages cost no one time (rule book §11): a server
//! stopped across a seat's deadline, and started again, gives the seat the
//! time it had left when the server stopped — then its clock runs again.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{ServerProcess, TempFiles, temp_db};

#[test]
fn a_server_stopped_across_a_deadline_times_no_one_out() {
    let db = format!("sqlite://{}", temp_db().display());
    let _files = TempFiles::of_url(&db);
    let first = ServerProcess::start(&["--database-url", &db], &[]);
    let created = first.app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "move_time_limit": 6,
            "players": [{"name": "Ann P"}, {"name": "Bob P"}]}),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.json()["id"].as_str().unwrap().to_string();
    let deadline =
        |app: &crate::common::TestApp| app.get(&format!("/v1/games/{id}")).json()["turn_ends_at"].clone();
    assert!(deadline(&first.app).is_string(), "Ann's clock runs");
    // One second into Ann's six, the server stops; it stays down for eight.
    std::thread::sleep(Duration::from_secs(1));
    first.signal("TERM");
    let mut first = first;
    assert!(first.wait(15).is_some_and(|s| s.success()), "the server stops cleanly");
    drop(first);
    std::thread::sleep(Duration::from_secs(8));
    let started = Instant::now();
    let second = ServerProcess::start(&["--database-url", &db], &[]);
    // Past Ann's deadline by the clock on the wall, but not by the game's:
    // the outage is given back. Two ticks of the clock later she still plays.
    std::thread::sleep(Duration::from_millis(2500));
    let g = second.app.get(&format!("/v1/games/{id}")).json();
    assert_eq!(g["status"], "opening", "nobody was timed out across the outage: {g}");
    assert!(g["players"][0]["resigned"].is_null(), "{g}");
    assert!(g["turn_ends_at"].is_string(), "her clock runs again: {g}");
    // Then her clock runs out as it would have: about five seconds on.
    loop {
        let g = second.app.get(&format!("/v1/games/{id}")).json();
        if g["status"] == "over" {
            assert_eq!(g["players"][0]["resigned"], "timed_out", "{g}");
            let waited = started.elapsed();
            assert!(waited >= Duration::from_secs(4), "timed out only {waited:?} after the restart");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the clock stopped for good: {g}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A long game (rule book §11): a day per move, the deadline a day after
/// the turn began; the clock, given the time (no sleeping), times the seat
/// to move out once the day has passed and not before.
#[test]
fn a_day_per_move_game_times_out_its_seat_a_day_later() {
    let db = format!("sqlite://{}", temp_db().display());
    let _files = TempFiles::of_url(&db);
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = db.clone();
    let app = crate::common::spawn_with(config);
    let both = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "days_per_move": 1, "move_time_limit": 60,
            "players": [{"name": "Ann P"}, {"name": "Bob P"}]}),
    );
    assert_eq!((both.status, both.json()["field"].as_str()), (422, Some("days_per_move")), "{}", both.body);
    let odd = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "days_per_move": 4, "players": [{"name": "A P"}, {"name": "B P"}]}),
    );
    assert_eq!(odd.status, 422, "{}", odd.body);
    let created = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "days_per_move": 1,
            "players": [{"name": "Ann P"}, {"name": "Bob P"}]}),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let g = created.json();
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["move_time_limit"], 86_400, "{g}");
    assert!(g["turn_ends_at"].is_string(), "{g}");
    let verdict = actix_web::rt::System::new().block_on(async {
        let store = leapfrog::store::Store::open(&db, leapfrog::store::Durability::Full).await.unwrap();
        let limits = leapfrog::events::StreamLimits { total: 10, per_game: 10, per_client: 0 };
        let (games, _wakes) =
            leapfrog::play::Games::new(store.clone(), leapfrog::events::Hub::new(store, limits));
        let now = leapfrog::process::now_ms();
        let early = leapfrog::play::move_clock::apply_time_outs(&games, now + 23 * 3_600_000).await.unwrap();
        let late =
            leapfrog::play::move_clock::apply_time_outs(&games, now + 24 * 3_600_000 + 1_000).await.unwrap();
        (early, late)
    });
    assert_eq!(verdict, (0, 1), "not timed out before the day is over, then once");
    let g = app.get(&format!("/v1/games/{id}")).json();
    assert_eq!(
        (g["status"].as_str(), g["players"][0]["resigned"].as_str()),
        (Some("over"), Some("timed_out")),
        "{g}"
    );
}
