//! DY data calls of the SEO pages (docs/seo-platforms.md), all with the app's client token in
//! `access-token` and the `{data, extra}` envelope:
//! - `GET /hotsearch/sentences/` and `GET /hotsearch/trending/sentences/`: the open platform's
//!   hot list and rising words (same paths and fields as the real host);
//!
//! Search suggestions and other accounts' public videos have no open-platform API: see
//! `super::words::simulated_suggest` and the data vendor's imitation (`super::tikhub`).
//!
//! Fault call names: `hot_search`, `hot_trending`.

use super::dy_reply::{client_refusal, fault, ok};
use super::{S, both, gate, words};
use crate::Platform;
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
    both(r, "/hotsearch/trending/sentences/", get(trending))
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
