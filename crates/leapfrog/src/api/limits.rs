//! Per-client rate limits: token buckets keyed by the client's address.
//!
//! Each kind of request (creating games, moves, opening event streams) has
//! a bucket per client: `burst` requests at once, refilled at `per_second`.
//! The defaults stop floods, not play: a whole 15×15 game played as fast as
//! one connection can, or a page opening a handful of streams, stays under
//! them. Over a limit the answer is 429 with `Retry-After`.
//!
//! The client's address is the connection's peer, or — when the peer is a
//! trusted reverse proxy (`--trust-proxy`) — the nearest untrusted address
//! of its `X-Forwarded-For`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// A kind of request with its own bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// `POST /v1/games`.
    Create,
    /// `POST /v1/games/{id}/moves`.
    Move,
    /// `GET /v1/games/{id}/events`.
    Stream,
    /// `POST /v1/analysis`.
    Analysis,
    /// `POST /v1/accounts` and `POST /v1/tokens`: a password checked.
    SignIn,
}

impl Class {
    /// Its name as a metric's label.
    pub fn limit_name(self) -> &'static str {
        match self {
            Class::Create => "rate_create",
            Class::Move => "rate_move",
            Class::Stream => "rate_stream",
            Class::Analysis => "rate_analysis",
            Class::SignIn => "rate_sign_in",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Class::Create => "games created",
            Class::Move => "moves",
            Class::Stream => "event streams opened",
            Class::Analysis => "analyses asked for",
            Class::SignIn => "sign-ups and sign-ins",
        }
    }
}

/// A bucket's size and refill rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Requests allowed at once.
    pub burst: f64,
    /// Requests added back per second.
    pub per_second: f64,
}

/// A network, `addr/prefix` or one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    addr: IpAddr,
    prefix: u8,
}

impl std::str::FromStr for Network {
    type Err = String;

    fn from_str(s: &str) -> Result<Network, String> {
        let (addr, prefix) = s.split_once('/').map_or((s, None), |(a, p)| (a, Some(p)));
        let addr: IpAddr = addr.trim().parse().map_err(|e| format!("'{s}' is not an address: {e}"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("'{s}': the prefix length must be 0 to {max}"))?,
        };
        Ok(Network { addr, prefix })
    }
}

impl Network {
    /// Whether `ip` is in it.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let bits = |ip: IpAddr| match ip {
            IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => (u128::from(u32::from(v4)), 32),
                None => (u128::from(v6), 128),
            },
        };
        let ((net, width), (ip, ip_width)) = (bits(self.addr), bits(ip));
        if width != ip_width {
            return false;
        }
        let shift = u32::from(width - self.prefix.min(width));
        shift >= 128 || (net >> shift) == (ip >> shift)
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of every client.
#[derive(Debug)]
pub struct Limiter {
    rates: HashMap<Class, Rate>,
    trusted: Vec<Network>,
    buckets: Mutex<HashMap<(Class, IpAddr), Bucket>>,
}

/// Buckets kept before the full ones are dropped (a full bucket is the
/// same as none).
const PRUNE_AT: usize = 8192;

impl Limiter {
    /// Limits with these rates (a class without one is not limited),
    /// trusting `X-Forwarded-For` from `trusted` proxies.
    pub fn new(rates: impl IntoIterator<Item = (Class, Rate)>, trusted: Vec<Network>) -> Limiter {
        Limiter { rates: rates.into_iter().collect(), trusted, buckets: Mutex::default() }
    }

    /// Whether `peer` is a proxy the server trusts.
    pub fn trusts(&self, peer: IpAddr) -> bool {
        self.trusted.iter().any(|n| n.contains(peer))
    }

    /// The client's address: the peer, or what a trusted proxy forwarded.
    pub fn client(&self, peer: Option<IpAddr>, forwarded_for: Option<&str>) -> Option<IpAddr> {
        let peer = peer?;
        if !self.trusted.iter().any(|n| n.contains(peer)) {
            return Some(peer);
        }
        // Proxies append: the nearest untrusted hop is the client.
        let hops = forwarded_for.unwrap_or("").split(',').rev().map(str::trim);
        let mut client = peer;
        for hop in hops {
            match hop.parse::<IpAddr>() {
                Ok(ip) if self.trusted.iter().any(|n| n.contains(ip)) => client = ip,
                Ok(ip) => return Some(ip),
                Err(_) => break,
            }
        }
        Some(client)
    }

