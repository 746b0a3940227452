//! Challenges (rule book §15) over HTTP: sent, listed, accepted into one
//! game however many race, declined with a reason, canceled, expired;
//! refused at once by the challenged account's profile; rated games of
//! bots and people only with the people's consent, rated in bot pools.

use serde_json::{Value, json};

use crate::accounts::{PASSWORD, as_token, play_plies, players, secret, token, with};
use crate::common::{spawn_unlimited, spawn_with, temp_db};

fn challenge(to: Option<&str>, extra: Value) -> Value {
    let mut body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}});
    if let Some(to) = to {
        body["to"] = json!(to);
    }
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        body[k] = v;
    }
    body
}

#[test]
fn a_challenge_accepted_makes_one_game_of_both_accounts() {
    let app = spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob", "Cy"]);
    let sent =
        as_token(&app, "POST", "/v1/challenges", &tokens[0], &challenge(Some("bob"), json!({"seat": 1})));
    assert_eq!(sent.status, 201, "{}", sent.body);
    let c = sent.json();
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(
        (c["status"].as_str(), c["to"].as_str(), c["from"]["name"].as_str()),
        (Some("open"), Some("Bob"), Some("Ann"))
    );
    assert_eq!(sent.header("location"), Some(format!("/v1/challenges/{id}").as_str()));
    // Bob sees it among his challenges; Cy may not take it; Ann may not accept her own.
    let listed = with(&app, "GET", "/v1/challenges", &tokens[1]).json();
    assert_eq!(listed["challenges"][0]["id"], json!(id), "{listed}");
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/challenges/{id}/accept"), &tokens[2], &json!({})).status,
        403
    );
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/challenges/{id}/accept"), &tokens[0], &json!({})).status,
        403
    );
    let accepted = as_token(&app, "POST", &format!("/v1/challenges/{id}/accept"), &tokens[1], &json!({}));
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    let game = &accepted.json()["game"];
    assert_eq!(game["id"], json!(id), "the game has the challenge's id");
    let names: Vec<&str> =
        game["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Bob", "Ann"], "Ann asked for seat 1");
    assert_eq!(game["status"], "opening");
    assert_eq!(app.get(&format!("/v1/challenges/{id}")).json()["game"], json!(id));
    // Played with the accounts' own tokens; a second acceptance is refused.
    play_plies(&app, &id, &[tokens[1].clone(), tokens[0].clone()], 2);
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/challenges/{id}/accept"), &tokens[1], &json!({})).status,
        409
    );
}

#[test]
fn a_challenge_is_declined_with_a_reason_canceled_or_expires() {
    let db = temp_db();
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = format!("sqlite://{}", db.display());
    let app = spawn_with(config);
    let tokens = players(&app, &["Ann", "Bob"]);
    let id = |r: &crate::common::Response| r.json()["id"].as_str().unwrap().to_string();
    let first = id(&as_token(&app, "POST", "/v1/challenges", &tokens[0], &challenge(Some("Bob"), json!({}))));
    let r = as_token(&app, "POST", &format!("/v1/challenges/{first}/decline"), &tokens[0], &json!({}));
    assert_eq!(r.status, 403, "only Bob declines it");
    let r = as_token(
        &app,
        "POST",
        &format!("/v1/challenges/{first}/decline"),
        &tokens[1],
        &json!({"reason": "later"}),
    );
    assert_eq!(
        (r.status, r.json()["status"].as_str(), r.json()["reason"].as_str()),
        (200, Some("declined"), Some("later"))
    );
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/challenges/{first}/accept"), &tokens[1], &json!({})).status,
        409
    );
    let bad = as_token(
        &app,
        "POST",
        &format!("/v1/challenges/{first}/decline"),
        &tokens[1],
        &json!({"reason": "bored"}),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    // Canceled by its challenger only.
    let second =
        id(&as_token(&app, "POST", "/v1/challenges", &tokens[0], &challenge(Some("Bob"), json!({}))));
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/challenges/{second}/cancel"), &tokens[1], &json!({})).status,
        403
    );
    let r = as_token(&app, "POST", &format!("/v1/challenges/{second}/cancel"), &tokens[0], &json!({}));
    assert_eq!(r.json()["status"], "canceled");
    // Past its time it cannot be accepted.
    let third = id(&as_token(&app, "POST", "/v1/challenges", &tokens[0], &challenge(Some("Bob"), json!({}))));
    actix_web::rt::System::new().block_on(async {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&format!("sqlite://{}", db.display())).await.unwrap();
        sqlx::query("UPDATE challenges SET expires_at = 0 WHERE id = $1")
            .bind(&third)
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
    });
    assert_eq!(app.get(&format!("/v1/challenges/{third}")).json()["status"], "expired");
    let r = as_token(&app, "POST", &format!("/v1/challenges/{third}/accept"), &tokens[1], &json!({}));
    assert_eq!(r.status, 410, "{}", r.body);
    // Nobody challenges themselves, nor an account that does not exist.
    assert_eq!(
        as_token(&app, "POST", "/v1/challenges", &tokens[0], &challenge(Some("ann"), json!({}))).status,
        422
    );
    assert_eq!(
        as_token(&app, "POST", "/v1/challenges", &tokens[0], &challenge(Some("Nobody"), json!({}))).status,
        404
    );
    assert_eq!(app.post_json("/v1/challenges", &challenge(Some("Bob"), json!({}))).status, 401);
}

