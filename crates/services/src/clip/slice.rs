//! The `clip.slice` job: one source video of a slicing project per job. It plans the cut points
//! (`domain::clip::slicing`), cuts the source's mezzanine (`media::slice`: stream copy on whole seconds, an
//! ingest-identical re-encode otherwise), makes each slice's poster and strip, and records each slice
//! as a ready video material of the project's group together with its origin — in one transaction,
//! only once its files are complete. Parts already made for the source are skipped, so a retried job
//! never doubles a slice. Progress (0–100) lands on the source row; ffmpeg's words are the reason of a
//! failure; a cancelled source stops at the next slice (or at once, when its job loses its lease).

use domain::clip::slicing::Settings;
use domain::i18n::{Msg, reason};
use media::Storage;
use std::path::PathBuf;
use store::clip::slicing as db;
use store::jobs::{JobCtx, JobError};
use store::materials as mat;

/// What a cancelled source says: a reason code stored with the source (and its job), put into the
/// reader's language when read (`domain::i18n::localize_reason`).
pub fn cancelled() -> String {
    reason(Msg::SliceCancelled, &[])
}

/// A failure that retrying cannot mend, stored as a reason code.
pub(crate) fn permanent(msg: Msg, args: &[(&str, &str)]) -> JobError {
    JobError::Permanent(reason(msg, args))
}

/// ffmpeg's own failure is permanent (the same input fails again); a timeout or I/O may pass.
pub(crate) fn tool(e: media::ffmpeg::ToolError) -> JobError {
    match e {
        media::ffmpeg::ToolError::Failed { .. } => JobError::Permanent(e.to_string()),
        other => JobError::Retry(other.to_string()),
    }
}

fn retry<E: std::fmt::Display>(e: E) -> JobError {
    JobError::Retry(e.to_string())
}

/// Temporary files of one slice, removed when it is dropped unless they were moved into storage.
struct Temps(Vec<PathBuf>);

