//! Mixing projects and their variants (the finished-video library). The unique (project, sequence)
//! constraint is the last line of defence against two variants of a project sharing a clip sequence.

use crate::Db;
use crate::list::{self, Bind, Entity, FieldType, ListQuery, PageError, Total, field};
use domain::clip::ProjectMode;
use domain::clip::VariantState;
use domain::jobs::{ClipRender, Job};
use domain::now_ms;
use serde::Serialize;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Project {
    pub id: i64,
    pub merchant_id: i64,
    #[sqlx(try_from = "String")]
    pub mode: domain::clip::ProjectMode,
    pub name: String,
    pub status: i64,
    pub config: String,
    pub seed: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

const PROJECT_COLS: &str =
    "id, merchant_id, mode, name, status, config, seed, created_at, updated_at";

pub static PROJECT_LIST: Entity = Entity {
    fields: &[
        field("name", "name", FieldType::Text),
        field("mode", "mode", FieldType::Select),
        field("status", "status", FieldType::Switch),
        field("created_at", "created_at", FieldType::Date),
        field("updated_at", "updated_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

pub async fn projects(
    db: &Db,
    merchant_id: i64,
    mode: ProjectMode,
    q: &ListQuery,
) -> Result<(Vec<Project>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {PROJECT_COLS} FROM clip_projects"),
        "FROM clip_projects",
        "merchant_id = $1 AND mode = $2",
        &[Bind::I(merchant_id), Bind::S(mode.as_str().to_string())],
        &PROJECT_LIST,
        q,
    )
    .await
}

pub async fn project(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Project>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {PROJECT_COLS} FROM clip_projects WHERE id = $1 AND merchant_id = $2"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn add_project(
    db: &Db,
    merchant_id: i64,
    mode: ProjectMode,
    name: &str,
    config: &str,
) -> sqlx::Result<i64> {
    let now = now_ms();
    let seed = {
        use rand::Rng;
        rand::rng().random_range(1..i64::MAX)
    };
    sqlx::query_scalar(
        "INSERT INTO clip_projects (merchant_id, mode, name, config, seed, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
    )
    .bind(merchant_id)
    .bind(mode.as_str())
    .bind(name)
    .bind(config)
    .bind(seed)
    .bind(now)
    .fetch_one(&db.pool)
    .await
}

pub async fn update_project(
    db: &Db,
    merchant_id: i64,
    id: i64,
    name: &str,
    config: &str,
) -> sqlx::Result<bool> {
    let n = sqlx::query("UPDATE clip_projects SET name = $1, config = $2, updated_at = $3 WHERE id = $4 AND merchant_id = $5")
        .bind(name)
        .bind(config)
        .bind(now_ms())
        .bind(id)
        .bind(merchant_id)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n > 0)
}

pub async fn set_project_status(
    db: &Db,
    merchant_id: i64,
    id: i64,
    status: i64,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE clip_projects SET status = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(status)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Deletes a project and its variants; returns the variants' storage keys to remove.
pub async fn delete_project(
    db: &Db,
    merchant_id: i64,
    id: i64,
) -> sqlx::Result<Option<Vec<String>>> {
    if project(db, merchant_id, id).await?.is_none() {
        return Ok(None);
    }
    let keys: Vec<(String, String)> = sqlx::query_as(
        "SELECT video_key, cover_key FROM clip_variants WHERE project_id = $1 AND merchant_id = $2",
    )
    .bind(id)
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await?;
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM material_uses WHERE merchant_id = $1 AND user_kind = 'variant' AND user_id IN (SELECT id FROM clip_variants WHERE project_id = $2)")
        .bind(merchant_id)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM clip_variants WHERE project_id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM clip_projects WHERE id = $1 AND merchant_id = $2")
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(
        keys.into_iter()
            .flat_map(|(a, b)| [a, b])
            .filter(|k| !k.is_empty())
            .collect(),
    ))
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Variant {
    pub id: i64,
    pub merchant_id: i64,
    pub project_id: i64,
    pub seq: String,
    #[sqlx(try_from = "String")]
    pub state: domain::clip::VariantState,
    pub error: String,
    pub progress: i64,
    pub duration_ms: i64,
    #[serde(skip)]
    pub video_key: String,
    #[serde(skip)]
    pub cover_key: String,
    pub used: i64,
    #[serde(skip)]
    pub points_key: String,
    pub job_id: i64,
    pub created_at: i64,
    pub updated_at: i64,
    /// What of it was generated (`domain::clip::aigc::Provenance` as JSON; '' for the merchant's own),
    /// written when it rendered.
    #[serde(skip)]
    pub provenance: String,
    /// Duplicate risk (0–100; None: not measured yet), the higher of its two parts, whose reasons
    /// (`domain::clip::risk::Reason` JSON, '' without one) follow.
    pub risk: Option<i64>,
    #[serde(skip)]
    pub risk_sibling_reason: String,
    #[serde(skip)]
    pub risk_published_reason: String,
}

impl Variant {
    pub fn seq(&self) -> Vec<i64> {
        serde_json::from_str(&self.seq).unwrap_or_default()
    }
}

const VARIANT_COLS: &str = "id, merchant_id, project_id, seq, state, error, progress, duration_ms, video_key, cover_key, used, \
     points_key, job_id, created_at, updated_at, provenance, risk, risk_sibling_reason, risk_published_reason";

/// A variant's name as the release form shows it (`services::matrix::videos::variant_name`): its
/// project's name and number ("Spring sale #3"), an imported video's file name (`seq` = `[media id]`,
/// project 0), else "#3". The form's video search filters on it.
const VARIANT_NAME: &str = "COALESCE(CASE WHEN clip_variants.project_id = 0 \
     THEN (SELECT m.name FROM media_files m WHERE m.merchant_id = clip_variants.merchant_id \
     AND '[' || CAST(m.id AS TEXT) || ']' = clip_variants.seq) \
     ELSE (SELECT p.name || ' #' || CAST(clip_variants.id AS TEXT) FROM clip_projects p \
     WHERE p.id = clip_variants.project_id AND p.merchant_id = clip_variants.merchant_id) END, \
     '#' || CAST(clip_variants.id AS TEXT))";
const _: () = assert!(
    IMPORTED == 0,
    "VARIANT_NAME spells the imported project as 0"
);

pub static VARIANT_LIST: Entity = Entity {
    fields: &[
        field("name", VARIANT_NAME, FieldType::Text),
        field("project_id", "project_id", FieldType::Int),
        field("state", "state", FieldType::Select),
        field("used", "used", FieldType::Switch),
        field("duration_ms", "duration_ms", FieldType::Int),
        field("created_at", "created_at", FieldType::Date),
        // Not measured sorts below 0 on both databases (PostgreSQL puts NULLs first when descending).
        field("risk", "COALESCE(risk, -1)", FieldType::Int),
        field("risk_level", RISK_LEVEL, FieldType::Select),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

/// A variant's duplicate-risk band (`domain::clip::risk::level`; '' when not measured).
const RISK_LEVEL: &str = "CASE WHEN risk IS NULL THEN '' WHEN risk >= 70 THEN 'high' \
     WHEN risk >= 40 THEN 'medium' ELSE 'low' END";
const _: () = assert!(
    domain::clip::risk::HIGH == 70 && domain::clip::risk::MEDIUM == 40,
    "RISK_LEVEL spells the bands' thresholds"
);

pub async fn variants(
    db: &Db,
    merchant_id: i64,
    q: &ListQuery,
) -> Result<(Vec<Variant>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {VARIANT_COLS} FROM clip_variants"),
        "FROM clip_variants",
        "merchant_id = $1 AND state <> 'deleted'",
        &[Bind::I(merchant_id)],
        &VARIANT_LIST,
        q,
    )
    .await
}

pub async fn variant(db: &Db, merchant_id: i64, id: i64) -> sqlx::Result<Option<Variant>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {VARIANT_COLS} FROM clip_variants WHERE id = $1 AND merchant_id = $2"
    ))
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// Projects with a variant still rendering: their prep folders are in use.
pub async fn rendering_projects(db: &Db) -> sqlx::Result<Vec<i64>> {
    sqlx::query_scalar("SELECT DISTINCT project_id FROM clip_variants WHERE state = 'processing'")
        .fetch_all(&db.pool)
        .await
}

pub async fn variant_any(db: &Db, id: i64) -> sqlx::Result<Option<Variant>> {
    sqlx::query_as(crate::sqlf!(
        "SELECT {VARIANT_COLS} FROM clip_variants WHERE id = $1"
    ))
    .bind(id)
    .fetch_optional(&db.pool)
    .await
}

/// Every sequence a project has made (or is making): what the planner must not repeat.
/// A merchant's projects with how many finished variants each has and how many of those are unused
/// (the video picker of a release task): (id, name, success, unused), newest first.
pub async fn library_projects(
    db: &Db,
    merchant_id: i64,
) -> sqlx::Result<Vec<(i64, String, i64, i64)>> {
    sqlx::query_as(
        "SELECT p.id, p.name, \
           (SELECT COUNT(*) FROM clip_variants v WHERE v.project_id = p.id AND v.state = 'success'), \
           (SELECT COUNT(*) FROM clip_variants v WHERE v.project_id = p.id AND v.state = 'success' AND v.used = 0) \
         FROM clip_projects p WHERE p.merchant_id = $1 ORDER BY p.id DESC",
    )
    .bind(merchant_id)
    .fetch_all(&db.pool)
    .await
}

/// How many variants of a project are in each state.
/// How many variants of a project are in each state.
#[derive(Debug, Clone, Default)]
pub struct StateCounts(Vec<(String, i64)>);

impl StateCounts {
    /// The variants in `state` (0 for a state none is in).
    pub fn of(&self, state: &str) -> i64 {
        self.0
            .iter()
            .find(|(k, _)| k == state)
            .map(|(_, n)| *n)
            .unwrap_or(0)
    }

    /// Every variant, whatever its state.
    pub fn total(&self) -> i64 {
        self.0.iter().map(|(_, n)| n).sum()
    }
}

pub async fn variant_state_counts(db: &Db, project_id: i64) -> sqlx::Result<StateCounts> {
    sqlx::query_as("SELECT state, COUNT(*) FROM clip_variants WHERE project_id = $1 GROUP BY state")
        .bind(project_id)
        .fetch_all(&db.pool)
        .await
        .map(StateCounts)
}

/// How many variants of a project are rendering now (a project with any cannot be deleted).
pub async fn rendering_variants(db: &Db, project_id: i64) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM clip_variants WHERE project_id = $1 AND state = 'processing'",
    )
    .bind(project_id)
    .fetch_one(&db.pool)
    .await
}

