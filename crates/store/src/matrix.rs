//! Matrix publishing rows: account groups, authorized accounts (tokens sealed), OAuth/QR states,
//! release tasks and their items, @-mention users, platform app credentials, webhook dedupe.
//! Every merchant-facing query takes the merchant id; the worker's calls are by primary key.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::jobs::{ItemRef, JobKind};
use domain::now_ms;
use serde::Serialize;
use std::collections::HashSet;

// ---- groups ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Group {
    pub id: i64,
    pub name: String,
    pub accounts: i64,
    pub created_at: i64,
}

pub static GROUP_LIST: Entity = Entity {
    fields: &[
        field("name", "g.name", FieldType::Text),
        field("created_at", "g.created_at", FieldType::Date),
    ],
    default_order: "g.id DESC",
    tiebreak: "g.id",
};

pub async fn groups(db: &Db, mid: i64, q: &ListQuery) -> Result<(Vec<Group>, Total), PageError> {
    list::page(
        db,
        "SELECT g.id, g.name, g.created_at, \
           (SELECT COUNT(*) FROM matrix_accounts a WHERE a.group_id = g.id AND a.merchant_id = g.merchant_id) AS accounts \
         FROM matrix_groups g",
        "FROM matrix_groups g",
        "g.merchant_id = $1",
        &[Bind::I(mid)],
        &GROUP_LIST,
        q,
    )
    .await
}

pub async fn group_exists(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM matrix_groups WHERE id = $1 AND merchant_id = $2")
            .bind(id)
            .bind(mid)
            .fetch_one(&db.pool)
            .await?;
    Ok(n == 1)
}

/// None when the name is taken.
pub async fn add_group(db: &Db, mid: i64, name: &str) -> sqlx::Result<Option<i64>> {
    let now = now_ms();
    sqlx::query_scalar(
        "INSERT INTO matrix_groups (merchant_id, name, created_at, updated_at) VALUES ($1, $2, $3, $3) \
         ON CONFLICT (merchant_id, name) DO NOTHING RETURNING id",
    )
    .bind(mid)
    .bind(name)
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Ok(false) = no such group; Err on a taken name is reported by the caller's uniqueness check.
pub async fn rename_group(db: &Db, mid: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE matrix_groups SET name = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(name)
    .bind(now_ms())
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

pub async fn group_name_taken(db: &Db, mid: i64, name: &str, except: i64) -> sqlx::Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM matrix_groups WHERE merchant_id = $1 AND name = $2 AND id <> $3",
    )
    .bind(mid)
    .bind(name)
    .bind(except)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
}

/// Deletes a group; its accounts become ungrouped.
pub async fn delete_group(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE matrix_accounts SET group_id = 0 WHERE group_id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&mut *tx)
        .await?;
    let n = sqlx::query("DELETE FROM matrix_groups WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(n == 1)
}

// ---- accounts ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Account {
    pub id: i64,
    pub merchant_id: i64,
    pub platform: String,
    pub open_id: String,
    pub nickname: String,
    pub avatar: String,
    pub account_type: String,
    pub group_id: i64,
    pub group_name: Option<String>,
    pub province: String,
    pub city: String,
    pub poi_id: String,
    pub poi_name: String,
    pub poi_address: String,
    pub remarks: String,
    /// Sealed (store::secrets).
    pub access_token: String,
    pub refresh_token: String,
    pub token_expires_at: i64,
    pub auth_expires_at: i64,
    pub revoked: i64,
    pub revoked_reason: String,
    pub sandbox: i64,
    pub videos: i64,
    pub plays: i64,
    pub comments: i64,
    pub likes: i64,
    pub synced_at: i64,
    pub created_at: i64,
}

const ACCOUNT_COLS: &str = "a.id, a.merchant_id, a.platform, a.open_id, a.nickname, a.avatar, a.account_type, a.group_id, \
    g.name AS group_name, a.province, a.city, a.poi_id, a.poi_name, a.poi_address, a.remarks, a.access_token, \
    a.refresh_token, a.token_expires_at, a.auth_expires_at, a.revoked, a.revoked_reason, a.sandbox, a.videos, a.plays, \
    a.comments, a.likes, a.synced_at, a.created_at";
const ACCOUNT_FROM: &str = "FROM matrix_accounts a LEFT JOIN matrix_groups g ON g.id = a.group_id";

pub static ACCOUNT_LIST: Entity = Entity {
    fields: &[
        field("platform", "a.platform", FieldType::Select),
        field("nickname", "a.nickname", FieldType::Text),
        field("remarks", "a.remarks", FieldType::Text),
        field("group_id", "a.group_id", FieldType::Int),
        field("created_at", "a.created_at", FieldType::Date),
        field("expires_at", "a.auth_expires_at", FieldType::Date),
        field("videos", "a.videos", FieldType::Int),
        field("plays", "a.plays", FieldType::Int),
    ],
    default_order: "a.id DESC",
    tiebreak: "a.id",
};

/// `status` (active / expiring / expired) is computed from the platform clock, so it is a scope here.
pub fn status_scope(status: Option<&str>, now: i64) -> Option<String> {
    let soon = now + domain::matrix::EXPIRING_MS;
    Some(match status? {
        "expired" => format!("(a.revoked = 1 OR a.auth_expires_at <= {now})"),
        "expiring" => {
            format!("(a.revoked = 0 AND a.auth_expires_at > {now} AND a.auth_expires_at <= {soon})")
        }
        "active" => format!("(a.revoked = 0 AND a.auth_expires_at > {soon})"),
        _ => return None,
    })
}

