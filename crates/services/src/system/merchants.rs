//! The operator's merchant screen: create, edit, enable/disable, reset the owner's password, top up
//! points, and sign in as the merchant (a single-use proxy token).

use crate::auth::hashing::hash;
use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::validate;
use store::Db;
use store::auth::users;

/// A merchant and a user as the operator's lists show them.
pub use store::auth::users::{MerchantRow, UserRow};

async fn row(db: &Db, id: i64) -> ApiResult<MerchantRow> {
    users::merchant_row(db, id).await?.ok_or(ApiError::NotFound)
}

pub async fn add(
    db: &Db,
    name: &str,
    username: &str,
    password: &str,
    mobile: Option<&str>,
) -> ApiResult<MerchantRow> {
    let name = name.trim();
    let username = username.trim();
    validate::required("name", name)?;
    validate::username(username)?;
    validate::new_password(password, password)?;
    let mobile = mobile.map(str::trim).filter(|m| !m.is_empty());
    if let Some(m) = mobile {
        validate::mobile(m)?;
        if users::user_by_mobile(db, m).await?.is_some() {
            return Err(ApiError::invalid("mobile", Msg::MobileTaken));
        }
    }
    if users::user_by_username(db, username).await?.is_some() {
        return Err(ApiError::invalid("username", Msg::UsernameTaken));
    }
    let (m, _) = users::create_merchant(db, name, username, mobile, &hash(password).await?).await?;
    row(db, m.id).await
}

/// Renames a merchant and sets its VIP end (`0` or `None` ends VIP).
pub async fn edit(
    db: &Db,
    id: i64,
    name: Option<&str>,
    vip_expires_at: Option<i64>,
    home_type: Option<i64>,
) -> ApiResult<MerchantRow> {
    let cur = users::merchant_by_id(db, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let name = name.map(str::trim).unwrap_or(&cur.name);
    validate::required("name", name)?;
    // SPEC §2: home type 1 is the 'header' home layout, anything else the 'second' one; we store 1 or 2.
    if let Some(h) = home_type.filter(|h| *h != 1 && *h != 2) {
        return Err(ApiError::invalid_with(
            "home_type",
            Msg::InvalidValue,
            vec![("reason", format!("{h}: 1 | 2"))],
        ));
    }
    let vip = vip_expires_at.filter(|t| *t > 0);
    users::edit_merchant(db, id, name, vip, home_type).await?;
    row(db, id).await
}

/// Enables (1) or disables (0) a merchant; disabling ends its users' sessions.
pub async fn set_status(db: &Db, id: i64, status: i64) -> ApiResult<MerchantRow> {
    if status != 0 && status != 1 {
        return Err(ApiError::invalid_with(
            "status",
            Msg::InvalidValue,
            vec![("reason", "1 | 0".into())],
        ));
    }
    if !users::set_merchant_status(db, id, status).await? {
        return Err(ApiError::NotFound);
    }
    row(db, id).await
}

/// Sets the owner's password; their sessions end and the username's locks are lifted.
pub async fn reset_password(db: &Db, id: i64, password: &str) -> ApiResult<()> {
    validate::new_password(password, password)?;
    let owner = users::merchant_owner(db, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    users::set_password(db, owner.id, &hash(password).await?).await?;
    users::clear_user_failures(db, &owner.username).await?;
    Ok(())
}

/// Adds points to a merchant, noted with the operator's own words (if any) and name.
pub async fn topup(
    db: &Db,
    id: i64,
    points: i64,
    note: &str,
    operator: &str,
) -> ApiResult<store::system::points::Entry> {
    users::merchant_by_id(db, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(store::system::points::topup(
        db,
        id,
        points,
        domain::system::points::Reason::Topup,
        note.trim(),
        operator,
    )
    .await?)
}

/// A single-use token (60 s) with which `operator_id` signs in as the merchant's owner.
pub async fn proxy_token(db: &Db, id: i64, operator_id: i64) -> ApiResult<String> {
    users::merchant_owner(db, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(users::create_proxy_token(db, id, operator_id).await?)
}

/// One page of the merchants.
pub async fn list(
    db: &Db,
    q: &store::ListParams,
) -> ApiResult<(Vec<MerchantRow>, store::list::Total)> {
    Ok(users::list_merchants(db, q).await?)
}

/// One page of every user (operators, merchants' owners and staff).
pub async fn users(
    db: &Db,
    q: &store::ListParams,
) -> ApiResult<(Vec<UserRow>, store::list::Total)> {
    Ok(users::list_all_users(db, q).await?)
}
