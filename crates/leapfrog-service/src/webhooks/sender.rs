//! One webhook delivery on the wire (rule book §16): signed as the
//! Standard Webhooks specification says, sent only to globally reachable
//! addresses ([`super::address`]), never following a redirect, within a
//! bounded time (the name's resolution included) and size, on the async
//! runtime: a slow receiver holds a task, never a thread.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{KeyInit, Mac};

use super::address::is_global;

/// How long one try may take, resolving, connecting and answering.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// The most of an answer read (a delivery's body is at most
/// [`leapfrog_store::MAX_BODY`] too).
pub const MAX_ANSWER: usize = 64 * 1024;
/// What every secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";
/// The longest endpoint URL.
pub const MAX_URL: usize = 2_000;

/// A new signing secret: `whsec_` and 32 random bytes in base64.
///
/// # Errors
///
/// When the system has no randomness to give.
pub fn new_secret() -> Result<String, rand::rngs::SysError> {
    let mut key = [0u8; 32];
    rand::TryRng::try_fill_bytes(&mut rand::rngs::SysRng, &mut key)?;
    Ok(format!("{SECRET_PREFIX}{}", STANDARD.encode(key)))
}

/// The `webhook-signature` value of one secret: `v1,` and the base64
/// HMAC-SHA256 of `id.timestamp.body` under the secret's key.
pub fn signature(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix(SECRET_PREFIX)?).ok()?;
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body.as_bytes());
    Some(format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes())))
}

/// Why an endpoint's address is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Not a URL, or no host in it.
    #[error("the URL does not read: {0}")]
    Url(String),
    /// Longer than [`MAX_URL`].
    #[error("the URL has {0} bytes; the most is {MAX_URL}")]
    TooLong(usize),
    /// A user name or password in it: a secret that logs would keep.
    #[error(
        "the URL holds a user name or password, which logs would keep: a receiver knows a delivery by its signature"
    )]
    UserInfo,
    /// A control, format or space character in it.
    #[error("the URL may not hold control, format or space characters; character {at} is U+{code:04X}")]
    Character {
        /// Where, counting from 1.
        at: usize,
        /// The character's code point.
        code: u32,
    },
    /// Not `https://` (and the server does not allow `http://`).
    #[error("only https:// endpoints are allowed")]
    NotHttps,
    /// The name resolves to no address, or not in time.
    #[error("{0} does not resolve")]
    Unresolved(String),
    /// One of its addresses is not globally reachable.
    #[error(
        "{0} is not a globally reachable address (private, loopback, link-local, reserved or carrying one); receivers must be public"
    )]
    Private(IpAddr),
}

/// Where deliveries may go: globally reachable addresses over HTTPS only,
/// unless the server allows private ones and plain HTTP (tests, closed
/// networks).
#[derive(Debug, Clone, Copy)]
pub struct Reach {
    /// `--webhook-allow-private`.
    pub allow_private: bool,
}

impl Reach {
    /// Checks an endpoint's URL as written — its length, no user name or
    /// password, no control, format or space character, its scheme — and
    /// every address its host resolves to now, within [`TIMEOUT`]; the
    /// URL as it is to be stored (parsed and written back).
    ///
    /// # Errors
    ///
    /// What is wrong with it.
    pub async fn check(self, url: &str) -> Result<String, AddressError> {
        let parsed = self.parse(url)?;
        tokio::time::timeout(TIMEOUT, self.addresses(&parsed))
            .await
            .map_err(|_| AddressError::Unresolved(host_of(&parsed)))??;
        Ok(parsed.to_string())
    }

    /// `url` parsed, if it is one deliveries may go to (before resolving).
    fn parse(self, url: &str) -> Result<url::Url, AddressError> {
        if url.len() > MAX_URL {
            return Err(AddressError::TooLong(url.len()));
        }
        if let Some((i, c)) =
            url.chars().enumerate().find(|&(_, c)| c == ' ' || leapfrog_core::names::is_forbidden(c))
        {
            return Err(AddressError::Character { at: i + 1, code: u32::from(c) });
        }
        let parsed = url::Url::parse(url).map_err(|e| AddressError::Url(e.to_string()))?;
        match parsed.scheme() {
            "https" => {}
            "http" if self.allow_private => {}
            _ => return Err(AddressError::NotHttps),
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(AddressError::UserInfo);
        }
        if parsed.host().is_none() {
            return Err(AddressError::Url("it has no host".into()));
        }
        Ok(parsed)
    }

