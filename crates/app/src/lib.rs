//! Configuration and start-up of the `clipmatrix` binary: the layers of DESIGN.md §2
//! (defaults -> clipmatrix.toml -> CLIPMATRIX_* env -> flags), the first-run accounts, and serving
//! (or only working the jobs) with graceful shutdown. `main.rs` only parses the command line.

pub mod mcp;

use anyhow::Context;
use serde::Deserialize;
use std::path::PathBuf;
use store::Db;

#[derive(Debug, Clone)]
pub struct Config {
    pub listen: String,
    pub data_dir: PathBuf,
    pub database_url: String,
    pub storage_url: String,
    pub sandbox: bool,
    pub admin_password: Option<String>,
    pub demo_password: Option<String>,
    /// Serve the console from this folder instead of the embedded copy.
    pub web_dir: Option<PathBuf>,
    pub workers: bool,
    /// How browsers and platforms reach this server (OAuth redirects, media URLs); default
    /// `http://<listen>`.
    pub public_url: Option<String>,
    /// Where sandbox-mode adapters send platform calls; default `<public_url>/sandbox` (in-process,
    /// its state kept in `<data_dir>/sandbox`), or a standalone `clipmatrix sandbox`.
    pub platform_base: Option<String>,
    /// Proxies (addresses or networks, comma-separated) whose `X-Forwarded-For` is believed.
    pub trusted_proxies: String,
    /// Opens the sandbox's controls and seeds its app secrets; default: generated per install.
    pub sandbox_token: Option<String>,
    /// A test/demo setting: moving the sandbox clock also moves the product's own time
    /// (activities, coupons, release dates). Off by default.
    pub sandbox_moves_app_clock: bool,
}

/// What a `clipmatrix.toml` or the environment may set; every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layer {
    pub listen: Option<String>,
    pub data_dir: Option<PathBuf>,
    pub database_url: Option<String>,
    pub storage_url: Option<String>,
    pub sandbox: Option<bool>,
    pub admin_password: Option<String>,
    pub demo_password: Option<String>,
    pub web_dir: Option<PathBuf>,
    pub workers: Option<bool>,
    pub public_url: Option<String>,
    pub platform_base: Option<String>,
    pub trusted_proxies: Option<String>,
    pub sandbox_token: Option<String>,
    pub sandbox_moves_app_clock: Option<bool>,
}

impl Layer {
    /// The `CLIPMATRIX_*` variables.
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> anyhow::Result<Layer> {
        let v = |k: &str| get(&format!("CLIPMATRIX_{k}")).filter(|s| !s.is_empty());
        let flag = |k: &str| -> anyhow::Result<Option<bool>> {
            v(k).map(|s| match s.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => Ok(true),
                "0" | "false" | "no" | "off" => Ok(false),
                _ => anyhow::bail!("CLIPMATRIX_{k} must be true or false, got {s:?}"),
            })
            .transpose()
        };
        Ok(Layer {
            listen: v("LISTEN"),
            data_dir: v("DATA_DIR").map(PathBuf::from),
            database_url: v("DATABASE_URL"),
            storage_url: v("STORAGE_URL"),
            sandbox: flag("SANDBOX")?,
            admin_password: v("ADMIN_PASSWORD"),
            demo_password: v("DEMO_PASSWORD"),
            web_dir: v("WEB_DIR").map(PathBuf::from),
            workers: flag("WORKERS")?,
            public_url: v("PUBLIC_URL"),
            platform_base: v("PLATFORM_BASE"),
            trusted_proxies: v("TRUSTED_PROXIES"),
            sandbox_token: v("SANDBOX_TOKEN"),
            sandbox_moves_app_clock: flag("SANDBOX_MOVES_APP_CLOCK")?,
        })
    }
}

