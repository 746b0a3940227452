//! `leapfrog bot` processes in events: a Swiss of eight and an arena of
//! six, played by themselves.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{all_games, terms};
use crate::accounts::{as_token, players};
use crate::common::{TestApp, spawn_unlimited};

/// The standings of `games` (the event's games list) computed here, by
/// the rule book's words: points (a win 1, a draw ½, a bye 1), then
/// Buchholz, Sonneborn–Berger, direct encounter among those still level,
/// wins. Each player's (name, points, [tiebreaks]) best first.
fn standings_by_hand(games: &[Value], names: &[&str]) -> Vec<(String, f64, [f64; 4])> {
    let score = |g: &Value, who: &str| -> Option<f64> {
        let (first, second) = (g["first"].as_str()?, g["second"].as_str());
        let result = g["result"].as_str()?;
        match (who == first, second == Some(who), result) {
            (true, _, _) if second.is_none() => Some(1.0),
            (true, _, "first") | (_, true, "second") => Some(1.0),
            (true, _, "draw") | (_, true, "draw") => Some(0.5),
            (true, _, _) | (_, true, _) => Some(0.0),
            _ => None,
        }
    };
    let points = |who: &str| games.iter().filter_map(|g| score(g, who)).sum::<f64>() + 0.0;
    let met = |who: &str| -> Vec<(String, f64)> {
        games
            .iter()
            .filter(|g| !g["second"].is_null() && !g["forfeit"].as_bool().unwrap_or(false))
            .filter_map(|g| {
                let s = score(g, who)?;
                let other = if g["first"] == who { g["second"].as_str()? } else { g["first"].as_str()? };
                Some((other.to_string(), s))
            })
            .collect()
    };
    let mut rows: Vec<(String, f64, [f64; 4])> = names
        .iter()
        .map(|&n| {
            let buchholz = met(n).iter().map(|(o, _)| points(o)).sum::<f64>() + 0.0;
            let sb = met(n).iter().map(|(o, s)| s * points(o)).sum::<f64>() + 0.0;
            let wins = met(n).iter().filter(|(_, s)| *s == 1.0).count() as f64;
            (n.to_string(), points(n), [buchholz, sb, 0.0, wins])
        })
        .collect();
    // Direct encounter among those level on points, Buchholz and SB.
    let level: Vec<(String, f64, f64, f64)> =
        rows.iter().map(|r| (r.0.clone(), r.1, r.2[0], r.2[1])).collect();
    for r in &mut rows {
        let group: Vec<&String> =
            level.iter().filter(|l| (l.1, l.2, l.3) == (r.1, r.2[0], r.2[1])).map(|l| &l.0).collect();
        // (An empty sum of floats is −0: add 0 to print it as the server does.)
        r.2[2] = met(&r.0).iter().filter(|(o, _)| group.contains(&o)).map(|(_, s)| s).sum::<f64>() + 0.0;
    }
    rows.sort_by(|a, b| {
        let key = |r: &(String, f64, [f64; 4])| [r.1, r.2[0], r.2[1], r.2[2], r.2[3]];
        key(b).partial_cmp(&key(a)).unwrap()
    });
    rows
}

/// Eight `leapfrog bot` processes on two levels play a 3-round Swiss to its
/// end by themselves; the standings are those computed here by hand.
#[test]
fn eight_bots_play_a_swiss_to_its_end_by_themselves() {
    let app = spawn_unlimited();
    let host = players(&app, &["Host"]);
    let names = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"];
    // Two levels: the first four easy, the others greedy.
    let (mut tokens, mut processes) = bots(&app, &names[..4], "easy");
    let (more, greedy) = bots(&app, &names[4..], "greedy");
    tokens.extend(more);
    processes.extend(greedy);
    let made = as_token(
        &app,
        "POST",
        "/v1/tournaments",
        &host[0],
        &terms(json!({"format": "swiss", "rounds": 3, "bots": true})),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    for t in &tokens {
        let r = as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), t, &json!({}));
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = as_token(&app, "POST", &format!("/v1/tournaments/{id}/start"), &host[0], &json!({}));
    assert_eq!(r.status, 200, "{}", r.body);
    let deadline = Instant::now() + Duration::from_secs(240);
    let over = loop {
        let t = app.get(&format!("/v1/tournaments/{id}")).json();
        if t["status"] == "over" {
            break t;
        }
        assert!(Instant::now() < deadline, "the bots did not finish: {t}");
        std::thread::sleep(Duration::from_millis(300));
    };
    let games = all_games(&app, &id);
    assert_eq!(games.len(), 12, "{games:?}");
    let by_hand = standings_by_hand(&games, &names);
    let served: Vec<(String, f64, [f64; 4])> = over["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let t: Vec<f64> =
                s["tiebreaks"].as_array().unwrap().iter().map(|t| t["value"].as_f64().unwrap()).collect();
            (s["name"].as_str().unwrap().to_string(), s["points"].as_f64().unwrap(), [t[0], t[1], t[2], t[3]])
        })
        .collect();
    // Equal keys may come in seed order: compare the lines as sets of
    // (name, values), and the order of the values.
    let key = |rows: &[(String, f64, [f64; 4])]| -> Vec<String> {
        let mut v: Vec<String> = rows.iter().map(|r| format!("{} {} {:?}", r.0, r.1, r.2)).collect();
        v.sort();
        v
    };
    assert_eq!(key(&served), key(&by_hand));
    let values = |rows: &[(String, f64, [f64; 4])]| -> Vec<String> {
        rows.iter().map(|r| format!("{} {:?}", r.1, r.2)).collect()
    };
    assert_eq!(values(&served), values(&by_hand));
    for b in processes {
        let out = b.stop();
        assert!(out.contains("tournament") && out.contains("over: place"), "{out}");
    }
}

