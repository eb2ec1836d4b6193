//! Creator-console accounts' browser logins for every worker node, and their leases (migration
//! 0047; `platforms::browser::profiles`). The state arrives sealed: this layer never sees a cookie.

use crate::Db;
use domain::now_ms;

/// The stored (sealed) state of a profile key and its version; None when nothing was stored.
pub async fn profile_state(db: &Db, key: &str) -> sqlx::Result<Option<(i64, String)>> {
    sqlx::query_as(
        "SELECT version, state FROM browser_profiles WHERE profile_key = $1 AND version > 0",
    )
    .bind(key)
    .fetch_optional(&db.pool)
    .await
}

/// Stores a new sealed state of a profile key (`bytes`: its size before sealing); its new version.
pub async fn save_profile_state(db: &Db, key: &str, sealed: &str, bytes: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO browser_profiles (profile_key, state, state_bytes, version, updated_at) \
         VALUES ($1, $2, $3, 1, $4) \
         ON CONFLICT (profile_key) DO UPDATE SET state = excluded.state, \
           state_bytes = excluded.state_bytes, version = browser_profiles.version + 1, \
           updated_at = excluded.updated_at \
         RETURNING version",
    )
    .bind(key)
    .bind(sealed)
    .bind(bytes)
    .bind(now_ms())
    .fetch_one(&db.pool)
    .await
}

/// Takes or renews a profile's lease for `holder` until `ttl_ms` from now: true when it is
/// `holder`'s now, false while another holder's lease runs.
pub async fn take_profile_lease(
    db: &Db,
    key: &str,
    holder: &str,
    ttl_ms: i64,
) -> sqlx::Result<bool> {
    let now = now_ms();
    // One statement (each step and each renewal runs it): a new row is this holder's; an existing
    // one only when free, already this holder's, or run out — else the conditional update touches
    // no row (SQLite and PostgreSQL both count 0).
    let n = sqlx::query(
        "INSERT INTO browser_profiles (profile_key, lease_holder, lease_until) VALUES ($1, $2, $3) \
         ON CONFLICT (profile_key) DO UPDATE SET lease_holder = excluded.lease_holder, \
           lease_until = excluded.lease_until \
         WHERE browser_profiles.lease_holder = '' OR browser_profiles.lease_holder = excluded.lease_holder \
           OR browser_profiles.lease_until < $4",
    )
    .bind(key)
    .bind(holder)
    .bind(now + ttl_ms)
    .bind(now)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Who holds a profile's lease now (None: nobody, or it ran out).
pub async fn profile_lease_holder(db: &Db, key: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar(
        "SELECT lease_holder FROM browser_profiles \
         WHERE profile_key = $1 AND lease_holder <> '' AND lease_until >= $2",
    )
    .bind(key)
    .bind(now_ms())
    .fetch_optional(&db.pool)
    .await
}

/// Takes a lease from `from` (known dead) for `to`; false when `from` no longer holds it.
pub async fn take_over_profile_lease(
    db: &Db,
    key: &str,
    from: &str,
    to: &str,
    ttl_ms: i64,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE browser_profiles SET lease_holder = $1, lease_until = $2 \
         WHERE profile_key = $3 AND lease_holder = $4",
    )
    .bind(to)
    .bind(now_ms() + ttl_ms)
    .bind(key)
    .bind(from)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Gives a lease back (nothing when `holder` no longer holds it).
pub async fn drop_profile_lease(db: &Db, key: &str, holder: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE browser_profiles SET lease_holder = '', lease_until = 0 \
         WHERE profile_key = $1 AND lease_holder = $2",
    )
    .bind(key)
    .bind(holder)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The login `key` became account `account_id` (a new account, or a scan again): the account's
/// older logins go.
pub async fn link_profile(db: &Db, key: &str, account_id: i64) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM browser_profiles WHERE account_id = $1 AND profile_key <> $2")
        .bind(account_id)
        .bind(key)
        .execute(&mut *tx)
        .await?;
    sqlx::query("UPDATE browser_profiles SET account_id = $1 WHERE profile_key = $2")
        .bind(account_id)
        .bind(key)
        .execute(&mut *tx)
        .await?;
    tx.commit().await
}
