//! The web page at `/`: its HTML, style and script, embedded in the binary
//! (the script is the committed output of `crates/leapfrog/web/src/app.ts`).
//! Nothing is fetched from elsewhere: the Content-Security-Policy allows
//! this server only.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

const INDEX: &str = include_str!("../web/index.html");
const SCRIPT: &str = include_str!("../web/dist/app.js");
const STYLE: &str = include_str!("../web/style.css");

/// This server only; `data:` for the empty favicon.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; \
                      frame-ancestors 'none'";

fn file(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, content_type))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(body)
}

/// Registers the page's three files.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(|| async { file("text/html; charset=utf-8", INDEX) }))
        .route("/index.html", web::get().to(|| async { file("text/html; charset=utf-8", INDEX) }))
        .route("/app.js", web::get().to(|| async { file("text/javascript; charset=utf-8", SCRIPT) }))
        .route("/style.css", web::get().to(|| async { file("text/css; charset=utf-8", STYLE) }));
}
