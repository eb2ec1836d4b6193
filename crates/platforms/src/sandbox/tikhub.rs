//! The data vendor TikHub (https://api.tikhub.io) as the SEO pages use it: Douyin public accounts
//! (`crate::vendor`, paths and fields from https://github.com/TikHub/TikHub-API-Python-SDK-V2
//! `docs/DouyinWebAPIApi.md` and `docs/ResponseModel.md`). Every call needs
//! `Authorization: Bearer <key>` (the install's [`super::vendor_key`]); anything else is HTTP 401.
//! Answers are `{code: 200, router, params, data}`, `data` in Douyin web's shape. How TikHub words
//! its error bodies is not documented; the adapter reads only the status, so these bodies are minimal.
//!
//! Fault call names (platform `dy`): `public_account` (the id and profile calls), `public_works`.

use super::{Fault, S, gate, public};
use crate::Platform;
use axum::Json;
use axum::Router;
use axum::extract::{Query, State as St};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};
use std::collections::HashMap;

type Q = Query<HashMap<String, String>>;

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route(crate::vendor::PATH_SEC_USER_ID, get(sec_user_id))
        .route(crate::vendor::PATH_PROFILE, get(profile))
        .route(crate::vendor::PATH_POSTS, get(posts))
}

fn status(code: StatusCode, detail: &str) -> Response {
    (code, Json(json!({"detail": detail}))).into_response()
}

/// The key, then the fault table.
async fn enter(s: &S, call: &str, headers: &HeaderMap) -> Result<(), Response> {
    let want = format!("Bearer {}", s.vendor_key);
    let got = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if s.vendor_key.is_empty() || got != want {
        return Err(status(StatusCode::UNAUTHORIZED, "invalid api key"));
    }
    match gate(s, Platform::Dy, call, "").await {
        None => Ok(()),
        Some(Fault::RateLimit) => Err(status(StatusCode::TOO_MANY_REQUESTS, "rate limit")),
        Some(Fault::Quota) => Err(status(StatusCode::PAYMENT_REQUIRED, "insufficient balance")),
        Some(_) => Err(status(StatusCode::INTERNAL_SERVER_ERROR, "upstream error")),
    }
}

fn ok(router: &str, q: &HashMap<String, String>, data: Value) -> Response {
    let params = serde_json::to_string(q).unwrap_or_default();
    Json(json!({"code": 200, "router": router, "params": params, "data": data})).into_response()
}

fn field<'a>(q: &'a HashMap<String, String>, k: &str) -> &'a str {
    q.get(k).map_or("", |v| v.trim())
}

/// `?url=<profile or share link>` -> `data` = the sec_user_id (null when the link names no account).
async fn sec_user_id(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Err(r) = enter(&s, "public_account", &headers).await {
        return r;
    }
    let st = s.lock();
    let id = public::resolve(&st.public_accounts, "", field(&q, "url"))
        .map(|a| json!(a.id))
        .unwrap_or(Value::Null);
    ok(crate::vendor::PATH_SEC_USER_ID, &q, id)
}

/// `?sec_user_id` -> `data{status_code, user}`; no `user` for an unknown account.
async fn profile(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Err(r) = enter(&s, "public_account", &headers).await {
        return r;
    }
    let st = s.lock();
    let data = match public::resolve(&st.public_accounts, field(&q, "sec_user_id"), "") {
        Ok(a) => json!({"status_code": 0,
            "user": a.profile_json(&s.public_base, s.clock.sandbox_now())}),
        Err(_) => json!({"status_code": 0}),
    };
    ok(crate::vendor::PATH_PROFILE, &q, data)
}

/// `?sec_user_id&max_cursor&count` -> `data{aweme_list, max_cursor (ms), has_more}`, newest first;
/// `max_cursor` = the create time in ms of the page's last video (0: from the newest).
async fn posts(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Err(r) = enter(&s, "public_works", &headers).await {
        return r;
    }
    let cursor: i64 = field(&q, "max_cursor").parse().unwrap_or(0);
    let count = field(&q, "count").parse().unwrap_or(20usize).clamp(1, 50);
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let id = field(&q, "sec_user_id");
    let data = match st.public_accounts.iter().find(|a| a.id == id) {
        Some(a) => {
            let (idx, next, more) = a.page(now, cursor, count);
            let list: Vec<Value> = idx
                .iter()
                .map(|n| a.video_json(&s.public_base, *n, now))
                .collect();
            json!({"status_code": 0, "aweme_list": list, "max_cursor": next,
                   "has_more": if more { 1 } else { 0 }})
        }
        None => json!({"status_code": 0, "aweme_list": [], "max_cursor": 0, "has_more": 0}),
    };
    ok(crate::vendor::PATH_POSTS, &q, data)
}
