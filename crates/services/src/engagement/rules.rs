//! Keyword auto-reply rules and the `engagement.auto_reply` job.

use super::{adapter_for, job_error, queue_auto_reply};
use crate::error::{ApiError, ApiResult};
use crate::platform::{Hub, HubRef};
use domain::engagement::{
    Hold, MatchMode, RuleInput, check_rule, matching_keyword, may_reply, pick_reply,
};
use domain::i18n::Msg;
use domain::jobs::AccountRef;
use platforms::ErrorKind;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};
use store::Db;
use store::engagement::{self as db, CommentRow, RuleData, RuleRow};
use store::jobs::JobError;

pub use db::{ReplyRow, RuleRow as Row};

/// A rule as the console sends it.
#[derive(Debug, Clone, Default)]
pub struct RuleForm {
    pub name: String,
    /// comment (default) | message (first private messages).
    pub channel: String,
    pub match_mode: String,
    pub keywords: Vec<String>,
    pub replies: Vec<String>,
    /// Empty: every account.
    pub account_ids: Vec<i64>,
    /// Empty: every video.
    pub item_ids: Vec<String>,
    pub start_minute: i64,
    pub end_minute: i64,
    pub daily_cap: i64,
    pub min_gap_s: i64,
    pub enabled: bool,
}

