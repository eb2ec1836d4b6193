//! Sandbox of open.douyin.com: OAuth (form bodies, `{data, message}`), user calls (`access-token`
//! header + `open_id` query, `{data, extra}`), uploads plain and in parts, create_video with review
//! and webhook, video list, comments, POI search. Business errors answer HTTP 200.

use super::works::{PostedComment, Review, WorkRec};
use super::{
    Access, AuthCode, DAY_MS, Fault, MB, Refresh, S, SENSITIVE_WORDS, State, Upload, User, Video,
    both, contains_any, gate,
};
use crate::Platform;
use axum::Router;
use axum::extract::{Form, Multipart, Query, State as St};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use domain::clock::platform_now;
use serde_json::{Value, json};
use std::collections::HashMap;

pub(crate) const ACCESS_TTL_MS: i64 = 15 * DAY_MS;
pub(crate) const REFRESH_TTL_MS: i64 = 30 * DAY_MS;
pub(crate) const CODE_TTL_MS: i64 = 10 * 60_000;
pub(crate) const RENEWAL_CAP: u32 = 5;
const CLIENT_TOKEN_TTL_MS: i64 = 7200 * 1000;
const PLAIN_MAX: u64 = 128 * MB;
const FILE_MAX: u64 = 4096 * MB;
const PART_MIN: u64 = 5 * MB;

type Q = Query<HashMap<String, String>>;

pub(crate) fn routes() -> Router<S> {
    let mut r = Router::new();
    r = both(
        r,
        "/platform/oauth/connect/",
        get(super::pages::dy_consent).post(super::pages::dy_consent_submit),
    );
    r = both(r, "/oauth/access_token/", post(access_token));
    r = both(r, "/oauth/refresh_token/", post(refresh_token));
    r = both(r, "/oauth/renew_refresh_token/", post(renew_refresh_token));
    r = both(r, "/oauth/client_token/", post(client_token));
    r = both(r, "/oauth/userinfo/", post(userinfo));
    r = both(r, "/open/getticket/", get(get_ticket));
    r = both(r, "/share-id/", get(share_id));
    r = both(r, "/api/douyin/v1/video/upload_video/", post(upload_video));
    r = both(
        r,
        "/api/douyin/v1/video/init_video_part_upload/",
        post(init_part),
    );
    r = both(
        r,
        "/api/douyin/v1/video/upload_video_part/",
        post(upload_part),
    );
    r = both(
        r,
        "/api/douyin/v1/video/complete_video_part_upload/",
        post(complete_part),
    );
    r = both(r, "/api/douyin/v1/video/create_video/", post(create_video));
    r = both(r, "/api/douyin/v1/video/video_list/", get(video_list));
    r = both(r, "/api/douyin/v1/video/video_data/", post(video_data));
    r = both(r, "/item/comment/list/", get(comment_list));
    r = both(r, "/item/comment/reply/", post(comment_reply));
    r = both(r, "/poi/search/keyword/", get(poi_search));
    r
}

// ---- envelopes -----------------------------------------------------------------------------------

fn extra(code: i64, desc: &str) -> Value {
    json!({"error_code": code, "description": desc, "sub_error_code": 0, "sub_description": "",
           "logid": format!("{:016x}", rand::random::<u64>()), "now": platform_now()})
}

/// `{data:{error_code:0,...}, extra:{...}}`
fn ok(mut data: Value) -> Response {
    data["error_code"] = json!(0);
    data["description"] = json!("");
    axum::Json(json!({"data": data, "extra": extra(0, "")})).into_response()
}

fn err(code: i64, desc: &str) -> Response {
    axum::Json(
        json!({"data": {"error_code": code, "description": desc}, "extra": extra(code, desc)}),
    )
    .into_response()
}

/// OAuth calls answer `{data:{...,error_code:0}, message:"success"}`.
fn oauth_ok(mut data: Value) -> Response {
    data["error_code"] = json!(0);
    data["description"] = json!("");
    axum::Json(json!({"data": data, "message": "success"})).into_response()
}

fn oauth_err(code: i64, desc: &str) -> Response {
    axum::Json(json!({"data": {"error_code": code, "description": desc}, "message": "error"}))
        .into_response()
}

