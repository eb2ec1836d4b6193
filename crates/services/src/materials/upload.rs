//! Storing received files: typed by their bytes, size-checked, probed, then moved into storage and
//! recorded (video and audio with an ingest job) — or refused with the SPEC message, leaving nothing
//! behind in storage or the database. Finishing a chunked upload runs the same checks.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::materials::IngestState;
use domain::materials::MediaKind;
use media::magic::sniff;
/// What a file is, told from its bytes (the upload calls name what they accept by these).
pub use media::magic::{Class, Kind, clean_name};
use std::path::{Path, PathBuf};
use store::Db;
use store::materials::{self as mat, MediaFile, NewMedia};

/// A chunked upload under way.
pub use store::materials::UploadSession;

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

pub fn too_large(class: Class) -> ApiError {
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

/// Stores a received file owned by no merchant under `<folder>/<random>.<ext>`; its key.
pub async fn keep_as(storage: &media::Storage, folder: &str, rec: &Received) -> ApiResult<String> {
    let key = format!(
        "{folder}/{}.{}",
        store::random_token(20).to_lowercase(),
        rec.kind.ext()
    );
    storage
        .put_file(&key, &rec.path)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    Ok(key)
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
    db: &Db,
    storage: &media::Storage,
    merchant_id: i64,
    rec: Received,
    a: &Accept,
    group_id: i64,
    display_name: Option<&str>,
) -> ApiResult<MediaFile> {
    let class = rec.kind.class();
    if let Some(n) = display_name {
        domain::validate::plain_text("name", n)?;
    }
    let mut m = NewMedia {
        merchant_id,
        library: a.library.to_string(),
        kind: match class {
            Class::Video => MediaKind::Video,
            Class::Image => MediaKind::Image,
            Class::Audio => MediaKind::Audio,
            Class::Font => MediaKind::Font,
            Class::Other => MediaKind::Other,
        },
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
        state: IngestState::Ready,
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
        m.state = IngestState::Processing;
    }
    let key = media::Storage::new_key(merchant_id, rec.kind.ext());
    storage
        .put_file(&key, &rec.path)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    m.storage_key = key.clone();
    match store::materials::insert(db, &m, ingest).await {
        Ok(row) => Ok(row),
        Err(e) => {
            // Nothing half-written: the stored file goes if its row could not be recorded.
            let _ = storage.delete(&key).await;
            Err(e.into())
        }
    }
}

/// The library a chunked upload goes into, and what it accepts there.
pub fn library_accept(library: &str) -> ApiResult<Accept> {
    const VI: &[Class] = &[Class::Video, Class::Image];
    const ANY: &[Class] = &[Class::Video, Class::Image, Class::Audio];
    Ok(match library {
        "resource" => Accept {
            library: "resource",
            classes: VI,
            icons: false,
        },
        "upload" | "" => Accept {
            library: "upload",
            classes: ANY,
            icons: false,
        },
        "video" => Accept {
            library: "video",
            classes: &[Class::Video],
            icons: false,
        },
        "voice" => Accept {
            library: "voice",
            classes: &[Class::Audio],
            icons: false,
        },
        "music" => Accept {
            library: "music",
            classes: &[Class::Audio],
            icons: false,
        },
        other => {
            return Err(ApiError::invalid_with(
                "library",
                Msg::InvalidValue,
                vec![(
                    "reason",
                    format!("'{other}': resource | upload | video | voice | music"),
                )],
            ));
        }
    })
}

/// SPEC §9: the upload signature policy's default max size.
pub const POLICY_MAX: i64 = 5 * 1024 * 1024 * 1024;
pub const CHUNK: i64 = 5 * 1024 * 1024;
const SESSION_TTL_MS: i64 = 24 * 3_600_000;

/// Opens a resumable upload of `size` bytes into a library (checked by the caller) and group.
pub async fn open_session(
    db: &Db,
    mid: i64,
    user_id: i64,
    a: &Accept,
    file_name: &str,
    size: i64,
    group_id: i64,
) -> ApiResult<UploadSession> {
    domain::validate::plain_text("file_name", file_name)?;
    let name = media::magic::clean_name(file_name)
        .ok_or(ApiError::invalid("file_name", Msg::FileNameInvalid))?;
    if size <= 0 {
        return Err(ApiError::invalid("file", Msg::FileEmpty));
    }
    let cap = a
        .classes
        .iter()
        .map(|c| max_bytes(*c))
        .max()
        .unwrap_or(0)
        .min(POLICY_MAX);
    if size > cap {
        return Err(ApiError::invalid_with(
            "file",
            Msg::FileTooLarge,
            vec![("n", (cap / 1024 / 1024).to_string())],
        ));
    }
    if group_id != 0 && mat::group(db, mid, group_id).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    let now = domain::now_ms();
    let s = UploadSession {
        id: store::random_token(18),
        merchant_id: mid,
        user_id,
        file_name: name,
        size,
        chunk_size: CHUNK,
        chunks: String::new(),
        library: a.library.to_string(),
        group_id,
        expires_at: now + SESSION_TTL_MS,
        created_at: now,
    };
    mat::create_upload(db, &s).await?;
    Ok(s)
}

/// How many bytes chunk `index` of a session must have (the last one: the rest).
pub fn chunk_len(s: &UploadSession, index: i64) -> ApiResult<i64> {
    if index < 0 || index >= s.total_chunks() {
        return Err(ApiError::invalid_with(
            "chunk",
            Msg::ChunkInvalid,
            vec![("reason", format!("index {index} of {}", s.total_chunks()))],
        ));
    }
    Ok(if index == s.total_chunks() - 1 {
        s.size - index * s.chunk_size
    } else {
        s.chunk_size
    })
}

/// Writes one chunk at its offset into the session's part file (idempotent, any order) and records
/// it; returns the session now.
pub async fn write_chunk(
    db: &Db,
    storage: &media::Storage,
    s: &UploadSession,
    index: i64,
    data: Vec<u8>,
) -> ApiResult<UploadSession> {
    use std::io::{Seek, SeekFrom, Write};
    let path = storage.upload_part(&s.id);
    let offset = index * s.chunk_size;
    tokio::task::spawn_blocking(move || -> std::io::Result<()> {
        std::fs::create_dir_all(path.parent().expect("part files live in .tmp"))?;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)?;
        f.seek(SeekFrom::Start(offset as u64))?;
        f.write_all(&data)?;
        f.sync_data()
    })
    .await
    .map_err(|e| ApiError::Internal(e.into()))?
    .map_err(|e| ApiError::Internal(e.into()))?;
    mat::mark_chunk(db, &s.id, index).await?;
    session(db, s.merchant_id, &s.id).await
}