#[test]
fn racing_acceptances_of_an_open_challenge_make_one_game() {
    let app = spawn_unlimited();
    racing(&app, &app);
}

/// The same race, the acceptances split between two server processes on
/// one PostgreSQL.
#[test]
fn racing_acceptances_through_two_processes_make_one_game_postgres() {
    let Some(url) = crate::common::pg::fresh_database() else { return };
    let a = crate::common::ServerProcess::start(&["--database-url", &url, "--no-rate-limits"], &[]);
    let b = crate::common::ServerProcess::start(&["--database-url", &url, "--no-rate-limits"], &[]);
    racing(&a.app, &b.app);
}

fn racing(app: &crate::common::TestApp, other: &crate::common::TestApp) {
    let names: Vec<String> = (0..9).map(|i| format!("Racer{i}")).collect();
    let tokens = players(app, &names.iter().map(String::as_str).collect::<Vec<_>>());
    for round in 0..3 {
        let sent = as_token(app, "POST", "/v1/challenges", &tokens[0], &challenge(None, json!({})));
        assert_eq!(sent.status, 201, "{}", sent.body);
        let id = sent.json()["id"].as_str().unwrap().to_string();
        let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
            let racers: Vec<_> = tokens[1..]
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let (app, path) =
                        (if i % 2 == 0 { app } else { other }, format!("/v1/challenges/{id}/accept"));
                    s.spawn(move || {
                        let r = as_token(app, "POST", &path, t, &json!({}));
                        (r.status, if r.status == 200 { r.json() } else { Value::Null })
                    })
                })
                .collect();
            racers.into_iter().map(|r| r.join().unwrap()).collect()
        });
        let won: Vec<&Value> = answers.iter().filter(|(s, _)| *s == 200).map(|(_, v)| v).collect();
        assert_eq!(won.len(), 1, "round {round}: {answers:?}");
        assert!(answers.iter().all(|(s, _)| [200, 409].contains(s)), "{answers:?}");
        assert_eq!(won[0]["game"]["id"], json!(id));
        assert_eq!(app.get(&format!("/v1/games/{id}")).status, 200);
    }
    // Three seats: the first acceptance waits for the second, which makes the game.
    let sent = as_token(app, "POST", "/v1/challenges", &tokens[0], &challenge(None, json!({"players": 3})));
    let id = sent.json()["id"].as_str().unwrap().to_string();
    let first = as_token(app, "POST", &format!("/v1/challenges/{id}/accept"), &tokens[1], &json!({}));
    assert_eq!((first.status, first.json()["game"].is_null()), (200, true), "{}", first.body);
    assert_eq!(first.json()["challenge"]["status"], "open");
    assert_eq!(
        as_token(app, "POST", &format!("/v1/challenges/{id}/accept"), &tokens[1], &json!({})).status,
        409
    );
    let second = as_token(app, "POST", &format!("/v1/challenges/{id}/accept"), &tokens[2], &json!({}));
    assert_eq!(second.json()["game"]["players"].as_array().map(Vec::len), Some(3), "{}", second.body);
}

