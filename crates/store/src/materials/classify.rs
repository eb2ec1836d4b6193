//! The classify tree of a library.

use crate::Db;
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Classify {
    pub id: i64,
    pub parent_id: i64,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
}

pub async fn classifies(db: &Db, merchant_id: i64) -> sqlx::Result<Vec<Classify>> {
    sqlx::query_as("SELECT id, parent_id, name, sort, created_at FROM material_classify WHERE merchant_id = $1 ORDER BY sort, id")
        .bind(merchant_id)
        .fetch_all(&db.pool)
        .await
}

pub async fn add_classify(
    db: &Db,
    merchant_id: i64,
    parent_id: i64,
    name: &str,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO material_classify (merchant_id, parent_id, name, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
    )
    .bind(merchant_id)
    .bind(parent_id)
    .bind(name)
    .bind(now_ms())
    .fetch_one(&db.pool)
    .await
}

pub async fn rename_classify(db: &Db, merchant_id: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n =
        sqlx::query("UPDATE material_classify SET name = $1 WHERE id = $2 AND merchant_id = $3")
            .bind(name)
            .bind(id)
            .bind(merchant_id)
            .execute(&db.pool)
            .await?
            .rows_affected();
    Ok(n > 0)
}

/// Deletes a classify node and its subtree; groups under them become unclassified.
pub async fn delete_classify(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let all = classifies(db, merchant_id).await?;
    if !all.iter().any(|c| c.id == id) {
        return Ok(false);
    }
    let mut doomed = vec![id];
    let mut i = 0;
    while i < doomed.len() {
        let p = doomed[i];
        doomed.extend(all.iter().filter(|c| c.parent_id == p).map(|c| c.id));
        i += 1;
    }
    let mut tx = db.begin().await?;
    for d in &doomed {
        sqlx::query("UPDATE resource_groups SET classify_id = 0 WHERE classify_id = $1 AND merchant_id = $2").bind(d).bind(merchant_id).execute(&mut *tx).await?;
        sqlx::query(
            "UPDATE media_files SET classify_id = 0 WHERE classify_id = $1 AND merchant_id = $2",
        )
        .bind(d)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM material_classify WHERE id = $1 AND merchant_id = $2")
            .bind(d)
            .bind(merchant_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(true)
}
