//! The operator's built-in music set (merchants browse it and copy tracks into their own music
//! library), and the "save into library" calls of the clip module.

use super::files;
use super::upload::{self, Accept};
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::{Multipart, State};
use domain::i18n::Msg;
use media::magic::Class;
use serde::Deserialize;
use store::ListQuery;
use store::materials as mat;
use utoipa::ToSchema;

fn view(st: &AppState, m: &mat::SystemMusic) -> serde_json::Value {
    let mut v = serde_json::to_value(m).unwrap_or_default();
    v["src"] = files::url(st, m.id, "system").into();
    v
}

#[derive(Debug, Deserialize)]
pub struct MusicQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub category: Option<String>,
}

async fn list(st: &AppState, q: MusicQuery) -> ApiResult<Json> {
    let q = q
        .list
        .with_filter("name", q.name.as_deref(), "include")
        .with_filter("category", q.category.as_deref(), "=");
    let (rows, total) = mat::system_music(&st.db, &q).await?;
    Ok(ok(store::list::rows_total(
        rows.iter().map(|m| view(st, m)).collect::<Vec<_>>(),
        total,
    )))
}

#[utoipa::path(method(get, post), path = "/media.merchant_producing_upfile/system_music_index", tag = "materials", responses((status = 200, description = "the built-in music set")))]
pub async fn system_index(
    State(st): State<AppState>,
    Input(q): Input<MusicQuery>,
) -> ApiResult<Json> {
    list(&st, q).await
}

#[utoipa::path(method(get, post), path = "/system/music/index", tag = "system", responses((status = 200, description = "the built-in music set")))]
pub async fn operator_index(
    State(st): State<AppState>,
    Input(q): Input<MusicQuery>,
) -> ApiResult<Json> {
    list(&st, q).await
}

#[utoipa::path(post, path = "/system/music/add", tag = "system", request_body(content_type = "multipart/form-data", description = "name, category, file (audio)"), responses((status = 200, description = "the track")))]
pub async fn operator_add(State(st): State<AppState>, mp: Multipart) -> ApiResult<Json> {
    let a = Accept {
        library: "system",
        classes: &[Class::Audio],
        icons: false,
    };
    let (rec, _, fields) = upload::receive(&st, mp, |_| Ok(a)).await?;
    let info = media::probe::probe(&rec.path).await.map_err(|e| {
        ApiError::invalid_with(
            "file",
            Msg::MediaUnreadable,
            vec![("reason", e.to_string())],
        )
    })?;
    if !info.has_audio {
        return Err(ApiError::invalid_with(
            "file",
            Msg::MediaUnreadable,
            vec![("reason", "no audio stream".into())],
        ));
    }
    let key = format!(
        "system/{}.{}",
        store::random_token(20).to_lowercase(),
        rec.kind.ext()
    );
    st.storage
        .put_file(&key, &rec.path)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let name = fields
        .get("name")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or(rec.original_name.clone());
    let m = mat::SystemMusic {
        id: 0,
        name,
        category: fields.get("category").cloned().unwrap_or_default(),
        storage_key: key.clone(),
        mime: rec.kind.mime().to_string(),
        size: rec.size,
        duration_ms: info.duration_ms,
        created_at: 0,
    };
    let id = match mat::add_system_music(&st.db, &m).await {
        Ok(id) => id,
        Err(e) => {
            let _ = st.storage.delete(&key).await;
            return Err(e.into());
        }
    };
    let row = mat::system_music_one(&st.db, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(view(&st, &row)))
}

