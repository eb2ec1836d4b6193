//! The platform sandbox (PLATFORMS.md "What the sandbox must do"): one in-memory simulator of the DY,
//! KS and BJH wire formats, of the creator consoles of SPH, XHS and the shop (HTML pages shaped like
//! the real ones, which the browser flows drive), of POI search, with human pages
//! (consent, QR login, index) and a JSON control API (clock, faults, counts).
//!
//! The app nests [`router`] at `/sandbox`; adapters then use base URLs like
//! `http://host:port/sandbox/dy`. All state lives in one `Mutex<State>`, held only for short,
//! await-free sections, which is also what makes the per-account create counters exact under
//! concurrent requests. Time is the platform clock (`domain::clock`). With `Config::state_dir` the
//! state is also kept in `<state_dir>/state.json` (written after every request that changed it,
//! loaded at start), so authorized accounts survive a restart of the server.
//!
//! The index page and `/_control` are gated (`access`): the sandbox token or the operator, a
//! merchant reading only about its own accounts. The DY/KS app secrets, the BJH app_token and the
//! WeChat official account's secret derive from the token.

use crate::Platform;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{MethodRouter, get};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

pub mod access;
mod avatar;
mod billboard;
mod bjh;
mod console;
mod control;
pub mod doubao;
mod dy;
mod dy_data;
mod dy_reply;
mod engage;
mod fans;
mod ks;
pub mod llm;
mod mp4;
pub mod nls;
mod oauth;
mod pages;
mod persist;
mod poi;
mod public;
mod shop_console;
pub mod sms;
mod sph_console;
mod tikhub;
mod webhook;
pub mod wechat;
mod words;
mod works;
mod xhs_console;

pub use access::{
    Viewer, app_secret, nls_secret, sms_secret, vendor_key, wechat_secret, wechat_server_token,
};
pub use poi::search as poi_search;
pub use words::{simulated_hot, simulated_suggest};

/// App keys the sandbox knows (used when the operator configured none); their secrets are the
/// install's (`app_secret` of the sandbox token).
pub const SANDBOX_DY_KEY: &str = "sbx_dy_client_key";
pub const SANDBOX_KS_KEY: &str = "sbx_ks_app_id";
/// BJH: any app_id works with the install's app_token (`app_secret(token, Platform::Bjh)`).
pub const SANDBOX_BJH_APP_ID: &str = "sbx_bjh_app";

pub(crate) const DAY_MS: i64 = 86_400_000;
pub(crate) const MB: u64 = 1024 * 1024;

/// Words that make the platform refuse a title at create time / reject it at review.
pub(crate) const SENSITIVE_WORDS: [&str; 2] = ["敏感词", "sensitive-word"];
pub(crate) const REJECT_WORDS: [&str; 2] = ["违规", "reject-me"];

#[derive(Clone)]
pub struct Config {
    /// Absolute URL of the sandbox root as a browser/adapter reaches it, e.g.
    /// `http://127.0.0.1:8080/sandbox`; used in QR URLs, share URLs and the KS upload endpoint.
    pub public_base: String,
    /// Platform-clock time from create to the review verdict.
    pub review_delay_ms: i64,
    /// Where DY create_video webhooks go (none: not sent).
    pub webhook_url: Option<String>,
    /// Probability that a webhook is delivered twice (consumers must dedupe).
    pub webhook_duplicate_rate: f64,
    /// The official account's server URL (its "服务器配置"), where scans of its QR codes are pushed.
    pub wechat_push_url: Option<String>,
    /// Where the sandbox keeps its state (`state.json`); None = memory only.
    pub state_dir: Option<std::path::PathBuf>,
    /// The sandbox token: opens the controls and seeds the app secrets. Empty: no token opens
    /// them (only `identify`'s operator), and the secrets are those of the empty token.
    pub token: String,
    /// Who a session is (the app's sign-in); None: the token alone opens the controls.
    pub identify: Option<access::Identify>,
    /// The platforms' clock, which `/_control/clock` moves: the in-process sandbox shares the
    /// app's (`store::Db::clock`), a standalone sandbox has its own.
    pub clock: domain::clock::Clock,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            public_base: "http://127.0.0.1:8080/sandbox".into(),
            review_delay_ms: 10 * 60_000,
            webhook_url: None,
            webhook_duplicate_rate: 0.3,
            wechat_push_url: None,
            state_dir: None,
            token: String::new(),
            identify: None,
            clock: domain::clock::Clock::default(),
        }
    }
}

