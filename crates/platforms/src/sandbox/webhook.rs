//! The signed events the sandbox posts to the configured webhook URL (DY's `X-Douyin-Signature`):
//! created videos, comments and private messages.
//!
//! Source: open.douyin.com's webhook events and their `X-Douyin-Signature` (sha1 of the app secret
//! and the body), PLATFORMS.md "Douyin".

use super::S;
use serde_json::{Value, json};
use sha1::{Digest, Sha1};

/// hex(sha1(client_secret + raw body)): DY's `X-Douyin-Signature`.
pub(crate) fn signature(secret: &str, body: &[u8]) -> String {
    let mut h = Sha1::new();
    h.update(secret.as_bytes());
    h.update(body);
    hex::encode(h.finalize())
}

/// POSTs one signed DY event to the webhook URL, twice when asked or at the duplicate rate.
pub(crate) fn send_event(
    s: &S,
    client_key: &str,
    event: &str,
    from: &str,
    to: &str,
    content: Value,
    twice: Option<bool>,
) {
    let (url, secret, times) = {
        let st = s.lock();
        let Some(url) = st.webhook_url.clone() else {
            return;
        };
        let secret = st.apps.get(client_key).cloned().unwrap_or_default();
        let dup = twice.unwrap_or_else(|| rand::random::<f64>() < st.webhook_duplicate_rate);
        (url, secret, if dup { 2 } else { 1 })
    };
    let body = json!({
        "event": event, "client_key": client_key, "from_user_id": from, "to_user_id": to,
        "log_id": format!("{:016x}", rand::random::<u64>()), "content": content,
    })
    .to_string();
    let sig = signature(&secret, body.as_bytes());
    let s = s.clone();
    tokio::spawn(async move {
        for _ in 0..times {
            let res = s
                .webhook_client
                .post(&url)
                .header("content-type", "application/json")
                .header("X-Douyin-Signature", &sig)
                .body(body.clone())
                .send()
                .await;
            match res {
                Ok(_) => s.lock().webhooks_sent += 1,
                Err(e) => tracing::warn!(%url, error = %e, "sandbox webhook delivery failed"),
            }
        }
    });
}
