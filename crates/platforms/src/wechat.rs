//! WeChat official-account template messages (the new-lead notification to a staff member), by the
//! wire format of `api.weixin.qq.com` against a base URL (the real host or the sandbox's
//! `/sandbox/wechat`): `GET /cgi-bin/token?grant_type=client_credential&appid&secret` ->
//! `{access_token, expires_in}`, then `POST /cgi-bin/message/template/send?access_token=`
//! `{touser, template_id, url, data: {key: {value}}}` -> `{errcode: 0, msgid}`. Errors come with
//! HTTP 200 as `{errcode, errmsg}`. The token is cached until shortly before it expires and fetched
//! again once when the platform says it is invalid or expired (40001, 42001).
//!
//! Binding a staff member by QR code: `POST /cgi-bin/qrcode/create` ([`OfficialAccount::create_qr`]),
//! then the scan event WeChat pushes to the account's server URL, signed with the server Token
//! ([`push_signature`], [`parse_scan_event`]).

use domain::clock::Clock;
use serde_json::Value;
use std::time::Duration;

/// A refusal: WeChat's code (0 when the call itself failed) and its words in both languages.
#[derive(Debug, Clone, PartialEq)]
pub struct WxError {
    pub code: i64,
    pub zh: String,
    pub en: String,
}

impl WxError {
    fn of(code: i64, msg: &str) -> WxError {
        let (zh, en) = match code {
            40013 => (
                "公众号 AppID 无效",
                "The official account's AppID is invalid",
            ),
            40125 | 40001 | 42001 => (
                "公众号 AppSecret 错误或凭证失效",
                "The official account's AppSecret is wrong or its credential is invalid",
            ),
            40003 => ("接收人的 openid 无效", "The recipient's openid is invalid"),
            43004 => (
                "接收人未关注公众号",
                "The recipient does not follow the official account",
            ),
            40037 => ("模板 ID 无效", "The template id is invalid"),
            45009 | 45047 => (
                "公众号今日消息已达上限",
                "The official account reached its daily message limit",
            ),
            _ => ("微信接口返回错误", "WeChat answered an error"),
        };
        WxError {
            code,
            zh: format!("{zh}（{code} {msg}）"),
            en: format!("{en} ({code} {msg})"),
        }
    }

    fn call(e: impl std::fmt::Display) -> WxError {
        WxError {
            code: 0,
            zh: format!("无法连接微信接口：{e}"),
            en: format!("WeChat cannot be reached: {e}"),
        }
    }
}

/// Sends a template message to a follower; answers WeChat's msgid.
#[async_trait::async_trait]
pub trait TemplateSender: Send + Sync {
    async fn send_template(
        &self,
        openid: &str,
        template_id: &str,
        url: &str,
        data: &Value,
    ) -> Result<String, WxError>;
}

/// The official account at `base_url` (`https://api.weixin.qq.com` live).
pub struct OfficialAccount {
    base_url: String,
    app_id: String,
    secret: String,
    http: reqwest::Client,
    token: tokio::sync::Mutex<Option<(String, i64)>>,
    clock: Clock,
}

pub const LIVE_BASE_URL: &str = "https://api.weixin.qq.com";

impl OfficialAccount {
    pub fn new(base_url: &str, app_id: &str, secret: &str, clock: Clock) -> OfficialAccount {
        OfficialAccount {
            base_url: base_url.trim_end_matches('/').to_string(),
            app_id: app_id.to_string(),
            secret: secret.to_string(),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(10))
                .build()
                .unwrap_or_default(),
            token: tokio::sync::Mutex::new(None),
            clock,
        }
    }

    async fn get_json(&self, rb: reqwest::RequestBuilder) -> Result<Value, WxError> {
        let v: Value = rb
            .send()
            .await
            .map_err(WxError::call)?
            .json()
            .await
            .map_err(WxError::call)?;
        match v["errcode"].as_i64() {
            Some(c) if c != 0 => Err(WxError::of(c, v["errmsg"].as_str().unwrap_or(""))),
            _ => Ok(v),
        }
    }

    /// The cached access token, or a new one.
    async fn token(&self, fresh: bool) -> Result<String, WxError> {
        let mut t = self.token.lock().await;
        let now = self.clock.platform_now();
        if !fresh && let Some((tok, _)) = t.as_ref().filter(|(_, exp)| *exp > now) {
            return Ok(tok.clone());
        }
        let v = self
            .get_json(
                self.http
                    .get(format!("{}/cgi-bin/token", self.base_url))
                    .query(&[
                        ("grant_type", "client_credential"),
                        ("appid", self.app_id.as_str()),
                        ("secret", self.secret.as_str()),
                    ]),
            )
            .await?;
        let tok = v["access_token"].as_str().unwrap_or("").to_string();
        // Five minutes early, so a token is not used as it dies.
        let ttl = v["expires_in"].as_i64().unwrap_or(7200) * 1000 - 300_000;
        *t = Some((tok.clone(), now + ttl.max(0)));
        Ok(tok)
    }

    /// `POST {base}{path}?access_token=` with a JSON body; a token the platform no longer takes
    /// (40001, 42001) is fetched again once.
    async fn post_json(&self, path: &str, body: &Value) -> Result<Value, WxError> {
        let mut fresh = false;
        loop {
            let tok = self.token(fresh).await?;
            let res = self
                .get_json(
                    self.http
                        .post(format!("{}{path}", self.base_url))
                        .query(&[("access_token", tok.as_str())])
                        .json(body),
                )
                .await;
            match res {
                Err(e) if !fresh && (e.code == 40001 || e.code == 42001) => fresh = true,
                other => return other,
            }
        }
    }
}

