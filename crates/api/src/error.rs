//! The one error type of the API. Handlers return `ApiError`; the response carries the message key and
//! the central middleware renders it in the caller's language (it knows `accept-language`).
//! Database and internal faults are logged with the request id and shown only as a generic 500.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::i18n::{Lang, Msg};
use domain::validate::Invalid;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Missing, malformed or expired token: HTTP 401.
    #[error("unauthorized")]
    Unauthorized(Msg),
    /// The session was ended (password changed, account removed or disabled): HTTP 200, body code 401.
    #[error("session revoked")]
    SessionRevoked,
    #[error("forbidden")]
    Forbidden(Msg, Vec<(&'static str, String)>),
    #[error("not found")]
    NotFound,
    /// Bad input: HTTP 422 naming the field.
    #[error("invalid {field}")]
    Invalid {
        field: String,
        msg: Msg,
        args: Vec<(&'static str, String)>,
    },
    #[error("too many requests")]
    TooMany(Msg, Vec<(&'static str, String)>),
    /// A body over its call's limit: HTTP 413.
    #[error("payload too large")]
    TooLarge(Msg, Vec<(&'static str, String)>),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn invalid(field: &str, msg: Msg) -> ApiError {
        ApiError::Invalid {
            field: field.to_string(),
            msg,
            args: vec![],
        }
    }
    pub fn invalid_with(field: &str, msg: Msg, args: Vec<(&'static str, String)>) -> ApiError {
        ApiError::Invalid {
            field: field.to_string(),
            msg,
            args,
        }
    }
    pub fn forbidden(msg: Msg) -> ApiError {
        ApiError::Forbidden(msg, vec![])
    }
    /// A parameter (JSON or form) body over `extract::BODY_MAX`.
    pub fn body_too_large() -> ApiError {
        ApiError::TooLarge(
            Msg::BodyTooLarge,
            vec![(
                "max",
                format!("{} MB", crate::extract::BODY_MAX / 1024 / 1024),
            )],
        )
    }
}

impl From<Invalid> for ApiError {
    fn from(i: Invalid) -> Self {
        ApiError::invalid_with(i.field, i.msg, i.args)
    }
}

/// A broken rule of a domain check (clip settings, release tasks): 422 naming the field.
impl From<domain::clip::Broken> for ApiError {
    fn from(b: domain::clip::Broken) -> Self {
        ApiError::invalid_with(b.field, b.msg, b.args)
    }
}

impl From<store::points::PointsError> for ApiError {
    fn from(e: store::points::PointsError) -> Self {
        use store::points::PointsError as P;
        match e {
            P::Insufficient { need, balance } => ApiError::invalid_with(
                "points",
                Msg::PointsInsufficient,
                vec![("need", need.to_string()), ("balance", balance.to_string())],
            ),
            P::NotPositive => ApiError::invalid("points", Msg::PointsInvalid),
            P::Db(e) => ApiError::Db(e),
        }
    }
}

impl From<store::list::PageError> for ApiError {
    fn from(e: store::list::PageError) -> Self {
        match e {
            store::list::PageError::Invalid(e) => ApiError::invalid_with(&e.field, e.msg, e.args),
            store::list::PageError::Db(e) => ApiError::Db(e),
        }
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
        // Refusals name the function and the library in words; the raw permission stays in `data`.
        let mut args: Vec<(&'static str, String)> = self
            .args
            .iter()
            .map(|(k, v)| match *k {
                "library" => (*k, domain::actions::library_name(v, lang)),
                _ => (*k, v.clone()),
            })
            .collect();
        let perm = self.args.iter().find(|(k, _)| *k == "perm").map(|(_, p)| p);
        if let Some(p) = perm {
            args.push(("function", domain::actions::function_name(p, lang)));
        }
        if let Some(f) = &self.field {
            args.push(("field", domain::i18n::field_label(f, lang)));
        }
        args.push(("request_id", request_id.to_string()));
        let message = self.msg.render(lang, &args);
        let mut data = serde_json::Value::Null;
        if let Some(p) = perm {
            data = serde_json::json!({ "perm": p });
        }
        if let Some(f) = &self.field {
            data = serde_json::json!({ "field": f });
        }
        if self.status == StatusCode::INTERNAL_SERVER_ERROR {
            data = serde_json::json!({ "request_id": request_id });
        }
        serde_json::json!({ "code": self.body_code, "message": message, "data": data })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
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
        let pending = match self {
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
            ApiError::Db(e) if store::db::is_unique_violation(&e) => {
                tracing::warn!(error = %e, "unique constraint");
                let (table, columns) = store::db::unique_columns(&e).unwrap_or_default();
                let (field, msg) = taken(&table, &columns);
                p(StatusCode::UNPROCESSABLE_ENTITY, msg, vec![], Some(field))
            }
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
        };
        // Rendered (in the caller's language) by `guard::localize`; this body is the fallback.
        let body = axum::Json(pending.render(Lang::Zh, ""));
        let mut res = (pending.status, body).into_response();
        res.extensions_mut().insert(pending);
        res
    }
}

/// The field a violated unique constraint guards and the message saying its value is taken. The
/// field is the constraint's last column: constraints list their scope first, e.g.
/// (merchant_id, name).
fn taken(table: &str, columns: &[String]) -> (String, Msg) {
    let field = columns.last().map_or("value", String::as_str);
    let msg = match (table, field) {
        ("users", "username") => Msg::UsernameTaken,
        ("users", "mobile") => Msg::MobileTaken,
        ("matrix_groups", "name") => Msg::GroupNameTaken,
        _ => Msg::AlreadyTaken,
    };
    (field.to_string(), msg)
}

/// The success envelope `{code:200, message, data}`.
pub fn ok<T: serde::Serialize>(data: T) -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({ "code": 200, "message": "ok", "data": data }))
}

pub type Json = axum::Json<serde_json::Value>;
