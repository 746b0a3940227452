//! The walls of the newest rooms (rule book §13, §15, §16), each finding
//! of a review as an attacker and as a careless program: consent checked
//! wherever a seat is filled, accounts becoming bots, deleted accounts'
//! challenges, webhook URLs and test deliveries, names nobody can fake,
//! challenge games under the unfinished-games cap, vacations racing moves,
//! and the account export.

use serde_json::json;

use crate::accounts::{PASSWORD, as_token, play_plies, players, rated_game, secret, token, with};
use crate::common::{TestApp, spawn_app, spawn_with};
use crate::vacation::long_game;

/// A bot account `name` and its token.
fn bot(app: &TestApp, name: &str) -> String {
    let made = app.post_json("/v1/accounts", &json!({"name": name, "password": PASSWORD, "bot": true}));
    assert_eq!(made.status, 201, "{}", made.body);
    secret(&token(app, name, PASSWORD, &["play", "account"]))
}

/// `from` challenges `to` (or anyone) to a rated 6×6 game of 60 s a move;
/// the challenge's id.
fn challenge(app: &TestApp, from: &str, to: Option<&str>, rated: bool) -> String {
    let mut terms =
        json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "rated": rated, "move_time_limit": 60});
    if let Some(to) = to {
        terms["to"] = json!(to);
    }
    let r = as_token(app, "POST", "/v1/challenges", from, &terms);
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_string()
}

fn accept(app: &TestApp, id: &str, who: &str) -> crate::common::Response {
    as_token(app, "POST", &format!("/v1/challenges/{id}/accept"), who, &json!({}))
}

#[test]
fn a_game_with_a_bot_is_never_played_again_by_a_rematch() {
    let app = spawn_app();
    let robo = bot(&app, "Robo");
    let carol = players(&app, &["Carol"]).remove(0);
    let opted = as_token(&app, "PATCH", "/v1/accounts/Carol", &carol, &json!({"rated_against_bots": true}));
    assert_eq!(opted.status, 200, "{}", opted.body);
    let id = challenge(&app, &robo, Some("Carol"), true);
    let game = accept(&app, &id, &carol).json()["game"]["id"].as_str().unwrap().to_string();
    // Carol resigns at once (an aborted game, but over): then withdraws her consent.
    assert_eq!(as_token(&app, "POST", &format!("/v1/games/{game}/resign"), &carol, &json!({})).status, 200);
    let off = json!({"rated_against_bots": false, "accepts": {"bots": false}});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Carol", &carol, &off).status, 200);
    for (who, token) in [("the bot", &robo), ("the person", &carol)] {
        let r = as_token(&app, "POST", &format!("/v1/games/{game}/rematch"), token, &json!({}));
        assert_eq!(r.status, 403, "{who}'s rematch: {}", r.body);
        assert!(r.body.contains("send a challenge"), "{}", r.body);
    }
    assert!(app.get(&format!("/v1/games/{game}")).json()["rematch"].is_null(), "no rematch was made");
    // A new challenge is refused by her profile and her setting alike.
    let r = as_token(
        &app,
        "POST",
        "/v1/challenges",
        &robo,
        &json!({"to": "Carol", "rules": {"preset": "old", "rows": 6, "cols": 6}, "rated": true}),
    );
    assert!([403, 422].contains(&r.status), "{}", r.body);
}

#[test]
fn consent_is_read_when_the_game_is_made_not_when_the_challenge_was_sent() {
    let app = spawn_app();
    let robo = bot(&app, "Robo");
    let carol = players(&app, &["Carol"]).remove(0);
    assert_eq!(
        as_token(&app, "PATCH", "/v1/accounts/Carol", &carol, &json!({"rated_against_bots": true})).status,
        200
    );
    // Carol sends an open rated challenge, then withdraws her consent: the bot's acceptance is refused.
    let open = challenge(&app, &carol, None, true);
    assert_eq!(
        as_token(&app, "PATCH", "/v1/accounts/Carol", &carol, &json!({"rated_against_bots": false})).status,
        200
    );
    let r = accept(&app, &open, &robo);
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("rated")), "{}", r.body);
    // Her profile refusing bots refuses a casual one too.
    let casual = challenge(&app, &carol, None, false);
    let no_bots = json!({"accepts": {"bots": false}});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Carol", &carol, &no_bots).status, 200);
    let r = accept(&app, &casual, &robo);
    assert_eq!((r.status, r.json()["reason"].as_str()), (422, Some("no_bot")), "{}", r.body);
}

