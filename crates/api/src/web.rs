//! Everything outside `/api`: health, the built console (embedded; SPA fallback to index.html), Swagger UI
//! served offline from the console's bundled copy, and the sandbox's SMS outbox.

use crate::state::AppState;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct Console;

/// The console, the API and `/files`: browsers must not guess a type other than the one we send (an
/// uploaded file is never run as a page), and no other site may frame us (clickjacking). The sandbox
/// stands in for the platforms' own consent and QR pages and keeps its headers as they were.
pub async fn security_headers(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let sandbox = req.uri().path().starts_with("/sandbox");
    // The console's own /visualIframe frames the video-library page: this site only.
    let embed = req.uri().path().starts_with("/embed/");
    let mut res = next.run(req).await;
    if !sandbox {
        let h = res.headers_mut();
        h.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        let (xfo, csp) = if embed {
            ("SAMEORIGIN", "frame-ancestors 'self'")
        } else {
            ("DENY", "frame-ancestors 'none'")
        };
        h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static(xfo));
        h.entry(header::CONTENT_SECURITY_POLICY)
            .or_insert(HeaderValue::from_static(csp));
    }
    res
}

/// What `/healthz` answers: `ok` with the version, or why not.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Health {
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<&'static str>,
}

pub async fn healthz(State(st): State<AppState>) -> Response {
    match st.db.ping().await {
        Ok(_) => axum::Json(Health {
            status: "ok",
            version: Some(domain::APP_VERSION),
        })
        .into_response(),
        Err(e) => {
            tracing::error!(error = %e, "health check: database unreachable");
            let body = Health {
                status: "database unreachable",
                version: None,
            };
            (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response()
        }
    }
}

pub const DOCS_HTML: &str = r#"<!doctype html>
<html><head><meta charset="utf-8"><title>clipmatrix API</title>
<link rel="stylesheet" href="/swagger/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/swagger/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui' });</script>
</body></html>"#;

fn file(path: &str, st: &AppState) -> Option<(Vec<u8>, String)> {
    if path.split('/').any(|s| s == "..") {
        return None;
    }
    if let Some(dir) = &st.settings.web_dir {
        let p = dir.join(path);
        return std::fs::read(&p).ok().map(|b| {
            (
                b,
                mime_guess::from_path(&p)
                    .first_or_octet_stream()
                    .to_string(),
            )
        });
    }
    Console::get(path).map(|f| {
        (
            f.data.into_owned(),
            mime_guess::from_path(path)
                .first_or_octet_stream()
                .to_string(),
        )
    })
}

/// Serves a console file, or index.html for client-side routes.
pub async fn console(State(st): State<AppState>, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") || path.starts_with("sandbox/") {
        return StatusCode::NOT_FOUND.into_response();
    }
    if let Some((body, mime)) = (!path.is_empty()).then(|| file(path, &st)).flatten() {
        let mut res = (StatusCode::OK, body).into_response();
        res.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_str(&mime)
                .unwrap_or(HeaderValue::from_static("application/octet-stream")),
        );
        // Vite puts a content hash in every file under assets/, so they never change.
        let cache = if path.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        return res;
    }
    match file("index.html", &st) {
        Some((body, _)) => {
            let mut res = Html(body).into_response();
            res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            res
        }
        None => (
            StatusCode::NOT_FOUND,
            Html("<h1>clipmatrix</h1><p>The console is not built: run <code>make run</code> (or <code>npm --prefix web run build</code>).</p>"),
        )
            .into_response(),
    }
}

/// `/sandbox/sms`: the SMS codes the built-in sender "sent", for testers (sandbox mode only).
pub async fn sms_outbox(State(st): State<AppState>) -> Response {
    let rows = match store::auth::users::sms_outbox(&st.db, 50).await {
        Ok(r) => r,
        Err(e) => return crate::error::HttpError::from(e).into_response(),
    };
    let mut html = String::from(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Sandbox SMS outbox</title>\
         <style>body{font-family:sans-serif;margin:2em}td,th{padding:4px 12px;border-bottom:1px solid #ddd}</style></head>\
         <body><h1>短信发件箱 / SMS outbox (sandbox)</h1><table><tr><th>mobile</th><th>scene</th><th>code</th><th>sent (unix ms)</th></tr>",
    );
    for r in &rows {
        html.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td data-testid=\"sms-code\"><b>{}</b></td><td>{}</td></tr>",
            esc(&r.mobile),
            esc(&r.scene),
            esc(&r.code),
            r.created_at
        ));
    }
    html.push_str("</table></body></html>");
    Html(html).into_response()
}

pub async fn sms_outbox_json(State(st): State<AppState>) -> Response {
    match store::auth::users::sms_outbox(&st.db, 50).await {
        Ok(rows) => axum::Json(rows).into_response(),
        Err(e) => crate::error::HttpError::from(e).into_response(),
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The service agreement and privacy policy the sign-in page links to (both languages on one page).
pub async fn agreement(axum::extract::Path(kind): axum::extract::Path<String>) -> Response {
    let (title, body) = match kind.as_str() {
        "service" => (
            "服务协议 / Service Agreement",
            "<p>clipmatrix 为商户及其员工提供短视频剪辑、素材管理、多平台账号授权与发布、评论私信管理等服务。\
             商户对其上传的素材及发布的内容负责，须遵守各平台规则及法律法规；点数用于合成、配音等任务，失败的任务自动退还。</p>\
             <p>clipmatrix provides merchants and their staff with short-video editing, material libraries, multi-platform \
             account authorization and publishing, and comment and message management. Merchants are responsible for the \
             material they upload and the content they publish, and must follow each platform's rules and the law; points \
             pay for jobs such as synthesis and voice-over, and a failed job's points are refunded automatically.</p>",
        ),
        "privacy" => (
            "隐私协议 / Privacy Policy",
            "<p>我们仅为提供服务而处理您的账号信息（用户名、手机号）、操作日志及您上传的素材；密码以 argon2id 单向加密保存；\
             各商户的数据相互隔离，员工只能访问被授权的菜单。</p>\
             <p>We process your account details (username, mobile number), the operation log and the material you upload only \
             to provide the service; passwords are stored as one-way argon2id hashes; each merchant's data is kept apart from \
             every other merchant's, and staff reach only the menus they were granted.</p>",
        ),
        _ => return StatusCode::NOT_FOUND.into_response(),
    };
    Html(format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title>\
         <style>body{{font-family:sans-serif;max-width:760px;margin:3em auto;line-height:1.7;padding:0 1em}}</style></head>\
         <body><h1>{title}</h1>{body}<p><a href=\"/login\">← 返回登录 / Back to sign-in</a></p></body></html>"
    ))
    .into_response()
}
