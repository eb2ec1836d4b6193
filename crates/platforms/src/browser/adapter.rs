//! [`BrowserAdapter`]: `crate::Adapter` for a platform whose creator console a [`Flow`] drives.
//!
//! - QR login: `start_qr_login` opens a browser on a fresh profile (key `<platform>-<random>`, which
//!   is also the login id), captures the console's QR and keeps the page open in the driver between
//!   polls; `poll_qr_login` looks at that page again. Logged in, the page closes and the profile
//!   stays as the account's: the session's `Creds.token` is the profile key. An abandoned login is
//!   closed (and its profile removed) after [`LOGIN_TTL_MS`].
//! - `upload` only checks the file (the console uploads inside its publish form); `create` runs
//!   the flow's publish and then finds the new post in the works list by title and time: a publish
//!   that silently did nothing fails as "not listed" (never trusted from a toast).
//! - Every step runs on the account's own profile; a browser that crashed or hung is killed by the
//!   driver and the step retried once (a publish first looks for its post, so a retry never posts
//!   twice).
//! - With a [`ProfileStore`] (the database, `profiles`), every step first takes the account's lease
//!   (two nodes never drive one account at once), gives the browser the stored login when this
//!   node's copy is older, and writes the login back after the step; a finished QR login stores
//!   its first state.

use super::driver::{Driver, Identity, Page};
use super::flow::{self, Flow, LoginStep, Step};
use super::profiles::{self, LEASE_RENEW_MS, LEASE_TTL_MS, ProfileStore, StoredProfile};
use crate::{
    Adapter, Creds, ErrorKind, FollowerDay, PResult, Platform, Poi, PublishReq, QrLogin,
    SessionState, TokenSet, Work, error,
};
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

/// How long a login page waits for its scan (the consoles' QR lifetime is shorter; they refresh).
pub const LOGIN_TTL_MS: i64 = 5 * 60_000;
/// How long a browser session is assumed to live (the session check finds out earlier).
pub const SESSION_TTL_MS: i64 = 30 * 86_400_000;
/// How far back a listed post may be dated and still be the one just published (clock skew,
/// minute-precision times in the console).
const VERIFY_SLACK_SECS: i64 = 180;
/// How often the works list is read (a second apart) before a publish counts as "not listed".
const VERIFY_READS: usize = 3;

struct Login {
    page: Arc<Page>,
    expires_at: i64,
    /// The QR the console shows now, as a data URL.
    qr_image: String,
    /// The slider puzzle the console shows now (a data URL), while it shows one.
    challenge: Option<String>,
}

fn png_data_url(png: &[u8]) -> String {
    use base64::Engine;
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    )
}

pub struct BrowserAdapter {
    flow: Arc<dyn Flow>,
    driver: Driver,
    clock: domain::clock::Clock,
    logins: Mutex<HashMap<String, Login>>,
    /// The cluster's copy of each account's login and its lease (None: this node's profiles only).
    profiles: Option<Arc<dyn ProfileStore>>,
}

/// How long a step waits for an account another node (or job) is driving.
const LEASE_WAIT: std::time::Duration = std::time::Duration::from_secs(300);

/// An account's lease while a step runs: renewed in the background, given back by [`Lease::end`]
/// (or by running out, when the step's future is dropped).
struct Lease {
    store: Arc<dyn ProfileStore>,
    key: String,
    holder: String,
    renew: tokio::task::JoinHandle<()>,
}

impl Lease {
    async fn end(self) {
        self.renew.abort();
        self.store.release(&self.key, &self.holder).await;
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.renew.abort();
    }
}

/// What this node knows of an account's stored login before a step.
struct Restore {
    /// The stored state to give the browser (this node's copy is older or missing).
    state: Option<serde_json::Value>,
    /// The stored state as read (the step writes back only what changed).
    stored: Option<StoredProfile>,
}

impl BrowserAdapter {
    pub fn new(flow: Arc<dyn Flow>, driver: Driver, clock: domain::clock::Clock) -> BrowserAdapter {
        BrowserAdapter {
            flow,
            driver,
            clock,
            logins: Mutex::default(),
            profiles: None,
        }
    }

    /// Keeps each account's login in `store` and drives an account only under its lease there.
    pub fn with_profiles(mut self, store: Arc<dyn ProfileStore>) -> BrowserAdapter {
        self.profiles = Some(store);
        self
    }