/// Builds the sandbox. State is inside; nest it: `Router::new().nest("/sandbox", router(cfg))`.
pub fn router(cfg: Config) -> Router {
    let access = Arc::new(access::Access::new(&cfg.token, cfg.identify.clone()));
    let xhs_console = xhs_console::Console::new(&cfg.public_base, cfg.clock.clone());
    let s: S = Arc::new(Sandbox::new(cfg));
    engage::start_pump(&s);
    // The sandbox's own controls; the simulated platforms below answer to their own credentials.
    let gated = Router::new()
        .route("/", get(pages::index))
        .nest("/_control/wechat", wechat::control())
        .nest("/_control/sms", sms::control())
        .nest("/_control/llm", llm::control())
        .nest("/_control/nls", nls::control())
        .nest(
            "/_control/console/xhs",
            xhs_console::control(xhs_console.clone()),
        )
        .nest("/_control/console/sph", console::control(&sph_console::SPH))
        .nest(
            "/_control/console/shop",
            console::control(&shop_console::SHOP),
        )
        .nest("/_control", control::routes())
        .layer(axum::middleware::from_fn_with_state(access, access::gate));
    Router::new()
        .merge(gated)
        .route("/avatar/{file}", get(avatar::serve))
        .nest("/dy", dy::routes())
        .nest("/ks", ks::routes())
        .nest("/bjh", bjh::routes())
        // The data vendor TikHub (docs/seo-platforms.md): Douyin public accounts.
        .nest("/tikhub", tikhub::routes())
        // The creator consoles the browser flows drive (`crate::browser`).
        .nest("/console/xhs", xhs_console::routes(xhs_console))
        .nest("/console/sph", sph_console::routes())
        .nest("/console/shop", shop_console::routes())
        // The Douyin console's login is its root, `creator.douyin.com/` (a nested "/" only
        // matches `/console/shop`).
        .route("/console/shop/", get(shop_console::login))
        .route("/poi/search", get(poi::generic))
        .nest("/llm", llm::routes())
        .nest("/doubao", doubao::routes())
        .nest("/wechat", wechat::routes())
        // What the phone shows after scanning an official account's QR code (a person scans).
        .route(
            "/wechat/q/{ticket}",
            get(wechat::scan_page).post(wechat::scan_page_submit),
        )
        .nest("/sms", sms::routes())
        .nest("/nls", nls::routes())
        .fallback(pages::fallback)
        // Plain DY uploads may be up to 128 MB; parts and fragments are smaller. Bodies are counted
        // chunk by chunk, never kept.
        .layer(DefaultBodyLimit::max(130 * MB as usize))
        .layer(axum::middleware::from_fn_with_state(
            s.clone(),
            persist::after,
        ))
        .with_state(s)
}

/// `router(cfg)` nested at `/sandbox`, plus `/sandbox/` (a nested "/" route only matches
/// `/sandbox` in axum 0.8) redirecting to the index. Merge it into the app's router.
pub fn mount(cfg: Config) -> Router {
    Router::new().nest("/sandbox", router(cfg)).route(
        "/sandbox/",
        get(|| async { axum::response::Redirect::to("/sandbox") }),
    )
}

pub(crate) type S = Arc<Sandbox>;

