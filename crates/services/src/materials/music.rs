//! The operator's built-in music set (merchants browse it and copy tracks into their own music
//! library), and keeping a file in the music or image library.

use super::upload::{self, Accept, Received};
use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use media::magic::Class;
use store::Db;
use store::materials as mat;
use store::{ListQuery, list::Total};

/// A built-in track.
pub use mat::SystemMusic;

/// First start: the project's own synthesized tracks (media::builtin_music) go into the built-in
/// music set, so a fresh install has music to mix with. Returns how many were added (0 once seeded).
pub async fn seed_builtin(db: &Db, storage: &media::Storage) -> anyhow::Result<usize> {
    if mat::builtin_music_seeded(db).await? {
        return Ok(0);
    }
    let mut rows = vec![];
    for track in media::builtin_music::TRACKS {
        let tmp = storage.temp_path("m4a").await?;
        media::builtin_music::render(track, &tmp).await?;
        let info = media::probe::probe(&tmp).await?;
        let key = media::builtin_music::key_of(track);
        let size = storage.put_file(&key, &tmp).await?;
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
    let added = mat::seed_system_music(db, &rows).await?;
    Ok(if added { rows.len() } else { 0 })
}

/// One page of the built-in music set.
pub async fn system_music(db: &Db, q: &ListQuery) -> ApiResult<(Vec<SystemMusic>, Total)> {
    Ok(mat::system_music(db, q).await?)
}

/// A built-in track's name in `lang` (the seeded tracks have one in each; the operator's uploads
/// keep the name they were given).
pub fn shown_name(m: &mat::SystemMusic, lang: domain::i18n::Lang) -> String {
    media::builtin_music::name_in(&m.storage_key, &m.name, lang == domain::i18n::Lang::Zh)
        .map_or_else(|| m.name.clone(), str::to_string)
}

/// What the operator's upload of a built-in track accepts.
pub const SYSTEM: Accept = Accept {
    library: "system",
    classes: &[Class::Audio],
    icons: false,
};

/// Adds a received audio file to the built-in set (named by `name`, else its file name).
pub async fn add_system(
    db: &Db,
    storage: &media::Storage,
    rec: Received,
    name: Option<&str>,
    category: &str,
) -> ApiResult<mat::SystemMusic> {
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
    let key = upload::keep_as(storage, "system", &rec).await?;
    let name = name
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or(&rec.original_name)
        .to_string();
    let m = mat::SystemMusic {
        id: 0,
        name,
        category: category.to_string(),
        storage_key: key.clone(),
        mime: rec.kind.mime().to_string(),
        size: rec.size,
        duration_ms: info.duration_ms,
        created_at: 0,
    };
    let id = match mat::add_system_music(db, &m).await {
        Ok(id) => id,
        Err(e) => {
            let _ = storage.delete(&key).await;
            return Err(e.into());
        }
    };
    mat::system_music_one(db, id)
        .await?
        .ok_or(ApiError::NotFound)
}

/// Deletes a built-in track and its file (copies in merchants' libraries stay).
pub async fn delete_system(db: &Db, storage: &media::Storage, id: i64) -> ApiResult<()> {
    let key = mat::delete_system_music(db, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let _ = storage.delete(&key).await;
    Ok(())
}

/// What to keep in a library: a file of the merchant's, or (music only) a built-in track to copy.
pub struct Keep<'a> {
    pub id: Option<i64>,
    pub system_music_id: Option<i64>,
    pub name: Option<&'a str>,
    pub file_type_id: Option<i64>,
    /// The language a copied built-in track is named in (the copy keeps that name).
    pub lang: domain::i18n::Lang,
}

/// Keeps a file in `library` (of `kind`): moves one of the merchant's files there, or copies a
/// built-in track in; `may_write` is the caller's permission on a library the file leaves.
pub async fn keep(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    library: &str,
    kind: &str,
    r: Keep<'_>,
    may_write: impl Fn(&str) -> ApiResult<()>,
) -> ApiResult<mat::MediaFile> {
    if let Some(t) = r.file_type_id.filter(|t| *t != 0) {
        mat::file_type(db, mid, t)
            .await?
            .ok_or(ApiError::NotFound)?;
    }
    let id = match (r.id, r.system_music_id) {
        (Some(id), _) => {
            let m = mat::get(db, mid, id).await?.ok_or(ApiError::NotFound)?;
            // Moving a file out of a library changes that library too.
            may_write(&m.library)?;
            if m.kind.as_str() != kind {
                return Err(ApiError::invalid_with(
                    "id",
                    Msg::FileTypeNotAllowed,
                    vec![("allowed", kind.to_string())],
                ));
            }
            let name = r
                .name
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .unwrap_or(&m.name)
                .to_string();
            mat::set_library(db, mid, id, library, &name).await?;
            id
        }
        (None, Some(sid)) if library == "music" => {
            let s = mat::system_music_one(db, sid)
                .await?
                .ok_or(ApiError::NotFound)?;
            let src = storage
                .local_copy(&s.storage_key)
                .await
                .map_err(|e| ApiError::Internal(e.into()))?;
            let ext = s.storage_key.rsplit('.').next().unwrap_or("mp3");
            let tmp = storage
                .temp_path(ext)
                .await
                .map_err(|e| ApiError::Internal(e.into()))?;
            tokio::fs::copy(&src, &tmp)
                .await
                .map_err(|e| ApiError::Internal(e.into()))?;
            let kind = match media::magic::sniff(
                &std::fs::read(&tmp)
                    .map(|b| b[..b.len().min(64)].to_vec())
                    .unwrap_or_default(),
            ) {
                // The built-in set holds audio only (SYSTEM accepts nothing else): an ISO file of it
                // is an M4A whatever its brand (the seeded tracks say "isom"), not a video without
                // a picture.
                media::magic::Kind::Mp4 => media::magic::Kind::M4a,
                k => k,
            };
            let shown = shown_name(&s, r.lang);
            let rec = Received::adopt(tmp, s.size, kind, format!("{shown}.{ext}"));
            let a = Accept {
                library: "music",
                classes: &[Class::Audio],
                icons: false,
            };
            let m = upload::store_received(db, storage, mid, rec, &a, 0, r.name.or(Some(&shown)))
                .await?;
            m.id
        }
        _ => return Err(ApiError::invalid("id", Msg::Required)),
    };
    if let Some(t) = r.file_type_id {
        mat::set_file_type(db, mid, id, t).await?;
    }
    mat::get(db, mid, id).await?.ok_or(ApiError::NotFound)
}
