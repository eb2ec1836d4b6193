//! The [`Flow`] trait: one creator console's pages and steps, one file per platform
//! (`xhs.rs`, and the SPH and shop flows), so a console that changes is a one-file fix. A flow only
//! drives a [`Page`]; opening browsers, keeping login pages alive between polls, retrying a step
//! after a browser crash and verifying a publish in the works list are the adapter's
//! (`super::adapter::BrowserAdapter`).
//!
//! A failed step answers a [`PlatformError`] named after the step ([`Step`]), carrying
//! [`Evidence`]: a screenshot and the HTML of the page at the failing step ([`fail`] builds it).

use super::driver::{DriverError, Page};
use crate::{ErrorKind, PResult, Platform, PlatformError, PublishReq, Work};
use std::sync::Arc;

/// The steps a flow names its failures by (the item shows "上传超时", "登录已失效", ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Opening the browser or a page of the console.
    Open,
    /// The QR login (QR capture, scan, challenge).
    Login,
    /// The session check.
    Check,
    /// The file input and the page's own upload progress.
    Upload,
    /// Title, description, topics, cover, location.
    Form,
    /// The declaration (original / AI-generated / ...).
    Declaration,
    /// The scheduled time.
    Schedule,
    /// The publish button and the page's answer.
    Publish,
    /// Finding the new post in the works list.
    Verify,
    /// Reading the works list.
    Works,
    /// Reading the account's profile card (nickname, followers).
    Profile,
    /// Reading a post's comments, commenting and replying.
    Comments,
}

impl Step {
    /// The step's code in errors (`upload`, `login`, ...).
    pub fn code(self) -> &'static str {
        match self {
            Step::Open => "open",
            Step::Login => "login",
            Step::Check => "check",
            Step::Upload => "upload",
            Step::Form => "form",
            Step::Declaration => "declaration",
            Step::Schedule => "schedule",
            Step::Publish => "publish",
            Step::Verify => "verify",
            Step::Works => "works",
            Step::Profile => "profile",
            Step::Comments => "comments",
        }
    }

    /// The step's name in both console languages.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Step::Open => ("打开创作者中心", "opening the creator console"),
            Step::Login => ("登录", "login"),
            Step::Check => ("登录状态检查", "session check"),
            Step::Upload => ("上传", "upload"),
            Step::Form => ("填写作品信息", "filling in the post"),
            Step::Declaration => ("内容声明", "declaration"),
            Step::Schedule => ("定时发布", "scheduling"),
            Step::Publish => ("发布", "publish"),
            Step::Verify => ("作品核对", "verification"),
            Step::Works => ("读取作品列表", "reading the works list"),
            Step::Profile => ("读取账号信息", "reading the account profile"),
            Step::Comments => ("评论", "comments"),
        }
    }
}

/// What the page looked like when a step failed.
#[derive(Clone, Default)]
pub struct Evidence {
    /// The step's code (`Step::code`).
    pub step: String,
    pub url: String,
    /// PNG of the viewport.
    pub screenshot: Vec<u8>,
    pub html: String,
}

impl std::fmt::Debug for Evidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evidence")
            .field("step", &self.step)
            .field("url", &self.url)
            .field("screenshot_bytes", &self.screenshot.len())
            .field("html_chars", &self.html.len())
            .finish()
    }
}

/// The account as the console shows it after login.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConsoleProfile {
    /// The platform's account id (XHS: 小红书号 / user id).
    pub open_id: String,
    pub nickname: String,
    /// Avatar image URL.
    pub avatar: String,
    pub followers: Option<i64>,
}

