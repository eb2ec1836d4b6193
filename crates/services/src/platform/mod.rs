//! The platform gateway (the hub) for every area that calls a platform (matrix, engagement, seo,
//! content, nfc): which adapter, at which base URL, with which app credentials, for a platform;
//! token sealing; token refresh shared by calls and jobs; the creator-console accounts' browser
//! logins shared by every node (`profiles`).

pub mod profiles;

use crate::error::{ApiError, ApiResult};
use domain::i18n::Msg;
use domain::matrix::AppMode;
use platforms::{AppCreds, Creds, Endpoint, ErrorKind, Platform, PlatformError, TokenSet};
use std::sync::Arc;
use store::Db;
use store::matrix::{self as db, Account};
use store::secrets::Sealer;

/// The real hosts. `CLIPMATRIX_LIVE_BASE_<CODE>` (e.g. `CLIPMATRIX_LIVE_BASE_DY`) points a
/// platform's live calls elsewhere: a forward proxy, a staging host, or in the tests another server's
/// sandbox standing in for the real platform.
pub fn live_base(code: &str, real: &str) -> String {
    std::env::var(format!(
        "CLIPMATRIX_LIVE_BASE_{}",
        code.to_ascii_uppercase()
    ))
    .ok()
    .filter(|v| !v.trim().is_empty())
    .unwrap_or_else(|| real.to_string())
}

/// The real open-platform hosts (the other platforms are creator consoles: `browser_adapter`).
fn open_platform_base(p: Platform) -> Option<&'static str> {
    match p {
        Platform::Dy => Some("https://open.douyin.com"),
        Platform::Ks => Some("https://open.kuaishou.com"),
        Platform::Bjh => Some("https://baijiahao.baidu.com"),
        _ => None,
    }
}

/// The settings key of a platform's (or an outside service's) mode: `live`, `sandbox` or `off`;
/// absent: the default (`Hub::default_mode`).
pub const MODE_KEY_PREFIX: &str = "platforms.mode.";

pub fn mode_key(code: &str) -> String {
    format!("{MODE_KEY_PREFIX}{code}")
}

/// The outside services with a mode of their own beside the platforms: the merchants' WeChat
/// official accounts (new-lead notices).
pub const WECHAT: &str = "wechat";

/// The `{platform}` of a message, in both languages.
pub fn platform_args(code: &str) -> Vec<(&'static str, String)> {
    use domain::i18n::{Lang, platform_name};
    vec![
        ("platform.zh", platform_name(code, Lang::Zh)),
        ("platform.en", platform_name(code, Lang::En)),
    ]
}

/// A mode in a message's words (zh, en).
fn mode_words(m: AppMode) -> (&'static str, &'static str) {
    match m {
        AppMode::Live => ("真实平台", "the real platform"),
        AppMode::Sandbox => ("沙箱", "the sandbox"),
        AppMode::Off => ("关闭", "nothing (off)"),
    }
}

#[derive(Clone)]
pub struct Hub {
    pub db: Db,
    pub sealer: Sealer,
    /// Adapters point at the sandbox (in-process `/sandbox`, or `platform_base`) unless the operator
    /// configured live credentials.
    pub sandbox: bool,
    /// e.g. `http://127.0.0.1:8080/sandbox`.
    pub sandbox_base: String,
    /// The sandbox's token, from which its app secrets derive.
    pub sandbox_token: String,
    /// Our own public URL (OAuth redirect, signed media URLs the platform fetches).
    pub public_url: String,
    pub storage: media::Storage,
    /// Per-call timeout of the adapters (0 = their default).
    pub timeout_ms: u64,
    /// Signs a media URL path (`/files/<id>/<variant>?e=..&s=..`) for the platform to fetch.
    pub sign_url: Arc<dyn Fn(i64, &str) -> String + Send + Sync>,
    /// One adapter per platform and configuration: each holds an HTTP client with its connection
    /// pool and its own caches (DY's client token), which a fresh adapter per call would lose.
    pub adapters: Arc<std::sync::Mutex<AdapterCache>>,
    /// The browser driver of the creator-console flows (XHS, SPH, the shop; `platforms::browser`),
    /// one per process. None: not installed (or CLIPMATRIX_BROWSER_CONSOLES=off), and those
    /// platforms answer `Msg::BrowserMissing`.
    pub browser: Option<platforms::browser::Driver>,
}

