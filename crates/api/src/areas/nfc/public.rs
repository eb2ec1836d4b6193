//! The public mobile pages (DESIGN.md §2, no sign-in): `/t/<code>` — what an NFC tag or its QR code
//! opens: one unused video of the shop with a title and "post to Douyin" (the signed H5 share), then
//! the draw once the post comes back; `/t/a/<key>` — an activity's own page and its draw.
//!
//! A customer is a device: a random id in a cookie (`cm_dev`, signed by the server) made on the first
//! visit. A tag hands a video to a device only on its second request, made with that cookie (the
//! first answers a redirect that sets it), so a script that drops or makes up cookies takes nothing.
//! Requests are rationed per device, per client address and per tag, and new devices per address
//! and per tag, so one phone (or one script) cannot drain a tag's pool. The pages show the video, its title and the activity — nothing else of the merchant.

use crate::state::AppState;
use axum::Router;
use axum::extract::{ConnectInfo, FromRequestParts, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use domain::activities::{self as rules, TapState, Who};
use domain::clock::platform_now;
use domain::i18n::{Lang, Msg};
use serde::Deserialize;
use serde::Serialize;
use services::error::{ApiError, PendingError};
use std::net::SocketAddr;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/t/a/{key}", get(activity_page))
        .route("/t/a/{key}/draw", post(draw))
        .route("/t/{code}", get(tap_page))
        .route("/t/{code}/status", get(status))
}

const COOKIE: &str = "cm_dev";

/// The TCP peer, when the server runs with connection info.
pub struct Peer(Option<SocketAddr>);

impl<S: Send + Sync> FromRequestParts<S> for Peer {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Peer(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map(|c| c.0),
        ))
    }
}

/// The device a page is for; `set` is the cookie to send when the server has just made it.
struct Device {
    id: String,
    set: Option<String>,
}

/// The device the request's cookie names: one the server signed (or a first-version one that
/// already tapped or drew); none for a made-up or missing cookie.
async fn known_device(st: &AppState, headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    match crate::client::cookie(headers, COOKIE) {
        Some(v) => services::nfc::device_of(&st.db, &st.jwt_key, &v).await,
        None => Ok(None),
    }
}

/// A new device for a visitor without one, within the new-device budgets of its address and of
/// `key` (the tag or activity): every new device may take a video of a tag's pool.
fn new_device(st: &AppState, ip: &str, key: &str) -> Result<Device, ApiError> {
    st.public_limits.mint(ip, key).map_err(too_fast)?;
    let id = services::nfc::new_device();
    let set = format!(
        "{COOKIE}={}; Path=/t; Max-Age=31536000; HttpOnly; SameSite=Lax",
        services::nfc::sign_device(&st.jwt_key, &id)
    );
    Ok(Device { id, set: Some(set) })
}

#[derive(Debug, Deserialize, Default)]
pub struct PageQuery {
    #[serde(default)]
    lang: Option<String>,
    /// The tag whose page a draw comes from.
    #[serde(default)]
    tag: Option<String>,
    /// Set on the tap page's second request, made with the device cookie the first one set.
    #[serde(default)]
    d: Option<String>,
}

fn lang_of(q: &PageQuery, headers: &HeaderMap) -> Lang {
    match q.lang.as_deref() {
        Some("en") => Lang::En,
        Some("zh") | Some("zh-CN") => Lang::Zh,
        _ => Lang::from_header(
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok()),
        ),
    }
}

fn client(st: &AppState, headers: &HeaderMap, peer: Option<SocketAddr>) -> String {
    crate::client::client_ip(headers, peer.map(|p| p.ip()), &st.settings.trusted_proxies)
}

/// The error as the API would answer it, in `lang` (for routes outside `/api`).
pub(crate) fn error_json(e: ApiError, lang: Lang) -> Response {
    let resp = e.into_response();
    let status = resp.status();
    let body = resp
        .extensions()
        .get::<PendingError>()
        .map(|p| p.render(lang, ""))
        .unwrap_or_default();
    (status, axum::Json(body)).into_response()
}

fn error_message(e: &ApiError, lang: Lang) -> String {
    match e {
        ApiError::Invalid { msg, args, .. } | ApiError::TooMany(msg, args) => {
            msg.render(lang, args)
        }
        ApiError::NotFound => Msg::TagUnknown.render(lang, &[]),
        _ => Msg::Internal.render(lang, &[("request_id", String::new())]),
    }
}

