//! SMS gateways for sign-in, registration and reset codes: Aliyun SMS and Tencent Cloud SMS, each in
//! its real wire format, signed as the provider documents it. The sandbox (`sandbox::sms`) speaks
//! both and checks the signatures, so a wrong secret is refused there as it would be for real.
//!
//! - **Aliyun** (dysmsapi, RPC style; help.aliyun.com "SendSms" and "RPC 签名机制"): `POST
//!   https://dysmsapi.aliyuncs.com/` with a form of the common parameters (`AccessKeyId`, `Action=SendSms`,
//!   `Format=JSON`, `RegionId`, `SignatureMethod=HMAC-SHA1`, `SignatureNonce`, `SignatureVersion=1.0`,
//!   `Timestamp` in UTC ISO 8601, `Version=2017-05-25`) and the call's (`PhoneNumbers`, `SignName`,
//!   `TemplateCode`, `TemplateParam` = `{"code":"123456"}`), plus `Signature` = base64(HMAC-SHA1(secret + "&",
//!   "POST&%2F&" + pct(sorted `k=v` pairs joined by `&`))), pct being RFC 3986 (space `%20`, `*` `%2A`,
//!   `~` kept). Answer `{"Code":"OK","Message":"OK","BizId":…,"RequestId":…}`; any other `Code` is a refusal.
//! - **Tencent** (API 3.0; cloud.tencent.com/document/api/382/55981 and "签名方法 v3"): `POST
//!   https://sms.tencentcloudapi.com/` with JSON `{PhoneNumberSet:["+86…"], SmsSdkAppId, SignName,
//!   TemplateId, TemplateParamSet:["123456"]}` and headers `X-TC-Action: SendSms`, `X-TC-Version:
//!   2021-01-11`, `X-TC-Timestamp`, `X-TC-Region`, `Authorization: TC3-HMAC-SHA256 Credential=<id>/<date>/sms/tc3_request,
//!   SignedHeaders=content-type;host, Signature=<hex>`. Answer `{"Response":{"SendStatusSet":[{"Code":"Ok",
//!   "SerialNo":…}],"RequestId":…}}`; a refused call has `Response.Error {Code, Message}`, a refused number
//!   its own `Code` in `SendStatusSet`.

use crate::sign::{AliyunRpc, hmac, sha256, utc_date};
use domain::system::sms::SmsProvider;
use serde_json::{Value, json};
use std::time::Duration;

pub const ALIYUN_HOST: &str = "https://dysmsapi.aliyuncs.com";
pub const TENCENT_HOST: &str = "https://sms.tencentcloudapi.com";
const TIMEOUT: Duration = Duration::from_secs(10);

/// One gateway as the operator configured it (the secret already opened).
#[derive(Debug, Clone, Default)]
pub struct Gateway {
    pub provider: Option<SmsProvider>,
    /// The provider's host, or the sandbox's (`…/sandbox/sms/aliyun`); empty for the real one.
    pub base_url: String,
    pub access_key_id: String,
    pub access_key_secret: String,
    pub sign_name: String,
    /// Tencent's `SmsSdkAppId` (unused by Aliyun).
    pub app_id: String,
    /// Aliyun `RegionId` (default cn-hangzhou), Tencent `X-TC-Region` (default ap-guangzhou).
    pub region: String,
}

/// Why a send failed, and whose matter it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmsFailure {
    /// The operator's setup: keys, sign name, template, balance. The person cannot fix it.
    Setup,
    /// The number: invalid, or over the gateway's per-number limits.
    Number,
    /// Busy, throttled, network: try again later.
    Retry,
}

#[derive(Debug, Clone, thiserror::Error)]
#[error("{provider} sms {code}: {en}")]
pub struct SmsError {
    pub provider: &'static str,
    pub failure: SmsFailure,
    /// The gateway's own code (`isv.MOBILE_NUMBER_ILLEGAL`, `AuthFailure.SignatureFailure`, `http_503`).
    pub code: String,
    pub zh: String,
    pub en: String,
}

