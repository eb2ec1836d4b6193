//! The WeChat Channels creator console (视频号助手, `https://channels.weixin.qq.com`): every URL,
//! selector and step of it. A page change is a fix in this file only.
//!
//! Learned from social-auto-upload (github.com/dreammis/social-auto-upload,
//! `uploader/tencent_uploader/main.py` and its PR #209; read, not copied): the login page
//! `/login.html` with the QR in `div.login-qrcode-wrap img.qrcode`, its 已扫码 tip and the
//! "二维码已过期，点击刷新" mask; the home `/platform` whose `button.weui-desktop-btn` 发表视频 is the
//! way into the post-create form (loading `/platform/post/create` cold leaves the form unmounted);
//! the form's `input[type=file]`, the `div.input-editor` description (title line, `#topics`), the
//! short title, 声明原创, the 视频标注 dropdown, the 定时 picker (`weui-desktop-picker`), the 发表
//! button that stays `weui-desktop-btn_disabled` until the upload finished, and the works list
//! `/platform/post/list`. PostHub #43 (github.com/toRolex/PostHub): Channels **pre-selects
//! 含AI生成内容**, so the declaration is always chosen here from the request. Operating limits:
//! scheduled posts ≥ 2 h ahead (PostHub #16), short title 6–16 characters, description ≤ 1,000,
//! ≤ 10 topics. The sandbox console (`sandbox::sph_console`) serves the same paths and structure.
//!
//! Steps and what each waits for:
//! - **login_start**: `/login.html`; waits for the QR image and screenshots it.
//! - **login_poll**: enters a typed SMS code when the page asks; then waits (briefly) for the
//!   first of: the home's account card (logged in: id, nickname, followers), the SMS form, the
//!   expired-QR mask (clicks refresh: a new QR), the QR (waiting).
//! - **check**: `/platform`; the account card (alive) or the login QR (expired).
//! - **publish**: `/platform`, click 发表视频, wait for the form (login QR: expired); the file input
//!   gets the file; waits for the 发表 button to lose `weui-desktop-btn_disabled` (the page's own
//!   upload, up to the upload wait: "上传超时" after it) or the upload's error; types the
//!   description (title line, topics, text) and the short title; a cover frame goes in as the
//!   3:4 个人主页卡片 cover (`div.vertical-cover-wrap` → 编辑个人主页卡片 → its file input → 确认;
//!   waits for the dialog to close; Channels crops the 9:16 frame); picks the 视频标注 from the
//!   request (and 声明原创 for original) and checks it shows; 定时: picks the day in the picker's
//!   month panel and types the time; clicks 发表 and waits for the works list, the form's error or
//!   the login page ("登录已失效").
//! - **works**: `/platform/post/list`; the rows or 暂无内容; id (`data-id`), title, time, state,
//!   counts.
//! - **followers**: `/platform`; the account card's 关注者 count.
//! - **comments** (互动管理 · 评论 `/platform/interaction/comment`; learnt from two public drivers
//!   of the live page found by code search — an opencli `channels stats` command and a Python
//!   Playwright `BrowserCommenter` — read, not copied): the page lists the account's posts as
//!   `.comment-feed-wrap` cards with no id in the DOM, in the order of its own `post/post_list`
//!   call (`data.list[].exportId`), so the flow watches that answer, clicks the card at the post's
//!   place and waits for `.active-feed`; the post's comments are the answer of the page's
//!   `comment/comment_list` call (`data.comment[]`: `commentId`, `username`, `commentContent`;
//!   `commentCreatetime`, `likeCount` and `levelTwoComment` are the sandbox's guesses — unverified).
//! - **post_comment**: the same card; 写评论 (`.tag-wrap.primary`) or the comment's 回复 (the
//!   sandbox's `.comment-reply`: no public source shows it), types into `textarea.create-input`,
//!   clicks `.create-ft .tag-wrap.primary` 评论 and reads the page's `comment/create` answer
//!   (`errCode` 0 and `data.commentId`, else the console's `errMsg`); the comment counts as sent only
//!   once the list shows its text.

