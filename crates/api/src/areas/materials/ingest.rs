//! The `media.ingest` job: poster, thumbnail strip, loudness and the canonical mezzanine for every
//! uploaded video; the normalized AAC track for audio. Progress lands on the material row, so the
//! library shows a bar; a file ffmpeg cannot read ends `failed` with ffmpeg's words as the reason.

use store::jobs::{JobCtx, JobError};
use store::materials as mat;

#[derive(serde::Deserialize)]
struct Payload {
    media_id: i64,
}

pub async fn run(ctx: JobCtx, storage: media::Storage) -> Result<(), JobError> {
    let p: Payload = ctx.payload()?;
    let db = &ctx.db;
    let m = mat::get_any(db, p.media_id)
        .await?
        .ok_or_else(|| JobError::Permanent("the material was deleted".into()))?;
    let outcome = work(&ctx, &storage, &m).await;
    if let Err(e) = &outcome {
        let (msg, last) = (e.message(), ctx.is_final(e));
        // While retries remain the row stays "processing"; the last failure is shown with its reason.
        mat::set_progress(db, m.id, if last { "failed" } else { "processing" }, 0, msg).await?;
    }
    outcome
}

async fn step(ctx: &JobCtx, id: i64, pct: i64) -> Result<(), JobError> {
    mat::set_progress(&ctx.db, id, "processing", pct, "").await?;
    ctx.progress(pct).await?;
    Ok(())
}

fn tool(e: media::ffmpeg::ToolError) -> JobError {
    match e {
        media::ffmpeg::ToolError::Failed { .. } => JobError::Permanent(e.to_string()),
        other => JobError::Retry(other.to_string()),
    }
}

async fn work(ctx: &JobCtx, storage: &media::Storage, m: &mat::MediaFile) -> Result<(), JobError> {
    let src = storage
        .path(&m.storage_key)
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    step(ctx, m.id, 5).await?;
    let info = media::probe::probe(&src)
        .await
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    let base = format!("m/{}/{}", m.merchant_id, m.id);
    let temp = |ext: &'static str| storage.temp_path(ext);
    let (mut poster_key, mut strip_key) = (String::new(), String::new());
    if info.has_video {
        let t = temp("jpg")
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        media::ingest::poster(&src, &t, &info).await.map_err(tool)?;
        poster_key = format!("{base}-poster.jpg");
        storage
            .put_file(&poster_key, &t)
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        step(ctx, m.id, 15).await?;
        let t = temp("jpg")
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        media::ingest::thumb_strip(&src, &t, &info)
            .await
            .map_err(tool)?;
        strip_key = format!("{base}-strip.jpg");
        storage
            .put_file(&strip_key, &t)
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        step(ctx, m.id, 25).await?;
    }
    let loudness = if info.has_audio {
        media::ingest::loudness(&src).await.map_err(tool)?
    } else {
        None
    };
    step(ctx, m.id, 35).await?;
    let (t, key) = if info.has_video {
        let t = temp("mp4")
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        media::ingest::normalize(&src, &t, &info)
            .await
            .map_err(tool)?;
        (t, format!("{base}-mezz.mp4"))
    } else {
        let t = temp("m4a")
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        media::ingest::normalize_audio(&src, &t, &info)
            .await
            .map_err(tool)?;
        (t, format!("{base}-mezz.m4a"))
    };
    storage
        .put_file(&key, &t)
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    mat::set_outputs(&ctx.db, m.id, &poster_key, &strip_key, &key, loudness).await?;
    Ok(())
}
