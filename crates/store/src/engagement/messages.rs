//! Private messages and new-lead notifications (migration 0020): conversations and threads over
//! `eng_messages`, quick replies, the merchant's WeChat official account, staff openids, and the
//! notices of new leads (one per lead and assignee). Every merchant-facing query takes the merchant id.

use crate::Db;

// ---- conversations ----

/// A conversation: its newest message and how many it holds.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ConversationRow {
    pub account_id: i64,
    pub account_name: String,
    pub conversation_id: String,
    pub customer_id: String,
    pub customer_name: String,
    pub last_text: String,
    pub last_direction: String,
    pub last_at: i64,
    pub messages: i64,
}

/// The merchant's conversations (one account's, when given), newest message first, and their count.
/// "Newest" is by the message's time: webhooks and syncs can deliver an older message after a newer one.
/// Platforms stamp messages to the second and ours are stamped to the millisecond, so messages of the
/// same second keep the order they arrived in.
pub async fn conversations(
    db: &Db,
    mid: i64,
    account_id: i64,
    page: i64,
    limit: i64,
) -> sqlx::Result<(Vec<ConversationRow>, i64)> {
    // account_id 0 = every account; the same filter in both queries.
    let filter = "merchant_id = $1 AND ($2 = 0 OR account_id = $2)";
    let rows = sqlx::query_as(crate::sqlf!(
        "SELECT m.account_id, COALESCE(a.nickname, '') AS account_name, m.conversation_id, m.customer_id, \
         m.customer_name, m.text AS last_text, m.direction AS last_direction, m.created_at AS last_at, m.n AS messages \
         FROM (SELECT id, account_id, conversation_id, customer_id, text, direction, created_at, \
               ROW_NUMBER() OVER (PARTITION BY account_id, conversation_id ORDER BY created_at / 1000 DESC, id DESC) AS nth, \
               COUNT(*) OVER (PARTITION BY account_id, conversation_id) AS n, \
               MAX(customer_name) OVER (PARTITION BY account_id, conversation_id) AS customer_name \
               FROM eng_messages WHERE {filter}) m \
         LEFT JOIN matrix_accounts a ON a.id = m.account_id \
         WHERE m.nth = 1 \
         ORDER BY m.created_at / 1000 DESC, m.id DESC LIMIT $3 OFFSET $4"
    ))
    .bind(mid)
    .bind(account_id)
    .bind(limit)
    .bind((page - 1).max(0) * limit)
    .fetch_all(&db.pool)
    .await?;
    let total: i64 = sqlx::query_scalar(crate::sqlf!(
        "SELECT COUNT(*) FROM (SELECT DISTINCT account_id, conversation_id FROM eng_messages WHERE {filter}) t"
    ))
    .bind(mid)
    .bind(account_id)
    .fetch_one(&db.pool)
    .await?;
    Ok((rows, total))
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MessageRow {
    pub id: i64,
    pub account_id: i64,
    pub conversation_id: String,
    pub customer_id: String,
    pub customer_name: String,
    pub direction: String,
    pub text: String,
    pub auto: i64,
    pub created_at: i64,
}

/// One conversation's messages, oldest first (empty when it is not the merchant's).
pub async fn thread(
    db: &Db,
    mid: i64,
    account_id: i64,
    conversation_id: &str,
) -> sqlx::Result<Vec<MessageRow>> {
    sqlx::query_as(
        "SELECT id, account_id, conversation_id, customer_id, customer_name, direction, text, auto, created_at \
         FROM eng_messages WHERE merchant_id = $1 AND account_id = $2 AND conversation_id = $3 ORDER BY created_at / 1000, id",
    )
    .bind(mid)
    .bind(account_id)
    .bind(conversation_id)
    .fetch_all(&db.pool)
    .await
}

/// Keeps the customer's nickname on a received message (the webhook names it).
pub async fn set_customer_name(db: &Db, id: i64, name: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE eng_messages SET customer_name = $1 WHERE id = $2")
        .bind(name)
        .bind(id)
        .execute(&db.pool)
        .await
        .map(|_| ())
}

/// A merchant's accounts with what private messages need: (id, platform, nickname, account type,
/// consented scope, revoked, authorization expiry).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MessageAccount {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub nickname: String,
    pub account_type: String,
    pub scope: String,
    pub revoked: i64,
    pub auth_expires_at: i64,
}

pub async fn message_accounts(db: &Db, mid: i64) -> sqlx::Result<Vec<MessageAccount>> {
    sqlx::query_as(
        "SELECT id, platform, nickname, account_type, scope, revoked, auth_expires_at FROM matrix_accounts \
         WHERE merchant_id = $1 ORDER BY id",
    )
    .bind(mid)
    .fetch_all(&db.pool)
    .await
}

// ---- quick replies ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct QuickReplyRow {
    pub id: i64,
    pub text: String,
    pub sort: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

