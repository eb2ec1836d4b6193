//! Release items (`matrix_items`): their list, the dispatcher's and publisher's steps, the create
//! claim and the top-comment counter.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::jobs::{ItemRef, Job};
use domain::matrix::{ItemFailure, ItemState};
use domain::now_ms;
use serde::Serialize;
use std::collections::HashSet;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Item {
    pub id: i64,
    pub merchant_id: i64,
    pub task_id: i64,
    pub task_name: Option<String>,
    pub account_id: i64,
    pub nickname: Option<String>,
    pub avatar: Option<String>,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub video_key: String,
    pub video_name: String,
    pub title: String,
    pub comments: String,
    pub scheduled_at: i64,
    #[sqlx(try_from = "String")]
    pub review_state: domain::matrix::Review,
    #[sqlx(try_from = "String")]
    pub state: domain::matrix::ItemState,
    /// Why it failed (or is being retried): a `domain::matrix::ItemFailure` code, its arguments
    /// (JSON object); empty in rows written before codes, which keep their texts below.
    pub error_code: String,
    pub error_args: String,
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
    /// The latest failed browser step's evidence: its step code, page address and storage key
    /// (`<key>.png`, `<key>.html`); empty when none.
    pub evidence_step: String,
    pub evidence_url: String,
    pub evidence_key: String,
}

impl Item {
    /// What the item's actions depend on (`domain::matrix::ItemFacts`).
    pub fn facts(&self) -> domain::matrix::ItemFacts {
        domain::matrix::ItemFacts {
            state: self.state,
            review: self.review_state,
            verified: self.verified_at.is_some(),
            posted: !self.item_id.is_empty(),
        }
    }
}

const ITEM_COLS: &str = "i.id, i.merchant_id, i.task_id, t.name AS task_name, i.account_id, a.nickname, a.avatar, i.platform, \
    i.video_key, i.video_name, i.title, i.comments, i.scheduled_at, i.review_state, i.state, i.error_code, i.error_args, i.error_zh, i.error_en, \
    i.attempts, i.job_id, i.remote_video_id, i.create_started_at, i.item_id, i.share_url, i.published_at, i.verified_at, \
    i.released_at, i.review_checks, i.comments_sent, i.plays, i.likes, i.comment_count, \
    i.evidence_step, i.evidence_url, i.evidence_key";
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
    paused: &[&str],
) -> sqlx::Result<Vec<i64>> {
    let mut due: Vec<i64> = sqlx::query_scalar(
        "SELECT DISTINCT account_id FROM matrix_items WHERE state = 'to_release' AND review_state = 'approved' \
         AND scheduled_at <= $1 AND job_id = 0",
    )
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    if !paused.is_empty() && !due.is_empty() {
        // A paused platform's items wait (its canary failed): their accounts are not offered.
        let marks: Vec<String> = (1..=paused.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT id FROM matrix_accounts WHERE platform IN ({})",
            marks.join(", ")
        );
        // Only numbered placeholders are formatted in; the codes are bound.
        let mut q = sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql));
        for p in paused {
            q = q.bind(*p);
        }
        let held: HashSet<i64> = q.fetch_all(&db.pool).await?.into_iter().collect();
        due.retain(|a| !held.contains(a));
    }
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

/// Enqueues the publishing of a due item, recording the job on the item in the same transaction.
pub async fn queue_publish(db: &Db, item_id: i64, mid: i64, key: &str) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    let job = enqueue_for_item(&mut tx, mid, key, Job::PublishItem(ItemRef { item_id })).await?;
    sqlx::query("UPDATE matrix_items SET job_id = $1 WHERE id = $2 AND job_id = 0")
        .bind(job)
        .bind(item_id)
        .execute(&mut *tx)
        .await?;
    crate::jobs::commit_and_wake(tx).await
}

/// Enqueues a review check of a posted item; no second check is queued until this one has run.
pub async fn queue_review(db: &Db, item_id: i64, mid: i64, key: &str) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    enqueue_for_item(&mut tx, mid, key, Job::PublishReview(ItemRef { item_id })).await?;
    sqlx::query("UPDATE matrix_items SET review_check_at = NULL WHERE id = $1")
        .bind(item_id)
        .execute(&mut *tx)
        .await?;
    crate::jobs::commit_and_wake(tx).await
}

