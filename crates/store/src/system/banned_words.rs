//! The words the operator bans for one merchant (`compliance_words`): the copy precheck blocks them.

use crate::Db;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WordRow {
    pub id: i64,
    pub word: String,
    pub created_at: i64,
}

/// A merchant's banned words, newest first.
pub async fn list(db: &Db, mid: i64) -> sqlx::Result<Vec<WordRow>> {
    sqlx::query_as(
        "SELECT id, word, created_at FROM compliance_words WHERE merchant_id = $1 ORDER BY id DESC",
    )
    .bind(mid)
    .fetch_all(&db.pool)
    .await
}

/// The words alone, for the precheck.
pub async fn words(db: &Db, mid: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar("SELECT word FROM compliance_words WHERE merchant_id = $1")
        .bind(mid)
        .fetch_all(&db.pool)
        .await
}

/// Adds words (a word the merchant has already is skipped); answers how many were added.
pub async fn add(db: &Db, mid: i64, words: &[String], now: i64) -> sqlx::Result<usize> {
    let mut tx = db.begin().await?;
    let mut added = 0;
    for w in words {
        added += sqlx::query(
            "INSERT INTO compliance_words (merchant_id, word, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT DO NOTHING",
        )
        .bind(mid)
        .bind(w)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected() as usize;
    }
    tx.commit().await?;
    Ok(added)
}

/// Removes words of the merchant by id: all or none.
pub async fn delete(db: &Db, mid: i64, ids: &[i64]) -> sqlx::Result<bool> {
    crate::db::delete_owned(db, "compliance_words", mid, ids).await
}