/// One poll of a QR login.
#[derive(Debug, Clone, PartialEq)]
pub enum LoginStep {
    /// The QR is shown; nobody scanned yet (or the scan awaits confirmation on the phone).
    Waiting,
    /// The console replaced its QR (expired and refreshed): show this PNG instead.
    NewQr(Vec<u8>),
    /// The console asks for an SMS code: ask the person, then poll again with it.
    SmsChallenge,
    /// The console shows a slider puzzle (its picture, a PNG): the person solves it from the picture
    /// in our console and the flow drags the slider where they said (never solved by us).
    SliderChallenge(Vec<u8>),
    /// Logged in: the profile stays the account's.
    LoggedIn(ConsoleProfile),
    /// The QR expired and the console offers no new one: start again.
    Expired,
}

/// One creator console. Implementations hold the console's base URL (the real host or the
/// sandbox's imitation) and every URL, selector and step of it.
#[async_trait::async_trait]
pub trait Flow: Send + Sync + 'static {
    fn platform(&self) -> Platform;

    /// The console's origin, e.g. `https://creator.xiaohongshu.com` (no trailing slash).
    fn base_url(&self) -> &str;

    /// Opens the login page on a fresh profile and returns the QR code as a PNG.
    async fn login_start(&self, page: &Page) -> PResult<Vec<u8>>;

    /// One look at a login page opened by `login_start`; `sms_code` (typed by the person) is
    /// entered when the page asks for one.
    async fn login_poll(&self, page: &Page, sms_code: Option<&str>) -> PResult<LoginStep>;

    /// Drags a login page's slider puzzle `fraction` (0..=1) of the way along its track, as the
    /// person placed it on the puzzle's picture. Consoles without a slider answer Permanent.
    async fn login_slide(&self, page: &Page, fraction: f64) -> PResult<()> {
        let _ = (page, fraction);
        Err(step_error(
            self.platform(),
            Step::Login,
            ErrorKind::Permanent,
            "this console shows no slider puzzle",
        ))
    }

    /// A cheap "still logged in?" visit. Err(Reauthorize) when the console shows its login page.
    async fn check(&self, page: &Page) -> PResult<()>;

    /// A publish up to its last click: open the publish page, upload through the file input and
    /// wait for the page's own progress, fill the form within the platform's limits, set the
    /// declaration from the request (never the page's default), schedule, and see the publish
    /// button. The canary stops here.
    async fn prepare(&self, page: &Page, req: &PublishReq) -> PResult<()>;

    /// The last click of a prepared publish and the page's answer.
    async fn submit(&self, page: &Page) -> PResult<()>;

    /// Publishes one post: [`Flow::prepare`], then [`Flow::submit`]. Does not verify (the adapter
    /// reads the works list).
    async fn publish(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        self.prepare(page, req).await?;
        self.submit(page).await
    }

    /// The works list, newest first, at most `max`.
    async fn works(&self, page: &Page, max: usize) -> PResult<Vec<Work>>;

    /// The account's follower count now (the console's profile card).
    async fn followers(&self, page: &Page) -> PResult<i64>;

    /// Does this console's flow read and post comments ([`Flow::comments`], [`Flow::post_comment`])?
    fn has_comments(&self) -> bool {
        false
    }

    /// A post's comments, newest first, at most `max` (each with its number of answers). Consoles
    /// without comments answer Permanent.
    async fn comments(
        &self,
        page: &Page,
        item_id: &str,
        max: usize,
    ) -> PResult<Vec<crate::Comment>> {
        let _ = (page, item_id, max);
        Err(crate::error::unsupported(self.platform(), "comments"))
    }

    /// Comments on a post as the account — under `reply_to` when given — and answers the new
    /// comment's id once the page shows it (never trusted from a click alone).
    async fn post_comment(
        &self,
        page: &Page,
        item_id: &str,
        reply_to: Option<&str>,
        text: &str,
    ) -> PResult<String> {
        let _ = (page, item_id, reply_to, text);
        Err(crate::error::unsupported(self.platform(), "post_comment"))
    }
}

