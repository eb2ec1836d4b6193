//! Staff sub-accounts of a merchant and their menu authorization. Every query carries the caller's
//! merchant id, so ids of another merchant's staff answer 404.

use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use domain::{UserKind, validate};
use serde::Deserialize;
use store::ListParams;
use store::users::{self, User};
use utoipa::ToSchema;

fn view(u: &User) -> serde_json::Value {
    serde_json::json!({
        "id": u.id,
        "username": u.username,
        "nickname": u.nickname,
        "mobile": u.mobile,
        "status": u.status,
        "menu_ids": u.menu_ids(),
        "role_ids": u.role_ids(),
        "created_at": u.created_at,
        "last_login_at": u.last_login_at,
    })
}

#[derive(Debug, Deserialize)]
pub struct StaffQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default)]
    pub username: Option<String>,
}

#[utoipa::path(method(get, post), path = "/user.merchant_user_sub/list", tag = "staff", responses((status = 200, description = "{rows,total}")))]
pub async fn list(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<StaffQuery>,
) -> ApiResult<Json> {
    let q = q
        .list
        .with_filter("username", q.username.as_deref(), "include");
    let (rows, total) = users::list_staff(&st.db, c.merchant_id()?, &q).await?;
    Ok(ok(store::list::rows_total(
        rows.iter().map(view).collect::<Vec<_>>(),
        total,
    )))
}

/// Menu ids a caller may grant: non-admin menus (the user centre is always open); a staff member who
/// manages staff can pass on only the menus they hold themselves.
async fn check_grantable(st: &AppState, c: &Caller, ids: &[i64]) -> ApiResult<()> {
    let menus = st.menus.read().await;
    let own = c.user.menu_ids();
    for id in ids {
        let held = c.kind != UserKind::Staff || own.contains(id);
        if !held
            || !menus
                .iter()
                .any(|m| m.id == *id && m.admin == 0 && m.path != "/usercenter")
        {
            return Err(ApiError::invalid_with(
                "menu_ids",
                Msg::MenuNotGrantable,
                vec![("id", id.to_string())],
            ));
        }
    }
    Ok(())
}

