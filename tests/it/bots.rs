//! Bot accounts (rule book §15): made at sign-up or later while no rated
//! game counts, for good; their settings and acceptance profile; a bot's
//! tokens play only the games of challenges.

use serde_json::json;

use crate::accounts::{PASSWORD, as_token, play_plies, players, rated_game, secret, token};
use crate::common::spawn_app;

#[test]
fn an_account_becomes_a_bot_for_good_and_publishes_what_it_accepts() {
    let app = spawn_app();
    let made = app.post_json("/v1/accounts", &json!({"name": "Robo", "password": PASSWORD, "bot": true}));
    assert_eq!(made.status, 201, "{}", made.body);
    assert_eq!((made.json()["bot"].as_bool(), made.json()["accepts"].is_null()), (Some(true), true));
    let robo = secret(&token(&app, "Robo", PASSWORD, &["play", "account"]));
    // Its profile: what it takes, shown to anyone.
    let accepts = json!({"presets": ["murray", "konane"], "min_size": 6, "max_games": 2, "untimed": false});
    let r = as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &json!({"accepts": accepts}));
    assert_eq!(r.status, 200, "{}", r.body);
    let shown = app.get("/v1/accounts/robo").json();
    assert_eq!(shown["accepts"]["presets"], json!(["murray", "konane"]), "{shown}");
    assert_eq!(
        (shown["accepts"]["max_games"].as_u64(), shown["accepts"]["rated"].as_bool()),
        (Some(2), Some(true))
    );
    // A profile that contradicts itself, or names no preset, is refused by field.
    for (bad, field) in [
        (json!({"min_size": 9, "max_size": 8}), "accepts.min_size"),
        (json!({"presets": ["chess"]}), "accepts.presets"),
        (json!({"rated": false, "casual": false}), "accepts.rated"),
    ] {
        let r = as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &json!({"accepts": bad}));
        assert_eq!((r.status, r.json()["field"].as_str()), (422, Some(field)), "{}", r.body);
    }
    // Null: any challenge again. A bot stays a bot.
    let r = as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &json!({"accepts": null}));
    assert!(r.json()["accepts"].is_null(), "{}", r.body);
    let r = as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &json!({"bot": false}));
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("bot")), "{}", r.body);
    let r = as_token(&app, "PATCH", "/v1/accounts/Robo", &robo, &json!({"rated_against_bots": true}));
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("rated_against_bots")), "{}", r.body);
    // A bot plays challenges' games: it neither creates nor joins others.
    let game = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"account": "Robo"}, {"open": "public"}]});
    assert_eq!(as_token(&app, "POST", "/v1/games", &robo, &game).status, 403);
    let open = app.post_json(
        "/v1/games",
        &json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"name": "Zed P"}, {"open": "public"}]}),
    );
    let id = open.json()["id"].as_str().unwrap().to_string();
    let r = as_token(&app, "POST", &format!("/v1/games/{id}/join"), &robo, &json!({}));
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.json()["detail"].as_str().unwrap().contains("challenges"), "{}", r.body);
}

#[test]
fn a_person_opts_in_to_bots_and_becomes_a_bot_only_before_a_rated_game() {
    let app = spawn_app();
    let tokens = players(&app, &["Ann", "Bob", "Cy"]);
    let r = as_token(&app, "PATCH", "/v1/accounts/Ann", &tokens[0], &json!({"rated_against_bots": true}));
    assert_eq!((r.status, r.json()["rated_against_bots"].as_bool()), (200, Some(true)), "{}", r.body);
    assert_eq!(app.get("/v1/accounts/Ann").json()["bot"], false);
    // Another's account, or no token: refused.
    assert_eq!(as_token(&app, "PATCH", "/v1/accounts/Bob", &tokens[0], &json!({"bot": true})).status, 403);
    let anonymous = app.request("PATCH", "/v1/accounts/Ann", &[("Content-Type", "application/json")], b"{}");
    assert_eq!(anonymous.status, 401);
    // Cy becomes a bot while he has played no rated game.
    let r = as_token(&app, "PATCH", "/v1/accounts/Cy", &tokens[2], &json!({"bot": true}));
    assert_eq!((r.status, r.json()["bot"].as_bool()), (200, Some(true)), "{}", r.body);
    // Ann and Bob play a rated game to a result: neither may become a bot.
    let id = rated_game(&app, &tokens[..2]);
    play_plies(&app, &id, &tokens[..2], 2);
    assert_eq!(as_token(&app, "POST", &format!("/v1/games/{id}/resign"), &tokens[1], &json!({})).status, 200);
    let r = as_token(&app, "PATCH", "/v1/accounts/Bob", &tokens[1], &json!({"bot": true}));
    assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("bot")), "{}", r.body);
    assert_eq!(app.get("/v1/accounts/Bob").json()["bot"], false);
}