fn with_cookie(mut r: Response, d: &Device) -> Response {
    if let Some(c) = &d.set
        && let Ok(v) = HeaderValue::from_str(c)
    {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

fn t(lang: Lang, zh: &'static str, en: &'static str) -> &'static str {
    if lang == Lang::Zh { zh } else { en }
}

pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A value for a `<script>` block: JSON with `<` escaped so no text closes the script.
fn js<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

/// The words the draw script shows.
#[derive(Serialize)]
struct DrawWords {
    won: &'static str,
    lost: &'static str,
    valid: &'static str,
    code: &'static str,
    left: &'static str,
}

#[derive(Serialize)]
struct TapWords {
    posted: &'static str,
}

#[derive(Serialize)]
struct TapStatus {
    /// waiting | posted
    state: &'static str,
    can_draw: bool,
}

#[derive(Serialize)]
struct CouponOut {
    code: String,
    expires_at: i64,
    expires_text: String,
    description: String,
}

#[derive(Serialize)]
struct DrawOut {
    won: bool,
    prize_name: String,
    coupon: Option<CouponOut>,
    left_today: i64,
    left_total: i64,
}

/// The API's envelope around a draw.
#[derive(Serialize)]
struct DrawReply {
    code: u16,
    message: &'static str,
    data: DrawOut,
}

fn page(lang: Lang, title: &str, color: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"{l}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1,viewport-fit=cover\">\
         <title>{title}</title><style>\
         :root{{--c:{color}}}*{{box-sizing:border-box}}body{{margin:0;font-family:system-ui,-apple-system,'PingFang SC','Noto Sans CJK SC','WenQuanYi Zen Hei',sans-serif;background:#f5f5f7;color:#222}}\
         header{{background:var(--c);color:#fff;padding:14px 16px;font-size:18px;font-weight:600}}\
         main{{padding:12px 14px 40px;max-width:520px;margin:0 auto}}\
         .card{{background:#fff;border-radius:12px;padding:14px;margin:12px 0;box-shadow:0 1px 3px rgba(0,0,0,.06)}}\
         video{{width:100%;max-height:56vh;border-radius:10px;background:#000}}\
         .btn{{display:block;width:100%;text-align:center;padding:13px;border:0;border-radius:24px;font-size:17px;font-weight:600;background:var(--c);color:#fff;text-decoration:none;margin-top:10px}}\
         .btn.ghost{{background:#fff;color:var(--c);border:1px solid var(--c)}}.btn[disabled]{{opacity:.45}}\
         .muted{{color:#888;font-size:13px}}.ok{{color:#1a7f37;font-weight:600}}.bad{{color:#c62828}}\
         .prize{{display:flex;justify-content:space-between;border-bottom:1px dashed #eee;padding:6px 0}}\
         .coupon{{border:1px dashed var(--c);border-radius:10px;padding:10px;margin-top:8px}}.code{{font:600 20px monospace;letter-spacing:1px}}\
         </style></head><body><header>{title}</header><main>{body}</main></body></html>",
        l = if lang == Lang::Zh { "zh-CN" } else { "en" },
        title = esc(title),
        color = esc(color),
    )
}

fn message_page(lang: Lang, status: StatusCode, text: &str, testid: &str) -> Response {
    let body = format!(
        "<div class=\"card\"><p class=\"bad\" data-testid=\"{testid}\">{}</p></div>",
        esc(text)
    );
    (
        status,
        Html(page(lang, t(lang, "提示", "Notice"), "#e4393c", &body)),
    )
        .into_response()
}

fn too_fast(wait_ms: i64) -> ApiError {
    ApiError::TooMany(
        Msg::TooFast,
        vec![("seconds", ((wait_ms + 999) / 1000).max(1).to_string())],
    )
}

/// Rations a public request; `Err` is the 429 to answer.
fn ration(st: &AppState, dev: &str, ip: &str, tag: &str) -> Result<(), ApiError> {
    st.public_limits.take(dev, ip, tag).map_err(too_fast)
}

