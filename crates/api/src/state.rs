use std::sync::Arc;
use store::Db;
use tokio::sync::RwLock;

#[derive(Clone)]
pub struct Settings {
    pub sandbox: bool,
    /// A folder holding the built console (`web/dist`); `None` serves the embedded copy.
    pub web_dir: Option<std::path::PathBuf>,
    pub data_dir: std::path::PathBuf,
    pub storage_url: String,
    /// How browsers and platforms reach this server, e.g. `http://127.0.0.1:8080`.
    pub public_url: String,
    /// Sandbox-mode adapters call `<platform_base>/<platform>`.
    pub platform_base: String,
    /// Proxies whose `X-Forwarded-For` is believed (CLIPMATRIX_TRUSTED_PROXIES); none by default.
    pub trusted_proxies: crate::client::Proxies,
    /// CLIPMATRIX_SANDBOX_TOKEN; None: the install's own (generated once, kept sealed).
    pub sandbox_token: Option<String>,
    /// The sandbox is on and the server listens beyond this machine: the console says "demo mode".
    pub demo: bool,
}

impl Settings {
    pub fn asr_dir(&self) -> std::path::PathBuf {
        asr_dir(&self.data_dir)
    }

    /// What the application (without HTTP) needs of these settings.
    pub fn app_config(&self) -> services::AppConfig {
        services::AppConfig {
            sandbox: self.sandbox,
            data_dir: self.data_dir.clone(),
            storage_url: self.storage_url.clone(),
            public_url: self.public_url.clone(),
            platform_base: self.platform_base.clone(),
            sandbox_token: self.sandbox_token.clone(),
        }
    }
}

pub use services::app::{asr_dir, tts_dir};

/// The HTTP layer's state: the opened application (`services::App`: database, storage, platform
/// gateway, AI voice, reached as `st.db`, `st.hub`… through `Deref`) and what only requests need.
#[derive(Clone)]
pub struct AppState {
    pub app: services::App,
    pub settings: Settings,
    pub jwt_key: Arc<Vec<u8>>,
    /// The operator's SMS gateway (`/system/sms`), and the budgets of code requests.
    pub sms: services::auth::sms::Sms,
    pub sms_limits: Arc<services::limits::LoginLimits>,
    /// The menu table, cached: every request's permission check reads it.
    pub menus: Arc<RwLock<Vec<store::system::menus::Menu>>>,
    /// The failed-sign-in budgets (per address, per server) and the clock sign-in checks read.
    pub login_limits: Arc<services::limits::LoginLimits>,
    /// The public pages' budgets (per device, address, tag).
    pub public_limits: Arc<services::nfc::PublicLimits>,
    /// Each personal API token's budget of calls (`services::limits::PER_TOKEN`).
    pub token_limits: Arc<services::limits::LoginLimits>,
}

impl std::ops::Deref for AppState {
    type Target = services::App;
    fn deref(&self) -> &services::App {
        &self.app
    }
}

impl std::ops::DerefMut for AppState {
    fn deref_mut(&mut self) -> &mut services::App {
        &mut self.app
    }
}

impl AppState {
    /// Opens the application and serves it.
    pub async fn new(db: Db, settings: Settings) -> anyhow::Result<AppState> {
        let app = services::App::open(db, settings.app_config()).await?;
        AppState::serving(app, settings).await
    }

    /// The state serving an opened application.
    pub async fn serving(app: services::App, settings: Settings) -> anyhow::Result<AppState> {
        let menus = store::system::menus::all(&app.db).await?;
        let sms = services::auth::sms::Sms::new(app.hub.sealer.clone());
        Ok(AppState {
            jwt_key: app.key.clone(),
            app,
            settings,
            sms,
            sms_limits: Arc::new(services::auth::signin::sms_limits(Arc::new(domain::now_ms))),
            menus: Arc::new(RwLock::new(menus)),
            login_limits: Arc::new(services::limits::LoginLimits::new(Arc::new(domain::now_ms))),
            public_limits: Arc::new(services::nfc::PublicLimits::new(Arc::new(domain::now_ms))),
            token_limits: Arc::new(services::limits::per_token(Arc::new(domain::now_ms))),
        })
    }

    pub async fn reload_menus(&self) -> sqlx::Result<()> {
        let fresh = store::system::menus::all(&self.db).await?;
        *self.menus.write().await = fresh;
        Ok(())
    }
}