#[test]
fn an_account_with_an_unfinished_rated_game_cannot_become_a_bot() {
    let app = spawn_app();
    let tokens = players(&app, &["Ann", "Bob"]);
    let id = rated_game(&app, &tokens);
    play_plies(&app, &id, &tokens, 1);
    let r = as_token(&app, "PATCH", "/v1/accounts/Bob", &tokens[1], &json!({"bot": true}));
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("bot")), "{}", r.body);
    assert_eq!(app.get("/v1/accounts/Bob").json()["bot"], false);
}

#[test]
fn a_deleted_accounts_open_challenges_are_canceled_and_the_other_side_told() {
    deleted_accounts_challenges(&spawn_app());
}

#[test]
fn a_deleted_accounts_open_challenges_are_canceled_and_the_other_side_told_on_postgres() {
    let Some(url) = crate::common::pg::fresh_database() else { return };
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = url;
    deleted_accounts_challenges(&spawn_with(config));
}

fn deleted_accounts_challenges(app: &TestApp) {
    let app = app.clone();
    let robo = bot(&app, "Robo");
    let bob = players(&app, &["Bob"]).remove(0);
    let open = challenge(&app, &robo, None, false);
    let direct = challenge(&app, &robo, Some("Bob"), false);
    assert_eq!(with(&app, "DELETE", "/v1/accounts/Robo", &robo).status, 204);
    for id in [&open, &direct] {
        let c = app.get(&format!("/v1/challenges/{id}")).json();
        assert_eq!(c["status"], "canceled", "{c}");
        assert_eq!(accept(&app, id, &bob).status, 409, "nobody plays a deleted account");
    }
    // Bob's stream tells him: the direct challenge was canceled.
    let mut stream = crate::common::EventStream::open_with(
        &app,
        "/v1/accounts/Bob/events",
        &format!("Authorization: Bearer {bob}\r\nLast-Event-ID: 0\r\n"),
    );
    let event = stream.next().expect("an event after the first");
    assert_eq!(event.event, "challenge_canceled", "{event:?}");
}

#[test]
fn challenge_games_count_toward_the_unfinished_games_cap() {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.limits.max_unfinished_games = 2;
    let app = spawn_with(config);
    let tokens = players(&app, &["Ann", "Bob"]);
    for _ in 0..2 {
        let id = challenge(&app, &tokens[0], Some("Bob"), false);
        assert_eq!(accept(&app, &id, &tokens[1]).status, 200);
    }
    let third = challenge(&app, &tokens[0], Some("Bob"), false);
    let r = accept(&app, &third, &tokens[1]);
    assert_eq!((r.status, r.json()["limit"].as_str()), (429, Some("unfinished_games")), "{}", r.body);
    let body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"account": "Ann"}, {"open": "public"}]});
    let r = as_token(&app, "POST", "/v1/games", &tokens[0], &body);
    assert_eq!((r.status, r.json()["limit"].as_str()), (429, Some("unfinished_games")), "{}", r.body);
}

#[test]
fn invisible_and_look_alike_seat_names_are_refused() {
    let app = spawn_app();
    players(&app, &["alice"]);
    for name in
        ["alice\u{2800}", "\u{3164}", "\u{115f}\u{1160}", "alice\u{301}", "al\u{ed}ce", "a\u{200b}lice"]
    {
        let body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": name}, {"name": "Bob"}]});
        let r = app.post_json("/v1/games", &body);
        assert_eq!(r.status, 422, "{name:?}: {}", r.body);
        assert_eq!(r.json()["field"], "players[0].name", "{name:?}: {}", r.body);
    }
    // A name is kept in NFC: one spelling, whatever the keyboard sent.
    let body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": "Zoe\u{308}"}, {"name": "Bob"}]});
    let r = app.post_json("/v1/games", &body);
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["players"][0]["name"], "Zo\u{eb}", "{}", r.body);
}

