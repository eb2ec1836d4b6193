//! Subtitle recognition: starting it (points charged per started minute, refunded if it fails), the
//! editor's saving of the lines, and the recognition job.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::jobs::Job;
use domain::materials::AsrState;
use domain::system::points::Reason;
use store::Db;
use store::jobs::{JobCtx, JobError};
use store::materials as mat;
use store::{ListQuery, list::Total};

pub use mat::AsrLine;

/// Points per started minute of recognized media.
pub const POINTS_PER_MINUTE: i64 = 1;

/// What recognizing a material of this length costs.
pub fn price(duration_ms: i64) -> i64 {
    ((duration_ms + 59_999) / 60_000).max(1) * POINTS_PER_MINUTE
}

/// A recognition started: its job and the points deducted.
pub struct Started {
    pub job_id: i64,
    pub points: i64,
}

/// Starts recognizing a material's subtitles in `lang` (zh | en): deducts its price, marks it
/// processing and queues the job (refunding and failing it when the job cannot be queued).
pub async fn start(
    db: &Db,
    asr_dir: &std::path::Path,
    mid: i64,
    media_id: i64,
    lang: &str,
) -> ApiResult<Started> {
    let m = mat::get(db, mid, media_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let lang: media::asr::Lang = lang.parse().map_err(|_| {
        ApiError::invalid_with(
            "lang",
            Msg::InvalidValue,
            vec![("reason", "zh | en".into())],
        )
    })?;
    if m.kind != domain::materials::MediaKind::Video
        && m.kind != domain::materials::MediaKind::Audio
        || m.has_audio == 0
    {
        return Err(ApiError::invalid("resource_id", Msg::AsrNoAudio));
    }
    if !AsrState::read(&m.asr_state).can_become(AsrState::Processing) {
        return Err(ApiError::invalid("resource_id", Msg::AsrBusy));
    }
    if let Err(e) = media::asr::WhisperRecognizer::from_asr_dir(asr_dir) {
        return Err(ApiError::invalid_with(
            "resource_id",
            Msg::AsrNotInstalled,
            vec![("hint", e.to_string())],
        ));
    }
    let points = price(m.duration_ms);
    let key = format!("asr:{}:{}", m.id, domain::now_ms());
    store::system::points::deduct(db, mid, points, Reason::SubtitleRecognition, &key).await?;
    mat::asr_started(db, m.id).await?;
    let payload = domain::jobs::MediaAsr {
        media_id: m.id,
        lang: lang.as_str().into(),
        points_key: key.clone(),
    };
    let job = store::jobs::NewJob {
        merchant_id: Some(mid),
        idempotency_key: Some(key.clone()),
        max_attempts: Some(2),
        ..store::jobs::NewJob::new(Job::MediaAsr(payload))
    };
    let job_id = match store::jobs::submit(db, &job).await {
        Ok(id) => id,
        Err(e) => {
            store::system::points::refund(db, mid, &key, Reason::SubtitleRecognitionNotStarted)
                .await?;
            mat::asr_failed(db, m.id, &e.to_string()).await?;
            return Err(e.into());
        }
    };
    Ok(Started { job_id, points })
}

/// What recognizing material `m` costs, and the merchant's balance.
pub async fn quote(db: &Db, m: &mat::MediaFile) -> ApiResult<(i64, i64)> {
    Ok((
        price(m.duration_ms),
        store::system::points::balance(db, m.merchant_id).await?,
    ))
}

/// One page of a material's lines.
pub async fn lines_page(
    db: &Db,
    m: &mat::MediaFile,
    q: &ListQuery,
) -> ApiResult<(Vec<AsrLine>, Total)> {
    Ok(mat::asr_page(db, m.merchant_id, m.id, q).await?)
}

/// Every line of a material, in time order.
pub async fn lines(db: &Db, m: &mat::MediaFile) -> ApiResult<Vec<AsrLine>> {
    Ok(mat::asr_lines(db, m.merchant_id, m.id).await?)
}

/// A line of the merchant's with the material it belongs to.
pub async fn line(db: &Db, mid: i64, id: i64) -> ApiResult<(AsrLine, mat::MediaFile)> {
    let l = mat::asr_line(db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let m = mat::get(db, mid, l.resource_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok((l, m))
}

/// Saves one edited line.
pub async fn update_line(db: &Db, mid: i64, l: &AsrLine) -> ApiResult<()> {
    mat::update_asr_line(db, mid, l).await?;
    Ok(())
}

/// Deletes one line.
pub async fn delete_line(db: &Db, mid: i64, id: i64) -> ApiResult<()> {
    super::library::found(mat::delete_asr_line(db, mid, id).await?)
}

/// Replaces a material's lines (checked, in time order) with the editor's; a material not being
/// recognized then counts as recognized.
pub async fn save_lines(
    db: &Db,
    m: &mat::MediaFile,
    lines: &[(i64, i64, String)],
) -> ApiResult<Vec<mat::AsrLine>> {
    mat::replace_asr_lines(db, m.merchant_id, m.id, lines).await?;
    // A recognition running now writes its own lines and state when it ends.
    if AsrState::read(&m.asr_state) != AsrState::Processing {
        mat::asr_succeeded(db, m.id).await?;
    }
    Ok(mat::asr_lines(db, m.merchant_id, m.id).await?)
}

/// Recognizes the speech of material `m` (its local file `path`), replaces its lines with what was
/// heard and marks it recognized. A timeout or an I/O error is worth a retry; anything else is not.
pub async fn recognize(
    db: &Db,
    asr_dir: &std::path::Path,
    m: &mat::MediaFile,
    path: &std::path::Path,
    lang: media::asr::Lang,
) -> Result<(), JobError> {
    let engine = media::asr::WhisperRecognizer::from_asr_dir(asr_dir)
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    use media::asr::Recognizer;
    let lines = engine.transcribe(path, lang).await.map_err(|e| match e {
        media::asr::AsrError::Timeout { .. } | media::asr::AsrError::Io(_) => {
            JobError::Retry(e.to_string())
        }
        other => JobError::Permanent(other.to_string()),
    })?;
    let rows: Vec<(i64, i64, String)> = lines
        .into_iter()
        .map(|l| (l.start_ms, l.end_ms, l.content))
        .collect();
    mat::replace_asr_lines(db, m.merchant_id, m.id, &rows).await?;
    mat::asr_succeeded(db, m.id).await?;
    Ok(())
}

/// The `media.asr` job: recognize, replace the lines, mark success — or fail with the reason and give
/// the points back.
pub async fn run(
    ctx: JobCtx,
    p: domain::jobs::MediaAsr,
    storage: media::Storage,
    asr_dir: std::path::PathBuf,
) -> Result<(), JobError> {
    // Stored as the language's name (domain has no `media`): read the same way the payload was.
    let lang: media::asr::Lang = p
        .lang
        .parse()
        .map_err(|e| JobError::Permanent(format!("bad payload: {e}")))?;
    let Some(m) = mat::get_any(&ctx.db, p.media_id).await? else {
        return Err(JobError::Permanent("the material was deleted".into()));
    };
    // Taken again after it ended (the worker died before closing the job): running it again would
    // replace lines the merchant may have edited since, and a failure would refund a done recognition.
    if AsrState::read(&m.asr_state) != AsrState::Processing {
        return Ok(());
    }
    let result = ctx
        .attempt(async {
            let path = storage
                .local_copy(&m.storage_key)
                .await
                .map_err(|e| JobError::Permanent(e.to_string()))?;
            ctx.progress(10).await?;
            recognize(&ctx.db, &asr_dir, &m, &path, lang).await
        })
        .await;
    // A twin run that already ended the recognition (its lease lapsed while this one ran) left nothing
    // to refund or fail.
    let still_running = || async {
        Ok::<_, JobError>(
            mat::get_any(&ctx.db, m.id)
                .await?
                .is_some_and(|n| AsrState::read(&n.asr_state) == AsrState::Processing),
        )
    };
    if let Err(e) = &result
        && ctx.is_final(e)
        && still_running().await?
    {
        // Refund first: whoever sees "failed" sees the points back (refunds are once per key).
        store::system::points::refund(
            &ctx.db,
            m.merchant_id,
            &p.points_key,
            Reason::SubtitleRecognitionFailed,
        )
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
        mat::asr_failed(&ctx.db, m.id, e.message()).await?;
    }
    result
}
