//! `/wechat.MerchantWechat/*` (the merchant's WeChat official account for new-lead notices) and
//! `/msg.wxgzh/*` (staff openids, the notices' delivery log).

use crate::LangOf;
use crate::error::{Answer, Done, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::engagement::WxBindState;
use domain::i18n::localize_reason;
use serde::{Deserialize, Serialize};
use services::engagement::notify as uc;
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct WxConfigView {
    /// An official account is saved and switched on: notices go out through it.
    pub configured: bool,
    pub enabled: bool,
    pub app_id: String,
    /// Whether a secret is stored (it is never returned).
    pub secret_set: bool,
    pub template_id: String,
    /// Why notices do not go through WeChat, in the caller's language ('' when they do).
    pub reason: String,
    /// The platforms are simulated: the sandbox's official account answers (docs/api-engagement.md).
    pub sandbox: bool,
    /// That account's AppSecret (this install's own; '' when the platforms are real).
    pub sandbox_secret: String,
    /// Whether the server Token of the account's "服务器配置" is stored (it is never returned).
    pub server_token_set: bool,
    /// The server URL to enter in the account's "服务器配置" (plaintext mode): WeChat pushes the
    /// scans of binding QR codes there.
    pub callback_url: String,
    /// The sandbox account's server Token ('' when the platforms are real).
    pub sandbox_server_token: String,
}

#[utoipa::path(get, path = "/wechat.MerchantWechat/info", tag = "engagement", responses((status = 200, body = Reply<WxConfigView>)))]
pub async fn info(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
) -> Answer<WxConfigView> {
    let mid = c.merchant_id()?;
    let cfg = uc::config(&st.db, mid).await?;
    let why = uc::blocked(cfg.as_ref());
    Ok(reply(WxConfigView {
        configured: why.is_none(),
        enabled: cfg.as_ref().is_some_and(|c| c.enabled == 1),
        app_id: cfg.as_ref().map(|c| c.app_id.clone()).unwrap_or_default(),
        secret_set: cfg.as_ref().is_some_and(|c| !c.app_secret.is_empty()),
        template_id: cfg
            .as_ref()
            .map(|c| c.template_id.clone())
            .unwrap_or_default(),
        reason: why.map(|m| m.render(lang, &[])).unwrap_or_default(),
        sandbox: uc::simulated(&st.hub).await,
        sandbox_secret: uc::sandbox_secret(&st.hub).await,
        server_token_set: cfg.as_ref().is_some_and(|c| !c.server_token.is_empty()),
        callback_url: format!(
            "{}/api/msg.wxgzh/callback?merchant={mid}",
            st.settings.public_url.trim_end_matches('/')
        ),
        sandbox_server_token: uc::sandbox_server_token(&st.hub).await,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WxConfigReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 64)]
    pub app_id: String,
    /// Empty: keep the stored one.
    #[serde(default)]
    #[schema(max_length = 128)]
    pub app_secret: String,
    /// The template of the "new lead" notice (keyword1 customer, keyword2 content, keyword3 source,
    /// keyword4 time).
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 128)]
    pub template_id: String,
    /// The server Token of the account's "服务器配置" (3–32 letters and digits), for binding staff
    /// by QR code. Empty: keep the stored one.
    #[serde(default)]
    #[schema(max_length = 32)]
    pub server_token: String,
    #[serde(default = "yes")]
    pub enabled: bool,
}

fn yes() -> bool {
    true
}

