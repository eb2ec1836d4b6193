//! Benchmark (competitor) accounts: added by share link or id, their public works and figures read
//! through the platform's adapter now and then every [`SYNC_EVERY_MS`] (job `seo.benchmark_sync`),
//! one row of figures per China day for the growth charts.

use crate::error::{ApiError, ApiResult};
use crate::platform::{self as hub, Hub};
use domain::i18n::{Lang, Msg};
use domain::jobs::{BenchmarkRef, Job};
use store::jobs::{JobCtx, JobError};
use store::seo as db;

pub use db::{BenchmarkRow, DayRow, WorkRow};

/// How often the schedule reads an account again (platform time).
pub const SYNC_EVERY_MS: i64 = 6 * 3_600_000;
/// Works read per sync at most (newest first).
const MAX_WORKS: usize = 500;
const PAGE: usize = 50;

fn bench_platform(code: &str) -> ApiResult<platforms::Platform> {
    let p = hub::platform(code)?;
    if p != platforms::Platform::Dy {
        return Err(ApiError::invalid_with(
            "platform",
            Msg::InvalidValue,
            vec![("reason", "dy".into())],
        ));
    }
    Ok(p)
}

/// Adds an account to watch and reads it at once; a link that does not resolve is a 422 on `link`.
pub async fn add(h: &Hub, mid: i64, platform: &str, link: &str) -> ApiResult<BenchmarkRow> {
    let p = bench_platform(platform)?;
    let link = super::library::text("link", link, domain::seo::limits::BENCH_LINK_MAX)?;
    let Some((v, _)) = h.vendor().await? else {
        return Err(ApiError::invalid("link", Msg::DataVendorNotConfigured));
    };
    let acc = v
        .public_account(&link)
        .await
        .map_err(|e| hub::refused("link", &e))?;
    let id = db::add_benchmark(
        &h.db,
        mid,
        p.code(),
        &acc.account_id,
        h.db.clock.platform_now(),
    )
    .await?;
    sync_one(h, id)
        .await
        .map_err(|e| ApiError::invalid_with("link", Msg::BenchmarkSyncFailed, e.reason()))?;
    db::benchmark(&h.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)
}

