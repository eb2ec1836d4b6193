//! AI voice (area `ai`, migration 0019): synthesis tasks, favourite voices per user, voice clones.
//! Every query is scoped by merchant.

use crate::Db;
use crate::list::{self, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::ai::TaskState;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Task {
    pub id: i64,
    pub merchant_id: i64,
    pub user_id: i64,
    pub name: String,
    pub text: String,
    pub voice: String,
    pub volume: i64,
    pub speed: i64,
    pub intonation: i64,
    pub chars: i64,
    pub points: i64,
    pub points_key: String,
    #[sqlx(try_from = "String")]
    pub state: domain::ai::TaskState,
    pub progress: i64,
    pub reason: String,
    pub storage_key: String,
    pub duration_ms: i64,
    /// JSON `[{start_ms, end_ms, content}]`.
    pub lines: String,
    pub media_id: i64,
    pub job_id: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLS: &str = "id, merchant_id, user_id, name, text, voice, volume, speed, intonation, chars, \
    points, points_key, state, progress, reason, storage_key, duration_ms, lines, media_id, job_id, \
    created_at, updated_at";

/// A task about to be queued.
pub struct NewTask<'a> {
    pub merchant_id: i64,
    pub user_id: i64,
    pub name: &'a str,
    pub params: &'a domain::ai::Params,
    pub chars: i64,
    pub points: i64,
    pub points_key: &'a str,
}

/// Records the task and queues its `tts` job in one transaction.
pub async fn insert_task(db: &Db, t: &NewTask<'_>, now: i64) -> sqlx::Result<(i64, i64)> {
    let mut tx = db.begin().await?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO tts_tasks (merchant_id, user_id, name, text, voice, volume, speed, intonation, \
         chars, points, points_key, state, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'queued', $12, $12) RETURNING id",
    )
    .bind(t.merchant_id)
    .bind(t.user_id)
    .bind(t.name)
    .bind(&t.params.text)
    .bind(&t.params.voice)
    .bind(t.params.volume)
    .bind(t.params.speed)
    .bind(t.params.intonation)
    .bind(t.chars)
    .bind(t.points)
    .bind(t.points_key)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    let payload = domain::jobs::TtsRef { task_id: id };
    let job = crate::jobs::NewJob {
        merchant_id: Some(t.merchant_id),
        idempotency_key: Some(t.points_key.to_string()),
        max_attempts: Some(2),
        ..crate::jobs::NewJob::new(domain::jobs::Job::Tts(payload))
    };
    let job_id = crate::jobs::enqueue(&mut tx, &job).await?;
    sqlx::query("UPDATE tts_tasks SET job_id = $1 WHERE id = $2")
        .bind(job_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    crate::jobs::wake();
    Ok((id, job_id))
}

pub async fn task(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Task>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {COLS} FROM tts_tasks WHERE id = $1 AND merchant_id = $2"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// For the job, which has only the id.
pub async fn task_any(db: &Db, id: i64) -> sqlx::Result<Option<Task>> {
    sqlx::query_as(crate::sqlf!("SELECT {COLS} FROM tts_tasks WHERE id = $1"))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

pub static TASK_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("text", "text", FieldType::Text),
        field("voice", "voice", FieldType::Text),
        field("state", "state", FieldType::Text),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

pub async fn tasks(
    db: &Db,
    merchant_id: i64,
    q: &ListQuery,
) -> Result<(Vec<Task>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {COLS} FROM tts_tasks"),
        "FROM tts_tasks",
        "merchant_id = $1",
        &[list::Bind::I(merchant_id)],
        &TASK_LIST,
        q,
    )
    .await
}

/// `UPDATE … SET state = next, <set> … WHERE id = $2 AND state IN (states that may become next)`:
/// `$1` is the time, `$2` the id, `<set>` uses `$3`…
fn move_sql(next: TaskState, set: &str) -> sqlx::AssertSqlSafe<String> {
    let from: Vec<String> = [
        TaskState::Queued,
        TaskState::Running,
        TaskState::Done,
        TaskState::Failed,
    ]
    .into_iter()
    .filter(|s| s.can_become(next))
    .map(|s| format!("'{}'", s.as_str()))
    .collect();
    crate::sqlf!(
        "UPDATE tts_tasks SET state = '{}', {set} updated_at = $1 WHERE id = $2 AND state IN ({})",
        next.as_str(),
        from.join(", ")
    )
}

pub async fn task_running(db: &Db, id: i64, progress: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(move_sql(TaskState::Running, "progress = $3,"))
        .bind(domain::now_ms())
        .bind(id)
        .bind(progress)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

pub async fn task_done(
    db: &Db,
    id: i64,
    storage_key: &str,
    duration_ms: i64,
    lines_json: &str,
) -> sqlx::Result<bool> {
    let set = "progress = 100, reason = '', storage_key = $3, duration_ms = $4, lines = $5,";
    let n = sqlx::query(move_sql(TaskState::Done, set))
        .bind(domain::now_ms())
        .bind(id)
        .bind(storage_key)
        .bind(duration_ms)
        .bind(lines_json)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

pub async fn task_failed(db: &Db, id: i64, reason: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(move_sql(TaskState::Failed, "reason = $3,"))
        .bind(domain::now_ms())
        .bind(id)
        .bind(reason)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

/// Deletes a task that is not being synthesized; answers the row deleted.
pub async fn delete_task(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Task>> {
    let Some(t) = task(db, merchant_id, id).await? else {
        return Ok(None);
    };
    let n = sqlx::query(
        "DELETE FROM tts_tasks WHERE id = $1 AND merchant_id = $2 AND state IN ('done', 'failed')",
    )
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok((n > 0).then_some(t))
}

pub async fn set_media(db: &Db, merchant_id: i64, id: i64, media_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE tts_tasks SET media_id = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(media_id)
    .bind(domain::now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A task's progress as the console's event stream sends it.
#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct TaskProgress {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub state: domain::ai::TaskState,
    pub progress: i64,
    pub reason: String,
    pub duration_ms: i64,
    pub updated_at: i64,
}

pub async fn tasks_changed_since(
    db: &Db,
    merchant_id: i64,
    since: i64,
) -> sqlx::Result<Vec<TaskProgress>> {
    sqlx::query_as(
        "SELECT id, state, progress, reason, duration_ms, updated_at FROM tts_tasks \
         WHERE merchant_id = $1 AND updated_at > $2 ORDER BY updated_at LIMIT 200",
    )
    .bind(merchant_id)
    .bind(since)
    .fetch_all(&db.pool)
    .await
}

// ---- favourite voices ----

pub async fn likes(db: &Db, user_id: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar("SELECT voice FROM tts_voice_likes WHERE user_id = $1 ORDER BY created_at")
        .bind(user_id)
        .fetch_all(&db.pool)
        .await
}

/// Likes or unlikes a voice for one user; answers whether it is liked now.
pub async fn set_like(
    db: &Db,
    merchant_id: i64,
    user_id: i64,
    voice: &str,
    liked: bool,
) -> sqlx::Result<bool> {
    if liked {
        sqlx::query(
            "INSERT INTO tts_voice_likes (merchant_id, user_id, voice, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (user_id, voice) DO NOTHING",
        )
        .bind(merchant_id)
        .bind(user_id)
        .bind(voice)
        .bind(domain::now_ms())
        .execute(&db.pool)
        .await?;
    } else {
        sqlx::query("DELETE FROM tts_voice_likes WHERE user_id = $1 AND voice = $2")
            .bind(user_id)
            .bind(voice)
            .execute(&db.pool)
            .await?;
    }
    Ok(liked)
}

// ---- voice clones ----

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Clone {
    pub id: i64,
    pub merchant_id: i64,
    pub name: String,
    pub speaker_id: String,
    #[sqlx(try_from = "String")]
    pub state: domain::ai::CloneState,
    pub reason: String,
    pub sample_key: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const CLONE_COLS: &str =
    "id, merchant_id, name, speaker_id, state, reason, sample_key, created_at, updated_at";

pub async fn insert_clone(
    db: &Db,
    merchant_id: i64,
    name: &str,
    speaker_id: &str,
    sample_key: &str,
) -> sqlx::Result<i64> {
    let now = domain::now_ms();
    sqlx::query_scalar(
        "INSERT INTO voice_clones (merchant_id, name, speaker_id, state, sample_key, created_at, updated_at) \
         VALUES ($1, $2, $3, 'training', $4, $5, $5) RETURNING id",
    )
    .bind(merchant_id)
    .bind(name)
    .bind(speaker_id)
    .bind(sample_key)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn clones(db: &Db, merchant_id: i64) -> sqlx::Result<Vec<Clone>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {CLONE_COLS} FROM voice_clones WHERE merchant_id = $1 ORDER BY id DESC"
    ))
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await
}

pub async fn clone_by_speaker(
    db: &Db,
    merchant_id: i64,
    speaker_id: &str,
) -> sqlx::Result<Option<Clone>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {CLONE_COLS} FROM voice_clones WHERE merchant_id = $1 AND speaker_id = $2"
    ))
    .bind(merchant_id)
    .bind(speaker_id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn set_clone_state(db: &Db, id: i64, state: &str, reason: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE voice_clones SET state = $1, reason = $2, updated_at = $3 WHERE id = $4")
        .bind(state)
        .bind(reason)
        .bind(domain::now_ms())
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Records a streamed audition's ticket as not used yet (and forgets the expired ones).
pub async fn issue_ticket(db: &Db, nonce: &str, expires_at: i64, now: i64) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM audition_tickets WHERE expires_at < $1")
        .bind(now)
        .execute(&db.pool)
        .await?;
    sqlx::query("INSERT INTO audition_tickets (nonce, expires_at) VALUES ($1, $2)")
        .bind(nonce)
        .bind(expires_at)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Uses a ticket up: true only for its first use before it ends.
pub async fn use_ticket(db: &Db, nonce: &str, now: i64) -> sqlx::Result<bool> {
    let n = sqlx::query("DELETE FROM audition_tickets WHERE nonce = $1 AND expires_at >= $2")
        .bind(nonce)
        .bind(now)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}
