//! The bindings as their users get them: the npm package built by
//! `crates/leapfrog-js/build.sh` and its own tests run in Node — the shared
//! stateless cases (`tests/fixtures/stateless`) answered as the server
//! answers them, the rules crate's perft vectors, the TypeScript example
//! type-checked against the types generated from the spec. Without node
//! and npm the test prints SKIPPED and passes, except under `CI=true`.

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
    let out =
        run("npm test (the package's tests)", Command::new("npm").arg("test").current_dir(js.join("js")));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("# pass 3") && report.contains("# fail 0"), "{report}");
}
