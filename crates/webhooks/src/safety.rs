//! Where deliveries may go (server-side request forgery). An endpoint whose
//! URL names `localhost` or a literal private, loopback, link-local or
//! metadata address is refused when saved; a name that resolves to one is
//! refused at delivery: every address it resolves to is checked, and the
//! connection goes to a checked address, so a name cannot change its
//! answer between the check and the connection. Redirects are not
//! followed. `CA_WEBHOOKS_ALLOW_PRIVATE=true` allows such destinations (for
//! trying endpoints on one's own machine).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use url::{Host, Url};

/// Why a destination is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("The URL must be a valid http(s) address")]
    NotAUrl,
    #[error("The URL must start with https://")]
    NotHttps,
    #[error(
        "The URL cannot point at this server's own network (localhost, a private, loopback, link-local or cloud metadata address)"
    )]
    Private,
    #[error("The URL's host could not be resolved")]
    Unresolvable,
}

/// Whether `ip` is one no delivery may reach: loopback, private, link-local
/// (the cloud metadata address 169.254.169.254 among them), shared or
/// reserved ranges, or their IPv6 counterparts.
pub fn is_internal(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => internal_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return internal_v4(v4);
            }
            let seg = v6.segments();
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (seg[0] & 0xfe00) == 0xfc00 // unique local
                || (seg[0] & 0xffc0) == 0xfe80 // link-local
                || v6 == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) // AWS metadata
        }
    }
}

fn internal_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..=127).contains(&b)) // shared (carrier-grade NAT)
        || (a == 192 && b == 0 && ip.octets()[2] == 0) // IETF protocol assignments
        || a >= 240 // reserved
}

/// Checks an endpoint URL as it is saved.
pub fn check_url(raw: &str, allow_private: bool) -> Result<Url, Refused> {
    let url = Url::parse(raw.trim()).map_err(|_| Refused::NotAUrl)?;
    if !matches!(url.scheme(), "http" | "https") || url.host().is_none() {
        return Err(Refused::NotAUrl);
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Refused::NotAUrl);
    }
    let internal = match url.host() {
        Some(Host::Domain(d)) => {
            let d = d.trim_end_matches('.').to_ascii_lowercase();
            d == "localhost" || d.ends_with(".localhost")
        }
        Some(Host::Ipv4(ip)) => is_internal(IpAddr::V4(ip)),
        Some(Host::Ipv6(ip)) => is_internal(IpAddr::V6(ip)),
        None => true,
    };
    if internal && !allow_private {
        return Err(Refused::Private);
    }
    // Plain http only towards one's own machine while trying endpoints out.
    if url.scheme() == "http" && !(allow_private && internal) {
        return Err(Refused::NotHttps);
    }
    Ok(url)
}

/// Resolves the URL's host and checks every address; answers the address
/// to connect to.
pub async fn resolve(url: &Url, allow_private: bool) -> Result<SocketAddr, Refused> {
    let port = url.port_or_known_default().ok_or(Refused::NotAUrl)?;
    let addrs: Vec<SocketAddr> = match url.host() {
        Some(Host::Ipv4(ip)) => vec![SocketAddr::new(IpAddr::V4(ip), port)],
        Some(Host::Ipv6(ip)) => vec![SocketAddr::new(IpAddr::V6(ip), port)],
        Some(Host::Domain(d)) => tokio::net::lookup_host((d, port))
            .await
            .map_err(|_| Refused::Unresolvable)?
            .collect(),
        None => return Err(Refused::NotAUrl),
    };
    pick(&addrs, allow_private)
}

/// The address to connect to among those a host resolved to: none when any
/// of them is internal (a name answering both a public and a private
/// address could be switched between them).
pub fn pick(addrs: &[SocketAddr], allow_private: bool) -> Result<SocketAddr, Refused> {
    let first = *addrs.first().ok_or(Refused::Unresolvable)?;
    if !allow_private && addrs.iter().any(|a| is_internal(a.ip())) {
        return Err(Refused::Private);
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_loopback_link_local_and_metadata_addresses_are_internal() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
        ] {
            assert!(is_internal(ip.parse().expect("ip")), "{ip}");
        }
        for ip in ["8.8.8.8", "203.0.114.1", "2606:4700::1111"] {
            assert!(!is_internal(ip.parse().expect("ip")), "{ip}");
        }
    }

    #[test]
    fn urls_are_checked_when_saved() {
        assert!(check_url("https://hooks.example.in/lead", false).is_ok());
        for (url, why) in [
            ("http://hooks.example.in/lead", Refused::NotHttps),
            ("https://localhost/hook", Refused::Private),
            ("https://127.0.0.1/hook", Refused::Private),
            ("https://10.0.0.5/hook", Refused::Private),
            ("https://169.254.169.254/latest/meta-data", Refused::Private),
            ("https://[::1]/hook", Refused::Private),
            // Other spellings of loopback are the same address.
            ("https://127.1/hook", Refused::Private),
            ("https://0x7f000001/hook", Refused::Private),
            ("https://LOCALHOST./hook", Refused::Private),
            ("https://api.localhost/hook", Refused::Private),
            ("https://[::ffff:127.0.0.1]/hook", Refused::Private),
            ("ftp://example.in/x", Refused::NotAUrl),
            ("https://user:pw@example.in/x", Refused::NotAUrl),
            ("not a url", Refused::NotAUrl),
        ] {
            assert_eq!(check_url(url, false).err(), Some(why), "{url}");
        }
        // Allowed for trying endpoints out on one's own machine.
        assert!(check_url("http://127.0.0.1:9000/hook", true).is_ok());
        assert!(check_url("http://localhost:9000/hook", true).is_ok());
        assert_eq!(
            check_url("http://hooks.example.in/x", true).err(),
            Some(Refused::NotHttps)
        );
    }

    #[test]
    fn a_name_resolving_to_any_internal_address_is_not_connected_to() {
        let public: SocketAddr = "203.0.114.7:443".parse().expect("addr");
        assert_eq!(pick(&[public], false), Ok(public));
        for internal in [
            "127.0.0.1:443",
            "10.20.30.40:443",
            "169.254.169.254:80",
            "[::1]:443",
        ] {
            let internal: SocketAddr = internal.parse().expect("addr");
            assert_eq!(
                pick(&[internal], false),
                Err(Refused::Private),
                "{internal}"
            );
            // One internal answer among public ones is enough to refuse.
            assert_eq!(
                pick(&[public, internal], false),
                Err(Refused::Private),
                "{internal}"
            );
            assert_eq!(pick(&[internal], true), Ok(internal));
        }
        assert_eq!(pick(&[], false), Err(Refused::Unresolvable));
    }
}
