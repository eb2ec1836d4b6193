//! The SMS gateways as the sandbox plays them (`crate::sms` has the wire formats): Aliyun's
//! `POST /sms/aliyun/` (form, RPC signature) and Tencent's `POST /sms/tencent/` (JSON, TC3
//! signature). Both check the signature with the install's key pair ([`SANDBOX_SMS_KEY_ID`] and
//! `sms_secret(token)`), so a wrong secret is refused as the real gateways refuse it; both check the
//! number, the sign name and the template, and cap codes per number per day. What they accepted
//! is kept in an outbox (`GET /_control/sms`) — where a tester, or a test, reads the code.
//!
//! Faults (`POST /_control/sms {fault: "throttle" | "down" | "slow", times}`): the gateway's own
//! throttling answer, a 503, or an answer held past the client's timeout.

use super::{Guard, S};
use crate::sign::{aliyun_verify, parse_iso8601};
use crate::sms::{TC3_CONTENT_TYPE, tc3_signature};
use axum::Json;
use axum::Router;
use axum::extract::{Form, State as St};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;

/// The AccessKeyId / SecretId the sandbox's gateways know; its secret is `sms_secret(token)`.
pub const SANDBOX_SMS_KEY_ID: &str = "sbx_sms_key";
/// Templates the sandbox's gateways have "approved" (Aliyun template codes, Tencent template ids).
pub const SANDBOX_ALIYUN_TEMPLATES: [&str; 3] = ["SMS_100001", "SMS_100002", "SMS_100003"];
pub const SANDBOX_TENCENT_TEMPLATES: [&str; 3] = ["100001", "100002", "100003"];
/// Codes a number may receive in a day (both gateways' default for verification codes).
const PER_NUMBER_DAY: usize = 10;
/// How far a request's time may be from the gateway's (both refuse stale signed requests).
const SKEW_MS: i64 = 15 * 60_000;

/// One message a gateway accepted.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SmsSent {
    pub provider: String,
    pub mobile: String,
    pub sign_name: String,
    pub template: String,
    /// The code (Aliyun's `TemplateParam.code`, Tencent's first `TemplateParamSet` entry).
    pub code: String,
    /// Platform clock, unix ms.
    pub at: i64,
}

/// A fault the tester set for the next `times` sends.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SmsFault {
    pub fault: String,
    #[serde(default = "one")]
    pub times: u32,
}

fn one() -> u32 {
    1
}

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route("/aliyun/", post(aliyun))
        .route("/tencent/", post(tencent))
}

/// `/_control/sms`: the outbox (GET) and faults (POST).
pub(crate) fn control() -> Router<S> {
    Router::new().route("/", get(outbox).post(set_fault))
}

async fn outbox(St(s): St<S>) -> Json<Value> {
    let st = s.lock();
    Json(json!({ "sent": st.sms_sent.iter().rev().take(200).collect::<Vec<_>>() }))
}

async fn set_fault(St(s): St<S>, Json(f): Json<SmsFault>) -> Json<Value> {
    s.lock().sms_fault = Some(f);
    Json(json!({ "ok": true }))
}

/// What a set fault makes the gateway do to this request.
enum Play {
    Throttle,
    Down,
}

/// The fault to play now, if one is set ("slow" holds the request, then lets it through).
async fn fault(s: &S) -> Option<Play> {
    let f = {
        let mut st = s.lock();
        let f = st.sms_fault.clone()?;
        if f.times <= 1 {
            st.sms_fault = None;
        } else if let Some(x) = st.sms_fault.as_mut() {
            x.times -= 1;
        }
        f
    };
    match f.fault.as_str() {
        "down" => Some(Play::Down),
        "slow" => {
            tokio::time::sleep(std::time::Duration::from_secs(15)).await;
            None
        }
        _ => Some(Play::Throttle),
    }
}

