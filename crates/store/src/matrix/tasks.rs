//! Release tasks (`matrix_tasks`): their list and review, creation with their planned items, deletion
//! and re-planning.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::matrix::{ItemFailure, ItemState, Review};
use domain::now_ms;
use serde::Serialize;
use std::collections::HashSet;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Task {
    pub id: i64,
    pub merchant_id: i64,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::TaskPlatform,
    /// Videos or an image note (migration 0044).
    #[sqlx(try_from = "String")]
    pub kind: domain::matrix::TaskKind,
    /// The form's choices (JSON as TEXT; rows of older versions load, see `TaskConfig`).
    #[sqlx(try_from = "String")]
    pub config: domain::matrix::TaskConfig,
    #[sqlx(try_from = "String")]
    pub time_mode: domain::matrix::TimeMode,
    pub start_date: String,
    pub days: i64,
    pub daily_quantity: i64,
    #[sqlx(try_from = "String")]
    pub review_state: domain::matrix::Review,
    pub review_reason: String,
    pub review_due_at: i64,
    pub reviewed_at: Option<i64>,
    pub seed: i64,
    pub created_at: i64,
    pub merchant_name: Option<String>,
}

const TASK_COLS: &str = "t.id, t.merchant_id, t.name, t.platform, t.kind, t.config, t.time_mode, t.start_date, t.days, \
    t.daily_quantity, t.review_state, t.review_reason, t.review_due_at, t.reviewed_at, t.seed, t.created_at, \
    m.name AS merchant_name";
const TASK_FROM: &str = "FROM matrix_tasks t LEFT JOIN merchants m ON m.id = t.merchant_id";

pub static TASK_LIST: Entity = Entity {
    fields: &[
        field("name", "t.name", FieldType::Text),
        field("platform", "t.platform", FieldType::Select),
        field("kind", "t.kind", FieldType::Select),
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

/// A task's items by state (what the console shows as its counts).
#[derive(Debug, Clone, Default, Serialize)]
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
        match ItemState::parse(&s) {
            Some(ItemState::ToRelease) => c.to_release = n,
            Some(ItemState::Publishing) => c.publishing = n,
            Some(ItemState::Published) => c.published = n,
            Some(ItemState::Released) => c.released = n,
            Some(ItemState::Failed) => c.failed = n,
            None => {}
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
    pub platform: domain::platform::TaskPlatform,
    pub kind: domain::matrix::TaskKind,
    pub config: domain::matrix::TaskConfig,
    pub time_mode: domain::matrix::TimeMode,
    pub start_date: String,
    pub days: i64,
    pub daily_quantity: i64,
    pub review_due_at: i64,
    pub seed: i64,
    /// Who created it (the staff report counts tasks by it).
    pub user_id: i64,
}

#[derive(Debug, Clone)]
pub struct NewItem {
    pub account_id: i64,
    pub platform: domain::platform::Platform,
    pub video_key: String,
    pub video_name: String,
    pub title: String,
    pub comments: Vec<String>,
    pub scheduled_at: i64,
    /// What this post carries apart from its task's form (a release batch's row); None: the task's.
    pub post: Option<domain::matrix::ItemPost>,
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
           review_due_at, seed, created_at, updated_at, user_id, kind) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12, $13) RETURNING id",
    )
    .bind(mid)
    .bind(&t.name)
    .bind(t.platform.as_str())
    .bind(t.config.to_text())
    .bind(t.time_mode.as_str())
    .bind(&t.start_date)
    .bind(t.days)
    .bind(t.daily_quantity)
    .bind(t.review_due_at)
    .bind(t.seed)
    .bind(now)
    .bind(t.user_id)
    .bind(t.kind.as_str())
    .fetch_one(&mut *tx)
    .await?;
    for it in items {
        let item: Option<i64> = sqlx::query_scalar(
            "INSERT INTO matrix_items (merchant_id, task_id, account_id, platform, video_key, video_name, title, comments, \
               scheduled_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) \
             ON CONFLICT (merchant_id, video_key) DO NOTHING RETURNING id",
        )
        .bind(mid)
        .bind(id)
        .bind(it.account_id)
        .bind(it.platform.as_str())
        .bind(&it.video_key)
        .bind(&it.video_name)
        .bind(&it.title)
        .bind(serde_json::to_string(&it.comments).unwrap_or_default())
        .bind(it.scheduled_at)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(item) = item else {
            tx.rollback().await?;
            return Ok(None);
        };
        if let Some(post) = &it.post {
            sqlx::query(
                "INSERT INTO matrix_item_posts (item_id, merchant_id, post) VALUES ($1, $2, $3)",
            )
            .bind(item)
            .bind(mid)
            .bind(post.to_text())
            .execute(&mut *tx)
            .await?;
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

/// What an item posts apart from its task's form (`NewItem::post`), when it was given one.
pub async fn item_post(db: &Db, item_id: i64) -> sqlx::Result<Option<domain::matrix::ItemPost>> {
    let text: Option<String> =
        sqlx::query_scalar("SELECT post FROM matrix_item_posts WHERE item_id = $1")
            .bind(item_id)
            .fetch_optional(&db.pool)
            .await?;
    Ok(text.map(|t| domain::matrix::ItemPost::read(&t)))
}

/// Decides a task's review (`to` is approved or rejected; only a task under review moves, see
/// `Review::can_become`). Approved items keep their planned time, except those whose time has
/// passed, which go out a minute apart from `now` (platform clock). Rejected items fail with the
/// reason (code `review_rejected`). False when the task was not under review.
pub async fn decide_review(
    db: &Db,
    id: i64,
    to: Review,
    reason: &str,
    now: i64,
) -> sqlx::Result<bool> {
    if !Review::Reviewing.can_become(to) {
        return Ok(false);
    }
    let approve = to == Review::Approved;
    let mut tx = db.begin().await?;
    let n = sqlx::query(
        "UPDATE matrix_tasks SET review_state = $1, review_reason = $2, reviewed_at = $3, updated_at = $3 \
         WHERE id = $4 AND review_state = 'reviewing' AND deleted = 0",
    )
    .bind(to.as_str())
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
            "UPDATE matrix_items SET review_state = 'rejected', state = 'failed', error_code = $1, error_args = $2, updated_at = $3 \
             WHERE task_id = $4 AND state = 'to_release'",
        )
        .bind(ItemFailure::ReviewRejected.as_str())
        .bind(serde_json::json!({ "reason": reason }).to_string())
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
        "DELETE FROM matrix_item_posts WHERE merchant_id = $2 AND item_id IN (SELECT id FROM matrix_items \
         WHERE task_id = $1 AND merchant_id = $2 AND state IN ('to_release', 'failed') AND item_id = '')",
    )
    .bind(id)
    .bind(mid)
    .execute(&mut *tx)
    .await?;
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

/// The configs of the merchant's latest tasks (the form offers the mini programs used before).
pub async fn task_configs(
    db: &Db,
    mid: i64,
    limit: i64,
) -> sqlx::Result<Vec<domain::matrix::TaskConfig>> {
    let rows: Vec<String> = sqlx::query_scalar(
        "SELECT config FROM matrix_tasks WHERE merchant_id = $1 ORDER BY id DESC LIMIT $2",
    )
    .bind(mid)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(domain::matrix::TaskConfig::from)
        .collect())
}