use super::driver::Page;
use super::flow::{ConsoleProfile, Flow, LoginStep, Step};
use super::steps::{self, ListLook, LoginLook, LoginSeen, PAGE, SHORT, Steps};
use super::xhs::{china_minute, count_of};
use crate::http::{num, text};
use crate::{Declaration, PResult, Platform, PublishReq, Work};
use serde_json::Value;
use std::time::Duration;

pub const LIVE_BASE: &str = "https://channels.weixin.qq.com";

/// The limits of `domain::matrix::platform_rules` (with their sources there).
const RULES: &domain::matrix::platform_rules::PlatformRules =
    domain::matrix::platform_rules::rules_of(Platform::Sph);
pub const DESCRIPTION_MAX: usize = domain::matrix::platform_rules::limit(RULES.body_max);
pub const TOPICS_MAX: usize = domain::matrix::platform_rules::limit(RULES.topics_max);
pub const SHORT_TITLE: (usize, usize) = (6, 16);
pub const SCHEDULE_WINDOW_SECS: (i64, i64) =
    domain::matrix::platform_rules::window(RULES.schedule_window_s);
/// How long the page's own upload may take.
pub const UPLOAD_WAIT: Duration = Duration::from_secs(600);

mod path {
    pub const LOGIN: &str = "/login.html";
    pub const HOME: &str = "/platform";
    pub const LIST: &str = "/platform/post/list";
    pub const COMMENTS: &str = "/platform/interaction/comment";
}

/// The comment page's own calls whose answers the flow reads (ids are not in its DOM).
mod api {
    pub const POST_LIST: &str = "post/post_list";
    pub const COMMENT_LIST: &str = "comment/comment_list";
    pub const COMMENT_CREATE: &str = "comment/create";
}