pub(crate) struct Sandbox {
    pub public_base: String,
    /// The platforms' clock (also in `State`, for the code that holds only the state).
    pub clock: domain::clock::Clock,
    /// The install's BJH app_token and WeChat AppSecret (derived from the sandbox token).
    pub bjh_app_token: String,
    /// The API key the TikHub imitation accepts (`Authorization: Bearer`).
    pub vendor_key: String,
    pub wx_secret: String,
    /// The official account's server configuration: where scans are pushed and the Token they
    /// are signed with ([`wechat_server_token`]).
    pub wx_push_url: Option<String>,
    pub wx_server_token: String,
    /// The install's SMS gateway secret (for [`sms::SANDBOX_SMS_KEY_ID`]).
    pub sms_secret: String,
    /// The install's NLS AccessKey secret (for [`nls::SANDBOX_NLS_KEY_ID`]).
    pub nls_secret: String,
    st: Mutex<State>,
    /// Set by every mutable access to the state (`Guard`), cleared by `save`: a request that only
    /// read costs no snapshot.
    changed: AtomicBool,
    pub webhook_client: reqwest::Client,
    store: Option<persist::Store>,
}

/// The state lock's guard. Reading goes through `Deref`; any `&mut` access marks the state changed,
/// so only requests that changed something are written to disk.
pub(crate) struct Guard<'a> {
    g: MutexGuard<'a, State>,
    changed: &'a AtomicBool,
}

impl std::ops::Deref for Guard<'_> {
    type Target = State;
    fn deref(&self) -> &State {
        &self.g
    }
}

impl std::ops::DerefMut for Guard<'_> {
    fn deref_mut(&mut self) -> &mut State {
        self.changed.store(true, Ordering::Relaxed);
        &mut self.g
    }
}

impl Sandbox {
    fn new(cfg: Config) -> Sandbox {
        let mut apps = HashMap::new();
        apps.insert(
            SANDBOX_DY_KEY.to_string(),
            app_secret(&cfg.token, Platform::Dy),
        );
        apps.insert(
            SANDBOX_KS_KEY.to_string(),
            app_secret(&cfg.token, Platform::Ks),
        );
        let store = cfg.state_dir.map(persist::Store::new);
        let mut st = store
            .as_ref()
            .and_then(persist::Store::load)
            .unwrap_or_default();
        // The run's settings come from the config, not from the file.
        st.review_delay_ms = cfg.review_delay_ms;
        st.webhook_url = cfg.webhook_url;
        st.webhook_duplicate_rate = cfg.webhook_duplicate_rate;
        st.clock = cfg.clock.clone();
        // The install's secrets replace what an older state file learned for the sandbox's keys.
        st.apps.extend(apps);
        for a in public::builtins() {
            if !st.public_accounts.iter().any(|x| x.id == a.id) {
                st.public_accounts.push(a);
            }
        }
        Sandbox {
            public_base: cfg.public_base.trim_end_matches('/').to_string(),
            clock: cfg.clock,
            bjh_app_token: app_secret(&cfg.token, Platform::Bjh),
            vendor_key: vendor_key(&cfg.token),
            wx_secret: wechat_secret(&cfg.token),
            wx_push_url: cfg.wechat_push_url.clone(),
            wx_server_token: wechat_server_token(&cfg.token),
            sms_secret: sms_secret(&cfg.token),
            nls_secret: nls_secret(&cfg.token),
            st: Mutex::new(st),
            changed: AtomicBool::new(false),
            webhook_client: reqwest::Client::builder()
                .timeout(std::time::Duration::from_secs(10))
                .build()
                .expect("reqwest client"),
            store,
        }
    }

    /// Writes the state file when a request changed the state since the last write (no-op
    /// without a state dir). A change made while the snapshot is taken is in it or sets the flag
    /// again for the next save.
    pub fn save(&self) {
        if let Some(store) = &self.store
            && self.changed.swap(false, Ordering::Relaxed)
        {
            store.save(|| serde_json::to_vec(&*self.raw_lock()));
        }
    }

    fn raw_lock(&self) -> MutexGuard<'_, State> {
        self.st.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The state lock. Never hold it across an `.await`.
    pub fn lock(&self) -> Guard<'_> {
        Guard {
            g: self.raw_lock(),
            changed: &self.changed,
        }
    }
}