impl Config {
    /// Applies the layers in order; later ones win.
    pub fn build(layers: &[Layer]) -> Config {
        let pick = |f: &dyn Fn(&Layer) -> Option<String>| layers.iter().rev().find_map(f);
        let data_dir = layers
            .iter()
            .rev()
            .find_map(|l| l.data_dir.clone())
            .unwrap_or_else(|| PathBuf::from("./data"));
        let database_url = pick(&|l| l.database_url.clone())
            .unwrap_or_else(|| format!("sqlite://{}", data_dir.join("clipmatrix.db").display()));
        let storage_url = pick(&|l| l.storage_url.clone())
            .unwrap_or_else(|| format!("file://{}", data_dir.join("media").display()));
        Config {
            listen: pick(&|l| l.listen.clone()).unwrap_or_else(|| "127.0.0.1:8080".into()),
            database_url,
            storage_url,
            sandbox: layers.iter().rev().find_map(|l| l.sandbox).unwrap_or(true),
            admin_password: pick(&|l| l.admin_password.clone()),
            demo_password: pick(&|l| l.demo_password.clone()),
            web_dir: layers.iter().rev().find_map(|l| l.web_dir.clone()),
            workers: layers.iter().rev().find_map(|l| l.workers).unwrap_or(true),
            public_url: pick(&|l| l.public_url.clone())
                .map(|u| u.trim_end_matches('/').to_string()),
            platform_base: pick(&|l| l.platform_base.clone())
                .map(|u| u.trim_end_matches('/').to_string()),
            trusted_proxies: pick(&|l| l.trusted_proxies.clone()).unwrap_or_default(),
            sandbox_token: pick(&|l| l.sandbox_token.clone()),
            sandbox_moves_app_clock: layers
                .iter()
                .rev()
                .find_map(|l| l.sandbox_moves_app_clock)
                .unwrap_or(false),
            data_dir,
        }
    }

    /// Reads `clipmatrix.toml` (the given path, else ./clipmatrix.toml when present) and the environment,
    /// then the flags.
    pub fn load(file: Option<PathBuf>, flags: Layer) -> anyhow::Result<Config> {
        let file_layer =
            match file.or_else(|| Some(PathBuf::from("clipmatrix.toml")).filter(|p| p.exists())) {
                Some(p) => {
                    let text = std::fs::read_to_string(&p)
                        .with_context(|| format!("reading {}", p.display()))?;
                    toml::from_str(&text).with_context(|| format!("parsing {}", p.display()))?
                }
                None => Layer::default(),
            };
        let env = Layer::from_env(|k| std::env::var(k).ok())?;
        let cfg = Config::build(&[file_layer, env, flags]);
        api::client::Proxies::parse(&cfg.trusted_proxies)
            .map_err(|e| anyhow::anyhow!("trusted_proxies: {e}"))?;
        Ok(cfg)
    }
}

pub async fn open_db(cfg: &Config) -> anyhow::Result<Db> {
    std::fs::create_dir_all(&cfg.data_dir)
        .with_context(|| format!("creating {}", cfg.data_dir.display()))?;
    let db = Db::connect(&cfg.database_url)
        .await
        .context("connecting to the database")?;
    db.migrate().await.context("applying migrations")?;
    Ok(db)
}

/// On an empty database: the operator `admin` and the demo merchant `demo` (with 1000 points to try
/// things), with the configured passwords or generated ones. Returns the lines to print.
pub async fn first_run(db: &Db, cfg: &Config) -> anyhow::Result<Vec<String>> {
    if store::auth::users::count_users(db).await? > 0 {
        return Ok(vec![]);
    }
    let gen_pw = || format!("{}9a", store::random_token(9));
    let admin_pw = cfg.admin_password.clone().unwrap_or_else(gen_pw);
    let demo_pw = cfg.demo_password.clone().unwrap_or_else(gen_pw);
    store::auth::users::create_operator(db, "admin", &store::auth::password::hash(&admin_pw))
        .await?;
    let (m, _) = store::auth::users::create_merchant(
        db,
        "演示商户 Demo",
        "demo",
        None,
        &store::auth::password::hash(&demo_pw),
    )
    .await?;
    store::system::points::topup(
        db,
        m.id,
        1000,
        domain::system::points::Reason::Welcome,
        "",
        "",
    )
    .await?;
    Ok(vec![
        "first run: created these accounts".into(),
        format!("  operator  admin / {admin_pw}"),
        format!("  merchant  demo  / {demo_pw}"),
    ])
}

/// Resolves when SIGINT or SIGTERM arrives.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}

/// The application's settings of a config; `addr` is the address actually bound.
pub fn app_config(cfg: &Config, addr: &str) -> services::AppConfig {
    let public_url = cfg
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"));
    services::AppConfig {
        sandbox: cfg.sandbox,
        data_dir: cfg.data_dir.clone(),
        storage_url: cfg.storage_url.clone(),
        platform_base: cfg
            .platform_base
            .clone()
            .unwrap_or_else(|| format!("{public_url}/sandbox")),
        public_url,
        sandbox_token: cfg.sandbox_token.clone(),
    }
}

