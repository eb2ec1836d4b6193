//! Acting on a task's items now: publish now / retry, send the top comments of a published item.

use super::IdReq;
use crate::LangOf;
use crate::areas::matrix::{hub, publish};
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::clock::platform_now;
use domain::i18n::Msg;
use serde::Deserialize;
use store::ListQuery;
use store::matrix as db;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ManualReq {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub task_id: Option<i64>,
}

/// Publish now / retry: the item (or every waiting and failed item of the task) becomes due now.
#[utoipa::path(post, path = "/task.merchant_forward_task/manual_forward", tag = "matrix", request_body = ManualReq, responses((status = 200, description = "{queued: n}")))]
pub async fn manual_forward(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ManualReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let now = platform_now();
    let ids: Vec<i64> = match (r.id, r.task_id) {
        (Some(id), _) => {
            let it = db::item(&st.db, id)
                .await?
                .filter(|i| i.merchant_id == mid)
                .ok_or(ApiError::NotFound)?;
            vec![it.id]
        }
        (None, Some(t)) => {
            db::task(&st.db, Some(mid), t)
                .await?
                .ok_or(ApiError::NotFound)?;
            let lq = ListQuery {
                limit: Some(1000),
                ..Default::default()
            }
            .with_filter("task_id", Some(&t.to_string()), "=");
            let (rows, _) = db::items(&st.db, Some(mid), &lq).await?;
            rows.into_iter()
                .filter(|i| i.state == "to_release" || i.state == "failed")
                .map(|i| i.id)
                .collect()
        }
        _ => return Err(ApiError::invalid("id", Msg::Required)),
    };
    let mut n = 0;
    for (k, id) in ids.iter().enumerate() {
        // A minute apart, so a merchant's posts never share a minute.
        if db::requeue_item(&st.db, mid, *id, now + k as i64 * 60_000).await? {
            n += 1;
        }
    }
    if n == 0 {
        return Err(ApiError::invalid("id", Msg::NothingToPublish));
    }
    Ok(ok(serde_json::json!({"queued": n})))
}

#[utoipa::path(post, path = "/task.merchant_forward_task/external_release", tag = "matrix", request_body = ManualReq, responses((status = 200, description = "as manual_forward (session platforms)")))]
pub async fn external_release(
    st: State<AppState>,
    c: Caller,
    r: Input<ManualReq>,
) -> ApiResult<Json> {
    manual_forward(st, c, r).await
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/top_comment_send", tag = "matrix", params(("id" = i64, Query)), responses((status = 200, description = "{sent: n}")))]
pub async fn top_comment_send(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let it = db::item(&st.db, r.id)
        .await?
        .filter(|i| i.merchant_id == mid)
        .ok_or(ApiError::NotFound)?;
    if it.item_id.is_empty() || !(it.state == "published" || it.state == "released") {
        return Err(ApiError::invalid("id", Msg::ItemNotPublished));
    }
    let n = publish::send_comments(&st.hub, &it)
        .await
        .map_err(|e| hub::refused("id", &e, lang))?;
    Ok(ok(serde_json::json!({"sent": n})))
}
