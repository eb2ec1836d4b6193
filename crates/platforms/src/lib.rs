//! Platforms (DESIGN.md §7, PLATFORMS.md): one adapter trait for DY, KS, SPH, XHS, BJH and the shop
//! platform, HTTP adapters speaking each platform's wire format against a base URL (the real host or
//! the bundled sandbox — configuration is the only difference), and the sandbox itself.
//!
//! The product code (jobs, API) only sees [`Adapter`], [`Creds`], [`TokenSet`], [`PublishReq`],
//! [`Work`] and [`PlatformError`]; wire formats stay inside the adapter modules.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

mod billboard;
mod bjh;
pub mod browser;
mod dy;
mod error;
mod http;
mod ks;
pub mod llm;
pub mod sandbox;
mod seo;
mod sign;
pub mod sms;
pub mod vendor;
pub mod voice;
pub mod wechat;

pub use billboard::{Board, BoardEntry, BoardShape, BoardVideo};
pub use bjh::BjhAdapter;
pub use dy::{DyAdapter, SCOPE_IM as DY_SCOPE_IM, SCOPE_SEARCH as DY_SCOPE_SEARCH};
pub use ks::KsAdapter;
pub use seo::{HotWord, MAX_KEYWORD_CHARS, PublicAccount, PublicWork, SearchWord, SearchWordKind};

/// The six platforms and how each authorizes: the domain's vocabulary (`domain::platform`), the
/// same codes in paths, config and the database (`bp` parses as the shop, SPEC's call prefix).
pub use domain::platform::{AuthKind, Platform};

/// App credentials of one platform (DY client_key/secret, KS app_id/app_secret). The operator sets
/// them under /system/app; with none, the sandbox's own apply.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AppCreds {
    pub client_key: String,
    pub client_secret: String,
}

/// Where an adapter talks to and as which app.
#[derive(Debug, Clone)]
pub struct Endpoint {
    /// e.g. `https://open.douyin.com` or `http://127.0.0.1:8080/sandbox/dy` (no trailing slash).
    pub base_url: String,
    pub app: AppCreds,
    /// Per-call timeout; 0 means the default (20 s). Timeouts answer `ErrorKind::Retryable`.
    pub timeout_ms: u64,
    /// The application's clock: token lifetimes and the day a figure is read for.
    pub clock: domain::clock::Clock,
}

impl Default for Endpoint {
    fn default() -> Self {
        Endpoint {
            base_url: String::new(),
            app: AppCreds::default(),
            timeout_ms: DEFAULT_TIMEOUT_MS,
            clock: domain::clock::Clock::default(),
        }
    }
}

impl Endpoint {
    pub fn new(base_url: impl Into<String>, app: AppCreds) -> Endpoint {
        Endpoint {
            base_url: base_url.into(),
            app,
            ..Endpoint::default()
        }
    }
}

pub const DEFAULT_TIMEOUT_MS: u64 = 20_000;

/// What a call on behalf of one account needs. `token` is the access token (DY, KS), the app_token
/// (BJH, with `open_id` = app_id) or the session (SPH, XHS, shop).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Creds {
    pub open_id: String,
    pub token: String,
    /// The account's proxy (`http://` or `socks5://`, unsealed), empty for none: the creator-console
    /// flows browse through it; the open-API adapters do not use it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub proxy: String,
}

/// The result of authorizing or refreshing. Times are unix ms on the platform clock.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TokenSet {
    pub open_id: String,
    pub access_token: String,
    pub refresh_token: String,
    pub expires_at: i64,
    pub refresh_expires_at: i64,
    pub nickname: String,
    pub avatar: String,
    /// The scope the person consented to (DY/KS; '' where the platform has none).
    #[serde(default)]
    pub scope: String,
}

/// A QR login in progress (SPH, XHS, shop).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QrLogin {
    pub login_id: String,
    /// The page a person opens (or scans) to confirm the login.
    pub qr_url: String,
    pub expires_at: i64,
    /// The console's own QR code as captured by the browser flow (`data:image/png;base64,...`);
    /// shown instead of a QR generated from `qr_url` when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qr_image: Option<String>,
}

/// PLATFORMS.md: `logged_out -> qr_pending -> logged_in -> sms_challenge | session_expired`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum SessionState {
    LoggedOut,
    QrPending,
    /// Logged in: the session (stored as `Creds.token`) and who it is.
    LoggedIn {
        session: TokenSet,
    },
    /// The platform asks for an SMS code; poll again with it.
    SmsChallenge,
    /// The console shows a slider puzzle the person must solve (browser flows).
    SliderChallenge,
    SessionExpired,
}

