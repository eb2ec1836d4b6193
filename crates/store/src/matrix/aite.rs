//! @-mention users (`matrix_aite_users`).

use crate::Db;
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct AiteUser {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub nickname: String,
    pub created_at: i64,
}

pub async fn aite_users(db: &Db, mid: i64, platform: Option<&str>) -> sqlx::Result<Vec<AiteUser>> {
    sqlx::query_as(
        "SELECT id, platform, nickname, created_at FROM matrix_aite_users WHERE merchant_id = $1 \
         AND ($2 = '' OR platform = $2) ORDER BY id DESC",
    )
    .bind(mid)
    .bind(platform.unwrap_or(""))
    .fetch_all(&db.pool)
    .await
}

pub async fn add_aite_user(db: &Db, mid: i64, platform: &str, nickname: &str) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO matrix_aite_users (merchant_id, platform, nickname, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (merchant_id, platform, nickname) DO NOTHING",
    )
    .bind(mid)
    .bind(platform)
    .bind(nickname)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn delete_aite_user(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let n = sqlx::query("DELETE FROM matrix_aite_users WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}
