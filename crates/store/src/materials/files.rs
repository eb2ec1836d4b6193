//! Stored files (`media_files`): their rows, state and progress, names, library, group and uses.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::jobs::{Job, MediaIngest};
use domain::materials::IngestState;
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct MediaFile {
    pub id: i64,
    pub merchant_id: i64,
    pub library: String,
    #[sqlx(try_from = "String")]
    pub kind: domain::materials::MediaKind,
    pub group_id: i64,
    pub classify_id: i64,
    pub file_type_id: i64,
    pub name: String,
    pub original_name: String,
    #[serde(skip)]
    pub storage_key: String,
    pub mime: String,
    pub size: i64,
    pub width: i64,
    pub height: i64,
    pub duration_ms: i64,
    pub fps: f64,
    pub video_codec: String,
    pub audio_codec: String,
    pub has_audio: i64,
    pub rotation: i64,
    pub loudness: Option<f64>,
    #[serde(skip)]
    pub poster_key: String,
    #[serde(skip)]
    pub strip_key: String,
    #[serde(skip)]
    pub mezzanine_key: String,
    #[sqlx(try_from = "String")]
    pub state: domain::materials::IngestState,
    pub error: String,
    pub progress: i64,
    pub asr_state: String,
    pub asr_error: String,
    pub created_at: i64,
    pub updated_at: i64,
}

const MEDIA_COLS: &str = "id, merchant_id, library, kind, group_id, classify_id, file_type_id, name, original_name, \
     storage_key, mime, size, width, height, duration_ms, fps, video_codec, audio_codec, has_audio, rotation, loudness, \
     poster_key, strip_key, mezzanine_key, state, error, progress, asr_state, asr_error, created_at, updated_at";

#[derive(Debug, Clone, Default)]
pub struct NewMedia {
    pub merchant_id: i64,
    pub library: String,
    pub kind: domain::materials::MediaKind,
    pub group_id: i64,
    pub classify_id: i64,
    pub file_type_id: i64,
    pub name: String,
    pub original_name: String,
    pub storage_key: String,
    pub mime: String,
    pub size: i64,
    pub width: i64,
    pub height: i64,
    pub duration_ms: i64,
    pub fps: f64,
    pub video_codec: String,
    pub audio_codec: String,
    pub has_audio: bool,
    pub rotation: i64,
    /// `processing` when an ingest job follows, else `ready`.
    pub state: domain::materials::IngestState,
}

/// Inserts the file's row and, for media that needs ingest, its job — in one transaction.
pub async fn insert(db: &Db, m: &NewMedia, ingest: bool) -> sqlx::Result<MediaFile> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let row: MediaFile = sqlx::query_as(crate::sqlf!(
        "INSERT INTO media_files (merchant_id, library, kind, group_id, classify_id, file_type_id, name, original_name, \
         storage_key, mime, size, width, height, duration_ms, fps, video_codec, audio_codec, has_audio, rotation, state, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
         $19, $20, $21, $21) RETURNING {MEDIA_COLS}"
    ))
    .bind(m.merchant_id)
    .bind(&m.library)
    .bind(m.kind.as_str())
    .bind(m.group_id)
    .bind(m.classify_id)
    .bind(m.file_type_id)
    .bind(&m.name)
    .bind(&m.original_name)
    .bind(&m.storage_key)
    .bind(&m.mime)
    .bind(m.size)
    .bind(m.width)
    .bind(m.height)
    .bind(m.duration_ms)
    .bind(m.fps)
    .bind(&m.video_codec)
    .bind(&m.audio_codec)
    .bind(m.has_audio as i64)
    .bind(m.rotation)
    .bind(m.state.as_str())
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    if ingest {
        crate::jobs::enqueue(
            &mut tx,
            &crate::jobs::NewJob {
                merchant_id: Some(m.merchant_id),
                idempotency_key: Some(format!("ingest:{}", row.id)),
                max_attempts: Some(3),
                ..crate::jobs::NewJob::new(Job::MediaIngest(MediaIngest { media_id: row.id }))
            },
        )
        .await?;
    }
    crate::jobs::commit_and_wake(tx).await?;
    Ok(row)
}