/// One video to publish on one account.
#[derive(Debug, Clone, Default)]
pub struct PublishReq {
    /// Local file to upload.
    pub video_path: PathBuf,
    /// A URL the platform can fetch the same file from (BJH publishes by URL).
    pub video_url: String,
    pub title: String,
    /// Without '#'; adapters put them where the platform wants them (DY: inline `#topic`).
    pub topics: Vec<String>,
    /// Nicknames to @-mention.
    pub at_users: Vec<String>,
    pub poi_id: Option<String>,
    pub poi_name: Option<String>,
    pub micro_app_id: Option<String>,
    pub micro_app_title: Option<String>,
    pub micro_app_url: Option<String>,
    pub cover_path: Option<PathBuf>,
    /// The shop's product the post mounts (the task's product mount): the shop flow puts it in the
    /// Douyin console's cart.
    pub product_id: Option<String>,
    /// The post's text under the title (consoles with a body: XHS, SPH); empty: the title.
    pub description: String,
    /// The declaration the console asks for, always set explicitly (never the page's default).
    pub declaration: Declaration,
    /// Publish at this time (unix seconds, platform clock) instead of now.
    pub schedule_at: Option<i64>,
    /// An image note (图文): its pictures in order (local files); empty for a video. `upload` then
    /// uploads these (its answer names them for `create`) and `video_path` is unused.
    pub images: Vec<PathBuf>,
}

/// The content declaration of a post (原创 / AI 生成 / 转载 ...). Browser flows select the
/// matching choice on the console; `None` selects the console's "no declaration" explicitly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Declaration {
    #[default]
    None,
    Original,
    AiGenerated,
    Reposted,
    Fiction,
}

/// Review state of a published work on the platform.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum WorkStatus {
    Reviewing,
    Public,
    Rejected { reason: String },
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub play: i64,
    pub like: i64,
    pub comment: i64,
    pub share: i64,
}

/// One entry of an account's work list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Work {
    pub item_id: String,
    pub title: String,
    /// Unix seconds.
    pub create_time: i64,
    pub status: WorkStatus,
    pub stats: Stats,
    pub share_url: String,
}

/// A video Douyin's keyword video search found (anyone's, posted in the last day).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeywordVideo {
    /// The search's own id of the video (its comments are read with it).
    pub sec_item_id: String,
    pub title: String,
    pub cover: String,
    /// Unix seconds.
    pub create_time: i64,
    pub share_url: String,
    pub stats: Stats,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Poi {
    pub poi_id: String,
    pub poi_name: String,
    pub address: String,
    pub city: String,
    pub province: String,
}

/// An account's follower count on one China day (`domain::matrix::day_of`), as the platform reports
/// it: DY's fans data gives the last days, KS and the session consoles the count now (today).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FollowerDay {
    pub day: i64,
    pub total: i64,
}

/// Does the platform tell an app an account's follower count? BJH's developer service has no such
/// call (PLATFORMS.md), so its accounts show none rather than an invented figure.
pub fn has_follower_api(p: Platform) -> bool {
    !matches!(p, Platform::Bjh)
}

/// One comment under a work (DY; other platforms have no comment API).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comment {
    pub comment_id: String,
    pub user_id: String,
    pub content: String,
    /// Unix seconds.
    pub create_time: i64,
    pub digg_count: i64,
    pub reply_total: i64,
    pub top: bool,
}

/// One page of comments, newest first, and where the next page starts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CommentPage {
    pub list: Vec<Comment>,
    pub cursor: String,
    pub has_more: bool,
}

/// Does the platform let an app read and answer comments? KS has no comment API (PLATFORMS.md);
/// XHS through its note pages and SPH through its console's 互动管理 · 评论 page, both in the browser
/// (`browser::xhs`, `browser::sph`); BJH and the shop platform have none.
pub fn has_comment_api(p: Platform) -> bool {
    matches!(p, Platform::Dy | Platform::Sph | Platform::Xhs)
}

/// A signed H5 share link and the share id its create_video webhook will carry.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ShareLink {
    pub share_id: String,
    pub schema: String,
    /// The ticket behind the signature ends then (platform clock, unix ms).
    pub expires_at: i64,
}

/// How the product must react to a failed call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Busy, rate limit, 5xx, timeout, network: back off and try again.
    Retryable,
    /// Access token expired or invalid: refresh, then try again.
    TokenExpired,
    /// Refresh impossible or session dead: the account needs authorizing again.
    Reauthorize,
    /// Sensitive word, banned, quota/daily cap, too large, rejected: fail the item with the reason.
    Permanent,
}

