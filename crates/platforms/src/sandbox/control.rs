//! The JSON control API under `/_control` (clock, faults, counts, review delay, expiry, webhook,
//! public accounts) and the DY create_video webhook event.

use super::works::Review;
use super::{DEFAULT_HOLD_MS, Fault, FaultRule, S, Viewer};
use crate::Platform;
use axum::extract::{Extension, Form, OriginalUri, Query, State as St};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use domain::clock::Clock;
use serde::Deserialize;
use serde_json::{Value, json};

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route("/clock", get(get_clock).post(advance_clock))
        .route("/advance", post(advance_form))
        .route("/faults", get(list_faults).post(add_fault))
        .route("/faults/clear", post(clear_faults))
        .route("/counts", get(counts))
        .route("/followers", get(super::fans::control))
        .route("/messages", get(messages))
        .route("/comment", post(super::engage::comment))
        .route("/im", post(super::engage::im))
        .route("/replies", get(super::engage::replies))
        .route("/comments_page", get(super::engage::page))
        .route("/review", post(review))
        .route("/expire", post(expire))
        .route("/webhook", post(webhook))
        .route(
            "/public_accounts",
            get(super::public::list).post(super::public::create),
        )
        .route("/public_accounts/{id}", get(super::public::show))
}

/// What the customer's Douyin shows when an H5 share schema opens it (`/dy/h5_page`, open: it acts
/// only on a schema the platform signed): the title and hashtags, and
/// "publish" (which calls `h5_publish`). A real phone opens `snssdk1128://`; a browser test or a
/// merchant trying the flow opens this page instead.
pub(crate) async fn h5_page(
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Response {
    let schema = q.get("schema").cloned().unwrap_or_default();
    let inner: std::collections::HashMap<String, String> = schema
        .split_once('?')
        .map(|(_, q)| serde_urlencoded::from_str(q).unwrap_or_default())
        .unwrap_or_default();
    let esc = super::html_escape;
    let tags: Vec<String> = inner
        .get("hashtag_list")
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default();
    let body = format!(
        "<div class=\"card\"><p>标题 / title: <b data-testid=\"h5-title\">{title}</b></p><p>话题 / hashtags: {tags}</p>\
         <p>昵称 / nickname: <input type=\"text\" id=\"nick\" value=\"抖音顾客\"></p>\
         <button id=\"go\" data-testid=\"h5-publish\">发布 / Publish</button>\
         <p id=\"out\" data-testid=\"h5-result\"></p></div>\
         <script>const schema={schema};document.getElementById('go').onclick=async()=>{{\
         const r=await fetch('h5_publish',{{method:'POST',headers:{{'content-type':'application/json'}},\
         body:JSON.stringify({{schema,nickname:document.getElementById('nick').value}})}});\
         const j=await r.json();document.getElementById('out').textContent=r.ok?('已发布 / published: '+j.item_id):('失败 / failed: '+j.error);}};</script>",
        title = esc(inner.get("title").map(String::as_str).unwrap_or("")),
        tags = esc(&tags
            .iter()
            .map(|t| format!("#{t}"))
            .collect::<Vec<_>>()
            .join(" ")),
        schema = serde_json::to_string(&schema)
            .unwrap_or_default()
            .replace('<', "\\u003c"),
    );
    axum::response::Html(super::pages::page(
        "抖音 · 发布作品（沙箱） / Douyin publish (sandbox)",
        &body,
    ))
    .into_response()
}

fn clock_json(clock: &Clock) -> Value {
    json!({"now": clock.sandbox_now(), "offset_ms": clock.offset_ms(), "app_follows": clock.app_follows(),
           "app_offset_ms": clock.app_offset_ms()})
}

async fn get_clock(St(s): St<S>) -> Json<Value> {
    Json(clock_json(&s.clock))
}

/// `advance_ms` moves the clock forward; `offset_ms` sets it (0, or `reset`: back to real time).
#[derive(Deserialize)]
struct Advance {
    #[serde(default)]
    advance_ms: Option<i64>,
    #[serde(default)]
    offset_ms: Option<i64>,
    #[serde(default)]
    reset: Option<Value>,
}

impl Advance {
    fn apply(&self, clock: &Clock) {
        if self.reset.as_ref().is_some_and(|r| r != false && r != "0") {
            clock.set_offset(0);
        } else if let Some(ms) = self.offset_ms {
            clock.set_offset(ms);
        }
        if let Some(ms) = self.advance_ms {
            clock.advance(ms);
        }
    }
}

async fn advance_clock(St(s): St<S>, Json(a): Json<Advance>) -> Json<Value> {
    a.apply(&s.clock);
    Json(clock_json(&s.clock))
}

/// The index page's buttons (a form post), then back to the index.
async fn advance_form(
    St(s): St<S>,
    OriginalUri(orig): OriginalUri,
    uri: axum::http::Uri,
    Form(a): Form<Advance>,
) -> Response {
    a.apply(&s.clock);
    let prefix = super::pages::mount_prefix(&orig, &uri);
    let back = prefix
        .strip_suffix("/_control")
        .unwrap_or(&prefix)
        .to_string();
    (
        StatusCode::SEE_OTHER,
        [(
            header::LOCATION,
            if back.is_empty() {
                "/".to_string()
            } else {
                back
            },
        )],
    )
        .into_response()
}

#[derive(Deserialize)]
struct FaultReq {
    platform: Option<String>,
    call: String,
    fault: Fault,
    count: Option<u32>,
    rate: Option<f64>,
    open_id: Option<String>,
    hold_ms: Option<u64>,
}

/// `call` is `dy.create_video`, `create_video` (with `platform`) or `*`.
async fn add_fault(St(s): St<S>, Json(r): Json<FaultReq>) -> Response {
    let (platform, call) = match r.call.split_once('.') {
        Some((p, c)) => (p.to_string(), c.to_string()),
        None => (
            r.platform.clone().unwrap_or_else(|| "*".into()),
            r.call.clone(),
        ),
    };
    if platform != "*" && Platform::from_code(&platform).is_none() {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": format!("unknown platform {platform}")})),
        )
            .into_response();
    }
    let rule = FaultRule {
        platform,
        call,
        fault: r.fault,
        remaining: r.count,
        rate: r.rate.map(|x| x.clamp(0.0, 1.0)),
        open_id: r.open_id.filter(|o| !o.is_empty()),
        hold_ms: r.hold_ms.unwrap_or(DEFAULT_HOLD_MS),
    };
    let mut st = s.lock();
    st.faults.push(rule);
    Json(json!({"ok": true, "faults": st.faults})).into_response()
}

