//! Comments: the sync job (each public work's comments newer than its cursor), the webhook intake
//! (DY `item_comment_reply`), the list's writes (reply by hand, hide, mark spam).

use super::{adapter_for, job_error, leads, queue_auto_reply};
use crate::error::{ApiError, ApiResult};
use crate::platform::Hub;
use domain::engagement::{CommentStatus, analyze, check_reply};
use domain::i18n::Msg;
use domain::jobs::{AccountRef, Job};
use platforms::{Comment, Platform, WorkStatus};
use store::engagement::{self as db, CommentRow, NewComment};
use store::jobs::JobError;
use store::matrix::Account;

pub use db::CommentRow as Row;

/// Works read per sync (newest first) and comments read per work at most.
const MAX_WORKS: usize = 200;
const MAX_PER_WORK: usize = 2000;
const PAGE: usize = 50;

/// What one sync did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Synced {
    pub works: usize,
    pub read: usize,
    pub added: usize,
}

/// Reads the account's public works and, under each, the comments at or after its cursor (newest
/// first, so it stops at the first older one). Rows are unique per (account, comment id), so a
/// restart mid-sync or a comment already pushed by webhook adds nothing twice; the cursor moves
/// only with the rows, in the same transaction.
pub async fn sync_account(hub: &Hub, account_id: i64) -> Result<Synced, JobError> {
    let Some(a) = store::matrix::account_by_id(&hub.db, account_id).await? else {
        return Ok(Synced::default());
    };
    if a.revoked == 1 {
        return Ok(Synced::default());
    }
    let Some((p, ad)) = adapter_for(hub, &a).await? else {
        return Ok(Synced::default());
    };
    let creds = hub.creds(&a);
    let works = match ad.list_works(&creds, MAX_WORKS).await {
        Ok(w) => w,
        Err(e) => return Err(job_error(hub, &a, e).await),
    };
    let mut out = Synced::default();
    for w in works.iter().filter(|w| w.status == WorkStatus::Public) {
        out.works += 1;
        let since = db::cursor(&hub.db, a.id, &w.item_id).await?;
        let mut fresh: Vec<Comment> = vec![];
        let mut cursor = String::new();
        loop {
            let page = match ad.comment_page(&creds, &w.item_id, &cursor, PAGE).await {
                Ok(p) => p,
                Err(e) => return Err(job_error(hub, &a, e).await),
            };
            let mut older = false;
            for c in page.list {
                // Equal times are read again: the unique row makes them no-ops.
                if c.create_time * 1000 < since {
                    older = true;
                    break;
                }
                fresh.push(c);
            }
            if older || !page.has_more || page.cursor == cursor || fresh.len() >= MAX_PER_WORK {
                break;
            }
            cursor = page.cursor;
        }
        out.read += fresh.len();
        let title = if w.title.is_empty() {
            db::item_title(&hub.db, a.id, &w.item_id).await?
        } else {
            w.title.clone()
        };
        let rows: Vec<NewComment> = fresh
            .into_iter()
            // The account's own comments (top comments, replies) are not the audience's.
            .filter(|c| c.user_id != a.open_id)
            .map(|c| new_comment(&a, p, &w.item_id, &title, c))
            .collect();
        out.added += add(&hub.db, &a, &rows, true).await?;
    }
    check_leads(&hub.db, &a).await?;
    Ok(out)
}

fn new_comment(a: &Account, p: Platform, item_id: &str, title: &str, c: Comment) -> NewComment {
    NewComment {
        merchant_id: a.merchant_id,
        account_id: a.id,
        platform: p,
        item_id: item_id.to_string(),
        item_title: title.to_string(),
        intent: analyze(&c.content).intent.as_str().to_string(),
        comment_id: c.comment_id,
        user_id: c.user_id,
        content: c.content,
        created_at: c.create_time * 1000,
    }
}

/// Stores new comments (the cursor moves only when they came from the list) and queues the
/// auto-reply; the caller then makes their leads ([`check_leads`]). Answers how many were new.
async fn add(
    d: &store::Db,
    a: &Account,
    rows: &[NewComment],
    from_list: bool,
) -> sqlx::Result<usize> {
    if rows.is_empty() {
        return Ok(0);
    }
    let ids = db::add_comments(d, rows, from_list, domain::now_ms()).await?;
    if !ids.is_empty() {
        queue_auto_reply(d, a.id, None).await?;
    }
    Ok(ids.len())
}

