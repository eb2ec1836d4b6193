//! Operator screens (`/system/*`, role Administrator only — enforced by `guard`): merchants, users,
//! roles, menus, every merchant's operation log and the job monitor (`services::system`).

use super::views::RoleView;
use crate::areas::auth::index::LogQuery;
use crate::areas::auth::views::{Entry, Job, LogView, MenuNode, MerchantRow, UserRow, tree};
use crate::error::{Answer, ApiError, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::ListParams;
use services::system::{jobs, merchants, roles};
use utoipa::ToSchema;

#[derive(Debug, Deserialize)]
pub struct MerchantQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default)]
    pub name: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/merchant/index", tag = "system", responses((status = 200, body = Reply<Page<MerchantRow>>)))]
pub async fn merchants(
    State(st): State<AppState>,
    Input(q): Input<MerchantQuery>,
) -> Answer<Page<MerchantRow>> {
    let q = q.list.with_filter("name", q.name.as_deref(), "include");
    let (rows, total) = merchants::list(&st.db, &q).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(Into::into).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantAdd {
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub name: String,
    #[serde(default)]
    #[schema(required = true, min_length = 3, max_length = 32)]
    pub username: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8)]
    pub password: String,
    #[serde(default)]
    #[schema(max_length = 11)]
    pub mobile: Option<String>,
}

#[utoipa::path(post, path = "/system/merchant/add", tag = "system", request_body = MerchantAdd, responses((status = 200, body = Reply<MerchantRow>)))]
pub async fn merchant_add(
    State(st): State<AppState>,
    Input(r): Input<MerchantAdd>,
) -> Answer<MerchantRow> {
    let m = merchants::add(
        &st.db,
        &r.name,
        &r.username,
        &r.password,
        r.mobile.as_deref(),
    )
    .await?;
    Ok(reply(m.into()))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantEdit {
    pub id: i64,
    #[serde(default)]
    pub name: Option<String>,
    /// Unix ms until which the merchant is VIP; 0 or null ends VIP.
    #[serde(default)]
    pub vip_expires_at: Option<i64>,
    /// The home layout of the merchant's consoles: 1 'header' (top menu, starts at /home), 2 'second'.
    #[serde(default)]
    pub home_type: Option<i64>,
}

#[utoipa::path(post, path = "/system/merchant/edit", tag = "system", request_body = MerchantEdit, responses((status = 200, body = Reply<MerchantRow>)))]
pub async fn merchant_edit(
    State(st): State<AppState>,
    Input(r): Input<MerchantEdit>,
) -> Answer<MerchantRow> {
    let m = merchants::edit(
        &st.db,
        r.id,
        r.name.as_deref(),
        r.vip_expires_at,
        r.home_type,
    )
    .await?;
    Ok(reply(m.into()))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = MerchantStatusReq)]
pub struct StatusReq {
    pub id: i64,
    pub status: i64,
}

