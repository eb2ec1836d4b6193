//! The Xiaohongshu creator console (`https://creator.xiaohongshu.com`): every URL, selector and step
//! of it. A page change is a fix in this file only.
//!
//! Learned from the public projects that drive it (read, not copied): social-auto-upload
//! (github.com/dreammis/social-auto-upload, `uploader/xiaohongshu_uploader/main.py`: login box, QR,
//! the video publish page, `input.upload-input`, the `preview-new` progress, title/body/topic
//! selectors, 定时发布 switch, 内容类型声明, `/publish/success`) and xiaohongshu-mcp
//! (github.com/xpzouying/xiaohongshu-mcp, `xiaohongshu/login.go`, `publish_video.go`: QR image,
//! logged-in markers, title input). The sandbox console (`sandbox::xhs_console`) serves pages with
//! the same paths and the structure selected on here.
//!
//! Steps and what each waits for:
//! - **login_start**: `/login`; waits for the login box, switches it to the QR (the page opens on
//!   the SMS form), waits for the QR image and screenshots it.
//! - **login_poll**: enters a typed SMS code when the page asks; then waits (briefly) for the first
//!   of: the home page's account card (logged in: reads id, nickname, avatar, followers), the SMS
//!   challenge, the slider puzzle (answers its picture: the person places the piece in our console),
//!   the "QR expired" cover (clicks refresh, answers the new QR), the QR still shown (waiting).
//! - **login_slide**: drags the puzzle's handle the fraction of its track the person chose (a
//!   hand's uneven moves) and waits (up to 5 s) for the page's answer: a new puzzle with its
//!   message, the SMS step or the home page. The puzzle's box
//!   is `div.red-captcha-slider`; its picture, track and handle inside it are the sandbox's layout
//!   (no public project documents the live captcha's inner markup: the page check names the selector
//!   when the live console differs).
//! - **check**: `/new/home`; the account card (alive) or the login box (expired).
//! - **publish**: `/publish/publish?from=homepage&target=video` (login box: expired); the file
//!   input gets the file; waits for the upload preview to say 上传成功 (the page's own progress,
//!   up to [`UPLOAD_WAIT`]) or its failure text; types the title (≤ 20 characters), fills the body
//!   (≤ 1,000) and adds each topic (≤ 10) from the editor's topic list; a video with a cover
//!   frame gets it through the cover dialog (`div.upload-cover` → 上传封面 → the picture → 确定;
//!   waits for the dialog to close); a post with a place types it into the location picker
//!   (`div.d-select-placeholder`, social-auto-upload `set_location`) and clicks the listed place
//!   of exactly that name (none: fails with the names listed); sets the declaration from
//!   the request (none: clears any preset); sets the schedule (≥ 1 h, ≤ 14 days ahead); clicks
//!   publish and waits for `/publish/success`, an error message, or the login box.
//! - **publish an image note** (图文, `PublishReq::images`): `/publish/publish?source=official`
//!   (xiaohongshu-mcp `publish.go`: the publish page, then its `div.creator-tab` 上传图文); the
//!   pictures go one at a time into the tab's file input (the one that accepts images), each
//!   waited for until the page's preview list (`.img-preview-area .pr`) holds it (up to
//!   [`IMAGE_WAIT`] each), or its failure text; then the same form, declaration, schedule and
//!   publish as a video.
//! - **works**: `/new/note-manager`; waits for the notes or the empty list; reads each note's id,
//!   title, time (China time, minute precision), state and counts.
//! - **followers**: `/new/home`; the account card's follower count.
//! - **comments** (the creator console has no comment reading we could find documented; the main
//!   site's note page has them — xiaohongshu-mcp `feed_detail.go`, `comment_feed.go`): the note
//!   page `https://www.xiaohongshu.com/explore/<note id>` (the sandbox's under `{base}/www`); waits
//!   for `.comments-container` or a "note unavailable" wrapper (posting needs the comment box: the
//!   site's `.login-container` instead is a dead session); reads `window.__INITIAL_STATE__
//!   .note.noteDetailMap[<id>].comments` (newest first; `createTime` in ms). Not checked against
//!   the live site: whether the creator console's login is also the main site's (the same
//!   `.xiaohongshu.com` cookies), whether an own note opens without its `xsec_token`, and whether
//!   `userInfo.userId` is the 小红书号 read at login (the sync leaves the account's own comments
//!   out by it).
//! - **post_comment**: the same page; a reply clicks `#comment-<id> .right .interactions .reply`,
//!   a comment the box's `div.input-box div.content-edit span`; types into `p.content-input`,
//!   clicks `div.bottom button.submit`, and waits until `.comments-container` shows the text (an
//!   unconfirmed comment fails, never counted as sent); the new item's `comment-<id>` is the answer.