pub async fn accounts(
    db: &Db,
    mid: i64,
    extra: Option<String>,
    q: &ListQuery,
) -> Result<(Vec<Account>, Total), PageError> {
    let scope = match extra {
        Some(x) => format!("a.merchant_id = $1 AND {x}"),
        None => "a.merchant_id = $1".to_string(),
    };
    list::page(
        db,
        &format!("SELECT {ACCOUNT_COLS} {ACCOUNT_FROM}"),
        ACCOUNT_FROM,
        &scope,
        &[Bind::I(mid)],
        &ACCOUNT_LIST,
        q,
    )
    .await
}

/// Counts per status for the summary row.
pub async fn account_summary(db: &Db, mid: i64, now: i64) -> sqlx::Result<(i64, i64, i64)> {
    let soon = now + domain::matrix::EXPIRING_MS;
    let row: (i64, i64, i64) = sqlx::query_as(
        "SELECT \
           COALESCE(SUM(CASE WHEN revoked = 0 AND auth_expires_at > $2 THEN 1 ELSE 0 END), 0), \
           COALESCE(SUM(CASE WHEN revoked = 0 AND auth_expires_at > $3 AND auth_expires_at <= $2 THEN 1 ELSE 0 END), 0), \
           COALESCE(SUM(CASE WHEN revoked = 1 OR auth_expires_at <= $3 THEN 1 ELSE 0 END), 0) \
         FROM matrix_accounts WHERE merchant_id = $1",
    )
    .bind(mid)
    .bind(soon)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    Ok(row)
}

pub async fn account(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<Account>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ACCOUNT_COLS} {ACCOUNT_FROM} WHERE a.id = $1 AND a.merchant_id = $2"
    ))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// For the worker, which acts on a job's account.
pub async fn account_by_id(db: &Db, id: i64) -> sqlx::Result<Option<Account>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ACCOUNT_COLS} {ACCOUNT_FROM} WHERE a.id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

#[derive(Debug, Clone, Default)]
pub struct Authorized {
    pub platform: String,
    pub open_id: String,
    pub nickname: String,
    pub avatar: String,
    pub access_token: String,
    pub refresh_token: String,
    pub token_expires_at: i64,
    pub auth_expires_at: i64,
    pub group_id: i64,
    pub sandbox: bool,
}