/// The API settings of a config; `addr` is the address actually bound.
pub fn settings(cfg: &Config, addr: &str) -> api::Settings {
    let app = app_config(cfg, addr);
    api::Settings {
        sandbox: app.sandbox,
        web_dir: cfg.web_dir.clone(),
        data_dir: app.data_dir,
        storage_url: app.storage_url,
        platform_base: app.platform_base,
        public_url: app.public_url,
        // Checked when the config was loaded.
        trusted_proxies: api::client::Proxies::parse(&cfg.trusted_proxies).unwrap_or_default(),
        sandbox_token: app.sandbox_token,
        demo: cfg.sandbox && !is_loopback(addr),
    }
}

/// Whether a listen address reaches this machine only (a name other than localhost counts as open).
pub fn is_loopback(addr: &str) -> bool {
    match addr.parse::<std::net::SocketAddr>() {
        Ok(a) => a.ip().is_loopback(),
        Err(_) => addr.rsplit_once(':').is_some_and(|(h, _)| h == "localhost"),
    }
}

/// What the start prints about the sandbox: where its controls are and how to open them, and a
/// loud warning when it listens beyond this machine.
fn sandbox_lines(settings: &api::Settings, token: &str, addr: &str) -> Vec<String> {
    if !settings.sandbox {
        return vec![];
    }
    let mut lines = vec![format!(
        "  sandbox token {token} (header x-sandbox-token, or open {}/sandbox?sandbox_token=<token>)",
        settings.public_url
    )];
    if !is_loopback(addr) {
        let bar = "!".repeat(78);
        lines.splice(
            0..0,
            [
                bar.clone(),
                format!(
                    "!! DEMO MODE: the platform sandbox is on and this server listens on {addr}."
                ),
                "!! Every platform is simulated; nothing reaches Douyin, Kuaishou or the others."
                    .into(),
                "!! Set CLIPMATRIX_SANDBOX=false for real use.".into(),
                bar,
            ],
        );
    }
    lines
}

/// The product follows the sandbox clock only in sandbox mode, and only when the setting asks.
fn app_clock(cfg: &Config, db: &store::Db) {
    db.clock
        .set_app_follows(cfg.sandbox && cfg.sandbox_moves_app_clock);
}

pub async fn serve(cfg: Config) -> anyhow::Result<()> {
    let db = open_db(&cfg).await?;
    let lines = first_run(&db, &cfg).await?;
    let listener = tokio::net::TcpListener::bind(&cfg.listen)
        .await
        .with_context(|| format!("binding {}", cfg.listen))?;
    let addr = listener.local_addr()?;
    let state = api::AppState::new(db.clone(), settings(&cfg, &addr.to_string())).await?;
    check_storage(&state, &cfg).await?;
    sandbox_clock(&cfg, &db);
    app_clock(&cfg, &db);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    // In the background: synthesizing the tracks takes a few seconds and nothing waits for them.
    let seeding = state.clone();
    tokio::spawn(async move {
        match services::materials::music::seed_builtin(&seeding.db, &seeding.storage).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(tracks = n, "built-in music added"),
            Err(e) => tracing::warn!(error = %e, "could not add the built-in music"),
        }
    });
    // The speech engine loads its model (a few seconds) before the first audition asks for it.
    let warming = state.ai.clone();
    tokio::spawn(async move {
        if warming.cloud.is_none() && warming.kokoro.check().is_ok() {
            if let Err(e) = warming.kokoro.warm_up().await {
                tracing::warn!(error = %e, "could not start the speech synthesis engine");
            }
        }
    });
    let tasks = if cfg.workers {
        services::background(&state, worker_config(), stop_rx)
    } else {
        vec![]
    };
    println!(
        "clipmatrix {} listening on http://{addr}",
        domain::APP_VERSION
    );
    println!(
        "  database {}  sandbox {}",
        redact(&cfg.database_url),
        cfg.sandbox
    );
    for l in lines {
        println!("{l}");
    }
    for l in sandbox_lines(&state.settings, &state.sandbox_token, &addr.to_string()) {
        if l.starts_with("!!") {
            tracing::warn!("{l}");
        }
        println!("{l}");
    }
    if !cfg.sandbox
        && services::auth::sms::setting(&state.db)
            .await
            .is_ok_and(|s| s.provider.is_none())
    {
        let l = "!! no SMS gateway is configured: sign-in, registration and reset codes go to the \
                 server log only (System -> SMS gateway)";
        tracing::warn!("{l}");
        println!("{l}");
    }
    let hub = state.hub.clone();
    let app = api::app(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            tracing::info!("shutting down: finishing requests and jobs in flight");
            let _ = stop_tx.send(true);
        })
        .await?;
    for t in tasks {
        let _ = t.await;
    }
    close_browsers(&hub).await;
    db.close().await;
    Ok(())
}

