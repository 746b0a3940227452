//! Accounts and personal access tokens over HTTP (rule book §13), tried as
//! an attacker would: passwords never stored in clear, one refusal for a
//! wrong name and a wrong password, tokens acting only for their account
//! and within their scopes, revocation and deletion at once (also across
//! two processes on one PostgreSQL), names that differ only in case, SQL
//! and control characters, racing sign-ups, a sign-in flood.

use serde_json::{Value, json};

use crate::common::{Response, ServerProcess, TestApp, pg, spawn_app, spawn_with};

pub(crate) const PASSWORD: &str = "frog-spawn-42";

/// A sign-up (asked again while the password checks are busy: the whole
/// suite hashes passwords at once on two cores).
pub(crate) fn sign_up(app: &TestApp, name: &str) -> Response {
    again_after_503(|| app.post_json("/v1/accounts", &json!({"name": name, "password": PASSWORD})))
}

/// A token of `name` (asked again as a sign-up is).
pub(crate) fn token(app: &TestApp, name: &str, password: &str, scopes: &[&str]) -> Response {
    let body = json!({"name": name, "password": password, "label": "test", "scopes": scopes});
    again_after_503(|| app.post_json("/v1/tokens", &body))
}

/// `send`'s answer, asked again after a 503 once its `Retry-After` has
/// passed, as a client does; five tries at most.
fn again_after_503(send: impl Fn() -> Response) -> Response {
    let mut r = send();
    for _ in 1..5 {
        let Some(wait) = (r.status == 503).then(|| r.header("retry-after").and_then(|s| s.parse().ok()))
        else {
            break;
        };
        std::thread::sleep(std::time::Duration::from_secs(wait.unwrap_or(1u64).min(5)));
        r = send();
    }
    r
}

/// A new account `name` and its token with the `play` and `account` scopes.
pub(crate) fn person(app: &TestApp, name: &str) -> String {
    assert_eq!(sign_up(app, name).status, 201);
    secret(&token(app, name, PASSWORD, &["play", "account"]))
}

pub(crate) fn secret(r: &Response) -> String {
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["token"].as_str().unwrap().to_string()
}

pub(crate) fn with(app: &TestApp, method: &str, path: &str, token: &str) -> Response {
    app.request(method, path, &[("Authorization", &format!("Bearer {token}"))], b"")
}

#[test]
fn an_account_signs_up_makes_tokens_lists_revokes_and_is_deleted() {
    let app = spawn_app();
    let r = sign_up(&app, "Ann");
    assert_eq!((r.status, r.header("location")), (201, Some("/v1/accounts/Ann")), "{}", r.body);
    assert_eq!(sign_up(&app, "aNN").status, 409, "names differing only in case are one account");
    let made = token(&app, "ann", PASSWORD, &["play", "account"]);
    assert_eq!(made.header("cache-control"), Some("no-store"));
    let admin = secret(&made);
    assert!(admin.starts_with("lfpat_"), "recognisable by its prefix");
    let play = secret(&token(&app, "Ann", PASSWORD, &["play"]));
    let listed = with(&app, "GET", "/v1/tokens", &admin);
    assert_eq!(listed.header("cache-control"), Some("no-store"), "the token list is never cached");
    assert_eq!(listed.status, 200, "{}", listed.body);
    assert!(!listed.body.contains(&admin) && !listed.body.contains(&play), "listed without secrets");
    let tokens = listed.json()["tokens"].as_array().unwrap().clone();
    assert_eq!(tokens.len(), 2);
    // Scopes are enforced: a play token cannot read or change the account.
    assert_eq!(with(&app, "GET", "/v1/tokens", &play).status, 403);
    assert_eq!(with(&app, "DELETE", "/v1/accounts/Ann", &play).status, 403);
    // Revoked: at once.
    let play_id = tokens.iter().find(|t| t["scopes"] == json!(["play"])).unwrap()["id"].as_str().unwrap();
    assert_eq!(with(&app, "DELETE", &format!("/v1/tokens/{play_id}"), &admin).status, 204);
    assert_eq!(with(&app, "DELETE", &format!("/v1/tokens/{play_id}"), &admin).status, 404);
    assert_eq!(app.get("/v1/accounts/ANN").json()["name"], "Ann");
    // What the server holds, then deletion: every token dies at once.
    let export = with(&app, "GET", "/v1/accounts/Ann/export", &admin);
    assert_eq!(export.status, 200, "{}", export.body);
    assert!(!export.body.contains("argon2") && !export.body.contains(PASSWORD), "{}", export.body);
    assert_eq!(export.json()["tokens"].as_array().unwrap().len(), 1);
    assert_eq!(with(&app, "DELETE", "/v1/accounts/Ann", &admin).status, 204);
    assert_eq!(with(&app, "GET", "/v1/tokens", &admin).status, 401);
    assert_eq!(app.get("/v1/accounts/Ann").status, 404);
    assert_eq!(sign_up(&app, "Ann").status, 201, "the name is free again");
}