/// A platform error with the platform's code and a reason in both console languages.
#[derive(Debug, Clone, thiserror::Error, Serialize)]
#[error("{platform} {code}: {en}")]
pub struct PlatformError {
    pub platform: &'static str,
    pub kind: ErrorKind,
    /// The platform's own code (e.g. "2111001") or "http_503", "timeout", "network".
    pub code: String,
    pub zh: String,
    pub en: String,
    /// Browser flows: the failing step's screenshot and HTML (`browser::Evidence`), kept by the
    /// caller with the item; never serialized.
    #[serde(skip)]
    pub evidence: Option<std::sync::Arc<browser::Evidence>>,
}

pub type PResult<T> = Result<T, PlatformError>;

/// One adapter per platform. Calls that a platform does not have answer a Permanent error saying so
/// (e.g. `start_qr_login` on DY); the product asks `Platform::auth_kind` before calling.
#[async_trait::async_trait]
pub trait Adapter: Send + Sync {
    fn platform(&self) -> Platform;

    /// OAuth consent URL the person opens (DY, KS).
    fn authorize_url(&self, redirect_uri: &str, state: &str) -> PResult<String>;
    /// Single-use code -> tokens, with the user's nickname and avatar.
    async fn exchange_code(&self, code: &str) -> PResult<TokenSet>;
    /// New access token from the refresh token (DY: refresh expiry unchanged; KS rotates).
    async fn refresh(&self, tokens: &TokenSet) -> PResult<TokenSet>;

    /// Starts a QR login (SPH, XHS, shop).
    async fn start_qr_login(&self) -> PResult<QrLogin>;
    /// [`Adapter::start_qr_login`] with the login page going through `proxy` (the account-to-be's,
    /// checked by `domain::matrix::proxy`; "" none), so the console sees the account log in from
    /// the address it will post from. Only the browser flows take one.
    async fn start_qr_login_via(&self, proxy: &str) -> PResult<QrLogin> {
        if proxy.is_empty() {
            self.start_qr_login().await
        } else {
            Err(error::unsupported(self.platform(), "start_qr_login_via"))
        }
    }
    /// Polls a QR login; `sms_code` answers an SMS challenge.
    async fn poll_qr_login(&self, login_id: &str, sms_code: Option<&str>) -> PResult<SessionState>;
    /// The QR a login in progress shows now (`data:image/png;base64,...`), when the adapter
    /// captured it from the platform's page (browser flows: the console replaced an expired QR).
    fn qr_image(&self, login_id: &str) -> Option<String> {
        let _ = login_id;
        None
    }
    /// The slider puzzle a login in progress shows now (a PNG data URL), while it shows one
    /// (`SessionState::SliderChallenge`).
    fn challenge_image(&self, login_id: &str) -> Option<String> {
        let _ = login_id;
        None
    }
    /// Answers a login's slider puzzle: the person placed the piece `fraction` (0..=1) of the way
    /// along the track on its picture; the adapter drags the page's slider there.
    async fn slide(&self, login_id: &str, fraction: f64) -> PResult<()> {
        let _ = (login_id, fraction);
        Err(error::unsupported(self.platform(), "slide"))
    }
    /// Is the stored session (or token) still alive? Err(Reauthorize) when not.
    async fn check(&self, creds: &Creds) -> PResult<()>;

    /// BJH: checks app_id/app_token and returns the account it names.
    async fn verify_app_token(&self, app_id: &str, app_token: &str) -> PResult<TokenSet>;

    /// Uploads the file (chunked where the platform wants it); returns the platform's video id.
    async fn upload(&self, creds: &Creds, req: &PublishReq) -> PResult<String>;
    /// Creates the post from an uploaded video; returns the platform's item id.
    async fn create(&self, creds: &Creds, video_id: &str, req: &PublishReq) -> PResult<String>;
    /// The account's works, newest first, at most `max` of them.
    async fn list_works(&self, creds: &Creds, max: usize) -> PResult<Vec<Work>>;
    /// Posts a comment under a work (top comments); returns the comment id.
    async fn comment(&self, creds: &Creds, item_id: &str, text: &str) -> PResult<String>;
    /// POI search (the sandbox serves it for every platform).
    async fn poi_search(&self, keyword: &str, city: &str) -> PResult<Vec<Poi>>;

    /// The canary: walks a publish up to its last click on `creds`' account without publishing, and
    /// answers the step (and selector) that no longer matches the platform's pages. Creator-console
    /// flows only; the others answer Permanent.
    async fn canary(&self, creds: &Creds, req: &PublishReq) -> PResult<()> {
        let _ = (creds, req);
        Err(error::unsupported(self.platform(), "canary"))
    }

