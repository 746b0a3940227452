//! The stateless API for JavaScript: one function, [`call`], that is
//! `leapfrog_wire::local::call` behind wasm-bindgen — the operation's
//! name and its JSON request body in, its JSON answer out, or a thrown
//! problem object (JSON) with the `type`, `title`, `status`, `detail` and
//! `field` its HTTP operation answers with. The package's `index.js`
//! gives each operation its own function and TypeScript types from the
//! OpenAPI schemas (`js/`, built by `build.sh`).

use wasm_bindgen::prelude::wasm_bindgen;

/// Runs `operation` (`setup`, `legalMoves`, `apply`, `analysis`,
/// `solutions`, `readRecord`, `perft`, `presets`) on the JSON request
/// `body`: the JSON answer.
///
/// # Errors
///
/// The problem, as JSON text.
#[wasm_bindgen]
pub fn call(operation: &str, body: &str) -> Result<String, String> {
    match leapfrog_wire::local::call(operation, body.as_bytes()) {
        // The wire writes UTF-8 JSON: the lossless path, without a second check.
        Ok(answer) => String::from_utf8(answer).map_err(|e| e.to_string()),
        Err(problem) => Err(serde_json::to_string(&problem).unwrap_or_else(|e| e.to_string())),
    }
}

/// The operations' names.
#[wasm_bindgen]
pub fn operations() -> Vec<String> {
    leapfrog_wire::local::Operation::ALL.iter().map(|op| op.name().to_string()).collect()
}
