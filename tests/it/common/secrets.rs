//! Every secret the test run has seen — passwords sent, seat tokens,
//! invitations and personal access tokens answered — so that the logs of
//! every server process of the run are checked for all of them (when the
//! process is let go): no secret is ever logged.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex, PoisonError};

use serde_json::Value;

static SEEN: LazyLock<Mutex<HashSet<String>>> = LazyLock::new(Mutex::default);

/// Keeps the values of these fields, wherever they are in `json`.
fn collect(json: &Value, fields: &[&str], into: &mut Vec<String>) {
    match json {
        Value::Object(map) => {
            for (k, v) in map {
                match v {
                    // Short values are not secrets the server made (a test's
                    // "wrong" guesses); a secret is long.
                    Value::String(s) if fields.contains(&k.as_str()) && s.len() >= 8 => into.push(s.clone()),
                    _ => collect(v, fields, into),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect(v, fields, into)),
        _ => {}
    }
}

fn note(body: &str, fields: &[&str]) {
    if !fields.iter().any(|f| body.contains(&format!("\"{f}\""))) {
        return;
    }
    let Ok(json) = serde_json::from_str::<Value>(body) else { return };
    let mut found = Vec::new();
    collect(&json, fields, &mut found);
    SEEN.lock().unwrap_or_else(PoisonError::into_inner).extend(found);
}

/// A request's body: its passwords.
pub fn note_request(body: &[u8]) {
    note(&String::from_utf8_lossy(body), &["password"]);
}

/// An answer's body: its tokens and invitations.
pub fn note_answer(body: &str) {
    note(body, &["token", "invitation"]);
}

/// Fails if any secret seen so far is in `logs`.
pub fn assert_none_in(logs: &[String]) {
    let seen = SEEN.lock().unwrap_or_else(PoisonError::into_inner);
    for line in logs {
        if let Some(secret) = seen.iter().find(|s| line.contains(s.as_str())) {
            panic!("a secret ({}…) is in a server's log: {line}", &secret[..4]);
        }
    }
}

#[test]
#[should_panic(expected = "a secret (seat…) is in a server's log")]
fn a_secret_answered_then_logged_fails_the_check() {
    note_answer(r#"{"seats":[{"token":"seat-token-for-the-self-test"}]}"#);
    note_answer(r#"{"token":"short"}"#);
    assert_none_in(&["GET /v1/games short".into()]);
    assert_none_in(&["answered token=seat-token-for-the-self-test".into()]);
}