use super::driver::{DriverError, Page};
use super::flow::{self, ConsoleProfile, Flow, LoginStep, Step};
use super::steps::{self, CoverLook, LocationLook, Steps};
use crate::{Declaration, ErrorKind, PResult, Platform, PublishReq, Stats, Work, WorkStatus};
use serde_json::Value;
use std::time::Duration;

pub const LIVE_BASE: &str = "https://creator.xiaohongshu.com";
/// The main site, where a note's comments are (the sandbox's is `{console base}/www`).
pub const WWW_LIVE_BASE: &str = "https://www.xiaohongshu.com";

/// The limits of `domain::matrix::platform_rules` (with their sources there).
const RULES: &domain::matrix::platform_rules::PlatformRules =
    domain::matrix::platform_rules::rules_of(Platform::Xhs);
pub const TITLE_MAX: usize = domain::matrix::platform_rules::limit(RULES.title_max);
pub const BODY_MAX: usize = domain::matrix::platform_rules::limit(RULES.body_max);
pub const TOPICS_MAX: usize = domain::matrix::platform_rules::limit(RULES.topics_max);
pub const SCHEDULE_MIN_SECS: i64 =
    domain::matrix::platform_rules::window(RULES.schedule_window_s).0;
pub const SCHEDULE_MAX_SECS: i64 =
    domain::matrix::platform_rules::window(RULES.schedule_window_s).1;
/// How long the page's own upload may take.
pub const UPLOAD_WAIT: Duration = Duration::from_secs(600);
/// How long one picture of an image note may take (xiaohongshu-mcp waits 60 s a picture).
pub const IMAGE_WAIT: Duration = Duration::from_secs(60);

mod path {
    pub const LOGIN: &str = "/login";
    pub const HOME: &str = "/new/home";
    pub const PUBLISH_VIDEO: &str = "/publish/publish?from=homepage&target=video";
    pub const PUBLISH: &str = "/publish/publish?source=official";
    pub const NOTES: &str = "/new/note-manager";
}

