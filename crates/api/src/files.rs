//! Serving stored media to the browser by its signed links (`services::links`), with HTTP
//! Range, so the player can seek.

use crate::areas::materials::views::MediaFile;
use crate::state::AppState;
use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use services::links::{self, VARIANTS};
use services::materials::serve as stored;

pub fn url(st: &AppState, id: i64, variant: &str) -> String {
    links::url(&st.jwt_key, id, variant)
}

pub fn permanent_url(st: &AppState, id: i64, variant: &str) -> String {
    links::permanent_url(&st.jwt_key, id, variant)
}

/// What a library list shows for one file: its row plus signed URLs of what exists.
#[derive(Debug, Serialize, ToSchema)]
pub struct MediaView {
    #[serde(flatten)]
    pub file: MediaFile,
    pub src: String,
    #[serde(rename = "fileName")]
    pub file_name: String,
    /// The poster; an image is its own poster; null when there is none (yet).
    pub poster: Option<String>,
    pub strip: Option<String>,
    pub mezzanine: Option<String>,
    /// A voice material's download (an attachment): generated speech with its audible AI cue before
    /// it (the player's `src` stays the plain speech the subtitles are timed to); null elsewhere.
    pub download: Option<String>,
}

pub fn view(st: &AppState, m: &services::materials::library::MediaFile) -> MediaView {
    let src = url(st, m.id, "original");
    let signed = |key: &str, what: &str| (!key.is_empty()).then(|| url(st, m.id, what));
    MediaView {
        file: m.clone().into(),
        poster: signed(&m.poster_key, "poster")
            .or_else(|| (m.kind == domain::materials::MediaKind::Image).then(|| src.clone())),
        src,
        file_name: m.original_name.clone(),
        strip: signed(&m.strip_key, "strip"),
        mezzanine: signed(&m.mezzanine_key, "mezzanine"),
        // The same signed link, answered as an attachment (`dl=1`).
        download: (m.library == "voice" && m.kind == domain::materials::MediaKind::Audio)
            .then(|| format!("{}&dl=1", url(st, m.id, "listen"))),
    }
}

#[derive(Deserialize)]
pub struct Sig {
    #[serde(default)]
    e: i64,
    #[serde(default)]
    s: String,
    /// `1`: answer an attachment (a download link, `services::links::download_url`).
    #[serde(default)]
    dl: u8,
}

