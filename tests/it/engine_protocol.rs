//! The engine protocol (JCP) as programs use it: `leapfrog engine`
//! processes playing whole games through `leapfrog arena`, a program that
//! breaks the protocol forfeiting, and `leapfrog bot` playing a challenge
//! with an external engine.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::accounts::{PASSWORD, as_token, secret, token};
use crate::bots::BotProcess;
use crate::common::{leapfrog_binary, spawn_app};

/// `cmd:` for `leapfrog engine` with these arguments.
fn engine(args: &str) -> String {
    format!("cmd:{} engine {args}", leapfrog_binary().display())
}

fn arena(players: &[&str], more: &[&str]) -> (bool, String, String) {
    let out = Command::new(leapfrog_binary())
        .args(["arena", "--preset", "konane", "--size", "6", "--seed", "3", "--players"])
        .args(players)
        .args(more)
        .output()
        .expect("leapfrog arena runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// The tally's row of entrant `n` (from 1), split into words.
fn row(tally: &str, n: usize) -> Vec<String> {
    let line =
        tally.lines().skip(2).find(|l| l.starts_with(&format!("{n} "))).unwrap_or_else(|| panic!("{tally}"));
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn two_engine_processes_play_whole_games_through_the_arena() {
    let (ok, tally, err) =
        arena(&[&engine("--seed 1"), &engine("--seed 2")], &["--games", "2", "--movetime", "100"]);
    assert!(ok, "{err}");
    assert!(tally.starts_with("2 games of konane 6×6"), "{tally}");
    let (a, b) = (row(&tally, 1), row(&tally, 2));
    // Every game played to its end: the wins add up to the games, and
    // no one forfeited.
    let wins = |r: &[String]| r[r.len() - 5].parse::<f64>().unwrap();
    assert_eq!(wins(&a) + wins(&b), 2.0, "{tally}");
    assert_eq!(
        (a.last().map(String::as_str), b.last().map(String::as_str)),
        (Some("0"), Some("0")),
        "{tally}"
    );
}

#[test]
fn a_program_that_breaks_the_protocol_forfeits_its_games() {
    // It says what the handshake wants, then answers a move that is not one.
    let liar = "cmd:sh -c 'while read l; do case $l in jcp) echo jcpok;; isready) echo readyok;; go*) echo bestmove a1xa9;; esac; done'";
    let (ok, tally, err) = arena(&[liar, "greedy"], &["--games", "2"]);
    assert!(ok, "{err}");
    assert_eq!(row(&tally, 1).last().map(String::as_str), Some("2"), "{tally}");
    assert_eq!(row(&tally, 2)[row(&tally, 2).len() - 5], "2.0", "{tally}");
    // One that ends at once.
    let (ok, tally, err) = arena(&["cmd:true", "greedy"], &["--games", "1"]);
    assert!(ok && err.contains("the program ended"), "{err}");
    assert_eq!(row(&tally, 1).last().map(String::as_str), Some("1"), "{tally}");
    // A player that is neither a level nor a command is refused by name.
    let (ok, _, err) = arena(&["grandmaster", "greedy"], &[]);
    assert!(!ok && err.contains("or cmd:COMMAND"), "{err}");
}

#[test]
fn the_engine_answers_a_stop_at_once_and_keeps_reading_while_it_thinks() {
    let mut child = Command::new(leapfrog_binary())
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("leapfrog engine runs");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap()).lines();
    // Two holes: a few moves, so the exact search comes first, and it too
    // must hear the stop.
    let start = "position WYRWYRWY/YRWYRWYR/RWY1WYRW/WYRWYRWY/YRWYRWYR/RWYRW1RW/WYRWYRWY/YRWYRWYR 2 1,1";
    writeln!(input, "jcp\nrules murray\n{start}\ngo infinite\nisready").unwrap();
    let mut next = || output.next().expect("a line").expect("text");
    while next() != "jcpok" {}
    assert_eq!(next(), "readyok", "isready is answered while it thinks");
    let asked = Instant::now();
    writeln!(input, "stop").unwrap();
    let mut line = next();
    while line.starts_with("info") {
        line = next();
    }
    assert!(line.starts_with("bestmove ") && line != "bestmove none", "{line}");
    assert!(asked.elapsed() < Duration::from_secs(5), "stop took {:?}", asked.elapsed());
    writeln!(input, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_bot_plays_a_challenge_with_an_external_engine() {
    let app = spawn_app();
    let bot = |name: &str| {
        let r = app.post_json("/v1/accounts", &json!({"name": name, "password": PASSWORD, "bot": true}));
        assert_eq!(r.status, 201, "{}", r.body);
        secret(&token(&app, name, PASSWORD, &["play", "account"]))
    };
    let (outside, greedy) = (bot("Outside"), bot("Greedy"));
    let external =
        BotProcess::start_with(&app, "Outside", &outside, &engine("--seed 5"), &["--movetime", "100"]);
    let deadline = Instant::now() + Duration::from_secs(30);
    while app.get("/v1/accounts/Outside").json()["accepts"].is_null() {
        assert!(Instant::now() < deadline, "the bot never published its profile");
        std::thread::sleep(Duration::from_millis(100));
    }
    let first = BotProcess::start(&app, "Greedy", &greedy, "greedy");
    let terms = json!({"to": "Outside", "rules": {"preset": "old", "rows": 6, "cols": 6}});
    let sent = as_token(&app, "POST", "/v1/challenges", &greedy, &terms);
    assert_eq!(sent.status, 201, "{}", sent.body);
    let id = sent.json()["id"].as_str().unwrap().to_string();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let g = app.get(&format!("/v1/games/{id}"));
        if g.status == 200 && g.json()["status"] == "over" {
            break;
        }
        assert!(Instant::now() < deadline, "the game did not finish: {}", g.body);
        std::thread::sleep(Duration::from_millis(200));
    }
    external.wait_for(" over:");
    let (said, _) = (external.stop(), first.stop());
    assert!(said.contains("playing at level cmd:") && said.contains("played "), "{said}");
    assert!(said.contains("over:") && said.contains("stopped: 1 games"), "{said}");
}
