//! The operation log as its readers see it.

use crate::error::ApiResult;
use store::Db;
use store::ListParams;
use store::list::Total;
use store::system::oplog;

/// A line of the operation log: its message as a key and arguments (`message_code`, `message_args`),
/// rendered in the reader's language by `api`; rows written before keys were stored keep their
/// Chinese text in `message`.
pub use store::system::oplog::LogRow;

/// A page of one merchant's log (`Some(id)`), or of every merchant's (`None`, operator only).
pub async fn list(
    db: &Db,
    merchant_id: Option<i64>,
    q: &ListParams,
) -> ApiResult<(Vec<LogRow>, Total)> {
    Ok(oplog::list(db, merchant_id, q).await?)
}
