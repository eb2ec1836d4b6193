//! The operation log as its readers see it.

use crate::error::{ApiResult, logged_message};
use domain::i18n::Lang;
use store::Db;
use store::ListParams;
use store::list::Total;
use store::system::oplog;

/// A line of the operation log.
pub use store::system::oplog::LogRow;

/// A page of one merchant's log (`Some(id)`), or of every merchant's (`None`, operator only), with
/// each message in the reader's language. Rows keep a message key and its arguments; those written
/// before keys were stored show their Chinese text as it was.
pub async fn list(
    db: &Db,
    merchant_id: Option<i64>,
    q: &ListParams,
    lang: Lang,
) -> ApiResult<(Vec<LogRow>, Total)> {
    let (mut rows, total) = oplog::list(db, merchant_id, q).await?;
    for r in &mut rows {
        if let Some(m) = logged_message(&r.message_code, &r.message_args, lang, &r.request_id) {
            r.message = m;
        }
    }
    Ok((rows, total))
}
