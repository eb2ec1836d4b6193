//! AI smart editing (/intellect, the Administrator's internal test): a merchant's long video in, its
//! best short segments out as ready video materials of one of the merchant's video groups. One
//! durable `clip.intellect` job per run: analyse (speech recognition when the video has none — paid
//! like `asr_add`, 1 point per started minute, refunded if the run fails — then scene changes and
//! silences, `media::intellect::analyse`) → pick (`media::intellect::pick`) → cut (the slicing cut:
//! stream copy on whole seconds, else ingest's re-encode). A retried job skips shorts already made.

use super::slice::{permanent, tool};
use crate::error::{ApiError, ApiResult};
use domain::clip::intellect::{Segment, Settings, State, Step};
use domain::i18n::Msg;
use domain::materials::AsrState;
use domain::system::points::Reason;
use media::Storage;
use store::Db;
use store::clip::intellect as db;

/// An intelligent-slicing run.
pub use db::Run;
use store::jobs::{JobCtx, JobError};
use store::materials as mat;

/// What a run asks for.
pub struct RunIn<'a> {
    pub merchant_id: Option<i64>,
    pub resource_id: Option<i64>,
    pub group_id: Option<i64>,
    pub min_seconds: Option<i64>,
    pub max_seconds: Option<i64>,
    pub count: Option<i64>,
    /// Spoken language for recognition (zh | en), when the video has not been recognized.
    pub lang: Option<&'a str>,
}

/// The merchant a call names: it must exist.
pub async fn merchant(db: &Db, id: Option<i64>) -> ApiResult<store::auth::users::Merchant> {
    let id = id
        .filter(|m| *m > 0)
        .ok_or(ApiError::invalid("merchant_id", Msg::Required))?;
    store::auth::users::merchant_by_id(db, id)
        .await?
        .ok_or(ApiError::NotFound)
}

/// A merchant's ready videos (newest first) and video groups: what a run may start from and cut into.
pub async fn sources(
    db: &Db,
    merchant_id: Option<i64>,
) -> ApiResult<(Vec<mat::MediaFile>, Vec<mat::Group>)> {
    let m = merchant(db, merchant_id).await?;
    let q = store::ListQuery {
        limit: Some(200),
        ..Default::default()
    }
    .with_filter("state", Some("ready"), "=")
    .with_filter("kind", Some("video"), "=");
    let (videos, _) = mat::list(db, m.id, "resource", &q).await?;
    let q = store::ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (groups, _) = mat::groups(db, m.id, "video", &q).await?;
    Ok((videos, groups))
}