    pub fn flow(&self) -> &Arc<dyn Flow> {
        &self.flow
    }

    pub fn driver(&self) -> &Driver {
        &self.driver
    }

    fn p(&self) -> Platform {
        self.flow.platform()
    }

    /// The identity of a profile key (fixed per key).
    pub fn identity(key: &str) -> Identity {
        Identity::for_seed(key)
    }

    fn session_key<'a>(&self, creds: &'a Creds) -> PResult<&'a str> {
        if creds.token.is_empty() {
            return Err(error::reason(
                self.p(),
                "session_expired",
                error::Reason::SessionExpired,
                "",
            ));
        }
        Ok(&creds.token)
    }

    async fn open(
        &self,
        key: &str,
        step: Step,
        proxy: &str,
        state: Option<&serde_json::Value>,
    ) -> PResult<Page> {
        let identity = Self::identity(key)
            .with_proxy(proxy)
            .map_err(|e| flow::step_error(self.p(), step, ErrorKind::Permanent, &e.to_string()))?;
        self.driver
            .open_with(key, &identity, state)
            .await
            .map_err(|e| {
                let kind = if e.is_crash() {
                    ErrorKind::Retryable
                } else {
                    ErrorKind::Permanent
                };
                flow::step_error(self.p(), step, kind, &e.to_string())
            })
    }

    /// Runs `f` on the account's browser; when the browser crashed or hung under it (the page is
    /// no longer alive), once more on a fresh one.
    async fn with_page<T, F, Fut>(&self, creds: &Creds, step: Step, f: F) -> PResult<T>
    where
        F: Fn(Arc<Page>, bool) -> Fut,
        Fut: Future<Output = PResult<T>>,
    {
        let key = self.session_key(creds)?;
        let lease = self.lease(key, step).await?;
        let restore = self.restore(key).await;
        let mut retry = false;
        let out = loop {
            let page = match self
                .open(key, step, &creds.proxy, restore.state.as_ref())
                .await
            {
                Ok(p) => Arc::new(p),
                Err(e) => break Err(e),
            };
            let r = f(page.clone(), retry).await;
            let alive = page.alive().await;
            if alive {
                self.keep_state(&page, key, restore.stored.as_ref()).await;
            }
            // A step that went well leaves its browser open a moment for the account's next step
            // (a publish's verification, its top comments); a failed one starts afresh.
            match Arc::try_unwrap(page) {
                Ok(page) if alive && r.is_ok() => self.driver.park(page).await,
                Ok(page) => page.close().await,
                Err(page) => page.close().await,
            }
            match r {
                Err(e) if !alive && !retry => {
                    tracing::warn!(platform = self.p().code(), step = step.code(), err = %e, "browser lost; retrying the step once");
                    retry = true;
                }
                r => break r,
            }
        };
        if let Some(l) = lease {
            l.end().await;
        }
        out
    }

    /// Takes the account's lease, waiting while another node or job drives it (None without a
    /// store).
    async fn lease(&self, key: &str, step: Step) -> PResult<Option<Lease>> {
        let Some(store) = self.profiles.clone() else {
            return Ok(None);
        };
        let holder = profiles::holder_name();
        let started = std::time::Instant::now();
        loop {
            match store.lease(key, &holder, LEASE_TTL_MS).await {
                Ok(true) => break,
                Ok(false) => {
                    // A worker of this machine killed mid-flow left its lease: take it now instead
                    // of waiting for it to run out.
                    if let Ok(Some(old)) = store.holder(key).await
                        && profiles::is_dead_here(&old)
                        && matches!(
                            store.take_over(key, &old, &holder, LEASE_TTL_MS).await,
                            Ok(true)
                        )
                    {
                        tracing::info!(key, old, "profile lease taken from a process that is gone");
                        break;
                    }
                }
                Err(e) => tracing::warn!(key, err = %e, "profile lease: the store did not answer"),
            }
            if started.elapsed() >= LEASE_WAIT {
                return Err(flow::step_error(
                    self.p(),
                    step,
                    ErrorKind::Retryable,
                    "in use on another node: the account is busy with another job",
                ));
            }
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
        }
        let renew = {
            let (store, key, holder) = (store.clone(), key.to_string(), holder.clone());
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(std::time::Duration::from_millis(LEASE_RENEW_MS)).await;
                    if !matches!(store.lease(&key, &holder, LEASE_TTL_MS).await, Ok(true)) {
                        tracing::warn!(key, "profile lease lost while a step ran");
                    }
                }
            })
        };
        Ok(Some(Lease {
            store,
            key: key.to_string(),
            holder,
            renew,
        }))
    }

    /// The stored login, and whether this node's copy must take it.
    async fn restore(&self, key: &str) -> Restore {
        let none = Restore {
            state: None,
            stored: None,
        };
        let Some(store) = &self.profiles else {
            return none;
        };
        let stored = match store.load(key).await {
            Ok(Some(s)) => s,
            Ok(None) => return none,
            Err(e) => {
                tracing::warn!(key, err = %e, "profile store did not answer; using this node's copy");
                return none;
            }
        };
        let dir = self.driver.profile_dir(key);
        let current = profiles::local_version(&dir) == Some(stored.version);
        Restore {
            state: if current {
                None
            } else {
                serde_json::from_str(&stored.state).ok()
            },
            stored: Some(stored),
        }
    }

    /// Writes the browser's login back to the store when it changed, and notes the version this
    /// node's copy now holds.
    async fn keep_state(&self, page: &Page, key: &str, stored: Option<&StoredProfile>) {
        let Some(store) = &self.profiles else {
            return;
        };
        let state = match page.storage_state().await {
            Ok(v) => v.to_string(),
            Err(e) => {
                tracing::warn!(key, err = %e, "browser state not read");
                return;
            }
        };
        let dir = self.driver.profile_dir(key);
        if let Some(s) = stored.filter(|s| s.state == state) {
            profiles::set_local_version(&dir, s.version);
            return;
        }
        match store.save(key, &state).await {
            Ok(v) => profiles::set_local_version(&dir, v),
            Err(e) => tracing::warn!(key, err = %e, "browser state not stored"),
        }
    }

    /// Whether the flow has comments at all (no browser is opened for a console without them).
    fn comments_offered(&self, call: &str) -> PResult<()> {
        if self.flow.has_comments() {
            Ok(())
        } else {
            Err(error::unsupported(self.p(), call))
        }
    }

    /// Closes the login pages nobody finished.
    async fn reap_logins(&self) {
        let now = self.clock.platform_now();
        let dead: Vec<(String, Login)> = {
            let mut m = self.logins.lock().unwrap_or_else(|e| e.into_inner());
            let keys: Vec<String> = m
                .iter()
                .filter(|(_, l)| l.expires_at <= now)
                .map(|(k, _)| k.clone())
                .collect();
            keys.into_iter()
                .filter_map(|k| m.remove(&k).map(|l| (k, l)))
                .collect()
        };
        for (key, l) in dead {
            l.page.close().await;
            let _ = tokio::fs::remove_dir_all(self.driver.profile_dir(&key)).await;
        }
    }

    fn login_page(&self, login_id: &str) -> Option<Arc<Page>> {
        self.logins
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(login_id)
            .map(|l| l.page.clone())
    }

    async fn end_login(&self, login_id: &str, keep_profile: bool) {
        let l = self
            .logins
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(login_id);
        if let Some(l) = l {
            l.page.close().await;
        }
        if !keep_profile {
            let _ = tokio::fs::remove_dir_all(self.driver.profile_dir(login_id)).await;
        }
    }

    /// The post just published: listed with the request's title, dated from `since` on.
    fn find_post<'a>(works: &'a [Work], req: &PublishReq, since: i64) -> Option<&'a Work> {
        let want = req.title.trim();
        works.iter().find(|w| {
            let t = w.title.trim();
            !t.is_empty()
                && (t == want || want.starts_with(t))
                && w.create_time >= since - VERIFY_SLACK_SECS
        })
    }

    /// Reads the works list until the post shows (the list can lag its publish by a moment).
    async fn verify(&self, page: &Page, req: &PublishReq, since: i64) -> PResult<String> {
        for attempt in 0..VERIFY_READS {
            let works = self.flow.works(page, 30).await?;
            if let Some(w) = Self::find_post(&works, req, since) {
                return Ok(w.item_id.clone());
            }
            if attempt + 1 < VERIFY_READS {
                tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
            }
        }
        Err(flow::fail(
            page,
            self.p(),
            Step::Verify,
            ErrorKind::Permanent,
            "not listed: the post is not in the works list after publishing",
        )
        .await)
    }
}