mod sel {
    // Login page.
    pub const LOGIN_WRAP: &str = "div.login-qrcode-wrap";
    pub const QR_IMG: &str = "div.login-qrcode-wrap img.qrcode";
    pub const QR_EXPIRED: &str = "div.mask.show p.refresh-tip";
    pub const QR_REFRESH: &str = "div.mask.show div.refresh-wrap";
    // The SMS step: no public driver of this console shows its markup (social-auto-upload's
    // tencent uploader has none), so these are the sandbox's stand-in — confirm against the live
    // console (a changed selector fails the login step naming it).
    pub const SMS_FORM: &str = "form.sms-verify";
    pub const SMS_INPUT: &str = "form.sms-verify input[placeholder='请输入验证码']";
    pub const SMS_SUBMIT: &str = "form.sms-verify button[type='submit']";
    // Home.
    pub const ACCOUNT: &str = "div.finder-info-container";
    pub const NICKNAME: &str = "div.finder-info-container .finder-nickname";
    pub const UNIQ_ID: &str = "div.finder-info-container .finder-uniq-id";
    pub const AVATAR: &str = "div.finder-info-container img.avatar";
    pub const FOLLOWERS: &str = "div.finder-info-container .finder-info-num-value";
    pub const POST_ENTRY: &str = "button.weui-desktop-btn:has-text('发表视频')";
    // Post-create form.
    pub const FORM: &str = "div.post-create";
    pub const FILE_INPUT: &str = "div.post-create input[type='file']";
    pub const UPLOAD_FAILED: &str = "div.media-status-content div.status-msg.error";
    pub const PUBLISH_READY: &str =
        "div.form-btns button.weui-desktop-btn_primary:not(.weui-desktop-btn_disabled)";
    pub const EDITOR: &str = "div.input-editor";
    pub const SHORT_TITLE: &str = "input[placeholder='填写短标题有机会获得更多流量']";
    pub const ORIGINAL: &str = "div.declare-original input[type='checkbox']";
    pub const ORIGINAL_CHECKED: &str = "div.declare-original input[type='checkbox']:checked";
    // The cover (social-auto-upload `set_thumbnail`: the 3:4 个人主页卡片 cover,
    // `div.vertical-cover-wrap`, opens a `weui-desktop-dialog` 编辑个人主页卡片 whose
    // `.single-cover-uploader-wrap` file input takes the picture; 确认 in its footer applies it).
    pub const COVER_OPEN: &str = "div.vertical-cover-wrap";
    pub const COVER_DIALOG: &str = "div.weui-desktop-dialog:has-text('编辑个人主页卡片')";
    pub const COVER_INPUT: &str = "div.weui-desktop-dialog:has-text('编辑个人主页卡片') .single-cover-uploader-wrap input[type='file']";
    pub const COVER_CONFIRM: &str = "div.weui-desktop-dialog:has-text('编辑个人主页卡片') div.weui-desktop-dialog__ft button.weui-desktop-btn_primary:has-text('确认')";
    pub const LABEL_SELECT: &str = "div.post-label-wrap .post-label-select";
    pub const LABEL_VALUE: &str = "div.post-label-wrap .label-select-value";
    pub const TIMED: &str = "label.post-time-radio:text-is('定时')";
    pub const DATE_INPUT: &str = "input[placeholder='请选择发表时间']";
    pub const TIME_INPUT: &str = "input[placeholder='请选择时间']";
    pub const MONTH_LABEL: &str = "span.weui-desktop-picker__panel__label:has-text('月')";
    pub const YEAR_LABEL: &str = "span.weui-desktop-picker__panel__label:has-text('年')";
    pub const NEXT_MONTH: &str = "button.weui-desktop-btn__icon__right";
    pub const PUBLISH: &str = "div.form-btns button.weui-desktop-btn_primary:has-text('发表')";
    pub const FORM_ERROR: &str = "p.form-error:not(:empty)";
    // Works list.
    pub const LIST: &str = "div.post-list";
    pub const ROW: &str = "div.post-feed-item";
    pub const EMPTY: &str = "div.post-empty";
    // 互动管理 · 评论.
    pub const FEED: &str = ".comment-feed-wrap";
    pub const FEED_ACTIVE: &str = ".comment-feed-wrap.active-feed";
    /// A card, or the sandbox's empty list (no public source shows the live one).
    pub const FEEDS_READY: &str = ".comment-feed-wrap, .comment-feed-empty";
    pub const COMMENT_ITEM: &str = ".comment-item";
    pub const COMMENT_CONTENT: &str = ".comment-content";
    /// A comment's 回复 (the sandbox's; unverified on the live page).
    pub const REPLY: &str = ".comment-reply";
    pub const WRITE: &str = ".tag-wrap.primary:text-is('写评论')";
    pub const COMMENT_INPUT: &str = "textarea.create-input";
    pub const COMMENT_SEND: &str = ".create-ft .tag-wrap.primary:text-is('评论')";
}

/// The 视频标注 choice of each declaration (Channels has no "fiction" label: 无需标注), and whether
/// 声明原创 is ticked too.
pub fn label_of(d: Declaration) -> (&'static str, bool) {
    match d {
        Declaration::AiGenerated => ("含AI生成内容", false),
        Declaration::Original => ("内容为自行拍摄", true),
        Declaration::Reposted => ("内容为转载", false),
        Declaration::None | Declaration::Fiction => ("无需标注", false),
    }
}

/// The short title Channels wants (6–16 characters of letters, digits and a few marks), or None
/// when the title has too few (the field is optional).
pub fn short_title(title: &str) -> Option<String> {
    let kept: String = title
        .chars()
        .filter(|c| c.is_alphanumeric() || "《》“”:+?%°".contains(*c))
        .take(SHORT_TITLE.1)
        .collect();
    (kept.chars().count() >= SHORT_TITLE.0).then_some(kept)
}