mod sel {
    // Login page.
    pub const LOGIN_BOX: &str = "div[class*='login-box']";
    /// The icon in the login box's corner that switches the SMS form to the QR.
    pub const QR_SWITCH: &str = "div[class*='login-box'] img.css-wemwzq";
    pub const QR_IMG: &str = "div[class*='login-box'] img.qrcode-img";
    pub const QR_EXPIRED: &str = "div[class*='login-box'] .qrcode-expired";
    pub const QR_REFRESH: &str = "div[class*='login-box'] .qrcode-expired .refresh";
    pub const SMS_BOX: &str = "div.verify-sms";
    pub const SMS_INPUT: &str = "div.verify-sms input[placeholder*='验证码']";
    pub const SMS_SUBMIT: &str = "div.verify-sms button.submit";
    pub const SLIDER: &str = "div.red-captcha-slider";
    pub const SLIDER_TRACK: &str = "div.red-captcha-slider .captcha-track";
    pub const SLIDER_HANDLE: &str = "div.red-captcha-slider .captcha-handle";
    /// The puzzle's answer to a wrong place ("验证失败，请重试"; a new puzzle follows).
    pub const SLIDER_FAILED: &str = "div.red-captcha-slider .captcha-msg";
    // Home: the account card.
    pub const ACCOUNT: &str = "div.personal-info";
    pub const ACCOUNT_NAME: &str = "div.personal-info .account-name";
    pub const ACCOUNT_ID: &str = "div.personal-info .account-id";
    pub const ACCOUNT_AVATAR: &str = "div.personal-info img.avatar";
    pub const FOLLOWERS: &str = "div.personal-info .fans .count";
    // Publish page.
    pub const UPLOAD_AREA: &str = "div[class^='upload-content']";
    pub const FILE_INPUT: &str = "div[class^='upload-content'] input.upload-input";
    pub const UPLOAD_DONE: &str = "div.preview-new .stage:has-text('上传成功')";
    pub const UPLOAD_FAILED: &str = "div.preview-new .upload-failed";
    /// The publish page's tabs (上传视频 / 上传图文 / 写长文).
    pub const IMAGE_TAB: &str = "div.creator-tab:text-is('上传图文')";
    /// The image tab's file input: the one that accepts pictures (xiaohongshu-mcp `acceptsImage`).
    pub const IMAGE_INPUT: &str = "div[class^='upload-content'] input[type='file'][accept*='.jpg']";
    pub const IMAGE_PREVIEW: &str = ".img-preview-area .pr";
    pub const IMAGE_FAILED: &str = ".img-preview-area .upload-failed";
    pub const TITLE: &str = "input[placeholder*='填写标题']";
    pub const BODY: &str = "p[data-placeholder*='输入正文描述']";
    pub const TOPIC_ITEM: &str = "#creator-editor-topic-container .item";
    pub const DECLARE_TRIGGER: &str = "#publish-container .declaration-trigger";
    pub const DECLARE_CHOSEN: &str = "#publish-container .declaration-chosen";
    pub const DECLARE_CLEAR: &str = "#publish-container .declaration-chosen .clear";
    // The cover dialog (social-auto-upload `set_thumbnail`: `div.upload-cover` opens a d-modal
    // on its 截取封面 tab; 上传封面 shows the picture input in `div.upload-wrapper`; 确定 in the
    // footer applies it).
    pub const COVER_OPEN: &str = "div.upload-cover";
    pub const COVER_DIALOG: &str = "div.d-modal";
    pub const COVER_UPLOAD_TAB: &str = "div.d-modal :text-is('上传封面')";
    pub const COVER_INPUT: &str =
        "div.d-modal div.upload-wrapper input[type='file'][accept*='image']";
    pub const COVER_CONFIRM: &str = "div.d-modal div.d-modal-footer :text-is('确定')";
    // The location picker (social-auto-upload `set_location`: click the placeholder, type, then
    // the d-dropdown popover's `d-options` items, each with its `.name`).
    pub const LOCATION_FIELD: &str =
        "div.d-text.d-select-placeholder.d-text-ellipsis.d-text-nowrap";
    pub const LOCATION_OPTION: &str =
        "div.d-popover.d-dropdown div.d-options-wrapper div.d-grid.d-options > div:visible";
    /// The picker once it holds a place (the sandbox's wrapper; unverified on the live console).
    pub const LOCATION_CHOSEN: &str = "div.d-select-wrapper";
    pub const REPOST_SOURCE: &str = "input[placeholder='请输入媒体名称']";
    pub const REPOST_CONFIRM: &str = "div.declaration-dialog button:has-text('确认')";
    pub const SCHEDULE_SWITCH: &str = ".custom-switch-card:has-text('定时发布') .d-switch";
    pub const SCHEDULE_INPUT: &str = ".d-datepicker-input-filter input.d-text";
    pub const PUBLISH: &str = "div.publish-page-publish-btn button.bg-red";
    pub const PUBLISHED: &str = "div.publish-success";
    pub const ERROR_MESSAGE: &str = "div.d-message-error";
    // Note manager.
    pub const NOTE: &str = "div.note";
    pub const NOTES_EMPTY: &str = "div.note-empty";
    pub const NOTE_TITLE: &str = "div.note .info .title";
    pub const NOTE_TIME: &str = "div.note .info .time";
    pub const NOTE_STATE: &str = "div.note .status";
    pub const NOTE_PLAY: &str = "div.note .icon_list .play";
    pub const NOTE_LIKE: &str = "div.note .icon_list .like";
    pub const NOTE_COMMENT: &str = "div.note .icon_list .comment";
    pub const NOTE_SHARE: &str = "div.note .icon_list .share";
    // The main site's note page (comments; xiaohongshu-mcp `feed_detail.go`, `comment_feed.go`).
    /// The comment list; with no comment it holds `.no-comments-text` "这是一片荒地"
    /// (`checkNoCommentsArea`), so it is shown either way.
    pub const COMMENTS: &str = ".comments-container";
    /// "当前笔记暂时无法浏览" and the like (`checkPageAccessible`).
    pub const NOTE_GONE: &str =
        ".access-wrapper, .error-wrapper, .not-found-wrapper, .blocked-wrapper";
    /// The main site's login box, shown to a visitor not logged in (xiaohongshu-mcp `login.go`:
    /// `.login-container .qrcode-img`).
    pub const WWW_LOGIN: &str = ".login-container";
    pub const COMMENT_OPEN: &str = "div.input-box div.content-edit span";
    pub const COMMENT_INPUT: &str = "div.input-box div.content-edit p.content-input";
    pub const COMMENT_SUBMIT: &str = "div.bottom button.submit";
}

static STEPS: Steps = Steps {
    platform: Platform::Xhs,
    login_marker: sel::LOGIN_BOX,
};

static COVER_LOOK: CoverLook = CoverLook {
    open: sel::COVER_OPEN,
    dialog: sel::COVER_DIALOG,
    tab: Some(sel::COVER_UPLOAD_TAB),
    input: sel::COVER_INPUT,
    confirm: sel::COVER_CONFIRM,
};

