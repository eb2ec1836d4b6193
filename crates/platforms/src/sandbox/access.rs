//! Who may use the sandbox's own controls (the index page, `/_control`, and the app's SMS outbox):
//! the holder of the sandbox token (printed at start, `CLIPMATRIX_SANDBOX_TOKEN`) or the operator;
//! a merchant reads about its own accounts only; nobody else. The simulated platforms themselves
//! (OAuth, consent and QR pages, uploads) stay open: they answer only to their own credentials.
//!
//! The token comes as the `x-sandbox-token` header, or once as `?sandbox_token=` on a page (it is
//! then kept in a same-site cookie for the pages and forms that follow, and for the app's sign-in
//! page, which links the SMS outbox only for a browser holding it).

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

pub const TOKEN_HEADER: &str = "x-sandbox-token";
const TOKEN_QUERY: &str = "sandbox_token";
const COOKIE: &str = "clipmatrix_sandbox";

/// The caller of a control route.
#[derive(Clone, Debug)]
pub enum Viewer {
    /// The sandbox token or the operator's session: everything.
    Operator,
    /// A signed-in merchant: reads about its own accounts ("<platform>:<open_id>") only.
    Tenant(Arc<HashSet<String>>),
    /// Signed in, but nothing here is theirs (staff).
    Refused,
    /// No token, no session.
    Anonymous,
}

impl Viewer {
    /// Whether the caller may see this account's works, messages and figures.
    pub fn sees(&self, platform: &str, open_id: &str) -> bool {
        match self {
            Viewer::Operator => true,
            Viewer::Tenant(mine) => mine.contains(&format!("{platform}:{open_id}")),
            Viewer::Refused | Viewer::Anonymous => false,
        }
    }
}

/// The app's answer to "who is this session?" (the standalone sandbox has none: token only).
pub type Identify =
    Arc<dyn Fn(HeaderMap) -> Pin<Box<dyn Future<Output = Viewer> + Send>> + Send + Sync>;

/// The sandbox token and the app's session check, shared by every gated route.
#[derive(Clone)]
pub struct Access {
    token: String,
    identify: Option<Identify>,
}

impl Access {
    pub fn new(token: &str, identify: Option<Identify>) -> Access {
        Access {
            token: token.to_string(),
            identify,
        }
    }

    /// The caller, and whether the token came in the query (the answer then sets the cookie).
    pub async fn viewer(&self, headers: &HeaderMap, query: Option<&str>) -> (Viewer, bool) {
        let from_query = query.and_then(|q| {
            serde_urlencoded::from_str::<Vec<(String, String)>>(q)
                .ok()?
                .into_iter()
                .find(|(k, _)| k == TOKEN_QUERY)
                .map(|(_, v)| v)
        });
        let given = headers
            .get(TOKEN_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
            .or_else(|| cookie(headers));
        if from_query.as_deref().is_some_and(|t| self.is_token(t)) {
            return (Viewer::Operator, true);
        }
        if given.as_deref().is_some_and(|t| self.is_token(t)) {
            return (Viewer::Operator, false);
        }
        match &self.identify {
            Some(f) => (f(headers.clone()).await, false),
            None => (Viewer::Anonymous, false),
        }
    }

    /// Compares digests, so the time taken says nothing about how much of a guess was right.
    fn is_token(&self, given: &str) -> bool {
        !self.token.is_empty()
            && Sha256::digest(given.as_bytes()) == Sha256::digest(self.token.as_bytes())
    }
}

fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
}

/// Reads a merchant may make (filtered to its own accounts by the handler); everything else at
/// `/_control` changes the sandbox for every tenant and is the operator's.
fn tenant_may(method: &axum::http::Method, path: &str) -> bool {
    method == axum::http::Method::GET
        && matches!(
            path,
            "/" | ""
                | "/_control/counts"
                | "/_control/messages"
                | "/_control/replies"
                | "/_control/followers"
                | "/_control/comments_page"
                | "/_control/clock"
        )
}

/// Middleware of the gated routes: 401 without a token or session, 403 for a merchant outside
/// its reads and for staff; the viewer goes to the handler as an extension.
pub async fn gate(State(a): State<Arc<Access>>, req: Request, next: Next) -> Response {
    let (viewer, set_cookie) = a.viewer(req.headers(), req.uri().query()).await;
    let allowed = match &viewer {
        Viewer::Operator => Ok(()),
        Viewer::Tenant(_) if tenant_may(req.method(), req.uri().path()) => Ok(()),
        Viewer::Anonymous => Err(StatusCode::UNAUTHORIZED),
        Viewer::Tenant(_) | Viewer::Refused => Err(StatusCode::FORBIDDEN),
    };
    run(req, next, viewer, set_cookie, allowed, &a.token).await
}

