//! DY data calls of the SEO pages (docs/seo-platforms.md), all with the app's client token in
//! `access-token` and the `{data, extra}` envelope:
//! - `GET /hotsearch/sentences/` and `GET /hotsearch/trending/sentences/`: the open platform's
//!   hot list and rising words (same paths and fields as the real host);
//! - `GET /vendor/search/suggest/`, `/vendor/user/profile/`, `/vendor/user/videos/`: the sandbox's
//!   own shape for what no open-platform API offers (a real deployment puts a data vendor there).
//!
//! Fault call names: `hot_search`, `hot_trending`, `search_suggest`, `public_account`,
//! `public_works`.

use super::dy_reply::{client_refusal, err, fault, ok};
use super::{S, both, gate, public, words};
use crate::Platform;
use crate::error::dy_codes;
use axum::Router;
use axum::extract::{Query, State as St};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use serde_json::json;
use std::collections::HashMap;

type Q = Query<HashMap<String, String>>;

pub(crate) fn routes(mut r: Router<S>) -> Router<S> {
    r = both(r, "/hotsearch/sentences/", get(sentences));
    r = both(r, "/hotsearch/trending/sentences/", get(trending));
    r = both(r, "/vendor/search/suggest/", get(suggest));
    r = both(r, "/vendor/user/profile/", get(profile));
    both(r, "/vendor/user/videos/", get(videos))
}

/// Gate (fault injection) and the client token of one app call.
async fn enter(s: &S, call: &str, headers: &HeaderMap) -> Result<(), Response> {
    if let Some(x) = gate(s, Platform::Dy, call, "").await {
        return Err(fault(x, call));
    }
    client_refusal(s, headers).map_or(Ok(()), Err)
}

/// `{active_time, list: [{sentence, hot_level}]}`: the day's 50 hottest, hottest first.
async fn sentences(St(s): St<S>, headers: HeaderMap) -> Response {
    if let Err(r) = enter(&s, "hot_search", &headers).await {
        return r;
    }
    let day = words::today(&s.clock);
    let list: Vec<_> = words::hot_list("", day)
        .into_iter()
        .map(|h| json!({"sentence": h.sentence, "hot_level": h.hot_level}))
        .collect();
    let (y, m, d) = domain::matrix::civil_from_days(day);
    ok(json!({"active_time": format!("{y:04}-{m:02}-{d:02} 00:00:00"), "list": list}))
}

/// `?cursor&count` -> `{list: [{sentence, hot_level, label}], cursor, has_more, total}`.
async fn trending(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Err(r) = enter(&s, "hot_trending", &headers).await {
        return r;
    }
    let all = words::trending("", words::today(&s.clock));
    let (cursor, count) = super::cursor_count(&q, 20, 50);
    let page: Vec<_> = all.iter().skip(cursor).take(count).collect();
    let next = cursor + page.len();
    ok(json!({"list": page, "cursor": next, "has_more": next < all.len(), "total": all.len()}))
}

/// `?keyword&count` -> `{keyword, list: [{word, kind, heat, trend[7], change_ratio}]}`.
async fn suggest(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Err(r) = enter(&s, "search_suggest", &headers).await {
        return r;
    }
    let kw = q.get("keyword").map_or("", |k| k.trim());
    if kw.is_empty() {
        return err(2100005, "参数不合法：keyword 不能为空");
    }
    let count = q
        .get("count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(30usize)
        .clamp(1, 50);
    let list = words::suggest("", kw, words::today(&s.clock), count);
    ok(json!({"keyword": kw, "list": list}))
}

fn account_error(why: public::Unresolved) -> Response {
    match why {
        public::Unresolved::Unreadable => err(dy_codes::LINK_UNRESOLVABLE, "分享链接无法解析"),
        public::Unresolved::NotFound => err(dy_codes::ACCOUNT_NOT_FOUND, "账号不存在"),
    }
}

/// `?account_id` or `?link` -> `{user: {account_id, sec_uid, nickname, avatar, signature,
/// follower_count, total_favorited, aweme_count, share_url, short_url}}`.
async fn profile(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Err(r) = enter(&s, "public_account", &headers).await {
        return r;
    }
    let field = |k: &str| q.get(k).map_or("", |v| v.trim());
    let (id, link) = (field("account_id"), field("link"));
    if id.is_empty() && link.is_empty() {
        return err(2100005, "参数不合法：account_id 与 link 不能同时为空");
    }
    let st = s.lock();
    match public::resolve(&st.public_accounts, id, link) {
        Ok(a) => ok(json!({"user": a.profile_json(&s.public_base, s.clock.sandbox_now())})),
        Err(why) => account_error(why),
    }
}

/// `?account_id&cursor&count` -> `{list: [{item_id, title, create_time (s), cover, share_url,
/// statistics{play_count, digg_count, comment_count, share_count}}], cursor (ms), has_more}`,
/// newest first; `cursor` = the create time in ms of the last item (0: start from the newest).
async fn videos(St(s): St<S>, headers: HeaderMap, Query(q): Q) -> Response {
    if let Err(r) = enter(&s, "public_works", &headers).await {
        return r;
    }
    let id = q.get("account_id").map_or("", |v| v.trim());
    let cursor: i64 = q.get("cursor").and_then(|c| c.parse().ok()).unwrap_or(0);
    let count = q
        .get("count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(20usize)
        .clamp(1, 50);
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let Some(a) = st.public_accounts.iter().find(|a| a.id == id) else {
        return account_error(public::Unresolved::NotFound);
    };
    let (idx, next, more) = a.page(now, cursor, count);
    let list: Vec<_> = idx
        .iter()
        .map(|n| a.video_json(&s.public_base, *n, now))
        .collect();
    ok(json!({"list": list, "cursor": next, "has_more": more}))
}