impl Drop for Temps {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

pub async fn run(
    ctx: JobCtx,
    p: domain::jobs::ClipSlice,
    storage: Storage,
) -> Result<(), JobError> {
    let Some(s) = db::source_any(&ctx.db, p.source_id).await? else {
        return Err(permanent(Msg::SliceSourceRemoved, &[]));
    };
    if s.state != domain::clip::slicing::SliceState::Processing || s.job_id != ctx.job.id {
        // Cancelled, finished, or queued again under another job meanwhile: nothing to do.
        return Ok(());
    }
    let result = ctx.attempt(work(&ctx, &storage, &s)).await;
    if let Err(e) = &result {
        let last = ctx.is_final(e);
        let msg = e.message();
        // While retries remain the source stays "processing" with the reason; the last failure shows.
        db::set_source_progress(
            &ctx.db,
            s.id,
            ctx.job.id,
            if last { "failed" } else { "processing" },
            0,
            msg,
        )
        .await?;
    }
    result
}

/// `mm:ss` or `mm:ss.t` for slice names.
fn clock(ms: i64) -> String {
    let (m, s) = (ms / 60_000, (ms % 60_000) / 1000);
    if ms % 1000 == 0 {
        format!("{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}.{}", (ms % 1000) / 100)
    }
}

fn slice_name(source: &str, c: &domain::clip::slicing::Cut) -> String {
    let stem = source.rsplit_once('.').map(|(a, _)| a).unwrap_or(source);
    let stem: String = stem.chars().take(80).collect();
    format!("{stem} {}-{}", clock(c.start_ms), clock(c.end_ms))
}

async fn work(ctx: &JobCtx, storage: &Storage, s: &db::Source) -> Result<(), JobError> {
    let mid = s.merchant_id;
    let project = db::project(&ctx.db, mid, s.project_id)
        .await?
        .ok_or_else(|| permanent(Msg::SliceProjectDeleted, &[]))?;
    let settings = Settings::check(
        project.mode.as_str(),
        Some(project.seconds),
        Some(project.min_seconds),
        Some(project.max_seconds),
    )
    .map_err(|b| JobError::Permanent(format!("invalid settings: {}", b.field)))?;
    mat::group(&ctx.db, mid, project.group_id)
        .await?
        .filter(|g| g.kind == domain::materials::GroupKind::Video)
        .ok_or_else(|| {
            permanent(
                Msg::SliceGroupDeleted,
                &[("what", &project.group_id.to_string())],
            )
        })?;
    let deleted = || permanent(Msg::SliceSourceDeleted, &[("name", &s.name)]);
    let m = mat::get(&ctx.db, mid, s.resource_id)
        .await?
        .ok_or_else(deleted)?;
    if m.mezzanine_key.is_empty() {
        return Err(permanent(Msg::SliceSourceNotReady, &[("name", &s.name)]));
    }
    let src = match storage.local_copy(&m.mezzanine_key).await {
        Ok(f) => f,
        Err(media::storage::StorageError::NotFound(_)) => return Err(deleted()),
        Err(e) => return Err(JobError::Permanent(e.to_string())),
    };
    db::set_source_progress(&ctx.db, s.id, ctx.job.id, "processing", 1, "").await?;
    let info = media::probe::probe(&src)
        .await
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    let duration = if info.duration_ms > 0 {
        info.duration_ms
    } else {
        m.duration_ms
    };
    let lines: Vec<(i64, i64)> = if settings.mode == domain::clip::slicing::Mode::Subtitle {
        mat::asr_lines(&ctx.db, mid, m.id)
            .await?
            .iter()
            .map(|l| (l.start_ms, l.end_ms))
            .collect()
    } else {
        vec![]
    };
    let cuts = domain::clip::slicing::plan(&settings, duration, &lines);
    if cuts.is_empty() {
        return Err(if settings.mode == domain::clip::slicing::Mode::Subtitle {
            permanent(Msg::SliceNoLines, &[("name", &s.name)])
        } else {
            permanent(Msg::SliceEmpty, &[("name", &s.name)])
        });
    }
    let n = cuts.len() as i64;
    for (i, c) in cuts.iter().enumerate() {
        if db::made(&ctx.db, s.id, c.start_ms, c.end_ms)
            .await?
            .is_none()
        {
            make_one(ctx, storage, s, &project, &src, duration, c).await?;
        }
        let pct = 2 + 97 * (i as i64 + 1) / n;
        if !db::set_source_progress(&ctx.db, s.id, ctx.job.id, "processing", pct, "").await? {
            return Ok(()); // cancelled
        }
        ctx.progress(pct).await?;
    }
    db::set_source_progress(&ctx.db, s.id, ctx.job.id, "success", 100, "").await?;
    Ok(())
}

async fn make_one(
    ctx: &JobCtx,
    storage: &Storage,
    s: &db::Source,
    project: &db::Project,
    src: &std::path::Path,
    duration: i64,
    c: &domain::clip::slicing::Cut,
) -> Result<(), JobError> {
    let part = media::slice::Part {
        start_ms: c.start_ms,
        end_ms: c.end_ms,
    };
    let name = slice_name(&s.name, c);
    let mut video = cut_piece(storage, s.merchant_id, src, part, duration).await?;
    video.group_id = project.group_id;
    video.original_name = format!("{name}.mp4");
    video.name = name;
    let inserted = db::insert_slice(
        &ctx.db,
        &db::NewSlice {
            job_id: ctx.job.id,
            project_id: project.id,
            source_id: s.id,
            resource_id: s.resource_id,
            start_ms: c.start_ms,
            end_ms: c.end_ms,
            video: video.clone(),
        },
    )
    .await
    .map_err(retry);
    if !matches!(inserted, Ok(Some(_))) {
        // Not recorded (cancelled, made meanwhile, or a fault): keep nothing.
        forget_piece(storage, &video).await;
    }
    inserted.map(|_| ())
}

/// Cuts `part` of the mezzanine `src` (`duration` ms long) into storage — the video (a stream copy on
/// whole seconds, else ingest's re-encode), its poster and strip — and describes it as a ready video
/// of the merchant (the caller names it and picks its group, then records it or calls
/// [`forget_piece`]). Shared by slicing and smart editing.
pub(crate) async fn cut_piece(
    storage: &Storage,
    mid: i64,
    src: &std::path::Path,
    part: media::slice::Part,
    duration: i64,
) -> Result<mat::ReadyVideo, JobError> {
    let video = storage.temp_path("mp4").await.map_err(retry)?;
    let poster = storage.temp_path("jpg").await.map_err(retry)?;
    let strip = storage.temp_path("jpg").await.map_err(retry)?;
    let _temps = Temps(vec![video.clone(), poster.clone(), strip.clone()]);
    media::slice::cut(src, &video, part, duration)
        .await
        .map_err(tool)?;
    let info = media::probe::probe(&video)
        .await
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    media::ingest::pictures(&video, &poster, &strip, &info)
        .await
        .map_err(tool)?;
    let loudness = media::ingest::loudness(&video).await.ok().flatten();
    let key = Storage::new_key(mid, "mp4");
    let base = key.trim_end_matches(".mp4").to_string();
    let (poster_key, strip_key) = (format!("{base}-poster.jpg"), format!("{base}-strip.jpg"));
    let out = mat::ReadyVideo {
        merchant_id: mid,
        key: key.clone(),
        poster_key: poster_key.clone(),
        strip_key: strip_key.clone(),
        width: info.width,
        height: info.height,
        duration_ms: info.duration_ms,
        fps: info.fps,
        video_codec: info.video_codec.clone().unwrap_or_default(),
        audio_codec: info.audio_codec.clone().unwrap_or_default(),
        has_audio: info.has_audio,
        loudness,
        ..Default::default()
    };
    let put = async {
        let size = storage.put_file(&key, &video).await?;
        storage.put_file(&poster_key, &poster).await?;
        storage.put_file(&strip_key, &strip).await?;
        Ok::<_, media::storage::StorageError>(size)
    };
    match put.await {
        Ok(size) => Ok(mat::ReadyVideo {
            size: size as i64,
            ..out
        }),
        Err(e) => {
            forget_piece(storage, &out).await;
            Err(retry(e))
        }
    }
}

/// Removes the files of a piece that was not recorded.
pub(crate) async fn forget_piece(storage: &Storage, v: &mat::ReadyVideo) {
    for k in [&v.key, &v.poster_key, &v.strip_key] {
        let _ = storage.delete(k).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_names_show_the_part() {
        let c = domain::clip::slicing::Cut {
            start_ms: 4000,
            end_ms: 8000,
        };
        assert_eq!(slice_name("long video.mp4", &c), "long video 00:04-00:08");
        let c = domain::clip::slicing::Cut {
            start_ms: 61_500,
            end_ms: 65_250,
        };
        assert_eq!(slice_name("talk", &c), "talk 01:01.5-01:05.2");
    }
}
