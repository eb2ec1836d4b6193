//! Dictionaries: named option lists (label + value) the console's dictionary select reads by name.

use crate::Db;
use crate::list::{self, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Opt {
    pub label: String,
    pub value: String,
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Dict {
    pub id: i64,
    pub name: String,
    pub title: String,
    pub options: String,
    pub updated_at: i64,
}

impl Dict {
    pub fn options(&self) -> Vec<Opt> {
        serde_json::from_str(&self.options).unwrap_or_default()
    }
}

pub static DICT_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("title", "title", FieldType::Text),
        field("updated_at", "updated_at", FieldType::Date),
    ],
    default_order: "name ASC, id ASC",
    tiebreak: "id",
};

pub async fn by_name(db: &Db, name: &str) -> sqlx::Result<Option<Dict>> {
    sqlx::query_as("SELECT id, name, title, options, updated_at FROM dictionaries WHERE name = $1")
        .bind(name)
        .fetch_optional(&db.pool)
        .await
}

pub async fn list(db: &Db, q: &ListQuery) -> Result<(Vec<Dict>, Total), PageError> {
    list::page(
        db,
        "SELECT id, name, title, options, updated_at FROM dictionaries",
        "FROM dictionaries",
        "1 = 1",
        &[],
        &DICT_LIST,
        q,
    )
    .await
}

/// Creates or replaces a dictionary by name.
pub async fn save(db: &Db, name: &str, title: &str, options: &[Opt]) -> sqlx::Result<Dict> {
    sqlx::query_as(
        "INSERT INTO dictionaries (name, title, options, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (name) DO UPDATE SET title = $2, options = $3, updated_at = $4 \
         RETURNING id, name, title, options, updated_at",
    )
    .bind(name)
    .bind(title)
    .bind(serde_json::to_string(options).unwrap_or_else(|_| "[]".into()))
    .bind(now_ms())
    .fetch_one(&db.pool)
    .await
}

pub async fn delete(db: &Db, id: i64) -> sqlx::Result<bool> {
    Ok(sqlx::query("DELETE FROM dictionaries WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?
        .rows_affected()
        > 0)
}

/// Dictionaries the console's own filters use; created once, then the operator's to edit.
pub async fn seed(db: &Db) -> sqlx::Result<()> {
    let defaults: &[(&str, &str, &[(&str, &str)])] = &[
        (
            "log_result",
            "操作结果 / Result",
            &[("成功 / success", "success"), ("失败 / failed", "failed")],
        ),
        (
            "http_method",
            "请求方式 / Method",
            &[("POST", "POST"), ("GET", "GET")],
        ),
        (
            "job_state",
            "任务状态 / Job state",
            &[
                ("排队 / queued", "queued"),
                ("运行 / running", "running"),
                ("重试中 / failed", "failed"),
                ("完成 / done", "done"),
                ("终止 / dead", "dead"),
            ],
        ),
        (
            "points_kind",
            "点数类型 / Points",
            &[
                ("充值 / top-up", "topup"),
                ("扣除 / deduct", "deduct"),
                ("退还 / refund", "refund"),
            ],
        ),
        (
            "user_kind",
            "账号类型 / Account",
            &[
                ("平台 / operator", "operator"),
                ("商户 / merchant", "merchant"),
                ("员工 / staff", "staff"),
            ],
        ),
        (
            "enabled",
            "状态 / Status",
            &[("启用 / enabled", "1"), ("停用 / disabled", "0")],
        ),
    ];
    for (name, title, opts) in defaults {
        if by_name(db, name).await?.is_none() {
            let opts: Vec<Opt> = opts
                .iter()
                .map(|(l, v)| Opt {
                    label: l.to_string(),
                    value: v.to_string(),
                })
                .collect();
            save(db, name, title, &opts).await?;
        }
    }
    Ok(())
}