static LOCATION_LOOK: LocationLook = LocationLook {
    field: sel::LOCATION_FIELD,
    option: sel::LOCATION_OPTION,
    chosen: sel::LOCATION_CHOSEN,
};

/// The label of each declaration on the console's 内容类型声明 list.
fn declaration_label(d: Declaration) -> Option<&'static str> {
    match d {
        Declaration::None => None,
        Declaration::Original => Some("自主拍摄"),
        Declaration::AiGenerated => Some("笔记含AI合成内容"),
        Declaration::Reposted => Some("来源转载"),
        Declaration::Fiction => Some("虚构演绎，仅供娱乐"),
    }
}

const SHORT: Duration = Duration::from_secs(3);
const PAGE: Duration = Duration::from_secs(30);

pub struct XhsFlow {
    base: String,
    /// The main site's origin (note pages, comments).
    www: String,
    /// The platform clock (the schedule window).
    clock: domain::clock::Clock,
}

impl XhsFlow {
    /// `base`: the console's origin (`LIVE_BASE`, or the sandbox console's base URL).
    pub fn new(base: impl Into<String>, clock: domain::clock::Clock) -> XhsFlow {
        let base = base.into().trim_end_matches('/').to_string();
        let www = if base == LIVE_BASE {
            WWW_LIVE_BASE.to_string()
        } else {
            format!("{base}/www")
        };
        XhsFlow { base, www, clock }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `?` for driver errors inside a step: a step-named error with evidence.
    async fn at<T>(&self, page: &Page, step: Step, r: Result<T, DriverError>) -> PResult<T> {
        match r {
            Ok(v) => Ok(v),
            Err(e) => Err(flow::fail_driver(page, Platform::Xhs, step, e).await),
        }
    }

    async fn expired(&self, page: &Page, step: Step) -> crate::PlatformError {
        flow::fail(
            page,
            Platform::Xhs,
            step,
            ErrorKind::Reauthorize,
            "the console shows its login page",
        )
        .await
    }

    async fn permanent(&self, page: &Page, step: Step, detail: &str) -> crate::PlatformError {
        flow::fail(page, Platform::Xhs, step, ErrorKind::Permanent, detail).await
    }

    /// Opens a page of the console that needs a session: Err(Reauthorize) on the login page.
    async fn open_logged_in(
        &self,
        page: &Page,
        path: &str,
        ready: &str,
        step: Step,
    ) -> PResult<()> {
        let r = page.goto(&self.url(path)).await;
        self.at(page, step, r).await?;
        let r = page.wait_any(&[ready, sel::LOGIN_BOX], PAGE).await;
        match self.at(page, step, r).await? {
            0 => Ok(()),
            _ => Err(self.expired(page, step).await),
        }
    }

    async fn profile(&self, page: &Page) -> PResult<ConsoleProfile> {
        let step = Step::Profile;
        let r = page.text(sel::ACCOUNT_NAME).await;
        let nickname = self.at(page, step, r).await?.trim().to_string();
        let r = page.text(sel::ACCOUNT_ID).await;
        let id_text = self.at(page, step, r).await?;
        // "小红书账号：95xxxx" — the id is what follows the colon.
        let open_id = id_text
            .rsplit([':', '：'])
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        if open_id.is_empty() {
            return Err(self
                .permanent(page, step, "no account id on the home page")
                .await);
        }
        let avatar = page
            .attr(sel::ACCOUNT_AVATAR, "src")
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        let followers = match page.count(sel::FOLLOWERS).await {
            Ok(n) if n > 0 => page.text(sel::FOLLOWERS).await.ok().map(|t| count_of(&t)),
            _ => None,
        };
        Ok(ConsoleProfile {
            open_id,
            nickname,
            avatar,
            followers,
        })
    }

    /// The main site's page of a note, its comments shown; `post`: the comment box must be there
    /// (the site's login box instead is a dead session).
    async fn open_note(&self, page: &Page, item_id: &str, post: bool) -> PResult<()> {
        let step = Step::Comments;
        let r = page.goto(&format!("{}/explore/{item_id}", self.www)).await;
        self.at(page, step, r).await?;
        let r = page.wait_any(&[sel::COMMENTS, sel::NOTE_GONE], PAGE).await;
        if self.at(page, step, r).await? == 1 {
            let r = page.text(sel::NOTE_GONE).await;
            let why = r.unwrap_or_default();
            return Err(self
                .permanent(
                    page,
                    step,
                    &format!("the note cannot be opened: {}", why.trim()),
                )
                .await);
        }
        if post && page.count(sel::COMMENT_OPEN).await.unwrap_or(0) == 0 {
            if page.count(sel::WWW_LOGIN).await.unwrap_or(0) > 0 {
                return Err(flow::fail(
                    page,
                    Platform::Xhs,
                    step,
                    ErrorKind::Reauthorize,
                    "the note page asks to log in",
                )
                .await);
            }
            let detail = format!("no element matches {}", sel::COMMENT_OPEN);
            return Err(self.permanent(page, step, &detail).await);
        }
        Ok(())
    }

    async fn qr_png(&self, page: &Page) -> PResult<Vec<u8>> {
        let r = page.wait_for(sel::QR_IMG, PAGE).await;
        self.at(page, Step::Login, r).await?;
        let r = page.screenshot(Some(sel::QR_IMG)).await;
        self.at(page, Step::Login, r).await
    }

    async fn upload(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        let step = Step::Upload;
        // The upload area is up (the page is ready): a missing input is a console that changed.
        if page.count(sel::FILE_INPUT).await.unwrap_or(0) == 0 {
            let detail = format!("selector not found: {}", sel::FILE_INPUT);
            return Err(self.permanent(page, step, &detail).await);
        }
        let r = page
            .set_files(sel::FILE_INPUT, std::slice::from_ref(&req.video_path))
            .await;
        self.at(page, step, r).await?;
        let r = page
            .wait_any(
                &[sel::UPLOAD_DONE, sel::UPLOAD_FAILED, sel::LOGIN_BOX],
                UPLOAD_WAIT,
            )
            .await;
        match self.at(page, step, r).await? {
            0 => Ok(()),
            1 => {
                let why = page.text(sel::UPLOAD_FAILED).await.unwrap_or_default();
                Err(self.permanent(page, step, why.trim()).await)
            }
            _ => Err(self.expired(page, step).await),
        }
    }

    /// The image tab: each picture into the file input, waited for in the preview list.
    async fn upload_images(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        let step = Step::Upload;
        let r = page.wait_any(&[sel::IMAGE_TAB, sel::LOGIN_BOX], PAGE).await;
        if self.at(page, step, r).await? == 1 {
            return Err(self.expired(page, step).await);
        }
        let r = page.click(sel::IMAGE_TAB).await;
        self.at(page, step, r).await?;
        let r = page.wait_for(sel::IMAGE_INPUT, PAGE).await;
        self.at(page, step, r).await?;
        for (i, file) in req.images.iter().enumerate() {
            let r = page
                .set_files(sel::IMAGE_INPUT, std::slice::from_ref(file))
                .await;
            self.at(page, step, r).await?;
            // The preview list holds this picture (Playwright's `:nth-match`).
            let nth = format!(":nth-match({}, {})", sel::IMAGE_PREVIEW, i + 1);
            let r = page
                .wait_any(
                    &[nth.as_str(), sel::IMAGE_FAILED, sel::LOGIN_BOX],
                    IMAGE_WAIT,
                )
                .await;
            match self.at(page, step, r).await? {
                0 => {}
                1 => {
                    let why = page.text(sel::IMAGE_FAILED).await.unwrap_or_default();
                    return Err(self.permanent(page, step, why.trim()).await);
                }
                _ => return Err(self.expired(page, step).await),
            }
        }
        Ok(())
    }

    async fn form(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        let step = Step::Form;
        let title: String = req.title.trim().chars().take(TITLE_MAX).collect();
        let r = page.type_text(sel::TITLE, &title).await;
        self.at(page, step, r).await?;
        let body = if req.description.trim().is_empty() {
            req.title.trim()
        } else {
            req.description.trim()
        };
        let body: String = body.chars().take(BODY_MAX).collect();
        let r = page.fill(sel::BODY, &body).await;
        self.at(page, step, r).await?;
        for topic in req.topics.iter().take(TOPICS_MAX) {
            let topic = topic.trim().trim_start_matches('#');
            if topic.is_empty() {
                continue;
            }
            let r = page.append_text(sel::BODY, &format!(" #{topic}")).await;
            self.at(page, step, r).await?;
            // The editor offers the topic; choosing it makes it a real topic (not plain text).
            if page.wait_for(sel::TOPIC_ITEM, SHORT).await.is_ok() {
                let r = page.click(sel::TOPIC_ITEM).await;
                self.at(page, step, r).await?;
            }
        }
        Ok(())
    }

    async fn declaration(&self, page: &Page, d: Declaration) -> PResult<()> {
        let step = Step::Declaration;
        let Some(label) = declaration_label(d) else {
            // No declaration: clear one the page may have preset.
            if page.visible(sel::DECLARE_CHOSEN).await.unwrap_or(false) {
                let r = page.click(sel::DECLARE_CLEAR).await;
                self.at(page, step, r).await?;
            }
            return Ok(());
        };
        let r = page.click(sel::DECLARE_TRIGGER).await;
        self.at(page, step, r).await?;
        let option = format!("#publish-container .declaration-option:text-is('{label}')");
        let r = page.click(&option).await;
        self.at(page, step, r).await?;
        if d == Declaration::Reposted {
            let r = page.fill(sel::REPOST_SOURCE, "网络").await;
            self.at(page, step, r).await?;
            let r = page.click(sel::REPOST_CONFIRM).await;
            self.at(page, step, r).await?;
        }
        let chosen = format!("{}:has-text('{label}')", sel::DECLARE_CHOSEN);
        let r = page.wait_for(&chosen, SHORT * 2).await;
        self.at(page, step, r).await
    }

    async fn schedule(&self, page: &Page, at: i64, now: i64) -> PResult<()> {
        let step = Step::Schedule;
        if at < now + SCHEDULE_MIN_SECS || at > now + SCHEDULE_MAX_SECS {
            return Err(flow::step_error(
                Platform::Xhs,
                step,
                ErrorKind::Permanent,
                "the scheduled time must be 1 hour to 14 days ahead",
            ));
        }
        let r = page.click(sel::SCHEDULE_SWITCH).await;
        self.at(page, step, r).await?;
        let r = page.fill(sel::SCHEDULE_INPUT, &china_minute(at)).await;
        self.at(page, step, r).await
    }
}

/// "YYYY-MM-DD HH:mm" in China time of unix seconds.
pub fn china_minute(secs: i64) -> String {
    let ms = secs * 1000;
    let day = domain::matrix::day_of(ms);
    let minute = (ms - domain::matrix::at(day, 0)) / 60_000;
    format!(
        "{} {:02}:{:02}",
        domain::matrix::fmt_day(day),
        minute / 60,
        minute % 60
    )
}

/// Unix seconds of a "…YYYY-MM-DD HH:mm…" China time in a text ("发布于 2026-11-29 23:10").
pub fn parse_china_minute(text: &str) -> Option<i64> {
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let t = &text[start..];
    let day = domain::matrix::parse_day(t.get(..10)?)?;
    let minute = domain::matrix::parse_hhmm(t.get(11..16)?)?;
    Some(domain::matrix::at(day, minute) / 1000)
}

/// "1.2万" / "3,456" / "播放 12" -> a count.
pub fn count_of(text: &str) -> i64 {
    let t: String = text
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.' || *c == '万')
        .collect();
    if let Some(n) = t.strip_suffix('万') {
        return (n.parse::<f64>().unwrap_or(0.0) * 10_000.0).round() as i64;
    }
    t.parse::<f64>().map(|f| f as i64).unwrap_or(0)
}

#[async_trait::async_trait]
impl Flow for XhsFlow {
    fn platform(&self) -> Platform {
        Platform::Xhs
    }

