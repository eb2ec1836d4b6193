//! Authorized accounts (`matrix_accounts`): their list and status, tokens (sealed by the caller),
//! editable fields, revocation and deletion.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::matrix::Revocation;
use domain::now_ms;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Account {
    pub id: i64,
    pub merchant_id: i64,
    #[sqlx(try_from = "String")]
    pub platform: domain::platform::Platform,
    pub open_id: String,
    pub nickname: String,
    pub avatar: String,
    #[sqlx(try_from = "String")]
    pub account_type: domain::matrix::AccountType,
    pub group_id: i64,
    pub group_name: Option<String>,
    pub province: String,
    pub city: String,
    pub poi_id: String,
    pub poi_name: String,
    pub poi_address: String,
    pub remarks: String,
    /// Sealed (store::secrets).
    pub access_token: String,
    pub refresh_token: String,
    pub token_expires_at: i64,
    pub auth_expires_at: i64,
    pub revoked: i64,
    /// Why the platform ended the authorization: a `domain::matrix::Revocation` code and its
    /// arguments; empty in rows revoked before codes, which keep their text in `revoked_reason`.
    pub revoked_code: String,
    pub revoked_args: String,
    pub revoked_reason: String,
    /// The browser flows' proxy URL, sealed (store::secrets); empty for none.
    pub proxy: String,
    /// The proxy without its credentials (`scheme://host:port`), for the console.
    pub proxy_shown: String,
    pub sandbox: i64,
    pub videos: i64,
    pub plays: i64,
    pub comments: i64,
    pub likes: i64,
    pub synced_at: i64,
    pub created_at: i64,
    /// The last session check of a console account (0: never), whether it was alive, and why not.
    pub checked_at: i64,
    pub check_ok: i64,
    pub check_reason: String,
    /// A console account's login stored for every node, in bytes (0: none stored).
    pub profile_bytes: i64,
}

const ACCOUNT_COLS: &str = "a.id, a.merchant_id, a.platform, a.open_id, a.nickname, a.avatar, a.account_type, a.group_id, \
    g.name AS group_name, a.province, a.city, a.poi_id, a.poi_name, a.poi_address, a.remarks, a.access_token, \
    a.refresh_token, a.token_expires_at, a.auth_expires_at, a.revoked, a.revoked_code, a.revoked_args, a.revoked_reason, a.proxy, a.proxy_shown, a.sandbox, a.videos, a.plays, \
    a.comments, a.likes, a.synced_at, a.created_at, a.checked_at, a.check_ok, a.check_reason, \
    COALESCE(bp.state_bytes, 0) AS profile_bytes";
// An account has at most one stored login (`link_profile` keeps the latest).
const ACCOUNT_FROM: &str = "FROM matrix_accounts a LEFT JOIN matrix_groups g ON g.id = a.group_id \
    LEFT JOIN browser_profiles bp ON bp.account_id = a.id AND bp.version > 0";

pub static ACCOUNT_LIST: Entity = Entity {
    fields: &[
        field("platform", "a.platform", FieldType::Select),
        field("nickname", "a.nickname", FieldType::Text),
        field("remarks", "a.remarks", FieldType::Text),
        field("group_id", "a.group_id", FieldType::Int),
        field("created_at", "a.created_at", FieldType::Date),
        field("expires_at", "a.auth_expires_at", FieldType::Date),
        field("videos", "a.videos", FieldType::Int),
        field("plays", "a.plays", FieldType::Int),
    ],
    default_order: "a.id DESC",
    tiebreak: "a.id",
};

/// `status` (active / expiring / expired) is computed from the platform clock, so it is a scope here.
pub fn status_scope(status: Option<&str>, now: i64) -> Option<String> {
    let soon = now + domain::matrix::EXPIRING_MS;
    Some(match status? {
        "expired" => format!("(a.revoked = 1 OR a.auth_expires_at <= {now})"),
        "expiring" => {
            format!("(a.revoked = 0 AND a.auth_expires_at > {now} AND a.auth_expires_at <= {soon})")
        }
        "active" => format!("(a.revoked = 0 AND a.auth_expires_at > {soon})"),
        _ => return None,
    })
}