#[test]
fn a_wrong_name_and_a_wrong_password_get_the_same_answer_and_no_password_is_stored_in_clear() {
    let db = crate::common::temp_db();
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = format!("sqlite://{}", db.display());
    let app = spawn_with(config);
    assert_eq!(sign_up(&app, "Ann").status, 201);
    let wrong_password = token(&app, "Ann", "frog-spawn-43", &["play"]);
    let wrong_name = token(&app, "Anne", PASSWORD, &["play"]);
    assert_eq!((wrong_password.status, wrong_name.status), (401, 401));
    assert_eq!(wrong_password.body, wrong_name.body);
    // Neither the database nor its log holds the password.
    for suffix in ["", "-wal"] {
        let bytes = std::fs::read(format!("{}{suffix}", db.display())).unwrap_or_default();
        assert!(
            !bytes.windows(PASSWORD.len()).any(|w| w == PASSWORD.as_bytes()),
            "the password is in {suffix}"
        );
    }
}

#[test]
fn a_token_never_acts_for_another_account() {
    let app = spawn_app();
    assert_eq!(sign_up(&app, "Ann").status, 201);
    assert_eq!(sign_up(&app, "Bob").status, 201);
    let bob = secret(&token(&app, "Bob", PASSWORD, &["play", "account"]));
    assert_eq!(with(&app, "DELETE", "/v1/accounts/Ann", &bob).status, 403);
    assert_eq!(with(&app, "GET", "/v1/accounts/Ann/export", &bob).status, 403);
    let ann = secret(&token(&app, "Ann", PASSWORD, &["account"]));
    let ann_id =
        with(&app, "GET", "/v1/tokens", &ann).json()["tokens"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(with(&app, "DELETE", &format!("/v1/tokens/{ann_id}"), &bob).status, 404, "not Bob's token");
    assert_eq!(with(&app, "GET", "/v1/tokens", &ann).status, 200, "still works");
    // A seat's token or a made-up one is no account token.
    for bad in ["0123456789abcdef", "lfpat_0000", ""] {
        assert_eq!(with(&app, "GET", "/v1/tokens", bad).status, 401, "{bad}");
    }
}

#[test]
fn bad_names_and_passwords_are_refused_with_the_reason() {
    let app = spawn_app();
    for (name, password, field) in [
        ("a", PASSWORD, "name"),
        ("1ann", PASSWORD, "name"),
        ("ann'; DROP TABLE accounts;--", PASSWORD, "name"),
        ("ann\u{1b}[31m", PASSWORD, "name"),
        ("ann\u{202e}", PASSWORD, "name"),
        ("Ann", "short", "password"),
    ] {
        let r = app.post_json("/v1/accounts", &json!({"name": name, "password": password}));
        assert_eq!((r.status, r.json()["field"].as_str()), (422, Some(field)), "{name:?}: {}", r.body);
    }
    assert_eq!(sign_up(&app, "Ann").status, 201, "the table is still there");
    let r = token(&app, "Ann", PASSWORD, &["admin"]);
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("scopes")));
}

/// A server behind a trusted proxy on loopback: each request says its
/// client in `X-Forwarded-For`.
fn behind_a_proxy() -> TestApp {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    spawn_with(config)
}

fn post_as(app: &TestApp, client: &str, path: &str, body: &Value) -> Response {
    let headers = [("Content-Type", "application/json"), ("X-Forwarded-For", client)];
    app.request("POST", path, &headers, body.to_string().as_bytes())
}