/// Everything a platform remembers. Faults and the run's settings (review delay, webhook) are not
/// saved: they are the tester's, not the platform's.
#[derive(Default, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct State {
    #[serde(skip)]
    pub review_delay_ms: i64,
    #[serde(skip)]
    pub webhook_url: Option<String>,
    #[serde(skip)]
    pub webhook_duplicate_rate: f64,
    #[serde(skip)]
    pub clock: domain::clock::Clock,
    /// client_key -> client_secret. Unknown DY/KS keys are learned on first use (trust on first
    /// use), so a sandbox driven with the operator's own key still signs webhooks consistently.
    pub apps: HashMap<String, String>,
    pub codes: HashMap<String, AuthCode>,
    pub access: HashMap<String, Access>,
    pub refresh: HashMap<String, Refresh>,
    pub client_tokens: HashMap<String, i64>,
    /// H5 share: ticket -> (client_key, expires at); share ids handed out -> client_key.
    pub tickets: HashMap<String, (String, i64)>,
    pub share_ids: HashMap<String, String>,
    /// get_share short links: code -> (schema, expires at).
    pub short_links: HashMap<String, (String, i64)>,
    /// "dy:<open_id>" -> who it is.
    pub users: HashMap<String, User>,
    pub uploads: HashMap<String, Upload>,
    pub videos: HashMap<String, Video>,
    pub works: Vec<works::WorkRec>,
    pub posted_comments: HashMap<String, Vec<works::PostedComment>>,
    pub qr: HashMap<String, console::QrRec>,
    pub sessions: HashMap<String, console::SessionRec>,
    /// What the creator consoles' publish received (`console`), oldest first.
    pub console_posts: Vec<console::PostRec>,
    /// The consoles' faults, per account (the tester's: not saved).
    #[serde(skip)]
    pub console_faults: Vec<console::ConsoleFaultRule>,
    /// DY private messages sent through `/im/send/msg/`, oldest first.
    pub messages: Vec<ImMessage>,
    /// Benchmark (competitor) accounts: the built-in ones and those made by `/_control`.
    pub public_accounts: Vec<public::AccountRec>,
    #[serde(skip)]
    pub faults: Vec<FaultRule>,
    /// "<platform>:<open_id>" -> successful creates.
    pub creates: BTreeMap<String, u64>,
    pub total_creates: u64,
    pub webhooks_sent: u64,
    pub bjh_revoked: HashSet<String>,
    /// Customers' private messages to DY accounts (pushed as `im_receive_msg`).
    pub inbox: Vec<engage::Inbound>,
    /// Generated private messages were pushed up to here (platform clock).
    pub messages_pushed_until: i64,
    /// WeChat official account (`wechat.rs`): access tokens -> expiry (platform ms), openids that
    /// unfollowed (true) or followed again (false), template messages sent.
    #[serde(default)]
    pub wx_tokens: wechat::Tokens,
    #[serde(default)]
    pub wx_unsubscribed: HashMap<String, bool>,
    #[serde(default)]
    pub wx_sent: Vec<wechat::WxSent>,
    /// Parametric QR codes made (`wechat.rs`): ticket -> (scene, expiry).
    #[serde(default)]
    pub wx_qrs: wechat::Qrs,
    /// SMS the gateways accepted (`sms.rs`), oldest first; the fault set for the next sends.
    #[serde(default)]
    pub sms_sent: Vec<sms::SmsSent>,
    #[serde(skip)]
    pub sms_fault: Option<sms::SmsFault>,
    /// The LLM's fault for the next requests and the answers it gave (`llm.rs`), not saved.
    #[serde(skip)]
    pub llm_fault: Option<llm::LlmFault>,
    #[serde(skip)]
    pub llm_answers: Vec<llm::LlmAnswer>,
    /// NLS tokens minted by `CreateToken` (`nls.rs`).
    #[serde(default)]
    pub nls: nls::Tokens,
    /// "<platform>:<open_id>" -> recent reply times (the reply rate limit), not saved.
    #[serde(skip)]
    pub reply_times: HashMap<String, Vec<i64>>,
    seq: u64,
}

