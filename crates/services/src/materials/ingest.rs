//! The `media.ingest` job: the canonical mezzanine, loudness, poster and thumbnail strip for every
//! uploaded video; the normalized AAC track for audio. Progress (the encoder's own report) lands on the
//! material row, so the library shows a moving bar; a file ffmpeg cannot read ends `failed` with
//! ffmpeg's words as the reason.

use store::jobs::{JobCtx, JobError};
use store::materials as mat;

pub async fn run(
    ctx: JobCtx,
    p: domain::jobs::MediaIngest,
    storage: media::Storage,
) -> Result<(), JobError> {
    let db = &ctx.db;
    let m = mat::get_any(db, p.media_id)
        .await?
        .ok_or_else(|| JobError::Permanent("the material was deleted".into()))?;
    // Taken again after it was recorded (the worker died before closing the job): nothing to redo.
    if m.state != domain::materials::IngestState::Processing {
        return Ok(());
    }
    let outcome = ctx.attempt(work(&ctx, &storage, &m)).await;
    if let Err(e) = &outcome {
        let (msg, last) = (e.message(), ctx.is_final(e));
        // While retries remain the row stays "processing"; the last failure is shown with its reason.
        if last {
            mat::ingest_failed(db, m.id, msg).await?;
        } else {
            mat::ingest_progress(db, m.id, 0, msg).await?;
        }
    }
    outcome
}

async fn step(ctx: &JobCtx, id: i64, pct: i64) -> Result<(), JobError> {
    mat::ingest_progress(&ctx.db, id, pct, "").await?;
    ctx.progress(pct).await?;
    Ok(())
}

fn tool(e: media::ffmpeg::ToolError) -> JobError {
    match e {
        media::ffmpeg::ToolError::Failed { .. } => JobError::Permanent(e.to_string()),
        other => JobError::Retry(other.to_string()),
    }
}

fn retry(e: impl std::fmt::Display) -> JobError {
    JobError::Retry(e.to_string())
}

/// The encoder's share of the bar: 5–90 %; the pictures and storing take the rest.
const ENCODE_FROM: i64 = 5;
const ENCODE_TO: i64 = 90;

/// One decode of the original (the mezzanine transcode, its progress on the bar), loudness beside it
/// (audio only), then the poster and strip from the mezzanine. Measured on a 4 s 4K HEVC phone clip:
/// decoding the original is most of the work, and the old order decoded it three times (poster, strip,
/// transcode) before the bar moved past 35 %.
async fn work(ctx: &JobCtx, storage: &media::Storage, m: &mat::MediaFile) -> Result<(), JobError> {
    let src = storage
        .local_copy(&m.storage_key)
        .await
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    step(ctx, m.id, 2).await?;
    let info = media::probe::probe(&src)
        .await
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    let base = format!("m/{}/{}", m.merchant_id, m.id);
    let (ext, key) = if info.has_video {
        ("mp4", format!("{base}-mezz.mp4"))
    } else {
        ("m4a", format!("{base}-mezz.m4a"))
    };
    let t = storage.temp_path(ext).await.map_err(retry)?;
    step(ctx, m.id, ENCODE_FROM).await?;
    let (tx, mut rx) = tokio::sync::watch::channel(ENCODE_FROM);
    let encode = async {
        let sink = move |p: u8| {
            let pct = ENCODE_FROM + (ENCODE_TO - ENCODE_FROM) * i64::from(p) / 100;
            tx.send_if_modified(|v| std::mem::replace(v, pct) != pct);
        };
        if info.has_video {
            media::ingest::normalize_reporting(&src, &t, &info, &sink).await
        } else {
            media::ingest::normalize_audio(&src, &t, &info).await
        }
        // `sink` (the sender) is dropped here, which ends `report`.
    };
    // Written in order from this one loop, so no late write can land after the outputs.
    let report = async {
        while rx.changed().await.is_ok() {
            let pct = *rx.borrow_and_update();
            step(ctx, m.id, pct).await?;
        }
        Ok::<_, JobError>(())
    };
    let loud = async {
        match info.has_audio {
            true => media::ingest::loudness(&src).await,
            false => Ok(None),
        }
    };
    let (encoded, loudness, reported) = tokio::join!(encode, loud, report);
    encoded.map_err(tool)?;
    let loudness = loudness.map_err(tool)?;
    reported?;
    step(ctx, m.id, ENCODE_TO).await?;
    storage.put_file(&key, &t).await.map_err(retry)?;
    let (mut poster_key, mut strip_key) = (String::new(), String::new());
    if info.has_video {
        let mezz = storage.local_copy(&key).await.map_err(retry)?;
        let (poster, strip) = (
            storage.temp_path("jpg").await.map_err(retry)?,
            storage.temp_path("jpg").await.map_err(retry)?,
        );
        // The duplicate-risk signature beside the pictures (key frames only: ~0.1 s of CPU for 30 s);
        // a render makes it later if this one fails.
        let (pictures, signed) = tokio::join!(
            media::ingest::pictures(&mezz, &poster, &strip, &info),
            crate::clip::risk::sign_file(&ctx.db, m.merchant_id, m.id, mezz.path())
        );
        pictures.map_err(tool)?;
        if let Err(e) = signed {
            tracing::warn!(media = m.id, "no duplicate-risk signature: {e:#}");
        }
        (poster_key, strip_key) = (format!("{base}-poster.jpg"), format!("{base}-strip.jpg"));
        storage
            .put_file(&poster_key, &poster)
            .await
            .map_err(retry)?;
        storage.put_file(&strip_key, &strip).await.map_err(retry)?;
    }
    mat::set_outputs(&ctx.db, m.id, &poster_key, &strip_key, &key, loudness).await?;
    Ok(())
}
