//! Webhooks: delivery dedupe (`platform_webhooks`) and what a webhook changes on items and accounts.

use crate::Db;
use domain::now_ms;

/// True the first time a webhook's log id is seen.
pub async fn first_delivery(db: &Db, log_id: &str, event: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "INSERT INTO platform_webhooks (log_id, event, received_at) VALUES ($1, $2, $3) ON CONFLICT (log_id) DO NOTHING",
    )
        .bind(log_id)
        .bind(event)
        .bind(now_ms())
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

/// A webhook said a work changed: look at its review on the next dispatch.
pub async fn review_soon(db: &Db, item_id: &str) -> sqlx::Result<()> {
    if item_id.is_empty() {
        return Ok(());
    }
    sqlx::query(
        "UPDATE matrix_items SET review_check_at = $1 WHERE item_id = $2 AND state = 'published'",
    )
    .bind(now_ms())
    .bind(item_id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The platform revoked an account (every merchant that authorized it).
pub async fn revoke_open_id(
    db: &Db,
    platform: domain::platform::Platform,
    open_id: &str,
    why: domain::matrix::Revocation,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE matrix_accounts SET revoked = 1, revoked_code = $1, revoked_args = '', updated_at = $2 WHERE platform = $3 AND open_id = $4",
    )
    .bind(why.as_str())
    .bind(now_ms())
    .bind(platform.as_str())
    .bind(open_id)
    .execute(&db.pool)
    .await?;
    Ok(())
}