impl State {
    /// A fresh id: a sequence (readable in logs) plus randomness (tokens must not be guessable).
    pub fn id(&mut self, prefix: &str) -> String {
        self.seq += 1;
        format!(
            "{prefix}{}{:012x}",
            self.seq,
            rand::random::<u64>() & 0xffff_ffff_ffff
        )
    }

    /// The comments posted through the API on an item (top-level and replies).
    pub fn posted_of(&self, item_id: &str) -> &[works::PostedComment] {
        self.posted_comments
            .get(item_id)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// One account's works on one platform, newest first (the order every platform's work list uses).
    pub(crate) fn newest_works(&self, platform: Platform, open_id: &str) -> Vec<&works::WorkRec> {
        let mut mine: Vec<&works::WorkRec> = self
            .works
            .iter()
            .filter(|w| w.platform == platform && w.open_id == open_id)
            .collect();
        mine.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(b.seq.cmp(&a.seq)));
        mine
    }

    /// Records a successful create: the work (under review) and the per-account counter, in one
    /// critical section so concurrent creates are counted exactly.
    pub fn add_work(
        &mut self,
        platform: Platform,
        open_id: &str,
        item_id: &str,
        video_id: &str,
        title: &str,
    ) {
        let now = self.clock.sandbox_now();
        let mut w = works::WorkRec::new(
            platform,
            open_id,
            item_id,
            video_id,
            title,
            now,
            self.review_delay_ms,
        );
        w.seq = self.works.len() as u64;
        self.works.push(w);
        *self
            .creates
            .entry(format!("{}:{open_id}", platform.code()))
            .or_default() += 1;
        self.total_creates += 1;
    }
}