pub async fn serve(
    State(st): State<AppState>,
    Path((id, variant)): Path<(i64, String)>,
    Query(q): Query<Sig>,
    req: Request,
) -> Response {
    if !VARIANTS.contains(&variant.as_str()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    if !links::verify(&st.jwt_key, id, &variant, q.e, &q.s) {
        return StatusCode::FORBIDDEN.into_response();
    }
    if q.e < domain::now_ms() {
        return (StatusCode::GONE, "link expired").into_response();
    }
    if variant == "sample" {
        return sample(&st, id, req).await;
    }
    let source = match variant.as_str() {
        "listen" => stored::listen(&st.db, &st.storage, id).await,
        _ => stored::source(&st.db, id, &variant).await,
    };
    match source {
        Ok(Some((key, mime))) if q.dl == 1 => {
            let ext = mime_guess::get_mime_extensions_str(&mime)
                .and_then(|e| e.iter().find(|e| **e == "mp4").or(e.first()))
                .copied()
                .unwrap_or("bin");
            attachment(
                send(&st, &key, &mime, req).await,
                &format!("clipmatrix-{variant}-{id}.{ext}"),
            )
        }
        Ok(Some((key, mime))) => send(&st, &key, &mime, req).await,
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => crate::error::HttpError(e).into_response(),
    }
}

/// Names a successful answer an attachment (a download), as `name`.
fn attachment(mut res: Response, name: &str) -> Response {
    use axum::http::{HeaderValue, header};
    if res.status().is_success()
        && let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
    {
        res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    res
}

#[derive(Deserialize)]
pub struct ZipSig {
    #[serde(default)]
    m: i64,
    #[serde(default)]
    ids: String,
    #[serde(default)]
    e: i64,
    #[serde(default)]
    s: String,
}

/// CRC-32s of stored files a zip has read (by key and size), so a resumed zip skips the entries
/// before its range without reading them again. Only a shortcut: a node that does not know one
/// reads the entry. Bounded: emptied when full.
static ZIP_CRCS: std::sync::LazyLock<
    std::sync::Mutex<std::collections::HashMap<(String, u64), u32>>,
> = std::sync::LazyLock::new(Default::default);
const ZIP_CRCS_MAX: usize = 10_000;

/// A zip of a merchant's finished videos by its signed link (`services::links::zip_url`), streamed as
/// it is written (`crate::zipstream`: STORE, no file in memory), its length said up front. The videos
/// are checked again (still the merchant's, still finished) before the first byte. Resumable: the
/// same link is the same bytes (its time is the link's issue time), named by a strong `ETag`, so a
/// browser's `Range` + `If-Range` gets the rest of an interrupted download (206).
pub async fn zip(State(st): State<AppState>, Query(q): Query<ZipSig>, req: Request) -> Response {
    use crate::zipstream;
    use axum::http::{HeaderValue, header};
    if !links::verify_zip(&st.jwt_key, q.m, &q.ids, q.e, &q.s) {
        return StatusCode::FORBIDDEN.into_response();
    }
    if q.e < domain::now_ms() {
        return (StatusCode::GONE, "link expired").into_response();
    }
    let Ok(ids) = q
        .ids
        .split(',')
        .map(str::parse::<i64>)
        .collect::<Result<Vec<_>, _>>()
    else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let files = match services::clip::library::downloads(&st.db, &st.storage, q.m, &ids).await {
        Ok(f) => f,
        Err(e) => return crate::error::HttpError(e).into_response(),
    };
    let entries: Vec<zipstream::Entry> = files
        .iter()
        .map(|f| zipstream::Entry {
            name: f.name.clone(),
            size: f.size,
        })
        .collect();
    let len = zipstream::zip_len(&entries);
    let at = zipstream::dos_time(q.e - links::DOWNLOAD_TTL_MS);
    let etag = zip_etag(&files, at);
    let window = match zip_window(req.headers(), &etag, len) {
        Ok(w) => w,
        Err(res) => return res,
    };
    let known: Vec<Option<u32>> = {
        let crcs = ZIP_CRCS.lock().unwrap_or_else(|p| p.into_inner());
        files
            .iter()
            .map(|f| crcs.get(&(f.key.clone(), f.size)).copied())
            .collect()
    };
    let keys: Vec<(String, u64)> = files.into_iter().map(|f| (f.key, f.size)).collect();
    let storage = st.storage.clone();
    // A few chunks in flight: the writer waits for the client, so memory does not grow with the zip.
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    tokio::spawn(async move {
        let open = |i: usize, from: u64| {
            let storage = storage.clone();
            let key = keys[i].0.clone();
            async move {
                let range = (from > 0).then_some((from, None));
                storage
                    .get(&key, range)
                    .await
                    .map(|o| o.body)
                    .map_err(std::io::Error::other)
            }
        };
        let learned = zipstream::write(&entries, at, window, &known, open, &tx).await;
        let mut crcs = ZIP_CRCS.lock().unwrap_or_else(|p| p.into_inner());
        if crcs.len() + learned.len() > ZIP_CRCS_MAX {
            crcs.clear();
        }
        for (i, crc) in learned {
            crcs.insert(keys[i].clone(), crc);
        }
    });
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|chunk| (chunk, rx))
    });
    let mut res = Response::new(axum::body::Body::from_stream(body));
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/zip"),
    );
    h.insert(
        header::CONTENT_LENGTH,
        HeaderValue::from(window.end - window.start),
    );
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"clipmatrix-videos-{}.zip\"",
        ids.len()
    )) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    if window != zipstream::Window::all(len) {
        *res.status_mut() = StatusCode::PARTIAL_CONTENT;
        if let Ok(v) =
            HeaderValue::from_str(&format!("bytes {}-{}/{len}", window.start, window.end - 1))
        {
            res.headers_mut().insert(header::CONTENT_RANGE, v);
        }
    }
    res
}

/// A zip's strong entity tag: its entries (stored file, size, name, in order) and its time. A video
/// that changed since the interrupted download gives another tag, so `If-Range` sends it whole.
fn zip_etag(files: &[services::clip::library::Download], at: (u16, u16)) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for f in files {
        h.update(format!("{}\n{}\n{}\n", f.key, f.size, f.name));
    }
    h.update(format!("{}:{}", at.0, at.1));
    let d = h.finalize();
    let hex: String = d[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"z{hex}\"")
}

/// The part of a zip of `len` bytes a request asks for: a single `Range` (when its `If-Range`, if
/// any, names this zip), else all of it; a range past the end is 416.
fn zip_window(
    h: &axum::http::HeaderMap,
    etag: &str,
    len: u64,
) -> Result<crate::zipstream::Window, Response> {
    use crate::zipstream::Window;
    use axum::http::header;
    let all = Window::all(len);
    let same = h
        .get(header::IF_RANGE)
        .map(|v| v.to_str().ok() == Some(etag))
        .unwrap_or(true);
    let Some(asked) = same
        .then(|| h.get(header::RANGE))
        .flatten()
        .and_then(|v| v.to_str().ok())
        .and_then(parse_range)
    else {
        return Ok(all);
    };
    let (start, end) = match asked {
        Asked::From(a, b) => (a, b.map_or(len, |b| (b + 1).min(len))),
        Asked::Last(n) => (len.saturating_sub(n), len),
    };
    if start >= len || start >= end {
        return Err((
            StatusCode::RANGE_NOT_SATISFIABLE,
            [(header::CONTENT_RANGE, format!("bytes */{len}"))],
        )
            .into_response());
    }
    Ok(Window { start, end })
}

