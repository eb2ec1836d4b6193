//! The QR-session platforms (SPH, XHS, shop) at the adapter boundary: QR login (5 min), optional SMS
//! challenge, 30-day sessions (platform clock), and a dead session answered by a redirect to the
//! login page — the way the real creator consoles show it. Protocol: see `crate::session`.

use super::works::{PostedComment, Review};
use super::{
    DAY_MS, Fault, S, SENSITIVE_WORDS, State, contains_any, gate, html_escape as esc,
    suggest_suffix,
};
use crate::Platform;
use crate::error::session_codes as c;
use axum::extract::{Extension, Form, Multipart, Path, Query, State as St};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};
use std::collections::HashMap;

pub(crate) const QR_TTL_MS: i64 = 5 * 60_000;
pub(crate) const SESSION_TTL_MS: i64 = 30 * DAY_MS;

#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct QrRec {
    pub platform: Platform,
    pub expires_at: i64,
    /// Set when the person confirmed on the QR page.
    pub confirmed: Option<String>,
    pub sms_required: bool,
    pub session: Option<String>,
}

#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct SessionRec {
    pub platform: Platform,
    pub open_id: String,
    pub nickname: String,
    pub expires_at: i64,
}

type Q = Query<HashMap<String, String>>;
type P = Extension<Platform>;

pub(crate) fn routes(p: Platform) -> Router<S> {
    Router::new()
        .route("/login/qr", post(start))
        .route("/login/poll", get(poll))
        .route("/login", get(login_page))
        .route("/qr/{login_id}", get(qr_page).post(qr_confirm))
        .route("/session/check", get(check))
        .route("/upload", post(upload))
        .route("/publish", post(publish))
        .route("/works", get(works))
        .route("/profile", get(profile))
        .route("/comment", post(comment))
        .route("/comments", get(comments))
        .route("/poi/search", get(super::poi::generic))
        .layer(Extension(p))
}

fn ok(data: Value) -> Response {
    Json(json!({"code": c::OK, "msg": "ok", "data": data})).into_response()
}

fn err(code: i64, msg: &str) -> Response {
    Json(json!({"code": code, "msg": msg, "data": null})).into_response()
}

/// Where the console sends a browser without a live session.
fn to_login(s: &S, p: Platform) -> Response {
    (
        StatusCode::FOUND,
        [(
            header::LOCATION,
            format!("{}/{}/login", s.public_base, p.code()),
        )],
    )
        .into_response()
}

fn fault(s: &S, p: Platform, f: Fault) -> Response {
    let (code, m) = match f {
        Fault::ExpiredToken => return to_login(s, p),
        Fault::RateLimit => (c::RATE_LIMIT, "操作太频繁"),
        Fault::Quota => (c::QUOTA, "额度已用完"),
        Fault::DailyCap => (c::DAILY_CAP, "今日发布已达上限"),
        Fault::SensitiveWord => (c::SENSITIVE, "标题含有敏感词"),
        Fault::Oversize => (c::TOO_LARGE, "视频文件过大"),
        Fault::TooLong => (c::TOO_LONG, "视频时长超限"),
        Fault::MissingChunk => (c::MISSING_CHUNK, "分片缺失"),
        Fault::Busy => (c::BUSY, "系统繁忙"),
        Fault::OpenIdMismatch => (c::OPEN_ID_MISMATCH, "账号不匹配"),
        Fault::ServerError | Fault::Timeout => {
            return (StatusCode::INTERNAL_SERVER_ERROR, "internal server error").into_response();
        }
    };
    err(code, m)
}

pub(crate) fn nickname_prefix(p: Platform) -> &'static str {
    match p {
        Platform::Sph => "视频号用户",
        Platform::Xhs => "小红书用户",
        _ => "店铺",
    }
}

async fn start(St(s): St<S>, Extension(p): P) -> Response {
    if let Some(x) = gate(&s, p, "qr", "").await {
        return fault(&s, p, x);
    }
    let mut st = s.lock();
    let id = st.id("qr");
    let expires_at = s.clock.sandbox_now() + QR_TTL_MS;
    st.qr.insert(
        id.clone(),
        QrRec {
            platform: p,
            expires_at,
            confirmed: None,
            sms_required: false,
            session: None,
        },
    );
    ok(
        json!({"login_id": id, "qr_url": format!("{}/{}/qr/{id}", s.public_base, p.code()), "expires_at": expires_at}),
    )
}