/// Adds an account or, when the merchant authorized it before, refreshes its tokens and un-revokes it.
pub async fn upsert_account(db: &Db, mid: i64, a: &Authorized) -> sqlx::Result<i64> {
    let now = now_ms();
    sqlx::query_scalar(
        "INSERT INTO matrix_accounts (merchant_id, platform, open_id, nickname, avatar, access_token, refresh_token, \
           token_expires_at, auth_expires_at, group_id, sandbox, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) \
         ON CONFLICT (merchant_id, platform, open_id) DO UPDATE SET nickname = $4, avatar = $5, access_token = $6, \
           refresh_token = $7, token_expires_at = $8, auth_expires_at = $9, revoked = 0, revoked_reason = '', \
           sandbox = $11, updated_at = $12 \
         RETURNING id",
    )
    .bind(mid)
    .bind(&a.platform)
    .bind(&a.open_id)
    .bind(&a.nickname)
    .bind(&a.avatar)
    .bind(&a.access_token)
    .bind(&a.refresh_token)
    .bind(a.token_expires_at)
    .bind(a.auth_expires_at)
    .bind(a.group_id)
    .bind(a.sandbox as i64)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

/// Sets one editable text/int column of a merchant's account. `col` is one of our constants.
async fn set_account_cols(
    db: &Db,
    mid: i64,
    id: i64,
    sets: &[(&'static str, Bind)],
) -> sqlx::Result<bool> {
    let mut sql = String::from("UPDATE matrix_accounts SET updated_at = $1");
    for (i, (col, _)) in sets.iter().enumerate() {
        sql.push_str(&format!(", {col} = ${}", i + 2));
    }
    let n = sets.len();
    sql.push_str(&format!(
        " WHERE id = ${} AND merchant_id = ${}",
        n + 2,
        n + 3
    ));
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(now_ms());
    for (_, b) in sets {
        q = match b {
            Bind::I(v) => q.bind(*v),
            Bind::S(v) => q.bind(v.clone()),
        };
    }
    Ok(q.bind(id)
        .bind(mid)
        .execute(&db.pool)
        .await?
        .rows_affected()
        == 1)
}

pub async fn save_account(
    db: &Db,
    mid: i64,
    id: i64,
    group_id: Option<i64>,
    remarks: Option<&str>,
    account_type: Option<&str>,
) -> sqlx::Result<bool> {
    let mut sets = vec![];
    if let Some(g) = group_id {
        sets.push(("group_id", Bind::I(g)));
    }
    if let Some(r) = remarks {
        sets.push(("remarks", Bind::S(r.to_string())));
    }
    if let Some(t) = account_type {
        sets.push(("account_type", Bind::S(t.to_string())));
    }
    set_account_cols(db, mid, id, &sets).await
}

pub async fn set_address(
    db: &Db,
    mid: i64,
    id: i64,
    fields: &[(&'static str, String)],
) -> sqlx::Result<bool> {
    let sets: Vec<(&'static str, Bind)> = fields
        .iter()
        .map(|(k, v)| (*k, Bind::S(v.clone())))
        .collect();
    set_account_cols(db, mid, id, &sets).await
}

/// Stores refreshed tokens (sealed by the caller).
pub async fn set_tokens(
    db: &Db,
    id: i64,
    access: &str,
    refresh: &str,
    token_expires_at: i64,
    auth_expires_at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE matrix_accounts SET access_token = $1, refresh_token = $2, token_expires_at = $3, auth_expires_at = $4, \
           revoked = 0, revoked_reason = '', updated_at = $5 WHERE id = $6",
    )
    .bind(access)
    .bind(refresh)
    .bind(token_expires_at)
    .bind(auth_expires_at)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The platform refused the account's authorization: it shows as expired, with the reason.
pub async fn revoke(db: &Db, id: i64, reason: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE matrix_accounts SET revoked = 1, revoked_reason = $1, updated_at = $2 WHERE id = $3",
    )
    .bind(reason)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Accounts whose access token ends before `before` and can still be refreshed.
pub async fn accounts_to_refresh(db: &Db, before: i64, limit: i64) -> sqlx::Result<Vec<Account>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ACCOUNT_COLS} {ACCOUNT_FROM} WHERE a.revoked = 0 AND a.platform IN ('dy', 'ks') \
         AND a.token_expires_at < $1 ORDER BY a.token_expires_at LIMIT $2"
    ))
    .bind(before)
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

/// Ok(false) when one of them has an item being published.
pub async fn delete_accounts(db: &Db, mid: i64, ids: &[i64]) -> sqlx::Result<Option<u64>> {
    let mut tx = db.begin().await?;
    let mut n = 0;
    for id in ids {
        let busy: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM matrix_items WHERE account_id = $1 AND merchant_id = $2 AND state = 'publishing'",
        )
        .bind(id)
        .bind(mid)
        .fetch_one(&mut *tx)
        .await?;
        if busy > 0 {
            return Ok(None);
        }
        // Waiting posts of a removed account cannot go out: they fail with a reason.
        sqlx::query(
            "UPDATE matrix_items SET state = 'failed', error_zh = '账号已删除', error_en = 'The account was removed', \
               updated_at = $1 WHERE account_id = $2 AND merchant_id = $3 AND state = 'to_release'",
        )
        .bind(now_ms())
        .bind(id)
        .bind(mid)
        .execute(&mut *tx)
        .await?;
        n += sqlx::query("DELETE FROM matrix_accounts WHERE id = $1 AND merchant_id = $2")
            .bind(id)
            .bind(mid)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    tx.commit().await?;
    Ok(Some(n))
}

// ---- OAuth states and QR logins ----

pub async fn put_state(
    db: &Db,
    state: &str,
    mid: i64,
    platform: &str,
    group_id: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO matrix_auth_states (state, merchant_id, platform, group_id, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(state)
    .bind(mid)
    .bind(platform)
    .bind(group_id)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A state younger than `max_age_ms`: (merchant, platform, group). `consume` makes it single use.
pub async fn get_state(
    db: &Db,
    state: &str,
    max_age_ms: i64,
    consume: bool,
) -> sqlx::Result<Option<(i64, String, i64)>> {
    let now = now_ms();
    let row: Option<(i64, String, i64)> = if consume {
        sqlx::query_as(
            "UPDATE matrix_auth_states SET used_at = $1 WHERE state = $2 AND used_at IS NULL AND created_at > $3 \
             RETURNING merchant_id, platform, group_id",
        )
        .bind(now)
        .bind(state)
        .bind(now - max_age_ms)
        .fetch_optional(&db.pool)
        .await?
    } else {
        sqlx::query_as(
            "SELECT merchant_id, platform, group_id FROM matrix_auth_states \
             WHERE state = $1 AND used_at IS NULL AND created_at > $2",
        )
        .bind(state)
        .bind(now - max_age_ms)
        .fetch_optional(&db.pool)
        .await?
    };
    Ok(row)
}

// ---- tasks and items ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Task {
    pub id: i64,
    pub merchant_id: i64,
    pub name: String,
    pub platform: String,
    pub config: String,
    pub time_mode: String,
    pub start_date: String,
    pub days: i64,
    pub daily_quantity: i64,
    pub review_state: String,
    pub review_reason: String,
    pub review_due_at: i64,
    pub reviewed_at: Option<i64>,
    pub seed: i64,
    pub created_at: i64,
    pub merchant_name: Option<String>,
}

const TASK_COLS: &str = "t.id, t.merchant_id, t.name, t.platform, t.config, t.time_mode, t.start_date, t.days, \
    t.daily_quantity, t.review_state, t.review_reason, t.review_due_at, t.reviewed_at, t.seed, t.created_at, \
    m.name AS merchant_name";
const TASK_FROM: &str = "FROM matrix_tasks t LEFT JOIN merchants m ON m.id = t.merchant_id";

pub static TASK_LIST: Entity = Entity {
    fields: &[
        field("name", "t.name", FieldType::Text),
        field("platform", "t.platform", FieldType::Select),
        field("review_state", "t.review_state", FieldType::Select),
        field("merchant_name", "m.name", FieldType::Text),
        field("created_at", "t.created_at", FieldType::Date),
    ],
    default_order: "t.id DESC",
    tiebreak: "t.id",
};

pub static AUDIT_LIST: Entity = Entity {
    default_order: "CASE WHEN t.review_state = 'reviewing' THEN 0 ELSE 1 END, t.id",
    ..TASK_LIST
};

pub async fn tasks(db: &Db, mid: i64, q: &ListQuery) -> Result<(Vec<Task>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {TASK_COLS} {TASK_FROM}"),
        TASK_FROM,
        "t.merchant_id = $1 AND t.deleted = 0",
        &[Bind::I(mid)],
        &TASK_LIST,
        q,
    )
    .await
}

/// Every merchant's tasks, for the operator's review page.
pub async fn audit_tasks(db: &Db, q: &ListQuery) -> Result<(Vec<Task>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {TASK_COLS} {TASK_FROM}"),
        TASK_FROM,
        "t.deleted = $1",
        &[Bind::I(0)],
        &AUDIT_LIST,
        q,
    )
    .await
}

pub async fn task(db: &Db, mid: Option<i64>, id: i64) -> sqlx::Result<Option<Task>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {TASK_COLS} {TASK_FROM} WHERE t.id = $1 AND t.deleted = 0 AND ($2 = 0 OR t.merchant_id = $2)"
    ))
    .bind(id)
    .bind(mid.unwrap_or(0))
    .fetch_optional(&db.pool)
    .await
}