fn mobile_of(m: &Option<String>) -> ApiResult<Option<&str>> {
    let m = m.as_deref().map(str::trim).filter(|m| !m.is_empty());
    if let Some(m) = m {
        validate::mobile(m)?;
    }
    Ok(m)
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddReq {
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub nickname: String,
    #[serde(default)]
    pub mobile: Option<String>,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub password_confirm: Option<String>,
    #[serde(default)]
    pub menu_ids: Vec<i64>,
}

#[utoipa::path(post, path = "/user.merchant_user_sub/add", tag = "staff", request_body = AddReq, responses((status = 200, description = "the staff row")))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let username = r.username.trim();
    validate::username(username)?;
    let nickname = if r.nickname.trim().is_empty() {
        username
    } else {
        r.nickname.trim()
    };
    validate::max_chars("nickname", nickname, 32)?;
    let mobile = mobile_of(&r.mobile)?;
    validate::new_password(
        &r.password,
        r.password_confirm.as_deref().unwrap_or(&r.password),
    )?;
    check_grantable(&st, &c, &r.menu_ids).await?;
    if users::user_by_username(&st.db, username).await?.is_some() {
        return Err(ApiError::invalid("username", Msg::UsernameTaken));
    }
    if let Some(m) = mobile
        && users::user_by_mobile(&st.db, m).await?.is_some()
    {
        return Err(ApiError::invalid("mobile", Msg::MobileTaken));
    }
    let u = users::create_staff(
        &st.db,
        &users::NewUser {
            merchant_id: Some(mid),
            kind: UserKind::Staff,
            username,
            nickname,
            mobile,
            password_hash: &store::password::hash(&r.password),
            menu_ids: &r.menu_ids,
        },
    )
    .await?;
    Ok(ok(view(&u)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EditReq {
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

#[utoipa::path(post, path = "/user.merchant_user_sub/edit", tag = "staff", request_body = EditReq, responses((status = 200, description = "the staff row")))]
pub async fn edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<EditReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let cur = users::staff_by_id(&st.db, mid, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let nickname = r
        .nickname
        .as_deref()
        .map(str::trim)
        .unwrap_or(&cur.nickname)
        .to_string();
    validate::required("nickname", &nickname)?;
    let mobile = match &r.mobile {
        Some(_) => mobile_of(&r.mobile)?.map(str::to_string),
        None => cur.mobile.clone(),
    };
    if let Some(m) = &mobile
        && users::user_by_mobile(&st.db, m)
            .await?
            .is_some_and(|u| u.id != cur.id)
    {
        return Err(ApiError::invalid("mobile", Msg::MobileTaken));
    }
    let status = r.status.unwrap_or(cur.status);
    if status != 0 && status != 1 {
        return Err(ApiError::invalid_with(
            "status",
            Msg::InvalidValue,
            vec![("reason", "1 | 0".into())],
        ));
    }
    let role_ids = r.role_ids.clone().unwrap_or(cur.role_ids());
    let roles = store::menus::roles(&st.db).await?;
    if let Some(bad) = role_ids
        .iter()
        .find(|id| !roles.iter().any(|r| r.id == **id))
    {
        return Err(ApiError::invalid_with(
            "role_ids",
            Msg::InvalidValue,
            vec![("reason", bad.to_string())],
        ));
    }
    let password = r.password.as_deref().filter(|p| !p.is_empty());
    if let Some(p) = password {
        validate::new_password(p, r.password_confirm.as_deref().unwrap_or(p))?;
    }
    users::edit_staff(
        &st.db,
        mid,
        cur.id,
        &users::StaffEdit {
            nickname: &nickname,
            mobile: mobile.as_deref(),
            status,
            role_ids: &role_ids,
        },
    )
    .await?;
    if let Some(p) = password {
        users::set_password(&st.db, cur.id, &store::password::hash(p)).await?;
    }
    let u = users::staff_by_id(&st.db, mid, cur.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(view(&u)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/user.merchant_user_sub/delete", tag = "staff", request_body = IdReq, responses((status = 200, description = "deleted; its sessions end")))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    if !users::delete_staff(&st.db, c.merchant_id()?, r.id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(method(get, post), path = "/user.merchant_user_sub/info", tag = "staff", params(("id" = i64, Query)), responses((status = 200, description = "the staff row")))]
pub async fn info(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let u = users::staff_by_id(&st.db, c.merchant_id()?, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(view(&u)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AuthMenuReq {
    pub id: i64,
    /// Absent on GET (read the tree), present on POST (set the grants).
    #[serde(default)]
    pub menu_ids: Option<Vec<i64>>,
}

#[utoipa::path(method(get, post), path = "/user.merchant_user_sub/authMenu", tag = "staff", request_body = AuthMenuReq, responses((status = 200, description = "GET {tree, checked}; POST {checked}")))]
pub async fn auth_menu(
    State(st): State<AppState>,
    c: Caller,
    method: axum::http::Method,
    Input(r): Input<AuthMenuReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let staff = users::staff_by_id(&st.db, mid, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    if method == axum::http::Method::POST {
        let ids = r
            .menu_ids
            .ok_or(ApiError::invalid("menu_ids", Msg::Required))?;
        check_grantable(&st, &c, &ids).await?;
        users::set_staff_menus(&st.db, mid, staff.id, &ids).await?;
        return Ok(ok(serde_json::json!({ "checked": ids })));
    }
    let menus = st.menus.read().await;
    let grantable: Vec<&store::menus::Menu> = menus
        .iter()
        .filter(|m| m.admin == 0 && m.path != "/usercenter")
        .collect();
    Ok(ok(serde_json::json!({
        "tree": super::index::tree(&grantable, None),
        "checked": staff.menu_ids(),
    })))
}
