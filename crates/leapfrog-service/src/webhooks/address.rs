//! Which addresses a webhook may reach: those the IANA special-purpose
//! address registries call globally reachable (rule book §16).
//!
//! The registries (IPv4 and IPv6 Special-Purpose Address Registries,
//! RFC 6890 and its updates) are kept here as data: one row an entry,
//! the longest matching prefix deciding. An address no entry covers is
//! global for IPv4 (but for multicast, which has its own registry) and,
//! for IPv6, only inside global unicast (2000::/3). Every IPv6 form that
//! carries an IPv4 address — mapped, compatible, translated, NAT64, 6to4,
//! Teredo (its server and its client) — is judged by the IPv4 address
//! inside, so that no spelling of 127.0.0.1 passes for another address.
//! The standard library's `is_global` would say much of this, but it is
//! not stable; no well-kept crate gives the embedded forms.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// An entry: its prefix, its length, and whether it is globally reachable.
type Entry<T> = (T, u8, bool);

/// The IPv4 Special-Purpose Address Registry (as of 2025), then multicast.
pub const IPV4: [Entry<Ipv4Addr>; 26] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8, false),          // "this network"
    (Ipv4Addr::new(0, 0, 0, 0), 32, false),         // "this host on this network"
    (Ipv4Addr::new(10, 0, 0, 0), 8, false),         // private use
    (Ipv4Addr::new(100, 64, 0, 0), 10, false),      // shared address space (carrier-grade NAT)
    (Ipv4Addr::new(127, 0, 0, 0), 8, false),        // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16, false),     // link local
    (Ipv4Addr::new(172, 16, 0, 0), 12, false),      // private use
    (Ipv4Addr::new(192, 0, 0, 0), 24, false),       // IETF protocol assignments
    (Ipv4Addr::new(192, 0, 0, 0), 29, false),       // IPv4 service continuity prefix
    (Ipv4Addr::new(192, 0, 0, 8), 32, false),       // IPv4 dummy address
    (Ipv4Addr::new(192, 0, 0, 9), 32, true),        // Port Control Protocol anycast
    (Ipv4Addr::new(192, 0, 0, 10), 32, true),       // TURN anycast
    (Ipv4Addr::new(192, 0, 0, 170), 32, false),     // NAT64/DNS64 discovery
    (Ipv4Addr::new(192, 0, 0, 171), 32, false),     // NAT64/DNS64 discovery
    (Ipv4Addr::new(192, 0, 2, 0), 24, false),       // documentation (TEST-NET-1)
    (Ipv4Addr::new(192, 31, 196, 0), 24, true),     // AS112-v4
    (Ipv4Addr::new(192, 52, 193, 0), 24, true),     // AMT
    (Ipv4Addr::new(192, 88, 99, 0), 24, false),     // deprecated 6to4 relay anycast (and 6a44)
    (Ipv4Addr::new(192, 168, 0, 0), 16, false),     // private use
    (Ipv4Addr::new(192, 175, 48, 0), 24, true),     // direct delegation AS112 service
    (Ipv4Addr::new(198, 18, 0, 0), 15, false),      // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24, false),    // documentation (TEST-NET-2)
    (Ipv4Addr::new(203, 0, 113, 0), 24, false),     // documentation (TEST-NET-3)
    (Ipv4Addr::new(240, 0, 0, 0), 4, false),        // reserved
    (Ipv4Addr::new(255, 255, 255, 255), 32, false), // limited broadcast
    (Ipv4Addr::new(224, 0, 0, 0), 4, false),        // multicast (its own registry)
];