/// The creator consoles' browsers (kept open a moment between an account's steps) are closed
/// before the process leaves, so their profiles are whole and no chromium outlives it.
async fn close_browsers(hub: &services::platform::Hub) {
    if let Some(d) = &hub.browser {
        d.shutdown().await;
    }
}

/// `clipmatrix worker`: the background work alone (jobs, publish dispatch, schedulers), no HTTP.
pub async fn worker(cfg: Config) -> anyhow::Result<()> {
    let db = open_db(&cfg).await?;
    let app = services::App::open(db.clone(), app_config(&cfg, &cfg.listen)).await?;
    check_storage(&app, &cfg).await?;
    sandbox_clock(&cfg, &db);
    app_clock(&cfg, &db);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let tasks = services::background(&app, worker_config(), stop_rx);
    shutdown_signal().await;
    let _ = stop_tx.send(true);
    for t in tasks {
        let _ = t.await;
    }
    close_browsers(&app.hub).await;
    db.close().await;
    Ok(())
}

/// `clipmatrix platforms check <platform>`: the platform's page check now (what System → Platform
/// apps runs), kept like any other; an error when the pages no longer match.
pub async fn platforms_check(cfg: Config, platform: &str) -> anyhow::Result<()> {
    let db = open_db(&cfg).await?;
    let app = services::App::open(db.clone(), app_config(&cfg, &cfg.listen)).await?;
    let s = services::matrix::canary::run(&app.hub, platform)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"));
    db.close().await;
    let s = s?;
    if s.ok {
        println!(
            "{platform}: the publish pages walk through to the last click (account {})",
            s.account_id
        );
        return Ok(());
    }
    anyhow::bail!(
        "{platform}: {} (step {}){}",
        s.en,
        s.step,
        if s.paused {
            "; its due items are paused until a check passes or the operator resumes"
        } else {
            ""
        }
    )
}

/// Sandbox mode only: starts the platform clock this far ahead (CLIPMATRIX_SANDBOX_CLOCK_OFFSET_MS),
/// for tests of separate processes, whose clocks cannot be moved through a node's `/sandbox`.
fn sandbox_clock(cfg: &Config, db: &store::Db) {
    if cfg.sandbox
        && let Some(ms) = std::env::var("CLIPMATRIX_SANDBOX_CLOCK_OFFSET_MS")
            .ok()
            .and_then(|v| v.parse::<i64>().ok())
    {
        db.clock.set_offset(ms);
    }
}

/// Stops the start when the media storage cannot be used (unreachable, no bucket, a refused key),
/// rather than failing the first upload.
pub async fn check_storage(app: &services::App, cfg: &Config) -> anyhow::Result<()> {
    app.storage
        .check()
        .await
        .with_context(|| format!("media storage {}", cfg.storage_url))
}

/// The job worker's settings; `CLIPMATRIX_JOB_LEASE_MS` shortens how long a dead worker's job
/// waits before another worker takes it over (default 30 s).
pub fn worker_config() -> store::jobs::WorkerConfig {
    let mut c = store::jobs::WorkerConfig::default();
    if let Some(ms) = std::env::var("CLIPMATRIX_JOB_LEASE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        c.lease_ms = ms;
    }
    c
}

/// `clipmatrix sandbox`: the platform simulator alone, same paths as in-process (`/sandbox/...`).
/// With `state_dir` its state (tokens, works, messages) is kept there and survives a restart.
/// Its controls open with CLIPMATRIX_SANDBOX_TOKEN (generated and printed when unset); the servers
/// using it need the same token, from which the sandbox's app secrets derive.
pub async fn sandbox(
    listen: &str,
    webhook_url: Option<String>,
    review_delay_ms: Option<i64>,
    state_dir: Option<PathBuf>,
) -> anyhow::Result<()> {
    let given = std::env::var("CLIPMATRIX_SANDBOX_TOKEN")
        .ok()
        .filter(|t| !t.is_empty());
    let token = match (&given, &state_dir) {
        (Some(t), _) => t.clone(),
        // Kept beside the state, so the app secrets (derived from it) survive a restart.
        (None, Some(dir)) => kept_token(dir)?,
        (None, None) => platforms::sandbox::access::new_token(),
    };
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("binding {listen}"))?;
    let addr = listener.local_addr()?;
    let defaults = platforms::sandbox::Config::default();
    let cfg = platforms::sandbox::Config {
        public_base: format!("http://{addr}/sandbox"),
        webhook_url,
        review_delay_ms: review_delay_ms.unwrap_or(defaults.review_delay_ms),
        state_dir,
        token: token.clone(),
        ..defaults
    };
    let app = axum::Router::new().nest_service("/sandbox", platforms::sandbox::router(cfg));
    println!("clipmatrix sandbox listening on http://{addr}/sandbox");
    if given.is_none() {
        println!("  sandbox token {token} (give the servers CLIPMATRIX_SANDBOX_TOKEN={token})");
    }
    if !is_loopback(&addr.to_string()) {
        println!("!! DEMO MODE: the platform sandbox listens on {addr}, beyond this machine.");
    }
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    Ok(())
}