#[derive(Debug, Clone, Default)]
pub struct ItemCounts {
    pub total: i64,
    pub to_release: i64,
    pub publishing: i64,
    pub published: i64,
    pub released: i64,
    pub failed: i64,
}

pub async fn item_counts(db: &Db, task_id: i64) -> sqlx::Result<ItemCounts> {
    let rows: Vec<(String, i64)> = sqlx::query_as(
        "SELECT state, COUNT(*) FROM matrix_items WHERE task_id = $1 GROUP BY state",
    )
    .bind(task_id)
    .fetch_all(&db.pool)
    .await?;
    let mut c = ItemCounts::default();
    for (s, n) in rows {
        c.total += n;
        match s.as_str() {
            "to_release" => c.to_release = n,
            "publishing" => c.publishing = n,
            "published" => c.published = n,
            "released" => c.released = n,
            "failed" => c.failed = n,
            _ => {}
        }
    }
    Ok(c)
}

/// Minutes (unix ms / 60000) in which the merchant already has a post planned, within a range.
pub async fn taken_minutes(db: &Db, mid: i64, from: i64, to: i64) -> sqlx::Result<HashSet<i64>> {
    let rows: Vec<i64> = sqlx::query_scalar(
        "SELECT scheduled_at FROM matrix_items WHERE merchant_id = $1 AND scheduled_at >= $2 AND scheduled_at < $3 \
         AND state IN ('to_release', 'publishing')",
    )
    .bind(mid)
    .bind(from)
    .bind(to)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.into_iter().map(|t| t.div_euclid(60_000)).collect())
}

/// Video keys (`v:`/`m:`) a merchant has already given to a task.
pub async fn used_videos(db: &Db, mid: i64, keys: &[String]) -> sqlx::Result<HashSet<String>> {
    let mut out = HashSet::new();
    for chunk in keys.chunks(500) {
        let ph: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT video_key FROM matrix_items WHERE merchant_id = $1 AND video_key IN ({})",
            ph.join(", ")
        );
        let mut q = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql)).bind(mid);
        for k in chunk {
            q = q.bind(k);
        }
        out.extend(q.fetch_all(&db.pool).await?);
    }
    Ok(out)
}

#[derive(Debug, Clone)]
pub struct NewTask {
    pub name: String,
    pub platform: String,
    pub config: serde_json::Value,
    pub time_mode: String,
    pub start_date: String,
    pub days: i64,
    pub daily_quantity: i64,
    pub review_due_at: i64,
    pub seed: i64,
}

#[derive(Debug, Clone)]
pub struct NewItem {
    pub account_id: i64,
    pub platform: String,
    pub video_key: String,
    pub video_name: String,
    pub title: String,
    pub comments: Vec<String>,
    pub scheduled_at: i64,
}

/// Stores a task with its planned items in one transaction and marks library videos used. None when
/// a video was taken by another task meanwhile (the unique key refuses it; nothing is written).
pub async fn insert_task(
    db: &Db,
    mid: i64,
    t: &NewTask,
    items: &[NewItem],
) -> sqlx::Result<Option<i64>> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO matrix_tasks (merchant_id, name, platform, config, time_mode, start_date, days, daily_quantity, \
           review_due_at, seed, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) RETURNING id",
    )
    .bind(mid)
    .bind(&t.name)
    .bind(&t.platform)
    .bind(t.config.to_string())
    .bind(&t.time_mode)
    .bind(&t.start_date)
    .bind(t.days)
    .bind(t.daily_quantity)
    .bind(t.review_due_at)
    .bind(t.seed)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    for it in items {
        let r = sqlx::query(
            "INSERT INTO matrix_items (merchant_id, task_id, account_id, platform, video_key, video_name, title, comments, \
               scheduled_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) \
             ON CONFLICT (merchant_id, video_key) DO NOTHING",
        )
        .bind(mid)
        .bind(id)
        .bind(it.account_id)
        .bind(&it.platform)
        .bind(&it.video_key)
        .bind(&it.video_name)
        .bind(&it.title)
        .bind(serde_json::to_string(&it.comments).unwrap_or_default())
        .bind(it.scheduled_at)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(None);
        }
        if let Some(v) = it
            .video_key
            .strip_prefix("v:")
            .and_then(|v| v.parse::<i64>().ok())
        {
            sqlx::query("UPDATE clip_variants SET used = 1 WHERE id = $1 AND merchant_id = $2")
                .bind(v)
                .bind(mid)
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(Some(id))
}

