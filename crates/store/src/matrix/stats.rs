//! Statistics: accounts to sync, an account's and its works' numbers (the reports' rollup reads them:
//! `store::reports`).

use crate::Db;

/// Accounts whose statistics were last read before `before` (never-synced first).
pub async fn accounts_to_sync(
    db: &Db,
    before: i64,
    requested_before: i64,
    limit: i64,
) -> sqlx::Result<Vec<(i64, i64, i64)>> {
    sqlx::query_as(
        "SELECT id, merchant_id, synced_at FROM matrix_accounts WHERE revoked = 0 \
         AND (synced_at < $1 OR (sync_requested = 1 AND synced_at < $2)) ORDER BY synced_at, id LIMIT $3",
    )
    .bind(before)
    .bind(requested_before)
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

/// Asks for the account's statistics to be read again soon (after a publish).
pub async fn request_sync(db: &Db, account_id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE matrix_accounts SET sync_requested = 1 WHERE id = $1")
        .bind(account_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// An account's statistics and each of its works' numbers, in one transaction.
pub async fn set_stats_with_items(
    db: &Db,
    account_id: i64,
    s: (i64, i64, i64, i64),
    items: &[(String, i64, i64, i64, i64)],
    now: i64,
) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "UPDATE matrix_accounts SET videos = $1, plays = $2, comments = $3, likes = $4, synced_at = $5, sync_requested = 0 \
         WHERE id = $6",
    )
    .bind(s.0)
    .bind(s.1)
    .bind(s.2)
    .bind(s.3)
    .bind(now)
    .bind(account_id)
    .execute(&mut *tx)
    .await?;
    for (item_id, plays, likes, comments, shares) in items {
        sqlx::query(
            "UPDATE matrix_items SET plays = $1, likes = $2, comment_count = $3, shares = $6 WHERE account_id = $4 AND item_id = $5",
        )
        .bind(plays)
        .bind(likes)
        .bind(comments)
        .bind(account_id)
        .bind(item_id)
        .bind(shares)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}
