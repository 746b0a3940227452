//! Vacations (rule book §11): in a long game a seat at its deadline spends
//! a vacation day for a day more, and is timed out once it has none left
//! (the clock is given the time: no sleeping); a vacation taken ahead
//! pauses the account's clocks, and ending it early gives back the days
//! not begun.

use serde_json::{Value, json};

use crate::accounts::{as_token, person, play_plies, with};
use crate::common::{TempFiles, TestApp, temp_db};

const DAY: i64 = 86_400_000;

/// Ann challenges Bob to a 6×6 `old` game of a day a move; Bob accepts:
/// the game's id.
pub(crate) fn long_game(app: &TestApp, ann: &str, bob: &str) -> String {
    long_game_with(app, ann, ("Bob", bob))
}

/// Ann challenges the account `to` (name, token) to a 6×6 `old` game of
/// a day a move; it accepts: the game's id.
pub(crate) fn long_game_with(app: &TestApp, ann: &str, (to, bob): (&str, &str)) -> String {
    let terms = json!({"to": to, "rules": {"preset": "old", "rows": 6, "cols": 6}, "days_per_move": 1});
    let c = as_token(app, "POST", "/v1/challenges", ann, &terms).json();
    let r = as_token(
        app,
        "POST",
        &format!("/v1/challenges/{}/accept", c["id"].as_str().unwrap()),
        bob,
        &json!({}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["game"]["id"].as_str().unwrap().to_string()
}

pub(crate) fn deadline(app: &TestApp, id: &str) -> i64 {
    let g = app.get(&format!("/v1/games/{id}")).json();
    let at = g["turn_ends_at"].as_str().unwrap_or_else(|| panic!("no deadline: {g}"));
    chrono_ms(at)
}

/// RFC 3339 with milliseconds, as the server writes it, to Unix milliseconds.
pub(crate) fn chrono_ms(at: &str) -> i64 {
    let out = std::process::Command::new("date").args(["-d", at, "+%s%3N"]).output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().parse().unwrap()
}

pub(crate) fn app_with_vacation_days(days: u32) -> (TestApp, String, TempFiles) {
    let db = format!("sqlite://{}", temp_db().display());
    let files = TempFiles::of_url(&db);
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = db.clone();
    config.vacation_days = days;
    (crate::common::spawn_with(config), db, files)
}

/// Runs the clock once at each of `times` on `db`'s games; what it applied each time.
pub(crate) fn clock(db: &str, days: u32, times: &[i64]) -> Vec<usize> {
    actix_web::rt::System::new().block_on(async {
        let store = leapfrog::store::Store::open(db, leapfrog::store::Durability::Full).await.unwrap();
        let limits = leapfrog::events::StreamLimits { total: 10, per_game: 10, per_client: 0 };
        let (games, _wakes) =
            leapfrog::play::Games::new(store.clone(), leapfrog::events::Hub::new(store.clone(), limits));
        let book = leapfrog::vacations::VacationBook::new(store, days);
        let games = games.with_absences(std::sync::Arc::new(book));
        let mut applied = vec![];
        for &at in times {
            applied.push(leapfrog::play::move_clock::apply_time_outs(&games, at).await.unwrap());
        }
        applied
    })
}

#[test]
fn a_seat_at_its_deadline_spends_a_vacation_day_and_is_timed_out_when_none_is_left() {
    let (app, db, _files) = app_with_vacation_days(2);
    let (ann, bob) = (person(&app, "Ann"), person(&app, "Bob"));
    let id = long_game(&app, &ann, &bob);
    let first = deadline(&app, &id);
    // Just before the deadline nothing; at it, a day spent; at the next, the last; then out.
    assert_eq!(clock(&db, 2, &[first - 1_000, first + 1_000]), [0, 1]);
    assert_eq!(deadline(&app, &id), first + DAY, "a day more");
    let v = with(&app, "GET", "/v1/accounts/Ann/vacation", &ann).json();
    assert_eq!((v["days_left"].as_i64(), v["allowance"].as_i64()), (Some(1), Some(2)), "{v}");
    assert_eq!(clock(&db, 2, &[first + DAY - 1_000, first + DAY + 1_000]), [0, 1]);
    assert_eq!(deadline(&app, &id), first + 2 * DAY);
    assert_eq!(clock(&db, 2, &[first + 2 * DAY + 1_000]), [1]);
    let g = app.get(&format!("/v1/games/{id}")).json();
    assert_eq!(
        (g["status"].as_str(), g["players"][0]["resigned"].as_str()),
        (Some("over"), Some("timed_out")),
        "{g}"
    );
    // The game's log tells each moved deadline (event 0 is the first); Ann's, each day spent.
    let mut events = crate::common::EventStream::open(&app, &format!("/v1/games/{id}/events"), Some("0"));
    let names: Vec<String> =
        std::iter::from_fn(|| events.next()).take_while(|e| e.event != "over").map(|e| e.event).collect();
    assert_eq!(names, ["deadline_moved", "timed_out"]);
    let mut anns = crate::common::EventStream::open_with(
        &app,
        "/v1/accounts/Ann/events",
        &format!("Authorization: Bearer {ann}\r\nLast-Event-ID: 0\r\n"),
    );
    let days: Vec<Value> = std::iter::from_fn(|| anns.next())
        .take_while(|e| e.event != "game_over")
        .filter(|e| e.event == "vacation")
        .map(|e| serde_json::from_str(&e.data).unwrap())
        .collect();
    assert_eq!(days.len(), 2, "{days:?}");
    assert!(days.iter().all(|d| d["reason"] == "day" && d["game"] == json!(id)), "{days:?}");
}

#[test]
fn a_vacation_taken_ahead_pauses_the_clocks_and_ending_it_early_gives_back_days_not_begun() {
    let (app, _db, _files) = app_with_vacation_days(20);
    let (ann, bob) = (person(&app, "Ann"), person(&app, "Bob"));
    // Ann is to move in the first game; Bob in the second, after her move.
    let hers = long_game(&app, &ann, &bob);
    let his = long_game(&app, &ann, &bob);
    play_plies(&app, &his, &[ann.clone(), bob.clone()], 1);
    let (hers_before, his_before) = (deadline(&app, &hers), deadline(&app, &his));
    let start = |days: i64| as_token(&app, "POST", "/v1/accounts/Ann/vacation", &ann, &json!({"days": days}));
    let too_many = start(21);
    assert_eq!(
        (too_many.status, too_many.json()["field"].as_str()),
        (422, Some("days")),
        "{}",
        too_many.body
    );
    let v = start(3);
    assert_eq!(v.status, 200, "{}", v.body);
    assert_eq!(v.json()["days_left"], 17);
    assert_eq!(start(1).status, 409, "one vacation at a time");
    assert_eq!(deadline(&app, &hers), hers_before + 3 * DAY, "her running turn moved on by the vacation");
    assert_eq!(deadline(&app, &his), his_before, "Bob's turn is his own");
    // Bob moves during her vacation: her turn begins when it ends.
    play_plies(&app, &his, &[ann.clone(), bob.clone()], 1);
    let until = chrono_ms(v.json()["until"].as_str().unwrap());
    assert_eq!(deadline(&app, &his), until + DAY);
    // Ended at once: the two whole days not begun come back, the turns move back by them.
    let ended = with(&app, "DELETE", "/v1/accounts/Ann/vacation", &ann);
    assert_eq!(ended.status, 200, "{}", ended.body);
    assert_eq!((ended.json()["days_left"].as_i64(), ended.json()["until"].as_str()), (Some(19), None));
    assert_eq!(deadline(&app, &hers), hers_before + DAY);
    assert_eq!(deadline(&app, &his), until - DAY);
    assert_eq!(with(&app, "DELETE", "/v1/accounts/Ann/vacation", &ann).status, 409);
    assert_eq!(with(&app, "GET", "/v1/accounts/Ann/vacation", &bob).status, 403);
}