impl Gateway {
    /// Sends `code` with `template` to a mainland number (11 digits); returns the gateway's id of the
    /// message. `now_ms` is the request time the signature covers.
    pub async fn send(
        &self,
        mobile: &str,
        template: &str,
        code: &str,
        now_ms: i64,
    ) -> Result<String, SmsError> {
        let http = client();
        match self.provider {
            Some(SmsProvider::Aliyun) => self.aliyun(http, mobile, template, code, now_ms).await,
            Some(SmsProvider::Tencent) => self.tencent(http, mobile, template, code, now_ms).await,
            _ => Err(failure(
                "log",
                SmsFailure::Setup,
                "not_configured",
                "未配置短信网关",
                "No SMS gateway is configured",
            )),
        }
    }

    async fn aliyun(
        &self,
        http: &reqwest::Client,
        mobile: &str,
        template: &str,
        code: &str,
        now_ms: i64,
    ) -> Result<String, SmsError> {
        const P: &str = "aliyun";
        let rpc = AliyunRpc {
            access_key_id: &self.access_key_id,
            access_key_secret: &self.access_key_secret,
            action: "SendSms",
            version: "2017-05-25",
            region: or(&self.region, "cn-hangzhou"),
        };
        let param = json!({ "code": code }).to_string();
        let params = rpc.signed(
            "POST",
            now_ms,
            &[
                ("PhoneNumbers", mobile),
                ("SignName", self.sign_name.as_str()),
                ("TemplateCode", template),
                ("TemplateParam", param.as_str()),
            ],
        );
        let url = format!("{}/", or(&self.base_url, ALIYUN_HOST).trim_end_matches('/'));
        let v = call(P, http.post(url).form(&params)).await?;
        match v["Code"].as_str().unwrap_or_default() {
            "OK" => Ok(v["BizId"].as_str().unwrap_or_default().to_string()),
            other => Err(aliyun_error(
                other,
                v["Message"].as_str().unwrap_or_default(),
            )),
        }
    }

    async fn tencent(
        &self,
        http: &reqwest::Client,
        mobile: &str,
        template: &str,
        code: &str,
        now_ms: i64,
    ) -> Result<String, SmsError> {
        const P: &str = "tencent";
        let base = or(&self.base_url, TENCENT_HOST).trim_end_matches('/');
        let host = base
            .split("://")
            .nth(1)
            .unwrap_or(base)
            .split('/')
            .next()
            .unwrap_or("");
        let body = json!({
            "PhoneNumberSet": [format!("+86{mobile}")],
            "SmsSdkAppId": self.app_id,
            "SignName": self.sign_name,
            "TemplateId": template,
            "TemplateParamSet": [code],
        })
        .to_string();
        let ts = now_ms.div_euclid(1000);
        let auth = tc3_authorization(
            &self.access_key_id,
            &self.access_key_secret,
            host,
            &body,
            ts,
        );
        let rb = http
            .post(format!("{base}/"))
            .header("content-type", TC3_CONTENT_TYPE)
            .header("authorization", auth)
            .header("x-tc-action", "SendSms")
            .header("x-tc-version", "2021-01-11")
            .header("x-tc-timestamp", ts.to_string())
            .header("x-tc-region", or(&self.region, "ap-guangzhou"))
            .body(body);
        let v = call(P, rb).await?;
        let r = &v["Response"];
        if let Some(e) = r.get("Error") {
            return Err(tencent_error(
                e["Code"].as_str().unwrap_or_default(),
                e["Message"].as_str().unwrap_or_default(),
            ));
        }
        let status = &r["SendStatusSet"][0];
        match status["Code"].as_str().unwrap_or_default() {
            "Ok" => Ok(status["SerialNo"].as_str().unwrap_or_default().to_string()),
            other => Err(tencent_error(
                other,
                status["Message"].as_str().unwrap_or_default(),
            )),
        }
    }
}

/// One connection pool for every send (a gateway is one host).
fn client() -> &'static reqwest::Client {
    static C: std::sync::OnceLock<reqwest::Client> = std::sync::OnceLock::new();
    C.get_or_init(reqwest::Client::new)
}

