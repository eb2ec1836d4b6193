//! The browser driver: Debian's `/usr/bin/chromium` driven by `playwright-core` in a Node sidecar
//! (`scripts/browser/driver.mjs`, shipped inside the binary and written to `<data>/browser/`).
//!
//! One sidecar process per worker holds several browser contexts, each a
//! `chromium.launchPersistentContext(<profiles>/<key>, ...)`: one persistent profile (cookies, local
//! storage, IndexedDB) per account key, with that account's [`Identity`]. The worker speaks JSON
//! lines over the sidecar's stdio: `{"id": n, "op": "...", ...}` answered by
//! `{"id": n, "ok": true, "result": ...}` or `{"id": n, "ok": false, "error": {"kind", "message"}}`;
//! requests run concurrently and answers come in any order.
//!
//! Supervision: the sidecar runs in its own process group. Playwright starts chromium detached (its
//! own group), so killing the sidecar's group is not enough: every process whose command line names
//! our profiles dir (`--user-data-dir=<profiles>/...`) is killed with its group too ("the sweep").
//! A request that gets no answer within its timeout plus a grace is a hung sidecar: it is killed, its
//! pages answer [`DriverError::Crashed`], and the caller (the adapter's step runner) retries the
//! step once on a fresh sidecar. The sweep also runs when a driver starts, so browsers left behind by
//! a worker killed with -9 are ended by the next one.
//!
//! A pool limit (a semaphore, `max_browsers`) bounds the open browsers: a headless profile costs
//! ~150–300 MB. [`Driver::open`] waits for a slot; the [`Page`] holds it until closed.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

/// The sidecar script, built into the binary and written next to its `node_modules`.
pub const SCRIPT: &str = include_str!("../../../../scripts/browser/driver.mjs");
const INSTALL_HINT: &str =
    "run scripts/install-deps.sh (scripts/browser/install.sh <data>/browser)";

/// Why a driver call failed. Flows turn these into step-named [`crate::PlatformError`]s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DriverError {
    /// Node, the sidecar's packages or chromium are missing.
    #[error("browser driver not installed: {0}")]
    NotInstalled(String),
    /// A selector did not appear (or an action did not finish) in time.
    #[error("timed out: {0}")]
    Timeout(String),
    /// The page or its browser was closed.
    #[error("page closed")]
    Closed,
    /// The sidecar died or hung and was killed: retry the step on a fresh page.
    #[error("browser crashed: {0}")]
    Crashed(String),
    /// Anything else the page answered (navigation error, bad selector, proxy refused...).
    #[error("page error: {0}")]
    Page(String),
    /// A proxy URL that is not `http://` or `socks5://`.
    #[error("bad proxy: {0}")]
    BadProxy(String),
    /// The account's proxy refused or did not answer (chromium's `net::ERR_PROXY_*`, tunnel and
    /// SOCKS failures).
    #[error("the proxy does not answer: {0}")]
    Proxy(String),
}

impl DriverError {
    /// A crash or hang: the step may be retried once on a fresh sidecar.
    pub fn is_crash(&self) -> bool {
        matches!(self, DriverError::Crashed(_))
    }
}

pub type DResult<T> = Result<T, DriverError>;

/// How a driver runs.
#[derive(Debug, Clone)]
pub struct DriverConfig {
    /// The `node` binary (default: `node` on the PATH).
    pub node: PathBuf,
    /// Where `driver.mjs` is written and its `node_modules` (playwright-core) live: `<data>/browser`.
    pub script_dir: PathBuf,
    /// The browser (`/usr/bin/chromium`).
    pub chromium: PathBuf,
    /// One subfolder per account key: `<data>/browser/profiles`.
    pub profiles_dir: PathBuf,
    /// Browsers open at once in this process.
    pub max_browsers: usize,
    pub headless: bool,
    /// Mean delay between typed characters and before a click (human pace); 0 in fast tests.
    pub human_delay_ms: u64,
    /// Added to every request's own timeout before the sidecar counts as hung.
    pub hang_grace: Duration,
    /// How long a browser stays open after a step for its account's next step ([`Driver::park`];
    /// a publish is followed by its verification and top comments). Zero: closed at once.
    pub park_idle: Duration,
}

