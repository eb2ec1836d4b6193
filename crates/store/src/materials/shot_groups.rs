//! Shot groups: the folders of video material a mix draws its shots from.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Group {
    pub id: i64,
    pub classify_id: i64,
    #[sqlx(try_from = "String")]
    pub kind: domain::materials::GroupKind,
    pub name: String,
    pub sort: i64,
    pub created_at: i64,
    pub count: i64,
    pub ready: i64,
}

const GROUP_SELECT: &str = "SELECT g.id, g.classify_id, g.kind, g.name, g.sort, g.created_at, \
     (SELECT COUNT(*) FROM media_files f WHERE f.group_id = g.id AND f.merchant_id = g.merchant_id) AS count, \
     (SELECT COUNT(*) FROM media_files f WHERE f.group_id = g.id AND f.merchant_id = g.merchant_id AND f.state = 'ready') AS ready \
     FROM resource_groups g";

pub static GROUP_LIST: Entity = Entity {
    fields: &[
        field("name", "g.name", FieldType::Text),
        field("kind", "g.kind", FieldType::Select),
        field("classify_id", "g.classify_id", FieldType::Int),
        field("created_at", "g.created_at", FieldType::Date),
        field("sort", "g.sort", FieldType::Int),
    ],
    default_order: "g.sort ASC, g.id ASC",
    tiebreak: "g.id",
};

pub async fn groups(
    db: &Db,
    merchant_id: i64,
    kind: &str,
    q: &ListQuery,
) -> Result<(Vec<Group>, Total), PageError> {
    list::page(
        db,
        GROUP_SELECT,
        "FROM resource_groups g",
        "g.merchant_id = $1 AND g.kind = $2",
        &[Bind::I(merchant_id), Bind::S(kind.to_string())],
        &GROUP_LIST,
        q,
    )
    .await
}

pub async fn group(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Group>> {
    sqlx::query_as(crate::sqlf!(
        "{GROUP_SELECT} WHERE g.id = $1 AND g.merchant_id = $2"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn add_group(
    db: &Db,
    merchant_id: i64,
    kind: &str,
    name: &str,
    classify_id: i64,
) -> sqlx::Result<i64> {
    let now = now_ms();
    sqlx::query_scalar(
        "INSERT INTO resource_groups (merchant_id, classify_id, kind, name, sort, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, (SELECT COALESCE(MAX(sort), 0) + 1 FROM resource_groups WHERE merchant_id = $1), $5, $5) RETURNING id",
    )
    .bind(merchant_id)
    .bind(classify_id)
    .bind(kind)
    .bind(name)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn rename_group(db: &Db, merchant_id: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE resource_groups SET name = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(name)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Deletes a group; its materials go back to "ungrouped" (they are not deleted).
pub async fn delete_group(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE media_files SET group_id = 0 WHERE group_id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    let n = sqlx::query("DELETE FROM resource_groups WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(n > 0)
}
