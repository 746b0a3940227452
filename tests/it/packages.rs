//! The bindings as their users get them: the npm package built by
//! `crates/leapfrog-js/build.sh` and its own tests run in Node — the shared
//! stateless cases (`tests/fixtures/stateless`) answered as the server
//! answers them, the rules crate's perft vectors, the TypeScript example
//! type-checked against the types generated from the spec; and the Python
//! package installed with pip into a fresh virtual environment, its tests
//! run (the same shared cases and vectors, the environments), its examples
//! run and checked with `mypy --strict`. Without node and npm, or python3
//! with venv and pip, a test prints SKIPPED and passes, except under
//! `CI=true`.

use std::path::PathBuf;
use std::process::Command;

use crate::common::{run, tools_present};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_javascript_package_builds_and_answers_as_the_server_in_node() {
    let tools = [("node", "--version"), ("npm", "--version"), ("rustup", "--version")];
    if !tools_present("the_javascript_package", &tools, "apt-get install nodejs npm") {
        return;
    }
    let js = root().join("crates/leapfrog-js");
    run("crates/leapfrog-js/build.sh", &mut Command::new(js.join("build.sh")));
    // The page's committed copy is this build, byte for byte.
    let page = root().join("crates/leapfrog/web/engine");
    for (built, kept) in [
        ("js/index.js", "index.js"),
        ("js/wasm/leapfrog_js.js", "wasm/leapfrog_js.js"),
        ("js/wasm/leapfrog_js_bg.wasm", "wasm/leapfrog_js_bg.wasm"),
    ] {
        let same = std::fs::read(js.join(built)).ok() == std::fs::read(page.join(kept)).ok();
        assert!(
            same,
            "crates/leapfrog/web/engine/{kept} is not this build's: run crates/leapfrog-js/build.sh --page"
        );
    }
    let out =
        run("npm test (the package's tests)", Command::new("npm").arg("test").current_dir(js.join("js")));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("# pass 3") && report.contains("# fail 0"), "{report}");
}

#[test]
fn the_python_package_installs_with_pip_and_answers_as_the_server() {
    let tools = [("python3", "--version"), ("cargo", "--version")];
    if !tools_present("the_python_package", &tools, "apt-get install python3 python3-venv") {
        return;
    }
    let venv = root().join("target/python-package");
    let _ = std::fs::remove_dir_all(&venv);
    run("python3 -m venv", Command::new("python3").args(["-m", "venv"]).arg(&venv));
    let python = venv.join("bin/python");
    let pip = |args: &[&str]| {
        let mut c = Command::new(&python);
        c.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]).args(args);
        c
    };
    // As the README says: one pip install of the package's folder (numpy for the environments).
    run(
        "pip install crates/leapfrog-py[env]",
        pip(&[&format!("{}[env]", root().join("crates/leapfrog-py").display())]).current_dir(root()),
    );
    run("pip install mypy", &mut pip(&["mypy==1.*"]));
    let package = root().join("crates/leapfrog-py");
    let out = run(
        "the package's tests",
        Command::new(&python).args(["-m", "unittest", "discover", "-s", "tests", "-v"]).current_dir(&package),
    );
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(report.contains("Ran 7 tests") && report.trim_end().ends_with("OK"), "{report}");
    run(
        "mypy --strict",
        Command::new(&python)
            .args(["-m", "mypy", "--strict", "examples", "tests", "bench", "python/leapfrog_engine"])
            .current_dir(&package),
    );
    let out = run(
        "examples/computer_vs_random.py",
        Command::new(&python).arg("examples/computer_vs_random.py").current_dir(&package),
    );
    let said = String::from_utf8_lossy(&out.stdout);
    let won: usize = said.split_whitespace().nth(3).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(won >= 10, "{said}");
    run(
        "examples/random_games.py",
        Command::new(&python).arg("examples/random_games.py").current_dir(&package),
    );
}
