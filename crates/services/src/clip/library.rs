//! The finished-video library: delete, mark used, cancel renders (refunding their points), and put
//! the merchant's own finished videos into it.

use crate::error::{ApiError, ApiResult};
use domain::clip::VariantState as State;
use domain::i18n::Msg;
use std::collections::{BTreeSet, HashMap};
use store::Db;
use store::clip as db;

/// A finished video (a variant of a mix project).
pub use db::Variant;

/// The names a page of variants shows: its clips' and its projects' (None when gone).
#[derive(Default)]
pub struct Names {
    pub clips: HashMap<i64, String>,
    pub projects: HashMap<i64, Option<String>>,
}

/// Variants of one merchant with their clips' and project's names: one query for every clip of the page
/// and one per project, not two per row (the list at 100k rows spent its time there).
pub async fn names(db: &Db, vs: &[db::Variant]) -> ApiResult<Names> {
    let Some(mid) = vs.first().map(|v| v.merchant_id) else {
        return Ok(Names::default());
    };
    let ids: BTreeSet<i64> = vs.iter().flat_map(|v| v.seq()).collect();
    let ids: Vec<i64> = ids.into_iter().collect();
    let clips = store::materials::get_many(db, mid, &ids)
        .await?
        .into_iter()
        .map(|m| (m.id, m.name))
        .collect();
    let mut projects = HashMap::new();
    for p in vs.iter().map(|v| v.project_id).collect::<BTreeSet<_>>() {
        let name = db::project(db, mid, p).await?.map(|p| p.name);
        projects.insert(p, name);
    }
    Ok(Names { clips, projects })
}

/// Checks a batch before any of it changes: every id is one of the merchant's (not deleted)
/// variants, and `refuse` has nothing against its state; the first problem answers for the batch.
async fn all_found(
    db: &Db,
    mid: i64,
    ids: &[i64],
    refuse: impl Fn(State) -> Option<Msg>,
) -> ApiResult<()> {
    for id in ids {
        let (_, state) = found(db, mid, *id).await?;
        if let Some(msg) = refuse(state) {
            return Err(ApiError::invalid("id", msg));
        }
    }
    Ok(())
}

/// One of the merchant's variants that is not deleted, with its state.
async fn found(db: &Db, mid: i64, id: i64) -> ApiResult<(db::Variant, State)> {
    let v = db::variant(db, mid, id).await?.ok_or(ApiError::NotFound)?;
    match v.state {
        State::Deleted => Err(ApiError::NotFound),
        s => Ok((v, s)),
    }
}

/// Deletes variants and their files (the sequence is never made again); refused while one renders.
pub async fn delete(db: &Db, storage: &media::Storage, mid: i64, ids: &[i64]) -> ApiResult<()> {
    all_found(db, mid, ids, |state| {
        (!state.can_become(State::Deleted)).then_some(Msg::VariantBusy)
    })
    .await?;
    for id in ids {
        for key in db::delete_variant(db, mid, *id).await?.unwrap_or_default() {
            let _ = storage.delete(&key).await;
        }
    }
    Ok(())
}

/// Marks a finished variant used (or not); returns it.
pub async fn set_used(db: &Db, mid: i64, id: i64, used: bool) -> ApiResult<db::Variant> {
    if found(db, mid, id).await?.1 != State::Success {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    db::set_used(db, mid, id, used).await?;
    db::variant(db, mid, id).await?.ok_or(ApiError::NotFound)
}

/// Cancels rendering variants, refunding each one's points; returns how many were cancelled.
pub async fn cancel(db: &Db, mid: i64, ids: &[i64]) -> ApiResult<i64> {
    all_found(db, mid, ids, |state| {
        (state != State::Processing).then_some(Msg::NotCancellable)
    })
    .await?;
    // A reason code, stored with the variant and its job; put into the reader's language when read.
    let why = domain::i18n::reason(Msg::VariantCancelled, &[]);
    let mut n = 0;
    for id in ids {
        // The variant first (a render finishing now then finds it cancelled), then its job, then
        // the points — refunds are once per key, like a failed render's.
        if let Some((job, points_key)) = db::cancel_variant(db, mid, *id, &why).await? {
            store::jobs::cancel(db, job, &why).await?;
            store::system::points::refund(
                db,
                mid,
                &points_key,
                domain::system::points::Reason::VideoSynthesisCancelled,
            )
            .await
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("{e}")))?;
            n += 1;
        }
    }
    Ok(n)
}

