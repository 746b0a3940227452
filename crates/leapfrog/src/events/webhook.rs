//! One webhook delivery on the wire (rule book §16): signed as the
//! Standard Webhooks specification says, sent only to public addresses,
//! never following a redirect, within a bounded time and size.

use std::io::Read;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{KeyInit, Mac};

/// How long one try may take, connecting and answering.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// The most of an answer read (a delivery's body is at most
/// [`crate::store::MAX_BODY`] too).
pub const MAX_ANSWER: usize = 64 * 1024;
/// What every secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";

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

/// Whether a receiver may be at `ip`: not loopback, private, link-local,
/// shared (carrier-grade NAT), multicast, unspecified or reserved — the
/// addresses an outsider must not reach through the server (SSRF).
pub fn public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_broadcast()
                || v4.is_unspecified()
                || v4.is_documentation()
                || a == 0
                || a >= 240
                || (a == 100 && (64..128).contains(&b))
                || (a == 198 && (b == 18 || b == 19)))
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00 // unique local
                || (first & 0xffc0) == 0xfe80 // link-local
                || (first & 0xffc0) == 0xfec0 // site-local
                || first == 0x2001 && v6.segments()[1] == 0x0db8 // documentation
                || first == 0x0064 && v6.segments()[1] == 0xff9b) // NAT64 reaches IPv4's private ranges
        }
    }
}

/// Why an endpoint's address is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Not a URL, or no host in it.
    #[error("the URL does not read: {0}")]
    Url(String),
    /// Not `https://` (and the server does not allow `http://`).
    #[error("only https:// endpoints are allowed")]
    NotHttps,
    /// The name resolves to no address, or not in time.
    #[error("{0} does not resolve")]
    Unresolved(String),
    /// One of its addresses is not public.
    #[error("{0} is a private, loopback or link-local address; receivers must be public")]
    Private(IpAddr),
}

/// Where deliveries may go: public addresses over HTTPS only, unless the
/// server allows private ones and plain HTTP (tests, closed networks).
#[derive(Debug, Clone, Copy)]
pub struct Reach {
    /// `--webhook-allow-private`.
    pub allow_private: bool,
}

impl Reach {
    /// Checks an endpoint's URL: its scheme, and every address its host
    /// resolves to now (blocking: call it off the request threads).
    ///
    /// # Errors
    ///
    /// What is wrong with it.
    pub fn check(self, url: &str) -> Result<(), AddressError> {
        let parsed = url::Url::parse(url).map_err(|e| AddressError::Url(e.to_string()))?;
        match parsed.scheme() {
            "https" => {}
            "http" if self.allow_private => {}
            _ => return Err(AddressError::NotHttps),
        }
        let host = parsed.host_str().ok_or_else(|| AddressError::Url("it has no host".into()))?;
        let port = parsed.port_or_known_default().unwrap_or(443);
        self.resolve(&format!("{host}:{port}")).map(drop)
    }

    /// The addresses of `netloc` (`host:port`), all public unless private
    /// ones are allowed: checked here, just before connecting, so that a
    /// name that changes its answer (DNS rebinding) cannot slip through.
    fn resolve(self, netloc: &str) -> Result<Vec<SocketAddr>, AddressError> {
        let addrs: Vec<SocketAddr> =
            netloc.to_socket_addrs().map_err(|_| AddressError::Unresolved(netloc.to_string()))?.collect();
        if addrs.is_empty() {
            return Err(AddressError::Unresolved(netloc.to_string()));
        }
        if !self.allow_private
            && let Some(bad) = addrs.iter().find(|a| !public(a.ip()))
        {
            return Err(AddressError::Private(bad.ip()));
        }
        Ok(addrs)
    }
}

impl ureq::Resolver for Reach {
    fn resolve(&self, netloc: &str) -> std::io::Result<Vec<SocketAddr>> {
        Reach::resolve(*self, netloc)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::PermissionDenied, e))
    }
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

/// Sends one try (blocking: run it off the async threads).
pub fn send(agent: &ureq::Agent, t: &Try<'_>) -> Answer {
    let signatures: Vec<String> =
        t.secrets.iter().filter_map(|s| signature(s, t.id, t.timestamp, t.body)).collect();
    let sent = agent
        .post(t.url)
        .set("content-type", "application/json")
        .set("user-agent", concat!("leapfrog-webhooks/", env!("CARGO_PKG_VERSION")))
        .set("webhook-id", t.id)
        .set("webhook-timestamp", &t.timestamp.to_string())
        .set("webhook-signature", &signatures.join(" "))
        .send_string(t.body);
    let response = match sent {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(ureq::Error::Transport(e)) => return Answer::Failed(short(&e.to_string())),
    };
    let status = response.status();
    let retry_after = response.header("retry-after").and_then(|v| v.trim().parse().ok());
    // Read a bounded part of the answer, so the connection can be reused; the rest is dropped.
    let _ = response.into_reader().take(MAX_ANSWER as u64).read_to_end(&mut Vec::new());
    Answer::Status(status, retry_after)
}

/// An agent that checks every address it connects to and follows no
/// redirect.
pub fn agent(reach: Reach) -> ureq::Agent {
    ureq::AgentBuilder::new().resolver(reach).redirects(0).timeout(TIMEOUT).build()
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

    #[test]
    fn only_public_addresses_may_receive() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
        ] {
            assert!(!public(private.parse().unwrap()), "{private} is not public");
        }
        for open in ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111"] {
            assert!(public(open.parse().unwrap()), "{open} is public");
        }
    }

    #[test]
    fn endpoints_must_be_https_and_public_unless_allowed() {
        let strict = Reach { allow_private: false };
        assert_eq!(strict.check("http://93.184.215.14/hook"), Err(AddressError::NotHttps));
        assert_eq!(strict.check("ftp://93.184.215.14/"), Err(AddressError::NotHttps));
        assert!(matches!(strict.check("https://127.0.0.1:9/"), Err(AddressError::Private(_))));
        assert!(matches!(strict.check("https://[::1]/"), Err(AddressError::Private(_))));
        assert!(matches!(strict.check("https://localhost/"), Err(AddressError::Private(_))));
        assert!(matches!(strict.check("not a url"), Err(AddressError::Url(_))));
        let open = Reach { allow_private: true };
        assert_eq!(open.check("http://127.0.0.1:9/hook"), Ok(()));
        assert_eq!(open.check("gopher://127.0.0.1/"), Err(AddressError::NotHttps));
    }
}
