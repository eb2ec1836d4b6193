//! The durable job queue (DESIGN.md §5): one table, claimed with a lease and kept alive by heartbeats;
//! a job whose heartbeat goes stale (its worker died) is claimed again. Failed attempts back off
//! exponentially; after `max_attempts` the job is `dead` with its last error, until someone retries it.
//! Completion is accepted only from the worker that holds the lease, so a job finishes exactly once.

use crate::list::{self, Entity, FieldType, ListQuery, PageError, Total, field};
use crate::{Backend, Db};
use domain::jobs::JobState::{self, Dead, Done, Failed, Queued, Running};
use domain::jobs::{JobKind, Lane};
use domain::now_ms;
use serde::Serialize;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, Clone, sqlx::FromRow, Serialize)]
pub struct Job {
    pub id: i64,
    #[sqlx(try_from = "String")]
    pub kind: JobKind,
    pub merchant_id: Option<i64>,
    pub payload: String,
    #[sqlx(try_from = "String")]
    pub state: domain::jobs::JobState,
    pub run_at: i64,
    pub attempts: i64,
    pub max_attempts: i64,
    pub lease_owner: Option<String>,
    pub heartbeat_at: Option<i64>,
    pub progress: i64,
    pub last_error: Option<String>,
    pub idempotency_key: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
}

const COLS: &str = "id, kind, merchant_id, payload, state, run_at, attempts, max_attempts, lease_owner, heartbeat_at, \
     progress, last_error, idempotency_key, created_at, updated_at, finished_at";

/// A job to enqueue: what to do (its kind with its payload, one value) and how the queue keeps it.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub job: domain::jobs::Job,
    pub merchant_id: Option<i64>,
    /// Enqueueing twice with the same key yields the same job.
    pub idempotency_key: Option<String>,
    pub run_at: Option<i64>,
    pub max_attempts: Option<i64>,
}

impl NewJob {
    /// `job`, due now, with no merchant, no key and the default attempts.
    pub fn new(job: domain::jobs::Job) -> NewJob {
        NewJob {
            job,
            merchant_id: None,
            idempotency_key: None,
            run_at: None,
            max_attempts: None,
        }
    }
}

/// Enqueues on a connection, so callers can enqueue in the same transaction as the row needing the
/// work (`enqueue(&mut tx, ..)`).
pub async fn enqueue(conn: &mut sqlx::AnyConnection, j: &NewJob) -> sqlx::Result<i64> {
    let now = now_ms();
    let id: Option<i64> = sqlx::query_scalar(
        "INSERT INTO jobs (kind, merchant_id, payload, run_at, max_attempts, idempotency_key, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
    )
    .bind(j.job.kind().as_str())
    .bind(j.merchant_id)
    .bind(j.job.payload().to_string())
    .bind(j.run_at.unwrap_or(now))
    .bind(j.max_attempts.unwrap_or(5))
    .bind(&j.idempotency_key)
    .bind(now)
    .fetch_optional(&mut *conn)
    .await?;
    match id {
        Some(id) => Ok(id),
        None => {
            sqlx::query_scalar("SELECT id FROM jobs WHERE idempotency_key = $1")
                .bind(&j.idempotency_key)
                .fetch_one(&mut *conn)
                .await
        }
    }
}

/// Enqueues outside any transaction.
pub async fn submit(db: &Db, j: &NewJob) -> sqlx::Result<i64> {
    let mut conn = db.pool.acquire().await?;
    let id = enqueue(&mut conn, j).await?;
    wake();
    Ok(id)
}

/// Rings the idle workers of this process, so a new job starts now rather than after their poll
/// interval. Call it once the job is committed; workers in other processes still poll.
pub fn wake() {
    WAKE.notify_waiters();
}

static WAKE: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Commits a transaction that enqueued jobs, then wakes the workers.
pub async fn commit_and_wake(tx: sqlx::Transaction<'static, sqlx::Any>) -> sqlx::Result<()> {
    tx.commit().await?;
    wake();
    Ok(())
}

