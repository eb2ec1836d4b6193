//! Where sign-in, registration and password-reset codes go: the operator's SMS gateway (System →
//! SMS), its scenes and the sending limits.

crate::text_enum! {
    /// The SMS gateway the operator chose (`settings.sms_gateway`).
    pub enum SmsProvider {
        /// Development only: the code goes to the server log (and the sandbox outbox page).
        Log = "log",
        /// Aliyun SMS (dysmsapi `SendSms`, version 2017-05-25).
        Aliyun = "aliyun",
        /// Tencent Cloud SMS (`SendSms`, API 3.0 version 2021-01-11).
        Tencent = "tencent",
    }
}

crate::text_enum! {
    /// Why a code is sent: each scene has its own approved template at the gateway.
    pub enum SmsScene {
        Login = "login",
        Register = "register",
        Reset = "reset",
    }
}

/// Codes one number may receive in a China day: both gateways cap verification codes per number
/// per day by default (Aliyun 10 a day per number for verification codes, "isv.BUSINESS_LIMIT_CONTROL";
/// Tencent 10 a day per number, "LimitExceeded.PhoneNumberDailyLimit"), so we stop first with a clear
/// message instead of paying for a refusal.
pub const PER_MOBILE_DAY: i64 = 10;
/// Codes one client address may ask for per hour (many numbers from one place is a pumping attack:
/// SMS fraud that bills the sender).
pub const PER_ADDRESS_HOUR: i64 = 20;
/// Codes the whole server sends per minute at most, whatever the addresses.
pub const GLOBAL_MINUTE: i64 = 120;

/// A sign name (签名): 2–12 characters at both gateways.
pub const SIGN_NAME_MAX: usize = 12;
/// Key ids, template codes, app ids, regions and the gateway address: short codes at both gateways.
pub const FIELD_MAX: usize = 64;

/// The operator's gateway form (`/system/sms/save`); a blank secret keeps the stored one. Its words
/// stay text so the check answers an unknown provider with our message.
#[derive(Debug, Clone, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(default)]
pub struct SmsGatewayReq {
    #[schema(required = true, value_type = SmsProvider)]
    pub provider: String,
    /// Empty: the provider's real host.
    #[schema(max_length = 64)]
    pub base_url: String,
    #[schema(max_length = 64)]
    pub access_key_id: String,
    /// Blank keeps the stored secret.
    #[schema(max_length = 64)]
    pub access_key_secret: String,
    #[schema(max_length = 12)]
    pub sign_name: String,
    /// Tencent's SmsSdkAppId.
    #[schema(max_length = 64)]
    pub app_id: String,
    #[schema(max_length = 64)]
    pub region: String,
    #[schema(max_length = 64)]
    pub template_login: String,
    #[schema(max_length = 64)]
    pub template_register: String,
    #[schema(max_length = 64)]
    pub template_reset: String,
}
