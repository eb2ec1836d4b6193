//! Visual editing / batch slice (`/clip.merchant_visual_editing/*`, `/clip.merchant_project/*`): a
//! slicing project names long videos (its sources), how to cut them (fixed lengths or the subtitle
//! timeline) and the video group the slices go into. Each source is cut by its own `clip.slice` job
//! (`job`); every slice becomes a ready video material of the group, usable in quick mix at once.
//! Slicing is free (SPEC charges points for synthesis and recognition only).

use crate::error::{Answer, ApiResult, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, IdsReq, Input};
use crate::files;
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::{Lang, localize_reason};
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::clip::slicing as uc;
use utoipa::ToSchema;

/// A long video of a slicing project: its slicing state and how many slices it gave.
#[derive(Debug, Serialize, ToSchema)]
pub struct SourceView {
    pub id: i64,
    pub project_id: i64,
    pub resource_id: i64,
    pub name: String,
    pub state: domain::clip::slicing::SliceState,
    pub progress: i64,
    pub error: String,
    pub slices: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

fn source_view(s: &uc::Source, lang: Lang) -> SourceView {
    SourceView {
        id: s.id,
        project_id: s.project_id,
        resource_id: s.resource_id,
        name: s.name.clone(),
        state: s.state,
        progress: s.progress,
        error: localize_reason(&s.error, lang),
        slices: s.slices,
        created_at: s.created_at,
        updated_at: s.updated_at,
    }
}

/// A slicing project with its settings, target group and sources.
#[derive(Debug, Serialize, ToSchema)]
pub struct SliceProjectView {
    pub id: i64,
    pub name: String,
    pub mode: domain::clip::slicing::Mode,
    pub seconds: i64,
    pub min_seconds: i64,
    pub max_seconds: i64,
    pub group_id: i64,
    /// Null when the group is gone.
    pub group_name: Option<String>,
    pub state: domain::clip::slicing::SliceState,
    pub sources: Vec<SourceView>,
    pub slices: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

async fn project_view(st: &AppState, p: &uc::Project, lang: Lang) -> ApiResult<SliceProjectView> {
    let sources = uc::sources(&st.db, p.merchant_id, p.id).await?;
    let group_name = uc::group_name(&st.db, p).await?;
    Ok(SliceProjectView {
        id: p.id,
        name: p.name.clone(),
        mode: p.mode,
        seconds: p.seconds,
        min_seconds: p.min_seconds,
        max_seconds: p.max_seconds,
        group_id: p.group_id,
        group_name,
        state: p.state,
        sources: sources.iter().map(|s| source_view(s, lang)).collect(),
        slices: sources.iter().map(|s| s.slices).sum(),
        created_at: p.created_at,
        updated_at: p.updated_at,
    })
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

#[utoipa::path(method(get, post), path = "/clip.merchant_visual_editing/index", tag = "clip", responses((status = 200, body = Reply<Page<SliceProjectView>>, description = "list engine fields name, state, mode, created_at")))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<SliceProjectView>> {
    let mid = c.merchant_id()?;
    let lq = q
        .list
        .with_filter("name", q.name.as_deref(), "include")
        .with_filter("state", q.state.as_deref(), "=");
    let (rows, total) = uc::list(&st.db, mid, &lq).await?;
    let mut out = vec![];
    for p in &rows {
        out.push(project_view(&st, p, lang).await?);
    }
    Ok(reply(Page::new(out, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProjectReq {
    /// The project (modify only; `id` is accepted too).
    #[serde(default)]
    pub project_id: Option<i64>,
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub name: String,
    #[serde(default)]
    #[schema(required = true, value_type = domain::clip::slicing::Mode)]
    pub mode: String,
    /// fixed: slice length, 1–60 s
    #[serde(default)]
    #[schema(minimum = 1, maximum = 60)]
    pub seconds: Option<i64>,
    /// subtitle: merge lines until at least this long (1–60 s)
    #[serde(default)]
    #[schema(minimum = 1, maximum = 60)]
    pub min_seconds: Option<i64>,
    /// subtitle: never longer than this (1–60 s, ≥ min_seconds)
    #[serde(default)]
    #[schema(minimum = 1, maximum = 60)]
    pub max_seconds: Option<i64>,
    /// The video group the slices go into.
    #[serde(default)]
    #[schema(required = true, minimum = 1)]
    pub group_id: Option<i64>,
    /// The long videos to cut (create only).
    #[serde(default)]
    #[schema(max_items = 100)]
    pub resource_ids: Vec<i64>,
}

impl ProjectReq {
    fn settings(&self) -> uc::ProjectIn<'_> {
        uc::ProjectIn {
            name: &self.name,
            mode: &self.mode,
            seconds: self.seconds,
            min_seconds: self.min_seconds,
            max_seconds: self.max_seconds,
            group_id: self.group_id,
        }
    }
}

#[utoipa::path(post, path = "/clip.merchant_visual_editing/create_project", tag = "clip", request_body = ProjectReq, responses((status = 200, body = Reply<SliceProjectView>, description = "the project with its sources (pending: start them with job_export)"), (status = 422, description = "a broken rule, naming the field")))]
pub async fn create_project(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<ProjectReq>,
) -> Answer<SliceProjectView> {
    let p = uc::create(&st.db, c.merchant_id()?, &r.settings(), &r.resource_ids).await?;
    Ok(reply(project_view(&st, &p, lang).await?))
}

#[utoipa::path(method(get, post), path = "/clip.merchant_visual_editing/delete", tag = "clip", params(("id" = i64, Query)), responses((status = 200, body = Reply<Done>, description = "deleted (its slices stay in their group as materials)"), (status = 422, description = "a video is still being sliced")))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

/// How many sources were queued, and the project now.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = SliceQueued)]
pub struct Queued {
    pub queued: usize,
    pub project: SliceProjectView,
}

#[utoipa::path(post, path = "/clip.merchant_visual_editing/job_export", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<Queued>, description = "one clip.slice job per pending or failed source")))]
pub async fn job_export(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<IdReq>,
) -> Answer<Queued> {
    let (queued, p) = uc::queue_pending(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Queued {
        queued,
        project: project_view(&st, &p, lang).await?,
    }))
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

/// A slice: its material (with signed links) and where it was cut from.
#[derive(Debug, Serialize, ToSchema)]
pub struct SliceView {
    #[serde(flatten)]
    pub file: files::MediaView,
    pub source_id: i64,
    pub source_resource_id: i64,
    /// Null when the source was removed from the project.
    pub source_name: Option<String>,
    pub start_ms: i64,
    pub end_ms: i64,
    /// Seconds.
    pub start: f64,
    pub end: f64,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_visual_editing/video_library", tag = "clip", params(("project_id" = i64, Query)), responses((status = 200, body = Reply<Page<SliceView>>)))]
pub async fn video_library(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<LibraryQuery>,
) -> Answer<Page<SliceView>> {
    let mid = c.merchant_id()?;
    let p = uc::project_of(&st.db, mid, q.project_id).await?;
    let lq = q.list.with_filter(
        "source_id",
        q.source_id.map(|s| s.to_string()).as_deref(),
        "=",
    );
    let (rows, total, media) = uc::slices(&st.db, mid, p.id, &lq).await?;
    let sources = uc::sources(&st.db, mid, p.id).await?;
    let mut out = vec![];
    for s in &rows {
        let Some(m) = media.iter().find(|m| m.id == s.media_id) else {
            continue;
        };
        out.push(SliceView {
            file: files::view(&st, m),
            source_id: s.source_id,
            source_resource_id: s.resource_id,
            source_name: sources
                .iter()
                .find(|x| x.id == s.source_id)
                .map(|x| x.name.clone()),
            start_ms: s.start_ms,
            end_ms: s.end_ms,
            start: s.start_ms as f64 / 1000.0,
            end: s.end_ms as f64 / 1000.0,
        });
    }
    Ok(reply(Page::new(out, total)))
}

/// How many were deleted.
#[derive(Debug, Serialize, ToSchema)]
pub struct Deleted {
    pub deleted: usize,
}

#[utoipa::path(post, path = "/clip.merchant_visual_editing/video_delete", tag = "clip", request_body = IdsReq, responses((status = 200, body = Reply<Deleted>, description = "the slice materials and their files"), (status = 422, description = "a slice is used by a finished video or project")))]
pub async fn video_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> Answer<Deleted> {
    let deleted = uc::delete_slices(&st.db, &st.storage, c.merchant_id()?, &r.all("ids")?).await?;
    Ok(reply(Deleted { deleted }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddAllReq {
    pub project_id: i64,
    pub group_id: i64,
}

/// How many slices moved, and into which group.
#[derive(Debug, Serialize, ToSchema)]
pub struct MovedInto {
    pub moved: i64,
    pub group_id: i64,
    pub group_name: String,
}

#[utoipa::path(post, path = "/clip.merchant_visual_editing/job_video_add_all", tag = "clip", request_body = AddAllReq, responses((status = 200, body = Reply<MovedInto>, description = "every slice of the project moves into that video group")))]
pub async fn job_video_add_all(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddAllReq>,
) -> Answer<MovedInto> {
    let (moved, g) = uc::move_all(&st.db, c.merchant_id()?, r.project_id, r.group_id).await?;
    Ok(reply(MovedInto {
        moved,
        group_id: g.id,
        group_name: g.name,
    }))
}

// ---- /clip.merchant_project/*: the sources of one project ----

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProjectIdReq {
    pub project_id: i64,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_project/index", tag = "clip", params(("project_id" = i64, Query)), responses((status = 200, body = Reply<Page<SourceView>>)))]
pub async fn sources_index(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<ProjectIdReq>,
) -> Answer<Page<SourceView>> {
    let mid = c.merchant_id()?;
    let p = uc::project_of(&st.db, mid, Some(r.project_id)).await?;
    let rows = uc::sources(&st.db, mid, p.id).await?;
    Ok(reply(Page::whole(
        rows.iter().map(|s| source_view(s, lang)).collect(),
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddVideoReq {
    pub project_id: i64,
    #[serde(default)]
    pub resource_ids: Vec<i64>,
}

/// How many sources were added, and the project now.
#[derive(Debug, Serialize, ToSchema)]
pub struct Added {
    pub added: usize,
    pub project: SliceProjectView,
}

#[utoipa::path(post, path = "/clip.merchant_project/add_video", tag = "clip", request_body = AddVideoReq, responses((status = 200, body = Reply<Added>, description = "videos already in the project are skipped")))]
pub async fn add_video(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<AddVideoReq>,
) -> Answer<Added> {
    let (added, p) =
        uc::add_sources(&st.db, c.merchant_id()?, r.project_id, &r.resource_ids).await?;
    Ok(reply(Added {
        added,
        project: project_view(&st, &p, lang).await?,
    }))
}

#[utoipa::path(post, path = "/clip.merchant_project/delete", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<Done>, description = "the source is removed (its slices stay)"), (status = 422, description = "it is being sliced")))]
pub async fn source_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<Done> {
    uc::remove_source(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(post, path = "/clip.merchant_project/modify", tag = "clip", request_body = ProjectReq, responses((status = 200, body = Reply<SliceProjectView>, description = "the project with its new settings (slices already made stay)"), (status = 422, description = "a broken rule, or a video is being sliced")))]
pub async fn modify(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<ProjectReq>,
) -> Answer<SliceProjectView> {
    let p = uc::modify(
        &st.db,
        c.merchant_id()?,
        r.project_id.or(r.id),
        &r.settings(),
    )
    .await?;
    Ok(reply(project_view(&st, &p, lang).await?))
}

#[utoipa::path(post, path = "/clip.merchant_project/job_video", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<SourceView>, description = "the source, queued (start or retry; slices already made are skipped)"), (status = 422, description = "it is already being sliced")))]
pub async fn job_video(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<IdReq>,
) -> Answer<SourceView> {
    let s = uc::queue_source(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(source_view(&s, lang)))
}

#[utoipa::path(post, path = "/clip.merchant_project/job_delete", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<SourceView>, description = "the slicing is cancelled: the source fails as cancelled (slices made so far stay)"), (status = 422, description = "it is not being sliced")))]
pub async fn job_delete(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<IdReq>,
) -> Answer<SourceView> {
    let s = uc::cancel_source(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(source_view(&s, lang)))
}