/// Starts a run: checks the settings, the video (the merchant's, ready, not being recognized) and the
/// group (the merchant's video group); charges recognition when the video has no recognized lines.
pub async fn start(
    db: &Db,
    asr_dir: &std::path::Path,
    input: &RunIn<'_>,
    by: &str,
) -> ApiResult<db::Run> {
    let m = merchant(db, input.merchant_id).await?;
    let s = Settings::check(input.min_seconds, input.max_seconds, input.count)?;
    let lang: media::asr::Lang = input.lang.unwrap_or("zh").parse().map_err(|_| {
        ApiError::invalid_with(
            "lang",
            Msg::InvalidValue,
            vec![("reason", "zh | en".into())],
        )
    })?;
    let id = input
        .resource_id
        .filter(|x| *x > 0)
        .ok_or(ApiError::invalid("resource_id", Msg::Required))?;
    let video = mat::get(db, m.id, id).await?.ok_or_else(|| {
        ApiError::invalid_with(
            "resource_id",
            Msg::MaterialMissing,
            vec![("what", format!("#{id}"))],
        )
    })?;
    if video.kind != domain::materials::MediaKind::Video
        || video.state != domain::materials::IngestState::Ready
        || video.mezzanine_key.is_empty()
    {
        return Err(ApiError::invalid_with(
            "resource_id",
            Msg::SliceNotVideo,
            vec![("name", video.name)],
        ));
    }
    let group = super::slicing::video_group(db, m.id, input.group_id).await?;
    let recognized = AsrState::read(&video.asr_state) == AsrState::Success;
    let needs_asr = !recognized && video.has_audio != 0;
    if AsrState::read(&video.asr_state) == AsrState::Processing {
        return Err(ApiError::invalid("resource_id", Msg::AsrBusy));
    }
    let (points, key) = if needs_asr {
        if let Err(e) = media::asr::WhisperRecognizer::from_asr_dir(asr_dir) {
            return Err(ApiError::invalid_with(
                "resource_id",
                Msg::AsrNotInstalled,
                vec![("hint", e.to_string())],
            ));
        }
        let points = crate::materials::asr::price(video.duration_ms);
        let key = format!("intellect:{}:{}", m.id, store::random_token(12));
        store::system::points::deduct(db, m.id, points, Reason::SubtitleRecognition, &key).await?;
        (points, key)
    } else {
        (0, String::new())
    };
    let run = db::NewRun {
        merchant_id: m.id,
        resource_id: video.id,
        group_id: group.id,
        name: video.name.clone(),
        min_seconds: s.min_seconds,
        max_seconds: s.max_seconds,
        max_count: s.count,
        lang: lang.as_str().into(),
        points,
        points_key: key.clone(),
        created_by: by.into(),
    };
    let id = match db::insert(db, &run).await {
        Ok(id) => id,
        Err(e) => {
            if points > 0 {
                store::system::points::refund(
                    db,
                    m.id,
                    &key,
                    Reason::SubtitleRecognitionNotStarted,
                )
                .await?;
            }
            return Err(e.into());
        }
    };
    run_of(db, id).await
}

pub async fn run_of(db: &Db, id: i64) -> ApiResult<db::Run> {
    db::get(db, id).await?.ok_or(ApiError::NotFound)
}

/// Starts a failed run again (charged again when its video still has no recognized lines).
pub async fn retry(db: &Db, id: i64) -> ApiResult<db::Run> {
    let r = run_of(db, id).await?;
    if r.state != State::Failed {
        return Err(ApiError::invalid("id", Msg::IntellectNotFailed));
    }
    let video = mat::get(db, r.merchant_id, r.resource_id).await?;
    let needs_asr = video
        .as_ref()
        .is_some_and(|v| AsrState::read(&v.asr_state) != AsrState::Success && v.has_audio != 0);
    let (points, key) = match (needs_asr, &video) {
        (true, Some(v)) => {
            let points = crate::materials::asr::price(v.duration_ms);
            let key = format!("intellect:{}:{}", r.merchant_id, store::random_token(12));
            store::system::points::deduct(
                db,
                r.merchant_id,
                points,
                Reason::SubtitleRecognition,
                &key,
            )
            .await?;
            (points, key)
        }
        _ => (0, String::new()),
    };
    if !db::retry(db, r.id, points, &key).await? {
        if points > 0 {
            store::system::points::refund(
                db,
                r.merchant_id,
                &key,
                Reason::SubtitleRecognitionNotStarted,
            )
            .await?;
        }
        return Err(ApiError::invalid("id", Msg::IntellectNotFailed));
    }
    run_of(db, id).await
}

/// Deletes a run that is not working; its shorts stay in their group.
pub async fn delete(db: &Db, id: i64) -> ApiResult<()> {
    run_of(db, id).await?;
    if !db::delete(db, id).await? {
        return Err(ApiError::invalid("id", Msg::IntellectBusy));
    }
    Ok(())
}

/// A run's segments as stored.
pub fn segments(r: &db::Run) -> Vec<Segment> {
    serde_json::from_str(&r.segments).unwrap_or_default()
}

/// What the job needs besides its context.
pub struct Deps {
    pub storage: Storage,
    pub asr_dir: std::path::PathBuf,
}

