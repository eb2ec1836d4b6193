//! The SMS gateway (`/system/sms/*`, operator only): which provider sends sign-in, registration and
//! reset codes, with its keys (the secret sealed, shown masked), sign name and templates; and a
//! test send to the operator's own number.

use crate::error::{Answer, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::system::sms::{SmsGatewayReq, SmsProvider, SmsScene};
use serde::{Deserialize, Serialize};
use services::auth::sms::{self as uc, Sent, SmsSetting};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct SmsGatewayView {
    /// `log` when none is configured: codes go to the server log only.
    pub provider: SmsProvider,
    pub base_url: String,
    pub access_key_id: String,
    /// The secret, masked (empty when none is stored).
    pub access_key_secret: String,
    pub sign_name: String,
    pub app_id: String,
    pub region: String,
    pub template_login: String,
    pub template_register: String,
    pub template_reset: String,
    /// Sandbox mode: with no gateway the sandbox's outbox page shows the codes.
    pub sandbox: bool,
}

fn view(st: &AppState, s: SmsSetting) -> SmsGatewayView {
    let access_key_secret = uc::masked_secret(&st.hub.sealer, &s);
    SmsGatewayView {
        provider: s.provider.unwrap_or(SmsProvider::Log),
        base_url: s.base_url,
        access_key_id: s.access_key_id,
        access_key_secret,
        sign_name: s.sign_name,
        app_id: s.app_id,
        region: s.region,
        template_login: s.template_login,
        template_register: s.template_register,
        template_reset: s.template_reset,
        sandbox: st.settings.sandbox,
    }
}

#[utoipa::path(method(get, post), path = "/system/sms/index", tag = "system", responses((status = 200, body = Reply<SmsGatewayView>)))]
pub async fn index(State(st): State<AppState>, _c: Caller) -> Answer<SmsGatewayView> {
    let s = uc::setting(&st.db).await?;
    Ok(reply(view(&st, s)))
}

#[utoipa::path(post, path = "/system/sms/save", tag = "system", request_body = SmsGatewayReq, responses((status = 200, body = Reply<SmsGatewayView>)))]
pub async fn save(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<SmsGatewayReq>,
) -> Answer<SmsGatewayView> {
    let s = uc::save(&st.db, &st.hub.sealer, &r).await?;
    Ok(reply(view(&st, s)))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct SmsTestReq {
    #[schema(required = true, min_length = 11, max_length = 11)]
    pub mobile: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SmsTestView {
    /// The gateway's id of the message; empty when it went to the log.
    pub message_id: String,
    pub logged: bool,
}

/// Sends a test code (the sign-in template) to the operator's number through the saved gateway:
/// its refusal, in the gateway's words, is the answer.
#[utoipa::path(post, path = "/system/sms/test", tag = "system", request_body = SmsTestReq, responses((status = 200, body = Reply<SmsTestView>)))]
pub async fn test(
    State(st): State<AppState>,
    _c: Caller,
    Input(r): Input<SmsTestReq>,
) -> Answer<SmsTestView> {
    domain::validate::mobile(r.mobile.trim())?;
    let sent = st
        .sms
        .send(&st.db, r.mobile.trim(), "123456", SmsScene::Login)
        .await
        .map_err(|e| uc::test_refused(&e))?;
    Ok(reply(match sent {
        Sent::Logged => SmsTestView {
            message_id: String::new(),
            logged: true,
        },
        Sent::Gateway(id) => SmsTestView {
            message_id: id,
            logged: false,
        },
    }))
}
