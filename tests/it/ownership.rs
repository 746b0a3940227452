//! Ownership on every path (rule book §13): every operation of the
//! committed spec that takes an account's name or an id in its path, or
//! acts for an account, is called with another account's token — with the
//! owner's name in the path, and with the caller's own name but the
//! owner's ids — and with a body made from its request schema. Each
//! operation that needs a token answers 401, 403 or 404; whatever any
//! answers, the owner's rows (its export, its webhook's deliveries, which
//! record every event of its account's log, its game, its challenges)
//! are the same after the sweep. The operations come from
//! `openapi/openapi.json`: a new one is swept without anyone listing it.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::accounts::{as_token, players, with};
use crate::common::{TestApp, spawn_with};

/// Operations whose answer streams without end when allowed: checked
/// for their refusal with a token, never opened as public streams.
const STREAMS: [&str; 2] = ["followGame", "followAccount"];

/// What the sweep needs of the owner, Ann.
struct Owner {
    token: String,
    token_id: String,
    webhook: String,
    game: String,
    /// A challenge Ann sent to Carol, and one Carol sent to Ann.
    challenges: [String; 2],
}

fn spec() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A receiver answering 204 to everything, on a loopback port.
fn receiver() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        use std::io::{BufRead, BufReader, Read, Write};
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let (mut line, mut length) = (String::new(), 0usize);
            let _ = reader.read_line(&mut line);
            loop {
                line.clear();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let _ = reader.read_exact(&mut vec![0; length]);
            let _ =
                write!(stream, "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    url
}

fn set_up(app: &TestApp) -> (Owner, String) {
    let tokens = players(app, &["Ann", "Bob", "Carol"]);
    let (ann, bob, carol) = (&tokens[0], &tokens[1], &tokens[2]);
    let url = receiver();
    let hook = as_token(app, "POST", "/v1/accounts/Ann/webhooks", ann, &json!({"url": url}));
    assert_eq!(hook.status, 201, "{}", hook.body);
    // Bob has a webhook of his own, so that his requests meet a table with rows of both.
    let his = as_token(app, "POST", "/v1/accounts/Bob/webhooks", bob, &json!({"url": url}));
    assert_eq!(his.status, 201, "{}", his.body);
    let game = long_game_of(app, ann, carol);
    let challenge = |from: &str, to: &str| {
        let terms = json!({"to": to, "rules": {"preset": "old", "rows": 6, "cols": 6}});
        let r = as_token(app, "POST", "/v1/challenges", from, &terms);
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()["id"].as_str().unwrap().to_string()
    };
    let challenges = [challenge(ann, "Carol"), challenge(carol, "Ann")];
    let listed = with(app, "GET", "/v1/tokens", ann).json();
    let token_id = listed["tokens"][0]["id"].as_str().unwrap().to_string();
    let owner = Owner {
        token: ann.clone(),
        token_id,
        webhook: hook.json()["id"].as_str().unwrap().to_string(),
        game,
        challenges,
    };
    (owner, bob.clone())
}

/// Ann's long game with Carol, two plies in.
fn long_game_of(app: &TestApp, ann: &str, carol: &str) -> String {
    let id = crate::vacation::long_game_with(app, ann, ("Carol", carol));
    crate::accounts::play_plies(app, &id, &[ann.to_string(), carol.to_string()], 2);
    id
}

/// Everything of Ann's the sweep must leave as it was.
fn snapshot(app: &TestApp, owner: &Owner) -> Value {
    // Deliveries settle (pending → delivered) first: their status is not what is compared.
    let path = format!("/v1/accounts/Ann/webhooks/{}/deliveries?limit=100", owner.webhook);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let deliveries = loop {
        let list = with(app, "GET", &path, &owner.token).json();
        let rows = list["deliveries"].as_array().cloned().unwrap_or_default();
        if rows.iter().all(|d| d["status"] != "pending") || std::time::Instant::now() > deadline {
            break rows.iter().map(|d| json!([d["id"], d["kind"]])).collect::<Vec<_>>();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let export = with(app, "GET", "/v1/accounts/Ann/export", &owner.token).json();
    let game = app.get(&format!("/v1/games/{}", owner.game)).json();
    let lines = with(app, "GET", &format!("/v1/games/{}/conditional-moves", owner.game), &owner.token);
    json!({
        "export": export,
        "deliveries": deliveries,
        "game": [game["version"], game["status"], game["position"]],
        "lines": [lines.status, lines.json()],
        "challenges": owner.challenges.iter().map(|c| app.get(&format!("/v1/challenges/{c}")).json()).collect::<Vec<_>>(),
    })
}

/// A value for a required property of `schema` (resolved in `spec`):
/// Ann's ids where an id is asked for, the smallest the schema allows
/// otherwise.
fn value(spec: &Value, schema: &Value, name: &str, owner: &Owner) -> Value {
    let schema = resolve(spec, schema);
    if let Some(first) = schema.get("enum").and_then(|e| e.get(0)) {
        return first.clone();
    }
    if let Some(example) = schema.get("example") {
        return example.clone();
    }
    if let Some(variants) = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array) {
        return value(spec, &variants[0], name, owner);
    }
    let kind = schema.get("type").map(|t| if t.is_array() { t[0].clone() } else { t.clone() });
    match kind.as_ref().and_then(Value::as_str) {
        Some("integer" | "number") => schema.get("minimum").cloned().unwrap_or(json!(1)),
        Some("boolean") => json!(false),
        Some("array") => json!([]),
        Some("object") => body(spec, &schema, owner),
        _ => match name {
            "game" => json!(owner.game),
            "webhook" => json!(owner.webhook),
            "challenge" => json!(owner.challenges[0]),
            "to" | "name" | "account" => json!("Ann"),
            _ => json!(owner.game),
        },
    }
}

/// An object of `schema` with its required properties.
fn body(spec: &Value, schema: &Value, owner: &Owner) -> Value {
    let schema = resolve(spec, schema);
    let mut out = Map::new();
    let required: BTreeSet<&str> =
        schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    if let Some(props) = schema["properties"].as_object() {
        for (k, v) in props {
            if required.contains(k.as_str()) {
                out.insert(k.clone(), value(spec, v, k, owner));
            }
        }
    }
    Value::Object(out)
}

fn resolve(spec: &Value, schema: &Value) -> Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.trim_start_matches("#/components/schemas/");
            resolve(spec, &spec["components"]["schemas"][name])
        }
        None => schema.clone(),
    }
}