/// The IPv6 Special-Purpose Address Registry (as of 2025), then the rest
/// of the address space: global unicast only, multicast and the
/// deprecated site-local block not.
pub const IPV6: [Entry<Ipv6Addr>; 30] = [
    (v6([0, 0, 0, 0, 0, 0, 0, 0]), 0, false),     // outside global unicast
    (v6([0x2000, 0, 0, 0, 0, 0, 0, 0]), 3, true), // global unicast
    (v6([0, 0, 0, 0, 0, 0, 0, 1]), 128, false),   // loopback
    (v6([0, 0, 0, 0, 0, 0, 0, 0]), 128, false),   // unspecified
    (v6([0, 0, 0, 0, 0, 0xffff, 0, 0]), 96, false), // IPv4-mapped (judged by the IPv4 inside first)
    (v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0]), 96, true), // IPv4-IPv6 translation (judged by the IPv4 inside first)
    (v6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0]), 48, false), // IPv4-IPv6 translation, local use
    (v6([0x100, 0, 0, 0, 0, 0, 0, 0]), 64, false),    // discard-only
    (v6([0x100, 0, 0, 1, 0, 0, 0, 0]), 64, false),    // dummy IPv6 prefix
    (v6([0x2001, 0, 0, 0, 0, 0, 0, 0]), 23, false),   // IETF protocol assignments
    (v6([0x2001, 0, 0, 0, 0, 0, 0, 0]), 32, false),   // Teredo (judged by the IPv4 inside first)
    (v6([0x2001, 1, 0, 0, 0, 0, 0, 1]), 128, true),   // Port Control Protocol anycast
    (v6([0x2001, 1, 0, 0, 0, 0, 0, 2]), 128, true),   // TURN anycast
    (v6([0x2001, 1, 0, 0, 0, 0, 0, 3]), 128, true),   // DNS-SD service registration protocol anycast
    (v6([0x2001, 2, 0, 0, 0, 0, 0, 0]), 48, false),   // benchmarking
    (v6([0x2001, 3, 0, 0, 0, 0, 0, 0]), 32, true),    // AMT
    (v6([0x2001, 4, 0x112, 0, 0, 0, 0, 0]), 48, true), // AS112-v6
    (v6([0x2001, 0x10, 0, 0, 0, 0, 0, 0]), 28, false), // deprecated ORCHID
    (v6([0x2001, 0x20, 0, 0, 0, 0, 0, 0]), 28, true), // ORCHIDv2
    (v6([0x2001, 0x30, 0, 0, 0, 0, 0, 0]), 28, true), // drone remote ID entity tags
    (v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]), 32, false), // documentation
    (v6([0x2002, 0, 0, 0, 0, 0, 0, 0]), 16, false),   // 6to4 (judged by the IPv4 inside first)
    (v6([0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0]), 48, true), // direct delegation AS112 service
    (v6([0x3fff, 0, 0, 0, 0, 0, 0, 0]), 20, false),   // documentation
    (v6([0x5f00, 0, 0, 0, 0, 0, 0, 0]), 16, false),   // segment routing (SRv6) SIDs
    (v6([0xfc00, 0, 0, 0, 0, 0, 0, 0]), 7, false),    // unique local
    (v6([0xfe80, 0, 0, 0, 0, 0, 0, 0]), 10, false),   // link-local unicast
    (v6([0xfec0, 0, 0, 0, 0, 0, 0, 0]), 10, false),   // site-local (deprecated)
    (v6([0xff00, 0, 0, 0, 0, 0, 0, 0]), 8, false),    // multicast
    (v6([0, 0, 0, 0, 0, 0, 0, 0]), 96, false), // IPv4-compatible (deprecated; judged by the IPv4 inside first)
];

const fn v6(s: [u16; 8]) -> Ipv6Addr {
    Ipv6Addr::new(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])
}

/// Whether a receiver may be at `ip`: globally reachable, by the
/// registries, and so is every IPv4 address it carries.
pub fn is_global(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => global_v4(v4),
        IpAddr::V6(v6) => {
            let inside = embedded_v4(v6);
            if !inside.is_empty() {
                return inside.into_iter().all(global_v4);
            }
            longest(&IPV6, u128::from(v6), 128)
        }
    }
}

fn global_v4(ip: Ipv4Addr) -> bool {
    longest(&IPV4, u128::from(u32::from(ip)), 32)
}

/// The verdict of the longest entry of `table` holding `bits` (an
/// address of `width` bits); an address no entry holds is global.
fn longest<T: Copy + Into<IpAddr>>(table: &[Entry<T>], bits: u128, width: u8) -> bool {
    let value = |a: T| match a.into() {
        IpAddr::V4(v4) => u128::from(u32::from(v4)),
        IpAddr::V6(v6) => u128::from(v6),
    };
    let holds = |prefix: T, len: u8| {
        let shift = u32::from(width - len);
        len == 0 || (bits >> shift) == (value(prefix) >> shift)
    };
    table
        .iter()
        .filter(|&&(prefix, len, _)| holds(prefix, len))
        .max_by_key(|&&(_, len, _)| len)
        .is_none_or(|&(_, _, global)| global)
}