pub(crate) fn new_session(st: &mut State, p: Platform, nickname: &str) -> String {
    let open_id = super::oauth::open_id_for(p, "session", nickname);
    let token = st.id("sess_");
    st.sessions.insert(
        token.clone(),
        SessionRec {
            platform: p,
            open_id,
            nickname: nickname.to_string(),
            expires_at: st.clock.sandbox_now() + SESSION_TTL_MS,
        },
    );
    token
}

pub(crate) fn valid_sms(code: &str) -> bool {
    code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) && code != "000000"
}

async fn poll(St(s): St<S>, Extension(p): P, Query(q): Q) -> Response {
    if let Some(x) = gate(&s, p, "poll", "").await {
        return fault(&s, p, x);
    }
    let id = q.get("login_id").cloned().unwrap_or_default();
    let sms = q.get("sms_code").cloned();
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    let Some(rec) = st.qr.get(&id).filter(|r| r.platform == p) else {
        return ok(json!({"state": "logged_out"}));
    };
    let (nick, needs_sms, session) = (rec.confirmed.clone(), rec.sms_required, rec.session.clone());
    let Some(nick) = nick else {
        let state = if now >= rec.expires_at {
            "logged_out"
        } else {
            "qr_pending"
        };
        return ok(json!({"state": state}));
    };
    let token = match session {
        Some(t) => t,
        None if needs_sms => match sms.as_deref() {
            None | Some("") => return ok(json!({"state": "sms_challenge"})),
            Some(code) if !valid_sms(code) => return err(c::SMS_INVALID, "短信验证码错误"),
            Some(_) => new_session(&mut st, p, &nick),
        },
        None => new_session(&mut st, p, &nick),
    };
    if let Some(r) = st.qr.get_mut(&id) {
        r.session = Some(token.clone());
    }
    let sess = &st.sessions[&token];
    if sess.expires_at <= now {
        return ok(json!({"state": "session_expired"}));
    }
    ok(json!({
        "state": "logged_in", "session": token, "open_id": sess.open_id, "nickname": sess.nickname,
        "avatar": "", "expires_at": sess.expires_at,
    }))
}

/// Gate + session check: Ok(open_id) or the redirect to the login page.
async fn enter(s: &S, p: Platform, call: &str, headers: &HeaderMap) -> Result<String, Response> {
    let token = headers
        .get(header::COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|c| {
            c.split(';')
                .find_map(|kv| kv.trim().strip_prefix("session=").map(str::to_string))
        })
        .unwrap_or_default();
    let open_id = s
        .lock()
        .sessions
        .get(&token)
        .map(|x| x.open_id.clone())
        .unwrap_or_default();
    if let Some(x) = gate(s, p, call, &open_id).await {
        return Err(fault(s, p, x));
    }
    let st = s.lock();
    match st.sessions.get(&token) {
        Some(x) if x.platform == p && x.expires_at > s.clock.sandbox_now() => Ok(x.open_id.clone()),
        _ => Err(to_login(s, p)),
    }
}

async fn check(St(s): St<S>, Extension(p): P, headers: HeaderMap) -> Response {
    match enter(&s, p, "check", &headers).await {
        Ok(open_id) => ok(json!({"open_id": open_id})),
        Err(r) => r,
    }
}

/// The console's home card: `{open_id, nickname, followers}` (followers now, `fans::total`).
async fn profile(St(s): St<S>, Extension(p): P, headers: HeaderMap) -> Response {
    let open_id = match enter(&s, p, "profile", &headers).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let nickname = s
        .lock()
        .sessions
        .values()
        .find(|x| x.platform == p && x.open_id == open_id)
        .map(|x| x.nickname.clone())
        .unwrap_or_default();
    let followers = super::fans::total(p, &open_id, super::words::today(&s.clock));
    ok(json!({"open_id": open_id, "nickname": nickname, "followers": followers}))
}

