//! Operator screens (`/system/*`, role Administrator only — enforced by `guard`): merchants, users,
//! roles, menus, every merchant's operation log and the job monitor.

use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use domain::validate;
use serde::Deserialize;
use store::ListParams;
use store::users;
use utoipa::ToSchema;

#[derive(Debug, Deserialize)]
pub struct MerchantQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default)]
    pub name: Option<String>,
}

#[utoipa::path(method(get, post), path = "/system/merchant/index", tag = "system", responses((status = 200, description = "{rows,total}")))]
pub async fn merchants(
    State(st): State<AppState>,
    Input(q): Input<MerchantQuery>,
) -> ApiResult<Json> {
    let q = q.list.with_filter("name", q.name.as_deref(), "include");
    let (rows, total) = users::list_merchants(&st.db, &q).await?;
    Ok(ok(store::list::rows_total(rows, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantAdd {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub mobile: Option<String>,
}

#[utoipa::path(post, path = "/system/merchant/add", tag = "system", request_body = MerchantAdd, responses((status = 200, description = "merchant row")))]
pub async fn merchant_add(
    State(st): State<AppState>,
    Input(r): Input<MerchantAdd>,
) -> ApiResult<Json> {
    let name = r.name.trim();
    validate::required("name", name)?;
    validate::username(r.username.trim())?;
    validate::new_password(&r.password, &r.password)?;
    let mobile = r.mobile.as_deref().map(str::trim).filter(|m| !m.is_empty());
    if let Some(m) = mobile {
        validate::mobile(m)?;
        if users::user_by_mobile(&st.db, m).await?.is_some() {
            return Err(ApiError::invalid("mobile", Msg::MobileTaken));
        }
    }
    if users::user_by_username(&st.db, r.username.trim())
        .await?
        .is_some()
    {
        return Err(ApiError::invalid("username", Msg::UsernameTaken));
    }
    let (m, _) = users::create_merchant(
        &st.db,
        name,
        r.username.trim(),
        mobile,
        &store::password::hash(&r.password),
    )
    .await?;
    Ok(ok(users::merchant_row(&st.db, m.id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct MerchantEdit {
    pub id: i64,
    #[serde(default)]
    pub name: Option<String>,
    /// Unix ms until which the merchant is VIP; 0 or null ends VIP.
    #[serde(default)]
    pub vip_expires_at: Option<i64>,
}

#[utoipa::path(post, path = "/system/merchant/edit", tag = "system", request_body = MerchantEdit, responses((status = 200, description = "merchant row")))]
pub async fn merchant_edit(
    State(st): State<AppState>,
    Input(r): Input<MerchantEdit>,
) -> ApiResult<Json> {
    let cur = users::merchant_by_id(&st.db, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let name = r
        .name
        .as_deref()
        .map(str::trim)
        .unwrap_or(&cur.name)
        .to_string();
    validate::required("name", &name)?;
    let vip = r.vip_expires_at.filter(|t| *t > 0);
    users::edit_merchant(&st.db, r.id, &name, vip).await?;
    Ok(ok(users::merchant_row(&st.db, r.id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StatusReq {
    pub id: i64,
    pub status: i64,
}

#[utoipa::path(post, path = "/system/merchant/status", tag = "system", request_body = StatusReq, responses((status = 200, description = "merchant row")))]
pub async fn merchant_status(
    State(st): State<AppState>,
    Input(r): Input<StatusReq>,
) -> ApiResult<Json> {
    if r.status != 0 && r.status != 1 {
        return Err(ApiError::invalid_with(
            "status",
            Msg::InvalidValue,
            vec![("reason", "1 | 0".into())],
        ));
    }
    if !users::set_merchant_status(&st.db, r.id, r.status).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(users::merchant_row(&st.db, r.id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResetReq {
    pub id: i64,
    #[serde(default)]
    pub password: String,
}

#[utoipa::path(post, path = "/system/merchant/resetPassword", tag = "system", request_body = ResetReq, responses((status = 200, description = "owner password set; sessions end")))]
pub async fn merchant_reset_password(
    State(st): State<AppState>,
    Input(r): Input<ResetReq>,
) -> ApiResult<Json> {
    validate::new_password(&r.password, &r.password)?;
    let owner = users::merchant_owner(&st.db, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    users::set_password(&st.db, owner.id, &store::password::hash(&r.password)).await?;
    users::clear_user_failures(&st.db, &owner.username).await?;
    Ok(ok(serde_json::json!({})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TopupReq {
    pub id: i64,
    pub points: i64,
    #[serde(default)]
    pub reason: Option<String>,
}

#[utoipa::path(post, path = "/system/merchant/topup", tag = "system", request_body = TopupReq, responses((status = 200, description = "{balance}")))]
pub async fn merchant_topup(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TopupReq>,
) -> ApiResult<Json> {
    users::merchant_by_id(&st.db, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let note = r.reason.unwrap_or_default();
    let e = store::points::topup(
        &st.db,
        r.id,
        r.points,
        domain::points::Reason::Topup,
        note.trim(),
        &c.user.username,
    )
    .await?;
    Ok(ok(serde_json::json!({ "balance": e.balance, "entry": e })))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/system/merchant/proxyToken", tag = "system", request_body = IdReq, responses((status = 200, description = "{proxyToken, url}: single use, 60 s")))]
pub async fn merchant_proxy_token(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    users::merchant_owner(&st.db, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let token = users::create_proxy_token(&st.db, r.id, c.user.id).await?;
    Ok(ok(
        serde_json::json!({ "url": format!("/login?proxyToken={token}"), "proxyToken": token }),
    ))
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

#[utoipa::path(method(get, post), path = "/system/user/index", tag = "system", responses((status = 200, description = "{rows,total}")))]
pub async fn all_users(State(st): State<AppState>, Input(q): Input<UserQuery>) -> ApiResult<Json> {
    let q = q
        .list
        .with_filter("username", q.username.as_deref(), "include")
        .with_filter("kind", q.kind.as_deref(), "=");
    let (rows, total) = users::list_all_users(&st.db, &q).await?;
    Ok(ok(store::list::rows_total(rows, total)))
}

fn role_view(r: &store::menus::Role) -> serde_json::Value {
    serde_json::json!({ "id": r.id, "name": r.name, "permissions": r.permissions(), "created_at": r.created_at })
}

#[utoipa::path(method(get, post), path = "/system/role/index", tag = "system", responses((status = 200, description = "{rows,total}")))]
pub async fn roles(State(st): State<AppState>) -> ApiResult<Json> {
    let rows: Vec<_> = store::menus::roles(&st.db)
        .await?
        .iter()
        .map(role_view)
        .collect();
    Ok(ok(serde_json::json!({ "total": rows.len(), "rows": rows })))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RoleReq {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub permissions: Vec<String>,
}

fn check_role(r: &RoleReq) -> ApiResult<()> {
    validate::required("name", r.name.trim())?;
    for p in &r.permissions {
        let ok = p.split('/').count() == 3
            && p.split('/').all(|s| {
                !s.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_alphanumeric() || "_*.".contains(c))
            });
        if !ok {
            return Err(ApiError::invalid_with(
                "permissions",
                Msg::InvalidValue,
                vec![("reason", p.clone())],
            ));
        }
    }
    Ok(())
}

#[utoipa::path(post, path = "/system/role/add", tag = "system", request_body = RoleReq, responses((status = 200, description = "role")))]
pub async fn role_add(State(st): State<AppState>, Input(r): Input<RoleReq>) -> ApiResult<Json> {
    check_role(&r)?;
    let role = store::menus::add_role(&st.db, r.name.trim(), &r.permissions).await?;
    Ok(ok(role_view(&role)))
}

#[utoipa::path(post, path = "/system/role/edit", tag = "system", request_body = RoleReq, responses((status = 200, description = "role")))]
pub async fn role_edit(State(st): State<AppState>, Input(r): Input<RoleReq>) -> ApiResult<Json> {
    check_role(&r)?;
    let id = r.id.ok_or(ApiError::invalid("id", Msg::Required))?;
    let role = store::menus::edit_role(&st.db, id, r.name.trim(), &r.permissions)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(role_view(&role)))
}

#[utoipa::path(post, path = "/system/role/delete", tag = "system", request_body = IdReq, responses((status = 200, description = "deleted")))]
pub async fn role_delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> ApiResult<Json> {
    if store::menus::role_users(&st.db, r.id).await? > 0 {
        return Err(ApiError::invalid("id", Msg::RoleInUse));
    }
    if !store::menus::delete_role(&st.db, r.id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(method(get, post), path = "/system/menu/index", tag = "system", responses((status = 200, description = "whole menu tree")))]
pub async fn menus(State(st): State<AppState>) -> ApiResult<Json> {
    let all = st.menus.read().await;
    let refs: Vec<&store::menus::Menu> = all.iter().collect();
    Ok(ok(super::index::tree(&refs, None)))
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

#[utoipa::path(post, path = "/system/menu/edit", tag = "system", request_body = MenuEdit, responses((status = 200, description = "menu node")))]
pub async fn menu_edit(State(st): State<AppState>, Input(r): Input<MenuEdit>) -> ApiResult<Json> {
    let cur = st
        .menus
        .read()
        .await
        .iter()
        .find(|m| m.id == r.id)
        .cloned()
        .ok_or(ApiError::NotFound)?;
    store::menus::edit(
        &st.db,
        cur.id,
        r.icon.as_deref().unwrap_or(&cur.icon),
        r.hidden.unwrap_or(cur.hidden == 1),
        r.vip.unwrap_or(cur.vip == 1),
        r.sort.unwrap_or(cur.sort),
    )
    .await?;
    st.reload_menus().await?;
    let menus = st.menus.read().await;
    let m = menus
        .iter()
        .find(|m| m.id == r.id)
        .ok_or(ApiError::NotFound)?;
    Ok(ok(super::index::tree(&[m], m.parent_path.as_deref()).pop()))
}

#[utoipa::path(method(get, post), path = "/system/log/index", tag = "system", responses((status = 200, description = "every merchant's operation log; each row's action_name names the action in words")))]
pub async fn logs(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<super::index::LogQuery>,
) -> ApiResult<Json> {
    let (rows, total) = store::oplog::list(&st.db, None, &q.into_query()).await?;
    Ok(ok(store::list::rows_total(
        super::index::log_rows(&rows, lang),
        total,
    )))
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

#[utoipa::path(method(get, post), path = "/system/tasks/index", tag = "system", responses((status = 200, description = "jobs of the durable queue")))]
pub async fn tasks(State(st): State<AppState>, Input(q): Input<TaskQuery>) -> ApiResult<Json> {
    let q = q
        .list
        .with_filter("state", q.state.as_deref(), "=")
        .with_filter("kind", q.kind.as_deref(), "=");
    let (rows, total) = store::jobs::list(&st.db, &q).await?;
    Ok(ok(store::list::rows_total(rows, total)))
}

#[utoipa::path(post, path = "/system/tasks/retry", tag = "system", request_body = IdReq, responses((status = 200, description = "the job, queued again")))]
pub async fn task_retry(State(st): State<AppState>, Input(r): Input<IdReq>) -> ApiResult<Json> {
    store::jobs::get(&st.db, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    if !store::jobs::retry(&st.db, r.id).await? {
        return Err(ApiError::invalid("id", Msg::JobNotRetryable));
    }
    Ok(ok(store::jobs::get(&st.db, r.id).await?))
}
