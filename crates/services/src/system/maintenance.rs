//! Maintenance: the hourly cleanup job (expired rows, temporary files nothing live owns) and its
//! scheduler.

use domain::jobs::{Cleanup, Job};
use store::Db;
use store::jobs::{JobCtx, JobError};

/// The hourly cleanup job: expired rows, then the temporary files nothing live owns.
pub async fn cleanup(ctx: JobCtx, storage: media::Storage) -> Result<(), JobError> {
    let retry = |e: String| JobError::Retry(e);
    let n = store::auth::users::cleanup(&ctx.db, domain::now_ms())
        .await
        .map_err(|e| retry(e.to_string()))?;
    let swept = sweep_media(&ctx.db, &storage, domain::now_ms())
        .await
        .map_err(|e| retry(format!("{e:#}")))?;
    tracing::info!(
        removed = n,
        temp_entries = swept.entries,
        temp_bytes = swept.bytes,
        "cleanup done"
    );
    Ok(())
}

/// Temporary files untouched this long are fair game unless live work claims them.
pub const TEMP_GRACE_MS: u64 = 3_600_000;
/// A running job whose heartbeat is older than this is dead by any lease (its worker crashed).
const JOB_ALIVE_MS: i64 = 10 * 60_000;

/// Removes the temporary files, upload parts and render prep folders no live job or upload owns (what
/// a crash leaves behind), as seen at `now_ms`.
pub async fn sweep_media(
    db: &Db,
    storage: &media::Storage,
    now_ms: i64,
) -> anyhow::Result<media::storage::Swept> {
    let at = |ms: i64| std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms.max(0) as u64);
    let live = media::storage::Live {
        now: at(now_ms),
        grace: std::time::Duration::from_millis(TEMP_GRACE_MS),
        jobs_since: store::jobs::oldest_running_since(db, now_ms - JOB_ALIVE_MS)
            .await?
            .map(at),
        uploads: store::materials::live_uploads(db, now_ms)
            .await?
            .into_iter()
            .collect(),
        projects: store::clip::rendering_projects(db)
            .await?
            .into_iter()
            .collect(),
    };
    let storage = storage.clone();
    Ok(tokio::task::spawn_blocking(move || storage.sweep(&live)).await??)
}

/// Enqueues the hourly cleanup; the idempotency key makes every node's ticker agree on one job an hour.
pub async fn schedule(db: Db, shutdown: tokio::sync::watch::Receiver<bool>) {
    let period = std::time::Duration::from_secs(600);
    crate::ticker::every(&db, period, shutdown, "the cleanup", || {
        let hour = domain::now_ms() / 3_600_000;
        let job = store::jobs::NewJob {
            idempotency_key: Some(format!("cleanup:{hour}")),
            ..store::jobs::NewJob::new(Job::MaintenanceCleanup(Cleanup))
        };
        let db = db.clone();
        async move { store::jobs::submit(&db, &job).await }
    })
    .await
}