/// The same for routes only the operator (or the token) may use, whatever the method.
pub async fn operator_only(State(a): State<Arc<Access>>, req: Request, next: Next) -> Response {
    let (viewer, set_cookie) = a.viewer(req.headers(), req.uri().query()).await;
    let allowed = match &viewer {
        Viewer::Operator => Ok(()),
        Viewer::Anonymous => Err(StatusCode::UNAUTHORIZED),
        _ => Err(StatusCode::FORBIDDEN),
    };
    run(req, next, viewer, set_cookie, allowed, &a.token).await
}

async fn run(
    mut req: Request,
    next: Next,
    viewer: Viewer,
    set_cookie: bool,
    allowed: Result<(), StatusCode>,
    token: &str,
) -> Response {
    if let Err(status) = allowed {
        return refuse(status, req.headers());
    }
    req.extensions_mut().insert(viewer);
    let mut res = next.run(req).await;
    if set_cookie
        && let Ok(v) = HeaderValue::from_str(&format!(
            "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict"
        ))
    {
        res.headers_mut().append(header::SET_COOKIE, v);
    }
    res
}

const REFUSED_ZH: &str =
    "沙箱的控制接口只对运营者开放：请以运营者身份登录，或带上启动时打印的沙箱令牌";
const REFUSED_EN: &str = "The sandbox's controls are the operator's: sign in as the operator, or give the sandbox token printed at start";

fn refuse(status: StatusCode, headers: &HeaderMap) -> Response {
    let html = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"));
    if html {
        let body = format!(
            "<p>{REFUSED_ZH}（<code>?{TOKEN_QUERY}=…</code>）。<br>{REFUSED_EN} (<code>?{TOKEN_QUERY}=…</code>).</p>"
        );
        return (
            status,
            Html(super::pages::page("需要授权 / Not allowed", &body)),
        )
            .into_response();
    }
    (
        status,
        axum::Json(serde_json::json!({
            "error": if status == StatusCode::UNAUTHORIZED { "sandbox_token_required" } else { "sandbox_operator_only" },
            "message_zh": REFUSED_ZH,
            "message_en": REFUSED_EN,
        })),
    )
        .into_response()
}

/// The sandbox's app secret for an install (DY/KS client secret, BJH app_token): derived from its
/// token, so it is never a constant anyone could sign webhooks or call an account with, and a
/// standalone sandbox given the same token (`CLIPMATRIX_SANDBOX_TOKEN`) agrees with the servers using it.
pub fn app_secret(token: &str, p: crate::Platform) -> String {
    derived(p.code(), token)
}

/// The AppSecret of the sandbox's WeChat official account, derived like [`app_secret`].
pub fn wechat_secret(token: &str) -> String {
    derived("wx", token)
}

/// The server Token of the sandbox's official account (its "服务器配置": WeChat allows 3–32 letters
/// and digits), with which it signs what it pushes to the account's server URL.
pub fn wechat_server_token(token: &str) -> String {
    derived("wxtoken", token)
        .rsplit('_')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The API key of the sandbox's imitation of the data vendor TikHub (`/sandbox/tikhub`), derived
/// like [`app_secret`].
pub fn vendor_key(token: &str) -> String {
    derived("tikhub", token)
}

/// The secret of the sandbox's SMS gateways' key pair, derived like [`app_secret`].
pub fn sms_secret(token: &str) -> String {
    derived("sms", token)
}

/// The AccessKey secret of the sandbox's NLS key pair, derived like [`app_secret`].
pub fn nls_secret(token: &str) -> String {
    derived("nls", token)
}

fn derived(kind: &str, token: &str) -> String {
    let d = Sha256::digest(format!("clipmatrix-sandbox-app:{kind}:{token}").as_bytes());
    format!("sbx_{kind}_{}", hex::encode(&d[..16]))
}

/// A fresh sandbox token.
pub fn new_token() -> String {
    hex::encode(rand::random::<[u8; 24]>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn token_header_query_and_cookie() {
        let a = Access::new("t0k", None);
        let mut h = HeaderMap::new();
        assert!(matches!(a.viewer(&h, None).await.0, Viewer::Anonymous));
        assert!(matches!(
            a.viewer(&h, Some("sandbox_token=t0k")).await,
            (Viewer::Operator, true)
        ));
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=b; clipmatrix_sandbox=t0k"),
        );
        assert!(matches!(
            a.viewer(&h, None).await,
            (Viewer::Operator, false)
        ));
        let mut h = HeaderMap::new();
        h.insert(TOKEN_HEADER, HeaderValue::from_static("wrong"));
        assert!(matches!(a.viewer(&h, None).await.0, Viewer::Anonymous));
        // No token configured: nothing matches, not even an empty one.
        let none = Access::new("", None);
        assert!(matches!(
            none.viewer(&HeaderMap::new(), Some("sandbox_token="))
                .await
                .0,
            Viewer::Anonymous
        ));
        assert_ne!(
            app_secret("a", crate::Platform::Dy),
            app_secret("b", crate::Platform::Dy)
        );
        assert_ne!(wechat_secret("a"), wechat_secret("b"));
    }
}