    /// The addresses of `url`'s host, all of them globally reachable
    /// unless private ones are allowed: checked just before connecting,
    /// so that a name that changes its answer (DNS rebinding) cannot slip
    /// through. An address written in the URL is checked as it is.
    async fn addresses(self, url: &url::Url) -> Result<Vec<SocketAddr>, AddressError> {
        let port = url.port_or_known_default().unwrap_or(443);
        match (url.host(), self.literal(url)?) {
            (Some(url::Host::Domain(name)), _) => self.lookup(name, port).await,
            (_, Some(ip)) => Ok(vec![SocketAddr::new(ip, port)]),
            (_, None) => Err(AddressError::Url("it has no host".into())),
        }
    }

    /// The address written in `url` as its host, if any, when it may be
    /// reached (the client does not resolve it, so it is checked here).
    fn literal(self, url: &url::Url) -> Result<Option<IpAddr>, AddressError> {
        let ip = match url.host() {
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
            _ => return Ok(None),
        };
        if self.allow_private || is_global(ip) { Ok(Some(ip)) } else { Err(AddressError::Private(ip)) }
    }

    /// The checked addresses of the name `host`.
    async fn lookup(self, host: &str, port: u16) -> Result<Vec<SocketAddr>, AddressError> {
        let unresolved = || AddressError::Unresolved(host.to_string());
        let addrs: Vec<SocketAddr> =
            tokio::net::lookup_host((host, port)).await.map_err(|_| unresolved())?.collect();
        if addrs.is_empty() {
            return Err(unresolved());
        }
        if !self.allow_private
            && let Some(bad) = addrs.iter().find(|a| !is_global(a.ip()))
        {
            return Err(AddressError::Private(bad.ip()));
        }
        Ok(addrs)
    }
}

/// The host of a parsed URL, for messages.
fn host_of(url: &url::Url) -> String {
    url.host_str().unwrap_or_default().to_string()
}

