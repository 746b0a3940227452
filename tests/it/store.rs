//! The game store itself, on SQLite and on PostgreSQL: a move commits
//! whole or not at all. Its row, the game's new state and the idempotency
//! record are written together; a taken ply, a moved version or a reused
//! key leaves nothing behind.

use crate::common::pg;
use std::sync::Arc;

use leapfrog::events::{Hub, StreamLimits};
use leapfrog::play::{Creator, Games, SweepReport};
use leapfrog::store::{Commit, Durability, EventRow, GameRow, KeyRecord, MoveRow, SeatRow, Store};

pub(crate) fn game(version: i64, position: &str) -> GameRow {
    GameRow {
        id: "g1".into(),
        version,
        rules: r#"{"preset":"old"}"#.into(),
        seed: "1".into(),
        players: r#"["Ann","Bo"]"#.into(),
        position: position.into(),
        status: "opening".into(),
        result: None,
        created_at: 1,
        updated_at: version,
        client: "192.0.2.1".into(),
        abandoned_at: None,
        computers: None,
        seating: None,
        open_seats: 0,
        public_seats: 0,
        move_limit: None,
        turn_at: Some(version),
        rematch: None,
        rated: 0,
        pool: None,
        computer_due: None,
        events: Some(version - 1),
    }
}

/// The log's event numbered `seq` of move `m`: its record, which is how a
/// move is stored (the games service writes it so).
fn ev(seq: i64, m: &MoveRow) -> Vec<EventRow> {
    let captures: serde_json::Value = serde_json::from_str(&m.captures).unwrap();
    let kinds: Vec<String> = m.kinds.as_deref().unwrap_or_default().chars().map(String::from).collect();
    let record = serde_json::json!({
        "ply": m.ply, "player": m.player, "path": [], "notation": m.notation, "captures": captures,
        "kinds": kinds, "gain": m.gain, "at": "", "computer": m.computer != 0,
    });
    vec![EventRow { seq, kind: "move".into(), data: record.to_string(), at: m.at }]
}

/// Commits move `mv` (its event numbered `seq`) computed from version `v`.
async fn commit(s: &Store, row: &GameRow, v: i64, mv: &MoveRow, key: Option<&KeyRecord>, seq: i64) -> Commit {
    s.commit_move(row, v, mv, key, &ev(seq, mv), &[]).await.unwrap()
}

/// The seats of a two-player game, each with a token hash.
fn two_seats() -> Vec<SeatRow> {
    (0..2)
        .map(|p| SeatRow {
            player: p,
            name: format!("P{p}"),
            token_hash: format!("hash-{p}"),
            invite_hash: None,
            claim_hash: None,
            account_id: None,
        })
        .collect()
}

fn a_move(ply: i64, notation: &str) -> MoveRow {
    MoveRow {
        ply,
        player: ply % 2,
        notation: notation.into(),
        captures: "[]".into(),
        gain: 0,
        at: ply,
        computer: 0,
        kinds: Some(String::new()),
    }
}

/// The game's version and position, and the notations of its moves.
async fn state(store: &Store) -> (i64, String, Vec<String>) {
    let g = store.game("g1").await.unwrap().unwrap();
    let moves = store.moves("g1", 0).await.unwrap();
    (g.version, g.position, moves.into_iter().map(|m| m.notation).collect())
}

