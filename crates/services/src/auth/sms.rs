//! The SMS gateway the operator configures (System → SMS gateway) and the sender every code goes
//! through: Aliyun or Tencent Cloud (`platforms::sms`, their real wire formats), or the log for
//! development. In sandbox mode an unconfigured gateway is the log (the outbox page shows codes);
//! with the sandbox off the server warns at start that codes reach no phone.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::system::sms::{FIELD_MAX, SIGN_NAME_MAX, SmsProvider, SmsScene};
use platforms::sms::{Gateway, SmsError, SmsFailure};
use serde::{Deserialize, Serialize};
use store::Db;
use store::secrets::Sealer;

const SETTING: &str = "auth.sms_gateway";

/// The stored gateway (the secret sealed with the server key, never returned).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SmsSetting {
    pub provider: Option<SmsProvider>,
    /// Empty: the provider's real host. The sandbox's gateways for trying a setup out.
    pub base_url: String,
    pub access_key_id: String,
    pub secret_sealed: String,
    pub sign_name: String,
    /// Tencent's SmsSdkAppId.
    pub app_id: String,
    pub region: String,
    pub template_login: String,
    pub template_register: String,
    pub template_reset: String,
}

impl SmsSetting {
    fn template(&self, scene: SmsScene) -> &str {
        match scene {
            SmsScene::Login => &self.template_login,
            SmsScene::Register => &self.template_register,
            SmsScene::Reset => &self.template_reset,
        }
    }
}

pub use domain::system::sms::SmsGatewayReq as SmsForm;

/// The stored secret as the console shows it (masked; empty when none).
pub fn masked_secret(sealer: &Sealer, s: &SmsSetting) -> String {
    match sealer.open(&s.secret_sealed) {
        Some(k) if !k.is_empty() => store::secrets::mask(&k),
        _ => String::new(),
    }
}

pub async fn setting(d: &Db) -> ApiResult<SmsSetting> {
    Ok(d.setting(SETTING)
        .await?
        .and_then(|v| serde_json::from_str(&v).ok())
        .unwrap_or_default())
}

fn field(name: &'static str, v: &str, required: bool) -> ApiResult<String> {
    let v = v.trim();
    if required {
        domain::validate::required(name, v)?;
    }
    domain::validate::max_chars(name, v, FIELD_MAX)?;
    Ok(v.to_string())
}

/// Checks and stores the gateway; `log` clears it.
pub async fn save(d: &Db, sealer: &Sealer, f: &SmsForm) -> ApiResult<SmsSetting> {
    let provider = SmsProvider::parse(f.provider.trim()).ok_or_else(|| {
        ApiError::invalid_with(
            "provider",
            Msg::InvalidValue,
            vec![("reason", "log | aliyun | tencent".into())],
        )
    })?;
    if provider == SmsProvider::Log {
        d.delete_setting(SETTING).await?;
        return Ok(SmsSetting::default());
    }
    let old = setting(d).await?;
    let base_url = f.base_url.trim().trim_end_matches('/').to_string();
    if !(base_url.is_empty() || base_url.starts_with("http://") || base_url.starts_with("https://"))
    {
        return Err(ApiError::invalid_with(
            "base_url",
            Msg::InvalidValue,
            vec![("reason", "http(s)://…".into())],
        ));
    }
    let sign_name = field("sign_name", &f.sign_name, true)?;
    domain::validate::max_chars("sign_name", &sign_name, SIGN_NAME_MAX)?;
    let secret_sealed = match f.access_key_secret.trim() {
        "" if old.provider == Some(provider) && !old.secret_sealed.is_empty() => old.secret_sealed,
        "" => return Err(ApiError::invalid("access_key_secret", Msg::Required)),
        k => sealer.seal(k),
    };
    let s = SmsSetting {
        provider: Some(provider),
        base_url,
        access_key_id: field("access_key_id", &f.access_key_id, true)?,
        secret_sealed,
        sign_name,
        app_id: field("app_id", &f.app_id, provider == SmsProvider::Tencent)?,
        region: field("region", &f.region, false)?,
        template_login: field("template_login", &f.template_login, true)?,
        template_register: field("template_register", &f.template_register, true)?,
        template_reset: field("template_reset", &f.template_reset, true)?,
    };
    d.set_setting(SETTING, &serde_json::to_string(&s).unwrap_or_default())
        .await?;
    Ok(s)
}

/// Sends codes through the configured gateway.
#[derive(Clone)]
pub struct Sms {
    pub sealer: Sealer,
}

/// Where a code went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sent {
    /// Written to the log (no gateway configured).
    Logged,
    /// Accepted by the gateway, with its message id.
    Gateway(String),
}

impl Sms {
    pub fn new(sealer: Sealer) -> Sms {
        Sms { sealer }
    }

    /// Sends `code` for `scene` to `mobile`.
    pub async fn send(
        &self,
        d: &Db,
        mobile: &str,
        code: &str,
        scene: SmsScene,
    ) -> Result<Sent, SmsError> {
        let s = setting(d)
            .await
            .map_err(|e| gateway_error(SmsFailure::Retry, "settings", &e.to_string()))?;
        let Some(provider @ (SmsProvider::Aliyun | SmsProvider::Tencent)) = s.provider else {
            tracing::info!(%mobile, %code, %scene, "sms code (no gateway configured: written to the log)");
            return Ok(Sent::Logged);
        };
        let g = Gateway {
            provider: Some(provider),
            base_url: s.base_url.clone(),
            access_key_id: s.access_key_id.clone(),
            access_key_secret: self.sealer.open(&s.secret_sealed).unwrap_or_default(),
            sign_name: s.sign_name.clone(),
            app_id: s.app_id.clone(),
            region: s.region.clone(),
        };
        let id = g
            .send(mobile, s.template(scene), code, d.clock.platform_now())
            .await?;
        tracing::info!(%mobile, %scene, provider = %provider, id = %id, "sms code sent");
        Ok(Sent::Gateway(id))
    }
}

fn gateway_error(failure: SmsFailure, code: &str, detail: &str) -> SmsError {
    SmsError {
        provider: "sms",
        failure,
        code: code.into(),
        zh: detail.into(),
        en: detail.into(),
    }
}

/// A gateway's refusal as the person asking for a code sees it: their number's problem in words,
/// the operator's setup or a passing outage as "could not send" (the detail is logged).
pub fn refused(e: &SmsError) -> ApiError {
    match e.failure {
        SmsFailure::Number => ApiError::invalid_with(
            "mobile",
            Msg::SmsRefused,
            vec![("reason.zh", e.zh.clone()), ("reason.en", e.en.clone())],
        ),
        SmsFailure::Setup | SmsFailure::Retry => {
            tracing::error!(provider = e.provider, code = %e.code, error = %e.en, "sms gateway failed");
            ApiError::invalid("mobile", Msg::SmsUnavailable)
        }
    }
}

/// A refusal as the operator testing the gateway sees it: the gateway's own words, whoever's matter.
pub fn test_refused(e: &SmsError) -> ApiError {
    ApiError::invalid_with(
        "provider",
        Msg::SmsRefused,
        vec![("reason.zh", e.zh.clone()), ("reason.en", e.en.clone())],
    )
}