impl DriverConfig {
    /// The layout under a data dir: `<data>/browser/{driver.mjs,node_modules,profiles}`.
    pub fn for_data_dir(data: &Path) -> DriverConfig {
        let dir = data.join("browser");
        DriverConfig {
            node: PathBuf::from(std::env::var("CLIPMATRIX_NODE").unwrap_or_else(|_| "node".into())),
            profiles_dir: dir.join("profiles"),
            script_dir: dir,
            chromium: PathBuf::from(
                std::env::var("CLIPMATRIX_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
            ),
            max_browsers: std::env::var("CLIPMATRIX_MAX_BROWSERS")
                .ok()
                .and_then(|v| v.parse().ok())
                .filter(|n| *n >= 1)
                .unwrap_or(3),
            headless: true,
            human_delay_ms: 60,
            hang_grace: Duration::from_secs(20),
            park_idle: PARK_IDLE,
        }
    }
}

/// [`DriverConfig::park_idle`]'s default: a launch costs ~1 s of CPU on 2 cores, an idle browser
/// only its memory (and its pool slot, given up at once to an account that needs it).
pub const PARK_IDLE: Duration = Duration::from_secs(20);

/// A fixed browser identity per account: chosen once from a seed (the account's profile key), so the
/// same account always shows the same user agent and screen; `zh-CN` and `Asia/Shanghai`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub user_agent: String,
    pub viewport: (u32, u32),
    pub locale: String,
    pub timezone: String,
    /// `http://host:port` or `socks5://host:port` (credentials allowed for http).
    pub proxy: Option<String>,
}

const USER_AGENTS: [&str; 4] = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36",
];
const VIEWPORTS: [(u32, u32); 4] = [(1440, 900), (1536, 864), (1680, 1050), (1920, 1080)];

impl Identity {
    /// The identity for a seed: the same seed always gives the same identity.
    pub fn for_seed(seed: &str) -> Identity {
        use sha2::Digest;
        let h = sha2::Sha256::digest(seed.as_bytes());
        Identity {
            user_agent: USER_AGENTS[h[0] as usize % USER_AGENTS.len()].to_string(),
            viewport: VIEWPORTS[h[1] as usize % VIEWPORTS.len()],
            locale: "zh-CN".into(),
            timezone: "Asia/Shanghai".into(),
            proxy: None,
        }
    }

    /// The same identity behind a proxy (`http://` or `socks5://`); empty: none.
    pub fn with_proxy(mut self, proxy: &str) -> DResult<Identity> {
        let p = proxy.trim();
        if p.is_empty() {
            self.proxy = None;
            return Ok(self);
        }
        let ok = ["http://", "https://", "socks5://"]
            .iter()
            .any(|s| p.starts_with(s) && p.len() > s.len());
        if !ok {
            return Err(DriverError::BadProxy(p.to_string()));
        }
        self.proxy = Some(p.to_string());
        Ok(self)
    }
}

/// The driver: one per process. Cheap to clone.
#[derive(Clone)]
pub struct Driver {
    inner: Arc<Inner>,
}

struct Inner {
    cfg: DriverConfig,
    slots: Arc<Semaphore>,
    sidecar: tokio::sync::Mutex<Option<Arc<Sidecar>>>,
    next_id: AtomicU64,
    next_ctx: AtomicU64,
    open: AtomicUsize,
    peak: AtomicUsize,
    swept: std::sync::Once,
    /// One browser per profile at once (chromium locks a profile dir): a second user waits.
    keys: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Browsers between two steps of their account, oldest first ([`Driver::park`]).
    parked: Mutex<Vec<Page>>,
}

struct Sidecar {
    generation: u64,
    pid: u32,
    stdin: tokio::sync::Mutex<ChildStdin>,
    pending: Arc<Mutex<HashMap<u64, oneshot::Sender<Value>>>>,
    child: Mutex<Option<Child>>,
}

static GEN: AtomicU64 = AtomicU64::new(1);

impl Driver {
    pub fn new(cfg: DriverConfig) -> Driver {
        let slots = Arc::new(Semaphore::new(cfg.max_browsers.max(1)));
        Driver {
            inner: Arc::new(Inner {
                cfg,
                slots,
                sidecar: tokio::sync::Mutex::new(None),
                next_id: AtomicU64::new(1),
                next_ctx: AtomicU64::new(1),
                open: AtomicUsize::new(0),
                peak: AtomicUsize::new(0),
                swept: std::sync::Once::new(),
                keys: Mutex::default(),
                parked: Mutex::default(),
            }),
        }
    }

    pub fn config(&self) -> &DriverConfig {
        &self.inner.cfg
    }

    /// The profile folder of an account key (letters, digits, `-` and `_`; others become `_`).
    pub fn profile_dir(&self, key: &str) -> PathBuf {
        self.inner.cfg.profiles_dir.join(safe_key(key))
    }

    /// Browsers open now.
    pub fn open_browsers(&self) -> usize {
        self.inner.open.load(Ordering::SeqCst)
    }

    /// The most browsers open at once since this driver started.
    pub fn peak_browsers(&self) -> usize {
        self.inner.peak.load(Ordering::SeqCst)
    }

