//! Sandbox of open.douyin.com: OAuth (form or JSON bodies, `{data, message}`), user calls
//! (`access-token` header + `open_id` query, `{data, extra}`, checked against the consented scope),
//! uploads plain and in parts (the MP4 header gives the reported size), create_video with review
//! and webhook, video list and data, comments and replies, private messages, the H5 share schema
//! (also as a short link), POI search. Business errors answer HTTP 200; unknown paths and wrong
//! methods answer the same JSON envelope with 404 / 405.

use super::dy_reply::{client_refusal, err, fault, oauth_err, oauth_ok, ok};
use super::oauth::{grant, take_code};
use super::works::{PostedComment, Review, WorkRec};
use super::{
    Access, DAY_MS, ImMessage, MB, Refresh, S, SENSITIVE_WORDS, State, Upload, User, Video, both,
    contains_any, gate,
};
use crate::Platform;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Query, Request, State as St};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::collections::HashMap;

pub(crate) const ACCESS_TTL_MS: i64 = 15 * DAY_MS;
pub(crate) const REFRESH_TTL_MS: i64 = 30 * DAY_MS;
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
    // The customer's phone opening an H5 share (the schema is signed: no control token needed).
    r = r
        .route("/h5_page", get(super::control::h5_page))
        .route("/h5_publish", post(h5_publish));
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
    r = both(r, "/api/douyin/v1/video/upload_image/", post(upload_image));
    r = both(
        r,
        "/api/douyin/v1/video/create_image_text/",
        post(create_image_text),
    );
    r = both(r, "/api/douyin/v1/video/video_list/", get(video_list));
    r = both(r, "/api/douyin/v1/video/video_data/", post(video_data));
    r = both(r, "/item/comment/list/", get(comment_list));
    r = both(r, "/data/external/user/fans/", get(user_fans));
    r = both(r, "/video/search/", get(video_search));
    r = both(r, "/item/comment/reply/", post(comment_reply));
    r = both(r, "/item/comment/reply/list/", get(comment_reply_list));
    r = both(r, "/im/send/msg/", post(im_send));
    r = both(r, "/api/douyin/v1/schema/get_share/", post(get_share));
    r = both(r, "/poi/search/keyword/", get(poi_search));
    r = super::dy_data::routes(r);
    r = super::billboard::routes(r);
    r = r.route("/s/{code}", get(short_link));
    // Registered last: it applies to the routes above.
    r.method_not_allowed_fallback(method_not_allowed)
        .fallback(not_found)
}

/// Unknown paths answer Douyin's envelope (OAuth paths their `{data, message}` shape), so clients
/// read an error code instead of failing to parse an HTML page.
async fn not_found(uri: Uri) -> Response {
    (
        StatusCode::NOT_FOUND,
        envelope_err(uri.path(), 28001017, "未知URI"),
    )
        .into_response()
}

async fn method_not_allowed(uri: Uri) -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        envelope_err(uri.path(), 28001007, "参数不合法：不支持该请求方法"),
    )
        .into_response()
}

fn envelope_err(path: &str, code: i64, desc: &str) -> Response {
    if path.starts_with("/oauth/") {
        oauth_err(code, desc)
    } else {
        err(code, desc)
    }
}

/// Which consented scope a user call needs; the older scope names count too.
fn scope_of(call: &str) -> Option<&'static [&'static str]> {
    Some(match call {
        "userinfo" => &["user_info"],
        "upload_video"
        | "init_video_part_upload"
        | "upload_video_part"
        | "complete_video_part_upload"
        | "create_video"
        | "upload_image"
        | "create_image_text" => &["video.create.bind", "video.create"],
        "video_list" => &["video.list.bind", "video.list"],
        "video_data" => &["video.data.bind", "video.data"],
        "comment_list" | "comment_reply" | "comment_reply_list" => &["item.comment"],
        "im_send_msg" => &[crate::dy::SCOPE_IM],
        "user_fans" => &[crate::dy::SCOPE_FANS],
        "video_search" => &[crate::dy::SCOPE_SEARCH],
        _ => return None,
    })
}