pub async fn get(db: &Db, id: i64) -> sqlx::Result<Option<Job>> {
    sqlx::query_as(sqlf!("SELECT {COLS} FROM jobs WHERE id = $1"))
        .bind(id)
        .fetch_optional(&db.pool)
        .await
}

/// When the oldest job still running (its heartbeat newer than `alive_since`) was created: no file a
/// running job made is older than that.
pub async fn oldest_running_since(db: &Db, alive_since: i64) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(sqlf!(
        "SELECT MIN(created_at) FROM jobs WHERE state = '{Running}' AND heartbeat_at >= $1"
    ))
    .bind(alive_since)
    .fetch_one(&db.pool)
    .await
}

/// Claims the next runnable job of the given kinds (one lane's): a running job whose heartbeat is older
/// than `lease_ms` (its worker is gone), else a due queued or backed-off one — of the tenant (merchant;
/// jobs without one count as one more) with the fewest of these kinds running, its oldest first. So
/// a merchant who queued a hundred renders takes one slot after another in turn with the others,
/// instead of every slot until its queue is empty.
pub async fn claim(
    db: &Db,
    worker: &str,
    kinds: &[JobKind],
    lease_ms: i64,
) -> sqlx::Result<Option<Job>> {
    if kinds.is_empty() {
        return Ok(None);
    }
    let now = now_ms();
    let kind_list = (0..kinds.len())
        .map(|i| format!("${}", i + 4))
        .collect::<Vec<_>>()
        .join(", ");
    let lock = match db.backend {
        Backend::Postgres => "FOR UPDATE OF j SKIP LOCKED",
        Backend::Sqlite => "",
    };
    // Two claims, each a plain range on the (state, run_at) index: a lease that ran out first (running
    // jobs are few), then the due ones. One query with both conditions OR-ed scanned every job
    // ever run on SQLite, so claiming slowed down as finished jobs piled up (the 10,000-item publish).
    // The running count per tenant reads only running rows; the due rows are sorted by it (the
    // dispatcher queues one post per account at a time, so they are at most a few thousand).
    let claimable = JobState::sql_list(&[Queued, Failed]);
    let stale = format!(
        "SELECT j.id FROM jobs j WHERE j.state = '{Running}' AND j.heartbeat_at < $3 AND j.kind IN ({kind_list}) \
         ORDER BY j.run_at, j.id LIMIT 1 {lock}"
    );
    let fair = format!(
        "SELECT j.id FROM jobs j LEFT JOIN \
           (SELECT COALESCE(merchant_id, 0) AS tenant, COUNT(*) AS busy FROM jobs \
            WHERE state = '{Running}' AND kind IN ({kind_list}) GROUP BY COALESCE(merchant_id, 0)) r \
           ON r.tenant = COALESCE(j.merchant_id, 0) \
         WHERE j.state IN ({claimable}) AND j.run_at <= $3 AND j.kind IN ({kind_list}) \
         ORDER BY COALESCE(r.busy, 0), j.run_at, j.id LIMIT 1 {lock}"
    );
    for (pick, cutoff) in [(stale, now - lease_ms), (fair, now)] {
        let sql = format!(
            "UPDATE jobs SET state = '{Running}', lease_owner = $1, heartbeat_at = $2, started_at = $2, attempts = attempts + 1, updated_at = $2 \
             WHERE id = ({pick}) RETURNING {COLS}"
        );
        let mut q = sqlx::query_as::<_, Job>(sqlx::AssertSqlSafe(sql))
            .bind(worker)
            .bind(now)
            .bind(cutoff);
        for k in kinds {
            q = q.bind(k.as_str());
        }
        if let Some(job) = q.fetch_optional(&db.pool).await? {
            return Ok(Some(job));
        }
    }
    Ok(None)
}