/// The error of a failed step, with the page's screenshot and HTML as evidence. `kind` says how
/// the product reacts (a crashed browser should be `Retryable`; a login page is `Reauthorize`).
pub async fn fail(
    page: &Page,
    platform: Platform,
    step: Step,
    kind: ErrorKind,
    detail: &str,
) -> PlatformError {
    let mut e = step_error(platform, step, kind, detail);
    e.evidence = evidence(page, step).await.map(Arc::new);
    e
}

/// A step the console refused for a reason we word ourselves in both languages (a place the
/// location picker does not list), with the page as evidence: permanent, the merchant decides.
pub async fn refuse(
    page: &Page,
    platform: Platform,
    step: Step,
    zh: &str,
    en: &str,
) -> PlatformError {
    let (zh_step, en_step) = step.names();
    PlatformError {
        platform: platform.code(),
        kind: ErrorKind::Permanent,
        code: step.code().to_string(),
        zh: format!("{zh_step}失败：{zh}"),
        en: format!("{en_step} failed: {en}"),
        evidence: evidence(page, step).await.map(Arc::new),
    }
}

/// [`fail`] for a driver error: a timeout is the step's timeout ("上传超时"), a crash is
/// Retryable, anything else Permanent with the page's message.
pub async fn fail_driver(
    page: &Page,
    platform: Platform,
    step: Step,
    err: DriverError,
) -> PlatformError {
    let kind = match err {
        // A proxy may answer again later; its reason stays on the item meanwhile.
        DriverError::Crashed(_)
        | DriverError::Closed
        | DriverError::Timeout(_)
        | DriverError::Proxy(_) => ErrorKind::Retryable,
        DriverError::NotInstalled(_) | DriverError::BadProxy(_) | DriverError::Page(_) => {
            ErrorKind::Permanent
        }
    };
    if err.is_crash() {
        // No page to look at any more.
        return step_error(platform, step, kind, &err.to_string());
    }
    fail(page, platform, step, kind, &err.to_string()).await
}

/// A step error without evidence (no page, or the page is gone).
pub fn step_error(platform: Platform, step: Step, kind: ErrorKind, detail: &str) -> PlatformError {
    let (zh_step, en_step) = step.names();
    let (zh, en) = match kind {
        ErrorKind::Reauthorize => (
            format!("{zh_step}：登录已失效，请重新扫码登录"),
            format!("{en_step}: the login session expired; scan the QR code again"),
        ),
        _ if detail.starts_with("the proxy does not answer") => (
            format!("{zh_step}失败：账号代理无法连接（{detail}）"),
            format!("{en_step} failed: the account's proxy does not answer ({detail})"),
        ),
        _ if detail.starts_with("in use on another node") => (
            format!("{zh_step}：账号正被另一个任务或节点使用，稍后自动重试"),
            format!("{en_step}: the account is busy with another job or node; retried later"),
        ),
        _ if detail.starts_with("bad proxy") => (
            format!("{zh_step}失败：账号代理地址无效，须为 http:// 或 socks5://（{detail}）"),
            format!(
                "{en_step} failed: the account's proxy must be an http:// or socks5:// URL ({detail})"
            ),
        ),
        ErrorKind::Retryable if detail.starts_with("timed out") => (
            format!("{zh_step}超时：{detail}"),
            format!("{en_step} timed out: {detail}"),
        ),
        _ => (
            format!("{zh_step}失败：{detail}"),
            format!("{en_step} failed: {detail}"),
        ),
    };
    PlatformError {
        platform: platform.code(),
        kind,
        code: step.code().to_string(),
        zh,
        en,
        evidence: None,
    }
}

/// A screenshot and the HTML of the page now (None when the page cannot give them).
pub async fn evidence(page: &Page, step: Step) -> Option<Evidence> {
    let screenshot = page.screenshot(None).await.ok()?;
    let html = page.html().await.unwrap_or_default();
    let url = page.url().await.unwrap_or_default();
    Some(Evidence {
        step: step.code().to_string(),
        url,
        screenshot,
        html,
    })
}
