//! The middleware every API call passes through, in one place: request id and logging, authentication,
//! the permission check of `domain::permission::access_for`, VIP-only menus, the operation log of every
//! mutating call, and rendering errors in the caller's language.

use crate::error::{ApiError, HttpError, PendingError};
use crate::extract::{Caller, RequestId};
use crate::session;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use domain::i18n::{Lang, Msg};
use domain::permission::{Access, access_for, granted, is_mutating};
use tracing::Instrument;

/// Outermost layer: a request id for every request (kept from `x-request-id` when the client sent one),
/// a tracing span carrying it, and one log line per request.
pub async fn request_context(mut req: Request, next: Next) -> Response {
    let id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| {
            !v.is_empty()
                && v.len() <= 64
                && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        .map(str::to_string)
        .unwrap_or_else(|| store::random_token(12));
    req.extensions_mut().insert(RequestId(id.clone()));
    let span = tracing::info_span!("request", request_id = %id, method = %req.method(), path = %req.uri().path());
    let started = std::time::Instant::now();
    let mut res = next.run(req).instrument(span.clone()).await;
    span.in_scope(|| {
        tracing::info!(
            status = res.status().as_u16(),
            ms = started.elapsed().as_millis() as u64,
            "handled"
        )
    });
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert("x-request-id", v);
    }
    res
}

/// Who a log line is about when there is no signed-in caller (sign-in, registration).
#[derive(Debug, Clone)]
pub struct LogSubject {
    pub merchant_id: Option<i64>,
    pub user_id: Option<i64>,
    pub username: String,
}

/// The longest request target (path and query, bytes) the API takes: far above any console filter.
pub const URI_MAX: usize = 16 * 1024;

pub async fn guard(State(st): State<AppState>, mut req: Request, next: Next) -> Response {
    let lang = Lang::from_header(
        req.headers()
            .get("accept-language")
            .and_then(|v| v.to_str().ok()),
    );
    let rid = req
        .extensions()
        .get::<RequestId>()
        .map(|r| r.0.clone())
        .unwrap_or_default();
    let path = req.uri().path().to_string();
    let method = req.method().as_str().to_string();
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    let ip = crate::client::client_ip(req.headers(), peer, &st.settings.trusted_proxies);
    req.extensions_mut()
        .insert(crate::client::ClientIp(ip.clone()));
    let access = access_for(&path);
    // A GET whose query grows without bound (a list's filterObj) is refused here with the envelope;
    // hyper itself answers a bare 414 only past 64 KB.
    if req.uri().path_and_query().map_or(0, |p| p.as_str().len()) > URI_MAX {
        let res = HttpError(ApiError::UriTooLong(URI_MAX)).into_response();
        return localize(res, lang, &rid).await;
    }

    let caller = match session::token_of(req.headers()) {
        None => Ok(None),
        Some(t) => session::caller_of(&st, &t).await.map(Some),
    };
    let outcome = match (&access, caller) {
        // A public call ignores a stale token rather than failing.
        (Access::Public, c) => Ok(c.ok().flatten()),
        (_, Err(e)) => Err(e),
        (_, Ok(None)) => Err(ApiError::Unauthorized(Msg::TokenMissing)),
        (_, Ok(Some(c))) => match authorize(&st, &access, &c).await {
            Ok(()) => token_checks(&st, &c, &method, &path).map(|_| Some(c)),
            Err(e) => Err(e),
        },
    };
    let (res, caller) = match outcome {
        Ok(c) => {
            if let Some(c) = &c {
                req.extensions_mut().insert(c.clone());
            }
            (next.run(req).await, c)
        }
        Err(e) => (HttpError(e).into_response(), None),
    };
    let res = localize(res, lang, &rid).await;
    if is_mutating(&method, &path) {
        let log = log_entry(caller.as_ref(), &res, &method, &path, ip, rid);
        if let Err(e) = store::system::oplog::write(&st.db, &log).await {
            tracing::error!(error = %e, "could not write the operation log");
        }
    }
    res
}

