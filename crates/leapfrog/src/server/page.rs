//! The web page at `/`: its HTML, style and scripts, embedded in the binary
//! (the scripts are the committed output of the modules in
//! `crates/leapfrog/web/src/`, one file each, loaded from `/app.js`).
//! Nothing is fetched from elsewhere: the Content-Security-Policy allows
//! this server only.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

const INDEX: &str = include_str!("../../web/index.html");
/// Each module `tsc` writes to `web/dist/`, by the path it is served at.
pub const SCRIPTS: [(&str, &str); 22] = [
    ("/account.js", include_str!("../../web/dist/account.js")),
    ("/analysis.js", include_str!("../../web/dist/analysis.js")),
    ("/app.js", include_str!("../../web/dist/app.js")),
    ("/board.js", include_str!("../../web/dist/board.js")),
    ("/challenges.js", include_str!("../../web/dist/challenges.js")),
    ("/client.js", include_str!("../../web/dist/client.js")),
    ("/dom.js", include_str!("../../web/dist/dom.js")),
    ("/game.js", include_str!("../../web/dist/game.js")),
    ("/game_actions.js", include_str!("../../web/dist/game_actions.js")),
    ("/game_state.js", include_str!("../../web/dist/game_state.js")),
    ("/game_view.js", include_str!("../../web/dist/game_view.js")),
    ("/home.js", include_str!("../../web/dist/home.js")),
    ("/live.js", include_str!("../../web/dist/live.js")),
    ("/local.js", include_str!("../../web/dist/local.js")),
    ("/long.js", include_str!("../../web/dist/long.js")),
    ("/pieces.js", include_str!("../../web/dist/pieces.js")),
    ("/puzzle.js", include_str!("../../web/dist/puzzle.js")),
    ("/replay.js", include_str!("../../web/dist/replay.js")),
    ("/storage.js", include_str!("../../web/dist/storage.js")),
    ("/tournaments.js", include_str!("../../web/dist/tournaments.js")),
    ("/types.js", include_str!("../../web/dist/types.js")),
    ("/webhooks.js", include_str!("../../web/dist/webhooks.js")),
];
const STYLE: &str = include_str!("../../web/style.css");

/// The rules engine in WebAssembly (`crates/leapfrog-js/build.sh --page`
/// writes `web/engine/`): the page computes legal moves, moves, hints and
/// analyses with it, and its analysis board works without the server.
pub const ENGINE: [(&str, &str); 2] = [
    ("/engine/index.js", include_str!("../../web/engine/index.js")),
    ("/engine/wasm/leapfrog_js.js", include_str!("../../web/engine/wasm/leapfrog_js.js")),
];
const ENGINE_WASM: &[u8] = include_bytes!("../../web/engine/wasm/leapfrog_js_bg.wasm");

/// This server only; `data:` for the empty favicon; WebAssembly compiled
/// from this server's module (`wasm-unsafe-eval` allows that and no eval).
const POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; \
                      base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

fn file(content_type: &'static str, body: &'static str) -> HttpResponse {
    bytes(content_type, body.as_bytes())
}

fn bytes(content_type: &'static str, body: &'static [u8]) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(body)
}

/// Registers the page's files.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(|| async { file("text/html; charset=utf-8", INDEX) }))
        .route("/index.html", web::get().to(|| async { file("text/html; charset=utf-8", INDEX) }))
        .route("/style.css", web::get().to(|| async { file("text/css; charset=utf-8", STYLE) }));
    for (path, script) in SCRIPTS.into_iter().chain(ENGINE) {
        cfg.route(path, web::get().to(move || async move { file("text/javascript; charset=utf-8", script) }));
    }
    cfg.route(
        "/engine/wasm/leapfrog_js_bg.wasm",
        web::get().to(|| async { bytes("application/wasm", ENGINE_WASM) }),
    );
}
