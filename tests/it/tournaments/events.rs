//! Events over HTTP: pairing round by round, byes, forfeits, time-outs,
//! vacations, consent, start times, a fleet; refusals.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{all_games, play_out, started, terms};
use crate::accounts::{as_token, players};
use crate::common::{pg, spawn_unlimited};

#[test]
fn a_swiss_of_nine_is_paired_round_by_round_with_a_bye_each_round_to_a_different_player() {
    let app = spawn_unlimited();
    let names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy"];
    let tokens = players(&app, &names);
    let id = started(&app, &tokens, json!({"format": "swiss", "rounds": 3}));
    let over = play_out(&app, &id, &tokens, &names);
    let games = all_games(&app, &id);
    let byes: Vec<&str> =
        games.iter().filter(|g| g["second"].is_null()).map(|g| g["first"].as_str().unwrap()).collect();
    assert_eq!(byes.len(), 3, "{games:?}");
    let mut distinct = byes.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "a bye at most once a player: {byes:?}");
    // No two met twice.
    let mut pairs: Vec<(String, String)> = games
        .iter()
        .filter_map(|g| {
            let (a, b) = (g["first"].as_str()?.to_string(), g["second"].as_str()?.to_string());
            Some(if a < b { (a, b) } else { (b, a) })
        })
        .collect();
    let all = pairs.len();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), all, "a rematch: {games:?}");
    // Points add up: a win a game and a bye, 4 games and a bye a round.
    let standings = over["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 9);
    let total: f64 = standings.iter().map(|s| s["points"].as_f64().unwrap()).sum();
    assert_eq!(total, 15.0, "{standings:?}");
    let places: Vec<u64> = standings.iter().map(|s| s["place"].as_u64().unwrap()).collect();
    assert_eq!(places, (1..=9).collect::<Vec<u64>>());
    // Ann's stream told her of it all: her log's first event (0) is
    // `tournament_started`; resumed after it, the pairings and the end.
    let auth = format!("Authorization: Bearer {}\r\nLast-Event-ID: 0\r\n", tokens[0]);
    let mut stream = crate::common::EventStream::open_with(&app, "/v1/accounts/Ann/events", &auth);
    let mut told = Vec::new();
    let mut first_id = None;
    while let Some(e) = stream.next() {
        first_id = first_id.or(e.id.clone());
        if e.event.starts_with("tournament_") {
            told.push(e.event.clone());
        }
        if e.event == "tournament_over" {
            let data: Value = serde_json::from_str(&e.data).unwrap();
            assert_eq!((data["tournament"].as_str(), data["players"].as_u64()), (Some(id.as_str()), Some(9)));
            break;
        }
    }
    assert_eq!(first_id.as_deref(), Some("1"), "resumed after event 0");
    assert_eq!(told, ["tournament_paired", "tournament_paired", "tournament_paired", "tournament_over"]);
    let first_tiebreaks: Vec<&str> =
        standings[0]["tiebreaks"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(first_tiebreaks, ["buchholz", "sonneborn_berger", "direct_encounter", "wins"]);
}

#[test]
fn a_double_round_robin_of_four_has_twelve_games_each_pair_once_in_each_seat() {
    let app = spawn_unlimited();
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let tokens = players(&app, &names);
    let id = started(&app, &tokens, json!({"format": "double_round_robin"}));
    let over = play_out(&app, &id, &tokens, &names);
    assert_eq!(over["rounds"], 6);
    let games = all_games(&app, &id);
    assert_eq!(games.len(), 12);
    // One round's alone: two games.
    let second = app.get(&format!("/v1/tournaments/{id}/games?round=2")).json();
    let rounds: Vec<i64> =
        second["games"].as_array().unwrap().iter().map(|g| g["round"].as_i64().unwrap()).collect();
    assert_eq!(rounds, [2, 2], "{second}");
    let mut seated: Vec<(String, String)> = games
        .iter()
        .map(|g| (g["first"].as_str().unwrap().into(), g["second"].as_str().unwrap().into()))
        .collect();
    seated.sort();
    seated.dedup();
    assert_eq!(seated.len(), 12, "each ordered pair once: {seated:?}");
    // The first seat won every game: each player won the games it sat first in, 3.
    for s in over["standings"].as_array().unwrap() {
        assert_eq!(s["points"], 3.0, "{s}");
    }
    // The cross table: each pair's two results, one a win and one a loss.
    let table = over["cross_table"].as_array().unwrap();
    assert_eq!(table.len(), 4);
    for (i, row) in table.iter().enumerate() {
        let cells: Vec<&str> =
            row["results"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        for (j, cell) in cells.iter().enumerate() {
            let want: &[&str] = if i == j { &[""] } else { &["10", "01"] };
            assert!(want.contains(cell), "{} against {j}: {cell}", row["name"]);
        }
    }
}

#[test]
fn a_withdrawal_after_the_start_resigns_the_game_under_way_and_forfeits_the_rest() {
    let app = spawn_unlimited();
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let tokens = players(&app, &names);
    let id = started(&app, &tokens, json!({"format": "round_robin"}));
    let left = as_token(&app, "POST", &format!("/v1/tournaments/{id}/leave"), &tokens[3], &json!({}));
    assert_eq!(left.status, 200, "{}", left.body);
    let again = as_token(&app, "POST", &format!("/v1/tournaments/{id}/leave"), &tokens[3], &json!({}));
    assert_eq!(again.status, 409);
    let over = play_out(&app, &id, &tokens, &names);
    let games = all_games(&app, &id);
    let dees: Vec<&Value> = games.iter().filter(|g| g["first"] == "Dee" || g["second"] == "Dee").collect();
    assert_eq!(dees.len(), 3);
    // Round 1 was under way: resigned. Later rounds: forfeits, no game.
    for g in &dees {
        let dee_won = (g["first"] == "Dee" && g["result"] == "first")
            || (g["second"] == "Dee" && g["result"] == "second");
        assert!(!dee_won, "{g}");
        if g["round"].as_i64() > Some(1) {
            assert_eq!((g["forfeit"].as_bool(), g["game"].is_null()), (Some(true), true), "{g}");
        }
    }
    let dee = over["players"].as_array().unwrap().iter().find(|p| p["name"] == "Dee").unwrap().clone();
    assert_eq!(dee["withdrawn"], true);
}

#[test]
fn refusals_name_their_field_or_limit() {
    let app = spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob", "Cy"]);
    let create = |body: Value| as_token(&app, "POST", "/v1/tournaments", &tokens[0], &terms(body));
    let field = |r: crate::common::Response| (r.status, r.json()["field"].as_str().map(str::to_string));
    assert_eq!(field(create(json!({"format": "swiss"}))), (422, Some("rounds".into())));
    assert_eq!(field(create(json!({"format": "round_robin", "rounds": 3}))), (422, Some("rounds".into())));
    assert_eq!(
        field(create(json!({"format": "swiss", "rounds": 3, "name": ""}))),
        (422, Some("name".into()))
    );
    assert_eq!(
        field(create(json!({"format": "swiss", "rounds": 3, "max_players": 257}))),
        (422, Some("max_players".into()))
    );
    assert_eq!(
        field(create(json!({"format": "swiss", "rounds": 3, "min_players": 1}))),
        (422, Some("min_players".into()))
    );
    let untimed = json!({"name": "x", "format": "swiss", "rounds": 1, "rules": {"preset": "old", "rows": 6, "cols": 6}});
    assert_eq!(
        field(as_token(&app, "POST", "/v1/tournaments", &tokens[0], &untimed)),
        (422, Some("move_time_limit".into()))
    );
    assert_eq!(create(json!({"format": "swiss", "rounds": 3, "starts_at": "not a time"})).status, 422);
    assert_eq!(create(json!({"format": "swiss", "rounds": 3, "invited": ["Nobody"]})).status, 404);
    assert_eq!(app.get("/v1/tournaments/nope").status, 404);
    assert_eq!(app.get("/v1/tournaments?status=later").status, 422);
    // By invitation: Cy may not join.
    let made = create(json!({"format": "swiss", "rounds": 1, "invited": ["Bob"], "min_players": 3}));
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    assert_eq!(made.json()["invited"], json!(["Bob"]));
    let join =
        |i: usize| as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), &tokens[i], &json!({}));
    assert_eq!(join(2).status, 403);
    assert_eq!(join(1).status, 200);
    assert_eq!(join(1).status, 409, "joined already");
    // Only its creator starts it, and only with the players it needs.
    let start =
        |i: usize| as_token(&app, "POST", &format!("/v1/tournaments/{id}/start"), &tokens[i], &json!({}));
    assert_eq!(start(1).status, 403);
    assert_eq!(start(0).status, 409);
    // Before the start, leaving takes one off the roster.
    let r = as_token(&app, "POST", &format!("/v1/tournaments/{id}/leave"), &tokens[1], &json!({}));
    assert_eq!((r.status, r.json()["players"].as_array().map(Vec::len)), (200, Some(0)));
    // The listing shows it, newest first, paged.
    let listed = app.get("/v1/tournaments?status=open&limit=1").json();
    assert_eq!(listed["tournaments"][0]["id"], json!(id), "{listed}");
    // At most five open or running events an account.
    for _ in 0..4 {
        assert_eq!(create(json!({"format": "swiss", "rounds": 1})).status, 201);
    }
    let r = create(json!({"format": "swiss", "rounds": 1}));
    assert_eq!((r.status, r.json()["limit"].as_str()), (429, Some("events_per_account")), "{}", r.body);
}

