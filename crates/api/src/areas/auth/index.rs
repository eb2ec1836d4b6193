//! The signed-in user's own calls: menu, profile, password, home page data, their merchant's log and
//! points records.

use crate::LangOf;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::{Lang, Msg};
use domain::{UserKind, validate};
use serde::Deserialize;
use store::ListParams;
use store::menus::Menu;
use utoipa::ToSchema;

/// A menu tree of the given menus (children under their parents, in `sort` order).
pub fn tree(menus: &[&Menu], parent: Option<&str>) -> Vec<serde_json::Value> {
    menus
        .iter()
        .filter(|m| m.parent_path.as_deref() == parent)
        .map(|m| {
            serde_json::json!({
                "id": m.id,
                "path": m.path,
                "name": m.name,
                "icon": m.icon,
                "permission": m.grants(),
                "hidden": m.hidden == 1,
                "admin": m.admin == 1,
                "vip": m.vip == 1,
                "children": tree(menus, Some(&m.path)),
            })
        })
        .collect()
}

/// The menus a caller may open: the operator its Administrator menus plus home; a merchant owner every
/// merchant menu; a staff member the ones granted (and their own user centre).
pub fn visible_menus(all: &[Menu], c: &Caller) -> Vec<Menu> {
    let ids = c.user.menu_ids();
    let keep = |m: &Menu| match c.kind {
        UserKind::Operator => m.admin == 1 || m.path == "/dashboard" || m.path == "/usercenter",
        UserKind::Merchant => m.admin == 0,
        UserKind::Staff => m.admin == 0 && (ids.contains(&m.id) || m.path == "/usercenter"),
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

#[utoipa::path(get, path = "/ajax/initAdmin", tag = "auth", responses((status = 200, description = "{menu, permissions, role, user}")))]
pub async fn init_admin(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    let all = st.menus.read().await.clone();
    let visible = visible_menus(&all, &c);
    let refs: Vec<&Menu> = visible.iter().collect();
    Ok(ok(serde_json::json!({
        "menu": tree(&refs, None),
        "permissions": c.grants,
        "role": c.roles,
        "user": crate::session::user_record(&c),
    })))
}

#[utoipa::path(get, path = "/index/profile", tag = "auth", responses((status = 200, description = "UserRecord")))]
pub async fn profile(c: Caller) -> Json {
    ok(crate::session::user_record(&c))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProfileReq {
    #[serde(default)]
    pub nickname: String,
    #[serde(default)]
    pub mobile: Option<String>,
    #[serde(default)]
    pub avatar: Option<String>,
}

#[utoipa::path(post, path = "/index/editProfile", tag = "auth", request_body = ProfileReq, responses((status = 200, description = "UserRecord")))]
pub async fn edit_profile(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<ProfileReq>,
) -> ApiResult<Json> {
    let nickname = r.nickname.trim();
    validate::required("nickname", nickname)?;
    validate::max_chars("nickname", nickname, 32)?;
    // Absent keeps the current number; an empty string clears it.
    let mobile = match r.mobile.as_deref().map(str::trim) {
        None => c.user.mobile.as_deref(),
        Some("") => None,
        Some(m) => Some(m),
    };
    if let Some(m) = mobile.filter(|m| Some(*m) != c.user.mobile.as_deref()) {
        validate::mobile(m)?;
        if store::users::user_by_mobile(&st.db, m)
            .await?
            .is_some_and(|u| u.id != c.user.id)
        {
            return Err(ApiError::invalid("mobile", Msg::MobileTaken));
        }
    }
    // An avatar is one of the caller's uploaded images; it gets a link that does not expire.
    let avatar = match r.avatar.as_deref().map(str::trim) {
        None => c.user.avatar.clone(),
        Some("") => String::new(),
        Some(url) => {
            let id = crate::areas::materials::files::id_of(url).ok_or(ApiError::invalid_with(
                "avatar",
                Msg::InvalidValue,
                vec![("reason", "an uploaded image".into())],
            ))?;
            let mid = c.merchant_id()?;
            store::materials::get(&st.db, mid, id)
                .await?
                .filter(|m| m.kind == "image")
                .ok_or(ApiError::invalid("avatar", Msg::NotAnImage))?;
            crate::areas::materials::files::permanent_url(&st, id, "original")
        }
    };
    store::users::update_profile(&st.db, c.user.id, nickname, mobile, &avatar).await?;
    let user = store::users::user_by_id(&st.db, c.user.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(crate::session::user_record(&Caller { user, ..c })))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PasswordReq {
    #[serde(default)]
    pub old_password: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub password_confirm: String,
}

#[utoipa::path(post, path = "/index/editPassword.html", tag = "auth", request_body = PasswordReq, responses((status = 200, description = "changed; every session of the user ends")))]
pub async fn edit_password(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<PasswordReq>,
) -> ApiResult<Json> {
    validate::required("old_password", &r.old_password)?;
    if !store::password::verify(&r.old_password, &c.user.password_hash) {
        return Err(ApiError::invalid("old_password", Msg::OldPasswordWrong));
    }
    validate::new_password(&r.password, &r.password_confirm)?;
    store::users::set_password(&st.db, c.user.id, &store::password::hash(&r.password)).await?;
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(post, path = "/index/banner", tag = "auth", responses((status = 200, description = "{rows,total}")))]
pub async fn banner(State(st): State<AppState>) -> ApiResult<Json> {
    let rows = store::content::banners(&st.db).await?;
    Ok(ok(serde_json::json!({ "total": rows.len(), "rows": rows })))
}

#[utoipa::path(get, path = "/index/getIndexCourseList", tag = "auth", responses((status = 200, description = "{rows,total}")))]
pub async fn courses(State(st): State<AppState>) -> ApiResult<Json> {
    let rows = store::content::courses(&st.db).await?;
    Ok(ok(serde_json::json!({ "total": rows.len(), "rows": rows })))
}

#[utoipa::path(method(get, post), path = "/version_log/getList", tag = "auth", responses((status = 200, description = "{rows,total}")))]
pub async fn version_log(
    State(st): State<AppState>,
    LangOf(lang): LangOf,
    Input(p): Input<ListParams>,
) -> ApiResult<Json> {
    let (mut rows, total) = store::content::version_logs(&st.db, &p).await?;
    // Each entry in the reader's language only (English falls back to Chinese where none was written).
    for r in &mut rows {
        if lang == Lang::En && !r.content_en.is_empty() {
            r.content = std::mem::take(&mut r.content_en);
        }
    }
    Ok(ok(store::list::rows_total(rows, total)))
}

#[utoipa::path(get, path = "/index/dashboard", tag = "reports", responses((status = 200, description = "points and chart series")))]
pub async fn dashboard(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    let points = match c.user.merchant_id {
        Some(m) => store::points::balance(&st.db, m).await?,
        None => store::points::total_balance(&st.db).await?,
    };
    // The last seven China days, on the platform clock the publisher stamps items with.
    let today = domain::matrix::day_of(domain::clock::platform_now());
    let first = today - (DASHBOARD_DAYS as i64 - 1);
    let days: Vec<String> = (first..=today).map(domain::matrix::fmt_day).collect();
    let s = store::matrix::daily_stats(&st.db, c.user.merchant_id, first, DASHBOARD_DAYS).await?;
    let any = |v: &[i64]| v.iter().any(|&n| n > 0);
    Ok(ok(serde_json::json!({
        "points": points,
        "publish": { "days": days, "success": s.published, "failed": s.failed },
        "video": { "days": days, "plays": s.plays, "likes": s.likes },
        "has_publish_data": any(&s.published) || any(&s.failed),
        "has_video_data": any(&s.plays) || any(&s.likes),
    })))
}

const DASHBOARD_DAYS: usize = 7;

#[derive(Debug, Deserialize)]
pub struct LogQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub action: Option<String>,
}

impl LogQuery {
    pub fn into_query(self) -> ListParams {
        self.list
            .with_filter("username", self.username.as_deref(), "include")
            .with_filter("action", self.action.as_deref(), "include")
    }
}

/// Log rows with `action_name`: the action in words, in the reader's language (`action` keeps the
/// permission it was checked against, which the filter matches).
pub fn log_rows(rows: &[store::oplog::LogRow], lang: domain::i18n::Lang) -> Vec<serde_json::Value> {
    rows.iter()
        .map(|r| {
            let mut v = serde_json::json!(r);
            v["action_name"] = domain::actions::action_name(&r.action, lang).into();
            v
        })
        .collect()
}

#[utoipa::path(method(get, post), path = "/index/log", tag = "auth", responses((status = 200, description = "the caller's merchant's operation log; each row's action_name names the action in words")))]
pub async fn merchant_log(
    State(st): State<AppState>,
    c: Caller,
    crate::LangOf(lang): crate::LangOf,
    Input(q): Input<LogQuery>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let (rows, total) = store::oplog::list(&st.db, Some(mid), &q.into_query()).await?;
    Ok(ok(store::list::rows_total(log_rows(&rows, lang), total)))
}

#[derive(Debug, Deserialize)]
pub struct UsageQuery {
    #[serde(flatten)]
    pub list: ListParams,
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}

/// A ledger row as its reader sees it: the reason and the operator in the reader's language.
fn usage_row(e: &store::points::Entry, lang: Lang) -> serde_json::Value {
    let mut v = serde_json::to_value(e).unwrap_or_default();
    v["reason"] = domain::points::reason_text(&e.reason_code, &e.reason, lang).into();
    v["operator"] = domain::points::operator_text(&e.operator, lang).into();
    v
}

async fn usage(st: &AppState, c: &Caller, lang: Lang, q: &UsageQuery) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let q = q.list.clone().with_filter("kind", q.kind.as_deref(), "=");
    let (rows, total, mut summary) = store::points::list(&st.db, mid, &q).await?;
    let rows: Vec<_> = rows.iter().map(|e| usage_row(e, lang)).collect();
    summary.insert(
        "balance".into(),
        store::points::balance(&st.db, mid).await?.into(),
    );
    let mut data = store::list::rows_total(rows, total);
    data["summary"] = summary.into();
    Ok(ok(data))
}

#[utoipa::path(method(get, post), path = "/common.merchant_usage_record/index", tag = "reports", responses((status = 200, description = "points ledger of the caller's merchant")))]
pub async fn usage_common(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<UsageQuery>,
) -> ApiResult<Json> {
    usage(&st, &c, lang, &q).await
}

#[utoipa::path(method(get, post), path = "/bpdr.merchant_usage_record/index", tag = "reports", responses((status = 200, description = "points ledger of the caller's merchant")))]
pub async fn usage_bpdr(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<UsageQuery>,
) -> ApiResult<Json> {
    usage(&st, &c, lang, &q).await
}
