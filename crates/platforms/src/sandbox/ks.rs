//! Sandbox of open.kuaishou.com: `{result: 1 | code, error_msg}`, app and token in the query, access
//! token 48 h, refresh token 180 d rotating on every refresh (keeping the original expiry), upload
//! via an upload token to an "upload host" that routes back here, publish multipart with a cover.

use super::oauth::{grant, take_code};
use super::works::{Review, WorkRec};
use super::{
    Access, DAY_MS, Fault, Refresh, S, SENSITIVE_WORDS, State, Upload, User, Video, contains_any,
    gate,
};
use crate::Platform;
use crate::error::ks_codes as c;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Multipart, Query, State as St};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::collections::HashMap;

pub(crate) const ACCESS_TTL_MS: i64 = 2 * DAY_MS;
pub(crate) const REFRESH_TTL_MS: i64 = 180 * DAY_MS;

type Q = Query<HashMap<String, String>>;

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route(
            "/oauth2/authorize",
            get(super::pages::ks_consent).post(super::pages::ks_consent_submit),
        )
        .route("/oauth2/access_token", get(access_token))
        .route("/oauth2/refresh_token", get(refresh_token))
        .route("/openapi/user_info", get(user_info))
        .route("/openapi/photo/start_upload", post(start_upload))
        .route("/api/upload", post(upload))
        .route("/api/upload/fragment", post(fragment))
        .route("/api/upload/complete", post(complete))
        .route("/openapi/photo/publish", post(publish))
        .route("/openapi/photo/list", get(list))
        .route("/poi/search", get(super::poi::generic))
}

fn ok(mut v: Value) -> Response {
    v["result"] = json!(c::OK);
    axum::Json(v).into_response()
}

fn err(code: i64, error: &str, msg: &str) -> Response {
    axum::Json(json!({"result": code, "error": error, "error_msg": msg})).into_response()
}

fn fault(f: Fault) -> Response {
    let (code, e, m) = match f {
        Fault::ExpiredToken => (c::TOKEN_EXPIRED, "invalid_token", "access_token expired"),
        Fault::RateLimit => (c::RATE_LIMIT, "rate_limit", "请求过于频繁"),
        Fault::Quota => (c::QUOTA, "quota", "调用额度已用完"),
        Fault::DailyCap => (c::DAILY_CAP, "daily_limit", "今日发布已达上限"),
        Fault::SensitiveWord => (c::SENSITIVE, "sensitive", "标题含有敏感词"),
        Fault::Oversize => (c::TOO_LARGE, "too_large", "视频文件过大"),
        Fault::TooLong => (c::TOO_LONG, "too_long", "视频时长超限"),
        Fault::MissingChunk => (c::MISSING_FRAGMENT, "missing_fragment", "分片缺失"),
        Fault::Busy => (c::BUSY, "busy", "系统繁忙"),
        Fault::OpenIdMismatch => (c::OPEN_ID_MISMATCH, "open_id_mismatch", "open_id 不匹配"),
        Fault::ServerError | Fault::Timeout => {
            return (StatusCode::INTERNAL_SERVER_ERROR, "internal server error").into_response();
        }
    };
    err(code, e, m)
}

fn q<'a>(m: &'a HashMap<String, String>, k: &str) -> &'a str {
    m.get(k).map(String::as_str).unwrap_or("")
}

fn app_ok(st: &mut State, id: &str, secret: &str) -> bool {
    if id.is_empty() {
        return false;
    }
    match st.apps.get(id) {
        Some(s) => s == secret,
        None => {
            st.apps.insert(id.to_string(), secret.to_string());
            true
        }
    }
}

