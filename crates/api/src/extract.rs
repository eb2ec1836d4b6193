//! Request extractors: the signed-in caller, the language, and `Input<T>`, which reads a call's
//! parameters from the query string and a JSON or form body alike (SPEC §7: lists come as GET or POST).

use crate::error::{ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use domain::UserKind;
use domain::i18n::{Lang, Msg};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The request id, set by the outermost middleware, logged with every line and returned in `x-request-id`.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// Who is calling. Inserted by `guard` for every signed-in call.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: store::users::User,
    pub merchant: Option<store::users::Merchant>,
    pub kind: UserKind,
    pub session_id: String,
    pub remember: bool,
    pub proxy_user: Option<String>,
    pub roles: Vec<String>,
    pub grants: Vec<String>,
}

impl Caller {
    /// The tenant every merchant-data query is scoped to. The operator has none.
    pub fn merchant_id(&self) -> ApiResult<i64> {
        self.user.merchant_id.ok_or(ApiError::Forbidden(
            Msg::Forbidden,
            vec![("perm", "merchant".into())],
        ))
    }
    pub fn is_operator(&self) -> bool {
        self.kind == UserKind::Operator
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        parts
            .extensions
            .get::<Caller>()
            .cloned()
            .ok_or(ApiError::Unauthorized(Msg::TokenMissing))
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

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Input<T> {
    type Rejection = ApiError;
    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let query = req.uri().query().unwrap_or("").to_string();
        let ctype = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            ApiError::invalid_with("body", Msg::InvalidValue, vec![("reason", e.to_string())])
        })?;
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
        match serde_json::from_value::<T>(value.clone()) {
            Ok(t) => Ok(Input(t)),
            // Query strings and forms carry everything as text: retry with numbers and booleans read.
            Err(first) => serde_json::from_value::<T>(coerce(value))
                .map(Input)
                .map_err(|_| from_serde(&first)),
        }
    }
}

fn bad_body(reason: &str) -> ApiError {
    ApiError::invalid_with(
        "body",
        Msg::InvalidValue,
        vec![("reason", reason.to_string())],
    )
}

fn from_serde(e: &serde_json::Error) -> ApiError {
    let text = e.to_string();
    let field = text.split('`').nth(1).unwrap_or("body").to_string();
    if text.starts_with("missing field") {
        ApiError::invalid(&field, Msg::Required)
    } else {
        ApiError::invalid_with(&field, Msg::InvalidValue, vec![("reason", text)])
    }
}

fn coerce(v: Value) -> Value {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coerce_reads_numbers_and_bools_only() {
        let v = coerce(serde_json::json!({"a":"12","b":"true","c":"x1","d":5}));
        assert_eq!(v, serde_json::json!({"a":12,"b":true,"c":"x1","d":5}));
    }
}

/// A body naming one record (`id`) or several (`ids`), as the delete/cancel/import calls take them.
#[derive(Debug, serde::Deserialize, utoipa::ToSchema)]
pub struct IdsReq {
    #[serde(default)]
    pub id: Option<i64>,
    #[serde(default)]
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