/// Adapters by (platform, base URL, app key, app secret).
pub type AdapterCache =
    std::collections::HashMap<(Platform, String, String, String), Arc<dyn platforms::Adapter>>;

pub type HubRef = Arc<Hub>;

impl Hub {
    /// The mode a platform or service has when the operator set none: live once the operator saved
    /// its app credentials (`has_app`), else the deployment's default (`CLIPMATRIX_SANDBOX`).
    pub fn default_mode(&self, has_app: bool) -> AppMode {
        if has_app || !self.sandbox {
            AppMode::Live
        } else {
            AppMode::Sandbox
        }
    }

    /// The modes the operator set (code → mode), in one settings read.
    pub async fn set_modes(&self) -> ApiResult<Vec<(String, AppMode)>> {
        Ok(self
            .db
            .settings_with_prefix(MODE_KEY_PREFIX)
            .await?
            .into_iter()
            .filter_map(|(k, v)| {
                let code = k.strip_prefix(MODE_KEY_PREFIX)?.to_string();
                Some((code, AppMode::parse(&v)?))
            })
            .collect())
    }

    /// A platform's or service's mode, and whether the operator set it (else the default).
    pub async fn mode(&self, code: &str, has_app: bool) -> ApiResult<(AppMode, bool)> {
        let set = self
            .db
            .setting(&mode_key(code))
            .await?
            .as_deref()
            .and_then(AppMode::parse);
        Ok(match set {
            Some(m) => (m, true),
            None => (self.default_mode(has_app), false),
        })
    }

    /// Sets a platform's or service's mode (None: back to the default). The sandbox mode needs the
    /// sandbox running.
    pub async fn set_mode(&self, code: &str, mode: Option<AppMode>) -> ApiResult<()> {
        if mode == Some(AppMode::Sandbox) && !self.sandbox {
            return Err(ApiError::invalid_with(
                "mode",
                Msg::SandboxNotRunning,
                platform_args(code),
            ));
        }
        let v = mode.map(AppMode::as_str).unwrap_or_default();
        self.db.set_setting(&mode_key(code), v).await?;
        Ok(())
    }

    /// The operator's saved app credentials of a platform (the secret opened).
    async fn saved_app(&self, p: Platform) -> ApiResult<Option<AppCreds>> {
        let apps = db::apps(&self.db).await?;
        Ok(apps
            .iter()
            .find(|(k, _, _)| k == p.code())
            .and_then(|(_, key, sec)| {
                Some(AppCreds {
                    client_key: key.clone(),
                    client_secret: self.sealer.open(sec)?,
                })
            }))
    }

    /// The adapter for a platform by its mode (System → Platform apps), and whether it is the
    /// sandbox's: switched off, or live without what the real platform needs, is refused with the
    /// reason. Baijiahao needs no operator app: each account brings its own app id and token.
    pub async fn adapter(&self, p: Platform) -> ApiResult<(Arc<dyn platforms::Adapter>, bool)> {
        let app = self.saved_app(p).await?;
        let sandbox = match self.mode(p.code(), app.is_some()).await?.0 {
            AppMode::Off => {
                return Err(ApiError::invalid_with(
                    "platform",
                    Msg::PlatformOff,
                    platform_args(p.code()),
                ));
            }
            // A mode set while the sandbox ran, after a restart without it.
            AppMode::Sandbox if !self.sandbox => {
                return Err(ApiError::invalid_with(
                    "platform",
                    Msg::SandboxNotRunning,
                    platform_args(p.code()),
                ));
            }
            AppMode::Sandbox => true,
            AppMode::Live => false,
        };
        if p.auth_kind() == domain::platform::AuthKind::QrSession {
            // A creator console is driven in a browser, live or in the sandbox's imitation.
            return match self.browser_adapter(p, sandbox) {
                Some(ad) => Ok((ad, sandbox)),
                None => Err(ApiError::invalid_with(
                    "platform",
                    Msg::BrowserMissing,
                    platform_args(p.code()),
                )),
            };
        }
        let (base, app) = if sandbox {
            (
                format!("{}/{}", self.sandbox_base, p.code()),
                self.sandbox_app(p),
            )
        } else {
            // The console platforms went to the browser above: this is an open platform.
            let real = live_base(p.code(), open_platform_base(p).unwrap_or_default());
            match app {
                _ if p == Platform::Bjh => (real, AppCreds::default()),
                Some(app) => (real, app),
                None => {
                    return Err(ApiError::invalid_with(
                        "platform",
                        Msg::PlatformNotConfigured,
                        platform_args(p.code()),
                    ));
                }
            }
        };
        Ok((self.cached_adapter(p, base, app), sandbox))
    }

