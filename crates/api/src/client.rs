//! Who is on the other end of a request. `X-Forwarded-For` is believed only when the connection comes
//! from a proxy the operator listed (CLIPMATRIX_TRUSTED_PROXIES); anyone else could write any address
//! there and dodge the per-address sign-in limits.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use std::net::IpAddr;

/// The trusted proxies: addresses or networks (`10.0.0.0/8`, `::1`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Proxies(Vec<(IpAddr, u8)>);

impl Proxies {
    /// A comma-separated list; an empty one trusts nobody.
    pub fn parse(list: &str) -> Result<Proxies, String> {
        let mut v = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (addr, bits) = item.split_once('/').unwrap_or((item, ""));
            let ip: IpAddr = addr
                .parse()
                .map_err(|_| format!("{item:?} is not an IP address or network"))?;
            let ip = ip.to_canonical();
            let max = if ip.is_ipv4() { 32 } else { 128 };
            let bits = match bits {
                "" => max,
                b => b
                    .parse::<u8>()
                    .ok()
                    .filter(|b| *b <= max)
                    .ok_or_else(|| format!("{item:?} has a bad prefix length"))?,
            };
            v.push((ip, bits));
        }
        Ok(Proxies(v))
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|(net, bits)| match (ip, net) {
            (IpAddr::V4(a), IpAddr::V4(n)) => {
                let mask = u32::MAX.checked_shl(32 - *bits as u32).unwrap_or(0);
                u32::from(a) & mask == u32::from(*n) & mask
            }
            (IpAddr::V6(a), IpAddr::V6(n)) => {
                let mask = u128::MAX.checked_shl(128 - *bits as u32).unwrap_or(0);
                u128::from(a) & mask == u128::from(*n) & mask
            }
            _ => false,
        })
    }
}

/// The client's address: the peer itself, or — when the peer is a trusted proxy — the nearest
/// `X-Forwarded-For` hop that is not one of ours (read right to left: the left end is what the client
/// wrote itself). A hop that is not an address stops the walk at the proxy before it.
pub fn client_ip(headers: &HeaderMap, peer: Option<IpAddr>, proxies: &Proxies) -> String {
    let Some(peer) = peer.map(|p| p.to_canonical()) else {
        return String::new();
    };
    if !proxies.contains(peer) {
        return peer.to_string();
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(ip) => {
                client = ip.to_canonical();
                if !proxies.contains(client) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    client.to_string()
}

/// The caller's address as `guard` worked it out (empty when unknown).
#[derive(Debug, Clone, Default)]
pub struct ClientIp(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<ClientIp>()
            .cloned()
            .unwrap_or_default())
    }
}

/// The value of the cookie `name`, if the request carries it.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}
