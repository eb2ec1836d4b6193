//! Aliyun Intelligent Speech Interaction as the sandbox plays it (`crate::voice::Nls` has the wire
//! formats): the token service's `CreateToken` (`GET /nls/meta/?…`, a POP RPC call whose signature
//! is checked with the install's key pair, [`SANDBOX_NLS_KEY_ID`] and `nls_secret(token)`, so a wrong
//! AccessKey secret is refused as the real service refuses it) and the synthesis gateway's
//! `POST /nls/stream/v1/tts`, which takes only a token it minted and that has not expired on the
//! platform clock, the sandbox's AppKey and a voice of the NLS voice list (`domain::ai::NLS_VOICES`).
//! Its audio is a tone shaped like speech (0.2 s per character): the simulator makes no claim to
//! sound like anyone.
//!
//! Controls (`/_control/nls`): GET the number of tokens minted and alive; POST `/expire` ends every
//! token now.

use super::S;
use crate::sign::{aliyun_verify, parse_iso8601};
use axum::extract::{Query, State as St};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The AccessKeyId the sandbox's token service knows; its secret is `nls_secret(token)`.
pub const SANDBOX_NLS_KEY_ID: &str = "sbx_nls_key";
/// The project AppKey the sandbox's gateway knows.
pub const SANDBOX_NLS_APPKEY: &str = "sbx_nls_appkey";
/// How long a sandbox token lives (platform clock). The client trusts `ExpireTime`, not this.
pub const SANDBOX_NLS_TOKEN_TTL_MS: i64 = 24 * 3_600_000;

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route("/meta/", get(create_token))
        .route("/stream/v1/tts", post(tts))
}

/// `/_control/nls`.
pub(crate) fn control() -> Router<S> {
    Router::new()
        .route("/", get(counts))
        .route("/expire", post(expire))
}

/// Tokens -> expiry (platform ms), and how many were minted; kept with the sandbox state.
#[derive(Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub(crate) struct Tokens {
    pub alive: HashMap<String, i64>,
    pub minted: u64,
}

fn pop_error(status: StatusCode, code: &str, msg: &str) -> Response {
    (
        status,
        Json(
            json!({"RequestId": "sbx-req", "HostId": "nls-meta.cn-shanghai.aliyuncs.com",
            "Code": code, "Message": msg}),
        ),
    )
        .into_response()
}

async fn create_token(St(s): St<S>, Query(q): Query<HashMap<String, String>>) -> Response {
    let get = |k: &str| q.get(k).map(String::as_str).unwrap_or_default();
    if get("Action") != "CreateToken" || get("Version") != "2019-02-28" {
        return pop_error(
            StatusCode::NOT_FOUND,
            "InvalidAction.NotFound",
            "Specified api is not found, please check your url and method.",
        );
    }
    if get("AccessKeyId") != SANDBOX_NLS_KEY_ID {
        return pop_error(
            StatusCode::NOT_FOUND,
            "InvalidAccessKeyId.NotFound",
            "Specified access key is not found.",
        );
    }
    if !aliyun_verify(&s.nls_secret, "GET", &q) {
        return pop_error(
            StatusCode::BAD_REQUEST,
            "SignatureDoesNotMatch",
            "Specified signature is not matched with our calculation.",
        );
    }
    if !super::sms::fresh(&s, parse_iso8601(get("Timestamp"))) {
        return pop_error(
            StatusCode::BAD_REQUEST,
            "InvalidTimeStamp.Expired",
            "Specified time stamp or date value is expired.",
        );
    }
    let expires = s.clock.sandbox_now() + SANDBOX_NLS_TOKEN_TTL_MS;
    let mut st = s.lock();
    let id = st.id("nlstok");
    st.nls.alive.insert(id.clone(), expires);
    st.nls.minted += 1;
    Json(json!({
        "RequestId": "sbx-req", "NlsRequestId": "sbx-nls-req", "ErrMsg": "",
        "Token": {"UserId": "sbx_nls_user", "Id": id, "ExpireTime": expires / 1000},
    }))
    .into_response()
}

fn gateway_error(status: i64, msg: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({"task_id": "sbx-task", "result": "", "status": status, "message": msg})),
    )
        .into_response()
}

async fn tts(St(s): St<S>, Json(b): Json<Value>) -> Response {
    let field = |k: &str| b[k].as_str().unwrap_or_default();
    if field("appkey") != SANDBOX_NLS_APPKEY {
        return gateway_error(
            40000003,
            "Gateway:PARAMETER_INVALID:appkey not set or invalid!",
        );
    }
    let token = field("token");
    let expires = s.lock().nls.alive.get(token).copied();
    match expires {
        None => {
            return gateway_error(
                40000001,
                &format!("Gateway:ACCESS_DENIED:The token '{token}' is invalid!"),
            );
        }
        Some(exp) if exp <= s.clock.sandbox_now() => {
            return gateway_error(
                40000001,
                &format!("Gateway:ACCESS_DENIED:The token '{token}' has expired!"),
            );
        }
        Some(_) => {}
    }
    let voice = field("voice");
    if domain::ai::Engine::Nls.voice(voice).is_none() {
        return gateway_error(
            40000002,
            &format!("Meta:PARAMETER_INVALID:voice '{voice}' is not supported!"),
        );
    }
    let text = field("text");
    if text.trim().is_empty() {
        return gateway_error(40000002, "Meta:PARAMETER_INVALID:text is empty!");
    }
    let rate = b["sample_rate"].as_u64().unwrap_or(16000);
    if field("format") != "wav" || ![8000, 16000].contains(&rate) {
        return gateway_error(
            40000002,
            "Meta:PARAMETER_INVALID:format or sample_rate is not supported!",
        );
    }
    let wav = super::doubao::tone(text.chars().count() as f64 * 0.2, rate as u32);
    ([(header::CONTENT_TYPE, "audio/wav")], wav).into_response()
}

async fn counts(St(s): St<S>) -> Json<Value> {
    let now = s.clock.sandbox_now();
    let st = s.lock();
    Json(json!({
        "minted": st.nls.minted,
        "alive": st.nls.alive.values().filter(|e| **e > now).count(),
    }))
}

async fn expire(St(s): St<S>) -> Json<Value> {
    let now = s.clock.sandbox_now();
    for exp in s.lock().nls.alive.values_mut() {
        *exp = now;
    }
    Json(json!({"ok": true}))
}
