//! Release tasks: every SPEC §5 rule is checked before anything is stored; the distribution plan
//! (domain::matrix::distribute) is shown before confirming and stored as the task's items; approved
//! items are published by the scheduler (`publish`).
//!
//! - `release`: the task form's rules check, the plan, creating a task, the form's config.
//! - `schedule`: moving the items that have not gone out to a new schedule.
//! - `items`: acting on items now (publish now / retry, send the top comments), their error text.
//! - `batch`: a release batch (a sheet's rows, one post each) checked as a whole, stored as one task.
//! - `notes`: image notes (图文): which platforms take one, the pictures' checks.
//! - `form`: what the form offers to pick (accounts online, groups, mini programs, @-users).

pub mod batch;
pub mod form;
pub mod items;
pub mod notes;
pub mod release;
pub mod schedule;

use crate::error::{ApiError, ApiResult};
use store::matrix as db;

/// The merchant's task (any merchant's with `None`: the operator), or 404.
pub async fn task(d: &store::Db, mid: Option<i64>, id: i64) -> ApiResult<db::Task> {
    db::task(d, mid, id).await?.ok_or(ApiError::NotFound)
}

/// Deletes a task; its waiting items are cancelled. Refused while an item is being published.
pub async fn delete(d: &store::Db, mid: i64, id: i64) -> ApiResult<()> {
    match db::delete_task(d, mid, id).await? {
        None => Err(ApiError::invalid("id", domain::i18n::Msg::ItemBusy)),
        Some(false) => Err(ApiError::NotFound),
        Some(true) => Ok(()),
    }
}

/// One page of the merchant's tasks.
pub async fn list(
    d: &store::Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<db::Task>, store::list::Total)> {
    Ok(db::tasks(d, mid, q).await?)
}

/// One page of items (of a merchant, or every merchant's for the operator).
pub async fn items(
    d: &store::Db,
    mid: Option<i64>,
    q: &store::ListQuery,
) -> ApiResult<(Vec<db::Item>, store::list::Total)> {
    Ok(db::items(d, mid, q).await?)
}

/// A task's items by state.
pub async fn item_counts(d: &store::Db, task_id: i64) -> ApiResult<db::ItemCounts> {
    Ok(db::item_counts(d, task_id).await?)
}