    /// The sidecar's pid, when one runs.
    pub async fn sidecar_pid(&self) -> Option<u32> {
        self.inner.sidecar.lock().await.as_ref().map(|s| s.pid)
    }

    /// Is the driver usable here (node, script packages, chromium)?
    pub fn check(&self) -> DResult<()> {
        let c = &self.inner.cfg;
        if !c.chromium.exists() {
            return Err(DriverError::NotInstalled(format!(
                "no browser at {}",
                c.chromium.display()
            )));
        }
        if !c.script_dir.join("node_modules/playwright-core").exists() {
            return Err(DriverError::NotInstalled(format!(
                "no playwright-core in {} ({INSTALL_HINT})",
                c.script_dir.display()
            )));
        }
        Ok(())
    }

    /// Opens the browser of profile `key` with `identity`, waiting first until no other page has
    /// that profile open, then for a pool slot.
    pub async fn open(&self, key: &str, identity: &Identity) -> DResult<Page> {
        self.open_with(key, identity, None).await
    }

    /// [`Driver::open`], first giving the profile a stored login state (Playwright's storage
    /// state, from [`Page::storage_state`] on another node): cookies, local storage, IndexedDB.
    pub async fn open_with(
        &self,
        key: &str,
        identity: &Identity,
        state: Option<&Value>,
    ) -> DResult<Page> {
        // The account's browser from its last step, when it still fits: same proxy, and no
        // stored login to load into it.
        if let Some(p) = self.unpark(key) {
            if state.is_none() && p.proxy == identity.proxy && p.alive().await {
                return Ok(p);
            }
            p.close().await;
        }
        let lock = {
            let mut keys = self.inner.keys.lock().unwrap_or_else(|e| e.into_inner());
            keys.retain(|_, m| Arc::strong_count(m) > 1);
            keys.entry(safe_key(key)).or_default().clone()
        };
        let key_guard = lock.lock_owned().await;
        let permit = loop {
            match self.inner.slots.clone().try_acquire_owned() {
                Ok(p) => break p,
                Err(tokio::sync::TryAcquireError::Closed) => return Err(DriverError::Closed),
                // The pool is full: an idle browser gives its slot up first.
                Err(tokio::sync::TryAcquireError::NoPermits) => {
                    let oldest = {
                        let mut parked =
                            self.inner.parked.lock().unwrap_or_else(|e| e.into_inner());
                        (!parked.is_empty()).then(|| parked.remove(0))
                    };
                    match oldest {
                        Some(p) => p.close().await,
                        None => {
                            break self
                                .inner
                                .slots
                                .clone()
                                .acquire_owned()
                                .await
                                .map_err(|_| DriverError::Closed)?;
                        }
                    }
                }
            }
        };
        let side = self.sidecar().await?;
        let ctx = format!("c{}", self.inner.next_ctx.fetch_add(1, Ordering::Relaxed));
        let profile = self.profile_dir(key);
        std::fs::create_dir_all(&profile)
            .map_err(|e| DriverError::Page(format!("profile dir {}: {e}", profile.display())))?;
        let c = &self.inner.cfg;
        let req = json!({
            "op": "open",
            "ctx": ctx,
            "profile": profile,
            "executablePath": c.chromium,
            "headless": c.headless,
            "userAgent": identity.user_agent,
            "viewport": {"width": identity.viewport.0, "height": identity.viewport.1},
            "locale": identity.locale,
            "timezoneId": identity.timezone,
            "proxy": identity.proxy,
            "state": state,
            "timeout": 60_000,
        });
        self.send(&side, req, Duration::from_secs(60)).await?;
        let n = self.inner.open.fetch_add(1, Ordering::SeqCst) + 1;
        self.inner.peak.fetch_max(n, Ordering::SeqCst);
        Ok(Page {
            driver: self.clone(),
            ctx,
            generation: side.generation,
            key: key.to_string(),
            proxy: identity.proxy.clone(),
            permit: Mutex::new(Some((permit, key_guard))),
            closed: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Keeps a page open for its account's next step (opened with the same proxy) for
    /// [`DriverConfig::park_idle`], then closes it; closes it at once when it is gone or another
    /// job already waits for that profile.
    pub async fn park(&self, page: Page) {
        let idle = self.inner.cfg.park_idle;
        let waited = {
            let keys = self.inner.keys.lock().unwrap_or_else(|e| e.into_inner());
            // The map and this page's guard hold the profile's lock; anyone more is waiting.
            keys.get(&safe_key(&page.key))
                .is_some_and(|m| Arc::strong_count(m) > 2)
        };
        if idle.is_zero() || waited || !page.alive().await {
            page.close().await;
            return;
        }
        let ctx = page.ctx.clone();
        self.inner
            .parked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(page);
        let d = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(idle).await;
            let expired = {
                let mut parked = d.inner.parked.lock().unwrap_or_else(|e| e.into_inner());
                parked
                    .iter()
                    .position(|p| p.ctx == ctx)
                    .map(|i| parked.remove(i))
            };
            if let Some(p) = expired {
                p.close().await;
            }
        });
    }

    /// Takes the parked page of profile `key`, if any.
    fn unpark(&self, key: &str) -> Option<Page> {
        let mut parked = self.inner.parked.lock().unwrap_or_else(|e| e.into_inner());
        let i = parked.iter().position(|p| p.key == key)?;
        Some(parked.remove(i))
    }

    /// Closes every parked page.
    async fn close_parked(&self) {
        let all: Vec<Page> =
            std::mem::take(&mut *self.inner.parked.lock().unwrap_or_else(|e| e.into_inner()));
        for p in all {
            p.close().await;
        }
    }

    /// Kills the sidecar with its process group and every browser of our profiles (tests and
    /// shutdown; a hung request does the same by itself).
    pub async fn kill(&self) {
        drop(std::mem::take(
            &mut *self.inner.parked.lock().unwrap_or_else(|e| e.into_inner()),
        ));
        let side = self.inner.sidecar.lock().await.take();
        if let Some(s) = side {
            self.kill_sidecar(&s);
        }
        sweep(&self.inner.cfg.profiles_dir);
    }

    /// Asks the sidecar to close every browser and exit; kills it when it does not.
    pub async fn shutdown(&self) {
        self.close_parked().await;
        let side = self.inner.sidecar.lock().await.take();
        if let Some(s) = side {
            let _ = self
                .send(&s, json!({"op": "shutdown"}), Duration::from_secs(10))
                .await;
            self.kill_sidecar(&s);
        }
        sweep(&self.inner.cfg.profiles_dir);
    }

    fn kill_sidecar(&self, s: &Sidecar) {
        kill_group(s.pid);
        if let Some(mut c) = s.child.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = c.start_kill();
            tokio::spawn(async move {
                let _ = c.wait().await;
            });
        }
        // Every request still waiting learns the sidecar is gone.
        s.pending.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    async fn write_script(&self) -> DResult<PathBuf> {
        let dir = &self.inner.cfg.script_dir;
        let script = dir.join("driver.mjs");
        if tokio::fs::read(&script).await.ok().as_deref() == Some(SCRIPT.as_bytes()) {
            return Ok(script);
        }
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let n = SEQ.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!("driver.mjs.{}-{n}.tmp", std::process::id()));
        let io = |e: std::io::Error| DriverError::NotInstalled(format!("{}: {e}", dir.display()));
        tokio::fs::create_dir_all(dir).await.map_err(io)?;
        tokio::fs::write(&tmp, SCRIPT).await.map_err(io)?;
        tokio::fs::rename(&tmp, &script).await.map_err(io)?;
        Ok(script)
    }