async fn upload(St(s): St<S>, Extension(p): P, headers: HeaderMap, mut mp: Multipart) -> Response {
    let open_id = match enter(&s, p, "upload", &headers).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let mut size = 0u64;
    while let Ok(Some(mut f)) = mp.next_field().await {
        if f.name() == Some("video") {
            while let Ok(Some(chunk)) = f.chunk().await {
                size += chunk.len() as u64;
            }
        }
    }
    if size == 0 {
        return err(c::BAD_PARAMS, "缺少视频文件");
    }
    let mut st = s.lock();
    let id = st.id(&format!("{}_v", p.code()));
    st.videos.insert(
        id.clone(),
        super::Video {
            platform: p,
            open_id,
            size,
            parts: 0,
            width: 0,
            height: 0,
            aigc: None,
        },
    );
    ok(json!({"video_id": id}))
}

async fn publish(St(s): St<S>, Extension(p): P, headers: HeaderMap, body: Json<Value>) -> Response {
    let open_id = match enter(&s, p, "publish", &headers).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let video_id = body.get("video_id").and_then(Value::as_str).unwrap_or("");
    let title = super::text_of(&body, "title");
    let topics: Vec<&str> = body
        .get("topics")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if title.trim().is_empty() {
        return err(c::BAD_PARAMS, "标题不能为空");
    }
    if contains_any(&title, &SENSITIVE_WORDS)
        || topics.iter().any(|t| contains_any(t, &SENSITIVE_WORDS))
    {
        return err(c::SENSITIVE, "标题含有敏感词");
    }
    let mut st = s.lock();
    match st.videos.get(video_id) {
        Some(v) if v.platform == p && v.open_id == open_id => {}
        _ => return err(c::BAD_PARAMS, "video_id 无效"),
    }
    let item = st.id(&format!("{}_", p.code()));
    st.add_work(p, &open_id, &item, video_id, &title);
    ok(json!({"item_id": item}))
}

async fn works(St(s): St<S>, Extension(p): P, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, p, "works", &headers).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let (cursor, count) = super::cursor_count(&q, 20, 50);
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let mine = st.newest_works(p, &open_id);
    let page: Vec<Value> = mine
        .iter()
        .skip(cursor)
        .take(count)
        .map(|w| {
            let r = w.review(now);
            let x = w.stats(now, st.posted_of(&w.item_id));
            json!({
                "item_id": w.item_id, "title": w.title, "create_time": w.created_at / 1000,
                "status": match r { Review::Reviewing => "reviewing", Review::Public => "public", Review::Rejected => "rejected" },
                "reason": if r == Review::Rejected { "内容违规，审核未通过 / Rejected by review" } else { "" },
                "play": x.play, "like": x.like, "comment": x.comment, "share": x.share,
                "share_url": format!("{}/{}/item/{}", s.public_base, p.code(), w.item_id),
            })
        })
        .collect();
    let next = cursor + page.len();
    ok(json!({"list": page, "cursor": next.to_string(), "has_more": next < mine.len()}))
}

async fn comment(St(s): St<S>, Extension(p): P, headers: HeaderMap, body: Json<Value>) -> Response {
    let open_id = match enter(&s, p, "comment", &headers).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let item_id = super::text_of(&body, "item_id");
    let content = super::text_of(&body, "content");
    if content.trim().is_empty() {
        return err(c::BAD_PARAMS, "评论不能为空");
    }
    let reply_to = body
        .get("reply_to")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map(String::from);
    let mut st = s.lock();
    if !st
        .works
        .iter()
        .any(|w| w.platform == p && w.item_id == item_id)
    {
        return err(c::BAD_PARAMS, "作品不存在");
    }
    if reply_to.is_some()
        && let Err(l) = super::engage::admit_reply(&mut st, p, &open_id, &content)
    {
        let (code, m) = l.session();
        return err(code, m);
    }
    let id = st.id("cmt");
    st.posted_comments
        .entry(item_id)
        .or_default()
        .push(PostedComment {
            comment_id: id.clone(),
            reply_to,
            content,
            create_time: s.clock.sandbox_now(),
            user_id: open_id,
        });
    ok(json!({"comment_id": id}))
}

/// `GET /comments?item_id&cursor&count`: the comments under one of the account's works, newest
/// first (the console's comment panel).
async fn comments(St(s): St<S>, Extension(p): P, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, p, "comments", &headers).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let item_id = q.get("item_id").cloned().unwrap_or_default();
    let (cursor, count) = super::cursor_count(&q, 20, 50);
    let st = s.lock();
    let Some(w) = st
        .works
        .iter()
        .find(|w| w.platform == p && w.item_id == item_id && w.open_id == open_id)
    else {
        return err(c::BAD_PARAMS, "作品不存在");
    };
    let all = w.comments(s.clock.sandbox_now(), st.posted_of(&item_id));
    let page: Vec<_> = all.iter().skip(cursor).take(count).cloned().collect();
    let next = cursor + page.len();
    ok(json!({"list": page, "cursor": next.to_string(), "has_more": next < all.len()}))
}

