//! New-lead notifications. Every new lead given to a staff member (in turn or by hand) becomes one
//! notice (`eng_notices`, unique per lead and assignee): the console's event stream shows it to that
//! user only (`lead` events), and the durable job `engagement.lead_notify` sends it once as a
//! template message through the merchant's WeChat official account (`/wechat.MerchantWechat/*`,
//! `/msg.wxgzh/*`) to the openid the staff member bound. Not configured, switched off or no openid:
//! the notice is settled `off` with the reason, and the console says so.

use crate::error::{ApiError, ApiResult};
use crate::platform::{Hub, HubRef};
use domain::i18n::{Msg, reason};
use domain::jobs::{Job, NoticeRef};
use platforms::wechat::{LIVE_BASE_URL, OfficialAccount, TemplateSender, WxError};
use store::Db;
use store::engagement::messages::{self as db, WxConfigRow};

/// A new-lead notice with its WeChat delivery.
pub use store::engagement::messages::NoticeRow;
use store::jobs::JobError;

/// The AppSecret of the sandbox's official account, shown to the merchant while the platforms are
/// simulated ('' otherwise): the install's own, derived from the sandbox token, never a constant.
pub fn sandbox_secret(hub: &Hub) -> String {
    if hub.sandbox {
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

/// Where the official account's API is: the sandbox's simulator when the platforms are simulated.
fn base_url(hub: &Hub) -> String {
    if hub.sandbox {
        format!("{}/wechat", hub.sandbox_base.trim_end_matches('/'))
    } else {
        LIVE_BASE_URL.to_string()
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
    let secret = hub.sealer.open(&cfg.app_secret).unwrap_or_default();
    let account = OfficialAccount::new(&base_url(hub), &cfg.app_id, &secret, hub.db.clock.clone());
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

pub async fn save_config(
    hub: &Hub,
    mid: i64,
    app_id: &str,
    app_secret: &str,
    template_id: &str,
    enabled: bool,
) -> ApiResult<WxConfigRow> {
    let app_id = app_id.trim();
    let template_id = template_id.trim();
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
    let secret = match (app_secret.trim(), &old) {
        ("", Some(o)) => o.app_secret.clone(),
        (s, _) => {
            word("app_secret", s, WX_SECRET_MAX)?;
            hub.sealer.seal(s)
        }
    };
    let row = WxConfigRow {
        app_id: app_id.to_string(),
        app_secret: secret,
        template_id: template_id.to_string(),
        enabled: enabled as i64,
        updated_at: domain::now_ms(),
    };
    db::save_wx_config(&hub.db, mid, &row).await?;
    Ok(row)
}

/// Binds a staff member's openid (empty: unbinds). The staff member must be one who takes leads.
pub async fn bind(d: &Db, mid: i64, user_id: i64, openid: &str) -> ApiResult<()> {
    let openid = openid.trim();
    if !super::lead_staff::lead_staff(d, mid)
        .await?
        .iter()
        .any(|(id, _)| *id == user_id)
    {
        return Err(ApiError::invalid("user_id", Msg::AssigneeInvalid));
    }
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
