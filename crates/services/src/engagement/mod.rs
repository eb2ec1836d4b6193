//! Engagement (docs/api-engagement.md): comments of every authorized account read by a
//! durable `engagement.sync` job (incremental by each work's cursor) and by DY's webhooks, keyword
//! auto-replies by the `engagement.auto_reply` job (each comment at most once, ever), leads from
//! comments and private messages with purchase intent or contact details, assigned in turn.

pub mod comments;
pub mod lead_staff;
pub mod leads;
pub mod messages;
pub mod notify;
pub mod privmsg;
pub mod rules;

use crate::platform::Hub;
use domain::jobs::{AccountRef, Job};
use platforms::{ErrorKind, Platform, PlatformError};
use store::jobs::JobError;
use store::matrix::Account;

/// The account's adapter and platform; `None` when its platform has no comment API.
pub(crate) async fn adapter_for(
    hub: &Hub,
    a: &Account,
) -> Result<Option<(Platform, std::sync::Arc<dyn platforms::Adapter>)>, JobError> {
    let p = a.platform;
    if !platforms::has_comment_api(p) {
        return Ok(None);
    }
    let ad = hub
        .adapter_for(a)
        .await
        .map_err(|e| JobError::Retry(e.to_string()))?;
    Ok(Some((p, ad)))
}

/// What a job does with a platform's refusal that is not about one comment: try again later
/// (busy, rate limit, an expired token after refreshing it), or stop (authorization gone — the
/// account is marked expired with the platform's reason).
pub(crate) async fn job_error(hub: &Hub, a: &Account, e: PlatformError) -> JobError {
    match e.kind {
        ErrorKind::TokenExpired => {
            let _ = hub.refresh(a).await;
            JobError::Retry(e.to_string())
        }
        ErrorKind::Reauthorize => {
            let _ = hub.revoke(a.id, &e).await;
            JobError::Permanent(e.to_string())
        }
        ErrorKind::Retryable => JobError::Retry(e.to_string()),
        ErrorKind::Permanent => JobError::Permanent(e.to_string()),
    }
}

/// Queues the account's auto-reply now (after new comments) or at `run_at` (real ms).
pub async fn queue_auto_reply(
    db: &store::Db,
    account_id: i64,
    run_at: Option<i64>,
) -> sqlx::Result<()> {
    let job = store::jobs::NewJob {
        run_at,
        ..store::jobs::NewJob::new(Job::EngagementAutoReply(AccountRef { account_id }))
    };
    store::jobs::submit(db, &job).await.map(|_| ())
}