/// Makes the leads of every comment of the account stored but not yet checked (those with purchase
/// intent or contact details), not only the new ones: a worker killed between storing comments and
/// making their leads left some, and a sync that finds nothing new must still make them. A lead is
/// once per customer, so checking one twice makes nothing twice.
async fn check_leads(d: &store::Db, a: &Account) -> sqlx::Result<()> {
    for c in db::lead_unchecked(d, a.merchant_id, a.id).await? {
        leads::from_comment(d, &c).await?;
        db::lead_checked(d, c.id).await?;
    }
    Ok(())
}

/// `engagement.sync`: one account.
pub async fn run_sync(r: AccountRef, hub: crate::platform::HubRef) -> Result<(), JobError> {
    sync_account(&hub, r.account_id).await.map(|_| ())
}

/// How often every account's comments are read (real time); webhooks bring DY's sooner.
pub const SYNC_EVERY_MS: i64 = 5 * 60_000;

/// Queues a sync of every account whose platform has comments; the key makes every node's ticker
/// agree on one job per account and period.
pub async fn queue_due(d: &store::Db, now_real: i64) -> sqlx::Result<usize> {
    let accounts = db::comment_accounts(d, d.clock.platform_now()).await?;
    for (id, mid, _) in &accounts {
        let job = store::jobs::NewJob {
            idempotency_key: Some(format!("eng-sync:{id}:{}", now_real / SYNC_EVERY_MS)),
            merchant_id: Some(*mid),
            ..store::jobs::NewJob::new(Job::EngagementSync(AccountRef { account_id: *id }))
        };
        store::jobs::submit(d, &job).await?;
    }
    Ok(accounts.len())
}

pub async fn schedule(d: store::Db, shutdown: tokio::sync::watch::Receiver<bool>) {
    let period = std::time::Duration::from_secs(60);
    crate::ticker::every(&d, period, shutdown, "comment syncs", || {
        queue_due(&d, domain::now_ms())
    })
    .await
}

/// DY pushed a comment (`item_comment_reply`) to the account `open_id`: stored like a synced one
/// (a comment read before, or pushed twice, adds nothing). Replies to comments are not the
/// audience's questions and are left out.
pub async fn pushed(d: &store::Db, open_id: &str, content: &serde_json::Value) -> sqlx::Result<()> {
    let text = |k: &str| match &content[k] {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => String::new(),
    };
    let item = text("reply_to_item_id");
    if item.is_empty()
        || !text("reply_to_comment_id").is_empty()
        || text("comment_user_id") == open_id
    {
        return Ok(());
    }
    for (account_id, _) in db::accounts_by_open_id(d, Platform::Dy, open_id).await? {
        let Some(a) = store::matrix::account_by_id(d, account_id).await? else {
            continue;
        };
        let title = db::item_title(d, a.id, &item).await?;
        let c = Comment {
            comment_id: text("comment_id"),
            user_id: text("comment_user_id"),
            content: text("content"),
            create_time: content["create_time"].as_i64().unwrap_or(0),
            digg_count: 0,
            reply_total: 0,
            top: false,
        };
        let row = new_comment(&a, Platform::Dy, &item, &title, c);
        add(d, &a, &[row], false).await?;
        check_leads(d, &a).await?;
    }
    Ok(())
}

/// Accounts whose platform has a comment API, and those that do not (the console says why).
pub fn comment_support(platform: Platform) -> bool {
    platforms::has_comment_api(platform)
}

