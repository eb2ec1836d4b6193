//! Douyin's answer envelopes as the sandbox gives them: user and app calls `{data, extra}`, OAuth
//! calls `{data, message}`, faults in the shape of the call, and the app-call token check. Shared by
//! the DY routes and the data and billboard routes DY mounts.
//!
//! Source: open.douyin.com's response envelopes as PLATFORMS.md "Douyin" records them (the same
//! wire format `crate::dy` reads).

use super::{Fault, S};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// `now` is the answer's own log time (wall clock, like `logid` it is for tracing; nothing reads it).
fn extra(code: i64, desc: &str) -> Value {
    json!({"error_code": code, "description": desc, "sub_error_code": 0, "sub_description": "",
           "logid": format!("{:016x}", rand::random::<u64>()), "now": domain::now_ms()})
}

/// `{data:{error_code:0,...}, extra:{...}}`
pub(crate) fn ok(mut data: Value) -> Response {
    data["error_code"] = json!(0);
    data["description"] = json!("");
    axum::Json(json!({"data": data, "extra": extra(0, "")})).into_response()
}

pub(crate) fn err(code: i64, desc: &str) -> Response {
    axum::Json(
        json!({"data": {"error_code": code, "description": desc}, "extra": extra(code, desc)}),
    )
    .into_response()
}

/// OAuth calls answer `{data:{...,error_code:0}, message:"success"}`.
pub(crate) fn oauth_ok(mut data: Value) -> Response {
    data["error_code"] = json!(0);
    data["description"] = json!("");
    axum::Json(json!({"data": data, "message": "success"})).into_response()
}

pub(crate) fn oauth_err(code: i64, desc: &str) -> Response {
    axum::Json(json!({"data": {"error_code": code, "description": desc}, "message": "error"}))
        .into_response()
}

/// How a fault looks on DY. OAuth calls render expired tokens with their OAuth codes.
pub(crate) fn fault(f: Fault, call: &str) -> Response {
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

/// Checks the `access-token` header of an app call: the refusal unless it is a live client token.
pub(crate) fn client_refusal(s: &S, headers: &HeaderMap) -> Option<Response> {
    let token = headers
        .get("access-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    match s.lock().client_tokens.get(token) {
        Some(exp) if *exp > s.clock.sandbox_now() => None,
        Some(_) => Some(err(28001008, "client_token 已过期")),
        None => Some(err(2190002, "access_token 无效")),
    }
}
