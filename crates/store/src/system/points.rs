//! A merchant's points: an append-only ledger plus the balance kept on the merchant row, changed in the
//! same transaction. Deductions never go negative and are idempotent per job key.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::now_ms;
use domain::system::points::Reason;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum PointsError {
    #[error("not enough points: {need} needed, {balance} left")]
    Insufficient { need: i64, balance: i64 },
    #[error("points must be positive")]
    NotPositive,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Entry {
    pub id: i64,
    pub merchant_id: i64,
    pub change: i64,
    pub balance: i64,
    #[sqlx(try_from = "String")]
    pub kind: domain::system::points::EntryKind,
    /// `domain::system::points::Reason` code, shown in the reader's language.
    pub reason_code: String,
    /// The operator's own note on a top-up (shown as typed), else empty.
    pub reason: String,
    pub job_key: Option<String>,
    pub operator: String,
    pub created_at: i64,
}

const COLS: &str =
    "id, merchant_id, change, balance, kind, reason_code, reason, job_key, operator, created_at";

pub async fn balance(db: &Db, merchant_id: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT points FROM merchants WHERE id = $1")
        .bind(merchant_id)
        .fetch_optional(&db.pool)
        .await
        .map(|b| b.unwrap_or(0))
}

/// The points of every merchant together (the operator's dashboard).
pub async fn total_balance(db: &Db) -> sqlx::Result<i64> {
    sqlx::query_scalar("SELECT CAST(COALESCE(SUM(points), 0) AS BIGINT) FROM merchants")
        .fetch_one(&db.pool)
        .await
}

/// What a ledger entry says about itself besides the amount.
pub struct Why<'a> {
    pub kind: &'a str,
    pub reason: Reason,
    /// The operator's note (top-ups), else "".
    pub note: &'a str,
    pub job_key: Option<&'a str>,
    /// Who did it; "" for the system.
    pub operator: &'a str,
}

async fn apply(db: &Db, merchant_id: i64, change: i64, why: Why<'_>) -> Result<Entry, PointsError> {
    let job_key = why.job_key;
    let mut tx = db.begin().await?;
    if let Some(key) = job_key {
        let done: Option<Entry> = sqlx::query_as(sqlf!(
            "SELECT {COLS} FROM points_ledger WHERE merchant_id = $1 AND job_key = $2"
        ))
        .bind(merchant_id)
        .bind(key)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(e) = done {
            return Ok(e);
        }
    }
    let inserted = match post(&mut tx, merchant_id, change, &why).await {
        Ok(None) => {
            drop(tx);
            return Err(PointsError::Insufficient {
                need: -change,
                balance: self::balance(db, merchant_id).await?,
            });
        }
        Ok(Some(e)) => Ok(e),
        Err(e) => Err(e),
    };
    match inserted {
        Ok(e) => {
            tx.commit().await?;
            Ok(e)
        }
        // A concurrent call with the same key won: answer with its entry, undo ours.
        Err(e) if crate::db::is_unique_violation(&e) && job_key.is_some() => {
            drop(tx);
            Ok(sqlx::query_as(sqlf!(
                "SELECT {COLS} FROM points_ledger WHERE merchant_id = $1 AND job_key = $2"
            ))
            .bind(merchant_id)
            .bind(job_key)
            .fetch_one(&db.pool)
            .await?)
        }
        Err(e) => Err(e.into()),
    }
}