    fn base_url(&self) -> &str {
        &self.base
    }

    async fn login_start(&self, page: &Page) -> PResult<Vec<u8>> {
        let step = Step::Login;
        let r = page.goto(&self.url(path::LOGIN)).await;
        self.at(page, step, r).await?;
        let r = page.wait_any(&[sel::QR_IMG, sel::QR_SWITCH], PAGE).await;
        if self.at(page, step, r).await? == 1 {
            let r = page.click(sel::QR_SWITCH).await;
            self.at(page, step, r).await?;
        }
        self.qr_png(page).await
    }

    async fn login_poll(&self, page: &Page, sms_code: Option<&str>) -> PResult<LoginStep> {
        let step = Step::Login;
        if let Some(code) = sms_code.filter(|c| !c.is_empty())
            && page.visible(sel::SMS_BOX).await.unwrap_or(false)
        {
            let to = super::steps::SmsForm {
                input: sel::SMS_INPUT,
                submit: sel::SMS_SUBMIT,
                home: sel::ACCOUNT,
            };
            super::steps::enter_sms_code(page, Platform::Xhs, code, &to, true).await?;
        }
        let r = page
            .wait_any(
                &[
                    sel::ACCOUNT,
                    sel::SMS_BOX,
                    sel::SLIDER,
                    sel::QR_EXPIRED,
                    sel::QR_IMG,
                ],
                SHORT,
            )
            .await;
        let seen = match r {
            Ok(i) => i,
            // A page between two states (navigating): look again at the next poll.
            Err(DriverError::Timeout(_)) => return Ok(LoginStep::Waiting),
            Err(e) => return Err(flow::fail_driver(page, Platform::Xhs, step, e).await),
        };
        Ok(match seen {
            0 => LoginStep::LoggedIn(self.profile(page).await?),
            1 => LoginStep::SmsChallenge,
            2 => {
                let r = page.screenshot(Some(sel::SLIDER)).await;
                LoginStep::SliderChallenge(self.at(page, step, r).await?)
            }
            3 => {
                if page.click(sel::QR_REFRESH).await.is_err() {
                    return Ok(LoginStep::Expired);
                }
                LoginStep::NewQr(self.qr_png(page).await?)
            }
            _ => LoginStep::Waiting,
        })
    }

