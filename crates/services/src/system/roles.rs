//! Operator-defined roles (sets of permissions a staff member can be given) and the menu settings.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::validate;
use store::Db;
use store::system::menus::{self, Menu, Role};

/// A role's name is required and each permission is `a/b/c` of letters, digits, `_`, `*` and `.`.
fn check(name: &str, permissions: &[String]) -> ApiResult<()> {
    validate::required("name", name.trim())?;
    for p in permissions {
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

pub async fn add(db: &Db, name: &str, permissions: &[String]) -> ApiResult<Role> {
    check(name, permissions)?;
    Ok(menus::add_role(db, name.trim(), permissions).await?)
}

pub async fn edit(db: &Db, id: Option<i64>, name: &str, permissions: &[String]) -> ApiResult<Role> {
    check(name, permissions)?;
    let id = id.ok_or(ApiError::invalid("id", Msg::Required))?;
    menus::edit_role(db, id, name.trim(), permissions)
        .await?
        .ok_or(ApiError::NotFound)
}

/// Deletes a role no user holds.
pub async fn delete(db: &Db, id: i64) -> ApiResult<()> {
    if menus::role_users(db, id).await? > 0 {
        return Err(ApiError::invalid("id", Msg::RoleInUse));
    }
    if !menus::delete_role(db, id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// What the menu form sends: `None` keeps a value.
pub struct MenuChange<'a> {
    pub icon: Option<&'a str>,
    pub hidden: Option<bool>,
    pub vip: Option<bool>,
    pub sort: Option<i64>,
}

/// Saves a menu's icon, visibility, VIP flag and order, and answers every menu afresh (the caller
/// keeps them in memory).
pub async fn edit_menu(db: &Db, cur: &Menu, r: &MenuChange<'_>) -> ApiResult<Vec<Menu>> {
    menus::edit(
        db,
        cur.id,
        r.icon.unwrap_or(&cur.icon),
        r.hidden.unwrap_or(cur.hidden == 1),
        r.vip.unwrap_or(cur.vip == 1),
        r.sort.unwrap_or(cur.sort),
    )
    .await?;
    Ok(menus::all(db).await?)
}

/// Every role.
pub async fn list(db: &Db) -> ApiResult<Vec<Role>> {
    Ok(menus::roles(db).await?)
}