async fn checked(d: &Db, mid: i64, f: &RuleForm) -> ApiResult<RuleData> {
    let r = check_rule(&RuleInput {
        name: f.name.clone(),
        match_mode: f.match_mode.clone(),
        keywords: f.keywords.clone(),
        replies: f.replies.clone(),
        start_minute: f.start_minute,
        end_minute: f.end_minute,
        daily_cap: f.daily_cap,
        min_gap_s: f.min_gap_s,
    })?;
    // The copy precheck: a reply the law or the merchant's banned words forbid is refused.
    let replies: Vec<(&'static str, &str)> =
        r.replies.iter().map(|t| ("replies", t.as_str())).collect();
    crate::compliance::form(d, mid, &replies, &[]).await?;
    let channel = match f.channel.as_str() {
        "" | "comment" => "comment",
        "message" => "message",
        _ => {
            return Err(ApiError::invalid_with(
                "channel",
                Msg::InvalidValue,
                vec![("reason", "comment | message".into())],
            ));
        }
    };
    for a in &f.account_ids {
        if store::matrix::account(d, mid, *a).await?.is_none() {
            return Err(ApiError::invalid_with(
                "account_ids",
                Msg::InvalidValue,
                vec![("reason", a.to_string())],
            ));
        }
    }
    let items: Vec<String> = f
        .item_ids
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    Ok(RuleData {
        name: r.name,
        channel: channel.into(),
        match_mode: r.mode.as_str().into(),
        keywords: serde_json::to_string(&r.keywords).unwrap_or_default(),
        replies: serde_json::to_string(&r.replies).unwrap_or_default(),
        account_ids: serde_json::to_string(&f.account_ids).unwrap_or_default(),
        item_ids: serde_json::to_string(&items).unwrap_or_default(),
        start_minute: f.start_minute,
        end_minute: f.end_minute,
        daily_cap: f.daily_cap,
        min_gap_s: f.min_gap_s,
        enabled: i64::from(f.enabled),
    })
}

pub async fn add(d: &Db, mid: i64, f: &RuleForm) -> ApiResult<RuleRow> {
    let data = checked(d, mid, f).await?;
    let id = db::add_rule(d, mid, &data, domain::now_ms()).await?;
    db::rule(d, mid, id).await?.ok_or(ApiError::NotFound)
}

pub async fn edit(d: &Db, mid: i64, id: i64, f: &RuleForm) -> ApiResult<RuleRow> {
    let data = checked(d, mid, f).await?;
    if !db::edit_rule(d, mid, id, &data, domain::now_ms()).await? {
        return Err(ApiError::NotFound);
    }
    db::rule(d, mid, id).await?.ok_or(ApiError::NotFound)
}

pub async fn delete(d: &Db, mid: i64, id: i64) -> ApiResult<()> {
    if !db::delete_rule(d, mid, id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(())
}

/// A stored rule, decoded.
pub struct Decoded {
    pub row: RuleRow,
    pub mode: MatchMode,
    pub keywords: Vec<String>,
    pub replies: Vec<String>,
    pub account_ids: Vec<i64>,
    pub item_ids: Vec<String>,
}

pub fn decode(row: RuleRow) -> Decoded {
    let list = |s: &str| serde_json::from_str::<Vec<String>>(s).unwrap_or_default();
    Decoded {
        mode: MatchMode::parse(&row.data.match_mode).unwrap_or(MatchMode::Contains),
        keywords: list(&row.data.keywords),
        replies: list(&row.data.replies),
        account_ids: serde_json::from_str(&row.data.account_ids).unwrap_or_default(),
        item_ids: list(&row.data.item_ids),
        row,
    }
}

impl Decoded {
    /// Does the rule cover this account and video and match the text?
    pub fn answers(&self, account_id: i64, item_id: &str, text: &str) -> bool {
        (self.account_ids.is_empty() || self.account_ids.contains(&account_id))
            && (self.item_ids.is_empty() || self.item_ids.iter().any(|i| i == item_id))
            && matching_keyword(self.mode, &self.keywords, text).is_some()
    }
}

/// One auto-reply job per account at a time in this process, so two jobs cannot both pass the
/// daily cap or the gap; the claim on each comment keeps other processes from answering it twice.
static RUNNING: LazyLock<Mutex<HashMap<i64, Arc<tokio::sync::Mutex<()>>>>> =
    LazyLock::new(Default::default);

/// Comments looked at per run.
const BATCH: i64 = 200;
/// After an off-hours or daily-cap hold, look again this much later (real time).
const HOLD_RETRY_MS: i64 = 5 * 60_000;

/// What one run did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AutoRun {
    pub sent: usize,
    pub failed: usize,
    pub skipped: usize,
}

/// Answers the account's pending comments that a rule matches: each comment is claimed
/// (`pending -> claimed`) before the platform call, so it is answered at most once, ever; a
/// retryable refusal (rate limit, busy) hands the claim back for a later run. Comments no rule
/// matches are settled as `none` (a rule added later does not answer old comments).
pub async fn auto_reply(hub: &Hub, account_id: i64) -> Result<AutoRun, JobError> {
    let lock = {
        let mut m = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(account_id).or_default().clone()
    };
    let _one = lock.lock().await;
    let mut run = AutoRun::default();
    let Some(a) = store::matrix::account_by_id(&hub.db, account_id).await? else {
        return Ok(run);
    };
    let pending = db::pending_auto(&hub.db, a.id, BATCH).await?;
    if pending.is_empty() {
        return Ok(run);
    }
    let rules: Vec<Decoded> = db::enabled_rules(&hub.db, a.merchant_id, "comment")
        .await?
        .into_iter()
        .map(decode)
        .collect();
    let ad = if a.revoked == 0 {
        adapter_for(hub, &a).await?
    } else {
        None
    };
    let creds = hub.creds(&a);
    for c in pending {
        let rule = rules.iter().find(|r| {
            c.status == domain::engagement::CommentStatus::Visible
                && c.intent != "spam"
                && r.answers(a.id, &c.item_id, &c.content)
        });
        let (Some(rule), Some((_, ad))) = (rule, ad.as_ref()) else {
            db::move_auto(&hub.db, c.id, "pending", "none").await?;
            run.skipped += 1;
            continue;
        };
        let now = hub.db.clock.platform_now();
        let day = domain::matrix::day_of(now);
        let (today, last) = db::auto_sent(&hub.db, a.id, day).await?;
        let r = &rule.row.data;
        if let Err(hold) = may_reply(
            r.start_minute,
            r.end_minute,
            r.daily_cap,
            r.min_gap_s,
            today,
            last,
            now,
        ) {
            let wait = match hold {
                Hold::Gap { wait_ms } => wait_ms,
                Hold::OffHours | Hold::DailyCap => HOLD_RETRY_MS,
            };
            queue_auto_reply(&hub.db, a.id, Some(domain::now_ms() + wait)).await?;
            return Ok(run);
        }
        if !db::move_auto(&hub.db, c.id, "pending", "claimed").await? {
            continue;
        }
        let text = pick_reply(&rule.replies, rand::random())
            .cloned()
            .unwrap_or_default();
        match ad
            .reply_comment(&creds, &c.item_id, &c.comment_id, &text)
            .await
        {
            Ok(reply_id) => {
                log(hub, &c, rule.row.id, &text, "sent", None, &reply_id, now).await?;
                db::move_auto(&hub.db, c.id, "claimed", "done").await?;
                run.sent += 1;
            }
            Err(e) => {
                log(hub, &c, rule.row.id, &text, "failed", Some(&e), "", now).await?;
                if e.kind == ErrorKind::Permanent {
                    db::move_auto(&hub.db, c.id, "claimed", "failed").await?;
                    run.failed += 1;
                    continue;
                }
                // Not sent: hand the claim back and try later.
                db::move_auto(&hub.db, c.id, "claimed", "pending").await?;
                return Err(job_error(hub, &a, e).await);
            }
        }
    }
    Ok(run)
}

#[allow(clippy::too_many_arguments)]
async fn log(
    hub: &Hub,
    c: &CommentRow,
    rule_id: i64,
    text: &str,
    result: &str,
    e: Option<&platforms::PlatformError>,
    reply_id: &str,
    now: i64,
) -> sqlx::Result<i64> {
    db::log_reply(
        &hub.db,
        &db::NewReply {
            merchant_id: c.merchant_id,
            account_id: c.account_id,
            comment_row_id: c.id,
            rule_id,
            origin: "auto",
            content: text,
            result,
            error_code: e.map(|e| e.code.as_str()).unwrap_or(""),
            error_args: &e.map(crate::platform::platform_reason).unwrap_or_default(),
            platform_reply_id: reply_id,
            created_at: now,
            day: domain::matrix::day_of(now),
        },
    )
    .await
}

/// `engagement.auto_reply`: one account.
pub async fn run_auto_reply(r: AccountRef, hub: HubRef) -> Result<(), JobError> {
    auto_reply(&hub, r.account_id).await.map(|_| ())
}

/// One page of the merchant's auto-reply rules.
pub async fn list(
    d: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<Row>, store::list::Total)> {
    Ok(db::rules(d, mid, q).await?)
}

/// One page of the replies sent (the reply log).
pub async fn replies(
    d: &Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<ReplyRow>, store::list::Total)> {
    Ok(db::replies(d, mid, q).await?)
}
