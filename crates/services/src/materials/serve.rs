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
