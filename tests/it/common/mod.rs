//! Helpers for the end-to-end tests: the real app on a random port, and a
//! small HTTP/1.1 client that can send anything (bad JSON, odd methods,
//! huge bodies) and read streams.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use leapfrog::server::config::ServeConfig;
use leapfrog::server::startup::Application;

/// A server running in the background for one test. Clones share it; when
/// the last is dropped (the test ended, passed or failed), the server stops
/// and its database files are removed.
#[derive(Clone)]
pub struct TestApp {
    /// `http://127.0.0.1:PORT`.
    pub address: String,
    pub port: u16,
    /// What to stop and remove at the end; none for a server this helper
    /// did not start in this process.
    running: Option<std::sync::Arc<Running>>,
}

impl TestApp {
    /// A client of a server on `port` that something else runs.
    pub fn at(port: u16) -> TestApp {
        TestApp { address: format!("http://127.0.0.1:{port}"), port, running: None }
    }
}

/// An in-process server and its files, stopped and removed when dropped.
struct Running {
    handle: actix_web::dev::ServerHandle,
    /// Told when the server has stopped and closed its database.
    stopped: std::sync::Mutex<std::sync::mpsc::Receiver<()>>,
    files: TempFiles,
}

impl Drop for Running {
    fn drop(&mut self) {
        // The stop is sent at once; the files go once the server has closed
        // them (else its last writes would make them again).
        drop(self.handle.stop(false));
        if let Ok(stopped) = self.stopped.lock() {
            let _ = stopped.recv_timeout(Duration::from_secs(15));
        }
    }
}

/// SQLite files a test made in the temporary folder (the database, its WAL
/// and shared memory), removed when dropped.
pub struct TempFiles(Option<std::path::PathBuf>);

impl TempFiles {
    /// The files of `url`, if it is an SQLite file in the temporary folder.
    pub fn of_url(url: &str) -> TempFiles {
        let path = url.strip_prefix("sqlite://").map(std::path::PathBuf::from);
        TempFiles(path.filter(|p| p.starts_with(std::env::temp_dir())))
    }
}

impl Drop for TempFiles {
    fn drop(&mut self) {
        if let Some(db) = &self.0 {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
        }
    }
}

/// Starts the app on a free port in its own thread and runtime.
pub fn spawn_app() -> TestApp {
    spawn_with(ServeConfig::for_tests())
}

/// Starts the app with the rate limits and the cap on games off.
pub fn spawn_unlimited() -> TestApp {
    let mut config = ServeConfig::for_tests();
    config.limits.no_rate_limits = true;
    spawn_with(config)
}

/// Starts the app with the given settings (the bind address is replaced by
/// a free loopback port).
pub fn spawn_with(mut config: ServeConfig) -> TestApp {
    config.bind = "127.0.0.1:0".into();
    let files = TempFiles::of_url(&config.database.url);
    let (tx, rx) = std::sync::mpsc::channel();
    let (done, stopped) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let app = Application::build(config).await.expect("the test server starts");
            tx.send((app.port(), app.handle())).expect("the test waits for the port");
            let _ = app.run_until_handle_stops().await;
        });
        let _ = done.send(());
    });
    let (port, handle) = rx.recv_timeout(Duration::from_secs(10)).expect("the server starts");
    let running =
        Some(std::sync::Arc::new(Running { handle, stopped: std::sync::Mutex::new(stopped), files }));
    TestApp { address: format!("http://127.0.0.1:{port}"), port, running }
}

/// An HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    /// The first header of this name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

impl TestApp {
    /// A game and its history as served: equal snapshots mean nothing
    /// changed.
    pub fn game_snapshot(&self, id: &str) -> (String, String) {
        (self.get(&format!("/v1/games/{id}")).body, self.get(&format!("/v1/games/{id}/moves")).body)
    }

