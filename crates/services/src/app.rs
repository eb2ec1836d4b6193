//! The application without its transport: what the use cases and the jobs need (the database, the
//! media storage, the platform gateway, AI voice, the signing key), opened once, and the background
//! work (job worker, publish dispatch, schedulers) started once, by `serve` and `worker` alike.

use crate::ai::{Ai, AiRef};
use crate::platform::{Hub, HubRef};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use store::Db;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Where the application keeps its data and how it is reached.
#[derive(Clone, Debug)]
pub struct AppConfig {
    pub sandbox: bool,
    pub data_dir: PathBuf,
    pub storage_url: String,
    /// How browsers and platforms reach this server, e.g. `http://127.0.0.1:8080`.
    pub public_url: String,
    /// Sandbox-mode adapters call `<platform_base>/<platform>`.
    pub platform_base: String,
    /// CLIPMATRIX_SANDBOX_TOKEN; None: the install's own (generated once, kept sealed).
    pub sandbox_token: Option<String>,
}

impl AppConfig {
    pub fn asr_dir(&self) -> PathBuf {
        asr_dir(&self.data_dir)
    }
}

/// Where the speech-synthesis engine is installed: `<data>/tts`, or CLIPMATRIX_TTS_DIR.
pub fn tts_dir(data_dir: &Path) -> PathBuf {
    std::env::var_os("CLIPMATRIX_TTS_DIR")
        .map(Into::into)
        .unwrap_or_else(|| data_dir.join("tts"))
}

/// The creator consoles' browser driver (`<data>/browser`, installed by scripts/browser/install.sh):
/// None when it is not installed there or CLIPMATRIX_BROWSER_CONSOLES is `off`.
pub fn browser_driver(data_dir: &Path) -> Option<platforms::browser::Driver> {
    if std::env::var("CLIPMATRIX_BROWSER_CONSOLES").is_ok_and(|v| v == "off" || v == "0") {
        return None;
    }
    let d =
        platforms::browser::Driver::new(platforms::browser::DriverConfig::for_data_dir(data_dir));
    match d.check() {
        Ok(()) => Some(d),
        Err(e) => {
            tracing::warn!(err = %e, "creator-console browser flows are off: SPH, XHS and the shop cannot be reached");
            None
        }
    }
}

/// Where the speech-recognition engine is installed: `<data>/asr`, or CLIPMATRIX_ASR_DIR.
pub fn asr_dir(data_dir: &Path) -> PathBuf {
    std::env::var_os("CLIPMATRIX_ASR_DIR")
        .map(Into::into)
        .unwrap_or_else(|| data_dir.join("asr"))
}

/// The opened application: cheap to clone (every part is shared).
#[derive(Clone)]
pub struct App {
    pub db: Db,
    pub config: AppConfig,
    pub storage: media::Storage,
    /// Platform adapters, sealed tokens, the publisher's needs.
    pub hub: HubRef,
    /// AI voice: the engine and the cloning provider (`Ai::from_env`).
    pub ai: AiRef,
    /// Signs session tokens and file links; sealed in the database like the platform secrets.
    pub key: Arc<Vec<u8>>,
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

impl App {
    /// Seeds the built-in rows, opens the sealed keys, the storage, the gateway and AI voice.
    pub async fn open(db: Db, config: AppConfig) -> anyhow::Result<App> {
        store::system::menus::seed(&db).await?;
        store::content::seed(&db).await?;
        store::system::dict::seed(&db).await?;
        store::clip::templates::seed(&db).await?;
        let sealer = store::secrets::Sealer::load(&config.data_dir)?;
        // The key signing tokens and file links is sealed like the platform secrets: a copy of the
        // database alone signs nothing.
        let key =
            store::secrets::sealed_setting(&db, &sealer, "jwt_key", || store::random_token(48))
                .await?;
        store::auth::users::hash_clear_sessions(&db).await?;
        // Scratch space for work in progress lives on the local disk beside the data, whatever the store.
        let storage = media::Storage::open(&config.storage_url, config.data_dir.join("work"))?;
        let key = Arc::new(key.into_bytes());
        let url_key = key.clone();
        let sandbox_token = if config.sandbox {
            sandbox_token(&db, &sealer, config.sandbox_token.as_deref()).await?
        } else {
            String::new()
        };
        let hub = Arc::new(Hub {
            db: db.clone(),
            sealer,
            sandbox_token: sandbox_token.clone(),
            sandbox: config.sandbox,
            sandbox_base: config.platform_base.clone(),
            public_url: config.public_url.clone(),
            storage: storage.clone(),
            timeout_ms: 0,
            adapters: Default::default(),
            sign_url: Arc::new(move |id, variant| crate::links::url(&url_key, id, variant)),
            browser: browser_driver(&config.data_dir),
        });
        let ai = Arc::new(Ai::from_env(&tts_dir(&config.data_dir), db.clock.clone()));
        Ok(App {
            hub,
            db,
            config,
            storage,
            ai,
            key,
            sandbox_token,
        })
    }
}

/// Starts the background work: the job worker (every kind of [`crate::jobs::registry`]), the
/// publish dispatch loop and the schedulers (cleanup, benchmark, hot-list and comment syncs).
/// Each stops when `stop` turns true; await the handles to let them finish.
pub fn background(
    app: &App,
    worker: store::jobs::WorkerConfig,
    stop: watch::Receiver<bool>,
) -> Vec<JoinHandle<()>> {
    let db = &app.db;
    let mut handles = vec![
        tokio::spawn(store::jobs::run_worker(
            db.clone(),
            crate::jobs::registry(app),
            worker,
            stop.clone(),
        )),
        tokio::spawn(crate::matrix::publish::dispatch_loop(
            app.hub.clone(),
            std::time::Duration::from_millis(1000),
            stop.clone(),
        )),
        tokio::spawn(crate::system::maintenance::schedule(
            db.clone(),
            stop.clone(),
        )),
        tokio::spawn(crate::seo::benchmark::schedule(db.clone(), stop.clone())),
        tokio::spawn(crate::content::hotlists::schedule(db.clone(), stop.clone())),
        tokio::spawn(crate::engagement::comments::schedule(
            db.clone(),
            stop.clone(),
        )),
    ];
    // The daily canary walks the real consoles; the sandbox's imitations (development, tests, demo)
    // are walked on demand only, so a demo fault never pauses a platform by itself.
    if !app.config.sandbox {
        handles.push(tokio::spawn(crate::matrix::canary::schedule_loop(
            db.clone(),
            std::time::Duration::from_secs(600),
            stop,
        )));
    }
    handles
}
