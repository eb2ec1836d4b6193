//! Staff sub-accounts of a merchant and their menu authorization (`services::auth::staff`). Every
//! query carries the caller's merchant id, so ids of another merchant's staff answer 404.

use super::views::{MenuNode, StaffView, tree};
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::ListParams;
use services::auth::staff::{self as uc, Granter};
use utoipa::ToSchema;

fn granter(c: &Caller) -> (domain::UserKind, Vec<i64>) {
    (c.kind, c.user.menu_ids())
}

#[derive(Debug, Deserialize)]
pub struct StaffQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default)]
    pub username: Option<String>,
}

#[utoipa::path(method(get, post), path = "/user.merchant_user_sub/list", tag = "staff", responses((status = 200, body = Reply<Page<StaffView>>)))]
pub async fn list(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<StaffQuery>,
) -> Answer<Page<StaffView>> {
    let q = q
        .list
        .with_filter("username", q.username.as_deref(), "include");
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &q).await?;
    Ok(reply(Page::new(
        rows.iter().map(StaffView::of).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffAddReq {
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 3,
        max_length = 32,
        pattern = "^[A-Za-z0-9_-]+$"
    )]
    pub username: String,
    /// Blank: the username.
    #[serde(default)]
    #[schema(max_length = 32)]
    pub nickname: String,
    #[serde(default)]
    pub mobile: Option<String>,
    #[serde(default)]
    #[schema(required = true, min_length = 8)]
    pub password: String,
    /// Absent: the password itself.
    #[serde(default)]
    pub password_confirm: Option<String>,
    #[serde(default)]
    pub menu_ids: Vec<i64>,
}

#[utoipa::path(post, path = "/user.merchant_user_sub/add", tag = "staff", request_body = StaffAddReq, responses((status = 200, body = Reply<StaffView>)))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<StaffAddReq>,
) -> Answer<StaffView> {
    let mid = c.merchant_id()?;
    let (kind, own) = granter(&c);
    let menus = st.menus.read().await.clone();
    let new = uc::NewStaff {
        username: &r.username,
        nickname: &r.nickname,
        mobile: r.mobile.as_deref(),
        password: &r.password,
        password_confirm: r.password_confirm.as_deref(),
        menu_ids: &r.menu_ids,
    };
    let by = Granter {
        kind,
        menu_ids: &own,
    };
    let u = uc::add(&st.db, &menus, by, mid, &new).await?;
    Ok(reply(StaffView::of(&u)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct StaffEditReq {
    pub id: i64,
    #[serde(default)]
    pub nickname: Option<String>,
    #[serde(default)]
    pub mobile: Option<String>,
    #[serde(default)]
    pub password: Option<String>,
    #[serde(default)]
    pub password_confirm: Option<String>,
    #[serde(default)]
    pub status: Option<i64>,
    #[serde(default)]
    pub role_ids: Option<Vec<i64>>,
}

#[utoipa::path(post, path = "/user.merchant_user_sub/edit", tag = "staff", request_body = StaffEditReq, responses((status = 200, body = Reply<StaffView>)))]
pub async fn edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<StaffEditReq>,
) -> Answer<StaffView> {
    let change = uc::StaffChange {
        id: r.id,
        nickname: r.nickname.as_deref(),
        mobile: r.mobile.as_deref(),
        password: r.password.as_deref(),
        password_confirm: r.password_confirm.as_deref(),
        status: r.status,
        role_ids: r.role_ids.as_deref(),
    };
    let u = uc::edit(&st.db, c.merchant_id()?, &change).await?;
    Ok(reply(StaffView::of(&u)))
}

#[utoipa::path(post, path = "/user.merchant_user_sub/delete", tag = "staff", request_body = IdReq, responses((status = 200, description = "deleted; its sessions end", body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[utoipa::path(method(get, post), path = "/user.merchant_user_sub/info", tag = "staff", params(("id" = i64, Query)), responses((status = 200, body = Reply<StaffView>)))]
pub async fn info(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> Answer<StaffView> {
    let u = uc::get(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(StaffView::of(&u)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AuthMenuReq {
    pub id: i64,
    /// Absent on GET (read the tree), present on POST (set the grants).
    #[serde(default)]
    pub menu_ids: Option<Vec<i64>>,
}

/// GET: the grantable menu tree and the staff member's menus; POST: the menus now granted.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuthMenuView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<Vec<MenuNode>>,
    pub checked: Vec<i64>,
}

#[utoipa::path(method(get, post), path = "/user.merchant_user_sub/authMenu", tag = "staff", request_body = AuthMenuReq, responses((status = 200, description = "GET {tree, checked}; POST {checked}", body = Reply<AuthMenuView>)))]
pub async fn auth_menu(
    State(st): State<AppState>,
    c: Caller,
    method: axum::http::Method,
    Input(r): Input<AuthMenuReq>,
) -> Answer<AuthMenuView> {
    let mid = c.merchant_id()?;
    let menus = st.menus.read().await.clone();
    if method == axum::http::Method::POST {
        let (kind, own) = granter(&c);
        let by = Granter {
            kind,
            menu_ids: &own,
        };
        let ids = r.menu_ids.as_deref();
        uc::set_menus(&st.db, &menus, by, mid, r.id, ids).await?;
        return Ok(reply(AuthMenuView {
            tree: None,
            checked: r.menu_ids.unwrap_or_default(),
        }));
    }
    let staff = uc::get(&st.db, mid, r.id).await?;
    let grantable: Vec<&services::auth::Menu> = uc::grantable(&menus).collect();
    Ok(reply(AuthMenuView {
        tree: Some(tree(&grantable, None)),
        checked: staff.menu_ids(),
    }))
}