/// The client resolves names through the checks (under the try's
/// deadline: the client's timeout covers the whole try).
impl reqwest::dns::Resolve for Reach {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let reach = *self;
        Box::pin(async move {
            // The port is the URL's: the connector sets it.
            let addrs = reach.lookup(name.as_str(), 0).await?;
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// `url` fit for a log line or an event: no user name or password, the
/// query string replaced by `redacted` and the fragment left out (a
/// receiver's token often rides there).
pub fn redacted(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else {
        return "(a URL that does not read)".into();
    };
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    if parsed.query().is_some() {
        parsed.set_query(Some("redacted"));
    }
    if parsed.fragment().is_some() {
        parsed.set_fragment(None);
    }
    parsed.to_string()
}

/// One try's request: the endpoint, the delivery's id and body, and the
/// secrets that sign it (two during a rotation).
#[derive(Debug, Clone)]
pub struct Try<'a> {
    /// The endpoint's URL.
    pub url: &'a str,
    /// The `webhook-id`: the same on every try.
    pub id: &'a str,
    /// The JSON sent.
    pub body: &'a str,
    /// The secrets to sign with.
    pub secrets: Vec<&'a str>,
    /// Unix seconds of this try.
    pub timestamp: i64,
}

/// What a try came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The receiver answered with this status, and maybe a `Retry-After`
    /// in seconds.
    Status(u16, Option<u64>),
    /// No answer: refused address, connection, TLS, timeout.
    Failed(String),
}

/// The webhook client: checks every address it connects to, follows no
/// redirect, no proxy, at most [`TIMEOUT`] a try.
#[derive(Debug, Clone)]
pub struct Sender {
    client: reqwest::Client,
    reach: Reach,
}

impl Sender {
    /// A client reaching only where `reach` allows.
    ///
    /// # Errors
    ///
    /// When the TLS backend cannot be set up.
    pub fn new(reach: Reach) -> Result<Sender, reqwest::Error> {
        let client = reqwest::Client::builder()
            .dns_resolver(std::sync::Arc::new(reach))
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .timeout(TIMEOUT)
            .connect_timeout(TIMEOUT)
            .pool_max_idle_per_host(4)
            .user_agent(concat!("leapfrog-webhooks/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(Sender { client, reach })
    }

    /// Sends one try; what it came to.
    pub async fn send(&self, t: &Try<'_>) -> Answer {
        match tokio::time::timeout(TIMEOUT, self.post(t)).await {
            Ok(answer) => answer,
            Err(_) => Answer::Failed(format!("no answer within {} s", TIMEOUT.as_secs())),
        }
    }

    async fn post(&self, t: &Try<'_>) -> Answer {
        // A name is checked as the client resolves it; an address written in the URL here.
        let url = match self.reach.parse(t.url).and_then(|url| self.reach.literal(&url).map(|_| url)) {
            Ok(url) => url,
            Err(e) => return Answer::Failed(e.to_string()),
        };
        let signatures: Vec<String> =
            t.secrets.iter().filter_map(|s| signature(s, t.id, t.timestamp, t.body)).collect();
        let sent = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .header("webhook-id", t.id)
            .header("webhook-timestamp", t.timestamp.to_string())
            .header("webhook-signature", signatures.join(" "))
            .body(t.body.to_string())
            .send()
            .await;
        let mut response = match sent {
            Ok(r) => r,
            Err(e) => return Answer::Failed(short(&failure(&e))),
        };
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse().ok());
        // Read a bounded part of the answer, so the connection can be reused; the rest is dropped.
        let mut read = 0;
        while read < MAX_ANSWER
            && let Ok(Some(chunk)) = response.chunk().await
        {
            read += chunk.len();
        }
        Answer::Status(status, retry_after)
    }
}

/// A transport error in words, without the URL (it may carry a secret)
/// and with its causes.
fn failure(e: &reqwest::Error) -> String {
    use std::error::Error;
    let mut words = if e.is_timeout() { "timed out".to_string() } else { e.to_string() };
    let mut cause = e.source();
    while let Some(c) = cause {
        words.push_str(": ");
        words.push_str(&c.to_string());
        cause = c.source();
    }
    words
}

/// A transport error in at most 200 characters, for the delivery list.
fn short(s: &str) -> String {
    s.chars().take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_standard_webhooks_example() {
        // The specification's own example (standard-webhooks, spec/standard-webhooks.md).
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = r#"{"test": 2432232314}"#;
        let sig = signature(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330, body);
        assert_eq!(sig.as_deref(), Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="));
    }

    #[test]
    fn a_secret_is_whsec_and_32_random_bytes() {
        let (a, b) = (new_secret().unwrap(), new_secret().unwrap());
        assert!(a.starts_with("whsec_") && a != b);
        assert_eq!(STANDARD.decode(&a[6..]).unwrap().len(), 32);
        assert!(signature("not a secret", "id", 1, "{}").is_none());
    }

    #[tokio::test]
    async fn endpoints_must_be_https_and_public_unless_allowed() {
        let strict = Reach { allow_private: false };
        assert_eq!(strict.check("http://93.184.215.14/hook").await, Err(AddressError::NotHttps));
        assert_eq!(strict.check("ftp://93.184.215.14/").await, Err(AddressError::NotHttps));
        for private in
            ["https://127.0.0.1:9/", "https://[::1]/", "https://localhost/", "https://[::127.0.0.1]/"]
        {
            assert!(matches!(strict.check(private).await, Err(AddressError::Private(_))), "{private}");
        }
        assert!(matches!(strict.check("not-a-url").await, Err(AddressError::Url(_))));
        let open = Reach { allow_private: true };
        assert_eq!(open.check("http://127.0.0.1:9/hook").await.as_deref(), Ok("http://127.0.0.1:9/hook"));
        assert_eq!(open.check("gopher://127.0.0.1/").await, Err(AddressError::NotHttps));
    }

    #[tokio::test]
    async fn a_url_with_a_password_or_a_control_character_is_refused() {
        let open = Reach { allow_private: true };
        assert_eq!(open.check("http://user:pass@127.0.0.1/hook").await, Err(AddressError::UserInfo));
        assert_eq!(open.check("http://user@127.0.0.1/hook").await, Err(AddressError::UserInfo));
        assert_eq!(
            open.check("http://127.0.0.1/ho\r\nok").await,
            Err(AddressError::Character { at: 20, code: 0x0D })
        );
        assert_eq!(
            open.check("http://127.0.0.1/a\u{202E}b").await,
            Err(AddressError::Character { at: 19, code: 0x202E })
        );
        assert_eq!(
            open.check(" http://127.0.0.1/").await,
            Err(AddressError::Character { at: 1, code: 0x20 })
        );
        assert_eq!(
            open.check(&format!("http://127.0.0.1/{}", "a".repeat(2000))).await,
            Err(AddressError::TooLong(2017))
        );
    }

    #[test]
    fn logs_and_events_show_a_url_without_its_secrets() {
        assert_eq!(
            redacted("http://user:PASS@example.com:8080/hook?token=abc#x"),
            "http://example.com:8080/hook?redacted"
        );
        assert_eq!(redacted("https://example.com/hook"), "https://example.com/hook");
    }
}