/// A `leapfrog bot` process, killed when dropped; what it prints is kept
/// as it prints it.
pub(crate) struct BotProcess {
    child: std::process::Child,
    said: std::sync::Arc<std::sync::Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl BotProcess {
    pub(crate) fn start(
        server: &crate::common::TestApp,
        account: &str,
        token: &str,
        level: &str,
    ) -> BotProcess {
        BotProcess::start_with(server, account, token, level, &[])
    }

    /// [`BotProcess::start`] with more arguments.
    pub(crate) fn start_with(
        server: &crate::common::TestApp,
        account: &str,
        token: &str,
        level: &str,
        more: &[&str],
    ) -> BotProcess {
        let mut child = std::process::Command::new(crate::common::leapfrog_binary())
            .args([
                "bot",
                "--server",
                &server.address,
                "--account",
                account,
                "--level",
                level,
                "--accept",
                "old",
            ])
            .args(more)
            .env("LEAPFROG_BOT_TOKEN", token)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("leapfrog bot starts");
        let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let err = child.stderr.take().expect("its standard error");
        let kept = said.clone();
        let reader = std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
                let mut said = kept.lock().unwrap();
                said.push_str(&line);
                said.push('\n');
            }
        });
        BotProcess { child, said, reader: Some(reader) }
    }

    /// Waits until it has printed `text` (a minute at most): the server
    /// may know of an event before the bot has told of it.
    pub(crate) fn wait_for(&self, text: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !self.said.lock().unwrap().contains(text) {
            assert!(
                std::time::Instant::now() < deadline,
                "it never said {text:?}: {}",
                self.said.lock().unwrap()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// Interrupts it and reads what it printed.
    pub(crate) fn stop(mut self) -> String {
        let _ = std::process::Command::new("kill").args(["-INT", &self.child.id().to_string()]).status();
        let status = self.child.wait().expect("it ends");
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        let out = self.said.lock().unwrap().clone();
        assert!(status.success(), "{status}: {out}");
        out
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two `leapfrog bot` processes on different levels, each on its own
/// server process: one sends a rated challenge, the other's accepts it,
/// both play it to its end through their streams; the ratings change once.
fn two_bots_play_a_rated_game(a: &crate::common::TestApp, b: &crate::common::TestApp) {
    let bot = |name: &str| {
        let r = a.post_json("/v1/accounts", &json!({"name": name, "password": PASSWORD, "bot": true}));
        assert_eq!(r.status, 201, "{}", r.body);
        secret(&token(a, name, PASSWORD, &["play", "account"]))
    };
    let (greedy, easy) = (bot("Greedy"), bot("Easy"));
    let first = BotProcess::start(a, "Greedy", &greedy, "greedy");
    let second = BotProcess::start(b, "Easy", &easy, "easy");
    // The second bot's profile is published before it is challenged.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while a.get("/v1/accounts/Easy").json()["accepts"].is_null() {
        assert!(std::time::Instant::now() < deadline, "the bot never published its profile");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let terms = json!({"to": "Easy", "rules": {"preset": "old", "rows": 6, "cols": 6}, "rated": true});
    let sent = as_token(a, "POST", "/v1/challenges", &greedy, &terms);
    assert_eq!(sent.status, 201, "{}", sent.body);
    let id = sent.json()["id"].as_str().unwrap().to_string();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let g = b.get(&format!("/v1/games/{id}"));
        if g.status == 200 && g.json()["status"] == "over" {
            assert_eq!(g.json()["result"]["ratings"].as_array().map(Vec::len), Some(2), "{}", g.body);
            break;
        }
        assert!(std::time::Instant::now() < deadline, "the bots did not finish: {}", g.body);
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    for name in ["Greedy", "Easy"] {
        let ratings = &a.get(&format!("/v1/accounts/{name}")).json()["ratings"];
        assert_eq!(ratings["old/orthogonal/bots"]["games"], 1, "rated once, in the bot pool: {ratings}");
    }
    first.wait_for(" over:");
    second.wait_for(" over:");
    let (first, second) = (first.stop(), second.stop());
    for out in [&first, &second] {
        assert!(out.contains("over:") && out.contains("stopped: 1 games"), "{out}");
    }
    assert!(second.contains("accepted the challenge of"), "{second}");
}

#[test]
fn two_leapfrog_bot_processes_play_a_rated_game_through_challenges_sqlite() {
    let app = crate::common::spawn_app();
    two_bots_play_a_rated_game(&app, &app);
}

#[test]
fn two_leapfrog_bot_processes_play_a_rated_game_through_challenges_postgres() {
    let Some(url) = crate::common::pg::fresh_database() else { return };
    let a = crate::common::ServerProcess::start(&["--database-url", &url], &[]);
    let b = crate::common::ServerProcess::start(&["--database-url", &url], &[]);
    two_bots_play_a_rated_game(&a.app, &b.app);
}