/// The paths to call for `template`: with Ann's name and ids, and (where
/// the path has an id beside the name) with the caller's name and Ann's ids.
fn paths(template: &str, owner: &Owner) -> Vec<String> {
    let ids: Vec<&str> = if template.starts_with("/v1/accounts/{name}/webhooks/{id}") {
        vec![&owner.webhook]
    } else if template.starts_with("/v1/challenges/{id}") {
        owner.challenges.iter().map(String::as_str).collect()
    } else if template.starts_with("/v1/tokens/{id}") {
        vec![&owner.token_id]
    } else {
        vec![&owner.game]
    };
    let fill = |name: &str, id: &str| {
        template
            .replace("{name}", name)
            .replace("{id}", id)
            .replace("{ply}", "1")
            .replace("{preset}", "old")
            .replace("{directions}", "orthogonal")
    };
    let mut out = BTreeSet::new();
    for id in ids {
        out.insert(fill("Ann", id));
        if template.contains("{name}") && template.contains("{id}") {
            out.insert(fill("Bob", id));
        }
    }
    out.into_iter().collect()
}

#[test]
fn no_operation_lets_one_account_read_change_or_delete_anothers_rows() {
    sweep(None);
}

#[test]
fn no_operation_lets_one_account_read_change_or_delete_anothers_rows_on_postgres() {
    let Some(url) = crate::common::pg::fresh_database() else { return };
    sweep(Some(url));
}

/// The sweep, on SQLite or on the PostgreSQL database at `url`.
fn sweep(url: Option<String>) {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.limits.no_rate_limits = true;
    config.webhook_allow_private = true;
    if let Some(url) = url {
        config.database.url = url;
    }
    let app = spawn_with(config);
    let (owner, bob) = set_up(&app);
    let before = snapshot(&app, &owner);
    let spec = spec();
    let mut swept = 0;
    for (template, ops) in spec["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            let secured = op.get("security").and_then(Value::as_array).is_some_and(|s| !s.is_empty());
            let id = op["operationId"].as_str().unwrap();
            // Swept: what takes a name or an id, or acts for an account; a public stream is not opened.
            let swept_here = if secured { true } else { template.contains('{') && !STREAMS.contains(&id) };
            if !swept_here {
                continue;
            }
            let schema = &op["requestBody"]["content"]["application/json"]["schema"];
            let sent = if schema.is_null() { json!({}) } else { body(&spec, schema, &owner) };
            let targets =
                if template.contains('{') { paths(template, &owner) } else { vec![template.clone()] };
            for path in targets {
                let r = as_token(&app, &method.to_uppercase(), &path, &bob, &sent);
                swept += 1;
                // Those without a name or id in the path act on the caller's own rows.
                if secured && template.contains('{') {
                    assert!(
                        [401, 403, 404].contains(&r.status),
                        "{id}: {method} {path} with another account's token answered {}: {}",
                        r.status,
                        r.body
                    );
                }
            }
        }
    }
    assert!(swept >= 30, "only {swept} requests swept: is the spec read?");
    let after = snapshot(&app, &owner);
    assert_eq!(after, before, "Ann's rows changed under another account's requests");
}