/// `<dir>/token`, made (readable by its owner only) when missing.
fn kept_token(dir: &std::path::Path) -> anyhow::Result<String> {
    let path = dir.join("token");
    if let Ok(t) = std::fs::read_to_string(&path)
        && !t.trim().is_empty()
    {
        return Ok(t.trim().to_string());
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let t = platforms::sandbox::access::new_token();
    std::fs::write(&path, &t).with_context(|| format!("writing {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(t)
}

/// A database URL without its password, for logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &creds[..c], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_apply_in_order() {
        let file = Layer {
            listen: Some("0.0.0.0:1".into()),
            sandbox: Some(false),
            ..Default::default()
        };
        let env = Layer::from_env(|k| match k {
            "CLIPMATRIX_LISTEN" => Some("127.0.0.1:2".into()),
            "CLIPMATRIX_DATA_DIR" => Some("/tmp/x".into()),
            _ => None,
        })
        .unwrap();
        let flags = Layer {
            listen: Some("127.0.0.1:3".into()),
            ..Default::default()
        };
        let c = Config::build(&[file, env, flags]);
        assert_eq!(c.listen, "127.0.0.1:3");
        assert!(!c.sandbox);
        assert_eq!(c.database_url, "sqlite:///tmp/x/clipmatrix.db");
        assert_eq!(c.storage_url, "file:///tmp/x/media");
        let d = Config::build(&[]);
        assert_eq!((d.listen.as_str(), d.sandbox), ("127.0.0.1:8080", true));
        assert!(
            !d.sandbox_moves_app_clock,
            "the product keeps its own time by default"
        );
    }

    #[test]
    fn a_sandbox_beyond_this_machine_is_announced_loudly() {
        let cfg = |listen: &str, sandbox: bool| {
            Config::build(&[Layer {
                listen: Some(listen.into()),
                sandbox: Some(sandbox),
                ..Default::default()
            }])
        };
        let lines = |listen: &str, sandbox: bool| {
            let c = cfg(listen, sandbox);
            sandbox_lines(&settings(&c, listen), "tok", listen).join("\n")
        };
        let local = lines("127.0.0.1:8080", true);
        assert!(
            local.contains("sandbox token tok") && !local.contains("DEMO MODE"),
            "{local}"
        );
        assert!(!settings(&cfg("127.0.0.1:8080", true), "127.0.0.1:8080").demo);
        let open = lines("0.0.0.0:8080", true);
        assert!(
            open.contains("DEMO MODE") && open.contains("0.0.0.0:8080"),
            "{open}"
        );
        assert!(settings(&cfg("0.0.0.0:8080", true), "0.0.0.0:8080").demo);
        assert_eq!(lines("0.0.0.0:8080", false), "");
        assert!(!settings(&cfg("0.0.0.0:8080", false), "0.0.0.0:8080").demo);
    }

    #[test]
    fn a_standalone_sandbox_keeps_its_token() {
        let dir = std::env::temp_dir().join(format!("cm-sbx-token-{}", store::random_token(6)));
        let first = kept_token(&dir).unwrap();
        assert_eq!(kept_token(&dir).unwrap(), first);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn loopback_addresses() {
        assert!(
            is_loopback("127.0.0.1:8080") && is_loopback("[::1]:1") && is_loopback("localhost:80")
        );
        assert!(
            !is_loopback("0.0.0.0:8080") && !is_loopback("10.0.0.5:80") && !is_loopback("api:8080")
        );
    }

    #[test]
    fn env_flags_are_checked() {
        assert!(Layer::from_env(|k| (k == "CLIPMATRIX_SANDBOX").then(|| "maybe".into())).is_err());
    }

    #[test]
    fn redacts_passwords() {
        assert_eq!(redact("postgres://u:secret@h/db"), "postgres://u:***@h/db");
        assert_eq!(redact("sqlite://data/x.db"), "sqlite://data/x.db");
    }
}