#[async_trait::async_trait]
impl Adapter for BrowserAdapter {
    fn platform(&self) -> Platform {
        self.p()
    }

    fn authorize_url(&self, _redirect_uri: &str, _state: &str) -> PResult<String> {
        Err(error::unsupported(self.p(), "authorize_url"))
    }

    async fn exchange_code(&self, _code: &str) -> PResult<TokenSet> {
        Err(error::unsupported(self.p(), "exchange_code"))
    }

    /// A console session cannot be refreshed: when it dies the person scans again.
    async fn refresh(&self, _tokens: &TokenSet) -> PResult<TokenSet> {
        Err(error::reason(
            self.p(),
            "session_expired",
            error::Reason::SessionExpired,
            "",
        ))
    }

    async fn start_qr_login(&self) -> PResult<QrLogin> {
        self.start_qr_login_via("").await
    }

    /// The login page opens through the account-to-be's proxy: a console that sees the QR scanned
    /// from one address and the posts come from another has a reason to challenge the account.
    async fn start_qr_login_via(&self, proxy: &str) -> PResult<QrLogin> {
        self.reap_logins().await;
        let key = format!("{}-{:016x}", self.p().code(), rand::random::<u64>());
        let page = self.open(&key, Step::Login, proxy, None).await?;
        let png = match self.flow.login_start(&page).await {
            Ok(png) => png,
            Err(e) => {
                page.close().await;
                let _ = tokio::fs::remove_dir_all(self.driver.profile_dir(&key)).await;
                return Err(e);
            }
        };
        let url = page.url().await.unwrap_or_default();
        let expires_at = self.clock.platform_now() + LOGIN_TTL_MS;
        let qr_image = png_data_url(&png);
        self.logins
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(
                key.clone(),
                Login {
                    page: Arc::new(page),
                    expires_at,
                    qr_image: qr_image.clone(),
                    challenge: None,
                },
            );
        Ok(QrLogin {
            login_id: key,
            qr_url: url,
            expires_at,
            qr_image: Some(qr_image),
        })
    }

