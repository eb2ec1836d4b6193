//! Sign-in, registration, SMS codes, password reset, proxy sign-in, token refresh and sign-out
//! (`services::auth::signin`).

use super::views::LoginResultView;
use crate::client::ClientIp;
use crate::error::{Answer, ApiResult, Done, HttpError, Reply, reply};
use crate::extract::{Caller, Input};
use crate::guard::LogSubject;
use crate::state::AppState;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use services::auth::signin::{self as uc, Guards};
use utoipa::ToSchema;

fn guards(st: &AppState) -> Guards<'_> {
    Guards {
        db: &st.db,
        limits: &st.login_limits,
        key: &st.jwt_key,
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AgreementsView {
    pub service_title: &'static str,
    pub privacy_title: &'static str,
    pub service_url: &'static str,
    pub privacy_url: &'static str,
}

/// A way to sign in: 1 account and password, 2 mobile and SMS code, 3 scan (the document's enum of
/// `LoginIndexView.login_types`; the wire format is the number).
pub struct LoginTypeCode;

impl utoipa::PartialSchema for LoginTypeCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::contract::integer_enum(&[1, 2, 3])
    }
}

impl ToSchema for LoginTypeCode {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("LoginType")
    }
}

/// The sign-in page's settings.
#[derive(Debug, Serialize, ToSchema)]
pub struct LoginIndexView {
    pub app_name: &'static str,
    pub version: &'static str,
    #[schema(value_type = Vec<LoginTypeCode>)]
    pub login_types: Vec<i64>,
    pub agreements: AgreementsView,
    pub sandbox: bool,
    /// The sandbox is on and this browser may read its SMS outbox (it holds the sandbox token):
    /// only then does the page link `/sandbox/sms`, which answers anyone else 401.
    pub sandbox_sms: bool,
    pub remember_hours: i64,
    pub session_hours: i64,
}

