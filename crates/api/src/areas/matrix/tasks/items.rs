//! Acting on a task's items now: publish now / retry, send the top comments of a published item
//! (`services::matrix::tasks::items`).

use super::IdReq;
use crate::areas::matrix::views::{Queued, Sent};
use crate::error::{Answer, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use services::matrix::tasks::items as uc;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ManualReq {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub task_id: Option<i64>,
}

/// Publish now / retry: the item (or every waiting and failed item of the task) becomes due now.
#[utoipa::path(post, path = "/task.merchant_forward_task/manual_forward", tag = "matrix", request_body = ManualReq, responses((status = 200, body = Reply<Queued>)))]
pub async fn manual_forward(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ManualReq>,
) -> Answer<Queued> {
    let queued = uc::publish_now(&st.db, c.merchant_id()?, r.id, r.task_id).await?;
    Ok(reply(Queued { queued }))
}

#[utoipa::path(post, path = "/task.merchant_forward_task/external_release", tag = "matrix", request_body = ManualReq, responses((status = 200, body = Reply<Queued>)))]
pub async fn external_release(
    st: State<AppState>,
    c: Caller,
    r: Input<ManualReq>,
) -> Answer<Queued> {
    manual_forward(st, c, r).await
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/top_comment_send", tag = "matrix", params(("id" = i64, Query)), responses((status = 200, body = Reply<Sent>)))]
pub async fn top_comment_send(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<Sent> {
    let sent = uc::send_comments(&st.hub, c.merchant_id()?, r.id).await?;
    Ok(reply(Sent { sent }))
}