    fn qr_image(&self, login_id: &str) -> Option<String> {
        self.logins
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(login_id)
            .map(|l| l.qr_image.clone())
    }

    fn challenge_image(&self, login_id: &str) -> Option<String> {
        self.logins
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(login_id)
            .and_then(|l| l.challenge.clone())
    }

    /// The person's answer to the slider puzzle, dragged on the login page; the next poll says
    /// whether the console took it. An unknown login answers `SessionExpired`.
    async fn slide(&self, login_id: &str, fraction: f64) -> PResult<()> {
        let Some(page) = self.login_page(login_id) else {
            return Err(error::reason(
                self.p(),
                "session_expired",
                error::Reason::SessionExpired,
                "",
            ));
        };
        self.flow.login_slide(&page, fraction).await
    }

    /// An unknown or abandoned login answers `LoggedOut`: start a new one.
    async fn poll_qr_login(&self, login_id: &str, sms_code: Option<&str>) -> PResult<SessionState> {
        self.reap_logins().await;
        let Some(page) = self.login_page(login_id) else {
            return Ok(SessionState::LoggedOut);
        };
        let step = match self.flow.login_poll(&page, sms_code).await {
            Ok(s) => s,
            Err(e) => {
                if !page.alive().await {
                    self.end_login(login_id, false).await;
                }
                return Err(e);
            }
        };
        let challenge = match &step {
            LoginStep::SliderChallenge(png) => Some(png_data_url(png)),
            _ => None,
        };
        if let Some(l) = self
            .logins
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(login_id)
        {
            l.challenge = challenge;
        }
        Ok(match step {
            LoginStep::Waiting => SessionState::QrPending,
            LoginStep::NewQr(png) => {
                if let Some(l) = self
                    .logins
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_mut(login_id)
                {
                    l.qr_image = png_data_url(&png);
                }
                SessionState::QrPending
            }
            LoginStep::SmsChallenge => SessionState::SmsChallenge,
            LoginStep::SliderChallenge(_) => SessionState::SliderChallenge,
            LoginStep::Expired => {
                self.end_login(login_id, false).await;
                SessionState::SessionExpired
            }
            LoginStep::LoggedIn(profile) => {
                // The new account's first login state, for every node.
                self.keep_state(&page, login_id, None).await;
                self.end_login(login_id, true).await;
                let now = self.clock.platform_now();
                SessionState::LoggedIn {
                    session: TokenSet {
                        open_id: profile.open_id,
                        access_token: login_id.to_string(),
                        refresh_token: String::new(),
                        expires_at: now + SESSION_TTL_MS,
                        refresh_expires_at: now + SESSION_TTL_MS,
                        nickname: profile.nickname,
                        avatar: profile.avatar,
                        scope: String::new(),
                    },
                }
            }
        })
    }

