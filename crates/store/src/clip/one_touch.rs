//! AI clip projects / one-touch videos: the request, the state of its `clip.one_touch` job
//! and what each step made. States and their moves: `domain::clip::one_touch::State`.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::jobs::{AiClipRef, Job};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct AiClip {
    pub id: i64,
    pub merchant_id: i64,
    pub user_id: i64,
    #[sqlx(try_from = "String")]
    pub kind: domain::clip::one_touch::Kind,
    pub name: String,
    pub topic: String,
    pub request: String,
    #[sqlx(try_from = "String")]
    pub state: domain::clip::one_touch::State,
    pub progress: i64,
    pub reason: String,
    pub script: String,
    pub writer: String,
    pub voice_media_id: i64,
    pub shots: String,
    pub project_id: i64,
    pub job_id: i64,
    pub attempt: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLS: &str = "id, merchant_id, user_id, kind, name, topic, request, state, progress, reason, script, \
     writer, voice_media_id, shots, project_id, job_id, attempt, created_at, updated_at";

pub static AI_CLIP_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("topic", "topic", FieldType::Text),
        field("state", "state", FieldType::Select),
        field("kind", "kind", FieldType::Select),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

/// A page of the merchant's AI clip projects (`started`: only those ever queued — the job list).
pub async fn list(
    db: &Db,
    merchant_id: i64,
    started: bool,
    q: &ListQuery,
) -> Result<(Vec<AiClip>, Total), PageError> {
    let scope = if started {
        "merchant_id = $1 AND state <> 'draft'"
    } else {
        "merchant_id = $1"
    };
    list::page(
        db,
        &format!("SELECT {COLS} FROM ai_clips"),
        "FROM ai_clips",
        scope,
        &[Bind::I(merchant_id)],
        &AI_CLIP_LIST,
        q,
    )
    .await
}

pub async fn get(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<AiClip>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {COLS} FROM ai_clips WHERE id = $1 AND merchant_id = $2"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// One row whoever owns it (the job's view).
pub async fn get_any(db: &Db, id: i64) -> sqlx::Result<Option<AiClip>> {
    sqlx::query_as(crate::sqlf!("SELECT {COLS} FROM ai_clips WHERE id = $1"))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

/// The rows of the merchant changed since `since` (ms), for the progress stream.
pub async fn changed_since(db: &Db, merchant_id: i64, since: i64) -> sqlx::Result<Vec<AiClip>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {COLS} FROM ai_clips WHERE merchant_id = $1 AND updated_at > $2 ORDER BY updated_at LIMIT 100"
    ))
    .bind(merchant_id)
    .bind(since)
    .fetch_all(&db.pool)
    .await
}

/// A new draft; its id.
pub async fn insert(
    db: &Db,
    merchant_id: i64,
    user_id: i64,
    kind: &str,
    name: &str,
    topic: &str,
    request: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO ai_clips (merchant_id, user_id, kind, name, topic, request, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING id",
    )
    .bind(merchant_id)
    .bind(user_id)
    .bind(kind)
    .bind(name)
    .bind(topic)
    .bind(request)
    .bind(now_ms())
    .fetch_one(&db.pool)
    .await
}

/// Changes a row's request while it is not working; false when it is (or is gone).
pub async fn update_request(
    db: &Db,
    merchant_id: i64,
    id: i64,
    name: &str,
    topic: &str,
    request: &str,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE ai_clips SET name = $1, topic = $2, request = $3, updated_at = $4 \
         WHERE id = $5 AND merchant_id = $6 AND state IN ('draft', 'failed', 'done')",
    )
    .bind(name)
    .bind(topic)
    .bind(request)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