async fn a_move_commits_whole_or_not_at_all(store: Store) {
    let seats = two_seats();
    store.insert_game(&game(1, "start"), &seats).await.unwrap();

    let done = commit(&store, &game(2, "after a1"), 1, &a_move(0, "a1"), None, 0).await;
    assert_eq!(done, Commit::Done);
    assert_eq!(state(&store).await, (2, "after a1".into(), vec!["a1".into()]));

    // Another move from the same version: the first took it, the game is
    // as it was.
    let taken = commit(&store, &game(2, "after b1"), 1, &a_move(0, "b1"), None, 0).await;
    assert_eq!(taken, Commit::Conflict);
    assert_eq!(state(&store).await, (2, "after a1".into(), vec!["a1".into()]));

    // A new ply, computed from a version that has moved on: the game's
    // update finds no row, and the move's row goes with it.
    let stale = commit(&store, &game(2, "stale"), 1, &a_move(1, "b1"), None, 0).await;
    assert_eq!(stale, Commit::Conflict);
    assert_eq!(state(&store).await, (2, "after a1".into(), vec!["a1".into()]));

    // An event whose number is taken: nothing of the move is kept.
    let renumbered = commit(&store, &game(3, "renumbered"), 2, &a_move(1, "b1"), None, 0).await;
    assert_eq!(renumbered, Commit::Conflict);
    assert_eq!(state(&store).await, (2, "after a1".into(), vec!["a1".into()]));
    assert_eq!(store.events("g1", 0, 10).await.unwrap().len(), 1);

    // With an idempotency key: its record is stored with the move.
    let key = |key: &str, ply: i64, request: &str| KeyRecord {
        key: key.into(),
        ply,
        version: ply + 2,
        request: request.into(),
        created_at: ply,
    };
    let keyed = commit(&store, &game(3, "after b1"), 2, &a_move(1, "b1"), Some(&key("k", 1, "b1")), 1).await;
    assert_eq!(keyed, Commit::Done);
    assert_eq!(state(&store).await, (3, "after b1".into(), vec!["a1".into(), "b1".into()]));
    let stored = store.key_record("g1", 1, "k").await.unwrap().unwrap();
    assert_eq!(
        stored,
        KeyRecord { key: "k".into(), ply: 1, version: 3, request: "b1".into(), created_at: 1 }
    );

    // A key with a stale move: neither the move nor the record is kept.
    let stale_keyed =
        commit(&store, &game(4, "stale"), 2, &a_move(2, "x"), Some(&key("k2", 2, "x")), 2).await;
    assert_eq!(stale_keyed, Commit::Conflict);
    assert!(store.key_record("g1", 0, "k2").await.unwrap().is_none());
    assert_eq!(state(&store).await, (3, "after b1".into(), vec!["a1".into(), "b1".into()]));

    // The same player's key again, on a new move: nothing is written.
    let player_1_again = a_move(3, "c1");
    let reused = commit(&store, &game(4, "reused"), 3, &player_1_again, Some(&key("k", 3, "c1")), 2).await;
    assert_eq!(reused, Commit::Conflict);
    assert_eq!(state(&store).await, (3, "after b1".into(), vec!["a1".into(), "b1".into()]));

    // And the game goes on.
    let next = commit(&store, &game(4, "after c1"), 3, &a_move(2, "c1"), None, 2).await;
    assert_eq!(next, Commit::Done);
    assert_eq!(state(&store).await, (4, "after c1".into(), vec!["a1".into(), "b1".into(), "c1".into()]));
    store.close().await;
}

/// Moves sent at once share a group commit, here through two stores on
/// one database (as two processes would, each with its own committer),
/// each sending the games in another order: of three moves racing on one
/// game exactly one is stored — the game holds its position, its row and
/// its event, and the others wrote nothing — while moves of other games
/// are stored beside it.
async fn racing_moves_store_one_per_game(store: Store, url: String) {
    let other = Store::open(&url, Durability::Full).await.unwrap();
    let games: Vec<String> = (0..8).map(|g| format!("race{g}")).collect();
    for id in &games {
        let seats: Vec<SeatRow> = two_seats()
            .into_iter()
            .map(|s| SeatRow { token_hash: format!("{id}-{}", s.token_hash), ..s })
            .collect();
        store.insert_game(&GameRow { id: id.clone(), ..game(1, "start") }, &seats).await.unwrap();
    }
    let mut tries = Vec::new();
    for n in 0..3 {
        let (by, order): (&Store, Vec<&String>) =
            if n == 1 { (&other, games.iter().rev().collect()) } else { (&store, games.iter().collect()) };
        for id in order {
            let (store, row) = (by.clone(), GameRow { id: id.clone(), ..game(2, &format!("{id} by {n}")) });
            let key = (n == 1).then(|| KeyRecord {
                key: format!("k{n}"),
                ply: 0,
                version: 2,
                request: "a1".into(),
                created_at: 0,
            });
            let mv = a_move(0, &format!("m{n}"));
            tries.push(actix_web::rt::spawn(async move {
                let commit = store.commit_move(&row, 1, &mv, key.as_ref(), &ev(0, &mv), &[]).await.unwrap();
                (row.id, n, commit)
            }));
        }
    }
    let mut winners = std::collections::BTreeMap::new();
    for t in tries {
        let (id, n, commit) = t.await.unwrap();
        if commit == Commit::Done {
            assert!(winners.insert(id, n).is_none(), "two moves of one game stored");
        }
    }
    assert_eq!(winners.len(), games.len(), "each game took one move: {winners:?}");
    for (id, n) in winners {
        let g = store.game(&id).await.unwrap().unwrap();
        assert_eq!((g.version, g.position), (2, format!("{id} by {n}")));
        let moves: Vec<String> = store.moves(&id, 0).await.unwrap().into_iter().map(|m| m.notation).collect();
        assert_eq!(moves, [format!("m{n}")]);
        assert_eq!(store.events(&id, 0, 10).await.unwrap().len(), 1);
        assert_eq!(
            store.key_record(&id, 0, "k1").await.unwrap().is_some(),
            n == 1,
            "the key only with its move"
        );
    }
    assert_eq!(
        (store.group_failures(), other.group_failures()),
        (0, 0),
        "no group fell back to moves one by one"
    );
    other.close().await;
    store.close().await;
}