    async fn login_slide(&self, page: &Page, fraction: f64) -> PResult<()> {
        // The page's answer: a new puzzle with its message, the SMS step, or the home page.
        let look = super::steps::SliderLook {
            track: sel::SLIDER_TRACK,
            handle: sel::SLIDER_HANDLE,
            answers: [sel::SLIDER_FAILED, sel::SMS_BOX, sel::ACCOUNT],
        };
        super::steps::drag_slider(page, Platform::Xhs, &look, fraction).await
    }

    fn has_comments(&self) -> bool {
        true
    }

    async fn comments(
        &self,
        page: &Page,
        item_id: &str,
        max: usize,
    ) -> PResult<Vec<crate::Comment>> {
        self.open_note(page, item_id, false).await?;
        let expr = format!(
            "(() => {{ const m = window.__INITIAL_STATE__ && window.__INITIAL_STATE__.note && window.__INITIAL_STATE__.note.noteDetailMap; const d = m && m[{id:?}]; return d ? JSON.stringify(d.comments || null) : null }})()",
            id = item_id
        );
        let r = page.eval(&expr).await;
        let raw = self.at(page, Step::Comments, r).await?;
        let list: Value = raw
            .as_str()
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or(Value::Null);
        let Some(items) = list["list"].as_array() else {
            return Err(self
                .permanent(page, Step::Comments, "no comments in the note page's state")
                .await);
        };
        // Counts come as strings ("likeCount": "12"): the crate's readers take both.
        use crate::http::{num, text};
        Ok(items
            .iter()
            .take(max)
            .map(|c| crate::Comment {
                comment_id: text(c, "id"),
                user_id: text(&c["userInfo"], "userId"),
                content: text(c, "content"),
                create_time: num(c, "createTime") / 1000,
                digg_count: num(c, "likeCount"),
                reply_total: num(c, "subCommentCount"),
                top: false,
            })
            .collect())
    }

