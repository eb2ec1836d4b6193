//! Request signing shared by the cloud calls (and by the sandbox, which checks what it receives):
//! HMAC over SHA-1/SHA-256, and Aliyun's POP RPC signature, which both Aliyun SMS (`crate::sms`,
//! `SendSms`) and Aliyun Intelligent Speech Interaction (`crate::voice::Nls`, `CreateToken`) use.
//!
//! Aliyun RPC (help.aliyun.com "RPC 签名机制", and "通过OpenAPI获取Token" for CreateToken): the
//! common parameters `AccessKeyId`, `Action`, `Format=JSON`, `RegionId`, `SignatureMethod=HMAC-SHA1`,
//! `SignatureNonce`, `SignatureVersion=1.0`, `Timestamp` (UTC ISO 8601), `Version`, plus the call's,
//! and `Signature` = base64(HMAC-SHA1(secret + "&", METHOD + "&%2F&" + pct(sorted `k=v` pairs joined
//! by `&`))), pct being RFC 3986 (space `%20`, `*` `%2A`, `~` kept). GET sends them in the query,
//! POST as a form.

use base64::Engine;
use sha2::Digest;

/// HMAC (RFC 2104) over a hash with a 64-byte block (SHA-1, SHA-256).
pub(crate) fn hmac(key: &[u8], msg: &[u8], hash: fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut k = if key.len() > 64 {
        hash(key)
    } else {
        key.to_vec()
    };
    k.resize(64, 0);
    let pad = |b: u8| k.iter().map(|x| x ^ b).collect::<Vec<u8>>();
    let inner = hash(&[pad(0x36), msg.to_vec()].concat());
    hash(&[pad(0x5c), inner].concat())
}

pub(crate) fn sha1(b: &[u8]) -> Vec<u8> {
    use sha1::Digest as _;
    sha1::Sha1::digest(b).to_vec()
}

pub(crate) fn sha256(b: &[u8]) -> Vec<u8> {
    sha2::Sha256::digest(b).to_vec()
}

/// RFC 3986 percent-encoding as Aliyun's RPC signature wants it.
pub(crate) fn pct(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Aliyun RPC signature of the parameters (without `Signature`) sent with `method`.
pub(crate) fn aliyun_signature(secret: &str, method: &str, params: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = params.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let canonical = sorted
        .iter()
        .map(|(k, v)| format!("{}={}", pct(k), pct(v)))
        .collect::<Vec<_>>()
        .join("&");
    let to_sign = format!("{method}&{}&{}", pct("/"), pct(&canonical));
    let mac = hmac(format!("{secret}&").as_bytes(), to_sign.as_bytes(), sha1);
    base64::engine::general_purpose::STANDARD.encode(mac)
}

/// One Aliyun RPC call: who signs it and what it is.
pub(crate) struct AliyunRpc<'a> {
    pub access_key_id: &'a str,
    pub access_key_secret: &'a str,
    pub action: &'a str,
    pub version: &'a str,
    pub region: &'a str,
}

impl AliyunRpc<'_> {
    /// The common parameters, the call's own (`extra`) and the `Signature` for `method` at `now_ms`
    /// (a fresh `SignatureNonce` each time: the provider refuses a nonce seen before).
    pub(crate) fn signed(
        &self,
        method: &str,
        now_ms: i64,
        extra: &[(&str, &str)],
    ) -> Vec<(String, String)> {
        let nonce = format!(
            "{:016x}{:016x}",
            rand::random::<u64>(),
            rand::random::<u64>()
        );
        let ts = iso8601(now_ms);
        let mut params: Vec<(String, String)> = [
            ("AccessKeyId", self.access_key_id),
            ("Action", self.action),
            ("Format", "JSON"),
            ("RegionId", self.region),
            ("SignatureMethod", "HMAC-SHA1"),
            ("SignatureNonce", nonce.as_str()),
            ("SignatureVersion", "1.0"),
            ("Timestamp", ts.as_str()),
            ("Version", self.version),
        ]
        .iter()
        .chain(extra.iter())
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let sig = aliyun_signature(self.access_key_secret, method, &params);
        params.push(("Signature".into(), sig));
        params
    }
}

