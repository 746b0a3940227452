//! Request logs an operator can search: every request's span carries a
//! request id — the one a trusted proxy sends in `X-Request-Id`, else a new
//! UUID — echoed in the answer's `X-Request-Id`, and the W3C `traceparent`
//! the request brings (the trace id, to join the logs of every hop), and
//! the client's address as the rate limits see it (a trusted proxy's
//! `X-Forwarded-For`, no one else's). The API takes no secret in a URL,
//! but a client may put one there anyway (`?token=…`): the logged target
//! keeps the values only of the query parameters the API reads, none of
//! them a secret, and writes every other value as `***`.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::{Error, HttpMessage, web};
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RootSpanBuilder};

use leapfrog_http::state::AppState;

/// A request's id, in its extensions for the answer's `X-Request-Id`, and
/// when it came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedId {
    /// The id.
    pub id: String,
    /// When the request came.
    pub started: std::time::Instant,
}

/// The longest request id taken from a proxy.
const MAX_ID: usize = 128;

/// Whether `id` is a request id to take from a proxy: 1 to 128 letters,
/// digits, `-`, `_`, `.` or `:` (nothing a log line could be forged with).
fn acceptable(id: &str) -> bool {
    (1..=MAX_ID).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// The trace id of a W3C `traceparent` header (`00-<32 hex>-<16 hex>-<2
/// hex>`), if it is one (an all-zero id is invalid).
pub fn trace_id(traceparent: &str) -> Option<&str> {
    let mut parts = traceparent.trim().split('-');
    let (version, trace, parent, flags) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let ok = hex(version, 2)
        && version != "ff"
        && hex(trace, 32)
        && trace.bytes().any(|b| b != b'0')
        && hex(parent, 16)
        && hex(flags, 2);
    ok.then_some(trace)
}

/// The spans of requests: [`DefaultRootSpanBuilder`]'s fields, with the
/// request id as above and the trace id of `traceparent`.
#[derive(Debug)]
pub struct Spans;

impl RootSpanBuilder for Spans {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let from_proxy = request
            .headers()
            .get("x-request-id")
            .and_then(|v| v.to_str().ok())
            .filter(|id| acceptable(id) && from_trusted_proxy(request));
        let id = from_proxy.map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_string);
        let header = |name: &str| request.headers().get(name).and_then(|v| v.to_str().ok());
        let empty = tracing::field::Empty;
        // The fields are worked out only when the span is logged (not
        // under `RUST_LOG=warn`): the client's address reads headers.
        let span = tracing::info_span!(
            "HTTP request",
            http.method = %request.method(),
            http.route = %request.match_pattern().unwrap_or_else(|| "default".into()),
            http.target = %logged_target(request.uri()),
            http.client_ip = %client_of(request),
            http.user_agent = header("user-agent").unwrap_or(""),
            http.status_code = empty,
            otel.status_code = empty,
            request_id = %id,
            trace_id = header("traceparent").and_then(trace_id).unwrap_or(""),
            exception.message = empty,
            exception.details = empty,
        );
        request.extensions_mut().insert(LoggedId { id, started: std::time::Instant::now() });
        span
    }

    /// One line a request, in its span: its status and how long it took.
    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, Error>) {
        DefaultRootSpanBuilder::on_request_end(span.clone(), outcome);
        if !span.is_disabled() {
            let (status, millis) = match outcome {
                Ok(answer) => (
                    answer.status().as_u16(),
                    answer
                        .request()
                        .extensions()
                        .get::<LoggedId>()
                        .map(|l| (l.started.elapsed().as_secs_f64() * 1e5).round() / 100.0),
                ),
                Err(e) => (e.as_response_error().status_code().as_u16(), None),
            };
            span.in_scope(|| tracing::info!(status, millis, "answered"));
        }
    }
}

/// The query parameters the API reads, none of them a secret: their
/// values are logged as sent.
const PLAIN_PARAMETERS: [&str; 6] = ["limit", "cursor", "status", "from", "rated", "pool"];

/// A request's target as a log keeps it: the path, and the query with the
/// value of every parameter not in [`PLAIN_PARAMETERS`] written `***` (a
/// part with no `=` that is not one of them, too: it may be a secret).
fn logged_target(uri: &actix_web::http::Uri) -> String {
    let Some(query) = uri.query() else { return uri.path().to_string() };
    let parts: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if PLAIN_PARAMETERS.contains(&name) => format!("{name}={value}"),
            Some((name, _)) => format!("{name}=***"),
            None if PLAIN_PARAMETERS.contains(&pair) => pair.to_string(),
            None => "***".to_string(),
        })
        .collect();
    format!("{}?{}", uri.path(), parts.join("&"))
}

/// The client's address as the rate limits see it.
fn client_of(request: &ServiceRequest) -> String {
    request
        .app_data::<web::Data<AppState>>()
        .map(|state| state.client_key(request.request()))
        .unwrap_or_default()
}

/// Whether the connection's peer is a proxy the server trusts
/// (`--trust-proxy`).
fn from_trusted_proxy(request: &ServiceRequest) -> bool {
    let Some(peer) = request.peer_addr().map(|a| a.ip()) else { return false };
    request.app_data::<web::Data<AppState>>().is_some_and(|state| state.limiter.trusts(peer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceparent_gives_its_trace_id_and_a_malformed_one_nothing() {
        let good = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        assert_eq!(trace_id(good), Some("4bf92f3577b34da6a3ce929d0e0e4736"));
        for bad in [
            "",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        ] {
            assert_eq!(trace_id(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_logged_target_keeps_the_apis_own_parameters_and_hides_every_other_value() {
        let uri = |s: &str| s.parse::<actix_web::http::Uri>().unwrap();
        assert_eq!(logged_target(&uri("/v1/games")), "/v1/games");
        assert_eq!(
            logged_target(&uri("/v1/tokens?token=lfpat_secret&limit=5")),
            "/v1/tokens?token=***&limit=5"
        );
        assert_eq!(
            logged_target(&uri("/v1/games?status=waiting&cursor=abc&access_token=s3cret&lfpat_bare&limit")),
            "/v1/games?status=waiting&cursor=abc&access_token=***&***&limit"
        );
        // A name that looks like a plain one, but is not exactly one.
        assert_eq!(logged_target(&uri("/v1/x?limit2=9")), "/v1/x?limit2=***");
    }

    #[test]
    fn a_proxys_request_id_is_taken_only_when_it_cannot_forge_a_log_line() {
        assert!(acceptable("req-1234_abc.def:9"));
        assert!(!acceptable(""));
        assert!(!acceptable(&"x".repeat(MAX_ID + 1)));
        for bad in ["a b", "a\nb", "a\"b", "ä", "a=b"] {
            assert!(!acceptable(bad), "{bad:?}");
        }
    }
}
