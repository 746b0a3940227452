//! Per-client rate limits: token buckets keyed by the client's network,
//! and for what protects an account, by the account as well.
//!
//! Each kind of request (creating games, moves, opening event streams) has
//! a bucket per client: `burst` requests at once, refilled at `per_second`.
//! The defaults stop floods, not play: a whole 15×15 game played as fast as
//! one connection can, or a page opening a handful of streams, stays under
//! them. Over a limit the answer is 429 with `Retry-After`.
//!
//! A client is a network, not an address: one ordinary IPv6 connection
//! holds a /64 (2^64 addresses), so IPv6 addresses are grouped by their
//! first 64 bits and IPv4 ones by all 32 (both server options). The
//! client's address is the connection's peer, or — when the peer is a
//! trusted reverse proxy (`--trust-proxy`) — the nearest untrusted address
//! of its `X-Forwarded-For`.
//!
//! Limits that protect an account are also kept per account, whatever the
//! networks: games created by an account, and wrong passwords given for a
//! name (a guesser spread over many networks meets them). A network that
//! signed in to an account lately is spared the account's limit on wrong
//! passwords, so a flood of guesses cannot lock the owner out at home.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// Wrong passwords given for one account name, from any network.
    WrongPassword,
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
            Class::WrongPassword => "rate_wrong_password",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Class::Create => "games created",
            Class::Move => "moves",
            Class::Stream => "event streams opened",
            Class::Analysis => "analyses asked for",
            Class::SignIn => "sign-ups and sign-ins",
            Class::WrongPassword => "wrong passwords",
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

impl std::fmt::Display for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let max = if self.addr.is_ipv4() { 32 } else { 128 };
        if self.prefix == max {
            write!(f, "{}", self.addr)
        } else {
            write!(f, "{}/{}", self.addr, self.prefix)
        }
    }
}

impl Network {
    /// The client `ip` is part of: its network under `grouping` (an IPv4
    /// address mapped into IPv6 counts as IPv4).
    pub fn of(ip: IpAddr, grouping: Grouping) -> Network {
        let v4 = |v4: std::net::Ipv4Addr| {
            let mask = u32::MAX.checked_shl(u32::from(32 - grouping.v4)).unwrap_or(0);
            Network { addr: IpAddr::V4((u32::from(v4) & mask).into()), prefix: grouping.v4 }
        };
        match ip {
            IpAddr::V4(addr) => v4(addr),
            IpAddr::V6(addr) => match addr.to_ipv4_mapped() {
                Some(addr) => v4(addr),
                None => {
                    let mask = u128::MAX.checked_shl(u32::from(128 - grouping.v6)).unwrap_or(0);
                    Network { addr: IpAddr::V6((u128::from(addr) & mask).into()), prefix: grouping.v6 }
                }
            },
        }
    }

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

/// How many leading bits of an address make one client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grouping {
    /// Of an IPv4 address, 0 to 32.
    pub v4: u8,
    /// Of an IPv6 address, 0 to 128.
    pub v6: u8,
}

impl Default for Grouping {
    /// An IPv4 address alone; an IPv6 /64, what one connection is given.
    fn default() -> Grouping {
        Grouping { v4: 32, v6: 64 }
    }
}

/// Whose bucket: a client's, or an account's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Key {
    /// A client: its network.
    Client(Network),
    /// An account, by its name in lower case (also a name nobody has:
    /// whether it exists is not told).
    Account(String),
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of every client and account.
#[derive(Debug)]
pub struct Limiter {
    rates: HashMap<Class, Rate>,
    trusted: Vec<Network>,
    grouping: Grouping,
    buckets: Mutex<HashMap<(Class, Key), Bucket>>,
    /// Per account name, the networks that signed in to it lately.
    known: Mutex<HashMap<String, Vec<(Network, Instant)>>>,
}

/// Buckets kept before the full ones are dropped (a full bucket is the
/// same as none).
const PRUNE_AT: usize = 8192;
/// How long a network that signed in to an account is spared the
/// account's limit on wrong passwords.
const KNOWN_FOR: Duration = Duration::from_secs(30 * 24 * 3600);
/// Networks remembered per account, and accounts remembered in all.
const KNOWN_NETWORKS: usize = 8;
const KNOWN_ACCOUNTS: usize = 100_000;