/// A voice's sample (the engine's list, by index; made on first play).
async fn sample(st: &AppState, id: i64, req: Request) -> Response {
    let Some(v) = usize::try_from(id)
        .ok()
        .and_then(|i| st.ai.catalog().voices().get(i))
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match services::ai::sample(&st.ai, &st.storage, v.id).await {
        Ok(key) => send(st, &key, "audio/mp4", req).await,
        Err(e) => crate::error::HttpError(e).into_response(),
    }
}

/// Streams a stored file, honouring a single `Range: bytes=a-b` (the player seeks with it).
/// How long a store's presigned URL lives: past our own link's life is harmless (the redirect is only
/// handed out while the link is valid), and an hour covers watching a long video.
const SIGNED_TTL_SECS: u64 = 3600;

async fn send(st: &AppState, key: &str, mime: &str, req: Request) -> Response {
    use axum::http::{HeaderValue, header};
    use stored::StorageError;
    // A store that signs its own URLs (S3) serves the bytes itself: the player follows the redirect
    // and its range requests go straight to the store, not through this node.
    if !key.is_empty()
        && let Some(url) = st.storage.store().signed_url(key, SIGNED_TTL_SECS)
    {
        return (
            StatusCode::TEMPORARY_REDIRECT,
            [
                (header::LOCATION, url),
                (header::CACHE_CONTROL, "private, max-age=300".into()),
            ],
        )
            .into_response();
    }
    let asked = req
        .headers()
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .and_then(parse_range);
    let range = match asked {
        None => None,
        Some(Asked::From(start, end)) => Some((start, end.map(|e| e + 1))),
        // The last n bytes: the size comes first.
        Some(Asked::Last(n)) => match st.storage.get(key, Some((0, Some(0)))).await {
            Ok(o) => Some((o.size.saturating_sub(n), None)),
            Err(_) => return StatusCode::NOT_FOUND.into_response(),
        },
    };
    let obj = match st.storage.get(key, range).await {
        Ok(o) => o,
        Err(StorageError::NotFound(_) | StorageError::BadKey(_)) => {
            return StatusCode::NOT_FOUND.into_response();
        }
        Err(StorageError::BadRange { size, .. }) => {
            return (
                StatusCode::RANGE_NOT_SATISFIABLE,
                [(header::CONTENT_RANGE, format!("bytes */{size}"))],
            )
                .into_response();
        }
        Err(e) => {
            tracing::error!(error = %e, "serving a stored file");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let mut res = Response::new(axum::body::Body::from_stream(chunks(obj.body)));
    *res.status_mut() = if range.is_some() {
        StatusCode::PARTIAL_CONTENT
    } else {
        StatusCode::OK
    };
    let h = res.headers_mut();
    let value = |s: String| HeaderValue::from_str(&s).unwrap_or(HeaderValue::from_static(""));
    h.insert(
        header::CONTENT_TYPE,
        value(if mime.is_empty() {
            "application/octet-stream".into()
        } else {
            mime.to_string()
        }),
    );
    h.insert(
        header::CONTENT_LENGTH,
        value((obj.end - obj.start).to_string()),
    );
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, max-age=3600"),
    );
    if range.is_some() {
        h.insert(
            header::CONTENT_RANGE,
            value(format!(
                "bytes {}-{}/{}",
                obj.start,
                obj.end.saturating_sub(1),
                obj.size
            )),
        );
    }
    res
}

/// A `Range` header we serve: one range, from a byte (to a byte), or the last n bytes.
#[derive(Debug, PartialEq)]
pub enum Asked {
    From(u64, Option<u64>),
    Last(u64),
}

/// `bytes=a-b`, `bytes=a-` or `bytes=-n`; anything else (several ranges, other units) is served whole.
pub fn parse_range(v: &str) -> Option<Asked> {
    let spec = v.trim().strip_prefix("bytes=")?;
    if spec.contains(',') {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    match (a.trim(), b.trim()) {
        ("", n) => n.parse().ok().map(Asked::Last),
        (a, "") => a.parse().ok().map(|a| Asked::From(a, None)),
        (a, b) => {
            let (a, b) = (a.parse().ok()?, b.parse().ok()?);
            (a <= b).then_some(Asked::From(a, Some(b)))
        }
    }
}

/// The body as a stream of 64 KiB chunks.
fn chunks(
    body: stored::Body,
) -> impl futures_util::Stream<Item = std::io::Result<axum::body::Bytes>> {
    use futures_util::StreamExt;
    futures_util::stream::unfold(Some(body), |body| async move {
        use tokio::io::AsyncReadExt;
        let mut body = body?;
        let mut buf = vec![0u8; 64 * 1024];
        match body.read(&mut buf).await {
            Ok(0) => None,
            Ok(n) => {
                buf.truncate(n);
                Some((Ok(axum::body::Bytes::from(buf)), Some(body)))
            }
            Err(e) => Some((Err(e), None)),
        }
    })
    // The compression layer (audio/* is compressible) polls once more after the end: fused, that is
    // a second end instead of unfold's panic.
    .fuse()
}