    /// The running sidecar, started when none runs.
    async fn sidecar(&self) -> DResult<Arc<Sidecar>> {
        let mut g = self.inner.sidecar.lock().await;
        if let Some(s) = g.as_ref() {
            return Ok(s.clone());
        }
        let profiles = self.inner.cfg.profiles_dir.clone();
        // Browsers a killed worker left on our profiles.
        self.inner.swept.call_once(|| sweep(&profiles));
        self.check()?;
        let script = self.write_script().await?;
        let mut cmd = tokio::process::Command::new(&self.inner.cfg.node);
        cmd.arg(&script)
            .current_dir(&self.inner.cfg.script_dir)
            .process_group(0)
            .kill_on_drop(true)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        let mut child = cmd.spawn().map_err(|e| {
            DriverError::NotInstalled(format!("{}: {e}", self.inner.cfg.node.display()))
        })?;
        let pid = child.id().unwrap_or(0);
        let stdin = child.stdin.take().expect("piped");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped")).lines();
        match tokio::time::timeout(Duration::from_secs(30), stdout.next_line()).await {
            Ok(Ok(Some(l))) if l.contains("\"ready\"") => {}
            other => {
                kill_group(pid);
                let _ = child.start_kill();
                return Err(DriverError::NotInstalled(format!(
                    "the browser sidecar did not start ({other:?}); {INSTALL_HINT}"
                )));
            }
        }
        let pending: Arc<Mutex<HashMap<u64, oneshot::Sender<Value>>>> = Arc::default();
        let side = Arc::new(Sidecar {
            generation: GEN.fetch_add(1, Ordering::Relaxed),
            pid,
            stdin: tokio::sync::Mutex::new(stdin),
            pending: pending.clone(),
            child: Mutex::new(Some(child)),
        });
        // The reader: routes answers to their requests; at EOF the sidecar is gone. It holds the
        // driver weakly: a driver nobody uses any more is dropped (and kills its sidecar).
        let me = Arc::downgrade(&self.inner);
        let generation = side.generation;
        tokio::spawn(async move {
            while let Ok(Some(line)) = stdout.next_line().await {
                let Ok(v) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                let id = v.get("id").and_then(Value::as_u64).unwrap_or(0);
                let tx = pending
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
                if let Some(tx) = tx {
                    let _ = tx.send(v);
                }
            }
            if let Some(inner) = me.upgrade() {
                Driver { inner }.lost(generation).await;
            }
        });
        tracing::info!(pid, "browser sidecar started");
        *g = Some(side.clone());
        Ok(side)
    }

