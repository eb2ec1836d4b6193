//! AI smart editing runs (/intellect): the request, the state of its `clip.intellect` job and
//! the chosen segments. Rules: `domain::clip::intellect`.

use crate::Db;
use crate::list::{self, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::clip::intellect::State;
use domain::jobs::{IntellectRef, Job};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Run {
    pub id: i64,
    pub merchant_id: i64,
    pub resource_id: i64,
    pub group_id: i64,
    pub name: String,
    pub min_seconds: i64,
    pub max_seconds: i64,
    pub max_count: i64,
    pub lang: String,
    #[sqlx(try_from = "String")]
    pub state: domain::clip::intellect::State,
    pub step: String,
    pub progress: i64,
    pub reason: String,
    pub points: i64,
    pub points_key: String,
    pub job_id: i64,
    pub segments: String,
    pub created_by: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLS: &str = "id, merchant_id, resource_id, group_id, name, min_seconds, max_seconds, max_count, lang, \
     state, step, progress, reason, points, points_key, job_id, segments, created_by, created_at, updated_at";

pub static RUN_LIST: Entity = Entity {
    fields: &[
        field("merchant_id", "merchant_id", FieldType::Int),
        field("name", "name", FieldType::Text),
        field("state", "state", FieldType::Select),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

/// A page of runs (the Administrator's: every merchant's; filter `merchant_id` to narrow).
pub async fn list(db: &Db, q: &ListQuery) -> Result<(Vec<Run>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {COLS} FROM intellect_runs"),
        "FROM intellect_runs",
        "1 = 1",
        &[],
        &RUN_LIST,
        q,
    )
    .await
}

pub async fn get(db: &Db, id: i64) -> sqlx::Result<Option<Run>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {COLS} FROM intellect_runs WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// What a new run names.
#[derive(Debug, Clone, Default)]
pub struct NewRun {
    pub merchant_id: i64,
    pub resource_id: i64,
    pub group_id: i64,
    pub name: String,
    pub min_seconds: i64,
    pub max_seconds: i64,
    pub max_count: i64,
    pub lang: String,
    pub points: i64,
    pub points_key: String,
    pub created_by: String,
}

/// Records a run and queues its job in one transaction; the run's id.
pub async fn insert(db: &Db, r: &NewRun) -> sqlx::Result<i64> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO intellect_runs (merchant_id, resource_id, group_id, name, min_seconds, max_seconds, max_count, \
         lang, points, points_key, created_by, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING id",
    )
    .bind(r.merchant_id)
    .bind(r.resource_id)
    .bind(r.group_id)
    .bind(&r.name)
    .bind(r.min_seconds)
    .bind(r.max_seconds)
    .bind(r.max_count)
    .bind(&r.lang)
    .bind(r.points)
    .bind(&r.points_key)
    .bind(&r.created_by)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    enqueue(&mut tx, r.merchant_id, id, 1).await?;
    crate::jobs::commit_and_wake(tx).await?;
    Ok(id)
}

async fn enqueue(
    tx: &mut sqlx::AnyConnection,
    merchant_id: i64,
    id: i64,
    attempt: i64,
) -> sqlx::Result<()> {
    let job = crate::jobs::enqueue(
        tx,
        &crate::jobs::NewJob {
            merchant_id: Some(merchant_id),
            idempotency_key: Some(format!("intellect:{id}:{attempt}")),
            max_attempts: Some(2),
            ..crate::jobs::NewJob::new(Job::ClipIntellect(IntellectRef { run_id: id }))
        },
    )
    .await?;
    sqlx::query("UPDATE intellect_runs SET job_id = $1 WHERE id = $2")
        .bind(job)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Starts a failed run again under a new job (its points were given back, so `points` and
/// `points_key` are the new charge); false when the run is not failed.
pub async fn retry(db: &Db, id: i64, points: i64, points_key: &str) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query(
        "UPDATE intellect_runs SET state = $1, step = 'analyse', progress = 0, reason = '', points = $2, \
         points_key = $3, updated_at = $4 WHERE id = $5 AND state = $6",
    )
    .bind(State::Running.as_str())
    .bind(points)
    .bind(points_key)
    .bind(now_ms())
    .bind(id)
    .bind(State::Failed.as_str())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n == 0 {
        return Ok(false);
    }
    let (merchant_id, attempt): (i64, i64) = sqlx::query_as(
        "SELECT merchant_id, (SELECT COUNT(*) FROM jobs WHERE idempotency_key LIKE $1) FROM intellect_runs WHERE id = $2",
    )
    .bind(format!("intellect:{id}:%"))
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    enqueue(&mut tx, merchant_id, id, attempt + 1).await?;
    crate::jobs::commit_and_wake(tx).await?;
    Ok(true)
}

/// Moves a running run on (step and progress) while `job_id` is still its job; false otherwise.
pub async fn step(db: &Db, id: i64, job_id: i64, step: &str, progress: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE intellect_runs SET step = $1, progress = $2, updated_at = $3 \
         WHERE id = $4 AND job_id = $5 AND state = $6",
    )
    .bind(step)
    .bind(progress)
    .bind(now_ms())
    .bind(id)
    .bind(job_id)
    .bind(State::Running.as_str())
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// The chosen segments (JSON), as picked: only while none are recorded, so a twin run of the job (a
/// lapsed lease) cannot wipe the shorts the other recorded on them.
pub async fn set_segments(db: &Db, id: i64, segments: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE intellect_runs SET segments = $1, updated_at = $2 WHERE id = $3 AND segments IN ('', '[]')")
        .bind(segments)
        .bind(now_ms())
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Ends a run still running under `job_id` (a twin run of the job may have ended it): done
/// (progress 100) or failed with its reason (a message key, `domain::i18n::reason`).
pub async fn finish(db: &Db, id: i64, job_id: i64, state: State, reason: &str) -> sqlx::Result<()> {
    let progress = if state == State::Done { 100 } else { 0 };
    sqlx::query(
        "UPDATE intellect_runs SET state = $1, progress = CASE WHEN $2 = 100 THEN 100 ELSE progress END, \
         reason = $3, updated_at = $4 WHERE id = $5 AND job_id = $6 AND state = $7",
    )
    .bind(state.as_str())
    .bind(progress)
    .bind(reason)
    .bind(now_ms())
    .bind(id)
    .bind(job_id)
    .bind(State::Running.as_str())
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Deletes a run that is not working (its shorts stay in their group); false when it is.
pub async fn delete(db: &Db, id: i64) -> sqlx::Result<bool> {
    let n = sqlx::query("DELETE FROM intellect_runs WHERE id = $1 AND state <> $2")
        .bind(id)
        .bind(State::Running.as_str())
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

/// Records the short cut from segment `index` in one transaction — the ready video material in the
/// run's group and its id on the segment — only while `job_id` still runs the run and the segment has
/// no live short yet. The new material's id, or None when nothing was written (the caller then
/// removes its files).
pub async fn insert_short(
    db: &Db,
    id: i64,
    job_id: i64,
    index: usize,
    video: &crate::materials::ReadyVideo,
) -> sqlx::Result<Option<i64>> {
    let mut tx = db.begin().await?;
    // The run's row is locked first (a write locks it on PostgreSQL and takes SQLite's write lock), so
    // two runs of one job (a lapsed lease) record a segment's short one after the other: the second
    // sees the first's and writes nothing.
    sqlx::query("UPDATE intellect_runs SET updated_at = updated_at WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    let segments: Option<String> = sqlx::query_scalar(
        "SELECT segments FROM intellect_runs WHERE id = $1 AND job_id = $2 AND state = $3",
    )
    .bind(id)
    .bind(job_id)
    .bind(State::Running.as_str())
    .fetch_optional(&mut *tx)
    .await?;
    let Some(segments) = segments else {
        return Ok(None);
    };
    let mut segments: Vec<domain::clip::intellect::Segment> =
        serde_json::from_str(&segments).unwrap_or_default();
    let Some(seg) = segments.get_mut(index) else {
        return Ok(None);
    };
    if let Some(made) = seg.media_id {
        let alive: Option<i64> = sqlx::query_scalar("SELECT id FROM media_files WHERE id = $1")
            .bind(made)
            .fetch_optional(&mut *tx)
            .await?;
        if alive.is_some() {
            return Ok(None);
        }
    }
    let media = crate::materials::insert_ready_video(&mut tx, video).await?;
    seg.media_id = Some(media);
    sqlx::query("UPDATE intellect_runs SET segments = $1, updated_at = $2 WHERE id = $3")
        .bind(serde_json::to_string(&segments).unwrap_or_else(|_| "[]".into()))
        .bind(now_ms())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(media))
}
