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

use crate::common::{run, temp_dir, tools_present};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_generated_python_client_plays_a_whole_game() {
    let generator = std::env::var("OPENAPI_PYTHON_CLIENT").unwrap_or_else(|_| "openapi-python-client".into());
    if !tools_present(
        "a_generated_python_client_plays_a_whole_game",
        &[("python3", "--version"), (&generator, "--version"), ("mypy", "--version")],
        "pip install openapi-python-client mypy",
    ) {
        return;
    }
    let out = temp_dir("python-client");
    let generated = run(
        "openapi-python-client",
        Command::new(&generator)
            .args(["generate", "--meta", "none", "--overwrite", "--path"])
            .arg(root().join("openapi/openapi.json"))
            .arg("--output-path")
            .arg(out.0.join("leapfrog_client")),
    );
    let log =
        String::from_utf8_lossy(&generated.stdout).into_owned() + &String::from_utf8_lossy(&generated.stderr);
    assert!(!log.contains("WARNING"), "the generator warned:\n{log}");

    // The program type-checks strictly against the generated client (whose
    // own files are the generator's: not reported).
    run(
        "mypy --strict",
        Command::new("mypy")
            .args(["--strict", "--follow-imports=silent", "--cache-dir"])
            .arg(out.0.join(".mypy_cache"))
            .arg(root().join("tests/clients/python_client.py"))
            .env("MYPYPATH", &out.0),
    );
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