    /// The sidecar of generation `generation` ended or hung: forget it, kill its group and its browsers.
    async fn lost(&self, generation: u64) {
        let mut g = self.inner.sidecar.lock().await;
        if g.as_ref().is_some_and(|s| s.generation == generation) {
            let s = g.take().expect("checked");
            tracing::warn!(pid = s.pid, "browser sidecar lost; killing its browsers");
            self.kill_sidecar(&s);
            sweep(&self.inner.cfg.profiles_dir);
        }
    }

    async fn send(&self, side: &Arc<Sidecar>, mut req: Value, wait: Duration) -> DResult<Value> {
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        req["id"] = json!(id);
        let (tx, rx) = oneshot::channel();
        side.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, tx);
        let mut line = serde_json::to_string(&req).expect("json");
        line.push('\n');
        let wrote = {
            let mut w = side.stdin.lock().await;
            match w.write_all(line.as_bytes()).await {
                Ok(()) => w.flush().await,
                Err(e) => Err(e),
            }
        };
        if let Err(e) = wrote {
            side.pending
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&id);
            self.lost(side.generation).await;
            return Err(DriverError::Crashed(format!("write: {e}")));
        }
        match tokio::time::timeout(wait + self.inner.cfg.hang_grace, rx).await {
            Err(_) => {
                self.lost(side.generation).await;
                Err(DriverError::Crashed(format!(
                    "no answer to {} in time: the sidecar hung and was killed",
                    req["op"]
                )))
            }
            Ok(Err(_)) => Err(DriverError::Crashed("the sidecar ended".into())),
            Ok(Ok(v)) if v.get("ok").and_then(Value::as_bool) == Some(true) => {
                Ok(v.get("result").cloned().unwrap_or(Value::Null))
            }
            Ok(Ok(v)) => {
                let e = v.get("error").cloned().unwrap_or(Value::Null);
                let msg = e
                    .get("message")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let proxy = [
                    "ERR_PROXY_",
                    "ERR_TUNNEL_CONNECTION_FAILED",
                    "ERR_SOCKS_CONNECTION_FAILED",
                ]
                .iter()
                .any(|c| msg.contains(c));
                Err(match e.get("kind").and_then(Value::as_str) {
                    _ if proxy => DriverError::Proxy(msg),
                    Some("timeout") => DriverError::Timeout(msg),
                    Some("closed") => DriverError::Closed,
                    _ => DriverError::Page(msg),
                })
            }
        }
    }

    /// A request on an open page, failing with Crashed when its sidecar is not the running one.
    async fn page_call(&self, page: &Page, mut req: Value, wait: Duration) -> DResult<Value> {
        if page.closed.load(Ordering::SeqCst) {
            return Err(DriverError::Closed);
        }
        let side = {
            let g = self.inner.sidecar.lock().await;
            match g.as_ref() {
                Some(s) if s.generation == page.generation => s.clone(),
                _ => return Err(DriverError::Crashed("the page's browser is gone".into())),
            }
        };
        req["ctx"] = json!(page.ctx);
        req["timeout"] = json!(wait.as_millis() as u64);
        let started = std::time::Instant::now();
        let op = req["op"].as_str().unwrap_or_default().to_string();
        let r = self.send(&side, req, wait).await;
        tracing::debug!(
            op,
            ms = started.elapsed().as_millis() as u64,
            ok = r.is_ok(),
            "browser op"
        );
        if std::env::var_os("CLIPMATRIX_BROWSER_TRACE").is_some() {
            eprintln!(
                "browser op {op} {} ms ok={}",
                started.elapsed().as_millis(),
                r.is_ok()
            );
        }
        r
    }

    fn released(&self) {
        self.inner.open.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(s) = self.sidecar.get_mut().take() {
            kill_group(s.pid);
        }
        sweep(&self.cfg.profiles_dir);
    }
}

