//! Engagement (`eng_*` tables, migration 0018): comments read from the platforms (one row per
//! account and platform comment id, so a re-read or a webhook delivered twice adds nothing), the
//! read cursor of each work, keyword rules, the reply log, leads (one per customer and merchant)
//! and private messages. Every merchant-facing query takes the merchant id.

pub mod messages;

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};

// ---- accounts ----

/// An authorized account whose comments can be read: id, merchant, platform.
pub async fn comment_accounts(db: &Db, now: i64) -> sqlx::Result<Vec<(i64, i64, String)>> {
    sqlx::query_as(
        "SELECT id, merchant_id, platform FROM matrix_accounts WHERE revoked = 0 AND auth_expires_at > $1 \
         AND platform IN ('dy', 'sph', 'xhs') ORDER BY id",
    )
    .bind(now)
    .fetch_all(&db.pool)
    .await
}

/// The accounts (id, merchant) a platform user id belongs to (a webhook names the open id).
pub async fn accounts_by_open_id(
    db: &Db,
    platform: domain::platform::Platform,
    open_id: &str,
) -> sqlx::Result<Vec<(i64, i64)>> {
    sqlx::query_as(
        "SELECT id, merchant_id FROM matrix_accounts WHERE platform = $1 AND open_id = $2 AND revoked = 0",
    )
    .bind(platform.as_str())
    .bind(open_id)
    .fetch_all(&db.pool)
    .await
}

/// The title of a posted work, from the merchant's release items.
pub async fn item_title(db: &Db, account_id: i64, item_id: &str) -> sqlx::Result<String> {
    let t: Option<String> = sqlx::query_scalar(
        "SELECT title FROM matrix_items WHERE account_id = $1 AND item_id = $2 LIMIT 1",
    )
    .bind(account_id)
    .bind(item_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(t.unwrap_or_default())
}

// ---- comments ----

#[derive(Debug, Clone)]
pub struct NewComment {
    pub merchant_id: i64,
    pub account_id: i64,
    pub platform: domain::platform::Platform,
    pub item_id: String,
    pub item_title: String,
    pub comment_id: String,
    pub user_id: String,
    pub content: String,
    /// Platform clock, ms.
    pub created_at: i64,
    pub intent: String,
}

/// Adds the comments not seen before and, when they were read from the list (`advance`), moves each
/// work's cursor to the newest time seen, in one transaction. A pushed comment leaves the cursor: an
/// older one not yet read must still be found by the next sync. Answers the new rows' ids.
pub async fn add_comments(
    db: &Db,
    rows: &[NewComment],
    advance: bool,
    now: i64,
) -> sqlx::Result<Vec<i64>> {
    let mut tx = db.begin().await?;
    let mut ids = vec![];
    let mut newest: std::collections::BTreeMap<(i64, &str), i64> = Default::default();
    for c in rows {
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO eng_comments (merchant_id, account_id, platform, item_id, item_title, comment_id, user_id, \
             content, created_at, intent, synced_at, lead_checked) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0) \
             ON CONFLICT (account_id, comment_id) DO NOTHING RETURNING id",
        )
        .bind(c.merchant_id)
        .bind(c.account_id)
        .bind(c.platform.as_str())
        .bind(&c.item_id)
        .bind(&c.item_title)
        .bind(&c.comment_id)
        .bind(&c.user_id)
        .bind(&c.content)
        .bind(c.created_at)
        .bind(&c.intent)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        ids.extend(id);
        if !advance {
            continue;
        }
        let e = newest
            .entry((c.account_id, c.item_id.as_str()))
            .or_default();
        *e = (*e).max(c.created_at);
    }
    for ((account, item), at) in newest {
        sqlx::query(
            "INSERT INTO eng_cursors (account_id, item_id, newest_at, updated_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (account_id, item_id) DO UPDATE SET updated_at = excluded.updated_at, \
             newest_at = CASE WHEN excluded.newest_at > eng_cursors.newest_at THEN excluded.newest_at ELSE eng_cursors.newest_at END",
        )
        .bind(account)
        .bind(item)
        .bind(at)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(ids)
}

