//! Rescheduling a task: its items that have not gone out yet get a new plan, each on its account.

use super::lists::task_view;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::clock::platform_now;
use domain::matrix as rules;
use serde::Deserialize;
use store::ListQuery;
use store::matrix as db;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct TimeReq {
    pub id: i64,
    #[serde(default)]
    pub time_mode: String,
    #[serde(default)]
    pub start_date: String,
    #[serde(default)]
    pub daily_quantity: i64,
    #[serde(default)]
    pub days: i64,
    #[serde(default)]
    pub times: Vec<String>,
}

/// Replans the items that have not gone out yet with a new schedule.
#[utoipa::path(post, path = "/task.merchant_forward_task/task_time_save", tag = "matrix", request_body = TimeReq, responses((status = 200, description = "the task")))]
pub async fn task_time_save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TimeReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let t = db::task(&st.db, Some(mid), r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let s = rules::schedule(
        &r.time_mode,
        &r.start_date,
        r.days,
        r.daily_quantity,
        &r.times,
        rules::day_of(platform_now()),
    )?;
    let lq = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter("task_id", Some(&t.id.to_string()), "=")
    .with_filter("state", Some("to_release"), "=");
    let (waiting, _) = db::items(&st.db, Some(mid), &lq).await?;
    let mut accounts: Vec<i64> = waiting.iter().map(|i| i.account_id).collect();
    accounts.sort_unstable();
    accounts.dedup();
    let from = rules::at(s.start_day, 0);
    let to = rules::at(s.start_day + s.days as i64 + 1, 0);
    let mut taken = db::taken_minutes(&st.db, mid, from, to).await?;
    for i in &waiting {
        taken.remove(&i.scheduled_at.div_euclid(60_000));
    }
    let mut plan = db::Replan {
        time_mode: r.time_mode.clone(),
        start_date: r.start_date.trim().to_string(),
        days: r.days,
        daily_quantity: r.daily_quantity,
        moved: Vec::new(),
        refused: Vec::new(),
    };
    // Keep each item on its account: plan per account with that account's items as its videos.
    for (k, a) in (0u64..).zip(&accounts) {
        let mine: Vec<&db::Item> = waiting.iter().filter(|i| i.account_id == *a).collect();
        let d = rules::distribute(
            1,
            mine.len(),
            mine.len(),
            &s,
            platform_now(),
            &taken,
            t.seed as u64 ^ k,
        );
        for slot in &d.slots {
            taken.insert(slot.at.div_euclid(60_000));
            plan.moved.push((mine[slot.video].id, slot.at));
        }
        plan.refused
            .extend(mine.iter().skip(d.slots.len()).map(|i| i.id));
    }
    db::reschedule_items(&st.db, mid, t.id, &plan).await?;
    let t = db::task(&st.db, Some(mid), r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(task_view(&st, &t).await?))
}

#[utoipa::path(post, path = "/task.merchant_forward_task/external_task_time_save", tag = "matrix", request_body = TimeReq, responses((status = 200, description = "as task_time_save")))]
pub async fn external_task_time_save(
    st: State<AppState>,
    c: Caller,
    r: Input<TimeReq>,
) -> ApiResult<Json> {
    task_time_save(st, c, r).await
}