/// Review outcome. Approved items keep their planned time, except those whose time has passed,
/// which go out a minute apart from `now` (platform clock). Rejected items fail with the reason.
pub async fn review(db: &Db, id: i64, approve: bool, reason: &str, now: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query(
        "UPDATE matrix_tasks SET review_state = $1, review_reason = $2, reviewed_at = $3, updated_at = $3 \
         WHERE id = $4 AND review_state = 'reviewing' AND deleted = 0",
    )
    .bind(if approve { "approved" } else { "rejected" })
    .bind(reason)
    .bind(now_ms())
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n == 0 {
        return Ok(false);
    }
    if approve {
        sqlx::query(
            "UPDATE matrix_items SET review_state = 'approved', updated_at = $1 WHERE task_id = $2",
        )
        .bind(now_ms())
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let late: Vec<i64> = sqlx::query_scalar(
            "SELECT id FROM matrix_items WHERE task_id = $1 AND state = 'to_release' AND scheduled_at < $2 ORDER BY scheduled_at, id",
        )
        .bind(id)
        .bind(now)
        .fetch_all(&mut *tx)
        .await?;
        for (i, item) in late.iter().enumerate() {
            sqlx::query("UPDATE matrix_items SET scheduled_at = $1 WHERE id = $2")
                .bind(now + i as i64 * 60_000)
                .bind(item)
                .execute(&mut *tx)
                .await?;
        }
    } else {
        sqlx::query(
            "UPDATE matrix_items SET review_state = 'rejected', state = 'failed', error_zh = $1, error_en = $2, updated_at = $3 \
             WHERE task_id = $4 AND state = 'to_release'",
        )
        .bind(format!("审核驳回：{reason}"))
        .bind(format!("Rejected in review: {reason}"))
        .bind(now_ms())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}

/// Deletes a task: waiting items are removed (their videos become free again); published ones stay
/// on record, so a task with any is only hidden. None while an item is publishing.
pub async fn delete_task(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<bool>> {
    let mut tx = db.begin().await?;
    let busy: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM matrix_items WHERE task_id = $1 AND merchant_id = $2 AND state = 'publishing'",
    )
    .bind(id)
    .bind(mid)
    .fetch_one(&mut *tx)
    .await?;
    if busy > 0 {
        return Ok(None);
    }
    sqlx::query(
        "DELETE FROM matrix_items WHERE task_id = $1 AND merchant_id = $2 AND state IN ('to_release', 'failed') AND item_id = ''",
    )
    .bind(id)
    .bind(mid)
    .execute(&mut *tx)
    .await?;
    let n = sqlx::query(
        "UPDATE matrix_tasks SET deleted = 1, updated_at = $1 WHERE id = $2 AND merchant_id = $3 AND deleted = 0",
    )
    .bind(now_ms())
    .bind(id)
    .bind(mid)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(Some(n == 1))
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Item {
    pub id: i64,
    pub merchant_id: i64,
    pub task_id: i64,
    pub task_name: Option<String>,
    pub account_id: i64,
    pub nickname: Option<String>,
    pub avatar: Option<String>,
    pub platform: String,
    pub video_key: String,
    pub video_name: String,
    pub title: String,
    pub comments: String,
    pub scheduled_at: i64,
    pub review_state: String,
    pub state: String,
    pub error_zh: String,
    pub error_en: String,
    pub attempts: i64,
    pub job_id: i64,
    pub remote_video_id: String,
    pub create_started_at: Option<i64>,
    pub item_id: String,
    pub share_url: String,
    pub published_at: Option<i64>,
    pub verified_at: Option<i64>,
    pub released_at: Option<i64>,
    pub review_checks: i64,
    pub comments_sent: i64,
    pub plays: i64,
    pub likes: i64,
    pub comment_count: i64,
}

const ITEM_COLS: &str = "i.id, i.merchant_id, i.task_id, t.name AS task_name, i.account_id, a.nickname, a.avatar, i.platform, \
    i.video_key, i.video_name, i.title, i.comments, i.scheduled_at, i.review_state, i.state, i.error_zh, i.error_en, \
    i.attempts, i.job_id, i.remote_video_id, i.create_started_at, i.item_id, i.share_url, i.published_at, i.verified_at, \
    i.released_at, i.review_checks, i.comments_sent, i.plays, i.likes, i.comment_count";
const ITEM_FROM: &str = "FROM matrix_items i LEFT JOIN matrix_tasks t ON t.id = i.task_id \
    LEFT JOIN matrix_accounts a ON a.id = i.account_id";

pub static ITEM_LIST: Entity = Entity {
    fields: &[
        field("task_id", "i.task_id", FieldType::Int),
        field("account_id", "i.account_id", FieldType::Int),
        field("state", "i.state", FieldType::Select),
        field("review_state", "i.review_state", FieldType::Select),
        field("platform", "i.platform", FieldType::Select),
        field("title", "i.title", FieldType::Text),
        field("scheduled_at", "i.scheduled_at", FieldType::Date),
    ],
    default_order: "i.scheduled_at, i.id",
    tiebreak: "i.id",
};

pub async fn items(
    db: &Db,
    mid: Option<i64>,
    q: &ListQuery,
) -> Result<(Vec<Item>, Total), PageError> {
    // A plain `i.merchant_id = $1` (not `$1 = 0 OR ...`) so the planner can walk the merchant's index.
    let (scope, binds) = match mid {
        Some(m) => ("i.merchant_id = $1", vec![Bind::I(m)]),
        None => ("1 = 1", vec![]),
    };
    list::page(
        db,
        &format!("SELECT {ITEM_COLS} {ITEM_FROM}"),
        ITEM_FROM,
        scope,
        &binds,
        &ITEM_LIST,
        q,
    )
    .await
}

pub async fn item(db: &Db, id: i64) -> sqlx::Result<Option<Item>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ITEM_COLS} {ITEM_FROM} WHERE i.id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// Accounts with a due item and nothing queued or publishing: two index scans, not a per-row check,
/// so the dispatcher stays cheap with many thousands of waiting items.
pub async fn idle_accounts_with_due_items(
    db: &Db,
    now: i64,
    limit: usize,
) -> sqlx::Result<Vec<i64>> {
    let due: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT account_id FROM matrix_items WHERE state = 'to_release' AND review_state = 'approved' \
         AND scheduled_at <= $1 AND job_id = 0",
    )
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    if due.is_empty() {
        return Ok(due);
    }
    let busy: HashSet<i64> = sqlx::query_scalar::<_, i64>(
        "SELECT DISTINCT account_id FROM matrix_items WHERE (state = 'to_release' AND job_id <> 0) OR state = 'publishing'",
    )
    .fetch_all(&db.pool)
    .await?
    .into_iter()
    .collect();
    Ok(due
        .into_iter()
        .filter(|a| !busy.contains(a))
        .take(limit)
        .collect())
}