/// One account's open browser (a persistent context with one page). Holds a pool slot until
/// [`Page::close`] (or drop, which closes it in the background).
pub struct Page {
    driver: Driver,
    ctx: String,
    generation: u64,
    key: String,
    /// The proxy the browser was opened with (a parked page serves only the same).
    proxy: Option<String>,
    permit: Mutex<Option<(OwnedSemaphorePermit, tokio::sync::OwnedMutexGuard<()>)>>,
    closed: std::sync::atomic::AtomicBool,
}

/// Default wait of a page op.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(15);

impl Page {
    /// The profile key this page belongs to.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Is the page's sidecar still the running one (not crashed or killed)?
    pub async fn alive(&self) -> bool {
        !self.closed.load(Ordering::SeqCst)
            && self
                .driver
                .inner
                .sidecar
                .lock()
                .await
                .as_ref()
                .is_some_and(|s| s.generation == self.generation)
    }

    fn delay(&self) -> u64 {
        self.driver.inner.cfg.human_delay_ms
    }

    async fn call(&self, req: Value, wait: Duration) -> DResult<Value> {
        self.driver.page_call(self, req, wait).await
    }

    /// Navigates and waits for the DOM; returns the URL landed on (after redirects).
    pub async fn goto(&self, url: &str) -> DResult<String> {
        let v = self
            .call(json!({"op": "goto", "url": url}), Duration::from_secs(30))
            .await?;
        Ok(v["url"].as_str().unwrap_or_default().to_string())
    }

    /// The page's URL now.
    pub async fn url(&self) -> DResult<String> {
        let v = self.call(json!({"op": "url"}), DEFAULT_WAIT).await?;
        Ok(v["url"].as_str().unwrap_or_default().to_string())
    }

    /// Waits until `selector` is visible.
    pub async fn wait_for(&self, selector: &str, wait: Duration) -> DResult<()> {
        self.call(json!({"op": "wait_for", "selector": selector}), wait)
            .await
            .map(|_| ())
    }

    /// Waits until one of `selectors` is visible; returns its index (the first visible wins).
    pub async fn wait_any(&self, selectors: &[&str], wait: Duration) -> DResult<usize> {
        let v = self
            .call(json!({"op": "wait_any", "selectors": selectors}), wait)
            .await?;
        Ok(v["index"].as_u64().unwrap_or(0) as usize)
    }

    /// How many elements match now (no waiting).
    pub async fn count(&self, selector: &str) -> DResult<usize> {
        let v = self
            .call(json!({"op": "count", "selector": selector}), DEFAULT_WAIT)
            .await?;
        Ok(v["count"].as_u64().unwrap_or(0) as usize)
    }

    /// Is the first match visible now (no waiting)?
    pub async fn visible(&self, selector: &str) -> DResult<bool> {
        let v = self
            .call(json!({"op": "visible", "selector": selector}), DEFAULT_WAIT)
            .await?;
        Ok(v["visible"].as_bool().unwrap_or(false))
    }

    /// Clicks the first match, at a human pace (a pause, then press and release).
    pub async fn click(&self, selector: &str) -> DResult<()> {
        self.call(
            json!({"op": "click", "selector": selector, "delay": self.delay()}),
            DEFAULT_WAIT,
        )
        .await
        .map(|_| ())
    }

    /// Types `text` into the first match key by key at a human pace (after clicking into it).
    pub async fn type_text(&self, selector: &str, text: &str) -> DResult<()> {
        let wait =
            DEFAULT_WAIT + Duration::from_millis(self.delay() * 2 * text.chars().count() as u64);
        self.call(
            json!({"op": "type", "selector": selector, "text": text, "delay": self.delay()}),
            wait,
        )
        .await
        .map(|_| ())
    }

    /// Types `text` at the end of the first match (a rich editor's body), key by key, keeping
    /// what is there.
    pub async fn append_text(&self, selector: &str, text: &str) -> DResult<()> {
        let wait =
            DEFAULT_WAIT + Duration::from_millis(self.delay() * 2 * text.chars().count() as u64);
        self.call(
            json!({"op": "type", "selector": selector, "text": text, "delay": self.delay(), "append": true}),
            wait,
        )
        .await
        .map(|_| ())
    }

    /// Where the first match is on the page: (x, y, width, height) in CSS pixels.
    pub async fn bounding_box(&self, selector: &str) -> DResult<(f64, f64, f64, f64)> {
        let v = self
            .call(json!({"op": "box", "selector": selector}), DEFAULT_WAIT)
            .await?;
        let f = |k: &str| v[k].as_f64().unwrap_or(0.0);
        Ok((f("x"), f("y"), f("width"), f("height")))
    }