    /// Sends one request and reads the whole response.
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Response {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.port,
            body.len()
        );
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        secrets::note_request(body);
        stream.write_all(head.as_bytes()).expect("write head");
        // The server may answer (413) before reading a huge body.
        let _ = stream.write_all(body);
        read_response(stream)
    }

    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, &[], b"")
    }

    pub fn post_json(&self, path: &str, body: &serde_json::Value) -> Response {
        self.request("POST", path, &[("Content-Type", "application/json")], body.to_string().as_bytes())
    }

    pub fn post_raw(&self, path: &str, body: &[u8]) -> Response {
        self.request("POST", path, &[("Content-Type", "application/json")], body)
    }
}

fn read_response(stream: TcpStream) -> Response {
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line).expect("status line");
    let status = status_line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status code");
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("header line");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let chunked =
        headers.iter().any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            if reader.read_line(&mut size).unwrap_or(0) == 0 {
                break;
            }
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 {
                break;
            }
            let mut chunk = vec![0; n + 2];
            reader.read_exact(&mut chunk).expect("chunk");
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        let _ = reader.read_to_end(&mut body);
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    secrets::note_answer(&body);
    let response = Response { status, headers, body };
    limit_is_named(&response);
    response
}

/// Every 429 or 503 problem any test meets names its limit in the body and
/// says when to retry (programs are users too).
fn limit_is_named(r: &Response) {
    let problem = r.header("content-type").is_some_and(|t| t.starts_with("application/problem+json"));
    if !matches!(r.status, 429 | 503) || !problem {
        return;
    }
    let limit = serde_json::from_str::<serde_json::Value>(&r.body)
        .ok()
        .and_then(|p| p["limit"].as_str().map(str::to_string));
    assert!(limit.is_some_and(|l| !l.is_empty()), "a {} without its limit: {}", r.status, r.body);
    let wait = r.header("retry-after").and_then(|w| w.parse::<u64>().ok());
    assert!(wait.is_some_and(|w| w >= 1), "a {} without Retry-After: {}", r.status, r.body);
}

/// A fresh SQLite file name in the temporary directory.
pub fn temp_db() -> std::path::PathBuf {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("leapfrog-e2e-{}-{n}.db", std::process::id()))
}

/// The `leapfrog` binary of this build, built first if needed.
pub fn leapfrog_binary() -> std::path::PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    // tests run from target/<profile>/deps/
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe.parent().and_then(|d| d.parent()).expect("target/<profile>");
    let bin = dir.join(format!("leapfrog{}", std::env::consts::EXE_SUFFIX));
    BUILT.call_once(|| {
        let profile = if dir.ends_with("release") { vec!["--release"] } else { vec![] };
        let status = std::process::Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "leapfrog", "--bin", "leapfrog"])
            .args(profile)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building leapfrog failed");
    });
    bin
}

/// A `leapfrog serve` process on a free port.
pub struct ServerProcess {
    pub child: std::process::Child,
    pub app: TestApp,
    /// Every line it has logged so far.
    pub logs: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// The database it was given by this helper, removed at the end.
    _files: TempFiles,
}

impl ServerProcess {
    /// Starts `leapfrog serve` with extra arguments and waits until it
    /// listens (it logs its port).
    pub fn start(extra: &[&str], env: &[(&str, &str)]) -> ServerProcess {
        ServerProcess::start_under(&[], extra, env)
    }

