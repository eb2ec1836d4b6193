//! Personal API tokens: named, scoped, expiring credentials of a merchant or a staff member. The
//! table keeps only the token's hash (as sessions: `users::session_key`), so a copy of the database
//! names no token anyone could use. Every query of a user's tokens takes the user's id.

use crate::Db;
use crate::auth::users::session_key;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ApiToken {
    pub id: i64,
    pub merchant_id: i64,
    pub user_id: i64,
    pub name: String,
    /// The first characters of the token, to tell tokens apart in the list.
    pub hint: String,
    /// The scopes' texts, comma separated (`domain::permission::TokenScope`).
    pub scopes: String,
    pub expires_at: i64,
    pub last_used_at: Option<i64>,
    pub revoked_at: Option<i64>,
    pub created_at: i64,
}

const COLS: &str = "id, merchant_id, user_id, name, hint, scopes, expires_at, last_used_at, revoked_at, created_at";

pub struct NewToken<'a> {
    pub merchant_id: i64,
    pub user_id: i64,
    pub name: &'a str,
    /// The token itself; only its hash is stored.
    pub secret: &'a str,
    pub hint: &'a str,
    pub scopes: &'a str,
    pub expires_at: i64,
    pub now: i64,
}

pub async fn create(db: &Db, t: &NewToken<'_>) -> sqlx::Result<ApiToken> {
    sqlx::query_as(crate::sqlf!(
        "INSERT INTO api_tokens (merchant_id, user_id, name, token_hash, hint, scopes, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING {COLS}"
    ))
    .bind(t.merchant_id)
    .bind(t.user_id)
    .bind(t.name)
    .bind(session_key(t.secret))
    .bind(t.hint)
    .bind(t.scopes)
    .bind(t.expires_at)
    .bind(t.now)
    .fetch_one(&db.pool)
    .await
}

/// A user's tokens, newest first (revoked and expired ones too: the list says so).
pub async fn of_user(db: &Db, user_id: i64) -> sqlx::Result<Vec<ApiToken>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {COLS} FROM api_tokens WHERE user_id = $1 ORDER BY id DESC"
    ))
    .bind(user_id)
    .fetch_all(&db.pool)
    .await
}

/// How many of a user's tokens are neither revoked nor expired at `now`.
pub async fn active_count(db: &Db, user_id: i64, now: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM api_tokens WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2",
    )
    .bind(user_id)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

/// The token a presented secret is (found by its hash), whatever its state.
pub async fn by_secret(db: &Db, secret: &str) -> sqlx::Result<Option<ApiToken>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {COLS} FROM api_tokens WHERE token_hash = $1"
    ))
    .bind(session_key(secret))
    .fetch_optional(&db.pool)
    .await
}

/// Revokes one of the user's tokens; false when the user has no such token.
pub async fn revoke(db: &Db, user_id: i64, id: i64, now: i64) -> sqlx::Result<bool> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT id FROM api_tokens WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .fetch_optional(&db.pool)
            .await?;
    if found.is_none() {
        return Ok(false);
    }
    sqlx::query("UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
        .bind(now)
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(true)
}

/// Records a use, at most once per `every_ms` (a busy token does not write on every call).
pub async fn touch(db: &Db, id: i64, now: i64, every_ms: i64) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE api_tokens SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $3)",
    )
    .bind(now)
    .bind(id)
    .bind(now - every_ms)
    .execute(&db.pool)
    .await?;
    Ok(())
}
