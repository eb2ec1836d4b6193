//! A simulator of the WeChat official-account API the new-lead notification uses
//! (`platforms::wechat`): `GET /cgi-bin/token` (client credential -> access_token, 7200 s of platform
//! time) and `POST /cgi-bin/message/template/send?access_token=` (a template message to a follower).
//! Answers are WeChat's `{errcode, errmsg}` with HTTP 200: 40013 unknown appid, 40125 wrong secret,
//! 40001 invalid credential (unknown token), 42001 expired token, 40003 invalid openid (real ones
//! start with `o`), 43004 the openid does not follow the account (`/_control/wechat/subscribe`),
//! 40037 unknown template id, 47001 no `data`. Sent messages are kept (`/_control/wechat`).
//!
//! Parametric QR codes: `POST /cgi-bin/qrcode/create?access_token=` (`QR_STR_SCENE`, `scene_str` 1–64
//! characters, `expire_seconds` up to 30 days, default 60 s) -> `{ticket, expire_seconds,
//! url}`. A scan is simulated by `POST /_control/wechat/scan {ticket, openid, url?, token?, new_follower}`
//! or by a person on the page the QR code's URL opens (`/wechat/q/{ticket}`):
//! the sandbox pushes the event XML WeChat would (`subscribe` with "qrscene_<scene>" for a new follower,
//! else `SCAN`) to the account's server `url`, signed with its server `token`, and answers what the
//! server answered. An expired or unknown ticket pushes nothing (404).

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
        .route("/cgi-bin/qrcode/create", post(create_qr))
}