fn is_mainland_mobile(m: &str) -> bool {
    m.len() == 11
        && m.starts_with('1')
        && m.bytes().all(|b| b.is_ascii_digit())
        && m.as_bytes()[1] >= b'3'
}

/// Checks number, sign, template and the daily cap; records the message. Err: the gateway's code.
fn accept(
    st: &mut Guard<'_>,
    provider: &str,
    mobile: &str,
    sign: &str,
    template: &str,
    approved: &[&str],
    code: &str,
) -> Result<String, &'static str> {
    let now = st.clock.platform_now();
    if !is_mainland_mobile(mobile) {
        return Err("number");
    }
    if sign.chars().count() < 2 || sign.chars().count() > 12 {
        return Err("sign");
    }
    if !approved.contains(&template) {
        return Err("template");
    }
    let today = now.div_euclid(super::DAY_MS);
    let sent_today = st
        .sms_sent
        .iter()
        .filter(|m| m.mobile == mobile && m.at.div_euclid(super::DAY_MS) == today)
        .count();
    if sent_today >= PER_NUMBER_DAY {
        return Err("limit");
    }
    st.sms_sent.push(SmsSent {
        provider: provider.into(),
        mobile: mobile.into(),
        sign_name: sign.into(),
        template: template.into(),
        code: code.into(),
        at: now,
    });
    Ok(st.id("sms"))
}

async fn aliyun(St(s): St<S>, Form(f): Form<HashMap<String, String>>) -> Response {
    let answer = |code: &str, msg: &str| {
        Json(json!({"Code": code, "Message": msg, "RequestId": "sbx-req"})).into_response()
    };
    match fault(&s).await {
        Some(Play::Throttle) => {
            return answer(
                "Throttling.User",
                "Request was denied due to user flow control.",
            );
        }
        Some(Play::Down) => return StatusCode::SERVICE_UNAVAILABLE.into_response(),
        None => {}
    }
    let get = |k: &str| f.get(k).map(String::as_str).unwrap_or_default();
    if get("Action") != "SendSms" || get("Version") != "2017-05-25" {
        return answer("InvalidAction.NotFound", "Specified api is not found");
    }
    if get("AccessKeyId") != SANDBOX_SMS_KEY_ID {
        return answer(
            "InvalidAccessKeyId.NotFound",
            "Specified access key is not found.",
        );
    }
    if !aliyun_verify(&s.sms_secret, "POST", &f) {
        return answer(
            "SignatureDoesNotMatch",
            "Specified signature is not matched with our calculation.",
        );
    }
    if !fresh(&s, parse_iso8601(get("Timestamp"))) {
        return answer(
            "InvalidTimeStamp.Expired",
            "Specified time stamp or date value is expired.",
        );
    }
    let code = serde_json::from_str::<Value>(get("TemplateParam"))
        .ok()
        .and_then(|v| v["code"].as_str().map(str::to_string))
        .unwrap_or_default();
    let mut st = s.lock();
    match accept(
        &mut st,
        "aliyun",
        get("PhoneNumbers"),
        get("SignName"),
        get("TemplateCode"),
        &SANDBOX_ALIYUN_TEMPLATES,
        &code,
    ) {
        Ok(id) => Json(json!({"Code": "OK", "Message": "OK", "BizId": id, "RequestId": "sbx-req"}))
            .into_response(),
        Err("number") => answer("isv.MOBILE_NUMBER_ILLEGAL", "非法手机号"),
        Err("sign") => answer("isv.SMS_SIGNATURE_ILLEGAL", "该账号下找不到对应签名"),
        Err("template") => answer("isv.SMS_TEMPLATE_ILLEGAL", "该账号下找不到对应模板"),
        Err(_) => answer("isv.BUSINESS_LIMIT_CONTROL", "触发天级流控Permits:10"),
    }
}

