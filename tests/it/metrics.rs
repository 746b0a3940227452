//! `/metrics`: Prometheus's text format, labels by route template, the
//! names `promtool` accepts, a separate address, and a real Prometheus
//! scraping it.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{ServerProcess, TestApp, spawn_unlimited, tools_present};
use crate::games::{create, play_first};

/// The value of the sample named exactly `series` (name and labels).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok())
}

#[test]
fn metrics_count_requests_by_route_template_moves_games_and_refusals() {
    let app = spawn_unlimited();
    let game = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 3);
    for _ in 0..3 {
        assert_eq!(play_first(&app, &game).unwrap().status, 201);
    }
    assert_eq!(app.get("/v1/games/no-such-game").status, 404);
    assert_eq!(app.post_raw("/v1/setups", &vec![b' '; 2 << 20]).status, 413);

    let r = app.get("/metrics");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/plain; version=0.0.4; charset=utf-8"));
    let text = r.body;
    let moves = r#"leapfrog_http_requests_total{method="POST",route="/v1/games/{id}/moves",status="201"}"#;
    assert!(sample(&text, moves).is_some_and(|n| n >= 3.0), "{text}");
    let missing = r#"leapfrog_http_requests_total{method="GET",route="/v1/games/{id}",status="404"}"#;
    assert!(sample(&text, missing).is_some_and(|n| n >= 1.0), "{text}");
    // Labels name routes, never paths: no game id appears.
    assert!(!text.contains(&game.id) && !text.contains("no-such-game"), "{text}");
    let bucket = r#"leapfrog_http_request_duration_seconds_bucket{method="POST",route="/v1/games/{id}/moves",le="+Inf"}"#;
    assert!(sample(&text, bucket).is_some_and(|n| n >= 3.0), "{text}");
    assert!(sample(&text, r#"leapfrog_moves_total{by="person"}"#).is_some_and(|n| n >= 3.0), "{text}");
    assert!(sample(&text, r#"leapfrog_games{status="playing"}"#).is_some_and(|n| n >= 1.0), "{text}");
    assert!(
        sample(&text, r#"leapfrog_refusals_total{limit="body_size"}"#).is_some_and(|n| n >= 1.0),
        "{text}"
    );
    assert!(sample(&text, "leapfrog_db_connections_max").is_some_and(|n| n >= 1.0), "{text}");
    assert!(sample(&text, r#"leapfrog_db_connections{state="idle"}"#).is_some(), "{text}");
    assert!(sample(&text, "leapfrog_event_streams_open").is_some(), "{text}");
    assert!(text.contains("leapfrog_db_acquire_seconds_bucket"), "{text}");
    assert!(text.contains("# TYPE leapfrog_moves_total counter"), "{text}");
}

#[test]
fn the_computer_and_the_thinking_pools_are_measured() {
    let app = spawn_unlimited();
    let body = json!({"rules": {"preset": "old", "rows": 4, "cols": 4},
                      "players": [{"name": "A"}, {"computer": "easy"}]});
    let r = app.post_json("/v1/games", &body);
    assert_eq!(r.status, 201, "{}", r.body);
    let game = crate::games::GameRef {
        id: r.json()["id"].as_str().unwrap().to_string(),
        tokens: vec![r.json()["seats"][0]["token"].as_str().unwrap().to_string()],
    };
    assert_eq!(play_first(&app, &game).unwrap().status, 201);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let text = app.get("/metrics").body;
        let answered = sample(&text, r#"leapfrog_moves_total{by="computer"}"#).is_some_and(|n| n >= 1.0);
        if answered {
            assert!(text.contains("leapfrog_computer_move_seconds_bucket"), "{text}");
            assert!(text.contains(r#"leapfrog_thinking_wait_seconds_bucket{pool="play""#), "{text}");
            assert!(text.contains(r#"leapfrog_thinking_queued{pool="play"}"#), "{text}");
            break;
        }
        assert!(Instant::now() < deadline, "the computer never moved: {text}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A port free now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[test]
fn with_a_metrics_address_metrics_are_served_there_alone_and_pass_promtool() {
    let metrics_port = free_port();
    let bind = format!("127.0.0.1:{metrics_port}");
    let server = ServerProcess::start(&["--metrics-bind", &bind], &[]);
    assert_eq!(server.app.get("/healthz").status, 200);
    let metrics = TestApp::at(metrics_port);
    let r = metrics.get("/metrics");
    assert_eq!(r.status, 200);
    assert!(r.body.contains(r#"route="/healthz""#), "{}", r.body);
    // The API's address does not show them; the metrics address nothing else.
    assert_eq!(server.app.get("/metrics").status, 404);
    assert_eq!(metrics.get("/healthz").status, 404);
    assert_eq!(metrics.get("/v1/presets").status, 404);

    if !tools_present("promtool check metrics", &[("promtool", "--version")], "apt-get install prometheus") {
        return;
    }
    let mut check = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut check.stdin.take().unwrap(), r.body.as_bytes()).unwrap();
    let out = check.wait_with_output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && said.trim().is_empty(), "promtool: {said}\n{}", r.body);
}

/// A Prometheus server scraping `target` every second, its data in a
/// temporary folder removed with it.
struct Prometheus {
    child: std::process::Child,
    dir: std::path::PathBuf,
    api: TestApp,
}

impl Prometheus {
    fn start(target: u16) -> Prometheus {
        let dir = std::env::temp_dir().join(format!("leapfrog-prometheus-{}", uuid_like()));
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("prometheus.yml");
        std::fs::write(
            &config,
            format!(
                "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: leapfrog\n    \
                 static_configs:\n      - targets: ['127.0.0.1:{target}']\n"
            ),
        )
        .unwrap();
        let port = free_port();
        let child = std::process::Command::new("prometheus")
            .arg(format!("--config.file={}", config.display()))
            .arg(format!("--storage.tsdb.path={}", dir.join("data").display()))
            .arg(format!("--web.listen-address=127.0.0.1:{port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("prometheus starts");
        Prometheus { child, dir, api: TestApp::at(port) }
    }

    /// The value of an instant query's first result, if any.
    fn query(&self, query: &str) -> Option<f64> {
        let path = format!(
            "/api/v1/query?query={}",
            query.replace('{', "%7B").replace('}', "%7D").replace('"', "%22")
        );
        let r = std::panic::catch_unwind(|| self.api.get(&path)).ok()?;
        let v: serde_json::Value = serde_json::from_str(&r.body).ok()?;
        v["data"]["result"][0]["value"][1].as_str()?.parse().ok()
    }
}

impl Drop for Prometheus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn uuid_like() -> String {
    format!("{}-{:x}", std::process::id(), rand::random::<u64>())
}

#[test]
fn a_real_prometheus_scrapes_the_server_and_sees_moves_counted() {
    if !tools_present("prometheus scrape", &[("prometheus", "--version")], "apt-get install prometheus") {
        return;
    }
    let server = ServerProcess::start(&["--no-rate-limits"], &[]);
    let app = server.app.clone();
    let prometheus = Prometheus::start(app.port);
    let game = create(&app, json!({"preset": "old", "rows": 4, "cols": 4}), 2, 5);
    for _ in 0..4 {
        assert_eq!(play_first(&app, &game).unwrap().status, 201);
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let moves = prometheus.query(r#"leapfrog_moves_total{by="person"}"#);
        if moves == Some(4.0) {
            break;
        }
        assert!(Instant::now() < deadline, "Prometheus never saw the 4 moves (last: {moves:?})");
        std::thread::sleep(Duration::from_millis(250));
    }
    let up = prometheus.query(r#"up{job="leapfrog"}"#);
    assert_eq!(up, Some(1.0));
    let rate = prometheus.query(r#"sum(leapfrog_http_requests_total{route="/v1/games/{id}/moves"})"#);
    assert_eq!(rate, Some(4.0));
}
