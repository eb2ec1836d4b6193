//! H5 shares (`matrix_shares`).

use crate::Db;
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Share {
    pub share_id: String,
    pub merchant_id: i64,
    pub video_key: String,
    pub title: String,
    pub item_id: String,
    pub open_id: String,
    pub published_at: Option<i64>,
    pub created_at: i64,
}

pub async fn add_share(
    db: &Db,
    mid: i64,
    share_id: &str,
    video_key: &str,
    title: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO matrix_shares (share_id, merchant_id, video_key, title, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(share_id)
    .bind(mid)
    .bind(video_key)
    .bind(title)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn share(db: &Db, mid: i64, share_id: &str) -> sqlx::Result<Option<Share>> {
    sqlx::query_as(
        "SELECT share_id, merchant_id, video_key, title, item_id, open_id, published_at, created_at \
         FROM matrix_shares WHERE share_id = $1 AND merchant_id = $2",
    )
    .bind(share_id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// The platform says a customer posted a share: remember the work it became (first report wins).
pub async fn share_published(
    db: &Db,
    share_id: &str,
    item_id: &str,
    open_id: &str,
    at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE matrix_shares SET item_id = $1, open_id = $2, published_at = $3 WHERE share_id = $4 AND item_id = ''",
    )
    .bind(item_id)
    .bind(open_id)
    .bind(at)
    .bind(share_id)
    .execute(&db.pool)
    .await?;
    Ok(())
}