/// Two server processes on one PostgreSQL: both clocks look for rounds to
/// pair, games end through either; each round is paired once.
#[test]
fn a_fleet_of_two_processes_pairs_each_round_once_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let a = crate::common::ServerProcess::start(&["--database-url", &url, "--no-rate-limits"], &[]);
    let b = crate::common::ServerProcess::start(&["--database-url", &url, "--no-rate-limits"], &[]);
    let names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"];
    let tokens = players(&a.app, &names);
    let id = started(&a.app, &tokens, json!({"format": "swiss", "rounds": 3}));
    // The second seat resigns, through one process or the other.
    let token_of = |name: &str| tokens[names.iter().position(|n| *n == name).unwrap()].clone();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut turn = 0;
    loop {
        let app = if turn % 2 == 0 { &a.app } else { &b.app };
        turn += 1;
        if app.get(&format!("/v1/tournaments/{id}")).json()["status"] == "over" {
            break;
        }
        assert!(Instant::now() < deadline, "the event did not end");
        for g in all_games(app, &id) {
            let (Some(game), Value::Null) = (g["game"].as_str(), &g["result"]) else { continue };
            let second = token_of(g["second"].as_str().unwrap());
            let _ = as_token(app, "POST", &format!("/v1/games/{game}/resign"), &second, &json!({}));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let games = all_games(&b.app, &id);
    assert_eq!(games.len(), 9, "three games a round, three rounds: {games:?}");
    let mut boards: Vec<(i64, i64)> =
        games.iter().map(|g| (g["round"].as_i64().unwrap(), g["board"].as_i64().unwrap())).collect();
    boards.dedup();
    assert_eq!(boards.len(), 9);
    // Each player in one game a round.
    for round in 1..=3 {
        let mut seated: Vec<&str> = games
            .iter()
            .filter(|g| g["round"] == round)
            .flat_map(|g| [g["first"].as_str().unwrap(), g["second"].as_str().unwrap()])
            .collect();
        seated.sort_unstable();
        assert_eq!(seated, names, "round {round}");
    }
}

/// A rated round-robin at five seconds a move: a player who never moves
/// loses each game as a forfeit (aborted: the seat that never moved, §13)
/// and is withdrawn at the second; its last game is a forfeit, not played.
#[test]
fn two_games_lost_on_time_withdraw_a_player_and_an_aborted_game_is_the_idle_seats_loss() {
    let app = spawn_unlimited();
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let tokens = players(&app, &names);
    let id = started(&app, &tokens, json!({"format": "round_robin", "rated": true, "move_time_limit": 5}));
    let seat_tokens = |g: &Value| -> Vec<String> {
        [&g["first"], &g["second"]]
            .iter()
            .map(|n| tokens[names.iter().position(|m| n.as_str() == Some(*m)).unwrap()].clone())
            .collect()
    };
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut handled = std::collections::HashSet::new();
    loop {
        if app.get(&format!("/v1/tournaments/{id}")).json()["status"] == "over" {
            break;
        }
        assert!(Instant::now() < deadline, "the event did not end");
        for g in all_games(&app, &id) {
            let (Some(game), Value::Null) = (g["game"].as_str(), &g["result"]) else { continue };
            if !handled.insert(game.to_string()) {
                continue;
            }
            let seats = seat_tokens(&g);
            if g["second"] == "Dee" {
                // The first seat moves; Dee never does.
                crate::accounts::play_plies(&app, game, &seats, 1);
            } else if g["first"] != "Dee" {
                // Both move, then the second seat resigns: a game played.
                crate::accounts::play_plies(&app, game, &seats, 2);
                let r = as_token(&app, "POST", &format!("/v1/games/{game}/resign"), &seats[1], &json!({}));
                assert_eq!(r.status, 200, "{}", r.body);
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let t = app.get(&format!("/v1/tournaments/{id}")).json();
    let dee = t["players"].as_array().unwrap().iter().find(|p| p["name"] == "Dee").unwrap().clone();
    assert_eq!(dee["withdrawn"], true, "{t}");
    let games = all_games(&app, &id);
    let dees: Vec<&Value> = games.iter().filter(|g| g["first"] == "Dee" || g["second"] == "Dee").collect();
    assert_eq!(dees.len(), 3);
    for g in &dees {
        let dee_lost = (g["first"] == "Dee" && g["result"] == "second")
            || (g["second"] == "Dee" && g["result"] == "first");
        assert!(dee_lost && g["forfeit"] == true, "{g}");
    }
    // The first two were played (and aborted); the third never made.
    let made = dees.iter().filter(|g| !g["game"].is_null()).count();
    assert_eq!(made, 2, "{dees:?}");
    let dee_points =
        t["standings"].as_array().unwrap().iter().find(|s| s["name"] == "Dee").unwrap()["points"].clone();
    assert_eq!(dee_points, 0.0);
}

/// A correspondence round-robin waits while the player to move is on
/// vacation (its clock paused, rule book §11), and goes on once the
/// vacation has ended and the game with it.
#[test]
fn a_correspondence_round_robin_waits_on_a_vacation_and_goes_on_when_it_has_ended() {
    use crate::vacation::{app_with_vacation_days, clock, deadline};
    const DAY: i64 = 86_400_000;
    let (app, db, _files) = app_with_vacation_days(20);
    let tokens = players(&app, &["Ann", "Bob"]);
    let id =
        started(&app, &tokens, json!({"format": "round_robin", "move_time_limit": null, "days_per_move": 1}));
    let t = app.get(&format!("/v1/tournaments/{id}")).json();
    assert_eq!(
        (t["correspondence"].as_bool(), t["move_time_limit"].as_i64()),
        (Some(true), Some(DAY / 1000))
    );
    let first = all_games(&app, &id)[0].clone();
    assert_eq!(first["first"], "Ann", "{first}");
    let game = first["game"].as_str().unwrap().to_string();
    let before = deadline(&app, &game);
    // Ann, to move, takes three days off: her turn moves on by them, and at
    // the old deadline no one is timed out; the event waits.
    let v = as_token(&app, "POST", "/v1/accounts/Ann/vacation", &tokens[0], &json!({"days": 3}));
    assert_eq!(v.status, 200, "{}", v.body);
    assert_eq!(deadline(&app, &game), before + 3 * DAY);
    assert_eq!(clock(&db, 3, &[before + 1_000]), [0]);
    std::thread::sleep(Duration::from_millis(1_500));
    assert_eq!(app.get(&format!("/v1/tournaments/{id}")).json()["status"], "running");
    // She ends it at once (the days not begun come back). At each deadline
    // from then a vacation day is spent for a day more (§11) until none is
    // left and she is timed out; then the event goes on to its end.
    assert_eq!(crate::accounts::with(&app, "DELETE", "/v1/accounts/Ann/vacation", &tokens[0]).status, 200);
    assert_eq!(deadline(&app, &game), before + DAY);
    for _ in 0..=20 {
        if app.get(&format!("/v1/games/{game}")).json()["status"] == "over" {
            break;
        }
        assert_eq!(app.get(&format!("/v1/tournaments/{id}")).json()["status"], "running");
        assert_eq!(clock(&db, 3, &[deadline(&app, &game) + 1_000]), [1]);
    }
    let deadline_at = Instant::now() + Duration::from_secs(20);
    let over = loop {
        let t = app.get(&format!("/v1/tournaments/{id}")).json();
        if t["status"] == "over" {
            break t;
        }
        assert!(
            Instant::now() < deadline_at,
            "the event did not go on: {t}\n{}",
            app.get(&format!("/v1/games/{game}")).body
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    assert_eq!(over["standings"][0]["name"], "Bob", "{over}");
    assert_eq!(all_games(&app, &id)[0]["result"], "second");
}

/// Who may join (rule book §15, §17): a bot only where bots are welcome
/// and its profile takes the event; a person in a rated event with bots
/// only after agreeing to rated games against bots.
#[test]
fn bots_join_only_where_welcome_and_people_meet_bots_in_rated_events_only_by_consent() {
    use crate::accounts::{PASSWORD, secret, token};
    let app = spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob"]);
    let r = app.post_json("/v1/accounts", &json!({"name": "Robo", "password": PASSWORD, "bot": true}));
    assert_eq!(r.status, 201, "{}", r.body);
    let robo = secret(&token(&app, "Robo", PASSWORD, &["play", "account"]));
    let event = |extra: Value| {
        let r = as_token(&app, "POST", "/v1/tournaments", &tokens[0], &terms(extra));
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["id"].as_str().unwrap().to_string()
    };
    let join =
        |id: &str, who: &str| as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), who, &json!({}));
    let field =
        |r: crate::common::Response| (r.status, r.json()["field"].as_str().map(str::to_string), r.body);
    // No bots here.
    let people_only = event(json!({"format": "swiss", "rounds": 1}));
    let (status, f, body) = field(join(&people_only, &robo));
    assert_eq!((status, f.as_deref()), (422, Some("account")), "{body}");
    // Bots welcome, but Robo's profile takes only Murray's game.
    let welcome = event(json!({"format": "swiss", "rounds": 1, "bots": true}));
    let only_murray = json!({"accepts": {"presets": ["murray"]}});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &only_murray).status, 200);
    let (status, _, body) = field(join(&welcome, &robo));
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("rules"), "{body}");
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &json!({"accepts": null})).status, 200);
    assert_eq!(join(&welcome, &robo).status, 200);
    // A rated event with bots: Bob joins once he has agreed.
    let rated = event(json!({"format": "swiss", "rounds": 1, "bots": true, "rated": true}));
    let (status, f, body) = field(join(&rated, &tokens[1]));
    assert_eq!((status, f.as_deref()), (422, Some("account")), "{body}");
    let agree = json!({"rated_against_bots": true});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Bob", &tokens[1], &agree).status, 200);
    assert_eq!(join(&rated, &tokens[1]).status, 200);
    // Consent is read again at the pairing: Bob takes his agreement back
    // before the start, and is withdrawn then, paired with no one.
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Ann", &tokens[0], &agree).status, 200);
    assert_eq!(join(&rated, &tokens[0]).status, 200);
    assert_eq!(join(&rated, &robo).status, 200);
    let disagree = json!({"rated_against_bots": false});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Bob", &tokens[1], &disagree).status, 200);
    let r = as_token(&app, "POST", &format!("/v1/tournaments/{rated}/start"), &tokens[0], &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let bob = r.json()["players"].as_array().unwrap().iter().find(|p| p["name"] == "Bob").unwrap().clone();
    assert_eq!(bob["withdrawn"], true, "{bob}");
    let games = all_games(&app, &rated);
    assert!(games.iter().all(|g| g["first"] != "Bob" && g["second"] != "Bob"), "{games:?}");
    assert_eq!(games.len(), 1, "Ann meets Robo: {games:?}");
}

