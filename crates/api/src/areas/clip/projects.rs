//! Quick-mix projects (`/clip.merchant_much_clip/*`): settings checked against the merchant's own
//! groups, music, voice and fonts; a preview of the plan; "generate" plans unique variants and queues
//! one render job per variant, charging points once per variant in the same transaction.

use crate::areas::materials::views::Group;
use crate::error::{Answer, ApiError, ApiResult, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::files::MediaView;
use crate::state::AppState;
use axum::extract::State;
use domain::clip::ProjectMode;
use domain::clip::{ProjectConfig, RECOMMENDED_POOL};
use domain::i18n::Msg;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::clip::projects as uc;
use utoipa::ToSchema;

/// Variants of a project by state.
#[derive(Debug, Serialize, ToSchema)]
pub struct VariantCounts {
    pub success: i64,
    pub processing: i64,
    pub failed: i64,
}

/// A shot group of a project with its ready clips.
#[derive(Debug, Serialize, ToSchema)]
pub struct GroupCount {
    pub id: i64,
    pub name: String,
    pub ready: usize,
}

/// A mixing project as its list and form show it: its settings, how many unique variants it still
/// allows, its pool of clips and its variants by state.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProjectView {
    pub id: i64,
    pub name: String,
    pub mode: domain::clip::ProjectMode,
    pub status: i64,
    pub config: ProjectConfig,
    /// The running batch's progress (0–100), null when nothing renders.
    pub progress: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub capacity: u64,
    /// Unique combinations left that are shorter than the voice-over: never planned (they would cut
    /// it off), so not in `capacity`.
    pub short: u64,
    /// The voice-over's length (its longest track), ms; 0 without one.
    pub voice_ms: i64,
    pub pool: usize,
    pub small_pool: bool,
    /// Every slot puts each of its clips at the same times: subtitled variants are joins of pieces
    /// burned once (much faster in a batch).
    pub fixed_slots: bool,
    pub variants: VariantCounts,
    pub groups: Vec<GroupCount>,
}

pub(super) async fn summary(st: &AppState, mid: i64, p: &uc::Project) -> ApiResult<ProjectView> {
    let o = uc::overview(&st.db, mid, p).await?;
    Ok(ProjectView {
        id: p.id,
        name: p.name.clone(),
        mode: p.mode,
        status: p.status,
        config: o.config,
        progress: o.progress,
        created_at: p.created_at,
        updated_at: p.updated_at,
        capacity: o.capacity,
        short: o.short,
        voice_ms: o.voice_ms,
        pool: o.pool,
        small_pool: o.pool < RECOMMENDED_POOL,
        fixed_slots: o.fixed_slots,
        variants: VariantCounts {
            success: o.success,
            processing: o.processing,
            failed: o.failed,
        },
        groups: o
            .pools
            .iter()
            .map(|(g, c)| GroupCount {
                id: g.id,
                name: g.name.clone(),
                ready: c.len(),
            })
            .collect(),
    })
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_much_clip/index", tag = "clip", responses((status = 200, body = Reply<Page<ProjectView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<ProjectView>> {
    list(&st, &c, ProjectMode::Normal, q).await
}