    /// Douyin's H5 share schema (PLATFORMS.md): a signed `snssdk1128://` link that opens the
    /// customer's own app ready to post `video_url`; the result arrives as a create_video webhook
    /// carrying the returned share id. DY only.
    async fn share_link(
        &self,
        video_url: &str,
        title: &str,
        hashtags: &[String],
    ) -> PResult<ShareLink> {
        let _ = (video_url, title, hashtags);
        Err(error::unsupported(self.platform(), "share_link"))
    }

    /// Comments under a work, newest first, at most `max` (DY only; others answer Permanent).
    async fn list_comments(
        &self,
        creds: &Creds,
        item_id: &str,
        max: usize,
    ) -> PResult<Vec<Comment>> {
        let _ = (creds, item_id, max);
        Err(error::unsupported(self.platform(), "list_comments"))
    }
    /// Replies to one comment; returns the new comment id (DY only).
    async fn reply_comment(
        &self,
        creds: &Creds,
        item_id: &str,
        comment_id: &str,
        text: &str,
    ) -> PResult<String> {
        let _ = (creds, item_id, comment_id, text);
        Err(error::unsupported(self.platform(), "reply_comment"))
    }

    /// One page of a work's comments from `cursor` ("0" or "" first), newest first (DY, SPH, XHS).
    async fn comment_page(
        &self,
        creds: &Creds,
        item_id: &str,
        cursor: &str,
        count: usize,
    ) -> PResult<CommentPage> {
        let _ = (creds, item_id, cursor, count);
        Err(error::unsupported(self.platform(), "comment_page"))
    }
    /// The replies under one comment, newest first (DY `/item/comment/reply/list/`).
    async fn comment_replies(
        &self,
        creds: &Creds,
        item_id: &str,
        comment_id: &str,
    ) -> PResult<Vec<Comment>> {
        let _ = (creds, item_id, comment_id);
        Err(error::unsupported(self.platform(), "comment_replies"))
    }
    /// Sends a private text message to a customer in a conversation; returns the message id (DY
    /// business accounts, `/im/send/msg/`).
    async fn send_message(
        &self,
        creds: &Creds,
        conversation_id: &str,
        to_user_id: &str,
        text: &str,
    ) -> PResult<String> {
        let _ = (creds, conversation_id, to_user_id, text);
        Err(error::unsupported(self.platform(), "send_message"))
    }

    /// The account's follower count: DY `GET /data/external/user/fans/` (total_fans of the last 7
    /// days), KS `/openapi/user_info` (`fan`, today), SPH/XHS/shop the console's profile (today).
    /// Oldest day first. Platforms without it answer Permanent (`has_follower_api`).
    async fn followers(&self, creds: &Creds) -> PResult<Vec<FollowerDay>> {
        let _ = creds;
        Err(error::unsupported(self.platform(), "followers"))
    }

    // ---- SEO (docs/seo-platforms.md). App credentials only, no account token. ----

    /// The platform's hot-search list, top first (DY `/hotsearch/sentences/` with the labels of
    /// `/hotsearch/trending/sentences/`).
    async fn hot_search(&self) -> PResult<Vec<HotWord>> {
        Err(error::unsupported(self.platform(), "hot_search"))
    }

    /// Videos anyone posted in the last day for a keyword, newest first, at most `max` (DY
    /// `/video/search/`: the account's token with the `video.search` scope; the keywords must be
    /// ones the app registered).
    async fn keyword_videos(
        &self,
        creds: &Creds,
        keyword: &str,
        max: usize,
    ) -> PResult<Vec<KeywordVideo>> {
        let _ = (creds, keyword, max);
        Err(error::unsupported(self.platform(), "keyword_videos"))
    }

    // ---- Hot lists (docs/content-platforms.md). App credentials only. ----

    /// One billboard, top first (DY `/data/extern/billboard/...`).
    async fn billboard(&self, board: Board) -> PResult<Vec<BoardEntry>> {
        let _ = board;
        Err(error::unsupported(self.platform(), "billboard"))
    }
}

/// Builds the adapter of an open platform (DY, KS, BJH) at an endpoint. Cheap: each adapter holds
/// one reqwest client, so build once per (platform, endpoint) and share the `Arc`. None for the
/// creator-console platforms (SPH, XHS, the shop): they are driven in a browser
/// (`browser::BrowserAdapter`), which needs the browser driver.
pub fn adapter(platform: Platform, endpoint: Endpoint) -> Option<std::sync::Arc<dyn Adapter>> {
    use std::sync::Arc;
    Some(match platform {
        Platform::Dy => Arc::new(DyAdapter::new(endpoint)),
        Platform::Ks => Arc::new(KsAdapter::new(endpoint)),
        Platform::Bjh => Arc::new(BjhAdapter::new(endpoint)),
        Platform::Sph | Platform::Xhs | Platform::Shop => return None,
    })
}
