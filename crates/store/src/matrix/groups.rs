//! Account groups (`matrix_groups`).

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Group {
    pub id: i64,
    pub name: String,
    pub accounts: i64,
    pub created_at: i64,
}

pub static GROUP_LIST: Entity = Entity {
    fields: &[
        field("name", "g.name", FieldType::Text),
        field("created_at", "g.created_at", FieldType::Date),
    ],
    default_order: "g.id DESC",
    tiebreak: "g.id",
};

pub async fn groups(db: &Db, mid: i64, q: &ListQuery) -> Result<(Vec<Group>, Total), PageError> {
    list::page(
        db,
        "SELECT g.id, g.name, g.created_at, \
           (SELECT COUNT(*) FROM matrix_accounts a WHERE a.group_id = g.id AND a.merchant_id = g.merchant_id) AS accounts \
         FROM matrix_groups g",
        "FROM matrix_groups g",
        "g.merchant_id = $1",
        &[Bind::I(mid)],
        &GROUP_LIST,
        q,
    )
    .await
}

/// A merchant's groups as (id, name) (an import looks rows up by name).
pub async fn group_names(db: &Db, mid: i64) -> sqlx::Result<Vec<(i64, String)>> {
    sqlx::query_as("SELECT id, name FROM matrix_groups WHERE merchant_id = $1 ORDER BY id")
        .bind(mid)
        .fetch_all(&db.pool)
        .await
}

pub async fn group_exists(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let n: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM matrix_groups WHERE id = $1 AND merchant_id = $2")
            .bind(id)
            .bind(mid)
            .fetch_one(&db.pool)
            .await?;
    Ok(n == 1)
}

/// None when the name is taken.
pub async fn add_group(db: &Db, mid: i64, name: &str) -> sqlx::Result<Option<i64>> {
    let now = now_ms();
    sqlx::query_scalar(
        "INSERT INTO matrix_groups (merchant_id, name, created_at, updated_at) VALUES ($1, $2, $3, $3) \
         ON CONFLICT (merchant_id, name) DO NOTHING RETURNING id",
    )
    .bind(mid)
    .bind(name)
    .bind(now)
    .fetch_optional(&db.pool)
    .await
}

/// Ok(false) = no such group; Err on a taken name is reported by the caller's uniqueness check.
pub async fn rename_group(db: &Db, mid: i64, id: i64, name: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE matrix_groups SET name = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(name)
    .bind(now_ms())
    .bind(id)
    .bind(mid)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

pub async fn group_name_taken(db: &Db, mid: i64, name: &str, except: i64) -> sqlx::Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM matrix_groups WHERE merchant_id = $1 AND name = $2 AND id <> $3",
    )
    .bind(mid)
    .bind(name)
    .bind(except)
    .fetch_one(&db.pool)
    .await?;
    Ok(n > 0)
}

/// Deletes a group; its accounts become ungrouped.
pub async fn delete_group(db: &Db, mid: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE matrix_accounts SET group_id = 0 WHERE group_id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&mut *tx)
        .await?;
    let n = sqlx::query("DELETE FROM matrix_groups WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(mid)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    tx.commit().await?;
    Ok(n == 1)
}

/// One account's new group (by name) and remarks, from an import; None leaves it as it is.
#[derive(Debug, Clone)]
pub struct AccountNote {
    pub account_id: i64,
    pub group: Option<String>,
    pub remarks: Option<String>,
}

/// Stores an import of accounts' groups and remarks in one transaction: the groups it names that
/// do not exist are created, then each account is updated. Returns the names of the groups created.
pub async fn import_account_notes(
    db: &Db,
    mid: i64,
    notes: &[AccountNote],
) -> sqlx::Result<Vec<String>> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let mut ids: Vec<(String, i64)> =
        sqlx::query_as("SELECT name, id FROM matrix_groups WHERE merchant_id = $1")
            .bind(mid)
            .fetch_all(&mut *tx)
            .await?;
    let mut created = vec![];
    for n in notes {
        let group = match &n.group {
            Some(name) => match ids.iter().find(|(g, _)| g == name) {
                Some((_, id)) => Some(*id),
                None => {
                    let id: i64 = sqlx::query_scalar(
                        "INSERT INTO matrix_groups (merchant_id, name, created_at, updated_at) \
                         VALUES ($1, $2, $3, $3) RETURNING id",
                    )
                    .bind(mid)
                    .bind(name)
                    .bind(now)
                    .fetch_one(&mut *tx)
                    .await?;
                    ids.push((name.clone(), id));
                    created.push(name.clone());
                    Some(id)
                }
            },
            None => None,
        };
        sqlx::query(
            "UPDATE matrix_accounts SET group_id = COALESCE($1, group_id), remarks = COALESCE($2, remarks), \
             updated_at = $3 WHERE id = $4 AND merchant_id = $5",
        )
        .bind(group)
        .bind(n.remarks.as_deref())
        .bind(now)
        .bind(n.account_id)
        .bind(mid)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(created)
}