/// The control calls, nested under `/_control/wechat`.
pub(crate) fn control() -> Router<S> {
    Router::new()
        .route("/", get(sent))
        .route("/subscribe", post(subscribe))
        .route("/expire", post(expire))
        .route("/scan", post(scan))
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

#[derive(Deserialize)]
struct QrReq {
    #[serde(default)]
    expire_seconds: Option<i64>,
    #[serde(default)]
    action_name: String,
    #[serde(default)]
    action_info: Value,
}

/// A QR code made: ticket -> (scene, expiry in platform ms).
pub(crate) type Qrs = HashMap<String, (String, i64)>;

async fn create_qr(St(s): St<S>, Query(q): Query<SendQ>, Json(b): Json<QrReq>) -> Json<Value> {
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    match st.wx_tokens.get(&q.access_token) {
        None => {
            return answer(
                40001,
                "invalid credential, access_token is invalid or not latest",
            );
        }
        Some(exp) if *exp <= now => return answer(42001, "access_token expired"),
        Some(_) => {}
    }
    if b.action_name != "QR_STR_SCENE" {
        return answer(40054, "invalid action_name");
    }
    let scene = b.action_info["scene"]["scene_str"].as_str().unwrap_or("");
    if scene.is_empty() || scene.chars().count() > 64 {
        return answer(40097, "invalid args: scene_str");
    }
    let secs = b.expire_seconds.unwrap_or(60).clamp(1, 2_592_000);
    let ticket = st.id("wxqr");
    st.wx_qrs
        .insert(ticket.clone(), (scene.to_string(), now + secs * 1000));
    Json(json!({"ticket": ticket, "expire_seconds": secs,
        "url": format!("{}/wechat/q/{ticket}", s.public_base)}))
}

#[derive(Deserialize)]
struct ScanReq {
    ticket: String,
    openid: String,
    /// The official account's server URL and Token (its "服务器配置"); by default the sandbox's own
    /// (`Config::wechat_push_url`, [`super::wechat_server_token`]).
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    new_follower: bool,
}

/// What a pushed scan got back: the server's HTTP status and body.
struct Pushed {
    status: u16,
    body: String,
}

enum ScanError {
    /// Unknown or expired ticket.
    Ticket,
    /// No server URL configured.
    NoServer,
    Unreachable(String),
}

/// Someone scans a QR code: the event XML goes to the account's server, signed as WeChat signs it.
async fn push_scan(s: &S, r: ScanReq) -> Result<Pushed, ScanError> {
    let now = s.clock.sandbox_now();
    let scene = {
        let mut st = s.lock();
        let found = st
            .wx_qrs
            .get(&r.ticket)
            .filter(|(_, exp)| *exp > now)
            .cloned();
        if found.is_some() && r.new_follower {
            st.wx_unsubscribed.insert(r.openid.clone(), false);
        }
        found.map(|(scene, _)| scene)
    };
    let scene = scene.ok_or(ScanError::Ticket)?;
    let url = r
        .url
        .or_else(|| s.wx_push_url.clone())
        .ok_or(ScanError::NoServer)?;
    let token = r.token.unwrap_or_else(|| s.wx_server_token.clone());
    let xml = crate::wechat::scan_event_xml(
        "gh_sbx_account",
        &r.openid,
        now / 1000,
        &scene,
        &r.ticket,
        !r.new_follower,
    );
    let timestamp = (now / 1000).to_string();
    let nonce = format!("{}", rand::random::<u32>());
    let signature = crate::wechat::push_signature(&token, &timestamp, &nonce);
    let res = s
        .webhook_client
        .post(&url)
        .query(&[
            ("signature", signature.as_str()),
            ("timestamp", timestamp.as_str()),
            ("nonce", nonce.as_str()),
            ("openid", r.openid.as_str()),
        ])
        .header("content-type", "text/xml")
        .body(xml)
        .send()
        .await
        .map_err(|e| ScanError::Unreachable(e.to_string()))?;
    let status = res.status().as_u16();
    let body = res.text().await.unwrap_or_default();
    Ok(Pushed { status, body })
}

/// `POST /_control/wechat/scan`: a scan, answered with what the account's server answered.
async fn scan(St(s): St<S>, Json(r): Json<ScanReq>) -> axum::response::Response {
    use axum::http::StatusCode;
    use axum::response::IntoResponse;
    match push_scan(&s, r).await {
        Ok(p) => Json(json!({"status": p.status, "body": p.body})).into_response(),
        Err(ScanError::Ticket) => (
            StatusCode::NOT_FOUND,
            Json(json!({"error": "unknown or expired ticket"})),
        )
            .into_response(),
        Err(ScanError::NoServer) => (
            StatusCode::CONFLICT,
            Json(json!({"error": "the account has no server URL"})),
        )
            .into_response(),
        Err(ScanError::Unreachable(e)) => {
            (StatusCode::BAD_GATEWAY, Json(json!({"error": e}))).into_response()
        }
    }
}

/// The page a QR code's URL opens: the person scanning chooses who they are (an openid) and scans.
pub(crate) async fn scan_page(
    St(s): St<S>,
    axum::extract::Path(ticket): axum::extract::Path<String>,
) -> axum::response::Html<String> {
    let live = s
        .lock()
        .wx_qrs
        .get(&ticket)
        .is_some_and(|(_, exp)| *exp > s.clock.sandbox_now());
    let body = if live {
        let openid = format!("o{}", &super::access::new_token()[..27]);
        format!(
            "<div class=\"card\"><p>用微信扫描了公众号的二维码。/ You scanned the official account's QR code with WeChat.</p>\
             <form method=\"post\"><p>openid <input type=\"text\" name=\"openid\" value=\"{openid}\"></p>\
             <p><label><input type=\"checkbox\" name=\"new_follower\" value=\"1\"> 首次关注 / first follow</label></p>\
             <button type=\"submit\" data-testid=\"wx-scan\">确认 / Confirm</button></form></div>"
        )
    } else {
        "<p>二维码已过期或无效。/ The QR code expired or is unknown.</p>".to_string()
    };
    axum::response::Html(super::pages::page(
        "微信扫码（模拟）/ WeChat scan (simulated)",
        &body,
    ))
}

#[derive(Deserialize)]
pub(crate) struct ScanForm {
    #[serde(default)]
    openid: String,
    #[serde(default)]
    new_follower: Option<String>,
}

pub(crate) async fn scan_page_submit(
    St(s): St<S>,
    axum::extract::Path(ticket): axum::extract::Path<String>,
    axum::extract::Form(f): axum::extract::Form<ScanForm>,
) -> axum::response::Html<String> {
    let openid = f.openid.trim().to_string();
    let text = if !openid.starts_with('o')
        || openid.len() < 6
        || openid.len() > 64
        || !openid
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        "openid 无效（以 o 开头，6–64 位字母数字）/ Invalid openid (starts with o, 6–64 letters and digits)".to_string()
    } else {
        let r = ScanReq {
            ticket,
            openid,
            url: None,
            token: None,
            new_follower: f.new_follower.is_some(),
        };
        match push_scan(&s, r).await {
            Ok(p) if p.status == 200 => {
                "已扫码，请回到控制台。/ Scanned: go back to the console.".to_string()
            }
            Ok(p) => format!(
                "公众号服务器拒绝了推送 / The account's server refused the push: {} {}",
                p.status, p.body
            ),
            Err(ScanError::Ticket) => {
                "二维码已过期或无效。/ The QR code expired or is unknown.".to_string()
            }
            Err(ScanError::NoServer) => {
                "公众号未配置服务器地址。/ The account has no server URL.".to_string()
            }
            Err(ScanError::Unreachable(e)) => {
                format!("无法连接公众号服务器 / The account's server cannot be reached: {e}")
            }
        }
    };
    axum::response::Html(super::pages::page(
        "微信扫码（模拟）/ WeChat scan (simulated)",
        &format!(
            "<p data-testid=\"wx-scan-result\">{}</p>",
            super::html_escape(&text)
        ),
    ))
}

/// Tokens -> expiry (platform ms), kept with the sandbox state.
pub(crate) type Tokens = HashMap<String, i64>;
