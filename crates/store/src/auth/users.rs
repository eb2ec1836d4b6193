//! Merchants (tenants), users (operator, merchant owners, staff), sessions, SMS codes, lockouts and
//! proxy tokens. Every staff query takes the merchant id, so one merchant cannot reach another's rows.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;
use serde::Serialize;
use sqlx::Row;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct User {
    pub id: i64,
    pub merchant_id: Option<i64>,
    #[sqlx(try_from = "String")]
    pub kind: domain::UserKind,
    pub username: String,
    pub nickname: String,
    pub mobile: Option<String>,
    pub avatar: String,
    #[serde(skip)]
    pub password_hash: String,
    pub status: i64,
    pub menu_ids: String,
    pub role_ids: String,
    pub last_login_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

impl User {
    pub fn menu_ids(&self) -> Vec<i64> {
        serde_json::from_str(&self.menu_ids).unwrap_or_default()
    }
    pub fn role_ids(&self) -> Vec<i64> {
        serde_json::from_str(&self.role_ids).unwrap_or_default()
    }
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Merchant {
    pub id: i64,
    pub name: String,
    pub status: i64,
    pub points: i64,
    pub vip_expires_at: Option<i64>,
    pub ai_token: String,
    pub home_type: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

impl Merchant {
    pub fn is_vip(&self) -> bool {
        self.vip_expires_at.is_some_and(|t| t > now_ms())
    }
}

const USER_COLS: &str = "id, merchant_id, kind, username, nickname, mobile, avatar, password_hash, status, \
     menu_ids, role_ids, last_login_at, created_at, updated_at";
const MERCHANT_COLS: &str =
    "id, name, status, points, vip_expires_at, ai_token, home_type, created_at, updated_at";

pub struct NewUser<'a> {
    pub merchant_id: Option<i64>,
    pub kind: domain::UserKind,
    pub username: &'a str,
    pub nickname: &'a str,
    pub mobile: Option<&'a str>,
    pub password_hash: &'a str,
    pub menu_ids: &'a [i64],
}

async fn insert_user<'c, E: sqlx::Executor<'c, Database = sqlx::Any>>(
    ex: E,
    u: &NewUser<'_>,
) -> sqlx::Result<User> {
    let now = now_ms();
    sqlx::query_as(sqlf!(
        "INSERT INTO users (merchant_id, kind, username, nickname, mobile, password_hash, menu_ids, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING {USER_COLS}"
    ))
    .bind(u.merchant_id)
    .bind(u.kind.as_str())
    .bind(u.username)
    .bind(u.nickname)
    .bind(u.mobile)
    .bind(u.password_hash)
    .bind(serde_json::to_string(u.menu_ids).unwrap_or_else(|_| "[]".into()))
    .bind(now)
    .fetch_one(ex)
    .await
}

pub async fn create_operator(db: &Db, username: &str, password_hash: &str) -> sqlx::Result<User> {
    insert_user(
        &db.pool,
        &NewUser {
            merchant_id: None,
            kind: domain::UserKind::Operator,
            username,
            nickname: username,
            mobile: None,
            password_hash,
            menu_ids: &[],
        },
    )
    .await
}

/// A merchant and its owner account, in one transaction.
pub async fn create_merchant(
    db: &Db,
    name: &str,
    username: &str,
    mobile: Option<&str>,
    password_hash: &str,
) -> sqlx::Result<(Merchant, User)> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let m: Merchant = sqlx::query_as(sqlf!(
        "INSERT INTO merchants (name, ai_token, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING {MERCHANT_COLS}"
    ))
    .bind(name)
    .bind(crate::random_token(24))
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    let u = insert_user(
        &mut *tx,
        &NewUser {
            merchant_id: Some(m.id),
            kind: domain::UserKind::Merchant,
            username,
            nickname: name,
            mobile,
            password_hash,
            menu_ids: &[],
        },
    )
    .await?;
    tx.commit().await?;
    Ok((m, u))
}

pub async fn create_staff(db: &Db, u: &NewUser<'_>) -> sqlx::Result<User> {
    insert_user(&db.pool, u).await
}

pub async fn user_by_id(db: &Db, id: i64) -> sqlx::Result<Option<User>> {
    sqlx::query_as(sqlf!("SELECT {USER_COLS} FROM users WHERE id = $1"))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

pub async fn user_by_username(db: &Db, username: &str) -> sqlx::Result<Option<User>> {
    sqlx::query_as(sqlf!("SELECT {USER_COLS} FROM users WHERE username = $1"))
        .bind(username)
        .fetch_optional(&db.pool)
        .await
}

pub async fn user_by_mobile(db: &Db, mobile: &str) -> sqlx::Result<Option<User>> {
    sqlx::query_as(sqlf!("SELECT {USER_COLS} FROM users WHERE mobile = $1"))
        .bind(mobile)
        .fetch_optional(&db.pool)
        .await
}

pub async fn merchant_by_id(db: &Db, id: i64) -> sqlx::Result<Option<Merchant>> {
    sqlx::query_as(sqlf!("SELECT {MERCHANT_COLS} FROM merchants WHERE id = $1"))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

pub async fn count_users(db: &Db) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(&db.pool)
        .await
}

pub async fn touch_login(db: &Db, user_id: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE users SET last_login_at = $1 WHERE id = $2")
        .bind(now_ms())
        .bind(user_id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Sets a password and ends every session of the user.
pub async fn set_password(db: &Db, user_id: i64, password_hash: &str) -> sqlx::Result<()> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    sqlx::query("UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3")
        .bind(password_hash)
        .bind(now)
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
    revoke_sessions_tx(&mut tx, "user_id = $2", user_id, now).await?;
    tx.commit().await
}

pub async fn update_profile(
    db: &Db,
    user_id: i64,
    nickname: &str,
    mobile: Option<&str>,
    avatar: &str,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE users SET nickname = $1, mobile = $2, avatar = $3, updated_at = $4 WHERE id = $5",
    )
    .bind(nickname)
    .bind(mobile)
    .bind(avatar)
    .bind(now_ms())
    .bind(user_id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

async fn revoke_sessions_tx(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    filter: &str,
    id: i64,
    now: i64,
) -> sqlx::Result<()> {
    sqlx::query(sqlf!(
        "UPDATE sessions SET revoked_at = $1 WHERE revoked_at IS NULL AND {filter}"
    ))
    .bind(now)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

// ---- staff (always scoped by merchant) ----

pub static STAFF_LIST: Entity = Entity {
    fields: &[
        field("username", "username", FieldType::Text),
        field("nickname", "nickname", FieldType::Text),
        field("mobile", "mobile", FieldType::Text),
        field("status", "status", FieldType::Switch),
        field("created_at", "created_at", FieldType::Date),
        field("last_login_at", "last_login_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

pub async fn list_staff(
    db: &Db,
    merchant_id: i64,
    q: &ListQuery,
) -> Result<(Vec<User>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {USER_COLS} FROM users"),
        "FROM users",
        "merchant_id = $1 AND kind = 'staff'",
        &[Bind::I(merchant_id)],
        &STAFF_LIST,
        q,
    )
    .await
}

pub async fn staff_by_id(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<User>> {
    sqlx::query_as(sqlf!(
        "SELECT {USER_COLS} FROM users WHERE id = $1 AND merchant_id = $2 AND kind = 'staff'"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

pub struct StaffEdit<'a> {
    pub nickname: &'a str,
    pub mobile: Option<&'a str>,
    pub status: i64,
    pub role_ids: &'a [i64],
}

pub async fn edit_staff(
    db: &Db,
    merchant_id: i64,
    id: i64,
    e: &StaffEdit<'_>,
) -> sqlx::Result<bool> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let n = sqlx::query(
        "UPDATE users SET nickname = $1, mobile = $2, status = $3, role_ids = $4, updated_at = $5 \
         WHERE id = $6 AND merchant_id = $7 AND kind = 'staff'",
    )
    .bind(e.nickname)
    .bind(e.mobile)
    .bind(e.status)
    .bind(serde_json::to_string(e.role_ids).unwrap_or_else(|_| "[]".into()))
    .bind(now)
    .bind(id)
    .bind(merchant_id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if n > 0 && e.status == 0 {
        revoke_sessions_tx(&mut tx, "user_id = $2", id, now).await?;
    }
    tx.commit().await?;
    Ok(n > 0)
}

pub async fn set_staff_menus(
    db: &Db,
    merchant_id: i64,
    id: i64,
    menu_ids: &[i64],
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE users SET menu_ids = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4 AND kind = 'staff'",
    )
    .bind(serde_json::to_string(menu_ids).unwrap_or_else(|_| "[]".into()))
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Deletes a staff account and ends its sessions.
pub async fn delete_staff(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<bool> {
    let mut tx = db.begin().await?;
    let n = sqlx::query("DELETE FROM users WHERE id = $1 AND merchant_id = $2 AND kind = 'staff'")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if n > 0 {
        revoke_sessions_tx(&mut tx, "user_id = $2", id, now_ms()).await?;
    }
    tx.commit().await?;
    Ok(n > 0)
}

// ---- operator views ----

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct MerchantRow {
    pub id: i64,
    pub name: String,
    pub username: String,
    pub mobile: Option<String>,
    pub status: i64,
    pub points: i64,
    pub vip_expires_at: Option<i64>,
    /// 1: the 'header' home layout (top menu, `/` opens /home); 2: the 'second' one (SPEC §2).
    pub home_type: i64,
    pub created_at: i64,
    pub staff_count: i64,
}

pub static MERCHANT_LIST: Entity = Entity {
    fields: &[
        field("name", "m.name", FieldType::Text),
        field("username", "u.username", FieldType::Text),
        field("mobile", "u.mobile", FieldType::Text),
        field("status", "m.status", FieldType::Switch),
        field("points", "m.points", FieldType::Int),
        field("created_at", "m.created_at", FieldType::Date),
        field("vip_expires_at", "m.vip_expires_at", FieldType::Date),
    ],
    default_order: "m.id DESC",
    tiebreak: "m.id",
};

const MERCHANT_ROW: &str = "SELECT m.id, m.name, u.username, u.mobile, m.status, m.points, m.vip_expires_at, m.home_type, m.created_at, \
     (SELECT COUNT(*) FROM users s WHERE s.merchant_id = m.id AND s.kind = 'staff') AS staff_count \
     FROM merchants m JOIN users u ON u.merchant_id = m.id AND u.kind = 'merchant'";

pub async fn list_merchants(
    db: &Db,
    q: &ListQuery,
) -> Result<(Vec<MerchantRow>, Total), PageError> {
    list::page(
        db,
        MERCHANT_ROW,
        "FROM merchants m JOIN users u ON u.merchant_id = m.id AND u.kind = 'merchant'",
        "1 = 1",
        &[],
        &MERCHANT_LIST,
        q,
    )
    .await
}

pub async fn merchant_row(db: &Db, id: i64) -> sqlx::Result<Option<MerchantRow>> {
    sqlx::query_as(sqlf!("{MERCHANT_ROW} WHERE m.id = $1"))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

pub async fn merchant_owner(db: &Db, merchant_id: i64) -> sqlx::Result<Option<User>> {
    sqlx::query_as(sqlf!(
        "SELECT {USER_COLS} FROM users WHERE merchant_id = $1 AND kind = 'merchant'"
    ))
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn edit_merchant(
    db: &Db,
    id: i64,
    name: &str,
    vip_expires_at: Option<i64>,
    home_type: Option<i64>,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE merchants SET name = $1, vip_expires_at = $2, updated_at = $3, \
         home_type = COALESCE($5, home_type) WHERE id = $4",
    )
    .bind(name)
    .bind(vip_expires_at)
    .bind(now_ms())
    .bind(id)
    .bind(home_type)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Enables or disables a merchant; disabling ends the sessions of all its users.
pub async fn set_merchant_status(db: &Db, id: i64, status: i64) -> sqlx::Result<bool> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    let n = sqlx::query("UPDATE merchants SET status = $1, updated_at = $2 WHERE id = $3")
        .bind(status)
        .bind(now)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if n > 0 && status == 0 {
        revoke_sessions_tx(
            &mut tx,
            "user_id IN (SELECT id FROM users WHERE merchant_id = $2)",
            id,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(n > 0)
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct UserRow {
    pub id: i64,
    pub merchant_id: Option<i64>,
    pub merchant_name: Option<String>,
    #[sqlx(try_from = "String")]
    pub kind: domain::UserKind,
    pub username: String,
    pub nickname: String,
    pub mobile: Option<String>,
    pub status: i64,
    pub last_login_at: Option<i64>,
    pub created_at: i64,
}

pub static USER_LIST: Entity = Entity {
    fields: &[
        field("username", "u.username", FieldType::Text),
        field("nickname", "u.nickname", FieldType::Text),
        field("mobile", "u.mobile", FieldType::Text),
        field("kind", "u.kind", FieldType::Select),
        field("merchant_id", "u.merchant_id", FieldType::Int),
        field("merchant_name", "m.name", FieldType::Text),
        field("status", "u.status", FieldType::Switch),
        field("created_at", "u.created_at", FieldType::Date),
        field("last_login_at", "u.last_login_at", FieldType::Date),
    ],
    default_order: "u.id DESC",
    tiebreak: "u.id",
};

pub async fn list_all_users(db: &Db, q: &ListQuery) -> Result<(Vec<UserRow>, Total), PageError> {
    list::page(
        db,
        "SELECT u.id, u.merchant_id, m.name AS merchant_name, u.kind, u.username, u.nickname, u.mobile, u.status, \
         u.last_login_at, u.created_at FROM users u LEFT JOIN merchants m ON m.id = u.merchant_id",
        "FROM users u LEFT JOIN merchants m ON m.id = u.merchant_id",
        "1 = 1",
        &[],
        &USER_LIST,
        q,
    )
    .await
}

// ---- sessions ----
//
// A session's id is the credential inside the token, so the table keeps only its hash (`h1:` and the
// SHA-256 in hex): a copy of the database names no session anyone could use.

/// What the table stores for a session id.
pub fn session_key(id: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(id.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("h1:{hex}")
}

/// Replaces the ids older versions stored in clear with their hashes (at start); their tokens stay
/// valid. Returns how many were replaced.
pub async fn hash_clear_sessions(db: &Db) -> sqlx::Result<u64> {
    let clear: Vec<String> = sqlx::query_scalar("SELECT id FROM sessions WHERE id NOT LIKE 'h1:%'")
        .fetch_all(&db.pool)
        .await?;
    let mut n = 0;
    for id in clear {
        n += sqlx::query("UPDATE sessions SET id = $1 WHERE id = $2")
            .bind(session_key(&id))
            .bind(&id)
            .execute(&db.pool)
            .await?
            .rows_affected();
    }
    Ok(n)
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Session {
    pub id: String,
    pub user_id: i64,
    pub remember: i64,
    pub proxy_user: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
    pub revoked_at: Option<i64>,
}

pub async fn create_session(
    db: &Db,
    user_id: i64,
    remember: bool,
    proxy_user: Option<&str>,
    ttl_ms: i64,
) -> sqlx::Result<Session> {
    let now = now_ms();
    let id = crate::random_token(24);
    let mut s: Session = sqlx::query_as(
        "INSERT INTO sessions (id, user_id, remember, proxy_user, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6) \
         RETURNING id, user_id, remember, proxy_user, created_at, expires_at, revoked_at",
    )
    .bind(session_key(&id))
    .bind(user_id)
    .bind(remember as i64)
    .bind(proxy_user)
    .bind(now)
    .bind(now + ttl_ms)
    .fetch_one(&db.pool)
    .await?;
    s.id = id;
    Ok(s)
}

/// The session of an id (the row found by its hash, carrying the id itself).
pub async fn session(db: &Db, id: &str) -> sqlx::Result<Option<Session>> {
    let row: Option<Session> = sqlx::query_as("SELECT id, user_id, remember, proxy_user, created_at, expires_at, revoked_at FROM sessions WHERE id = $1")
        .bind(session_key(id))
        .fetch_optional(&db.pool)
        .await?;
    Ok(row.map(|s| Session {
        id: id.to_string(),
        ..s
    }))
}

pub async fn extend_session(db: &Db, id: &str, expires_at: i64) -> sqlx::Result<()> {
    sqlx::query("UPDATE sessions SET expires_at = $1 WHERE id = $2")
        .bind(expires_at)
        .bind(session_key(id))
        .execute(&db.pool)
        .await?;
    Ok(())
}

pub async fn revoke_session(db: &Db, id: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL")
        .bind(now_ms())
        .bind(session_key(id))
        .execute(&db.pool)
        .await?;
    Ok(())
}

// ---- SMS codes ----

pub async fn last_sms_at(db: &Db, mobile: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar("SELECT MAX(created_at) FROM sms_codes WHERE mobile = $1")
        .bind(mobile)
        .fetch_one(&db.pool)
        .await
}

pub async fn insert_sms(db: &Db, mobile: &str, scene: &str, code: &str) -> sqlx::Result<()> {
    let now = now_ms();
    sqlx::query("INSERT INTO sms_codes (mobile, scene, code, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(mobile)
        .bind(scene)
        .bind(code)
        .bind(now)
        .bind(now + domain::SMS_TTL_MS)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Codes sent to a number since `since` (unix ms).
pub async fn sms_count_since(db: &Db, mobile: &str, since: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT COUNT(*) FROM sms_codes WHERE mobile = $1 AND created_at >= $2")
        .bind(mobile)
        .bind(since)
        .fetch_one(&db.pool)
        .await
}

/// Forgets a code the gateway did not send.
pub async fn delete_sms(db: &Db, mobile: &str, scene: &str, code: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM sms_codes WHERE mobile = $1 AND scene = $2 AND code = $3")
        .bind(mobile)
        .bind(scene)
        .bind(code)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Uses up the newest unexpired code for (mobile, scene) if it equals `code`. True when it matched.
pub async fn consume_sms(db: &Db, mobile: &str, scene: &str, code: &str) -> sqlx::Result<bool> {
    let now = now_ms();
    let row = sqlx::query(
        "SELECT id, code FROM sms_codes WHERE mobile = $1 AND scene = $2 AND used_at IS NULL AND expires_at > $3 \
         ORDER BY created_at DESC, id DESC LIMIT 1",
    )
    .bind(mobile)
    .bind(scene)
    .bind(now)
    .fetch_optional(&db.pool)
    .await?;
    let Some(row) = row else { return Ok(false) };
    let (id, stored): (i64, String) = (row.try_get("id")?, row.try_get("code")?);
    if stored != code {
        return Ok(false);
    }
    let n = sqlx::query("UPDATE sms_codes SET used_at = $1 WHERE id = $2 AND used_at IS NULL")
        .bind(now)
        .bind(id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct SmsRow {
    pub mobile: String,
    pub scene: String,
    pub code: String,
    pub created_at: i64,
    pub expires_at: i64,
}

pub async fn sms_outbox(db: &Db, limit: i64) -> sqlx::Result<Vec<SmsRow>> {
    sqlx::query_as("SELECT mobile, scene, code, created_at, expires_at FROM sms_codes ORDER BY id DESC LIMIT $1")
        .bind(limit)
        .fetch_all(&db.pool)
        .await
}

// ---- lockout: failures within 15 minutes lock a login key for 15 minutes ----
// Keys: `pwd:<username>@<address>` (5 failures), `pwd:<username>` (the slower per-name limit),
// `sms:<mobile>`. Every function takes `now` so tests move time instead of waiting.

/// `Some(until)` when the key is locked at `now`.
pub async fn locked_until(db: &Db, key: &str, now: i64) -> sqlx::Result<Option<i64>> {
    let until: Option<Option<i64>> =
        sqlx::query_scalar("SELECT locked_until FROM login_failures WHERE key = $1")
            .bind(key)
            .fetch_optional(&db.pool)
            .await?;
    Ok(until.flatten().filter(|t| *t > now))
}

/// Records one failure; `limit` failures with no gap of `LOCK_MS` between them lock the key for
/// `LOCK_MS`. Returns (failures so far, locked_until if this one locked it).
pub async fn record_failure(
    db: &Db,
    key: &str,
    limit: i64,
    now: i64,
) -> sqlx::Result<(i64, Option<i64>)> {
    let mut tx = db.begin().await?;
    let prev: Option<(i64, Option<i64>, i64)> = sqlx::query_as(
        "SELECT failures, locked_until, updated_at FROM login_failures WHERE key = $1",
    )
    .bind(key)
    .fetch_optional(&mut *tx)
    .await?;
    // A lock that has run out, or failures long past, start a fresh count.
    let failures = match prev {
        Some((_, Some(until), _)) if until <= now => 1,
        Some((_, None, at)) if at <= now - domain::LOCK_MS => 1,
        Some((f, _, _)) => f + 1,
        None => 1,
    };
    let locked = (failures >= limit).then_some(now + domain::LOCK_MS);
    sqlx::query(
        "INSERT INTO login_failures (key, failures, locked_until, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (key) DO UPDATE SET failures = $2, locked_until = $3, updated_at = $4",
    )
    .bind(key)
    .bind(failures)
    .bind(locked)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((failures, locked))
}

pub async fn clear_failures(db: &Db, key: &str) -> sqlx::Result<()> {
    sqlx::query("DELETE FROM login_failures WHERE key = $1")
        .bind(key)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Lifts every password lock of a username: the per-name one and those per address.
pub async fn clear_user_failures(db: &Db, username: &str) -> sqlx::Result<()> {
    let key = format!("pwd:{}", username.to_lowercase());
    let escaped = key
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    sqlx::query("DELETE FROM login_failures WHERE key = $1 OR key LIKE $2 ESCAPE '\\'")
        .bind(&key)
        .bind(format!("{escaped}@%"))
        .execute(&db.pool)
        .await?;
    Ok(())
}

// ---- proxy tokens: the operator enters a merchant's console ----

pub async fn create_proxy_token(
    db: &Db,
    merchant_id: i64,
    operator_id: i64,
) -> sqlx::Result<String> {
    let token = crate::random_token(24);
    sqlx::query("INSERT INTO proxy_tokens (token, merchant_id, operator_id, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(&token)
        .bind(merchant_id)
        .bind(operator_id)
        .bind(now_ms() + 60_000)
        .execute(&db.pool)
        .await?;
    Ok(token)
}

/// Single use: returns (merchant_id, operator_id) the first time an unexpired token is presented.
pub async fn consume_proxy_token(db: &Db, token: &str) -> sqlx::Result<Option<(i64, i64)>> {
    let now = now_ms();
    sqlx::query_as(
        "UPDATE proxy_tokens SET used_at = $1 WHERE token = $2 AND used_at IS NULL AND expires_at > $1 \
         RETURNING merchant_id, operator_id",
    )
    .bind(now)
    .bind(token)
    .fetch_optional(&db.pool)
    .await
}

/// Housekeeping: drops sessions, SMS codes, proxy tokens and sign-in failures that can never count again.
pub async fn cleanup(db: &Db, now: i64) -> sqlx::Result<u64> {
    let week = 7 * 86_400_000;
    let mut n = 0;
    n += sqlx::query("DELETE FROM sessions WHERE expires_at < $1 OR (revoked_at IS NOT NULL AND revoked_at < $1)")
        .bind(now - week)
        .execute(&db.pool)
        .await?
        .rows_affected();
    n += sqlx::query("DELETE FROM sms_codes WHERE expires_at < $1")
        .bind(now - 86_400_000)
        .execute(&db.pool)
        .await?
        .rows_affected();
    // Failures whose window has passed count for nothing (`record_failure` starts afresh).
    n += sqlx::query(
        "DELETE FROM login_failures WHERE updated_at <= $1 AND (locked_until IS NULL OR locked_until <= $2)",
    )
    .bind(now - domain::LOCK_MS)
    .bind(now)
    .execute(&db.pool)
    .await?
    .rows_affected();
    n += sqlx::query("DELETE FROM proxy_tokens WHERE expires_at < $1")
        .bind(now - 86_400_000)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n)
}