pub async fn rename(db: &Db, merchant_id: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE ai_clips SET name = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(name)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Deletes a row that is not working (its project and videos stay in the finished-video library).
pub async fn delete(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "DELETE FROM ai_clips WHERE id = $1 AND merchant_id = $2 AND state IN ('draft', 'failed', 'done')",
    )
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Queues the one-touch job of a draft or failed row in one transaction (a new attempt each time);
/// false when the row is working or finished.
pub async fn start(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query(
        "UPDATE ai_clips SET state = 'queued', progress = 0, reason = '', attempt = attempt + 1, updated_at = $1 \
         WHERE id = $2 AND merchant_id = $3 AND state IN ('draft', 'failed')",
    )
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n == 0 {
        return Ok(false);
    }
    let attempt: i64 = sqlx::query_scalar("SELECT attempt FROM ai_clips WHERE id = $1")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    let job = crate::jobs::enqueue(
        &mut tx,
        &crate::jobs::NewJob {
            merchant_id: Some(merchant_id),
            idempotency_key: Some(format!("onetouch:{id}:{attempt}")),
            max_attempts: Some(3),
            ..crate::jobs::NewJob::new(Job::ClipOneTouch(AiClipRef { ai_clip_id: id }))
        },
    )
    .await?;
    sqlx::query("UPDATE ai_clips SET job_id = $1 WHERE id = $2")
        .bind(job)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

/// Moves a working row to a step (or on within it) with its progress.
pub async fn step(db: &Db, id: i64, state: &str, progress: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE ai_clips SET state = $1, progress = $2, updated_at = $3 WHERE id = $4")
        .bind(state)
        .bind(progress)
        .bind(now_ms())
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The script, written once: false (nothing written) when the row already holds one (a twin run of
/// the job, its lease lapsed while this one lived, wrote its own first).
pub async fn set_script(db: &Db, id: i64, script: &str, writer: &str) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE ai_clips SET script = $1, writer = $2, updated_at = $3 WHERE id = $4 AND script = '[]'",
    )
    .bind(script)
    .bind(writer)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// The voice-over, only over the one the run read (`was`): false (nothing written) when a twin run
/// set its own first.
pub async fn set_voice(db: &Db, id: i64, media_id: i64, was: i64) -> sqlx::Result<bool> {
    let r = sqlx::query(
        "UPDATE ai_clips SET voice_media_id = $1, updated_at = $2 WHERE id = $3 AND voice_media_id = $4",
    )
    .bind(media_id)
    .bind(now_ms())
    .bind(id)
    .bind(was)
    .execute(&db.pool)
    .await?;
    Ok(r.rows_affected() > 0)
}

/// The matched shots and the project made from them; the row is rendering from here on. False (nothing
/// written) when the row no longer holds the project `was`.
pub async fn set_project(
    db: &Db,
    id: i64,
    shots: &str,
    project_id: i64,
    was: i64,
) -> sqlx::Result<bool> {
    // Only over the project the caller saw (none, or one deleted since): a twin run of the same job
    // may have set its own meanwhile, and then this caller's is the one to go.
    let n = sqlx::query(
        "UPDATE ai_clips SET shots = $1, project_id = $2, state = $3, progress = $4, updated_at = $5 \
         WHERE id = $6 AND project_id = $7",
    )
    .bind(shots)
    .bind(project_id)
    .bind(domain::clip::one_touch::State::Rendering.as_str())
    .bind(domain::clip::one_touch::State::Rendering.base_progress())
    .bind(now_ms())
    .bind(id)
    .bind(was)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Settles a rendering row (done, or failed with a reason) once its variants have; progress as given.
pub async fn settle(
    db: &Db,
    id: i64,
    state: &str,
    progress: i64,
    reason: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE ai_clips SET state = $1, progress = $2, reason = $3, updated_at = $4 WHERE id = $5 AND state = 'rendering'",
    )
    .bind(state)
    .bind(progress)
    .bind(reason)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A render's progress moves the row's (only upwards, only while rendering).
pub async fn render_progress(db: &Db, id: i64, progress: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE ai_clips SET progress = $1, updated_at = $2 WHERE id = $3 AND state = 'rendering' AND progress < $1",
    )
    .bind(progress)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn failed(db: &Db, id: i64, reason: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE ai_clips SET state = 'failed', reason = $1, updated_at = $2 WHERE id = $3")
        .bind(reason)
        .bind(now_ms())
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The AI clip row whose project is `project_id` (the render job reports to it).
pub async fn of_project(db: &Db, project_id: i64) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("SELECT id FROM ai_clips WHERE project_id = $1 AND project_id > 0")
        .bind(project_id)
        .fetch_optional(&db.pool)
        .await
}

/// (group, length) of every ready video clip of the merchant (matching weighs groups by length).
pub async fn ready_clips(db: &Db, merchant_id: i64) -> sqlx::Result<Vec<(i64, i64)>> {
    sqlx::query_as(
        "SELECT group_id, duration_ms FROM media_files WHERE merchant_id = $1 AND kind = 'video' AND state = 'ready'",
    )
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await
}

/// (group, line) of every recognized speech line of the merchant's ready video clips.
pub async fn clip_speech(db: &Db, merchant_id: i64) -> sqlx::Result<Vec<(i64, String)>> {
    sqlx::query_as(
        "SELECT f.group_id, a.content FROM asr_lines a JOIN media_files f ON f.id = a.resource_id \
         WHERE a.merchant_id = $1 AND f.merchant_id = $1 AND f.kind = 'video' AND f.state = 'ready' ORDER BY a.id",
    )
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await
}

/// An image one-touch can show: a ready image material of the merchant's with what describes it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ImageRow {
    pub id: i64,
    pub name: String,
    pub original_name: String,
    /// Its image category (0: none).
    pub file_type_id: i64,
    /// Its shot group (0: none).
    pub group_id: i64,
}

/// Every ready image of the merchant's (image library and shot groups), oldest first.
pub async fn ready_images(db: &Db, merchant_id: i64) -> sqlx::Result<Vec<ImageRow>> {
    sqlx::query_as(
        "SELECT id, name, original_name, file_type_id, group_id FROM media_files \
         WHERE merchant_id = $1 AND kind = 'image' AND state = 'ready' ORDER BY id",
    )
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await
}

/// The reason the project's first failed video gives (None when none failed).
pub async fn first_variant_error(db: &Db, project_id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT error FROM clip_variants WHERE project_id = $1 AND state = 'failed' ORDER BY id LIMIT 1",
    )
    .bind(project_id)
    .fetch_optional(&db.pool)
    .await
}