    /// Starts `leapfrog serve` as [`ServerProcess::start`] does, run by
    /// `wrapper` (a command and its arguments, such as `prlimit …`).
    pub fn start_under(wrapper: &[&str], extra: &[&str], env: &[(&str, &str)]) -> ServerProcess {
        let db = format!("sqlite://{}", temp_db().display());
        let has_db = extra.contains(&"--database-url");
        let binary = leapfrog_binary();
        let mut command = match wrapper.split_first() {
            Some((program, args)) => {
                let mut c = std::process::Command::new(program);
                c.args(args).arg(&binary);
                c
            }
            None => std::process::Command::new(&binary),
        };
        let bind: &[&str] = if extra.contains(&"--bind") { &[] } else { &["--bind", "127.0.0.1:0"] };
        let mut child = command
            .arg("serve")
            .args(bind)
            .args(if has_db { vec![] } else { vec!["--database-url", db.as_str()] })
            .args(extra)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .envs(env.iter().copied())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("leapfrog serve starts");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = std::sync::mpsc::channel();
        let logs = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = logs.clone();
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(line.clone());
                // `port=8080` in text logs, `"port":8080` in JSON ones.
                let port = line
                    .split("port=")
                    .nth(1)
                    .or_else(|| line.split("\"port\":").nth(1))
                    .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next());
                if let (false, Some(Ok(port))) = (sent, port.map(str::parse::<u16>)) {
                    let _ = tx.send(port);
                    sent = true;
                }
            }
        });
        let files = TempFiles::of_url(if has_db { "" } else { &db });
        let port = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(port) => port,
            Err(e) => {
                // No server is left running (and its database goes with `files`).
                let _ = child.kill();
                let _ = child.wait();
                panic!("the server logs its port: {e}");
            }
        };
        ServerProcess { child, app: TestApp::at(port), logs, _files: files }
    }

    /// Sends a signal by name (`TERM`, `INT`, `KILL`).
    pub fn signal(&self, name: &str) {
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }

    /// Waits for the process to end, up to `secs`.
    pub fn wait(&mut self, secs: u64) -> Option<std::process::ExitStatus> {
        let deadline = std::time::Instant::now() + Duration::from_secs(secs);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let logs = self.logs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            secrets::assert_none_in(&logs);
        }
        // A wrapper's children first (a server under strace outlives it).
        let pid = self.child.id();
        if let Ok(children) = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")) {
            for child in children.split_whitespace().filter(|c| c.parse::<u32>().is_ok_and(|c| c > 1)) {
                let _ = std::process::Command::new("kill").args(["-KILL", child]).status();
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub mod pg;
pub mod secrets;

/// A fresh directory in the temporary folder, removed when dropped — also
/// when the test fails.
pub struct TempDir(pub std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh `leapfrog-{name}-{pid}` directory in the temporary folder.
pub fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("leapfrog-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    TempDir(dir)
}

/// One server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub event: String,
    pub id: Option<String>,
    pub data: String,
}

/// Decodes an HTTP/1.1 chunked body as it arrives.
struct Chunked {
    inner: BufReader<TcpStream>,
    left: usize,
    done: bool,
}

impl Read for Chunked {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.done {
            return Ok(0);
        }
        if self.left == 0 {
            let mut line = String::new();
            if self.inner.read_line(&mut line)? == 0 {
                self.done = true;
                return Ok(0);
            }
            if line.trim().is_empty() {
                // The CRLF that ends the previous chunk.
                line.clear();
                self.inner.read_line(&mut line)?;
            }
            self.left = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
            if self.left == 0 {
                self.done = true;
                return Ok(0);
            }
        }
        let want = buf.len().min(self.left);
        let n = self.inner.read(&mut buf[..want])?;
        self.left -= n;
        Ok(n)
    }
}

/// A server-sent event stream being read.
pub struct EventStream {
    reader: BufReader<Chunked>,
    /// Comments read so far (the server's heartbeats).
    pub comments: usize,
    /// The last `retry:` field read (milliseconds to wait to reconnect).
    pub retry: Option<u64>,
}

impl EventStream {
    /// Opens `path` as an event stream, optionally resuming after
    /// `last_event_id`.
    pub fn open(app: &TestApp, path: &str, last_event_id: Option<&str>) -> EventStream {
        let header = last_event_id.map(|id| format!("Last-Event-ID: {id}\r\n"));
        EventStream::open_with(app, path, header.as_deref().unwrap_or(""))
    }

    /// Opens `path` as an event stream for `client` (sent as
    /// `X-Forwarded-For`).
    pub fn open_as(app: &TestApp, path: &str, client: &str) -> EventStream {
        EventStream::open_with(app, path, &format!("X-Forwarded-For: {client}\r\n"))
    }