async fn tencent(St(s): St<S>, headers: HeaderMap, body: String) -> Response {
    let error = |code: &str, msg: &str| {
        Json(json!({"Response": {"Error": {"Code": code, "Message": msg}, "RequestId": "sbx-req"}}))
            .into_response()
    };
    match fault(&s).await {
        Some(Play::Throttle) => return error("RequestLimitExceeded", "请求的次数超过了频率限制。"),
        Some(Play::Down) => return StatusCode::SERVICE_UNAVAILABLE.into_response(),
        None => {}
    }
    let h = |k: &str| {
        headers
            .get(k)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    };
    if h("x-tc-action") != "SendSms" || h("x-tc-version") != "2021-01-11" {
        return error("InvalidAction", "接口不存在。");
    }
    // Authorization: TC3-HMAC-SHA256 Credential=<id>/<date>/sms/tc3_request, SignedHeaders=…, Signature=<hex>
    let auth = h("authorization");
    let field = |name: &str| {
        auth.split(&[' ', ','][..])
            .find_map(|p| p.strip_prefix(&format!("{name}=")))
            .unwrap_or_default()
            .to_string()
    };
    let credential = field("Credential");
    let id = credential.split('/').next().unwrap_or_default();
    if id != SANDBOX_SMS_KEY_ID {
        return error("AuthFailure.SecretIdNotFound", "密钥不存在。");
    }
    let ts: i64 = h("x-tc-timestamp").parse().unwrap_or(0);
    if h("content-type") != TC3_CONTENT_TYPE
        || tc3_signature(&s.sms_secret, h("host"), &body, ts) != field("Signature")
    {
        return error("AuthFailure.SignatureFailure", "请求签名验证失败。");
    }
    if !fresh(&s, Some(ts * 1000)) {
        return error("AuthFailure.SignatureExpire", "签名过期。");
    }
    let Ok(v) = serde_json::from_str::<Value>(&body) else {
        return error("InvalidParameter", "请求体不是 JSON。");
    };
    let phone = v["PhoneNumberSet"][0].as_str().unwrap_or_default();
    let mobile = phone.strip_prefix("+86").unwrap_or(phone);
    let code = v["TemplateParamSet"][0].as_str().unwrap_or_default();
    let mut st = s.lock();
    let status = |c: &str, m: &str, serial: &str| {
        Json(json!({"Response": {"SendStatusSet": [{
            "SerialNo": serial, "PhoneNumber": phone, "Fee": 1, "SessionContext": "",
            "Code": c, "Message": m, "IsoCode": "CN"
        }], "RequestId": "sbx-req"}}))
        .into_response()
    };
    if v["SmsSdkAppId"].as_str().unwrap_or_default().is_empty() {
        return error(
            "InvalidParameterValue.SdkAppIdNotExist",
            "SdkAppId 不存在。",
        );
    }
    match accept(
        &mut st,
        "tencent",
        mobile,
        v["SignName"].as_str().unwrap_or_default(),
        v["TemplateId"].as_str().unwrap_or_default(),
        &SANDBOX_TENCENT_TEMPLATES,
        code,
    ) {
        Ok(id) => status("Ok", "send success", &id),
        Err("number") => status(
            "InvalidParameterValue.IncorrectPhoneNumber",
            "手机号格式错误",
            "",
        ),
        Err("sign") => error(
            "FailedOperation.SignatureIncorrectOrUnapproved",
            "签名格式错误或者签名未审批。",
        ),
        Err("template") => error(
            "FailedOperation.TemplateIncorrectOrUnapproved",
            "模板未审批或请求的内容与审核通过的模板内容不匹配。",
        ),
        Err(_) => status(
            "LimitExceeded.PhoneNumberDailyLimit",
            "单个手机号日下发短信条数超过设定的上限",
            "",
        ),
    }
}

pub(crate) fn fresh(s: &S, at: Option<i64>) -> bool {
    at.is_some_and(|at| (at - s.clock.platform_now()).abs() <= SKEW_MS)
}
