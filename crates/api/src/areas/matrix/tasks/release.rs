//! Creating a release task (`services::matrix::tasks::release`): the form's config per platform,
//! the rules check, the distribution plan shown as a preview and stored on confirming.

use super::lists::task_view;
use crate::LangOf;
use crate::areas::matrix::views::{self, Created, ForwardConfig, Limits, Plan};
use crate::error::{Answer, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Lang;
use domain::matrix as rules;
use serde::Deserialize;
use services::matrix::Platform;
use services::matrix::tasks::release::{self as uc, Created as Made, TaskReq as Form};
use services::platform::platform;
use utoipa::ToSchema;

/// The release-task form (docs/api-matrix.md `TaskReq`); stored as the task's config.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct TaskReq {
    #[schema(value_type = Option<domain::platform::Platform>)]
    pub platform: Option<String>,
    // required: no default in the document (the container default would be an invalid "")
    #[schema(required = true, default, min_length = 1, max_length = 50)]
    pub name: String,
    pub titles: String,
    pub topics: Vec<String>,
    pub top_comments: String,
    pub at_users: Vec<String>,
    #[schema(value_type = domain::matrix::MountType, default)]
    pub mount_type: String,
    pub province: String,
    pub city: String,
    pub merchant_abbr: String,
    pub poi_id: String,
    pub poi_name: String,
    pub poi_address: String,
    pub mini_app_id: String,
    pub mini_app_title: String,
    pub mini_app_url: String,
    pub official_title: String,
    pub official_url: String,
    pub product_id: String,
    #[schema(required = true, default, value_type = domain::matrix::TimeMode)]
    pub time_mode: String,
    /// `YYYY-MM-DD`, today or later.
    #[schema(required = true, default, format = Date)]
    pub start_date: String,
    #[schema(required = true, default, minimum = 1, maximum = 3)]
    pub daily_quantity: i64,
    #[schema(required = true, default, minimum = 1, maximum = 90)]
    pub days: i64,
    pub times: Vec<String>,
    #[schema(required = true, default, min_items = 1)]
    pub account_ids: Vec<i64>,
    pub video_ids: Vec<i64>,
    pub material_ids: Vec<i64>,
    #[schema(minimum = 1)]
    pub publish_count: Option<i64>,
    pub preview: bool,
    /// The preview's seed: confirming with it stores the plan that was shown.
    pub seed: Option<i64>,
    /// The preview's `planned_at`: confirming plans from that instant again, so a minute passing
    /// between preview and confirm does not move the times.
    pub planned_at: Option<i64>,
    /// The posts the merchant approved (the preview's items): the task stores exactly these, or the
    /// confirm is refused (`plan`) when they are no longer possible.
    #[schema(value_type = Option<Vec<ApprovedPost>>)]
    pub approved: Option<Vec<uc::ApprovedPost>>,
}

// `services::matrix::tasks::release::ApprovedPost`'s shape, for the document.
/// One post of the plan the merchant approved.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct ApprovedPost {
    pub account_id: i64,
    pub video_key: String,
    pub at: i64,
}

view_of!(TaskReq => Form {
    platform, name, titles, topics, top_comments, at_users, mount_type, province, city,
    merchant_abbr, poi_id, poi_name, poi_address, mini_app_id, mini_app_title, mini_app_url,
    official_title, official_url, product_id, time_mode, start_date, daily_quantity, days,
    times, account_ids, video_ids, material_ids, publish_count, preview, seed, planned_at,
    approved
});

async fn create(
    st: &AppState,
    c: &Caller,
    p: Option<Platform>,
    r: TaskReq,
    lang: Lang,
) -> Answer<Created> {
    let who = (c.merchant_id()?, c.user.id);
    Ok(reply(match uc::create(&st.db, who, p, &r.into()).await? {
        Made::Preview(plan) => Created::Preview(Plan::of(plan, lang)),
        Made::Task(t, plan) => Created::Task {
            task: task_view(st, &t).await?,
            plan: Plan::of(plan, lang),
        },
    }))
}

async fn config(st: &AppState, mid: i64, p: Platform, lang: Lang) -> Answer<ForwardConfig> {
    let (mounts, rows, sandbox) = uc::config(&st.hub, mid, p).await?;
    Ok(reply(ForwardConfig {
        platform: p,
        limits: Limits {
            title_max: rules::TITLE_MAX,
            comment_max: rules::COMMENT_MAX,
            comment_pick: rules::COMMENT_PICK,
            per_account_day: rules::PER_ACCOUNT_DAY,
        },
        mount_types: mounts.to_vec(),
        accounts: views::accounts(&rows, lang, st.db.clock.platform_now()),
        sandbox,
    }))
}

/// `/task.merchant_forward_task/{p}_forward_config` and `{p}_add` for each platform prefix.
macro_rules! per_platform {
    ($($cfg:ident, $add:ident, $code:literal;)*) => {$(
        #[utoipa::path(method(get, post), path = concat!("/task.merchant_forward_task/", $code, "_forward_config"), tag = "matrix", responses((status = 200, body = Reply<ForwardConfig>)))]
        pub async fn $cfg(State(st): State<AppState>, c: Caller, LangOf(lang): LangOf) -> Answer<ForwardConfig> {
            let p = platform($code)?;
            config(&st, c.merchant_id()?, p, lang).await
        }
        #[utoipa::path(post, path = concat!("/task.merchant_forward_task/", $code, "_add"), tag = "matrix", request_body = TaskReq, responses((status = 200, body = Reply<Created>)))]
        pub async fn $add(State(st): State<AppState>, c: Caller, LangOf(lang): LangOf, Input(r): Input<TaskReq>) -> Answer<Created> {
            let p = platform($code)?;
            create(&st, &c, Some(p), r, lang).await
        }
    )*};
}

per_platform! {
    dy_config, dy_add, "dy";
    ks_config, ks_add, "ks";
    bp_config, bp_add, "bp";
    sph_config, sph_add, "sph";
    bjh_config, bjh_add, "bjh";
    xhs_config, xhs_add, "xhs";
}

#[utoipa::path(post, path = "/matrix.merchant_publish_management/createPublishTask", tag = "matrix", request_body = TaskReq, responses((status = 200, body = Reply<Created>)))]
pub async fn create_publish_task(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<TaskReq>,
) -> Answer<Created> {
    let p = platform(r.platform.as_deref().unwrap_or(""))?;
    create(&st, &c, Some(p), r, lang).await
}

#[utoipa::path(post, path = "/matrix.merchant_publish_management/createCommonPublishTask", tag = "matrix", request_body = TaskReq, responses((status = 200, body = Reply<Created>)))]
pub async fn create_common_task(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<TaskReq>,
) -> Answer<Created> {
    create(&st, &c, None, r, lang).await
}