async fn list_faults(St(s): St<S>) -> Json<Value> {
    Json(json!({"faults": s.lock().faults}))
}

async fn clear_faults(St(s): St<S>) -> Json<Value> {
    s.lock().faults.clear();
    Json(json!({"ok": true}))
}

/// A merchant sees its own accounts' works and creates; the sandbox-wide figures are the operator's.
async fn counts(St(s): St<S>, Extension(v): Extension<Viewer>) -> Json<Value> {
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let works: Vec<Value> = st
        .works
        .iter()
        .filter(|w| v.sees(w.platform.code(), &w.open_id))
        .map(|w| {
            let (bytes, parts) = st.videos.get(&w.video_id).map_or((0, 0), |v| (v.size, v.parts));
            // The AI-content label the platform read from the file's metadata (null: none).
            let aigc = st
                .videos
                .get(&w.video_id)
                .and_then(|v| v.aigc.as_deref())
                .and_then(|a| serde_json::from_str::<Value>(a).ok());
            // The work's figures now, as the platform's own totals (the reports' tests compare them).
            let x = w.stats(now, st.posted_of(&w.item_id));
            json!({"platform": w.platform.code(), "open_id": w.open_id, "item_id": w.item_id, "title": w.title,
                   "video_id": w.video_id, "video_bytes": bytes, "video_parts": parts, "cover_bytes": w.cover_bytes, "aigc": aigc,
                   "images": w.images,
                   "stats": {"play": x.play, "like": x.like, "comment": x.comment, "share": x.share},
                   "status": match w.review(now) { Review::Reviewing => "reviewing", Review::Public => "public", Review::Rejected => "rejected" }})
        })
        .collect();
    let creates: std::collections::BTreeMap<&String, &u64> = st
        .creates
        .iter()
        .filter(|(k, _)| k.split_once(':').is_some_and(|(p, o)| v.sees(p, o)))
        .collect();
    if !matches!(v, Viewer::Operator) {
        let total: u64 = creates.values().copied().sum();
        return Json(json!({"total_creates": total, "creates": creates, "works": works}));
    }
    Json(
        json!({"total_creates": st.total_creates, "creates": creates, "works": works, "webhooks_sent": st.webhooks_sent,
               "messages_sent": st.messages.len(), "messages_received": st.inbox.len(), "client_tokens_issued": st.client_tokens.len()}),
    )
}