pub async fn accounts(
    db: &Db,
    mid: i64,
    extra: Option<String>,
    q: &ListQuery,
) -> Result<(Vec<Account>, Total), PageError> {
    let scope = match extra {
        Some(x) => format!("a.merchant_id = $1 AND {x}"),
        None => "a.merchant_id = $1".to_string(),
    };
    list::page(
        db,
        &format!("SELECT {ACCOUNT_COLS} {ACCOUNT_FROM}"),
        ACCOUNT_FROM,
        &scope,
        &[Bind::I(mid)],
        &ACCOUNT_LIST,
        q,
    )
    .await
}

/// Counts per status for the summary row.
pub async fn account_summary(db: &Db, mid: i64, now: i64) -> sqlx::Result<(i64, i64, i64)> {
    let soon = now + domain::matrix::EXPIRING_MS;
    let row: (i64, i64, i64) = sqlx::query_as(
        "SELECT \
           COALESCE(SUM(CASE WHEN revoked = 0 AND auth_expires_at > $2 THEN 1 ELSE 0 END), 0), \
           COALESCE(SUM(CASE WHEN revoked = 0 AND auth_expires_at > $3 AND auth_expires_at <= $2 THEN 1 ELSE 0 END), 0), \
           COALESCE(SUM(CASE WHEN revoked = 1 OR auth_expires_at <= $3 THEN 1 ELSE 0 END), 0) \
         FROM matrix_accounts WHERE merchant_id = $1",
    )
    .bind(mid)
    .bind(soon)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    Ok(row)
}

pub async fn account(db: &Db, mid: i64, id: i64) -> sqlx::Result<Option<Account>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ACCOUNT_COLS} {ACCOUNT_FROM} WHERE a.id = $1 AND a.merchant_id = $2"
    ))
    .bind(id)
    .bind(mid)
    .fetch_optional(&db.pool)
    .await
}

/// Every account of a merchant (an import looks rows up by id or nickname).
pub async fn all_accounts(db: &Db, mid: i64) -> sqlx::Result<Vec<Account>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ACCOUNT_COLS} {ACCOUNT_FROM} WHERE a.merchant_id = $1 ORDER BY a.id"
    ))
    .bind(mid)
    .fetch_all(&db.pool)
    .await
}

/// The merchant's newest live account of `platform` that granted `scope` (a search on its behalf).
pub async fn account_with_scope(
    db: &Db,
    mid: i64,
    platform: &str,
    scope: &str,
) -> sqlx::Result<Option<Account>> {
    let scopes: Vec<(i64, String)> = sqlx::query_as(
        "SELECT id, scope FROM matrix_accounts WHERE merchant_id = $1 AND platform = $2 AND revoked = 0 \
         ORDER BY id DESC",
    )
    .bind(mid)
    .bind(platform)
    .fetch_all(&db.pool)
    .await?;
    match scopes
        .into_iter()
        .find(|(_, s)| s.split(',').any(|x| x.trim() == scope))
    {
        Some((id, _)) => account(db, mid, id).await,
        None => Ok(None),
    }
}

/// Records a session check of an account: alive, or why not.
pub async fn set_checked(db: &Db, id: i64, at: i64, ok: bool, reason: &str) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE matrix_accounts SET checked_at = $1, check_ok = $2, check_reason = $3 WHERE id = $4",
    )
    .bind(at)
    .bind(ok as i64)
    .bind(reason)
    .bind(id)
    .execute(&db.pool)
    .await
    .map(|_| ())
}

/// The account a platform's canary walks a publish on: live (not revoked), any merchant's, the one
/// whose session was last seen working first.
pub async fn canary_account(db: &Db, platform: &str) -> sqlx::Result<Option<Account>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ACCOUNT_COLS} {ACCOUNT_FROM} WHERE a.platform = $1 AND a.revoked = 0 \
         ORDER BY a.check_ok DESC, a.checked_at DESC, a.id LIMIT 1"
    ))
    .bind(platform)
    .fetch_optional(&db.pool)
    .await
}

/// For the worker, which acts on a job's account.
pub async fn account_by_id(db: &Db, id: i64) -> sqlx::Result<Option<Account>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ACCOUNT_COLS} {ACCOUNT_FROM} WHERE a.id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

#[derive(Debug, Clone)]
pub struct Authorized {
    pub platform: domain::platform::Platform,
    pub open_id: String,
    pub nickname: String,
    pub avatar: String,
    pub access_token: String,
    pub refresh_token: String,
    pub token_expires_at: i64,
    pub auth_expires_at: i64,
    pub group_id: i64,
    pub sandbox: bool,
    /// The consented scope ('' when the platform has none).
    pub scope: String,
}