    /// Opens `path` as an event stream with these extra header lines
    /// (each ending in `\r\n`).
    pub fn open_with(app: &TestApp, path: &str, headers: &str) -> EventStream {
        let mut stream = TcpStream::connect(("127.0.0.1", app.port)).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(20))).expect("timeout");
        let mut head = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n");
        head.push_str(headers);
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).expect("write");
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).expect("status line");
        assert!(line.contains(" 200 "), "event stream answered {line}");
        loop {
            line.clear();
            reader.read_line(&mut line).expect("header");
            if line.trim().is_empty() {
                break;
            }
            let lower = line.to_ascii_lowercase();
            assert!(!lower.starts_with("content-length"), "an event stream has no length");
        }
        EventStream {
            reader: BufReader::new(Chunked { inner: reader, left: 0, done: false }),
            comments: 0,
            retry: None,
        }
    }

    /// The next event (comments skipped), or `None` at the end or after the
    /// read timeout.
    pub fn next(&mut self) -> Option<Event> {
        let mut ev = Event { event: "message".into(), id: None, data: String::new() };
        let mut any = false;
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if any {
                    return Some(ev);
                }
                continue;
            }
            if line.starts_with(':') {
                self.comments += 1;
                continue;
            }
            let (field, value) = line.split_once(':').map_or((line, ""), |(f, v)| (f, v.trim_start()));
            match field {
                "event" => ev.event = value.to_string(),
                "id" => ev.id = Some(value.to_string()),
                // As EventSource does, a block without data is no event.
                "data" => {
                    any = true;
                    ev.data.push_str(value);
                }
                "retry" => self.retry = value.parse().ok(),
                _ => {}
            }
        }
    }
}

pub fn available(program: &str, arg: &str) -> bool {
    std::process::Command::new(program).arg(arg).output().is_ok_and(|o| o.status.success())
}

/// Whether the tools are here; if not, says so (and fails under CI).
pub fn tools_present(test: &str, tools: &[(&str, &str)], install: &str) -> bool {
    let missing: Vec<&str> = tools.iter().filter(|(p, a)| !available(p, a)).map(|(p, _)| *p).collect();
    if missing.is_empty() {
        return true;
    }
    assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true: {missing:?} required ({install})");
    eprintln!("SKIPPED {test}: {} not installed ({install})", missing.join(", "));
    false
}

/// Runs a command, failing the test with its output unless it succeeds.
pub fn run(what: &str, command: &mut std::process::Command) -> std::process::Output {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Installs the npm packages of `dir` from its lock file, once per test
/// run and finished before any test uses them: tests that need one folder
/// wait for the one install (an existing `node_modules` may be another
/// test's install half-way). An install that finished before this run
/// (npm writes `node_modules/.package-lock.json` last) is kept.
pub fn npm_installed(dir: &std::path::Path) {
    static INSTALLED: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut installed = INSTALLED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if installed.iter().any(|d| d == dir) {
        return;
    }
    if !dir.join("node_modules/.package-lock.json").exists() {
        run(
            &format!("npm ci in {}", dir.display()),
            std::process::Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(dir),
        );
    }
    installed.push(dir.to_path_buf());
}

/// The machine, shared by the tests that run at once: a test that loads
/// it on purpose (CPU hogs, floods) holds it alone, and a test whose
/// timing it would upset (a stop's drain, the password share, the fleet)
/// holds it with the others of its kind, never beside a load.
static MACHINE: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// Held by a test that loads the machine on purpose.
pub fn loading_the_machine() -> std::sync::RwLockWriteGuard<'static, ()> {
    MACHINE.write().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Held by a test whose timing a deliberate load would upset.
pub fn timing_sensitive() -> std::sync::RwLockReadGuard<'static, ()> {
    MACHINE.read().unwrap_or_else(std::sync::PoisonError::into_inner)
}
