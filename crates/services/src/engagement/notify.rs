//! New-lead notifications. Every new lead given to a staff member (in turn or by hand) becomes one
//! notice (`eng_notices`, unique per lead and assignee): the console's event stream shows it to that
//! user only (`lead` events), and the durable job `engagement.lead_notify` sends it once as a
//! template message through the merchant's WeChat official account (`/wechat.MerchantWechat/*`,
//! `/msg.wxgzh/*`) to the openid the staff member bound. Not configured, switched off or no openid:
//! the notice is settled `off` with the reason, and the console says so.

use crate::error::{ApiError, ApiResult};
use crate::platform::{Hub, HubRef, WECHAT};
use domain::i18n::{Msg, reason};
use domain::jobs::{Job, NoticeRef};
use domain::matrix::AppMode;
use platforms::wechat::{LIVE_BASE_URL, OfficialAccount, TemplateSender, WxError};
use store::Db;
use store::engagement::messages::{self as db, WxConfigRow};

/// A QR code shown to bind a staff member.
pub use store::engagement::messages::WxBindCode;

/// A new-lead notice with its WeChat delivery.
pub use store::engagement::messages::NoticeRow;
use store::jobs::JobError;

/// Where the merchants' official accounts are reached, by WeChat's own mode on Platform apps
/// (unset: the deployment's default): WeChat's API, the sandbox's simulator, or nowhere.
pub async fn wechat_mode(hub: &Hub) -> AppMode {
    match hub.mode(WECHAT, false).await {
        Ok((AppMode::Sandbox, _)) if !hub.sandbox => AppMode::Off,
        Ok((m, _)) => m,
        Err(_) => hub.default_mode(false),
    }
}

/// Whether the official accounts are the sandbox's simulator.
pub async fn simulated(hub: &Hub) -> bool {
    wechat_mode(hub).await == AppMode::Sandbox
}

/// The AppSecret of the sandbox's official account, shown to the merchant while WeChat is
/// simulated ('' otherwise): the install's own, derived from the sandbox token, never a constant.
pub async fn sandbox_secret(hub: &Hub) -> String {
    if simulated(hub).await {
        platforms::sandbox::wechat_secret(&hub.sandbox_token)
    } else {
        String::new()
    }
}

/// Records the notice of a new lead for its assignee and queues its WeChat delivery (once per lead
/// and assignee, whatever calls it twice).
pub async fn new_lead(d: &Db, mid: i64, lead_id: i64, assignee: i64) -> sqlx::Result<()> {
    if assignee == 0 {
        return Ok(());
    }
    let Some(id) = db::add_notice(d, mid, assignee, lead_id, domain::now_ms()).await? else {
        return Ok(());
    };
    let job = store::jobs::NewJob {
        merchant_id: Some(mid),
        idempotency_key: Some(format!("lead_notify:{id}")),
        ..store::jobs::NewJob::new(Job::EngagementLeadNotify(NoticeRef { notice_id: id }))
    };
    store::jobs::submit(d, &job).await.map(|_| ())
}

/// The server Token of the sandbox's official account, shown while WeChat is simulated.
pub async fn sandbox_server_token(hub: &Hub) -> String {
    if simulated(hub).await {
        platforms::sandbox::wechat_server_token(&hub.sandbox_token)
    } else {
        String::new()
    }
}

/// Where the official account's API is: the sandbox's simulator when WeChat is simulated.
async fn base_url(hub: &Hub) -> String {
    if simulated(hub).await {
        format!("{}/wechat", hub.sandbox_base.trim_end_matches('/'))
    } else {
        crate::platform::live_base(WECHAT, LIVE_BASE_URL)
    }
}

/// `engagement.lead_notify`: sends one notice's template message, once.
pub async fn run(r: NoticeRef, hub: HubRef) -> Result<(), JobError> {
    deliver(&hub, r.notice_id).await
}

/// Why a merchant's notices cannot go through WeChat; `None` when they can.
pub fn blocked(cfg: Option<&WxConfigRow>) -> Option<Msg> {
    match cfg {
        None => Some(Msg::WxNotConfigured),
        Some(c) if c.enabled == 0 => Some(Msg::WxDisabled),
        Some(_) => None,
    }
}