/// The description as typed: the title line, the topics, then the text.
pub fn description(req: &PublishReq) -> String {
    let mut out = req.title.trim().to_string();
    let topics: Vec<String> = req
        .topics
        .iter()
        .map(|t| t.trim().trim_start_matches('#').to_string())
        .filter(|t| !t.is_empty())
        .take(TOPICS_MAX)
        .map(|t| format!("#{t} "))
        .collect();
    if !topics.is_empty() {
        out.push('\n');
        out.push_str(&topics.concat());
    }
    let text = req.description.trim();
    if !text.is_empty() && text != req.title.trim() {
        out.push('\n');
        out.push_str(text);
    }
    out.chars().take(DESCRIPTION_MAX).collect()
}

static LOGIN_LOOK: LoginLook = LoginLook {
    sms_form: sel::SMS_FORM,
    sms_input: sel::SMS_INPUT,
    sms_submit: sel::SMS_SUBMIT,
    account: sel::ACCOUNT,
    qr_expired: sel::QR_EXPIRED,
    qr_img: sel::QR_IMG,
    qr_refresh: sel::QR_REFRESH,
    // Channels' login is confirmed on the phone: no web puzzle.
    slider: None,
};

static COVER_LOOK: steps::CoverLook = steps::CoverLook {
    open: sel::COVER_OPEN,
    dialog: sel::COVER_DIALOG,
    tab: None,
    input: sel::COVER_INPUT,
    confirm: sel::COVER_CONFIRM,
};

static STEPS: Steps = Steps {
    platform: Platform::Sph,
    login_marker: sel::LOGIN_WRAP,
};

static LIST_LOOK: ListLook = ListLook {
    row: sel::ROW,
    id_attr: "data-id",
    empty: sel::EMPTY,
    title: "div.post-feed-item .post-title",
    time: "div.post-feed-item .post-time",
    status: "div.post-feed-item .post-status",
    counts: [
        "div.post-feed-item .play-count",
        "div.post-feed-item .like-count",
        "div.post-feed-item .comment-count",
        "div.post-feed-item .forward-count",
    ],
    reviewing: &["审核中"],
    rejected: &["未通过", "违规"],
    share_url: |id| format!("https://channels.weixin.qq.com/web/pages/feed?eid={id}"),
};

pub struct SphFlow {
    base: String,
    clock: domain::clock::Clock,
    upload_wait: Duration,
}

impl SphFlow {
    /// `base`: the console's origin (`LIVE_BASE`, or the sandbox console's base URL).
    pub fn new(base: impl Into<String>, clock: domain::clock::Clock) -> SphFlow {
        SphFlow {
            base: base.into().trim_end_matches('/').to_string(),
            clock,
            upload_wait: UPLOAD_WAIT,
        }
    }