/// How a fault looks on DY. OAuth calls render expired tokens with their OAuth codes.
fn fault(f: Fault, call: &str) -> Response {
    let oauth = matches!(
        call,
        "access_token" | "refresh_token" | "renew_refresh_token" | "client_token" | "userinfo"
    );
    let (code, desc) = match f {
        Fault::ExpiredToken => match call {
            "access_token" => (10007, "code 已过期"),
            "refresh_token" | "renew_refresh_token" => (10010, "refresh_token 已过期"),
            "userinfo" | "client_token" => (10008, "access_token 已过期"),
            _ => (2190008, "access_token过期,请刷新或重新授权"),
        },
        Fault::RateLimit => (28003018, "接口调用频率超过限制"),
        Fault::Quota => (2190001, "接口调用额度已用完"),
        Fault::DailyCap => (2114007, "今日发布视频数已达上限"),
        Fault::SensitiveWord => (2111001, "标题含有敏感词"),
        Fault::Oversize => (2190005, "视频文件过大"),
        Fault::TooLong => (2190006, "视频时长超过 15 分钟"),
        Fault::MissingChunk => (2190004, "分片缺失，上传未完成"),
        Fault::Busy => (2100004, "系统繁忙，请稍后重试"),
        Fault::OpenIdMismatch => (2190015, "open_id 与 access_token 不匹配"),
        Fault::ServerError | Fault::Timeout => {
            return (StatusCode::INTERNAL_SERVER_ERROR, "internal server error").into_response();
        }
    };
    if oauth {
        oauth_err(code, desc)
    } else {
        err(code, desc)
    }
}

// ---- OAuth ---------------------------------------------------------------------------------------

/// Checks (or learns, for an unknown key) the app secret.
fn app_ok(st: &mut State, key: &str, secret: &str) -> bool {
    if key.is_empty() {
        return false;
    }
    match st.apps.get(key) {
        Some(s) => s == secret,
        None => {
            st.apps.insert(key.to_string(), secret.to_string());
            true
        }
    }
}

/// Called by the consent page: a single-use code for (app, user).
pub(crate) fn issue_code(
    st: &mut State,
    platform: Platform,
    client_key: &str,
    nickname: &str,
) -> String {
    let open_id = open_id_for(platform, client_key, nickname);
    st.users.insert(
        format!("{}:{open_id}", platform.code()),
        User {
            nickname: nickname.to_string(),
            avatar: format!(
                "https://sandbox.invalid/avatar/{}.png",
                &open_id[open_id.len().saturating_sub(8)..]
            ),
        },
    );
    let code = st.id("code_");
    st.codes.insert(
        code.clone(),
        AuthCode {
            platform,
            client_key: client_key.to_string(),
            open_id,
            expires_at: platform_now() + CODE_TTL_MS,
            used: false,
        },
    );
    code
}

/// The same person authorizing the same app again is the same account.
pub(crate) fn open_id_for(platform: Platform, client_key: &str, nickname: &str) -> String {
    let h = super::stable_hash(&[platform.code(), client_key, nickname]);
    match platform {
        Platform::Dy => format!("_000{h:016x}"),
        _ => format!(
            "{h:016x}{:016x}",
            super::stable_hash(&[nickname, platform.code()])
        ),
    }
}

/// Consumes a code: Ok(open_id) or the error (code, message). Shared with KS.
pub(crate) fn take_code(
    st: &mut State,
    platform: Platform,
    client_key: &str,
    code: &str,
) -> Result<String, &'static str> {
    let now = platform_now();
    match st.codes.get_mut(code) {
        Some(c)
            if c.platform == platform
                && c.client_key == client_key
                && !c.used
                && c.expires_at > now =>
        {
            c.used = true;
            Ok(c.open_id.clone())
        }
        Some(c) if c.used => Err("code 已被使用"),
        _ => Err("code 无效或已过期"),
    }
}

/// New access + refresh token pair for a fresh authorization.
pub(crate) fn grant(
    st: &mut State,
    platform: Platform,
    client_key: &str,
    open_id: &str,
    access_ttl: i64,
    refresh_ttl: i64,
) -> (String, String) {
    let now = platform_now();
    let (ap, rp) = if platform == Platform::Dy {
        ("act.", "rft.")
    } else {
        ("ks_at_", "ks_rt_")
    };
    let at = st.id(ap);
    let rt = st.id(rp);
    st.access.insert(
        at.clone(),
        Access {
            platform,
            open_id: open_id.into(),
            client_key: client_key.into(),
            expires_at: now + access_ttl,
        },
    );
    st.refresh.insert(
        rt.clone(),
        Refresh {
            platform,
            open_id: open_id.into(),
            client_key: client_key.into(),
            expires_at: now + refresh_ttl,
            renewals: 0,
            alive: true,
        },
    );
    (at, rt)
}

