//! Serving stored media to the browser. `<video>` and `<img>` cannot send the bearer token, so every
//! URL the API hands out is signed (HMAC of id, variant and expiry with the server key): only a caller
//! who could read the row got the URL. Served with HTTP Range, so the player can seek.

use crate::state::AppState;
use axum::extract::{Path, Query, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;
use store::materials::MediaFile;
use tower::ServiceExt;

const VARIANTS: &[&str] = &[
    "original",
    "mezzanine",
    "poster",
    "strip",
    "system",
    "clip",
    "cover",
];
/// Links live a day; rounded to the hour so a page's URLs stay stable (and cacheable) for a while.
const TTL_MS: i64 = 24 * 3_600_000;

fn sign(st: &AppState, id: i64, variant: &str, exp: i64) -> String {
    sign_with(&st.jwt_key, id, variant, exp)
}

fn sign_with(key: &[u8], id: i64, variant: &str, exp: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("any key length works for HMAC");
    mac.update(format!("media:{id}:{variant}:{exp}").as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn url(st: &AppState, id: i64, variant: &str) -> String {
    url_with(&st.jwt_key, id, variant)
}

/// `url` for code that holds the key but not the state (the publisher).
pub fn url_with(key: &[u8], id: i64, variant: &str) -> String {
    let exp = (domain::now_ms() / 3_600_000 + 1) * 3_600_000 + TTL_MS;
    format!(
        "/files/{id}/{variant}?e={exp}&s={}",
        sign_with(key, id, variant, exp)
    )
}

/// A link that does not expire, for images people set as their avatar (the row is still checked to
/// belong to the caller before such a link is made).
pub fn permanent_url(st: &AppState, id: i64, variant: &str) -> String {
    let exp = 4_102_444_800_000; // 2100-01-01
    format!(
        "/files/{id}/{variant}?e={exp}&s={}",
        sign(st, id, variant, exp)
    )
}

/// The material id of one of our file URLs (`/files/<id>/...`).
pub fn id_of(url: &str) -> Option<i64> {
    url.split('?')
        .next()?
        .strip_prefix("/files/")?
        .split('/')
        .next()?
        .parse()
        .ok()
}

/// The JSON a library list shows for one file: its fields plus signed URLs of what exists.
pub fn view(st: &AppState, m: &MediaFile) -> serde_json::Value {
    let mut v = serde_json::to_value(m).unwrap_or_default();
    let src = url(st, m.id, "original");
    v["src"] = src.clone().into();
    v["fileName"] = m.original_name.clone().into();
    v["poster"] = if !m.poster_key.is_empty() {
        url(st, m.id, "poster").into()
    } else if m.kind == "image" {
        src.into()
    } else {
        serde_json::Value::Null
    };
    v["strip"] = if m.strip_key.is_empty() {
        serde_json::Value::Null
    } else {
        url(st, m.id, "strip").into()
    };
    v["mezzanine"] = if m.mezzanine_key.is_empty() {
        serde_json::Value::Null
    } else {
        url(st, m.id, "mezzanine").into()
    };
    v
}

#[derive(Deserialize)]
pub struct Sig {
    #[serde(default)]
    e: i64,
    #[serde(default)]
    s: String,
}

pub async fn serve(
    State(st): State<AppState>,
    Path((id, variant)): Path<(i64, String)>,
    Query(q): Query<Sig>,
    req: Request,
) -> Response {
    if !VARIANTS.contains(&variant.as_str()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let expected = sign(&st, id, &variant, q.e);
    // Constant-time comparison of the signature.
    let same = expected.len() == q.s.len()
        && expected
            .bytes()
            .zip(q.s.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !same {
        return StatusCode::FORBIDDEN.into_response();
    }
    if q.e < domain::now_ms() {
        return (StatusCode::GONE, "link expired").into_response();
    }
    if variant == "clip" || variant == "cover" {
        let v = match store::clip::variant_any(&st.db, id).await {
            Ok(Some(v)) => v,
            Ok(None) => return StatusCode::NOT_FOUND.into_response(),
            Err(e) => return crate::error::ApiError::from(e).into_response(),
        };
        return if variant == "clip" {
            send(&st, &v.video_key, "video/mp4", req).await
        } else {
            send(&st, &v.cover_key, "image/jpeg", req).await
        };
    }
    if variant == "system" {
        let key = match store::materials::system_music_one(&st.db, id).await {
            Ok(Some(m)) => (m.storage_key, m.mime),
            Ok(None) => return StatusCode::NOT_FOUND.into_response(),
            Err(e) => return crate::error::ApiError::from(e).into_response(),
        };
        return send(&st, &key.0, &key.1, req).await;
    }
    let m = match store::materials::get_any(&st.db, id).await {
        Ok(Some(m)) => m,
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(e) => return crate::error::ApiError::from(e).into_response(),
    };
    let (key, mime) = match variant.as_str() {
        "original" => (m.storage_key.clone(), m.mime.clone()),
        "mezzanine" => (m.mezzanine_key.clone(), "video/mp4".to_string()),
        _ => (
            if variant == "poster" {
                m.poster_key.clone()
            } else {
                m.strip_key.clone()
            },
            "image/jpeg".to_string(),
        ),
    };
    send(&st, &key, &mime, req).await
}

async fn send(st: &AppState, key: &str, mime: &str, req: Request) -> Response {
    let Ok(path) = st.storage.path(key) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let svc = tower_http::services::ServeFile::new_with_mime(
        path,
        &mime
            .parse()
            .unwrap_or(mime_guess::mime::APPLICATION_OCTET_STREAM),
    );
    match svc.oneshot(req).await {
        Ok(mut res) => {
            res.headers_mut().insert(
                axum::http::header::CACHE_CONTROL,
                axum::http::HeaderValue::from_static("private, max-age=3600"),
            );
            res.into_response()
        }
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}