pub async fn quick_replies(db: &Db, mid: i64) -> sqlx::Result<Vec<QuickReplyRow>> {
    sqlx::query_as(
        "SELECT id, text, sort, created_at, updated_at FROM eng_quick_replies WHERE merchant_id = $1 \
         ORDER BY sort, id",
    )
    .bind(mid)
    .fetch_all(&db.pool)
    .await
}

pub async fn quick_reply_count(db: &Db, mid: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT COUNT(*) FROM eng_quick_replies WHERE merchant_id = $1")
        .bind(mid)
        .fetch_one(&db.pool)
        .await
}

pub async fn add_quick_reply(
    db: &Db,
    mid: i64,
    text: &str,
    sort: i64,
    now: i64,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO eng_quick_replies (merchant_id, text, sort, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) \
         RETURNING id",
    )
    .bind(mid)
    .bind(text)
    .bind(sort)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn edit_quick_reply(
    db: &Db,
    mid: i64,
    id: i64,
    text: &str,
    sort: i64,
    now: i64,
) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE eng_quick_replies SET text = $1, sort = $2, updated_at = $3 WHERE id = $4 AND merchant_id = $5",
    )
    .bind(text)
    .bind(sort)
    .bind(now)
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?;
    Ok(r.rows_affected() > 0)
}

pub async fn delete_quick_reply(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let r = sqlx::query("DELETE FROM eng_quick_replies WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&db.pool)
        .await?;
    Ok(r.rows_affected() > 0)
}

// ---- WeChat official account ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WxConfigRow {
    pub app_id: String,
    /// Sealed.
    pub app_secret: String,
    pub template_id: String,
    pub enabled: i64,
    pub updated_at: i64,
    /// The server Token scan events are signed with; sealed, '' when not set.
    pub server_token: String,
}

pub async fn wx_config(db: &Db, mid: i64) -> sqlx::Result<Option<WxConfigRow>> {
    sqlx::query_as(
        "SELECT app_id, app_secret, template_id, enabled, updated_at, server_token FROM wx_configs WHERE merchant_id = $1",
    )
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

pub async fn save_wx_config(db: &Db, mid: i64, c: &WxConfigRow) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO wx_configs (merchant_id, app_id, app_secret, template_id, enabled, updated_at, server_token) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (merchant_id) DO UPDATE SET app_id = $2, app_secret = $3, \
         template_id = $4, enabled = $5, updated_at = $6, server_token = $7",
    )
    .bind(mid)
    .bind(&c.app_id)
    .bind(&c.app_secret)
    .bind(&c.template_id)
    .bind(c.enabled)
    .bind(c.updated_at)
    .bind(&c.server_token)
    .execute(&db.pool)
    .await
    .map(|_| ())
}

/// The openid bound to one user.
pub async fn wx_openid(db: &Db, mid: i64, user_id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT openid FROM wx_bindings WHERE merchant_id = $1 AND user_id = $2")
        .bind(mid)
        .bind(user_id)
        .fetch_optional(&db.pool)
        .await
}

/// Every openid bound under the merchant: user id -> openid.
pub async fn wx_bindings(db: &Db, mid: i64) -> sqlx::Result<Vec<(i64, String)>> {
    sqlx::query_as(
        "SELECT user_id, openid FROM wx_bindings WHERE merchant_id = $1 ORDER BY user_id",
    )
    .bind(mid)
    .fetch_all(&db.pool)
    .await
}

/// Binds (or with an empty openid, unbinds) a user's openid.
pub async fn bind_wx(db: &Db, mid: i64, user_id: i64, openid: &str, now: i64) -> sqlx::Result<()> {
    if openid.is_empty() {
        sqlx::query("DELETE FROM wx_bindings WHERE merchant_id = $1 AND user_id = $2")
            .bind(mid)
            .bind(user_id)
            .execute(&db.pool)
            .await?;
        return Ok(());
    }
    sqlx::query(
        "INSERT INTO wx_bindings (user_id, merchant_id, openid, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (user_id) DO UPDATE SET openid = $3, created_at = $4",
    )
    .bind(user_id)
    .bind(mid)
    .bind(openid)
    .bind(now)
    .execute(&db.pool)
    .await
    .map(|_| ())
}

// ---- binding by QR code ----

/// A QR code shown to bind a staff member ('' openid: not scanned yet).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WxBindCode {
    pub scene: String,
    pub merchant_id: i64,
    pub user_id: i64,
    pub url: String,
    pub expires_at: i64,
    pub openid: String,
    pub bound_at: i64,
}

pub async fn add_bind_code(db: &Db, c: &WxBindCode, now: i64) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO wx_bind_codes (scene, merchant_id, user_id, url, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&c.scene)
    .bind(c.merchant_id)
    .bind(c.user_id)
    .bind(&c.url)
    .bind(c.expires_at)
    .bind(now)
    .execute(&db.pool)
    .await
    .map(|_| ())
}

