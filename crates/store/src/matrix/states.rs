//! OAuth states and QR logins: single-use, short-lived authorization states.

use crate::Db;
use domain::now_ms;

pub async fn put_state(
    db: &Db,
    state: &str,
    mid: i64,
    platform: &str,
    group_id: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO matrix_auth_states (state, merchant_id, platform, group_id, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(state)
    .bind(mid)
    .bind(platform)
    .bind(group_id)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Keeps the sealed proxy a QR login was started through (see [`state_proxy`]).
pub async fn set_state_proxy(db: &Db, state: &str, sealed: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE matrix_auth_states SET proxy = $1 WHERE state = $2")
        .bind(sealed)
        .bind(state)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The sealed proxy a QR login was started through ("" none; read whether or not it was used).
pub async fn state_proxy(db: &Db, state: &str) -> sqlx::Result<String> {
    let row: Option<(String,)> =
        sqlx::query_as("SELECT proxy FROM matrix_auth_states WHERE state = $1")
            .bind(state)
            .fetch_optional(&db.pool)
            .await?;
    Ok(row.map(|r| r.0).unwrap_or_default())
}

/// A state younger than `max_age_ms`: (merchant, platform, group). `consume` makes it single use.
pub async fn get_state(
    db: &Db,
    state: &str,
    max_age_ms: i64,
    consume: bool,
) -> sqlx::Result<Option<(i64, String, i64)>> {
    let now = now_ms();
    let row: Option<(i64, String, i64)> = if consume {
        sqlx::query_as(
            "UPDATE matrix_auth_states SET used_at = $1 WHERE state = $2 AND used_at IS NULL AND created_at > $3 \
             RETURNING merchant_id, platform, group_id",
        )
        .bind(now)
        .bind(state)
        .bind(now - max_age_ms)
        .fetch_optional(&db.pool)
        .await?
    } else {
        sqlx::query_as(
            "SELECT merchant_id, platform, group_id FROM matrix_auth_states \
             WHERE state = $1 AND used_at IS NULL AND created_at > $2",
        )
        .bind(state)
        .bind(now - max_age_ms)
        .fetch_optional(&db.pool)
        .await?
    };
    Ok(row)
}
