//! Operator-maintained content shown on the console's home: update log, courses, banners.

use crate::Db;
use crate::list::{self, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize, utoipa::ToSchema)]
pub struct VersionLog {
    pub id: i64,
    pub version: String,
    /// Chinese (the reader's language is picked by the API).
    pub content: String,
    #[serde(skip)]
    pub content_en: String,
    pub created_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize, utoipa::ToSchema)]
pub struct Link {
    pub id: i64,
    pub title: String,
    pub image: String,
    pub link: String,
    pub created_at: i64,
}

pub static VERSION_LIST: Entity = Entity {
    fields: &[
        field("version", "version", FieldType::Text),
        field("content", "content", FieldType::Text),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "created_at DESC, id DESC",
    tiebreak: "id",
};

pub async fn version_logs(db: &Db, q: &ListQuery) -> Result<(Vec<VersionLog>, Total), PageError> {
    list::page(
        db,
        "SELECT id, version, content, content_en, created_at FROM version_logs",
        "FROM version_logs",
        "1 = 1",
        &[],
        &VERSION_LIST,
        q,
    )
    .await
}

pub async fn courses(db: &Db) -> sqlx::Result<Vec<Link>> {
    sqlx::query_as(
        "SELECT id, title, cover AS image, link, created_at FROM courses ORDER BY sort, id",
    )
    .fetch_all(&db.pool)
    .await
}

pub async fn banners(db: &Db) -> sqlx::Result<Vec<Link>> {
    sqlx::query_as("SELECT id, title, image, link, created_at FROM banners ORDER BY sort, id")
        .fetch_all(&db.pool)
        .await
}

/// The product's own release notes, recorded once per version.
pub async fn seed(db: &Db) -> sqlx::Result<()> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM version_logs")
        .fetch_one(&db.pool)
        .await?;
    if n == 0 {
        sqlx::query(
            "INSERT INTO version_logs (version, content, content_en, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(domain::APP_VERSION)
        .bind("控制台基础：登录（企业账号、手机验证码、员工账号）、员工子账号与菜单授权、操作日志、点数记录。")
        .bind("Console foundation: sign-in (enterprise, SMS code, staff), staff sub-accounts with menu permissions, operation log, points records.")
        .bind(now_ms())
            .execute(&db.pool)
            .await?;
    }
    Ok(())
}
