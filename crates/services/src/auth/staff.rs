//! Staff sub-accounts of a merchant and their menu authorization. Every query carries the merchant id,
//! so ids of another merchant's staff answer 404.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::{UserKind, validate};
use store::Db;
use store::auth::users::{self, User};
use store::system::menus::Menu;

/// Who hands out menus: a staff member who manages staff can pass on only the menus they hold.
#[derive(Clone, Copy)]
pub struct Granter<'a> {
    pub kind: UserKind,
    pub menu_ids: &'a [i64],
}

/// Menu ids a granter may grant: non-admin menus (the user centre is always open), and for a staff
/// member only their own.
pub fn check_grantable(menus: &[Menu], by: Granter<'_>, ids: &[i64]) -> ApiResult<()> {
    for id in ids {
        let held = by.kind != UserKind::Staff || by.menu_ids.contains(id);
        if !held || !grantable(menus).any(|m| m.id == *id) {
            return Err(ApiError::invalid_with(
                "menu_ids",
                Msg::MenuNotGrantable,
                vec![("id", id.to_string())],
            ));
        }
    }
    Ok(())
}

/// The menus a merchant may grant its staff (not the operator's, not the always-open user centre).
pub fn grantable(menus: &[Menu]) -> impl Iterator<Item = &Menu> {
    menus
        .iter()
        .filter(|m| m.admin == 0 && m.path != "/usercenter")
}

fn mobile_of(m: Option<&str>) -> ApiResult<Option<&str>> {
    let m = m.map(str::trim).filter(|m| !m.is_empty());
    if let Some(m) = m {
        validate::mobile(m)?;
    }
    Ok(m)
}

/// What the add form sends.
pub struct NewStaff<'a> {
    pub username: &'a str,
    pub nickname: &'a str,
    pub mobile: Option<&'a str>,
    pub password: &'a str,
    pub password_confirm: Option<&'a str>,
    pub menu_ids: &'a [i64],
}

pub async fn add(
    db: &Db,
    menus: &[Menu],
    by: Granter<'_>,
    merchant_id: i64,
    r: &NewStaff<'_>,
) -> ApiResult<User> {
    let username = r.username.trim();
    validate::username(username)?;
    let nickname = if r.nickname.trim().is_empty() {
        username
    } else {
        r.nickname.trim()
    };
    validate::max_chars("nickname", nickname, validate::NICKNAME_MAX)?;
    let mobile = mobile_of(r.mobile)?;
    validate::new_password(r.password, r.password_confirm.unwrap_or(r.password))?;
    check_grantable(menus, by, r.menu_ids)?;
    if users::user_by_username(db, username).await?.is_some() {
        return Err(ApiError::invalid("username", Msg::UsernameTaken));
    }
    if let Some(m) = mobile
        && users::user_by_mobile(db, m).await?.is_some()
    {
        return Err(ApiError::invalid("mobile", Msg::MobileTaken));
    }
    Ok(users::create_staff(
        db,
        &users::NewUser {
            merchant_id: Some(merchant_id),
            kind: UserKind::Staff,
            username,
            nickname,
            mobile,
            password_hash: &super::hashing::hash(r.password).await?,
            menu_ids: r.menu_ids,
        },
    )
    .await?)
}

/// What the edit form sends: `None` keeps a value.
pub struct StaffChange<'a> {
    pub id: i64,
    pub nickname: Option<&'a str>,
    pub mobile: Option<&'a str>,
    pub password: Option<&'a str>,
    pub password_confirm: Option<&'a str>,
    pub status: Option<i64>,
    pub role_ids: Option<&'a [i64]>,
}

pub async fn edit(db: &Db, merchant_id: i64, r: &StaffChange<'_>) -> ApiResult<User> {
    let cur = users::staff_by_id(db, merchant_id, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let nickname = r.nickname.map(str::trim).unwrap_or(&cur.nickname);
    validate::required("nickname", nickname)?;
    let mobile = match r.mobile {
        Some(_) => mobile_of(r.mobile)?.map(str::to_string),
        None => cur.mobile.clone(),
    };
    if let Some(m) = &mobile
        && users::user_by_mobile(db, m)
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
    let role_ids = r.role_ids.map_or(cur.role_ids(), <[i64]>::to_vec);
    let roles = store::system::menus::roles(db).await?;
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
    let password = r.password.filter(|p| !p.is_empty());
    if let Some(p) = password {
        validate::new_password(p, r.password_confirm.unwrap_or(p))?;
    }
    users::edit_staff(
        db,
        merchant_id,
        cur.id,
        &users::StaffEdit {
            nickname,
            mobile: mobile.as_deref(),
            status,
            role_ids: &role_ids,
        },
    )
    .await?;
    if let Some(p) = password {
        users::set_password(db, cur.id, &super::hashing::hash(p).await?).await?;
    }
    get(db, merchant_id, cur.id).await
}

pub async fn get(db: &Db, merchant_id: i64, id: i64) -> ApiResult<User> {
    users::staff_by_id(db, merchant_id, id)
        .await?
        .ok_or(ApiError::NotFound)
}

/// Deletes a staff member; their sessions end.
pub async fn delete(db: &Db, merchant_id: i64, id: i64) -> ApiResult<()> {
    if !users::delete_staff(db, merchant_id, id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// Replaces the menus a staff member holds.
pub async fn set_menus(
    db: &Db,
    menus: &[Menu],
    by: Granter<'_>,
    merchant_id: i64,
    id: i64,
    ids: Option<&[i64]>,
) -> ApiResult<()> {
    let staff = get(db, merchant_id, id).await?;
    let ids = ids.ok_or(ApiError::invalid("menu_ids", Msg::Required))?;
    check_grantable(menus, by, ids)?;
    users::set_staff_menus(db, merchant_id, staff.id, ids).await?;
    Ok(())
}

/// One page of a merchant's staff.
pub async fn list(
    db: &Db,
    mid: i64,
    q: &store::ListParams,
) -> ApiResult<(Vec<User>, store::list::Total)> {
    Ok(users::list_staff(db, mid, q).await?)
}
