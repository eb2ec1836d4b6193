//! Sandbox of the Baijiahao developer service: JSON bodies with `app_id` + `app_token`, answers
//! `{errno, errmsg, data}`. Any app_id is accepted with the install's app_token
//! (`app_secret(token, Platform::Bjh)`).

use super::works::{Review, WorkRec};
use super::{Fault, S, SENSITIVE_WORDS, contains_any, gate};
use crate::Platform;
use crate::error::bjh_codes as c;
use axum::Router;
use axum::extract::State as St;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route("/builderinner/open/resource/video/publish", post(publish))
        .route(
            "/builderinner/open/resource/query/articleListall",
            post(list),
        )
        .route("/poi/search", get(super::poi::generic))
}

fn ok(data: Value) -> Response {
    axum::Json(json!({"errno": 0, "errmsg": "success", "data": data})).into_response()
}

fn err(code: i64, msg: &str) -> Response {
    axum::Json(json!({"errno": code, "errmsg": msg, "data": {}})).into_response()
}

fn fault(f: Fault) -> Response {
    let (code, m) = match f {
        Fault::ExpiredToken | Fault::OpenIdMismatch => (c::AUTH, "app_token 无效"),
        Fault::RateLimit => (c::RATE_LIMIT, "请求过于频繁"),
        Fault::Quota => (c::QUOTA, "调用额度已用完"),
        Fault::DailyCap => (c::DAILY_QUOTA, "今日发文数量已达上限"),
        Fault::SensitiveWord => (c::SENSITIVE, "标题含有敏感词"),
        Fault::Oversize => (c::TOO_LARGE, "视频文件过大"),
        Fault::TooLong | Fault::MissingChunk => (c::TOO_LONG, "视频时长超限"),
        Fault::Busy => (c::BUSY, "系统繁忙"),
        Fault::ServerError | Fault::Timeout => {
            return (StatusCode::INTERNAL_SERVER_ERROR, "internal server error").into_response();
        }
    };
    err(code, m)
}

/// Gate + app check; Ok(app_id).
async fn enter(s: &S, call: &str, body: &Value) -> Result<String, Response> {
    let app_id = super::text_of(body, "app_id");
    if let Some(x) = gate(s, Platform::Bjh, call, &app_id).await {
        return Err(fault(x));
    }
    let token = body.get("app_token").and_then(Value::as_str).unwrap_or("");
    if app_id.is_empty() || token != s.bjh_app_token || s.lock().bjh_revoked.contains(&app_id) {
        return Err(err(c::AUTH, "app_id 或 app_token 无效"));
    }
    Ok(app_id)
}

async fn publish(St(s): St<S>, body: axum::Json<Value>) -> Response {
    let app_id = match enter(&s, "publish", &body).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let title = super::text_of(&body, "title");
    let url = body.get("video_url").and_then(Value::as_str).unwrap_or("");
    if title.trim().is_empty() || !(url.starts_with("http://") || url.starts_with("https://")) {
        return err(c::BAD_PARAMS, "title 或 video_url 无效");
    }
    if contains_any(&title, &SENSITIVE_WORDS) {
        return err(c::SENSITIVE, "标题含有敏感词");
    }
    let mut st = s.lock();
    let id = format!(
        "{}",
        1_700_000_000_000_000u64 + st.total_creates * 7919 + rand::random::<u32>() as u64
    );
    st.add_work(Platform::Bjh, &app_id, &id, url, &title);
    ok(json!({"article_id": id}))
}

async fn list(St(s): St<S>, body: axum::Json<Value>) -> Response {
    let app_id = match enter(&s, "list", &body).await {
        Ok(a) => a,
        Err(r) => return r,
    };
    let start = body.get("start").and_then(Value::as_u64).unwrap_or(0) as usize;
    let size = body
        .get("page_size")
        .and_then(Value::as_u64)
        .unwrap_or(20)
        .clamp(1, 50) as usize;
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let mut mine: Vec<&WorkRec> = st
        .works
        .iter()
        .filter(|w| w.platform == Platform::Bjh && w.open_id == app_id)
        .collect();
    mine.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.seq.cmp(&a.seq)));
    let page: Vec<Value> = mine
        .iter()
        .skip(start)
        .take(size)
        .map(|w| {
            let r = w.review(now);
            let stt = w.stats(now, &[]);
            json!({
                "article_id": w.item_id, "title": w.title,
                "status": match r { Review::Reviewing => "pre_publish", Review::Public => "publish", Review::Rejected => "rejected" },
                "audit_msg": if r == Review::Rejected { "内容违规，审核未通过" } else { "" },
                "publish_time": w.created_at / 1000,
                "url": format!("{}/bjh/article/{}", s.public_base, w.item_id),
                "read_amount": stt.play, "like_amount": stt.like, "comment_amount": stt.comment, "share_amount": stt.share,
            })
        })
        .collect();
    let more = start + page.len() < mine.len();
    ok(json!({"list": page, "total": mine.len(), "has_more": more}))
}