#[test]
fn a_profile_declines_at_once_and_bots_meet_people_in_rated_games_only_by_consent() {
    let app = spawn_unlimited();
    let tokens = players(&app, &["Ann", "Bob"]);
    assert_eq!(
        app.post_json("/v1/accounts", &json!({"name": "Robo", "password": PASSWORD, "bot": true})).status,
        201
    );
    let robo = secret(&token(&app, "Robo", PASSWORD, &["play", "account"]));
    let profile = json!({"accepts": {"presets": ["old"], "min_size": 6, "max_games": 1}});
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &profile).status, 200);
    // What the profile does not take is refused at once, with its key.
    let murray = json!({"to": "Robo", "rules": {"preset": "murray", "rows": 6, "cols": 6}});
    let r = as_token(&app, "POST", "/v1/challenges", &tokens[0], &murray);
    assert_eq!((r.status, r.json()["reason"].as_str()), (422, Some("rules")), "{}", r.body);
    assert_eq!(r.json()["type"], "urn:leapfrog:problem:declined");
    // A rated challenge to a bot: Ann has not agreed to bots.
    let rated = challenge(Some("Robo"), json!({"rated": true}));
    let r = as_token(&app, "POST", "/v1/challenges", &tokens[0], &rated);
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("rated")), "{}", r.body);
    assert_eq!(
        as_token(&app, "PATCH", "/v1/accounts/Ann", &tokens[0], &json!({"rated_against_bots": true})).status,
        200
    );
    let sent = as_token(&app, "POST", "/v1/challenges", &tokens[0], &rated);
    assert_eq!(sent.status, 201, "{}", sent.body);
    let id = sent.json()["id"].as_str().unwrap().to_string();
    let accepted = as_token(&app, "POST", &format!("/v1/challenges/{id}/accept"), &robo, &json!({}));
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    let game = &accepted.json()["game"];
    assert_eq!(
        (game["rated"].as_bool(), game["players"][1]["bot"].as_bool()),
        (Some(true), Some(true)),
        "{game}"
    );
    // Robo now plays its most games: the next challenge is refused `busy`.
    let r = as_token(&app, "POST", "/v1/challenges", &tokens[1], &challenge(Some("Robo"), json!({})));
    assert_eq!((r.status, r.json()["reason"].as_str()), (422, Some("busy")), "{}", r.body);
    // Played to a result: rated in the bot pool, not the people's.
    play_plies(&app, &id, &[tokens[0].clone(), robo.clone()], 2);
    assert_eq!(as_token(&app, "POST", &format!("/v1/games/{id}/resign"), &robo, &json!({})).status, 200);
    let ratings = &app.get("/v1/accounts/Robo").json()["ratings"];
    assert_eq!(ratings["old/orthogonal/bots"]["games"], 1, "{ratings}");
    assert!(ratings["old/orthogonal"].is_null(), "{ratings}");
    let record = app.get(&format!("/v1/games/{id}/record")).body;
    assert!(record.contains("[Bots \"2\"]"), "{record}");
    // Bob has not agreed: he cannot take Robo's open rated challenge.
    let open = as_token(&app, "POST", "/v1/challenges", &robo, &challenge(None, json!({"rated": true})));
    assert_eq!(open.status, 201, "{}", open.body);
    let open_id = open.json()["id"].as_str().unwrap().to_string();
    let r = as_token(&app, "POST", &format!("/v1/challenges/{open_id}/accept"), &tokens[1], &json!({}));
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("rated")), "{}", r.body);
}
