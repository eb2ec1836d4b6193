//! Sign-in, registration, SMS codes, password reset, proxy sign-in, token refresh and sign-out.

use crate::client::ClientIp;
use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::{Caller, Input};
use crate::guard::LogSubject;
use crate::state::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use domain::i18n::Msg;
use domain::{UserKind, now_ms, validate};
use serde::Deserialize;
use store::users;
use utoipa::ToSchema;

#[utoipa::path(get, path = "/login/index", tag = "auth", responses((status = 200, description = "login page settings")))]
pub async fn login_index(State(st): State<AppState>, crate::LangOf(lang): crate::LangOf) -> Json {
    let (service, privacy) = match lang {
        domain::i18n::Lang::Zh => ("服务协议", "隐私协议"),
        domain::i18n::Lang::En => ("Service Agreement", "Privacy Policy"),
    };
    ok(serde_json::json!({
        "app_name": "clipmatrix",
        "version": domain::APP_VERSION,
        "login_types": [1, 2, 3],
        "agreements": {
            "service_title": service,
            "privacy_title": privacy,
            "service_url": "/agreement/service",
            "privacy_url": "/agreement/privacy",
        },
        "sandbox": st.settings.sandbox,
        "remember_hours": domain::REMEMBER_MS / 3_600_000,
        "session_hours": domain::SESSION_MS / 3_600_000,
    }))
}