/// One of the merchant's unexpired upload sessions.
pub async fn session(db: &Db, mid: i64, upload_id: &str) -> ApiResult<UploadSession> {
    mat::upload(db, mid, upload_id)
        .await?
        .ok_or(ApiError::invalid("upload_id", Msg::UploadExpired))
}

/// Finishes a chunked upload whose chunks are all there: the part file (every chunk written at its
/// offset) is checked like a direct upload, stored and recorded (video and audio queue their ingest).
/// The session is spent either way.
pub async fn finish(
    db: &Db,
    storage: &media::Storage,
    s: UploadSession,
    name: Option<&str>,
) -> ApiResult<MediaFile> {
    let missing = s.total_chunks() - s.received().len() as i64;
    if missing > 0 {
        return Err(ApiError::invalid_with(
            "upload_id",
            Msg::UploadIncomplete,
            vec![("missing", missing.to_string())],
        ));
    }
    let a = library_accept(&s.library)?;
    let path = storage.upload_part(&s.id);
    let head = {
        use std::io::Read;
        let mut h = [0u8; 64];
        let n = std::fs::File::open(&path)
            .and_then(|mut f| f.read(&mut h))
            .map_err(|e| ApiError::Internal(e.into()))?;
        h[..n].to_vec()
    };
    // The session is spent either way: a refused file cannot be finished twice.
    mat::delete_upload(db, &s.id).await?;
    let kind = match check_kind(&head, &a) {
        Ok(k) => k,
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
    };
    let rec = Received::adopt(path, s.size, kind, s.file_name.clone());
    if s.size > max_bytes(kind.class()) {
        return Err(too_large(kind.class()));
    }
    store_received(db, storage, s.merchant_id, rec, &a, s.group_id, name).await
}