    /// How long the page's upload may take before the step fails as 上传超时.
    pub fn with_upload_wait(mut self, wait: Duration) -> SphFlow {
        self.upload_wait = wait;
        self
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn qr_png(&self, page: &Page) -> PResult<Vec<u8>> {
        let r = page.wait_for(sel::QR_IMG, PAGE).await;
        STEPS.at(page, Step::Login, r).await?;
        let r = page.screenshot(Some(sel::QR_IMG)).await;
        STEPS.at(page, Step::Login, r).await
    }

    async fn profile(&self, page: &Page) -> PResult<ConsoleProfile> {
        let step = Step::Profile;
        let r = page.text(sel::NICKNAME).await;
        let nickname = STEPS.at(page, step, r).await?.trim().to_string();
        let r = page.text(sel::UNIQ_ID).await;
        let open_id = STEPS.at(page, step, r).await?.trim().to_string();
        if open_id.is_empty() {
            return Err(STEPS
                .permanent(page, step, "no 视频号ID on the home page")
                .await);
        }
        let avatar = match page.count(sel::AVATAR).await {
            Ok(n) if n > 0 => page.attr(sel::AVATAR, "src").await.ok().flatten(),
            _ => None,
        };
        let followers = page.text(sel::FOLLOWERS).await.ok().map(|t| count_of(&t));
        Ok(ConsoleProfile {
            open_id,
            nickname,
            avatar: avatar.unwrap_or_default(),
            followers,
        })
    }

    async fn upload(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        let step = Step::Upload;
        let r = page
            .set_files(sel::FILE_INPUT, std::slice::from_ref(&req.video_path))
            .await;
        STEPS.at(page, step, r).await?;
        let seen = STEPS
            .wait(
                page,
                step,
                &[sel::PUBLISH_READY, sel::UPLOAD_FAILED, sel::LOGIN_WRAP],
                self.upload_wait,
            )
            .await?;
        match seen {
            0 => Ok(()),
            1 => {
                let why = page.text(sel::UPLOAD_FAILED).await.unwrap_or_default();
                Err(STEPS.permanent(page, step, why.trim()).await)
            }
            _ => Err(STEPS.expired(page, step).await),
        }
    }

    async fn form(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        let step = Step::Form;
        STEPS.need(page, step, sel::EDITOR).await?;
        STEPS
            .type_text(page, step, sel::EDITOR, &description(req))
            .await?;
        if let Some(short) = short_title(&req.title) {
            STEPS.fill(page, step, sel::SHORT_TITLE, &short).await?;
        }
        Ok(())
    }

    async fn declaration(&self, page: &Page, d: Declaration) -> PResult<()> {
        let step = Step::Declaration;
        let (label, original) = label_of(d);
        STEPS.click(page, step, sel::LABEL_SELECT).await?;
        let option = format!("div.post-label-wrap .option-item:has-text('{label}')");
        STEPS.click(page, step, &option).await?;
        let shown = format!("{}:text-is('{label}')", sel::LABEL_VALUE);
        let r = page.wait_for(&shown, SHORT).await;
        STEPS.at(page, step, r).await?;
        let ticked = page.count(sel::ORIGINAL_CHECKED).await.unwrap_or(0) > 0;
        if ticked != original {
            STEPS.click(page, step, sel::ORIGINAL).await?;
        }
        Ok(())
    }

    /// One of the comment page's calls answered: its `data`, or the console's refusal (its
    /// `errMsg`; a session that died sends the page to the login).
    async fn answer(&self, page: &Page, part: &str) -> PResult<Value> {
        let step = Step::Comments;
        let r = page.responses(part, PAGE).await;
        let bodies = STEPS.at(page, step, r).await?;
        let body = bodies.last().cloned().unwrap_or(Value::Null);
        if num(&body, "errCode") == 0 {
            return Ok(body["data"].clone());
        }
        if page.wait_for(sel::LOGIN_WRAP, SHORT).await.is_ok() {
            return Err(STEPS.expired(page, step).await);
        }
        let why = format!("the console refused: {}", text(&body, "errMsg"));
        Err(STEPS.permanent(page, step, &why).await)
    }

    /// Opens the comment page on a post (its card, found at the post's place in the page's post
    /// list) and answers the post's comments as the page loaded them.
    async fn open_post(&self, page: &Page, item_id: &str) -> PResult<Vec<Value>> {
        let step = Step::Comments;
        let r = page
            .watch(&[api::POST_LIST, api::COMMENT_LIST, api::COMMENT_CREATE])
            .await;
        STEPS.at(page, step, r).await?;
        STEPS
            .open(page, step, &self.url(path::COMMENTS), sel::FEEDS_READY)
            .await?;
        let posts = self.answer(page, api::POST_LIST).await?;
        let place = posts["list"].as_array().and_then(|l| {
            l.iter()
                .position(|p| text(p, "exportId") == item_id || text(p, "objectId") == item_id)
        });
        let Some(place) = place else {
            let why = format!("post {item_id} is not in the console's comment page");
            return Err(STEPS.permanent(page, step, &why).await);
        };
        STEPS
            .click(page, step, &format!("{} >> nth={place}", sel::FEED))
            .await?;
        STEPS.expect(page, step, sel::FEED_ACTIVE, PAGE).await?;
        let data = self.answer(page, api::COMMENT_LIST).await?;
        Ok(data["comment"].as_array().cloned().unwrap_or_default())
    }

    async fn schedule(&self, page: &Page, at: i64) -> PResult<()> {
        let step = Step::Schedule;
        let now = self.clock.platform_now() / 1000;
        steps::check_window(Platform::Sph, at, now, SCHEDULE_WINDOW_SECS)?;
        let when = china_minute(at);
        let (y, m, d) = domain::matrix::civil_from_days(domain::matrix::day_of(at * 1000));
        STEPS.click(page, step, sel::TIMED).await?;
        STEPS.click(page, step, sel::DATE_INPUT).await?;
        // The panel opens on this month; the window is at most two months ahead.
        let want = (format!("{y}年"), format!("{m}月"));
        let mut found = false;
        for _ in 0..3 {
            let r = page.text(sel::MONTH_LABEL).await;
            let month = STEPS.at(page, step, r).await?;
            let r = page.text(sel::YEAR_LABEL).await;
            let year = STEPS.at(page, step, r).await?;
            if month.trim() == want.1 && year.trim() == want.0 {
                found = true;
                break;
            }
            STEPS.click(page, step, sel::NEXT_MONTH).await?;
        }
        if !found {
            return Err(STEPS
                .permanent(
                    page,
                    step,
                    &format!("the picker never showed {}{}", want.0, want.1),
                )
                .await);
        }
        let day = format!(
            "table.weui-desktop-picker__table a:not(.weui-desktop-picker__disabled):text-is('{d}')"
        );
        STEPS.click(page, step, &day).await?;
        STEPS
            .fill(page, step, sel::TIME_INPUT, when.get(11..16).unwrap_or(""))
            .await
    }
}

#[async_trait::async_trait]
impl Flow for SphFlow {
    fn platform(&self) -> Platform {
        Platform::Sph
    }

