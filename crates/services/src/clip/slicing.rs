//! Slicing projects (visual editing / batch slice): a project names long videos (its sources), how to
//! cut them and the video group the slices go into; each source is cut by its own `clip.slice` job.
//! Slicing is free (SPEC charges points for synthesis and recognition only).

use crate::error::{ApiError, ApiResult};
use domain::clip::slicing::{Mode, Settings};
use domain::i18n::Msg;
use store::Db;
use store::clip::slicing as db;
use store::materials as mat;

/// A slicing project, one of its source videos, one slice.
pub use db::{Project, Slice, Source};

/// At most this many videos per request.
pub const MAX_SOURCES: usize = 100;

/// A project's settings as a request gives them.
pub struct ProjectIn<'a> {
    pub name: &'a str,
    /// fixed | subtitle
    pub mode: &'a str,
    pub seconds: Option<i64>,
    pub min_seconds: Option<i64>,
    pub max_seconds: Option<i64>,
    pub group_id: Option<i64>,
}

impl ProjectIn<'_> {
    async fn checked(&self, db: &Db, mid: i64) -> ApiResult<db::ProjectInput> {
        let name = super::projects::project_name(self.name)?.to_string();
        let s = Settings::check(self.mode, self.seconds, self.min_seconds, self.max_seconds)?;
        let group = video_group(db, mid, self.group_id).await?;
        Ok(db::ProjectInput {
            name,
            mode: s.mode,
            seconds: s.seconds,
            min_seconds: s.min_seconds,
            max_seconds: s.max_seconds,
            group_id: group.id,
        })
    }
}

fn mode_of(p: &db::ProjectInput) -> Mode {
    p.mode
}

/// One of the merchant's slicing projects.
pub async fn project_of(db: &Db, mid: i64, id: Option<i64>) -> ApiResult<db::Project> {
    let id = id.ok_or(ApiError::invalid("project_id", Msg::Required))?;
    db::project(db, mid, id).await?.ok_or(ApiError::NotFound)
}

/// One of the merchant's sources (a video of a slicing project).
pub async fn source_of(db: &Db, mid: i64, id: i64) -> ApiResult<db::Source> {
    db::source(db, mid, id).await?.ok_or(ApiError::NotFound)
}

/// The target must be one of the merchant's video (shot) groups.
pub async fn video_group(db: &Db, mid: i64, id: Option<i64>) -> ApiResult<mat::Group> {
    let id = id
        .filter(|g| *g > 0)
        .ok_or(ApiError::invalid("group_id", Msg::Required))?;
    mat::group(db, mid, id)
        .await?
        .filter(|g| g.kind == domain::materials::GroupKind::Video)
        .ok_or_else(|| {
            ApiError::invalid_with(
                "group_id",
                Msg::MaterialMissing,
                vec![("what", format!("group #{id}"))],
            )
        })
}

/// The sources a request names: the merchant's ready videos, each once; in subtitle mode each must
/// have recognized lines.
async fn checked_sources(
    db: &Db,
    mid: i64,
    ids: &[i64],
    mode: Mode,
) -> ApiResult<Vec<db::NewSource>> {
    if ids.is_empty() {
        return Err(ApiError::invalid("resource_ids", Msg::Required));
    }
    if ids.len() > MAX_SOURCES {
        return Err(ApiError::invalid_with(
            "resource_ids",
            Msg::InvalidValue,
            vec![("reason", format!("at most {MAX_SOURCES}"))],
        ));
    }
    let mut out: Vec<db::NewSource> = vec![];
    for id in ids {
        if out.iter().any(|(x, _)| x == id) {
            continue;
        }
        let m = mat::get(db, mid, *id).await?.ok_or_else(|| {
            ApiError::invalid_with(
                "resource_ids",
                Msg::MaterialMissing,
                vec![("what", format!("#{id}"))],
            )
        })?;
        if m.kind != domain::materials::MediaKind::Video
            || m.state != domain::materials::IngestState::Ready
            || m.mezzanine_key.is_empty()
        {
            return Err(ApiError::invalid_with(
                "resource_ids",
                Msg::SliceNotVideo,
                vec![("name", m.name)],
            ));
        }
        if mode == Mode::Subtitle && mat::asr_lines(db, mid, m.id).await?.is_empty() {
            return Err(ApiError::invalid_with(
                "resource_ids",
                Msg::SliceNoLines,
                vec![("name", m.name)],
            ));
        }
        out.push((m.id, m.name));
    }
    Ok(out)
}

