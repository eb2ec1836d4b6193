//! The finished-video library (`/clip.merchant_video_library/*`): every variant with its cover, duration,
//! the clips it used, its state and whether it was used for publishing.

use crate::areas::materials::files;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, IdsReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use serde::Deserialize;
use store::ListQuery;
use store::clip as db;
use utoipa::ToSchema;

async fn view(st: &AppState, v: &db::Variant) -> ApiResult<serde_json::Value> {
    Ok(views(st, std::slice::from_ref(v)).await?.remove(0))
}

/// Variants of one merchant with their clips' and project's names: one query for every clip of the page
/// and one per project, not two per row (the list at 100k rows spent its time there).
async fn views(st: &AppState, vs: &[db::Variant]) -> ApiResult<Vec<serde_json::Value>> {
    use std::collections::{BTreeSet, HashMap};
    let Some(mid) = vs.first().map(|v| v.merchant_id) else {
        return Ok(vec![]);
    };
    let ids: BTreeSet<i64> = vs.iter().flat_map(|v| v.seq()).collect();
    let ids: Vec<i64> = ids.into_iter().collect();
    let names: HashMap<i64, String> = store::materials::get_many(&st.db, mid, &ids)
        .await?
        .into_iter()
        .map(|m| (m.id, m.name))
        .collect();
    let mut projects: HashMap<i64, Option<String>> = HashMap::new();
    for p in vs.iter().map(|v| v.project_id).collect::<BTreeSet<_>>() {
        let name = db::project(&st.db, mid, p).await?.map(|p| p.name);
        projects.insert(p, name);
    }
    let url = |v: &db::Variant, key: &str, what: &str| -> serde_json::Value {
        if key.is_empty() {
            serde_json::Value::Null
        } else {
            files::url(st, v.id, what).into()
        }
    };
    Ok(vs
        .iter()
        .map(|v| {
            let mut out = serde_json::to_value(v).unwrap_or_default();
            let clips: Vec<serde_json::Value> = v
                .seq()
                .into_iter()
                .map(|id| serde_json::json!({ "id": id, "name": names.get(&id) }))
                .collect();
            out["clips"] = clips.into();
            out["project_name"] = projects.get(&v.project_id).cloned().flatten().into();
            out["seq"] = serde_json::json!(v.seq());
            out["src"] = url(v, &v.video_key, "clip");
            out["cover"] = url(v, &v.cover_key, "cover");
            out
        })
        .collect())
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub project_id: Option<i64>,
    #[serde(default)]
    pub state: Option<String>,
    #[serde(default)]
    pub used: Option<String>,
}

async fn list(st: &AppState, c: &Caller, q: IndexQuery) -> ApiResult<Json> {
    let lq = q
        .list
        .with_filter(
            "project_id",
            q.project_id.map(|p| p.to_string()).as_deref(),
            "=",
        )
        .with_filter("state", q.state.as_deref(), "=")
        .with_filter("used", q.used.as_deref(), "=");
    let (rows, total) = db::variants(&st.db, c.merchant_id()?, &lq).await?;
    Ok(ok(store::list::rows_total(views(st, &rows).await?, total)))
}

#[utoipa::path(method(get, post), path = "/clip.merchant_video_library/index", tag = "clip", responses((status = 200, description = "{rows:[variant with src, cover, clips], total}")))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> ApiResult<Json> {
    list(&st, &c, q).await
}

#[utoipa::path(method(get, post), path = "/clip.merchant_video_library/video_index", tag = "clip", params(("project_id" = i64, Query)), responses((status = 200, description = "one project's variants")))]
pub async fn video_index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> ApiResult<Json> {
    if q.project_id.is_none() {
        return Err(ApiError::invalid("project_id", Msg::Required));
    }
    list(&st, &c, q).await
}

/// Checks a batch before any of it changes: every id is one of the merchant's (not deleted)
/// variants, and `refuse` has nothing against its state; the first problem answers for the batch.
async fn all_found(
    st: &AppState,
    mid: i64,
    ids: &[i64],
    refuse: impl Fn(&str) -> Option<Msg>,
) -> ApiResult<()> {
    for id in ids {
        let v = db::variant(&st.db, mid, *id)
            .await?
            .filter(|v| v.state != "deleted")
            .ok_or(ApiError::NotFound)?;
        if let Some(msg) = refuse(&v.state) {
            return Err(ApiError::invalid("id", msg));
        }
    }
    Ok(())
}

