//! Quick-mix projects (`/clip.merchant_much_clip/*`): settings checked against the merchant's own
//! groups, music, voice and fonts; a preview of the plan; "generate" plans unique variants and queues
//! one render job per variant, charging points once per variant in the same transaction.

use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::clip::{POINTS_PER_VARIANT, ProjectConfig, RECOMMENDED_POOL};
use domain::i18n::Msg;
use domain::validate;
use serde::Deserialize;
use store::ListQuery;
use store::clip as db;
use store::materials as mat;
use utoipa::ToSchema;

/// The ready clips of each of the project's groups, in group order.
pub async fn pools(
    st: &AppState,
    mid: i64,
    cfg: &ProjectConfig,
) -> ApiResult<Vec<(mat::Group, Vec<mat::MediaFile>)>> {
    let mut out = vec![];
    for g in &cfg.groups {
        let group = mat::group(&st.db, mid, g.group_id).await?.ok_or_else(|| {
            ApiError::invalid_with(
                "groups",
                Msg::MaterialMissing,
                vec![("what", format!("group {}", g.group_id))],
            )
        })?;
        let q = ListQuery {
            limit: Some(1000),
            ..Default::default()
        }
        .with_filter("group_id", Some(&g.group_id.to_string()), "=")
        .with_filter("state", Some("ready"), "=")
        .with_filter("kind", Some("video"), "=");
        let (clips, _) = mat::list(&st.db, mid, "resource", &q).await?;
        out.push((group, clips));
    }
    Ok(out)
}

/// Every id the settings name must be the caller's and of the right kind.
pub(super) async fn check_refs(st: &AppState, mid: i64, cfg: &ProjectConfig) -> ApiResult<()> {
    cfg.validate()?;
    pools(st, mid, cfg).await?;
    let missing = |field: &str, what: String| {
        ApiError::invalid_with(field, Msg::MaterialMissing, vec![("what", what)])
    };
    for (field, a, kind) in [
        ("music", &cfg.music, "audio"),
        ("voice", &cfg.voice, "audio"),
    ] {
        if let Some(a) = a {
            for id in a.tracks() {
                mat::get(&st.db, mid, id)
                    .await?
                    .filter(|m| m.kind == kind)
                    .ok_or_else(|| missing(field, format!("#{id}")))?;
            }
            if let Some(id) = a.system_music_id {
                mat::system_music_one(&st.db, id)
                    .await?
                    .ok_or_else(|| missing(field, format!("built-in #{id}")))?;
            }
        }
    }
    let fonts = [
        cfg.subtitles.enabled.then_some(&cfg.subtitles.style),
        cfg.title.as_ref().map(|t| &t.style),
        cfg.has_shot_texts().then_some(&cfg.shot_style),
    ];
    for style in fonts.into_iter().flatten() {
        if let Some(id) = style.font_id {
            mat::get(&st.db, mid, id)
                .await?
                .filter(|m| m.kind == "font")
                .ok_or_else(|| missing("font_id", format!("#{id}")))?;
        }
    }
    Ok(())
}

pub(super) async fn summary(
    st: &AppState,
    mid: i64,
    p: &db::Project,
) -> ApiResult<serde_json::Value> {
    let cfg: ProjectConfig = serde_json::from_str(&p.config).unwrap_or_default();
    let pools = pools(st, mid, &cfg).await.ok();
    let groups: Vec<Vec<i64>> = pools
        .as_ref()
        .map(|p| {
            p.iter()
                .map(|(_, c)| c.iter().map(|m| m.id).collect())
                .collect()
        })
        .unwrap_or_default();
    let made = db::made_sequences(&st.db, p.id).await?;
    let capacity = domain::planner::capacity(&groups, &made).unwrap_or(0);
    let pool: usize = groups.iter().map(Vec::len).sum();
    let counts = db::variant_state_counts(&st.db, p.id).await?;
    let count = |s: &str| {
        counts
            .iter()
            .find(|(k, _)| k == s)
            .map(|(_, n)| *n)
            .unwrap_or(0)
    };
    // Only a project with something rendering has a batch to measure: the extra query is for those rows.
    let progress = if count("processing") > 0 {
        db::batch_progress(&st.db, p.id).await?
    } else {
        None
    };
    Ok(serde_json::json!({
        "id": p.id, "name": p.name, "mode": p.mode, "status": p.status, "config": cfg, "progress": progress,
        "created_at": p.created_at, "updated_at": p.updated_at,
        "capacity": capacity, "pool": pool, "small_pool": pool < RECOMMENDED_POOL,
        "variants": { "success": count("success"), "processing": count("processing"), "failed": count("failed") },
        "groups": pools.unwrap_or_default().iter().map(|(g, c)| serde_json::json!({"id": g.id, "name": g.name, "ready": c.len()})).collect::<Vec<_>>(),
    }))
}