/// Adds an account or, when the merchant authorized it before, refreshes its tokens and un-revokes it.
pub async fn upsert_account(db: &Db, mid: i64, a: &Authorized) -> sqlx::Result<i64> {
    let now = now_ms();
    sqlx::query_scalar(
        "INSERT INTO matrix_accounts (merchant_id, platform, open_id, nickname, avatar, access_token, refresh_token, \
           token_expires_at, auth_expires_at, group_id, sandbox, created_at, updated_at, scope) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13) \
         ON CONFLICT (merchant_id, platform, open_id) DO UPDATE SET nickname = $4, avatar = $5, access_token = $6, \
           refresh_token = $7, token_expires_at = $8, auth_expires_at = $9, revoked = 0, revoked_code = '', revoked_args = '', revoked_reason = '', \
           sandbox = $11, updated_at = $12, scope = $13 \
         RETURNING id",
    )
    .bind(mid)
    .bind(a.platform.as_str())
    .bind(&a.open_id)
    .bind(&a.nickname)
    .bind(&a.avatar)
    .bind(&a.access_token)
    .bind(&a.refresh_token)
    .bind(a.token_expires_at)
    .bind(a.auth_expires_at)
    .bind(a.group_id)
    .bind(a.sandbox as i64)
    .bind(now)
    .bind(&a.scope)
    .fetch_one(&db.pool)
    .await
}