/// The `clip.intellect` job.
pub async fn run(
    ctx: JobCtx,
    p: domain::jobs::IntellectRef,
    deps: std::sync::Arc<Deps>,
) -> Result<(), JobError> {
    let Some(r) = db::get(&ctx.db, p.run_id).await? else {
        return Ok(()); // deleted meanwhile
    };
    if r.state != State::Running || r.job_id != ctx.job.id {
        return Ok(()); // finished, or started again under another job
    }
    let result = ctx.attempt(work(&ctx, &deps, &r)).await;
    // A twin run of this job (its lease lapsed while this one ran) may have ended the run already.
    let still_running = || async {
        Ok::<_, JobError>(
            db::get(&ctx.db, r.id)
                .await?
                .is_some_and(|n| n.state == State::Running && n.job_id == ctx.job.id),
        )
    };
    if let Err(e) = &result
        && ctx.is_final(e)
        && still_running().await?
    {
        // Refund first: whoever sees "failed" sees the points back (refunds are once per key).
        if r.points > 0 {
            store::system::points::refund(
                &ctx.db,
                r.merchant_id,
                &r.points_key,
                Reason::SubtitleRecognitionFailed,
            )
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        }
        db::finish(&ctx.db, r.id, ctx.job.id, State::Failed, e.message()).await?;
    }
    result
}

async fn progress(ctx: &JobCtx, r: &db::Run, step: Step, pct: i64) -> Result<bool, JobError> {
    let live = db::step(&ctx.db, r.id, ctx.job.id, step.as_str(), pct).await?;
    ctx.progress(pct).await?;
    Ok(live)
}

/// `mm:ss` for short names.
fn clock(ms: i64) -> String {
    format!("{:02}:{:02}", ms / 60_000, (ms % 60_000) / 1000)
}

