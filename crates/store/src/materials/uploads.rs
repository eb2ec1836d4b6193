//! Resumable uploads: a session and the chunks it has received.

use crate::Db;
use domain::now_ms;
use serde::Serialize;

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