/// An event with a start time starts by itself then; one short of players
/// at its start time is called off. A correspondence round-robin played
/// all at once pairs every round at the start.
#[test]
fn events_start_at_their_time_or_are_called_off_and_all_at_once_pairs_every_round() {
    let app = spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob", "Cy", "Dee"]);
    let soon = leapfrog::wire::game::rfc3339(leapfrog::process::now_ms() + 2_000);
    let timed = |min: usize| {
        let body = terms(json!({"format": "round_robin", "starts_at": soon, "min_players": min}));
        let r = as_token(&app, "POST", "/v1/tournaments", &tokens[0], &body);
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["id"].as_str().unwrap().to_string()
    };
    let (full, short) = (timed(2), timed(3));
    for (id, who) in [(&full, &tokens[0]), (&full, &tokens[1]), (&short, &tokens[0])] {
        assert_eq!(
            as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), who, &json!({})).status,
            200
        );
    }
    let deadline = Instant::now() + Duration::from_secs(15);
    let status =
        |id: &str| app.get(&format!("/v1/tournaments/{id}")).json()["status"].as_str().unwrap().to_string();
    while status(&full) == "open" || status(&short) == "open" {
        assert!(Instant::now() < deadline, "neither started nor called off");
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!((status(&full), status(&short)), ("running".to_string(), "canceled".to_string()));
    // All at once: four players, three rounds, six games from the start.
    let id = started(
        &app,
        &tokens,
        json!({"format": "round_robin", "move_time_limit": null, "days_per_move": 3, "all_at_once": true}),
    );
    let t = app.get(&format!("/v1/tournaments/{id}")).json();
    assert_eq!((t["round"].as_i64(), t["rounds"].as_u64()), (Some(3), Some(3)), "{t}");
    let games = all_games(&app, &id);
    assert_eq!(games.len(), 6);
    assert!(games.iter().all(|g| g["game"].is_string()), "{games:?}");
    let names = ["Ann", "Bob", "Cy", "Dee"];
    let over = play_out(&app, &id, &tokens, &names);
    assert_eq!(over["standings"].as_array().unwrap().len(), 4);
}