#[utoipa::path(post, path = "/wechat.MerchantWechat/save", tag = "engagement", request_body = WxConfigReq, responses((status = 200, body = Reply<Done>)))]
pub async fn save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<WxConfigReq>,
) -> Answer<Done> {
    let input = uc::WxConfigInput {
        app_id: &r.app_id,
        app_secret: &r.app_secret,
        template_id: &r.template_id,
        server_token: &r.server_token,
        enabled: r.enabled,
    };
    uc::save_config(&st.hub, c.merchant_id()?, &input).await?;
    Ok(reply(Done::default()))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct WxStaffView {
    pub id: i64,
    pub nickname: String,
    /// '' when not bound.
    pub openid: String,
}

#[utoipa::path(get, path = "/msg.wxgzh/staff", tag = "engagement", responses((status = 200, body = Reply<Vec<WxStaffView>>)))]
pub async fn staff(State(st): State<AppState>, c: Caller) -> Answer<Vec<WxStaffView>> {
    let rows = uc::staff(&st.db, c.merchant_id()?).await?;
    Ok(reply(
        rows.into_iter()
            .map(|(id, nickname, openid)| WxStaffView {
                id,
                nickname,
                openid,
            })
            .collect(),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WxBindReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub user_id: i64,
    /// Empty: unbind.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub openid: String,
}

#[utoipa::path(post, path = "/msg.wxgzh/bind", tag = "engagement", request_body = WxBindReq, responses((status = 200, body = Reply<Done>)))]
pub async fn bind(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<WxBindReq>,
) -> Answer<Done> {
    uc::bind(&st.db, c.merchant_id()?, r.user_id, &r.openid).await?;
    Ok(reply(Done::default()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct WxBindQrReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub user_id: i64,
}

/// A QR code of the official account that binds one staff member when they scan it.
#[derive(Debug, Serialize, ToSchema)]
pub struct WxBindQrView {
    /// What the console polls with (`/msg.wxgzh/bind_state`).
    pub scene: String,
    /// The text the QR code carries (WeChat's own QR URL).
    pub url: String,
    pub user_id: i64,
    pub expires_at: i64,
    pub state: WxBindState,
    /// The openid that scanned it ('' until then).
    pub openid: String,
}

fn bind_view(c: services::engagement::notify::WxBindCode, now: i64) -> WxBindQrView {
    let state = if !c.openid.is_empty() {
        WxBindState::Bound
    } else if c.expires_at <= now {
        WxBindState::Expired
    } else {
        WxBindState::Pending
    };
    WxBindQrView {
        scene: c.scene,
        url: c.url,
        user_id: c.user_id,
        expires_at: c.expires_at,
        state,
        openid: c.openid,
    }
}

#[utoipa::path(post, path = "/msg.wxgzh/bind_qr", tag = "engagement", request_body = WxBindQrReq, responses((status = 200, body = Reply<WxBindQrView>)))]
pub async fn bind_qr(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<WxBindQrReq>,
) -> Answer<WxBindQrView> {
    let code = uc::start_bind(&st.hub, c.merchant_id()?, r.user_id).await?;
    Ok(reply(bind_view(code, st.db.clock.platform_now())))
}

#[derive(Debug, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct WxBindStateQuery {
    #[serde(default)]
    #[param(required = true, max_length = 64)]
    pub scene: String,
}

#[utoipa::path(get, path = "/msg.wxgzh/bind_state", tag = "engagement", params(WxBindStateQuery), responses((status = 200, body = Reply<WxBindQrView>)))]
pub async fn bind_state(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<WxBindStateQuery>,
) -> Answer<WxBindQrView> {
    let code = uc::bind_code(&st.db, c.merchant_id()?, &q.scene).await?;
    Ok(reply(bind_view(code, st.db.clock.platform_now())))
}

/// WeChat checks the server URL: `echostr` back when signed with the merchant's server Token.
#[utoipa::path(get, path = "/msg.wxgzh/callback", tag = "engagement", params(
    ("signature" = String, Query), ("timestamp" = String, Query), ("nonce" = String, Query),
    ("echostr" = String, Query), ("merchant" = i64, Query)),
    responses((status = 200, body = String, content_type = "text/plain"), (status = 403)))]
pub async fn callback_check(
    State(st): State<AppState>,
    axum::extract::Query(p): axum::extract::Query<uc::Push>,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match uc::verify_url(&st.hub, &p).await {
        Ok(Ok(echo)) => echo.into_response(),
        Ok(Err(_)) => (axum::http::StatusCode::FORBIDDEN, "bad signature").into_response(),
        Err(e) => crate::error::HttpError(e).into_response(),
    }
}

/// WeChat pushes an event (plaintext mode XML): a scan of a binding QR code binds the scanner.
/// Answers "success" (WeChat retries anything else).
#[utoipa::path(post, path = "/msg.wxgzh/callback", tag = "engagement", params(
    ("signature" = String, Query), ("timestamp" = String, Query), ("nonce" = String, Query),
    ("merchant" = Option<i64>, Query)),
    request_body(content = String, content_type = "text/xml"),
    responses((status = 200, body = String, content_type = "text/plain"), (status = 403)))]
pub async fn callback(
    State(st): State<AppState>,
    axum::extract::Query(p): axum::extract::Query<uc::Push>,
    body: String,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match uc::callback(&st.hub, &p, &body).await {
        Ok(Ok(bound)) => {
            let mut res = "success".into_response();
            // The operation log names whom the scan bound.
            if let Some((mid, uid)) = bound {
                res.extensions_mut().insert(crate::guard::LogSubject {
                    merchant_id: Some(mid),
                    user_id: Some(uid),
                    username: "wechat".into(),
                });
            }
            res
        }
        Ok(Err(_)) => (axum::http::StatusCode::FORBIDDEN, "bad signature").into_response(),
        Err(e) => crate::error::HttpError(e).into_response(),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NoticeView {
    pub id: i64,
    pub lead_id: i64,
    pub user_id: i64,
    /// The lead's customer and content.
    pub name: String,
    pub content: String,
    pub platform: domain::platform::Platform,
    pub source: String,
    /// pending | sent | failed | off.
    pub wx_state: String,
    /// Why it failed or was not sent, in the caller's language.
    pub wx_reason: String,
    pub created_at: i64,
}

pub(crate) fn notice_view(n: uc::NoticeRow, lang: domain::i18n::Lang) -> NoticeView {
    NoticeView {
        id: n.id,
        lead_id: n.lead_id,
        user_id: n.user_id,
        name: n.name,
        content: n.content,
        platform: n.platform,
        source: n.source,
        wx_state: n.wx_state,
        wx_reason: localize_reason(&n.wx_reason, lang),
        created_at: n.created_at,
    }
}

#[utoipa::path(get, path = "/msg.wxgzh/log", tag = "engagement", responses((status = 200, body = Reply<Vec<NoticeView>>)))]
pub async fn log(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
) -> Answer<Vec<NoticeView>> {
    let rows = uc::notices(&st.db, c.merchant_id()?, 100).await?;
    Ok(reply(
        rows.into_iter().map(|n| notice_view(n, lang)).collect(),
    ))
}