async fn enqueue_for_item(
    tx: &mut sqlx::AnyConnection,
    mid: i64,
    key: &str,
    job: Job,
) -> sqlx::Result<i64> {
    crate::jobs::enqueue(
        tx,
        &crate::jobs::NewJob {
            merchant_id: Some(mid),
            idempotency_key: Some(key.to_string()),
            max_attempts: Some(8),
            ..crate::jobs::NewJob::new(job)
        },
    )
    .await
}

/// "Publish now" / retry: the item becomes due at `now` with a fresh job. Only waiting or failed
/// items that never reached the platform's list; ok=false otherwise.
pub async fn requeue_item(db: &Db, mid: i64, id: i64, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE matrix_items SET state = 'to_release', job_id = 0, scheduled_at = $1, error_code = '', error_args = '', error_zh = '', error_en = '', updated_at = $2 \
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

// ---- the publisher's steps on an item, each one small committed write ----

async fn exec<'q>(
    q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    db: &Db,
) -> sqlx::Result<()> {
    q.execute(&db.pool).await?;
    Ok(())
}

/// An attempt of job `job_id` starts: the item is publishing (`ItemState::Publishing`), on its n-th
/// attempt. False (nothing written) when the item is no longer the job's to publish.
pub async fn start_publishing(db: &Db, id: i64, job_id: i64, attempts: i64) -> sqlx::Result<bool> {
    // Only while the item is still this job's and waiting (or this job's earlier attempt left it
    // publishing): "publish now" or a reschedule may have taken it from the job since the job read it.
    let r = sqlx::query(
        "UPDATE matrix_items SET state = $1, attempts = $2, updated_at = $3 \
         WHERE id = $4 AND job_id = $5 AND state IN ($6, $7)",
    )
    .bind(ItemState::Publishing.as_str())
    .bind(attempts)
    .bind(now_ms())
    .bind(id)
    .bind(job_id)
    .bind(ItemState::ToRelease.as_str())
    .bind(ItemState::Publishing.as_str())
    .execute(&db.pool)
    .await?;
    Ok(r.rows_affected() == 1)
}

/// The item failed (`ItemState::Failed`) for `why`, with its arguments (a JSON object, or ''). Only
/// an item not yet on the platform's list: a publish job's stale twin (its lease lapsed while it ran)
/// failing late must not mark a post that its other run published.
pub async fn mark_failed(db: &Db, id: i64, why: ItemFailure, args: &str) -> sqlx::Result<()> {
    exec(
        sqlx::query(
            "UPDATE matrix_items SET state = $1, error_code = $2, error_args = $3, updated_at = $4 \
             WHERE id = $5 AND state IN ($6, $7)",
        )
        .bind(ItemState::Failed.as_str())
        .bind(why.as_str())
        .bind(args)
        .bind(now_ms())
        .bind(id)
        .bind(ItemState::ToRelease.as_str())
        .bind(ItemState::Publishing.as_str()),
        db,
    )
    .await
}

/// A passing failure that the job tries again: shown on the item meanwhile.
pub async fn note_retrying(db: &Db, id: i64, args: &str) -> sqlx::Result<()> {
    exec(
        sqlx::query("UPDATE matrix_items SET error_code = $1, error_args = $2, updated_at = $3 WHERE id = $4")
            .bind(ItemFailure::Retrying.as_str())
            .bind(args)
            .bind(now_ms())
            .bind(id),
        db,
    )
    .await
}

/// A browser step failed on the item: where its screenshot and page HTML are stored (the latest
/// failure replaces the one before).
pub async fn save_evidence(db: &Db, id: i64, step: &str, url: &str, key: &str) -> sqlx::Result<()> {
    exec(
        sqlx::query(
            "UPDATE matrix_items SET evidence_step = $1, evidence_url = $2, evidence_key = $3, updated_at = $4 WHERE id = $5",
        )
        .bind(step)
        .bind(url)
        .bind(key)
        .bind(now_ms())
        .bind(id),
        db,
    )
    .await
}

/// The video is uploaded: its id on the platform, so a later attempt does not upload it again.
pub async fn save_uploaded(db: &Db, id: i64, remote_video_id: &str) -> sqlx::Result<()> {
    exec(
        sqlx::query("UPDATE matrix_items SET remote_video_id = $1, updated_at = $2 WHERE id = $3")
            .bind(remote_video_id)
            .bind(now_ms())
            .bind(id),
        db,
    )
    .await
}