pub async fn made_sequences(db: &Db, project_id: i64) -> sqlx::Result<Vec<Vec<i64>>> {
    let rows: Vec<String> =
        sqlx::query_scalar("SELECT seq FROM clip_variants WHERE project_id = $1 ORDER BY id")
            .bind(project_id)
            .fetch_all(&db.pool)
            .await?;
    Ok(rows
        .iter()
        .map(|s| serde_json::from_str(s).unwrap_or_default())
        .collect())
}

/// Records new variants, their render jobs, their points and the clips they use, all in one transaction:
/// either every variant of the request exists with its job and its charge, or none does.
///
/// Only while the project still has the `made` variants the sequences were planned against, else
/// nothing (an empty list): two plans at once (two requests, or two runs of one job whose lease lapsed
/// while its first run lived) pick the same next sequences, and the first to lock the project's row
/// adds them while the other finds them there and charges nothing.
pub async fn add_variants(
    db: &Db,
    merchant_id: i64,
    project_id: i64,
    seqs: &[Vec<i64>],
    points_each: i64,
    made: i64,
) -> Result<Vec<i64>, crate::system::points::PointsError> {
    let now = now_ms();
    let mut tx = db.begin().await?;
    // A write first: on PostgreSQL it holds the row until commit, so the count below sees what the
    // other committed (SQLite's `BEGIN IMMEDIATE` already serializes the two).
    sqlx::query("UPDATE clip_projects SET updated_at = updated_at WHERE id = $1")
        .bind(project_id)
        .execute(&mut *tx)
        .await?;
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM clip_variants WHERE project_id = $1")
        .bind(project_id)
        .fetch_one(&mut *tx)
        .await?;
    if n != made {
        return Ok(vec![]);
    }
    let mut ids = vec![];
    for seq in seqs {
        let seq_json = serde_json::to_string(seq).unwrap_or_default();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO clip_variants (merchant_id, project_id, seq, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id",
        )
        .bind(merchant_id)
        .bind(project_id)
        .bind(&seq_json)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        let key = format!("render:{id}");
        let why = crate::system::points::Why {
            kind: "deduct",
            reason: domain::system::points::Reason::VideoSynthesis,
            note: "",
            job_key: Some(&key),
            operator: "",
        };
        let charged = crate::system::points::post(&mut tx, merchant_id, -points_each, &why).await?;
        if charged.is_none() {
            drop(tx);
            let have = crate::system::points::balance(db, merchant_id).await?;
            return Err(crate::system::points::PointsError::Insufficient {
                need: points_each * seqs.len() as i64,
                balance: have,
            });
        }
        let job = crate::jobs::enqueue(
            &mut tx,
            &crate::jobs::NewJob {
                merchant_id: Some(merchant_id),
                idempotency_key: Some(key.clone()),
                max_attempts: Some(3),
                ..crate::jobs::NewJob::new(Job::ClipRender(ClipRender { variant_id: id }))
            },
        )
        .await?;
        sqlx::query("UPDATE clip_variants SET points_key = $1, job_id = $2 WHERE id = $3")
            .bind(&key)
            .bind(job)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        for media_id in seq {
            sqlx::query(
                "INSERT INTO material_uses (merchant_id, media_id, user_kind, user_id, label, created_at) VALUES ($1, $2, 'variant', $3, $4, $5)",
            )
            .bind(merchant_id)
            .bind(media_id)
            .bind(id)
            .bind(format!("finished video #{id}"))
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        ids.push(id);
    }
    crate::jobs::commit_and_wake(tx).await?;
    Ok(ids)
}

/// A render's progress (0–100); `note` is the reason of a failed attempt that will be retried.
pub async fn variant_progress(db: &Db, id: i64, progress: i64, note: &str) -> sqlx::Result<()> {
    move_variant(db, id, VariantState::Processing, progress, note).await
}

/// A render failed for good, with its reason.
pub async fn variant_failed(db: &Db, id: i64, reason: &str) -> sqlx::Result<()> {
    move_variant(db, id, VariantState::Failed, 0, reason).await
}

async fn move_variant(
    db: &Db,
    id: i64,
    state: VariantState,
    progress: i64,
    error: &str,
) -> sqlx::Result<()> {
    debug_assert!(VariantState::Processing.can_become(state));
    // Only a variant still being made moves: a cancelled (or finally failed and refunded) one stays.
    sqlx::query("UPDATE clip_variants SET state = $1, progress = $2, error = $3, updated_at = $4 WHERE id = $5 AND state = 'processing'")
        .bind(state.as_str())
        .bind(progress)
        .bind(error)
        .bind(now_ms())
        .bind(id)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// Records a finished render; false when the variant is no longer being made (cancelled meanwhile).
pub async fn set_variant_done(
    db: &Db,
    id: i64,
    video_key: &str,
    cover_key: &str,
    duration_ms: i64,
    provenance: &str,
) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE clip_variants SET state = 'success', progress = 100, error = '', video_key = $1, cover_key = $2, duration_ms = $3, updated_at = $4, \
         provenance = $6 WHERE id = $5 AND state = 'processing'",
    )
    .bind(video_key)
    .bind(cover_key)
    .bind(duration_ms)
    .bind(now_ms())
    .bind(id)
    .bind(provenance)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Cancels a variant being made: it fails with `reason`. Returns its render job and points key.
pub async fn cancel_variant(
    db: &Db,
    merchant_id: i64,
    id: i64,
    reason: &str,
) -> sqlx::Result<Option<(i64, String)>> {
    sqlx::query_as(
        "UPDATE clip_variants SET state = 'failed', progress = 0, error = $1, updated_at = $2 \
         WHERE id = $3 AND merchant_id = $4 AND state = 'processing' RETURNING job_id, points_key",
    )
    .bind(reason)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

pub async fn set_used(db: &Db, merchant_id: i64, id: i64, used: bool) -> sqlx::Result<bool> {
    let n = sqlx::query(
        "UPDATE clip_variants SET used = $1, updated_at = $2 WHERE id = $3 AND merchant_id = $4",
    )
    .bind(used as i64)
    .bind(now_ms())
    .bind(id)
    .bind(merchant_id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n > 0)
}

/// Deletes a variant's files and hides it, but keeps its sequence on record (state `deleted`), so the
/// planner never makes that exact video again for this project — it may already be published somewhere.
pub async fn delete_variant(
    db: &Db,
    merchant_id: i64,
    id: i64,
) -> sqlx::Result<Option<Vec<String>>> {
    let Some(v) = variant(db, merchant_id, id)
        .await?
        .filter(|v| v.state != domain::clip::VariantState::Deleted)
    else {
        return Ok(None);
    };
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM material_uses WHERE merchant_id = $1 AND user_kind = 'variant' AND user_id = $2").bind(merchant_id).bind(id).execute(&mut *tx).await?;
    sqlx::query("UPDATE clip_variants SET state = 'deleted', video_key = '', cover_key = '', updated_at = $1 WHERE id = $2 AND merchant_id = $3")
        .bind(now_ms())
        .bind(id)
        .bind(merchant_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Some(
        [v.video_key, v.cover_key]
            .into_iter()
            .filter(|k| !k.is_empty())
            .collect(),
    ))
}

/// Imported videos (`/clip.merchant_video_library/add`) belong to no project: project 0.
pub const IMPORTED: i64 = 0;

/// Puts a finished video of the merchant's own (a video material whose files were already linked under
/// `video_key` / `cover_key`) into the library as a successful variant of no project. One row per
/// material: a second import answers `None` unless the first was deleted, which it brings back.
pub async fn import_variant(
    db: &Db,
    merchant_id: i64,
    media_id: i64,
    duration_ms: i64,
    video_key: &str,
    cover_key: &str,
) -> sqlx::Result<Option<i64>> {
    let now = now_ms();
    let seq = format!("[{media_id}]");
    let mut tx = db.begin().await?;
    let existing: Option<(i64, String)> = sqlx::query_as(
        "SELECT id, state FROM clip_variants WHERE project_id = $1 AND seq = $2 AND merchant_id = $3",
    )
    .bind(IMPORTED)
    .bind(&seq)
    .bind(merchant_id)
    .fetch_optional(&mut *tx)
    .await?;
    let id = match existing {
        Some((_, state)) if state != "deleted" => return Ok(None),
        Some((id, _)) => {
            sqlx::query(
                "UPDATE clip_variants SET state = 'success', error = '', progress = 100, duration_ms = $1, video_key = $2, \
                 cover_key = $3, used = 0, updated_at = $4 WHERE id = $5",
            )
            .bind(duration_ms)
            .bind(video_key)
            .bind(cover_key)
            .bind(now)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            id
        }
        None => {
            sqlx::query_scalar(
                "INSERT INTO clip_variants (merchant_id, project_id, seq, state, progress, duration_ms, video_key, cover_key, \
                 created_at, updated_at) VALUES ($1, $2, $3, 'success', 100, $4, $5, $6, $7, $7) RETURNING id",
            )
            .bind(merchant_id)
            .bind(IMPORTED)
            .bind(&seq)
            .bind(duration_ms)
            .bind(video_key)
            .bind(cover_key)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?
        }
    };
    tx.commit().await?;
    Ok(Some(id))
}

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct VariantProgress {
    pub id: i64,
    pub project_id: i64,
    #[sqlx(try_from = "String")]
    pub state: domain::clip::VariantState,
    pub progress: i64,
    pub error: String,
    pub duration_ms: i64,
    pub updated_at: i64,
}

/// The finished video a material was imported as (not deleted), if any.
pub async fn imported_variant(
    db: &Db,
    merchant_id: i64,
    media_id: i64,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "SELECT id FROM clip_variants WHERE project_id = $1 AND seq = $2 AND merchant_id = $3 AND state <> 'deleted'",
    )
    .bind(IMPORTED)
    .bind(format!("[{media_id}]"))
    .bind(merchant_id)
    .fetch_optional(&db.pool)
    .await
}

/// Variants of a merchant that changed since a time: what the progress stream pushes.
pub async fn variants_changed_since(
    db: &Db,
    merchant_id: i64,
    since: i64,
) -> sqlx::Result<Vec<VariantProgress>> {
    sqlx::query_as(
        "SELECT id, project_id, state, progress, error, duration_ms, updated_at FROM clip_variants \
         WHERE merchant_id = $1 AND updated_at > $2 ORDER BY updated_at LIMIT 200",
    )
    .bind(merchant_id)
    .bind(since)
    .fetch_all(&db.pool)
    .await
}

/// Whether a material is in the library as an imported video (and not deleted).
pub async fn is_imported(db: &Db, merchant_id: i64, media_id: i64) -> sqlx::Result<bool> {
    Ok(imported_variant(db, merchant_id, media_id).await?.is_some())
}

/// Progress (0–100) of a project's running batch: every variant made since the oldest one still
/// rendering, finished ones counting 100 and rendering ones their progress. None when nothing renders.
pub async fn batch_progress(db: &Db, project_id: i64) -> sqlx::Result<Option<i64>> {
    let (batch, done): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(CASE WHEN state = 'processing' THEN progress ELSE 100 END), 0) AS BIGINT) \
         FROM clip_variants WHERE project_id = $1 AND state <> 'deleted' AND created_at >= \
         (SELECT MIN(created_at) FROM clip_variants WHERE project_id = $1 AND state = 'processing')",
    )
    .bind(project_id)
    .fetch_one(&db.pool)
    .await?;
    Ok((batch > 0).then(|| done / batch))
}
