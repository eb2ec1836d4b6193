//! Private messages: DY's `im_receive_msg` pushes are kept (once per message id), a message with
//! purchase intent or contact details makes a lead, and the first message of a conversation gets
//! the matching `message` rule's reply.

use super::leads;
use super::rules::decode;
use crate::platform::Hub;
use platforms::Platform;
use store::engagement::{self as db, NewMessage};

/// DY pushed a customer's message to the account `open_id`.
pub async fn received(
    hub: &Hub,
    from: &str,
    open_id: &str,
    content: &serde_json::Value,
) -> sqlx::Result<()> {
    let text = content["text"].as_str().unwrap_or("").to_string();
    let msg_id = match &content["server_message_id"] {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let conversation = content["conversation_short_id"]
        .as_str()
        .unwrap_or("")
        .to_string();
    if text.is_empty() || msg_id.is_empty() {
        return Ok(());
    }
    let name = content["user_infos"][0]["nick_name"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let at = content["create_time"]
        .as_i64()
        .map_or_else(|| hub.db.clock.platform_now(), |s| s * 1000);
    for (account_id, mid) in db::accounts_by_open_id(&hub.db, Platform::Dy, open_id).await? {
        let row = NewMessage {
            merchant_id: mid,
            account_id,
            conversation_id: conversation.clone(),
            customer_id: from.to_string(),
            direction: "in".into(),
            text: text.clone(),
            msg_id: msg_id.clone(),
            auto: 0,
            created_at: at,
        };
        let Some(id) = db::add_message(&hub.db, &row).await? else {
            continue;
        };
        if !name.is_empty() {
            store::engagement::messages::set_customer_name(&hub.db, id, &name).await?;
        }
        leads::from_message(
            &hub.db,
            mid,
            Platform::Dy,
            account_id,
            from,
            &name,
            &text,
            id,
            at,
        )
        .await?;
        if db::first_in_conversation(&hub.db, account_id, &conversation, id).await? {
            first_reply(hub, mid, account_id, &conversation, from, &text).await?;
        }
    }
    Ok(())
}

/// The first matching `message` rule answers the first message of a conversation.
async fn first_reply(
    hub: &Hub,
    mid: i64,
    account_id: i64,
    conversation: &str,
    to: &str,
    text: &str,
) -> sqlx::Result<()> {
    let rules = db::enabled_rules(&hub.db, mid, "message").await?;
    let Some(rule) = rules
        .into_iter()
        .map(decode)
        .find(|r| r.answers(account_id, "", text))
    else {
        return Ok(());
    };
    let Some(reply) = domain::engagement::pick_reply(&rule.replies, rand::random()).cloned() else {
        return Ok(());
    };
    let Some(a) = store::matrix::account_by_id(&hub.db, account_id).await? else {
        return Ok(());
    };
    let Ok(ad) = hub.adapter_for(&a).await else {
        return Ok(());
    };
    match ad
        .send_message(&hub.creds(&a), conversation, to, &reply)
        .await
    {
        Ok(msg_id) => {
            let row = NewMessage {
                merchant_id: mid,
                account_id,
                conversation_id: conversation.to_string(),
                customer_id: to.to_string(),
                direction: "out".into(),
                text: reply,
                msg_id,
                auto: 1,
                created_at: hub.db.clock.platform_now(),
            };
            db::add_message(&hub.db, &row).await?;
        }
        Err(e) => {
            tracing::warn!(account = account_id, error = %e, "first-message auto-reply refused")
        }
    }
    Ok(())
}
