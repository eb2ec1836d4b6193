//! `/wechat.MerchantWechat/*` (the merchant's WeChat official account for new-lead notices) and
//! `/msg.wxgzh/*` (staff openids, the notices' delivery log).

use crate::LangOf;
use crate::error::{Answer, Done, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
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
}

#[utoipa::path(get, path = "/wechat.MerchantWechat/info", tag = "engagement", responses((status = 200, body = Reply<WxConfigView>)))]
pub async fn info(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
) -> Answer<WxConfigView> {
    let cfg = uc::config(&st.db, c.merchant_id()?).await?;
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
        sandbox: st.hub.sandbox,
        sandbox_secret: uc::sandbox_secret(&st.hub),
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
    uc::save_config(
        &st.hub,
        c.merchant_id()?,
        &r.app_id,
        &r.app_secret,
        &r.template_id,
        r.enabled,
    )
    .await?;
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