/// What a move writes reads back byte for byte, whatever its text holds
/// (the group commit carries it through JSON on the way in).
async fn a_moves_text_reads_back_byte_for_byte(store: Store) {
    store.insert_game(&game(1, "start"), &two_seats()).await.unwrap();
    let odd =
        "quote \" backslash \\ tab \t newline \n bell \u{7} NUL-less \u{1f438} Аlice \u{202e}bidi \u{ffff}";
    let data = serde_json::json!({ "text": odd }).to_string();
    let mv = MoveRow {
        notation: odd.into(),
        captures: serde_json::to_string(&[odd, &data]).unwrap(),
        kinds: Some("GR".into()),
        ..a_move(0, "")
    };
    let events = ev(0, &mv);
    let row = GameRow { position: odd.into(), result: Some(data.clone()), ..game(2, "") };
    assert_eq!(store.commit_move(&row, 1, &mv, None, &events, &[]).await.unwrap(), Commit::Done);
    let g = store.game("g1").await.unwrap().unwrap();
    assert_eq!((g.position.as_str(), g.result.as_deref()), (odd, Some(data.as_str())));
    assert_eq!(store.moves("g1", 0).await.unwrap(), [mv]);
    assert_eq!(store.events("g1", 0, 10).await.unwrap(), events);
    assert_eq!(store.group_failures(), 0, "written by the group's statements, not move by move");
    store.close().await;
}

/// The sweep forgets idempotency keys past their time and marks idle
/// unfinished games abandoned, through the games service: a new version
/// and an `abandoned` event in the log, which frees their creator's
/// places; a move on an abandoned game ends that.
async fn the_sweep_forgets_old_keys_and_marks_idle_games_abandoned(store: Store) {
    use leapfrog::game::{Credential, IdempotencyKey, MoveRequest};
    let (games, creator, rules) = service(&store);
    let (idle, idle_seats) =
        games.create(rules.clone(), two_people(), Some(1), None, false, &creator).await.unwrap();
    let (done, done_seats) = games.create(rules, two_people(), Some(1), None, false, &creator).await.unwrap();
    let seat = |created: &leapfrog::game::Created, p: usize| Credential::Seat(created.tokens[p].1.clone());
    games.resign(done.id(), &seat(&done_seats, 0)).await.unwrap();
    assert_eq!(store.unfinished_games_of("192.0.2.1").await.unwrap(), 1, "a game over does not count");
    let play = |player: usize, key: Option<&str>| {
        let game = idle.id().to_string();
        let games = games.clone();
        let credential = seat(&idle_seats, player);
        let key = key.map(|k| IdempotencyKey::parse(k).unwrap());
        async move {
            let now = games.load(&game).await.unwrap();
            let mv = now.position().legal_moves_unbounded().remove(0);
            games.play(&game, MoveRequest { credential, expected: None, key, mv: Ok(mv) }).await.unwrap()
        }
    };
    play(0, Some("k")).await;

    let now = leapfrog::play::now_ms();
    let later = now + 60_000;
    // Nothing is old enough yet.
    assert_eq!(games.sweep(later, 0, 0).await.unwrap(), SweepReport::default());
    // The key is past its time; the game has been idle since before then.
    assert_eq!(games.sweep(later, later, later).await.unwrap(), SweepReport { keys: 1, abandoned: 1 });
    let g = games.load(idle.id()).await.unwrap();
    assert_eq!((g.abandoned_at(), g.version(), g.events()), (Some(later), 3, Some(2)));
    let log = store.events(idle.id(), 0, 10).await.unwrap();
    let kinds: Vec<&str> = log.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["move", "abandoned"]);
    assert_eq!(log[1].at, later, "the abandonment's time, not the last move's");
    assert_eq!(games.load(done.id()).await.unwrap().abandoned_at(), None, "a finished game is history");
    assert_eq!(store.unfinished_games_of("192.0.2.1").await.unwrap(), 0);
    assert_eq!(games.sweep(later + 1, later, later).await.unwrap(), SweepReport::default(), "marked once");

    // A move brings it back.
    play(1, None).await;
    assert_eq!(games.load(idle.id()).await.unwrap().abandoned_at(), None);
    assert_eq!(store.unfinished_games_of("192.0.2.1").await.unwrap(), 1);
    store.close().await;
}

