//! Tasks and their items as the console lists them; deleting a task.

use super::IdReq;
use super::videos::video_urls;
use crate::LangOf;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::{Lang, Msg};
use serde::Deserialize;
use store::ListQuery;
use store::matrix as db;
use utoipa::ToSchema;

pub async fn task_view(st: &AppState, t: &db::Task) -> ApiResult<serde_json::Value> {
    let c = db::item_counts(&st.db, t.id).await?;
    let cfg: serde_json::Value = serde_json::from_str(&t.config).unwrap_or_default();
    let done = c.published + c.released;
    Ok(serde_json::json!({
        "id": t.id, "name": t.name, "platform": t.platform, "created_at": t.created_at,
        "merchant_id": t.merchant_id, "merchant_name": t.merchant_name,
        "review_state": t.review_state, "review_reason": t.review_reason, "review_due_at": t.review_due_at,
        "reviewed_at": t.reviewed_at, "overdue": t.review_state == "reviewing" && domain::now_ms() > t.review_due_at,
        "time_mode": t.time_mode, "start_date": t.start_date, "days": t.days, "daily_quantity": t.daily_quantity,
        "titles": cfg["titles"], "topics": cfg["topics"], "mount_type": cfg["mount_type"],
        "accounts": cfg["account_ids"].as_array().map(|a| a.len()).unwrap_or(0),
        "videos": c.total,
        "counts": {"total": c.total, "to_release": c.to_release, "publishing": c.publishing, "published": c.published, "released": c.released, "failed": c.failed},
        "progress": if c.total > 0 { done * 100 / c.total } else { 0 },
        "failed": c.failed,
    }))
}

pub fn item_view(st: &AppState, i: &db::Item, lang: Lang) -> serde_json::Value {
    let (cover, src) = video_urls(st, &i.video_key);
    serde_json::json!({
        "id": i.id, "task_id": i.task_id, "task_name": i.task_name,
        "account": {"id": i.account_id, "nickname": i.nickname, "platform": i.platform, "avatar": i.avatar},
        "video": {"key": i.video_key, "name": i.video_name, "cover": cover, "src": src},
        "title": i.title, "comments": serde_json::from_str::<serde_json::Value>(&i.comments).unwrap_or_default(),
        "scheduled_at": i.scheduled_at, "state": i.state, "review_state": i.review_state,
        "error": if lang == Lang::En { &i.error_en } else { &i.error_zh },
        "attempts": i.attempts, "item_id": i.item_id, "share_url": i.share_url,
        "published_at": i.published_at, "verified_at": i.verified_at, "released_at": i.released_at,
        "comments_sent": i.comments_sent, "plays": i.plays, "likes": i.likes, "comment_count": i.comment_count,
    })
}

#[derive(Debug, Deserialize)]
pub struct TaskIndex {
    #[serde(flatten)]
    pub list: ListQuery,
    pub name: Option<String>,
    pub platform: Option<String>,
    pub review_state: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/index", tag = "matrix", responses((status = 200, description = "{rows:[Task], total}")))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<TaskIndex>,
) -> ApiResult<Json> {
    let lq = q
        .list
        .with_filter(
            "name",
            q.name.as_deref().filter(|s| !s.is_empty()),
            "include",
        )
        .with_filter(
            "platform",
            q.platform.as_deref().filter(|s| !s.is_empty()),
            "=",
        )
        .with_filter(
            "review_state",
            q.review_state.as_deref().filter(|s| !s.is_empty()),
            "=",
        );
    let (rows, total) = db::tasks(&st.db, c.merchant_id()?, &lq).await?;
    let mut out = vec![];
    for t in &rows {
        out.push(task_view(&st, t).await?);
    }
    Ok(ok(store::list::rows_total(out, total)))
}

#[utoipa::path(post, path = "/task.merchant_forward_task/delete", tag = "matrix", request_body = IdReq, responses((status = 200, description = "deleted; waiting items cancelled")))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    match db::delete_task(&st.db, c.merchant_id()?, r.id).await? {
        None => Err(ApiError::invalid("id", Msg::ItemBusy)),
        Some(false) => Err(ApiError::NotFound),
        Some(true) => Ok(ok(serde_json::json!({}))),
    }
}

#[derive(Debug, Deserialize)]
pub struct ItemQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub task_id: Option<i64>,
    pub state: Option<String>,
}

pub async fn list_items(
    st: &AppState,
    mid: Option<i64>,
    q: ItemQuery,
    lang: Lang,
) -> ApiResult<serde_json::Value> {
    let lq = q
        .list
        .with_filter("task_id", q.task_id.map(|t| t.to_string()).as_deref(), "=")
        .with_filter("state", q.state.as_deref().filter(|s| !s.is_empty()), "=");
    let (rows, total) = db::items(&st.db, mid, &lq).await?;
    let mut summary = serde_json::json!({});
    if let Some(t) = q.task_id {
        let c = db::item_counts(&st.db, t).await?;
        summary = serde_json::json!({"to_release": c.to_release, "publishing": c.publishing, "published": c.published, "released": c.released, "failed": c.failed});
    }
    let mut data = store::list::rows_total(
        rows.iter()
            .map(|i| item_view(st, i, lang))
            .collect::<Vec<_>>(),
        total,
    );
    data["summary"] = summary;
    Ok(data)
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/forward_video_release", tag = "matrix", responses((status = 200, description = "{rows:[Item], total, summary}")))]
pub async fn forward_video_release(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<ItemQuery>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    if let Some(t) = q.task_id {
        db::task(&st.db, Some(mid), t)
            .await?
            .ok_or(ApiError::NotFound)?;
    }
    Ok(ok(list_items(&st, Some(mid), q, lang).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TaskIdReq {
    pub task_id: i64,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/forward_video_sm_release", tag = "matrix", responses((status = 200, description = "per-state counts of a task")))]
pub async fn forward_video_sm_release(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TaskIdReq>,
) -> ApiResult<Json> {
    db::task(&st.db, Some(c.merchant_id()?), r.task_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let n = db::item_counts(&st.db, r.task_id).await?;
    Ok(ok(
        serde_json::json!({"to_release": n.to_release, "publishing": n.publishing, "published": n.published, "released": n.released, "failed": n.failed, "total": n.total}),
    ))
}