pub(crate) fn has_scope(granted: &str, call: &str) -> bool {
    scope_of(call).is_none_or(|need| granted.split(',').any(|g| need.contains(&g.trim())))
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

/// An OAuth call's parameters. Douyin's docs send them as a form or (the newer pages) as JSON;
/// both are read, plus the query. Numbers and booleans read as text. A body that is neither leaves
/// the fields empty, and the call answers 10002 in the envelope.
pub(crate) struct Params(HashMap<String, String>);

impl<T: Send + Sync> FromRequest<T> for Params {
    type Rejection = std::convert::Infallible;

    async fn from_request(req: Request, state: &T) -> Result<Self, Self::Rejection> {
        let json_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|c| c.contains("json"));
        let mut out: HashMap<String, String> = req
            .uri()
            .query()
            .and_then(|q| serde_urlencoded::from_str(q).ok())
            .unwrap_or_default();
        let body = Bytes::from_request(req, state).await.unwrap_or_default();
        let fields = if json_type || body.trim_ascii_start().starts_with(b"{") {
            serde_json::from_slice::<serde_json::Map<String, Value>>(&body)
                .map(|m| {
                    m.into_iter()
                        .map(|(k, v)| {
                            let v = match v {
                                Value::String(s) => s,
                                Value::Null => String::new(),
                                other => other.to_string(),
                            };
                            (k, v)
                        })
                        .collect()
                })
                .unwrap_or_default()
        } else {
            serde_urlencoded::from_bytes::<Vec<(String, String)>>(&body).unwrap_or_default()
        };
        out.extend(fields);
        Ok(Params(out))
    }
}

fn field<'a>(f: &'a HashMap<String, String>, k: &str) -> &'a str {
    f.get(k).map(String::as_str).unwrap_or("")
}

async fn access_token(St(s): St<S>, Params(f): Params) -> Response {
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
    let (open_id, scope) = match take_code(&mut st, Platform::Dy, key, code) {
        Ok(o) => o,
        Err(m) => return oauth_err(10007, m),
    };
    let (at, rt) = grant(
        &mut st,
        Platform::Dy,
        key,
        &open_id,
        &scope,
        ACCESS_TTL_MS,
        REFRESH_TTL_MS,
    );
    // Lifetimes as strings, as every DY token call answers them (PLATFORMS.md).
    oauth_ok(json!({
        "access_token": at, "expires_in": (ACCESS_TTL_MS / 1000).to_string(),
        "refresh_token": rt, "refresh_expires_in": (REFRESH_TTL_MS / 1000).to_string(),
        "open_id": open_id, "scope": scope,
    }))
}

/// New access token; the refresh token and its expiry stay. Numbers as strings here on purpose.
async fn refresh_token(St(s): St<S>, Params(f): Params) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "refresh_token", "").await {
        return fault(x, "refresh_token");
    }
    let (key, rt) = (field(&f, "client_key"), field(&f, "refresh_token"));
    if field(&f, "grant_type") != "refresh_token" {
        return oauth_err(10002, "参数错误");
    }
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    let (open_id, rexp, scope) = match st.refresh.get(rt) {
        Some(r)
            if r.platform == Platform::Dy
                && r.alive
                && r.expires_at > now
                && r.client_key == key =>
        {
            (r.open_id.clone(), r.expires_at, r.scope.clone())
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
            scope: scope.clone(),
        },
    );
    oauth_ok(json!({
        "access_token": at, "expires_in": (ACCESS_TTL_MS / 1000).to_string(),
        "refresh_token": rt, "refresh_expires_in": ((rexp - now) / 1000).to_string(),
        "open_id": open_id, "scope": scope,
    }))
}

async fn renew_refresh_token(St(s): St<S>, Params(f): Params) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "renew_refresh_token", "").await {
        return fault(x, "renew_refresh_token");
    }
    let (key, rt) = (field(&f, "client_key"), field(&f, "refresh_token"));
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    let (open_id, renewals, scope) = match st.refresh.get(rt) {
        Some(r)
            if r.platform == Platform::Dy
                && r.alive
                && r.expires_at > now
                && r.client_key == key =>
        {
            (r.open_id.clone(), r.renewals, r.scope.clone())
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
            scope,
        },
    );
    oauth_ok(json!({"refresh_token": new, "expires_in": (REFRESH_TTL_MS / 1000).to_string()}))
}

async fn client_token(St(s): St<S>, Params(f): Params) -> Response {
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
        .insert(t.clone(), s.clock.sandbox_now() + CLIENT_TOKEN_TTL_MS);
    oauth_ok(json!({"access_token": t, "expires_in": CLIENT_TOKEN_TTL_MS / 1000}))
}