/// A games service on `store` (with a hub of its own), a creator and
/// `old`'s rules.
fn service(store: &Store) -> (Games, Creator, Arc<jump_capture::Rules>) {
    let hub = Hub::new(store.clone(), StreamLimits { total: 10, per_game: 10, per_client: 0 });
    let (games, _wakes) = Games::new(store.clone(), hub);
    let creator = Creator { client: "192.0.2.1".into(), max_unfinished: 0, max_computer_games: 0 };
    (games, creator, Arc::new(jump_capture::Preset::Old.rules()))
}

/// Two people's seats.
fn two_people() -> Vec<leapfrog::game::NewSeat> {
    ["Ann", "Bo"]
        .iter()
        .map(|n| leapfrog::game::NewSeat::Person(leapfrog::game::PlayerName::parse(n).unwrap()))
        .collect()
}

/// Each filter of the listing runs on its index, with no sort step, among
/// 20,000 games that do not match: its cost does not grow with them.
async fn each_listing_filter_uses_its_index(store: Store, url: &str) {
    use sqlx::Executor;
    sqlx::any::install_default_drivers();
    let raw = sqlx::AnyPool::connect(url).await.unwrap();
    let fill = if url.starts_with("sqlite") {
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) \
         INSERT INTO games (id, version, rules, seed, players, position, status, created_at, updated_at) \
         SELECT 'g' || i, 1, '{}', '1', '[]', '', 'playing', i, i FROM n"
    } else {
        "INSERT INTO games (id, version, rules, seed, players, position, status, created_at, updated_at) \
         SELECT 'g' || i, 1, '{}', '1', '[]', '', 'playing', i, i FROM generate_series(1, 20000) AS i"
    };
    raw.execute(fill).await.unwrap();
    raw.execute(if url.starts_with("sqlite") { "ANALYZE" } else { "ANALYZE games" }).await.unwrap();
    raw.close().await;
    // Statuses no game has must be found through the status index; where
    // every game matches, either index serves the first page at once.
    let cases = [
        (Some("over"), false, "games_status_listing"),
        (Some("opening"), true, "games_status_listing"),
        (Some("playing"), false, "Index"),
        (Some("playing"), true, "Index"),
        (None, false, "games_listing"),
        (None, true, "games_listing"),
        // The lobby: games waiting with public seats, none of these.
        (Some("waiting"), false, "games_lobby"),
        (Some("waiting"), true, "games_lobby"),
    ];
    for (status, after, index) in cases {
        let plan = store.listing_plan(status, after).await.unwrap();
        let case = format!("{status:?}, after a cursor: {after}: {plan}");
        assert!(plan.to_ascii_lowercase().contains(&index.to_ascii_lowercase()), "{case}");
        for slow in ["TEMP B-TREE", "Sort", "Seq Scan"] {
            assert!(!plan.contains(slow), "{case}");
        }
        assert!(plan.lines().all(|l| l.trim() != "SCAN games"), "{case}");
    }
    store.close().await;
}

pub(crate) fn run<F: std::future::Future<Output = ()> + 'static>(
    url: &str,
    test: impl FnOnce(Store, String) -> F + 'static,
) {
    let url = url.to_string();
    let _files = crate::common::TempFiles::of_url(&url);
    actix_web::rt::System::new().block_on(async move {
        let store = Store::open(&url, Durability::Full).await.unwrap();
        test(store, url).await;
    });
}

pub(crate) fn sqlite() -> String {
    format!("sqlite://{}", crate::common::temp_db().display())
}

#[test]
fn a_move_commits_whole_or_not_at_all_sqlite() {
    run(&sqlite(), |s, _| a_move_commits_whole_or_not_at_all(s));
}