/// Puts the merchant's own finished videos (ready video materials) into the library, all or nothing;
/// returns the new variants' ids.
pub async fn import(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    ids: &[i64],
) -> ApiResult<Vec<i64>> {
    // Every id is checked before anything is linked: all or nothing.
    let mut files = vec![];
    for id in ids {
        let m = store::materials::get(db, mid, *id)
            .await?
            .ok_or(ApiError::NotFound)?;
        if m.kind != domain::materials::MediaKind::Video
            || m.state != domain::materials::IngestState::Ready
        {
            return Err(ApiError::invalid_with(
                "ids",
                Msg::NotAVideo,
                vec![("name", m.name)],
            ));
        }
        if db::is_imported(db, mid, m.id).await? {
            return Err(ApiError::invalid_with(
                "ids",
                Msg::AlreadyInLibrary,
                vec![("name", m.name)],
            ));
        }
        files.push(m);
    }
    let mut out = vec![];
    for m in files {
        let video_key = media::Storage::new_key(mid, "mp4");
        let cover_key = if m.poster_key.is_empty() {
            String::new()
        } else {
            media::Storage::new_key(mid, "jpg")
        };
        let internal = |e: media::storage::StorageError| ApiError::Internal(e.into());
        storage
            .link(&m.storage_key, &video_key)
            .await
            .map_err(internal)?;
        if !cover_key.is_empty() {
            storage
                .link(&m.poster_key, &cover_key)
                .await
                .map_err(internal)?;
        }
        match db::import_variant(db, mid, m.id, m.duration_ms, &video_key, &cover_key).await? {
            Some(id) => {
                if let Err(e) = measure_import(db, storage, id, &m).await {
                    tracing::warn!(variant = id, "duplicate risk not measured: {e:#}");
                }
                out.push(id)
            }
            None => {
                let _ = storage.delete(&video_key).await;
                let _ = storage.delete(&cover_key).await;
                return Err(ApiError::invalid_with(
                    "ids",
                    Msg::AlreadyInLibrary,
                    vec![("name", m.name)],
                ));
            }
        }
    }
    Ok(out)
}

/// An imported video's duplicate risk: its material's signature against what the merchant published
/// (a re-upload of a published video under another name is what this catches).
async fn measure_import(
    db: &Db,
    storage: &media::Storage,
    id: i64,
    m: &store::materials::MediaFile,
) -> anyhow::Result<()> {
    let Some(signature) = super::risk::material(db, storage, m).await? else {
        return Ok(());
    };
    let me = super::risk::Measured {
        signature,
        clips: vec![m.id],
        text: String::new(),
        // The poster (the library's cover) is the frame at one second.
        cover_s: 1,
    };
    super::risk::measure(db, m.merchant_id, id, db::IMPORTED, &me).await?;
    Ok(())
}

/// One page of the merchant's finished videos.
pub async fn list(
    db: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<Variant>, store::list::Total)> {
    Ok(db::variants(db, mid, q).await?)
}

/// A finished video of the merchant's and its render job (gone once the queue forgot it).
pub async fn with_job(
    db: &Db,
    mid: i64,
    id: i64,
) -> ApiResult<(Variant, Option<store::jobs::Job>)> {
    let v = db::variant(db, mid, id).await?.ok_or(ApiError::NotFound)?;
    let job = store::jobs::get(db, v.job_id).await?;
    Ok((v, job))
}

/// The most videos one zip holds.
pub const DOWNLOAD_MAX: usize = 100;
/// The largest zip, in MB: every offset of a zip without Zip64 fits in 32 bits.
pub const DOWNLOAD_MAX_MB: u64 = 4000;

/// One finished video to download: its file, its size and its name in a zip.
#[derive(Debug, Clone)]
pub struct Download {
    pub id: i64,
    pub key: String,
    pub size: u64,
    pub name: String,
}

/// A file name from a project's name: what a file system takes, at most 40 characters.
fn file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let stem = stem.trim_matches('_');
    if stem.is_empty() {
        "video".into()
    } else {
        stem.to_string()
    }
}

/// The merchant's finished videos `ids` (in that order, each once) with their files' sizes: all or
/// none — an id that is not the merchant's, deleted or not finished answers for the batch (404, or
/// 422 while one renders) — within `DOWNLOAD_MAX` videos and `DOWNLOAD_MAX_MB`.
pub async fn downloads(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    ids: &[i64],
) -> ApiResult<Vec<Download>> {
    let mut seen = BTreeSet::new();
    let ids: Vec<i64> = ids.iter().copied().filter(|id| seen.insert(*id)).collect();
    if ids.len() > DOWNLOAD_MAX {
        return Err(ApiError::invalid_with(
            "ids",
            Msg::DownloadTooMany,
            vec![("max", DOWNLOAD_MAX.to_string())],
        ));
    }
    let mut vs = Vec::with_capacity(ids.len());
    for id in &ids {
        let (v, state) = found(db, mid, *id).await?;
        if state != State::Success || v.video_key.is_empty() {
            return Err(ApiError::invalid("ids", Msg::VariantBusy));
        }
        vs.push(v);
    }
    let projects = names(db, &vs).await?.projects;
    let mut out = Vec::with_capacity(vs.len());
    let mut total = 0u64;
    for v in vs {
        let size = storage
            .get(&v.video_key, Some((0, Some(0))))
            .await
            .map_err(|_| ApiError::NotFound)?
            .size;
        total += size;
        let project = projects.get(&v.project_id).cloned().flatten();
        out.push(Download {
            name: format!(
                "{}-{}.mp4",
                file_stem(project.as_deref().unwrap_or("")),
                v.id
            ),
            id: v.id,
            key: v.video_key,
            size,
        });
    }
    if total > DOWNLOAD_MAX_MB * 1_000_000 {
        return Err(ApiError::invalid_with(
            "ids",
            Msg::DownloadTooLarge,
            vec![("max", DOWNLOAD_MAX_MB.to_string())],
        ));
    }
    Ok(out)
}
