//! /visualIframe: `POST /index/getVideoLibraryIframeToken` gives a signed, short-lived token; the
//! console frames `/embed/video_library?token=…`, a server-rendered, read-only page of the merchant's
//! finished videos (newest first), which this site alone may frame (web::security_headers).

use crate::error::{Answer, HttpError, Reply, reply};
use crate::extract::Caller;
use crate::files;
use crate::pages::video_library;
use crate::state::AppState;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use domain::now_ms;
use serde::{Deserialize, Serialize};
use services::content::embed as uc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(iframe_token))
}

/// The public page (outside `/api`).
pub fn page_routes() -> axum::Router<AppState> {
    axum::Router::new().route("/embed/video_library", axum::routing::get(page))
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = IframeToken)]
pub struct IframeToken {
    pub token: String,
    /// The page to frame (a path of this site).
    pub url: String,
    /// Unix ms; ask for a new token before then.
    pub expires_at: i64,
}

#[utoipa::path(method(get, post), path = "/index/getVideoLibraryIframeToken", tag = "content", responses((status = 200, body = Reply<IframeToken>, description = "a token opening the read-only video-library page for two hours")))]
pub async fn iframe_token(State(st): State<AppState>, c: Caller) -> Answer<IframeToken> {
    let mid = c.merchant_id()?;
    let (token, expires_at) = uc::token(&st.jwt_key, mid, now_ms());
    Ok(reply(IframeToken {
        url: format!("/embed/video_library?token={token}"),
        token,
        expires_at,
    }))
}

#[derive(Deserialize)]
pub struct PageQuery {
    #[serde(default)]
    token: String,
    #[serde(default)]
    lang: String,
}

/// Videos shown on the page at most.
const MAX_VIDEOS: i64 = 60;

async fn page(State(st): State<AppState>, Query(q): Query<PageQuery>) -> Response {
    let en = q.lang.starts_with("en");
    let Some(mid) = uc::merchant_of(&st.jwt_key, &q.token, now_ms()) else {
        return (StatusCode::FORBIDDEN, Html(video_library::expired(en))).into_response();
    };
    let rows = match uc::videos(&st.db, mid, MAX_VIDEOS).await {
        Ok(rows) => rows,
        Err(e) => return HttpError(e).into_response(),
    };
    let names = services::clip::library::names(&st.db, &rows).await.ok();
    let cards: Vec<video_library::Card> = rows
        .iter()
        .map(|v| video_library::Card {
            id: v.id,
            src: files::url(&st, v.id, "clip"),
            poster: (!v.cover_key.is_empty()).then(|| files::url(&st, v.id, "cover")),
            project: names
                .as_ref()
                .and_then(|n| n.projects.get(&v.project_id).cloned().flatten())
                .unwrap_or_default(),
            duration_ms: v.duration_ms,
            used: v.used > 0,
        })
        .collect();
    let html = video_library::page(en, &cards);
    let mut r = Html(html).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}