#[async_trait::async_trait]
impl TemplateSender for OfficialAccount {
    async fn send_template(
        &self,
        openid: &str,
        template_id: &str,
        url: &str,
        data: &Value,
    ) -> Result<String, WxError> {
        let body = serde_json::json!({"touser": openid, "template_id": template_id, "url": url, "data": data});
        let v = self
            .post_json("/cgi-bin/message/template/send", &body)
            .await?;
        Ok(match &v["msgid"] {
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.clone(),
            _ => String::new(),
        })
    }
}

/// A parametric QR code of the official account (`POST /cgi-bin/qrcode/create`, `QR_STR_SCENE`): its
/// ticket, how long it lives, and `url`, the text the QR code carries: the console draws it (the same
/// code as the account's own image, `https://mp.weixin.qq.com/cgi-bin/showqrcode?ticket=`).
#[derive(Debug, Clone, PartialEq)]
pub struct WxQr {
    pub ticket: String,
    pub expire_seconds: i64,
    pub url: String,
}

impl OfficialAccount {
    /// A temporary QR code carrying `scene` (WeChat: 1–64 characters, at most 30 days). Scanning it
    /// makes WeChat push a `subscribe` event with `EventKey` "qrscene_<scene>" (a new follower) or a
    /// `SCAN` event with `EventKey` "<scene>" (a follower already) to the account's server URL
    /// (developers.weixin.qq.com "生成带参数的二维码", "接收事件推送").
    pub async fn create_qr(&self, scene: &str, expire_seconds: i64) -> Result<WxQr, WxError> {
        let body = serde_json::json!({
            "expire_seconds": expire_seconds,
            "action_name": "QR_STR_SCENE",
            "action_info": {"scene": {"scene_str": scene}},
        });
        let v = self.post_json("/cgi-bin/qrcode/create", &body).await?;
        Ok(WxQr {
            ticket: v["ticket"].as_str().unwrap_or_default().to_string(),
            expire_seconds: v["expire_seconds"].as_i64().unwrap_or(expire_seconds),
            url: v["url"].as_str().unwrap_or_default().to_string(),
        })
    }
}

/// The signature WeChat puts on what it pushes to the account's server URL: hex SHA-1 of the
/// server's Token, `timestamp` and `nonce` sorted and joined (developers.weixin.qq.com "接入概述"),
/// sent as `?signature=&timestamp=&nonce=`.
pub fn push_signature(token: &str, timestamp: &str, nonce: &str) -> String {
    let mut parts = [token, timestamp, nonce];
    parts.sort();
    hex::encode(crate::sign::sha1(parts.concat().as_bytes()))
}

/// The event XML WeChat pushes when `openid` scans the QR code of `scene` (`subscribed`: they
/// followed before; otherwise the scan made them follow).
pub fn scan_event_xml(
    account: &str,
    openid: &str,
    create_time: i64,
    scene: &str,
    ticket: &str,
    subscribed: bool,
) -> String {
    let (event, key) = if subscribed {
        ("SCAN", scene.to_string())
    } else {
        ("subscribe", format!("qrscene_{scene}"))
    };
    format!(
        "<xml><ToUserName><![CDATA[{account}]]></ToUserName><FromUserName><![CDATA[{openid}]]></FromUserName>\
<CreateTime>{create_time}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[{event}]]></Event>\
<EventKey><![CDATA[{key}]]></EventKey><Ticket><![CDATA[{ticket}]]></Ticket></xml>"
    )
}

/// A scan event read back from its XML: who scanned (FromUserName) and the scene of the QR code,
/// for `subscribe` (EventKey "qrscene_<scene>") and `SCAN` (EventKey "<scene>"); None for any other
/// message.
pub fn parse_scan_event(xml: &str) -> Option<(String, String)> {
    let field = |name: &str| -> Option<String> {
        let open = format!("<{name}>");
        let close = format!("</{name}>");
        let start = xml.find(&open)? + open.len();
        let end = start + xml[start..].find(&close)?;
        let v = xml[start..end].trim();
        let v = v
            .strip_prefix("<![CDATA[")
            .and_then(|v| v.strip_suffix("]]>"))
            .unwrap_or(v);
        Some(v.to_string())
    };
    if field("MsgType")? != "event" {
        return None;
    }
    let key = field("EventKey").unwrap_or_default();
    let scene = match field("Event")?.as_str() {
        "subscribe" => key.strip_prefix("qrscene_")?.to_string(),
        "SCAN" => key,
        _ => return None,
    };
    let openid = field("FromUserName")?;
    (!scene.is_empty() && !openid.is_empty()).then_some((openid, scene))
}