async fn work(ctx: &JobCtx, deps: &Deps, r: &db::Run) -> Result<(), JobError> {
    let mid = r.merchant_id;
    let deleted = || permanent(Msg::SliceSourceDeleted, &[("name", &r.name)]);
    let m = mat::get(&ctx.db, mid, r.resource_id)
        .await?
        .ok_or_else(deleted)?;
    mat::group(&ctx.db, mid, r.group_id)
        .await?
        .filter(|g| g.kind == domain::materials::GroupKind::Video)
        .ok_or_else(|| permanent(Msg::SliceGroupDeleted, &[("what", &r.group_id.to_string())]))?;
    let src = match deps.storage.local_copy(&m.mezzanine_key).await {
        Ok(f) => f,
        Err(media::storage::StorageError::NotFound(_)) => return Err(deleted()),
        Err(e) => return Err(JobError::Permanent(e.to_string())),
    };
    progress(ctx, r, Step::Analyse, 2).await?;
    let info = media::probe::probe(&src)
        .await
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    let duration = if info.duration_ms > 0 {
        info.duration_ms
    } else {
        m.duration_ms
    };
    if r.points > 0 && AsrState::read(&m.asr_state) != AsrState::Success {
        let lang: media::asr::Lang = r
            .lang
            .parse()
            .map_err(|e| JobError::Permanent(format!("bad language: {e}")))?;
        // The video keeps its recognized lines, as if `asr_add` had run (and been paid).
        crate::materials::asr::recognize(&ctx.db, &deps.asr_dir, &m, &src, lang).await?;
    }
    let lines = mat::asr_lines(&ctx.db, mid, m.id).await?;
    if !progress(ctx, r, Step::Analyse, 30).await? {
        return Ok(());
    }
    let analysis = media::intellect::analyse(&src, duration, info.has_audio)
        .await
        .map_err(tool)?;
    if !progress(ctx, r, Step::Pick, Step::Pick.starts_at()).await? {
        return Ok(());
    }
    let sentences: Vec<media::intellect::Sentence> = lines
        .iter()
        .map(|l| media::intellect::Sentence {
            start_ms: l.start_ms,
            end_ms: l.end_ms,
            text: l.content.clone(),
        })
        .collect();
    let settings = media::intellect::Settings {
        min_ms: r.min_seconds * 1000,
        max_ms: r.max_seconds * 1000,
        count: r.max_count.max(1) as usize,
        max_silence_ms: domain::clip::intellect::MAX_SILENCE_MS,
    };
    let edge = |e: media::intellect::Edge| {
        serde_json::to_value(e)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    };
    // A retried job keeps the segments (and shorts) of the attempt before: the pick is deterministic.
    let mut picked = segments(r);
    if picked.is_empty() {
        picked = media::intellect::pick(&analysis, &sentences, &settings)
            .into_iter()
            .map(|s| Segment {
                start_ms: s.start_ms,
                end_ms: s.end_ms,
                score: s.score,
                speech_ms: s.speech_ms,
                start_on: edge(s.start_on),
                end_on: edge(s.end_on),
                transcript: s.transcript,
                media_id: None,
            })
            .collect();
        if picked.is_empty() {
            return Err(permanent(
                Msg::IntellectNothingFound,
                &[
                    ("name", &r.name),
                    ("min", &r.min_seconds.to_string()),
                    ("max", &r.max_seconds.to_string()),
                ],
            ));
        }
        db::set_segments(
            &ctx.db,
            r.id,
            &serde_json::to_string(&picked).unwrap_or_else(|_| "[]".into()),
        )
        .await?;
    }
    if !progress(ctx, r, Step::Cut, Step::Cut.starts_at()).await? {
        return Ok(());
    }
    let stem: String = r
        .name
        .rsplit_once('.')
        .map(|(a, _)| a)
        .unwrap_or(&r.name)
        .chars()
        .take(80)
        .collect();
    let n = picked.len();
    for (i, s) in picked.iter().enumerate() {
        let made = match s.media_id {
            Some(id) => mat::get(&ctx.db, mid, id).await?.is_some(),
            None => false,
        };
        if !made {
            let part = media::slice::Part {
                start_ms: s.start_ms,
                end_ms: s.end_ms,
            };
            let mut video =
                super::slice::cut_piece(&deps.storage, mid, &src, part, duration).await?;
            let name = format!("{stem} AI {}-{}", clock(s.start_ms), clock(s.end_ms));
            video.group_id = r.group_id;
            video.original_name = format!("{name}.mp4");
            video.name = name;
            let inserted = db::insert_short(&ctx.db, r.id, ctx.job.id, i, &video).await;
            if !matches!(inserted, Ok(Some(_))) {
                super::slice::forget_piece(&deps.storage, &video).await;
            }
            if inserted
                .map_err(|e| JobError::Retry(e.to_string()))?
                .is_none()
            {
                return Ok(()); // deleted or started again meanwhile
            }
        }
        progress(ctx, r, Step::Cut, Step::cut_progress(i + 1, n)).await?;
    }
    db::finish(&ctx.db, r.id, ctx.job.id, State::Done, "").await?;
    Ok(())
}

/// One page of the runs (every merchant's: the operator's list).
pub async fn list(d: &Db, q: &store::ListQuery) -> ApiResult<(Vec<Run>, store::list::Total)> {
    Ok(db::list(d, q).await?)
}

/// What a run's view names beside the run: its materials (source and shorts), its merchant's and
/// its shot group's names.
pub struct Around {
    pub media: Vec<mat::MediaFile>,
    pub merchant_name: Option<String>,
    pub group_name: Option<String>,
}

pub async fn around(d: &Db, r: &Run) -> ApiResult<Around> {
    let mut ids: Vec<i64> = segments(r).iter().filter_map(|s| s.media_id).collect();
    ids.push(r.resource_id);
    Ok(Around {
        media: mat::get_many(d, r.merchant_id, &ids).await?,
        merchant_name: store::auth::users::merchant_by_id(d, r.merchant_id)
            .await?
            .map(|m| m.name),
        group_name: mat::group(d, r.merchant_id, r.group_id)
            .await?
            .map(|g| g.name),
    })
}