#[test]
fn a_move_commits_whole_or_not_at_all_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |s, _| a_move_commits_whole_or_not_at_all(s));
}

#[test]
fn a_moves_text_reads_back_byte_for_byte_sqlite() {
    run(&sqlite(), |s, _| a_moves_text_reads_back_byte_for_byte(s));
}

#[test]
fn a_moves_text_reads_back_byte_for_byte_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |s, _| a_moves_text_reads_back_byte_for_byte(s));
}

#[test]
fn racing_moves_store_one_per_game_sqlite() {
    run(&sqlite(), racing_moves_store_one_per_game);
}

#[test]
fn racing_moves_store_one_per_game_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, racing_moves_store_one_per_game);
}

#[test]
fn the_sweep_forgets_old_keys_and_marks_idle_games_abandoned_sqlite() {
    run(&sqlite(), |s, _| the_sweep_forgets_old_keys_and_marks_idle_games_abandoned(s));
}

#[test]
fn the_sweep_forgets_old_keys_and_marks_idle_games_abandoned_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |s, _| the_sweep_forgets_old_keys_and_marks_idle_games_abandoned(s));
}

#[test]
fn each_listing_filter_uses_its_index_sqlite() {
    run(&sqlite(), |s, url| async move { each_listing_filter_uses_its_index(s, &url).await });
}

#[test]
fn each_listing_filter_uses_its_index_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |s, url| async move { each_listing_filter_uses_its_index(s, &url).await });
}

/// Rows written before the budgets and the name checks: a game on a board
/// whose moves cannot be counted, names with control and format characters,
/// a 100-character rule name (the old cap).
async fn rows_stored_before_the_checks_still_read(store: Store) {
    use leapfrog::game::GameStatus;
    let board: Vec<String> = (0..11u8)
        .rev()
        .map(|r| {
            (0..11u8).map(|f| if r % 2 == 0 && f % 2 == 0 && (r, f) != (0, 0) { '1' } else { 'O' }).collect()
        })
        .collect();
    let long_name = "n".repeat(100);
    let row = GameRow {
        // Complete, as every version of the service wrote rule sets.
        rules: format!(
            r#"{{"preset":"old","name":"{long_name}","rows":11,"cols":11,"mask":[],"holes":[],"directions":"orthogonal","kinds":[{{"letter":"O","name":"fr\u202eog","value":1,"owner":null}}],"fill":{{"type":"random","weights":[1]}},"capture":"shared","chain":"free","opening":{{"type":"each_player_removes","kinds":null}},"removals_score":true,"end":"highest_score","min_players":1,"max_players":64}}"#
        ),
        players: r#"["Ann\u202ennA","B\u0000o"]"#.into(),
        position: format!("{} 10 0,0", board.join("/")),
        status: "playing".into(),
        ..game(1, "")
    };
    let seats = two_seats();
    store.insert_game(&row, &seats).await.unwrap();
    let g = leapfrog::play::load(&store, "g1").await.unwrap();
    // Its status is read as stored, not worked out by counting moves.
    assert_eq!(g.status(), GameStatus::Started);
    assert_eq!(g.phase(), jump_capture::Phase::Playing);
    assert_eq!(g.seats()[0].name.as_str(), "Ann\u{FFFD}nnA", "shown without the override");
    assert_eq!(g.seats()[1].name.as_str(), "B\u{FFFD}o");
    assert_eq!(g.rules().name().chars().count(), 64, "cut to today's cap");
    assert_eq!(g.rules().kinds()[0].name, "fr\u{FFFD}og");
}

#[test]
fn rows_stored_before_the_checks_still_read_sqlite() {
    run(&sqlite(), |s, _| rows_stored_before_the_checks_still_read(s));
}

#[test]
fn rows_stored_before_the_checks_still_read_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |s, _| rows_stored_before_the_checks_still_read(s));
}

