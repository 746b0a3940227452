//! Webhooks (rule book §16): a receiver in the test gets each event of an
//! account's stream it asked for, signed as Standard Webhooks says
//! (verified by the `standardwebhooks` crate, not by the server's code),
//! once per id however often it failed, after a crash, and from a fleet;
//! private addresses are refused unless the server allows them.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::accounts::{as_token, person, play_plies, with};
use crate::common::{EventStream, ServerProcess, TempFiles, TestApp, pg, temp_db};
use crate::vacation::long_game;

/// One request the receiver got.
#[derive(Debug, Clone)]
struct Got {
    headers: BTreeMap<String, String>,
    body: String,
    /// The status it answered.
    answered: u16,
}

impl Got {
    fn id(&self) -> &str {
        &self.headers["webhook-id"]
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap()
    }

    /// Whether `secret` verifies it, by the Standard Webhooks crate.
    fn verifies(&self, secret: &str) -> bool {
        let mut headers = http::HeaderMap::new();
        for (k, v) in &self.headers {
            headers.insert(http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
        }
        standardwebhooks::Webhook::new(secret).unwrap().verify(self.body.as_bytes(), &headers).is_ok()
    }
}

/// An HTTP receiver on a loopback port, answering the n-th request (from
/// 0) with `answer(n)`.
#[derive(Clone)]
struct Receiver {
    url: String,
    got: Arc<Mutex<Vec<Got>>>,
}

impl Receiver {
    fn start(answer: impl Fn(usize) -> u16 + Send + 'static) -> Receiver {
        Receiver::on(TcpListener::bind("127.0.0.1:0").unwrap(), answer)
    }

    fn on(listener: TcpListener, answer: impl Fn(usize) -> u16 + Send + 'static) -> Receiver {
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let got = Arc::new(Mutex::new(Vec::new()));
        let kept = got.clone();
        std::thread::spawn(move || {
            for (n, stream) in listener.incoming().enumerate() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut headers = BTreeMap::new();
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                loop {
                    line.clear();
                    if reader.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                        break;
                    }
                    let (k, v) = line.split_once(':').unwrap();
                    headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
                }
                let length: usize = headers.get("content-length").map_or(0, |l| l.parse().unwrap());
                let mut body = vec![0; length];
                reader.read_exact(&mut body).unwrap();
                let status = answer(n);
                kept.lock().unwrap().push(Got {
                    headers,
                    body: String::from_utf8(body).unwrap(),
                    answered: status,
                });
                let _ =
                    write!(stream, "HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            }
        });
        Receiver { url, got }
    }

    fn got(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }

