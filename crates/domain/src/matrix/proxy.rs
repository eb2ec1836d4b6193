//! An account's proxy for the creator-console browser flows: `http://`, `https://` or `socks5://`,
//! a host and a port, credentials allowed (`user:pass@`, not with socks5: chromium cannot send them
//! there), nothing after the port.

use crate::i18n::Msg;
use crate::validate::Invalid;

/// A proxy URL that passed [`check`]: the URL as given (trimmed) and what the console shows of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proxy {
    pub url: String,
    /// `scheme://host:port`, without the credentials.
    pub shown: String,
}

const SCHEMES: [&str; 3] = ["http", "https", "socks5"];
/// The form a proxy is asked in, for the error message.
pub const FORMAT: &str = "http://[user:pass@]host:port | socks5://host:port";

fn bad() -> Invalid {
    Invalid {
        field: "proxy",
        msg: Msg::InvalidValue,
        args: vec![("reason", FORMAT.into())],
    }
}

/// Checks a proxy URL; empty is none (`Ok(None)`).
pub fn check(raw: &str) -> Result<Option<Proxy>, Invalid> {
    let url = raw.trim();
    if url.is_empty() {
        return Ok(None);
    }
    let (scheme, rest) = url.split_once("://").ok_or_else(bad)?;
    let scheme = scheme.to_ascii_lowercase();
    if !SCHEMES.contains(&scheme.as_str()) {
        return Err(bad());
    }
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (creds, hostport) = match rest.rsplit_once('@') {
        Some((c, h)) => (Some(c), h),
        None => (None, rest),
    };
    if creds.is_some_and(|c| c.is_empty() || scheme == "socks5") {
        return Err(bad());
    }
    let (host, port) = hostport.rsplit_once(':').ok_or_else(bad)?;
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
    let port_ok = port.parse::<u16>().is_ok_and(|p| p > 0);
    if !host_ok || !port_ok {
        return Err(bad());
    }
    Ok(Some(Proxy {
        url: url.to_string(),
        shown: format!("{scheme}://{host}:{port}"),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxies_are_a_scheme_a_host_and_a_port() {
        assert_eq!(check("  ").unwrap(), None);
        let p = check(" http://bob:s3cret@10.0.0.5:8080 ").unwrap().unwrap();
        assert_eq!(p.url, "http://bob:s3cret@10.0.0.5:8080");
        assert_eq!(p.shown, "http://10.0.0.5:8080");
        assert_eq!(
            check("socks5://proxy.example.com:1080/")
                .unwrap()
                .unwrap()
                .shown,
            "socks5://proxy.example.com:1080"
        );
        for bad in [
            "10.0.0.5:8080",
            "ftp://10.0.0.5:21",
            "http://10.0.0.5",
            "http://10.0.0.5:0",
            "http://10.0.0.5:99999",
            "http://:8080",
            "http://10.0.0.5:8080/path",
            "socks5://bob:pw@10.0.0.5:1080",
            "http://@10.0.0.5:8080",
        ] {
            let e = check(bad).unwrap_err();
            assert_eq!((e.field, e.msg), ("proxy", Msg::InvalidValue), "{bad}");
        }
    }
}