async fn access_token(St(s): St<S>, Query(m): Q) -> Response {
    if let Some(x) = gate(&s, Platform::Ks, "access_token", "").await {
        return fault(x);
    }
    if q(&m, "grant_type") != "authorization_code" {
        return err(c::BAD_PARAMS, "invalid_request", "grant_type 错误");
    }
    let mut st = s.lock();
    let app = q(&m, "app_id");
    if !app_ok(&mut st, app, q(&m, "app_secret")) {
        return err(c::BAD_CLIENT, "invalid_client", "app_id 或 app_secret 错误");
    }
    let (open_id, scope) = match take_code(&mut st, Platform::Ks, app, q(&m, "code")) {
        Ok(o) => o,
        Err(msg) => return err(c::ACCESS_DENIED, "access_denied", msg),
    };
    let (at, rt) = grant(
        &mut st,
        Platform::Ks,
        app,
        &open_id,
        &scope,
        ACCESS_TTL_MS,
        REFRESH_TTL_MS,
    );
    ok(json!({
        "access_token": at, "expires_in": ACCESS_TTL_MS / 1000,
        "refresh_token": rt, "refresh_token_expires_in": REFRESH_TTL_MS / 1000,
        "open_id": open_id, "scopes": scope.split(',').filter(|x| !x.is_empty()).collect::<Vec<_>>(),
    }))
}

async fn refresh_token(St(s): St<S>, Query(m): Q) -> Response {
    if let Some(x) = gate(&s, Platform::Ks, "refresh_token", "").await {
        return fault(x);
    }
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    let app = q(&m, "app_id").to_string();
    if !app_ok(&mut st, &app, q(&m, "app_secret")) {
        return err(c::BAD_CLIENT, "invalid_client", "app_id 或 app_secret 错误");
    }
    let old = q(&m, "refresh_token");
    let (open_id, exp, scope) = match st.refresh.get(old) {
        Some(r) if r.platform == Platform::Ks && !r.alive => {
            return err(c::ACCESS_DENIED, "access_denied", "refreshToken.discarded");
        }
        Some(r) if r.platform == Platform::Ks && r.expires_at > now && r.client_key == app => {
            (r.open_id.clone(), r.expires_at, r.scope.clone())
        }
        _ => return err(c::ACCESS_DENIED, "access_denied", "refreshToken.expired"),
    };
    if let Some(r) = st.refresh.get_mut(old) {
        r.alive = false;
    }
    let at = st.id("ks_at_");
    let rt = st.id("ks_rt_");
    st.access.insert(
        at.clone(),
        Access {
            platform: Platform::Ks,
            open_id: open_id.clone(),
            client_key: app.clone(),
            expires_at: now + ACCESS_TTL_MS,
            scope: scope.clone(),
        },
    );
    st.refresh.insert(
        rt.clone(),
        Refresh {
            platform: Platform::Ks,
            open_id: open_id.clone(),
            client_key: app,
            expires_at: exp,
            renewals: 0,
            alive: true,
            scope,
        },
    );
    ok(json!({
        "access_token": at, "expires_in": ACCESS_TTL_MS / 1000,
        "refresh_token": rt, "refresh_token_expires_in": ((exp - now) / 1000).to_string(),
        "open_id": open_id,
    }))
}

/// Gate + token check; Ok(open_id).
async fn enter(s: &S, call: &str, m: &HashMap<String, String>) -> Result<String, Response> {
    let token = q(m, "access_token").to_string();
    let open_id = s
        .lock()
        .access
        .get(&token)
        .map(|a| a.open_id.clone())
        .unwrap_or_default();
    if let Some(x) = gate(s, Platform::Ks, call, &open_id).await {
        return Err(fault(x));
    }
    let st = s.lock();
    match st.access.get(&token) {
        Some(a)
            if a.platform == Platform::Ks
                && a.expires_at > s.clock.sandbox_now()
                && a.client_key == q(m, "app_id") =>
        {
            Ok(a.open_id.clone())
        }
        _ => Err(err(
            c::TOKEN_EXPIRED,
            "invalid_token",
            "access_token 无效或已过期",
        )),
    }
}

