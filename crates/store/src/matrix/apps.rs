//! Platform app credentials (`platform_apps`, operator).

use crate::Db;
use domain::now_ms;

/// (platform, client_key, sealed client_secret).
pub async fn apps(db: &Db) -> sqlx::Result<Vec<(String, String, String)>> {
    sqlx::query_as(
        "SELECT platform, client_key, client_secret FROM platform_apps ORDER BY platform",
    )
    .fetch_all(&db.pool)
    .await
}

pub async fn save_app(db: &Db, platform: &str, key: &str, sealed_secret: &str) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO platform_apps (platform, client_key, client_secret, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (platform) DO UPDATE SET client_key = $2, client_secret = $3, updated_at = $4",
    )
    .bind(platform)
    .bind(key)
    .bind(sealed_secret)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn clear_app(db: &Db, platform: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM platform_apps WHERE platform = $1")
        .bind(platform)
        .execute(&db.pool)
        .await?;
    Ok(())
}