/// The post exists on the platform: its item id and when (platform clock).
pub async fn mark_created(db: &Db, id: i64, item_id: &str, at: i64) -> sqlx::Result<()> {
    exec(
        sqlx::query("UPDATE matrix_items SET item_id = $1, published_at = $2, updated_at = $3 WHERE id = $4")
            .bind(item_id)
            .bind(at)
            .bind(now_ms())
            .bind(id),
        db,
    )
    .await
}

/// The create sent before did not post anything: the next attempt may send it again.
pub async fn forget_create(db: &Db, id: i64) -> sqlx::Result<()> {
    exec(
        sqlx::query("UPDATE matrix_items SET create_started_at = NULL WHERE id = $1").bind(id),
        db,
    )
    .await
}

/// The next look at a work under review: after `checks` looks, at `at` (real time).
pub async fn next_review_check(db: &Db, id: i64, checks: i64, at: i64) -> sqlx::Result<()> {
    exec(
        sqlx::query(
            "UPDATE matrix_items SET review_checks = $1, review_check_at = $2, updated_at = $3 WHERE id = $4",
        )
        .bind(checks)
        .bind(at)
        .bind(now_ms())
        .bind(id),
        db,
    )
    .await
}

/// What the account's work list says about a published work.
pub enum Seen {
    /// Under the platform's review: look again at `check_at` (real time), the `checks`-th look.
    Reviewing { check_at: i64, checks: i64 },
    /// Public since `at` (platform clock).
    Released { at: i64 },
    /// Rejected by the platform's review (`ItemFailure::PlatformRejected` with its reason).
    Rejected { reason: String },
}

/// Records a work seen in the account's list: its numbers, its link, verified (the first time, at
/// `now`, platform clock), and its state as the platform's review has it. Clears an earlier error.
/// Only while the work is being published or under review: a release or a rejection is the end, and
/// only a stale twin of the publish job (its lease lapsed while it ran; it read the list before the
/// review ended) would write over it.
pub async fn record_seen(
    db: &Db,
    id: i64,
    (plays, likes, comments): (i64, i64, i64),
    share_url: &str,
    now: i64,
    seen: &Seen,
) -> sqlx::Result<()> {
    let (state, code, args, check_at, checks, released_at) = match seen {
        Seen::Reviewing { check_at, checks } => (
            ItemState::Published,
            "",
            String::new(),
            Some(*check_at),
            Some(*checks),
            None,
        ),
        Seen::Released { at } => (
            ItemState::Released,
            "",
            String::new(),
            None,
            None,
            Some(*at),
        ),
        Seen::Rejected { reason } => (
            ItemState::Failed,
            ItemFailure::PlatformRejected.as_str(),
            serde_json::json!({ "reason": reason }).to_string(),
            None,
            None,
            None,
        ),
    };
    exec(
        sqlx::query(
            "UPDATE matrix_items SET plays = $1, likes = $2, comment_count = $3, share_url = $4, \
             error_code = $5, error_args = $6, error_zh = '', error_en = '', state = $7, \
             verified_at = COALESCE(verified_at, $8), \
             review_check_at = CASE WHEN $9 = 1 THEN $10 ELSE review_check_at END, \
             review_checks = CASE WHEN $9 = 1 THEN $11 ELSE review_checks END, \
             released_at = CASE WHEN $12 = 1 THEN $13 ELSE released_at END, updated_at = $14 WHERE id = $15 \
             AND state IN ($16, $17)",
        )
        .bind(plays)
        .bind(likes)
        .bind(comments)
        .bind(share_url)
        .bind(code)
        .bind(args)
        .bind(state.as_str())
        .bind(now)
        .bind(check_at.is_some() as i64)
        .bind(check_at.unwrap_or(0))
        .bind(checks.unwrap_or(0))
        .bind(released_at.is_some() as i64)
        .bind(released_at.unwrap_or(0))
        .bind(now_ms())
        .bind(id)
        .bind(ItemState::Publishing.as_str())
        .bind(ItemState::Published.as_str()),
        db,
    )
    .await
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
