//! A simulator of the WeChat official-account API the new-lead notification uses
//! (`platforms::wechat`): `GET /cgi-bin/token` (client credential -> access_token, 7200 s of platform
//! time) and `POST /cgi-bin/message/template/send?access_token=` (a template message to a follower).
//! Answers are WeChat's `{errcode, errmsg}` with HTTP 200: 40013 unknown appid, 40125 wrong secret,
//! 40001 invalid credential (unknown token), 42001 expired token, 40003 invalid openid (real ones
//! start with `o`), 43004 the openid does not follow the account (`/_control/wechat/subscribe`),
//! 40037 unknown template id, 47001 no `data`. Sent messages are kept (`/_control/wechat`).

use super::S;
use axum::extract::{Query, State as St};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The official account the sandbox knows: any other appid is 40013. Its AppSecret is the
/// install's (`wechat_secret` of the sandbox token).
pub const SANDBOX_WX_APPID: &str = "wx_sbx_appid";
/// The one template the sandbox account has ("new lead" notification).
pub const SANDBOX_WX_TEMPLATE: &str = "sbx_lead_template";
const TOKEN_TTL_MS: i64 = 7_200_000;

/// A template message the account sent.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct WxSent {
    pub msgid: i64,
    pub touser: String,
    pub template_id: String,
    pub url: String,
    pub data: Value,
    pub create_time: i64,
}

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route("/cgi-bin/token", get(token))
        .route("/cgi-bin/message/template/send", post(send))
}

/// The control calls, nested under `/_control/wechat`.
pub(crate) fn control() -> Router<S> {
    Router::new()
        .route("/", get(sent))
        .route("/subscribe", post(subscribe))
        .route("/expire", post(expire))
}

fn answer(code: i64, msg: &str) -> Json<Value> {
    Json(json!({"errcode": code, "errmsg": msg}))
}

#[derive(Deserialize)]
struct TokenQ {
    #[serde(default)]
    grant_type: String,
    #[serde(default)]
    appid: String,
    #[serde(default)]
    secret: String,
}

async fn token(St(s): St<S>, Query(q): Query<TokenQ>) -> Json<Value> {
    if q.grant_type != "client_credential" {
        return answer(40002, "invalid grant_type");
    }
    if q.appid != SANDBOX_WX_APPID {
        return answer(40013, "invalid appid");
    }
    if q.secret != s.wx_secret {
        return answer(40125, "invalid appsecret");
    }
    let mut st = s.lock();
    let t = st.id("wxat");
    st.wx_tokens
        .insert(t.clone(), s.clock.sandbox_now() + TOKEN_TTL_MS);
    Json(json!({"access_token": t, "expires_in": TOKEN_TTL_MS / 1000}))
}

#[derive(Deserialize)]
struct SendQ {
    #[serde(default)]
    access_token: String,
}

async fn send(St(s): St<S>, Query(q): Query<SendQ>, Json(b): Json<Value>) -> Json<Value> {
    let mut st = s.lock();
    match st.wx_tokens.get(&q.access_token) {
        None => {
            return answer(
                40001,
                "invalid credential, access_token is invalid or not latest",
            );
        }
        Some(exp) if *exp <= s.clock.sandbox_now() => return answer(42001, "access_token expired"),
        Some(_) => {}
    }
    let touser = b["touser"].as_str().unwrap_or("").to_string();
    if !touser.starts_with('o') || touser.len() < 6 {
        return answer(40003, "invalid openid");
    }
    if st.wx_unsubscribed.get(&touser).copied().unwrap_or(false) {
        return answer(43004, "require subscribe");
    }
    let template_id = b["template_id"].as_str().unwrap_or("").to_string();
    if template_id != SANDBOX_WX_TEMPLATE {
        return answer(40037, "invalid template_id");
    }
    if !b["data"].is_object() {
        return answer(47001, "data format error");
    }
    let msgid = st.wx_sent.len() as i64 + 1_000_001;
    st.wx_sent.push(WxSent {
        msgid,
        touser,
        template_id,
        url: b["url"].as_str().unwrap_or("").to_string(),
        data: b["data"].clone(),
        create_time: s.clock.sandbox_now(),
    });
    Json(json!({"errcode": 0, "errmsg": "ok", "msgid": msgid}))
}

#[derive(Deserialize)]
struct SentQ {
    #[serde(default)]
    touser: String,
}

/// The template messages sent, oldest first (`?touser=` narrows to one follower).
async fn sent(St(s): St<S>, Query(q): Query<SentQ>) -> Json<Value> {
    let st = s.lock();
    let list: Vec<&WxSent> = st
        .wx_sent
        .iter()
        .filter(|m| q.touser.is_empty() || m.touser == q.touser)
        .collect();
    Json(json!({"total": list.len(), "messages": list}))
}

#[derive(Deserialize)]
struct SubscribeReq {
    openid: String,
    subscribed: bool,
}

/// A follower follows (again) or unfollows the account; everyone follows until told otherwise.
async fn subscribe(St(s): St<S>, Json(r): Json<SubscribeReq>) -> Json<Value> {
    s.lock().wx_unsubscribed.insert(r.openid, !r.subscribed);
    Json(json!({"ok": true}))
}

/// Every access token expires now (the client must fetch a new one).
async fn expire(St(s): St<S>) -> Json<Value> {
    let now = s.clock.sandbox_now();
    for exp in s.lock().wx_tokens.values_mut() {
        *exp = now;
    }
    Json(json!({"ok": true}))
}

/// Tokens -> expiry (platform ms), kept with the sandbox state.
pub(crate) type Tokens = HashMap<String, i64>;
