//! The operation log: who did what, when, and how it ended — written for every mutating call.

use crate::{Db, ListParams};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, Default)]
pub struct NewLog {
    pub merchant_id: Option<i64>,
    pub user_id: Option<i64>,
    pub username: String,
    pub method: String,
    pub path: String,
    pub action: String,
    pub result: &'static str,
    pub status: i64,
    pub message: String,
    pub ip: String,
    pub request_id: String,
}

pub async fn write(db: &Db, l: &NewLog) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO op_logs (merchant_id, user_id, username, method, path, action, result, status, message, ip, request_id, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(l.merchant_id)
    .bind(l.user_id)
    .bind(&l.username)
    .bind(&l.method)
    .bind(&l.path)
    .bind(&l.action)
    .bind(l.result)
    .bind(l.status)
    .bind(&l.message)
    .bind(&l.ip)
    .bind(&l.request_id)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct LogRow {
    pub id: i64,
    pub merchant_id: Option<i64>,
    pub merchant_name: Option<String>,
    pub username: String,
    pub method: String,
    pub path: String,
    pub action: String,
    pub result: String,
    pub status: i64,
    pub message: String,
    pub ip: String,
    pub request_id: String,
    pub created_at: i64,
}

/// A merchant's log (`Some(id)`), or every merchant's (`None`, operator only).
pub async fn list(
    db: &Db,
    merchant_id: Option<i64>,
    p: &ListParams,
    username: Option<&str>,
    action: Option<&str>,
) -> sqlx::Result<(Vec<LogRow>, i64)> {
    let scope = if merchant_id.is_some() {
        "l.merchant_id = $1"
    } else {
        "($1 = 0 OR 1 = 1)"
    };
    let filter = format!("{scope} AND l.username LIKE $2 AND (l.action LIKE $3 OR l.path LIKE $3)");
    let user = format!("%{}%", username.unwrap_or("").trim());
    let act = format!("%{}%", action.unwrap_or("").trim());
    let order = p
        .order_by(&["created_at", "status"], "l.id DESC")
        .replace(", id DESC", ", l.id DESC");
    let rows = sqlx::query_as(sqlf!(
        "SELECT l.id, l.merchant_id, m.name AS merchant_name, l.username, l.method, l.path, l.action, l.result, l.status, \
         l.message, l.ip, l.request_id, l.created_at FROM op_logs l LEFT JOIN merchants m ON m.id = l.merchant_id \
         WHERE {filter} ORDER BY {order} LIMIT $4 OFFSET $5"
    ))
    .bind(merchant_id.unwrap_or(0))
    .bind(&user)
    .bind(&act)
    .bind(p.limit())
    .bind(p.offset())
    .fetch_all(&db.pool)
    .await?;
    let total = sqlx::query_scalar(sqlf!("SELECT COUNT(*) FROM op_logs l WHERE {filter}"))
        .bind(merchant_id.unwrap_or(0))
        .bind(&user)
        .bind(&act)
        .fetch_one(&db.pool)
        .await?;
    Ok((rows, total))
}