/// A finished video whose files are already in storage (a slice, a smart-editing short): the one file
/// is both the original and the mezzanine.
#[derive(Debug, Clone, Default)]
pub struct ReadyVideo {
    pub merchant_id: i64,
    pub group_id: i64,
    pub name: String,
    pub original_name: String,
    pub key: String,
    pub poster_key: String,
    pub strip_key: String,
    pub size: i64,
    pub width: i64,
    pub height: i64,
    pub duration_ms: i64,
    pub fps: f64,
    pub video_codec: String,
    pub audio_codec: String,
    pub has_audio: bool,
    pub loudness: Option<f64>,
}

/// Records a ready video material of the resource library in the caller's transaction; its id.
pub async fn insert_ready_video(
    conn: &mut sqlx::AnyConnection,
    v: &ReadyVideo,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO media_files (merchant_id, library, kind, group_id, classify_id, file_type_id, name, original_name, \
         storage_key, mime, size, width, height, duration_ms, fps, video_codec, audio_codec, has_audio, rotation, loudness, \
         poster_key, strip_key, mezzanine_key, state, progress, created_at, updated_at) \
         VALUES ($1, 'resource', 'video', $2, 0, 0, $3, $4, $5, 'video/mp4', $6, $7, $8, $9, $10, $11, $12, $13, 0, $14, \
         $15, $16, $5, 'ready', 100, $17, $17) RETURNING id",
    )
    .bind(v.merchant_id)
    .bind(v.group_id)
    .bind(&v.name)
    .bind(&v.original_name)
    .bind(&v.key)
    .bind(v.size)
    .bind(v.width)
    .bind(v.height)
    .bind(v.duration_ms)
    .bind(v.fps)
    .bind(&v.video_codec)
    .bind(&v.audio_codec)
    .bind(v.has_audio as i64)
    .bind(v.loudness)
    .bind(&v.poster_key)
    .bind(&v.strip_key)
    .bind(now_ms())
    .fetch_one(conn)
    .await
}

pub async fn get(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<MediaFile>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {MEDIA_COLS} FROM media_files WHERE id = $1 AND merchant_id = $2"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// The merchant's materials among `ids`, in one query (a page of rows that point at materials);
/// ids of other merchants or of nothing are left out.
pub async fn get_many(db: &Db, merchant_id: i64, ids: &[i64]) -> sqlx::Result<Vec<MediaFile>> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    let marks: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
    // `+merchant_id`: look the ids up by key; SQLite otherwise walked all of the merchant's rows through
    // a merchant index to find a handful of ids.
    let sql = crate::sqlf!(
        "SELECT {MEDIA_COLS} FROM media_files WHERE +merchant_id = $1 AND id IN ({})",
        marks.join(", ")
    );
    let mut q = sqlx::query_as(sql).bind(merchant_id);
    for id in ids {
        q = q.bind(*id);
    }
    q.fetch_all(&db.pool).await
}

/// For the ingest worker, which runs outside any request (the job carries the merchant id).
pub async fn get_any(db: &Db, id: i64) -> sqlx::Result<Option<MediaFile>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {MEDIA_COLS} FROM media_files WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

pub static MEDIA_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("original_name", "original_name", FieldType::Text),
        field("kind", "kind", FieldType::Select),
        field("state", "state", FieldType::Select),
        field("group_id", "group_id", FieldType::Int),
        field("classify_id", "classify_id", FieldType::Int),
        field("file_type_id", "file_type_id", FieldType::Int),
        field("size", "size", FieldType::Int),
        field("duration_ms", "duration_ms", FieldType::Int),
        field("width", "width", FieldType::Int),
        field("height", "height", FieldType::Int),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

pub async fn list(
    db: &Db,
    merchant_id: i64,
    library: &str,
    q: &ListQuery,
) -> Result<(Vec<MediaFile>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {MEDIA_COLS} FROM media_files"),
        "FROM media_files",
        "merchant_id = $1 AND library = $2",
        &[Bind::I(merchant_id), Bind::S(library.to_string())],
        &MEDIA_LIST,
        q,
    )
    .await
}

/// An ingest's progress (0–100); `note` is the reason of a failed attempt that will be retried.
pub async fn ingest_progress(db: &Db, id: i64, progress: i64, note: &str) -> sqlx::Result<()> {
    move_ingest(db, id, IngestState::Processing, progress, note).await
}

/// An ingest failed for good, with its reason (ffmpeg's words).
pub async fn ingest_failed(db: &Db, id: i64, reason: &str) -> sqlx::Result<()> {
    move_ingest(db, id, IngestState::Failed, 0, reason).await
}