fn or<'a>(s: &'a str, default: &'a str) -> &'a str {
    if s.trim().is_empty() {
        default
    } else {
        s.trim()
    }
}

async fn call(provider: &'static str, rb: reqwest::RequestBuilder) -> Result<Value, SmsError> {
    let retry = |code: String, detail: String| {
        failure(
            provider,
            SmsFailure::Retry,
            &code,
            format!("短信网关暂时不可用：{detail}"),
            format!("The SMS gateway is not reachable now: {detail}"),
        )
    };
    let r = rb.timeout(TIMEOUT).send().await.map_err(|e| {
        retry(
            if e.is_timeout() { "timeout" } else { "network" }.into(),
            e.to_string(),
        )
    })?;
    let status = r.status();
    if status.as_u16() == 429 || status.is_server_error() {
        return Err(retry(
            format!("http_{}", status.as_u16()),
            status.to_string(),
        ));
    }
    let body = r
        .bytes()
        .await
        .map_err(|e| retry("network".into(), e.to_string()))?;
    serde_json::from_slice(&body).map_err(|_| retry("bad_response".into(), "not JSON".into()))
}

fn failure(
    provider: &'static str,
    failure: SmsFailure,
    code: &str,
    zh: impl Into<String>,
    en: impl Into<String>,
) -> SmsError {
    SmsError {
        provider,
        failure,
        code: code.to_string(),
        zh: zh.into(),
        en: en.into(),
    }
}

/// Aliyun's codes (help.aliyun.com "短信服务错误码").
fn aliyun_error(code: &str, msg: &str) -> SmsError {
    use SmsFailure::*;
    let (f, zh, en) = match code {
        "isv.MOBILE_NUMBER_ILLEGAL" | "isv.MOBILE_COUNT_OVER_LIMIT" => {
            (Number, "手机号码格式错误", "The mobile number is not valid")
        }
        "isv.BUSINESS_LIMIT_CONTROL" | "isv.DAY_LIMIT_CONTROL" => (
            Number,
            "该号码今天收到的验证码已达上限，请明天再试",
            "This number has received too many codes; try again tomorrow",
        ),
        "Throttling" | "Throttling.User" | "isp.SYSTEM_ERROR" | "isp.RAM_PERMISSION_DENY" => (
            Retry,
            "短信网关繁忙，请稍后再试",
            "The SMS gateway is busy; try again later",
        ),
        "SignatureDoesNotMatch" | "InvalidAccessKeyId.NotFound" | "InvalidAccessKeyId" => (
            Setup,
            "短信网关的 AccessKey 无效或签名不符",
            "The SMS gateway refused the AccessKey (wrong id or secret)",
        ),
        "isv.SMS_SIGNATURE_ILLEGAL" | "isv.SMS_SIGN_ILLEGAL" | "isv.SIGN_NAME_ILLEGAL" => (
            Setup,
            "短信签名未通过审核或不存在",
            "The SMS sign name is not approved",
        ),
        "isv.SMS_TEMPLATE_ILLEGAL" | "isv.TEMPLATE_MISSING_PARAMETERS" => (
            Setup,
            "短信模板未通过审核、不存在或参数不符",
            "The SMS template is not approved, missing, or takes other parameters",
        ),
        "isv.AMOUNT_NOT_ENOUGH" | "isv.OUT_OF_SERVICE" => (
            Setup,
            "短信账户余额不足或已停机",
            "The SMS account is out of credit",
        ),
        _ => (
            Setup,
            "短信网关拒绝了请求",
            "The SMS gateway refused the request",
        ),
    };
    with_detail("aliyun", f, code, zh, en, msg)
}

