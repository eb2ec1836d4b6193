//! Douyin's event push (PLATFORMS.md). Signed with `X-Douyin-Signature = sha1(client_secret + raw
//! body)`, sometimes delivered twice: each `log_id` is handled once. A create_video event makes the
//! item's review be looked at now (or records the post of an H5 share); unauthorize marks the
//! account expired at once (never silently).

use crate::platform::Hub;
use domain::matrix::Revocation;
use platforms::Platform;
use sha1::{Digest, Sha1};

/// What handling a delivery came to.
pub enum Outcome {
    BadSignature,
    BadBody,
    /// `verify_webhook`: the challenge to echo.
    Challenge(serde_json::Value),
    /// Handled before.
    Duplicate,
    /// We could not record it: the platform should deliver it again.
    Retry,
    Handled,
}

pub async fn dy(hub: &Hub, signature: &str, body: &[u8]) -> Outcome {
    // Live credentials' secret, else the sandbox's; none (live mode, unconfigured) refuses all.
    let secret = hub.app_secret(Platform::Dy).await.unwrap_or_default();
    let mut h = Sha1::new();
    h.update(secret.as_bytes());
    h.update(body);
    let want: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    if secret.is_empty() || !signature.eq_ignore_ascii_case(&want) {
        return Outcome::BadSignature;
    }
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(body) else {
        return Outcome::BadBody;
    };
    let event = v["event"].as_str().unwrap_or("");
    if event == "verify_webhook" {
        return Outcome::Challenge(v["content"]["challenge"].clone());
    }
    let log_id = v["log_id"]
        .as_str()
        .map(String::from)
        .unwrap_or_else(|| format!("{:x}", Sha1::digest(body)));
    match store::matrix::first_delivery(&hub.db, &log_id, event).await {
        Ok(true) => {}
        Ok(false) => return Outcome::Duplicate,
        Err(e) => {
            tracing::warn!(error = %e, "webhook store");
            return Outcome::Retry;
        }
    }
    let content = if v["content"].is_string() {
        serde_json::from_str(v["content"].as_str().unwrap_or("{}")).unwrap_or_default()
    } else {
        v["content"].clone()
    };
    let from = v["from_user_id"].as_str().unwrap_or("");
    let r = match event {
        "create_video" => {
            let item = content["item_id"].as_str().unwrap_or("");
            match content["share_id"].as_str().filter(|s| !s.is_empty()) {
                // A customer posted one of our H5 shares (dy_share).
                Some(share) => {
                    let now = domain::now_ms();
                    match store::matrix::share_published(&hub.db, share, item, from, now).await {
                        // An NFC tap's share: its post unlocks the tag's draw.
                        Ok(()) => {
                            let at = hub.db.clock.platform_now();
                            store::nfc::tap_posted(&hub.db, share, item, at)
                                .await
                                .map(|_| ())
                        }
                        Err(e) => Err(e),
                    }
                }
                None => store::matrix::review_soon(&hub.db, item).await,
            }
        }
        // Engagement: the account is the receiver.
        "item_comment_reply" => {
            let to = v["to_user_id"].as_str().unwrap_or("");
            crate::engagement::comments::pushed(&hub.db, to, &content).await
        }
        "im_receive_msg" => {
            let to = v["to_user_id"].as_str().unwrap_or("");
            crate::engagement::messages::received(hub, from, to, &content).await
        }
        "unauthorize" => {
            store::matrix::revoke_open_id(
                &hub.db,
                platforms::Platform::Dy,
                from,
                Revocation::UserRevoked,
            )
            .await
        }
        _ => Ok(()),
    };
    if let Err(e) = r {
        tracing::warn!(error = %e, event, "webhook handling");
    }
    Outcome::Handled
}
