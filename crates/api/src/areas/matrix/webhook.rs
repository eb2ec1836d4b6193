//! `POST /api/webhook/dy`: Douyin's event push, checked and handled by `services::matrix::webhook`.

use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use services::matrix::webhook::{self as uc, Outcome};

/// The answer to `verify_webhook`.
#[derive(Debug, Serialize)]
struct Challenge {
    challenge: serde_json::Value,
}

pub async fn dy(State(st): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let sig = headers
        .get("x-douyin-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    match uc::dy(&st.hub, sig, &body).await {
        Outcome::BadSignature => (StatusCode::FORBIDDEN, "bad signature").into_response(),
        Outcome::BadBody => (StatusCode::BAD_REQUEST, "bad body").into_response(),
        Outcome::Challenge(challenge) => axum::Json(Challenge { challenge }).into_response(),
        Outcome::Duplicate => (StatusCode::OK, "duplicate").into_response(),
        Outcome::Retry => (StatusCode::INTERNAL_SERVER_ERROR, "retry").into_response(),
        Outcome::Handled => (StatusCode::OK, "ok").into_response(),
    }
}