impl Limiter {
    /// Limits with these rates (a class without one is not limited),
    /// trusting `X-Forwarded-For` from `trusted` proxies, one client a
    /// network of `grouping`.
    pub fn new(
        rates: impl IntoIterator<Item = (Class, Rate)>,
        trusted: Vec<Network>,
        grouping: Grouping,
    ) -> Limiter {
        Limiter {
            rates: rates.into_iter().collect(),
            trusted,
            grouping,
            buckets: Mutex::default(),
            known: Mutex::default(),
        }
    }

    /// Whether `peer` is a proxy the server trusts.
    pub fn trusts(&self, peer: IpAddr) -> bool {
        self.trusted.iter().any(|n| n.contains(peer))
    }

    /// The client's address: the peer, or what a trusted proxy forwarded.
    pub fn address(&self, peer: Option<IpAddr>, forwarded_for: Option<&str>) -> Option<IpAddr> {
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

    /// The client: the network of its address.
    pub fn client(&self, peer: Option<IpAddr>, forwarded_for: Option<&str>) -> Option<Network> {
        self.address(peer, forwarded_for).map(|ip| Network::of(ip, self.grouping))
    }

    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes one request of `class` from `key`'s bucket at `now`.
    ///
    /// # Errors
    ///
    /// What the limit is and the seconds until a request can pass.
    pub fn take(&self, class: Class, key: &Key, now: Instant) -> Result<(), Limited> {
        let Some(rate) = self.rates.get(&class).copied() else { return Ok(()) };
        let mut buckets = Self::lock(&self.buckets);
        if buckets.len() >= PRUNE_AT {
            buckets.retain(|(c, _), b| {
                self.rates
                    .get(c)
                    .is_some_and(|r| b.tokens + r.per_second * (now - b.at).as_secs_f64() < r.burst)
            });
        }
        let bucket = buckets.entry((class, key.clone())).or_insert(Bucket { tokens: rate.burst, at: now });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * rate.per_second).min(rate.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            return Ok(());
        }
        let wait = ((1.0 - bucket.tokens) / rate.per_second).ceil().max(1.0);
        let whose = match key {
            Key::Client(_) => "this address",
            Key::Account(_) => "this account",
        };
        Err(Limited { class, what: class.what(), whose, rate, retry_after: wait as u64 })
    }

    /// Gives back a request taken from `key`'s bucket: it did not count
    /// (a right password, for [`Class::WrongPassword`]).
    pub fn give_back(&self, class: Class, key: &Key) {
        let Some(rate) = self.rates.get(&class) else { return };
        if let Some(bucket) = Self::lock(&self.buckets).get_mut(&(class, key.clone())) {
            bucket.tokens = (bucket.tokens + 1.0).min(rate.burst);
        }
    }

    /// A sign-in to `account` from `client` at `now`: one request from the
    /// client's bucket, and one wrong password from the account's, unless
    /// the client signed in to it lately (see the module's notes).
    ///
    /// # Errors
    ///
    /// The limit met.
    pub fn take_sign_in(&self, account: &str, client: Network, now: Instant) -> Result<Attempt, Limited> {
        self.take(Class::SignIn, &Key::Client(client), now)?;
        let account = account.to_lowercase();
        let known = Self::lock(&self.known).get(&account).is_some_and(|nets| {
            nets.iter().any(|(n, at)| *n == client && now.saturating_duration_since(*at) < KNOWN_FOR)
        });
        if !known {
            self.take(Class::WrongPassword, &Key::Account(account.clone()), now)?;
        }
        Ok(Attempt { account, client, charged: !known })
    }

    /// The end of a sign-in: only a wrong password keeps the account's
    /// charge; a right one also makes the client known to the account.
    pub fn signed_in(&self, attempt: Attempt, password: Checked, now: Instant) {
        if password == Checked::Wrong {
            return;
        }
        if attempt.charged {
            self.give_back(Class::WrongPassword, &Key::Account(attempt.account.clone()));
        }
        if password == Checked::Not {
            return;
        }
        let mut known = Self::lock(&self.known);
        if known.len() >= KNOWN_ACCOUNTS && !known.contains_key(&attempt.account) {
            known.retain(|_, nets| nets.iter().any(|(_, at)| now.saturating_duration_since(*at) < KNOWN_FOR));
            if known.len() >= KNOWN_ACCOUNTS {
                return;
            }
        }
        let nets = known.entry(attempt.account).or_default();
        nets.retain(|(n, _)| *n != attempt.client);
        nets.push((attempt.client, now));
        if nets.len() > KNOWN_NETWORKS {
            nets.remove(0);
        }
    }
}