pub async fn sync(h: &Hub, mid: i64, id: i64) -> ApiResult<BenchmarkRow> {
    db::benchmark(&h.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    if let Err(e) = sync_one(h, id).await {
        db::sync_failed(&h.db, id, &e.stored(), h.db.clock.platform_now()).await?;
        return Err(ApiError::invalid_with(
            "id",
            Msg::BenchmarkSyncFailed,
            e.reason(),
        ));
    }
    db::benchmark(&h.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)
}

pub async fn delete(d: &store::Db, mid: i64, id: i64) -> ApiResult<()> {
    if !db::delete_benchmark(d, mid, id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// What went wrong in a sync.
pub enum SyncError {
    Platform(platforms::PlatformError),
    Db(sqlx::Error),
    /// The adapter could not be made (e.g. the operator's app credentials cannot be read).
    Internal(String),
    /// No data vendor is configured (and the sandbox is off).
    NoSource,
}

impl SyncError {
    /// `{reason}` of the message: the platform's words in both languages, or ours.
    fn reason(&self) -> Vec<(&'static str, String)> {
        match self {
            SyncError::Platform(e) => hub::reason_pair(e),
            SyncError::Db(e) => vec![("reason", e.to_string())],
            SyncError::Internal(e) => vec![("reason", e.clone())],
            SyncError::NoSource => vec![
                ("reason.zh", no_source(Lang::Zh)),
                ("reason.en", no_source(Lang::En)),
            ],
        }
    }
    /// As kept on the row (`last_error`): both languages, shown to each reader in theirs.
    fn stored(&self) -> String {
        match self {
            SyncError::Platform(e) => hub::platform_reason(e),
            SyncError::Db(e) => e.to_string(),
            SyncError::Internal(e) => e.clone(),
            SyncError::NoSource => serde_json::json!({
                "reason_zh": no_source(Lang::Zh),
                "reason_en": no_source(Lang::En),
            })
            .to_string(),
        }
    }
}

fn no_source(lang: Lang) -> String {
    Msg::DataVendorNotConfigured.template(lang).to_string()
}

/// Reads one account: profile, works (newest first, up to [`MAX_WORKS`]), today's figures.
pub async fn sync_one(h: &Hub, id: i64) -> Result<(), SyncError> {
    let row = db::benchmark_any(&h.db, id).await.map_err(SyncError::Db)?;
    let Some(row) = row else { return Ok(()) };
    let (a, source) = h
        .vendor()
        .await
        .map_err(|e| SyncError::Internal(e.to_string()))?
        .ok_or(SyncError::NoSource)?;
    let acc = a
        .public_account(&row.account_id)
        .await
        .map_err(SyncError::Platform)?;
    let mut works = vec![];
    let mut cursor = 0;
    loop {
        let (page, next, more) = a
            .public_works(&row.account_id, cursor, PAGE)
            .await
            .map_err(SyncError::Platform)?;
        works.extend(page.into_iter().map(|w| WorkRow {
            work_id: w.item_id,
            title: w.title,
            create_time: w.create_time,
            plays: w.plays,
            likes: w.likes,
            comments: w.comments,
            shares: w.shares,
        }));
        if !more || works.len() >= MAX_WORKS || next == cursor {
            break;
        }
        cursor = next;
    }
    let now = h.db.clock.platform_now();
    let day = domain::matrix::fmt_day(domain::matrix::day_of(now));
    db::save_sync(
        &h.db,
        id,
        &db::Synced {
            nickname: &acc.nickname,
            avatar: &acc.avatar,
            share_url: &acc.share_url,
            followers: acc.followers,
            likes: acc.total_likes,
            works: &works,
            day: &day,
            now,
            source: source.as_str(),
        },
    )
    .await
    .map_err(SyncError::Db)
}

/// The job: one account. A platform's refusal is kept on the row and ends the job (the schedule
/// tries again later); a database error retries.
pub async fn run(ctx: JobCtx, r: BenchmarkRef, h: crate::platform::HubRef) -> Result<(), JobError> {
    match sync_one(&h, r.benchmark_id).await {
        Ok(()) => Ok(()),
        Err(SyncError::Db(e)) => Err(JobError::Retry(e.to_string())),
        Err(SyncError::Internal(e)) => Err(JobError::Retry(e)),
        Err(e @ (SyncError::Platform(_) | SyncError::NoSource)) => {
            db::sync_failed(
                &ctx.db,
                r.benchmark_id,
                &e.stored(),
                h.db.clock.platform_now(),
            )
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
            Ok(())
        }
    }
}

/// Queues a sync for every account not read for [`SYNC_EVERY_MS`]; the key makes every node's
/// ticker agree on one job per account and period. Answers how many were due.
pub async fn queue_due(d: &store::Db, now: i64) -> sqlx::Result<usize> {
    let due = db::benchmarks_due(d, now - SYNC_EVERY_MS, 1000).await?;
    for b in &due {
        let job = store::jobs::NewJob {
            idempotency_key: Some(format!("seo-bench:{}:{}", b.id, now / SYNC_EVERY_MS)),
            ..store::jobs::NewJob::new(Job::SeoBenchmarkSync(BenchmarkRef { benchmark_id: b.id }))
        };
        store::jobs::submit(d, &job).await?;
    }
    Ok(due.len())
}

/// Looks for due accounts every 10 minutes.
pub async fn schedule(d: store::Db, shutdown: tokio::sync::watch::Receiver<bool>) {
    let period = std::time::Duration::from_secs(600);
    crate::ticker::every(&d, period, shutdown, "benchmark syncs", || {
        queue_due(&d, d.clock.platform_now())
    })
    .await
}

/// An account with its works, figures by day and the words of its titles.
pub struct Detail {
    pub row: BenchmarkRow,
    pub days: Vec<DayRow>,
    pub works: Vec<WorkRow>,
}

pub async fn detail(d: &store::Db, mid: i64, id: i64) -> ApiResult<Detail> {
    let row = db::benchmark(d, mid, id).await?.ok_or(ApiError::NotFound)?;
    Ok(Detail {
        days: db::benchmark_days(d, id).await?,
        works: db::benchmark_works(d, id).await?,
        row,
    })
}

/// One page of the merchant's benchmark accounts.
pub async fn list(
    d: &store::Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<BenchmarkRow>, store::list::Total)> {
    Ok(db::benchmarks(d, mid, q).await?)
}

/// A benchmark account's works since `since`, and their plays.
pub async fn posts_since(d: &store::Db, id: i64, since: i64) -> ApiResult<(i64, i64)> {
    Ok(db::posts_since(d, id, since).await?)
}
