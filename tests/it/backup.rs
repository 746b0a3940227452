//! `leapfrog backup`: a consistent copy of a running SQLite database, made
//! while moves are being written, that holds every move answered before it
//! began, passes `PRAGMA integrity_check`, and serves as a database again.

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{ServerProcess, TempFiles, available, leapfrog_binary, temp_db};
use crate::games::{GameRef, create, play_first};

#[test]
fn a_backup_under_a_load_of_moves_holds_every_move_answered_before_it_began() {
    let db = temp_db();
    let url = format!("sqlite://{}", db.display());
    let _db_files = TempFiles::of_url(&url);
    let server = ServerProcess::start(&["--database-url", &url, "--no-rate-limits"], &[]);
    let games: Arc<Vec<GameRef>> = Arc::new(
        (0..6).map(|i| create(&server.app, json!({"preset": "old", "rows": 9, "cols": 9}), 2, i)).collect(),
    );
    // Moves answered, per game: (ply after it, when the answer came).
    let answered = Arc::new(Mutex::new(Vec::<(usize, u64, Instant)>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = (0..2)
        .map(|half| {
            let (app, games, answered, stop) =
                (server.app.clone(), games.clone(), answered.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    for (i, game) in games.iter().enumerate().filter(|(i, _)| i % 2 == half) {
                        if let Some(r) = play_first(&app, game).filter(|r| r.status == 201) {
                            let ply = r.json()["position"]["ply"].as_u64().unwrap();
                            answered.lock().unwrap().push((i, ply, Instant::now()));
                        }
                    }
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let copy = temp_db();
    let _copy_files = TempFiles::of_url(&format!("sqlite://{}", copy.display()));
    let began = Instant::now();
    let out = Command::new(leapfrog_binary())
        .args(["backup", "--database-url", &url, "--output", copy.to_str().unwrap()])
        .output()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::Relaxed);
    for p in players {
        p.join().unwrap();
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("integrity ok"), "{stdout}");
    let answered = answered.lock().unwrap().clone();
    assert!(answered.iter().any(|a| a.2 > began), "moves were still being written during the backup");
    if available("sqlite3", "--version") {
        let check = Command::new("sqlite3").arg(&copy).arg("PRAGMA integrity_check;").output().unwrap();
        assert_eq!(String::from_utf8_lossy(&check.stdout).trim(), "ok");
    } else {
        eprintln!("SKIPPED the second integrity check: sqlite3 not installed");
    }
    // A server on the copy has every move answered before the backup began.
    let copy_url = format!("sqlite://{}", copy.display());
    let restored = ServerProcess::start(&["--database-url", &copy_url], &[]);
    for (i, game) in games.iter().enumerate() {
        let before = answered.iter().filter(|a| a.0 == i && a.2 <= began).map(|a| a.1).max().unwrap_or(0);
        let g = restored.app.get(&format!("/v1/games/{}", game.id));
        assert_eq!(g.status, 200, "{}", g.body);
        let ply = g.json()["position"]["ply"].as_u64().unwrap();
        assert!(ply >= before, "game {i}: ply {ply} in the copy, {before} answered before the backup");
    }
}

#[test]
fn a_backup_refuses_an_existing_file_a_missing_database_and_postgres() {
    let db = temp_db();
    let url = format!("sqlite://{}", db.display());
    let _files = TempFiles::of_url(&url);
    let existing = std::env::temp_dir().join(format!("leapfrog-backup-exists-{}.db", std::process::id()));
    std::fs::write(&existing, b"keep me").unwrap();
    let run = |url: &str, output: &std::path::Path| {
        let out = Command::new(leapfrog_binary())
            .args(["backup", "--database-url", url, "--output", output.to_str().unwrap()])
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (code, err) = run(&url, &existing);
    assert_eq!(code, Some(2));
    assert!(err.contains("no database at"), "{err}");
    Command::new(leapfrog_binary()).args(["migrate", "--database-url", &url]).output().unwrap();
    let (code, err) = run(&url, &existing);
    assert!(code == Some(2) && err.contains("exists: a backup writes a new file"), "{err}");
    assert_eq!(std::fs::read(&existing).unwrap(), b"keep me");
    let _ = std::fs::remove_file(&existing);
    let (code, err) = run("postgres://leapfrog@localhost/leapfrog", &existing);
    assert!(code == Some(2) && err.contains("pg_dump"), "{err}");
}