/// A page of the caller's projects of one mode, each with its capacity and variant counts.
pub(super) async fn list(
    st: &AppState,
    c: &Caller,
    mode: ProjectMode,
    q: IndexQuery,
) -> Answer<Page<ProjectView>> {
    let mid = c.merchant_id()?;
    let lq = q.list.with_filter("name", q.name.as_deref(), "include");
    let (rows, total) = uc::list(&st.db, mid, mode, &lq).await?;
    let mut out = vec![];
    for p in &rows {
        out.push(summary(st, mid, p).await?);
    }
    Ok(reply(Page::new(out, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = ProjectSaveReq)]
pub struct SaveReq {
    #[serde(default)]
    #[schema(minimum = 1)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub name: String,
    #[serde(default)]
    pub config: ProjectConfig,
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/add", tag = "clip", request_body = SaveReq, responses((status = 200, body = Reply<ProjectView>)))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> Answer<ProjectView> {
    save(&st, &c, ProjectMode::Normal, r).await
}

/// Creates (no id) or updates a project of one mode.
pub(super) async fn save(
    st: &AppState,
    c: &Caller,
    mode: ProjectMode,
    r: SaveReq,
) -> Answer<ProjectView> {
    let mid = c.merchant_id()?;
    let p = uc::save_form(&st.db, &st.storage, mid, mode, r.id, &r.name, &r.config).await?;
    Ok(reply(summary(st, mid, &p).await?))
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/modify", tag = "clip", request_body = SaveReq, responses((status = 200, body = Reply<ProjectView>)))]
pub async fn modify(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> Answer<ProjectView> {
    let id = r.id.ok_or(ApiError::invalid("id", Msg::Required))?;
    // Either mode's project: the library and the advanced page share this call.
    let mode = uc::mode_of(&st.db, c.merchant_id()?, id).await?;
    save(&st, &c, mode, r).await
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/add_copy", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<ProjectView>, description = "the copy")))]
pub async fn add_copy(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<ProjectView> {
    let mid = c.merchant_id()?;
    let copy = uc::copy(&st.db, mid, r.id).await?;
    Ok(reply(summary(&st, mid, &copy).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = ProjectStatusReq)]
pub struct StatusReq {
    pub id: i64,
    pub status: i64,
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/edit_status", tag = "clip", request_body = StatusReq, responses((status = 200, body = Reply<Done>)))]
pub async fn edit_status(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<StatusReq>,
) -> Answer<Done> {
    uc::set_status(&st.db, c.merchant_id()?, r.id, r.status).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/delete", tag = "clip", request_body = IdReq, responses((status = 200, body = Reply<Done>, description = "deleted with its variants")))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    remove(&st, &c, None, r.id).await
}

/// Deletes a project (of `mode` when given) with its variants, refused while any still renders.
pub(super) async fn remove(
    st: &AppState,
    c: &Caller,
    mode: Option<ProjectMode>,
    id: i64,
) -> Answer<Done> {
    uc::remove(&st.db, &st.storage, c.merchant_id()?, mode, id).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(method(get, post), path = "/clip.merchant_much_clip/get_resource_group", tag = "clip", responses((status = 200, body = Reply<Page<Group>>, description = "shot groups with ready counts")))]
pub async fn resource_groups(State(st): State<AppState>, c: Caller) -> Answer<Page<Group>> {
    let q = ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (rows, total) =
        services::materials::library::groups(&st.db, c.merchant_id()?, "video", &q).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(Group::from).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = ProjectGroupReq)]
pub struct GroupReq {
    pub group_id: i64,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_much_clip/get_resource", tag = "clip", params(("group_id" = i64, Query)), responses((status = 200, body = Reply<Page<MediaView>>, description = "the group's ready clips")))]
pub async fn resources(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GroupReq>,
) -> Answer<Page<MediaView>> {
    let (rows, total) = uc::group_clips(&st.db, c.merchant_id()?, r.group_id).await?;
    let rows = rows.iter().map(|m| crate::files::view(&st, m)).collect();
    Ok(reply(Page::new(rows, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GenerateReq {
    #[schema(minimum = 1)]
    pub id: i64,
    /// How many variants (default: the project's output count).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 200)]
    pub count: Option<i64>,
}

/// A clip of a planned sequence.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlannedClip {
    pub id: i64,
    pub name: String,
}

/// A plan of variants: the sequences, the capacity before and after, the usage spread and the points;
/// with the variants queued when it was carried out.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlanView {
    pub capacity_before: u64,
    pub capacity_after: u64,
    pub max_use: u32,
    pub min_use: u32,
    pub max_spread: u32,
    pub balanced: bool,
    pub points: i64,
    pub sequences: Vec<Vec<PlannedClip>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant_ids: Option<Vec<i64>>,
    /// The most shot slots two variants of the project share after this plan (the planner keeps it
    /// low: duplicate risk), of `slots`.
    pub max_shared: u32,
    pub slots: usize,
    /// When two share more than half the slots: the groups to add clips to so that every variant can
    /// take its own clip in half of them.
    pub lacking: Vec<LackingClips>,
}

/// A shot group short of clips for variants far enough apart.
#[derive(Debug, Serialize, ToSchema)]
pub struct LackingClips {
    pub group_id: i64,
    pub name: String,
    /// How many clips to add.
    pub clips: usize,
}

fn plan_view(planned: &uc::Planned, variant_ids: Option<Vec<i64>>) -> PlanView {
    let (plan, pools) = (&planned.plan, &planned.pools);
    let name = |id: i64| {
        pools
            .iter()
            .flat_map(|(_, c)| c.iter())
            .find(|m| m.id == id)
            .map(|m| m.name.clone())
            .unwrap_or_default()
    };
    PlanView {
        capacity_before: plan.capacity_before,
        capacity_after: plan.capacity_after,
        max_use: plan.max_use,
        min_use: plan.min_use,
        max_spread: plan.max_spread,
        balanced: plan.balanced,
        points: planned.points,
        max_shared: plan.max_shared,
        slots: pools.len(),
        lacking: planned
            .lacking
            .iter()
            .filter_map(|&(g, clips)| {
                pools.get(g).map(|(group, _)| LackingClips {
                    group_id: group.id,
                    name: group.name.clone(),
                    clips,
                })
            })
            .collect(),
        sequences: plan
            .variants
            .iter()
            .map(|s| {
                s.iter()
                    .map(|id| PlannedClip {
                        id: *id,
                        name: name(*id),
                    })
                    .collect()
            })
            .collect(),
        variant_ids,
    }
}

#[utoipa::path(method(get, post), path = "/clip.merchant_much_clip/preview_video", tag = "clip", request_body = GenerateReq, responses((status = 200, body = Reply<PlanView>, description = "the plan: sequences, capacity, usage spread, points — nothing is rendered")))]
pub async fn preview(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GenerateReq>,
) -> Answer<PlanView> {
    let (_, planned) = uc::plan(&st.db, c.merchant_id()?, r.id, r.count).await?;
    Ok(reply(plan_view(&planned, None)))
}

/// A carried-out plan with its variants.
pub(super) fn generated((planned, ids): (uc::Planned, Vec<i64>)) -> PlanView {
    plan_view(&planned, Some(ids))
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/add_video", tag = "clip", request_body = GenerateReq, responses((status = 200, body = Reply<PlanView>, description = "the plan carried out, with its variant_ids")))]
pub async fn add_video(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GenerateReq>,
) -> Answer<PlanView> {
    let done = uc::generate(&st.db, c.merchant_id()?, r.id, r.count).await?;
    Ok(reply(generated(done)))
}