#[test]
fn of_concurrent_sign_ups_of_one_name_exactly_one_wins() {
    let app = behind_a_proxy();
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let racers: Vec<_> = (0..8)
            .map(|i| {
                let (app, name) = (&app, if i % 2 == 0 { "Racer" } else { "racer" });
                let body = json!({"name": name, "password": PASSWORD});
                s.spawn(move || post_as(app, &format!("192.0.2.{i}"), "/v1/accounts", &body).status)
            })
            .collect();
        racers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(statuses.iter().filter(|&&s| s == 201).count(), 1, "{statuses:?}");
    assert!(statuses.iter().all(|&s| s == 201 || s == 409), "{statuses:?}");
}

#[test]
fn a_sign_in_flood_from_one_client_is_refused_without_locking_anyone_out() {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    // The default burst, and no refill while the flood lasts, however slow
    // the checks run on a busy machine.
    config.limits.sign_in_rate = leapfrog::api::limits::Rate { burst: 10.0, per_second: 0.001 };
    let app = spawn_with(config);
    assert_eq!(
        post_as(&app, "192.0.2.1", "/v1/accounts", &json!({"name": "Ann", "password": PASSWORD})).status,
        201
    );
    let wrong = json!({"name": "Ann", "password": "wrong-password", "label": "x", "scopes": ["play"]});
    let answers: Vec<Response> =
        (0..14).map(|_| post_as(&app, "198.51.100.9", "/v1/tokens", &wrong)).collect();
    let refused = answers.iter().find(|r| r.status == 429).expect("a 429 after the burst");
    assert!(refused.header("retry-after").is_some(), "{}", refused.body);
    // The account is not locked: Ann, from her own address, signs in.
    let right = json!({"name": "Ann", "password": PASSWORD, "label": "x", "scopes": ["play"]});
    assert_eq!(post_as(&app, "192.0.2.1", "/v1/tokens", &right).status, 201);
}

/// Issue 35: one client is a network (an IPv6 /64), and what protects an
/// account holds whatever networks ask.
#[test]
fn clients_are_networks_and_an_accounts_limits_hold_across_networks() {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    config.limits.create_rate = leapfrog::api::limits::Rate { burst: 3.0, per_second: 0.001 };
    config.limits.wrong_password_rate = leapfrog::api::limits::Rate { burst: 4.0, per_second: 0.001 };
    let app = spawn_with(config);
    // Three games from three addresses of one /64: the fourth is refused.
    let casual =
        json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": "A"}, {"name": "B"}]});
    for i in 1..=3 {
        assert_eq!(post_as(&app, &format!("2001:db8:7:7::{i}"), "/v1/games", &casual).status, 201);
    }
    let r = post_as(&app, "2001:db8:7:7:ffff::1", "/v1/games", &casual);
    assert_eq!(r.status, 429, "one home connection is one client: {}", r.body);
    assert_eq!(post_as(&app, "2001:db8:7:8::1", "/v1/games", &casual).status, 201, "the next /64 is another");
    // An account creating games from ever new networks meets its own limit.
    let ann = post_as(&app, "192.0.2.1", "/v1/accounts", &json!({"name": "Ann", "password": PASSWORD}));
    assert_eq!(ann.status, 201);
    let made = post_as(
        &app,
        "192.0.2.1",
        "/v1/tokens",
        &json!({"name": "Ann", "password": PASSWORD, "label": "t", "scopes": ["play"]}),
    );
    let ann_token = made.json()["token"].as_str().unwrap().to_string();
    let mine = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"account": "Ann"}, {"name": "B"}]});
    let statuses: Vec<u16> = (0..4)
        .map(|i| {
            let auth = format!("Bearer {ann_token}");
            let from = format!("203.0.113.{i}");
            let headers = [
                ("Content-Type", "application/json"),
                ("X-Forwarded-For", from.as_str()),
                ("Authorization", &auth),
            ];
            app.request("POST", "/v1/games", &headers, mine.to_string().as_bytes()).status
        })
        .collect();
    assert_eq!(statuses, [201, 201, 201, 429], "games created by one account, from four networks");
    // Wrong passwords for Ann from four networks: the fifth network is refused
    // before any check, whatever its own budget ...
    let wrong = json!({"name": "ann", "password": "wrong-password", "label": "x", "scopes": ["play"]});
    for i in 0..4 {
        assert_eq!(post_as(&app, &format!("198.51.100.{i}"), "/v1/tokens", &wrong).status, 401);
    }
    let refused = post_as(&app, "198.51.100.200", "/v1/tokens", &wrong);
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert!(refused.json()["detail"].as_str().unwrap().contains("this account"), "{}", refused.body);
    // ... while Ann, where she signed in before, still signs in; and a right
    // password from a new network spends nothing of the account's limit.
    let right = json!({"name": "Ann", "password": PASSWORD, "label": "x", "scopes": ["play"]});
    assert_eq!(post_as(&app, "192.0.2.1", "/v1/tokens", &right).status, 201);
    let bob = post_as(&app, "192.0.2.2", "/v1/accounts", &json!({"name": "Bob", "password": PASSWORD}));
    assert_eq!(bob.status, 201);
    let bob_right = json!({"name": "Bob", "password": PASSWORD, "label": "x", "scopes": ["play"]});
    for i in 0..6 {
        assert_eq!(post_as(&app, &format!("192.0.2.{}", 10 + i), "/v1/tokens", &bob_right).status, 201);
    }
}