    /// Drags the first match `dx` pixels to the right as a hand does (press, uneven moves, release).
    pub async fn drag(&self, selector: &str, dx: f64) -> DResult<()> {
        self.call(
            json!({"op": "drag", "selector": selector, "dx": dx, "delay": self.delay()}),
            DEFAULT_WAIT + Duration::from_millis(self.delay() * 12),
        )
        .await
        .map(|_| ())
    }

    /// Sets an input's value at once (for long texts where typing adds nothing).
    pub async fn fill(&self, selector: &str, value: &str) -> DResult<()> {
        self.call(
            json!({"op": "fill", "selector": selector, "value": value}),
            DEFAULT_WAIT,
        )
        .await
        .map(|_| ())
    }

    /// Chooses an `<option>` of a `<select>` by value.
    pub async fn select(&self, selector: &str, value: &str) -> DResult<()> {
        self.call(
            json!({"op": "select", "selector": selector, "value": value}),
            DEFAULT_WAIT,
        )
        .await
        .map(|_| ())
    }

    /// Gives a file input its files (the page's own upload starts from there).
    pub async fn set_files(&self, selector: &str, files: &[PathBuf]) -> DResult<()> {
        self.call(
            json!({"op": "set_files", "selector": selector, "files": files}),
            Duration::from_secs(60),
        )
        .await
        .map(|_| ())
    }

    /// The visible text of the first match (waits for it).
    pub async fn text(&self, selector: &str) -> DResult<String> {
        let v = self
            .call(json!({"op": "text", "selector": selector}), DEFAULT_WAIT)
            .await?;
        Ok(v["text"].as_str().unwrap_or_default().to_string())
    }

    /// The visible texts of every match (no waiting).
    pub async fn texts(&self, selector: &str) -> DResult<Vec<String>> {
        let v = self
            .call(json!({"op": "texts", "selector": selector}), DEFAULT_WAIT)
            .await?;
        Ok(strings(&v["texts"]))
    }

    /// An attribute of the first match (waits for the element; None when it lacks the attribute).
    pub async fn attr(&self, selector: &str, name: &str) -> DResult<Option<String>> {
        let v = self
            .call(
                json!({"op": "attr", "selector": selector, "name": name}),
                DEFAULT_WAIT,
            )
            .await?;
        Ok(v["value"].as_str().map(str::to_string))
    }

    /// An attribute of every match ("" where missing; no waiting).
    pub async fn attrs(&self, selector: &str, name: &str) -> DResult<Vec<String>> {
        let v = self
            .call(
                json!({"op": "attrs", "selector": selector, "name": name}),
                DEFAULT_WAIT,
            )
            .await?;
        Ok(strings(&v["values"]))
    }

    /// A PNG of the page (viewport), or of the first match of `selector`.
    pub async fn screenshot(&self, selector: Option<&str>) -> DResult<Vec<u8>> {
        use base64::Engine;
        let v = self
            .call(
                json!({"op": "screenshot", "selector": selector}),
                DEFAULT_WAIT,
            )
            .await?;
        base64::engine::general_purpose::STANDARD
            .decode(v["png"].as_str().unwrap_or_default())
            .map_err(|e| DriverError::Page(format!("screenshot: {e}")))
    }

    /// The browser's login state now (cookies, local storage, IndexedDB), to restore elsewhere
    /// with [`Driver::open_with`].
    pub async fn storage_state(&self) -> DResult<Value> {
        let v = self.call(json!({"op": "state"}), DEFAULT_WAIT).await?;
        Ok(v["state"].clone())
    }

    /// The value of a JavaScript expression on the page (JSON-serializable: a page's own data).
    pub async fn eval(&self, expression: &str) -> DResult<Value> {
        let v = self
            .call(
                json!({"op": "eval", "expression": expression}),
                DEFAULT_WAIT,
            )
            .await?;
        Ok(v["value"].clone())
    }

    /// From now on keeps the page's JSON answers whose URL holds one of `parts` (its own API
    /// calls), for [`Page::responses`]. Call before the navigation or click that makes them.
    pub async fn watch(&self, parts: &[&str]) -> DResult<()> {
        self.call(json!({"op": "watch", "parts": parts}), DEFAULT_WAIT)
            .await
            .map(|_| ())
    }

    /// The kept answers whose URL holds `part`, oldest first, each given once; waits up to `wait`
    /// for the first (a timeout when the page made no such call).
    pub async fn responses(&self, part: &str, wait: Duration) -> DResult<Vec<Value>> {
        let v = self
            .call(json!({"op": "responses", "part": part}), wait)
            .await?;
        Ok(v["bodies"].as_array().cloned().unwrap_or_default())
    }

