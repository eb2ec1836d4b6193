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
use domain::matrix::TaskReq;
use services::matrix::Platform;
use services::matrix::tasks::release::{self as uc, Created as Made};
use services::platform::platform;

async fn create(
    st: &AppState,
    c: &Caller,
    p: Option<Platform>,
    r: TaskReq,
    lang: Lang,
) -> Answer<Created> {
    let who = (c.merchant_id()?, c.user.id);
    Ok(reply(match uc::create(&st.db, who, p, &r).await? {
        Made::Preview(plan) => Created::Preview(Plan::of(plan, lang)),
        Made::Task(t, plan) => Created::Task {
            task: task_view(st, &t).await?,
            plan: Plan::of(plan, lang),
        },
    }))
}

async fn config(st: &AppState, mid: i64, p: Platform, lang: Lang) -> Answer<ForwardConfig> {
    let (mounts, rows, sandbox) = uc::config(&st.hub, mid, p).await?;
    let own = rules::platform_rules::rules_of(p);
    Ok(reply(ForwardConfig {
        platform: p,
        limits: Limits {
            title_max: own
                .title_max
                .map_or(rules::TITLE_MAX, |m| m.min(rules::TITLE_MAX)),
            comment_max: rules::COMMENT_MAX,
            comment_pick: rules::COMMENT_PICK,
            per_account_day: rules::PER_ACCOUNT_DAY,
            topics_max: own.topics_max,
            mentions_max: own.mentions_max,
            sources: own.sources.to_string(),
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
