//! Rated games and ratings over HTTP (rule book §13): what a rated game
//! needs, Glicko-2 applied once with the end — also when two processes on
//! one PostgreSQL race to end it by resignations or by the clock — the
//! profiles' pools and the leaderboards, a page at a time.

use serde_json::json;

use crate::accounts::{as_token, play_plies, players, rated_game, sign_up};
use crate::common::{ServerProcess, pg, spawn_app, spawn_with};

#[test]
fn a_rated_games_end_changes_its_players_ratings_once_by_glicko_2() {
    let app = spawn_app();
    let tokens = players(&app, &["Ann", "Bob"]);
    // What §13 refuses, refused clearly.
    let anonymous =
        json!({"rules": {"preset": "old"}, "rated": true, "players": [{"account": "Ann"}, {"name": "Zed"}]});
    let r = as_token(&app, "POST", "/v1/games", &tokens[0], &anonymous);
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("rated")), "{}", r.body);
    let custom = json!({"rules": {"preset": "old", "chain": "straight"}, "rated": true, "players": [{"account": "Ann"}, {"open": "public"}]});
    assert_eq!(as_token(&app, "POST", "/v1/games", &tokens[0], &custom).status, 422);
    let id = rated_game(&app, &tokens);
    let waiting = rated_game(&app, &tokens);
    let _ = waiting;
    // Played to the end, each with their account's token.
    loop {
        let g = app.get(&format!("/v1/games/{id}")).json();
        if g["status"] == "over" {
            assert_eq!(g["rated"], true);
            let ratings = g["result"]["ratings"].as_array().unwrap_or_else(|| panic!("{g}"));
            assert_eq!(ratings.len(), 2);
            for change in ratings {
                assert_eq!(change["before"], 1500.0);
                assert!(change["deviation"].as_f64().unwrap() < 350.0);
            }
            let winner = g["result"]["winners"][0].as_u64().unwrap() as usize;
            let won = ratings.iter().find(|c| c["player"] == winner).unwrap();
            assert!(won["after"].as_f64().unwrap() > 1500.0, "{g}");
            let record = app.get(&format!("/v1/games/{id}/record")).body;
            assert!(record.contains("[Rated \"yes\"]"), "{record}");
            break;
        }
        let to_move = g["position"]["to_move"].as_u64().unwrap() as usize;
        let path = app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["moves"][0]["path"].clone();
        let r = as_token(
            &app,
            "POST",
            &format!("/v1/games/{id}/moves"),
            &tokens[to_move],
            &json!({"path": path}),
        );
        assert_eq!(r.status, 201, "{}", r.body);
    }
    for name in ["Ann", "Bob"] {
        let profile = app.get(&format!("/v1/accounts/{name}")).json();
        let pool = &profile["ratings"]["old/orthogonal"];
        assert_eq!(
            (pool["games"].as_i64(), pool["provisional"].as_bool()),
            (Some(1), Some(true)),
            "{profile}"
        );
    }
    // Provisional players are left out of the leaderboard.
    let board = app.get("/v1/ratings/old/orthogonal").json();
    assert_eq!(board["players"], json!([]), "{board}");
    assert_eq!(app.get("/v1/ratings/chess/orthogonal").status, 404);
}

#[test]
fn a_rated_games_open_seat_needs_an_account_and_one_seat_each() {
    let app = spawn_app();
    let tokens = players(&app, &["Ann", "Bob"]);
    let body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "rated": true,
        "players": [{"account": "Ann"}, {"open": "public"}]});
    let id =
        as_token(&app, "POST", "/v1/games", &tokens[0], &body).json()["id"].as_str().unwrap().to_string();
    let anonymous = app.post_json(&format!("/v1/games/{id}/join"), &json!({"name": "Zed"}));
    assert_eq!(anonymous.status, 403, "{}", anonymous.body);
    assert_eq!(as_token(&app, "POST", &format!("/v1/games/{id}/join"), &tokens[0], &json!({})).status, 409);
}

