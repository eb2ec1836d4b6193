//! Resumable uploads for large videos: an expiring, signed upload policy; chunks written at their
//! offset into one part file (idempotent, any order); the status call tells a reloaded page which chunks
//! are already there; finishing runs the same checks as a direct upload.

use super::files::view;
use super::upload::{self, Accept, Received};
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::{Multipart, State};
use domain::i18n::Msg;
use hmac::{Hmac, Mac};
use media::magic::{Class, clean_name};
use serde::Deserialize;
use sha2::Sha256;
use std::io::{Seek, SeekFrom, Write};
use store::materials::{self as mat, UploadSession};
use utoipa::ToSchema;

/// SPEC §9: the upload signature policy's default max size.
pub const POLICY_MAX: i64 = 5 * 1024 * 1024 * 1024;
pub const CHUNK: i64 = 5 * 1024 * 1024;
const TTL_MS: i64 = 24 * 3_600_000;

fn library_accept(library: &str) -> ApiResult<Accept> {
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

fn part_path(st: &AppState, id: &str) -> std::path::PathBuf {
    st.storage.upload_part(id)
}

fn signature(st: &AppState, s: &UploadSession) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(&st.jwt_key).expect("any key length works for HMAC");
    mac.update(
        format!(
            "upload:{}:{}:{}:{}",
            s.id, s.merchant_id, s.size, s.expires_at
        )
        .as_bytes(),
    );
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn status(st: &AppState, s: &UploadSession) -> serde_json::Value {
    serde_json::json!({
        "upload_id": s.id,
        "file_name": s.file_name,
        "size": s.size,
        "chunk_size": s.chunk_size,
        "total_chunks": s.total_chunks(),
        "received": s.received(),
        "expires_at": s.expires_at,
        "max_size": POLICY_MAX,
        "signature": signature(st, s),
        "chunk_url": format!("/api/ajax/upload_chunk?upload_id={}", s.id),
    })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PolicyReq {
    #[serde(default)]
    pub file_name: String,
    pub size: i64,
    #[serde(default)]
    pub library: String,
    #[serde(default)]
    pub group_id: i64,
}

#[utoipa::path(post, path = "/ajax/ossUpload", tag = "materials", request_body = PolicyReq, responses((status = 200, description = "upload policy {upload_id, chunk_size, total_chunks, received, expires_at, signature}")))]
pub async fn policy(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PolicyReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let a = library_accept(r.library.trim())?;
    c.may_write(a.library)?;
    domain::validate::no_bidi("file_name", &r.file_name)?;
    let name =
        clean_name(&r.file_name).ok_or(ApiError::invalid("file_name", Msg::FileNameInvalid))?;
    if r.size <= 0 {
        return Err(ApiError::invalid("file", Msg::FileEmpty));
    }
    let cap = a
        .classes
        .iter()
        .map(|c| upload::max_bytes(*c))
        .max()
        .unwrap_or(0)
        .min(POLICY_MAX);
    if r.size > cap {
        return Err(ApiError::invalid_with(
            "file",
            Msg::FileTooLarge,
            vec![("n", (cap / 1024 / 1024).to_string())],
        ));
    }
    if r.group_id != 0 && mat::group(&st.db, mid, r.group_id).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    let now = domain::now_ms();
    let s = UploadSession {
        id: store::random_token(18),
        merchant_id: mid,
        user_id: c.user.id,
        file_name: name,
        size: r.size,
        chunk_size: CHUNK,
        chunks: String::new(),
        library: a.library.to_string(),
        group_id: r.group_id,
        expires_at: now + TTL_MS,
        created_at: now,
    };
    mat::create_upload(&st.db, &s).await?;
    Ok(ok(status(&st, &s)))
}

#[derive(Debug, Deserialize)]
pub struct YunReq {
    #[serde(default)]
    pub upload_id: Option<String>,
}

#[utoipa::path(method(get, post), path = "/ajax/getYunData", tag = "materials", responses((status = 200, description = "storage settings, and an upload's received chunks when upload_id is given")))]
pub async fn yun_data(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<YunReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let upload = match r.upload_id.as_deref().filter(|s| !s.is_empty()) {
        Some(id) => Some(status(
            &st,
            &mat::upload(&st.db, mid, id)
                .await?
                .ok_or(ApiError::invalid("upload_id", Msg::UploadExpired))?,
        )),
        None => None,
    };
    Ok(ok(serde_json::json!({
        "driver": "local",
        "chunk_size": CHUNK,
        "max_size": POLICY_MAX,
        "video_max": upload::VIDEO_MAX,
        "image_max": upload::IMAGE_MAX,
        "upload": upload,
    })))
}

#[derive(Debug, Deserialize)]
pub struct ChunkQuery {
    pub upload_id: String,
    pub index: i64,
}

#[utoipa::path(post, path = "/ajax/upload_chunk", tag = "materials", params(("upload_id" = String, Query), ("index" = i64, Query)), request_body(content_type = "multipart/form-data", description = "file: the chunk's bytes"), responses((status = 200, description = "{received, total_chunks}")))]
pub async fn chunk(
    State(st): State<AppState>,
    c: Caller,
    axum::extract::Query(q): axum::extract::Query<ChunkQuery>,
    mut mp: Multipart,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let s = mat::upload(&st.db, mid, &q.upload_id)
        .await?
        .ok_or(ApiError::invalid("upload_id", Msg::UploadExpired))?;
    c.may_write(&s.library)?;
    if q.index < 0 || q.index >= s.total_chunks() {
        return Err(ApiError::invalid_with(
            "chunk",
            Msg::ChunkInvalid,
            vec![(
                "reason",
                format!("index {} of {}", q.index, s.total_chunks()),
            )],
        ));
    }
    let expected = if q.index == s.total_chunks() - 1 {
        s.size - q.index * s.chunk_size
    } else {
        s.chunk_size
    };
    let mut field = loop {
        let f = mp.next_field().await.map_err(|e| {
            ApiError::invalid_with("chunk", Msg::ChunkInvalid, vec![("reason", e.body_text())])
        })?;
        match f {
            Some(f) if f.name() == Some("file") => break f,
            Some(_) => continue,
            None => return Err(ApiError::invalid("file", Msg::Required)),
        }
    };
    let mut data = Vec::with_capacity(expected as usize);
    while let Some(b) = field.chunk().await.map_err(|e| {
        ApiError::invalid_with("chunk", Msg::ChunkInvalid, vec![("reason", e.body_text())])
    })? {
        if (data.len() + b.len()) as i64 > expected {
            return Err(ApiError::invalid_with(
                "chunk",
                Msg::ChunkInvalid,
                vec![("reason", format!("more than {expected} bytes"))],
            ));
        }
        data.extend_from_slice(&b);
    }
    if data.len() as i64 != expected {
        return Err(ApiError::invalid_with(
            "chunk",
            Msg::ChunkInvalid,
            vec![(
                "reason",
                format!("{} bytes, expected {expected}", data.len()),
            )],
        ));
    }
    let path = part_path(&st, &s.id);
    let offset = q.index * s.chunk_size;
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
    mat::mark_chunk(&st.db, &s.id, q.index).await?;
    let s = mat::upload(&st.db, mid, &s.id)
        .await?
        .ok_or(ApiError::invalid("upload_id", Msg::UploadExpired))?;
    Ok(ok(
        serde_json::json!({ "received": s.received(), "total_chunks": s.total_chunks() }),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FinishReq {
    pub upload_id: String,
    #[serde(default)]
    pub name: Option<String>,
}

#[utoipa::path(post, path = "/ajax/add_upfile", tag = "materials", request_body = FinishReq, responses((status = 200, description = "{fileName, src, ...}: the stored material")))]
pub async fn finish(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<FinishReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let s = mat::upload(&st.db, mid, &r.upload_id)
        .await?
        .ok_or(ApiError::invalid("upload_id", Msg::UploadExpired))?;
    c.may_write(&s.library)?;
    let missing = s.total_chunks() - s.received().len() as i64;
    if missing > 0 {
        return Err(ApiError::invalid_with(
            "upload_id",
            Msg::UploadIncomplete,
            vec![("missing", missing.to_string())],
        ));
    }
    let a = library_accept(&s.library)?;
    let path = part_path(&st, &s.id);
    let head = {
        use std::io::Read;
        let mut h = [0u8; 64];
        let n = std::fs::File::open(&path)
            .and_then(|mut f| f.read(&mut h))
            .map_err(|e| ApiError::Internal(e.into()))?;
        h[..n].to_vec()
    };
    // The session is spent either way: a refused file cannot be finished twice.
    mat::delete_upload(&st.db, &s.id).await?;
    let kind = match upload::check_kind(&head, &a) {
        Ok(k) => k,
        Err(e) => {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
    };
    let rec = Received::adopt(path, s.size, kind, s.file_name.clone());
    if s.size > upload::max_bytes(kind.class()) {
        return Err(ApiError::invalid_with(
            "file",
            Msg::FileTooLarge,
            vec![(
                "n",
                (upload::max_bytes(kind.class()) / 1024 / 1024).to_string(),
            )],
        ));
    }
    let m = upload::store_received(&st, mid, rec, &a, s.group_id, r.name.as_deref()).await?;
    Ok(ok(view(&st, &m)))
}