#[utoipa::path(get, path = "/login/index", tag = "auth", responses((status = 200, body = Reply<LoginIndexView>)))]
pub async fn login_index(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    headers: axum::http::HeaderMap,
) -> Answer<LoginIndexView> {
    let sandbox_sms = st.settings.sandbox && crate::holds_sandbox_token(&st, &headers).await;
    let (service, privacy) = match lang {
        domain::i18n::Lang::Zh => ("服务协议", "隐私协议"),
        domain::i18n::Lang::En => ("Service Agreement", "Privacy Policy"),
    };
    Ok(reply(LoginIndexView {
        app_name: "clipmatrix",
        version: domain::APP_VERSION,
        login_types: vec![1, 2, 3],
        agreements: AgreementsView {
            service_title: service,
            privacy_title: privacy,
            service_url: "/agreement/service",
            privacy_url: "/agreement/privacy",
        },
        sandbox: st.settings.sandbox,
        sandbox_sms,
        remember_hours: domain::REMEMBER_MS / 3_600_000,
        session_hours: domain::SESSION_MS / 3_600_000,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ThemeView {
    pub primary: &'static str,
    pub layout: &'static str,
}

/// The console's defaults before sign-in.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlatformInitView {
    pub app_name: &'static str,
    pub version: &'static str,
    pub home_type: i64,
    pub default_language: &'static str,
    pub languages: Vec<&'static str>,
    pub sandbox: bool,
    /// The sandbox is on and the server listens beyond this machine: show "demo mode".
    pub demo: bool,
    pub theme: ThemeView,
}

#[utoipa::path(get, path = "/index/platformInit", tag = "auth", responses((status = 200, body = Reply<PlatformInitView>)))]
pub async fn platform_init(State(st): State<AppState>) -> Answer<PlatformInitView> {
    Ok(reply(PlatformInitView {
        app_name: "clipmatrix",
        version: domain::APP_VERSION,
        home_type: 2,
        default_language: "zh-cn",
        languages: vec!["zh-cn", "en"],
        sandbox: st.settings.sandbox,
        demo: st.settings.demo,
        theme: ThemeView {
            primary: "#1677ff",
            layout: "side",
        },
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SmsReq {
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 11,
        max_length = 11,
        pattern = "^1[3-9][0-9]{9}$"
    )]
    pub mobile: String,
    /// `login`, `register` or `reset`.
    #[serde(default)]
    #[schema(required = true, value_type = domain::system::sms::SmsScene)]
    pub scene: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SmsSentView {
    pub sent: bool,
    pub resend_after_ms: i64,
}

#[utoipa::path(post, path = "/login/sms", tag = "auth", request_body = SmsReq, responses((status = 200, body = Reply<SmsSentView>)))]
pub async fn send_sms(
    State(st): State<AppState>,
    ClientIp(ip): ClientIp,
    Input(r): Input<SmsReq>,
) -> Answer<SmsSentView> {
    uc::send_sms(&st.db, &st.sms, &st.sms_limits, &ip, &r.mobile, &r.scene).await?;
    Ok(reply(SmsSentView {
        sent: true,
        resend_after_ms: domain::SMS_RESEND_MS,
    }))
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
    /// Refused unless true (the user agreed to the terms).
    #[serde(default)]
    #[schema(required = true)]
    pub agree: bool,
    #[serde(default)]
    pub remember: bool,
}

#[utoipa::path(post, path = "/login/auth", tag = "auth", request_body = LoginReq, responses((status = 200, body = Reply<LoginResultView>)))]
pub async fn auth(
    State(st): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: axum::http::HeaderMap,
    Input(r): Input<LoginReq>,
) -> Response {
    let mut subject = LogSubject {
        merchant_id: None,
        user_id: None,
        username: if r.login_type == 2 {
            r.mobile.clone()
        } else {
            r.username.clone()
        },
    };
    let device = crate::client::cookie(&headers, uc::DEVICE_COOKIE);
    let result = auth_inner(&st, &ip, &r, device.as_deref(), &mut subject).await;
    let known = match (&result, subject.user_id) {
        (Ok(_), Some(user_id)) => Some(uc::KnownDevice {
            user_id,
            since: st.login_limits.now(),
        }),
        _ => None,
    };
    let mut res = result.map(reply).map_err(HttpError).into_response();
    if let Some(d) = known {
        // The browser is known from now on: floods of failures elsewhere do not refuse it.
        let secure = if st.settings.public_url.starts_with("https://") {
            "; Secure"
        } else {
            ""
        };
        let cookie = format!(
            "{}={}; Path=/api/login; Max-Age={}; HttpOnly; SameSite=Strict{secure}",
            uc::DEVICE_COOKIE,
            d.token(&st.jwt_key),
            uc::DEVICE_MS / 1000
        );
        if let Ok(v) = axum::http::HeaderValue::from_str(&cookie) {
            res.headers_mut().append(axum::http::header::SET_COOKIE, v);
        }
    }
    res.extensions_mut().insert(subject);
    res
}

/// Signs in and notes who the log line is about as soon as the user is known.
async fn auth_inner(
    st: &AppState,
    ip: &str,
    r: &LoginReq,
    device: Option<&str>,
    subject: &mut LogSubject,
) -> ApiResult<LoginResultView> {
    let creds = uc::Credentials {
        login_type: r.login_type,
        username: &r.username,
        password: &r.password,
        mobile: &r.mobile,
        code: &r.code,
        agree: r.agree,
        device,
    };
    let user = uc::authenticate(guards(st), ip, &creds).await?;
    *subject = LogSubject {
        merchant_id: user.merchant_id,
        user_id: Some(user.id),
        username: user.username.clone(),
    };
    uc::check_enabled(&st.db, &user).await?;
    crate::session::sign_in(st, user, r.remember, None).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProxyReq {
    #[serde(rename = "proxyToken", alias = "proxy_token", default)]
    #[schema(required = true, min_length = 1)]
    pub proxy_token: String,
}

#[utoipa::path(post, path = "/login/verifyJwtToken", tag = "auth", request_body = ProxyReq, responses((status = 200, description = "the merchant owner's session, proxy_info.user_name = operator", body = Reply<LoginResultView>)))]
pub async fn verify_jwt_token(
    State(st): State<AppState>,
    Input(r): Input<ProxyReq>,
) -> Answer<LoginResultView> {
    let (owner, operator) = uc::consume_proxy(&st.db, &r.proxy_token).await?;
    Ok(reply(
        crate::session::sign_in(&st, owner, false, Some(&operator.username)).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RegisterReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub merchant_name: String,
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 3,
        max_length = 32,
        pattern = "^[A-Za-z0-9_-]+$"
    )]
    pub username: String,
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 11,
        max_length = 11,
        pattern = "^1[3-9][0-9]{9}$"
    )]
    pub mobile: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub code: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8)]
    pub password: String,
    #[serde(default)]
    #[schema(required = true)]
    pub password_confirm: String,
    /// Refused unless true.
    #[serde(default)]
    #[schema(required = true)]
    pub agree: bool,
}

#[utoipa::path(post, path = "/login/register", tag = "auth", request_body = RegisterReq, responses((status = 200, description = "the new merchant owner's session", body = Reply<LoginResultView>)))]
pub async fn register(
    State(st): State<AppState>,
    Input(r): Input<RegisterReq>,
) -> Answer<LoginResultView> {
    let owner = uc::register(
        guards(&st),
        &uc::Registration {
            merchant_name: &r.merchant_name,
            username: &r.username,
            mobile: &r.mobile,
            code: &r.code,
            password: &r.password,
            password_confirm: &r.password_confirm,
            agree: r.agree,
        },
    )
    .await?;
    Ok(reply(
        crate::session::sign_in(&st, owner, false, None).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResetPasswordReq {
    #[serde(default)]
    #[schema(
        required = true,
        min_length = 11,
        max_length = 11,
        pattern = "^1[3-9][0-9]{9}$"
    )]
    pub mobile: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub code: String,
    #[serde(default)]
    #[schema(required = true, min_length = 8)]
    pub password: String,
    #[serde(default)]
    #[schema(required = true)]
    pub password_confirm: String,
}

#[utoipa::path(post, path = "/login/reset_password", tag = "auth", request_body = ResetPasswordReq, responses((status = 200, description = "password changed; all sessions ended", body = Reply<Done>)))]
pub async fn reset_password(
    State(st): State<AppState>,
    Input(r): Input<ResetPasswordReq>,
) -> Answer<Done> {
    uc::reset_password(
        guards(&st),
        &r.mobile,
        &r.code,
        &r.password,
        &r.password_confirm,
    )
    .await?;
    Ok(reply(Done {}))
}

#[utoipa::path(post, path = "/token", tag = "auth", responses((status = 200, description = "a fresh token for the same session", body = Reply<LoginResultView>)))]
pub async fn refresh_token(State(st): State<AppState>, c: Caller) -> Answer<LoginResultView> {
    let s = uc::refresh(&st.db, &c.session_id, c.remember).await?;
    Ok(reply(crate::session::login_result(&st, &c, &s)?))
}

#[utoipa::path(post, path = "/login/logout", tag = "auth", responses((status = 200, description = "session ended", body = Reply<Done>)))]
pub async fn logout(State(st): State<AppState>, c: Caller) -> Answer<Done> {
    uc::logout(&st.db, &c.session_id).await?;
    Ok(reply(Done {}))
}