type F = Form<HashMap<String, String>>;

fn field<'a>(f: &'a HashMap<String, String>, k: &str) -> &'a str {
    f.get(k).map(String::as_str).unwrap_or("")
}

async fn access_token(St(s): St<S>, Form(f): F) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "access_token", "").await {
        return fault(x, "access_token");
    }
    let (key, secret, code) = (
        field(&f, "client_key"),
        field(&f, "client_secret"),
        field(&f, "code"),
    );
    if field(&f, "grant_type") != "authorization_code" || code.is_empty() {
        return oauth_err(10002, "参数错误");
    }
    let mut st = s.lock();
    if !app_ok(&mut st, key, secret) {
        return oauth_err(10013, "client_key 或 client_secret 错误");
    }
    let open_id = match take_code(&mut st, Platform::Dy, key, code) {
        Ok(o) => o,
        Err(m) => return oauth_err(10007, m),
    };
    let (at, rt) = grant(
        &mut st,
        Platform::Dy,
        key,
        &open_id,
        ACCESS_TTL_MS,
        REFRESH_TTL_MS,
    );
    oauth_ok(json!({
        "access_token": at, "expires_in": ACCESS_TTL_MS / 1000,
        "refresh_token": rt, "refresh_expires_in": REFRESH_TTL_MS / 1000,
        "open_id": open_id, "scope": crate::dy::SCOPES,
    }))
}

/// New access token; the refresh token and its expiry stay. Numbers as strings here on purpose.
async fn refresh_token(St(s): St<S>, Form(f): F) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "refresh_token", "").await {
        return fault(x, "refresh_token");
    }
    let (key, rt) = (field(&f, "client_key"), field(&f, "refresh_token"));
    if field(&f, "grant_type") != "refresh_token" {
        return oauth_err(10002, "参数错误");
    }
    let now = platform_now();
    let mut st = s.lock();
    let (open_id, rexp) = match st.refresh.get(rt) {
        Some(r)
            if r.platform == Platform::Dy
                && r.alive
                && r.expires_at > now
                && r.client_key == key =>
        {
            (r.open_id.clone(), r.expires_at)
        }
        _ => return oauth_err(10010, "refresh_token 已过期，请重新授权"),
    };
    let at = st.id("act.");
    st.access.insert(
        at.clone(),
        Access {
            platform: Platform::Dy,
            open_id: open_id.clone(),
            client_key: key.into(),
            expires_at: now + ACCESS_TTL_MS,
        },
    );
    oauth_ok(json!({
        "access_token": at, "expires_in": (ACCESS_TTL_MS / 1000).to_string(),
        "refresh_token": rt, "refresh_expires_in": ((rexp - now) / 1000).to_string(),
        "open_id": open_id, "scope": crate::dy::SCOPES,
    }))
}

async fn renew_refresh_token(St(s): St<S>, Form(f): F) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "renew_refresh_token", "").await {
        return fault(x, "renew_refresh_token");
    }
    let (key, rt) = (field(&f, "client_key"), field(&f, "refresh_token"));
    let now = platform_now();
    let mut st = s.lock();
    let (open_id, renewals) = match st.refresh.get(rt) {
        Some(r)
            if r.platform == Platform::Dy
                && r.alive
                && r.expires_at > now
                && r.client_key == key =>
        {
            (r.open_id.clone(), r.renewals)
        }
        _ => return oauth_err(10010, "refresh_token 已过期，请重新授权"),
    };
    if renewals >= RENEWAL_CAP {
        return oauth_err(10020, "refresh_token 续期次数已达上限");
    }
    if let Some(r) = st.refresh.get_mut(rt) {
        r.alive = false;
    }
    let new = st.id("rft.");
    st.refresh.insert(
        new.clone(),
        Refresh {
            platform: Platform::Dy,
            open_id,
            client_key: key.into(),
            expires_at: now + REFRESH_TTL_MS,
            renewals: renewals + 1,
            alive: true,
        },
    );
    oauth_ok(json!({"refresh_token": new, "expires_in": REFRESH_TTL_MS / 1000}))
}

