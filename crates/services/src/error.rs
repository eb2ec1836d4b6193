//! The one error type of clipmatrix: use cases return it and HTTP handlers pass it on (one name,
//! `ApiError`, because every error ends as an answer of the API). Its response carries the message key and the central middleware renders it in
//! the caller's language (it knows `accept-language`). Database and internal faults are logged with
//! the request id and shown only as a generic 500. Its `IntoResponse` lives here because Rust lets a
//! trait be implemented only beside the type or the trait.

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
    /// A request target (path and query) over the API's limit: HTTP 414, enveloped like every answer.
    #[error("uri too long")]
    UriTooLong(usize),
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
    /// A parameter (JSON or form) body over `max_bytes`.
    pub fn body_too_large(max_bytes: usize) -> ApiError {
        ApiError::TooLarge(
            Msg::BodyTooLarge,
            vec![("max", format!("{} MB", max_bytes / 1024 / 1024))],
        )
    }
}

impl From<Invalid> for ApiError {
    fn from(i: Invalid) -> Self {
        ApiError::invalid_with(i.field, i.msg, i.args)
    }
}

impl From<store::system::points::PointsError> for ApiError {
    fn from(e: store::system::points::PointsError) -> Self {
        use store::system::points::PointsError as P;
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
        let message = self.message(lang, request_id);
        let perm = self.args.iter().find(|(k, _)| *k == "perm").map(|(_, p)| p);
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

    /// The message alone, in `lang`.
    pub fn message(&self, lang: Lang, request_id: &str) -> String {
        let args: Vec<(&str, String)> = self.args.iter().map(|(k, v)| (*k, v.clone())).collect();
        render_message(self.msg, &args, self.field.as_deref(), lang, request_id)
    }

    /// The message's arguments as a row keeps them (a JSON object of strings, the field under
    /// `field`), for [`logged_message`] to render in the reader's language.
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
}

/// Renders a message with its raw arguments in `lang`: refusals name the function and the library in
/// words (the raw permission stays in the arguments), a field by its label.
pub fn render_message(
    msg: Msg,
    args: &[(&str, String)],
    field: Option<&str>,
    lang: Lang,
    request_id: &str,
) -> String {
    let mut out: Vec<(&str, String)> = args
        .iter()
        .map(|(k, v)| match *k {
            "library" => (*k, domain::actions::library_name(v, lang)),
            _ => (*k, v.clone()),
        })
        .collect();
    if let Some((_, p)) = args.iter().find(|(k, _)| *k == "perm") {
        out.push(("function", domain::actions::function_name(p, lang)));
    }
    if let Some(f) = field {
        out.push(("field", domain::i18n::field_label(f, lang)));
    }
    out.push(("request_id", request_id.to_string()));
    msg.render(lang, &out)
}

/// A message a row stored as its key and [`PendingError::stored_args`], in the reader's language;
/// `None` when the key is unknown (or empty: a row written before keys were stored).
pub fn logged_message(key: &str, args: &str, lang: Lang, request_id: &str) -> Option<String> {
    let msg = Msg::from_key(key)?;
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(args).unwrap_or_default();
    let field = map.get("field").and_then(|v| v.as_str());
    let args: Vec<(&str, String)> = map
        .iter()
        .filter(|(k, _)| k.as_str() != "field")
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or_default().to_string()))
        .collect();
    Some(render_message(msg, &args, field, lang, request_id))
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
            ApiError::UriTooLong(max) => p(
                StatusCode::URI_TOO_LONG,
                Msg::UriTooLong,
                vec![("max", max.to_string())],
                None,
            ),
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
pub type Answer<T> = ApiResult<axum::Json<Reply<T>>>;

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
