//! Batch slicing (visual editing): slicing projects, their source videos with the state of each
//! source's `clip.slice` job, and the origin of every slice made (the slices themselves are ordinary
//! video materials in the project's group). Every query takes the merchant id, except the job's own
//! reads, which carry the merchant id in the row they read.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use crate::materials::MediaFile;
use domain::jobs::{ClipSlice, Job};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Project {
    pub id: i64,
    pub merchant_id: i64,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub mode: domain::clip::slicing::Mode,
    pub seconds: i64,
    pub min_seconds: i64,
    pub max_seconds: i64,
    pub group_id: i64,
    /// Derived from its sources: processing, failed, pending (something not sliced yet) or success.
    #[sqlx(try_from = "String")]
    pub state: domain::clip::slicing::SliceState,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A project's state from its sources: any slicing → processing; else any failed → failed; else any
/// pending (or no sources) → pending; else success.
const STATE_EXPR: &str = "(CASE \
     WHEN EXISTS (SELECT 1 FROM clip_slice_sources s WHERE s.project_id = p.id AND s.state = 'processing') THEN 'processing' \
     WHEN EXISTS (SELECT 1 FROM clip_slice_sources s WHERE s.project_id = p.id AND s.state = 'failed') THEN 'failed' \
     WHEN EXISTS (SELECT 1 FROM clip_slice_sources s WHERE s.project_id = p.id AND s.state = 'success') \
       AND NOT EXISTS (SELECT 1 FROM clip_slice_sources s WHERE s.project_id = p.id AND s.state = 'pending') THEN 'success' \
     ELSE 'pending' END)";

fn project_select() -> String {
    format!(
        "SELECT p.id, p.merchant_id, p.name, p.mode, p.seconds, p.min_seconds, p.max_seconds, p.group_id, \
         {STATE_EXPR} AS state, p.created_at, p.updated_at FROM clip_slice_projects p"
    )
}

pub static PROJECT_LIST: Entity = Entity {
    fields: &[
        field("name", "p.name", FieldType::Text),
        field("state", STATE_EXPR, FieldType::Select),
        field("mode", "p.mode", FieldType::Select),
        field("created_at", "p.created_at", FieldType::Date),
    ],
    default_order: "p.id DESC",
    tiebreak: "p.id",
};

pub async fn projects(
    db: &Db,
    merchant_id: i64,
    q: &ListQuery,
) -> Result<(Vec<Project>, Total), PageError> {
    list::page(
        db,
        &project_select(),
        "FROM clip_slice_projects p",
        "p.merchant_id = $1",
        &[Bind::I(merchant_id)],
        &PROJECT_LIST,
        q,
    )
    .await
}

pub async fn project(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Project>> {
    sqlx::query_as(crate::sqlf!(
        "{} WHERE p.id = $1 AND p.merchant_id = $2",
        project_select()
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// What a project is: its name, settings and target group.
#[derive(Debug, Clone)]
pub struct ProjectInput {
    pub name: String,
    pub mode: domain::clip::slicing::Mode,
    pub seconds: i64,
    pub min_seconds: i64,
    pub max_seconds: i64,
    pub group_id: i64,
}

/// A source video to add: the material's id and its name at that time.
pub type NewSource = (i64, String);

/// Creates a project with its sources in one transaction.
pub async fn add_project(
    db: &Db,
    merchant_id: i64,
    p: &ProjectInput,
    sources: &[NewSource],
) -> sqlx::Result<i64> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO clip_slice_projects (merchant_id, name, mode, seconds, min_seconds, max_seconds, group_id, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id",
    )
    .bind(merchant_id)
    .bind(&p.name)
    .bind(p.mode.as_str())
    .bind(p.seconds)
    .bind(p.min_seconds)
    .bind(p.max_seconds)
    .bind(p.group_id)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    insert_sources(&mut tx, merchant_id, id, sources, now).await?;
    tx.commit().await?;
    Ok(id)
}

async fn insert_sources(
    conn: &mut sqlx::AnyConnection,
    merchant_id: i64,
    project_id: i64,
    sources: &[NewSource],
    now: i64,
) -> sqlx::Result<usize> {
    let mut n = 0;
    for (resource_id, name) in sources {
        let added = sqlx::query(
            "INSERT INTO clip_slice_sources (merchant_id, project_id, resource_id, name, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (project_id, resource_id) DO NOTHING",
        )
        .bind(merchant_id)
        .bind(project_id)
        .bind(resource_id)
        .bind(name)
        .bind(now)
        .execute(&mut *conn)
        .await?
        .rows_affected();
        n += added as usize;
    }
    Ok(n)
}

/// Adds sources to a project (a video already in it is skipped); returns how many were added.
pub async fn add_sources(
    db: &Db,
    merchant_id: i64,
    project_id: i64,
    sources: &[NewSource],
) -> sqlx::Result<usize> {
    let mut tx = db.begin().await?;
    let n = insert_sources(&mut tx, merchant_id, project_id, sources, now_ms()).await?;
    tx.commit().await?;
    Ok(n)
}

pub async fn update_project(
    db: &Db,
    merchant_id: i64,
    id: i64,
    p: &ProjectInput,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE clip_slice_projects SET name = $1, mode = $2, seconds = $3, min_seconds = $4, max_seconds = $5, \
         group_id = $6, updated_at = $7 WHERE id = $8 AND merchant_id = $9",
    )
    .bind(&p.name)
    .bind(p.mode.as_str())
    .bind(p.seconds)
    .bind(p.min_seconds)
    .bind(p.max_seconds)
    .bind(p.group_id)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Deletes a project, its sources and the origin records of its slices. The slices stay: they are
/// video materials of the group now. Refused (false) while a source is being sliced — checked in the
/// same transaction.
pub async fn delete_project(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let busy: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM clip_slice_sources WHERE project_id = $1 AND merchant_id = $2 AND state = 'processing'",
    )
    .bind(id)
    .bind(merchant_id)
    .fetch_one(&mut *tx)
    .await?;
    if busy > 0 {
        return Ok(false);
    }
    for (table, key) in [
        ("clip_slices", "project_id"),
        ("clip_slice_sources", "project_id"),
        ("clip_slice_projects", "id"),
    ] {
        sqlx::query(crate::sqlf!(
            "DELETE FROM {table} WHERE {key} = $1 AND merchant_id = $2"
        ))
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(true)
}

// ---- sources ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Source {
    pub id: i64,
    pub merchant_id: i64,
    pub project_id: i64,
    pub resource_id: i64,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub state: domain::clip::slicing::SliceState,
    pub progress: i64,
    pub error: String,
    pub attempt: i64,
    pub job_id: i64,
    /// Slices made from it that still exist.
    pub slices: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const SOURCE_SELECT: &str = "SELECT s.id, s.merchant_id, s.project_id, s.resource_id, s.name, s.state, s.progress, s.error, \
     s.attempt, s.job_id, \
     (SELECT COUNT(*) FROM clip_slices c JOIN media_files m ON m.id = c.media_id WHERE c.source_id = s.id) AS slices, \
     s.created_at, s.updated_at FROM clip_slice_sources s";

pub async fn sources(db: &Db, merchant_id: i64, project_id: i64) -> sqlx::Result<Vec<Source>> {
    sqlx::query_as(crate::sqlf!(
        "{SOURCE_SELECT} WHERE s.project_id = $1 AND s.merchant_id = $2 ORDER BY s.id"
    ))
    .bind(project_id)
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await
}

pub async fn source(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Source>> {
    sqlx::query_as(crate::sqlf!(
        "{SOURCE_SELECT} WHERE s.id = $1 AND s.merchant_id = $2"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// For the job, which runs outside any request.
pub async fn source_any(db: &Db, id: i64) -> sqlx::Result<Option<Source>> {
    sqlx::query_as(crate::sqlf!("{SOURCE_SELECT} WHERE s.id = $1"))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

/// Queues a `clip.slice` job for each source that is not being sliced now (one job per source and
/// attempt: the idempotency key is `slice:<source>:<attempt>`), in one transaction; the sources become
/// `processing`. Returns the ids of the sources queued.
pub async fn queue(db: &Db, merchant_id: i64, source_ids: &[i64]) -> sqlx::Result<Vec<i64>> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let mut queued = vec![];
    for id in source_ids {
        let attempt: Option<i64> = sqlx::query_scalar(
            "UPDATE clip_slice_sources SET state = 'processing', progress = 0, error = '', attempt = attempt + 1, updated_at = $1 \
             WHERE id = $2 AND merchant_id = $3 AND state <> 'processing' RETURNING attempt",
        )
        .bind(now)
        .bind(id)
        .bind(merchant_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(attempt) = attempt else { continue };
        let job = crate::jobs::enqueue(
            &mut tx,
            &crate::jobs::NewJob {
                merchant_id: Some(merchant_id),
                idempotency_key: Some(format!("slice:{id}:{attempt}")),
                max_attempts: Some(3),
                ..crate::jobs::NewJob::new(Job::ClipSlice(ClipSlice { source_id: *id }))
            },
        )
        .await?;
        sqlx::query("UPDATE clip_slice_sources SET job_id = $1 WHERE id = $2")
            .bind(job)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        queued.push(*id);
    }
    crate::jobs::commit_and_wake(tx).await?;
    Ok(queued)
}

/// Moves a source being sliced by this job; a source no longer `processing` (cancelled) or queued again
/// under another job stays as it is (false).
pub async fn set_source_progress(
    db: &Db,
    id: i64,
    job_id: i64,
    state: &str,
    progress: i64,
    error: &str,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE clip_slice_sources SET state = $1, progress = $2, error = $3, updated_at = $4 \
         WHERE id = $5 AND job_id = $6 AND state = 'processing'",
    )
    .bind(state)
    .bind(progress.clamp(0, 100))
    .bind(error)
    .bind(now_ms())
    .bind(id)
    .bind(job_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Cancels a source being sliced: it fails with `reason`. Returns its job id.
pub async fn cancel_source(
    db: &Db,
    merchant_id: i64,
    id: i64,
    reason: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "UPDATE clip_slice_sources SET state = 'failed', progress = 0, error = $1, updated_at = $2 \
         WHERE id = $3 AND merchant_id = $4 AND state = 'processing' RETURNING job_id",
    )
    .bind(reason)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// Removes a source that is not being sliced, with the origin records of its slices (the slices stay
/// in the group). False when it is being sliced or does not exist.
pub async fn delete_source(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query(
        "DELETE FROM clip_slice_sources WHERE id = $1 AND merchant_id = $2 AND state <> 'processing'",
    )
    .bind(id)
    .bind(merchant_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n == 0 {
        return Ok(false);
    }
    sqlx::query("DELETE FROM clip_slices WHERE source_id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

pub async fn busy_sources(db: &Db, merchant_id: i64, project_id: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM clip_slice_sources WHERE project_id = $1 AND merchant_id = $2 AND state = 'processing'",
    )
    .bind(project_id)
    .bind(merchant_id)
    .fetch_one(&db.pool)
    .await
}

// ---- slices ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Slice {
    pub media_id: i64,
    pub merchant_id: i64,
    pub project_id: i64,
    pub source_id: i64,
    pub resource_id: i64,
    pub start_ms: i64,
    pub end_ms: i64,
    pub created_at: i64,
}

const SLICE_COLS: &str = "c.media_id, c.merchant_id, c.project_id, c.source_id, c.resource_id, c.start_ms, c.end_ms, c.created_at";

pub static SLICE_LIST: Entity = Entity {
    fields: &[
        field("name", "m.name", FieldType::Text),
        field("source_id", "c.source_id", FieldType::Int),
        field("start_ms", "c.start_ms", FieldType::Int),
        field("duration_ms", "m.duration_ms", FieldType::Int),
        field("group_id", "m.group_id", FieldType::Int),
        field("created_at", "c.created_at", FieldType::Date),
    ],
    default_order: "c.source_id ASC, c.start_ms ASC, c.media_id ASC",
    tiebreak: "c.media_id",
};

/// A page of a project's slices that still exist as materials.
pub async fn slices(
    db: &Db,
    merchant_id: i64,
    project_id: i64,
    q: &ListQuery,
) -> Result<(Vec<Slice>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {SLICE_COLS} FROM clip_slices c JOIN media_files m ON m.id = c.media_id"),
        "FROM clip_slices c JOIN media_files m ON m.id = c.media_id",
        "c.merchant_id = $1 AND c.project_id = $2",
        &[Bind::I(merchant_id), Bind::I(project_id)],
        &SLICE_LIST,
        q,
    )
    .await
}

/// Every existing slice of a project (ids of the materials).
pub async fn slice_ids(db: &Db, merchant_id: i64, project_id: i64) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar(
        "SELECT c.media_id FROM clip_slices c JOIN media_files m ON m.id = c.media_id \
         WHERE c.merchant_id = $1 AND c.project_id = $2 ORDER BY c.source_id, c.start_ms",
    )
    .bind(merchant_id)
    .bind(project_id)
    .fetch_all(&db.pool)
    .await
}

pub async fn slice(db: &Db, merchant_id: i64, media_id: i64) -> sqlx::Result<Option<Slice>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {SLICE_COLS} FROM clip_slices c WHERE c.media_id = $1 AND c.merchant_id = $2"
    ))
    .bind(media_id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// The slice already made for this part of a source, if its material still exists.
pub async fn made(
    db: &Db,
    source_id: i64,
    start_ms: i64,
    end_ms: i64,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "SELECT c.media_id FROM clip_slices c JOIN media_files m ON m.id = c.media_id \
         WHERE c.source_id = $1 AND c.start_ms = $2 AND c.end_ms = $3",
    )
    .bind(source_id)
    .bind(start_ms)
    .bind(end_ms)
    .fetch_optional(&db.pool)
    .await
}

/// Forgets a slice's origin (its material was deleted).
pub async fn forget(db: &Db, merchant_id: i64, media_id: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM clip_slices WHERE media_id = $1 AND merchant_id = $2")
        .bind(media_id)
        .bind(merchant_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// A finished slice: the ready video material (with its mezzanine, poster and strip already in
/// storage) and its origin.
#[derive(Debug, Clone, Default)]
pub struct NewSlice {
    /// The job making it: only the source's current job may record slices.
    pub job_id: i64,
    pub project_id: i64,
    pub source_id: i64,
    pub resource_id: i64,
    pub start_ms: i64,
    pub end_ms: i64,
    pub video: crate::materials::ReadyVideo,
}

/// Records a finished slice in one transaction — the material (ready, in the group) and its origin —
/// only while its source is still being sliced by this job and the part was not made already. Returns the new
/// material id, or None when nothing was written (cancelled, or made meanwhile: the caller removes
/// its files).
pub async fn insert_slice(db: &Db, s: &NewSlice) -> sqlx::Result<Option<i64>> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let live: Option<i64> = sqlx::query_scalar(
        "SELECT id FROM clip_slice_sources WHERE id = $1 AND job_id = $2 AND state = 'processing'",
    )
    .bind(s.source_id)
    .bind(s.job_id)
    .fetch_optional(&mut *tx)
    .await?;
    if live.is_none() {
        return Ok(None);
    }
    let existing: Option<i64> = sqlx::query_scalar(
        "SELECT c.media_id FROM clip_slices c WHERE c.source_id = $1 AND c.start_ms = $2 AND c.end_ms = $3",
    )
    .bind(s.source_id)
    .bind(s.start_ms)
    .bind(s.end_ms)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(media_id) = existing {
        let alive: Option<i64> = sqlx::query_scalar("SELECT id FROM media_files WHERE id = $1")
            .bind(media_id)
            .fetch_optional(&mut *tx)
            .await?;
        if alive.is_some() {
            return Ok(None);
        }
        // Its material was deleted elsewhere: the part may be made again.
        sqlx::query("DELETE FROM clip_slices WHERE media_id = $1")
            .bind(media_id)
            .execute(&mut *tx)
            .await?;
    }
    let id = crate::materials::insert_ready_video(&mut tx, &s.video).await?;
    sqlx::query(
        "INSERT INTO clip_slices (media_id, merchant_id, project_id, source_id, resource_id, start_ms, end_ms, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(s.video.merchant_id)
    .bind(s.project_id)
    .bind(s.source_id)
    .bind(s.resource_id)
    .bind(s.start_ms)
    .bind(s.end_ms)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(id))
}

/// The material rows of some slices (for the library view).
pub async fn media_of(db: &Db, merchant_id: i64, ids: &[i64]) -> sqlx::Result<Vec<MediaFile>> {
    let mut out = vec![];
    for id in ids {
        if let Some(m) = crate::materials::get(db, merchant_id, *id).await? {
            out.push(m);
        }
    }
    Ok(out)
}