/// The IPv4 addresses an IPv6 address carries, by its form: IPv4-mapped
/// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), IPv4-translated
/// (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`), 6to4
/// (`2002:aabb:ccdd::`) and Teredo (`2001:0:server:…:~client`).
pub fn embedded_v4(ip: Ipv6Addr) -> Vec<Ipv4Addr> {
    let s = ip.segments();
    let pair = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    match s {
        [0, 0, 0, 0, 0, 0xffff, hi, lo] | [0, 0, 0, 0, 0xffff, 0, hi, lo] | [0, 0, 0, 0, 0, 0, hi, lo] => {
            vec![pair(hi, lo)]
        }
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => vec![pair(hi, lo)],
        [0x2002, hi, lo, ..] => vec![pair(hi, lo)],
        [0x2001, 0, server_hi, server_lo, _, _, client_hi, client_lo] => {
            vec![pair(server_hi, server_lo), pair(!client_hi, !client_lo)]
        }
        _ => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One address inside each registry entry (its first, and for a
    /// block its last), with the registry's verdict.
    #[test]
    fn every_ipv4_registry_entry_is_judged_as_the_registry_says() {
        for (prefix, len, global) in IPV4 {
            let first = u32::from(prefix);
            let last = first | (u32::MAX.checked_shr(u32::from(len)).unwrap_or(0));
            for a in [first, last] {
                let ip = Ipv4Addr::from(a);
                assert_eq!(is_global(IpAddr::V4(ip)), global, "{ip} in {prefix}/{len}");
            }
        }
    }

    #[test]
    fn every_ipv6_registry_entry_is_judged_as_the_registry_says() {
        // Forms carrying an IPv4 address are judged by it, not by their entry.
        let carries = |ip: Ipv6Addr| !embedded_v4(ip).is_empty();
        for (prefix, len, global) in IPV6 {
            let first = u128::from(prefix);
            // An address a little inside the block, past any longer entry at its start.
            let inside = if len >= 120 { first } else { first | (1u128 << (127 - u32::from(len))) | 0x1234 };
            let ip = Ipv6Addr::from(inside);
            if carries(ip) {
                continue;
            }
            assert_eq!(is_global(IpAddr::V6(ip)), global, "{ip} in {prefix}/{len}");
        }
    }

    #[test]
    fn the_addresses_that_slipped_through_are_refused() {
        for bad in [
            "::127.0.0.1",
            "::7f00:1",
            "::ffff:0:7f00:1",
            "::ffff:127.0.0.1",
            "2002:7f00:1::",
            "2002:a9fe:a9fe::",
            "2002:c0a8:101::1",
            "192.0.0.8",
            "192.88.99.1",
            "100::1",
            // Teredo: server 65.54.227.120, client 127.0.0.1 (inverted: 80ff:fffe).
            "2001:0:4136:e378:8000:63bf:80ff:fffe",
            // Teredo whose server is private.
            "2001:0:a00:1:8000:63bf:3fff:fdd2",
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::1",
            "fec0::1",
            "ff02::1",
            "3fff::1",
            "5f00::1",
            "2001:db8::1",
            "2001:2::1",
            "2001:10::1",
            "::",
            "::1",
            "fe80::1",
            "fd12::1",
        ] {
            let ip: IpAddr = bad.parse().unwrap();
            assert!(!is_global(ip), "{bad} must be refused");
        }
    }

    #[test]
    fn public_addresses_in_every_spelling_pass() {
        for good in [
            "93.184.215.14",
            "1.1.1.1",
            "192.0.0.9",
            "2606:4700:4700::1111",
            "::ffff:1.1.1.1",
            "64:ff9b::101:101",
            "2002:101:101::1",
            "2001:0:4136:e378:8000:63bf:fefe:fefe", // Teredo: server and client (1.1.1.1) public
            "2001:4:112::1",
            "2001:20::1",
        ] {
            let ip: IpAddr = good.parse().unwrap();
            assert!(is_global(ip), "{good} is public");
        }
    }
}
