//! Receiving files: streamed to a temporary file (never held whole in memory), typed by their bytes
//! and size-checked while they arrive; `services::materials::upload` stores and records them.

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::multipart::{Field, Multipart};
use domain::i18n::Msg;
pub use services::materials::upload::{
    AUDIO_MAX, Accept, FONT_MAX, IMAGE_MAX, Kind, Received, VIDEO_MAX, VIDEO_MAX_MS, check_kind,
    clean_name, max_bytes, too_large,
};
use std::collections::HashMap;
use tokio::io::AsyncWriteExt;

/// Streams one multipart field to a temporary file, checking type on the first bytes and size as it goes.
pub async fn receive_field(st: &AppState, mut field: Field<'_>, a: &Accept) -> ApiResult<Received> {
    // A name that tries to climb out of a folder is refused outright, not quietly cleaned.
    let raw = field.file_name().unwrap_or("");
    if raw.contains(['/', '\\']) || raw.split('.').all(str::is_empty) {
        return Err(ApiError::invalid("file", Msg::FileNameInvalid));
    }
    domain::validate::plain_text("file", raw)?;
    let original_name = clean_name(raw).ok_or(ApiError::invalid("file", Msg::FileNameInvalid))?;
    let path = st
        .storage
        .temp_path("part")
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let mut rec = Received::adopt(path, 0, Kind::Other, original_name);
    let mut file = tokio::fs::File::create(&rec.path)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let mut head: Vec<u8> = Vec::with_capacity(64);
    let mut limit = i64::MAX;
    while let Some(chunk) = field.chunk().await.map_err(|e| {
        ApiError::invalid_with("file", Msg::InvalidValue, vec![("reason", e.body_text())])
    })? {
        if head.len() < 64 {
            head.extend_from_slice(&chunk[..chunk.len().min(64 - head.len())]);
            if head.len() >= 16 && rec.kind == Kind::Other {
                rec.kind = check_kind(&head, a)?;
                limit = max_bytes(rec.kind.class());
            }
        }
        rec.size += chunk.len() as i64;
        if rec.size > limit {
            return Err(too_large(rec.kind.class()));
        }
        file.write_all(&chunk)
            .await
            .map_err(|e| ApiError::Internal(e.into()))?;
    }
    file.flush()
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    if rec.size == 0 {
        return Err(ApiError::invalid("file", Msg::FileEmpty));
    }
    if rec.kind == Kind::Other {
        rec.kind = check_kind(&head, a)?;
        if rec.size > max_bytes(rec.kind.class()) {
            return Err(too_large(rec.kind.class()));
        }
    }
    Ok(rec)
}

/// Reads a multipart body: the `file` field streamed to disk, the other fields as text. What the file
/// may be is decided by `pick` from the fields sent before it (a `type` field chooses the library).
pub async fn receive(
    st: &AppState,
    mut mp: Multipart,
    pick: impl Fn(&HashMap<String, String>) -> ApiResult<Accept>,
) -> ApiResult<(Received, Accept, HashMap<String, String>)> {
    let mut fields = HashMap::new();
    let mut file = None;
    while let Some(f) = mp.next_field().await.map_err(|e| {
        ApiError::invalid_with("file", Msg::InvalidValue, vec![("reason", e.body_text())])
    })? {
        let name = f.name().unwrap_or("").to_string();
        if name == "file" && file.is_none() {
            let a = pick(&fields)?;
            file = Some((receive_field(st, f, &a).await?, a));
        } else if f.file_name().is_none() {
            let v = f.text().await.map_err(|e| {
                ApiError::invalid_with(&name, Msg::InvalidValue, vec![("reason", e.body_text())])
            })?;
            fields.insert(name, v.chars().take(1000).collect());
        }
    }
    let (file, a) = file.ok_or(ApiError::invalid("file", Msg::Required))?;
    Ok((file, a, fields))
}