#[test]
fn sign_ins_past_the_password_threads_share_wait_then_get_503_and_play_goes_on() {
    let _quiet = crate::common::timing_sensitive();
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.limits.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    // 1%: after a check of 15 to 35 ms, the thread rests 1.5 to 3.5 s,
    // while a sign-in waits at most 2 s for it: of six sent at once, the
    // first is checked, at most one or two more, and the rest get 503.
    config.limits.password_share = 1;
    let app = spawn_with(config);
    let statuses: Vec<Response> = std::thread::scope(|s| {
        let signing: Vec<_> = (0..6)
            .map(|i| {
                let (app, body) = (&app, json!({"name": format!("Flood{i}"), "password": PASSWORD}));
                s.spawn(move || post_as(app, &format!("192.0.2.{i}"), "/v1/accounts", &body))
            })
            .collect();
        signing.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let made = statuses.iter().filter(|r| r.status == 201).count();
    let busy: Vec<&Response> = statuses.iter().filter(|r| r.status == 503).collect();
    assert!((1..=3).contains(&made) && made + busy.len() == 6, "{statuses:?}");
    assert!(busy.iter().all(|r| r.header("retry-after").is_some()), "{busy:?}");
    // Play needs no password check: a game is made at once meanwhile.
    let game =
        json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": "A"}, {"name": "B"}]});
    assert_eq!(app.post_json("/v1/games", &game).status, 201);
}

#[test]
fn a_token_revoked_on_one_process_is_refused_by_another_at_once_on_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url], &[]);
    let b = ServerProcess::start(&["--database-url", &url], &[]);
    assert_eq!(sign_up(&a.app, "Ann").status, 201);
    let admin = secret(&token(&a.app, "Ann", PASSWORD, &["account"]));
    let listed = with(&b.app, "GET", "/v1/tokens", &admin);
    assert_eq!(listed.status, 200, "{}", listed.body);
    let id = listed.json()["tokens"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(with(&a.app, "DELETE", &format!("/v1/tokens/{id}"), &admin).status, 204);
    let after: Value = with(&b.app, "GET", "/v1/tokens", &admin).json();
    assert_eq!(after["status"], 401, "{after}");
}