/// Creates a project with its sources (pending: started by `queue_pending`).
pub async fn create(
    db: &Db,
    mid: i64,
    input: &ProjectIn<'_>,
    resource_ids: &[i64],
) -> ApiResult<db::Project> {
    let input = input.checked(db, mid).await?;
    let sources = checked_sources(db, mid, resource_ids, mode_of(&input)).await?;
    let id = db::add_project(db, mid, &input, &sources).await?;
    project_of(db, mid, Some(id)).await
}

/// New settings for a project (slices already made stay); refused while a video is being sliced, or
/// when subtitle mode meets a source without recognized lines.
pub async fn modify(
    db: &Db,
    mid: i64,
    id: Option<i64>,
    input: &ProjectIn<'_>,
) -> ApiResult<db::Project> {
    let p = project_of(db, mid, id).await?;
    let input = input.checked(db, mid).await?;
    if mode_of(&input) == Mode::Subtitle {
        for s in db::sources(db, mid, p.id).await? {
            let exists = mat::get(db, mid, s.resource_id).await?.is_some();
            if exists && mat::asr_lines(db, mid, s.resource_id).await?.is_empty() {
                return Err(ApiError::invalid_with(
                    "mode",
                    Msg::SliceNoLines,
                    vec![("name", s.name)],
                ));
            }
        }
    }
    if db::busy_sources(db, mid, p.id).await? > 0 {
        return Err(ApiError::invalid("project_id", Msg::SliceBusy));
    }
    db::update_project(db, mid, p.id, &input).await?;
    project_of(db, mid, Some(p.id)).await
}

/// Deletes a project (its slices stay in their group as materials); refused while slicing.
pub async fn delete(db: &Db, mid: i64, id: i64) -> ApiResult<()> {
    project_of(db, mid, Some(id)).await?;
    if !db::delete_project(db, mid, id).await? {
        return Err(ApiError::invalid("id", Msg::SliceBusy));
    }
    Ok(())
}

/// Queues one `clip.slice` job per pending or failed source; returns how many, and the project now.
pub async fn queue_pending(db: &Db, mid: i64, id: i64) -> ApiResult<(usize, db::Project)> {
    let p = project_of(db, mid, Some(id)).await?;
    let todo: Vec<i64> = db::sources(db, mid, p.id)
        .await?
        .iter()
        .filter(|s| {
            s.state == domain::clip::slicing::SliceState::Pending
                || s.state == domain::clip::slicing::SliceState::Failed
        })
        .map(|s| s.id)
        .collect();
    let queued = db::queue(db, mid, &todo).await?;
    Ok((queued.len(), project_of(db, mid, Some(id)).await?))
}

/// Adds videos to a project (those already in it are skipped); returns how many, and the project now.
pub async fn add_sources(
    db: &Db,
    mid: i64,
    project_id: i64,
    resource_ids: &[i64],
) -> ApiResult<(usize, db::Project)> {
    let p = project_of(db, mid, Some(project_id)).await?;
    let mode = p.mode;
    let sources = checked_sources(db, mid, resource_ids, mode).await?;
    let added = db::add_sources(db, mid, p.id, &sources).await?;
    Ok((added, project_of(db, mid, Some(p.id)).await?))
}

/// Removes a source (its slices stay); refused while it is being sliced.
pub async fn remove_source(db: &Db, mid: i64, id: i64) -> ApiResult<()> {
    source_of(db, mid, id).await?;
    if !db::delete_source(db, mid, id).await? {
        return Err(ApiError::invalid("id", Msg::SliceBusy));
    }
    Ok(())
}