    /// The page's HTML now.
    pub async fn html(&self) -> DResult<String> {
        let v = self.call(json!({"op": "html"}), DEFAULT_WAIT).await?;
        Ok(v["html"].as_str().unwrap_or_default().to_string())
    }

    /// Closes the browser (the profile stays on disk) and frees the pool slot. Later calls on the
    /// page answer Closed.
    pub async fn close(&self) {
        self.close_ref().await;
    }

    async fn close_ref(&self) {
        if self.closed.swap(true, Ordering::SeqCst) {
            return;
        }
        let side = self.driver.inner.sidecar.lock().await.clone();
        if let Some(s) = side.filter(|s| s.generation == self.generation) {
            let _ = self
                .driver
                .send(
                    &s,
                    json!({"op": "close", "ctx": self.ctx, "timeout": 15_000}),
                    Duration::from_secs(15),
                )
                .await;
        }
        self.driver.released();
        self.permit.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        if self.closed.load(Ordering::SeqCst) {
            return;
        }
        // Close in the background; the slot frees when the browser is closed.
        let page = Page {
            driver: self.driver.clone(),
            ctx: std::mem::take(&mut self.ctx),
            generation: self.generation,
            key: std::mem::take(&mut self.key),
            proxy: self.proxy.take(),
            permit: Mutex::new(self.permit.lock().unwrap_or_else(|e| e.into_inner()).take()),
            closed: std::sync::atomic::AtomicBool::new(false),
        };
        self.closed.store(true, Ordering::SeqCst);
        match tokio::runtime::Handle::try_current() {
            Ok(h) => {
                // A runtime shutting down drops the task unrun: the guard marks the copy closed
                // then, so dropping it does not spawn again (that recursed until the stack ran out).
                struct Unrun(Page);
                impl Drop for Unrun {
                    fn drop(&mut self) {
                        if !self.0.closed.swap(true, Ordering::SeqCst) {
                            self.0.driver.released();
                        }
                    }
                }
                let bg = Unrun(page);
                h.spawn(async move { bg.0.close_ref().await });
            }
            Err(_) => {
                page.closed.store(true, Ordering::SeqCst);
                page.driver.released();
            }
        }
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn safe_key(key: &str) -> String {
    let k: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if k.is_empty() { "_".into() } else { k }
}

fn kill_group(pid: u32) {
    if pid == 0 {
        return;
    }
    // SAFETY: plain syscalls on a pid we started; a negative pid names its process group.
    unsafe {
        libc::kill(-(pid as i32), libc::SIGKILL);
        libc::kill(pid as i32, libc::SIGKILL);
    }
}

/// A field of `/proc/<pid>/stat` after the command name (0: state, 2: process group, 19: start
/// time in clock ticks since boot); None when the process is gone.
pub fn proc_stat(pid: u32, field: usize) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields start after its last ')'.
    let rest = stat.rsplit_once(')')?.1;
    rest.split_whitespace().nth(field).map(str::to_string)
}

/// Processes (pid, pgid) whose command line names a profile under `profiles`.
pub fn browsers_of(profiles: &Path) -> Vec<(u32, u32)> {
    let needle = format!("--user-data-dir={}", profiles.display());
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in rd.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(cmd) = std::fs::read(e.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd);
        if !cmd.split('\0').any(|a| a.starts_with(&needle)) {
            continue;
        }
        // A zombie has an empty cmdline, so it is not counted here.
        let pgid = proc_stat(pid, 2)
            .and_then(|g| g.parse().ok())
            .unwrap_or(pid);
        out.push((pid, pgid));
    }
    out
}

/// Kills every browser (with its process group) still running on a profile under `profiles`.
pub fn sweep(profiles: &Path) {
    for (pid, pgid) in browsers_of(profiles) {
        // SAFETY: see kill_group; these are chromium processes on our own profiles.
        unsafe {
            if pgid > 1 {
                libc::kill(-(pgid as i32), libc::SIGKILL);
            }
            libc::kill(pid as i32, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_is_fixed_per_seed() {
        let a = Identity::for_seed("xhs-1");
        assert_eq!(a, Identity::for_seed("xhs-1"));
        assert_eq!(a.locale, "zh-CN");
        assert_eq!(a.timezone, "Asia/Shanghai");
        assert!(a.clone().with_proxy("socks5://127.0.0.1:1080").is_ok());
        assert!(a.clone().with_proxy("ftp://x").is_err());
        assert_eq!(a.with_proxy("").unwrap().proxy, None);
    }

    #[test]
    fn keys_are_folder_safe() {
        assert_eq!(safe_key("xhs/../a b"), "xhs____a_b");
        assert_eq!(safe_key(""), "_");
    }
}
