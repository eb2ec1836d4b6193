//! Operator calls: reviewing release tasks (`/system/audit/*`, console `/auditCheck`, SPEC §4 review
//! SLA) and platform app credentials (`/system/app/*`, sealed at rest, never returned in full);
//! the use cases are `services::matrix::audit`.

use super::tasks::lists::{ItemQuery, list_items, task_view, task_views};
use super::views::{AppSaved, AppView, Rows, ServiceModeView, TaskDetail, TaskView};
use crate::LangOf;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::matrix::audit as uc;
use utoipa::ToSchema;

#[derive(Debug, Deserialize)]
pub struct AuditIndex {
    #[serde(flatten)]
    pub list: ListQuery,
    pub review_state: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/audit/index", tag = "system", responses((status = 200, body = Reply<Page<TaskView>>)))]
pub async fn index(
    State(st): State<AppState>,
    _c: Caller,
    Input(q): Input<AuditIndex>,
) -> Answer<Page<TaskView>> {
    let lq = q.list.with_filter(
        "review_state",
        q.review_state.as_deref().filter(|s| !s.is_empty()),
        "=",
    );
    let (rows, total) = uc::list(&st.db, &lq).await?;
    Ok(reply(Page::new(task_views(&st, &rows).await?, total)))
}

#[utoipa::path(method(get, post), path = "/system/audit/detail", tag = "system", responses((status = 200, body = Reply<TaskDetail>)))]
pub async fn detail(
    State(st): State<AppState>,
    _c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<TaskDetail> {
    let t = services::matrix::tasks::task(&st.db, None, r.id).await?;
    let q = ItemQuery {
        list: ListQuery {
            limit: Some(1000),
            ..Default::default()
        },
        task_id: Some(t.id),
        state: None,
    };
    let items = list_items(&st, None, q, lang).await?;
    Ok(reply(TaskDetail {
        task: task_view(&st, &t).await?,
        items: items.page.rows,
    }))
}

#[utoipa::path(post, path = "/system/audit/approve", tag = "system", request_body = IdReq, responses((status = 200, body = Reply<TaskView>)))]
pub async fn approve(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<TaskView> {
    let t = uc::approve(&st.db, r.id).await?;
    Ok(reply(task_view(&st, &t).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RejectReq {
    pub id: i64,
    #[serde(default)]
    pub reason: String,
}

#[utoipa::path(post, path = "/system/audit/reject", tag = "system", request_body = RejectReq, responses((status = 200, body = Reply<TaskView>)))]
pub async fn reject(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<RejectReq>,
) -> Answer<TaskView> {
    let t = uc::reject(&st.db, r.id, &r.reason).await?;
    Ok(reply(task_view(&st, &t).await?))
}

// ---- platform apps ----

#[utoipa::path(method(get, post), path = "/system/app/index", tag = "system", responses((status = 200, body = Reply<Rows<AppView>>)))]
pub async fn apps(
    State(st): State<AppState>,
    _c: Caller,
    LangOf(lang): LangOf,
) -> Answer<Rows<AppView>> {
    let rows = uc::apps(&st.hub)
        .await?
        .into_iter()
        .map(|a| AppView {
            platform: a.platform,
            auth_kind: a.platform.auth_kind(),
            configured: a.configured,
            client_key: a.client_key,
            mode: a.mode,
            mode_set: a.mode_set,
            blocked: a.blocked.map(|e| e.in_words(lang)),
            checkable: services::matrix::canary::CONSOLE_PLATFORMS.contains(&a.platform),
            canary: a.canary,
        })
        .collect();
    Ok(reply(Rows { rows }))
}

/// The outside services with a mode of their own (WeChat notices), as the operator sees them.
#[utoipa::path(method(get, post), path = "/system/app/services", tag = "system", responses((status = 200, body = Reply<Rows<ServiceModeView>>)))]
pub async fn services_modes(
    State(st): State<AppState>,
    _c: Caller,
) -> Answer<Rows<ServiceModeView>> {
    use services::engagement::notify;
    let (_, mode_set) = st.hub.mode(services::platform::WECHAT, false).await?;
    Ok(reply(Rows {
        rows: vec![ServiceModeView {
            service: services::platform::WECHAT.into(),
            mode: notify::wechat_mode(&st.hub).await,
            mode_set,
        }],
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ModeReq {
    /// A platform's code, or `wechat` (the new-lead notices).
    #[serde(default)]
    #[schema(required = true, value_type = domain::matrix::ModeTarget)]
    pub platform: String,
    /// `live`, `sandbox`, `off`, or `default` (the deployment's default: CLIPMATRIX_SANDBOX, or live
    /// once the platform's app credentials are saved).
    #[serde(default)]
    #[schema(required = true, value_type = domain::matrix::ModeChoice)]
    pub mode: String,
}

/// Where a platform's (or WeChat's) calls go from now on. Accounts keep the mode they were
/// authorized in: one authorized against the sandbox is refused by a live platform, and the other
/// way round, until it is authorized again.
#[utoipa::path(post, path = "/system/app/mode", tag = "system", request_body = ModeReq, responses((status = 200, body = Reply<Done>, description = "set")))]
pub async fn app_mode(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<ModeReq>,
) -> Answer<Done> {
    uc::set_mode(&st.hub, &r.platform, &r.mode).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AppReq {
    #[serde(default)]
    #[schema(required = true, value_type = domain::platform::Platform)]
    pub platform: String,
    #[serde(default)]
    pub client_key: String,
    #[serde(default)]
    pub client_secret: String,
}

#[utoipa::path(post, path = "/system/app/save", tag = "system", request_body = AppReq, responses((status = 200, body = Reply<AppSaved>)))]
pub async fn app_save(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<AppReq>,
) -> Answer<AppSaved> {
    let (p, client_key) =
        uc::save_app(&st.hub, &r.platform, &r.client_key, &r.client_secret).await?;
    Ok(reply(AppSaved {
        platform: p,
        client_key,
    }))
}

#[utoipa::path(post, path = "/system/app/clear", tag = "system", request_body = AppReq, responses((status = 200, body = Reply<Done>)))]
pub async fn app_clear(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<AppReq>,
) -> Answer<Done> {
    uc::clear_app(&st.db, &r.platform).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CanaryReq {
    #[serde(default)]
    #[schema(required = true, value_type = domain::platform::Platform)]
    pub platform: String,
}

/// Walks a creator-console platform's publish up to its last click on one live account, now (tens of
/// seconds: a browser); a failure pauses the platform's due items, a pass resumes them.
#[utoipa::path(post, path = "/system/app/canary", tag = "system", request_body = CanaryReq, responses((status = 200, body = Reply<domain::matrix::canary::CanaryState>)))]
pub async fn canary(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<CanaryReq>,
) -> Answer<domain::matrix::canary::CanaryState> {
    Ok(reply(
        services::matrix::canary::run(&st.hub, &r.platform).await?,
    ))
}

/// The operator lets a paused platform's items go out again (the failed check stays on record).
#[utoipa::path(post, path = "/system/app/canary_resume", tag = "system", request_body = CanaryReq, responses((status = 200, body = Reply<Option<domain::matrix::canary::CanaryState>>)))]
pub async fn canary_resume(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<CanaryReq>,
) -> Answer<Option<domain::matrix::canary::CanaryState>> {
    Ok(reply(
        services::matrix::canary::resume(&st.db, &r.platform).await?,
    ))
}

// ---- the data vendor (SEO benchmark accounts; docs/seo-platforms.md) ----

#[derive(Debug, Serialize, ToSchema)]
pub struct VendorView {
    /// The vendor implemented: "tikhub" (https://api.tikhub.io).
    pub vendor: domain::seo::DataSource,
    pub configured: bool,
    /// Masked: first 4 characters + ****; '' when not set.
    pub api_key: String,
    /// Where benchmark figures come from now: tikhub (live), sandbox (simulated) or none.
    pub source: domain::seo::DataSource,
}

#[utoipa::path(method(get, post), path = "/system/app/vendor", tag = "system", responses((status = 200, body = Reply<VendorView>)))]
pub async fn vendor(State(st): State<AppState>, _c: Caller) -> Answer<VendorView> {
    let v = uc::vendor_app(&st.hub).await?;
    Ok(reply(VendorView {
        vendor: domain::seo::DataSource::Tikhub,
        configured: v.configured,
        api_key: v.api_key,
        source: v.source,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct VendorReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 512)]
    pub api_key: String,
}

#[utoipa::path(post, path = "/system/app/vendor_save", tag = "system", request_body = VendorReq, responses((status = 200, body = Reply<VendorView>)))]
pub async fn vendor_save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<VendorReq>,
) -> Answer<VendorView> {
    uc::save_vendor(&st.hub, &r.api_key).await?;
    vendor(State(st), c).await
}

#[utoipa::path(post, path = "/system/app/vendor_clear", tag = "system", responses((status = 200, body = Reply<VendorView>)))]
pub async fn vendor_clear(State(st): State<AppState>, c: Caller) -> Answer<VendorView> {
    uc::clear_vendor(&st.db).await?;
    vendor(State(st), c).await
}