#[utoipa::path(get, path = "/index/platformInit", tag = "auth", responses((status = 200, description = "console defaults")))]
pub async fn platform_init(State(st): State<AppState>) -> Json {
    ok(serde_json::json!({
        "app_name": "clipmatrix",
        "version": domain::APP_VERSION,
        "home_type": 2,
        "default_language": "zh-cn",
        "languages": ["zh-cn", "en"],
        "sandbox": st.settings.sandbox,
        "theme": { "primary": "#1677ff", "layout": "side" },
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SmsReq {
    #[serde(default)]
    pub mobile: String,
    /// `login`, `register` or `reset`.
    #[serde(default)]
    pub scene: String,
}

#[utoipa::path(post, path = "/login/sms", tag = "auth", request_body = SmsReq, responses((status = 200, description = "code sent")))]
pub async fn send_sms(State(st): State<AppState>, Input(r): Input<SmsReq>) -> ApiResult<Json> {
    let mobile = r.mobile.trim();
    validate::mobile(mobile)?;
    if !["login", "register", "reset"].contains(&r.scene.as_str()) {
        return Err(ApiError::invalid_with(
            "scene",
            Msg::InvalidValue,
            vec![("reason", "login | register | reset".into())],
        ));
    }
    if let Some(last) = users::last_sms_at(&st.db, mobile).await? {
        let wait = last + domain::SMS_RESEND_MS - now_ms();
        if wait > 0 {
            return Err(ApiError::TooMany(
                Msg::SmsTooFrequent,
                vec![("seconds", ((wait + 999) / 1000).to_string())],
            ));
        }
    }
    let registered = users::user_by_mobile(&st.db, mobile).await?.is_some();
    match (r.scene.as_str(), registered) {
        ("register", true) => return Err(ApiError::invalid("mobile", Msg::MobileTaken)),
        ("login" | "reset", false) => {
            return Err(ApiError::invalid("mobile", Msg::MobileNotRegistered));
        }
        _ => {}
    }
    let code = {
        use rand::Rng;
        format!("{:06}", rand::rng().random_range(0..1_000_000))
    };
    users::insert_sms(&st.db, mobile, &r.scene, &code).await?;
    st.sms
        .send(mobile, &code, &r.scene)
        .map_err(ApiError::Internal)?;
    Ok(ok(
        serde_json::json!({ "sent": true, "resend_after_ms": domain::SMS_RESEND_MS }),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginReq {
    /// 1 enterprise account + password, 2 mobile + SMS code, 3 staff account.
    pub login_type: i64,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub mobile: String,
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub agree: bool,
    #[serde(default)]
    pub remember: bool,
}

/// Refuses a locked login key (429) before any check runs.
async fn check_lock(st: &AppState, key: &str, now: i64) -> ApiResult<()> {
    if let Some(until) = users::locked_until(&st.db, key, now).await? {
        return Err(locked(until, now));
    }
    Ok(())
}

fn locked(until: i64, now: i64) -> ApiError {
    let mins = ((until - now) + 59_999) / 60_000;
    ApiError::TooMany(Msg::Locked, vec![("until", format!("{mins} min"))])
}

/// Counts one wrong password or code against each key (with its limit) and answers with how many tries
/// the first key has left, or the lock.
async fn wrong(st: &AppState, keys: &[(&str, i64)], field: &str, msg: Msg, now: i64) -> ApiError {
    let (mut left, mut lock) = (i64::MAX, None);
    for (i, (key, limit)) in keys.iter().enumerate() {
        match users::record_failure(&st.db, key, *limit, now).await {
            Ok((n, until)) => {
                lock = lock.max(until);
                if i == 0 {
                    left = limit - n;
                }
            }
            Err(e) => return e.into(),
        }
    }
    match lock {
        Some(until) => locked(until, now),
        None => ApiError::invalid_with(field, msg, vec![("left", left.to_string())]),
    }
}

/// Each password or code check is rationed per address and server-wide before it runs (a password
/// check costs an argon2 hash); a sign-in that succeeds gives its attempt back (`auth`).
fn ration(st: &AppState, ip: &str) -> ApiResult<()> {
    st.login_limits.take(ip).map_err(|r| {
        let seconds = ((r.wait_ms + 999) / 1000).to_string();
        ApiError::TooMany(Msg::SignInThrottled, vec![("seconds", seconds)])
    })
}

/// One wrong SMS code for a mobile number.
async fn wrong_code(st: &AppState, key: &str, now: i64) -> ApiError {
    let keys = [(key, domain::LOCK_AFTER_FAILURES)];
    wrong(st, &keys, "code", Msg::BadCode, now).await
}

#[utoipa::path(post, path = "/login/auth", tag = "auth", request_body = LoginReq, responses((status = 200, description = "LoginResult {token, expires_at, remember, user}")))]
pub async fn auth(
    State(st): State<AppState>,
    ClientIp(ip): ClientIp,
    Input(r): Input<LoginReq>,
) -> Response {
    let subject = LogSubject {
        merchant_id: None,
        user_id: None,
        username: if r.login_type == 2 {
            r.mobile.clone()
        } else {
            r.username.clone()
        },
    };
    let (result, subject) = auth_inner(&st, &ip, r, subject).await;
    if result.is_ok() {
        st.login_limits.give_back(&ip);
    }
    let mut res = result.map(ok).into_response();
    res.extensions_mut().insert(subject);
    res
}

async fn auth_inner(
    st: &AppState,
    ip: &str,
    r: LoginReq,
    mut subject: LogSubject,
) -> (ApiResult<serde_json::Value>, LogSubject) {
    if !r.agree {
        return (
            Err(ApiError::invalid("agree", Msg::AgreementRequired)),
            subject,
        );
    }
    let user = match r.login_type {
        1 | 3 => password_login(st, ip, &r).await,
        2 => sms_login(st, ip, &r).await,
        _ => Err(ApiError::invalid_with(
            "login_type",
            Msg::InvalidValue,
            vec![("reason", "1 | 2 | 3".into())],
        )),
    };
    let user = match user {
        Ok(u) => u,
        Err(e) => return (Err(e), subject),
    };
    subject = LogSubject {
        merchant_id: user.merchant_id,
        user_id: Some(user.id),
        username: user.username.clone(),
    };
    if let Err(e) = check_enabled(st, &user).await {
        return (Err(e), subject);
    }
    (
        crate::session::sign_in(st, user, r.remember, None).await,
        subject,
    )
}

/// Wrong passwords lock one username for one address (`pwd:<name>@<address>`, 5 tries), so a stranger
/// cannot lock the owner out; all addresses together have a slower limit per username (`pwd:<name>`).
async fn password_login(st: &AppState, ip: &str, r: &LoginReq) -> ApiResult<users::User> {
    let username = r.username.trim();
    validate::required("username", username)?;
    validate::required("password", &r.password)?;
    ration(st, ip)?;
    let now = st.login_limits.now();
    let name_key = format!("pwd:{}", username.to_lowercase());
    let addr_key = format!("{name_key}@{ip}");
    check_lock(st, &addr_key, now).await?;
    check_lock(st, &name_key, now).await?;
    let user = users::user_by_username(&st.db, username).await?;
    // Same work either way, so timing does not tell which usernames exist; off the async threads, so
    // a burst of sign-ins does not stall every other request.
    let hash = user
        .as_ref()
        .map_or(dummy_hash().to_string(), |u| u.password_hash.clone());
    let password = r.password.clone();
    let ok = tokio::task::spawn_blocking(move || store::password::verify(&password, &hash))
        .await
        .unwrap_or(false);
    let Some(user) = user.filter(|_| ok) else {
        let keys = [
            (addr_key.as_str(), domain::LOCK_AFTER_FAILURES),
            (name_key.as_str(), domain::USER_LOCK_AFTER_FAILURES),
        ];
        return Err(wrong(st, &keys, "password", Msg::BadCredentials, now).await);
    };
    users::clear_failures(&st.db, &addr_key).await?;
    let staff = user.kind == UserKind::Staff.as_str();
    match (r.login_type, staff) {
        (1, true) => Err(ApiError::invalid("login_type", Msg::StaffUseStaffLogin)),
        (3, false) => Err(ApiError::invalid("login_type", Msg::NotStaffAccount)),
        _ => Ok(user),
    }
}

fn dummy_hash() -> &'static str {
    static H: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    H.get_or_init(|| store::password::hash("not-a-real-password-1"))
}

async fn sms_login(st: &AppState, ip: &str, r: &LoginReq) -> ApiResult<users::User> {
    let mobile = r.mobile.trim();
    validate::mobile(mobile)?;
    validate::required("code", &r.code)?;
    ration(st, ip)?;
    let key = format!("sms:{mobile}");
    let now = st.login_limits.now();
    check_lock(st, &key, now).await?;
    if !users::consume_sms(&st.db, mobile, "login", r.code.trim()).await? {
        return Err(wrong_code(st, &key, now).await);
    }
    users::clear_failures(&st.db, &key).await?;
    users::user_by_mobile(&st.db, mobile)
        .await?
        .ok_or(ApiError::invalid("mobile", Msg::MobileNotRegistered))
}

async fn check_enabled(st: &AppState, u: &users::User) -> ApiResult<()> {
    let merchant_off = match u.merchant_id {
        Some(id) => users::merchant_by_id(&st.db, id)
            .await?
            .is_none_or(|m| m.status == 0),
        None => false,
    };
    if u.status == 0 || merchant_off {
        return Err(ApiError::forbidden(Msg::AccountDisabled));
    }
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProxyReq {
    #[serde(rename = "proxyToken", alias = "proxy_token", default)]
    pub proxy_token: String,
}

#[utoipa::path(post, path = "/login/verifyJwtToken", tag = "auth", request_body = ProxyReq, responses((status = 200, description = "LoginResult for the merchant, proxy_info.user_name = operator")))]
pub async fn verify_jwt_token(
    State(st): State<AppState>,
    Input(r): Input<ProxyReq>,
) -> ApiResult<Json> {
    validate::required("proxyToken", &r.proxy_token)?;
    let (merchant_id, operator_id) = users::consume_proxy_token(&st.db, r.proxy_token.trim())
        .await?
        .ok_or(ApiError::invalid("proxyToken", Msg::ProxyTokenInvalid))?;
    let owner = users::merchant_owner(&st.db, merchant_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let operator = users::user_by_id(&st.db, operator_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ok(crate::session::sign_in(
        &st,
        owner,
        false,
        Some(&operator.username),
    )
    .await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RegisterReq {
    #[serde(default)]
    pub merchant_name: String,
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub mobile: String,
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub password_confirm: String,
    #[serde(default)]
    pub agree: bool,
}

#[utoipa::path(post, path = "/login/register", tag = "auth", request_body = RegisterReq, responses((status = 200, description = "LoginResult of the new merchant owner")))]
pub async fn register(State(st): State<AppState>, Input(r): Input<RegisterReq>) -> ApiResult<Json> {
    if !r.agree {
        return Err(ApiError::invalid("agree", Msg::AgreementRequired));
    }
    let name = r.merchant_name.trim();
    validate::required("merchant_name", name)?;
    validate::max_chars("merchant_name", name, 50)?;
    validate::username(r.username.trim())?;
    let mobile = r.mobile.trim();
    validate::mobile(mobile)?;
    validate::new_password(&r.password, &r.password_confirm)?;
    if users::user_by_username(&st.db, r.username.trim())
        .await?
        .is_some()
    {
        return Err(ApiError::invalid("username", Msg::UsernameTaken));
    }
    if users::user_by_mobile(&st.db, mobile).await?.is_some() {
        return Err(ApiError::invalid("mobile", Msg::MobileTaken));
    }
    let key = format!("sms:{mobile}");
    let now = st.login_limits.now();
    check_lock(&st, &key, now).await?;
    if !users::consume_sms(&st.db, mobile, "register", r.code.trim()).await? {
        return Err(wrong_code(&st, &key, now).await);
    }
    let (_, owner) = users::create_merchant(
        &st.db,
        name,
        r.username.trim(),
        Some(mobile),
        &store::password::hash(&r.password),
    )
    .await?;
    Ok(ok(crate::session::sign_in(&st, owner, false, None).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResetReq {
    #[serde(default)]
    pub mobile: String,
    #[serde(default)]
    pub code: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub password_confirm: String,
}

#[utoipa::path(post, path = "/login/reset_password", tag = "auth", request_body = ResetReq, responses((status = 200, description = "password changed; all sessions ended")))]
pub async fn reset_password(
    State(st): State<AppState>,
    Input(r): Input<ResetReq>,
) -> ApiResult<Json> {
    let mobile = r.mobile.trim();
    validate::mobile(mobile)?;
    validate::new_password(&r.password, &r.password_confirm)?;
    let user = users::user_by_mobile(&st.db, mobile)
        .await?
        .ok_or(ApiError::invalid("mobile", Msg::MobileNotRegistered))?;
    let key = format!("sms:{mobile}");
    let now = st.login_limits.now();
    check_lock(&st, &key, now).await?;
    if !users::consume_sms(&st.db, mobile, "reset", r.code.trim()).await? {
        return Err(wrong_code(&st, &key, now).await);
    }
    users::set_password(&st.db, user.id, &store::password::hash(&r.password)).await?;
    users::clear_user_failures(&st.db, &user.username).await?;
    Ok(ok(serde_json::json!({})))
}

#[utoipa::path(post, path = "/token", tag = "auth", responses((status = 200, description = "LoginResult with a fresh token for the same session")))]
pub async fn refresh_token(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    let ttl = if c.remember {
        domain::REMEMBER_MS
    } else {
        domain::SESSION_MS
    };
    let expires_at = now_ms() + ttl;
    users::extend_session(&st.db, &c.session_id, expires_at).await?;
    let s = users::session(&st.db, &c.session_id)
        .await?
        .ok_or(ApiError::SessionRevoked)?;
    Ok(ok(crate::session::login_result(&st, &c, &s)?))
}

#[utoipa::path(post, path = "/login/logout", tag = "auth", responses((status = 200, description = "session ended")))]
pub async fn logout(State(st): State<AppState>, c: Caller) -> ApiResult<Json> {
    users::revoke_session(&st.db, &c.session_id).await?;
    Ok(ok(serde_json::json!({})))
}
