//! Request extractors: the signed-in caller, the language, and `Input<T>`, which reads a call's
//! parameters from the query string and a JSON or form body alike (SPEC §7: lists come as GET or POST).

use crate::error::{ApiError, ApiResult, HttpError};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use domain::UserKind;
use domain::i18n::{Lang, Msg};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The request id, set by the outermost middleware, logged with every line and returned in `x-request-id`.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// The body of every call that names one record by its id.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
pub struct IdReq {
    #[schema(minimum = 1)]
    pub id: i64,
}

/// Who is calling. Inserted by `guard` for every signed-in call.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: store::auth::users::User,
    pub merchant: Option<store::auth::users::Merchant>,
    pub kind: UserKind,
    pub session_id: String,
    pub remember: bool,
    pub proxy_user: Option<String>,
    pub roles: Vec<String>,
    pub grants: Vec<String>,
    /// The personal API token the call came with (None: a session's).
    pub token: Option<TokenGrant>,
}

/// The API token a call came with: its row's id and name (the operation log names it) and scopes.
#[derive(Debug, Clone)]
pub struct TokenGrant {
    pub id: i64,
    pub name: String,
    pub scopes: Vec<domain::permission::TokenScope>,
}

impl Caller {
    /// The tenant every merchant-data query is scoped to. The operator has none.
    pub fn merchant_id(&self) -> ApiResult<i64> {
        self.user
            .merchant_id
            .ok_or(ApiError::forbidden(Msg::MerchantOnly))
    }
    /// May the caller change files of this material library? The generic upload and rename calls serve
    /// every library page, so the library they write to decides (`domain::actions::library_permission`).
    pub fn may_write(&self, library: &str) -> ApiResult<()> {
        if domain::permission::granted(&self.grants, &domain::actions::library_permission(library))
        {
            Ok(())
        } else {
            Err(ApiError::Forbidden(
                Msg::LibraryForbidden,
                vec![("library", library.to_string())],
            ))
        }
    }
    pub fn is_operator(&self) -> bool {
        self.kind == UserKind::Operator
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = HttpError;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, HttpError> {
        let caller = parts.extensions.get::<Caller>().cloned();
        Ok(caller.ok_or(ApiError::Unauthorized(Msg::TokenMissing))?)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for crate::LangOf {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let h = parts
            .headers
            .get("accept-language")
            .and_then(|v| v.to_str().ok());
        Ok(crate::LangOf(Lang::from_header(h)))
    }
}

/// Parameters from the query string merged with a JSON or urlencoded body (the body wins).
pub struct Input<T>(pub T);

/// The most a JSON or form body may hold. Only the upload calls (multipart, chunks) take more, and they
/// stream to disk; a parameter body is read whole and parsed, so it stays small.
pub const BODY_MAX: usize = 1024 * 1024;

/// Reads a parameter body, refusing (413) one over `BODY_MAX` as soon as it says or shows it is.
async fn small_body(req: Request) -> ApiResult<Vec<u8>> {
    use futures_util::StreamExt;
    let declared = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > BODY_MAX as u64) {
        return Err(ApiError::body_too_large(BODY_MAX));
    }
    let mut stream = req.into_body().into_data_stream();
    let mut buf = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| bad_body(&e.to_string()))?;
        if buf.len() + chunk.len() > BODY_MAX {
            return Err(ApiError::body_too_large(BODY_MAX));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf)
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Input<T> {
    type Rejection = HttpError;
    async fn from_request(req: Request, _: &S) -> Result<Self, HttpError> {
        Ok(read_input(req).await?)
    }
}

/// The parameters of `req` as a `T`: the query string, then the body over it.
async fn read_input<T: DeserializeOwned>(req: Request) -> ApiResult<Input<T>> {
    let query = req.uri().query().unwrap_or("").to_string();
    let ctype = req
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let bytes = small_body(req).await?;
    let mut map = Map::new();
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&query).unwrap_or_default();
    for (k, v) in pairs {
        map.insert(k, Value::String(v));
    }
    let text = String::from_utf8_lossy(&bytes);
    if !text.trim().is_empty() {
        if ctype.contains("json") || text.trim_start().starts_with('{') {
            match serde_json::from_slice::<Value>(&bytes) {
                Ok(Value::Object(body)) => map.extend(body),
                Ok(_) => return Err(bad_body("a JSON object is expected")),
                Err(e) => return Err(bad_body(&e.to_string())),
            }
        } else {
            let pairs: Vec<(String, String)> =
                serde_urlencoded::from_str(&text).map_err(|e| bad_body(&e.to_string()))?;
            for (k, v) in pairs {
                map.insert(k, Value::String(v));
            }
        }
    }
    let value = Value::Object(map);
    match serde_path_to_error::deserialize::<_, T>(value.clone()) {
        Ok(t) => Ok(Input(t)),
        // Query strings and forms carry everything as text: retry with numbers and booleans read.
        Err(first) => serde_json::from_value::<T>(coerce(value))
            .map(Input)
            .map_err(|_| from_serde(&first)),
    }
}

fn bad_body(reason: &str) -> ApiError {
    ApiError::invalid_with(
        "body",
        Msg::InvalidValue,
        vec![("reason", reason.to_string())],
    )
}

/// A 422 naming the field serde stopped at: the path of a wrongly typed value (`id`, `groups[0].name`),
/// or the missing field itself.
fn from_serde(e: &serde_path_to_error::Error<serde_json::Error>) -> ApiError {
    let text = e.inner().to_string();
    let path = e.path().to_string();
    let at = |name: &str| match path.as_str() {
        "." => name.to_string(),
        p => format!("{p}.{name}"),
    };
    if text.starts_with("missing field") {
        let name = text.split('`').nth(1).unwrap_or("body");
        return ApiError::invalid(&at(name), Msg::Required);
    }
    let field = match path.as_str() {
        "." => text.split('`').nth(1).unwrap_or("body").to_string(),
        p => p.to_string(),
    };
    ApiError::invalid_with(&field, Msg::InvalidValue, vec![("reason", text)])
}

/// Form fields arrive as text: numbers and booleans are read as such, anything else stays text.
pub fn coerce(v: Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, coerce(v))).collect()),
        Value::String(s) => {
            if let Ok(i) = s.parse::<i64>() {
                Value::from(i)
            } else if s == "true" || s == "false" {
                Value::Bool(s == "true")
            } else {
                Value::String(s)
            }
        }
        other => other,
    }
}
// A record's id as the document declares it (ids start at 1); a schema only.
#[derive(utoipa::ToSchema)]
#[schema(minimum = 1)]
#[allow(dead_code)]
pub struct RecordId(i64);

/// A body naming one record (`id`) or several (`ids`), as the delete/cancel/import calls take them.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
pub struct IdsReq {
    #[serde(default)]
    #[schema(minimum = 1)]
    pub id: Option<i64>,
    #[serde(default)]
    #[schema(inline, value_type = Vec<RecordId>)]
    pub ids: Vec<i64>,
}

impl IdsReq {
    /// `ids` then `id`; at least one, or 422 naming `field`.
    pub fn all(&self, field: &str) -> ApiResult<Vec<i64>> {
        let mut v = self.ids.clone();
        v.extend(self.id);
        if v.is_empty() {
            return Err(ApiError::invalid(field, Msg::Required));
        }
        Ok(v)
    }
}
