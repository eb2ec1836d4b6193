//! File types: categories of music, video and image files, and a file's category.

use crate::Db;
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct FileType {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub kind: domain::materials::FileTypeKind,
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
    kind: domain::materials::FileTypeKind,
    parent_id: i64,
    name: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO file_types (merchant_id, kind, parent_id, name, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(merchant_id)
    .bind(kind.as_str())
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