/// How a sign-in's password was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checked {
    /// Right: signed in.
    Right,
    /// Wrong (or no such name).
    Wrong,
    /// Not checked (the password threads were busy).
    Not,
}

/// A sign-in let through, to be told how it ended ([`Limiter::signed_in`]).
#[derive(Debug)]
#[must_use]
pub struct Attempt {
    account: String,
    client: Network,
    charged: bool,
}

/// Over a limit.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "too many {what} from {whose}: {} at once, then {} a second; retry in {retry_after} s",
    rate.burst,
    rate.per_second
)]
pub struct Limited {
    /// The limit met.
    pub class: Class,
    what: &'static str,
    whose: &'static str,
    rate: Rate,
    /// Seconds until a request can pass.
    pub retry_after: u64,
}

/// Places for long answers (exports): at most `per_key` at once for one
/// key (an account), `total` in all; a place is given back when its
/// [`Slot`] is dropped (the answer ended, or its client went away).
#[derive(Debug)]
pub struct Slots {
    per_key: usize,
    total: usize,
    held: Arc<Mutex<HashMap<String, usize>>>,
}

/// Why no place was free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoSlot {
    /// The key holds its most places.
    Key(usize),
    /// Every place is taken.
    All(usize),
}

/// A place held; given back when dropped.
#[derive(Debug)]
pub struct Slot {
    key: String,
    held: Arc<Mutex<HashMap<String, usize>>>,
}

impl Slots {
    /// `per_key` places a key, `total` in all.
    pub fn new(per_key: usize, total: usize) -> Slots {
        Slots { per_key, total, held: Arc::default() }
    }