/// A QR code by its scene (any merchant's: the scene is what WeChat pushes back).
pub async fn bind_code(db: &Db, scene: &str) -> sqlx::Result<Option<WxBindCode>> {
    sqlx::query_as(
        "SELECT scene, merchant_id, user_id, url, expires_at, openid, bound_at FROM wx_bind_codes WHERE scene = $1",
    )
    .bind(scene)
    .fetch_optional(&db.pool)
    .await
}

/// Binds the code's staff member to `openid`, once, while the code lives: false when it was used
/// or expired. The code and the binding change together.
pub async fn use_bind_code(db: &Db, c: &WxBindCode, openid: &str, now: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let used = sqlx::query(
        "UPDATE wx_bind_codes SET openid = $1, bound_at = $2 WHERE scene = $3 AND openid = '' AND expires_at > $2",
    )
    .bind(openid)
    .bind(now)
    .bind(&c.scene)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if used {
        sqlx::query(
            "INSERT INTO wx_bindings (user_id, merchant_id, openid, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (user_id) DO UPDATE SET openid = $3, created_at = $4",
        )
        .bind(c.user_id)
        .bind(c.merchant_id)
        .bind(openid)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(used)
}

// ---- notices ----

/// Records that a new lead is to be told to its assignee; `None` when it was already.
pub async fn add_notice(
    db: &Db,
    mid: i64,
    user_id: i64,
    lead_id: i64,
    now: i64,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "INSERT INTO eng_notices (merchant_id, user_id, lead_id, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (lead_id, user_id) DO NOTHING RETURNING id",
    )
    .bind(mid)
    .bind(user_id)
    .bind(lead_id)
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Claims a pending notice for one run's send at `now`: false when it is settled, or when another run
/// claimed it less than `NOTICE_CLAIM_MS` ago (it is sending it now).
pub async fn claim_notice(db: &Db, id: i64, now: i64) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE eng_notices SET wx_claimed_at = $1 WHERE id = $2 AND wx_state = 'pending' AND wx_claimed_at <= $3",
    )
    .bind(now)
    .bind(id)
    .bind(now - domain::engagement::NOTICE_CLAIM_MS)
    .execute(&db.pool)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// Settles a notice's WeChat delivery (`pending` only, so it is settled once).
pub async fn settle_notice(
    db: &Db,
    id: i64,
    state: &str,
    reason: &str,
    msgid: &str,
) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE eng_notices SET wx_state = $1, wx_reason = $2, wx_msgid = $3 WHERE id = $4 AND wx_state = 'pending'",
    )
    .bind(state)
    .bind(reason)
    .bind(msgid)
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(r.rows_affected() > 0)
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct NoticeRow {
    pub id: i64,
    pub lead_id: i64,
    pub user_id: i64,
    pub name: String,
    pub content: String,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub source: String,
    pub wx_state: String,
    pub wx_reason: String,
    pub created_at: i64,
}

const NOTICE_COLS: &str = "n.id, n.lead_id, n.user_id, l.name, l.content, l.platform, l.source, n.wx_state, \
     n.wx_reason, n.created_at";

/// A user's notices after `since` (by id), oldest first: what the console's event stream sends.
pub async fn notices_since(db: &Db, user_id: i64, since: i64) -> sqlx::Result<Vec<NoticeRow>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {NOTICE_COLS} FROM eng_notices n JOIN eng_leads l ON l.id = n.lead_id \
         WHERE n.user_id = $1 AND n.id > $2 ORDER BY n.id LIMIT 50"
    ))
    .bind(user_id)
    .bind(since)
    .fetch_all(&db.pool)
    .await
}

/// The merchant's newest notices (the WeChat page's delivery log).
pub async fn notices(db: &Db, mid: i64, limit: i64) -> sqlx::Result<Vec<NoticeRow>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {NOTICE_COLS} FROM eng_notices n JOIN eng_leads l ON l.id = n.lead_id \
         WHERE n.merchant_id = $1 ORDER BY n.id DESC LIMIT $2"
    ))
    .bind(mid)
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

/// The newest notice id of a user (an event stream starts after it).
pub async fn last_notice_id(db: &Db, user_id: i64) -> sqlx::Result<i64> {
    let id: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM eng_notices WHERE user_id = $1")
        .bind(user_id)
        .fetch_one(&db.pool)
        .await?;
    Ok(id.unwrap_or(0))
}

/// One notice: (merchant, user, lead, WeChat state).
pub async fn notice(db: &Db, id: i64) -> sqlx::Result<Option<(i64, i64, i64, String)>> {
    sqlx::query_as("SELECT merchant_id, user_id, lead_id, wx_state FROM eng_notices WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}
