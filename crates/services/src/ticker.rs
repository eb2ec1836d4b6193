//! The schedulers' loop: a pass at once, then one every `period`, until shutdown. A pass only
//! queues jobs. On a cluster one node runs each scheduler (`Db::lead`, a PostgreSQL advisory lock
//! named by `what`), so the others do not scan the same tables; the queue's idempotency keys would
//! still make them agree on one job per period if two ever overlapped.

use std::future::Future;
use std::time::Duration;

pub async fn every<F, Fut, T>(
    db: &store::Db,
    period: Duration,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
    what: &'static str,
    mut pass: F,
) where
    F: FnMut() -> Fut,
    Fut: Future<Output = sqlx::Result<T>>,
{
    loop {
        if db.lead(what).await
            && let Err(e) = pass().await
        {
            tracing::warn!(error = %e, "could not queue {what}");
        }
        tokio::select! {
            _ = tokio::time::sleep(period) => {}
            _ = shutdown.changed() => return,
        }
    }
}
