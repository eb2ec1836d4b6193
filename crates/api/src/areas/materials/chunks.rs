//! Resumable uploads for large videos: an expiring, signed upload policy; chunks written at their
//! offset into one part file (idempotent, any order); the status call tells a reloaded page which chunks
//! are already there; finishing runs the same checks as a direct upload.

use super::upload;
use crate::error::{Answer, ApiError, Reply, reply};
use crate::extract::{Caller, Input};
use crate::files::{MediaView, view};
use crate::state::AppState;
use axum::extract::{Multipart, State};
use domain::i18n::Msg;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use services::materials::upload as uc;
use services::materials::upload::UploadSession;
use sha2::Sha256;
use utoipa::ToSchema;

pub use uc::{CHUNK, POLICY_MAX};

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

/// An upload session as the uploader resumes it.
#[derive(Debug, Serialize, ToSchema)]
pub struct UploadStatus {
    pub upload_id: String,
    pub file_name: String,
    pub size: i64,
    pub chunk_size: i64,
    pub total_chunks: i64,
    /// The chunk indexes already there.
    pub received: Vec<i64>,
    pub expires_at: i64,
    pub max_size: i64,
    pub signature: String,
    pub chunk_url: String,
}

fn status(st: &AppState, s: &UploadSession) -> UploadStatus {
    UploadStatus {
        upload_id: s.id.clone(),
        file_name: s.file_name.clone(),
        size: s.size,
        chunk_size: s.chunk_size,
        total_chunks: s.total_chunks(),
        received: s.received(),
        expires_at: s.expires_at,
        max_size: POLICY_MAX,
        signature: signature(st, s),
        chunk_url: format!("/api/ajax/upload_chunk?upload_id={}", s.id),
    }
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

#[utoipa::path(post, path = "/ajax/ossUpload", tag = "materials", request_body = PolicyReq, responses((status = 200, body = Reply<UploadStatus>, description = "the upload policy")))]
pub async fn policy(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PolicyReq>,
) -> Answer<UploadStatus> {
    let a = uc::library_accept(r.library.trim())?;
    c.may_write(a.library)?;
    let s = uc::open_session(
        &st.db,
        c.merchant_id()?,
        c.user.id,
        &a,
        &r.file_name,
        r.size,
        r.group_id,
    )
    .await?;
    Ok(reply(status(&st, &s)))
}

#[derive(Debug, Deserialize)]
pub struct YunReq {
    #[serde(default)]
    pub upload_id: Option<String>,
}

/// The storage settings the uploader needs.
#[derive(Debug, Serialize, ToSchema)]
pub struct YunData {
    pub driver: &'static str,
    pub chunk_size: i64,
    pub max_size: i64,
    pub video_max: i64,
    pub image_max: i64,
    /// The upload named by `upload_id`, when one was.
    pub upload: Option<UploadStatus>,
}

#[utoipa::path(method(get, post), path = "/ajax/getYunData", tag = "materials", responses((status = 200, body = Reply<YunData>, description = "storage settings, and an upload's received chunks when upload_id is given")))]
pub async fn yun_data(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<YunReq>,
) -> Answer<YunData> {
    let mid = c.merchant_id()?;
    let upload = match r.upload_id.as_deref().filter(|s| !s.is_empty()) {
        Some(id) => Some(status(&st, &uc::session(&st.db, mid, id).await?)),
        None => None,
    };
    Ok(reply(YunData {
        driver: "local",
        chunk_size: CHUNK,
        max_size: POLICY_MAX,
        video_max: upload::VIDEO_MAX,
        image_max: upload::IMAGE_MAX,
        upload,
    }))
}

/// Which chunks are there after one more.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChunkStatus {
    pub received: Vec<i64>,
    pub total_chunks: i64,
}

#[derive(Debug, Deserialize)]
pub struct ChunkQuery {
    pub upload_id: String,
    pub index: i64,
}

#[utoipa::path(post, path = "/ajax/upload_chunk", tag = "materials", params(("upload_id" = String, Query), ("index" = i64, Query)), request_body(content_type = "multipart/form-data", description = "file: the chunk's bytes"), responses((status = 200, body = Reply<ChunkStatus>)))]
pub async fn chunk(
    State(st): State<AppState>,
    c: Caller,
    axum::extract::Query(q): axum::extract::Query<ChunkQuery>,
    mut mp: Multipart,
) -> Answer<ChunkStatus> {
    let s = uc::session(&st.db, c.merchant_id()?, &q.upload_id).await?;
    c.may_write(&s.library)?;
    let expected = uc::chunk_len(&s, q.index)?;
    let mut field = loop {
        let f = mp.next_field().await.map_err(|e| {
            ApiError::invalid_with("chunk", Msg::ChunkInvalid, vec![("reason", e.body_text())])
        })?;
        match f {
            Some(f) if f.name() == Some("file") => break f,
            Some(_) => continue,
            None => return Err(ApiError::invalid("file", Msg::Required).into()),
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
            )
            .into());
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
        )
        .into());
    }
    let s = uc::write_chunk(&st.db, &st.storage, &s, q.index, data).await?;
    Ok(reply(ChunkStatus {
        received: s.received(),
        total_chunks: s.total_chunks(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FinishReq {
    pub upload_id: String,
    #[serde(default)]
    pub name: Option<String>,
}

#[utoipa::path(post, path = "/ajax/add_upfile", tag = "materials", request_body = FinishReq, responses((status = 200, body = Reply<MediaView>, description = "the stored material")))]
pub async fn finish(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<FinishReq>,
) -> Answer<MediaView> {
    let s = uc::session(&st.db, c.merchant_id()?, &r.upload_id).await?;
    c.may_write(&s.library)?;
    let m = uc::finish(&st.db, &st.storage, s, r.name.as_deref()).await?;
    Ok(reply(view(&st, &m)))
}
