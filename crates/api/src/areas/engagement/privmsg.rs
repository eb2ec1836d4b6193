//! `/msg.merchant_private_msg/*`: the private-message workbench (conversations, thread, send, quick
//! replies) and which accounts may message.

use super::comments::platform_name;
use crate::LangOf;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::engagement::privmsg as uc;
use uc::{ConversationRow, MessageRow, QuickReplyRow};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct ConversationView {
    pub account_id: i64,
    pub account_name: String,
    pub conversation_id: String,
    pub customer_id: String,
    pub customer_name: String,
    /// The newest message: its text, `in` (the customer's) or `out` (ours), platform ms.
    pub last_text: String,
    pub last_direction: String,
    pub last_at: i64,
    pub messages: i64,
}

fn conversation(r: ConversationRow) -> ConversationView {
    ConversationView {
        account_id: r.account_id,
        account_name: r.account_name,
        conversation_id: r.conversation_id,
        customer_id: r.customer_id,
        customer_name: r.customer_name,
        last_text: r.last_text,
        last_direction: r.last_direction,
        last_at: r.last_at,
        messages: r.messages,
    }
}

#[derive(Debug, Deserialize)]
pub struct ConversationQuery {
    #[serde(default)]
    pub account_id: i64,
    pub page: Option<i64>,
    pub limit: Option<i64>,
}

#[utoipa::path(method(get, post), path = "/msg.merchant_private_msg/index", tag = "engagement", params(("account_id" = Option<i64>, Query, description = "one account; 0 or none: every account"), ("page" = Option<i64>, Query), ("limit" = Option<i64>, Query)), responses((status = 200, body = Reply<Page<ConversationView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<ConversationQuery>,
) -> Answer<Page<ConversationView>> {
    let limit = q.limit.unwrap_or(20).clamp(1, 100);
    let (rows, total) = uc::conversations(
        &st.db,
        c.merchant_id()?,
        q.account_id,
        q.page.unwrap_or(1).max(1),
        limit,
    )
    .await?;
    Ok(reply(Page::exact(
        rows.into_iter().map(conversation).collect(),
        total,
    )))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PrivateMessageView {
    pub id: i64,
    /// `in`: the customer's; `out`: the account's.
    pub direction: String,
    pub text: String,
    /// Sent by a first-message keyword rule.
    pub auto: bool,
    pub customer_id: String,
    pub customer_name: String,
    pub created_at: i64,
}

fn message(m: MessageRow) -> PrivateMessageView {
    PrivateMessageView {
        id: m.id,
        direction: m.direction,
        text: m.text,
        auto: m.auto == 1,
        customer_id: m.customer_id,
        customer_name: m.customer_name,
        created_at: m.created_at,
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PrivateThreadReq {
    #[serde(default)]
    pub account_id: i64,
    #[serde(default)]
    pub conversation_id: String,
}

#[utoipa::path(method(get, post), path = "/msg.merchant_private_msg/thread", tag = "engagement", params(("account_id" = i64, Query), ("conversation_id" = String, Query)), responses((status = 200, body = Reply<Vec<PrivateMessageView>>)))]
pub async fn thread(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PrivateThreadReq>,
) -> Answer<Vec<PrivateMessageView>> {
    let rows = uc::thread(&st.hub, c.merchant_id()?, r.account_id, &r.conversation_id).await?;
    Ok(reply(rows.into_iter().map(message).collect()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PrivateSendReq {
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub account_id: i64,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub conversation_id: String,
    /// 1–500 characters; ignored when `quick_reply_id` is given.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub text: String,
    /// Send this saved quick reply instead of `text`.
    #[serde(default)]
    pub quick_reply_id: i64,
}

#[utoipa::path(post, path = "/msg.merchant_private_msg/send", tag = "engagement", request_body = PrivateSendReq, responses((status = 200, body = Reply<Vec<PrivateMessageView>>)))]
pub async fn send(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PrivateSendReq>,
) -> Answer<Vec<PrivateMessageView>> {
    let rows = uc::send(
        &st.hub,
        c.merchant_id()?,
        r.account_id,
        &r.conversation_id,
        &r.text,
        r.quick_reply_id,
    )
    .await?;
    Ok(reply(rows.into_iter().map(message).collect()))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MessageAccountView {
    pub id: i64,
    pub platform: domain::platform::Platform,
    pub nickname: String,
    pub account_type: String,
    /// The scope consented at authorization.
    pub scope: String,
    /// The authorization is gone (revoked or expired): authorize again first.
    pub expired: bool,
    /// Whether it can send private messages.
    pub supported: bool,
    /// Why not, in the caller's language.
    pub reason: String,
}

#[utoipa::path(get, path = "/msg.merchant_private_msg/accounts", tag = "engagement", responses((status = 200, body = Reply<Vec<MessageAccountView>>)))]
pub async fn accounts(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
) -> Answer<Vec<MessageAccountView>> {
    let now = st.db.clock.platform_now();
    let rows = uc::accounts(&st.hub, c.merchant_id()?).await?;
    Ok(reply(
        rows.into_iter()
            .map(|(a, why)| MessageAccountView {
                reason: why
                    .map(|m| {
                        m.render(
                            lang,
                            &[("platform", platform_name(a.platform.as_str(), lang))],
                        )
                    })
                    .unwrap_or_default(),
                supported: why.is_none(),
                expired: a.revoked == 1 || a.auth_expires_at <= now,
                id: a.id,
                platform: a.platform,
                nickname: a.nickname,
                account_type: a.account_type,
                scope: a.scope,
            })
            .collect(),
    ))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QuickReplyView {
    pub id: i64,
    pub text: String,
    pub sort: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

fn quick(rows: Vec<QuickReplyRow>) -> Vec<QuickReplyView> {
    rows.into_iter()
        .map(|q| QuickReplyView {
            id: q.id,
            text: q.text,
            sort: q.sort,
            created_at: q.created_at,
            updated_at: q.updated_at,
        })
        .collect()
}

#[utoipa::path(get, path = "/msg.merchant_private_msg/quick_reply_list", tag = "engagement", responses((status = 200, body = Reply<Vec<QuickReplyView>>)))]
pub async fn quick_reply_list(
    State(st): State<AppState>,
    c: Caller,
) -> Answer<Vec<QuickReplyView>> {
    Ok(reply(quick(
        uc::quick_replies(&st.db, c.merchant_id()?).await?,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct QuickReplyReq {
    /// 0 or none: a new one.
    #[serde(default)]
    pub id: i64,
    /// 1–500 characters.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 500)]
    pub text: String,
    /// 0–9999, smaller first.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 9999)]
    pub sort: i64,
}

#[utoipa::path(post, path = "/msg.merchant_private_msg/quick_reply_save", tag = "engagement", request_body = QuickReplyReq, responses((status = 200, body = Reply<Vec<QuickReplyView>>)))]
pub async fn quick_reply_save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<QuickReplyReq>,
) -> Answer<Vec<QuickReplyView>> {
    Ok(reply(quick(
        uc::save_quick_reply(&st.db, c.merchant_id()?, r.id, &r.text, r.sort).await?,
    )))
}

#[utoipa::path(post, path = "/msg.merchant_private_msg/quick_reply_delete", tag = "engagement", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn quick_reply_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<Done> {
    uc::delete_quick_reply(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done::default()))
}
