//! Visual editing / batch slice (`/clip.merchant_visual_editing/*`, `/clip.merchant_project/*`): a
//! slicing project names long videos (its sources), how to cut them (fixed lengths or the subtitle
//! timeline) and the video group the slices go into. Each source is cut by its own `clip.slice` job
//! (`job`); every slice becomes a ready video material of the group, usable in quick mix at once.
//! Slicing is free (SPEC charges points for synthesis and recognition only).

pub mod job;

use crate::areas::materials::files;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, IdsReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use domain::slice::{Mode, Settings};
use serde::Deserialize;
use store::ListQuery;
use store::materials as mat;
use store::slice as db;
use utoipa::ToSchema;

/// At most this many videos per request.
const MAX_SOURCES: usize = 100;

fn source_view(s: &db::Source) -> serde_json::Value {
    serde_json::json!({
        "id": s.id, "project_id": s.project_id, "resource_id": s.resource_id, "name": s.name,
        "state": s.state, "progress": s.progress, "error": s.error, "slices": s.slices,
        "created_at": s.created_at, "updated_at": s.updated_at,
    })
}

async fn project_view(st: &AppState, p: &db::Project) -> ApiResult<serde_json::Value> {
    let sources = db::sources(&st.db, p.merchant_id, p.id).await?;
    let group_name = mat::group(&st.db, p.merchant_id, p.group_id)
        .await?
        .map(|g| g.name);
    Ok(serde_json::json!({
        "id": p.id, "name": p.name, "mode": p.mode, "seconds": p.seconds,
        "min_seconds": p.min_seconds, "max_seconds": p.max_seconds,
        "group_id": p.group_id, "group_name": group_name, "state": p.state,
        "sources": sources.iter().map(source_view).collect::<Vec<_>>(),
        "slices": sources.iter().map(|s| s.slices).sum::<i64>(),
        "created_at": p.created_at, "updated_at": p.updated_at,
    }))
}

async fn project_of(st: &AppState, mid: i64, id: Option<i64>) -> ApiResult<db::Project> {
    let id = id.ok_or(ApiError::invalid("project_id", Msg::Required))?;
    db::project(&st.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)
}

/// One of the caller's sources (a video of a slicing project).
async fn source_of(st: &AppState, mid: i64, id: i64) -> ApiResult<db::Source> {
    db::source(&st.db, mid, id).await?.ok_or(ApiError::NotFound)
}

/// The target must be one of the caller's video (shot) groups.
async fn video_group(st: &AppState, mid: i64, id: Option<i64>) -> ApiResult<mat::Group> {
    let id = id
        .filter(|g| *g > 0)
        .ok_or(ApiError::invalid("group_id", Msg::Required))?;
    mat::group(&st.db, mid, id)
        .await?
        .filter(|g| g.kind == "video")
        .ok_or_else(|| {
            ApiError::invalid_with(
                "group_id",
                Msg::MaterialMissing,
                vec![("what", format!("group #{id}"))],
            )
        })
}