// ---- human pages -----------------------------------------------------------------------------------

async fn login_page(Extension(p): P) -> Html<String> {
    Html(super::pages::page(
        &format!("{} 登录 / Login", p.code().to_uppercase()),
        "<p>登录已失效，请在应用中重新扫码登录。<br>The session ended; start a new QR login from the app.</p>",
    ))
}

async fn qr_page(St(s): St<S>, Extension(p): P, Path(login_id): Path<String>) -> Html<String> {
    let st = s.lock();
    Html(qr_confirm_page(
        p,
        &login_id,
        st.qr.get(&login_id).filter(|r| r.platform == p),
        s.clock.sandbox_now(),
    ))
}

async fn qr_confirm(
    St(s): St<S>,
    Extension(p): P,
    Path(login_id): Path<String>,
    Form(f): Form<HashMap<String, String>>,
) -> Response {
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    let Some(rec) = st.qr.get_mut(&login_id).filter(|r| r.platform == p) else {
        return (
            StatusCode::NOT_FOUND,
            Html(super::pages::page(
                "未找到 / Not found",
                "<p>登录请求不存在 / No such login</p>",
            )),
        )
            .into_response();
    };
    if now >= rec.expires_at {
        return Html(super::pages::page(
            "二维码已过期 / QR code expired",
            "<p>请重新生成二维码。<br>Start a new login.</p>",
        ))
        .into_response();
    }
    let nick = f
        .get("nickname")
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("{}{}", nickname_prefix(p), super::suggest_suffix()));
    rec.confirmed = Some(nick.clone());
    rec.sms_required = f.contains_key("sms");
    let extra = if rec.sms_required {
        "<p>需要短信验证：请在应用中输入 6 位验证码。<br>SMS verification required: enter the 6-digit code in the app.</p>"
    } else {
        ""
    };
    Html(super::pages::page(
        "已确认登录 / Login confirmed",
        &format!(
            "<p id=\"done\">已确认以 <b>{}</b> 登录，可以关闭此页。<br>Logged in as <b>{}</b>; you can close this page.</p>{extra}",
            super::html_escape(&nick),
            super::html_escape(&nick)
        ),
    ))
    .into_response()
}

/// The phone's page of a QR login: confirm (with a nickname, optionally asking for an SMS code).
fn qr_confirm_page(p: Platform, login_id: &str, rec: Option<&QrRec>, now: i64) -> String {
    let name = match p {
        Platform::Sph => ("视频号", "WeChat Channels"),
        Platform::Xhs => ("小红书", "Xiaohongshu"),
        _ => ("店铺平台", "Shop platform"),
    };
    let title = format!("{}扫码登录 / {} QR login", name.0, name.1);
    let Some(rec) = rec else {
        return super::pages::page(&title, "<p>登录请求不存在 / No such login request.</p>");
    };
    if rec.confirmed.is_some() {
        return super::pages::page(
            &title,
            "<p id=\"done\">该登录已确认 / This login is already confirmed.</p>",
        );
    }
    if now >= rec.expires_at {
        return super::pages::page(
            &title,
            "<p>二维码已过期，请重新生成。<br>The QR code expired; start a new login.</p>",
        );
    }
    super::pages::page(
        &title,
        &format!(
            "<div class=\"card\"><p>登录编号 / Login: <code>{id}</code></p>\
             <p>你正在用手机确认登录{zh}创作者平台。<br>You are confirming a login to the {en} creator console.</p>\
             <form method=\"post\">\
             <label>昵称 / Nickname <input type=\"text\" id=\"nickname\" name=\"nickname\" value=\"{prefix}{n}\"></label><br>\
             <label><input type=\"checkbox\" id=\"sms\" name=\"sms\" value=\"1\"> 需要短信验证 / require SMS verification</label><br>\
             <button type=\"submit\" id=\"confirm\">确认登录 / Confirm login</button></form></div>",
            id = esc(login_id),
            zh = name.0,
            en = name.1,
            prefix = nickname_prefix(p),
            n = suggest_suffix(),
        ),
    )
}
