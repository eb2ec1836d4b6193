//! What every HTTP adapter shares: one reqwest client with the per-call timeout, transport errors
//! mapped to `PlatformError`, and lenient JSON reading (platforms send some numbers as strings).

use crate::{Endpoint, PResult, Platform, error};
use reqwest::{RequestBuilder, StatusCode};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncSeekExt};

pub(crate) const MB: u64 = 1024 * 1024;

/// A raw answer. The session adapters look at the status themselves (a redirect to the login page
/// is how a dead session shows).
pub(crate) struct Resp {
    pub status: StatusCode,
    pub body: Vec<u8>,
}

pub(crate) struct Http {
    pub platform: Platform,
    pub client: reqwest::Client,
    base: String,
    pub timeout: Duration,
    pub clock: domain::clock::Clock,
}

impl Http {
    pub fn new(platform: Platform, ep: &Endpoint) -> Http {
        let ms = if ep.timeout_ms == 0 {
            crate::DEFAULT_TIMEOUT_MS
        } else {
            ep.timeout_ms
        };
        let timeout = Duration::from_millis(ms);
        let client = reqwest::Client::builder()
            // API calls never redirect on purpose; a redirect means "log in again" (sessions).
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(timeout)
            .build()
            .expect("reqwest client");
        Http {
            platform,
            client,
            base: ep.base_url.trim_end_matches('/').to_string(),
            timeout,
            clock: ep.clock.clone(),
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// Sends with the timeout. Uploads get a longer one: `timeout` per 10 MB, since a 20 MB part on a
    /// slow line legitimately takes longer than a JSON call.
    pub async fn send(&self, rb: RequestBuilder, upload_bytes: u64) -> PResult<Resp> {
        let t = self.timeout * (1 + (upload_bytes / (10 * MB)) as u32);
        let res = rb.timeout(t).send().await.map_err(|e| self.transport(e))?;
        let status = res.status();
        let body = res.bytes().await.map_err(|e| self.transport(e))?.to_vec();
        Ok(Resp { status, body })
    }

    fn transport(&self, e: reqwest::Error) -> crate::PlatformError {
        if e.is_timeout() {
            error::timeout(self.platform)
        } else {
            // The chain carries the useful part ("connection refused").
            let mut msg = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(s) = src {
                msg = format!("{msg}: {s}");
                src = s.source();
            }
            error::network(self.platform, &msg)
        }
    }

    /// Sends and reads a JSON body. 429 and 5xx become Retryable errors; other statuses still try
    /// JSON first, because platforms put business errors in the body.
    pub async fn json(&self, rb: RequestBuilder, upload_bytes: u64) -> PResult<Value> {
        let r = self.send(rb, upload_bytes).await?;
        if r.status.as_u16() == 429 || r.status.is_server_error() {
            return Err(error::http_status(self.platform, r.status.as_u16()));
        }
        match serde_json::from_slice::<Value>(&r.body) {
            Ok(v) if v.is_object() => Ok(v),
            _ if !r.status.is_success() => {
                Err(error::http_status(self.platform, r.status.as_u16()))
            }
            _ => {
                let head = String::from_utf8_lossy(&r.body[..r.body.len().min(120)]).to_string();
                Err(error::bad_response(self.platform, &head))
            }
        }
    }
}

/// A number that may arrive as a JSON number or a string (`"expires_in":"86400"`); 0 when absent.
pub(crate) fn num(v: &Value, key: &str) -> i64 {
    match v.get(key) {
        Some(Value::Number(n)) => n
            .as_i64()
            .or_else(|| n.as_f64().map(|f| f as i64))
            .unwrap_or(0),
        Some(Value::String(s)) => s.trim().parse().unwrap_or(0),
        Some(Value::Bool(b)) => *b as i64,
        _ => 0,
    }
}

/// A string field; numbers are rendered (ids sometimes come as numbers).
pub(crate) fn text(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

pub(crate) fn boolean(v: &Value, key: &str) -> bool {
    match v.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_i64().unwrap_or(0) != 0,
        Some(Value::String(s)) => s == "true" || s == "1",
        _ => false,
    }
}

pub(crate) fn file_len(platform: Platform, path: &Path) -> PResult<u64> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| error::local_file(platform, &format!("{}: {e}", path.display())))
}

pub(crate) async fn read_all(platform: Platform, path: &Path) -> PResult<Vec<u8>> {
    tokio::fs::read(path)
        .await
        .map_err(|e| error::local_file(platform, &format!("{}: {e}", path.display())))
}

/// Reads `len` bytes at `offset` (one upload part; parts are at most 20 MB so memory stays bounded).
pub(crate) async fn read_part(
    platform: Platform,
    path: &Path,
    offset: u64,
    len: u64,
) -> PResult<Vec<u8>> {
    let fail = |e: std::io::Error| error::local_file(platform, &format!("{}: {e}", path.display()));
    let mut f = tokio::fs::File::open(path).await.map_err(fail)?;
    f.seek(std::io::SeekFrom::Start(offset))
        .await
        .map_err(fail)?;
    let mut buf = vec![0u8; len as usize];
    f.read_exact(&mut buf).await.map_err(fail)?;
    Ok(buf)
}

pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "video.mp4".into())
}

/// Title plus `#topic` and `@nick` inline, the way DY and KS captions carry them. Topics already
/// written in the title are not repeated.
pub(crate) fn caption(title: &str, topics: &[String], at_users: &[String]) -> String {
    let mut s = title.trim().to_string();
    for t in topics {
        let t = t.trim().trim_start_matches('#');
        if t.is_empty() || s.contains(&format!("#{t}")) {
            continue;
        }
        s.push_str(&format!(" #{t}"));
    }
    for u in at_users {
        let u = u.trim().trim_start_matches('@');
        if u.is_empty() || s.contains(&format!("@{u}")) {
            continue;
        }
        s.push_str(&format!(" @{u}"));
    }
    s
}

pub(crate) fn query(pairs: &[(&str, &str)]) -> String {
    serde_urlencoded::to_string(pairs).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_as_strings_are_read() {
        let v = json!({"a": "86400", "b": 7200, "c": "x"});
        assert_eq!(num(&v, "a"), 86400);
        assert_eq!(num(&v, "b"), 7200);
        assert_eq!(num(&v, "c"), 0);
        assert_eq!(num(&v, "missing"), 0);
    }

    #[test]
    fn caption_puts_topics_and_mentions_inline_once() {
        let c = caption(
            "好吃的 #美食",
            &["美食".into(), "#探店".into()],
            &["小王".into()],
        );
        assert_eq!(c, "好吃的 #美食 #探店 @小王");
    }
}

/// The sandbox's POI search under a platform's base URL (`GET {base}/poi/search?keyword&city`,
/// `{code, msg, data: {pois}}`): KS and BJH have no POI call of their own.
pub(crate) async fn sandbox_poi_search(
    h: &Http,
    keyword: &str,
    city: &str,
) -> PResult<Vec<crate::Poi>> {
    let url = format!(
        "{}?{}",
        h.url("/poi/search"),
        query(&[("keyword", keyword), ("city", city)])
    );
    let v = h.json(h.client.get(url), 0).await?;
    let code = num(&v, "code");
    if code != 0 {
        let msg = text(&v, "msg");
        return Err(crate::error::reason(
            h.platform,
            code,
            crate::error::Reason::Unknown,
            &msg,
        ));
    }
    Ok(crate::dy::parse_pois(v.get("data").unwrap_or(&Value::Null)))
}