    /// Waits until `done` holds of what it got (at most 30 s).
    fn until(&self, what: &str, done: impl Fn(&[Got]) -> bool) -> Vec<Got> {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let got = self.got();
            if done(&got) {
                return got;
            }
            assert!(Instant::now() < deadline, "no {what} after 30 s; got {got:#?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn register(app: &TestApp, name: &str, tok: &str, url: &str, events: &[&str]) -> Value {
    let r = as_token(
        app,
        "POST",
        &format!("/v1/accounts/{name}/webhooks"),
        tok,
        &json!({"url": url, "events": events}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    r.json()
}

fn ann_and_bob(app: &TestApp) -> (String, String) {
    (person(app, "Ann"), person(app, "Bob"))
}

#[test]
fn a_receiver_gets_every_your_turn_signed_and_a_rotation_signs_with_both_secrets() {
    let server = ServerProcess::start(&["--webhook-allow-private"], &[]);
    let app = &server.app;
    let (ann, bob) = ann_and_bob(app);
    let receiver = Receiver::start(|_| 204);
    let hook = register(app, "Ann", &ann, &receiver.url, &["your_turn"]);
    let first_secret = hook["secret"].as_str().unwrap().to_string();
    assert!(first_secret.starts_with("whsec_"));
    let id = long_game(app, &ann, &bob);
    play_plies(app, &id, &[ann.clone(), bob.clone()], 6);
    // Ann moved at plies 0, 2 and 4: her turns began at 0 (the start), 2, 4 and 6.
    let got = receiver.until("four of Ann's turns", |g| g.len() >= 4);
    // Tries run side by side: no order is promised; each names its ply.
    let mut plies: Vec<u64> = got.iter().map(|g| g.json()["data"]["ply"].as_u64().unwrap()).collect();
    plies.sort_unstable();
    assert_eq!(plies, [0, 2, 4, 6], "{got:#?}");
    for g in &got {
        assert!(g.verifies(&first_secret), "{g:#?}");
        assert_eq!(g.json()["type"], "your_turn");
        assert_eq!(g.json()["data"]["game"], json!(id));
        assert!(g.json()["data"]["deadline"].is_string(), "a long game's turn has its deadline");
    }
    let ids: std::collections::BTreeSet<&str> = got.iter().map(Got::id).collect();
    assert_eq!(ids.len(), 4, "each event its own id");
    // Rotated: both secrets sign for a day; a test event shows it.
    let w = hook["id"].as_str().unwrap();
    let rotated = as_token(app, "POST", &format!("/v1/accounts/Ann/webhooks/{w}/rotate"), &ann, &json!({}));
    assert_eq!(rotated.status, 200, "{}", rotated.body);
    let second_secret = rotated.json()["secret"].as_str().unwrap().to_string();
    assert_ne!(second_secret, first_secret);
    let test = as_token(app, "POST", &format!("/v1/accounts/Ann/webhooks/{w}/test"), &ann, &json!({}));
    assert_eq!(test.status, 202, "{}", test.body);
    let got = receiver.until("the test event", |g| g.len() == 5);
    let last = &got[4];
    assert_eq!(
        (last.id(), last.json()["type"].as_str()),
        (test.json()["id"].as_str().unwrap(), Some("webhook_test"))
    );
    assert_eq!(last.headers["webhook-signature"].split(' ').count(), 2, "{last:#?}");
    assert!(last.verifies(&first_secret) && last.verifies(&second_secret));
    assert!(!last.verifies("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), "a wrong secret does not verify");
    // The list shows the deliveries; never a secret.
    let listed = with(app, "GET", "/v1/accounts/Ann/webhooks", &ann).json();
    assert_eq!(listed["webhooks"][0]["events"], json!(["your_turn"]));
    assert!(!listed.to_string().contains("whsec_"), "{listed}");
    // The receiver keeps a request before it answers: the server marks it
    // delivered only once the answer is read, a moment later.
    let deadline = Instant::now() + Duration::from_secs(30);
    let page = loop {
        let page =
            with(app, "GET", &format!("/v1/accounts/Ann/webhooks/{w}/deliveries?limit=3"), &ann).json();
        if page["deliveries"][0]["status"] != "pending" || Instant::now() > deadline {
            break page;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(page["deliveries"].as_array().unwrap().len(), 3, "{page}");
    assert_eq!(page["deliveries"][0]["status"], "delivered");
    assert_eq!(page["deliveries"][0]["tries"], 1);
    let cursor = page["next_cursor"].as_str().unwrap();
    let rest =
        with(app, "GET", &format!("/v1/accounts/Ann/webhooks/{w}/deliveries?cursor={cursor}"), &ann).json();
    assert_eq!(rest["deliveries"].as_array().unwrap().len(), 2, "{rest}");
    // Someone else's token sees none of it; deleting stops it.
    assert_eq!(with(app, "GET", "/v1/accounts/Ann/webhooks", &bob).status, 403);
    assert_eq!(with(app, "DELETE", &format!("/v1/accounts/Ann/webhooks/{w}"), &ann).status, 204);
    assert_eq!(with(app, "DELETE", &format!("/v1/accounts/Ann/webhooks/{w}"), &ann).status, 404);
    play_plies(app, &id, &[ann, bob], 2);
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(receiver.got().len(), 5, "nothing is sent to a deleted endpoint");
}

/// A receiver failing three times then answering 200 gets each event once
/// with one id: the tries follow the schedule (the sender is given the
/// time: 5 s, then 5 min, then 30 min later).
#[test]
fn a_receiver_that_fails_three_times_gets_the_event_once_with_one_id() {
    let db = format!("sqlite://{}", temp_db().display());
    let _files = TempFiles::of_url(&db);
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = db.clone();
    config.webhook_allow_private = true;
    let app = crate::common::spawn_with(config);
    let (ann, bob) = ann_and_bob(&app);
    let receiver = Receiver::start(|n| if n < 3 { 500 } else { 200 });
    let hook = register(&app, "Bob", &bob, &receiver.url, &["game_started"]);
    long_game(&app, &ann, &bob);
    receiver.until("the first try", |g| g.len() == 1);
    let w = hook["id"].as_str().unwrap();
    let recorded = Instant::now() + Duration::from_secs(10);
    let listed = loop {
        let listed = with(&app, "GET", &format!("/v1/accounts/Bob/webhooks/{w}/deliveries"), &bob).json();
        if listed["deliveries"][0]["tries"] == 1 || Instant::now() > recorded {
            break listed;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let d = &listed["deliveries"][0];
    assert_eq!(
        (d["status"].as_str(), d["tries"].as_i64(), d["last_status"].as_i64()),
        (Some("pending"), Some(1), Some(500)),
        "{d}"
    );
    assert!(d["next_try_at"].is_string());
    let start = leapfrog::process::now_ms();
    let tried = actix_web::rt::System::new().block_on(async {
        let store = leapfrog::store::Store::open(&db, leapfrog::store::Durability::Full).await.unwrap();
        let limits = leapfrog::events::StreamLimits { total: 10, per_game: 10, per_client: 0 };
        let hub = leapfrog::events::Hub::new(store.clone(), limits);
        let reach = leapfrog::webhooks::sender::Reach { allow_private: true };
        let outbox = leapfrog::webhooks::outbox::Outbox::new(store, hub, reach);
        let mut tried = vec![];
        // Too early for the next try, then each wait of the schedule passed.
        for at in [start + 1_000, start + 6_000, start + 6_000 + 301_000, start + 6_000 + 301_000 + 1_801_000]
        {
            let mut n = 0;
            for h in outbox.as_ref().unwrap().send_due(at).await.unwrap() {
                h.await.unwrap();
                n += 1;
            }
            tried.push(n);
        }
        tried
    });
    assert_eq!(tried, [0, 1, 1, 1], "one try at each step of the schedule, none early");
    let got = receiver.got();
    let answers: Vec<u16> = got.iter().map(|g| g.answered).collect();
    assert_eq!(answers, [500, 500, 500, 200]);
    assert!(got.iter().all(|g| g.id() == got[0].id()), "every try of one event carries one id");
    assert!(got.iter().all(|g| g.body == got[0].body), "and the same body");
    let listed = with(&app, "GET", &format!("/v1/accounts/Bob/webhooks/{w}/deliveries"), &bob).json();
    let d = &listed["deliveries"][0];
    assert_eq!(
        (d["status"].as_str(), d["tries"].as_i64(), d["next_try_at"].as_str()),
        (Some("delivered"), Some(4), None),
        "{d}"
    );
}

/// A receiver answering 410 switches its endpoint off: the account's
/// stream says so, and nothing more is sent to it.
#[test]
fn a_410_switches_the_endpoint_off_and_the_accounts_stream_says_so() {
    let server = ServerProcess::start(&["--webhook-allow-private"], &[]);
    let app = &server.app;
    let (ann, bob) = ann_and_bob(app);
    let receiver = Receiver::start(|_| 410);
    // A receiver's token in the query string stays out of logs and events.
    let url = format!("{}?token=SECRET-IN-QUERY", receiver.url);
    let hook = register(app, "Ann", &ann, &url, &[]);
    let mut stream =
        EventStream::open_with(app, "/v1/accounts/Ann/events", &format!("Authorization: Bearer {ann}\r\n"));
    let id = long_game(app, &ann, &bob);
    receiver.until("one try", |g| !g.is_empty());
    let off = std::iter::from_fn(|| stream.next())
        .find(|e| e.event == "webhook_disabled")
        .expect("the stream says so");
    let data: Value = serde_json::from_str(&off.data).unwrap();
    assert_eq!((data["webhook"].clone(), data["reason"].as_str()), (hook["id"].clone(), Some("gone")));
    assert_eq!(data["url"], format!("{}?redacted", receiver.url), "{data}");
    // Tries already under way when the 410 came may still arrive; after it, nothing.
    std::thread::sleep(Duration::from_secs(1));
    let before = receiver.got().len();
    play_plies(app, &id, &[ann.clone(), bob], 2);
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(receiver.got().len(), before, "nothing more is sent to it");
    // Nor a test: it is refused, and nothing is queued.
    let test =
        with(app, "POST", &format!("/v1/accounts/Ann/webhooks/{}/test", hook["id"].as_str().unwrap()), &ann);
    assert_eq!((test.status, test.json()["field"].as_str()), (422, Some("webhook")), "{}", test.body);
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(receiver.got().len(), before, "a test goes nowhere once it is off");
    let logs = server.logs.lock().unwrap().join("\n");
    assert!(logs.contains("hook?redacted"), "the failed try is logged, its URL redacted");
    assert!(!logs.contains("SECRET-IN-QUERY"), "a URL's query string is never logged");
    let listed = with(app, "GET", "/v1/accounts/Ann/webhooks", &ann).json();
    assert_eq!(
        (listed["webhooks"][0]["enabled"].as_bool(), listed["webhooks"][0]["disabled"].as_str()),
        (Some(false), Some("gone"))
    );
}

/// Deliveries pending when the server is killed are sent after it
/// restarts, from the outbox on disk.
#[test]
fn a_killed_servers_pending_deliveries_are_sent_after_restart() {
    let db = format!("sqlite://{}", temp_db().display());
    let _files = TempFiles::of_url(&db);
    let args = ["--webhook-allow-private", "--database-url", &db];
    let mut server = ServerProcess::start(&args, &[]);
    let (ann, bob) = ann_and_bob(&server.app);
    // A port nobody listens on yet: the first try fails.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    let url = format!("http://{address}/hook");
    register(&server.app, "Bob", &bob, &url, &["game_started"]);
    long_game(&server.app, &ann, &bob);
    let tried = Instant::now() + Duration::from_secs(10);
    loop {
        let page = with(&server.app, "GET", "/v1/accounts/Bob/webhooks", &bob).json();
        let w = page["webhooks"][0]["id"].as_str().unwrap().to_string();
        let d = with(&server.app, "GET", &format!("/v1/accounts/Bob/webhooks/{w}/deliveries"), &bob).json();
        if d["deliveries"][0]["tries"] == 1 {
            assert!(d["deliveries"][0]["last_error"].is_string(), "{d}");
            break;
        }
        assert!(Instant::now() < tried, "no first try: {d}");
        std::thread::sleep(Duration::from_millis(100));
    }
    server.signal("KILL");
    server.wait(10);
    let receiver = Receiver::on(TcpListener::bind(address).unwrap(), |_| 200);
    let again = ServerProcess::start(&args, &[]);
    let got = receiver.until("the pending delivery, after the restart", |g| !g.is_empty());
    assert_eq!(got[0].json()["type"], "game_started");
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(receiver.got().len(), 1, "sent once");
    drop(again);
}

/// Two processes on one PostgreSQL database: each delivery is sent by
/// one of them, once.
#[test]
fn two_processes_on_postgres_deliver_each_event_once() {
    let Some(url) = pg::fresh_database() else { return };
    let a = ServerProcess::start(&["--database-url", &url, "--webhook-allow-private"], &[]);
    let b = ServerProcess::start(&["--database-url", &url, "--webhook-allow-private"], &[]);
    let (ann, bob) = ann_and_bob(&a.app);
    let receiver = Receiver::start(|_| 200);
    let hook = register(&b.app, "Ann", &ann, &receiver.url, &[]);
    let secret = hook["secret"].as_str().unwrap().to_string();
    for _ in 0..3 {
        let id = long_game(&a.app, &ann, &bob);
        play_plies(&b.app, &id, &[ann.clone(), bob.clone()], 4);
        assert_eq!(as_token(&a.app, "POST", &format!("/v1/games/{id}/resign"), &ann, &json!({})).status, 200);
    }
    // Per game: challenge, game_started, your_turn ×3 (plies 0, 2, 4), game_over.
    let got = receiver.until("every event", |g| g.len() >= 18);
    std::thread::sleep(Duration::from_secs(2));
    let got_all = receiver.got();
    assert_eq!(got_all.len(), got.len(), "nothing more came");
    let mut ids: Vec<&str> = got_all.iter().map(Got::id).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), got_all.len(), "each event once: {got_all:#?}");
    assert_eq!(got_all.len(), 18, "{got_all:#?}");
    assert!(got_all.iter().all(|g| g.verifies(&secret)));
}

#[test]
fn an_endpoint_on_a_private_address_is_refused_unless_the_server_allows_it() {
    let app = crate::common::spawn_app();
    let ann = person(&app, "Ann");
    for (url, says) in [
        ("http://93.184.215.14/hook", "only https://"),
        ("https://127.0.0.1:9/hook", "127.0.0.1 is not a globally reachable"),
        ("https://[::1]/hook", "::1 is not a globally reachable"),
        ("https://10.0.0.7/hook", "10.0.0.7 is not a globally reachable"),
        ("https://169.254.169.254/latest/meta-data", "169.254.169.254 is not a globally reachable"),
        ("https://localhost:8443/", "is not a globally reachable"),
        // IPv6 spellings of IPv4 addresses, and special-purpose blocks, that once slipped through.
        ("https://[::127.0.0.1]/", "is not a globally reachable"),
        ("https://[::7f00:1]/", "is not a globally reachable"),
        ("https://[::ffff:0:7f00:1]/", "is not a globally reachable"),
        ("https://[2002:7f00:1::]/", "is not a globally reachable"),
        ("https://[2002:a9fe:a9fe::]/", "is not a globally reachable"),
        ("https://192.0.0.8/", "is not a globally reachable"),
        ("https://192.88.99.1/", "is not a globally reachable"),
        ("https://[100::1]/", "is not a globally reachable"),
        ("https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "is not a globally reachable"),
        // Secrets and line breaks have no place in a URL.
        ("https://user:PASS@93.184.215.14/hook", "user name or password"),
        ("https://93.184.215.14/ho\r\nok", "U+000D"),
        ("not-a-url", "does not read"),
    ] {
        let r = as_token(&app, "POST", "/v1/accounts/Ann/webhooks", &ann, &json!({"url": url}));
        assert_eq!((r.status, r.json()["field"].as_str()), (422, Some("url")), "{url}: {}", r.body);
        assert!(r.json()["detail"].as_str().unwrap().contains(says), "{url}: {}", r.body);
    }
    let odd = as_token(
        &app,
        "POST",
        "/v1/accounts/Ann/webhooks",
        &ann,
        &json!({"url": "https://93.184.215.14/", "events": ["moves"]}),
    );
    assert_eq!((odd.status, odd.json()["field"].as_str()), (422, Some("events")), "{}", odd.body);
    assert_eq!(with(&app, "GET", "/v1/accounts/Ann/webhooks", &ann).json()["webhooks"], json!([]));
    // Allowed: five, then the cap.
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.webhook_allow_private = true;
    let open = crate::common::spawn_with(config);
    let ann = person(&open, "Ann");
    for n in 0..5 {
        register(&open, "Ann", &ann, &format!("http://127.0.0.1:9/{n}"), &[]);
    }
    let sixth =
        as_token(&open, "POST", "/v1/accounts/Ann/webhooks", &ann, &json!({"url": "http://127.0.0.1:9/6"}));
    assert_eq!((sixth.status, sixth.json()["field"].as_str()), (422, Some("webhooks")), "{}", sixth.body);
}

/// A receiver that holds every request 30 s before it answers (a thread a
/// connection, as a slow or hostile endpoint would).
fn slow_receiver() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/slow", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(30));
                drop(stream);
            });
        }
    });
    url
}

/// 40 test deliveries to an endpoint that answers after 30 s: another
/// account's deliveries to a fast endpoint stay under a second (p99)
/// while they hang — tries are tasks, not threads, and an endpoint has at
/// most 4 in flight.
#[test]
fn one_slow_endpoint_delays_no_other_accounts_deliveries() {
    let _quiet = crate::common::timing_sensitive();
    let server = ServerProcess::start(&["--webhook-allow-private", "--create-rate", "100/10"], &[]);
    let app = &server.app;
    let (ann, bob) = ann_and_bob(app);
    let mallory = person(app, "Mallory");
    let slow = register(app, "Mallory", &mallory, &slow_receiver(), &[]);
    let test = format!("/v1/accounts/Mallory/webhooks/{}/test", slow["id"].as_str().unwrap());
    for _ in 0..40 {
        assert_eq!(with(app, "POST", &test, &mallory).status, 202);
    }
    let fast = Receiver::start(|_| 204);
    register(app, "Ann", &ann, &fast.url, &["your_turn"]);
    let tokens = [ann.clone(), bob.clone()];
    let mut game = long_game(app, &ann, &bob);
    let mut latencies = vec![];
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(12) {
        let g = app.get(&format!("/v1/games/{game}")).json();
        if g["status"] == "over" {
            game = long_game(app, &ann, &bob);
            continue;
        }
        let bobs = g["position"]["to_move"] == 1;
        let seen = fast.got().len();
        let sent = Instant::now();
        play_plies(app, &game, &tokens, 1);
        if bobs {
            // Bob's move gives Ann her turn: its delivery is timed.
            fast.until("Ann's your_turn", |got| got.len() > seen);
            latencies.push(sent.elapsed());
        }
    }
    latencies.sort();
    assert!(latencies.len() >= 10, "only {} deliveries timed", latencies.len());
    let p99 = latencies[(latencies.len() * 99).div_ceil(100) - 1];
    assert!(p99 < Duration::from_secs(1), "p99 {p99:?} of {} deliveries: {latencies:?}", latencies.len());
}

/// A player's endpoint taking the tournaments' events gets its event's
/// start and its pairing, signed, as any other event (rule book §16, §17).
#[test]
fn a_receiver_gets_a_tournaments_start_and_pairing() {
    let server = ServerProcess::start(&["--webhook-allow-private"], &[]);
    let app = &server.app;
    let (ann, bob) = ann_and_bob(app);
    let receiver = Receiver::start(|_| 204);
    let hook = register(app, "Bob", &bob, &receiver.url, &["tournament_started", "tournament_paired"]);
    let terms = json!({"name": "Hooked", "format": "round_robin", "rules": {"preset": "old", "rows": 6, "cols": 6},
        "move_time_limit": 60});
    let made = as_token(app, "POST", "/v1/tournaments", &ann, &terms);
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    for t in [&ann, &bob] {
        assert_eq!(as_token(app, "POST", &format!("/v1/tournaments/{id}/join"), t, &json!({})).status, 200);
    }
    assert_eq!(as_token(app, "POST", &format!("/v1/tournaments/{id}/start"), &ann, &json!({})).status, 200);
    let got = receiver.until("the start and the pairing", |g| g.len() >= 2);
    let mut kinds: Vec<String> = got.iter().map(|g| g.json()["type"].as_str().unwrap().to_string()).collect();
    kinds.sort();
    assert_eq!(kinds, ["tournament_paired", "tournament_started"]);
    let secret = hook["secret"].as_str().unwrap();
    for g in &got {
        assert!(g.verifies(secret), "{g:#?}");
        assert_eq!(g.json()["data"]["tournament"], json!(id));
    }
    let paired = got.iter().find(|g| g.json()["type"] == "tournament_paired").unwrap().json();
    assert_eq!(
        (paired["data"]["opponent"].as_str(), paired["data"]["round"].as_u64()),
        (Some("Ann"), Some(1))
    );
}
