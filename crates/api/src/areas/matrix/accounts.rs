//! Accounts (`/task.merchant_group_user/*`) and account groups (`/task.merchant_matrix_group/*`):
//! authorizing on each platform (OAuth consent, QR login, app token), renewing, grouping, notes,
//! region and POI. Tokens are sealed at rest and never leave the server.

use super::hub::{platform, refused};
use crate::LangOf;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, IdsReq, Input};
use crate::state::AppState;
use axum::extract::{Path, Query, State};
use axum::response::Redirect;
use domain::clock::platform_now;
use domain::i18n::Msg;
use platforms::{AuthKind, Platform, SessionState};
use serde::Deserialize;
use store::ListQuery;
use store::matrix as db;
use utoipa::ToSchema;

/// The account as stored now, as the console sees it (the answer of every call that changes one).
async fn saved(st: &AppState, mid: i64, id: i64) -> ApiResult<Json> {
    let a = db::account(&st.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(st.hub.view(&a)))
}

/// OAuth states and QR logins live this long (real time).
const STATE_TTL_MS: i64 = 15 * 60 * 1000;

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub platform: Option<String>,
    pub group_id: Option<i64>,
    pub status: Option<String>,
    pub nickname: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/index", tag = "matrix", responses((status = 200, description = "{rows:[Account], total, summary:{active, expiring, expired}}")))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let now = platform_now();
    let lq = q
        .list
        .with_filter(
            "platform",
            q.platform.as_deref().filter(|s| !s.is_empty()),
            "=",
        )
        .with_filter(
            "group_id",
            q.group_id.map(|g| g.to_string()).as_deref(),
            "=",
        )
        .with_filter(
            "nickname",
            q.nickname.as_deref().filter(|s| !s.is_empty()),
            "include",
        );
    let status = q.status.as_deref().filter(|s| !s.is_empty());
    if status.is_some() && db::status_scope(status, now).is_none() {
        return Err(ApiError::invalid_with(
            "status",
            Msg::InvalidValue,
            vec![("reason", "active | expiring | expired".into())],
        ));
    }
    let (rows, total) = db::accounts(&st.db, mid, db::status_scope(status, now), &lq).await?;
    let (active, expiring, expired) = db::account_summary(&st.db, mid, now).await?;
    let mut data = store::list::rows_total(
        rows.iter().map(|a| st.hub.view(a)).collect::<Vec<_>>(),
        total,
    );
    data["summary"] =
        serde_json::json!({"active": active, "expiring": expiring, "expired": expired});
    Ok(ok(data))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/expire_user", tag = "matrix", responses((status = 200, description = "accounts expiring or expired")))]