#[test]
fn a_vacation_racing_moves_shifts_no_turn_twice() {
    let app = crate::common::spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob"]);
    let (ann, bob) = (&tokens[0], &tokens[1]);
    // 24 long games where Bob is to move (Ann moved first in each).
    let games: Vec<String> = (0..24)
        .map(|_| {
            let id = long_game(&app, ann, bob);
            play_plies(&app, &id, &tokens, 1);
            id
        })
        .collect();
    // Bob moves in every game while Ann starts a vacation of 2 days.
    let movers: Vec<_> = games
        .iter()
        .map(|id| {
            let (app, id, tokens) = (app.clone(), id.clone(), tokens.clone());
            std::thread::spawn(move || play_plies(&app, &id, &tokens, 1))
        })
        .collect();
    let v = as_token(&app, "POST", "/v1/accounts/Ann/vacation", ann, &json!({"days": 2}));
    assert_eq!(v.status, 200, "{}", v.body);
    for m in movers {
        m.join().unwrap();
    }
    let until = crate::vacation::chrono_ms(v.json()["until"].as_str().unwrap());
    const DAY: i64 = 86_400_000;
    for id in &games {
        let deadline = crate::vacation::deadline(&app, id);
        // Begun before the start and moved on by 2 days, or begun at its end: never both.
        assert!(deadline <= until + DAY + 60_000, "game {id}: deadline {deadline}, vacation until {until}");
    }
}

#[test]
fn the_account_export_holds_webhooks_challenges_and_vacation_without_secrets() {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.webhook_allow_private = true;
    let app = spawn_with(config);
    let tokens = players(&app, &["Ann", "Bob"]);
    let hook = as_token(
        &app,
        "POST",
        "/v1/accounts/Ann/webhooks",
        &tokens[0],
        &json!({"url": "http://127.0.0.1:9/hook"}),
    );
    assert_eq!(hook.status, 201, "{}", hook.body);
    let secret = hook.json()["secret"].as_str().unwrap().to_string();
    let id = challenge(&app, &tokens[0], Some("Bob"), false);
    let export = with(&app, "GET", "/v1/accounts/Ann/export", &tokens[0]);
    assert_eq!(export.status, 200, "{}", export.body);
    let data = export.json();
    assert_eq!(data["webhooks"][0]["url"], "http://127.0.0.1:9/hook");
    assert_eq!(data["challenges"][0]["id"], id.as_str());
    assert_eq!(data["vacation"]["days_left"], 20);
    assert!(!export.body.contains(&secret), "the signing secret stays out");
}

#[test]
fn a_peoples_leaderboard_lists_no_bot_whatever_rows_it_has() {
    let db = crate::common::temp_db();
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = format!("sqlite://{}", db.display());
    let app = spawn_with(config);
    players(&app, &["Ann"]);
    bot(&app, "Robo");
    // Rows as the hole once left them: a bot rated in the people's pool, and in its bot pool.
    actix_web::rt::System::new().block_on(async {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&format!("sqlite://{}", db.display())).await.unwrap();
        for (name, pool_name) in
            [("Ann", "murray/orthogonal"), ("Robo", "murray/orthogonal"), ("Robo", "murray/orthogonal/bots")]
        {
            sqlx::query(
                "INSERT INTO ratings (account_id, pool, rating, deviation, volatility, games, updated_at) \
                 SELECT id, $1, 1700, 60, 0.06, 20, 0 FROM accounts WHERE name = $2",
            )
            .bind(pool_name)
            .bind(name)
            .execute(&pool)
            .await
            .unwrap();
        }
        pool.close().await;
    });
    let names = |path: &str| -> Vec<String> {
        let page = app.get(path).json();
        page["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(names("/v1/ratings/murray/orthogonal"), ["Ann"]);
    assert_eq!(names("/v1/ratings/murray/orthogonal?bots=true"), ["Robo"]);
}

#[test]
fn refused_webhook_registrations_count_against_the_creation_rate() {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.limits.create_rate = leapfrog::api::limits::Rate { burst: 3.0, per_second: 0.001 };
    let app = spawn_with(config);
    let ann = players(&app, &["Ann"]).remove(0);
    let refused = json!({"url": "https://127.0.0.1/hook"});
    for _ in 0..3 {
        let r = as_token(&app, "POST", "/v1/accounts/Ann/webhooks", &ann, &refused);
        assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("url")), "{}", r.body);
    }
    let r = as_token(&app, "POST", "/v1/accounts/Ann/webhooks", &ann, &refused);
    assert_eq!((r.status, r.json()["limit"].as_str()), (429, Some("rate_create")), "{}", r.body);
}