    /// The adapter of an account's platform, refused when the platform's mode is no longer the
    /// one the account was authorized in: a live account never talks to the sandbox (nor a
    /// sandbox account to the real platform).
    pub async fn adapter_for(&self, a: &Account) -> ApiResult<Arc<dyn platforms::Adapter>> {
        let (ad, sandbox) = self.adapter(a.platform).await?;
        if sandbox != (a.sandbox != 0) {
            let mode = |sandbox: bool| {
                mode_words(if sandbox {
                    AppMode::Sandbox
                } else {
                    AppMode::Live
                })
            };
            let (was, now) = (mode(a.sandbox != 0), mode(sandbox));
            let mut args = platform_args(a.platform.code());
            args.extend([
                ("name", a.nickname.clone()),
                ("mode.zh", was.0.into()),
                ("mode.en", was.1.into()),
                ("now.zh", now.0.into()),
                ("now.en", now.1.into()),
            ]);
            return Err(ApiError::invalid_with(
                "account",
                Msg::AccountModeMismatch,
                args,
            ));
        }
        Ok(ad)
    }

    /// The platforms whose due items wait instead of going out: switched off by the operator, or
    /// paused by a failed page check (`matrix::canary`) — one settings read, as the dispatcher asks
    /// every pass.
    pub async fn waiting_platforms(&self) -> ApiResult<Vec<&'static str>> {
        use domain::matrix::canary::{CanaryState, canary_key};
        let rows = self.db.settings_with_prefix("platforms.").await?;
        Ok(Platform::ALL
            .into_iter()
            .filter(|p| {
                let value = |key: String| rows.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
                let off = value(mode_key(p.code())).is_some_and(|v| v == AppMode::Off.as_str());
                let paused = value(canary_key(p.code()))
                    .and_then(|v| CanaryState::parse(Some(v)))
                    .is_some_and(|s| s.paused);
                off || paused
            })
            .map(Platform::code)
            .collect())
    }

    /// The adapter built for this configuration before, else a new one that replaces the
    /// platform's adapter of an older configuration (credentials changed).
    fn cached_adapter(
        &self,
        p: Platform,
        base: String,
        app: AppCreds,
    ) -> Arc<dyn platforms::Adapter> {
        let key = (
            p,
            base.clone(),
            app.client_key.clone(),
            app.client_secret.clone(),
        );
        let mut cache = self.adapters.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(ad) = cache.get(&key) {
            return ad.clone();
        }
        cache.retain(|k, _| k.0 != p);
        let ep = Endpoint {
            base_url: base,
            app,
            timeout_ms: self.timeout_ms,
            clock: self.db.clock.clone(),
        };
        let ad = platforms::adapter(p, ep).expect("an open platform");
        cache.insert(key, ad.clone());
        ad
    }

    /// The browser adapter of a platform a console flow drives (XHS, SPH, the shop): the sandbox's
    /// imitation of the console when the sandbox is on, else the real console. None without a
    /// browser driver.
    fn browser_adapter(&self, p: Platform, sandbox: bool) -> Option<Arc<dyn platforms::Adapter>> {
        use platforms::browser::{
            BrowserAdapter, Flow, ShopFlow, SphFlow, XhsFlow, sandbox_console_base, shop, sph, xhs,
        };
        let driver = self.browser.as_ref()?;
        let live = match p {
            Platform::Xhs => xhs::LIVE_BASE,
            Platform::Sph => sph::LIVE_BASE,
            Platform::Shop => shop::LIVE_BASE,
            _ => return None,
        };
        let base = if sandbox {
            sandbox_console_base(&self.sandbox_base, p)
        } else {
            live_base(p.code(), live)
        };
        let key = (p, base.clone(), "browser".to_string(), String::new());
        let mut cache = self.adapters.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(ad) = cache.get(&key) {
            return Some(ad.clone());
        }
        let clock = self.db.clock.clone();
        let flow: Arc<dyn Flow> = match p {
            Platform::Sph => Arc::new(SphFlow::new(base, clock.clone())),
            Platform::Shop => Arc::new(ShopFlow::new(base, clock.clone())),
            _ => Arc::new(XhsFlow::new(base, clock.clone())),
        };
        let profiles = Arc::new(profiles::DbProfiles {
            db: self.db.clone(),
            sealer: self.sealer.clone(),
        });
        let ad: Arc<dyn platforms::Adapter> =
            Arc::new(BrowserAdapter::new(flow, driver.clone(), clock).with_profiles(profiles));
        cache.insert(key, ad.clone());
        Some(ad)
    }

    /// The data vendor (TikHub, `platforms::vendor`) for what the open platforms do not offer
    /// (other accounts' public profiles and videos): live with the operator's API key
    /// (System → Platform apps, sealed like the app secrets), else the sandbox's imitation when the
    /// sandbox is on, else None (the figures have no source).
    pub async fn vendor(
        &self,
    ) -> ApiResult<Option<(platforms::vendor::TikHub, domain::seo::DataSource)>> {
        use domain::seo::DataSource;
        use platforms::vendor::{TIKHUB, TIKHUB_LIVE_BASE, TikHub};
        let apps = db::apps(&self.db).await?;
        let key = apps
            .iter()
            .find(|(k, _, _)| k == TIKHUB)
            .and_then(|(_, _, sec)| self.sealer.open(sec));
        let clock = self.db.clock.clone();
        Ok(match key {
            Some(key) => Some((
                TikHub::new(TIKHUB_LIVE_BASE, &key, self.timeout_ms, clock),
                DataSource::Tikhub,
            )),
            None if self.sandbox => Some((
                TikHub::new(
                    &format!("{}/tikhub", self.sandbox_base),
                    &platforms::sandbox::vendor_key(&self.sandbox_token),
                    self.timeout_ms,
                    clock,
                ),
                DataSource::Sandbox,
            )),
            None => None,
        })
    }

    /// The app secret webhooks are signed with, by the platform's mode (the saved one live, the
    /// sandbox's on the sandbox).
    pub async fn app_secret(&self, p: Platform) -> Option<String> {
        let app = self.saved_app(p).await.ok()?;
        match (self.mode(p.code(), app.is_some()).await.ok()?.0, app) {
            (AppMode::Live, Some(app)) => Some(app.client_secret),
            (AppMode::Sandbox, _) if self.sandbox => Some(self.sandbox_app(p).client_secret),
            _ => None,
        }
    }

    /// The sandbox's own app credentials (used when the operator configured none): the install's
    /// secrets, never constants.
    pub fn sandbox_app(&self, p: Platform) -> AppCreds {
        use platforms::sandbox::{SANDBOX_DY_KEY, SANDBOX_KS_KEY, app_secret};
        let key = match p {
            Platform::Dy => SANDBOX_DY_KEY,
            Platform::Ks => SANDBOX_KS_KEY,
            _ => return AppCreds::default(),
        };
        AppCreds {
            client_key: key.into(),
            client_secret: app_secret(&self.sandbox_token, p),
        }
    }

    pub fn creds(&self, a: &Account) -> Creds {
        Creds {
            open_id: a.open_id.clone(),
            token: self.sealer.open(&a.access_token).unwrap_or_default(),
            proxy: match a.proxy.as_str() {
                "" => String::new(),
                sealed => self.sealer.open(sealed).unwrap_or_default(),
            },
        }
    }

    pub fn tokens(&self, a: &Account) -> TokenSet {
        TokenSet {
            open_id: a.open_id.clone(),
            access_token: self.sealer.open(&a.access_token).unwrap_or_default(),
            refresh_token: self.sealer.open(&a.refresh_token).unwrap_or_default(),
            expires_at: a.token_expires_at,
            refresh_expires_at: a.auth_expires_at,
            nickname: a.nickname.clone(),
            avatar: a.avatar.clone(),
            scope: String::new(),
        }
    }

    /// Stores a freshly authorized account (tokens sealed) and returns its id.
    pub async fn save_authorized(
        &self,
        mid: i64,
        p: Platform,
        t: &TokenSet,
        group_id: i64,
        sandbox: bool,
    ) -> ApiResult<i64> {
        // Sessions and app tokens have one lifetime; OAuth accounts live as long as the refresh token.
        let auth_expires = if t.refresh_expires_at > 0 {
            t.refresh_expires_at
        } else {
            t.expires_at
        };
        let id = db::upsert_account(
            &self.db,
            mid,
            &db::Authorized {
                platform: p,
                open_id: t.open_id.clone(),
                nickname: t.nickname.clone(),
                avatar: t.avatar.clone(),
                access_token: self.sealer.seal(&t.access_token),
                refresh_token: self.sealer.seal(&t.refresh_token),
                token_expires_at: t.expires_at,
                auth_expires_at: auth_expires,
                group_id,
                sandbox,
                scope: t.scope.clone(),
            },
        )
        .await?;
        Ok(id)
    }

    /// The platform refused the account's authorization: it shows as expired with the platform's
    /// message (in the reader's language).
    pub async fn revoke(&self, account_id: i64, e: &PlatformError) -> sqlx::Result<()> {
        db::revoke(
            &self.db,
            account_id,
            domain::matrix::Revocation::Refused,
            &platform_reason(e),
        )
        .await
    }

    /// Refreshes an OAuth account's access token. A refusal marks the account expired with the
    /// platform's reason (the console shows it) — never silently — unless another refresh of the
    /// account (the refresh job, a publish, a comment sync) stored a new token meanwhile: Kuaishou
    /// spends a refresh token on use, so the slower of two refreshes is refused, and that is success.
    pub async fn refresh(&self, a: &Account) -> Result<(), PlatformError> {
        let p = a.platform;
        let ad = self.adapter_for(a).await.map_err(|e| internal(p, e))?;
        match ad.refresh(&self.tokens(a)).await {
            Ok(t) => {
                let auth = if t.refresh_expires_at > 0 {
                    t.refresh_expires_at
                } else {
                    a.auth_expires_at
                };
                let refresh = if t.refresh_token.is_empty() {
                    a.refresh_token.clone()
                } else {
                    self.sealer.seal(&t.refresh_token)
                };
                db::set_tokens(
                    &self.db,
                    a.id,
                    &self.sealer.seal(&t.access_token),
                    &refresh,
                    t.expires_at,
                    auth,
                )
                .await
                .map_err(|e| internal(p, e.into()))?;
                Ok(())
            }
            Err(e) => {
                if matches!(
                    e.kind,
                    ErrorKind::Reauthorize | ErrorKind::TokenExpired | ErrorKind::Permanent
                ) {
                    let revoked = db::revoke_refused_refresh(
                        &self.db,
                        a.id,
                        &a.refresh_token,
                        &platform_reason(&e),
                    )
                    .await;
                    if let Ok(false) = revoked {
                        return Ok(());
                    }
                }
                Err(e)
            }
        }
    }
}