#[test]
fn an_account_holds_seats_and_plays_them_with_its_token_or_the_seats() {
    let app = spawn_app();
    for name in ["Ann", "Bob", "Cy"] {
        assert_eq!(sign_up(&app, name).status, 201);
    }
    let ann = secret(&token(&app, "Ann", PASSWORD, &["play", "account"]));
    let bob = secret(&token(&app, "Bob", PASSWORD, &["play"]));
    let cy = secret(&token(&app, "Cy", PASSWORD, &["play"]));
    let ann_reader = secret(&token(&app, "Ann", PASSWORD, &["account"]));
    let body = json!({"rules": {"preset": "old", "rows": 4, "cols": 4}, "seed": "5",
        "players": [{"account": "ann"}, {"open": "public"}]});
    // The creator's seat is the creator's own account, proven by its token.
    let r = app.post_json("/v1/games", &body);
    assert_eq!(r.status, 401, "{}", r.body);
    let as_bob = app.request(
        "POST",
        "/v1/games",
        &[("Content-Type", "application/json"), ("Authorization", &format!("Bearer {bob}"))],
        body.to_string().as_bytes(),
    );
    assert_eq!(as_bob.status, 403, "{}", as_bob.body);
    let created = app.request(
        "POST",
        "/v1/games",
        &[("Content-Type", "application/json"), ("Authorization", &format!("Bearer {ann}"))],
        body.to_string().as_bytes(),
    );
    assert_eq!(created.status, 201, "{}", created.body);
    let game = created.json();
    let id = game["id"].as_str().unwrap().to_string();
    assert_eq!(
        (game["players"][0]["name"].as_str(), game["players"][0]["account"].as_bool()),
        (Some("Ann"), Some(true))
    );
    // Bob joins with his token, under his account's name.
    let joined = app.request(
        "POST",
        &format!("/v1/games/{id}/join"),
        &[("Content-Type", "application/json"), ("Authorization", &format!("Bearer {bob}"))],
        b"{}",
    );
    assert_eq!(joined.status, 201, "{}", joined.body);
    let bob_seat = joined.json()["seat"]["token"].as_str().unwrap().to_string();
    assert_eq!(joined.json()["game"]["players"][1]["name"], "Bob");
    let first = |game: &str| -> Value {
        app.get(&format!("/v1/games/{game}/legal-moves?limit=1")).json()["moves"][0]["path"].clone()
    };
    let play = |credential: &str| {
        app.request(
            "POST",
            &format!("/v1/games/{id}/moves"),
            &[("Content-Type", "application/json"), ("Authorization", &format!("Bearer {credential}"))],
            json!({"path": first(&id)}).to_string().as_bytes(),
        )
    };
    assert_eq!(play(&cy).status, 401, "Cy holds no seat here");
    assert_eq!(play(&ann_reader).status, 403, "no play scope");
    assert_eq!(play(&bob).status, 403, "not Bob's turn");
    assert_eq!(play(&ann).status, 201, "Ann plays with her account's token");
    assert_eq!(play(&bob_seat).status, 201, "Bob with his seat's token");
    assert_eq!(play(&bob).status, 409, "and not again: his own move was just played");
    // Ann's account is deleted: the game stays, under her name.
    assert_eq!(with(&app, "DELETE", "/v1/accounts/Ann", &ann).status, 204);
    let g = app.get(&format!("/v1/games/{id}")).json();
    assert_eq!(
        (g["players"][0]["name"].as_str(), g["players"][0]["account"].as_bool()),
        (Some("Ann"), Some(false))
    );
    assert_eq!(g["position"]["ply"], 2);
    assert_eq!(play(&ann).status, 401, "her token died with her account");
}

/// Signs up `names` on `app` and gives each a token with every scope.
pub(crate) fn players(app: &TestApp, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| {
            let r = sign_up(app, n);
            assert_eq!(r.status, 201, "signing up {n}: {}", r.body);
            secret(&token(app, n, PASSWORD, &["play", "account"]))
        })
        .collect()
}

pub(crate) fn as_token(app: &TestApp, method: &str, path: &str, token: &str, body: &Value) -> Response {
    let auth = format!("Bearer {token}");
    app.request(
        method,
        path,
        &[("Content-Type", "application/json"), ("Authorization", &auth)],
        body.to_string().as_bytes(),
    )
}

/// A rated 6×6 `old` game (the smallest board a rated game has) of Ann
/// (creator) and Bob (who joins): its id.
pub(crate) fn rated_game(app: &TestApp, tokens: &[String]) -> String {
    let body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "rated": true,
        "players": [{"account": "Ann"}, {"open": "public"}]});
    let created = as_token(app, "POST", "/v1/games", &tokens[0], &body);
    assert_eq!(created.status, 201, "{}", created.body);
    let id = created.json()["id"].as_str().unwrap().to_string();
    let joined = as_token(app, "POST", &format!("/v1/games/{id}/join"), &tokens[1], &json!({}));
    assert_eq!(joined.status, 201, "{}", joined.body);
    id
}

