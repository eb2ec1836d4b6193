//! The one error type lives in `services` (use cases return it); handlers know it as `ApiError`, and
//! answer with `reply(data)` inside `Answer<T>` (the `{code, message, data}` envelope of
//! `crate::reply`, typed), or `HttpResult<T>` for other answers.
pub use crate::reply::{Answer, Done, HttpError, HttpResult, Page, PendingError, Reply, reply};
pub use services::error::{ApiError, ApiResult};