/// The account's next due item, if the account is not busy with another one: an account posts one
/// at a time (so after a crash a listed work matches one item), accounts run in parallel.
pub async fn next_due_for_account(
    db: &Db,
    account_id: i64,
    now: i64,
) -> sqlx::Result<Option<(i64, i64)>> {
    let busy: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM matrix_items WHERE account_id = $1 AND ((state = 'to_release' AND job_id <> 0) OR state = 'publishing')",
    )
    .bind(account_id)
    .fetch_one(&db.pool)
    .await?;
    if busy > 0 {
        return Ok(None);
    }
    sqlx::query_as(
        "SELECT id, merchant_id FROM matrix_items WHERE account_id = $1 AND state = 'to_release' AND job_id = 0 \
         AND review_state = 'approved' AND scheduled_at <= $2 ORDER BY scheduled_at, id LIMIT 1",
    )
    .bind(account_id)
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Published items whose platform review should be looked at again.
pub async fn review_due_items(db: &Db, now: i64, limit: i64) -> sqlx::Result<Vec<(i64, i64, i64)>> {
    sqlx::query_as(
        "SELECT id, merchant_id, review_checks FROM matrix_items WHERE state = 'published' \
         AND review_check_at IS NOT NULL AND review_check_at <= $1 ORDER BY review_check_at LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

/// Enqueues the publish job of a due item in the same transaction that records it on the item.
pub async fn queue_item(
    db: &Db,
    item_id: i64,
    mid: i64,
    kind: JobKind,
    key: &str,
) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    let job = crate::jobs::enqueue(
        &mut tx,
        &crate::jobs::NewJob {
            merchant_id: Some(mid),
            idempotency_key: Some(key.to_string()),
            max_attempts: Some(8),
            ..crate::jobs::NewJob::new(kind, &ItemRef { item_id })
        },
    )
    .await?;
    if kind == JobKind::PublishItem {
        sqlx::query("UPDATE matrix_items SET job_id = $1 WHERE id = $2 AND job_id = 0")
            .bind(job)
            .bind(item_id)
            .execute(&mut *tx)
            .await?;
    } else {
        // A review check: no second check is queued until this one has run.
        sqlx::query("UPDATE matrix_items SET review_check_at = NULL WHERE id = $1")
            .bind(item_id)
            .execute(&mut *tx)
            .await?;
    }
    crate::jobs::commit_and_wake(tx).await
}

/// "Publish now" / retry: the item becomes due at `now` with a fresh job. Only waiting or failed
/// items that never reached the platform's list; ok=false otherwise.
pub async fn requeue_item(db: &Db, mid: i64, id: i64, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE matrix_items SET state = 'to_release', job_id = 0, scheduled_at = $1, error_zh = '', error_en = '', updated_at = $2 \
         WHERE id = $3 AND merchant_id = $4 AND review_state = 'approved' AND (state = 'to_release' OR state = 'failed') \
         AND verified_at IS NULL",
    )
    .bind(now)
    .bind(now_ms())
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Item fields the publisher writes as it goes; each call is one small committed step.
pub async fn item_step(db: &Db, id: i64, sets: &[(&'static str, Bind)]) -> sqlx::Result<()> {
    let mut sql = String::from("UPDATE matrix_items SET updated_at = $1");
    for (i, (col, _)) in sets.iter().enumerate() {
        sql.push_str(&format!(", {col} = ${}", i + 2));
    }
    sql.push_str(&format!(" WHERE id = ${}", sets.len() + 2));
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(now_ms());
    for (_, b) in sets {
        q = match b {
            Bind::I(v) => q.bind(*v),
            Bind::S(v) => q.bind(v.clone()),
        };
    }
    q.bind(id).execute(&db.pool).await?;
    Ok(())
}

/// Clears a nullable timestamp column of an item.
pub async fn item_clear(db: &Db, id: i64, col: &'static str) -> sqlx::Result<()> {
    sqlx::query(crate::sqlf!(
        "UPDATE matrix_items SET {col} = NULL WHERE id = $1"
    ))
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Item ids on the platform that this account's other items already own.
pub async fn known_remote_ids(
    db: &Db,
    account_id: i64,
    except: i64,
) -> sqlx::Result<HashSet<String>> {
    let v: Vec<String> = sqlx::query_scalar(
        "SELECT item_id FROM matrix_items WHERE account_id = $1 AND id <> $2 AND item_id <> ''",
    )
    .bind(account_id)
    .bind(except)
    .fetch_all(&db.pool)
    .await?;
    Ok(v.into_iter().collect())
}

/// Is another post of this account between "create sent" and "create answered"? Then ours waits,
/// so that after a crash a work in the list can be matched to exactly one item.
pub async fn account_create_in_flight(db: &Db, account_id: i64, except: i64) -> sqlx::Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM matrix_items WHERE account_id = $1 AND id <> $2 AND state = 'publishing' \
         AND create_started_at IS NOT NULL AND item_id = ''",
    )
    .bind(account_id)
    .bind(except)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
}

/// Distinct mini-programs of the merchant's earlier tasks.
pub async fn task_configs(db: &Db, mid: i64, limit: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT config FROM matrix_tasks WHERE merchant_id = $1 ORDER BY id DESC LIMIT $2",
    )
    .bind(mid)
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

// ---- @-mention users ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct AiteUser {
    pub id: i64,
    pub platform: String,
    pub nickname: String,
    pub created_at: i64,
}

pub async fn aite_users(db: &Db, mid: i64, platform: Option<&str>) -> sqlx::Result<Vec<AiteUser>> {
    sqlx::query_as(
        "SELECT id, platform, nickname, created_at FROM matrix_aite_users WHERE merchant_id = $1 \
         AND ($2 = '' OR platform = $2) ORDER BY id DESC",
    )
    .bind(mid)
    .bind(platform.unwrap_or(""))
    .fetch_all(&db.pool)
    .await
}

pub async fn add_aite_user(db: &Db, mid: i64, platform: &str, nickname: &str) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO matrix_aite_users (merchant_id, platform, nickname, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (merchant_id, platform, nickname) DO NOTHING",
    )
    .bind(mid)
    .bind(platform)
    .bind(nickname)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn delete_aite_user(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let n = sqlx::query("DELETE FROM matrix_aite_users WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

// ---- platform apps (operator) ----

/// (platform, client_key, sealed client_secret).
pub async fn apps(db: &Db) -> sqlx::Result<Vec<(String, String, String)>> {
    sqlx::query_as(
        "SELECT platform, client_key, client_secret FROM platform_apps ORDER BY platform",
    )
    .fetch_all(&db.pool)
    .await
}

pub async fn save_app(db: &Db, platform: &str, key: &str, sealed_secret: &str) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO platform_apps (platform, client_key, client_secret, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (platform) DO UPDATE SET client_key = $2, client_secret = $3, updated_at = $4",
    )
    .bind(platform)
    .bind(key)
    .bind(sealed_secret)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn clear_app(db: &Db, platform: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM platform_apps WHERE platform = $1")
        .bind(platform)
        .execute(&db.pool)
        .await?;
    Ok(())
}

// ---- webhooks ----

/// True the first time a webhook's log id is seen.
pub async fn first_delivery(db: &Db, log_id: &str, event: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "INSERT INTO platform_webhooks (log_id, event, received_at) VALUES ($1, $2, $3) ON CONFLICT (log_id) DO NOTHING",
    )
        .bind(log_id)
        .bind(event)
        .bind(now_ms())
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

/// A task's new schedule and the re-plan of its waiting items under it.
pub struct Replan {
    pub time_mode: String,
    pub start_date: String,
    pub days: i64,
    pub daily_quantity: i64,
    /// (item id, new time) of the items that keep a slot.
    pub moved: Vec<(i64, i64)>,
    /// The items the new schedule has no room for; they fail.
    pub refused: Vec<i64>,
}

/// Writes a task's re-plan in one transaction, so an error midway never leaves it half re-planned.
pub async fn reschedule_items(db: &Db, mid: i64, task_id: i64, p: &Replan) -> sqlx::Result<()> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    for (id, at) in &p.moved {
        sqlx::query(
            "UPDATE matrix_items SET scheduled_at = $1, job_id = 0, updated_at = $2 \
             WHERE id = $3 AND merchant_id = $4 AND task_id = $5",
        )
        .bind(*at)
        .bind(now)
        .bind(*id)
        .bind(mid)
        .bind(task_id)
        .execute(&mut *tx)
        .await?;
    }
    for id in &p.refused {
        sqlx::query(
            "UPDATE matrix_items SET state = 'failed', error_zh = $1, error_en = $2, updated_at = $3 \
             WHERE id = $4 AND merchant_id = $5 AND task_id = $6",
        )
        .bind("新的发布计划容纳不下该视频")
        .bind("The new schedule has no room for this video")
        .bind(now)
        .bind(*id)
        .bind(mid)
        .bind(task_id)
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query(
        "UPDATE matrix_tasks SET time_mode = $1, start_date = $2, days = $3, daily_quantity = $4, updated_at = $5 \
         WHERE id = $6 AND merchant_id = $7",
    )
    .bind(&p.time_mode)
    .bind(&p.start_date)
    .bind(p.days)
    .bind(p.daily_quantity)
    .bind(now)
    .bind(task_id)
    .bind(mid)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// A webhook said a work changed: look at its review on the next dispatch.
pub async fn review_soon(db: &Db, item_id: &str) -> sqlx::Result<()> {
    if item_id.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "UPDATE matrix_items SET review_check_at = $1 WHERE item_id = $2 AND state = 'published'",
    )
    .bind(now_ms())
    .bind(item_id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The platform revoked an account (every merchant that authorized it).
pub async fn revoke_open_id(
    db: &Db,
    platform: &str,
    open_id: &str,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE matrix_accounts SET revoked = 1, revoked_reason = $1, updated_at = $2 WHERE platform = $3 AND open_id = $4",
    )
    .bind(reason)
    .bind(now_ms())
    .bind(platform)
    .bind(open_id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Accounts whose statistics were last read before `before` (never-synced first).
pub async fn accounts_to_sync(
    db: &Db,
    before: i64,
    requested_before: i64,
    limit: i64,
) -> sqlx::Result<Vec<(i64, i64, i64)>> {
    sqlx::query_as(
        "SELECT id, merchant_id, synced_at FROM matrix_accounts WHERE revoked = 0 \
         AND (synced_at < $1 OR (sync_requested = 1 AND synced_at < $2)) ORDER BY synced_at, id LIMIT $3",
    )
    .bind(before)
    .bind(requested_before)
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

/// Asks for the account's statistics to be read again soon (after a publish).
pub async fn request_sync(db: &Db, account_id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE matrix_accounts SET sync_requested = 1 WHERE id = $1")
        .bind(account_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

// ---- H5 shares ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Share {
    pub share_id: String,
    pub merchant_id: i64,
    pub video_key: String,
    pub title: String,
    pub item_id: String,
    pub open_id: String,
    pub published_at: Option<i64>,
    pub created_at: i64,
}

pub async fn add_share(
    db: &Db,
    mid: i64,
    share_id: &str,
    video_key: &str,
    title: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO matrix_shares (share_id, merchant_id, video_key, title, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(share_id)
    .bind(mid)
    .bind(video_key)
    .bind(title)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn share(db: &Db, mid: i64, share_id: &str) -> sqlx::Result<Option<Share>> {
    sqlx::query_as(
        "SELECT share_id, merchant_id, video_key, title, item_id, open_id, published_at, created_at \
         FROM matrix_shares WHERE share_id = $1 AND merchant_id = $2",
    )
    .bind(share_id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// The platform says a customer posted a share: remember the work it became (first report wins).
pub async fn share_published(
    db: &Db,
    share_id: &str,
    item_id: &str,
    open_id: &str,
    at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE matrix_shares SET item_id = $1, open_id = $2, published_at = $3 WHERE share_id = $4 AND item_id = ''",
    )
    .bind(item_id)
    .bind(open_id)
    .bind(at)
    .bind(share_id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// An account's statistics and each of its works' numbers, in one transaction.
pub async fn set_stats_with_items(
    db: &Db,
    account_id: i64,
    s: (i64, i64, i64, i64),
    items: &[(String, i64, i64, i64)],
    now: i64,
) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "UPDATE matrix_accounts SET videos = $1, plays = $2, comments = $3, likes = $4, synced_at = $5, sync_requested = 0 \
         WHERE id = $6",
    )
    .bind(s.0)
    .bind(s.1)
    .bind(s.2)
    .bind(s.3)
    .bind(now)
    .bind(account_id)
    .execute(&mut *tx)
    .await?;
    for (item_id, plays, likes, comments) in items {
        sqlx::query(
            "UPDATE matrix_items SET plays = $1, likes = $2, comment_count = $3 WHERE account_id = $4 AND item_id = $5",
        )
        .bind(plays)
        .bind(likes)
        .bind(comments)
        .bind(account_id)
        .bind(item_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

/// Marks "create sent" for an item, only if no other attempt has (and it has no item id yet).
pub async fn claim_create(db: &Db, id: i64, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE matrix_items SET create_started_at = $1, updated_at = $2 WHERE id = $3 AND create_started_at IS NULL AND item_id = ''",
    )
    .bind(now)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Compare-and-set on the top-comment counter: moves it from `from` to `to` only if nobody else
/// moved it first. Claiming comment n before sending it means two senders of one item (the publisher
/// and a "send top comments" click, or a retried attempt) never post the same comment twice.
pub async fn move_comments_sent(db: &Db, id: i64, from: i64, to: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE matrix_items SET comments_sent = $1, updated_at = $2 WHERE id = $3 AND comments_sent = $4",
    )
    .bind(to)
    .bind(now_ms())
    .bind(id)
    .bind(from)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// The dashboard's two charts, one entry per China day from `first_day` for `days` days.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DailyStats {
    /// Items that went out that day (`published_at`).
    pub published: Vec<i64>,
    /// Items that failed, by the day they were due (review rejections are not publishing failures).
    pub failed: Vec<i64>,
    /// Plays and likes of the videos published that day, as last read from the platform.
    pub plays: Vec<i64>,
    pub likes: Vec<i64>,
}

/// Publishing and video statistics per day of one merchant, or of every merchant (`None`: the
/// operator's view).
pub async fn daily_stats(
    db: &Db,
    merchant_id: Option<i64>,
    first_day: i64,
    days: usize,
) -> sqlx::Result<DailyStats> {
    const DAY: i64 = 86_400_000;
    let tz = domain::matrix::TZ_OFFSET_MS;
    let (from, to) = (first_day * DAY - tz, (first_day + days as i64) * DAY - tz);
    let scope = if merchant_id.is_some() {
        "merchant_id = $4"
    } else {
        "$4 = 0"
    };
    let sum = |col: &str| format!("CAST(COALESCE(SUM({col}), 0) AS BIGINT)");
    let published: Vec<(i64, i64, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT (published_at + $1) / {DAY} AS day, COUNT(*), {}, {} FROM matrix_items \
         WHERE {scope} AND published_at >= $2 AND published_at < $3 GROUP BY 1",
        sum("plays"),
        sum("likes"),
    )))
    .bind(tz)
    .bind(from)
    .bind(to)
    .bind(merchant_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await?;
    let failed: Vec<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT (scheduled_at + $1) / {DAY} AS day, COUNT(*) FROM matrix_items \
         WHERE {scope} AND scheduled_at >= $2 AND scheduled_at < $3 AND state = 'failed' AND review_state <> 'rejected' \
         GROUP BY 1"
    )))
    .bind(tz)
    .bind(from)
    .bind(to)
    .bind(merchant_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await?;
    let mut s = DailyStats {
        published: vec![0; days],
        failed: vec![0; days],
        plays: vec![0; days],
        likes: vec![0; days],
    };
    let slot = |day: i64| usize::try_from(day - first_day).ok().filter(|&i| i < days);
    for (day, n, plays, likes) in published {
        if let Some(i) = slot(day) {
            (s.published[i], s.plays[i], s.likes[i]) = (n, plays, likes);
        }
    }
    for (day, n) in failed {
        if let Some(i) = slot(day) {
            s.failed[i] = n;
        }
    }
    Ok(s)
}