    async fn post_comment(
        &self,
        page: &Page,
        item_id: &str,
        reply_to: Option<&str>,
        text: &str,
    ) -> PResult<String> {
        let step = Step::Comments;
        self.open_note(page, item_id, true).await?;
        let opener = match reply_to {
            Some(id) => format!("#comment-{id} .right .interactions .reply"),
            None => sel::COMMENT_OPEN.to_string(),
        };
        if page.count(&opener).await.unwrap_or(0) == 0 {
            let detail = format!("no element matches {opener}");
            return Err(self.permanent(page, step, &detail).await);
        }
        let r = page.click(&opener).await;
        self.at(page, step, r).await?;
        let r = page.type_text(sel::COMMENT_INPUT, text).await;
        self.at(page, step, r).await?;
        let r = page.click(sel::COMMENT_SUBMIT).await;
        self.at(page, step, r).await?;
        // Shown in the comments, or not sent: the new item's id.
        let expr = format!(
            "(() => {{ const items = [...document.querySelectorAll('.comments-container .comment-item')].filter(e => e.innerText.includes({text:?})); const e = items[items.length - 1]; return e ? e.id.replace('comment-', '') : null }})()"
        );
        if let Some(Value::String(id)) =
            super::steps::eval_until(page, &expr, Duration::from_secs(4)).await
        {
            return Ok(id);
        }
        Err(self
            .permanent(
                page,
                step,
                "not shown: the comment is not in the note's comments after sending",
            )
            .await)
    }

    async fn check(&self, page: &Page) -> PResult<()> {
        self.open_logged_in(page, path::HOME, sel::ACCOUNT, Step::Check)
            .await
    }

