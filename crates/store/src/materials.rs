//! Material libraries: classify tree, shot groups, stored files, file types, resumable uploads,
//! subtitle lines and material uses. Every query takes the merchant id.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::jobs::{JobKind, MediaIngest};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct MediaFile {
    pub id: i64,
    pub merchant_id: i64,
    pub library: String,
    pub kind: String,
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
    pub state: String,
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
    pub kind: String,
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
    pub state: String,
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
    .bind(&m.kind)
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
    .bind(&m.state)
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
                ..crate::jobs::NewJob::new(JobKind::MediaIngest, &MediaIngest { media_id: row.id })
            },
        )
        .await?;
    }
    crate::jobs::commit_and_wake(tx).await?;
    Ok(row)
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

pub async fn set_progress(
    db: &Db,
    id: i64,
    state: &str,
    progress: i64,
    error: &str,
) -> sqlx::Result<()> {
    sqlx::query("UPDATE media_files SET state = $1, progress = $2, error = $3, updated_at = $4 WHERE id = $5")
        .bind(state)
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

// ---- shot groups ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Group {
    pub id: i64,
    pub classify_id: i64,
    pub kind: String,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
    pub count: i64,
    pub ready: i64,
}

const GROUP_SELECT: &str = "SELECT g.id, g.classify_id, g.kind, g.name, g.sort, g.created_at, \
     (SELECT COUNT(*) FROM media_files f WHERE f.group_id = g.id AND f.merchant_id = g.merchant_id) AS count, \
     (SELECT COUNT(*) FROM media_files f WHERE f.group_id = g.id AND f.merchant_id = g.merchant_id AND f.state = 'ready') AS ready \
     FROM resource_groups g";

pub static GROUP_LIST: Entity = Entity {
    fields: &[
        field("name", "g.name", FieldType::Text),
        field("kind", "g.kind", FieldType::Select),
        field("classify_id", "g.classify_id", FieldType::Int),
        field("created_at", "g.created_at", FieldType::Date),
        field("sort", "g.sort", FieldType::Int),
    ],
    default_order: "g.sort ASC, g.id ASC",
    tiebreak: "g.id",
};

pub async fn groups(
    db: &Db,
    merchant_id: i64,
    kind: &str,
    q: &ListQuery,
) -> Result<(Vec<Group>, Total), PageError> {
    list::page(
        db,
        GROUP_SELECT,
        "FROM resource_groups g",
        "g.merchant_id = $1 AND g.kind = $2",
        &[Bind::I(merchant_id), Bind::S(kind.to_string())],
        &GROUP_LIST,
        q,
    )
    .await
}