/// A task's new schedule and the re-plan of its waiting items under it.
pub struct Replan {
    pub time_mode: domain::matrix::TimeMode,
    pub start_date: String,
    pub days: i64,
    pub daily_quantity: i64,
    /// (item id, new time) of the items that keep a slot.
    pub moved: Vec<(i64, i64)>,
    /// The items the new schedule has no room for; they fail.
    pub refused: Vec<i64>,
}

/// Writes a task's re-plan in one transaction, so an error midway never leaves it half re-planned. Only
/// items still waiting move or fail: one the publisher took since the plan was read goes out as it was.
pub async fn reschedule_items(db: &Db, mid: i64, task_id: i64, p: &Replan) -> sqlx::Result<()> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    for (id, at) in &p.moved {
        sqlx::query(
            "UPDATE matrix_items SET scheduled_at = $1, job_id = 0, updated_at = $2 \
             WHERE id = $3 AND merchant_id = $4 AND task_id = $5 AND state = $6",
        )
        .bind(*at)
        .bind(now)
        .bind(*id)
        .bind(mid)
        .bind(task_id)
        .bind(ItemState::ToRelease.as_str())
        .execute(&mut *tx)
        .await?;
    }
    for id in &p.refused {
        sqlx::query(
            "UPDATE matrix_items SET state = 'failed', error_code = $1, error_args = '', updated_at = $2 \
             WHERE id = $3 AND merchant_id = $4 AND task_id = $5 AND state = $6",
        )
        .bind(ItemFailure::NoRoom.as_str())
        .bind(now)
        .bind(*id)
        .bind(mid)
        .bind(task_id)
        .bind(ItemState::ToRelease.as_str())
        .execute(&mut *tx)
        .await?;
    }
    sqlx::query(
        "UPDATE matrix_tasks SET time_mode = $1, start_date = $2, days = $3, daily_quantity = $4, updated_at = $5 \
         WHERE id = $6 AND merchant_id = $7",
    )
    .bind(p.time_mode.as_str())
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