async fn client_token(St(s): St<S>, Form(f): F) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "client_token", "").await {
        return fault(x, "client_token");
    }
    let mut st = s.lock();
    if field(&f, "grant_type") != "client_credential" {
        return oauth_err(10002, "参数错误");
    }
    if !app_ok(&mut st, field(&f, "client_key"), field(&f, "client_secret")) {
        return oauth_err(10013, "client_key 或 client_secret 错误");
    }
    let t = st.id("clt.");
    st.client_tokens
        .insert(t.clone(), platform_now() + CLIENT_TOKEN_TTL_MS);
    oauth_ok(json!({"access_token": t, "expires_in": CLIENT_TOKEN_TTL_MS / 1000}))
}

async fn userinfo(St(s): St<S>, Form(f): F) -> Response {
    let open_id = field(&f, "open_id").to_string();
    if let Some(x) = gate(&s, Platform::Dy, "userinfo", &open_id).await {
        return fault(x, "userinfo");
    }
    let st = s.lock();
    match user_of(&st, field(&f, "access_token"), &open_id) {
        Ok(_) => {}
        Err((code, m)) => return oauth_err(if code == 2190015 { code } else { 10008 }, m),
    }
    let u = st
        .users
        .get(&format!("dy:{open_id}"))
        .cloned()
        .unwrap_or(User {
            nickname: "抖音用户".into(),
            avatar: String::new(),
        });
    oauth_ok(
        json!({"open_id": open_id, "union_id": format!("u{open_id}"), "nickname": u.nickname, "avatar": u.avatar, "e_account_role": ""}),
    )
}

// ---- user calls ----------------------------------------------------------------------------------

/// Validates `access-token` for `open_id`: Err((code, message)) as DY answers it.
fn user_of(st: &State, token: &str, open_id: &str) -> Result<(), (i64, &'static str)> {
    match st.access.get(token) {
        Some(a) if a.platform != Platform::Dy => Err((2190002, "access_token 无效")),
        None => Err((2190002, "access_token 无效")),
        Some(a) if a.expires_at <= platform_now() => {
            Err((2190008, "access_token过期,请刷新或重新授权"))
        }
        Some(a) if a.open_id != open_id => Err((2190015, "open_id 与 access_token 不匹配")),
        Some(_) => Ok(()),
    }
}

