//! Duplicate risk's tables: the signatures of materials and finished videos (`media::signature` bytes)
//! and each finished video's score parts on `clip_variants` (migration 0046).

use crate::Db;
use domain::now_ms;

/// Records a material's signature (made once: a second writer's equal bytes are dropped).
pub async fn put_media_signature(
    db: &Db,
    merchant_id: i64,
    media_id: i64,
    signature: &[u8],
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO media_signatures (media_id, merchant_id, signature, created_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (media_id) DO NOTHING",
    )
    .bind(media_id)
    .bind(merchant_id)
    .bind(signature.to_vec())
    .bind(now_ms())
    .execute(&db.pool)
    .await
    .map(|_| ())
}

/// A finished video's signature with what the comparison needs besides it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct VariantSignature {
    pub variant_id: i64,
    pub project_id: i64,
    pub signature: Vec<u8>,
    /// Material ids of its clips, JSON.
    pub clips: String,
    pub text: String,
    pub cover_s: i64,
}

impl VariantSignature {
    pub fn clip_ids(&self) -> Vec<i64> {
        serde_json::from_str(&self.clips).unwrap_or_default()
    }
}

/// Records (or replaces: a re-render) a finished video's signature.
pub async fn put_variant_signature(
    db: &Db,
    merchant_id: i64,
    s: &VariantSignature,
) -> sqlx::Result<()> {
    sqlx::query(
        "INSERT INTO variant_signatures (variant_id, merchant_id, project_id, signature, clips, text, cover_s, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (variant_id) DO UPDATE SET signature = $4, clips = $5, \
         text = $6, cover_s = $7, created_at = $8",
    )
    .bind(s.variant_id)
    .bind(merchant_id)
    .bind(s.project_id)
    .bind(s.signature.clone())
    .bind(&s.clips)
    .bind(&s.text)
    .bind(s.cover_s)
    .bind(now_ms())
    .execute(&db.pool)
    .await
    .map(|_| ())
}

const SIG_COLS: &str = "s.variant_id, s.project_id, s.signature, s.clips, s.text, s.cover_s";

/// A finished video's signature (the merchant's).
pub async fn variant_signature(
    db: &Db,
    merchant_id: i64,
    variant_id: i64,
) -> sqlx::Result<Option<VariantSignature>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {SIG_COLS} FROM variant_signatures s WHERE s.variant_id = $1 AND s.merchant_id = $2"
    ))
    .bind(variant_id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// A material's stored signature, the merchant's only.
pub async fn media_signature(
    db: &Db,
    merchant_id: i64,
    media_id: i64,
) -> sqlx::Result<Option<Vec<u8>>> {
    sqlx::query_scalar(
        "SELECT signature FROM media_signatures WHERE media_id = $1 AND merchant_id = $2",
    )
    .bind(media_id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// The stored signatures of the merchant's materials `ids` (those that have one), in one read.
pub async fn media_signatures(
    db: &Db,
    merchant_id: i64,
    ids: &[i64],
) -> sqlx::Result<Vec<(i64, Vec<u8>)>> {
    if ids.is_empty() {
        return Ok(vec![]);
    }
    // Numbers only: the list is safe to write into the statement.
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    sqlx::query_as(crate::sqlf!(
        "SELECT media_id, signature FROM media_signatures WHERE merchant_id = $1 AND media_id IN ({list})"
    ))
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await
}

/// Drops a video's signature (its render kept nothing), unless the video is done after all (a twin
/// run of its job finished it).
pub async fn forget_variant_signature(db: &Db, variant_id: i64) -> sqlx::Result<()> {
    sqlx::query(
        "DELETE FROM variant_signatures WHERE variant_id = $1 AND NOT EXISTS \
         (SELECT 1 FROM clip_variants v WHERE v.id = $1 AND v.state = 'success')",
    )
    .bind(variant_id)
    .execute(&db.pool)
    .await
    .map(|_| ())
}

/// The videos of a project that have a signature and are finished, or finishing (a render records
/// the signature just before it marks the video done).
pub async fn project_signatures(
    db: &Db,
    merchant_id: i64,
    project_id: i64,
) -> sqlx::Result<Vec<VariantSignature>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {SIG_COLS} FROM variant_signatures s JOIN clip_variants v ON v.id = s.variant_id \
         WHERE s.merchant_id = $1 AND s.project_id = $2 AND v.merchant_id = $1 \
         AND v.state IN ('processing', 'success') \
         ORDER BY s.variant_id"
    ))
    .bind(merchant_id)
    .bind(project_id)
    .fetch_all(&db.pool)
    .await
}