/// Bot accounts `names`, each with its token, and a `leapfrog bot`
/// process for each at `level`, once each has published its profile.
fn bots(app: &TestApp, names: &[&str], level: &str) -> (Vec<String>, Vec<crate::bots::BotProcess>) {
    use crate::accounts::{PASSWORD, secret, token};
    let mut tokens = Vec::new();
    for n in names {
        let r = app.post_json("/v1/accounts", &json!({"name": n, "password": PASSWORD, "bot": true}));
        assert_eq!(r.status, 201, "{}", r.body);
        tokens.push(secret(&token(app, n, PASSWORD, &["play", "account"])));
    }
    let processes =
        names.iter().zip(&tokens).map(|(n, t)| crate::bots::BotProcess::start(app, n, t, level)).collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    for n in names {
        while app.get(&format!("/v1/accounts/{n}")).json()["accepts"].is_null() {
            assert!(Instant::now() < deadline, "{n} never published its profile");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    (tokens, processes)
}

/// An arena of a minute, six easy bots: they are paired again as their
/// games end, and the event ends on time with no game left running.
#[test]
fn an_arena_of_a_minute_with_six_bots_ends_on_time_with_no_game_left_running() {
    let app = spawn_unlimited();
    let host = players(&app, &["Host"]);
    let names = ["A1", "A2", "A3", "A4", "A5", "A6"];
    let (tokens, processes) = bots(&app, &names, "easy");
    let made = as_token(
        &app,
        "POST",
        "/v1/tournaments",
        &host[0],
        &terms(json!({"format": "arena", "duration_minutes": 1, "bots": true})),
    );
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.json()["id"].as_str().unwrap().to_string();
    for t in &tokens {
        assert_eq!(as_token(&app, "POST", &format!("/v1/tournaments/{id}/join"), t, &json!({})).status, 200);
    }
    assert_eq!(
        as_token(&app, "POST", &format!("/v1/tournaments/{id}/start"), &host[0], &json!({})).status,
        200
    );
    let deadline = Instant::now() + Duration::from_secs(120);
    let over = loop {
        let t = app.get(&format!("/v1/tournaments/{id}")).json();
        if t["status"] == "over" {
            break t;
        }
        assert!(Instant::now() < deadline, "the arena did not end: {t}");
        std::thread::sleep(Duration::from_millis(300));
    };
    let ms = |field: &str| leapfrog::wire::game::parse_rfc3339(over[field].as_str().unwrap()).unwrap();
    let (started, ended) = (ms("started_at"), ms("ended_at"));
    assert!((60_000..65_000).contains(&(ended - started)), "ended {} ms after it started", ended - started);
    let games = all_games(&app, &id);
    assert!(games.len() > 3, "paired again as games ended: {games:?}");
    for g in &games {
        let game = g["game"].as_str().unwrap();
        assert_eq!(app.get(&format!("/v1/games/{game}")).json()["status"], "over", "{g}");
        assert!(g["result"].is_string(), "{g}");
    }
    // Each player's points are the arena's: 2 a win, double on fire.
    let standings = over["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 6);
    let counted = games.iter().filter(|g| g["result"] != "void").count() as u64;
    let played: u64 = standings.iter().map(|s| s["played"].as_u64().unwrap()).sum();
    assert_eq!(played, 2 * counted);
    assert!(standings.windows(2).all(|w| w[0]["points"].as_f64() >= w[1]["points"].as_f64()));
    for p in processes {
        let out = p.stop();
        assert!(out.contains("over: place"), "{out}");
    }
}
