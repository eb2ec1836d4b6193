//! The signed-in user's own account: profile, password, home page figures, points records.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::{UserKind, validate};
use store::Db;
use store::ListParams;
use store::auth::users::User;
use store::list::Total;
use store::system::menus::Menu;

/// What the profile form sends: `None` keeps a value, an empty string clears it.
pub struct ProfileEdit<'a> {
    pub nickname: &'a str,
    pub mobile: Option<&'a str>,
    pub avatar: Option<&'a str>,
}

/// Saves the profile of `user` and answers the fresh row. An avatar must be one of the merchant's
/// uploaded images; it is kept as a link that does not expire (signed with `link_key`).
pub async fn edit_profile(
    db: &Db,
    link_key: &[u8],
    user: &User,
    r: &ProfileEdit<'_>,
) -> ApiResult<User> {
    let nickname = r.nickname.trim();
    validate::required("nickname", nickname)?;
    validate::max_chars("nickname", nickname, validate::NICKNAME_MAX)?;
    // Absent keeps the current number; an empty string clears it.
    let mobile = match r.mobile.map(str::trim) {
        None => user.mobile.as_deref(),
        Some("") => None,
        Some(m) => Some(m),
    };
    if let Some(m) = mobile.filter(|m| Some(*m) != user.mobile.as_deref()) {
        validate::mobile(m)?;
        if store::auth::users::user_by_mobile(db, m)
            .await?
            .is_some_and(|u| u.id != user.id)
        {
            return Err(ApiError::invalid("mobile", Msg::MobileTaken));
        }
    }
    // An avatar is one of the caller's uploaded images; it gets a link that does not expire.
    let avatar = match r.avatar.map(str::trim) {
        None => user.avatar.clone(),
        Some("") => String::new(),
        Some(url) => {
            let id = crate::links::id_of(url).ok_or(ApiError::invalid_with(
                "avatar",
                Msg::InvalidValue,
                vec![("reason", "an uploaded image".into())],
            ))?;
            let mid = user
                .merchant_id
                .ok_or(ApiError::forbidden(Msg::MerchantOnly))?;
            store::materials::get(db, mid, id)
                .await?
                .filter(|m| m.kind == domain::materials::MediaKind::Image)
                .ok_or(ApiError::invalid("avatar", Msg::NotAnImage))?;
            crate::links::permanent_url(link_key, id, "original")
        }
    };
    store::auth::users::update_profile(db, user.id, nickname, mobile, &avatar).await?;
    store::auth::users::user_by_id(db, user.id)
        .await?
        .ok_or(ApiError::NotFound)
}

/// Changes the password after checking the current one; every session of the user ends.
pub async fn change_password(
    db: &Db,
    user: &User,
    old_password: &str,
    password: &str,
    password_confirm: &str,
) -> ApiResult<()> {
    validate::required("old_password", old_password)?;
    if !super::hashing::verify(old_password, &user.password_hash).await? {
        return Err(ApiError::invalid("old_password", Msg::OldPasswordWrong));
    }
    validate::new_password(password, password_confirm)?;
    store::auth::users::set_password(db, user.id, &super::hashing::hash(password).await?).await?;
    Ok(())
}

/// A page of the points ledger with its reasons and operators in the reader's language, plus the
/// totals over every row the filters select and the current balance.
pub struct Usage {
    pub rows: Vec<store::system::points::Entry>,
    pub total: Total,
    pub topup: i64,
    pub deduct: i64,
    pub balance: i64,
}

pub async fn usage(
    db: &Db,
    merchant_id: i64,
    q: &ListParams,
    kind: Option<&str>,
) -> ApiResult<Usage> {
    let q = q.clone().with_filter("kind", kind, "=");
    let (rows, total, summary) = store::system::points::list(db, merchant_id, &q).await?;
    let sum = |k: &str| summary.get(k).and_then(|v| v.as_i64()).unwrap_or(0);
    Ok(Usage {
        topup: sum("topup"),
        deduct: sum("deduct"),
        balance: store::system::points::balance(db, merchant_id).await?,
        rows,
        total,
    })
}

/// The menus a user may open: the operator its Administrator menus plus home; a merchant owner every
/// merchant menu; a staff member the ones granted (`menu_ids`, and their own user centre).
pub fn visible_menus(all: &[Menu], kind: UserKind, menu_ids: &[i64]) -> Vec<Menu> {
    let keep = |m: &Menu| match kind {
        UserKind::Operator => m.admin == 1 || m.path == "/dashboard" || m.path == "/usercenter",
        UserKind::Merchant => m.admin == 0,
        UserKind::Staff => m.admin == 0 && (menu_ids.contains(&m.id) || m.path == "/usercenter"),
    };
    let mut out: Vec<Menu> = all.iter().filter(|m| keep(m)).cloned().collect();
    // Keep the parents of what is visible, so the tree has somewhere to hang.
    let parents: Vec<String> = out.iter().filter_map(|m| m.parent_path.clone()).collect();
    for p in parents {
        if !out.iter().any(|m| m.path == p)
            && let Some(m) = all.iter().find(|m| m.path == p)
        {
            out.push(m.clone());
        }
    }
    out.sort_by_key(|m| (m.sort, m.id));
    out
}