pub async fn group(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Group>> {
    sqlx::query_as(crate::sqlf!(
        "{GROUP_SELECT} WHERE g.id = $1 AND g.merchant_id = $2"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn add_group(
    db: &Db,
    merchant_id: i64,
    kind: &str,
    name: &str,
    classify_id: i64,
) -> sqlx::Result<i64> {
    let now = now_ms();
    sqlx::query_scalar(
        "INSERT INTO resource_groups (merchant_id, classify_id, kind, name, sort, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, (SELECT COALESCE(MAX(sort), 0) + 1 FROM resource_groups WHERE merchant_id = $1), $5, $5) RETURNING id",
    )
    .bind(merchant_id)
    .bind(classify_id)
    .bind(kind)
    .bind(name)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn rename_group(db: &Db, merchant_id: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE resource_groups SET name = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
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

/// Deletes a group; its materials go back to "ungrouped" (they are not deleted).
pub async fn delete_group(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE media_files SET group_id = 0 WHERE group_id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    let n = sqlx::query("DELETE FROM resource_groups WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(n > 0)
}

// ---- classify tree ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Classify {
    pub id: i64,
    pub parent_id: i64,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
}

pub async fn classifies(db: &Db, merchant_id: i64) -> sqlx::Result<Vec<Classify>> {
    sqlx::query_as("SELECT id, parent_id, name, sort, created_at FROM material_classify WHERE merchant_id = $1 ORDER BY sort, id")
        .bind(merchant_id)
        .fetch_all(&db.pool)
        .await
}

pub async fn add_classify(
    db: &Db,
    merchant_id: i64,
    parent_id: i64,
    name: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO material_classify (merchant_id, parent_id, name, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(merchant_id)
    .bind(parent_id)
    .bind(name)
    .bind(now_ms())
    .fetch_one(&db.pool)
    .await
}

pub async fn rename_classify(db: &Db, merchant_id: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n =
        sqlx::query("UPDATE material_classify SET name = $1 WHERE id = $2 AND merchant_id = $3")
            .bind(name)
            .bind(id)
            .bind(merchant_id)
            .execute(&db.pool)
            .await?
            .rows_affected();
    Ok(n > 0)
}

/// Deletes a classify node and its subtree; groups under them become unclassified.
pub async fn delete_classify(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let all = classifies(db, merchant_id).await?;
    if !all.iter().any(|c| c.id == id) {
        return Ok(false);
    }
    let mut doomed = vec![id];
    let mut i = 0;
    while i < doomed.len() {
        let p = doomed[i];
        doomed.extend(all.iter().filter(|c| c.parent_id == p).map(|c| c.id));
        i += 1;
    }
    let mut tx = db.begin().await?;
    for d in &doomed {
        sqlx::query("UPDATE resource_groups SET classify_id = 0 WHERE classify_id = $1 AND merchant_id = $2").bind(d).bind(merchant_id).execute(&mut *tx).await?;
        sqlx::query(
            "UPDATE media_files SET classify_id = 0 WHERE classify_id = $1 AND merchant_id = $2",
        )
        .bind(d)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM material_classify WHERE id = $1 AND merchant_id = $2")
            .bind(d)
            .bind(merchant_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(true)
}

// ---- resumable uploads ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct UploadSession {
    pub id: String,
    pub merchant_id: i64,
    pub user_id: i64,
    pub file_name: String,
    pub size: i64,
    pub chunk_size: i64,
    pub chunks: String,
    pub library: String,
    pub group_id: i64,
    pub expires_at: i64,
    pub created_at: i64,
}

impl UploadSession {
    pub fn total_chunks(&self) -> i64 {
        (self.size + self.chunk_size - 1) / self.chunk_size
    }
    pub fn received(&self) -> Vec<i64> {
        let mut v: Vec<i64> = self
            .chunks
            .split(',')
            .filter_map(|s| s.parse().ok())
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

pub async fn create_upload(db: &Db, s: &UploadSession) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO upload_sessions (id, merchant_id, user_id, file_name, size, chunk_size, chunks, library, group_id, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, '', $7, $8, $9, $10)",
    )
    .bind(&s.id)
    .bind(s.merchant_id)
    .bind(s.user_id)
    .bind(&s.file_name)
    .bind(s.size)
    .bind(s.chunk_size)
    .bind(&s.library)
    .bind(s.group_id)
    .bind(s.expires_at)
    .bind(s.created_at)
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn upload(db: &Db, merchant_id: i64, id: &str) -> sqlx::Result<Option<UploadSession>> {
    sqlx::query_as(
        "SELECT id, merchant_id, user_id, file_name, size, chunk_size, chunks, library, group_id, expires_at, created_at \
         FROM upload_sessions WHERE id = $1 AND merchant_id = $2 AND expires_at > $3",
    )
    .bind(id)
    .bind(merchant_id)
    .bind(now_ms())
    .fetch_optional(&db.pool)
    .await
}

pub async fn mark_chunk(db: &Db, id: &str, index: i64) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    let chunks: String = sqlx::query_scalar("SELECT chunks FROM upload_sessions WHERE id = $1")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    let mut v: Vec<i64> = chunks.split(',').filter_map(|s| s.parse().ok()).collect();
    if !v.contains(&index) {
        v.push(index);
        v.sort();
    }
    let s: Vec<String> = v.iter().map(|i| i.to_string()).collect();
    sqlx::query("UPDATE upload_sessions SET chunks = $1 WHERE id = $2")
        .bind(s.join(","))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}

pub async fn delete_upload(db: &Db, id: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM upload_sessions WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Forgets chunked uploads that expired at `now` and returns the ids of those still live (their part
/// files are kept by the cleanup).
pub async fn live_uploads(db: &Db, now: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query("DELETE FROM upload_sessions WHERE expires_at <= $1")
        .bind(now)
        .execute(&db.pool)
        .await?;
    sqlx::query_scalar("SELECT id FROM upload_sessions")
        .fetch_all(&db.pool)
        .await
}

// ---- file types (categories of music, video, image files) ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct FileType {
    pub id: i64,
    pub kind: String,
    pub parent_id: i64,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
}

pub async fn file_types(db: &Db, merchant_id: i64, kind: &str) -> sqlx::Result<Vec<FileType>> {
    sqlx::query_as(
        "SELECT id, kind, parent_id, name, sort, created_at FROM file_types WHERE merchant_id = $1 AND kind = $2 ORDER BY sort, id",
    )
    .bind(merchant_id)
    .bind(kind)
    .fetch_all(&db.pool)
    .await
}

pub async fn file_type(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<FileType>> {
    sqlx::query_as("SELECT id, kind, parent_id, name, sort, created_at FROM file_types WHERE merchant_id = $1 AND id = $2")
        .bind(merchant_id)
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

pub async fn add_file_type(
    db: &Db,
    merchant_id: i64,
    kind: &str,
    parent_id: i64,
    name: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO file_types (merchant_id, kind, parent_id, name, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(merchant_id)
    .bind(kind)
    .bind(parent_id)
    .bind(name)
    .bind(now_ms())
    .fetch_one(&db.pool)
    .await
}

pub async fn rename_file_type(
    db: &Db,
    merchant_id: i64,
    id: i64,
    name: &str,
) -> sqlx::Result<bool> {
    let n = sqlx::query("UPDATE file_types SET name = $1 WHERE id = $2 AND merchant_id = $3")
        .bind(name)
        .bind(id)
        .bind(merchant_id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

/// Deletes a file type; its files become uncategorised, its children move up to its parent.
pub async fn delete_file_type(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let Some(t) = file_type(db, merchant_id, id).await? else {
        return Ok(false);
    };
    let mut tx = db.begin().await?;
    sqlx::query(
        "UPDATE media_files SET file_type_id = 0 WHERE file_type_id = $1 AND merchant_id = $2",
    )
    .bind(id)
    .bind(merchant_id)
    .execute(&mut *tx)
    .await?;
    sqlx::query("UPDATE file_types SET parent_id = $1 WHERE parent_id = $2 AND merchant_id = $3")
        .bind(t.parent_id)
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM file_types WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(true)
}

pub async fn set_file_type(
    db: &Db,
    merchant_id: i64,
    id: i64,
    file_type_id: i64,
) -> sqlx::Result<bool> {
    let n = sqlx::query("UPDATE media_files SET file_type_id = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4")
        .bind(file_type_id)
        .bind(now_ms())
        .bind(id)
        .bind(merchant_id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
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

// ---- the operator's built-in music ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct SystemMusic {
    pub id: i64,
    pub name: String,
    pub category: String,
    #[serde(skip)]
    pub storage_key: String,
    pub mime: String,
    pub size: i64,
    pub duration_ms: i64,
    pub created_at: i64,
}

pub static SYSTEM_MUSIC_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("category", "category", FieldType::Select),
        field("duration_ms", "duration_ms", FieldType::Int),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

pub async fn system_music(db: &Db, q: &ListQuery) -> Result<(Vec<SystemMusic>, Total), PageError> {
    list::page(
        db,
        "SELECT id, name, category, storage_key, mime, size, duration_ms, created_at FROM system_music",
        "FROM system_music",
        "1 = 1",
        &[],
        &SYSTEM_MUSIC_LIST,
        q,
    )
    .await
}

pub async fn system_music_one(db: &Db, id: i64) -> sqlx::Result<Option<SystemMusic>> {
    sqlx::query_as("SELECT id, name, category, storage_key, mime, size, duration_ms, created_at FROM system_music WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

pub async fn add_system_music(db: &Db, m: &SystemMusic) -> sqlx::Result<i64> {
    let mut conn = db.pool.acquire().await?;
    insert_system_music(&mut conn, m).await
}

async fn insert_system_music(conn: &mut sqlx::AnyConnection, m: &SystemMusic) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO system_music (name, category, storage_key, mime, size, duration_ms, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(&m.name)
    .bind(&m.category)
    .bind(&m.storage_key)
    .bind(&m.mime)
    .bind(m.size)
    .bind(m.duration_ms)
    .bind(now_ms())
    .fetch_one(conn)
    .await
}

/// Whether the built-in tracks were ever put into the built-in music set (they are, once: tracks the
/// operator deletes stay deleted).
pub async fn builtin_music_seeded(db: &Db) -> sqlx::Result<bool> {
    let v: Option<String> = sqlx::query_scalar("SELECT value FROM settings WHERE key = $1")
        .bind(BUILTIN_MUSIC_KEY)
        .fetch_optional(&db.pool)
        .await?;
    Ok(v.is_some())
}

const BUILTIN_MUSIC_KEY: &str = "builtin_music_seeded";

/// Adds the built-in tracks and marks them seeded, in one transaction; false (nothing added) when
/// another start got there first.
pub async fn seed_system_music(db: &Db, tracks: &[SystemMusic]) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let claimed = sqlx::query(
        "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
    )
    .bind(BUILTIN_MUSIC_KEY)
    .bind(now_ms().to_string())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if claimed == 0 {
        return Ok(false);
    }
    for m in tracks {
        insert_system_music(&mut tx, m).await?;
    }
    tx.commit().await?;
    Ok(true)
}

pub async fn delete_system_music(db: &Db, id: i64) -> sqlx::Result<Option<String>> {
    let Some(m) = system_music_one(db, id).await? else {
        return Ok(None);
    };
    sqlx::query("DELETE FROM system_music WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(Some(m.storage_key))
}

// ---- subtitle lines (speech recognition results, editable) ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct AsrLine {
    pub id: i64,
    pub resource_id: i64,
    pub start_ms: i64,
    pub end_ms: i64,
    pub content: String,
}

pub static ASR_LIST: Entity = Entity {
    fields: &[
        field("content", "content", FieldType::Text),
        field("start_ms", "start_ms", FieldType::Int),
        field("end_ms", "end_ms", FieldType::Int),
    ],
    default_order: "start_ms ASC, id ASC",
    tiebreak: "id",
};

pub async fn asr_page(
    db: &Db,
    merchant_id: i64,
    resource_id: i64,
    q: &ListQuery,
) -> Result<(Vec<AsrLine>, Total), PageError> {
    list::page(
        db,
        "SELECT id, resource_id, start_ms, end_ms, content FROM asr_lines",
        "FROM asr_lines",
        "merchant_id = $1 AND resource_id = $2",
        &[Bind::I(merchant_id), Bind::I(resource_id)],
        &ASR_LIST,
        q,
    )
    .await
}

pub async fn asr_lines(db: &Db, merchant_id: i64, resource_id: i64) -> sqlx::Result<Vec<AsrLine>> {
    sqlx::query_as(
        "SELECT id, resource_id, start_ms, end_ms, content FROM asr_lines WHERE merchant_id = $1 AND resource_id = $2 ORDER BY start_ms, id",
    )
    .bind(merchant_id)
    .bind(resource_id)
    .fetch_all(&db.pool)
    .await
}

pub async fn asr_line(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<AsrLine>> {
    sqlx::query_as("SELECT id, resource_id, start_ms, end_ms, content FROM asr_lines WHERE merchant_id = $1 AND id = $2")
        .bind(merchant_id)
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

pub async fn update_asr_line(db: &Db, merchant_id: i64, l: &AsrLine) -> sqlx::Result<bool> {
    let n = sqlx::query("UPDATE asr_lines SET start_ms = $1, end_ms = $2, content = $3 WHERE id = $4 AND merchant_id = $5")
        .bind(l.start_ms)
        .bind(l.end_ms)
        .bind(&l.content)
        .bind(l.id)
        .bind(merchant_id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

pub async fn delete_asr_line(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let n = sqlx::query("DELETE FROM asr_lines WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

/// Replaces every line of a resource (the timeline editor's save, and a finished recognition).
pub async fn replace_asr_lines(
    db: &Db,
    merchant_id: i64,
    resource_id: i64,
    lines: &[(i64, i64, String)],
) -> sqlx::Result<()> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM asr_lines WHERE merchant_id = $1 AND resource_id = $2")
        .bind(merchant_id)
        .bind(resource_id)
        .execute(&mut *tx)
        .await?;
    for (s, e, c) in lines {
        sqlx::query("INSERT INTO asr_lines (merchant_id, resource_id, start_ms, end_ms, content, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(merchant_id)
            .bind(resource_id)
            .bind(s)
            .bind(e)
            .bind(c)
            .bind(now)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await
}

pub async fn add_asr_line(
    db: &Db,
    merchant_id: i64,
    resource_id: i64,
    s: i64,
    e: i64,
    content: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar("INSERT INTO asr_lines (merchant_id, resource_id, start_ms, end_ms, content, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
        .bind(merchant_id)
        .bind(resource_id)
        .bind(s)
        .bind(e)
        .bind(content)
        .bind(now_ms())
        .fetch_one(&db.pool)
        .await
}

pub async fn set_asr_state(db: &Db, id: i64, state: &str, error: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE media_files SET asr_state = $1, asr_error = $2, updated_at = $3 WHERE id = $4",
    )
    .bind(state)
    .bind(error)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Progress {
    pub id: i64,
    pub state: String,
    pub progress: i64,
    pub error: String,
    pub asr_state: String,
    pub updated_at: i64,
}

/// Materials of a merchant whose state changed since a time: what the progress stream pushes.
pub async fn changed_since(db: &Db, merchant_id: i64, since: i64) -> sqlx::Result<Vec<Progress>> {
    sqlx::query_as(
        "SELECT id, state, progress, error, asr_state, updated_at FROM media_files \
         WHERE merchant_id = $1 AND updated_at > $2 ORDER BY updated_at LIMIT 200",
    )
    .bind(merchant_id)
    .bind(since)
    .fetch_all(&db.pool)
    .await
}