async fn user_info(St(s): St<S>, Query(m): Q) -> Response {
    let open_id = match enter(&s, "user_info", &m).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let st = s.lock();
    let u = st
        .users
        .get(&format!("ks:{open_id}"))
        .cloned()
        .unwrap_or(User {
            nickname: "快手用户".into(),
            avatar: String::new(),
        });
    ok(
        json!({"user_info": {"name": u.nickname, "sex": "M", "fan": super::fans::total(Platform::Ks, &open_id, super::words::today(&s.clock)), "follow": 0, "head": u.avatar, "bigHead": u.avatar, "city": ""}}),
    )
}

async fn start_upload(St(s): St<S>, Query(m): Q) -> Response {
    let open_id = match enter(&s, "start_upload", &m).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let mut st = s.lock();
    let token = st.id("ks_up_");
    st.uploads.insert(
        token.clone(),
        Upload {
            platform: Platform::Ks,
            open_id,
            parts: Default::default(),
            done: false,
            probe: None,
        },
    );
    // The real endpoint is a bare host ("upload.kuaishouzt.com"); ours routes back to /ks.
    let base = s
        .public_base
        .strip_prefix("http://")
        .unwrap_or(&s.public_base);
    ok(json!({"upload_token": token, "endpoint": format!("{base}/ks")}))
}

/// Upload-host calls are authorized by the upload token alone.
fn upload_open_id(st: &State, token: &str) -> Option<String> {
    st.uploads
        .get(token)
        .filter(|u| u.platform == Platform::Ks && !u.done)
        .map(|u| u.open_id.clone())
}

async fn upload(St(s): St<S>, Query(m): Q, body: Bytes) -> Response {
    let token = q(&m, "upload_token").to_string();
    let Some(open_id) = upload_open_id(&s.lock(), &token) else {
        return err(c::BAD_PARAMS, "invalid_request", "upload_token 无效");
    };
    if let Some(x) = gate(&s, Platform::Ks, "upload", &open_id).await {
        return fault(x);
    }
    if body.is_empty() {
        return err(c::BAD_PARAMS, "invalid_request", "空文件");
    }
    let mut st = s.lock();
    if let Some(u) = st.uploads.get_mut(&token) {
        u.done = true;
    }
    st.videos.insert(
        token,
        Video {
            platform: Platform::Ks,
            open_id,
            size: body.len() as u64,
            parts: 0,
            width: 0,
            height: 0,
            aigc: None,
        },
    );
    ok(json!({}))
}

async fn fragment(St(s): St<S>, Query(m): Q, body: Bytes) -> Response {
    let token = q(&m, "upload_token").to_string();
    let Some(open_id) = upload_open_id(&s.lock(), &token) else {
        return err(c::BAD_PARAMS, "invalid_request", "upload_token 无效");
    };
    if let Some(x) = gate(&s, Platform::Ks, "upload", &open_id).await {
        return fault(x);
    }
    let Ok(id) = q(&m, "fragment_id").parse::<u32>() else {
        return err(c::BAD_PARAMS, "invalid_request", "fragment_id 无效");
    };
    if let Some(u) = s.lock().uploads.get_mut(&token) {
        u.parts.insert(id, body.len() as u64);
    }
    ok(json!({}))
}

async fn complete(St(s): St<S>, Query(m): Q) -> Response {
    let token = q(&m, "upload_token").to_string();
    let Some(open_id) = upload_open_id(&s.lock(), &token) else {
        return err(c::BAD_PARAMS, "invalid_request", "upload_token 无效");
    };
    if let Some(x) = gate(&s, Platform::Ks, "upload", &open_id).await {
        return fault(x);
    }
    let count: u32 = q(&m, "fragment_count").parse().unwrap_or(0);
    let mut st = s.lock();
    let Some(u) = st.uploads.get_mut(&token) else {
        return err(c::BAD_PARAMS, "invalid_request", "upload_token 无效");
    };
    // Fragments are numbered from 0 and all must be there.
    if count == 0 || u.parts.len() as u32 != count || u.parts.keys().copied().ne(0..count) {
        return err(c::MISSING_FRAGMENT, "missing_fragment", "分片缺失");
    }
    u.done = true;
    let size = u.parts.values().sum();
    st.videos.insert(
        token,
        Video {
            platform: Platform::Ks,
            open_id,
            size,
            parts: count,
            width: 0,
            height: 0,
            aigc: None,
        },
    );
    ok(json!({}))
}

