//! Release tasks (`/task.merchant_forward_task/*`, `/matrix.merchant_publish_management/*`,
//! `/bpdr.merchant_aite_users/*`): every SPEC §5 rule is checked before anything is stored; the
//! distribution plan (domain::matrix::distribute) is shown before confirming and stored as the task's
//! items; approved items are published by the scheduler (publish.rs).
//!
//! - `release`: the task form, its rules check, the plan, creating a task.
//! - `batch`: release batches: a sheet's rows (one post each), its template, reading and creating.
//! - `lists`: tasks and their items, deleting a task.
//! - `items`: acting on items now (publish now / retry, send the top comments).
//! - `schedule`: moving the items that have not gone out to a new schedule.
//! - `videos`: the videos a task can publish (`v:`/`m:` keys) and their lists.
//! - `form`: what the form offers to pick (accounts, POIs, titles, topics, mini programs).
//! - `mentions`: the @-mention ("aite") users.

pub mod batch;
pub mod form;
pub mod items;
pub mod lists;
pub mod mentions;
pub mod release;
pub mod schedule;
pub mod videos;

use crate::extract::IdReq;
use serde::Deserialize;
use services::ListQuery;
use utoipa::ToSchema;

#[derive(Debug, Deserialize)]
pub struct NameQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PlatformReq {
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub group_id: Option<i64>,
}