/// The sources a request names: the caller's ready videos, each once; in subtitle mode each must have
/// recognized lines.
async fn checked_sources(
    st: &AppState,
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
        let m = mat::get(&st.db, mid, *id).await?.ok_or_else(|| {
            ApiError::invalid_with(
                "resource_ids",
                Msg::MaterialMissing,
                vec![("what", format!("#{id}"))],
            )
        })?;
        if m.kind != "video" || m.state != "ready" || m.mezzanine_key.is_empty() {
            return Err(ApiError::invalid_with(
                "resource_ids",
                Msg::SliceNotVideo,
                vec![("name", m.name)],
            ));
        }
        if mode == Mode::Subtitle && mat::asr_lines(&st.db, mid, m.id).await?.is_empty() {
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

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub state: Option<String>,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_visual_editing/index", tag = "clip", responses((status = 200, description = "{rows:[slicing project with its sources], total}; list engine fields name, state, mode, created_at")))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let lq = q
        .list
        .with_filter("name", q.name.as_deref(), "include")
        .with_filter("state", q.state.as_deref(), "=");
    let (rows, total) = db::projects(&st.db, mid, &lq).await?;
    let mut out = vec![];
    for p in &rows {
        out.push(project_view(&st, p).await?);
    }
    Ok(ok(store::list::rows_total(out, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProjectReq {
    /// The project (modify only; `id` is accepted too).
    #[serde(default)]
    pub project_id: Option<i64>,
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub name: String,
    /// fixed | subtitle
    #[serde(default)]
    pub mode: String,
    /// fixed: slice length, 1–60 s
    #[serde(default)]
    pub seconds: Option<i64>,
    /// subtitle: merge lines until at least this long (1–60 s)
    #[serde(default)]
    pub min_seconds: Option<i64>,
    /// subtitle: never longer than this (1–60 s, ≥ min_seconds)
    #[serde(default)]
    pub max_seconds: Option<i64>,
    /// The video group the slices go into.
    #[serde(default)]
    pub group_id: Option<i64>,
    /// The long videos to cut (create only).
    #[serde(default)]
    pub resource_ids: Vec<i64>,
}

impl ProjectReq {
    async fn checked(&self, st: &AppState, mid: i64) -> ApiResult<db::ProjectInput> {
        let name = super::projects::project_name(&self.name)?.to_string();
        let s = Settings::check(&self.mode, self.seconds, self.min_seconds, self.max_seconds)?;
        let group = video_group(st, mid, self.group_id).await?;
        Ok(db::ProjectInput {
            name,
            mode: s.mode.as_str().into(),
            seconds: s.seconds,
            min_seconds: s.min_seconds,
            max_seconds: s.max_seconds,
            group_id: group.id,
        })
    }
}

fn mode_of(p: &db::ProjectInput) -> Mode {
    Mode::parse(&p.mode).unwrap_or(Mode::Fixed)
}

#[utoipa::path(post, path = "/clip.merchant_visual_editing/create_project", tag = "clip", request_body = ProjectReq, responses((status = 200, description = "the project with its sources (pending: start them with job_export)"), (status = 422, description = "a broken rule, naming the field")))]
pub async fn create_project(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ProjectReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let input = r.checked(&st, mid).await?;
    let sources = checked_sources(&st, mid, &r.resource_ids, mode_of(&input)).await?;
    let id = db::add_project(&st.db, mid, &input, &sources).await?;
    let p = db::project(&st.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(project_view(&st, &p).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_visual_editing/delete", tag = "clip", params(("id" = i64, Query)), responses((status = 200, description = "deleted (its slices stay in their group as materials)"), (status = 422, description = "a video is still being sliced")))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    project_of(&st, mid, Some(r.id)).await?;
    if !db::delete_project(&st.db, mid, r.id).await? {
        return Err(ApiError::invalid("id", Msg::SliceBusy));
    }
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(post, path = "/clip.merchant_visual_editing/job_export", tag = "clip", request_body = IdReq, responses((status = 200, description = "{queued: n, project}: one clip.slice job per pending or failed source")))]
pub async fn job_export(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = project_of(&st, mid, Some(r.id)).await?;
    let todo: Vec<i64> = db::sources(&st.db, mid, p.id)
        .await?
        .iter()
        .filter(|s| s.state == "pending" || s.state == "failed")
        .map(|s| s.id)
        .collect();
    let queued = db::queue(&st.db, mid, &todo).await?;
    let p = project_of(&st, mid, Some(r.id)).await?;
    Ok(ok(
        serde_json::json!({ "queued": queued.len(), "project": project_view(&st, &p).await? }),
    ))
}

#[derive(Debug, Deserialize)]
pub struct LibraryQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub project_id: Option<i64>,
    #[serde(default)]
    pub source_id: Option<i64>,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_visual_editing/video_library", tag = "clip", params(("project_id" = i64, Query)), responses((status = 200, description = "{rows:[slice material with src/poster/mezzanine URLs, source_id, source_name, start, end (s)], total}")))]
pub async fn video_library(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<LibraryQuery>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = project_of(&st, mid, q.project_id).await?;
    let lq = q.list.with_filter(
        "source_id",
        q.source_id.map(|s| s.to_string()).as_deref(),
        "=",
    );
    let (rows, total) = db::slices(&st.db, mid, p.id, &lq).await?;
    let sources = db::sources(&st.db, mid, p.id).await?;
    let ids: Vec<i64> = rows.iter().map(|s| s.media_id).collect();
    let media = mat::get_many(&st.db, mid, &ids).await?;
    let mut out = vec![];
    for s in &rows {
        let Some(m) = media.iter().find(|m| m.id == s.media_id) else {
            continue;
        };
        let mut v = files::view(&st, m);
        v["source_id"] = s.source_id.into();
        v["source_resource_id"] = s.resource_id.into();
        v["source_name"] = sources
            .iter()
            .find(|x| x.id == s.source_id)
            .map(|x| x.name.clone())
            .into();
        v["start_ms"] = s.start_ms.into();
        v["end_ms"] = s.end_ms.into();
        v["start"] = (s.start_ms as f64 / 1000.0).into();
        v["end"] = (s.end_ms as f64 / 1000.0).into();
        out.push(v);
    }
    Ok(ok(store::list::rows_total(out, total)))
}

#[utoipa::path(post, path = "/clip.merchant_visual_editing/video_delete", tag = "clip", request_body = IdsReq, responses((status = 200, description = "{deleted: n}: the slice materials and their files"), (status = 422, description = "a slice is used by a finished video or project")))]
pub async fn video_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let mut ids = r.all("ids")?;
    ids.dedup();
    // Check every one first, so a refused id leaves the others untouched too.
    for id in &ids {
        db::slice(&st.db, mid, *id)
            .await?
            .ok_or(ApiError::NotFound)?;
        mat::get(&st.db, mid, *id)
            .await?
            .ok_or(ApiError::NotFound)?;
        let uses = mat::uses(&st.db, mid, *id).await?;
        if !uses.is_empty() {
            return Err(ApiError::invalid_with(
                "ids",
                Msg::MaterialInUse,
                vec![("uses", uses.join(", "))],
            ));
        }
    }
    for id in &ids {
        for key in mat::delete(&st.db, mid, *id).await?.unwrap_or_default() {
            if let Err(e) = st.storage.delete(&key).await {
                tracing::warn!(%key, error = %e, "could not remove a deleted slice's file");
            }
        }
        db::forget(&st.db, mid, *id).await?;
    }
    Ok(ok(serde_json::json!({ "deleted": ids.len() })))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddAllReq {
    pub project_id: i64,
    pub group_id: i64,
}

#[utoipa::path(post, path = "/clip.merchant_visual_editing/job_video_add_all", tag = "clip", request_body = AddAllReq, responses((status = 200, description = "{moved: n}: every slice of the project moves into that video group")))]
pub async fn job_video_add_all(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddAllReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = project_of(&st, mid, Some(r.project_id)).await?;
    let g = video_group(&st, mid, Some(r.group_id)).await?;
    let mut moved = 0;
    for id in db::slice_ids(&st.db, mid, p.id).await? {
        if mat::move_to_group(&st.db, mid, id, g.id).await? {
            moved += 1;
        }
    }
    Ok(ok(
        serde_json::json!({ "moved": moved, "group_id": g.id, "group_name": g.name }),
    ))
}

// ---- /clip.merchant_project/*: the sources of one project ----

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProjectIdReq {
    pub project_id: i64,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_project/index", tag = "clip", params(("project_id" = i64, Query)), responses((status = 200, description = "{rows:[source: id, resource_id, name, state, progress, error, slices], total}")))]
pub async fn sources_index(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ProjectIdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = project_of(&st, mid, Some(r.project_id)).await?;
    let rows = db::sources(&st.db, mid, p.id).await?;
    Ok(ok(serde_json::json!({
        "rows": rows.iter().map(source_view).collect::<Vec<_>>(),
        "total": rows.len(),
    })))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddVideoReq {
    pub project_id: i64,
    #[serde(default)]
    pub resource_ids: Vec<i64>,
}

#[utoipa::path(post, path = "/clip.merchant_project/add_video", tag = "clip", request_body = AddVideoReq, responses((status = 200, description = "{added: n, project}; videos already in the project are skipped")))]
pub async fn add_video(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddVideoReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = project_of(&st, mid, Some(r.project_id)).await?;
    let mode = Mode::parse(&p.mode).unwrap_or(Mode::Fixed);
    let sources = checked_sources(&st, mid, &r.resource_ids, mode).await?;
    let added = db::add_sources(&st.db, mid, p.id, &sources).await?;
    let p = project_of(&st, mid, Some(p.id)).await?;
    Ok(ok(
        serde_json::json!({ "added": added, "project": project_view(&st, &p).await? }),
    ))
}

#[utoipa::path(post, path = "/clip.merchant_project/delete", tag = "clip", request_body = IdReq, responses((status = 200, description = "the source is removed (its slices stay)"), (status = 422, description = "it is being sliced")))]
pub async fn source_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    source_of(&st, mid, r.id).await?;
    if !db::delete_source(&st.db, mid, r.id).await? {
        return Err(ApiError::invalid("id", Msg::SliceBusy));
    }
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(post, path = "/clip.merchant_project/modify", tag = "clip", request_body = ProjectReq, responses((status = 200, description = "the project with its new settings (slices already made stay)"), (status = 422, description = "a broken rule, or a video is being sliced")))]
pub async fn modify(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ProjectReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = project_of(&st, mid, r.project_id.or(r.id)).await?;
    let input = r.checked(&st, mid).await?;
    if mode_of(&input) == Mode::Subtitle {
        for s in db::sources(&st.db, mid, p.id).await? {
            let exists = mat::get(&st.db, mid, s.resource_id).await?.is_some();
            if exists && mat::asr_lines(&st.db, mid, s.resource_id).await?.is_empty() {
                return Err(ApiError::invalid_with(
                    "mode",
                    Msg::SliceNoLines,
                    vec![("name", s.name)],
                ));
            }
        }
    }
    if db::busy_sources(&st.db, mid, p.id).await? > 0 {
        return Err(ApiError::invalid("project_id", Msg::SliceBusy));
    }
    db::update_project(&st.db, mid, p.id, &input).await?;
    let p = project_of(&st, mid, Some(p.id)).await?;
    Ok(ok(project_view(&st, &p).await?))
}

#[utoipa::path(post, path = "/clip.merchant_project/job_video", tag = "clip", request_body = IdReq, responses((status = 200, description = "the source, queued (start or retry; slices already made are skipped)"), (status = 422, description = "it is already being sliced")))]
pub async fn job_video(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let s = source_of(&st, mid, r.id).await?;
    if s.state == "processing" || db::queue(&st.db, mid, &[s.id]).await?.is_empty() {
        return Err(ApiError::invalid("id", Msg::SliceBusy));
    }
    let s = source_of(&st, mid, r.id).await?;
    Ok(ok(source_view(&s)))
}

#[utoipa::path(post, path = "/clip.merchant_project/job_delete", tag = "clip", request_body = IdReq, responses((status = 200, description = "the slicing is cancelled: the source fails as cancelled (slices made so far stay)"), (status = 422, description = "it is not being sliced")))]
pub async fn job_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    source_of(&st, mid, r.id).await?;
    // The source first (a job finishing now then finds it cancelled), then its job.
    let Some(job) = db::cancel_source(&st.db, mid, r.id, job::CANCELLED).await? else {
        return Err(ApiError::invalid("id", Msg::SliceNotRunning));
    };
    store::jobs::cancel(&st.db, job, job::CANCELLED).await?;
    let s = source_of(&st, mid, r.id).await?;
    Ok(ok(source_view(&s)))
}