/// Keeps the lease; false when this worker no longer owns the job.
pub async fn heartbeat(db: &Db, id: i64, worker: &str) -> sqlx::Result<bool> {
    let n = sqlx::query(sqlf!(
        "UPDATE jobs SET heartbeat_at = $1 WHERE id = $2 AND lease_owner = $3 AND state = '{Running}'"
    ))
        .bind(now_ms())
        .bind(id)
        .bind(worker)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

pub async fn set_progress(db: &Db, id: i64, worker: &str, progress: i64) -> sqlx::Result<bool> {
    let n = sqlx::query(sqlf!(
        "UPDATE jobs SET progress = $1, heartbeat_at = $2, updated_at = $2 WHERE id = $3 AND lease_owner = $4 AND state = '{Running}'"
    ))
    .bind(progress.clamp(0, 100))
    .bind(now_ms())
    .bind(id)
    .bind(worker)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Marks the job done if this worker still holds it. False means another worker took it over.
pub async fn complete(db: &Db, id: i64, worker: &str) -> sqlx::Result<bool> {
    let now = now_ms();
    let n = sqlx::query(sqlf!(
        "UPDATE jobs SET state = '{Done}', progress = 100, finished_at = $1, updated_at = $1, last_error = NULL \
         WHERE id = $2 AND lease_owner = $3 AND state = '{Running}'"
    ))
    .bind(now)
    .bind(id)
    .bind(worker)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Records a failed attempt: back to the queue after `backoff` while attempts remain, else `dead`.
/// `permanent` errors go straight to `dead`.
pub async fn fail(
    db: &Db,
    id: i64,
    worker: &str,
    error: &str,
    backoff_ms: i64,
    permanent: bool,
) -> sqlx::Result<bool> {
    let now = now_ms();
    let n = sqlx::query(sqlf!(
        "UPDATE jobs SET last_error = $1, updated_at = $2, lease_owner = NULL, \
           state = CASE WHEN $3 = 1 OR attempts >= max_attempts THEN '{Dead}' ELSE '{Failed}' END, \
           run_at = $4, finished_at = CASE WHEN $3 = 1 OR attempts >= max_attempts THEN $2 ELSE NULL END \
         WHERE id = $5 AND lease_owner = $6 AND state = '{Running}'"
    ))
    .bind(error)
    .bind(now)
    .bind(permanent as i64)
    .bind(now + backoff_ms)
    .bind(id)
    .bind(worker)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Stops a job for good: a queued one is never claimed, a running one loses its lease at its
/// next heartbeat (its worker abandons the attempt, which kills its child processes).
pub async fn cancel(db: &Db, id: i64, reason: &str) -> sqlx::Result<bool> {
    let now = now_ms();
    let n = sqlx::query(sqlf!(
        "UPDATE jobs SET state = '{Dead}', last_error = $1, lease_owner = NULL, updated_at = $2, finished_at = $2 \
         WHERE id = $3 AND state IN ({from})",
        from = JobState::sql_list(&JobState::sources_of(Dead))
    ))
    .bind(reason)
    .bind(now)
    .bind(id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// Puts a failed or dead job back in the queue with a fresh set of attempts.
pub async fn retry(db: &Db, id: i64) -> sqlx::Result<bool> {
    let now = now_ms();
    let n = sqlx::query(sqlf!(
        "UPDATE jobs SET state = '{Queued}', attempts = 0, run_at = $1, updated_at = $1, finished_at = NULL, progress = 0 \
         WHERE id = $2 AND state IN ({from})",
        from = JobState::sql_list(&JobState::sources_of(Queued))
    ))
    .bind(now)
    .bind(id)
    .execute(&db.pool)
    .await?
    .rows_affected();
    Ok(n == 1)
}

/// `kind IN (…)` of the kinds this build knows: on a cluster being upgraded, a newer node may queue a
/// kind an older one cannot read, and its monitor and figures leave those rows out rather than fail.
pub fn known_kinds() -> String {
    let list = JobKind::ALL
        .iter()
        .map(|k| format!("'{}'", k.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    format!("kind IN ({list})")
}

pub static JOB_LIST: Entity = Entity {
    fields: &[
        field("state", "state", FieldType::Select),
        field("kind", "kind", FieldType::Select),
        field("attempts", "attempts", FieldType::Int),
        field("merchant_id", "merchant_id", FieldType::Int),
        field("last_error", "last_error", FieldType::Text),
        field("run_at", "run_at", FieldType::Date),
        field("created_at", "created_at", FieldType::Date),
        field("updated_at", "updated_at", FieldType::Date),
    ],
    default_order: "id DESC",
    tiebreak: "id",
};

pub async fn list(db: &Db, q: &ListQuery) -> Result<(Vec<Job>, Total), PageError> {
    list::page(
        db,
        &format!("SELECT {COLS} FROM jobs"),
        "FROM jobs",
        &known_kinds(),
        &[],
        &JOB_LIST,
        q,
    )
    .await
}

// ---- the worker loop ----

/// Why an attempt failed: `Retry` backs off and tries again, `Permanent` gives up at once.
#[derive(Debug)]
pub enum JobError {
    Retry(String),
    Permanent(String),
}

impl JobError {
    /// What went wrong, in the words the row that needed the job keeps as its reason.
    pub fn message(&self) -> &str {
        match self {
            JobError::Retry(m) | JobError::Permanent(m) => m,
        }
    }

    /// A failure worth another attempt after a backoff (a platform, the disk, a process), for
    /// `.map_err(JobError::retry)`.
    pub fn retry(e: impl std::fmt::Display) -> JobError {
        JobError::Retry(e.to_string())
    }
    /// A failure no attempt can fix (a bad payload, a row that is gone).
    pub fn permanent(e: impl std::fmt::Display) -> JobError {
        JobError::Permanent(e.to_string())
    }
}

/// The database failing is worth another attempt: `?` on a query retries the job. Every other
/// error says which it is: `services::ApiError` by its kind (`From` beside it), the rest with
/// [`JobError::retry`] or [`JobError::permanent`].
impl From<sqlx::Error> for JobError {
    fn from(e: sqlx::Error) -> Self {
        JobError::Retry(e.to_string())
    }
}

/// What a handler gets: the database, its job, and a way to report progress.
#[derive(Clone)]
pub struct JobCtx {
    pub db: Db,
    pub job: Job,
    worker: String,
    /// Set when the job is being given up without doing its work (its workers were lost too
    /// often): the reason its row fails with.
    given_up: Option<String>,
}

impl JobCtx {
    pub async fn progress(&self, pct: i64) -> sqlx::Result<bool> {
        set_progress(&self.db, self.job.id, &self.worker, pct).await
    }
    /// Whether this failure ends the job: permanent, or the last attempt. Handlers mark their row
    /// failed (and refund) only then; before, the row stays in progress with the reason.
    pub fn is_final(&self, e: &JobError) -> bool {
        matches!(e, JobError::Permanent(_))
            || self.job.attempts >= self.job.max_attempts
            || self.given_up.is_some()
    }
    /// Runs the job's work, unless the job is being given up: then the work is not started and
    /// the answer is a permanent failure, so the handler's final-failure path (row failed,
    /// points refunded) runs without the work that may have killed its workers. Every handler
    /// runs its work through this.
    pub async fn attempt<T>(
        &self,
        work: impl Future<Output = Result<T, JobError>>,
    ) -> Result<T, JobError> {
        match &self.given_up {
            Some(reason) => Err(JobError::Permanent(reason.clone())),
            None => work.await,
        }
    }
    /// Is this run giving the job up (see [`JobCtx::attempt`])?
    pub fn giving_up(&self) -> bool {
        self.given_up.is_some()
    }
    /// The row's kind and payload as a [`domain::jobs::Job`]; a payload this build cannot read fails
    /// the job for good.
    fn decode(&self) -> Result<domain::jobs::Job, JobError> {
        domain::jobs::Job::decode(self.job.kind, &self.job.payload)
            .map_err(|e| JobError::Permanent(format!("bad payload: {e}")))
    }
}

pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<(), JobError>> + Send>>;
/// Runs one job: its context and its kind with the payload, decoded from the row.
pub type Handler = Arc<dyn Fn(JobCtx, domain::jobs::Job) -> HandlerFuture + Send + Sync>;

#[derive(Clone)]
pub struct WorkerConfig {
    pub id: String,
    pub lease_ms: i64,
    pub poll_ms: u64,
    /// Slots of each lane (`domain::jobs::Lane`): jobs of one lane never wait for another's.
    pub concurrency: usize,
    pub backoff_base_ms: i64,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        WorkerConfig {
            id: format!("worker-{}-{}", std::process::id(), crate::random_token(4)),
            lease_ms: 30_000,
            poll_ms: 500,
            concurrency: 2,
            backoff_base_ms: 2_000,
        }
    }
}

/// Exponential backoff: base, 2x, 4x ... capped at ten minutes.
pub fn backoff(base_ms: i64, attempts: i64) -> i64 {
    (base_ms.saturating_mul(1 << (attempts - 1).clamp(0, 20))).min(600_000)
}

/// The kinds a worker runs and the handler of each. A worker claims only these kinds, so the queue's
/// tests register handlers of their own for a few kinds (the database is theirs alone).
#[derive(Clone, Default)]
pub struct Registry {
    handlers: HashMap<JobKind, Handler>,
}

impl Registry {
    /// Runs jobs of `kind` with `f`, which gets the job decoded (a kind of its own and the payload).
    pub fn register<F, Fut>(&mut self, kind: JobKind, f: F)
    where
        F: Fn(JobCtx, domain::jobs::Job) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), JobError>> + Send + 'static,
    {
        self.handlers
            .insert(kind, Arc::new(move |ctx, job| Box::pin(f(ctx, job))));
    }
    pub fn kinds(&self) -> Vec<JobKind> {
        let mut k: Vec<JobKind> = self.handlers.keys().copied().collect();
        k.sort();
        k
    }
    /// The registered kinds of one lane.
    pub fn lane_kinds(&self, lane: Lane) -> Vec<JobKind> {
        let mut k = self.kinds();
        k.retain(|k| k.lane() == lane);
        k
    }
}

/// Runs jobs until `shutdown` turns true; in-flight jobs are finished before it returns. Dropping the
/// returned future (a killed worker) aborts its jobs too, and their leases then go stale. Each lane
/// runs on its own with `cfg.concurrency` slots.
pub async fn run_worker(
    db: Db,
    registry: Registry,
    cfg: WorkerConfig,
    shutdown: tokio::sync::watch::Receiver<bool>,
) {
    tracing::info!(worker = %cfg.id, kinds = ?registry.kinds(), "worker started");
    // A JoinSet aborts what it holds when dropped: a killed worker stops every lane's attempts.
    let mut lanes = tokio::task::JoinSet::new();
    for lane in Lane::ALL {
        let kinds = registry.lane_kinds(lane);
        if !kinds.is_empty() {
            lanes.spawn(run_lane(
                db.clone(),
                registry.clone(),
                kinds,
                cfg.clone(),
                shutdown.clone(),
            ));
        }
    }
    while lanes.join_next().await.is_some() {}
    tracing::info!(worker = %cfg.id, "worker stopped");
}

/// One lane of a worker: claims its kinds while it has a free slot.
async fn run_lane(
    db: Db,
    registry: Registry,
    kinds: Vec<JobKind>,
    cfg: WorkerConfig,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let slots = cfg.concurrency.max(1);
    let mut running: tokio::task::JoinSet<()> = tokio::task::JoinSet::new();
    loop {
        while running.try_join_next().is_some() {}
        if *shutdown.borrow() {
            break;
        }
        if running.len() >= slots {
            tokio::select! {
                _ = running.join_next() => {}
                _ = shutdown.changed() => {}
            }
            continue;
        }
        // Listening before the claim: a job enqueued after the claim looked still wakes us.
        let woken = WAKE.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        let job = match claim(&db, &cfg.id, &kinds, cfg.lease_ms).await {
            Ok(j) => j,
            Err(e) => {
                tracing::warn!(error = %e, "claiming a job failed");
                None
            }
        };
        let Some(job) = job else {
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(cfg.poll_ms)) => {}
                _ = &mut woken => {}
                _ = shutdown.changed() => {}
            }
            continue;
        };
        let Some(handler) = registry.handlers.get(&job.kind).cloned() else {
            continue;
        };
        running.spawn(run_one(db.clone(), handler, cfg.clone(), job));
    }
    while running.join_next().await.is_some() {}
}

/// Aborts the wrapped task when dropped, so a cancelled attempt cannot run on unsupervised.
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Attempts beyond `max_attempts` a job may take when the earlier ones were lost with their worker
/// (killed, redeployed, out of memory) rather than failed: on a cluster nodes come and go, and a
/// render should not die because two deploys and a crash hit it.
pub const LOST_WORKER_GRACE: i64 = 5;

async fn run_one(db: Db, handler: Handler, cfg: WorkerConfig, job: Job) {
    let (id, attempts, kind) = (job.id, job.attempts, job.kind);
    // A job reclaimed after its worker died too often likely kills it (a poison pill): this run
    // only lets its handler fail its row (`JobCtx::attempt`) and then fails the job for good.
    let given_up = (attempts > job.max_attempts + LOST_WORKER_GRACE).then(|| {
        tracing::warn!(job = id, %kind, attempts, "job given up: its workers were lost too often");
        format!(
            "given up: its workers were lost {} times ({})",
            attempts - 1,
            job.last_error.as_deref().unwrap_or("worker lost")
        )
    });
    if given_up.is_none() {
        tracing::info!(job = id, %kind, attempts, "job started");
    }
    let ctx = JobCtx {
        db: db.clone(),
        job,
        worker: cfg.id.clone(),
        given_up,
    };
    let mut work = AbortOnDrop(tokio::spawn(async move {
        let job = ctx.decode()?;
        handler(ctx, job).await
    }));
    let mut beat = tokio::time::interval(Duration::from_millis((cfg.lease_ms / 3).max(10) as u64));
    beat.tick().await;
    let lease = Duration::from_millis(cfg.lease_ms.max(1) as u64);
    let mut kept = tokio::time::Instant::now();
    let outcome = loop {
        tokio::select! {
            r = &mut work.0 => break r,
            _ = beat.tick() => {
                match heartbeat(&db, id, &cfg.id).await {
                    Ok(true) => kept = tokio::time::Instant::now(),
                    Ok(false) => {
                        // Someone reclaimed the job: stop ours so it runs once.
                        tracing::warn!(job = id, "lease lost; attempt abandoned");
                        return;
                    }
                    // The database did not answer: a blip is ridden out, but once the lease has run out
                    // unrenewed another worker may have taken the job, and two runs must not overlap.
                    Err(e) if kept.elapsed() >= lease => {
                        tracing::warn!(job = id, error = %e, "lease not renewed in time; attempt abandoned");
                        return;
                    }
                    Err(_) => {}
                }
            }
        }
    };
    let result = match outcome {
        Ok(r) => r,
        Err(join) => Err(JobError::Retry(format!("job panicked: {join}"))),
    };
    let stored = match &result {
        Ok(()) => complete(&db, id, &cfg.id).await,
        Err(JobError::Retry(e)) => {
            fail(
                &db,
                id,
                &cfg.id,
                e,
                backoff(cfg.backoff_base_ms, attempts),
                false,
            )
            .await
        }
        Err(JobError::Permanent(e)) => fail(&db, id, &cfg.id, e, 0, true).await,
    };
    match (&result, stored) {
        (Ok(()), Ok(true)) => tracing::info!(job = id, %kind, "job done"),
        (Err(e), Ok(true)) => tracing::warn!(job = id, %kind, error = ?e, "job attempt failed"),
        (_, Ok(false)) => tracing::warn!(job = id, "job was taken over before it finished"),
        (_, Err(e)) => tracing::error!(job = id, error = %e, "could not store job outcome"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn backoff_grows_and_caps() {
        assert_eq!(super::backoff(1000, 1), 1000);
        assert_eq!(super::backoff(1000, 3), 4000);
        assert_eq!(super::backoff(1000, 40), 600_000);
    }

    #[test]
    fn a_database_failure_is_retried() {
        use super::JobError;
        let e = JobError::from(sqlx::Error::PoolTimedOut);
        assert!(matches!(e, JobError::Retry(_)), "{e:?}");
        assert!(matches!(JobError::retry("x"), JobError::Retry(m) if m == "x"));
        assert!(matches!(JobError::permanent("y"), JobError::Permanent(m) if m == "y"));
    }
}