/// Claims the notice for this run's send. Another run sending it now (a twin of this job: a lease
/// that lapsed while its first run lived) is waited for: false once it settled the notice, true when
/// its claim ran out unsettled (it died) and this run took it over.
async fn claim(hub: &Hub, notice_id: i64) -> sqlx::Result<bool> {
    loop {
        if db::claim_notice(&hub.db, notice_id, domain::now_ms()).await? {
            return Ok(true);
        }
        if !matches!(db::notice(&hub.db, notice_id).await?, Some((.., s)) if s == "pending") {
            return Ok(false);
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// Sends one notice (the job's work; public for the tests that run it twice at once).
pub async fn deliver(hub: &Hub, notice_id: i64) -> Result<(), JobError> {
    let retry = |e: sqlx::Error| JobError::Retry(e.to_string());
    let Some((mid, user, lead_id, state)) = db::notice(&hub.db, notice_id).await.map_err(retry)?
    else {
        return Ok(());
    };
    if state != "pending" {
        return Ok(());
    }
    let cfg = db::wx_config(&hub.db, mid).await.map_err(retry)?;
    let settle = |st: &'static str, why: String, msgid: String| async move {
        db::settle_notice(&hub.db, notice_id, st, &why, &msgid)
            .await
            .map(|_| ())
            .map_err(|e| JobError::Retry(e.to_string()))
    };
    if wechat_mode(hub).await == AppMode::Off {
        return settle("off", reason(Msg::WxSwitchedOff, &[]), String::new()).await;
    }
    let cfg = match (blocked(cfg.as_ref()), cfg) {
        (None, Some(c)) => c,
        (why, _) => {
            let why = why.unwrap_or(Msg::WxNotConfigured);
            return settle("off", reason(why, &[]), String::new()).await;
        }
    };
    let Some(openid) = db::wx_openid(&hub.db, mid, user).await.map_err(retry)? else {
        return settle("off", reason(Msg::WxNotBound, &[]), String::new()).await;
    };
    let Some(lead) = store::engagement::lead(&hub.db, mid, lead_id)
        .await
        .map_err(retry)?
    else {
        return Ok(());
    };
    let account = account(hub, &cfg).await;
    let source = if lead.source == "comment" {
        "评论 / comment"
    } else {
        "私信 / private message"
    };
    let data = serde_json::json!({
        "first": {"value": "您有一条新线索 / You have a new lead"},
        "keyword1": {"value": lead.name},
        "keyword2": {"value": lead.content.chars().take(60).collect::<String>()},
        "keyword3": {"value": format!("{} · {source}", lead.platform)},
        "keyword4": {"value": domain::matrix::china_time(lead.created_at)},
        "remark": {"value": "请尽快跟进 / Please follow up soon"},
    });
    let url = format!("{}/clue_management", hub.public_url.trim_end_matches('/'));
    if !claim(hub, notice_id).await.map_err(retry)? {
        return Ok(());
    }
    match account
        .send_template(&openid, &cfg.template_id, &url, &data)
        .await
    {
        Ok(msgid) => settle("sent", String::new(), msgid).await,
        // The call did not reach WeChat, or WeChat is busy (-1): try again later.
        Err(e) if e.code == 0 || e.code == -1 => Err(JobError::Retry(e.en)),
        Err(e) => settle("failed", stored(&e), String::new()).await,
    }
}

/// The merchant's official account, its secret opened.
async fn account(hub: &Hub, cfg: &WxConfigRow) -> OfficialAccount {
    let secret = hub.sealer.open(&cfg.app_secret).unwrap_or_default();
    OfficialAccount::new(
        &base_url(hub).await,
        &cfg.app_id,
        &secret,
        hub.db.clock.clone(),
    )
}

/// A refusal kept in both languages (`domain::i18n::localize_reason` picks one when read).
fn stored(e: &WxError) -> String {
    format!("{} / {}", e.zh, e.en)
}

// ---- configuration and bindings ----

/// Saves the merchant's official account. An empty `app_secret` keeps the stored one.
/// The longest official-account app id, template id, app secret and follower openid (ASCII letters,
/// digits, `_` and `-`).
pub const WX_APP_ID_MAX: usize = 64;
pub const WX_TEMPLATE_ID_MAX: usize = 128;
pub const WX_SECRET_MAX: usize = 128;
pub const WX_OPENID_MAX: usize = 64;
/// The server Token of the account's "服务器配置": WeChat takes 3–32 letters and digits.
pub const WX_SERVER_TOKEN_MIN: usize = 3;
pub const WX_SERVER_TOKEN_MAX: usize = 32;

/// What a saved configuration says (`app_secret` and `server_token` empty: keep the stored ones).
pub struct WxConfigInput<'a> {
    pub app_id: &'a str,
    pub app_secret: &'a str,
    pub template_id: &'a str,
    pub server_token: &'a str,
    pub enabled: bool,
}

pub async fn save_config(hub: &Hub, mid: i64, input: &WxConfigInput<'_>) -> ApiResult<WxConfigRow> {
    let app_id = input.app_id.trim();
    let template_id = input.template_id.trim();
    let word = |field: &str, v: &str, max: usize| -> ApiResult<()> {
        if v.is_empty() {
            return Err(ApiError::invalid(field, Msg::Required));
        }
        if v.chars().count() > max
            || !v
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(ApiError::invalid_with(
                field,
                Msg::InvalidValue,
                vec![("reason", format!("A-Z a-z 0-9 _ -, ≤ {max}"))],
            ));
        }
        Ok(())
    };
    word("app_id", app_id, WX_APP_ID_MAX)?;
    word("template_id", template_id, WX_TEMPLATE_ID_MAX)?;
    let old = db::wx_config(&hub.db, mid).await?;
    let secret = match (input.app_secret.trim(), &old) {
        ("", Some(o)) => o.app_secret.clone(),
        (s, _) => {
            word("app_secret", s, WX_SECRET_MAX)?;
            hub.sealer.seal(s)
        }
    };
    let server_token = match (input.server_token.trim(), &old) {
        ("", Some(o)) => o.server_token.clone(),
        ("", None) => String::new(),
        (t, _) => {
            let n = t.chars().count();
            if !(WX_SERVER_TOKEN_MIN..=WX_SERVER_TOKEN_MAX).contains(&n)
                || !t.chars().all(|c| c.is_ascii_alphanumeric())
            {
                return Err(ApiError::invalid_with(
                    "server_token",
                    Msg::InvalidValue,
                    vec![(
                        "reason",
                        format!("A-Z a-z 0-9, {WX_SERVER_TOKEN_MIN}–{WX_SERVER_TOKEN_MAX}"),
                    )],
                ));
            }
            hub.sealer.seal(t)
        }
    };
    let row = WxConfigRow {
        app_id: app_id.to_string(),
        app_secret: secret,
        template_id: template_id.to_string(),
        enabled: input.enabled as i64,
        updated_at: domain::now_ms(),
        server_token,
    };
    db::save_wx_config(&hub.db, mid, &row).await?;
    Ok(row)
}

