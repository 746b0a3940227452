//! The web page at `/` (`crates/leapfrog/web/`): served from the binary
//! with nothing from elsewhere, compiled from its committed TypeScript
//! typed by the committed spec, and played in a real headless Chromium
//! (`web/tests/browser.mjs`, driven by playwright-core).
//!
//! The compile needs `node` and `npm`; the browser tests also Debian's
//! `chromium` (`.ci/run` installs them). Without them a test says
//! `SKIPPED` and passes, except under `CI=true`, where it fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{run, spawn_app, tools_present};

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/leapfrog/web")
}

fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

/// Whether node, npm (and with `browser`, Chromium) are here; if not,
/// says so (and fails under CI).
fn tools_ready(test: &str, browser: bool) -> bool {
    let install = "apt-get install nodejs npm chromium";
    if !tools_present(test, &[("node", "--version"), ("npm", "--version")], install) {
        return false;
    }
    if browser && !Path::new(&chromium()).exists() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true: {} required ({install})", chromium());
        eprintln!("SKIPPED {test}: {} not installed ({install})", chromium());
        return false;
    }
    true
}

fn npm_ready() {
    crate::common::npm_installed(&web());
}

#[test]
fn the_page_and_its_files_are_served_from_the_binary_and_allow_this_server_only() {
    let app = spawn_app();
    for (path, kind, says) in [
        ("/", "text/html", "<script type=\"module\" src=\"/app.js\">"),
        ("/app.js", "text/javascript", "./game.js"),
        ("/client.js", "text/javascript", "/v1/games"),
        ("/style.css", "text/css", "svg.board"),
    ] {
        let r = app.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.header("content-type").unwrap().starts_with(kind),
            "{path}: {:?}",
            r.header("content-type")
        );
        assert!(r.header("content-security-policy").unwrap().starts_with("default-src 'self'"), "{path}");
        assert!(r.body.contains(says), "{path}");
    }
    // No address of another host in what the browser runs (the SVG
    // namespace is a name, never fetched).
    let modules: String =
        leapfrog::server::page::SCRIPTS.iter().map(|(path, _)| app.get(path).body).collect();
    let script = (modules + &app.get("/").body + &app.get("/style.css").body)
        .replace("http://www.w3.org/2000/svg", "");
    assert!(
        !script.contains("http://") && !script.contains("https://") && !script.contains("//cdn"),
        "{script}"
    );
}

#[test]
fn the_committed_script_is_the_strict_compile_of_the_typescript_typed_by_the_committed_spec() {
    let test = "the_committed_script_is_the_strict_compile_of_the_typescript_typed_by_the_committed_spec";
    if !tools_ready(test, false) {
        return;
    }
    npm_ready();
    let dir = crate::common::temp_dir("web");
    let out = dir.0.clone();
    let types = out.join("api.d.ts");
    run(
        "openapi-typescript",
        Command::new("npx")
            .args(["openapi-typescript", "../../../openapi/openapi.json", "-o"])
            .arg(&types)
            .current_dir(web()),
    );
    let committed_types = std::fs::read_to_string(web().join("src/api.d.ts")).unwrap();
    assert!(
        std::fs::read_to_string(&types).unwrap() == committed_types,
        "crates/leapfrog/web/src/api.d.ts is stale: run `npm run generate` and `npm run build` in crates/leapfrog/web"
    );
    run(
        "tsc --strict",
        Command::new("npx").args(["tsc", "-p", ".", "--outDir"]).arg(&out).current_dir(web()),
    );
    // Every module compiled is committed as it compiles, and nothing else
    // is in dist/; the binary serves each.
    let scripts = |dir: &std::path::Path| -> Vec<(String, String)> {
        let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "js"))
            .map(|p| {
                (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        files.sort();
        files
    };
    let (compiled, committed) = (scripts(&out), scripts(&web().join("dist")));
    drop(dir);
    assert!(
        compiled == committed,
        "crates/leapfrog/web/dist/ is stale: run `npm run build` in crates/leapfrog/web"
    );
    let served: Vec<String> =
        leapfrog::server::page::SCRIPTS.iter().map(|(path, _)| path[1..].to_string()).collect();
    let names: Vec<String> = compiled.into_iter().map(|(name, _)| name).collect();
    assert_eq!(served, names, "page.rs serves every module");
}

#[test]
fn people_play_in_a_real_browser_against_each_other_and_the_computer() {
    let test = "people_play_in_a_real_browser_against_each_other_and_the_computer";
    if !tools_ready(test, true) {
        return;
    }
    npm_ready();
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    // The page registers a webhook to a loopback port.
    config.webhook_allow_private = true;
    let app = crate::common::spawn_with(config);
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-screenshots");
    let _ = std::fs::remove_dir_all(&shots);
    let out = run(
        "the browser tests (screenshots in target/browser-screenshots)",
        Command::new("node")
            .arg("tests/browser.mjs")
            .arg(&app.address)
            .arg(&shots)
            .env("CHROMIUM", chromium())
            .env("LEAPFROG_BIN", crate::common::leapfrog_binary())
            .current_dir(web()),
    );
    let log = String::from_utf8_lossy(&out.stdout);
    assert!(log.contains("browser tests passed"), "{log}");
    assert!(shots.join("phone-game-in-progress.png").exists());
}
