//! The public mobile pages (DESIGN.md §2, no sign-in): `/t/<code>` — what an NFC tag or its QR code
//! opens: one unused video of the shop with a title and "post to Douyin" (the signed H5 share), then
//! the draw once the post comes back; `/t/a/<key>` — an activity's own page and its draw.
//!
//! A customer is a device: a random id in a cookie (`cm_dev`, signed by the server) made on the first
//! visit. A tag hands a video to a device only on its second request, made with that cookie (the
//! first answers a redirect that sets it), so a script that drops or makes up cookies takes nothing.
//! Requests are rationed per device, per client address and per tag, and new devices per address
//! and per tag, so one phone (or one script) cannot drain a tag's pool. The pages show the shop's
//! name, the video, its title and the activity — nothing else of the merchant.

use crate::error::{ApiError, HttpError, PendingError};
use crate::pages::nfc as nfc_pages;
use crate::pages::t;
use crate::state::AppState;
use axum::Router;
use axum::extract::{ConnectInfo, FromRequestParts, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use domain::activities::{self as rules, TapState, Who};
use domain::i18n::{Lang, Msg};
use maud::Markup;
use serde::{Deserialize, Serialize};
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
    let resp = HttpError(e).into_response();
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

fn message_page(lang: Lang, status: StatusCode, text: &str, testid: &str) -> Response {
    (status, Html(nfc_pages::message(lang, text, testid))).into_response()
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
) -> Result<Markup, ApiError> {
    let (prizes, coupons) = services::activities::shown_to(&st.db, a, device).await?;
    let now = st.db.clock.platform_now();
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
    let draw_url = match tag_code {
        Some(c) => format!("/t/a/{}/draw?tag={}", a.pkey, c),
        None => format!("/t/a/{}/draw", a.pkey),
    };
    Ok(nfc_pages::activity(
        lang,
        &nfc_pages::Activity {
            name: &a.name,
            starts: domain::matrix::china_time(a.starts_at),
            ends: domain::matrix::china_time(a.ends_at),
            prizes: prizes
                .iter()
                .map(|p| (p.name.as_str(), p.description.as_str()))
                .collect(),
            rules_text: &a.rules_text,
            hint,
            can_draw,
            coupons: coupons
                .iter()
                .map(|c| nfc_pages::CouponLine {
                    prize_name: &c.prize_name,
                    code: &c.code,
                    expires: domain::matrix::china_time(c.expires_at),
                    state: match rules::CouponState::of(c.redeemed_at, c.expires_at, now) {
                        rules::CouponState::Issued => t(lang, "未使用", "unused"),
                        rules::CouponState::Redeemed => t(lang, "已核销", "redeemed"),
                        rules::CouponState::Expired => t(lang, "已过期", "expired"),
                    },
                })
                .collect(),
            draw_url,
        },
    ))
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
    let now = st.db.clock.platform_now();
    let tapped = match services::nfc::tap(&st.hub, &code, &dev.id, now).await {
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
    let posted = tapped.tap.state == TapState::Posted;
    let activity = match &tapped.activity {
        Some(a) => {
            match activity_block(&st, a, &dev.id, tapped.can_draw, Some(&code), lang).await {
                Ok(h) => Some(h),
                Err(e) => {
                    tracing::warn!(error = ?e, "activity block");
                    None
                }
            }
        }
        None => None,
    };
    let src = src.unwrap_or_default();
    let cover = cover.unwrap_or_default();
    let body = nfc_pages::tap(
        lang,
        &nfc_pages::Tap {
            src: &src,
            cover: &cover,
            title: &tapped.tap.title,
            tags: topics
                .iter()
                .map(|t| format!("#{t}"))
                .collect::<Vec<_>>()
                .join(" "),
            posted,
            share_url: &tapped.tap.schema_url,
            sandbox_url: st.settings.sandbox.then(|| {
                format!(
                    "/sandbox/dy/h5_page?schema={}",
                    urlencode(&tapped.tap.schema_url)
                )
            }),
            activity,
            status_url: format!("/t/{code}/status"),
        },
    );
    // The customer sees whose shop the video is for.
    let title = match tapped.shop.trim() {
        "" => t(lang, "碰一碰 · 发视频", "Tap · post a video").to_string(),
        shop => format!(
            "{shop} · {}",
            t(lang, "碰一碰发视频", "tap to post a video")
        ),
    };
    with_cookie(
        Html(nfc_pages::page(lang, &title, &color, body)).into_response(),
        &dev,
    )
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
    match services::nfc::status(&st.db, &code, &dev, st.db.clock.platform_now()).await {
        Ok((tap, can_draw)) => {
            let state = match tap {
                Some(t) if t.state == TapState::Posted => "posted",
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
    let now = st.db.clock.platform_now();
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
            Html(nfc_pages::page(lang, &a.name, &a.color, body)).into_response(),
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
    let now = st.db.clock.platform_now();
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
    match services::activities::draw(&st.db, &a, &dev.id, source, tag_id, now).await {
        Ok(r) => axum::Json(DrawReply {
            code: 200,
            message: "ok",
            data: DrawOut {
                won: r.won,
                prize_name: if r.prize_name.is_empty() {
                    Msg::DrawThanks.render(lang, &[])
                } else {
                    r.prize_name
                },
                coupon: r.coupon.map(|c| CouponOut {
                    expires_text: domain::matrix::china_time(c.expires_at),
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