#[test]
fn two_processes_racing_to_end_a_rated_game_on_postgres_rate_it_once() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url], &[]);
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    let tokens = players(&a.app, &["Ann", "Bob"]);
    for round in 0..3 {
        let id = rated_game(&a.app, &tokens);
        // Each moves once (before that, a resignation aborts it unrated).
        play_plies(&a.app, &id, &tokens, 2);
        // Both resign at once, through different processes: one ends it.
        let statuses: Vec<u16> = std::thread::scope(|s| {
            let racers: Vec<_> = [(&a.app, &tokens[0]), (&b.app, &tokens[1])]
                .into_iter()
                .map(|(app, token)| {
                    let path = format!("/v1/games/{id}/resign");
                    s.spawn(move || as_token(app, "POST", &path, token, &json!({})).status)
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert_eq!(statuses.iter().filter(|&&s| s == 200).count(), 1, "{statuses:?}");
        for name in ["Ann", "Bob"] {
            let profile = b.app.get(&format!("/v1/accounts/{name}")).json();
            assert_eq!(profile["ratings"]["old/orthogonal"]["games"], round + 1, "{profile}");
        }
    }
}

#[test]
fn a_time_out_racing_on_two_processes_rates_a_game_once() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url], &[]);
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    let tokens = players(&a.app, &["Ann", "Bob"]);
    let body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "rated": true, "move_time_limit": 5,
        "players": [{"account": "Ann"}, {"open": "public"}]});
    let id =
        as_token(&a.app, "POST", "/v1/games", &tokens[0], &body).json()["id"].as_str().unwrap().to_string();
    assert_eq!(as_token(&b.app, "POST", &format!("/v1/games/{id}/join"), &tokens[1], &json!({})).status, 201);
    // Each moves once, then nobody: both processes' clocks find Ann out of time.
    play_plies(&a.app, &id, &tokens, 2);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let g = b.app.get(&format!("/v1/games/{id}")).json();
        if g["status"] == "over" {
            assert_eq!(g["players"][0]["resigned"], "timed_out", "{g}");
            assert_eq!(g["result"]["ratings"].as_array().map(Vec::len), Some(2), "{g}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "no time-out: {g}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    for name in ["Ann", "Bob"] {
        let profile = a.app.get(&format!("/v1/accounts/{name}")).json();
        assert_eq!(profile["ratings"]["old/orthogonal"]["games"], 1, "rated once: {profile}");
    }
}

#[test]
fn a_leaderboard_ranks_settled_players_best_first_a_page_at_a_time() {
    let db = crate::common::temp_db();
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = format!("sqlite://{}", db.display());
    let app = spawn_with(config);
    for name in ["Ann", "Bob", "Cy", "Dee"] {
        assert_eq!(sign_up(&app, name).status, 201);
    }
    // Ratings as many games would leave them: Dee still provisional.
    actix_web::rt::System::new().block_on(async {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&format!("sqlite://{}", db.display())).await.unwrap();
        for (name, rating, deviation) in
            [("Ann", 1620.5, 60.0), ("Bob", 1710.25, 80.0), ("Cy", 1620.5, 70.0), ("Dee", 1900.0, 200.0)]
        {
            sqlx::query(
                "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, updated_at) \
                 SELECT id, 'murray/orthogonal', $1, $2, 0.06, 20, 0 FROM accounts WHERE name = $3",
            )
            .bind(rating)
            .bind(deviation)
            .bind(name)
            .execute(&pool)
            .await
            .unwrap();
        }
        pool.close().await;
    });
    let mut names = Vec::new();
    let mut path = "/v1/ratings/murray/orthogonal?limit=1".to_string();
    loop {
        let page = app.get(&path).json();
        names.extend(
            page["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()),
        );
        match page["next_cursor"].as_str() {
            Some(next) => path = format!("/v1/ratings/murray/orthogonal?limit=1&cursor={next}"),
            None => break,
        }
    }
    // Equal ratings keep one order from page to page; Dee is left out.
    assert_eq!(names.len(), 3, "{names:?}");
    assert_eq!(names[0], "Bob");
    assert!(names[1..].contains(&"Ann".to_string()) && names[1..].contains(&"Cy".to_string()), "{names:?}");
    let profile = app.get("/v1/accounts/Dee").json();
    assert_eq!(profile["ratings"]["murray/orthogonal"]["provisional"], true);
    assert_eq!(app.get("/v1/ratings/murray/orthogonal?cursor=nope").status, 422);
}

/// The farming of rule book §13 replayed: twelve 3×3 `old` games with a
/// chosen seed, each resigned at once by a second account, moved Ann from
/// 1500 to 1855. Now the small board and the seed are refused, and on a
/// board a rated game may have, resigning at once aborts the game: no
/// rating moves.
#[test]
fn the_farming_sequence_replayed_moves_no_rating() {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    // 36 creations asked for: past the default burst of 20.
    config.limits.create_rate = leapfrog::api::limits::Rate { burst: 100.0, per_second: 1.0 };
    let app = spawn_with(config);
    let tokens = players(&app, &["Ann", "Bob"]);
    for round in 0..12 {
        let small = json!({"rules": {"preset": "old", "rows": 3, "cols": 3}, "rated": true, "seed": round,
            "players": [{"account": "Ann"}, {"open": "public"}]});
        let r = as_token(&app, "POST", "/v1/games", &tokens[0], &small);
        assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("rated")), "{}", r.body);
        assert!(r.json()["detail"].as_str().unwrap().contains("at least 6×6"), "{}", r.body);
        let seeded = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "rated": true, "seed": round,
            "players": [{"account": "Ann"}, {"open": "public"}]});
        let r = as_token(&app, "POST", "/v1/games", &tokens[0], &seeded);
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(r.json()["detail"].as_str().unwrap().contains("no seed"), "{}", r.body);
        // Allowed, and resigned at once by the second account: aborted.
        let id = rated_game(&app, &tokens);
        let r = as_token(&app, "POST", &format!("/v1/games/{id}/resign"), &tokens[1], &json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
        let g = app.get(&format!("/v1/games/{id}")).json();
        assert_eq!(
            (g["status"].as_str(), g["result"]["ended"].as_str()),
            (Some("over"), Some("aborted")),
            "{g}"
        );
        assert!(g["result"]["ratings"].is_null(), "no rating changes: {g}");
        assert_eq!(g["result"]["winners"], json!([]), "nobody wins an aborted game: {g}");
        let record = app.get(&format!("/v1/games/{id}/record")).body;
        assert!(record.contains("[Termination \"aborted\"]"), "{record}");
    }
    // One seat alone is no rated game either.
    let alone = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "rated": true, "players": [{"account": "Ann"}]});
    assert_eq!(as_token(&app, "POST", "/v1/games", &tokens[0], &alone).status, 422);
    for name in ["Ann", "Bob"] {
        let profile = app.get(&format!("/v1/accounts/{name}")).json();
        assert_eq!(profile["ratings"], json!({}), "counted nowhere: {profile}");
        // Nor among the account's rated games: listed with the casual ones.
        let listed = |rated: bool| {
            let page = app.get(&format!("/v1/accounts/{name}/games?rated={rated}&limit=50")).json();
            page["games"].as_array().unwrap().len()
        };
        assert_eq!((listed(true), listed(false)), (0, 12), "{name}'s games by rated");
    }
}
