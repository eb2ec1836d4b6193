use std::sync::Arc;
use store::Db;
use tokio::sync::RwLock;

pub use services::auth::signin::{LogSms, SmsSender};

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
}

/// Where the speech-synthesis engine is installed: `<data>/tts`, or CLIPMATRIX_TTS_DIR.
pub fn tts_dir(data_dir: &std::path::Path) -> std::path::PathBuf {
    std::env::var_os("CLIPMATRIX_TTS_DIR")
        .map(Into::into)
        .unwrap_or_else(|| data_dir.join("tts"))
}

/// Where the speech-recognition engine is installed: `<data>/asr`, or CLIPMATRIX_ASR_DIR.
pub fn asr_dir(data_dir: &std::path::Path) -> std::path::PathBuf {
    std::env::var_os("CLIPMATRIX_ASR_DIR")
        .map(Into::into)
        .unwrap_or_else(|| data_dir.join("asr"))
}

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub settings: Settings,
    pub jwt_key: Arc<Vec<u8>>,
    pub sms: Arc<dyn SmsSender>,
    pub storage: media::Storage,
    /// The menu table, cached: every request's permission check reads it.
    pub menus: Arc<RwLock<Vec<store::system::menus::Menu>>>,
    /// Platform adapters, sealed tokens, the publisher's needs.
    pub hub: services::matrix::hub::HubRef,
    /// The failed-sign-in budgets (per address, per server) and the clock sign-in checks read.
    pub login_limits: Arc<services::auth::limits::LoginLimits>,
    /// The public pages' budgets (per device, address, tag).
    pub public_limits: Arc<services::nfc::PublicLimits>,
    /// AI voice: the engine, the cloning provider, the assistant (`services::ai::Ai::from_env`).
    pub ai: services::ai::AiRef,
    /// Opens the sandbox's controls and seeds its app secrets ("" when the sandbox is off).
    pub sandbox_token: String,
}

/// The configured sandbox token, else the install's: generated on first use and kept sealed, so a
/// database dump alone does not open the sandbox, and every node of one install agrees.
async fn sandbox_token(
    db: &Db,
    sealer: &store::secrets::Sealer,
    configured: Option<&str>,
) -> anyhow::Result<String> {
    if let Some(t) = configured.filter(|t| !t.is_empty()) {
        return Ok(t.to_string());
    }
    let sealed = db
        .setting_or_init("sandbox_token", || {
            sealer.seal(&platforms::sandbox::access::new_token())
        })
        .await?;
    sealer.open(&sealed).ok_or_else(|| {
        anyhow::anyhow!(
            "the sandbox token cannot be opened with this secret key (CLIPMATRIX_SECRET_KEY)"
        )
    })
}

impl AppState {
    pub async fn new(db: Db, settings: Settings) -> anyhow::Result<AppState> {
        store::system::menus::seed(&db).await?;
        store::content::seed(&db).await?;
        store::system::dict::seed(&db).await?;
        store::clip::templates::seed(&db).await?;
        let sealer = store::secrets::Sealer::load(&settings.data_dir)?;
        // The key signing tokens and file links is sealed like the platform secrets: a copy of the
        // database alone signs nothing.
        let key =
            store::secrets::sealed_setting(&db, &sealer, "jwt_key", || store::random_token(48))
                .await?;
        store::auth::users::hash_clear_sessions(&db).await?;
        let menus = store::system::menus::all(&db).await?;
        // Scratch space for work in progress lives on the local disk beside the data, whatever the store.
        let storage = media::Storage::open(&settings.storage_url, settings.data_dir.join("work"))?;
        let url_key = key.clone().into_bytes();
        let sandbox_token = if settings.sandbox {
            sandbox_token(&db, &sealer, settings.sandbox_token.as_deref()).await?
        } else {
            String::new()
        };
        let hub = Arc::new(services::matrix::hub::Hub {
            db: db.clone(),
            sealer,
            sandbox_token: sandbox_token.clone(),
            sandbox: settings.sandbox,
            sandbox_base: settings.platform_base.clone(),
            public_url: settings.public_url.clone(),
            storage: storage.clone(),
            timeout_ms: 0,
            adapters: Default::default(),
            sign_url: Arc::new(move |id, variant| {
                services::materials::links::url(&url_key, id, variant)
            }),
        });
        let ai = Arc::new(services::ai::Ai::from_env(&tts_dir(&settings.data_dir)));
        Ok(AppState {
            hub,
            db,
            settings,
            jwt_key: Arc::new(key.into_bytes()),
            sms: Arc::new(LogSms),
            storage,
            menus: Arc::new(RwLock::new(menus)),
            login_limits: Arc::new(services::auth::limits::LoginLimits::new(Arc::new(
                domain::now_ms,
            ))),
            public_limits: Arc::new(services::nfc::PublicLimits::new(Arc::new(domain::now_ms))),
            ai,
            sandbox_token,
        })
    }

    pub async fn reload_menus(&self) -> sqlx::Result<()> {
        let fresh = store::system::menus::all(&self.db).await?;
        *self.menus.write().await = fresh;
        Ok(())
    }
}