/// A reply written by hand (SPEC §5 comment-script rules), sent at once; a refusal is a 422 naming
/// `text` with the platform's reason.
pub async fn reply(hub: &Hub, mid: i64, id: i64, text: &str) -> ApiResult<CommentRow> {
    let text = check_reply("text", text)?;
    let c = db::comment(&hub.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let a = store::matrix::account(&hub.db, mid, c.account_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let p = c.platform;
    if !platforms::has_comment_api(p) {
        return Err(ApiError::invalid_with(
            "id",
            Msg::NoCommentApi,
            vec![("platform", c.platform.to_string())],
        ));
    }
    let ad = hub.adapter_for(&a).await?;
    let now = hub.db.clock.platform_now();
    let sent = ad
        .reply_comment(&hub.creds(&a), &c.item_id, &c.comment_id, &text)
        .await;
    let (result, code, args, reply_id) = match &sent {
        Ok(rid) => ("sent", String::new(), String::new(), rid.clone()),
        Err(e) => (
            "failed",
            e.code.clone(),
            crate::platform::platform_reason(e),
            String::new(),
        ),
    };
    db::log_reply(
        &hub.db,
        &db::NewReply {
            merchant_id: mid,
            account_id: a.id,
            comment_row_id: c.id,
            rule_id: 0,
            origin: "manual",
            content: &text,
            result,
            error_code: &code,
            error_args: &args,
            platform_reply_id: &reply_id,
            created_at: now,
            day: domain::matrix::day_of(now),
        },
    )
    .await?;
    if let Err(e) = sent {
        return Err(ApiError::invalid_with(
            "text",
            Msg::ReplyRefused,
            crate::platform::reason_pair(&e),
        ));
    }
    db::comment(&hub.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)
}

/// How many replies the comments page suggests.
pub const SUGGESTIONS: usize = 3;

/// Suggested answers to a comment: the configured AI provider's (prompt
/// `writer/prompts/replies.txt`), each passing the comment-reply rules and the banned words, else
/// the built-in writer's stock answers for what the comment is after; in the customer's language.
pub async fn suggest_replies(
    hub: &Hub,
    mid: i64,
    id: i64,
) -> ApiResult<crate::writer::Wrote<Vec<String>>> {
    use crate::writer::{self, Use, Wrote};
    let c = db::comment(&hub.db, mid, id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let lang = domain::i18n::written_in(&c.content);
    // The comment-reply rules, then the copy precheck (advertising law, the platform's rules): a
    // suggestion with any finding is dropped, as the title writer drops its candidates.
    let usable = |line: &str| {
        check_reply("text", line)
            .ok()
            .filter(|l| domain::compliance::check(l, &[c.platform]).is_empty())
    };
    let fallback = match writer::provider(&hub.db, &hub.sealer).await? {
        Some(cfg) => {
            let asked = writer::ask(
                &hub.db,
                &cfg,
                Use::Replies,
                lang,
                &[
                    ("title", c.item_title.clone()),
                    ("comment", c.content.clone()),
                    ("count", SUGGESTIONS.to_string()),
                    ("max_chars", domain::matrix::COMMENT_MAX.to_string()),
                ],
            )
            .await;
            match asked {
                Ok(text) => {
                    let mut out: Vec<String> = vec![];
                    for l in text.lines().map(writer::strip_number) {
                        if let Some(l) = usable(&l).filter(|l| !out.contains(l)) {
                            out.push(l);
                        }
                    }
                    out.truncate(SUGGESTIONS);
                    if !out.is_empty() {
                        return Ok(Wrote::llm(out, &cfg.model));
                    }
                    Some(writer::unusable(&hub.db, &cfg, Use::Replies).await)
                }
                Err(f) => Some(f),
            }
        }
        None => None,
    };
    let intent =
        domain::engagement::Intent::parse(&c.intent).unwrap_or(domain::engagement::Intent::None);
    Ok(Wrote::built_in(
        domain::engagement::stock_replies(intent, lang),
        fallback,
    ))
}

pub async fn set_status(
    d: &store::Db,
    mid: i64,
    id: i64,
    status: CommentStatus,
) -> ApiResult<CommentRow> {
    if !db::set_comment_status(d, mid, id, status.as_str()).await? {
        return Err(ApiError::NotFound);
    }
    db::comment(d, mid, id).await?.ok_or(ApiError::NotFound)
}

/// A sync asked for from the console: the merchant's accounts (or one of them) read now.
pub async fn sync_now(hub: &Hub, mid: i64, account_id: Option<i64>) -> ApiResult<Synced> {
    let mut total = Synced::default();
    for (id, m, _) in db::comment_accounts(&hub.db, hub.db.clock.platform_now()).await? {
        if m != mid || account_id.is_some_and(|x| x != id) {
            continue;
        }
        match sync_account(hub, id).await {
            Ok(s) => {
                total.works += s.works;
                total.read += s.read;
                total.added += s.added;
            }
            Err(e) => {
                return Err(ApiError::invalid_with(
                    "account_id",
                    Msg::PlatformRefused,
                    vec![("reason", e.message().to_string())],
                ));
            }
        }
    }
    Ok(total)
}

/// One page of the merchant's comments.
pub async fn list(
    d: &store::Db,
    mid: i64,
    q: &store::ListQuery,
) -> ApiResult<(Vec<Row>, store::list::Total)> {
    Ok(db::comments(d, mid, q).await?)
}

/// The merchant's accounts (the first thousand), whose comments may be fetched.
pub async fn accounts(d: &store::Db, mid: i64) -> ApiResult<Vec<Account>> {
    let q = store::ListQuery {
        limit: Some(1000),
        ..store::ListQuery::default()
    };
    Ok(store::matrix::accounts(d, mid, None, &q).await?.0)
}