#[derive(Deserialize)]
struct MessagesQ {
    open_id: Option<String>,
}

/// DY private messages sent through `/im/send/msg/`, oldest first; `?open_id=` narrows to one
/// account.
async fn messages(
    St(s): St<S>,
    Extension(v): Extension<Viewer>,
    Query(q): Query<MessagesQ>,
) -> Json<Value> {
    let st = s.lock();
    let list: Vec<_> = st
        .messages
        .iter()
        .filter(|m| q.open_id.as_deref().is_none_or(|o| o == m.open_id))
        .filter(|m| v.sees(Platform::Dy.code(), &m.open_id))
        .collect();
    Json(json!({"total": list.len(), "messages": list}))
}

#[derive(Deserialize)]
struct ReviewReq {
    delay_ms: i64,
}

/// Applies to works created from now on.
async fn review(St(s): St<S>, Json(r): Json<ReviewReq>) -> Json<Value> {
    s.lock().review_delay_ms = r.delay_ms.max(0);
    Json(json!({"ok": true, "review_delay_ms": r.delay_ms.max(0)}))
}

#[derive(Deserialize)]
struct ExpireReq {
    platform: String,
    open_id: String,
    /// DY/KS: also kill the refresh tokens (the account must authorize again).
    #[serde(default)]
    refresh: bool,
}

/// Kills an account's access tokens (DY/KS), sessions (SPH/XHS/shop) or app token (BJH) now.
async fn expire(St(s): St<S>, Json(r): Json<ExpireReq>) -> Response {
    let Some(p) = Platform::from_code(&r.platform) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({"error": "unknown platform"})),
        )
            .into_response();
    };
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    let mut n = 0;
    match p {
        Platform::Dy | Platform::Ks => {
            for a in st
                .access
                .values_mut()
                .filter(|a| a.platform == p && a.open_id == r.open_id)
            {
                a.expires_at = now - 1;
                n += 1;
            }
            if r.refresh {
                for t in st
                    .refresh
                    .values_mut()
                    .filter(|t| t.platform == p && t.open_id == r.open_id)
                {
                    t.expires_at = now - 1;
                    n += 1;
                }
            }
        }
        Platform::Bjh => {
            st.bjh_revoked.insert(r.open_id.clone());
            n = 1;
        }
        Platform::Sph | Platform::Xhs | Platform::Shop => {
            for x in st
                .sessions
                .values_mut()
                .filter(|x| x.platform == p && x.open_id == r.open_id)
            {
                x.expires_at = now - 1;
                n += 1;
            }
        }
    }
    Json(json!({"ok": true, "expired": n})).into_response()
}

#[derive(Deserialize)]
struct WebhookReq {
    url: Option<String>,
    duplicate_rate: Option<f64>,
}

async fn webhook(St(s): St<S>, Json(r): Json<WebhookReq>) -> Json<Value> {
    let mut st = s.lock();
    st.webhook_url = r.url.filter(|u| !u.is_empty());
    if let Some(d) = r.duplicate_rate {
        st.webhook_duplicate_rate = d.clamp(0.0, 1.0);
    }
    Json(
        json!({"ok": true, "webhook_url": st.webhook_url, "duplicate_rate": st.webhook_duplicate_rate}),
    )
}

/// POSTs the create_video event to the configured URL, twice at the duplicate rate (receivers must
/// dedupe by item_id / log_id). Fire and forget: a dead receiver does not fail the create.
pub(crate) fn send_create_webhook(s: &S, client_key: &str, open_id: &str, item_id: &str) {
    send_create_webhook_shared(s, client_key, open_id, item_id, "")
}

/// The create_video event; `share_id` names the H5 share it came from (PLATFORMS.md share schema).
pub(crate) fn send_create_webhook_shared(
    s: &S,
    client_key: &str,
    open_id: &str,
    item_id: &str,
    share_id: &str,
) {
    super::webhook::send_event(
        s,
        client_key,
        "create_video",
        open_id,
        "",
        json!({"item_id": item_id, "share_id": share_id}),
        None,
    );
}