async fn publish(St(s): St<S>, Query(m): Q, mut mp: Multipart) -> Response {
    let open_id = match enter(&s, "publish", &m).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let mut caption = String::new();
    let mut cover = 0usize;
    while let Ok(Some(f)) = mp.next_field().await {
        match f.name() {
            Some("caption") => caption = f.text().await.unwrap_or_default(),
            Some("cover") => cover = f.bytes().await.map(|b| b.len()).unwrap_or(0),
            _ => {}
        }
    }
    if cover == 0 {
        return err(c::BAD_PARAMS, "invalid_request", "缺少封面 cover");
    }
    if contains_any(&caption, &SENSITIVE_WORDS) {
        return err(c::SENSITIVE, "sensitive", "标题含有敏感词");
    }
    let token = q(&m, "upload_token").to_string();
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    match st.videos.get(&token) {
        Some(v) if v.platform == Platform::Ks && v.open_id == open_id => {}
        _ => {
            return err(
                c::BAD_PARAMS,
                "invalid_request",
                "upload_token 无效或未上传完成",
            );
        }
    }
    let photo_id = format!(
        "{}",
        5_000_000_000_000u64 + st.total_creates * 7919 + (rand::random::<u32>() as u64)
    );
    st.add_work(Platform::Ks, &open_id, &photo_id, &token, &caption);
    if let Some(w) = st.works.last_mut() {
        w.cover_bytes = cover as u64;
    }
    let item = photo_json(&s, st.works.last().expect("just added"), now);
    ok(json!({"video_info": item}))
}

fn photo_json(s: &S, w: &WorkRec, now: i64) -> Value {
    let r = w.review(now);
    let st = w.stats(now, &[]);
    json!({
        "photo_id": w.item_id, "caption": w.title,
        "cover": format!("{}/ks/cover/{}.jpg", s.public_base, w.item_id),
        "play_url": format!("{}/ks/photo/{}", s.public_base, w.item_id),
        "create_time": w.created_at,
        "like_count": st.like, "comment_count": st.comment, "view_count": st.play,
        "pending": r == Review::Reviewing,
        // Sandbox extension: the real list has no rejection flag.
        "review_state": match r { Review::Reviewing => "reviewing", Review::Public => "public", Review::Rejected => "rejected" },
    })
}

/// Newest first; `cursor` is the photo_id of the last item of the previous page.
async fn list(St(s): St<S>, Query(m): Q) -> Response {
    let open_id = match enter(&s, "photo_list", &m).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let count: usize = q(&m, "count").parse().unwrap_or(20).clamp(1, 50);
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let mut mine: Vec<&WorkRec> = st
        .works
        .iter()
        .filter(|w| w.platform == Platform::Ks && w.open_id == open_id)
        .collect();
    mine.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.seq.cmp(&a.seq)));
    let start = match q(&m, "cursor") {
        "" => 0,
        cur => mine
            .iter()
            .position(|w| w.item_id == cur)
            .map_or(mine.len(), |i| i + 1),
    };
    let page: Vec<Value> = mine
        .iter()
        .skip(start)
        .take(count)
        .map(|w| photo_json(&s, w, now))
        .collect();
    let cursor = page
        .last()
        .and_then(|p| p.get("photo_id"))
        .cloned()
        .unwrap_or(json!(""));
    ok(json!({"video_list": page, "cursor": cursor}))
}
