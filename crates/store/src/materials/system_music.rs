//! The operator's built-in music, shared by every merchant.

use crate::Db;
use crate::list::{self, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct SystemMusic {
    pub id: i64,
    pub name: String,
    pub category: String,
    #[serde(skip)]
    pub storage_key: String,
    pub mime: String,
    pub size: i64,
    pub duration_ms: i64,
    pub created_at: i64,
}

pub static SYSTEM_MUSIC_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("category", "category", FieldType::Select),
        field("duration_ms", "duration_ms", FieldType::Int),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

pub async fn system_music(db: &Db, q: &ListQuery) -> Result<(Vec<SystemMusic>, Total), PageError> {
    list::page(
        db,
        "SELECT id, name, category, storage_key, mime, size, duration_ms, created_at FROM system_music",
        "FROM system_music",
        "1 = 1",
        &[],
        &SYSTEM_MUSIC_LIST,
        q,
    )
    .await
}

pub async fn system_music_one(db: &Db, id: i64) -> sqlx::Result<Option<SystemMusic>> {
    sqlx::query_as("SELECT id, name, category, storage_key, mime, size, duration_ms, created_at FROM system_music WHERE id = $1")
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

pub async fn add_system_music(db: &Db, m: &SystemMusic) -> sqlx::Result<i64> {
    let mut conn = db.pool.acquire().await?;
    insert_system_music(&mut conn, m).await
}

async fn insert_system_music(conn: &mut sqlx::AnyConnection, m: &SystemMusic) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO system_music (name, category, storage_key, mime, size, duration_ms, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(&m.name)
    .bind(&m.category)
    .bind(&m.storage_key)
    .bind(&m.mime)
    .bind(m.size)
    .bind(m.duration_ms)
    .bind(now_ms())
    .fetch_one(conn)
    .await
}

/// Whether the built-in tracks were ever put into the built-in music set (they are, once: tracks the
/// operator deletes stay deleted).
pub async fn builtin_music_seeded(db: &Db) -> sqlx::Result<bool> {
    let v: Option<String> = sqlx::query_scalar("SELECT value FROM settings WHERE key = $1")
        .bind(BUILTIN_MUSIC_KEY)
        .fetch_optional(&db.pool)
        .await?;
    Ok(v.is_some())
}

const BUILTIN_MUSIC_KEY: &str = "builtin_music_seeded";

/// Adds the built-in tracks and marks them seeded, in one transaction; false (nothing added) when
/// another start got there first.
pub async fn seed_system_music(db: &Db, tracks: &[SystemMusic]) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let claimed = sqlx::query(
        "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
    )
    .bind(BUILTIN_MUSIC_KEY)
    .bind(now_ms().to_string())
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if claimed == 0 {
        return Ok(false);
    }
    for m in tracks {
        insert_system_music(&mut tx, m).await?;
    }
    tx.commit().await?;
    Ok(true)
}

pub async fn delete_system_music(db: &Db, id: i64) -> sqlx::Result<Option<String>> {
    let Some(m) = system_music_one(db, id).await? else {
        return Ok(None);
    };
    sqlx::query("DELETE FROM system_music WHERE id = $1")
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(Some(m.storage_key))
}
