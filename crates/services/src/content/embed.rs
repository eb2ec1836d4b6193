//! The video-library embed (/visualIframe, `/index/getVideoLibraryIframeToken`): a signed token
//! naming a merchant and an expiry opens a read-only page of that merchant's finished videos
//! (`/embed/video_library?token=`), which the console shows in an iframe. The signature is the
//! media links' HMAC over a variant name no file has, so a token is never a file link.

use crate::links;

/// How long a token opens the page (the console asks again before it ends).
pub const TOKEN_TTL_MS: i64 = 2 * 3_600_000;
const WHAT: &str = "embed-video-library";

/// `<merchant>.<expiry ms>.<signature>`.
pub fn token(key: &[u8], merchant_id: i64, now: i64) -> (String, i64) {
    let exp = now + TOKEN_TTL_MS;
    let sig = links::sign(key, merchant_id, WHAT, exp);
    (format!("{merchant_id}.{exp}.{sig}"), exp)
}

/// The merchant a token names, when its signature holds and it has not expired.
pub fn merchant_of(key: &[u8], token: &str, now: i64) -> Option<i64> {
    let mut parts = token.splitn(3, '.');
    let mid: i64 = parts.next()?.parse().ok()?;
    let exp: i64 = parts.next()?.parse().ok()?;
    let sig = parts.next()?;
    (links::verify(key, mid, WHAT, exp, sig) && exp > now && mid > 0).then_some(mid)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_name_their_merchant_until_they_expire() {
        let key = b"k".to_vec();
        let (t, exp) = token(&key, 7, 1_000);
        assert_eq!(merchant_of(&key, &t, 1_000), Some(7));
        assert_eq!(merchant_of(&key, &t, exp), None);
        assert_eq!(merchant_of(b"other", &t, 1_000), None);
        let forged = t.replacen('7', "8", 1);
        assert_eq!(merchant_of(&key, &forged, 1_000), None);
        assert_eq!(merchant_of(&key, "x", 1_000), None);
    }
}

/// The newest finished videos of a merchant, at most `max`: what the embedded page shows.
pub async fn videos(
    db: &store::Db,
    mid: i64,
    max: i64,
) -> crate::ApiResult<Vec<store::clip::Variant>> {
    let q = store::ListQuery {
        limit: Some(max),
        ..store::ListQuery::default()
    }
    .with_filter("state", Some("success"), "=");
    Ok(store::clip::variants(db, mid, &q).await?.0)
}
