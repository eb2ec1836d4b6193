//! The private-message workbench (`/msg.merchant_private_msg/*`): conversations per account (from
//! the kept `im_receive_msg` messages and what we sent), one conversation's thread, sending a text
//! (by hand or a saved quick reply) through DY's `/im/send/msg/`, the quick replies, and which
//! accounts may message (DY grants `im.direct_message` to business accounts only; the other
//! platforms have no message API).

use crate::error::{ApiError, ApiResult};
use crate::platform::{Hub, reason_pair};
use domain::i18n::Msg;
use platforms::Platform;
use store::engagement::messages::{self as db, MessageAccount};
use store::engagement::{self as eng, NewMessage};

/// A conversation, a message, a quick reply.
pub use store::engagement::messages::{ConversationRow, MessageRow, QuickReplyRow};

/// Longest message DY takes (characters).
pub const MESSAGE_MAX: usize = 500;
/// Longest quick reply (it is sent as a message).
pub const QUICK_REPLY_MAX: usize = 500;
/// Quick replies a merchant may keep.
pub const QUICK_REPLIES_MAX: i64 = 100;
/// A quick reply's sort order: 0 ..= this, smaller first.
pub const QUICK_REPLY_SORT_MAX: i64 = 9999;

/// Why an account cannot send private messages; `None` when it can.
pub fn message_block(a: &MessageAccount) -> Option<Msg> {
    if a.platform != Platform::Dy {
        return Some(Msg::NoMessageApi);
    }
    if !a
        .scope
        .split(',')
        .any(|s| s.trim() == platforms::DY_SCOPE_IM)
    {
        return Some(Msg::MessageNoScope);
    }
    None
}

/// The merchant's accounts with whether each may message.
pub async fn accounts(hub: &Hub, mid: i64) -> ApiResult<Vec<(MessageAccount, Option<Msg>)>> {
    Ok(db::message_accounts(&hub.db, mid)
        .await?
        .into_iter()
        .map(|a| {
            let b = message_block(&a);
            (a, b)
        })
        .collect())
}

/// One conversation of the merchant, oldest message first; 404 when it has none.
pub async fn thread(
    hub: &Hub,
    mid: i64,
    account_id: i64,
    conversation_id: &str,
) -> ApiResult<Vec<MessageRow>> {
    let rows = db::thread(&hub.db, mid, account_id, conversation_id).await?;
    if rows.is_empty() {
        return Err(ApiError::NotFound);
    }
    Ok(rows)
}

/// The message text as the merchant wrote it: not blank, at most [`MESSAGE_MAX`] characters.
fn check_text(field: &str, text: &str, max: usize) -> ApiResult<String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(ApiError::invalid(field, Msg::Required));
    }
    if t.chars().count() > max {
        return Err(ApiError::invalid_with(
            field,
            Msg::TooLong,
            vec![("max", max.to_string())],
        ));
    }
    Ok(t.to_string())
}

/// Sends `text` (or the quick reply `quick_reply_id`) in a conversation; the sent message joins the
/// thread. A platform refusal (48-hour window, 5 messages before the customer answers, sensitive
/// word) is a 422 on `text` with the platform's reason.
pub async fn send(
    hub: &Hub,
    mid: i64,
    account_id: i64,
    conversation_id: &str,
    text: &str,
    quick_reply_id: i64,
) -> ApiResult<Vec<MessageRow>> {
    let text = if quick_reply_id > 0 {
        db::quick_replies(&hub.db, mid)
            .await?
            .into_iter()
            .find(|q| q.id == quick_reply_id)
            .map(|q| q.text)
            .ok_or_else(|| ApiError::invalid("quick_reply_id", Msg::NotFound))?
    } else {
        check_text("text", text, MESSAGE_MAX)?
    };
    let rows = thread(hub, mid, account_id, conversation_id).await?;
    let customer = rows
        .iter()
        .find(|m| m.direction == "in")
        .map(|m| m.customer_id.clone())
        .unwrap_or_else(|| rows[0].customer_id.clone());
    let acc = db::message_accounts(&hub.db, mid)
        .await?
        .into_iter()
        .find(|a| a.id == account_id)
        .ok_or(ApiError::NotFound)?;
    if let Some(why) = message_block(&acc) {
        return Err(ApiError::invalid_with(
            "account_id",
            why,
            vec![("platform", acc.platform.to_string())],
        ));
    }
    let a = store::matrix::account(&hub.db, mid, account_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let ad = hub.adapter_for(&a).await?;
    let msg_id = ad
        .send_message(&hub.creds(&a), conversation_id, &customer, &text)
        .await
        .map_err(|e| ApiError::invalid_with("text", Msg::MessageRefused, reason_pair(&e)))?;
    eng::add_message(
        &hub.db,
        &NewMessage {
            merchant_id: mid,
            account_id,
            conversation_id: conversation_id.to_string(),
            customer_id: customer,
            direction: "out".into(),
            text,
            msg_id,
            auto: 0,
            created_at: hub.db.clock.platform_now(),
        },
    )
    .await?;
    thread(hub, mid, account_id, conversation_id).await
}

// ---- quick replies ----

pub async fn quick_replies(d: &store::Db, mid: i64) -> ApiResult<Vec<QuickReplyRow>> {
    Ok(db::quick_replies(d, mid).await?)
}

/// Adds (id 0) or edits a quick reply; answers the list.
pub async fn save_quick_reply(
    d: &store::Db,
    mid: i64,
    id: i64,
    text: &str,
    sort: i64,
) -> ApiResult<Vec<QuickReplyRow>> {
    let text = check_text("text", text, QUICK_REPLY_MAX)?;
    if !(0..=QUICK_REPLY_SORT_MAX).contains(&sort) {
        return Err(ApiError::invalid_with(
            "sort",
            Msg::OutOfRange,
            vec![
                ("min", "0".into()),
                ("max", QUICK_REPLY_SORT_MAX.to_string()),
            ],
        ));
    }
    let now = domain::now_ms();
    if id == 0 {
        if db::quick_reply_count(d, mid).await? >= QUICK_REPLIES_MAX {
            return Err(ApiError::invalid_with(
                "text",
                Msg::OutOfRange,
                vec![("min", "1".into()), ("max", QUICK_REPLIES_MAX.to_string())],
            ));
        }
        db::add_quick_reply(d, mid, &text, sort, now).await?;
    } else if !db::edit_quick_reply(d, mid, id, &text, sort, now).await? {
        return Err(ApiError::NotFound);
    }
    quick_replies(d, mid).await
}

pub async fn delete_quick_reply(d: &store::Db, mid: i64, id: i64) -> ApiResult<()> {
    if !db::delete_quick_reply(d, mid, id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// One page of the merchant's conversations (of one account, or every one when 0), and the total.
pub async fn conversations(
    d: &store::Db,
    mid: i64,
    account_id: i64,
    page: i64,
    limit: i64,
) -> ApiResult<(Vec<ConversationRow>, i64)> {
    Ok(db::conversations(d, mid, account_id, page, limit).await?)
}