    async fn check(&self, creds: &Creds) -> PResult<()> {
        self.with_page(creds, Step::Check, |page, _| async move {
            self.flow.check(&page).await
        })
        .await
    }

    async fn verify_app_token(&self, _app_id: &str, _app_token: &str) -> PResult<TokenSet> {
        Err(error::unsupported(self.p(), "verify_app_token"))
    }

    /// The console uploads inside its publish form: here the file is only checked, and its path
    /// is the "video id" `create` gets back.
    async fn upload(&self, creds: &Creds, req: &PublishReq) -> PResult<String> {
        self.session_key(creds)?;
        if !req.images.is_empty() {
            // An image note: the flow puts the pictures into the console's image tab.
            for f in &req.images {
                crate::http::file_len(self.p(), f)?;
            }
            return Ok(format!("{} images", req.images.len()));
        }
        crate::http::file_len(self.p(), &req.video_path)?;
        Ok(req.video_path.display().to_string())
    }

    async fn create(&self, creds: &Creds, _video_id: &str, req: &PublishReq) -> PResult<String> {
        let since = self.clock.platform_now() / 1000;
        self.with_page(creds, Step::Publish, |page, retry| async move {
            if retry {
                // The crashed try may have published: never a second post.
                let works = self.flow.works(&page, 30).await?;
                if let Some(w) = Self::find_post(&works, req, since) {
                    return Ok(w.item_id.clone());
                }
            }
            self.flow.publish(&page, req).await?;
            self.verify(&page, req, since).await
        })
        .await
    }

    /// The publish walked up to its last click on the account's own profile; the page closes with
    /// the draft unsent.
    async fn canary(&self, creds: &Creds, req: &PublishReq) -> PResult<()> {
        crate::http::file_len(self.p(), &req.video_path)?;
        self.with_page(creds, Step::Publish, |page, _| async move {
            self.flow.prepare(&page, req).await
        })
        .await
    }

    async fn list_works(&self, creds: &Creds, max: usize) -> PResult<Vec<Work>> {
        self.with_page(creds, Step::Works, |page, _| async move {
            self.flow.works(&page, max).await
        })
        .await
    }

    /// A comment on the account's own post (the release's top comment), as the page shows it.
    async fn comment(&self, creds: &Creds, item_id: &str, text: &str) -> PResult<String> {
        self.comments_offered("comment")?;
        self.with_page(creds, Step::Comments, |page, _| async move {
            self.flow.post_comment(&page, item_id, None, text).await
        })
        .await
    }

    /// A post's comments in one page, newest first (the note page holds what it shows: no cursor).
    async fn comment_page(
        &self,
        creds: &Creds,
        item_id: &str,
        _cursor: &str,
        count: usize,
    ) -> PResult<crate::CommentPage> {
        self.comments_offered("comment_page")?;
        let list = self
            .with_page(creds, Step::Comments, |page, _| async move {
                self.flow.comments(&page, item_id, count).await
            })
            .await?;
        Ok(crate::CommentPage {
            list,
            cursor: String::new(),
            has_more: false,
        })
    }

    /// An answer to a comment, as the page shows it.
    async fn reply_comment(
        &self,
        creds: &Creds,
        item_id: &str,
        comment_id: &str,
        text: &str,
    ) -> PResult<String> {
        self.comments_offered("reply_comment")?;
        self.with_page(creds, Step::Comments, |page, _| async move {
            self.flow
                .post_comment(&page, item_id, Some(comment_id), text)
                .await
        })
        .await
    }

    async fn poi_search(&self, _keyword: &str, _city: &str) -> PResult<Vec<Poi>> {
        Err(error::unsupported(self.p(), "poi_search"))
    }

    /// The console's profile card: today's count.
    async fn followers(&self, creds: &Creds) -> PResult<Vec<FollowerDay>> {
        let total = self
            .with_page(creds, Step::Profile, |page, _| async move {
                self.flow.followers(&page).await
            })
            .await?;
        Ok(vec![FollowerDay {
            day: domain::matrix::day_of(self.clock.platform_now()),
            total,
        }])
    }
}