    fn base_url(&self) -> &str {
        &self.base
    }

    async fn login_start(&self, page: &Page) -> PResult<Vec<u8>> {
        let r = page.goto(&self.url(path::LOGIN)).await;
        STEPS.at(page, Step::Login, r).await?;
        self.qr_png(page).await
    }

    async fn login_poll(&self, page: &Page, sms_code: Option<&str>) -> PResult<LoginStep> {
        Ok(match STEPS.poll_login(page, &LOGIN_LOOK, sms_code).await? {
            LoginSeen::LoggedIn => LoginStep::LoggedIn(self.profile(page).await?),
            LoginSeen::SmsChallenge => LoginStep::SmsChallenge,
            LoginSeen::Refreshed => LoginStep::NewQr(self.qr_png(page).await?),
            LoginSeen::Expired => LoginStep::Expired,
            // No puzzle on this console (`LoginLook::slider` is None).
            LoginSeen::Slider | LoginSeen::Waiting => LoginStep::Waiting,
        })
    }

    async fn check(&self, page: &Page) -> PResult<()> {
        STEPS
            .open(page, Step::Check, &self.url(path::HOME), sel::ACCOUNT)
            .await
    }

    async fn prepare(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        STEPS
            .open(page, Step::Open, &self.url(path::HOME), sel::POST_ENTRY)
            .await?;
        // The form mounts only when reached through the home's button (social-auto-upload).
        STEPS.click(page, Step::Open, sel::POST_ENTRY).await?;
        STEPS.expect(page, Step::Open, sel::FORM, PAGE).await?;
        self.upload(page, req).await?;
        self.form(page, req).await?;
        if let Some(cover) = req.cover_path.as_deref() {
            steps::set_cover(&STEPS, page, &COVER_LOOK, cover).await?;
        }
        self.declaration(page, req.declaration).await?;
        if let Some(at) = req.schedule_at {
            self.schedule(page, at).await?;
        }
        STEPS.expect(page, Step::Publish, sel::PUBLISH, PAGE).await
    }