pub async fn expire_user(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<ListQuery>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let soon = platform_now() + domain::matrix::EXPIRING_MS;
    let scope = format!("(a.revoked = 1 OR a.auth_expires_at <= {soon})");
    let (rows, total) = db::accounts(&st.db, mid, Some(scope), &q).await?;
    Ok(ok(store::list::rows_total(
        rows.iter().map(|a| st.hub.view(a)).collect::<Vec<_>>(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AuthReq {
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub group_id: Option<i64>,
    #[serde(default)]
    pub login_id: Option<String>,
    #[serde(default)]
    pub sms_code: Option<String>,
}

async fn group_of(st: &AppState, mid: i64, g: Option<i64>) -> ApiResult<i64> {
    match g.filter(|g| *g > 0) {
        Some(g) if db::group_exists(&st.db, mid, g).await? => Ok(g),
        Some(_) => Err(ApiError::NotFound),
        None => Ok(0),
    }
}

/// Starts authorizing: the consent URL (DY, KS) or a QR login (SPH, XHS, shop).
async fn start(
    st: &AppState,
    mid: i64,
    p: Platform,
    group: i64,
    lang: domain::i18n::Lang,
) -> ApiResult<serde_json::Value> {
    let (ad, _) = st.hub.adapter(p).await?;
    match p.auth_kind() {
        AuthKind::OAuth => {
            let state = store::random_token(24);
            db::put_state(&st.db, &state, mid, p.code(), group).await?;
            let redirect = format!("{}/oauth/{}/callback", st.hub.public_url, p.code());
            let url = ad
                .authorize_url(&redirect, &state)
                .map_err(|e| refused("platform", &e, lang))?;
            Ok(serde_json::json!({"kind": "oauth", "url": url}))
        }
        AuthKind::QrSession => {
            let login = ad
                .start_qr_login()
                .await
                .map_err(|e| refused("platform", &e, lang))?;
            db::put_state(&st.db, &login.login_id, mid, p.code(), group).await?;
            Ok(
                serde_json::json!({"kind": "qr", "state": "qr_pending", "login_id": login.login_id, "qr_url": login.qr_url, "expires_at": login.expires_at}),
            )
        }
        AuthKind::AppToken => Err(ApiError::invalid("platform", Msg::UseBjhLogin)),
    }
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/get_qrCode", tag = "matrix", request_body = AuthReq, responses((status = 200, description = "{kind:'oauth', url} or {kind:'qr', login_id, qr_url, expires_at}")))]
pub async fn get_qr_code(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AuthReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = platform(r.platform.as_deref().unwrap_or(""))?;
    let g = group_of(&st, mid, r.group_id).await?;
    Ok(ok(start(&st, mid, p, g, lang).await?))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/tiktokAuth", tag = "matrix", request_body = AuthReq, responses((status = 200, description = "{kind:'oauth', url} for Douyin")))]
pub async fn tiktok_auth(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AuthReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let g = group_of(&st, mid, r.group_id).await?;
    Ok(ok(start(&st, mid, Platform::Dy, g, lang).await?))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/dyAuthAggregation", tag = "matrix", request_body = AuthReq, responses((status = 200, description = "as tiktokAuth")))]
pub async fn dy_auth_aggregation(
    st: State<AppState>,
    c: Caller,
    l: LangOf,
    r: Input<AuthReq>,
) -> ApiResult<Json> {
    tiktok_auth(st, c, l, r).await
}

/// Starts or polls a QR login.
async fn qr(
    st: &AppState,
    mid: i64,
    p: Platform,
    r: &AuthReq,
    lang: domain::i18n::Lang,
) -> ApiResult<serde_json::Value> {
    let Some(login_id) = r.login_id.as_deref().filter(|s| !s.is_empty()) else {
        if p.auth_kind() != AuthKind::QrSession {
            return Err(ApiError::invalid_with(
                "platform",
                Msg::InvalidValue,
                vec![("reason", "sph | xhs | shop".into())],
            ));
        }
        let g = group_of(st, mid, r.group_id).await?;
        return start(st, mid, p, g, lang).await;
    };
    // The login must be one this merchant started.
    let (owner, code, group) = db::get_state(&st.db, login_id, STATE_TTL_MS, false)
        .await?
        .ok_or_else(|| ApiError::invalid("login_id", Msg::QrLoginUnknown))?;
    if owner != mid || code != p.code() {
        return Err(ApiError::invalid("login_id", Msg::QrLoginUnknown));
    }
    let (ad, sandbox) = st.hub.adapter(p).await?;
    let sms = r.sms_code.as_deref().filter(|s| !s.is_empty());
    let state = ad
        .poll_qr_login(login_id, sms)
        .await
        .map_err(|e| refused("login_id", &e, lang))?;
    Ok(match state {
        SessionState::LoggedIn { session } => {
            // Single use: a second poll does not add the account again.
            if db::get_state(&st.db, login_id, STATE_TTL_MS, true)
                .await?
                .is_none()
            {
                return Err(ApiError::invalid("login_id", Msg::QrLoginUnknown));
            }
            let id = st
                .hub
                .save_authorized(mid, p, &session, group, sandbox)
                .await?;
            let a = db::account(&st.db, mid, id)
                .await?
                .ok_or(ApiError::NotFound)?;
            serde_json::json!({"state": "logged_in", "login_id": login_id, "account": st.hub.view(&a)})
        }
        SessionState::SmsChallenge => {
            serde_json::json!({"state": "sms_challenge", "login_id": login_id})
        }
        SessionState::QrPending | SessionState::LoggedOut => {
            serde_json::json!({"state": "qr_pending", "login_id": login_id})
        }
        SessionState::SessionExpired => {
            serde_json::json!({"state": "expired", "login_id": login_id})
        }
    })
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/qr_login", tag = "matrix", request_body = AuthReq, responses((status = 200, description = "{state, login_id, qr_url?, account?}")))]
pub async fn qr_login(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AuthReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let p = platform(r.platform.as_deref().unwrap_or(""))?;
    Ok(ok(qr(&st, mid, p, &r, lang).await?))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/sphLogin", tag = "matrix", request_body = AuthReq, responses((status = 200, description = "QR login on WeChat Channels")))]
pub async fn sph_login(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AuthReq>,
) -> ApiResult<Json> {
    Ok(ok(qr(&st, c.merchant_id()?, Platform::Sph, &r, lang).await?))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/xhsLogin", tag = "matrix", request_body = AuthReq, responses((status = 200, description = "QR login on Xiaohongshu")))]
pub async fn xhs_login(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<AuthReq>,
) -> ApiResult<Json> {
    Ok(ok(qr(&st, c.merchant_id()?, Platform::Xhs, &r, lang).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BjhReq {
    #[serde(default)]
    pub app_id: String,
    #[serde(default)]
    pub app_token: String,
    #[serde(default)]
    pub group_id: Option<i64>,
}

#[utoipa::path(post, path = "/task.merchant_group_user/bjhLogin", tag = "matrix", request_body = BjhReq, responses((status = 200, description = "the Baijiahao account")))]
pub async fn bjh_login(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<BjhReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let (app_id, token) = (r.app_id.trim(), r.app_token.trim());
    domain::validate::required("app_id", app_id)?;
    domain::validate::required("app_token", token)?;
    let g = group_of(&st, mid, r.group_id).await?;
    let (ad, sandbox) = st.hub.adapter(Platform::Bjh).await?;
    let t = ad
        .verify_app_token(app_id, token)
        .await
        .map_err(|e| refused("app_token", &e, lang))?;
    let id = st
        .hub
        .save_authorized(mid, Platform::Bjh, &t, g, sandbox)
        .await?;
    saved(&st, mid, id).await
}

#[derive(Debug, Deserialize)]
pub struct CallbackQuery {
    pub code: Option<String>,
    pub state: Option<String>,
    pub error: Option<String>,
}

/// `GET /oauth/{platform}/callback`: the platform's consent page sends the person back here
/// (public: the `state` proves which merchant started it, once). Answers with a redirect to the console.
pub async fn oauth_callback(
    State(st): State<AppState>,
    Path(code): Path<String>,
    Query(q): Query<CallbackQuery>,
) -> Redirect {
    let back = |k: &str, v: &str| {
        Redirect::to(&format!(
            "/account_auth?{k}={}",
            serde_urlencoded::to_string([("", v)])
                .unwrap_or_default()
                .trim_start_matches('=')
        ))
    };
    let Some(p) = Platform::from_code(&code) else {
        return back("auth_error", "unknown platform");
    };
    if let Some(e) = q.error {
        return back(
            "auth_error",
            &format!(
                "{} ({e})",
                Msg::AuthStateInvalid.template(domain::i18n::Lang::En)
            ),
        );
    }
    let (Some(auth_code), Some(state)) = (q.code, q.state) else {
        return back(
            "auth_error",
            Msg::AuthStateInvalid.template(domain::i18n::Lang::En),
        );
    };
    let Ok(Some((mid, pc, group))) = db::get_state(&st.db, &state, STATE_TTL_MS, true).await else {
        return back(
            "auth_error",
            Msg::AuthStateInvalid.template(domain::i18n::Lang::En),
        );
    };
    if pc != p.code() {
        return back(
            "auth_error",
            Msg::AuthStateInvalid.template(domain::i18n::Lang::En),
        );
    }
    let result = async {
        let (ad, sandbox) = st.hub.adapter(p).await.map_err(|e| e.to_string())?;
        let t = ad
            .exchange_code(&auth_code)
            .await
            .map_err(|e| format!("{} / {}", e.zh, e.en))?;
        st.hub
            .save_authorized(mid, p, &t, group, sandbox)
            .await
            .map_err(|e| e.to_string())
    }
    .await;
    match result {
        Ok(id) => back("authorized", &id.to_string()),
        Err(e) => back("auth_error", &e),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/task.merchant_group_user/renew", tag = "matrix", request_body = IdReq, responses((status = 200, description = "the account with its new expiry")))]
pub async fn renew(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let a = db::account(&st.db, mid, r.id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let p = platform(&a.platform)?;
    match p.auth_kind() {
        AuthKind::OAuth => st
            .hub
            .refresh(&a)
            .await
            .map_err(|e| refused("id", &e, lang))?,
        _ => {
            let (ad, _) = st.hub.adapter(p).await?;
            if let Err(e) = ad.check(&st.hub.creds(&a)).await {
                if e.kind != platforms::ErrorKind::Retryable {
                    db::revoke(&st.db, a.id, &format!("{} / {}", e.zh, e.en)).await?;
                }
                return Err(refused("id", &e, lang));
            }
        }
    }
    saved(&st, mid, r.id).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveReq {
    pub id: i64,
    #[serde(default)]
    pub group_id: Option<i64>,
    #[serde(default)]
    pub remarks: Option<String>,
    #[serde(default)]
    pub account_type: Option<String>,
}

fn remarks(r: Option<&str>) -> ApiResult<Option<String>> {
    let Some(r) = r else { return Ok(None) };
    let r = r.trim();
    domain::validate::max_chars("remarks", r, domain::matrix::REMARKS_MAX)?;
    Ok(Some(r.to_string()))
}

#[utoipa::path(post, path = "/task.merchant_group_user/user_save", tag = "matrix", request_body = SaveReq, responses((status = 200, description = "the account")))]
pub async fn user_save(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SaveReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let g = match r.group_id {
        Some(g) => Some(group_of(&st, mid, Some(g)).await?),
        None => None,
    };
    if let Some(t) = r.account_type.as_deref()
        && t != "personal"
        && t != "enterprise"
    {
        return Err(ApiError::invalid_with(
            "account_type",
            Msg::InvalidValue,
            vec![("reason", "personal | enterprise".into())],
        ));
    }
    let rem = remarks(r.remarks.as_deref())?;
    if !db::save_account(
        &st.db,
        mid,
        r.id,
        g,
        rem.as_deref(),
        r.account_type.as_deref(),
    )
    .await?
    {
        return Err(ApiError::NotFound);
    }
    saved(&st, mid, r.id).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NotesReq {
    pub id: i64,
    #[serde(default)]
    pub remarks: String,
}

#[utoipa::path(post, path = "/task.merchant_group_user/update_notes", tag = "matrix", request_body = NotesReq, responses((status = 200, description = "the account")))]
pub async fn update_notes(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<NotesReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let rem = remarks(Some(&r.remarks))?;
    if !db::save_account(&st.db, mid, r.id, None, rem.as_deref(), None).await? {
        return Err(ApiError::NotFound);
    }
    saved(&st, mid, r.id).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddressReq {
    pub id: i64,
    pub province: Option<String>,
    pub city: Option<String>,
    pub poi_id: Option<String>,
    pub poi_name: Option<String>,
    pub poi_address: Option<String>,
}

#[utoipa::path(post, path = "/task.merchant_group_user/update_address", tag = "matrix", request_body = AddressReq, responses((status = 200, description = "the account")))]
pub async fn update_address(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<AddressReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let mut f = vec![];
    for (k, v) in [
        ("province", &r.province),
        ("city", &r.city),
        ("poi_id", &r.poi_id),
        ("poi_name", &r.poi_name),
        ("poi_address", &r.poi_address),
    ] {
        if let Some(v) = v {
            domain::validate::max_chars(k, v, 100)?;
            f.push((k, v.trim().to_string()));
        }
    }
    if !db::set_address(&st.db, mid, r.id, &f).await? {
        return Err(ApiError::NotFound);
    }
    saved(&st, mid, r.id).await
}

#[utoipa::path(post, path = "/task.merchant_group_user/discharge_poi", tag = "matrix", request_body = IdReq, responses((status = 200, description = "the account, POI cleared")))]
pub async fn discharge_poi(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let clear = [
        ("poi_id", String::new()),
        ("poi_name", String::new()),
        ("poi_address", String::new()),
    ];
    if !db::set_address(&st.db, mid, r.id, &clear).await? {
        return Err(ApiError::NotFound);
    }
    saved(&st, mid, r.id).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PoiReq {
    #[serde(default)]
    pub keyword: String,
    #[serde(default)]
    pub city: Option<String>,
}

/// POI search through the Douyin adapter (the sandbox serves it for every platform).
pub async fn poi_search(st: &AppState, r: &PoiReq, lang: domain::i18n::Lang) -> ApiResult<Json> {
    let kw = r.keyword.trim();
    domain::validate::required("keyword", kw)?;
    let (ad, _) = st.hub.adapter(Platform::Dy).await?;
    let rows = ad
        .poi_search(kw, r.city.as_deref().unwrap_or(""))
        .await
        .map_err(|e| refused("keyword", &e, lang))?;
    Ok(ok(serde_json::json!({"rows": rows, "total": rows.len()})))
}

#[utoipa::path(method(get, post), path = "/task.merchant_group_user/getPoiId", tag = "matrix", request_body = PoiReq, responses((status = 200, description = "{rows:[Poi]}")))]
pub async fn get_poi_id(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<PoiReq>,
) -> ApiResult<Json> {
    c.merchant_id()?;
    poi_search(&st, &r, lang).await
}

#[utoipa::path(post, path = "/task.merchant_group_user/delete", tag = "matrix", request_body = IdsReq, responses((status = 200, description = "deleted")))]
pub async fn delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdsReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let ids = r.all("id")?;
    for id in &ids {
        db::account(&st.db, mid, *id)
            .await?
            .ok_or(ApiError::NotFound)?;
    }
    match db::delete_accounts(&st.db, mid, &ids).await? {
        Some(_) => Ok(ok(serde_json::json!({}))),
        None => Err(ApiError::invalid("id", Msg::ItemBusy)),
    }
}

// ---- groups ----

#[utoipa::path(method(get, post), path = "/task.merchant_matrix_group/index", tag = "matrix", responses((status = 200, description = "{rows:[{id, name, accounts, created_at}], total}")))]
pub async fn groups(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<super::tasks::NameQuery>,
) -> ApiResult<Json> {
    let lq = q.list.with_filter(
        "name",
        q.name.as_deref().filter(|s| !s.is_empty()),
        "include",
    );
    let (rows, total) = db::groups(&st.db, c.merchant_id()?, &lq).await?;
    Ok(ok(store::list::rows_total(rows, total)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct GroupReq {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
    pub name: String,
}

fn group_name(n: &str) -> ApiResult<String> {
    let n = n.trim();
    domain::validate::required("name", n)?;
    domain::validate::max_chars("name", n, domain::matrix::GROUP_NAME_MAX)?;
    Ok(n.to_string())
}

#[utoipa::path(post, path = "/task.merchant_matrix_group/add", tag = "matrix", request_body = GroupReq, responses((status = 200, description = "{id}")))]
pub async fn group_add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GroupReq>,
) -> ApiResult<Json> {
    let name = group_name(&r.name)?;
    let id = db::add_group(&st.db, c.merchant_id()?, &name)
        .await?
        .ok_or_else(|| ApiError::invalid("name", Msg::GroupNameTaken))?;
    Ok(ok(serde_json::json!({"id": id, "name": name})))
}

#[utoipa::path(post, path = "/task.merchant_matrix_group/edit", tag = "matrix", request_body = GroupReq, responses((status = 200, description = "renamed")))]
pub async fn group_edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<GroupReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    let id = r.id.ok_or(ApiError::invalid("id", Msg::Required))?;
    let name = group_name(&r.name)?;
    if db::group_name_taken(&st.db, mid, &name, id).await? {
        return Err(ApiError::invalid("name", Msg::GroupNameTaken));
    }
    if !db::rename_group(&st.db, mid, id, &name).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({"id": id, "name": name})))
}

#[utoipa::path(post, path = "/task.merchant_matrix_group/delete", tag = "matrix", request_body = IdReq, responses((status = 200, description = "deleted; its accounts become ungrouped")))]
pub async fn group_delete(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<IdReq>,
) -> ApiResult<Json> {
    if !db::delete_group(&st.db, c.merchant_id()?, r.id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ShareReq {
    /// Poll a share made before.
    #[serde(default)]
    pub share_id: Option<String>,
    /// The video: `v:<id>` (finished library) or `m:<id>` (uploaded).
    #[serde(default)]
    pub video_key: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub topics: Vec<String>,
}

/// `dy_share`: Douyin's H5 share schema (tap-to-post). Makes a signed link that opens the customer's
/// own Douyin ready to post one of our videos; the platform's create_video webhook reports the post.
/// With `share_id` it answers whether the customer has posted it.
#[utoipa::path(post, path = "/task.merchant_group_user/dy_share", tag = "matrix", request_body = ShareReq, responses((status = 200, description = "{share_id, schema, expires_at, state} or the share's state")))]
pub async fn dy_share(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<ShareReq>,
) -> ApiResult<Json> {
    let mid = c.merchant_id()?;
    if let Some(id) = r.share_id.as_deref().filter(|s| !s.is_empty()) {
        let s = db::share(&st.db, mid, id)
            .await?
            .ok_or(ApiError::NotFound)?;
        let state = if s.item_id.is_empty() {
            "waiting"
        } else {
            "published"
        };
        return Ok(ok(
            serde_json::json!({"share_id": s.share_id, "state": state, "item_id": s.item_id, "open_id": s.open_id, "published_at": s.published_at}),
        ));
    }
    let title = r.title.trim();
    domain::validate::required("title", title)?;
    domain::validate::max_chars("title", title, domain::matrix::TITLE_MAX)?;
    let topics = domain::matrix::topics(&r.topics)?;
    super::tasks::videos::video(&st, mid, &r.video_key)
        .await?
        .ok_or_else(|| {
            ApiError::invalid_with(
                "video_key",
                Msg::VideoUnusable,
                vec![("name", r.video_key.clone())],
            )
        })?;
    let (_, src) = super::tasks::videos::video_urls(&st, &r.video_key);
    let url = format!("{}{}", st.hub.public_url, src.as_str().unwrap_or(""));
    let (ad, _) = st.hub.adapter(Platform::Dy).await?;
    let link = ad
        .share_link(&url, title, &topics)
        .await
        .map_err(|e| refused("video_key", &e, lang))?;
    db::add_share(&st.db, mid, &link.share_id, &r.video_key, title).await?;
    Ok(ok(
        serde_json::json!({"share_id": link.share_id, "schema": link.schema, "expires_at": link.expires_at, "state": "waiting"}),
    ))
}
