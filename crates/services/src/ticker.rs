//! The schedulers' loop: a pass at once, then one every `period`, until shutdown. A pass only
//! queues jobs; the queue's idempotency keys make every node's ticker agree on one job per period.

use std::future::Future;
use std::time::Duration;

pub async fn every<F, Fut, T>(
    period: Duration,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
    what: &'static str,
    mut pass: F,
) where
    F: FnMut() -> Fut,
    Fut: Future<Output = sqlx::Result<T>>,
{
    loop {
        if let Err(e) = pass().await {
            tracing::warn!(error = %e, "could not queue {what}");
        }
        tokio::select! {
            _ = tokio::time::sleep(period) => {}
            _ = shutdown.changed() => return,
        }
    }
}