async fn move_ingest(
    db: &Db,
    id: i64,
    state: IngestState,
    progress: i64,
    error: &str,
) -> sqlx::Result<()> {
    debug_assert!(IngestState::Processing.can_become(state));
    // Only a file still being ingested moves: a twin run of its job (a lost lease, a killed worker) must
    // not turn a ready file back into processing or failed.
    sqlx::query("UPDATE media_files SET state = $1, progress = $2, error = $3, updated_at = $4 WHERE id = $5 AND state = 'processing'")
        .bind(state.as_str())
        .bind(progress)
        .bind(error)
        .bind(now_ms())
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

pub async fn set_outputs(
    db: &Db,
    id: i64,
    poster: &str,
    strip: &str,
    mezzanine: &str,
    loudness: Option<f64>,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE media_files SET poster_key = $1, strip_key = $2, mezzanine_key = $3, loudness = $4, state = 'ready', \
         progress = 100, error = '', updated_at = $5 WHERE id = $6",
    )
    .bind(poster)
    .bind(strip)
    .bind(mezzanine)
    .bind(loudness)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Records what of a material the product generated (`domain::clip::aigc::Provenance` as JSON).
pub async fn set_provenance(db: &Db, id: i64, provenance: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE media_files SET provenance = $1 WHERE id = $2")
        .bind(provenance)
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// What of a material the product generated ('' for the merchant's own, or no such material).
pub async fn provenance(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<String> {
    Ok(
        sqlx::query_scalar("SELECT provenance FROM media_files WHERE id = $1 AND merchant_id = $2")
            .bind(id)
            .bind(merchant_id)
            .fetch_optional(&db.pool)
            .await?
            .unwrap_or_default(),
    )
}

pub async fn rename(db: &Db, merchant_id: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE media_files SET name = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
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

pub async fn move_to_group(
    db: &Db,
    merchant_id: i64,
    id: i64,
    group_id: i64,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE media_files SET group_id = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(group_id)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Where a material is used (projects, finished videos). Labels for the refusal message.
pub async fn uses(db: &Db, merchant_id: i64, media_id: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT label FROM material_uses WHERE merchant_id = $1 AND media_id = $2 ORDER BY id",
    )
    .bind(merchant_id)
    .bind(media_id)
    .fetch_all(&db.pool)
    .await
}

pub async fn add_use(
    db: &Db,
    merchant_id: i64,
    media_id: i64,
    user_kind: &str,
    user_id: i64,
    label: &str,
) -> sqlx::Result<()> {
    sqlx::query("INSERT INTO material_uses (merchant_id, media_id, user_kind, user_id, label, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(merchant_id)
        .bind(media_id)
        .bind(user_kind)
        .bind(user_id)
        .bind(label)
        .bind(now_ms())
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Deletes the row (and its subtitle lines); returns the storage keys to remove.
pub async fn delete(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Vec<String>>> {
    let Some(m) = get(db, merchant_id, id).await? else {
        return Ok(None);
    };
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM asr_lines WHERE resource_id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM media_files WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(
        [m.storage_key, m.poster_key, m.strip_key, m.mezzanine_key]
            .into_iter()
            .filter(|k| !k.is_empty())
            .collect(),
    ))
}

pub async fn set_library(
    db: &Db,
    merchant_id: i64,
    id: i64,
    library: &str,
    name: &str,
) -> sqlx::Result<bool> {
    let n = sqlx::query("UPDATE media_files SET library = $1, name = $2, updated_at = $3 WHERE id = $4 AND merchant_id = $5")
        .bind(library)
        .bind(name)
        .bind(now_ms())
        .bind(id)
        .bind(merchant_id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Progress {
    pub id: i64,
    /// Which library the material is in: a staff member hears only of the libraries they may open.
    #[serde(skip)]
    pub library: String,
    #[sqlx(try_from = "String")]
    pub state: domain::materials::IngestState,
    pub progress: i64,
    pub error: String,
    pub asr_state: String,
    pub updated_at: i64,
}

/// Materials of a merchant whose state changed since a time: what the progress stream pushes.
pub async fn changed_since(db: &Db, merchant_id: i64, since: i64) -> sqlx::Result<Vec<Progress>> {
    sqlx::query_as(
        "SELECT id, library, state, progress, error, asr_state, updated_at FROM media_files \
         WHERE merchant_id = $1 AND updated_at > $2 ORDER BY updated_at LIMIT 200",
    )
    .bind(merchant_id)
    .bind(since)
    .fetch_all(&db.pool)
    .await
}
