//! Rescheduling a task: its items that have not gone out yet get a new plan, each on its account
//! (`services::matrix::tasks::schedule`).

use super::lists::task_view;
use crate::areas::matrix::views::TaskView;
use crate::error::{Answer, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use services::matrix::tasks::schedule::{self as uc, NewSchedule};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct TimeReq {
    #[schema(minimum = 1)]
    pub id: i64,
    #[serde(default)]
    #[schema(required = true, value_type = domain::matrix::TimeMode)]
    pub time_mode: String,
    /// `YYYY-MM-DD`, today or later.
    #[serde(default)]
    #[schema(required = true, format = Date)]
    pub start_date: String,
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 3)]
    pub daily_quantity: i64,
    #[serde(default)]
    #[schema(required = true, minimum = 1, maximum = 90)]
    pub days: i64,
    #[serde(default)]
    pub times: Vec<String>,
}

/// Replans the items that have not gone out yet with a new schedule.
#[utoipa::path(post, path = "/task.merchant_forward_task/task_time_save", tag = "matrix", request_body = TimeReq, responses((status = 200, body = Reply<TaskView>)))]
pub async fn task_time_save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TimeReq>,
) -> Answer<TaskView> {
    let s = NewSchedule {
        time_mode: &r.time_mode,
        start_date: &r.start_date,
        daily_quantity: r.daily_quantity,
        days: r.days,
        times: &r.times,
    };
    let t = uc::reschedule(&st.db, c.merchant_id()?, r.id, &s).await?;
    Ok(reply(task_view(&st, &t).await?))
}

#[utoipa::path(post, path = "/task.merchant_forward_task/external_task_time_save", tag = "matrix", request_body = TimeReq, responses((status = 200, body = Reply<TaskView>)))]
pub async fn external_task_time_save(
    st: State<AppState>,
    c: Caller,
    r: Input<TimeReq>,
) -> Answer<TaskView> {
    task_time_save(st, c, r).await
}
