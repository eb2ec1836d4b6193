//! Signed links to stored media. `<video>` and `<img>` cannot send the bearer token, so every URL the
//! API hands out is signed (HMAC of id, variant and expiry with the server key): only a caller who
//! could read the row got the URL. The HTTP side (`api::files`) checks them.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The files of a material a link may name.
pub const VARIANTS: &[&str] = &[
    "original",
    "mezzanine",
    "poster",
    "strip",
    "system",
    "clip",
    "cover",
    // a course file the operator uploaded (content_files)
    "course",
    // AI voice: a synthesis task's audio (id = task), a built-in voice's sample (id = its index).
    "tts",
    "sample",
    // A voice material as it is downloaded: generated speech with its audible AI cue (id = material).
    "listen",
    // A release item's failed browser step (id = item): the screenshot and the page's HTML.
    "evidence",
    "evidence_html",
];
/// Links live a day; rounded to the hour so a page's URLs stay stable (and cacheable) for a while.
const TTL_MS: i64 = 24 * 3_600_000;

/// The signature of one link.
pub fn sign(key: &[u8], id: i64, variant: &str, exp: i64) -> String {
    mac(key, &format!("media:{id}:{variant}:{exp}"))
}

/// Whether `sig` is the signature of (id, variant, exp), compared in constant time.
pub fn verify(key: &[u8], id: i64, variant: &str, exp: i64, sig: &str) -> bool {
    verify_mac(key, &format!("media:{id}:{variant}:{exp}"), sig)
}

/// HMAC-SHA256 of `msg` with the server key, in hex (links, and other URLs that carry their own
/// credential, e.g. a streamed audition's ticket). Callers prefix `msg` with what it is for.
pub fn mac(key: &[u8], msg: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("any key length works for HMAC");
    mac.update(msg.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// Whether `sig` is [`mac`] of `msg`, compared in constant time.
pub fn verify_mac(key: &[u8], msg: &str, sig: &str) -> bool {
    let expected = mac(key, msg);
    expected.len() == sig.len()
        && expected
            .bytes()
            .zip(sig.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// A link to one file of a material, valid for a day.
pub fn url(key: &[u8], id: i64, variant: &str) -> String {
    let exp = (domain::now_ms() / 3_600_000 + 1) * 3_600_000 + TTL_MS;
    format!(
        "/files/{id}/{variant}?e={exp}&s={}",
        sign(key, id, variant, exp)
    )
}

/// A link that does not expire, for images people set as their avatar (the row is still checked to
/// belong to the caller before such a link is made).
pub fn permanent_url(key: &[u8], id: i64, variant: &str) -> String {
    let exp = 4_102_444_800_000; // 2100-01-01
    format!(
        "/files/{id}/{variant}?e={exp}&s={}",
        sign(key, id, variant, exp)
    )
}

/// How long a download link lives (a single video or a zip of several).
pub const DOWNLOAD_TTL_MS: i64 = 3_600_000;

/// A link that downloads one file (an attachment, `dl=1`), valid until `exp`. `dl` is not signed:
/// it only names the answer an attachment.
pub fn download_url(key: &[u8], id: i64, variant: &str, exp: i64) -> String {
    format!(
        "/files/{id}/{variant}?e={exp}&s={}&dl=1",
        sign(key, id, variant, exp)
    )
}

/// The signed text of a zip of a merchant's finished videos: the merchant, the ids in order, the expiry.
fn zip_message(merchant_id: i64, ids: &str, exp: i64) -> String {
    format!("zip:{merchant_id}:{ids}:{exp}")
}

/// A link to a zip of a merchant's finished videos (ids comma separated), valid until `exp`.
pub fn zip_url(key: &[u8], merchant_id: i64, ids: &[i64], exp: i64) -> String {
    let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
    let ids = ids.join(",");
    format!(
        "/files/zip?m={merchant_id}&ids={ids}&e={exp}&s={}",
        mac(key, &zip_message(merchant_id, &ids, exp))
    )
}

/// Whether `sig` signs this zip link (the ids as the link wrote them).
pub fn verify_zip(key: &[u8], merchant_id: i64, ids: &str, exp: i64, sig: &str) -> bool {
    verify_mac(key, &zip_message(merchant_id, ids, exp), sig)
}

/// The material id of one of our file URLs (`/files/<id>/...`).
pub fn id_of(url: &str) -> Option<i64> {
    url.split('?')
        .next()?
        .strip_prefix("/files/")?
        .split('/')
        .next()?
        .parse()
        .ok()
}
