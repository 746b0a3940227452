//! Request logs an operator can search (`--log-format json`): one JSON
//! object a line, a line per request with its status, route template,
//! request id (a trusted proxy's, else a new one, echoed in `X-Request-Id`)
//! and the trace id of its `traceparent`.

use serde_json::Value;

use crate::common::ServerProcess;

const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

fn answered(server: &ServerProcess, request_id: &str) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let lines = server.logs.lock().unwrap().clone();
        let found = lines
            .iter()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v["message"] == "answered" && v["span"]["request_id"] == request_id);
        if let Some(line) = found {
            return line;
        }
        assert!(std::time::Instant::now() < deadline, "no line for {request_id}: {lines:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn json_logs_carry_each_requests_id_trace_and_route_and_take_a_trusted_proxys_id() {
    let mut server = ServerProcess::start(&["--log-format", "json", "--trust-proxy", "127.0.0.1"], &[]);
    let app = server.app.clone();
    let r = app.request(
        "GET",
        "/v1/games/00000000-0000-0000-0000-000000000000",
        &[("X-Request-Id", "edge-42.a"), ("traceparent", TRACEPARENT)],
        b"",
    );
    assert_eq!((r.status, r.header("x-request-id")), (404, Some("edge-42.a")));
    let line = answered(&server, "edge-42.a");
    assert_eq!(line["status"], 404);
    assert_eq!(line["span"]["http.route"], "/v1/games/{id}");
    assert_eq!(line["span"]["trace_id"], "4bf92f3577b34da6a3ce929d0e0e4736");
    // An id that could forge a log line is not taken: a new one is made.
    let r = app.request("GET", "/healthz", &[("X-Request-Id", "x\" injected")], b"");
    let made = r.header("x-request-id").unwrap().to_string();
    assert_eq!(made.len(), 36, "a UUID: {made}");
    assert_eq!(answered(&server, &made)["status"], 200);
    server.signal("TERM");
    server.wait(20);
    // Every line of the run is one JSON object.
    for line in server.logs.lock().unwrap().iter() {
        assert!(serde_json::from_str::<Value>(line).is_ok(), "not JSON: {line}");
    }
}

#[test]
fn an_untrusted_client_cannot_choose_its_request_id() {
    let server = ServerProcess::start(&[], &[]);
    let r = server.app.request("GET", "/healthz", &[("X-Request-Id", "chosen-by-me")], b"");
    assert_ne!(r.header("x-request-id"), Some("chosen-by-me"));
    assert_eq!(r.header("x-request-id").map(str::len), Some(36));
}

/// A client that puts a secret in a URL anyway (`?token=lfpat_…`): on
/// every route of the spec, with every method, the logged target keeps
/// the path and the API's own parameters but never the secret.
#[test]
fn a_secret_sent_in_the_query_of_any_route_is_never_logged() {
    let mut server = ServerProcess::start(&["--log-format", "json"], &[]);
    let app = server.app.clone();
    let password = "a long enough password";
    let made = app.post_json("/v1/accounts", &serde_json::json!({"name": "Quinn", "password": password}));
    assert_eq!(made.status, 201, "{}", made.body);
    let token = app.post_json(
        "/v1/tokens",
        &serde_json::json!({"name": "Quinn", "password": password, "label": "x", "scopes": ["account", "play"]}),
    );
    assert_eq!(token.status, 201, "{}", token.body);
    let secret = token.json()["token"].as_str().unwrap().to_string();
    let spec: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json")).unwrap(),
    )
    .unwrap();
    let mut sent = 0;
    for (path, operations) in spec["paths"].as_object().unwrap() {
        // The event stream never ends: its query is checked once, below.
        if path.ends_with("/events") {
            continue;
        }
        let concrete = path
            .replace("{id}", "00000000-0000-0000-0000-000000000000")
            .replace("{name}", "Quinn")
            .replace("{ply}", "0")
            .replace("{preset}", "old")
            .replace("{directions}", "orthogonal");
        for method in operations.as_object().unwrap().keys() {
            let target = format!("{concrete}?token={secret}&access_token={secret}&{secret}&limit=5");
            app.request(&method.to_uppercase(), &target, &[], b"");
            sent += 1;
        }
    }
    assert!(sent >= 30, "{sent} requests");
    let stream = app.request("GET", &format!("/v1/games/nope/events?token={secret}"), &[], b"");
    assert_eq!(stream.status, 404);
    server.signal("TERM");
    server.wait(20);
    let logs = server.logs.lock().unwrap().clone();
    let targets: Vec<&str> = logs.iter().filter(|l| l.contains("limit=5")).map(String::as_str).collect();
    assert!(targets.len() >= sent, "every request was logged with its target: {}", targets.len());
    assert!(targets.iter().all(|l| l.contains("token=***&access_token=***&***&limit=5")), "{targets:?}");
    assert!(logs.iter().all(|l| !l.contains(&secret)), "the secret is in the log");
}