async fn userinfo(St(s): St<S>, Params(f): Params) -> Response {
    let open_id = field(&f, "open_id").to_string();
    if let Some(x) = gate(&s, Platform::Dy, "userinfo", &open_id).await {
        return fault(x, "userinfo");
    }
    let st = s.lock();
    match user_of(&st, field(&f, "access_token"), &open_id, "userinfo") {
        Ok(_) => {}
        Err((code, m)) => {
            return oauth_err(
                if matches!(code, 2190015 | SCOPE_ERROR) {
                    code
                } else {
                    10008
                },
                m,
            );
        }
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

/// Douyin's "the user did not grant this OpenAPI" (status-code page, new codes).
const SCOPE_ERROR: i64 = 28001012;

/// Validates `access-token` for `open_id` and the call's scope: Err((code, message)) as DY
/// answers it.
fn user_of(st: &State, token: &str, open_id: &str, call: &str) -> Result<(), (i64, &'static str)> {
    match st.access.get(token) {
        Some(a) if a.platform != Platform::Dy => Err((2190002, "access_token 无效")),
        None => Err((2190002, "access_token 无效")),
        Some(a) if a.expires_at <= st.clock.sandbox_now() => {
            Err((2190008, "access_token过期,请刷新或重新授权"))
        }
        Some(a) if a.open_id != open_id => Err((2190015, "open_id 与 access_token 不匹配")),
        Some(a) if !has_scope(&a.scope, call) => Err((SCOPE_ERROR, "用户未授权该OpenAPI")),
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
    user_of(&st, token, &open_id, call).map_err(|(c, m)| err(c, m))?;
    Ok(open_id)
}

/// Counts the bytes of multipart field `video` without keeping them, feeding the MP4 header
/// reader on the way.
async fn count_video(
    mut mp: Multipart,
    mut probe: Option<&mut super::mp4::Probe>,
) -> Result<u64, Response> {
    let mut size = None;
    while let Ok(Some(mut f)) = mp.next_field().await {
        if f.name() != Some("video") {
            continue;
        }
        let mut n = 0u64;
        loop {
            match f.chunk().await {
                Ok(Some(c)) => {
                    n += c.len() as u64;
                    if let Some(p) = probe.as_deref_mut() {
                        p.feed(&c);
                    }
                }
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

/// Registers an uploaded video; its size is what the MP4 header said (0x0 when unreadable), and its
/// AI-content label what the header's `AIGC` metadata says (Douyin reads it on upload).
fn new_video(
    st: &mut State,
    open_id: &str,
    size: u64,
    parts: u32,
    probe: Option<&super::mp4::Probe>,
) -> Value {
    let dims = probe.and_then(super::mp4::Probe::dims);
    let id = st.id("v0d00fg10000");
    let (width, height) = dims.unwrap_or((0, 0));
    st.videos.insert(
        id.clone(),
        Video {
            platform: Platform::Dy,
            open_id: open_id.into(),
            size,
            parts,
            width,
            height,
            aigc: probe.and_then(super::mp4::Probe::aigc),
        },
    );
    json!({"video": {"video_id": id, "width": width, "height": height}})
}

async fn upload_video(St(s): St<S>, headers: HeaderMap, Query(q): Q, mp: Multipart) -> Response {
    let open_id = match enter(&s, "upload_video", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let mut probe = super::mp4::Probe::default();
    let size = match count_video(mp, Some(&mut probe)).await {
        Ok(n) => n,
        Err(r) => return r,
    };
    if size > PLAIN_MAX {
        return err(2190005, "视频文件过大，请使用分片上传");
    }
    let data = new_video(&mut s.lock(), &open_id, size, 0, Some(&probe));
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
            probe: Some(Default::default()),
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
    // The header reader follows the parts in order; a part out of order ends it (0x0).
    let mut probe = {
        let mut st = s.lock();
        match st.uploads.get_mut(&upload_id) {
            Some(u) if u.open_id == open_id && !u.done => {
                let next = u.parts.keys().next_back().map_or(1, |k| k + 1);
                u.probe.take().filter(|_| part == next)
            }
            _ => return err(2100005, "upload_id 无效"),
        }
    };
    let size = match count_video(mp, probe.as_mut()).await {
        Ok(n) => n,
        Err(r) => return r,
    };
    if let Some(u) = s.lock().uploads.get_mut(&upload_id) {
        u.parts.insert(part, size);
        u.probe = probe;
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
    let (total, n, probe) = match st.uploads.get_mut(&upload_id) {
        Some(u) if u.open_id == open_id && !u.done => {
            let n = u.parts.len() as u32;
            // Parts must be 1..=n with none missing; all but the last at least 5 MB.
            if n == 0 || u.parts.keys().copied().ne(1..=n) {
                return err(2190004, "分片缺失，上传未完成");
            }
            if u.parts.iter().any(|(k, v)| *k < n && *v < PART_MIN) {
                return err(2100005, "分片小于 5 MB");
            }
            (u.parts.values().sum::<u64>(), n, u.probe.take())
        }
        _ => return err(2100005, "upload_id 无效"),
    };
    if total > FILE_MAX {
        return err(2190005, "视频文件过大");
    }
    if let Some(u) = st.uploads.get_mut(&upload_id) {
        u.done = true;
    }
    let data = new_video(&mut st, &open_id, total, n, probe.as_ref());
    ok(data)
}

async fn create_video(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    JsonBody(body): JsonBody,
) -> Response {
    let open_id = match enter(&s, "create_video", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let video_id = super::text_of(&body, "video_id");
    let text = super::text_of(&body, "text");
    let one = std::slice::from_ref(&video_id);
    match create_work(&s, &headers, &open_id, &text, one, false) {
        Ok(item_id) => ok(json!({"item_id": item_id, "video_id": video_id})),
        Err(r) => r,
    }
}

/// What create_video and create_image_text share: the text's sensitive words, the media (one video,
/// or pictures: `upload_image`'s ids) being the account's own uploads, the work with its picture
/// count, and the create_video webhook. The new item id.
fn create_work(
    s: &S,
    headers: &HeaderMap,
    open_id: &str,
    text: &str,
    media: &[String],
    images: bool,
) -> Result<String, Response> {
    if contains_any(text, &SENSITIVE_WORDS) {
        return Err(err(2111001, "标题含有敏感词"));
    }
    let token = headers
        .get("access-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (item_id, client_key) = {
        let mut st = s.lock();
        let own = |id: &String| {
            id.starts_with(IMAGE_PREFIX) == images
                && st
                    .videos
                    .get(id)
                    .is_some_and(|v| v.platform == Platform::Dy && v.open_id == open_id)
        };
        if !media.iter().all(own) {
            return Err(match images {
                true => err(2100005, "image_id 无效"),
                false => err(2190007, "video_id 无效"),
            });
        }
        let client_key = st
            .access
            .get(token)
            .map(|a| a.client_key.clone())
            .unwrap_or_default();
        let item_id = format!(
            "7{:018}",
            st.total_creates * 7919 + rand::random::<u32>() as u64
        );
        st.add_work(Platform::Dy, open_id, &item_id, &media[0], text);
        if let (true, Some(w)) = (images, st.works.last_mut()) {
            w.images = media.len() as u32;
        }
        (item_id, client_key)
    };
    super::control::send_create_webhook(s, &client_key, open_id, &item_id);
    Ok(item_id)
}

/// The id prefix of an uploaded picture (kept with the uploaded videos, told apart by it).
const IMAGE_PREFIX: &str = "img0d00fg";
/// create_image_text's limits: "单张图片最大支持 20M，每次最多上传 30 张图片" (see `crate::dy`).
const IMAGE_MAX: u64 = 20 * 1024 * 1024;
const IMAGES_MAX: usize = 30;

/// `upload_image`: multipart field `image` -> `data.image{image_id, width, height}`.
async fn upload_image(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    mut mp: Multipart,
) -> Response {
    let open_id = match enter(&s, "upload_image", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let mut bytes: Option<Vec<u8>> = None;
    while let Ok(Some(f)) = mp.next_field().await {
        if f.name() != Some("image") {
            continue;
        }
        match f.bytes().await {
            Ok(b) => bytes = Some(b.to_vec()),
            Err(_) => return err(2100005, "multipart 读取失败"),
        }
    }
    let Some(bytes) = bytes.filter(|b| !b.is_empty()) else {
        return err(2100005, "缺少 image 文件");
    };
    if bytes.len() as u64 > IMAGE_MAX {
        return err(2190005, "图片文件过大");
    }
    let (width, height) = media_dims(&bytes);
    let mut st = s.lock();
    let id = st.id(IMAGE_PREFIX);
    st.videos.insert(
        id.clone(),
        Video {
            platform: Platform::Dy,
            open_id,
            size: bytes.len() as u64,
            parts: 0,
            width,
            height,
            aigc: None,
        },
    );
    ok(json!({"image": {"image_id": id, "width": width, "height": height}}))
}

/// A JPEG's or PNG's size from its header (0x0 when unreadable).
fn media_dims(b: &[u8]) -> (u32, u32) {
    if b.starts_with(b"\x89PNG") && b.len() >= 24 {
        let n = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        return (n(16), n(20));
    }
    // JPEG: the first start-of-frame marker's height and width.
    let mut i = 2;
    while i + 9 < b.len() {
        if b[i] != 0xFF {
            break;
        }
        let marker = b[i + 1];
        let len = u16::from_be_bytes([b[i + 2], b[i + 3]]) as usize;
        if (0xC0..=0xC3).contains(&marker) {
            let h = u16::from_be_bytes([b[i + 5], b[i + 6]]) as u32;
            let w = u16::from_be_bytes([b[i + 7], b[i + 8]]) as u32;
            return (w, h);
        }
        i += 2 + len;
    }
    (0, 0)
}

/// `create_image_text`: `image_list` (ids from upload_image, 1–30, the account's own), `text`, one
/// anchor -> `data{item_id}`; the work is listed with `media_type` 2 (图集) and its picture count.
async fn create_image_text(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    JsonBody(body): JsonBody,
) -> Response {
    let open_id = match enter(&s, "create_image_text", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let ids: Vec<String> = body
        .get("image_list")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if ids.is_empty() || ids.len() > IMAGES_MAX {
        return err(2100005, "image_list 需要 1–30 张图片");
    }
    let anchors = ["micro_app_id", "poi_id"]
        .iter()
        .filter(|k| !super::text_of(&body, k).is_empty())
        .count();
    if anchors > 1 {
        return err(2100005, "不支持携带多种类型的锚点");
    }
    let text = super::text_of(&body, "text");
    match create_work(&s, &headers, &open_id, &text, &ids, true) {
        Ok(item_id) => ok(json!({"item_id": item_id})),
        Err(r) => r,
    }
}

/// One item as video_list and video_data answer it: both read the same numbers.
fn item_json(s: &S, state: &State, w: &WorkRec, now: i64) -> Value {
    let review = w.review(now);
    let st = w.stats(now, state.posted_of(&w.item_id));
    json!({
        "item_id": w.item_id,
        "video_id": w.video_id,
        "title": w.title,
        "cover": format!("{}/dy/cover/{}.jpg", s.public_base, w.item_id),
        "share_url": format!("{}/dy/share/{}", s.public_base, w.item_id),
        "create_time": w.created_at / 1000,
        "is_top": false,
        "is_reviewed": review != Review::Reviewing,
        "video_status": match review { Review::Reviewing => 4, Review::Public => 5, Review::Rejected => 2 },
        "media_type": if w.images > 0 { 2 } else { 4 },
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
    let (cursor, count) = super::cursor_count(&q, 10, 20);
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let mine = st.newest_works(Platform::Dy, &open_id);
    let page: Vec<Value> = mine
        .iter()
        .skip(cursor)
        .take(count)
        .map(|w| item_json(&s, &st, w, now))
        .collect();
    let next = cursor + page.len();
    ok(json!({"list": page, "cursor": next, "has_more": next < mine.len()}))
}

/// `GET /video/search/?open_id&keyword&cursor&count` (scope `video.search`): the benchmark
/// accounts' videos of the last day (platform clock) whose title holds the keyword, newest first,
/// as Douyin's keyword video search answers them (`sec_item_id`, `title`, `cover`, `create_time` in
/// seconds, `share_url`, `statistics`). An empty keyword is Douyin's 2100005.
async fn video_search(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Err(r) = enter(&s, "video_search", &headers, &q).await {
        return r;
    }
    let keyword = q
        .get("keyword")
        .map(|k| k.trim().to_lowercase())
        .unwrap_or_default();
    if keyword.is_empty() {
        return err(2100005, "参数不合法: keyword");
    }
    let (cursor, count) = super::cursor_count(&q, 10, 20);
    let now = s.clock.sandbox_now();
    let base = s.public_base.clone();
    let st = s.lock();
    let mut found: Vec<(i64, Value)> = vec![];
    for a in &st.public_accounts {
        let mut n = a.visible(now);
        while n > 0 && a.post_time(n - 1) > now - 86_400_000 {
            n -= 1;
            if a.title(n).to_lowercase().contains(&keyword) {
                let v = a.video_json(&base, n, now);
                found.push((
                    a.post_time(n),
                    json!({
                        "sec_item_id": format!("@sbx{}", v["aweme_id"].as_str().unwrap_or("")),
                        "title": v["desc"], "cover": v["video"]["cover"]["url_list"][0],
                        "create_time": v["create_time"], "share_url": v["share_info"]["share_url"],
                        "statistics": v["statistics"], "video_status": 1,
                    }),
                ));
            }
        }
    }
    found.sort_by(|a, b| b.0.cmp(&a.0));
    let page: Vec<Value> = found
        .iter()
        .skip(cursor)
        .take(count)
        .map(|(_, v)| v.clone())
        .collect();
    let next = cursor + page.len();
    ok(json!({"list": page, "cursor": next, "has_more": next < found.len()}))
}

/// `GET /data/external/user/fans/?open_id&date_type=7|15|30` -> `{result_list: [{date, total_fans,
/// new_fans}]}`, oldest first, up to today (the real host stops at yesterday; the sandbox's "today"
/// is what its clock says). Needs the `data.external.user` scope.
async fn user_fans(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, "user_fans", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let n: i64 = match q.get("date_type").map(String::as_str) {
        Some("7") => 7,
        Some("15") => 15,
        Some("30") => 30,
        _ => return err(2100005, "参数不合法: date_type"),
    };
    let today = super::words::today(&s.clock);
    let list: Vec<Value> = (today - n + 1..=today)
        .map(|d| {
            let t = super::fans::total(Platform::Dy, &open_id, d);
            let before = super::fans::total(Platform::Dy, &open_id, d - 1);
            json!({"date": domain::matrix::fmt_day(d), "total_fans": t, "new_fans": t - before})
        })
        .collect();
    ok(json!({"result_list": list}))
}

async fn video_data(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    JsonBody(body): JsonBody,
) -> Response {
    let open_id = match enter(&s, "video_data", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    // `item_ids` and/or `video_ids` (ids may come as numbers).
    let ids = |k: &str| -> Vec<String> {
        body.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| match v {
                        Value::String(s) => Some(s.clone()),
                        Value::Number(n) => Some(n.to_string()),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (items, videos) = (ids("item_ids"), ids("video_ids"));
    if items.is_empty() && videos.is_empty() {
        return err(2100005, "item_ids 与 video_ids 不能同时为空");
    }
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let list: Vec<Value> = st
        .works
        .iter()
        .filter(|w| {
            w.platform == Platform::Dy
                && w.open_id == open_id
                && (items.contains(&w.item_id) || videos.contains(&w.video_id))
        })
        .map(|w| item_json(&s, &st, w, now))
        .collect();
    ok(json!({"list": list}))
}

async fn comment_list(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, "comment_list", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let item_id = q.get("item_id").cloned().unwrap_or_default();
    let st = s.lock();
    let w = match own_item(&st, &item_id, &open_id) {
        Ok(w) => w,
        Err((c, m)) => return err(c, m),
    };
    comment_page(
        w.comments(s.clock.sandbox_now(), st.posted_of(&item_id)),
        &q,
    )
}

/// The author's item, or the error DY answers for someone else's / an unknown one.
fn own_item<'a>(
    st: &'a State,
    item_id: &str,
    open_id: &str,
) -> Result<&'a WorkRec, (i64, &'static str)> {
    match st
        .works
        .iter()
        .find(|w| w.platform == Platform::Dy && w.item_id == item_id)
    {
        Some(w) if w.open_id == open_id => Ok(w),
        Some(_) => Err((2190015, "item 不属于该用户")),
        None => Err((2100005, "item_id 无效")),
    }
}

/// One page of comments by `cursor` (an offset) and `count` (1..=50, default 20).
fn comment_page(all: Vec<super::works::CommentOut>, q: &HashMap<String, String>) -> Response {
    let cursor: usize = q.get("cursor").and_then(|c| c.parse().ok()).unwrap_or(0);
    let count: usize = q
        .get("count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(20)
        .clamp(1, 50);
    let page: Vec<_> = all.iter().skip(cursor).take(count).cloned().collect();
    let next = cursor + page.len();
    ok(json!({"list": page, "cursor": next, "has_more": next < all.len()}))
}

/// Without `comment_id`: a top-level comment by the author; with it: a reply.
async fn comment_reply(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    JsonBody(body): JsonBody,
) -> Response {
    let open_id = match enter(&s, "comment_reply", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let item_id = super::text_of(&body, "item_id");
    let content = super::text_of(&body, "content");
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
    if let Err((c, m)) = own_item(&st, &item_id, &open_id) {
        return err(c, m);
    }
    if reply_to.is_some()
        && let Err(l) = super::engage::admit_reply(&mut st, Platform::Dy, &open_id, &content)
    {
        let (c, m) = l.dy();
        return err(c, m);
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

/// GET /item/comment/reply/list/?open_id&item_id&comment_id&cursor&count&sort_type: the replies
/// to one comment of the author's item, from the comment store.
async fn comment_reply_list(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    let open_id = match enter(&s, "comment_reply_list", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let item_id = q.get("item_id").cloned().unwrap_or_default();
    let comment_id = q.get("comment_id").cloned().unwrap_or_default();
    if comment_id.is_empty() {
        return err(2100005, "comment_id 不能为空");
    }
    let st = s.lock();
    let w = match own_item(&st, &item_id, &open_id) {
        Ok(w) => w,
        Err((c, m)) => return err(c, m),
    };
    let posted = st.posted_of(&item_id);
    let known = posted.iter().any(|p| p.comment_id == comment_id)
        || w.comments(s.clock.sandbox_now(), posted)
            .iter()
            .any(|c| c.comment_id == comment_id);
    if !known {
        return err(2100005, "comment_id 无效");
    }
    comment_page(super::works::replies(posted, &comment_id), &q)
}

/// POST /im/send/msg/?open_id {msg_id?, conversation_id, to_user_id, content{msg_type, text}}:
/// a private message from the account, recorded (`/_control/messages`), within the platform's
/// limits (`engage::admit_message`: text ≤ 500 characters, only to a customer who wrote in the last
/// 48 hours, at most 5 messages before the customer writes again).
async fn im_send(
    St(s): St<S>,
    headers: HeaderMap,
    Query(q): Q,
    JsonBody(body): JsonBody,
) -> Response {
    let open_id = match enter(&s, "im_send_msg", &headers, &q).await {
        Ok(o) => o,
        Err(r) => return r,
    };
    let field = |k: &str| super::works::text_of(body.get(k));
    let to_user_id = field("to_user_id");
    // `content` is an object, or that object serialized as a string.
    let content = match body.get("content") {
        Some(Value::String(raw)) => serde_json::from_str(raw).unwrap_or(json!({"text": raw})),
        Some(v) => v.clone(),
        None => Value::Null,
    };
    let msg_type = match content.get("msg_type") {
        Some(Value::Number(n)) => n.as_i64().unwrap_or(1),
        Some(Value::String(t)) => t.parse().unwrap_or(1),
        _ => 1,
    };
    // The text may be nested as {"text": {"text": ".."}}.
    let text = match content.get("text") {
        Some(Value::Object(o)) => super::works::text_of(o.get("text")),
        other => super::works::text_of(other),
    };
    if to_user_id.is_empty() {
        return err(2100005, "to_user_id 不能为空");
    }
    if text.trim().is_empty() {
        return err(2100005, "content.text 不能为空");
    }
    if text.chars().count() > super::engage::MESSAGE_MAX_CHARS {
        return err(2100005, "消息内容超过 500 字");
    }
    if contains_any(&text, &SENSITIVE_WORDS) {
        return err(2111001, "消息含有敏感词");
    }
    let mut st = s.lock();
    if let Err((code, desc)) = super::engage::admit_message(&st, &open_id, &to_user_id) {
        return err(code, desc);
    }
    let msg_id = st.id("msg");
    let conversation_id = match field("conversation_id") {
        c if c.is_empty() => format!("conv_{}", super::stable_hash(&[&open_id, &to_user_id])),
        c => c,
    };
    st.messages.push(ImMessage {
        msg_id: msg_id.clone(),
        open_id,
        conversation_id: conversation_id.clone(),
        to_user_id,
        msg_type,
        text,
        create_time: s.clock.sandbox_now(),
    });
    ok(json!({"msg_id": msg_id, "conversation_id": conversation_id}))
}

/// The schema calls answer `{data, err_no, err_msg, log_id}`.
fn schema_answer(code: i64, msg: &str, data: Value) -> Response {
    axum::Json(json!({"data": data, "err_no": code, "err_msg": msg,
        "log_id": format!("{:016x}", rand::random::<u64>())}))
    .into_response()
}

/// POST /api/douyin/v1/schema/get_share/ (header access-token: a client token) {client_ticket,
/// expire_at, state?, video_path | image_path | image_list_path, title?, hashtag_list?,
/// share_to_publish?} -> data.schema: a short link that opens the signed H5 share schema.
async fn get_share(St(s): St<S>, headers: HeaderMap, JsonBody(body): JsonBody) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "get_share", "").await {
        return fault(x, "get_share");
    }
    let field = |k: &str| super::works::text_of(body.get(k));
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    let Some(key) = client_key_of(&st, &headers) else {
        return schema_answer(28001003, "access_token无效", json!({}));
    };
    let ticket = field("client_ticket");
    if st.tickets.get(&ticket).is_none_or(|(_, exp)| *exp <= now) {
        return schema_answer(2100005, "参数不合法：client_ticket 无效或已过期", json!({}));
    }
    let media: Vec<(&str, String)> = ["video_path", "image_path", "image_list_path"]
        .into_iter()
        .map(|k| (k, field(k)))
        .filter(|(_, v)| !v.is_empty())
        .collect();
    if media.is_empty() {
        return schema_answer(
            2100005,
            "参数不合法：image_path、image_list_path、video_path 至少传一个",
            json!({}),
        );
    }
    let expire_at = body
        .get("expire_at")
        .map(|v| super::works::text_of(Some(v)))
        .and_then(|v| v.parse::<i64>().ok())
        .filter(|e| *e * 1000 > now);
    let Some(expire_at) = expire_at else {
        return schema_answer(2100005, "参数不合法：expire_at 无效", json!({}));
    };
    let tags = match body.get("hashtag_list") {
        Some(Value::Array(a)) => Value::Array(a.clone()).to_string(),
        Some(Value::String(t)) => t.clone(),
        _ => String::new(),
    };
    let nonce = format!("{:016x}", rand::random::<u64>());
    let ts = (now / 1000).to_string();
    let mut pairs: Vec<(&str, String)> = vec![
        ("share_type", "h5".into()),
        ("client_key", key),
        ("nonce_str", nonce.clone()),
        ("timestamp", ts.clone()),
        (
            "signature",
            crate::dy::share_signature(&nonce, &ticket, &ts),
        ),
    ];
    for k in ["state", "title", "share_to_publish"] {
        let v = field(k);
        if !v.is_empty() {
            pairs.push((k, v));
        }
    }
    if !tags.is_empty() {
        pairs.push(("hashtag_list", tags));
    }
    pairs.extend(media);
    let schema = format!(
        "snssdk1128://openplatform/share?{}",
        serde_urlencoded::to_string(&pairs).unwrap_or_default()
    );
    let code = st.id("s");
    st.short_links
        .insert(code.clone(), (schema, expire_at * 1000));
    schema_answer(
        0,
        "",
        json!({"schema": format!("{}/dy/s/{code}", s.public_base)}),
    )
}

/// GET /s/{code}: the short link of get_share, redirecting to the schema while it lives.
async fn short_link(
    St(s): St<S>,
    axum::extract::Path(code): axum::extract::Path<String>,
) -> Response {
    match s.lock().short_links.get(&code) {
        Some((schema, exp)) if *exp > s.clock.sandbox_now() => {
            (StatusCode::FOUND, [(header::LOCATION, schema.clone())]).into_response()
        }
        _ => (
            StatusCode::NOT_FOUND,
            schema_answer(2100005, "链接不存在或已过期", json!({})),
        )
            .into_response(),
    }
}

/// A JSON body read whatever the content type says; a body that is not JSON reads as `null`
/// (the call then answers its parameter error in the envelope, never a plain-text 4xx).
pub(crate) struct JsonBody(Value);

impl<T: Send + Sync> FromRequest<T> for JsonBody {
    type Rejection = std::convert::Infallible;

    async fn from_request(req: Request, state: &T) -> Result<Self, Self::Rejection> {
        let body = Bytes::from_request(req, state).await.unwrap_or_default();
        Ok(JsonBody(
            serde_json::from_slice(&body).unwrap_or(Value::Null),
        ))
    }
}

async fn poi_search(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Some(x) = gate(&s, Platform::Dy, "poi_search", "").await {
        return fault(x, "poi_search");
    }
    if let Some(r) = client_refusal(&s, &headers) {
        return r;
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
    if exp <= st.clock.sandbox_now() {
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
        .insert(t.clone(), (key, s.clock.sandbox_now() + TICKET_TTL_MS));
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
    // A get_share short link stands for its schema.
    let schema = match r.schema.split_once("/dy/s/") {
        Some((_, code)) if r.schema.starts_with("http") => s
            .lock()
            .short_links
            .get(code)
            .filter(|(_, exp)| *exp > s.clock.sandbox_now())
            .map(|(x, _)| x.clone())
            .unwrap_or_default(),
        _ => r.schema.clone(),
    };
    let q: HashMap<String, String> = schema
        .split_once('?')
        .map(|(_, q)| serde_urlencoded::from_str(q).unwrap_or_default())
        .unwrap_or_default();
    let g = |k: &str| q.get(k).cloned().unwrap_or_default();
    let now = s.clock.sandbox_now();
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
