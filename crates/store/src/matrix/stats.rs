//! Statistics: accounts to sync, an account's and its works' numbers, the dashboard's daily stats.

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
    items: &[(String, i64, i64, i64)],
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
    for (item_id, plays, likes, comments) in items {
        sqlx::query(
            "UPDATE matrix_items SET plays = $1, likes = $2, comment_count = $3 WHERE account_id = $4 AND item_id = $5",
        )
        .bind(plays)
        .bind(likes)
        .bind(comments)
        .bind(account_id)
        .bind(item_id)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await
}

/// The dashboard's two charts, one entry per China day from `first_day` for `days` days.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DailyStats {
    /// Items that went out that day (`published_at`).
    pub published: Vec<i64>,
    /// Items that failed, by the day they were due (review rejections are not publishing failures).
    pub failed: Vec<i64>,
    /// Plays and likes of the videos published that day, as last read from the platform.
    pub plays: Vec<i64>,
    pub likes: Vec<i64>,
}

/// Publishing and video statistics per day of one merchant, or of every merchant (`None`: the
/// operator's view).
pub async fn daily_stats(
    db: &Db,
    merchant_id: Option<i64>,
    first_day: i64,
    days: usize,
) -> sqlx::Result<DailyStats> {
    const DAY: i64 = 86_400_000;
    let tz = domain::matrix::TZ_OFFSET_MS;
    let (from, to) = (first_day * DAY - tz, (first_day + days as i64) * DAY - tz);
    let scope = if merchant_id.is_some() {
        "merchant_id = $4"
    } else {
        "$4 = 0"
    };
    let sum = |col: &str| format!("CAST(COALESCE(SUM({col}), 0) AS BIGINT)");
    let published: Vec<(i64, i64, i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT (published_at + $1) / {DAY} AS day, COUNT(*), {}, {} FROM matrix_items \
         WHERE {scope} AND published_at >= $2 AND published_at < $3 GROUP BY 1",
        sum("plays"),
        sum("likes"),
    )))
    .bind(tz)
    .bind(from)
    .bind(to)
    .bind(merchant_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await?;
    let failed: Vec<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT (scheduled_at + $1) / {DAY} AS day, COUNT(*) FROM matrix_items \
         WHERE {scope} AND scheduled_at >= $2 AND scheduled_at < $3 AND state = 'failed' AND review_state <> 'rejected' \
         GROUP BY 1"
    )))
    .bind(tz)
    .bind(from)
    .bind(to)
    .bind(merchant_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await?;
    // Posts customers made from NFC taps (H5 shares) count as the shop's publishing too.
    let tapped: Vec<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT (posted_at + $1) / {DAY} AS day, COUNT(*) FROM nfc_taps \
         WHERE {scope} AND state = 'posted' AND posted_at >= $2 AND posted_at < $3 GROUP BY 1"
    )))
    .bind(tz)
    .bind(from)
    .bind(to)
    .bind(merchant_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await?;
    let mut s = DailyStats {
        published: vec![0; days],
        failed: vec![0; days],
        plays: vec![0; days],
        likes: vec![0; days],
    };
    let slot = |day: i64| usize::try_from(day - first_day).ok().filter(|&i| i < days);
    for (day, n, plays, likes) in published {
        if let Some(i) = slot(day) {
            (s.published[i], s.plays[i], s.likes[i]) = (n, plays, likes);
        }
    }
    for (day, n) in tapped {
        if let Some(i) = slot(day) {
            s.published[i] += n;
        }
    }
    for (day, n) in failed {
        if let Some(i) = slot(day) {
            s.failed[i] = n;
        }
    }
    Ok(s)
}
