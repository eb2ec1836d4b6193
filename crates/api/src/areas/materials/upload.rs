//! Receiving files: streamed to a temporary file (never held whole in memory), typed by their bytes,
//! size-checked while they arrive, probed, then moved into storage and recorded — or refused with the
//! SPEC message, leaving nothing behind in storage or the database.

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::multipart::{Field, Multipart};
use domain::i18n::Msg;
use media::magic::{Class, Kind, clean_name, sniff};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use store::materials::{MediaFile, NewMedia};
use tokio::io::AsyncWriteExt;

const MB: i64 = 1024 * 1024;
/// SPEC §5: video ≤ 300 MB and about 15 minutes; images under 10 MB.
pub const VIDEO_MAX: i64 = 300 * MB;
pub const VIDEO_MAX_MS: i64 = 15 * 60_000 + 30_000;
pub const IMAGE_MAX: i64 = 10 * MB;
pub const AUDIO_MAX: i64 = 100 * MB;
pub const FONT_MAX: i64 = 30 * MB;

/// What one upload call accepts and where the file goes.
#[derive(Debug, Clone, Copy)]
pub struct Accept {
    pub library: &'static str,
    pub classes: &'static [Class],
    /// `.ico` only where icons are uploaded.
    pub icons: bool,
}

pub fn max_bytes(class: Class) -> i64 {
    match class {
        Class::Video => VIDEO_MAX,
        Class::Image => IMAGE_MAX,
        Class::Audio => AUDIO_MAX,
        Class::Font => FONT_MAX,
        Class::Other => 0,
    }
}