/// Plays `plies` plies of game `id`, each seat's with its account's token
/// (`tokens` in seat order): the first legal move each time.
pub(crate) fn play_plies(app: &TestApp, id: &str, tokens: &[String], plies: usize) {
    for _ in 0..plies {
        let g = app.get(&format!("/v1/games/{id}")).json();
        let to_move = g["position"]["to_move"].as_u64().unwrap_or_else(|| panic!("{g}")) as usize;
        let path = app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["moves"][0]["path"].clone();
        let r =
            as_token(app, "POST", &format!("/v1/games/{id}/moves"), &tokens[to_move], &json!({"path": path}));
        assert_eq!(r.status, 201, "{}", r.body);
    }
}

#[test]
fn an_accounts_games_are_listed_newest_first_filtered_and_paged() {
    let app = spawn_app();
    let tokens = players(&app, &["Ann", "Bob"]);
    let first = rated_game(&app, &tokens);
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/games/{first}/resign"), &tokens[1], &json!({})).status,
        200
    );
    let second = rated_game(&app, &tokens);
    let casual = json!({"rules": {"preset": "murray", "directions": "all", "rows": 5, "cols": 5},
        "players": [{"account": "Ann"}, {"name": "Zed"}]});
    let third =
        as_token(&app, "POST", "/v1/games", &tokens[0], &casual).json()["id"].as_str().unwrap().to_string();
    let ids = |query: &str| -> Vec<String> {
        let page = app.get(&format!("/v1/accounts/ann/games{query}")).json();
        page["games"]
            .as_array()
            .unwrap_or_else(|| panic!("{page}"))
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(ids(""), [third.clone(), second.clone(), first.clone()], "newest first");
    assert_eq!(ids("?status=over"), std::slice::from_ref(&first));
    // The first, resigned before every seat moved, was aborted (§13): it is listed with the casual ones.
    assert_eq!(ids("?rated=true"), std::slice::from_ref(&second));
    assert_eq!(ids("?rated=false"), [third.clone(), first.clone()]);
    assert_eq!(ids("?rated=false&pool=murray/all"), std::slice::from_ref(&third));
    assert_eq!(
        ids("?pool=old/orthogonal&status=opening"),
        std::slice::from_ref(&second),
        "old opens with removals"
    );
    let bob = app.get("/v1/accounts/bob/games").json();
    let bob: Vec<&str> = bob["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(bob, [second.as_str(), first.as_str()], "Bob's");
    let page = app.get("/v1/accounts/Ann/games?limit=2").json();
    let next = page["next_cursor"].as_str().unwrap();
    assert_eq!(ids(&format!("?limit=2&cursor={next}")), [first]);
    assert_eq!(app.get("/v1/accounts/nobody/games").status, 404);
}

#[test]
fn an_accounts_finished_games_export_as_one_stream_of_records() {
    let app = spawn_app();
    let tokens = players(&app, &["Ann"]);
    let game = json!({"rules": {"preset": "old", "rows": 4, "cols": 4}, "players": [{"account": "Ann"}, {"name": "Zed"}]});
    let mut finished = Vec::new();
    for i in 0..3 {
        let created = as_token(&app, "POST", "/v1/games", &tokens[0], &game).json();
        let id = created["id"].as_str().unwrap().to_string();
        if i < 2 {
            assert_eq!(
                as_token(&app, "POST", &format!("/v1/games/{id}/resign"), &tokens[0], &json!({})).status,
                200
            );
            finished.push(id);
        }
    }
    assert_eq!(app.get("/v1/accounts/Ann/records").status, 401);
    let export = with(&app, "GET", "/v1/accounts/Ann/records", &tokens[0]);
    assert_eq!(export.status, 200, "{}", export.body);
    assert!(export.header("content-type").unwrap().starts_with("text/plain"));
    assert_eq!(export.header("cache-control"), Some("no-store"), "an account's own data is never cached");
    let records: Vec<&str> = export.body.split("\n\n[").collect();
    assert_eq!(records.len(), 2, "the two finished games: {}", export.body);
    for record in records {
        let text = if record.starts_with('[') { record.to_string() } else { format!("[{record}") };
        let read = app.post_json("/v1/records", &json!({ "record": text }));
        assert_eq!(read.status, 200, "{}", read.body);
        assert_eq!(read.json()["result"]["ended"], "resignation");
    }
}

#[test]
fn no_password_token_or_invitation_is_ever_logged_in_text_or_json() {
    for format in ["text", "json"] {
        let mut server = ServerProcess::start(&["--log-format", format], &[("RUST_LOG", "debug")]);
        let app = server.app.clone();
        assert_eq!(sign_up(&app, "Ann").status, 201);
        let made = secret(&token(&app, "Ann", PASSWORD, &["play", "account"]));
        assert_eq!(token(&app, "Ann", "frog-spawn-43", &["play"]).status, 401);
        let body = json!({"rules": {"preset": "old", "rows": 4, "cols": 4}, "players": [{"account": "Ann"}, {"open": "private"}]});
        let game = as_token(&app, "POST", "/v1/games", &made, &body).json();
        let id = game["id"].as_str().unwrap();
        let seat = game["seats"][0]["token"].as_str().unwrap().to_string();
        let invitation = game["invitations"][0]["invitation"].as_str().unwrap().to_string();
        let joined =
            app.post_json(&format!("/v1/games/{id}/join"), &json!({"name": "Bob", "invitation": invitation}));
        assert_eq!(joined.status, 201, "{}", joined.body);
        let bobs = joined.json()["seat"]["token"].as_str().unwrap().to_string();
        assert_eq!(with(&app, "GET", "/v1/tokens", &made).status, 200);
        // Secrets sent where they are wrong are not logged either.
        assert_eq!(with(&app, "GET", &format!("/v1/games/{id}/nowhere"), &bobs).status, 404);
        let stray = app.post_json(&format!("/v1/games/{id}/moves"), &json!({"path": ["a1"], "token": seat}));
        assert!(stray.status >= 400, "{}", stray.body);
        server.signal("TERM");
        server.wait(20);
        let logs = server.logs.lock().unwrap().join("\n");
        assert!(logs.contains("/v1/tokens") && logs.contains("/join"), "the requests are logged: {logs}");
        for secret in
            [PASSWORD, "frog-spawn-43", made.as_str(), seat.as_str(), invitation.as_str(), bobs.as_str()]
        {
            assert!(!logs.contains(secret), "{format} logs: {secret} is in them");
        }
    }
}

/// Rule book §13: a seat no account holds may not carry an account's
/// name in any case, nor a look-alike of it (UTS #39's skeleton); nor may
/// a new account take a look-alike of an older one's name.
#[test]
fn a_seat_without_an_account_may_not_look_like_an_accounts_name() {
    let db = crate::common::temp_db();
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = format!("sqlite://{}", db.display());
    let app = spawn_with(config.clone());
    let tokens = players(&app, &["Alice"]);
    let game = |seat: Value| json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": "Zed"}, seat]});
    for name in ["alice", "ALICE", "\u{410}lice", "AIice", "A1ice", " Al\u{456}ce "] {
        let r = app.post_json("/v1/games", &game(json!({"name": name})));
        assert_eq!(
            (r.status, r.json()["field"].as_str()),
            (422, Some("players[1].name")),
            "{name:?}: {}",
            r.body
        );
        assert!(r.json()["detail"].as_str().unwrap().contains("'Alice'"), "{}", r.body);
    }
    let computer = app.post_json("/v1/games", &game(json!({"computer": "easy", "name": "alice"})));
    assert_eq!(computer.status, 422, "{}", computer.body);
    assert_eq!(app.post_json("/v1/games", &game(json!({"name": "Alicia"}))).status, 201);
    // Joining an open seat: under a look-alike, refused; as the account, welcome.
    let open = app.post_json("/v1/games", &game(json!({"open": "public"}))).json();
    let id = open["id"].as_str().unwrap();
    let r = app.post_json(&format!("/v1/games/{id}/join"), &json!({"name": "\u{410}LICE"}));
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("name")), "{}", r.body);
    assert_eq!(as_token(&app, "POST", &format!("/v1/games/{id}/join"), &tokens[0], &json!({})).status, 201);
    // A new account may not look like Alice either.
    let r = sign_up(&app, "AIice");
    assert_eq!(r.status, 409, "{}", r.body);
    // Accounts stored before looks were kept get theirs when a server starts.
    actix_web::rt::System::new().block_on(async {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&config.database.url).await.unwrap();
        sqlx::query("UPDATE accounts SET look = NULL").execute(&pool).await.unwrap();
        pool.close().await;
    });
    let restarted = spawn_with(config);
    let r = restarted.post_json("/v1/games", &game(json!({"name": "alice"})));
    assert_eq!(r.status, 422, "{}", r.body);
}