/// Sets one editable text/int column of a merchant's account. `col` is one of our constants.
async fn set_account_cols(
    db: &Db,
    mid: i64,
    id: i64,
    sets: &[(&'static str, Bind)],
) -> sqlx::Result<bool> {
    let mut sql = String::from("UPDATE matrix_accounts SET updated_at = $1");
    for (i, (col, _)) in sets.iter().enumerate() {
        sql.push_str(&format!(", {col} = ${}", i + 2));
    }
    let n = sets.len();
    sql.push_str(&format!(
        " WHERE id = ${} AND merchant_id = ${}",
        n + 2,
        n + 3
    ));
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(now_ms());
    for (_, b) in sets {
        q = match b {
            Bind::I(v) => q.bind(*v),
            Bind::S(v) => q.bind(v.clone()),
        };
    }
    Ok(q.bind(id)
        .bind(mid)
        .execute(&db.pool)
        .await?
        .rows_affected()
        == 1)
}

pub async fn save_account(
    db: &Db,
    mid: i64,
    id: i64,
    group_id: Option<i64>,
    remarks: Option<&str>,
    account_type: Option<domain::matrix::AccountType>,
) -> sqlx::Result<bool> {
    let mut sets = vec![];
    if let Some(g) = group_id {
        sets.push(("group_id", Bind::I(g)));
    }
    if let Some(r) = remarks {
        sets.push(("remarks", Bind::S(r.to_string())));
    }
    if let Some(t) = account_type {
        sets.push(("account_type", Bind::S(t.as_str().to_string())));
    }
    set_account_cols(db, mid, id, &sets).await
}

pub async fn set_address(
    db: &Db,
    mid: i64,
    id: i64,
    fields: &[(&'static str, String)],
) -> sqlx::Result<bool> {
    let sets: Vec<(&'static str, Bind)> = fields
        .iter()
        .map(|(k, v)| (*k, Bind::S(v.clone())))
        .collect();
    set_account_cols(db, mid, id, &sets).await
}

/// Sets the account's proxy (sealed by the caller) and what the console shows of it; empty removes it.
pub async fn set_proxy(
    db: &Db,
    mid: i64,
    id: i64,
    sealed: &str,
    shown: &str,
) -> sqlx::Result<bool> {
    let sets = [
        ("proxy", Bind::S(sealed.to_string())),
        ("proxy_shown", Bind::S(shown.to_string())),
    ];
    set_account_cols(db, mid, id, &sets).await
}

/// Stores refreshed tokens (sealed by the caller).
pub async fn set_tokens(
    db: &Db,
    id: i64,
    access: &str,
    refresh: &str,
    token_expires_at: i64,
    auth_expires_at: i64,
) -> sqlx::Result<()> {
    sqlx::query(
        "UPDATE matrix_accounts SET access_token = $1, refresh_token = $2, token_expires_at = $3, auth_expires_at = $4, \
           revoked = 0, revoked_code = '', revoked_args = '', revoked_reason = '', updated_at = $5 WHERE id = $6",
    )
    .bind(access)
    .bind(refresh)
    .bind(token_expires_at)
    .bind(auth_expires_at)
    .bind(now_ms())
    .bind(id)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The platform refused the account's authorization: it shows as expired, with the reason (`why`
/// and its arguments, a JSON object or '').
pub async fn revoke(db: &Db, id: i64, why: Revocation, args: &str) -> sqlx::Result<()> {
    mark_revoked(db, id, why, args, None).await.map(|_| ())
}

/// Marks an account expired after a refused refresh, only while its stored refresh token is still
/// `refresh_token`, the one refused: another refresh (a publish, the refresh job) that got there first
/// has spent it and stored a new one, and the account is fine. Whether it was marked.
pub async fn revoke_refused_refresh(
    db: &Db,
    id: i64,
    refresh_token: &str,
    args: &str,
) -> sqlx::Result<bool> {
    mark_revoked(db, id, Revocation::Refused, args, Some(refresh_token)).await
}

/// The one write of an expiry: only while the account holds `holding` as its refresh token when given.
async fn mark_revoked(
    db: &Db,
    id: i64,
    why: Revocation,
    args: &str,
    holding: Option<&str>,
) -> sqlx::Result<bool> {
    let only = if holding.is_some() {
        " AND refresh_token = $5"
    } else {
        ""
    };
    let mut q = sqlx::query(crate::sqlf!(
        "UPDATE matrix_accounts SET revoked = 1, revoked_code = $1, revoked_args = $2, updated_at = $3 \
         WHERE id = $4{only}"
    ))
    .bind(why.as_str())
    .bind(args)
    .bind(now_ms())
    .bind(id);
    if let Some(t) = holding {
        q = q.bind(t);
    }
    Ok(q.execute(&db.pool).await?.rows_affected() > 0)
}

/// Accounts whose access token ends before `before` and can still be refreshed.
pub async fn accounts_to_refresh(db: &Db, before: i64, limit: i64) -> sqlx::Result<Vec<Account>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {ACCOUNT_COLS} {ACCOUNT_FROM} WHERE a.revoked = 0 AND a.platform IN ('dy', 'ks') \
         AND a.token_expires_at < $1 ORDER BY a.token_expires_at LIMIT $2"
    ))
    .bind(before)
    .bind(limit)
    .fetch_all(&db.pool)
    .await
}

/// The number removed, or None (nothing removed) when one of them has an item being published.
pub async fn delete_accounts(db: &Db, mid: i64, ids: &[i64]) -> sqlx::Result<Option<u64>> {
    let mut tx = db.begin().await?;
    let mut n = 0;
    for id in ids {
        let busy: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM matrix_items WHERE account_id = $1 AND merchant_id = $2 AND state = 'publishing'",
        )
        .bind(id)
        .bind(mid)
        .fetch_one(&mut *tx)
        .await?;
        if busy > 0 {
            return Ok(None);
        }
        // Waiting posts of a removed account cannot go out: they fail with a reason.
        sqlx::query(
            "UPDATE matrix_items SET state = 'failed', error_code = $1, error_args = '', \
               updated_at = $2 WHERE account_id = $3 AND merchant_id = $4 AND state = 'to_release'",
        )
        .bind(domain::matrix::ItemFailure::AccountRemoved.as_str())
        .bind(now_ms())
        .bind(id)
        .bind(mid)
        .execute(&mut *tx)
        .await?;
        // Its console login goes with it, on every node (local copies are left to the cache).
        sqlx::query(
            "DELETE FROM browser_profiles WHERE account_id = \
               (SELECT id FROM matrix_accounts WHERE id = $1 AND merchant_id = $2)",
        )
        .bind(id)
        .bind(mid)
        .execute(&mut *tx)
        .await?;
        n += sqlx::query("DELETE FROM matrix_accounts WHERE id = $1 AND merchant_id = $2")
            .bind(id)
            .bind(mid)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    tx.commit().await?;
    Ok(Some(n))
}

/// A merchant's accounts as "<platform>:<open_id>" (what the sandbox shows it).
pub async fn platform_ids(db: &Db, mid: i64) -> sqlx::Result<Vec<String>> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT platform, open_id FROM matrix_accounts WHERE merchant_id = $1")
            .bind(mid)
            .fetch_all(&db.pool)
            .await?;
    Ok(rows.into_iter().map(|(p, o)| format!("{p}:{o}")).collect())
}