    /// Takes one request of `class` from `client`'s bucket at `now`.
    ///
    /// # Errors
    ///
    /// What the limit is and the seconds until a request can pass.
    pub fn take(&self, class: Class, client: IpAddr, now: Instant) -> Result<(), Limited> {
        let Some(rate) = self.rates.get(&class).copied() else { return Ok(()) };
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() >= PRUNE_AT {
            buckets.retain(|(c, _), b| {
                self.rates
                    .get(c)
                    .is_some_and(|r| b.tokens + r.per_second * (now - b.at).as_secs_f64() < r.burst)
            });
        }
        let bucket = buckets.entry((class, client)).or_insert(Bucket { tokens: rate.burst, at: now });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * rate.per_second).min(rate.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        let wait = ((1.0 - bucket.tokens) / rate.per_second).ceil().max(1.0);
        Err(Limited { what: class.what(), rate, retry_after: wait as u64 })
    }
}

/// Over a limit.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "too many {what} from this address: {} at once, then {} a second; retry in {retry_after} s",
    rate.burst,
    rate.per_second
)]
pub struct Limited {
    what: &'static str,
    rate: Rate,
    /// Seconds until a request can pass.
    pub retry_after: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn a_bucket_allows_its_burst_then_refills_at_its_rate() {
        let limiter = Limiter::new([(Class::Move, Rate { burst: 3.0, per_second: 2.0 })], vec![]);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.take(Class::Move, ip("10.0.0.1"), t0).is_ok());
        }
        let refused = limiter.take(Class::Move, ip("10.0.0.1"), t0).unwrap_err();
        assert_eq!(refused.retry_after, 1);
        assert!(refused.to_string().contains("too many moves"), "{refused}");
        // Another client, and another class, have their own buckets.
        assert!(limiter.take(Class::Move, ip("10.0.0.2"), t0).is_ok());
        assert!(limiter.take(Class::Create, ip("10.0.0.1"), t0).is_ok());
        // Half a second later one token is back, and only one.
        let later = t0 + Duration::from_millis(500);
        assert!(limiter.take(Class::Move, ip("10.0.0.1"), later).is_ok());
        assert!(limiter.take(Class::Move, ip("10.0.0.1"), later).is_err());
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let trusted = vec!["10.0.0.0/8".parse().unwrap_or_else(|e| panic!("{e}"))];
        let limiter = Limiter::new([], trusted);
        let xff = Some("203.0.113.9, 198.51.100.7, 10.1.2.3");
        // An untrusted peer: its own address, whatever it claims.
        assert_eq!(limiter.client(Some(ip("192.0.2.1")), xff), Some(ip("192.0.2.1")));
        // A trusted proxy: the nearest untrusted hop, not the leftmost.
        assert_eq!(limiter.client(Some(ip("10.9.9.9")), xff), Some(ip("198.51.100.7")));
        // A trusted proxy that forwards nothing readable: the proxy.
        assert_eq!(limiter.client(Some(ip("10.9.9.9")), Some("junk")), Some(ip("10.9.9.9")));
        assert_eq!(limiter.client(Some(ip("10.9.9.9")), None), Some(ip("10.9.9.9")));
    }

    #[test]
    fn networks_read_and_match() {
        let net: Network = "192.168.0.0/16".parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(net.contains(ip("192.168.44.1")));
        assert!(!net.contains(ip("192.169.0.1")));
        assert!(net.contains(ip("::ffff:192.168.1.1")));
        let one: Network = "::1".parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(one.contains(ip("::1")) && !one.contains(ip("::2")));
        let any: Network = "0.0.0.0/0".parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(any.contains(ip("8.8.8.8")));
        assert!("10.0.0.0/33".parse::<Network>().unwrap_err().contains("0 to 32"));
        assert!("nope".parse::<Network>().is_err());
    }
}