/// Who is asking for a page: their language and device (the cookie's, else a new one), once their
/// request is within the budgets (else the page to answer).
async fn visitor(
    st: &AppState,
    q: &PageQuery,
    headers: &HeaderMap,
    peer: Option<SocketAddr>,
    key: &str,
) -> Result<(Lang, Device), Response> {
    let lang = lang_of(q, headers);
    let ip = client(st, headers, peer);
    let too_fast_page = |e: ApiError| {
        let text = error_message(&e, lang);
        message_page(lang, StatusCode::TOO_MANY_REQUESTS, &text, "too-fast")
    };
    let dev = match known_device(st, headers).await {
        Ok(Some(id)) => Device { id, set: None },
        Ok(None) => new_device(st, &ip, key).map_err(too_fast_page)?,
        Err(e) => return Err(error_json(e, lang)),
    };
    if let Err(e) = ration(st, &dev.id, &ip, key) {
        return Err(with_cookie(too_fast_page(e), &dev));
    }
    Ok((lang, dev))
}

/// The activity block of a page: name, time, rules, prizes, the draw button and the device's coupons.
async fn activity_block(
    st: &AppState,
    a: &services::activities::ActivityRow,
    device: &str,
    can_draw: bool,
    tag_code: Option<&str>,
    lang: Lang,
) -> Result<String, ApiError> {
    let (prizes, coupons) = services::activities::shown_to(&st.db, a, device).await?;
    let now = platform_now();
    let mut html = format!(
        "<div class=\"card\" data-testid=\"activity\"><h3 style=\"margin:0 0 6px\">{}</h3>\
         <div class=\"muted\">{} — {}</div>",
        esc(&a.name),
        services::export::china_time(a.starts_at),
        services::export::china_time(a.ends_at),
    );
    for p in &prizes {
        html.push_str(&format!(
            "<div class=\"prize\"><span>{}</span><span class=\"muted\">{}</span></div>",
            esc(&p.name),
            esc(&p.description)
        ));
    }
    if !a.rules_text.is_empty() {
        html.push_str(&format!(
            "<p class=\"muted\" style=\"white-space:pre-wrap\">{}</p>",
            esc(&a.rules_text)
        ));
    }
    let hint = match (a.state(now), Who::parse(&a.who)) {
        (domain::activities::ActivityState::Running, Some(Who::Posters)) if !can_draw => t(
            lang,
            "发布视频后即可抽奖",
            "Post the video to unlock the draw",
        ),
        (domain::activities::ActivityState::Running, _) if !can_draw => {
            t(lang, "抽奖次数已用完", "No draws left")
        }
        (domain::activities::ActivityState::Running, _) => "",
        _ => t(
            lang,
            "活动未开始或已结束",
            "The activity has not started or has ended",
        ),
    };
    html.push_str(&format!(
        "<p class=\"muted\" id=\"draw-hint\" data-testid=\"draw-hint\">{}</p>\
         <button class=\"btn\" id=\"draw\" data-testid=\"draw\" {}>{}</button>\
         <div id=\"draw-result\" data-testid=\"draw-result\" style=\"margin-top:10px\"></div>",
        esc(hint),
        if can_draw { "" } else { "disabled" },
        t(lang, "立即抽奖", "Draw now"),
    ));
    html.push_str(&format!(
        "<div id=\"coupons\"><h4 style=\"margin:14px 0 4px\">{}</h4>",
        t(lang, "我的优惠券", "My coupons")
    ));
    for c in &coupons {
        let state = rules::CouponState::of(c.redeemed_at, c.expires_at, now);
        html.push_str(&format!(
            "<div class=\"coupon\" data-testid=\"my-coupon\"><div>{}</div><div class=\"code\">{}</div>\
             <div class=\"muted\">{} {} · {}</div></div>",
            esc(&c.prize_name),
            esc(&c.code),
            t(lang, "有效期至", "Valid until"),
            services::export::china_time(c.expires_at),
            match state {
                rules::CouponState::Issued => t(lang, "未使用", "unused"),
                rules::CouponState::Redeemed => t(lang, "已核销", "redeemed"),
                rules::CouponState::Expired => t(lang, "已过期", "expired"),
            }
        ));
    }
    html.push_str("</div></div>");
    let draw_url = match tag_code {
        Some(c) => format!("/t/a/{}/draw?tag={}", a.pkey, c),
        None => format!("/t/a/{}/draw", a.pkey),
    };
    let words = DrawWords {
        won: t(lang, "恭喜获得", "You won"),
        lost: t(lang, "很遗憾", "Sorry"),
        valid: t(lang, "有效期至", "Valid until"),
        code: t(
            lang,
            "券码（到店出示核销）",
            "Code (show it at the counter)",
        ),
        left: t(lang, "今日剩余次数", "Draws left today"),
    };
    html.push_str(&format!(
        "<script>(function(){{const W={w};const b=document.getElementById('draw');if(!b)return;\
         b.onclick=async function(){{b.disabled=true;const out=document.getElementById('draw-result');\
         try{{const r=await fetch({u},{{method:'POST',headers:{{'accept-language':document.documentElement.lang}}}});const j=await r.json();\
         if(j.code!==200){{out.innerHTML='<p class=\"bad\" data-testid=\"draw-error\"></p>';out.firstChild.textContent=j.message;return;}}\
         const d=j.data;const p=document.createElement('div');p.className='coupon';\
         if(d.won){{p.innerHTML='<div class=\"ok\" data-testid=\"draw-won\"></div><div class=\"muted\"></div><div class=\"code\" data-testid=\"coupon-code\"></div><div class=\"muted\"></div>';\
         p.children[0].textContent=W.won+'：'+d.prize_name;p.children[1].textContent=W.code;p.children[2].textContent=d.coupon.code;\
         p.children[3].textContent=W.valid+' '+d.coupon.expires_text+(d.coupon.description?' · '+d.coupon.description:'');}}\
         else{{p.innerHTML='<div data-testid=\"draw-lost\"></div>';p.children[0].textContent=W.lost+'，'+d.prize_name;}}\
         out.replaceChildren(p);const m=document.createElement('p');m.className='muted';m.textContent=W.left+'：'+d.left_today;out.appendChild(m);\
         if(d.left_today>0)b.disabled=false;}}catch(e){{b.disabled=false;}}}};}})();</script>",
        w = js(&words),
        u = js(&draw_url),
    ));
    Ok(html)
}

