//! Caps on what one account holds or streams (issue 35): at most 50
//! personal tokens, listed a page at a time; at most two record exports
//! of one account at once and a few in all; an export stops at its next
//! page once its token is revoked or its account deleted.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::accounts::{PASSWORD, as_token, play_plies, players, token, with};
use crate::common::{TestApp, spawn_with, temp_db};

#[test]
fn an_account_has_at_most_fifty_tokens_listed_a_page_at_a_time() {
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.limits.no_rate_limits = true;
    let app = spawn_with(config);
    let tokens = players(&app, &["Ann"]);
    // One made by `players`; 49 more, then the 51st is refused.
    for _ in 1..50 {
        assert_eq!(token(&app, "Ann", PASSWORD, &["play"]).status, 201);
    }
    let refused = token(&app, "Ann", PASSWORD, &["play"]);
    assert_eq!((refused.status, refused.json()["field"].as_str()), (422, Some("tokens")), "{}", refused.body);
    assert!(refused.json()["detail"].as_str().unwrap().contains("50 tokens"), "{}", refused.body);
    // Listed 20 at a time: 20, 20, 10, each once, oldest first.
    let mut ids = Vec::new();
    let mut sizes = Vec::new();
    let mut path = "/v1/tokens?limit=20".to_string();
    loop {
        let page = with(&app, "GET", &path, &tokens[0]);
        assert_eq!(page.status, 200, "{}", page.body);
        assert_eq!(page.header("cache-control"), Some("no-store"));
        let listed = page.json()["tokens"].as_array().unwrap().clone();
        sizes.push(listed.len());
        ids.extend(listed.iter().map(|t| t["id"].as_str().unwrap().to_string()));
        match page.json()["next_cursor"].as_str() {
            Some(next) => path = format!("/v1/tokens?limit=20&cursor={next}"),
            None => break,
        }
    }
    assert_eq!(sizes, [20, 20, 10]);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 50);
    assert_eq!(with(&app, "GET", "/v1/tokens?cursor=nope", &tokens[0]).status, 422);
    // Revoking one makes room for one.
    assert_eq!(with(&app, "DELETE", &format!("/v1/tokens/{}", ids[49]), &tokens[0]).status, 204);
    assert_eq!(token(&app, "Ann", PASSWORD, &["play"]).status, 201);
    assert_eq!(token(&app, "Ann", PASSWORD, &["play"]).status, 422);
}

/// An export asked for on a connection of its own, its status read and
/// nothing more: the server stops writing when the socket is full, and
/// the export holds its place.
struct HeldExport {
    stream: TcpStream,
    status: u16,
}

impl HeldExport {
    fn open(app: &TestApp, name: &str, token: &str) -> HeldExport {
        let mut stream = TcpStream::connect(("127.0.0.1", app.port)).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
        let request = format!(
            "GET /v1/accounts/{name}/records HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {token}\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).expect("send");
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).expect("a status line");
        let status = String::from_utf8_lossy(&head[9..12]).parse().unwrap_or(0);
        HeldExport { stream, status }
    }

    /// Everything left of the answer, read to its end.
    fn rest(mut self) -> String {
        let mut body = Vec::new();
        let mut chunk = [0u8; 64 * 1024];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    body.extend_from_slice(&chunk[..n]);
                    // The chunked answer's last chunk.
                    if body.ends_with(b"\r\n0\r\n\r\n") {
                        break;
                    }
                }
                Err(e) => panic!("reading the export: {e}"),
            }
        }
        String::from_utf8_lossy(&body).into_owned()
    }
}