/// A server's request workers each have a runtime, and the first to stop
/// ends it while the others still serve: a statement in flight must not
/// depend on the runtime of the request that opened its connection.
#[test]
fn a_statement_in_flight_outlives_the_runtime_that_opened_its_connection() {
    let Some(url) = pg::fresh_database() else { return };
    // The store's only connection, opened by a request on a first runtime.
    let (opened, store) = std::sync::mpsc::channel();
    let (end_first, first_ends) = tokio::sync::oneshot::channel::<()>();
    let first = {
        let url = url.clone();
        std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let store = Store::open_with(&url, Durability::Full, 1).await.unwrap();
                assert_eq!(store.game("none").await.unwrap(), None);
                opened.send(store).unwrap();
                let _ = first_ends.await;
            });
        })
    };
    let store = store.recv().unwrap();
    // Another session holds the games table, so that the next read waits.
    let mut holder = std::process::Command::new("psql")
        .arg(&url)
        .args(["-q", "-c", "BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(1.5); COMMIT;"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("psql runs");
    std::thread::sleep(std::time::Duration::from_millis(500));
    actix_web::rt::System::new().block_on(async move {
        let reading = actix_web::rt::spawn({
            let store = store.clone();
            async move { store.game("none").await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        // The first runtime ends while the read waits for the table.
        end_first.send(()).unwrap();
        first.join().unwrap();
        assert_eq!(reading.await.unwrap().unwrap(), None);
        store.close().await;
    });
    assert!(holder.wait().unwrap().success());
}

/// The scan for the computer's turns reads the marked games alone, and
/// claims each for one process at a time; with 10,000 unfinished games
/// where people are to move it finds just the few that are the computer's.
async fn the_computer_scan_claims_only_the_computers_turns(store: Store) {
    let person_to_move = |i: usize| GameRow {
        id: format!("p{i:05}"),
        computers: Some(r#"["easy",null]"#.into()),
        status: "playing".into(),
        ..game(1, "x")
    };
    let computer_to_move =
        |i: usize| GameRow { id: format!("c{i}"), computer_due: Some(1_000 + i as i64), ..person_to_move(0) };
    let many = if store.backend() == leapfrog::store::Backend::Sqlite { 10_000 } else { 1_000 };
    for i in 0..many {
        store.insert_game(&person_to_move(i), &[]).await.unwrap();
    }
    for i in 0..3 {
        store.insert_game(&computer_to_move(i), &[]).await.unwrap();
    }
    // Not yet still long enough: none.
    assert_eq!(store.claim_computer_turns(5_000, 1_000, 65_000).await.unwrap(), Vec::<String>::new());
    let started = std::time::Instant::now();
    let mut claimed = store.claim_computer_turns(5_000, 4_000, 65_000).await.unwrap();
    let took = started.elapsed();
    claimed.sort();
    assert_eq!(claimed, ["c0", "c1", "c2"]);
    eprintln!("claimed 3 of {} unfinished games in {took:?}", many + 3);
    // Another process scanning while the claim holds gets none of them…
    assert!(store.claim_computer_turns(6_000, 5_000, 66_000).await.unwrap().is_empty());
    // …and after it lapses, those still the computer's turn.
    store.not_computer_turn("c1", 1).await.unwrap();
    let mut again = store.claim_computer_turns(70_000, 60_000, 130_000).await.unwrap();
    again.sort();
    assert_eq!(again, ["c0", "c2"]);
    store.close().await;
}

#[test]
fn the_computer_scan_claims_only_the_computers_turns_sqlite() {
    let url = sqlite();
    let _files = crate::common::TempFiles::of_url(&url);
    actix_web::rt::System::new().block_on(async move {
        // 10,000 commits: not each synced.
        let store = Store::open(&url, Durability::Fast).await.unwrap();
        the_computer_scan_claims_only_the_computers_turns(store).await;
    });
}

#[test]
fn the_computer_scan_claims_only_the_computers_turns_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |s, _| the_computer_scan_claims_only_the_computers_turns(s));
}

/// Two processes scanning at once on PostgreSQL claim each game once.
#[test]
fn two_scans_at_once_claim_each_computer_turn_once_postgres() {
    let Some(url) = pg::fresh_database() else { return };
    run(&url, |store, url| async move {
        for i in 0..200 {
            let row = GameRow {
                id: format!("c{i:03}"),
                computers: Some(r#"["easy",null]"#.into()),
                status: "playing".into(),
                computer_due: Some(1),
                ..game(1, "x")
            };
            store.insert_game(&row, &[]).await.unwrap();
        }
        let other = Store::open(&url, Durability::Full).await.unwrap();
        let (a, b) = tokio::join!(
            store.claim_computer_turns(10_000, 5_000, 70_000),
            other.claim_computer_turns(10_000, 5_000, 70_000),
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        let mut all: Vec<&String> = a.iter().chain(&b).collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), a.len() + b.len(), "a game claimed twice");
        assert_eq!(all.len(), 200);
        other.close().await;
        store.close().await;
    });
}
