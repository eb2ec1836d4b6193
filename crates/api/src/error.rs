//! The one error type lives in `services` (use cases return it); handlers know it as `ApiError`, and
//! answer with `reply(data)` inside `Answer<T>` (the `{code, message, data}` envelope, typed).
pub use services::error::{Answer, ApiError, ApiResult, Done, Page, PendingError, Reply, reply};