/// Tencent's codes (cloud.tencent.com/document/api/382/55981 "错误码").
fn tencent_error(code: &str, msg: &str) -> SmsError {
    use SmsFailure::*;
    let (f, zh, en) = match code {
        "InvalidParameterValue.IncorrectPhoneNumber" | "FailedOperation.PhoneNumberInBlacklist" => {
            (Number, "手机号码格式错误", "The mobile number is not valid")
        }
        c if c.starts_with("LimitExceeded.PhoneNumber") => (
            Number,
            "该号码收到的验证码已达上限，请稍后再试",
            "This number has received too many codes; try again later",
        ),
        c if c == "RequestLimitExceeded" || c.starts_with("InternalError") => (
            Retry,
            "短信网关繁忙，请稍后再试",
            "The SMS gateway is busy; try again later",
        ),
        c if c.starts_with("AuthFailure") => (
            Setup,
            "短信网关的 SecretId/SecretKey 无效或签名不符",
            "The SMS gateway refused the SecretId/SecretKey (wrong id or key)",
        ),
        "FailedOperation.SignatureIncorrectOrUnapproved" => (
            Setup,
            "短信签名未通过审核或不存在",
            "The SMS sign name is not approved",
        ),
        "FailedOperation.TemplateIncorrectOrUnapproved"
        | "InvalidParameterValue.TemplateParameterFormatError" => (
            Setup,
            "短信模板未通过审核、不存在或参数不符",
            "The SMS template is not approved, missing, or takes other parameters",
        ),
        "FailedOperation.InsufficientBalanceInSmsPackage" => {
            (Setup, "短信套餐包余量不足", "The SMS package is used up")
        }
        _ => (
            Setup,
            "短信网关拒绝了请求",
            "The SMS gateway refused the request",
        ),
    };
    with_detail("tencent", f, code, zh, en, msg)
}

fn with_detail(
    provider: &'static str,
    f: SmsFailure,
    code: &str,
    zh: &str,
    en: &str,
    msg: &str,
) -> SmsError {
    let (zh, en) = if msg.is_empty() {
        (zh.to_string(), en.to_string())
    } else {
        (
            format!("{zh}（{code}：{msg}）"),
            format!("{en} ({code}: {msg})"),
        )
    };
    failure(provider, f, code, zh, en)
}

// ---- Tencent signing (shared with the sandbox, which checks what it receives) ----

pub(crate) const TC3_CONTENT_TYPE: &str = "application/json; charset=utf-8";

/// Tencent TC3-HMAC-SHA256 signature of a `POST /` JSON call to `host` at unix second `ts`.
pub(crate) fn tc3_signature(secret_key: &str, host: &str, body: &str, ts: i64) -> String {
    let canonical = format!(
        "POST\n/\n\ncontent-type:{TC3_CONTENT_TYPE}\nhost:{host}\n\ncontent-type;host\n{}",
        hex::encode(sha256(body.as_bytes()))
    );
    let date = utc_date(ts);
    let to_sign = format!(
        "TC3-HMAC-SHA256\n{ts}\n{date}/sms/tc3_request\n{}",
        hex::encode(sha256(canonical.as_bytes()))
    );
    let k_date = hmac(
        format!("TC3{secret_key}").as_bytes(),
        date.as_bytes(),
        sha256,
    );
    let k_service = hmac(&k_date, b"sms", sha256);
    let k_signing = hmac(&k_service, b"tc3_request", sha256);
    hex::encode(hmac(&k_signing, to_sign.as_bytes(), sha256))
}

fn tc3_authorization(id: &str, key: &str, host: &str, body: &str, ts: i64) -> String {
    format!(
        "TC3-HMAC-SHA256 Credential={id}/{}/sms/tc3_request, SignedHeaders=content-type;host, Signature={}",
        utc_date(ts),
        tc3_signature(key, host, body, ts)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tencent_signs_as_its_documentation_shows() {
        // Tencent's "签名方法 v3" example shape: the signature is stable for fixed inputs and
        // changes with the key, the body and the time.
        let a = tc3_signature("key", "sms.tencentcloudapi.com", "{}", 1_551_113_065);
        assert_eq!(a.len(), 64);
        assert_ne!(
            a,
            tc3_signature("other", "sms.tencentcloudapi.com", "{}", 1_551_113_065)
        );
        assert_ne!(
            a,
            tc3_signature("key", "sms.tencentcloudapi.com", "{ }", 1_551_113_065)
        );
        assert_eq!(utc_date(1_551_113_065), "2019-02-25");
    }
}