    /// A place for `key`.
    ///
    /// # Errors
    ///
    /// [`NoSlot`] when the key, or everyone, holds the most places.
    pub fn take(&self, key: &str) -> Result<Slot, NoSlot> {
        let mut held = Limiter::lock(&self.held);
        if held.values().sum::<usize>() >= self.total {
            return Err(NoSlot::All(self.total));
        }
        let mine = held.entry(key.to_string()).or_default();
        if *mine >= self.per_key {
            return Err(NoSlot::Key(self.per_key));
        }
        *mine += 1;
        Ok(Slot { key: key.to_string(), held: self.held.clone() })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = Limiter::lock(&self.held);
        if let Some(n) = held.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn client(s: &str) -> Key {
        Key::Client(Network::of(ip(s), Grouping::default()))
    }

    fn net(s: &str) -> Network {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_client_is_an_ipv6_slash_64_or_an_ipv4_address_or_what_the_server_says() {
        let limiter = Limiter::new([], vec![], Grouping::default());
        let of = |s: &str| limiter.client(Some(ip(s)), None).map(|n| n.to_string());
        assert_eq!(of("2001:db8:1:2:aaaa::1"), Some("2001:db8:1:2::/64".into()));
        assert_eq!(of("2001:db8:1:2:ffff:ffff:ffff:ffff"), of("2001:db8:1:2::9"), "one home, one client");
        assert_ne!(of("2001:db8:1:3::1"), of("2001:db8:1:2::1"));
        assert_eq!(of("198.51.100.7"), Some("198.51.100.7".into()));
        assert_eq!(of("::ffff:198.51.100.7"), of("198.51.100.7"), "IPv4 mapped into IPv6 is IPv4");
        let wider = Limiter::new([], vec![], Grouping { v4: 24, v6: 48 });
        let of = |s: &str| wider.client(Some(ip(s)), None).map(|n| n.to_string());
        assert_eq!(of("198.51.100.7"), Some("198.51.100.0/24".into()));
        assert_eq!(of("2001:db8:1:2::1"), Some("2001:db8:1::/48".into()));
        // A bucket per network: every address of a /64 shares one.
        let limiter = Limiter::new(
            [(Class::Create, Rate { burst: 2.0, per_second: 0.1 })],
            vec![],
            Grouping::default(),
        );
        let t0 = Instant::now();
        for (i, addr) in ["2001:db8::1", "2001:db8::2", "2001:db8::ffff:3"].iter().enumerate() {
            let key = Key::Client(limiter.client(Some(ip(addr)), None).unwrap());
            assert_eq!(limiter.take(Class::Create, &key, t0).is_ok(), i < 2, "{addr}");
        }
    }

    #[test]
    fn wrong_passwords_for_one_account_from_many_networks_meet_its_limit_and_spare_its_owner() {
        let rates = [
            (Class::SignIn, Rate { burst: 100.0, per_second: 1.0 }),
            (Class::WrongPassword, Rate { burst: 3.0, per_second: 0.01 }),
        ];
        let limiter = Limiter::new(rates, vec![], Grouping::default());
        let t0 = Instant::now();
        // The owner signs in from home once: right.
        let home = net("192.0.2.1");
        let attempt = limiter.take_sign_in("Ann", home, t0).unwrap();
        limiter.signed_in(attempt, Checked::Right, t0);
        // Guesses from three networks, each wrong: the account's limit.
        for i in 0..3 {
            let attempt = limiter.take_sign_in("ANN", net(&format!("203.0.113.{i}")), t0).unwrap();
            limiter.signed_in(attempt, Checked::Wrong, t0);
        }
        let refused = limiter.take_sign_in("ann", net("198.51.100.1"), t0).unwrap_err();
        assert!(refused.to_string().contains("wrong passwords from this account"), "{refused}");
        // Another account is not touched; the owner at home still signs in.
        assert!(limiter.take_sign_in("bob", net("198.51.100.1"), t0).is_ok());
        assert!(limiter.take_sign_in("ann", home, t0).is_ok());
        // A right password from a new network does not spend the account's limit.
        let other = Limiter::new(rates, vec![], Grouping::default());
        for i in 0..5 {
            let attempt = other.take_sign_in("cy", net(&format!("203.0.113.{i}")), t0).unwrap();
            other.signed_in(attempt, if i % 2 == 0 { Checked::Right } else { Checked::Not }, t0);
        }
    }

    #[test]
    fn a_bucket_allows_its_burst_then_refills_at_its_rate() {
        let limiter =
            Limiter::new([(Class::Move, Rate { burst: 3.0, per_second: 2.0 })], vec![], Grouping::default());
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.take(Class::Move, &client("10.0.0.1"), t0).is_ok());
        }
        let refused = limiter.take(Class::Move, &client("10.0.0.1"), t0).unwrap_err();
        assert_eq!(refused.retry_after, 1);
        assert!(refused.to_string().contains("too many moves"), "{refused}");
        // Another client, and another class, have their own buckets.
        assert!(limiter.take(Class::Move, &client("10.0.0.2"), t0).is_ok());
        assert!(limiter.take(Class::Create, &client("10.0.0.1"), t0).is_ok());
        // Half a second later one token is back, and only one.
        let later = t0 + Duration::from_millis(500);
        assert!(limiter.take(Class::Move, &client("10.0.0.1"), later).is_ok());
        assert!(limiter.take(Class::Move, &client("10.0.0.1"), later).is_err());
    }

    #[test]
    fn forwarded_addresses_count_only_from_trusted_proxies() {
        let trusted = vec!["10.0.0.0/8".parse().unwrap_or_else(|e| panic!("{e}"))];
        let limiter = Limiter::new([], trusted, Grouping::default());
        let xff = Some("203.0.113.9, 198.51.100.7, 10.1.2.3");
        // An untrusted peer: its own address, whatever it claims.
        assert_eq!(limiter.address(Some(ip("192.0.2.1")), xff), Some(ip("192.0.2.1")));
        // A trusted proxy: the nearest untrusted hop, not the leftmost.
        assert_eq!(limiter.address(Some(ip("10.9.9.9")), xff), Some(ip("198.51.100.7")));
        // A trusted proxy that forwards nothing readable: the proxy.
        assert_eq!(limiter.address(Some(ip("10.9.9.9")), Some("junk")), Some(ip("10.9.9.9")));
        assert_eq!(limiter.address(Some(ip("10.9.9.9")), None), Some(ip("10.9.9.9")));
    }

    #[test]
    fn slots_hold_per_key_and_in_all_and_come_back_when_dropped() {
        let slots = Slots::new(2, 3);
        let (a1, _a2) = (slots.take("ann").unwrap(), slots.take("ann").unwrap());
        assert_eq!(slots.take("ann").unwrap_err(), NoSlot::Key(2));
        let _b = slots.take("bob").unwrap();
        assert_eq!(slots.take("cy").unwrap_err(), NoSlot::All(3));
        drop(a1);
        assert!(slots.take("cy").is_ok());
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