/// A platform's message as the arguments of a stored reason: its own text in both languages, each
/// shown to readers of that language.
pub fn platform_reason(e: &PlatformError) -> String {
    serde_json::json!({ "reason_zh": e.zh, "reason_en": e.en }).to_string()
}

fn internal(p: Platform, e: ApiError) -> PlatformError {
    PlatformError {
        platform: p.code(),
        kind: ErrorKind::Retryable,
        code: "internal".into(),
        zh: e.in_words(domain::i18n::Lang::Zh),
        en: e.in_words(domain::i18n::Lang::En),
        evidence: None,
    }
}

/// A platform's refusal as a 422, with the platform's own words in both languages (`api::words`
/// shows the caller's).
pub fn refused(field: &str, e: &PlatformError) -> ApiError {
    ApiError::invalid_with(field, Msg::PlatformRefused, reason_pair(e))
}

/// A platform's own words as a pair of message arguments, `reason.zh` and `reason.en`: `{reason}` in
/// the reader's language.
pub fn reason_pair(e: &PlatformError) -> Vec<(&'static str, String)> {
    vec![("reason.zh", e.zh.clone()), ("reason.en", e.en.clone())]
}

pub fn platform(code: &str) -> ApiResult<Platform> {
    Platform::from_code(code).ok_or_else(|| {
        ApiError::invalid_with(
            "platform",
            Msg::PlatformUnknown,
            vec![("platform", code.to_string())],
        )
    })
}
