//! Menus (seeded from `domain::menus::MENUS`) and operator-defined roles.

use crate::Db;
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Menu {
    pub id: i64,
    pub path: String,
    pub parent_path: Option<String>,
    pub name: String,
    pub icon: String,
    pub hidden: i64,
    pub admin: i64,
    pub vip: i64,
    pub sort: i64,
    pub grants: String,
}

impl Menu {
    pub fn grants(&self) -> Vec<String> {
        serde_json::from_str(&self.grants).unwrap_or_default()
    }
}

/// Inserts declared menus that are missing and refreshes their structure (name, parent, admin flag,
/// grants); icon, hidden, vip and sort stay as the operator set them. Menus no longer declared are removed.
pub async fn seed(db: &Db) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    for m in domain::menus::MENUS {
        let grants = serde_json::to_string(m.grants).unwrap_or_else(|_| "[]".into());
        sqlx::query(
            "INSERT INTO menus (path, parent_path, name, icon, hidden, admin, vip, sort, grants) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (path) DO UPDATE SET parent_path = $2, name = $3, admin = $6, grants = $9",
        )
        .bind(m.path)
        .bind(m.parent)
        .bind(m.name)
        .bind(m.icon)
        .bind(m.hidden as i64)
        .bind(m.admin as i64)
        .bind(m.vip as i64)
        .bind(m.sort)
        .bind(grants)
        .execute(&mut *tx)
        .await?;
    }
    let declared: Vec<&str> = domain::menus::MENUS.iter().map(|m| m.path).collect();
    let existing: Vec<String> = sqlx::query_scalar("SELECT path FROM menus")
        .fetch_all(&mut *tx)
        .await?;
    for p in existing.iter().filter(|p| !declared.contains(&p.as_str())) {
        sqlx::query("DELETE FROM menus WHERE path = $1")
            .bind(p)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await
}

pub async fn all(db: &Db) -> sqlx::Result<Vec<Menu>> {
    sqlx::query_as(
        "SELECT id, path, parent_path, name, icon, hidden, admin, vip, sort, grants FROM menus ORDER BY sort, id",
    )
    .fetch_all(&db.pool)
    .await
}

pub async fn edit(
    db: &Db,
    id: i64,
    icon: &str,
    hidden: bool,
    vip: bool,
    sort: i64,
) -> sqlx::Result<bool> {
    let n =
        sqlx::query("UPDATE menus SET icon = $1, hidden = $2, vip = $3, sort = $4 WHERE id = $5")
            .bind(icon)
            .bind(hidden as i64)
            .bind(vip as i64)
            .bind(sort)
            .bind(id)
            .execute(&db.pool)
            .await?
            .rows_affected();
    Ok(n > 0)
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Role {
    pub id: i64,
    pub name: String,
    pub permissions: String,
    pub created_at: i64,
}

impl Role {
    pub fn permissions(&self) -> Vec<String> {
        serde_json::from_str(&self.permissions).unwrap_or_default()
    }
}

pub async fn roles(db: &Db) -> sqlx::Result<Vec<Role>> {
    sqlx::query_as("SELECT id, name, permissions, created_at FROM roles ORDER BY id")
        .fetch_all(&db.pool)
        .await
}

pub async fn add_role(db: &Db, name: &str, permissions: &[String]) -> sqlx::Result<Role> {
    sqlx::query_as("INSERT INTO roles (name, permissions, created_at) VALUES ($1, $2, $3) RETURNING id, name, permissions, created_at")
        .bind(name)
        .bind(serde_json::to_string(permissions).unwrap_or_else(|_| "[]".into()))
        .bind(now_ms())
        .fetch_one(&db.pool)
        .await
}

pub async fn edit_role(
    db: &Db,
    id: i64,
    name: &str,
    permissions: &[String],
) -> sqlx::Result<Option<Role>> {
    sqlx::query_as("UPDATE roles SET name = $1, permissions = $2 WHERE id = $3 RETURNING id, name, permissions, created_at")
        .bind(name)
        .bind(serde_json::to_string(permissions).unwrap_or_else(|_| "[]".into()))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

/// Number of users that carry the role (a role in use cannot be deleted).
pub async fn role_users(db: &Db, id: i64) -> sqlx::Result<i64> {
    let all: Vec<String> = sqlx::query_scalar("SELECT role_ids FROM users WHERE role_ids <> '[]'")
        .fetch_all(&db.pool)
        .await?;
    Ok(all
        .iter()
        .filter(|s| {
            serde_json::from_str::<Vec<i64>>(s)
                .unwrap_or_default()
                .contains(&id)
        })
        .count() as i64)
}

pub async fn delete_role(db: &Db, id: i64) -> sqlx::Result<bool> {
    let n = sqlx::query("DELETE FROM roles WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}
