//! The operator's job monitor: retry a failed or dead job.

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use store::Db;
use store::jobs;

/// A job of the durable queue, as the monitor lists it.
pub use store::jobs::Job;

/// Queues a failed or dead job again and answers it.
pub async fn retry(db: &Db, id: i64) -> ApiResult<Job> {
    jobs::get(db, id).await?.ok_or(ApiError::NotFound)?;
    if !jobs::retry(db, id).await? {
        return Err(ApiError::invalid("id", Msg::JobNotRetryable));
    }
    jobs::get(db, id).await?.ok_or(ApiError::NotFound)
}

/// One page of the queue's jobs.
pub async fn list(db: &Db, q: &store::ListParams) -> ApiResult<(Vec<Job>, store::list::Total)> {
    Ok(jobs::list(db, q).await?)
}