/// Copies finished game `id` `n` times, each a little older, straight in
/// the database: an export far larger than any socket's buffers.
fn copy_game(db: &std::path::Path, id: &str, n: u32) {
    actix_web::rt::System::new().block_on(async {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&format!("sqlite://{}", db.display())).await.unwrap();
        let changed = [
            ("games", vec![("id", "id || '-' || n.i"), ("created_at", "created_at - n.i")]),
            ("seats", vec![("game_id", "game_id || '-' || n.i"), ("token_hash", "token_hash || '-' || n.i")]),
            ("moves", vec![("game_id", "game_id || '-' || n.i")]),
            ("game_events", vec![("game_id", "game_id || '-' || n.i")]),
        ];
        for (table, exprs) in changed {
            // The tables' and columns' names are this test's own.
            let columns: Vec<String> = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(format!(
                "SELECT name FROM pragma_table_info('{table}')"
            )))
            .fetch_all(&pool)
            .await
            .unwrap();
            let key = if table == "games" { "id" } else { "game_id" };
            let values: Vec<String> = columns
                .iter()
                .map(|c| exprs.iter().find(|(name, _)| name == c).map_or(c.clone(), |(_, e)| e.to_string()))
                .collect();
            let sql = format!(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) \
                 INSERT INTO {table} ({}) SELECT {} FROM {table}, n WHERE {key} = $1",
                columns.join(", "),
                values.join(", ")
            );
            sqlx::query(sqlx::AssertSqlSafe(sql)).bind(id).execute(&pool).await.unwrap();
        }
        pool.close().await;
    });
}

#[test]
fn exports_are_two_an_account_a_few_in_all_and_stop_when_their_token_goes() {
    let db = temp_db();
    let mut config = leapfrog::server::config::ServeConfig::for_tests();
    config.database.url = format!("sqlite://{}", db.display());
    config.limits.max_exports = 3;
    let app = spawn_with(config);
    let tokens = players(&app, &["Ann", "Bob"]);
    let second = crate::accounts::secret(&token(&app, "Ann", PASSWORD, &["account"]));
    // A finished game of Ann and Bob, copied 20,000 times.
    let body = json!({"rules": {"preset": "old", "rows": 6, "cols": 6}, "players": [{"account": "Ann"}, {"open": "public"}]});
    let id =
        as_token(&app, "POST", "/v1/games", &tokens[0], &body).json()["id"].as_str().unwrap().to_string();
    assert_eq!(as_token(&app, "POST", &format!("/v1/games/{id}/join"), &tokens[1], &json!({})).status, 201);
    play_plies(&app, &id, &tokens, 6);
    assert_eq!(as_token(&app, "POST", &format!("/v1/games/{id}/resign"), &tokens[0], &json!({})).status, 200);
    copy_game(&db, &id, 20_000);

    // Two exports of Ann's stream at once; a third is refused, 429.
    let first = HeldExport::open(&app, "Ann", &tokens[0]);
    let held = HeldExport::open(&app, "Ann", &tokens[0]);
    assert_eq!((first.status, held.status), (200, 200));
    let third = with(&app, "GET", "/v1/accounts/Ann/records", &second);
    assert_eq!(third.status, 429, "{}", third.body);
    assert!(third.header("retry-after").is_some());
    // Bob's takes the server's last place: his second gets 503.
    let bobs = HeldExport::open(&app, "Bob", &tokens[1]);
    assert_eq!(bobs.status, 200);
    let full = with(&app, "GET", "/v1/accounts/Bob/records", &tokens[1]);
    assert_eq!(full.status, 503, "{}", full.body);
    assert!(full.header("retry-after").is_some());

    // Ann's first token revoked: her first export stops at its next page.
    let listed = with(&app, "GET", "/v1/tokens", &second).json();
    let first_id = listed["tokens"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(with(&app, "DELETE", &format!("/v1/tokens/{first_id}"), &second).status, 204);
    let stopped = first.rest();
    assert!(
        stopped.contains("the export stopped here: the token was revoked"),
        "{}",
        &stopped[stopped.len() - 200..]
    );
    let records = stopped.matches("[Game ").count();
    assert!(records < 20_000, "{records} records: it stopped early");
    // Bob's account deleted: his export stops too.
    assert_eq!(with(&app, "DELETE", "/v1/accounts/Bob", &tokens[1]).status, 204);
    assert!(bobs.rest().contains("the export stopped here"));
    // Ann's places come back as her exports end (or their clients leave).
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let again = HeldExport::open(&app, "Ann", &second);
        if again.status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "no place came back: {}", again.status);
        std::thread::sleep(Duration::from_millis(100));
    }
}