/// Changes the balance and appends the ledger entry inside the caller's transaction. `None` when the
/// change would take the balance below zero: the conditional update is the guard against that, on both
/// backends and under races.
pub(crate) async fn post(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    merchant_id: i64,
    change: i64,
    why: &Why<'_>,
) -> sqlx::Result<Option<Entry>> {
    let now = now_ms();
    let balance: Option<i64> = sqlx::query_scalar(
        "UPDATE merchants SET points = points + $1, updated_at = $2 WHERE id = $3 AND points + $1 >= 0 RETURNING points",
    )
    .bind(change)
    .bind(now)
    .bind(merchant_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(balance) = balance else {
        return Ok(None);
    };
    sqlx::query_as::<_, Entry>(sqlf!(
        "INSERT INTO points_ledger (merchant_id, change, balance, kind, reason_code, reason, job_key, operator, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING {COLS}"
    ))
    .bind(merchant_id)
    .bind(change)
    .bind(balance)
    .bind(why.kind)
    .bind(why.reason.code())
    .bind(why.note)
    .bind(why.job_key)
    .bind(why.operator)
    .bind(now)
    .fetch_one(&mut **tx)
    .await
    .map(Some)
}

/// Takes `points` for a job; calling again with the same key changes nothing and returns the first entry.
pub async fn deduct(
    db: &Db,
    merchant_id: i64,
    points: i64,
    reason: Reason,
    job_key: &str,
) -> Result<Entry, PointsError> {
    if points <= 0 {
        return Err(PointsError::NotPositive);
    }
    let why = Why {
        kind: "deduct",
        reason,
        note: "",
        job_key: Some(job_key),
        operator: "",
    };
    apply(db, merchant_id, -points, why).await
}

/// Gives back a deduction (a failed job), once.
pub async fn refund(
    db: &Db,
    merchant_id: i64,
    job_key: &str,
    reason: Reason,
) -> Result<Option<Entry>, PointsError> {
    let original: Option<Entry> = sqlx::query_as(sqlf!(
        "SELECT {COLS} FROM points_ledger WHERE merchant_id = $1 AND job_key = $2 AND kind = 'deduct'"
    ))
    .bind(merchant_id)
    .bind(job_key)
    .fetch_optional(&db.pool)
    .await?;
    let Some(original) = original else {
        return Ok(None);
    };
    let key = format!("refund:{job_key}");
    let why = Why {
        kind: "refund",
        reason,
        note: "",
        job_key: Some(&key),
        operator: "",
    };
    apply(db, merchant_id, -original.change, why)
        .await
        .map(Some)
}

/// Adds points: `reason` says why (the welcome gift, an operator's top-up), `note` is the operator's own
/// words when they gave any, `operator` who did it ("" for the system).
pub async fn topup(
    db: &Db,
    merchant_id: i64,
    points: i64,
    reason: Reason,
    note: &str,
    operator: &str,
) -> Result<Entry, PointsError> {
    if points <= 0 {
        return Err(PointsError::NotPositive);
    }
    let why = Why {
        kind: "topup",
        reason,
        note,
        job_key: None,
        operator,
    };
    apply(db, merchant_id, points, why).await
}

pub static LEDGER_LIST: Entity = Entity {
    fields: &[
        field("kind", "kind", FieldType::Select),
        field("change", "change", FieldType::Int),
        field("balance", "balance", FieldType::Int),
        field("reason", "reason", FieldType::Text),
        field("job_key", "job_key", FieldType::Text),
        field("operator", "operator", FieldType::Text),
        field("created_at", "created_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

/// A merchant's ledger page, plus totals of top-ups and deductions over every row the filters select.
pub async fn list(
    db: &Db,
    merchant_id: i64,
    q: &ListQuery,
) -> Result<
    (
        Vec<Entry>,
        Total,
        serde_json::Map<String, serde_json::Value>,
    ),
    PageError,
> {
    let scope = [Bind::I(merchant_id)];
    let (rows, total) = list::page(
        db,
        &format!("SELECT {COLS} FROM points_ledger"),
        "FROM points_ledger",
        "merchant_id = $1",
        &scope,
        &LEDGER_LIST,
        q,
    )
    .await?;
    let summary = list::sums(
        db,
        "FROM points_ledger",
        "merchant_id = $1",
        &scope,
        &LEDGER_LIST,
        q,
        &[
            ("topup", "CASE WHEN change > 0 THEN change ELSE 0 END"),
            ("deduct", "CASE WHEN change < 0 THEN -change ELSE 0 END"),
        ],
    )
    .await?;
    Ok((rows, total, summary))
}