    async fn submit(&self, page: &Page) -> PResult<()> {
        STEPS
            .publish(page, sel::PUBLISH, [sel::LIST, sel::EMPTY], sel::FORM_ERROR)
            .await
    }

    async fn works(&self, page: &Page, max: usize) -> PResult<Vec<Work>> {
        steps::read_list(&STEPS, page, &self.url(path::LIST), &LIST_LOOK, max).await
    }

    async fn followers(&self, page: &Page) -> PResult<i64> {
        STEPS
            .followers(page, &self.url(path::HOME), sel::ACCOUNT, sel::FOLLOWERS)
            .await
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
        let list = self.open_post(page, item_id).await?;
        Ok(list
            .iter()
            .take(max)
            .map(|c| crate::Comment {
                comment_id: text(c, "commentId"),
                user_id: text(c, "username"),
                content: text(c, "commentContent"),
                create_time: num(c, "commentCreatetime"),
                digg_count: num(c, "likeCount"),
                reply_total: c["levelTwoComment"]
                    .as_array()
                    .map_or(0, |r| r.len() as i64),
                top: false,
            })
            .collect())
    }

    async fn post_comment(
        &self,
        page: &Page,
        item_id: &str,
        reply_to: Option<&str>,
        body: &str,
    ) -> PResult<String> {
        let step = Step::Comments;
        let list = self.open_post(page, item_id).await?;
        let opener = match reply_to {
            Some(id) => {
                let Some(place) = list.iter().position(|c| text(c, "commentId") == id) else {
                    let why = format!("comment {id} is not under post {item_id}");
                    return Err(STEPS.permanent(page, step, &why).await);
                };
                format!("{} >> nth={place} >> {}", sel::COMMENT_ITEM, sel::REPLY)
            }
            None => sel::WRITE.to_string(),
        };
        STEPS.need(page, step, &opener).await?;
        STEPS.click(page, step, &opener).await?;
        STEPS.need(page, step, sel::COMMENT_INPUT).await?;
        STEPS
            .type_text(page, step, sel::COMMENT_INPUT, body)
            .await?;
        STEPS.click(page, step, sel::COMMENT_SEND).await?;
        let made = self.answer(page, api::COMMENT_CREATE).await?;
        let id = text(&made, "commentId");
        if id.is_empty() {
            return Err(STEPS
                .permanent(page, step, "the console's answer has no commentId")
                .await);
        }
        // Shown in the list, or not counted as sent.
        let shown = format!(
            "[...document.querySelectorAll('{}')].some(e => e.innerText.trim() === {:?})",
            sel::COMMENT_CONTENT,
            body.trim()
        );
        if steps::eval_until(page, &shown, Duration::from_secs(5))
            .await
            .is_some()
        {
            return Ok(id);
        }
        Err(STEPS
            .permanent(
                page,
                step,
                "not shown: the comment is not in the post's comments after sending",
            )
            .await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_titles_fit_the_console() {
        assert_eq!(
            short_title("春日探店，好去处！").as_deref(),
            Some("春日探店好去处")
        );
        assert_eq!(short_title("短"), None);
        assert_eq!(
            short_title("一二三四五六七八九十一二三四五六七八").map(|s| s.chars().count()),
            Some(16)
        );
    }

    #[test]
    fn the_description_puts_the_title_first_then_topics() {
        let req = PublishReq {
            title: "春日探店".into(),
            topics: vec!["美食".into(), "#探店".into()],
            description: "好吃".into(),
            ..PublishReq::default()
        };
        assert_eq!(description(&req), "春日探店\n#美食 #探店 \n好吃");
    }

    #[test]
    fn every_declaration_picks_a_label() {
        assert_eq!(label_of(Declaration::None).0, "无需标注");
        assert_eq!(label_of(Declaration::Original), ("内容为自行拍摄", true));
    }
}