fn allowed_names(a: &Accept) -> String {
    a.classes
        .iter()
        .map(|c| match c {
            Class::Video => "mp4/mov/mkv/avi/flv",
            Class::Image => "jpg/png/gif",
            Class::Audio => "mp3/m4a/aac/wav/ogg/flac",
            Class::Font => "ttf/otf",
            Class::Other => "",
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn too_large(class: Class) -> ApiError {
    ApiError::invalid_with(
        "file",
        Msg::FileTooLarge,
        vec![("n", (max_bytes(class) / MB).to_string())],
    )
}

/// Is a file of this kind accepted by this call? The SPEC's image message where only images are taken.
pub fn kind_allowed(kind: Kind, a: &Accept) -> ApiResult<()> {
    if !a.classes.contains(&kind.class()) || (kind == Kind::Ico && !a.icons) {
        if a.classes == [Class::Image] {
            return Err(ApiError::invalid("file", Msg::NotAnImage));
        }
        return Err(ApiError::invalid_with(
            "file",
            Msg::FileTypeNotAllowed,
            vec![("allowed", allowed_names(a))],
        ));
    }
    Ok(())
}

/// Decides the kind from the first bytes, against what this call accepts.
pub fn check_kind(head: &[u8], a: &Accept) -> ApiResult<Kind> {
    let kind = sniff(head);
    kind_allowed(kind, a)?;
    Ok(kind)
}

/// A file received into a temporary path; deleted when dropped unless kept.
pub struct Received {
    pub path: PathBuf,
    pub size: i64,
    pub kind: Kind,
    pub original_name: String,
    keep: bool,
}

impl Drop for Received {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Received {
    pub fn adopt(path: PathBuf, size: i64, kind: Kind, original_name: String) -> Received {
        Received {
            path,
            size,
            kind,
            original_name,
            keep: false,
        }
    }
}

/// Streams one multipart field to a temporary file, checking type on the first bytes and size as it goes.
pub async fn receive_field(st: &AppState, mut field: Field<'_>, a: &Accept) -> ApiResult<Received> {
    // A name that tries to climb out of a folder is refused outright, not quietly cleaned.
    let raw = field.file_name().unwrap_or("");
    if raw.contains(['/', '\\']) || raw.split('.').all(str::is_empty) {
        return Err(ApiError::invalid("file", Msg::FileNameInvalid));
    }
    domain::validate::no_bidi("file", raw)?;
    let original_name = clean_name(raw).ok_or(ApiError::invalid("file", Msg::FileNameInvalid))?;
    let path = st
        .storage
        .temp_path("part")
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let mut rec = Received {
        path,
        size: 0,
        kind: Kind::Other,
        original_name,
        keep: false,
    };
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

/// A TrueType/OpenType file with a plausible table directory (what font renderers need to open it).
pub fn valid_font(path: &Path) -> bool {
    let Ok(b) = std::fs::read(path) else {
        return false;
    };
    if b.len() < 12 {
        return false;
    }
    let tables = u16::from_be_bytes([b[4], b[5]]) as usize;
    if tables == 0 || tables > 200 || b.len() < 12 + tables * 16 {
        return false;
    }
    let mut names = Vec::new();
    for i in 0..tables {
        let r = &b[12 + i * 16..12 + i * 16 + 16];
        let off = u32::from_be_bytes([r[8], r[9], r[10], r[11]]) as usize;
        let len = u32::from_be_bytes([r[12], r[13], r[14], r[15]]) as usize;
        if off.checked_add(len).is_none_or(|end| end > b.len()) {
            return false;
        }
        names.push([r[0], r[1], r[2], r[3]]);
    }
    names.contains(b"cmap")
        && (names.contains(b"glyf") || names.contains(b"CFF ") || names.contains(b"CFF2"))
}

/// An image decodes and is within the pixel limit, or a 422 on `file`; returns its size.
async fn check_image(path: &Path) -> ApiResult<(i64, i64)> {
    use media::image::ImageError as E;
    match media::image::check(path).await {
        Ok((w, h)) => Ok((w as i64, h as i64)),
        Err(E::TooLarge { width, height }) => Err(ApiError::invalid_with(
            "file",
            Msg::ImageTooLarge,
            vec![("size", format!("{width}x{height}"))],
        )),
        Err(E::NoSize | E::Undecodable(_)) => Err(ApiError::invalid("file", Msg::ImageUndecodable)),
        Err(E::Tool(t)) => Err(ApiError::Internal(t.into())),
        Err(E::Io(e)) => Err(ApiError::Internal(e.into())),
    }
}

/// Probes, stores and records a received file. Video and audio get an ingest job.
pub async fn store_received(
    st: &AppState,
    merchant_id: i64,
    rec: Received,
    a: &Accept,
    group_id: i64,
    display_name: Option<&str>,
) -> ApiResult<MediaFile> {
    let class = rec.kind.class();
    if let Some(n) = display_name {
        domain::validate::no_bidi("name", n)?;
    }
    let mut m = NewMedia {
        merchant_id,
        library: a.library.to_string(),
        kind: match class {
            Class::Video => "video",
            Class::Image => "image",
            Class::Audio => "audio",
            Class::Font => "font",
            Class::Other => "other",
        }
        .to_string(),
        group_id,
        name: display_name
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .unwrap_or(&rec.original_name)
            .chars()
            .take(120)
            .collect(),
        original_name: rec.original_name.clone(),
        mime: rec.kind.mime().to_string(),
        size: rec.size,
        state: "ready".into(),
        ..Default::default()
    };
    match class {
        Class::Video | Class::Audio | Class::Image => {
            let size = match class {
                Class::Image => Some(check_image(&rec.path).await?),
                _ => None,
            };
            let info = media::probe::probe(&rec.path).await.map_err(|e| match e {
                media::probe::ProbeError::Unreadable(r) => {
                    if class == Class::Image {
                        ApiError::invalid("file", Msg::NotAnImage)
                    } else {
                        ApiError::invalid_with("file", Msg::MediaUnreadable, vec![("reason", r)])
                    }
                }
                media::probe::ProbeError::Tool(t) => ApiError::Internal(t.into()),
            })?;
            if class == Class::Video && !info.has_video {
                return Err(ApiError::invalid_with(
                    "file",
                    Msg::MediaUnreadable,
                    vec![("reason", "no video stream".into())],
                ));
            }
            if class == Class::Video && info.duration_ms > VIDEO_MAX_MS {
                let minutes = format!("{:.1}", info.duration_ms as f64 / 60_000.0);
                return Err(ApiError::invalid_with(
                    "file",
                    Msg::VideoTooLong,
                    vec![("minutes", minutes)],
                ));
            }
            if class == Class::Audio && !info.has_audio {
                return Err(ApiError::invalid_with(
                    "file",
                    Msg::MediaUnreadable,
                    vec![("reason", "no audio stream".into())],
                ));
            }
            (m.width, m.height) = size.unwrap_or((info.width, info.height));
            m.duration_ms = info.duration_ms;
            m.fps = info.fps;
            m.video_codec = info.video_codec.unwrap_or_default();
            m.audio_codec = info.audio_codec.unwrap_or_default();
            m.has_audio = info.has_audio;
            m.rotation = info.rotation;
        }
        Class::Font => {
            if !valid_font(&rec.path) {
                return Err(ApiError::invalid("file", Msg::FontInvalid));
            }
        }
        Class::Other => {
            return Err(ApiError::invalid_with(
                "file",
                Msg::FileTypeNotAllowed,
                vec![("allowed", allowed_names(a))],
            ));
        }
    }
    let ingest = matches!(class, Class::Video | Class::Audio);
    if ingest {
        m.state = "processing".into();
    }
    let key = media::Storage::new_key(merchant_id, rec.kind.ext());
    st.storage
        .put_file(&key, &rec.path)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    m.storage_key = key.clone();
    match store::materials::insert(&st.db, &m, ingest).await {
        Ok(row) => Ok(row),
        Err(e) => {
            // Nothing half-written: the stored file goes if its row could not be recorded.
            let _ = st.storage.delete(&key).await;
            Err(e.into())
        }
    }
}
