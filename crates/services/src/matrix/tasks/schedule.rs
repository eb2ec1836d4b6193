//! Rescheduling a task: its items that have not gone out yet get a new plan, each on its account.

use crate::error::ApiResult;
use domain::matrix::{self as rules, ItemState};
use store::ListQuery;
use store::matrix as db;

/// A task's new schedule, as the form sends it.
pub struct NewSchedule<'a> {
    pub time_mode: &'a str,
    pub start_date: &'a str,
    pub daily_quantity: i64,
    pub days: i64,
    pub times: &'a [String],
}

/// Replans the items that have not gone out yet with a new schedule; the task as it is then. The
/// items move in one transaction (`reschedule_items`), so a crash never leaves a task half re-planned.
pub async fn reschedule(
    d: &store::Db,
    mid: i64,
    id: i64,
    r: &NewSchedule<'_>,
) -> ApiResult<db::Task> {
    let t = super::task(d, Some(mid), id).await?;
    let s = rules::schedule(
        r.time_mode,
        r.start_date,
        r.days,
        r.daily_quantity,
        r.times,
        rules::day_of(d.clock.platform_now()),
    )?;
    let lq = ListQuery {
        limit: Some(1000),
        ..Default::default()
    }
    .with_filter("task_id", Some(&t.id.to_string()), "=")
    .with_filter("state", Some(ItemState::ToRelease.as_str()), "=");
    let (waiting, _) = db::items(d, Some(mid), &lq).await?;
    let mut accounts: Vec<i64> = waiting.iter().map(|i| i.account_id).collect();
    accounts.sort_unstable();
    accounts.dedup();
    let from = rules::at(s.start_day, 0);
    let to = rules::at(s.start_day + s.days as i64 + 1, 0);
    let mut taken = db::taken_minutes(d, mid, from, to).await?;
    for i in &waiting {
        taken.remove(&i.scheduled_at.div_euclid(60_000));
    }
    let mut plan = db::Replan {
        time_mode: s.mode,
        start_date: r.start_date.trim().to_string(),
        days: r.days,
        daily_quantity: r.daily_quantity,
        moved: Vec::new(),
        refused: Vec::new(),
    };
    // Keep each item on its account: plan per account with that account's items as its videos.
    for (k, a) in (0u64..).zip(&accounts) {
        let mine: Vec<&db::Item> = waiting.iter().filter(|i| i.account_id == *a).collect();
        let dist = rules::distribute(
            1,
            mine.len(),
            mine.len(),
            &s,
            d.clock.platform_now(),
            &taken,
            t.seed as u64 ^ k,
        );
        for slot in &dist.slots {
            taken.insert(slot.at.div_euclid(60_000));
            plan.moved.push((mine[slot.video].id, slot.at));
        }
        plan.refused
            .extend(mine.iter().skip(dist.slots.len()).map(|i| i.id));
    }
    db::reschedule_items(d, mid, t.id, &plan).await?;
    super::task(d, Some(mid), id).await
}