#[derive(Serialize, Deserialize)]
pub(crate) struct AuthCode {
    pub platform: Platform,
    pub client_key: String,
    pub open_id: String,
    pub expires_at: i64,
    pub used: bool,
    /// What the person consented to (comma separated).
    #[serde(default)]
    pub scope: String,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct Access {
    pub platform: Platform,
    pub open_id: String,
    pub client_key: String,
    pub expires_at: i64,
    /// The scope granted at authorization (comma separated); DY checks it on every user call.
    #[serde(default)]
    pub scope: String,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct Refresh {
    pub platform: Platform,
    pub open_id: String,
    pub client_key: String,
    pub expires_at: i64,
    /// DY: renewals used in this authorization chain (cap 5).
    pub renewals: u32,
    /// KS rotation: a replaced refresh token stays known as "discarded".
    pub alive: bool,
    #[serde(default)]
    pub scope: String,
}

#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct User {
    pub nickname: String,
    pub avatar: String,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct Upload {
    pub platform: Platform,
    pub open_id: String,
    pub parts: BTreeMap<u32, u64>,
    pub done: bool,
    /// Reads the MP4 header as the parts stream by, in order (a restart mid-upload loses it:
    /// the video then reports 0x0).
    #[serde(skip)]
    pub probe: Option<mp4::Probe>,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct Video {
    pub platform: Platform,
    pub open_id: String,
    pub size: u64,
    /// How many parts/fragments it came in (0 = one plain upload).
    pub parts: u32,
    /// Display size read from the MP4 header; 0x0 when the file is not an MP4 we can read.
    #[serde(default)]
    pub width: u32,
    #[serde(default)]
    pub height: u32,
    /// The file's AI-content label (its `AIGC` metadata, GB 45438-2025), read like the size.
    #[serde(default)]
    pub aigc: Option<String>,
}

/// A DY private message (`/im/send/msg/`).
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct ImMessage {
    pub msg_id: String,
    pub open_id: String,
    pub conversation_id: String,
    pub to_user_id: String,
    pub msg_type: i64,
    pub text: String,
    pub create_time: i64,
}

// ---- faults ------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    ExpiredToken,
    RateLimit,
    Quota,
    DailyCap,
    SensitiveWord,
    Oversize,
    TooLong,
    MissingChunk,
    Busy,
    ServerError,
    Timeout,
    OpenIdMismatch,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct FaultRule {
    pub platform: String,
    pub call: String,
    pub fault: Fault,
    /// The next n matching calls; None = every matching call (until cleared).
    pub remaining: Option<u32>,
    pub rate: Option<f64>,
    pub open_id: Option<String>,
    pub hold_ms: u64,
}

/// Default hold of a `timeout` fault: longer than the adapters' default 20 s timeout.
pub(crate) const DEFAULT_HOLD_MS: u64 = 25_000;

/// Asks the fault table about one call. A `timeout` fault sleeps here (the client gives up) and then
/// lets the call proceed; any other fault is returned for the platform to render in its own format.
pub(crate) async fn gate(s: &S, platform: Platform, call: &str, open_id: &str) -> Option<Fault> {
    let hit = {
        let mut st = s.lock();
        let mut hit = None;
        for (i, r) in st.faults.iter_mut().enumerate() {
            let p_ok = r.platform == "*" || r.platform == platform.code();
            let c_ok = r.call == "*" || r.call == call;
            let o_ok = r.open_id.as_deref().is_none_or(|o| o == open_id);
            if !(p_ok && c_ok && o_ok) {
                continue;
            }
            if let Some(rate) = r.rate
                && rand::random::<f64>() >= rate
            {
                continue;
            }
            if let Some(n) = r.remaining.as_mut() {
                *n = n.saturating_sub(1);
            }
            hit = Some((i, r.fault, r.hold_ms));
            break;
        }
        if let Some((i, _, _)) = hit
            && st.faults[i].remaining == Some(0)
        {
            st.faults.remove(i);
        }
        hit
    };
    match hit {
        Some((_, Fault::Timeout, hold)) => {
            tokio::time::sleep(std::time::Duration::from_millis(hold)).await;
            None
        }
        Some((_, f, _)) => Some(f),
        None => None,
    }
}

/// Registers a DY path with and without its trailing slash (the real host has both forms in docs).
pub(crate) fn both(r: Router<S>, path: &str, mr: MethodRouter<S>) -> Router<S> {
    let bare = path.trim_end_matches('/');
    let r = r.route(path, mr.clone());
    if bare != path && !bare.is_empty() {
        r.route(bare, mr)
    } else {
        r
    }
}

pub(crate) fn contains_any(s: &str, words: &[&str]) -> bool {
    let lower = s.to_lowercase();
    words.iter().any(|w| lower.contains(w))
}

/// Stable short hash (ids of people and places must not change between runs).
pub(crate) fn stable_hash(parts: &[&str]) -> u64 {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0u8]);
    }
    let out = h.finalize();
    u64::from_be_bytes(out[..8].try_into().expect("8 bytes"))
}

/// A 32-bit-ish number for nickname suggestions.
pub(crate) fn suggest_suffix() -> u32 {
    1000 + (rand::random::<u32>() % 9000)
}

pub(crate) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// A work list's `cursor` (offset, default 0) and `count` (default `default`, 1..=`max`).
pub(crate) fn cursor_count(
    q: &std::collections::HashMap<String, String>,
    default: usize,
    max: usize,
) -> (usize, usize) {
    let cursor = q.get("cursor").and_then(|c| c.parse().ok()).unwrap_or(0);
    let count = q
        .get("count")
        .and_then(|c| c.parse().ok())
        .unwrap_or(default)
        .clamp(1, max);
    (cursor, count)
}

/// A text field of a JSON body, "" when it is missing or not a string.
pub(crate) fn text_of(body: &serde_json::Value, key: &str) -> String {
    body.get(key)
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
        .to_string()
}