/// The account's comments not yet checked for a lead ([`lead_checked`]), oldest first: the ones just
/// stored, and any a worker stored before it was killed.
pub async fn lead_unchecked(db: &Db, mid: i64, account_id: i64) -> sqlx::Result<Vec<CommentRow>> {
    sqlx::query_as(crate::sqlf!(
        "{COMMENT_SELECT} WHERE c.merchant_id = $1 AND c.account_id = $2 AND c.lead_checked = 0 ORDER BY c.id"
    ))
    .bind(mid)
    .bind(account_id)
    .fetch_all(&db.pool)
    .await
}

/// The comment `id` was checked for a lead (and made one if it was one).
pub async fn lead_checked(db: &Db, id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE eng_comments SET lead_checked = 1 WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The newest comment time (ms) already read under a work; 0 before the first read.
pub async fn cursor(db: &Db, account_id: i64, item_id: &str) -> sqlx::Result<i64> {
    let v: Option<i64> = sqlx::query_scalar(
        "SELECT newest_at FROM eng_cursors WHERE account_id = $1 AND item_id = $2",
    )
    .bind(account_id)
    .bind(item_id)
    .fetch_optional(&db.pool)
    .await?;
    Ok(v.unwrap_or(0))
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CommentRow {
    pub id: i64,
    pub merchant_id: i64,
    pub account_id: i64,
    pub account_name: Option<String>,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub item_id: String,
    pub item_title: String,
    pub comment_id: String,
    pub user_id: String,
    pub content: String,
    pub created_at: i64,
    pub intent: String,
    #[sqlx(try_from = "String")]
    pub status: domain::engagement::CommentStatus,
    pub replied: i64,
    pub reply_text: String,
    pub replied_at: i64,
    pub auto_state: String,
}

const COMMENT_SELECT: &str = "SELECT c.id, c.merchant_id, c.account_id, a.nickname AS account_name, c.platform, c.item_id, \
    c.item_title, c.comment_id, c.user_id, c.content, c.created_at, c.intent, c.status, c.replied, c.reply_text, \
    c.replied_at, c.auto_state FROM eng_comments c LEFT JOIN matrix_accounts a ON a.id = c.account_id";

pub static COMMENT_LIST: Entity = Entity {
    fields: &[
        field("platform", "c.platform", FieldType::Select),
        field("account_id", "c.account_id", FieldType::Int),
        field("item_id", "c.item_id", FieldType::Text),
        field("item_title", "c.item_title", FieldType::Text),
        field("content", "c.content", FieldType::Text),
        field("created_at", "c.created_at", FieldType::Date),
        field("replied", "c.replied", FieldType::Switch),
        field("intent", "c.intent", FieldType::Select),
        field("status", "c.status", FieldType::Select),
    ],
    default_order: "c.created_at DESC, c.id DESC",
    tiebreak: "c.id",
};

pub async fn comments(
    db: &Db,
    mid: i64,
    q: &ListQuery,
) -> Result<(Vec<CommentRow>, Total), PageError> {
    crate::list::page_of(
        db,
        COMMENT_SELECT,
        "c.merchant_id = $1",
        mid,
        &COMMENT_LIST,
        q,
    )
    .await
}

pub async fn comment(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<CommentRow>> {
    sqlx::query_as(crate::sqlf!(
        "{COMMENT_SELECT} WHERE c.id = $1 AND c.merchant_id = $2"
    ))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

pub async fn comment_by_platform_id(
    db: &Db,
    account_id: i64,
    comment_id: &str,
) -> sqlx::Result<Option<CommentRow>> {
    sqlx::query_as(crate::sqlf!(
        "{COMMENT_SELECT} WHERE c.account_id = $1 AND c.comment_id = $2"
    ))
    .bind(account_id)
    .bind(comment_id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn set_comment_status(db: &Db, mid: i64, id: i64, status: &str) -> sqlx::Result<bool> {
    let n = sqlx::query("UPDATE eng_comments SET status = $1 WHERE id = $2 AND merchant_id = $3")
        .bind(status)
        .bind(id)
        .bind(mid)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

/// The comments of an account still waiting for the auto-reply, oldest first.
pub async fn pending_auto(db: &Db, account_id: i64, limit: i64) -> sqlx::Result<Vec<CommentRow>> {
    sqlx::query_as(crate::sqlf!(
        "{COMMENT_SELECT} WHERE c.account_id = $1 AND c.auto_state = 'pending' ORDER BY c.created_at, c.id LIMIT $2"
    ))
    .bind(account_id)
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

/// Moves a comment's auto-reply state `from` -> `to`; false when another worker moved it first.
/// `pending -> claimed` before the platform call makes each comment answered at most once, ever.
pub async fn move_auto(db: &Db, id: i64, from: &str, to: &str) -> sqlx::Result<bool> {
    let n =
        sqlx::query("UPDATE eng_comments SET auto_state = $1 WHERE id = $2 AND auto_state = $3")
            .bind(to)
            .bind(id)
            .bind(from)
            .execute(&db.pool)
            .await?
            .rows_affected();
    Ok(n > 0)
}

#[derive(Debug, Clone)]
pub struct NewReply<'a> {
    pub merchant_id: i64,
    pub account_id: i64,
    pub comment_row_id: i64,
    pub rule_id: i64,
    pub origin: &'a str,
    pub content: &'a str,
    pub result: &'a str,
    pub error_code: &'a str,
    pub error_args: &'a str,
    pub platform_reply_id: &'a str,
    pub created_at: i64,
    pub day: i64,
}

/// Logs a reply; a sent one also marks the comment replied (one transaction).
pub async fn log_reply(db: &Db, r: &NewReply<'_>) -> sqlx::Result<i64> {
    let mut tx = db.begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO eng_replies (merchant_id, account_id, comment_row_id, rule_id, origin, content, result, error_code, \
         error_args, platform_reply_id, created_at, day) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(r.merchant_id)
    .bind(r.account_id)
    .bind(r.comment_row_id)
    .bind(r.rule_id)
    .bind(r.origin)
    .bind(r.content)
    .bind(r.result)
    .bind(r.error_code)
    .bind(r.error_args)
    .bind(r.platform_reply_id)
    .bind(r.created_at)
    .bind(r.day)
    .fetch_one(&mut *tx)
    .await?;
    if r.result == "sent" {
        sqlx::query(
            "UPDATE eng_comments SET replied = 1, reply_text = $1, replied_at = $2 WHERE id = $3",
        )
        .bind(r.content)
        .bind(r.created_at)
        .bind(r.comment_row_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(id)
}

/// An account's automatic replies sent on a China day, and the time of its latest one.
pub async fn auto_sent(db: &Db, account_id: i64, day: i64) -> sqlx::Result<(i64, Option<i64>)> {
    let (n, last): (i64, Option<i64>) = sqlx::query_as(
        "SELECT COUNT(*), MAX(created_at) FROM eng_replies WHERE account_id = $1 AND day = $2 \
         AND origin = 'auto' AND result = 'sent'",
    )
    .bind(account_id)
    .bind(day)
    .fetch_one(&db.pool)
    .await?;
    Ok((n, last))
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReplyRow {
    pub id: i64,
    pub account_id: i64,
    pub account_name: Option<String>,
    pub comment_row_id: i64,
    pub comment: Option<String>,
    pub rule_id: i64,
    pub rule_name: Option<String>,
    pub origin: String,
    pub content: String,
    pub result: String,
    pub error_code: String,
    pub error_args: String,
    pub created_at: i64,
}

pub static REPLY_LIST: Entity = Entity {
    fields: &[
        field("origin", "r.origin", FieldType::Select),
        field("result", "r.result", FieldType::Select),
        field("rule_id", "r.rule_id", FieldType::Int),
        field("account_id", "r.account_id", FieldType::Int),
        field("content", "r.content", FieldType::Text),
        field("created_at", "r.created_at", FieldType::Date),
    ],
    default_order: "r.id DESC",
    tiebreak: "r.id",
};

pub async fn replies(
    db: &Db,
    mid: i64,
    q: &ListQuery,
) -> Result<(Vec<ReplyRow>, Total), PageError> {
    crate::list::page_of(
        db,
        "SELECT r.id, r.account_id, a.nickname AS account_name, r.comment_row_id, c.content AS comment, r.rule_id, \
         k.name AS rule_name, r.origin, r.content, r.result, r.error_code, r.error_args, r.created_at FROM eng_replies r \
         LEFT JOIN matrix_accounts a ON a.id = r.account_id LEFT JOIN eng_comments c ON c.id = r.comment_row_id \
         LEFT JOIN eng_rules k ON k.id = r.rule_id",
        "r.merchant_id = $1",
        mid,
        &REPLY_LIST,
        q,
    )
    .await
}

// ---- rules ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RuleRow {
    pub id: i64,
    pub merchant_id: i64,
    #[sqlx(flatten)]
    pub data: RuleData,
    pub created_at: i64,
    pub updated_at: i64,
}

const RULE_COLS: &str = "id, merchant_id, name, channel, match_mode, keywords, replies, account_ids, item_ids, \
    start_minute, end_minute, daily_cap, min_gap_s, enabled, created_at, updated_at";

pub static RULE_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("channel", "channel", FieldType::Select),
        field("match_mode", "match_mode", FieldType::Select),
        field("keywords", "keywords", FieldType::Text),
        field("enabled", "enabled", FieldType::Switch),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

/// A rule's fields as saved (JSON arrays already encoded: keywords, replies, account and item ids).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RuleData {
    pub name: String,
    pub channel: String,
    pub match_mode: String,
    pub keywords: String,
    pub replies: String,
    pub account_ids: String,
    pub item_ids: String,
    pub start_minute: i64,
    pub end_minute: i64,
    pub daily_cap: i64,
    pub min_gap_s: i64,
    pub enabled: i64,
}

pub async fn rules(db: &Db, mid: i64, q: &ListQuery) -> Result<(Vec<RuleRow>, Total), PageError> {
    let select = format!("SELECT {RULE_COLS} FROM eng_rules");
    crate::list::page_of(db, &select, "merchant_id = $1", mid, &RULE_LIST, q).await
}

pub async fn rule(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<RuleRow>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {RULE_COLS} FROM eng_rules WHERE id = $1 AND merchant_id = $2"
    ))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// The merchant's enabled rules of a channel, oldest first (the first match answers).
pub async fn enabled_rules(db: &Db, mid: i64, channel: &str) -> sqlx::Result<Vec<RuleRow>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {RULE_COLS} FROM eng_rules WHERE merchant_id = $1 AND channel = $2 AND enabled = 1 ORDER BY id"
    ))
    .bind(mid)
    .bind(channel)
    .fetch_all(&db.pool)
    .await
}

pub async fn add_rule(db: &Db, mid: i64, r: &RuleData, now: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO eng_rules (merchant_id, name, channel, match_mode, keywords, replies, account_ids, item_ids, \
         start_minute, end_minute, daily_cap, min_gap_s, enabled, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) RETURNING id",
    )
    .bind(mid)
    .bind(&r.name)
    .bind(&r.channel)
    .bind(&r.match_mode)
    .bind(&r.keywords)
    .bind(&r.replies)
    .bind(&r.account_ids)
    .bind(&r.item_ids)
    .bind(r.start_minute)
    .bind(r.end_minute)
    .bind(r.daily_cap)
    .bind(r.min_gap_s)
    .bind(r.enabled)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn edit_rule(db: &Db, mid: i64, id: i64, r: &RuleData, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE eng_rules SET name = $1, channel = $2, match_mode = $3, keywords = $4, replies = $5, account_ids = $6, \
         item_ids = $7, start_minute = $8, end_minute = $9, daily_cap = $10, min_gap_s = $11, enabled = $12, \
         updated_at = $13 WHERE id = $14 AND merchant_id = $15",
    )
    .bind(&r.name)
    .bind(&r.channel)
    .bind(&r.match_mode)
    .bind(&r.keywords)
    .bind(&r.replies)
    .bind(&r.account_ids)
    .bind(&r.item_ids)
    .bind(r.start_minute)
    .bind(r.end_minute)
    .bind(r.daily_cap)
    .bind(r.min_gap_s)
    .bind(r.enabled)
    .bind(now)
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

pub async fn delete_rule(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let n = sqlx::query("DELETE FROM eng_rules WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

// ---- leads ----

#[derive(Debug, Clone)]
pub struct NewLead {
    pub merchant_id: i64,
    pub customer_key: String,
    pub platform: domain::platform::Platform,
    pub account_id: i64,
    pub name: String,
    pub content: String,
    pub source: String,
    pub source_id: i64,
    pub item_id: String,
    pub phone: String,
    pub wechat: String,
    pub intent: String,
    pub created_at: i64,
}

/// Adds a lead unless the customer already is one (then fills in a phone or WeChat id it lacked)
/// and assigns a new one to the next of `candidates` in turn (an atomic counter per merchant), in
/// one transaction. Answers the new lead's id and assignee.
pub async fn add_lead(
    db: &Db,
    l: &NewLead,
    candidates: &[i64],
) -> sqlx::Result<Option<(i64, i64)>> {
    let mut tx = db.begin().await?;
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO eng_leads (merchant_id, customer_key, platform, account_id, name, content, source, source_id, \
         item_id, phone, wechat, intent, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, \
         $11, $12, $13, $13) ON CONFLICT (merchant_id, customer_key) DO NOTHING RETURNING id",
    )
    .bind(l.merchant_id)
    .bind(&l.customer_key)
    .bind(l.platform.as_str())
    .bind(l.account_id)
    .bind(&l.name)
    .bind(&l.content)
    .bind(&l.source)
    .bind(l.source_id)
    .bind(&l.item_id)
    .bind(&l.phone)
    .bind(&l.wechat)
    .bind(&l.intent)
    .bind(l.created_at)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(id) = id else {
        sqlx::query(
            "UPDATE eng_leads SET phone = CASE WHEN phone = '' THEN $1 ELSE phone END, \
             wechat = CASE WHEN wechat = '' THEN $2 ELSE wechat END WHERE merchant_id = $3 AND customer_key = $4",
        )
        .bind(&l.phone)
        .bind(&l.wechat)
        .bind(l.merchant_id)
        .bind(&l.customer_key)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        return Ok(None);
    };
    let mut assignee = 0;
    if !candidates.is_empty() {
        let turn: i64 = sqlx::query_scalar(
            "INSERT INTO eng_assign (merchant_id, turn) VALUES ($1, 1) ON CONFLICT (merchant_id) \
             DO UPDATE SET turn = eng_assign.turn + 1 RETURNING turn",
        )
        .bind(l.merchant_id)
        .fetch_one(&mut *tx)
        .await?;
        assignee = candidates[((turn - 1).rem_euclid(candidates.len() as i64)) as usize];
        sqlx::query("UPDATE eng_leads SET assignee_id = $1 WHERE id = $2")
            .bind(assignee)
            .bind(id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(Some((id, assignee)))
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LeadRow {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub account_id: i64,
    pub account_name: Option<String>,
    pub name: String,
    pub content: String,
    pub source: String,
    pub source_id: i64,
    pub item_id: String,
    pub phone: String,
    pub wechat: String,
    pub intent: String,
    #[sqlx(try_from = "String")]
    pub state: domain::engagement::LeadState,
    pub assignee_id: i64,
    pub assignee_name: Option<String>,
    #[sqlx(try_from = "String")]
    pub notes: domain::engagement::LeadNotes,
    pub created_at: i64,
    pub updated_at: i64,
}

const LEAD_SELECT: &str = "SELECT l.id, l.platform, l.account_id, a.nickname AS account_name, l.name, l.content, \
    l.source, l.source_id, l.item_id, l.phone, l.wechat, l.intent, l.state, l.assignee_id, \
    u.nickname AS assignee_name, l.notes, l.created_at, l.updated_at FROM eng_leads l \
    LEFT JOIN matrix_accounts a ON a.id = l.account_id LEFT JOIN users u ON u.id = l.assignee_id";

pub static LEAD_LIST: Entity = Entity {
    fields: &[
        field("state", "l.state", FieldType::Select),
        field("platform", "l.platform", FieldType::Select),
        field("source", "l.source", FieldType::Select),
        field("intent", "l.intent", FieldType::Select),
        field("assignee_id", "l.assignee_id", FieldType::Int),
        field("account_id", "l.account_id", FieldType::Int),
        field("name", "l.name", FieldType::Text),
        field("content", "l.content", FieldType::Text),
        field("phone", "l.phone", FieldType::Text),
        field("created_at", "l.created_at", FieldType::Date),
    ],
    // newest first by the lead's time (the comment's or message's), not by when it was read: a sync
    // can bring an older comment after a newer one
    default_order: "l.created_at DESC, l.id DESC",
    tiebreak: "l.id",
};

/// The merchant's leads; `assignee` narrows to one staff member's (a staff member without the
/// all-leads grant).
pub async fn leads(
    db: &Db,
    mid: i64,
    assignee: Option<i64>,
    q: &ListQuery,
) -> Result<(Vec<LeadRow>, Total), PageError> {
    let (scope, binds) = match assignee {
        Some(a) => (
            "l.merchant_id = $1 AND l.assignee_id = $2",
            vec![Bind::I(mid), Bind::I(a)],
        ),
        None => ("l.merchant_id = $1", vec![Bind::I(mid)]),
    };
    list::page(
        db,
        LEAD_SELECT,
        "FROM eng_leads l",
        scope,
        &binds,
        &LEAD_LIST,
        q,
    )
    .await
}

pub async fn lead(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<LeadRow>> {
    sqlx::query_as(crate::sqlf!(
        "{LEAD_SELECT} WHERE l.id = $1 AND l.merchant_id = $2"
    ))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// Moves a lead to `to` when it is in one of `from` (the allowed sources of that move).
pub async fn move_lead(
    db: &Db,
    mid: i64,
    id: i64,
    from: &[&str],
    to: &str,
    now: i64,
) -> sqlx::Result<bool> {
    let list = from
        .iter()
        .map(|s| format!("'{s}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let n = sqlx::query(crate::sqlf!(
        "UPDATE eng_leads SET state = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4 AND state IN ({list})"
    ))
    .bind(to)
    .bind(now)
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

pub async fn assign_lead(db: &Db, mid: i64, id: i64, staff: i64, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE eng_leads SET assignee_id = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(staff)
    .bind(now)
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Appends a note to the lead's notes.
pub async fn add_note(
    db: &Db,
    mid: i64,
    id: i64,
    note: &domain::engagement::LeadNote,
    now: i64,
) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let notes: Option<String> =
        sqlx::query_scalar("SELECT notes FROM eng_leads WHERE id = $1 AND merchant_id = $2")
            .bind(id)
            .bind(mid)
            .fetch_optional(&mut *tx)
            .await?;
    let Some(notes) = notes else {
        return Ok(false);
    };
    let mut list = domain::engagement::LeadNotes::from(notes);
    list.0.push(note.clone());
    sqlx::query("UPDATE eng_leads SET notes = $1, updated_at = $2 WHERE id = $3")
        .bind(list.to_text())
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

/// The merchant's active staff: id, menu ids (JSON), role ids (JSON).
pub async fn active_staff(db: &Db, mid: i64) -> sqlx::Result<Vec<(i64, String, String, String)>> {
    sqlx::query_as(
        "SELECT id, nickname, menu_ids, role_ids FROM users WHERE merchant_id = $1 AND kind = 'staff' AND status = 1 ORDER BY id",
    )
    .bind(mid)
    .fetch_all(&db.pool)
    .await
}

// ---- private messages ----

#[derive(Debug, Clone, Default)]
pub struct NewMessage {
    pub merchant_id: i64,
    pub account_id: i64,
    pub conversation_id: String,
    pub customer_id: String,
    pub direction: String,
    pub text: String,
    pub msg_id: String,
    pub auto: i64,
    pub created_at: i64,
}

/// Records a message once (by account and message id); answers the new row's id.
pub async fn add_message(db: &Db, m: &NewMessage) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "INSERT INTO eng_messages (merchant_id, account_id, conversation_id, customer_id, direction, text, msg_id, auto, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (account_id, msg_id) DO NOTHING RETURNING id",
    )
    .bind(m.merchant_id)
    .bind(m.account_id)
    .bind(&m.conversation_id)
    .bind(&m.customer_id)
    .bind(&m.direction)
    .bind(&m.text)
    .bind(&m.msg_id)
    .bind(m.auto)
    .bind(m.created_at)
    .fetch_optional(&db.pool)
    .await
}

/// Is message row `id` the first the customer sent in this conversation?
pub async fn first_in_conversation(
    db: &Db,
    account_id: i64,
    conversation_id: &str,
    id: i64,
) -> sqlx::Result<bool> {
    let first: Option<i64> = sqlx::query_scalar(
        "SELECT MIN(id) FROM eng_messages WHERE account_id = $1 AND conversation_id = $2 AND direction = 'in'",
    )
    .bind(account_id)
    .bind(conversation_id)
    .fetch_one(&db.pool)
    .await?;
    Ok(first == Some(id))
}