#[utoipa::path(post, path = "/system/merchant/status", tag = "system", request_body = StatusReq, responses((status = 200, body = Reply<MerchantRow>)))]
pub async fn merchant_status(
    State(st): State<AppState>,
    Input(r): Input<StatusReq>,
) -> Answer<MerchantRow> {
    Ok(reply(
        merchants::set_status(&st.db, r.id, r.status).await?.into(),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantPasswordReq {
    pub id: i64,
    #[serde(default)]
    pub password: String,
}

#[utoipa::path(post, path = "/system/merchant/resetPassword", tag = "system", request_body = MerchantPasswordReq, responses((status = 200, description = "owner password set; sessions end", body = Reply<Done>)))]
pub async fn merchant_reset_password(
    State(st): State<AppState>,
    Input(r): Input<MerchantPasswordReq>,
) -> Answer<Done> {
    merchants::reset_password(&st.db, r.id, &r.password).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TopupReq {
    pub id: i64,
    pub points: i64,
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TopupView {
    pub balance: i64,
    pub entry: Entry,
}

#[utoipa::path(post, path = "/system/merchant/topup", tag = "system", request_body = TopupReq, responses((status = 200, body = Reply<TopupView>)))]
pub async fn merchant_topup(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TopupReq>,
) -> Answer<TopupView> {
    let note = r.reason.unwrap_or_default();
    let e = merchants::topup(&st.db, r.id, r.points, &note, &c.user.username).await?;
    Ok(reply(TopupView {
        balance: e.balance,
        entry: e.into(),
    }))
}

/// A single-use sign-in link (60 s) into the merchant's console.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProxyTokenView {
    pub url: String,
    #[serde(rename = "proxyToken")]
    pub proxy_token: String,
}

#[utoipa::path(post, path = "/system/merchant/proxyToken", tag = "system", request_body = IdReq, responses((status = 200, description = "single use, 60 s", body = Reply<ProxyTokenView>)))]
pub async fn merchant_proxy_token(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<ProxyTokenView> {
    let token = merchants::proxy_token(&st.db, r.id, c.user.id).await?;
    Ok(reply(ProxyTokenView {
        url: format!("/login?proxyToken={token}"),
        proxy_token: token,
    }))
}

#[derive(Debug, Deserialize)]
pub struct UserQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub kind: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/user/index", tag = "system", responses((status = 200, body = Reply<Page<UserRow>>)))]
pub async fn all_users(
    State(st): State<AppState>,
    Input(q): Input<UserQuery>,
) -> Answer<Page<UserRow>> {
    let q = q
        .list
        .with_filter("username", q.username.as_deref(), "include")
        .with_filter("kind", q.kind.as_deref(), "=");
    let (rows, total) = merchants::users(&st.db, &q).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(Into::into).collect(),
        total,
    )))
}

#[utoipa::path(method(get, post), path = "/system/role/index", tag = "system", responses((status = 200, body = Reply<Page<RoleView>>)))]
pub async fn roles(State(st): State<AppState>) -> Answer<Page<RoleView>> {
    let rows: Vec<RoleView> = roles::list(&st.db)
        .await?
        .iter()
        .map(RoleView::of)
        .collect();
    Ok(reply(Page::whole(rows)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RoleReq {
    #[serde(default)]
    #[schema(minimum = 1)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub name: String,
    #[serde(default)]
    pub permissions: Vec<String>,
}

#[utoipa::path(post, path = "/system/role/add", tag = "system", request_body = RoleReq, responses((status = 200, body = Reply<RoleView>)))]
pub async fn role_add(State(st): State<AppState>, Input(r): Input<RoleReq>) -> Answer<RoleView> {
    let role = roles::add(&st.db, &r.name, &r.permissions).await?;
    Ok(reply(RoleView::of(&role)))
}

#[utoipa::path(post, path = "/system/role/edit", tag = "system", request_body = RoleReq, responses((status = 200, body = Reply<RoleView>)))]
pub async fn role_edit(State(st): State<AppState>, Input(r): Input<RoleReq>) -> Answer<RoleView> {
    let role = roles::edit(&st.db, r.id, &r.name, &r.permissions).await?;
    Ok(reply(RoleView::of(&role)))
}

#[utoipa::path(post, path = "/system/role/delete", tag = "system", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn role_delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> Answer<Done> {
    roles::delete(&st.db, r.id).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(method(get, post), path = "/system/menu/index", tag = "system", responses((status = 200, description = "whole menu tree", body = Reply<Vec<MenuNode>>)))]
pub async fn menus(State(st): State<AppState>) -> Answer<Vec<MenuNode>> {
    let all = st.menus.read().await;
    let refs: Vec<&services::auth::Menu> = all.iter().collect();
    Ok(reply(tree(&refs, None)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MenuEdit {
    pub id: i64,
    #[serde(default)]
    pub icon: Option<String>,
    #[serde(default)]
    pub hidden: Option<bool>,
    #[serde(default)]
    pub vip: Option<bool>,
    #[serde(default)]
    pub sort: Option<i64>,
}

#[utoipa::path(post, path = "/system/menu/edit", tag = "system", request_body = MenuEdit, responses((status = 200, description = "the menu node with its children", body = Reply<MenuNode>)))]
pub async fn menu_edit(State(st): State<AppState>, Input(r): Input<MenuEdit>) -> Answer<MenuNode> {
    let cur = st
        .menus
        .read()
        .await
        .iter()
        .find(|m| m.id == r.id)
        .cloned()
        .ok_or(ApiError::NotFound)?;
    let change = roles::MenuChange {
        icon: r.icon.as_deref(),
        hidden: r.hidden,
        vip: r.vip,
        sort: r.sort,
    };
    let fresh = roles::edit_menu(&st.db, &cur, &change).await?;
    *st.menus.write().await = fresh;
    let menus = st.menus.read().await;
    let m = menus
        .iter()
        .find(|m| m.id == r.id)
        .ok_or(ApiError::NotFound)?;
    // The node alone (its `children` empty), as the menu form shows it.
    let node = tree(&[m], m.parent_path.as_deref())
        .pop()
        .ok_or(ApiError::NotFound)?;
    Ok(reply(node))
}

#[utoipa::path(method(get, post), path = "/system/log/index", tag = "system", responses((status = 200, description = "every merchant's operation log; each row's action_name names the action in words", body = Reply<Page<LogView>>)))]
pub async fn logs(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<LogQuery>,
) -> Answer<Page<LogView>> {
    crate::areas::auth::index::log_page(&st, None, lang, q).await
}

#[derive(Debug, Deserialize)]
pub struct TaskQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default)]
    pub state: Option<String>,
    #[serde(default)]
    pub kind: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/tasks/index", tag = "system", responses((status = 200, description = "jobs of the durable queue", body = Reply<Page<Job>>)))]
pub async fn tasks(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<TaskQuery>,
) -> Answer<Page<Job>> {
    let q = q
        .list
        .with_filter("state", q.state.as_deref(), "=")
        .with_filter("kind", q.kind.as_deref(), "=");
    let (rows, total) = jobs::list(&st.db, &q).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(|j| readable(j, lang)).collect(),
        total,
    )))
}

/// A job with its failure reason in the reader's language (jobs store reason codes, see
/// `domain::i18n::reason`).
fn readable(mut j: jobs::Job, lang: domain::i18n::Lang) -> Job {
    j.last_error = j
        .last_error
        .map(|e| domain::i18n::localize_reason(&e, lang));
    j.into()
}

#[utoipa::path(post, path = "/system/tasks/retry", tag = "system", request_body = IdReq, responses((status = 200, description = "the job, queued again", body = Reply<Job>)))]
pub async fn task_retry(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<IdReq>,
) -> Answer<Job> {
    Ok(reply(readable(jobs::retry(&st.db, r.id).await?, lang)))
}