/// First start: the project's own synthesized tracks (media::builtin_music) go into the built-in
/// music set, so a fresh install has music to mix with. Returns how many were added (0 once seeded).
pub async fn seed_builtin(st: &AppState) -> anyhow::Result<usize> {
    if mat::builtin_music_seeded(&st.db).await? {
        return Ok(0);
    }
    let mut rows = vec![];
    for track in media::builtin_music::TRACKS {
        let tmp = st.storage.temp_path("m4a").await?;
        media::builtin_music::render(track, &tmp).await?;
        let info = media::probe::probe(&tmp).await?;
        let key = format!("system/builtin-{}.m4a", track.slug);
        let size = st.storage.put_file(&key, &tmp).await?;
        rows.push(mat::SystemMusic {
            id: 0,
            name: track.name.into(),
            category: String::new(),
            storage_key: key,
            mime: "audio/mp4".into(),
            size: size as i64,
            duration_ms: info.duration_ms,
            created_at: 0,
        });
    }
    let added = mat::seed_system_music(&st.db, &rows).await?;
    Ok(if added { rows.len() } else { 0 })
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/system/music/delete", tag = "system", request_body = IdReq, responses((status = 200, description = "deleted (copies in merchants' libraries stay)")))]
pub async fn operator_delete(
    State(st): State<AppState>,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let key = mat::delete_system_music(&st.db, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let _ = st.storage.delete(&key).await;
    Ok(ok(serde_json::json!({})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveReq {
    /// A file of the caller's (e.g. from the upload library) to keep in this library…
    #[serde(default)]
    pub id: Option<i64>,
    /// …or a built-in track to copy in (music only).
    #[serde(default)]
    pub system_music_id: Option<i64>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub file_type_id: Option<i64>,
}

async fn save(st: &AppState, c: &Caller, r: SaveReq, library: &str, kind: &str) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    c.may_write(library)?;
    if let Some(t) = r.file_type_id.filter(|t| *t != 0) {
        mat::file_type(&st.db, mid, t)
            .await?
            .ok_or(ApiError::NotFound)?;
    }
    let id = match (r.id, r.system_music_id) {
        (Some(id), _) => {
            let m = mat::get(&st.db, mid, id).await?.ok_or(ApiError::NotFound)?;
            // Moving a file out of a library changes that library too.
            c.may_write(&m.library)?;
            if m.kind != kind {
                return Err(ApiError::invalid_with(
                    "id",
                    Msg::FileTypeNotAllowed,
                    vec![("allowed", kind.to_string())],
                ));
            }
            let name = r
                .name
                .as_deref()
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .unwrap_or(&m.name)
                .to_string();
            mat::set_library(&st.db, mid, id, library, &name).await?;
            id
        }
        (None, Some(sid)) if library == "music" => {
            let s = mat::system_music_one(&st.db, sid)
                .await?
                .ok_or(ApiError::NotFound)?;
            let src = st
                .storage
                .path(&s.storage_key)
                .map_err(|e| ApiError::Internal(e.into()))?;
            let ext = s.storage_key.rsplit('.').next().unwrap_or("mp3");
            let tmp = st
                .storage
                .temp_path(ext)
                .await
                .map_err(|e| ApiError::Internal(e.into()))?;
            tokio::fs::copy(&src, &tmp)
                .await
                .map_err(|e| ApiError::Internal(e.into()))?;
            let kind = media::magic::sniff(
                &std::fs::read(&tmp)
                    .map(|b| b[..b.len().min(64)].to_vec())
                    .unwrap_or_default(),
            );
            let rec = upload::Received::adopt(tmp, s.size, kind, format!("{}.{ext}", s.name));
            let a = Accept {
                library: "music",
                classes: &[Class::Audio],
                icons: false,
            };
            let m =
                upload::store_received(st, mid, rec, &a, 0, r.name.as_deref().or(Some(&s.name)))
                    .await?;
            m.id
        }
        _ => return Err(ApiError::invalid("id", Msg::Required)),
    };
    if let Some(t) = r.file_type_id {
        mat::set_file_type(&st.db, mid, id, t).await?;
    }
    let m = mat::get(&st.db, mid, id).await?.ok_or(ApiError::NotFound)?;
    Ok(ok(files::view(st, &m)))
}

#[utoipa::path(post, path = "/clip.merchant_music_library/save", tag = "materials", request_body = SaveReq, responses((status = 200, description = "the file, now in the music library")))]
pub async fn music_save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> ApiResult<Json> {
    save(&st, &c, r, "music", "audio").await
}

#[utoipa::path(post, path = "/clip.merchant_image_library/save", tag = "materials", request_body = SaveReq, responses((status = 200, description = "the file, now in the image library")))]
pub async fn image_save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> ApiResult<Json> {
    save(&st, &c, r, "image", "image").await
}
