//! /visualIframe: `POST /index/getVideoLibraryIframeToken` gives a signed, short-lived token; the
//! console frames `/embed/video_library?token=…`, a server-rendered, read-only page of the merchant's
//! finished videos (newest first), which this site alone may frame (web::security_headers).

use crate::areas::materials::files;
use crate::areas::nfc::public::esc;
use crate::error::{Answer, Reply, reply};
use crate::extract::Caller;
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
    let t = |zh: &'static str, e: &'static str| if en { e } else { zh };
    let Some(mid) = uc::merchant_of(&st.jwt_key, &q.token, now_ms()) else {
        return (
            StatusCode::FORBIDDEN,
            Html(format!(
                "<!doctype html><meta charset=utf-8><p>{}</p>",
                t(
                    "链接已失效，请刷新页面",
                    "This link has expired; reload the page"
                )
            )),
        )
            .into_response();
    };
    let rows = match uc::videos(&st.db, mid, MAX_VIDEOS).await {
        Ok(rows) => rows,
        Err(e) => return e.into_response(),
    };
    let names = services::clip::library::names(&st.db, &rows).await.ok();
    let mut cards = String::new();
    for v in &rows {
        let name = names
            .as_ref()
            .and_then(|n| n.projects.get(&v.project_id).cloned().flatten())
            .unwrap_or_default();
        let poster = if v.cover_key.is_empty() {
            String::new()
        } else {
            format!(" poster=\"{}\"", esc(&files::url(&st, v.id, "cover")))
        };
        cards.push_str(&format!(
            "<figure data-id=\"{id}\"><video controls preload=\"none\" src=\"{src}\"{poster}></video>\
             <figcaption>{name} #{id} · {secs:.1}s{used}</figcaption></figure>",
            id = v.id,
            src = esc(&files::url(&st, v.id, "clip")),
            name = esc(&name),
            secs = v.duration_ms as f64 / 1000.0,
            used = if v.used > 0 { t(" · 已使用", " · used") } else { "" },
        ));
    }
    if rows.is_empty() {
        cards = format!(
            "<p class=empty>{}</p>",
            t("还没有成片", "No finished videos yet")
        );
    }
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{title}</title>\
         <style>body{{font:14px system-ui,sans-serif;margin:12px;background:#f5f5f5}}\
         main{{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:12px}}\
         figure{{margin:0;background:#fff;border-radius:8px;padding:8px}}\
         video{{width:100%;aspect-ratio:9/16;background:#000;border-radius:4px}}\
         figcaption{{color:#555;margin-top:6px;word-break:break-all}}.empty{{color:#888}}</style></head>\
         <body><main data-count=\"{n}\">{cards}</main></body></html>",
        lang = if en { "en" } else { "zh-CN" },
        title = t("成片库", "Finished videos"),
        n = rows.len(),
    );
    let mut r = Html(html).into_response();
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}
