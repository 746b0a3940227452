//! A throwaway PostgreSQL cluster for the tests that need one.
//!
//! `LEAPFROG_TEST_PG_URL` names a server to use instead. Otherwise the
//! first caller starts a cluster in the temporary directory (`initdb`,
//! `pg_ctl`; as the `postgres` user when running as root) on a free port,
//! and a watcher process stops and deletes it when the test binary exits.
//! Without PostgreSQL the tests say SKIPPED and pass, except under
//! `CI=true`, where they fail.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

fn bindir() -> Option<PathBuf> {
    let from_config = Command::new("pg_config")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let candidates = from_config.into_iter().chain(
        std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().join("bin")),
    );
    candidates.into_iter().find(|d| d.join("initdb").exists() && d.join("pg_ctl").exists())
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs a PostgreSQL tool, as `postgres` when we are root.
fn pg_command(bin: &std::path::Path, tool: &str) -> Command {
    let path = bin.join(tool);
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(path);
        c
    } else {
        Command::new(path)
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or(55432)
}

fn start_cluster() -> Result<String, String> {
    let bin = bindir().ok_or("PostgreSQL's initdb and pg_ctl were not found")?;
    let dir = std::env::temp_dir().join(format!("leapfrog-pg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    if is_root() {
        let ok = Command::new("chown").args(["-R", "postgres:postgres"]).arg(&dir).status();
        if !ok.is_ok_and(|s| s.success()) {
            return Err("cannot hand the data directory to the postgres user".into());
        }
    }
    let data = dir.join("data");
    let out = pg_command(&bin, "initdb")
        .args(["-A", "trust", "-U", "postgres", "-D"])
        .arg(&data)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("initdb failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let port = free_port();
    let opts = format!(
        "-c listen_addresses=127.0.0.1 -p {port} -k {} -c fsync=off -c max_connections=200",
        dir.display()
    );
    let out = pg_command(&bin, "pg_ctl")
        .args(["-D"])
        .arg(&data)
        .args(["-o", &opts, "-l"])
        .arg(dir.join("log"))
        .args(["-w", "start"])
        .stdout(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!("pg_ctl start failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    // Stop and delete the cluster once this test binary has exited.
    let pg_ctl = bin.join("pg_ctl");
    let stop = if is_root() {
        format!("runuser -u postgres -- {} -D {} stop -m immediate", pg_ctl.display(), data.display())
    } else {
        format!("{} -D {} stop -m immediate", pg_ctl.display(), data.display())
    };
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {stop} >/dev/null 2>&1; rm -rf {dir}",
        pid = std::process::id(),
        dir = dir.display()
    );
    Command::new("sh")
        .args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    Ok(format!("postgres://postgres@127.0.0.1:{port}"))
}

fn server() -> Option<&'static str> {
    static SERVER: OnceLock<Result<String, String>> = OnceLock::new();
    let got = SERVER.get_or_init(|| match std::env::var("LEAPFROG_TEST_PG_URL") {
        Ok(url) => Ok(url.trim_end_matches('/').to_string()),
        Err(_) => start_cluster(),
    });
    match got {
        Ok(url) => Some(url.as_str()),
        Err(why) => {
            assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true: PostgreSQL is required: {why}");
            eprintln!("SKIPPED (no PostgreSQL: {why})");
            None
        }
    }
}

/// A fresh, empty database on the test server, or `None` (after saying
/// SKIPPED) where there is no PostgreSQL.
pub fn fresh_database() -> Option<String> {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let base = server()?;
    let name = format!("t{}_{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    let (host_port, _) =
        base.trim_start_matches("postgres://").split_once('@').map_or(("", ""), |(_, r)| (r, ""));
    let (host, port) = host_port.split_once(':').unwrap_or((host_port, "5432"));
    let port = port.split('/').next().unwrap_or("5432");
    let out = Command::new("psql")
        .args(["-h", host, "-p", port, "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c"])
        .arg(format!("CREATE DATABASE {name}"))
        .output()
        .expect("psql runs");
    assert!(out.status.success(), "CREATE DATABASE failed: {}", String::from_utf8_lossy(&out.stderr));
    Some(format!("postgres://postgres@{host}:{port}/{name}"))
}
