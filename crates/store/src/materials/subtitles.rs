//! Subtitle lines of a file (speech recognition results, editable) and its recognition state.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::materials::AsrState;
use domain::now_ms;
use serde::Serialize;

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

/// A recognition started (its points deducted, its job about to be queued).
pub async fn asr_started(db: &Db, id: i64) -> sqlx::Result<()> {
    set_asr(db, id, AsrState::Processing, "").await
}

/// The material's lines are there: recognized, or saved by hand.
pub async fn asr_succeeded(db: &Db, id: i64) -> sqlx::Result<()> {
    set_asr(db, id, AsrState::Success, "").await
}

/// A recognition failed for good, with its reason.
pub async fn asr_failed(db: &Db, id: i64, reason: &str) -> sqlx::Result<()> {
    set_asr(db, id, AsrState::Failed, reason).await
}

async fn set_asr(db: &Db, id: i64, state: AsrState, error: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE media_files SET asr_state = $1, asr_error = $2, updated_at = $3 WHERE id = $4",
    )
    .bind(state.as_str())
    .bind(error)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}