/// Does `Signature` among `received` (a request's parameters as they arrived) match the others
/// signed with `secret`? The sandbox's check of an Aliyun RPC call.
pub(crate) fn aliyun_verify(
    secret: &str,
    method: &str,
    received: &std::collections::HashMap<String, String>,
) -> bool {
    let params: Vec<(String, String)> = received
        .iter()
        .filter(|(k, _)| k.as_str() != "Signature")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    received
        .get("Signature")
        .is_some_and(|s| *s == aliyun_signature(secret, method, &params))
}

/// `YYYY-MM-DD` (UTC) of a unix second.
pub(crate) fn utc_date(ts: i64) -> String {
    let (y, m, d) = domain::matrix::civil_from_days(ts.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DDThh:mm:ssZ` (UTC) of a unix millisecond.
pub(crate) fn iso8601(ms: i64) -> String {
    let s = ms.div_euclid(1000);
    let t = s.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        utc_date(s),
        t / 3600,
        t % 3600 / 60,
        t % 60
    )
}

/// `YYYY-MM-DDThh:mm:ssZ` → unix ms.
pub(crate) fn parse_iso8601(t: &str) -> Option<i64> {
    let (date, time) = t.strip_suffix('Z')?.split_once('T')?;
    let day = domain::matrix::parse_day(date)?;
    let mut hms = time.split(':').map(|x| x.parse::<i64>().ok());
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
    Some((day * 86_400 + h * 3600 + m * 60 + s) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_the_rfc_vectors() {
        // RFC 2202 test case 2 (SHA-1) and RFC 4231 test case 2 (SHA-256).
        assert_eq!(
            hex::encode(hmac(b"Jefe", b"what do ya want for nothing?", sha1)),
            "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
        );
        assert_eq!(
            hex::encode(hmac(b"Jefe", b"what do ya want for nothing?", sha256)),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn aliyun_signs_as_its_documentation_shows() {
        // The worked example of Aliyun's "RPC 签名机制" page (DescribeRegions, secret "testsecret").
        let p: Vec<(String, String)> = [
            ("AccessKeyId", "testid"),
            ("Action", "DescribeRegions"),
            ("Format", "XML"),
            ("SignatureMethod", "HMAC-SHA1"),
            ("SignatureNonce", "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf"),
            ("SignatureVersion", "1.0"),
            ("Timestamp", "2016-02-23T12:46:24Z"),
            ("Version", "2014-05-26"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(
            aliyun_signature("testsecret", "GET", &p),
            "OLeaidS1JvxuMvnyHOwuJ+uX5qY="
        );
    }

    #[test]
    fn a_signed_call_verifies_with_its_secret_only() {
        let rpc = AliyunRpc {
            access_key_id: "id",
            access_key_secret: "secret",
            action: "CreateToken",
            version: "2019-02-28",
            region: "cn-shanghai",
        };
        let p: std::collections::HashMap<String, String> = rpc
            .signed("GET", 1_551_113_065_000, &[("Extra", "a b")])
            .into_iter()
            .collect();
        assert_eq!(p["Timestamp"], "2019-02-25T16:44:25Z");
        assert_eq!(p["Action"], "CreateToken");
        assert!(aliyun_verify("secret", "GET", &p));
        assert!(!aliyun_verify("other", "GET", &p));
        assert!(!aliyun_verify("secret", "POST", &p));
        assert_eq!(parse_iso8601(&p["Timestamp"]), Some(1_551_113_065_000));
    }

    #[test]
    fn percent_encoding_follows_rfc_3986() {
        assert_eq!(pct("a b*c~d/é"), "a%20b%2Ac~d%2F%C3%A9");
    }
}