/// `GET /t/<code>`: a tap.
pub async fn tap_page(
    State(st): State<AppState>,
    Path(code): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
    Peer(peer): Peer,
) -> Response {
    let (lang, dev) = match visitor(&st, &q, &headers, peer, &code).await {
        Ok(v) => v,
        Err(page) => return page,
    };
    if dev.set.is_some() {
        // A new phone takes no video yet: it comes back with the cookie (a browser follows at once),
        // so a script that drops cookies, or makes them up, empties nothing.
        if q.d.is_some() {
            let text = Msg::CookiesNeeded.render(lang, &[]);
            return with_cookie(
                message_page(lang, StatusCode::BAD_REQUEST, &text, "cookies-needed"),
                &dev,
            );
        }
        let mut again = format!("/t/{}?d=1", urlencode(&code));
        if let Some(l) = &q.lang {
            again.push_str(&format!("&lang={}", urlencode(l)));
        }
        return with_cookie(
            (StatusCode::SEE_OTHER, [(header::LOCATION, again)]).into_response(),
            &dev,
        );
    }
    let now = platform_now();
    let tapped = match services::nfc::tap(&st.hub, &code, &dev.id, now, lang).await {
        Ok(x) => x,
        Err(e) => {
            let (status, id) = match &e {
                ApiError::Invalid {
                    msg: Msg::PoolEmpty,
                    ..
                } => (StatusCode::OK, "pool-empty"),
                ApiError::Invalid {
                    msg: Msg::TagUnknown,
                    ..
                } => (StatusCode::NOT_FOUND, "tag-unknown"),
                ApiError::Invalid { .. } => (StatusCode::BAD_GATEWAY, "tap-error"),
                _ => (StatusCode::INTERNAL_SERVER_ERROR, "tap-error"),
            };
            if status.is_server_error() {
                tracing::warn!(error = ?e, "nfc tap");
            }
            let text = error_message(&e, lang);
            return with_cookie(message_page(lang, status, &text, id), &dev);
        }
    };
    let (_, src) = services::matrix::videos::video_urls(&st.hub, &tapped.tap.video_key);
    let (cover, _) = services::matrix::videos::video_urls(&st.hub, &tapped.tap.video_key);
    let topics: Vec<String> = serde_json::from_str(&tapped.tag.topics).unwrap_or_default();
    let color = tapped
        .activity
        .as_ref()
        .map(|a| a.color.clone())
        .unwrap_or_else(|| "#fe2c55".into());
    let posted = tapped.tap.state == TapState::Posted.as_str();
    let mut body = format!(
        "<div class=\"card\"><video data-testid=\"tap-video\" src=\"{src}\" poster=\"{cover}\" controls playsinline preload=\"metadata\"></video>\
         <p style=\"font-size:16px;margin:10px 0 4px\" data-testid=\"tap-title\">{title}</p>\
         <p class=\"muted\">{tags}</p>",
        src = esc(&src.unwrap_or_default()),
        cover = esc(&cover.unwrap_or_default()),
        title = esc(&tapped.tap.title),
        tags = esc(&topics
            .iter()
            .map(|t| format!("#{t}"))
            .collect::<Vec<_>>()
            .join(" ")),
    );
    // Once posted, the page shows the post's state and the draw, not the share again.
    if !posted {
        body.push_str(&format!(
            "<a class=\"btn\" data-testid=\"post-douyin\" href=\"{}\">{}</a>",
            esc(&tapped.tap.schema_url),
            t(lang, "一键发布到抖音", "Post to Douyin"),
        ));
    }
    if st.settings.sandbox && !posted {
        body.push_str(&format!(
            "<a class=\"btn ghost\" data-testid=\"sandbox-publish\" target=\"_blank\" href=\"/sandbox/dy/h5_page?schema={}\">{}</a>",
            esc(&urlencode(&tapped.tap.schema_url)),
            t(lang, "沙箱：模拟在抖音里发布", "Sandbox: simulate posting in Douyin"),
        ));
    }
    body.push_str(&format!(
        "<p id=\"post-state\" data-testid=\"post-state\" class=\"{}\">{}</p></div>",
        if posted { "ok" } else { "muted" },
        if posted {
            t(lang, "已发布，感谢分享！", "Posted, thank you for sharing!")
        } else {
            t(
                lang,
                "发布后本页会自动更新",
                "This page updates itself once you have posted",
            )
        }
    ));
    if let Some(a) = &tapped.activity {
        match activity_block(&st, a, &dev.id, tapped.can_draw, Some(&code), lang).await {
            Ok(h) => body.push_str(&h),
            Err(e) => tracing::warn!(error = ?e, "activity block"),
        }
    }
    let words = TapWords {
        posted: t(lang, "已发布，感谢分享！", "Posted, thank you for sharing!"),
    };
    body.push_str(&format!(
        "<script>(function(){{const W={w};let done={posted};async function poll(){{if(done)return;\
         try{{const r=await fetch({u});const j=await r.json();if(j.state==='posted'){{done=true;\
         const s=document.getElementById('post-state');s.textContent=W.posted;s.className='ok';\
         const b=document.getElementById('draw');if(b&&j.can_draw){{b.disabled=false;const h=document.getElementById('draw-hint');if(h)h.textContent='';}}return;}}}}catch(e){{}}\
         setTimeout(poll,2000);}}setTimeout(poll,2000);}})();</script>",
        w = js(&words),
        posted = posted,
        u = js(&format!("/t/{code}/status")),
    ));
    let title = t(lang, "碰一碰 · 发视频", "Tap · post a video");
    with_cookie(Html(page(lang, title, &color, &body)).into_response(), &dev)
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `GET /t/<code>/status`: whether the device's video was posted and whether it may draw now.
pub async fn status(
    State(st): State<AppState>,
    Path(code): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
) -> Response {
    let lang = lang_of(&q, &headers);
    let dev = match known_device(&st, &headers).await {
        Ok(Some(d)) => d,
        Ok(None) => {
            let waiting = TapStatus {
                state: "waiting",
                can_draw: false,
            };
            return axum::Json(waiting).into_response();
        }
        Err(e) => return error_json(e, lang),
    };
    match services::nfc::status(&st.db, &code, &dev, platform_now()).await {
        Ok((tap, can_draw)) => {
            let state = match tap {
                Some(t) if t.state == TapState::Posted.as_str() => "posted",
                _ => "waiting",
            };
            axum::Json(TapStatus { state, can_draw }).into_response()
        }
        Err(e) => error_json(e, lang),
    }
}

/// `GET /t/a/<key>`: an activity's page.
pub async fn activity_page(
    State(st): State<AppState>,
    Path(key): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
    Peer(peer): Peer,
) -> Response {
    let (lang, dev) = match visitor(&st, &q, &headers, peer, &key).await {
        Ok(v) => v,
        Err(page) => return page,
    };
    let now = platform_now();
    let a = match services::activities::by_key(&st.db, &key).await {
        Ok(Some(a)) => a,
        Ok(None) => {
            let text = Msg::ActivityNotRunning.render(lang, &[]);
            return with_cookie(
                message_page(lang, StatusCode::NOT_FOUND, &text, "activity-unknown"),
                &dev,
            );
        }
        Err(e) => return error_json(e, lang),
    };
    let can_draw = match can_draw_here(&st, &a, &dev.id, now).await {
        Ok(x) => x,
        Err(e) => return error_json(e, lang),
    };
    match activity_block(&st, &a, &dev.id, can_draw, None, lang).await {
        Ok(body) => with_cookie(
            Html(page(lang, &a.name, &a.color, &body)).into_response(),
            &dev,
        ),
        Err(e) => error_json(e, lang),
    }
}

async fn can_draw_here(
    st: &AppState,
    a: &services::activities::ActivityRow,
    device: &str,
    now: i64,
) -> Result<bool, ApiError> {
    if a.state(now) != domain::activities::ActivityState::Running {
        return Ok(false);
    }
    let (left_total, left_today) = services::activities::left(&st.db, a, device, now).await?;
    let mut open = left_total > 0 && left_today > 0;
    if open && Who::parse(&a.who) == Some(Who::Posters) {
        open = services::nfc::undrawn_posts(&st.db, a.id, device).await? > 0;
    }
    Ok(open)
}

/// `POST /t/a/<key>/draw[?tag=<code>]`: one draw.
pub async fn draw(
    State(st): State<AppState>,
    Path(key): Path<String>,
    Query(q): Query<PageQuery>,
    headers: HeaderMap,
    Peer(peer): Peer,
) -> Response {
    let lang = lang_of(&q, &headers);
    let dev = match known_device(&st, &headers).await {
        Ok(Some(id)) => Device { id, set: None },
        // A draw needs the device the page was shown to (its limits and its posts).
        Ok(None) => return error_json(ApiError::invalid("activity", Msg::DrawNeedsPost), lang),
        Err(e) => return error_json(e, lang),
    };
    let ip = client(&st, &headers, peer);
    if let Err(e) = ration(&st, &dev.id, &ip, &key) {
        return error_json(e, lang);
    }
    let now = platform_now();
    let a = match services::activities::by_key(&st.db, &key).await {
        Ok(Some(a)) => a,
        Ok(None) => {
            return error_json(ApiError::invalid("activity", Msg::ActivityNotRunning), lang);
        }
        Err(e) => return error_json(e, lang),
    };
    // The tag the page came from, if it belongs to this activity's merchant and activity.
    let code = q.tag.clone().unwrap_or_default();
    let tag = if code.is_empty() {
        None
    } else {
        services::nfc::tag_by_code(&st.db, &code)
            .await
            .ok()
            .flatten()
    };
    let tag_id = tag
        .filter(|t| t.merchant_id == a.merchant_id && t.activity_id == a.id)
        .map(|t| t.id)
        .unwrap_or(0);
    let source = if tag_id > 0 { "nfc" } else { "page" };
    match services::activities::draw(&st.db, &a, &dev.id, source, tag_id, now, lang).await {
        Ok(r) => axum::Json(DrawReply {
            code: 200,
            message: "ok",
            data: DrawOut {
                won: r.won,
                prize_name: r.prize_name,
                coupon: r.coupon.map(|c| CouponOut {
                    expires_text: services::export::china_time(c.expires_at),
                    code: c.code,
                    expires_at: c.expires_at,
                    description: c.description,
                }),
                left_today: r.left_today,
                left_total: r.left_total,
            },
        })
        .into_response(),
        Err(e) => error_json(e, lang),
    }
}
