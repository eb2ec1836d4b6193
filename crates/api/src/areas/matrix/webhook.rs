//! `POST /api/webhook/dy`: Douyin's event push (PLATFORMS.md). Signed with
//! `X-Douyin-Signature = sha1(client_secret + raw body)`, sometimes delivered twice: each `log_id` is
//! handled once. A create_video event makes the item's review be looked at now; unauthorize marks
//! the account expired at once (never silently).

use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use platforms::Platform;
use sha1::{Digest, Sha1};

pub async fn dy(State(st): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    // Live credentials' secret, else the sandbox's; none (live mode, unconfigured) refuses all.
    let secret = st.hub.app_secret(Platform::Dy).await.unwrap_or_default();
    let mut h = Sha1::new();
    h.update(secret.as_bytes());
    h.update(&body);
    let want: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let got = headers
        .get("x-douyin-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if secret.is_empty() || !got.eq_ignore_ascii_case(&want) {
        return (StatusCode::FORBIDDEN, "bad signature").into_response();
    }
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(&body) else {
        return (StatusCode::BAD_REQUEST, "bad body").into_response();
    };
    let event = v["event"].as_str().unwrap_or("");
    if event == "verify_webhook" {
        return axum::Json(serde_json::json!({"challenge": v["content"]["challenge"]}))
            .into_response();
    }
    let log_id = v["log_id"]
        .as_str()
        .map(String::from)
        .unwrap_or_else(|| format!("{:x}", Sha1::digest(&body)));
    match store::matrix::first_delivery(&st.db, &log_id, event).await {
        Ok(true) => {}
        Ok(false) => return (StatusCode::OK, "duplicate").into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "webhook store");
            return (StatusCode::INTERNAL_SERVER_ERROR, "retry").into_response();
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
                    store::matrix::share_published(&st.db, share, item, from, domain::now_ms())
                        .await
                }
                None => store::matrix::review_soon(&st.db, item).await,
            }
        }
        "unauthorize" => {
            store::matrix::revoke_open_id(
                &st.db,
                "dy",
                from,
                "平台通知：用户已取消授权 / The user revoked the authorization on the platform",
            )
            .await
        }
        _ => Ok(()),
    };
    if let Err(e) = r {
        tracing::warn!(error = %e, event, "webhook handling");
    }
    (StatusCode::OK, "ok").into_response()
}
