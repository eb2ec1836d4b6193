//! The operation log: who did what, when, and how it ended — written for every mutating call.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
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
    /// A search text for the log's filter (the message in Chinese); readers see `message_code`.
    pub message: String,
    /// The message's `domain::i18n::Msg` key, rendered in the reader's language; empty on success.
    pub message_code: String,
    /// Its arguments, a JSON object of strings (empty when none).
    pub message_args: String,
    pub ip: String,
    pub request_id: String,
}

pub async fn write(db: &Db, l: &NewLog) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO op_logs (merchant_id, user_id, username, method, path, action, result, status, message, ip, request_id, created_at, \
         message_code, message_args) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
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
    .bind(&l.message_code)
    .bind(&l.message_args)
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
    /// The reader's language once the message is rendered from `message_code` (rows written before
    /// keys were stored keep their Chinese text).
    pub message: String,
    pub ip: String,
    pub request_id: String,
    pub created_at: i64,
    #[serde(skip)]
    pub message_code: String,
    #[serde(skip)]
    pub message_args: String,
}

pub static LOG_LIST: Entity = Entity {
    fields: &[
        field("username", "l.username", FieldType::Text),
        field("action", "l.action", FieldType::Text),
        field("path", "l.path", FieldType::Text),
        field("method", "l.method", FieldType::Select),
        field("result", "l.result", FieldType::Select),
        field("status", "l.status", FieldType::Int),
        field("message", "l.message", FieldType::Text),
        field("ip", "l.ip", FieldType::Text),
        field("merchant_name", "m.name", FieldType::Text),
        field("created_at", "l.created_at", FieldType::Date),
    ],
    // Time first: date filters and the order then walk one index (id breaks ties within a millisecond).
    default_order: "l.created_at DESC, l.id DESC",
    tiebreak: "l.id",
};

/// A merchant's log (`Some(id)`), or every merchant's (`None`, operator only).
pub async fn list(
    db: &Db,
    merchant_id: Option<i64>,
    q: &ListQuery,
) -> Result<(Vec<LogRow>, Total), PageError> {
    let (scope, binds) = match merchant_id {
        Some(id) => ("l.merchant_id = $1", vec![Bind::I(id)]),
        None => ("1 = 1", vec![]),
    };
    list::page(
        db,
        "SELECT l.id, l.merchant_id, m.name AS merchant_name, l.username, l.method, l.path, l.action, l.result, \
         l.status, l.message, l.ip, l.request_id, l.created_at, l.message_code, l.message_args FROM op_logs l LEFT JOIN merchants m ON m.id = l.merchant_id",
        "FROM op_logs l LEFT JOIN merchants m ON m.id = l.merchant_id",
        scope,
        &binds,
        &LOG_LIST,
        q,
    )
    .await
}