/// How many more unique variants a project of the caller's allows.
pub(super) async fn capacity(st: &AppState, mid: i64, project_id: i64) -> ApiResult<i64> {
    let p = db::project(&st.db, mid, project_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let cfg: ProjectConfig = serde_json::from_str(&p.config).unwrap_or_default();
    let groups: Vec<Vec<i64>> = pools(st, mid, &cfg)
        .await?
        .iter()
        .map(|(_, c)| c.iter().map(|m| m.id).collect())
        .collect();
    let made = db::made_sequences(&st.db, p.id).await?;
    let n = domain::planner::capacity(&groups, &made).unwrap_or(0);
    Ok(i64::try_from(n).unwrap_or(i64::MAX))
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_much_clip/index", tag = "clip", responses((status = 200, description = "{rows:[project with capacity and variant counts], total}")))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> ApiResult<Json> {
    list(&st, &c, "normal", q).await
}

/// A page of the caller's projects of one mode, each with its capacity and variant counts.
pub(super) async fn list(st: &AppState, c: &Caller, mode: &str, q: IndexQuery) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let lq = q.list.with_filter("name", q.name.as_deref(), "include");
    let (rows, total) = db::projects(&st.db, mid, mode, &lq).await?;
    let mut out = vec![];
    for p in &rows {
        out.push(summary(st, mid, p).await?);
    }
    Ok(ok(store::list::rows_total(out, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveReq {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    #[schema(value_type = Object)]
    pub config: ProjectConfig,
}

pub(super) fn project_name(name: &str) -> ApiResult<&str> {
    let n = name.trim();
    validate::required("name", n)?;
    validate::max_chars("name", n, 50)?;
    Ok(n)
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/add", tag = "clip", request_body = SaveReq, responses((status = 200, description = "the project with its capacity")))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> ApiResult<Json> {
    save(&st, &c, "normal", r).await
}

/// Creates (no id) or updates a project of one mode after checking its settings and every id in them.
pub(super) async fn save(st: &AppState, c: &Caller, mode: &str, r: SaveReq) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    if let Some(id) = r.id {
        db::project(&st.db, mid, id)
            .await?
            .filter(|p| p.mode == mode)
            .ok_or(ApiError::NotFound)?;
    }
    let name = project_name(&r.name)?;
    check_refs(st, mid, &r.config).await?;
    let config = serde_json::to_string(&r.config).unwrap_or_default();
    let id = match r.id {
        Some(id) => {
            db::update_project(&st.db, mid, id, name, &config).await?;
            id
        }
        None => db::add_project(&st.db, mid, mode, name, &config).await?,
    };
    let p = db::project(&st.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(summary(st, mid, &p).await?))
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/modify", tag = "clip", request_body = SaveReq, responses((status = 200, description = "the project")))]
pub async fn modify(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> ApiResult<Json> {
    let id = r.id.ok_or(ApiError::invalid("id", Msg::Required))?;
    // Either mode's project: the library and the advanced page share this call.
    let mode = db::project(&st.db, c.merchant_id()?, id)
        .await?
        .ok_or(ApiError::NotFound)?
        .mode;
    save(&st, &c, &mode, r).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/add_copy", tag = "clip", request_body = IdReq, responses((status = 200, description = "the copy")))]
pub async fn add_copy(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = db::project(&st.db, mid, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let name: String = format!("{} (2)", p.name).chars().take(50).collect();
    let id = db::add_project(&st.db, mid, &p.mode, &name, &p.config).await?;
    let copy = db::project(&st.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(summary(&st, mid, &copy).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StatusReq {
    pub id: i64,
    pub status: i64,
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/edit_status", tag = "clip", request_body = StatusReq, responses((status = 200, description = "changed")))]
pub async fn edit_status(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<StatusReq>,
) -> ApiResult<Json> {
    if r.status != 0 && r.status != 1 {
        return Err(ApiError::invalid_with(
            "status",
            Msg::InvalidValue,
            vec![("reason", "1 | 0".into())],
        ));
    }
    if !db::set_project_status(&st.db, c.merchant_id()?, r.id, r.status).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/delete", tag = "clip", request_body = IdReq, responses((status = 200, description = "deleted with its variants")))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    remove(&st, &c, None, r.id).await
}

/// Deletes a project (of `mode` when given) with its variants, refused while any still renders.
pub(super) async fn remove(
    st: &AppState,
    c: &Caller,
    mode: Option<&str>,
    id: i64,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    db::project(&st.db, mid, id)
        .await?
        .filter(|p| mode.is_none_or(|m| p.mode == m))
        .ok_or(ApiError::NotFound)?;
    if db::rendering_variants(&st.db, id).await? > 0 {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    for key in db::delete_project(&st.db, mid, id)
        .await?
        .unwrap_or_default()
    {
        let _ = st.storage.delete(&key).await;
    }
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(method(get, post), path = "/clip.merchant_much_clip/get_resource_group", tag = "clip", responses((status = 200, description = "shot groups with ready counts")))]
pub async fn resource_groups(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    let q = ListQuery {
        limit: Some(1000),
        ..Default::default()
    };
    let (rows, total) = mat::groups(&st.db, c.merchant_id()?, "video", &q).await?;
    Ok(ok(store::list::rows_total(rows, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GroupReq {
    pub group_id: i64,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_much_clip/get_resource", tag = "clip", params(("group_id" = i64, Query)), responses((status = 200, description = "the group's ready clips")))]
pub async fn resources(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GroupReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    mat::group(&st.db, mid, r.group_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let q = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter("group_id", Some(&r.group_id.to_string()), "=")
    .with_filter("state", Some("ready"), "=");
    let (rows, total) = mat::list(&st.db, mid, "resource", &q).await?;
    let rows: Vec<_> = rows
        .iter()
        .map(|m| crate::areas::materials::files::view(&st, m))
        .collect();
    Ok(ok(store::list::rows_total(rows, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GenerateReq {
    pub id: i64,
    /// How many variants (default: the project's output count).
    #[serde(default)]
    pub count: Option<i64>,
}

/// Plans `count` variants of a project against what it already made.
async fn planned(
    st: &AppState,
    mid: i64,
    r: &GenerateReq,
) -> ApiResult<(
    db::Project,
    ProjectConfig,
    domain::planner::Plan,
    Vec<(mat::Group, Vec<mat::MediaFile>)>,
)> {
    let p = db::project(&st.db, mid, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    if p.status == 0 {
        return Err(ApiError::invalid("id", Msg::ProjectDisabled));
    }
    let cfg: ProjectConfig =
        serde_json::from_str(&p.config).map_err(|e| ApiError::Internal(e.into()))?;
    let count = r.count.unwrap_or(cfg.output_count);
    if !(1..=domain::clip::MAX_BATCH).contains(&count) {
        return Err(ApiError::invalid_with(
            "count",
            Msg::InvalidValue,
            vec![("reason", format!("1–{}", domain::clip::MAX_BATCH))],
        ));
    }
    let pools = pools(st, mid, &cfg).await?;
    if let Some((g, _)) = pools.iter().find(|(_, c)| c.is_empty()) {
        return Err(ApiError::invalid_with(
            "groups",
            Msg::GroupEmpty,
            vec![("name", g.name.clone())],
        ));
    }
    let groups: Vec<Vec<i64>> = pools
        .iter()
        .map(|(_, c)| c.iter().map(|m| m.id).collect())
        .collect();
    let made = db::made_sequences(&st.db, p.id).await?;
    let plan = domain::planner::plan(&groups, &made, count as usize, p.seed as u64).map_err(
        |e| match e {
            domain::planner::PlanError::OverCapacity {
                requested,
                capacity,
            } => ApiError::invalid_with(
                "count",
                Msg::OverCapacity,
                vec![
                    ("capacity", capacity.to_string()),
                    ("requested", requested.to_string()),
                ],
            ),
            domain::planner::PlanError::TooFewGroups { .. } => {
                ApiError::invalid("groups", Msg::TooFewGroups)
            }
            other => ApiError::invalid_with(
                "groups",
                Msg::InvalidValue,
                vec![("reason", other.to_string())],
            ),
        },
    )?;
    Ok((p, cfg, plan, pools))
}

fn plan_view(
    plan: &domain::planner::Plan,
    pools: &[(mat::Group, Vec<mat::MediaFile>)],
) -> serde_json::Value {
    let name = |id: i64| {
        pools
            .iter()
            .flat_map(|(_, c)| c.iter())
            .find(|m| m.id == id)
            .map(|m| m.name.clone())
            .unwrap_or_default()
    };
    serde_json::json!({
        "capacity_before": plan.capacity_before,
        "capacity_after": plan.capacity_after,
        "max_use": plan.max_use,
        "min_use": plan.min_use,
        "max_spread": plan.max_spread,
        "balanced": plan.balanced,
        "points": plan.variants.len() as i64 * POINTS_PER_VARIANT,
        "sequences": plan.variants.iter().map(|s| s.iter().map(|id| serde_json::json!({"id": id, "name": name(*id)})).collect::<Vec<_>>()).collect::<Vec<_>>(),
    })
}

#[utoipa::path(method(get, post), path = "/clip.merchant_much_clip/preview_video", tag = "clip", request_body = GenerateReq, responses((status = 200, description = "the plan: sequences, capacity, usage spread, points — nothing is rendered")))]
pub async fn preview(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GenerateReq>,
) -> ApiResult<Json> {
    let (_, _, plan, pools) = planned(&st, c.merchant_id()?, &r).await?;
    Ok(ok(plan_view(&plan, &pools)))
}

/// Plans and queues variants (also "continue adding": the planner never repeats a made sequence).
pub async fn generate(st: &AppState, c: &Caller, r: GenerateReq) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let (p, _, plan, pools) = planned(st, mid, &r).await?;
    let ids = db::add_variants(&st.db, mid, p.id, &plan.variants, POINTS_PER_VARIANT).await?;
    let mut v = plan_view(&plan, &pools);
    v["variant_ids"] = serde_json::json!(ids);
    Ok(ok(v))
}

#[utoipa::path(post, path = "/clip.merchant_much_clip/add_video", tag = "clip", request_body = GenerateReq, responses((status = 200, description = "{variant_ids, capacity_after, max_use, min_use, points}")))]
pub async fn add_video(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GenerateReq>,
) -> ApiResult<Json> {
    generate(&st, &c, r).await
}