    async fn prepare(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        let now = self.clock.platform_now() / 1000;
        if req.images.is_empty() {
            self.open_logged_in(page, path::PUBLISH_VIDEO, sel::UPLOAD_AREA, Step::Open)
                .await?;
            self.upload(page, req).await?;
        } else {
            self.open_logged_in(page, path::PUBLISH, sel::UPLOAD_AREA, Step::Open)
                .await?;
            self.upload_images(page, req).await?;
        }
        // A video's cover: the variant's own cover frame (an image note's first picture is its cover).
        if let Some(cover) = req.cover_path.as_deref().filter(|_| req.images.is_empty()) {
            steps::set_cover(&STEPS, page, &COVER_LOOK, cover).await?;
        }
        self.form(page, req).await?;
        if let Some(place) = req
            .poi_name
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            steps::pick_location(&STEPS, page, &LOCATION_LOOK, place).await?;
        }
        self.declaration(page, req.declaration).await?;
        if let Some(at) = req.schedule_at {
            self.schedule(page, at, now).await?;
        }
        let r = page.wait_any(&[sel::PUBLISH], PAGE).await;
        self.at(page, Step::Publish, r).await.map(|_| ())
    }

    async fn submit(&self, page: &Page) -> PResult<()> {
        let step = Step::Publish;
        let r = page.click(sel::PUBLISH).await;
        self.at(page, step, r).await?;
        let r = page
            .wait_any(&[sel::PUBLISHED, sel::ERROR_MESSAGE, sel::LOGIN_BOX], PAGE)
            .await;
        match self.at(page, step, r).await? {
            0 => Ok(()),
            1 => {
                let why = page.text(sel::ERROR_MESSAGE).await.unwrap_or_default();
                Err(self.permanent(page, step, why.trim()).await)
            }
            _ => Err(self.expired(page, step).await),
        }
    }

    async fn works(&self, page: &Page, max: usize) -> PResult<Vec<Work>> {
        let step = Step::Works;
        let r = page.goto(&self.url(path::NOTES)).await;
        self.at(page, step, r).await?;
        let r = page
            .wait_any(&[sel::NOTE, sel::NOTES_EMPTY, sel::LOGIN_BOX], PAGE)
            .await;
        match self.at(page, step, r).await? {
            0 => {}
            1 => return Ok(Vec::new()),
            _ => return Err(self.expired(page, step).await),
        }
        let r = page.attrs(sel::NOTE, "data-note-id").await;
        let ids = self.at(page, step, r).await?;
        let r = page.texts(sel::NOTE_TITLE).await;
        let titles = self.at(page, step, r).await?;
        let r = page.texts(sel::NOTE_TIME).await;
        let times = self.at(page, step, r).await?;
        let r = page.texts(sel::NOTE_STATE).await;
        let states = self.at(page, step, r).await?;
        let mut counts = Vec::new();
        for s in [
            sel::NOTE_PLAY,
            sel::NOTE_LIKE,
            sel::NOTE_COMMENT,
            sel::NOTE_SHARE,
        ] {
            let r = page.texts(s).await;
            counts.push(self.at(page, step, r).await?);
        }
        let n = |col: &Vec<String>, i: usize| col.get(i).map(|t| count_of(t)).unwrap_or(0);
        let mut out = Vec::new();
        for (i, id) in ids.iter().enumerate().take(max) {
            let state = states.get(i).map(String::as_str).unwrap_or("");
            let status = if state.contains("未通过") || state.contains("违规") {
                WorkStatus::Rejected {
                    reason: state.trim().to_string(),
                }
            } else if state.contains("审核") {
                WorkStatus::Reviewing
            } else {
                WorkStatus::Public
            };
            out.push(Work {
                item_id: id.clone(),
                title: titles
                    .get(i)
                    .cloned()
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
                create_time: times
                    .get(i)
                    .and_then(|t| parse_china_minute(t))
                    .unwrap_or(0),
                status,
                stats: Stats {
                    play: n(&counts[0], i),
                    like: n(&counts[1], i),
                    comment: n(&counts[2], i),
                    share: n(&counts[3], i),
                },
                share_url: format!("https://www.xiaohongshu.com/explore/{id}"),
            });
        }
        Ok(out)
    }

    async fn followers(&self, page: &Page) -> PResult<i64> {
        self.open_logged_in(page, path::HOME, sel::ACCOUNT, Step::Profile)
            .await?;
        let r = page.text(sel::FOLLOWERS).await;
        Ok(count_of(&self.at(page, Step::Profile, r).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn china_times_round_trip() {
        let secs = 1_795_000_000 - 1_795_000_000 % 60;
        let s = china_minute(secs);
        assert_eq!(parse_china_minute(&format!("发布于 {s}")), Some(secs));
    }

    #[test]
    fn counts_read_like_the_console_writes_them() {
        assert_eq!(count_of("1.2万"), 12_000);
        assert_eq!(count_of("播放 3,456"), 3456);
        assert_eq!(count_of(""), 0);
    }
}
