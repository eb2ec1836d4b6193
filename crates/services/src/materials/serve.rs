//! What a signed link serves: the storage key and type behind a material's variant, a finished
//! clip or its cover, a course file, a built-in track or an AI voice task's audio.

use crate::error::ApiResult;
use store::Db;

/// What a stored file reads as (the HTTP layer streams it with ranges).
pub use media::storage::{Body, StorageError};

/// The storage key and MIME type behind `variant` of `id` (any merchant's: the link's signature is
/// the permission); None when there is no such file. `sample` (a built-in voice) is not here: it is
/// made on first play (`ai::sample`).
pub async fn source(db: &Db, id: i64, variant: &str) -> ApiResult<Option<(String, String)>> {
    Ok(match variant {
        "clip" | "cover" => store::clip::variant_any(db, id).await?.map(|v| {
            if variant == "clip" {
                (v.video_key, "video/mp4".to_string())
            } else {
                (v.cover_key, "image/jpeg".to_string())
            }
        }),
        "course" => store::content::file(db, id)
            .await?
            .map(|f| (f.storage_key, f.mime)),
        "system" => store::materials::system_music_one(db, id)
            .await?
            .map(|m| (m.storage_key, m.mime)),
        "tts" => store::ai::task_any(db, id)
            .await?
            .filter(|t| !t.storage_key.is_empty())
            .map(|t| (t.storage_key, "audio/mp4".to_string())),
        // The page's HTML as plain text: a console's markup and scripts never run on our origin.
        "evidence" | "evidence_html" => store::matrix::item(db, id)
            .await?
            .filter(|i| !i.evidence_key.is_empty())
            .map(|i| match variant {
                "evidence" => (format!("{}.png", i.evidence_key), "image/png".to_string()),
                _ => (
                    format!("{}.html", i.evidence_key),
                    "text/plain; charset=utf-8".to_string(),
                ),
            }),
        _ => store::materials::get_any(db, id)
            .await?
            .map(|m| match variant {
                "original" => (m.storage_key, m.mime),
                "mezzanine" => (m.mezzanine_key, "video/mp4".to_string()),
                "poster" => (m.poster_key, "image/jpeg".to_string()),
                _ => (m.strip_key, "image/jpeg".to_string()),
            }),
    })
}

/// Where the downloadable copy of a voice material lives: beside the material's own file.
pub fn cued_key(storage_key: &str) -> String {
    format!("{}.cued.m4a", storage_key.trim_end_matches(".m4a"))
}

/// A voice material as it is downloaded (`listen`): speech the product generated (a TTS voice-over
/// imported, one-touch's voice-over) gets the audible AI cue before it (GB 45438-2025 §5.3: offered
/// for download, generated audio carries its explicit label), made once and kept beside the file;
/// the material itself stays uncued, because mixes and the subtitle editor read it. Anything else is
/// its own file. None: no such voice material.
pub async fn listen(
    db: &Db,
    storage: &media::Storage,
    id: i64,
) -> ApiResult<Option<(String, String)>> {
    let internal = |e: String| crate::error::ApiError::Internal(anyhow::anyhow!(e));
    let Some(m) = store::materials::get_any(db, id).await? else {
        return Ok(None);
    };
    if m.library != "voice" || m.kind != domain::materials::MediaKind::Audio {
        return Ok(None);
    }
    let made = store::materials::provenance(db, m.merchant_id, m.id).await?;
    if !domain::clip::aigc::Provenance::parse(&made).is_generated() {
        return Ok(Some((m.storage_key, m.mime)));
    }
    let key = cued_key(&m.storage_key);
    if storage.exists(&key).await {
        return Ok(Some((key, "audio/mp4".into())));
    }
    let file = storage
        .local_copy(&m.storage_key)
        .await
        .map_err(|e| internal(e.to_string()))?;
    // The material's own implicit label when it has one (its content id), else a new one.
    let meta = match media::aigc::mp4_tag(file.path()).await {
        Some(meta) => meta,
        None => crate::aigc::meta(db, m.merchant_id, &format!("voice{}", m.id)).await?,
    };
    let dst = storage
        .workspace()
        .temp_path("m4a")
        .await
        .map_err(|e| internal(e.to_string()))?;
    let made = media::aigc::audio_with_cue(file.path(), &dst, &meta).await;
    let put = match made {
        Ok(()) => storage
            .put_file(&key, &dst)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    let _ = tokio::fs::remove_file(&dst).await;
    put.map_err(internal)?;
    Ok(Some((key, "audio/mp4".into())))
}
