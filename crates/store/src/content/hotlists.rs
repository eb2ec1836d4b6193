//! The hot-list cache (migration 0017): one row per board, as the job `content.hotlist_sync` last
//! read it. Not a merchant's data: every merchant sees the same boards.

use crate::Db;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct BoardRow {
    pub board: String,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::DyOnly,
    /// JSON array of `platforms::BoardEntry`.
    pub items: String,
    pub day: String,
    pub fetched_at: i64,
    pub tried_at: i64,
    pub last_error: String,
    /// 1: the rows came from the sandbox.
    pub simulated: i64,
}

const SELECT: &str = "SELECT board, platform, items, day, fetched_at, tried_at, last_error, simulated FROM hot_boards";

pub async fn board(db: &Db, board: &str) -> sqlx::Result<Option<BoardRow>> {
    sqlx::query_as(sqlf!("{SELECT} WHERE board = $1"))
        .bind(board)
        .fetch_optional(&db.pool)
        .await
}

pub async fn boards(db: &Db) -> sqlx::Result<Vec<BoardRow>> {
    sqlx::query_as(sqlf!("{SELECT} ORDER BY board"))
        .fetch_all(&db.pool)
        .await
}

/// A good read: the rows (and whether the sandbox gave them) replace the board's, the error is
/// cleared.
pub async fn save(
    db: &Db,
    board: &str,
    platform: &str,
    items: &str,
    day: &str,
    now: i64,
    simulated: bool,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO hot_boards (board, platform, items, day, fetched_at, tried_at, last_error, simulated) \
         VALUES ($1, $2, $3, $4, $5, $5, '', $6) \
         ON CONFLICT (board) DO UPDATE SET platform = $2, items = $3, day = $4, fetched_at = $5, \
         tried_at = $5, last_error = '', simulated = $6",
    )
    .bind(board)
    .bind(platform)
    .bind(items)
    .bind(day)
    .bind(now)
    .bind(i64::from(simulated))
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// A refused read: the rows of the last good read stay, the reason is kept.
pub async fn failed(
    db: &Db,
    board: &str,
    platform: &str,
    reason: &str,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO hot_boards (board, platform, tried_at, last_error) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (board) DO UPDATE SET tried_at = $3, last_error = $4",
    )
    .bind(board)
    .bind(platform)
    .bind(now)
    .bind(reason)
    .execute(&db.pool)
    .await?;
    Ok(())
}