/// Gate + auth for one user call; Ok(open_id).
async fn enter(
    s: &S,
    call: &str,
    headers: &HeaderMap,
    q: &HashMap<String, String>,
) -> Result<String, Response> {
    let open_id = q.get("open_id").cloned().unwrap_or_default();
    if let Some(x) = gate(s, Platform::Dy, call, &open_id).await {
        return Err(fault(x, call));
    }
    let token = headers
        .get("access-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let st = s.lock();
    user_of(&st, token, &open_id).map_err(|(c, m)| err(c, m))?;
    Ok(open_id)
}

/// Counts the bytes of multipart field `video` without keeping them.
async fn count_video(mut mp: Multipart) -> Result<u64, Response> {
    let mut size = None;
    while let Ok(Some(mut f)) = mp.next_field().await {
        if f.name() != Some("video") {
            continue;
        }
        let mut n = 0u64;
        loop {
            match f.chunk().await {
                Ok(Some(c)) => n += c.len() as u64,
                Ok(None) => break,
                Err(_) => return Err(err(2100005, "multipart 读取失败")),
            }
        }
        size = Some(n);
    }
    match size {
        Some(n) if n > 0 => Ok(n),
        _ => Err(err(2100005, "缺少 video 文件")),
    }
}

fn new_video(st: &mut State, open_id: &str, size: u64, parts: u32) -> Value {
    let id = st.id("v0d00fg10000");
    st.videos.insert(
        id.clone(),
        Video {
            platform: Platform::Dy,
            open_id: open_id.into(),
            size,
            parts,
        },
    );
    json!({"video": {"video_id": id, "width": 1080, "height": 1920}})
}

async fn upload_video(St(s): St<S>, headers: HeaderMap, Query(q): Q, mp: Multipart) -> Response {
    let open_id = match enter(&s, "upload_video", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let size = match count_video(mp).await {
        Ok(n) => n,
        Err(r) => return r,
    };
    if size > PLAIN_MAX {
        return err(2190005, "视频文件过大，请使用分片上传");
    }
    let data = new_video(&mut s.lock(), &open_id, size, 0);
    ok(data)
}

async fn init_part(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, "init_video_part_upload", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let mut st = s.lock();
    // Real upload ids carry characters that need URL-encoding; so does ours.
    let id = format!("@{}+/=", st.id("upl"));
    st.uploads.insert(
        id.clone(),
        Upload {
            platform: Platform::Dy,
            open_id,
            parts: Default::default(),
            done: false,
        },
    );
    ok(json!({"upload_id": id}))
}

async fn upload_part(St(s): St<S>, headers: HeaderMap, Query(q): Q, mp: Multipart) -> Response {
    let open_id = match enter(&s, "upload_video_part", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let upload_id = q.get("upload_id").cloned().unwrap_or_default();
    let part: u32 = match q.get("part_number").and_then(|p| p.parse().ok()) {
        Some(p) if p >= 1 => p,
        _ => return err(2100005, "part_number 无效"),
    };
    {
        let st = s.lock();
        match st.uploads.get(&upload_id) {
            Some(u) if u.open_id == open_id && !u.done => {}
            _ => return err(2100005, "upload_id 无效"),
        }
    }
    let size = match count_video(mp).await {
        Ok(n) => n,
        Err(r) => return r,
    };
    if let Some(u) = s.lock().uploads.get_mut(&upload_id) {
        u.parts.insert(part, size);
    }
    ok(json!({}))
}

async fn complete_part(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, "complete_video_part_upload", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let upload_id = q.get("upload_id").cloned().unwrap_or_default();
    let mut st = s.lock();
    let (total, n) = match st.uploads.get(&upload_id) {
        Some(u) if u.open_id == open_id && !u.done => {
            let n = u.parts.len() as u32;
            // Parts must be 1..=n with none missing; all but the last at least 5 MB.
            if n == 0 || u.parts.keys().copied().ne(1..=n) {
                return err(2190004, "分片缺失，上传未完成");
            }
            if u.parts.iter().any(|(k, v)| *k < n && *v < PART_MIN) {
                return err(2100005, "分片小于 5 MB");
            }
            (u.parts.values().sum::<u64>(), n)
        }
        _ => return err(2100005, "upload_id 无效"),
    };
    if total > FILE_MAX {
        return err(2190005, "视频文件过大");
    }
    if let Some(u) = st.uploads.get_mut(&upload_id) {
        u.done = true;
    }
    let data = new_video(&mut st, &open_id, total, n);
    ok(data)
}

async fn create_video(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    body: axum::Json<Value>,
) -> Response {
    let open_id = match enter(&s, "create_video", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let video_id = body
        .get("video_id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let text = body
        .get("text")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if contains_any(&text, &SENSITIVE_WORDS) {
        return err(2111001, "标题含有敏感词");
    }
    let token = headers
        .get("access-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let (item_id, client_key) = {
        let mut st = s.lock();
        match st.videos.get(&video_id) {
            Some(v) if v.platform == Platform::Dy && v.open_id == open_id => {}
            _ => return err(2190007, "video_id 无效"),
        }
        let client_key = st
            .access
            .get(&token)
            .map(|a| a.client_key.clone())
            .unwrap_or_default();
        let item_id = format!(
            "7{:018}",
            st.total_creates * 7919 + rand::random::<u32>() as u64
        );
        st.add_work(Platform::Dy, &open_id, &item_id, &video_id, &text);
        (item_id, client_key)
    };
    super::control::send_create_webhook(&s, &client_key, &open_id, &item_id);
    ok(json!({"item_id": item_id, "video_id": video_id}))
}

fn item_json(s: &S, w: &WorkRec, now: i64, posted: usize) -> Value {
    let review = w.review(now);
    let st = w.stats(now, posted);
    json!({
        "item_id": w.item_id,
        "title": w.title,
        "cover": format!("{}/dy/cover/{}.jpg", s.public_base, w.item_id),
        "share_url": format!("{}/dy/share/{}", s.public_base, w.item_id),
        "create_time": w.created_at / 1000,
        "is_top": false,
        "is_reviewed": review != Review::Reviewing,
        "video_status": match review { Review::Reviewing => 4, Review::Public => 5, Review::Rejected => 2 },
        "media_type": 4,
        "statistics": {
            "play_count": st.play, "digg_count": st.like, "comment_count": st.comment,
            "share_count": st.share, "forward_count": st.share / 2, "download_count": st.share / 3,
        },
    })
}

/// Newest first; `cursor` is the offset into that order.
async fn video_list(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, "video_list", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let cursor: usize = q.get("cursor").and_then(|c| c.parse().ok()).unwrap_or(0);
    let count: usize = q
        .get("count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(10)
        .clamp(1, 20);
    let now = platform_now();
    let st = s.lock();
    let mut mine: Vec<&WorkRec> = st
        .works
        .iter()
        .filter(|w| w.platform == Platform::Dy && w.open_id == open_id)
        .collect();
    mine.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.seq.cmp(&a.seq)));
    let page: Vec<Value> = mine
        .iter()
        .skip(cursor)
        .take(count)
        .map(|w| {
            item_json(
                &s,
                w,
                now,
                st.posted_comments
                    .get(&w.item_id)
                    .map_or(0, |p| p.iter().filter(|c| c.reply_to.is_none()).count()),
            )
        })
        .collect();
    let next = cursor + page.len();
    ok(json!({"list": page, "cursor": next, "has_more": next < mine.len()}))
}

async fn video_data(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    body: axum::Json<Value>,
) -> Response {
    let open_id = match enter(&s, "video_data", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let ids: Vec<String> = body
        .get("item_ids")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let now = platform_now();
    let st = s.lock();
    let list: Vec<Value> = st
        .works
        .iter()
        .filter(|w| w.platform == Platform::Dy && w.open_id == open_id && ids.contains(&w.item_id))
        .map(|w| {
            item_json(
                &s,
                w,
                now,
                st.posted_comments.get(&w.item_id).map_or(0, Vec::len),
            )
        })
        .collect();
    ok(json!({"list": list}))
}

async fn comment_list(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, "comment_list", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let item_id = q.get("item_id").cloned().unwrap_or_default();
    let cursor: usize = q.get("cursor").and_then(|c| c.parse().ok()).unwrap_or(0);
    let count: usize = q
        .get("count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(20)
        .clamp(1, 50);
    let st = s.lock();
    let Some(w) = st
        .works
        .iter()
        .find(|w| w.platform == Platform::Dy && w.item_id == item_id)
    else {
        return err(2100005, "item_id 无效");
    };
    if w.open_id != open_id {
        return err(2190015, "item 不属于该用户");
    }
    let all = w.comments(
        platform_now(),
        st.posted_comments
            .get(&item_id)
            .map(Vec::as_slice)
            .unwrap_or(&[]),
    );
    let page: Vec<_> = all.iter().skip(cursor).take(count).cloned().collect();
    let next = cursor + page.len();
    ok(json!({"list": page, "cursor": next, "has_more": next < all.len()}))
}

/// Without `comment_id`: a top-level comment by the author; with it: a reply.
async fn comment_reply(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    body: axum::Json<Value>,
) -> Response {
    let open_id = match enter(&s, "comment_reply", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let item_id = body
        .get("item_id")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let content = body
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let reply_to = body
        .get("comment_id")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
        .map(String::from);
    if content.trim().is_empty() {
        return err(2100005, "content 不能为空");
    }
    if contains_any(&content, &SENSITIVE_WORDS) {
        return err(2111001, "评论含有敏感词");
    }
    let mut st = s.lock();
    match st
        .works
        .iter()
        .find(|w| w.platform == Platform::Dy && w.item_id == item_id)
    {
        Some(w) if w.open_id == open_id => {}
        Some(_) => return err(2190015, "item 不属于该用户"),
        None => return err(2100005, "item_id 无效"),
    }
    let id = st.id("cmt");
    st.posted_comments
        .entry(item_id)
        .or_default()
        .push(PostedComment {
            comment_id: id.clone(),
            reply_to,
            content,
            create_time: platform_now(),
            user_id: open_id,
        });
    ok(json!({"comment_id": id}))
}

async fn poi_search(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "poi_search", "").await {
        return fault(x, "poi_search");
    }
    let token = headers
        .get("access-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    {
        let st = s.lock();
        match st.client_tokens.get(token) {
            Some(exp) if *exp > platform_now() => {}
            Some(_) => return err(28001008, "client_token 已过期"),
            None => return err(2190002, "access_token 无效"),
        }
    }
    let pois = super::poi::search(
        q.get("keyword").map_or("", |s| s),
        q.get("city").map_or("", |s| s),
    );
    let count: usize = q
        .get("count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(50)
        .clamp(1, 100);
    let list: Vec<_> = pois.into_iter().take(count).collect();
    ok(json!({"pois": list, "cursor": list.len(), "has_more": false}))
}

// ---- H5 share schema (PLATFORMS.md): client_token -> ticket -> share id -> signed schema link ----

const TICKET_TTL_MS: i64 = 7_200_000;

fn client_key_of(st: &super::State, headers: &HeaderMap) -> Option<String> {
    let t = headers.get("access-token").and_then(|v| v.to_str().ok())?;
    let exp = *st.client_tokens.get(t)?;
    if exp <= platform_now() {
        return None;
    }
    // Client tokens are not tied to a key in the store; the first app's key is the sandbox's.
    Some(
        st.apps
            .keys()
            .find(|k| k.starts_with("sbx_dy") || !k.starts_with("sbx_"))
            .cloned()
            .unwrap_or_default(),
    )
}

/// GET /open/getticket/ (header access-token: a client token) -> {ticket, expires_in}
async fn get_ticket(St(s): St<S>, headers: HeaderMap) -> Response {
    let mut st = s.lock();
    let Some(key) = client_key_of(&st, &headers) else {
        return err(28001008, "client_token 无效或已过期");
    };
    let t = st.id("tkt.");
    st.tickets
        .insert(t.clone(), (key, platform_now() + TICKET_TTL_MS));
    ok(json!({"ticket": t, "expires_in": TICKET_TTL_MS / 1000}))
}

/// GET /share-id/?need_callback=true -> {share_id}
async fn share_id(St(s): St<S>, headers: HeaderMap) -> Response {
    let mut st = s.lock();
    let Some(key) = client_key_of(&st, &headers) else {
        return err(28001008, "client_token 无效或已过期");
    };
    let id = format!(
        "{}",
        1_000_000_000_000u64 + rand::random::<u32>() as u64 * 7 + st.share_ids.len() as u64
    );
    st.share_ids.insert(id.clone(), key);
    ok(json!({"share_id": id}))
}

#[derive(serde::Deserialize)]
pub(crate) struct H5Req {
    schema: String,
    #[serde(default)]
    nickname: Option<String>,
}

/// Test endpoint "the customer tapped publish": checks the schema's signature against a live
/// ticket, posts the video as a (new or known) user, and sends the create_video webhook that maps the
/// share id to the item id.
pub(crate) async fn h5_publish(St(s): St<S>, axum::Json(r): axum::Json<H5Req>) -> Response {
    let q: HashMap<String, String> = r
        .schema
        .split_once('?')
        .map(|(_, q)| serde_urlencoded::from_str(q).unwrap_or_default())
        .unwrap_or_default();
    let g = |k: &str| q.get(k).cloned().unwrap_or_default();
    let now = platform_now();
    let (item_id, open_id, key, share) = {
        let mut st = s.lock();
        let signed = st.tickets.iter().any(|(t, (_, exp))| {
            *exp > now
                && crate::dy::share_signature(&g("nonce_str"), t, &g("timestamp")) == g("signature")
        });
        if !signed {
            return (
                StatusCode::BAD_REQUEST,
                axum::Json(json!({"error": "bad or expired signature"})),
            )
                .into_response();
        }
        let share = g("state");
        if !st.share_ids.contains_key(&share) {
            return (
                StatusCode::BAD_REQUEST,
                axum::Json(json!({"error": "unknown share id"})),
            )
                .into_response();
        }
        let nick = r.nickname.unwrap_or_else(|| "抖音顾客".into());
        let open_id = format!("_h5{:016x}", {
            use sha1::Digest;
            let d = sha1::Sha1::digest(nick.as_bytes());
            u64::from_be_bytes(d[..8].try_into().unwrap_or_default())
        });
        let mut title = g("title");
        if let Ok(tags) = serde_json::from_str::<Vec<String>>(&g("hashtag_list")) {
            for t in tags {
                title.push_str(&format!(" #{t}"));
            }
        }
        let item_id = format!(
            "7{:018}",
            st.total_creates * 7919 + rand::random::<u32>() as u64
        );
        let video = st.id("h5v.");
        st.add_work(Platform::Dy, &open_id, &item_id, &video, &title);
        (item_id, open_id, g("client_key"), share)
    };
    super::control::send_create_webhook_shared(&s, &key, &open_id, &item_id, &share);
    axum::Json(json!({"item_id": item_id, "open_id": open_id, "share_id": share})).into_response()
}
