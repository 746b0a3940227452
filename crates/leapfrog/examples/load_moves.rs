//! Load generator for `POST /v1/games/{id}/moves`: many games played in
//! parallel, one keep-alive connection and one thread per game, each move
//! chosen at random by the rules crate (which mirrors the server's
//! position). Prints moves per second and latency percentiles.
//!
//! Run a server first, then:
//! `cargo run --release -p leapfrog --example load_moves -- http://127.0.0.1:8080 [GAMES] [SECONDS]`
//! (`tests/load/moves.sh` does both, on SQLite and on PostgreSQL).
//!
//! Players as people would be (`tests/load/soak.sh`): `LOAD_PACE_MS=N`
//! waits N ms between a game's moves, and `LOAD_FORWARDED=1` sends each
//! game as its own client (`X-Forwarded-For: 10.77.x.y`, for a server that
//! trusts this machine as a proxy).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use jump_capture::{Position, Preset};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    reader: BufReader<TcpStream>,
    host: String,
    /// Extra header lines.
    extra: String,
}

impl Conn {
    fn open(host: &str) -> std::io::Result<Conn> {
        let stream = TcpStream::connect(host)?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(Conn { reader: BufReader::new(stream), host: host.to_string(), extra: String::new() })
    }

    fn post(&mut self, path: &str, token: Option<&str>, body: &str) -> std::io::Result<(u16, String)> {
        let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n{auth}{}Content-Length: {}\r\n\r\n{body}",
            self.host,
            self.extra,
            body.len()
        );
        self.reader.get_mut().write_all(req.as_bytes())?;
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        let mut length = 0;
        let mut close = false;
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            if line.trim().is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().unwrap_or(0);
            }
            if let Some((k, v)) = line.split_once(':')
                && k.eq_ignore_ascii_case("connection")
                && v.trim().eq_ignore_ascii_case("close")
            {
                close = true;
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        if close {
            // The server (nginx: after `keepalive_requests`) ends the connection: a new one.
            let extra = std::mem::take(&mut self.extra);
            *self = Conn::open(&self.host)?;
            self.extra = extra;
        }
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    }
}

fn field<'a>(json: &'a str, key: &str) -> Option<&'a str> {
    let start = json.find(&format!("\"{key}\":\""))? + key.len() + 4;
    json[start..].split('"').next()
}

/// A new game on the server and its local mirror.
fn new_game(conn: &mut Conn, seed: u64) -> Option<(String, Vec<String>, Position)> {
    let body = format!(
        r#"{{"rules":{{"preset":"murray"}},"players":[{{"name":"A"}},{{"name":"B"}}],"seed":{seed}}}"#
    );
    let (status, answer) = conn.post("/v1/games", None, &body).ok()?;
    if status != 201 {
        eprintln!("creating a game: {status} {answer}");
        return None;
    }
    let id = field(&answer, "id")?.to_string();
    let tokens: Vec<String> =
        answer.split("\"token\":\"").skip(1).filter_map(|s| s.split('"').next()).map(String::from).collect();
    let (pos, _) = Position::start(Preset::Murray.rules(), 2, Some(seed)).ok()?;
    Some((id, tokens, pos))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let url = args.get(1).cloned().unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(64);
    let seconds: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let host = url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let pace = std::env::var("LOAD_PACE_MS").ok().and_then(|s| s.parse().ok()).map(Duration::from_millis);
    let forwarded = std::env::var("LOAD_FORWARDED").is_ok_and(|v| v == "1");
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let workers: Vec<_> = (0..games)
        .map(|g| {
            let host = host.clone();
            std::thread::spawn(move || {
                let mut latencies = Vec::new();
                let mut refused = 0u64;
                let Ok(mut conn) = Conn::open(&host) else { return (latencies, refused) };
                if forwarded {
                    conn.extra = format!("X-Forwarded-For: 10.77.{}.{}\r\n", g / 256, g % 256);
                }
                let mut rng = ChaCha8Rng::seed_from_u64(g);
                let mut seed = g * 1_000_003;
                let Some(mut game) = new_game(&mut conn, seed) else { return (latencies, refused) };
                while Instant::now() < deadline {
                    let (id, tokens, pos) = &mut game;
                    let Some(mv) = pos.random_move_unbounded(&mut rng) else {
                        seed += 1;
                        match new_game(&mut conn, seed) {
                            Some(next) => game = next,
                            None => break,
                        }
                        continue;
                    };
                    let path: Vec<String> = mv.path().iter().map(|c| format!("\"{c}\"")).collect();
                    let body = format!("{{\"path\":[{}]}}", path.join(","));
                    if let Some(pace) = pace {
                        std::thread::sleep(pace);
                    }
                    let t = Instant::now();
                    match conn.post(&format!("/v1/games/{id}/moves"), Some(&tokens[pos.to_move()]), &body) {
                        Ok((201, _)) => {
                            latencies.push(t.elapsed());
                            let _ = pos.play(&mv);
                        }
                        Ok((status, answer)) => {
                            refused += 1;
                            eprintln!("move refused: {status} {answer}");
                            break;
                        }
                        Err(e) => {
                            refused += 1;
                            eprintln!("connection failed: {e}");
                            break;
                        }
                    }
                }
                (latencies, refused)
            })
        })
        .collect();
    let mut all = Vec::new();
    let mut refused = 0;
    for w in workers {
        if let Ok((l, r)) = w.join() {
            all.extend(l);
            refused += r;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.sort();
    let pct = |p: f64| {
        all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "{} moves in {elapsed:.1} s over {games} games: {:.0} moves/s; latency p50 {:.1} ms, p99 {:.1} ms; {refused} refused or failed",
        all.len(),
        all.len() as f64 / elapsed,
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
    );
}