async fn authorize(st: &AppState, access: &Access, c: &Caller) -> Result<(), ApiError> {
    match access {
        Access::Public | Access::SignedIn => Ok(()),
        Access::Operator if c.roles.iter().any(|r| r == "Administrator") => Ok(()),
        Access::Operator => Err(ApiError::forbidden(Msg::AdminOnly)),
        Access::Permission(p) => {
            if !granted(&c.grants, p) {
                return Err(ApiError::Forbidden(
                    Msg::Forbidden,
                    vec![("perm", p.clone())],
                ));
            }
            let vip_needed = st
                .menus
                .read()
                .await
                .iter()
                .any(|m| m.vip == 1 && granted(&m.grants(), p));
            if vip_needed && !c.roles.iter().any(|r| r == "vip" || r == "Administrator") {
                return Err(ApiError::forbidden(Msg::VipOnly));
            }
            Ok(())
        }
    }
}

/// A call with a personal API token: its scopes must open the call (`domain::permission::token_allows`;
/// its owner's permission was checked like a session's), and it spends one of the token's own budget
/// (`services::limits`, per token).
fn token_checks(st: &AppState, c: &Caller, method: &str, path: &str) -> Result<(), ApiError> {
    let Some(t) = &c.token else {
        return Ok(());
    };
    if !domain::permission::token_allows(&t.scopes, method, path) {
        let scopes: Vec<&str> = t.scopes.iter().map(|s| s.as_str()).collect();
        return Err(ApiError::Forbidden(
            Msg::ApiTokenScope,
            vec![("scopes", scopes.join(", "))],
        ));
    }
    st.token_limits
        .take_own(&format!("token:{}", t.id))
        .map_err(|r| {
            ApiError::TooMany(
                Msg::ApiTokenRate,
                vec![("seconds", ((r.wait_ms + 999) / 1000).max(1).to_string())],
            )
        })
}

/// Renders a pending error in the caller's language.
async fn localize(mut res: Response, lang: Lang, rid: &str) -> Response {
    let Some(p) = res.extensions_mut().remove::<PendingError>() else {
        return envelope_rejection(res).await;
    };
    let body = p.render(lang, rid);
    let mut out = (p.status, axum::Json(body)).into_response();
    out.extensions_mut().insert(p);
    if let Some(s) = res.extensions().get::<LogSubject>().cloned() {
        out.extensions_mut().insert(s);
    }
    out
}

fn log_entry(
    c: Option<&Caller>,
    res: &Response,
    method: &str,
    path: &str,
    ip: String,
    rid: String,
) -> store::system::oplog::NewLog {
    let pending = res.extensions().get::<PendingError>();
    let subject = res.extensions().get::<LogSubject>();
    let (merchant_id, user_id, username) = match (c, subject) {
        (Some(c), _) => (
            c.user.merchant_id,
            Some(c.user.id),
            match (&c.proxy_user, &c.token) {
                (Some(p), _) => format!("{p} -> {}", c.user.username),
                // A token's calls name the token beside its owner.
                (None, Some(t)) => format!("{} [token: {}]", c.user.username, t.name),
                (None, None) => c.user.username.clone(),
            },
        ),
        (None, Some(s)) => (s.merchant_id, s.user_id, s.username.clone()),
        (None, None) => (None, None, String::new()),
    };
    let failed = pending.is_some() || !res.status().is_success();
    // The key and arguments are rendered in the reader's language; the Chinese text is kept for the
    // log's text filter.
    let message = pending
        .map(|p| p.message(Lang::Zh, &rid))
        .unwrap_or_default();
    store::system::oplog::NewLog {
        merchant_id,
        user_id,
        username,
        method: method.to_string(),
        path: path.to_string(),
        action: domain::permission::of_path(path),
        result: if failed { "failed" } else { "success" },
        status: pending
            .map(|p| p.body_code as i64)
            .unwrap_or(res.status().as_u16() as i64),
        message,
        message_code: pending.map(|p| p.msg.key().to_string()).unwrap_or_default(),
        message_args: pending.map(|p| p.stored_args()).unwrap_or_default(),
        ip,
        request_id: rid,
    }
}

/// Extractor rejections (a malformed multipart body, a bad query string, a body over the size limit)
/// come from axum as plain text; the console expects the envelope, so they are wrapped in it.
async fn envelope_rejection(res: Response) -> Response {
    let status = res.status();
    let is_json = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !status.is_client_error() || is_json {
        return res;
    }
    let (parts, body) = res.into_parts();
    let text = axum::body::to_bytes(body, 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).to_string())
        .unwrap_or_default();
    let body =
        serde_json::json!({ "code": parts.status.as_u16(), "message": text.trim(), "data": null });
    let mut out = (parts.status, axum::Json(body)).into_response();
    *out.extensions_mut() = parts.extensions;
    out
}