#[utoipa::path(post, path = "/clip.merchant_video_library/video_delete", tag = "clip", request_body = IdsReq, responses((status = 200, description = "deleted (the sequence is never made again)")))]
pub async fn video_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let ids = r.all("id")?;
    all_found(&st, mid, &ids, |state| {
        (state == "processing").then_some(Msg::VariantBusy)
    })
    .await?;
    for id in ids {
        for key in db::delete_variant(&st.db, mid, id)
            .await?
            .unwrap_or_default()
        {
            let _ = st.storage.delete(&key).await;
        }
    }
    Ok(ok(serde_json::json!({})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UseReq {
    pub id: i64,
    /// true (default) marks it used, false unused.
    #[serde(default)]
    pub used: Option<bool>,
}

#[utoipa::path(post, path = "/clip.merchant_video_library/video_use", tag = "clip", request_body = UseReq, responses((status = 200, description = "marked")))]
pub async fn video_use(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<UseReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let v = db::variant(&st.db, mid, r.id)
        .await?
        .filter(|v| v.state != "deleted")
        .ok_or(ApiError::NotFound)?;
    if v.state != "success" {
        return Err(ApiError::invalid("id", Msg::VariantBusy));
    }
    db::set_used(&st.db, mid, r.id, r.used.unwrap_or(true)).await?;
    let v = db::variant(&st.db, mid, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(view(&st, &v).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_video_library/job_video", tag = "clip", params(("id" = i64, Query)), responses((status = 200, description = "the variant's render job: state, progress, attempts, error")))]
pub async fn job_video(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let v = db::variant(&st.db, c.merchant_id()?, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let job = store::jobs::get(&st.db, v.job_id).await?;
    Ok(ok(serde_json::json!({
        "variant_id": v.id,
        "state": v.state,
        "progress": v.progress,
        "error": v.error,
        "job": job.map(|j| serde_json::json!({"id": j.id, "state": j.state, "attempts": j.attempts, "max_attempts": j.max_attempts, "last_error": j.last_error})),
    })))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ContinueReq {
    pub id: i64,
    #[serde(default)]
    pub count: Option<i64>,
}

#[utoipa::path(method(get, post), path = "/clip.merchant_video_library/continue_add_video", tag = "clip", params(("id" = i64, Query)), responses((status = 200, description = "more unique variants of the project")))]
pub async fn continue_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ContinueReq>,
) -> ApiResult<Json> {
    super::projects::generate(
        &st,
        &c,
        super::projects::GenerateReq {
            id: r.id,
            count: r.count,
        },
    )
    .await
}

/// What a cancelled variant says (in both languages: it is stored with the variant).
const CANCELLED: &str = "已取消合成 / cancelled by the user";

#[utoipa::path(post, path = "/clip.merchant_video_library/video_cancel", tag = "clip", request_body = IdsReq, responses((status = 200, description = "{cancelled: n}; each one's points are refunded")))]
pub async fn video_cancel(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let ids = r.all("id")?;
    all_found(&st, mid, &ids, |state| {
        (state != "processing").then_some(Msg::NotCancellable)
    })
    .await?;
    let mut n = 0;
    for id in ids {
        // The variant first (a render finishing now then finds it cancelled), then its job, then
        // the points — refunds are once per key, like a failed render's.
        if let Some((job, points_key)) = db::cancel_variant(&st.db, mid, id, CANCELLED).await? {
            store::jobs::cancel(&st.db, job, CANCELLED).await?;
            store::points::refund(
                &st.db,
                mid,
                &points_key,
                domain::points::Reason::VideoSynthesisCancelled,
            )
            .await
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("{e}")))?;
            n += 1;
        }
    }
    Ok(ok(serde_json::json!({ "cancelled": n })))
}

#[utoipa::path(post, path = "/clip.merchant_video_library/add", tag = "clip", request_body = IdsReq, responses((status = 200, description = "{variant_ids}: the merchant's own finished videos (video materials) put into the library")))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let ids = r.all("ids")?;
    // Every id is checked before anything is linked: all or nothing.
    let mut files = vec![];
    for id in &ids {
        let m = store::materials::get(&st.db, mid, *id)
            .await?
            .ok_or(ApiError::NotFound)?;
        if m.kind != "video" || m.state != "ready" {
            return Err(ApiError::invalid_with(
                "ids",
                Msg::NotAVideo,
                vec![("name", m.name)],
            ));
        }
        if db::is_imported(&st.db, mid, m.id).await? {
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
        st.storage
            .link(&m.storage_key, &video_key)
            .await
            .map_err(internal)?;
        if !cover_key.is_empty() {
            st.storage
                .link(&m.poster_key, &cover_key)
                .await
                .map_err(internal)?;
        }
        match db::import_variant(&st.db, mid, m.id, m.duration_ms, &video_key, &cover_key).await? {
            Some(id) => out.push(id),
            None => {
                let _ = st.storage.delete(&video_key).await;
                let _ = st.storage.delete(&cover_key).await;
                return Err(ApiError::invalid_with(
                    "ids",
                    Msg::AlreadyInLibrary,
                    vec![("name", m.name)],
                ));
            }
        }
    }
    Ok(ok(serde_json::json!({ "variant_ids": out })))
}

#[utoipa::path(post, path = "/clip.merchant_video_library/job_video_add_all", tag = "clip", request_body = IdReq, responses((status = 200, description = "renders every unique variant the project still allows (at most 200 per call), like add_video")))]
pub async fn job_video_add_all(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let capacity = super::projects::capacity(&st, c.merchant_id()?, r.id).await?;
    super::projects::generate(
        &st,
        &c,
        super::projects::GenerateReq {
            id: r.id,
            count: Some(capacity.clamp(1, domain::clip::MAX_BATCH)),
        },
    )
    .await
}