/// The staff member must be one who takes leads.
async fn check_staff(d: &Db, mid: i64, user_id: i64) -> ApiResult<()> {
    if !super::lead_staff::lead_staff(d, mid)
        .await?
        .iter()
        .any(|(id, _)| *id == user_id)
    {
        return Err(ApiError::invalid("user_id", Msg::AssigneeInvalid));
    }
    Ok(())
}

/// Binds a staff member's openid (empty: unbinds). The staff member must be one who takes leads.
pub async fn bind(d: &Db, mid: i64, user_id: i64, openid: &str) -> ApiResult<()> {
    let openid = openid.trim();
    check_staff(d, mid, user_id).await?;
    if !openid.is_empty()
        && (openid.len() > WX_OPENID_MAX
            || !openid
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
    {
        return Err(ApiError::invalid_with(
            "openid",
            Msg::InvalidValue,
            vec![("reason", format!("A-Z a-z 0-9 _ -, ≤ {WX_OPENID_MAX}"))],
        ));
    }
    db::bind_wx(d, mid, user_id, openid, domain::now_ms()).await?;
    Ok(())
}

/// How long a binding QR code lives (WeChat's temporary codes: up to 30 days; a console dialog
/// needs minutes).
pub const BIND_QR_SECONDS: i64 = 600;

/// Shows a staff member a QR code of the merchant's official account: scanning it (following the
/// account if they do not yet) makes WeChat push the scan to [`callback`], which binds their openid.
pub async fn start_bind(hub: &Hub, mid: i64, user_id: i64) -> ApiResult<WxBindCode> {
    check_staff(&hub.db, mid, user_id).await?;
    let cfg = db::wx_config(&hub.db, mid).await?;
    let cfg = match cfg {
        Some(c) if !c.app_id.is_empty() => c,
        _ => return Err(ApiError::invalid("app_id", Msg::WxNotConfigured)),
    };
    if cfg.server_token.is_empty() {
        return Err(ApiError::invalid("server_token", Msg::WxServerTokenMissing));
    }
    // The scene is all WeChat pushes back: random, so a guessed one binds nobody.
    let scene = format!("bind_{}", store::random_token(24));
    let qr = account(hub, &cfg)
        .await
        .create_qr(&scene, BIND_QR_SECONDS)
        .await
        .map_err(|e| {
            ApiError::invalid_with(
                "app_id",
                Msg::WxQrRefused,
                vec![("reason.zh", e.zh.clone()), ("reason.en", e.en.clone())],
            )
        })?;
    // The code lives as long as WeChat's ticket: on the platforms' clock.
    let now = hub.db.clock.platform_now();
    let code = WxBindCode {
        scene,
        merchant_id: mid,
        user_id,
        url: qr.url,
        expires_at: now + qr.expire_seconds.min(BIND_QR_SECONDS) * 1000,
        openid: String::new(),
        bound_at: 0,
    };
    db::add_bind_code(&hub.db, &code, now).await?;
    Ok(code)
}

/// A binding QR code of the merchant's, as the console polls it.
pub async fn bind_code(d: &Db, mid: i64, scene: &str) -> ApiResult<WxBindCode> {
    match db::bind_code(d, scene).await? {
        Some(c) if c.merchant_id == mid => Ok(c),
        _ => Err(ApiError::invalid("scene", Msg::WxBindCodeUnknown)),
    }
}

/// What WeChat sends to the account's server URL: `signature`, `timestamp`, `nonce` on every call,
/// `echostr` when it checks the URL (GET), `merchant` our own (the URL the merchant was given).
#[derive(Debug, Default, serde::Deserialize)]
pub struct Push {
    #[serde(default)]
    pub signature: String,
    #[serde(default)]
    pub timestamp: String,
    #[serde(default)]
    pub nonce: String,
    #[serde(default)]
    pub echostr: String,
    #[serde(default)]
    pub merchant: Option<i64>,
}

/// Why a push is refused (WeChat only sees the status).
#[derive(Debug, PartialEq)]
pub enum PushRefused {
    /// Not signed with the merchant's server Token (or no Token, or no such merchant).
    Signature,
}

/// The merchant's server Token, opened.
async fn server_token(hub: &Hub, mid: i64) -> sqlx::Result<Option<String>> {
    Ok(db::wx_config(&hub.db, mid)
        .await?
        .and_then(|c| hub.sealer.open(&c.server_token))
        .filter(|t| !t.is_empty()))
}

fn signed(token: &str, p: &Push) -> bool {
    let want = platforms::wechat::push_signature(token, &p.timestamp, &p.nonce);
    // Constant time: the signature is a secret's proof.
    want.len() == p.signature.len()
        && want
            .bytes()
            .zip(p.signature.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// WeChat checking the server URL (the merchant saved it in mp.weixin.qq.com): `echostr` back when
/// the signature is the merchant's Token's (developers.weixin.qq.com "接入概述": a GET with
/// `signature`, `timestamp`, `nonce`, `echostr`; plaintext mode, events then come as POSTed XML).
pub async fn verify_url(hub: &Hub, p: &Push) -> ApiResult<Result<String, PushRefused>> {
    let Some(mid) = p.merchant else {
        return Ok(Err(PushRefused::Signature));
    };
    Ok(match server_token(hub, mid).await? {
        Some(t) if signed(&t, p) => Ok(p.echostr.clone()),
        _ => Err(PushRefused::Signature),
    })
}

/// An event WeChat pushed: a scan of a binding QR code binds the scanner's openid to the code's
/// staff member, once, when the push is signed with that merchant's Token. Any other message, or a
/// scan of a code that is not ours, is acknowledged and ignored (WeChat retries what it does not
/// see acknowledged). Answers the binding made, if any: (merchant, user).
pub async fn callback(
    hub: &Hub,
    p: &Push,
    body: &str,
) -> ApiResult<Result<Option<(i64, i64)>, PushRefused>> {
    let Some((openid, scene)) = platforms::wechat::parse_scan_event(body) else {
        return Ok(Ok(None));
    };
    let Some(code) = db::bind_code(&hub.db, &scene).await? else {
        return Ok(Ok(None));
    };
    if p.merchant.is_some_and(|m| m != code.merchant_id) {
        return Ok(Err(PushRefused::Signature));
    }
    match server_token(hub, code.merchant_id).await? {
        Some(t) if signed(&t, p) => {}
        _ => return Ok(Err(PushRefused::Signature)),
    }
    let openid_ok = openid.len() <= WX_OPENID_MAX
        && openid
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !openid_ok
        || !db::use_bind_code(&hub.db, &code, &openid, hub.db.clock.platform_now()).await?
    {
        return Ok(Ok(None));
    }
    Ok(Ok(Some((code.merchant_id, code.user_id))))
}

/// The merchant's staff who take leads: (id, nickname, openid or '').
pub async fn staff(d: &Db, mid: i64) -> ApiResult<Vec<(i64, String, String)>> {
    let bound = db::wx_bindings(d, mid).await?;
    Ok(super::lead_staff::lead_staff(d, mid)
        .await?
        .into_iter()
        .map(|(id, nick)| {
            let o = bound
                .iter()
                .find(|(u, _)| *u == id)
                .map(|(_, o)| o.clone())
                .unwrap_or_default();
            (id, nick, o)
        })
        .collect())
}

/// The merchant's WeChat official-account settings, if saved.
pub async fn config(d: &Db, mid: i64) -> ApiResult<Option<WxConfigRow>> {
    Ok(db::wx_config(d, mid).await?)
}

/// The merchant's newest notices, at most `limit`.
pub async fn notices(d: &Db, mid: i64, limit: i64) -> ApiResult<Vec<NoticeRow>> {
    Ok(db::notices(d, mid, limit).await?)
}
