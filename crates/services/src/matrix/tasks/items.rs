//! Acting on a task's items now: publish now / retry, send the top comments of a published item.

use crate::error::{ApiError, ApiResult};
use crate::matrix::publish;
use crate::platform::{Hub, refused};
use domain::i18n::Msg;
use store::ListQuery;
use store::matrix as db;

/// The merchant's item, or 404.
pub async fn item(d: &store::Db, mid: i64, id: i64) -> ApiResult<db::Item> {
    db::item(d, id)
        .await?
        .filter(|i| i.merchant_id == mid)
        .ok_or(ApiError::NotFound)
}

/// Publish now / retry: the item (or every waiting and failed item of the task) becomes due now,
/// when `ItemFacts::can_requeue` lets it (the rule the item's offered actions show); how many were
/// queued.
pub async fn publish_now(
    d: &store::Db,
    mid: i64,
    id: Option<i64>,
    task_id: Option<i64>,
) -> ApiResult<usize> {
    let now = d.clock.platform_now();
    let ids: Vec<i64> = match (id, task_id) {
        (Some(id), _) => {
            let it = item(d, mid, id).await?;
            if !it.facts().can_requeue() {
                return Err(ApiError::invalid("id", Msg::NothingToPublish));
            }
            vec![it.id]
        }
        (None, Some(t)) => {
            super::task(d, Some(mid), t).await?;
            let lq = ListQuery {
                limit: Some(1000),
                ..Default::default()
            }
            .with_filter("task_id", Some(&t.to_string()), "=");
            let (rows, _) = db::items(d, Some(mid), &lq).await?;
            rows.into_iter()
                .filter(|i| i.facts().can_requeue())
                .map(|i| i.id)
                .collect()
        }
        _ => return Err(ApiError::invalid("id", Msg::Required)),
    };
    let mut n = 0;
    for (k, id) in ids.iter().enumerate() {
        // A minute apart, so a merchant's posts never share a minute.
        if db::requeue_item(d, mid, *id, now + k as i64 * 60_000).await? {
            n += 1;
        }
    }
    if n == 0 {
        return Err(ApiError::invalid("id", Msg::NothingToPublish));
    }
    Ok(n)
}

/// Sends the top comments of a published item that have not gone out yet; how many went now.
pub async fn send_comments(hub: &Hub, mid: i64, id: i64) -> ApiResult<usize> {
    let it = item(&hub.db, mid, id).await?;
    if !it.facts().can_send_comments() {
        return Err(ApiError::invalid("id", Msg::ItemNotPublished));
    }
    publish::send_comments(hub, &it)
        .await
        .map_err(|e| refused("id", &e))
}
