//! The `{code, message, data}` envelope of every answer, owned by the HTTP layer: the success
//! envelope (`Reply`, `Answer`, `reply`), the shapes every area answers (`Page`, `Done`), and the
//! error answer of `services::ApiError`. Rust lets `IntoResponse` be implemented only beside the
//! type or the trait, so handlers return [`HttpError`], which `?` makes from an `ApiError` (or
//! anything that becomes one). Its response carries the message key and the central middleware
//! renders it in the caller's language (it knows `accept-language`). Database and internal faults
//! are logged with the request id and shown only as a generic 500.

use crate::words::render_message;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::i18n::{Lang, Msg};
use services::error::ApiError;

/// A `services::ApiError` on its way out as an HTTP answer.
#[derive(Debug)]
pub struct HttpError(pub ApiError);

/// What a handler answering something other than the envelope returns.
pub type HttpResult<T> = Result<T, HttpError>;

impl<E: Into<ApiError>> From<E> for HttpError {
    fn from(e: E) -> Self {
        HttpError(e.into())
    }
}

/// What the middleware needs to render an error body.
#[derive(Debug, Clone)]
pub struct PendingError {
    pub status: StatusCode,
    pub body_code: u16,
    pub msg: Msg,
    pub args: Vec<(&'static str, String)>,
    pub field: Option<String>,
}

impl PendingError {
    pub fn render(&self, lang: Lang, request_id: &str) -> serde_json::Value {
        let message = self.message(lang, request_id);
        let perm = self.args.iter().find(|(k, _)| *k == "perm").map(|(_, p)| p);
        let mut data = serde_json::Value::Null;
        if let Some(p) = perm {
            data = serde_json::json!({ "perm": p });
        }
        if let Some(f) = &self.field {
            data = serde_json::json!({ "field": f });
        }
        // An import's bad rows, each with its row, column and message in `lang`.
        if let Some((_, errors)) = self.args.iter().find(|(k, _)| *k == "errors") {
            data["rows"] =
                serde_json::to_value(crate::words::row_errors(errors, lang)).unwrap_or_default();
        }
        if self.status == StatusCode::INTERNAL_SERVER_ERROR {
            data = serde_json::json!({ "request_id": request_id });
        }
        serde_json::json!({ "code": self.body_code, "message": message, "data": data })
    }

    /// The message alone, in `lang`.
    pub fn message(&self, lang: Lang, request_id: &str) -> String {
        let args: Vec<(&str, String)> = self.args.iter().map(|(k, v)| (*k, v.clone())).collect();
        render_message(self.msg, &args, self.field.as_deref(), lang, request_id)
    }

    /// The message's arguments as a row keeps them (a JSON object of strings, the field under
    /// `field`), for `crate::words::logged_message` to render in the reader's language.
    pub fn stored_args(&self) -> String {
        let mut m = serde_json::Map::new();
        for (k, v) in &self.args {
            m.insert(k.to_string(), v.clone().into());
        }
        if let Some(f) = &self.field {
            m.insert("field".into(), f.clone().into());
        }
        serde_json::Value::Object(m).to_string()
    }

    /// The status and body parts an error answers with.
    pub fn of(e: ApiError) -> PendingError {
        let p = |status: StatusCode,
                 msg: Msg,
                 args: Vec<(&'static str, String)>,
                 field: Option<String>| PendingError {
            status,
            body_code: status.as_u16(),
            msg,
            args,
            field,
        };
        if let Some((field, msg)) = e.taken() {
            if let ApiError::Db(e) = &e {
                tracing::warn!(error = %e, "unique constraint");
            }
            return p(StatusCode::UNPROCESSABLE_ENTITY, msg, vec![], Some(field));
        }
        match e {
            ApiError::Unauthorized(m) => p(StatusCode::UNAUTHORIZED, m, vec![], None),
            ApiError::SessionRevoked => PendingError {
                body_code: 401,
                ..p(StatusCode::OK, Msg::SessionRevoked, vec![], None)
            },
            ApiError::Forbidden(m, a) => p(StatusCode::FORBIDDEN, m, a, None),
            ApiError::NotFound => p(StatusCode::NOT_FOUND, Msg::NotFound, vec![], None),
            ApiError::Invalid { field, msg, args } => {
                p(StatusCode::UNPROCESSABLE_ENTITY, msg, args, Some(field))
            }
            ApiError::TooMany(m, a) => p(StatusCode::TOO_MANY_REQUESTS, m, a, None),
            ApiError::TooLarge(m, a) => p(StatusCode::PAYLOAD_TOO_LARGE, m, a, None),
            ApiError::UriTooLong(max) => p(
                StatusCode::URI_TOO_LONG,
                Msg::UriTooLong,
                vec![("max", max.to_string())],
                None,
            ),
            ApiError::Db(e) => {
                tracing::error!(error = %e, "database error");
                p(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Msg::Internal,
                    vec![],
                    None,
                )
            }
            ApiError::Internal(e) => {
                tracing::error!(error = ?e, "internal error");
                p(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Msg::Internal,
                    vec![],
                    None,
                )
            }
        }
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let pending = PendingError::of(self.0);
        // Rendered (in the caller's language) by `guard::localize`; this body is the fallback.
        let body = axum::Json(pending.render(Lang::Zh, ""));
        let mut res = (pending.status, body).into_response();
        res.extensions_mut().insert(pending);
        res
    }
}

/// The success envelope `{code:200, message, data}` of every answer; `data` is the call's own type,
/// named in the handler's `responses((status = 200, body = Reply<T>))`.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Reply<T> {
    /// Always 200 here; errors use `ErrorBody`.
    pub code: u16,
    pub message: &'static str,
    pub data: T,
}

/// What a handler returns: the envelope around its own response type.
pub type Answer<T> = HttpResult<axum::Json<Reply<T>>>;

/// Wraps a handler's result in the success envelope.
pub fn reply<T: serde::Serialize>(data: T) -> axum::Json<Reply<T>> {
    axum::Json(Reply {
        code: 200,
        message: "ok",
        data,
    })
}

/// One page of a list: its rows and the number of rows the filters match (`total_capped` when that
/// count stopped at the list's cap).
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Page<T> {
    pub rows: Vec<T>,
    pub total: i64,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub total_capped: bool,
}

impl<T> Page<T> {
    /// Every row at once (a short list that is not paged), shaped like a page.
    pub fn whole(rows: Vec<T>) -> Page<T> {
        Page {
            total: rows.len() as i64,
            rows,
            total_capped: false,
        }
    }

    /// A page whose total was counted exactly (no cap).
    pub fn exact(rows: Vec<T>, total: i64) -> Page<T> {
        Page::new(rows, store::list::Total::exact(total))
    }

    pub fn new(rows: Vec<T>, total: store::list::Total) -> Page<T> {
        Page {
            rows,
            total: total.n,
            total_capped: total.capped,
        }
    }
}

/// An answer with nothing to say but success (`data: {}`).
#[derive(Debug, Default, serde::Serialize, utoipa::ToSchema)]
pub struct Done {}
