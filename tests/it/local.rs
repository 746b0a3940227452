//! The stateless API in-process (`leapfrog::wire::local`, what the
//! JavaScript and Python packages call) answers as the HTTP API does:
//! every case of `tests/fixtures/stateless/cases.json`, sent to both, gets
//! the same status and the same JSON (all but `millis`, the time taken).
//! The answers are kept in `answers.json` beside the cases, for the
//! packages' own tests to compare with; after a change of the API,
//! `LEAPFROG_WRITE_FIXTURES=1` writes them again.

use serde_json::{Value, json};

use crate::common::spawn_app;
use leapfrog::wire::local::{self, Operation};

fn fixtures() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stateless")
}

/// `value` without its `millis` fields, wherever they are.
pub(crate) fn timeless(mut value: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.remove("millis");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

/// The method and path of an operation's HTTP twin, read off the spec.
fn http_of(op: Operation, spec: &Value) -> Option<(String, String)> {
    let id = op.operation_id()?;
    spec["paths"].as_object()?.iter().find_map(|(path, methods)| {
        methods
            .as_object()?
            .iter()
            .find_map(|(method, o)| (o["operationId"] == id).then(|| (method.clone(), path.clone())))
    })
}

#[test]
fn every_case_answers_in_process_as_over_http_and_as_the_kept_answers() {
    let app = spawn_app();
    let spec: Value = serde_json::from_str(
        &std::fs::read_to_string(
            fixtures().parent().unwrap().parent().unwrap().parent().unwrap().join("openapi/openapi.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("cases.json")).unwrap()).unwrap();
    let mut answers = serde_json::Map::new();
    let mut operations_seen = std::collections::BTreeSet::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let op = Operation::named(case["operation"].as_str().unwrap()).unwrap();
        operations_seen.insert(op.name());
        let body = case["body"].to_string();
        let (status, here) = match local::call(op.name(), body.as_bytes()) {
            Ok(bytes) => (200, serde_json::from_slice::<Value>(&bytes).unwrap()),
            Err(problem) => (problem.status, serde_json::to_value(&*problem).unwrap()),
        };
        let (method, path) = http_of(op, &spec).unwrap_or_else(|| panic!("{name}: no HTTP operation"));
        let there = if method == "get" { app.get(&path) } else { app.post_json(&path, &case["body"]) };
        assert_eq!(
            there.status, status,
            "{name}: over HTTP {} {}, in process {status}",
            there.status, there.body
        );
        let (here, there) = (timeless(here), timeless(there.json()));
        assert_eq!(here, there, "{name}: in process and over HTTP");
        answers.insert(name.to_string(), json!({"status": status, "body": here}));
    }
    // Every operation with an HTTP twin has a case.
    for op in Operation::ALL.into_iter().filter(|op| op.operation_id().is_some()) {
        assert!(operations_seen.contains(op.name()), "no case of {}", op.name());
    }
    let kept = fixtures().join("answers.json");
    let answers = Value::Object(answers);
    if std::env::var_os("LEAPFROG_WRITE_FIXTURES").is_some() {
        std::fs::write(&kept, serde_json::to_string_pretty(&answers).unwrap() + "\n").unwrap();
    }
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(&kept).unwrap()).unwrap();
    assert_eq!(answers, kept, "the answers changed: if on purpose, LEAPFROG_WRITE_FIXTURES=1 writes them");
}

#[test]
fn perft_in_process_reproduces_every_vector_of_the_rules_crate() {
    let text = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("crates/jump-capture/tests/data/perft.txt"),
    )
    .unwrap();
    let mut counted = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let request = perft_request(line);
        if request["count"].as_u64().unwrap() > 2_000_000 {
            continue; // the rules crate counts those; here the binding is checked
        }
        let answer = local::call("perft", request["body"].to_string().as_bytes()).unwrap();
        let answer: Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(answer["nodes"], request["count"], "{line}");
        counted += 1;
    }
    assert!(counted >= 40, "{counted} vectors counted");
}

/// A line of `perft.txt` (`preset directions depth count board ply
/// scores`) as a perft request, with its count.
fn perft_request(line: &str) -> Value {
    let f: Vec<&str> = line.split(' ').collect();
    let scores: Vec<i64> = f[6].split(',').map(|s| s.parse().unwrap()).collect();
    json!({
        "count": f[3].parse::<u64>().unwrap(),
        "body": {
            "rules": {"preset": f[0], "directions": f[1]},
            "position": {"board": f[4], "ply": f[5].parse::<u64>().unwrap(), "scores": scores},
            "depth": f[2].parse::<u32>().unwrap()
        }
    })
}
