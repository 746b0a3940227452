//! Clients generated from the committed `openapi/openapi.json` play a
//! whole game against the live server: one made by `openapi-python-client`
//! and checked with `mypy --strict`, one typed by `openapi-typescript` for
//! `openapi-fetch` and checked with `tsc --strict` (`tests/clients/`). Both
//! create and join a game without a token.
//!
//! They need `python3` with `openapi-python-client` and `mypy`, and `node`
//! with `npm` (`.ci/run` installs them). Without them a test says `SKIPPED` and
//! passes, except under `CI=true`, where it fails.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::accounts::{PASSWORD, as_token, players, secret, token};
use crate::common::{run, temp_dir, tools_present};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Generates the Python client of the committed spec into `dir` (the
/// generator may not warn) and type-checks `program` strictly against it
/// (the client's own files are the generator's: not reported).
fn python_client_for(generator: &str, dir: &Path, program: &Path) {
    let generated = run(
        "openapi-python-client",
        Command::new(generator)
            .args(["generate", "--meta", "none", "--overwrite", "--path"])
            .arg(root().join("openapi/openapi.json"))
            .arg("--output-path")
            .arg(dir.join("leapfrog_client")),
    );
    let log =
        String::from_utf8_lossy(&generated.stdout).into_owned() + &String::from_utf8_lossy(&generated.stderr);
    assert!(!log.contains("WARNING"), "the generator warned:\n{log}");
    run(
        "mypy --strict",
        Command::new("mypy")
            .args(["--strict", "--follow-imports=silent", "--cache-dir"])
            .arg(dir.join(".mypy_cache"))
            .arg(program)
            .env("MYPYPATH", dir),
    );
}

#[test]
fn a_generated_python_client_plays_a_whole_game() {
    let Some(generator) = python_tools("a_generated_python_client_plays_a_whole_game") else { return };
    let out = temp_dir("python-client");
    python_client_for(&generator, &out.0, &root().join("tests/clients/python_client.py"));
    let app = crate::common::spawn_app();
    let played = run(
        "the python client's game",
        Command::new("python3")
            .arg(root().join("tests/clients/python_client.py"))
            .arg(&app.address)
            .arg(&out.0),
    );
    assert!(String::from_utf8_lossy(&played.stdout).contains("a whole game of"));
}

/// The sample bot of `examples/python_bot`, on a client generated from the
/// committed spec and checked with `mypy --strict`, accepts a challenge and
/// plays the game to its end against a person.
#[test]
fn the_sample_python_bot_plays_a_whole_game() {
    let Some(generator) = python_tools("the_sample_python_bot_plays_a_whole_game") else { return };
    let out = temp_dir("python-bot");
    let bot = root().join("examples/python_bot/bot.py");
    python_client_for(&generator, &out.0, &bot);
    let (id, printed) = a_bot_plays_ann(&bot, &out.0, "Sampler", true);
    assert!(printed.contains("accepted the challenge of Ann"), "{printed}");
    assert!(printed.contains(&format!("game {id} over")), "{printed}");
}

/// The bot the README's "Write a bot" shows, run as it is written there
/// (the client on `PYTHONPATH`), accepts a challenge and plays it to the end.
#[test]
fn the_readmes_bot_plays_a_whole_game() {
    let Some(generator) = python_tools("the_readmes_bot_plays_a_whole_game") else { return };
    let readme = std::fs::read_to_string(root().join("README.md")).expect("the README");
    let section = readme.split("### Write a bot").nth(1).expect("the README has a \"Write a bot\" section");
    let code = section.split("```python\n").nth(1).and_then(|c| c.split("```").next()).expect("its Python");
    assert!(code.lines().count() <= 30, "the README's bot is {} lines", code.lines().count());
    let out = temp_dir("readme-bot");
    let bot = out.0.join("bot.py");
    std::fs::write(&bot, code).expect("the bot written");
    // The same client as the sample's (the README's is not annotated for mypy).
    python_client_for(&generator, &out.0, &root().join("examples/python_bot/bot.py"));
    a_bot_plays_ann(&bot, &out.0, "Readme", false);
}

/// The Python tools the bots need (`None`: skipped, said by `tools_present`).
fn python_tools(test: &str) -> Option<String> {
    let generator = std::env::var("OPENAPI_PYTHON_CLIENT").unwrap_or_else(|_| "openapi-python-client".into());
    tools_present(
        test,
        &[("python3", "--version"), (&generator, "--version"), ("mypy", "--version")],
        "pip install openapi-python-client mypy",
    )
    .then_some(generator)
}

/// Signs up the bot account `name`, runs `bot BASE NAME 1 CLIENT_DIR`
/// with its token, challenges it as Ann and plays Ann's turns until the
/// game is over. The game's id and what the bot printed; a bot that ends by
/// itself (`ends`) must end well, one that does not is stopped.
fn a_bot_plays_ann(bot: &Path, client: &Path, name: &str, ends: bool) -> (String, String) {
    let app = crate::common::spawn_app();
    let made = app.post_json("/v1/accounts", &json!({"name": name, "password": PASSWORD, "bot": true}));
    assert_eq!(made.status, 201, "{}", made.body);
    let token = secret(&token(&app, name, PASSWORD, &["play"]));
    let ann = players(&app, &["Ann"]).remove(0);
    let mut child = Command::new("python3")
        .arg(bot)
        .args([app.address.as_str(), name, "1"])
        .arg(client)
        .env("LEAPFROG_BOT_TOKEN", &token)
        .env("PYTHONPATH", client)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs the bot");
    let terms = json!({"to": name, "rules": {"preset": "old", "rows": 6, "cols": 6}});
    let sent = as_token(&app, "POST", "/v1/challenges", &ann, &terms);
    assert_eq!(sent.status, 201, "{}", sent.body);
    let id = sent.json()["id"].as_str().unwrap().to_string();
    // Ann plays her turns (the first legal move) until the game is over.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().expect("the bot stops");
            panic!("the game did not end; the bot said:\n{}", String::from_utf8_lossy(&out.stderr));
        }
        let g = app.get(&format!("/v1/games/{id}"));
        if g.status == 404 {
            std::thread::sleep(std::time::Duration::from_millis(200));
            continue;
        }
        let g = g.json();
        if g["status"] == "over" {
            break;
        }
        let to_move = g["position"]["to_move"].as_u64().unwrap() as usize;
        if g["players"][to_move]["name"] == "Ann" {
            let path =
                app.get(&format!("/v1/games/{id}/legal-moves?limit=1")).json()["moves"][0]["path"].clone();
            let r = as_token(&app, "POST", &format!("/v1/games/{id}/moves"), &ann, &json!({"path": path}));
            assert!([201, 409].contains(&r.status), "{}", r.body);
        } else {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    if !ends {
        let _ = child.kill();
    }
    let done = child.wait_with_output().expect("the bot ends");
    let printed = String::from_utf8_lossy(&done.stdout).into_owned();
    if ends {
        assert!(done.status.success(), "{printed}{}", String::from_utf8_lossy(&done.stderr));
    }
    (id, printed)
}

#[test]
fn a_typescript_client_typed_from_the_spec_compiles_strictly_and_plays_a_whole_game() {
    let test = "a_typescript_client_typed_from_the_spec_compiles_strictly_and_plays_a_whole_game";
    if !tools_present(test, &[("node", "--version"), ("npm", "--version")], "apt-get install nodejs npm") {
        return;
    }
    let dir = root().join("tests/clients/typescript");
    let npm = |what: &str, args: &[&str]| run(what, Command::new("npm").args(args).current_dir(&dir));
    crate::common::npm_installed(&dir);
    // Types from the committed spec, then the strict compile.
    npm("openapi-typescript", &["run", "--silent", "generate"]);
    npm("tsc --strict", &["run", "--silent", "check"]);
    let app = crate::common::spawn_app();
    let played = run(
        "the typescript client's game",
        Command::new("node").arg(dir.join("dist/game.js")).arg(&app.address),
    );
    assert!(String::from_utf8_lossy(&played.stdout).contains("a whole game of"));
}