/// One video the merchant published or scheduled (a release item that did not fail), with the account
/// it went to and its signature: a finished video's, or an uploaded material's (no text of ours).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Published {
    pub video_key: String,
    pub account_id: i64,
    pub signature: Vec<u8>,
    pub text: String,
    pub cover_s: i64,
    /// The finished video it is (0: a material posted as it was).
    pub variant_id: i64,
}

/// Everything the merchant published or has scheduled (one account's only, when given), but
/// `except` (a release item's `video_key`: the video itself).
pub async fn published(
    db: &Db,
    merchant_id: i64,
    account_id: Option<i64>,
    except: &str,
) -> sqlx::Result<Vec<Published>> {
    let account = if account_id.is_some() {
        "AND i.account_id = $3"
    } else {
        "AND $3 = $3"
    };
    sqlx::query_as(crate::sqlf!(
        "SELECT i.video_key, i.account_id, s.signature, s.text, s.cover_s, s.variant_id FROM matrix_items i \
         JOIN variant_signatures s ON s.merchant_id = i.merchant_id \
         AND i.video_key = 'v:' || CAST(s.variant_id AS TEXT) \
         WHERE i.merchant_id = $1 AND i.state <> 'failed' AND i.video_key <> $2 {account} \
         UNION ALL \
         SELECT i.video_key, i.account_id, m.signature, '' AS text, -1 AS cover_s, 0 AS variant_id FROM matrix_items i \
         JOIN media_signatures m ON m.merchant_id = i.merchant_id \
         AND i.video_key = 'm:' || CAST(m.media_id AS TEXT) \
         WHERE i.merchant_id = $1 AND i.state <> 'failed' AND i.video_key <> $2 {account}"
    ))
    .bind(merchant_id)
    .bind(except)
    .bind(account_id.unwrap_or(0))
    .fetch_all(&db.pool)
    .await
}

/// Raises a finished video's sibling part (and its score) to `score` with `reason` (JSON), unless it is
/// already as high: one statement, so renders finishing together keep the higher of their two. A raise
/// moves the row's `updated_at`, so the library on screen hears it (the `variant` events) and reads it again.
pub async fn raise_sibling(db: &Db, variant_id: i64, score: u8, reason: &str) -> sqlx::Result<()> {
    raise(db, "risk_sibling", variant_id, score, reason).await
}

/// [`raise_sibling`] for the part measured against what the merchant published.
pub async fn raise_published(
    db: &Db,
    variant_id: i64,
    score: u8,
    reason: &str,
) -> sqlx::Result<()> {
    raise(db, "risk_published", variant_id, score, reason).await
}

async fn raise(db: &Db, col: &str, variant_id: i64, score: u8, reason: &str) -> sqlx::Result<()> {
    let score = i64::from(score);
    sqlx::query(crate::sqlf!(
        "UPDATE clip_variants SET {col} = $1, {col}_reason = $2, \
         risk = CASE WHEN risk IS NULL OR risk < $1 THEN $1 ELSE risk END, updated_at = $4 \
         WHERE id = $3 AND ({col} IS NULL OR {col} < $1)"
    ))
    .bind(score)
    .bind(reason)
    .bind(variant_id)
    .bind(now_ms())
    .execute(&db.pool)
    .await?;
    // Measured with nothing to compare with: 0, not "not measured".
    sqlx::query("UPDATE clip_variants SET risk = 0, updated_at = $2 WHERE id = $1 AND risk IS NULL")
        .bind(variant_id)
        .bind(now_ms())
        .execute(&db.pool)
        .await
        .map(|_| ())
}