/// Queues one source (start or retry; slices already made are skipped).
pub async fn queue_source(db: &Db, mid: i64, id: i64) -> ApiResult<db::Source> {
    let s = source_of(db, mid, id).await?;
    if s.state == domain::clip::slicing::SliceState::Processing
        || db::queue(db, mid, &[s.id]).await?.is_empty()
    {
        return Err(ApiError::invalid("id", Msg::SliceBusy));
    }
    source_of(db, mid, id).await
}

/// Cancels a source's slicing: it fails as cancelled (slices made so far stay).
pub async fn cancel_source(db: &Db, mid: i64, id: i64) -> ApiResult<db::Source> {
    source_of(db, mid, id).await?;
    // The source first (a job finishing now then finds it cancelled), then its job.
    let why = super::slice::cancelled();
    let Some(job) = db::cancel_source(db, mid, id, &why).await? else {
        return Err(ApiError::invalid("id", Msg::SliceNotRunning));
    };
    store::jobs::cancel(db, job, &why).await?;
    source_of(db, mid, id).await
}

/// Deletes slices (materials and files), all or nothing: refused when one is in use.
pub async fn delete_slices(
    db: &Db,
    storage: &media::Storage,
    mid: i64,
    ids: &[i64],
) -> ApiResult<usize> {
    let mut ids = ids.to_vec();
    ids.dedup();
    // Check every one first, so a refused id leaves the others untouched too.
    for id in &ids {
        db::slice(db, mid, *id).await?.ok_or(ApiError::NotFound)?;
        mat::get(db, mid, *id).await?.ok_or(ApiError::NotFound)?;
        let uses = mat::uses(db, mid, *id).await?;
        if !uses.is_empty() {
            return Err(ApiError::invalid_with(
                "ids",
                Msg::MaterialInUse,
                vec![("uses", uses.join(", "))],
            ));
        }
    }
    for id in &ids {
        for key in mat::delete(db, mid, *id).await?.unwrap_or_default() {
            if let Err(e) = storage.delete(&key).await {
                tracing::warn!(%key, error = %e, "could not remove a deleted slice's file");
            }
        }
        db::forget(db, mid, *id).await?;
    }
    Ok(ids.len())
}

/// Moves every slice of a project into a video group; returns how many moved and the group.
pub async fn move_all(
    db: &Db,
    mid: i64,
    project_id: i64,
    group_id: i64,
) -> ApiResult<(i64, mat::Group)> {
    let p = project_of(db, mid, Some(project_id)).await?;
    let g = video_group(db, mid, Some(group_id)).await?;
    let mut moved = 0;
    for id in db::slice_ids(db, mid, p.id).await? {
        if mat::move_to_group(db, mid, id, g.id).await? {
            moved += 1;
        }
    }
    Ok((moved, g))
}

/// One page of the merchant's slicing projects.
pub async fn list(
    d: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<Project>, store::list::Total)> {
    Ok(db::projects(d, mid, q).await?)
}

/// A project's source videos.
pub async fn sources(d: &Db, mid: i64, project_id: i64) -> ApiResult<Vec<Source>> {
    Ok(db::sources(d, mid, project_id).await?)
}

/// The name of a project's shot group (None when the group is gone).
pub async fn group_name(d: &Db, p: &Project) -> ApiResult<Option<String>> {
    Ok(mat::group(d, p.merchant_id, p.group_id)
        .await?
        .map(|g| g.name))
}

/// One page of a project's slices, with their materials.
pub async fn slices(
    d: &Db,
    mid: i64,
    project_id: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<Slice>, store::list::Total, Vec<mat::MediaFile>)> {
    let (rows, total) = db::slices(d, mid, project_id, q).await?;
    let ids: Vec<i64> = rows.iter().map(|s| s.media_id).collect();
    let media = mat::get_many(d, mid, &ids).await?;
    Ok((rows, total, media))
}
