//! A client generated from `openapi/openapi.json` works on the first try:
//! `openapi-python-client` generates it, and a setup → legal-moves → apply
//! round trip runs through it against the live server.
//!
//! Needs `python3` and `openapi-python-client` (`pip install
//! openapi-python-client`; `.ci/run` installs it). Without them the test
//! says so and passes, except under `CI=true`, where it fails.

mod common;

use std::path::Path;
use std::process::Command;

fn available(program: &str, arg: &str) -> bool {
    Command::new(program).arg(arg).output().is_ok_and(|o| o.status.success())
}

#[test]
fn a_generated_python_client_plays_a_round_trip() {
    let generator = std::env::var("OPENAPI_PYTHON_CLIENT").unwrap_or_else(|_| "openapi-python-client".into());
    if !available("python3", "--version") || !available(&generator, "--version") {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: python3 and openapi-python-client are required (pip install openapi-python-client)"
        );
        eprintln!(
            "SKIPPED a_generated_python_client_plays_a_round_trip: openapi-python-client is not installed"
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("leapfrog-client-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).expect("a temporary directory");
    let package = out.join("leapfrog_client");
    let generated = Command::new(&generator)
        .args(["generate", "--meta", "none", "--overwrite", "--path"])
        .arg(root.join("openapi/openapi.json"))
        .arg("--output-path")
        .arg(&package)
        .output()
        .expect("the generator runs");
    let log =
        String::from_utf8_lossy(&generated.stdout).into_owned() + &String::from_utf8_lossy(&generated.stderr);
    assert!(generated.status.success(), "generation failed:\n{log}");
    assert!(!log.contains("WARNING"), "the generator warned:\n{log}");

    let app = common::spawn_app();
    let run = Command::new("python3")
        .arg(root.join("tests/clients/python_roundtrip.py"))
        .arg(&app.address)
        .arg(&out)
        .output()
        .expect("python runs");
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        run.status.success(),
        "round trip failed:\n{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("round trip: ok"));
}
