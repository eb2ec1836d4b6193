//! The shop platform's console: the Douyin creator console (`https://creator.douyin.com`), where
//! the shop's Douyin account posts videos with the shop's product mounted (the cart) —
//! docs/spec-decisions.md, "The shop platform's real path". Every URL, selector and step of it; a
//! page change is a fix in this file only.
//!
//! Learned from social-auto-upload (github.com/dreammis/social-auto-upload,
//! `uploader/douyin_uploader/main.py`: `cookie_auth`, the QR in `#animate_qrcode_container`, the
//! SMS 身份验证, `input.upload-btn-input`, the move to `content/post/video`, 重新上传 as the end of
//! the upload, `set_product_link` / `handle_product_dialog` for the cart, `set_self_declaration`
//! (its PR #250: the declaration is explicit and fail-closed), 定时发布 and the move to
//! `content/manage` after 发布; read, not copied). Limits: title ≤ 30 characters, ≤ 5 topics
//! (PLATFORMS.md), product short title ≤ 10, scheduled posts 2 h to 14 days ahead (PostHub #16).
//! The sandbox console (`sandbox::shop_console`) serves the same paths and structure.
//!
//! Steps and what each waits for:
//! - **login_start**: `/`; waits for the QR image and screenshots it.
//! - **login_poll**: enters a typed SMS code when the page asks; then waits (briefly) for the
//!   first of: the home's account card (logged in), the SMS 身份验证, 二维码失效 (clicks 点击刷新: a
//!   new QR), the QR (waiting).
//! - **check**: `/creator-micro/home`; the account card or the login QR.
//! - **publish**: `/creator-micro/content/upload` (login QR: expired); the file input gets the
//!   file and the page moves to the form; waits for 重新上传 in the preview card (the page's own
//!   upload, up to the upload wait: "上传超时") or 上传失败; types the title and the description with
//!   ` #topic`s; a cover frame goes in through the cover dialog (选择封面 → 设置竖封面 → the frame
//!   area's upload input → 完成; waits for the dialog to close); mounts the product when the
//!   request has one (添加标签 → 购物车 → link → 添加链接 → short title → 完成编辑; 未搜索到对应商品
//!   fails the step), else a place in 添加标签's 位置 (types the name into 输入地理位置 and clicks
//!   the option of exactly that name; none: fails with the names listed — the tag holds one of
//!   the two, so a product post carries no place); picks the 自主声明 from the request and
//!   checks it shows (none / original: no declaration); 定时发布 types the time; clicks 发布 and
//!   waits for the works list, the form's error or the login page.
//! - **works**: `/creator-micro/content/manage`; the cards or 暂无作品.
//! - **followers**: `/creator-micro/home`; the account card's 粉丝 count.

use super::driver::Page;
use super::flow::{ConsoleProfile, Flow, LoginStep, Step};
use super::steps::{self, ListLook, LoginLook, LoginSeen, PAGE, SHORT, Steps};
use super::xhs::{china_minute, count_of};
use crate::{Declaration, PResult, Platform, PublishReq, Work};
use std::time::Duration;

pub const LIVE_BASE: &str = "https://creator.douyin.com";

/// The limits of `domain::matrix::platform_rules` (with their sources there).
const RULES: &domain::matrix::platform_rules::PlatformRules =
    domain::matrix::platform_rules::rules_of(Platform::Shop);
pub const TITLE_MAX: usize = domain::matrix::platform_rules::limit(RULES.title_max);
pub const TOPICS_MAX: usize = domain::matrix::platform_rules::limit(RULES.topics_max);
pub const PRODUCT_TITLE_MAX: usize = 10;
pub const SCHEDULE_WINDOW_SECS: (i64, i64) =
    domain::matrix::platform_rules::window(RULES.schedule_window_s);
/// How long the page's own upload may take.
pub const UPLOAD_WAIT: Duration = Duration::from_secs(600);

mod path {
    pub const LOGIN: &str = "/";
    pub const HOME: &str = "/creator-micro/home";
    pub const UPLOAD: &str = "/creator-micro/content/upload";
    pub const MANAGE: &str = "/creator-micro/content/manage";
}

mod sel {
    // Login page.
    pub const QR_BOX: &str = "#animate_qrcode_container";
    pub const QR_IMG: &str = "#animate_qrcode_container img";
    pub const QR_EXPIRED: &str = "#animate_qrcode_container :text('二维码失效')";
    pub const QR_REFRESH: &str = "#animate_qrcode_container button:has-text('点击刷新')";
    // The second verification's SMS panel (`uc-ui-verify_sms-*`, as the public Douyin-console
    // drivers select it, social-auto-upload's douyin uploader among them; they report its classes
    // change, so the form stays one place to fix).
    pub const SMS_FORM: &str = "form.uc-ui-verify_sms";
    pub const SMS_INPUT: &str = "form.uc-ui-verify_sms input[placeholder='请输入验证码']";
    pub const SMS_SUBMIT: &str = "div.uc-ui-verify_sms-verify_button button:has-text('验证')";
    // ByteDance's slider puzzle (its secsdk captcha): the box, the track and its handle, as the
    // open-source Selenium/Playwright login helpers for Douyin and TikTok found by code search drag
    // `.secsdk-captcha-drag-icon` along `.captcha_verify_slide--slidebar` (read, not copied). The
    // refusal line is the sandbox's (unverified).
    pub const SLIDER: &str = ".captcha_verify_container";
    pub const SLIDER_TRACK: &str = ".captcha_verify_slide--slidebar";
    pub const SLIDER_HANDLE: &str = ".secsdk-captcha-drag-icon";
    pub const SLIDER_FAILED: &str = ".captcha_verify_message:not(:empty)";
    // Home.
    pub const ACCOUNT: &str = "div.account-card";
    pub const NICKNAME: &str = "div.account-card .account-name";
    pub const ACCOUNT_ID: &str = "div.account-card .account-id";
    pub const FOLLOWERS: &str = "div.account-card .account-fans .count";
    // Upload and the post form.
    pub const UPLOAD_AREA: &str = "div.container-drag";
    pub const FILE_INPUT: &str = "input.upload-btn-input";
    pub const UPLOAD_DONE: &str = "div.long-card div:has-text('重新上传')";
    pub const UPLOAD_FAILED: &str = "div.long-card div:has-text('上传失败')";
    pub const TITLE: &str = "input[placeholder*='填写作品标题']";
    pub const DESCRIPTION: &str = "div.zone-container[contenteditable='true']";
    pub const TAG_SELECT: &str = "div:has(> span:text-is('添加标签')) .semi-select";
    pub const CART_OPTION: &str = "[role='option']:has-text('购物车')";
    pub const PRODUCT_LINK: &str = "input[placeholder='粘贴商品链接']";
    pub const ADD_LINK: &str = "span:has-text('添加链接')";
    pub const PRODUCT_TITLE: &str = "input[placeholder='请输入商品短标题']";
    pub const PRODUCT_MISSING: &str = ".semi-modal-content:has-text('未搜索到对应商品')";
    pub const PRODUCT_DONE: &str = "button:has-text('完成编辑')";
    // The cover dialog (social-auto-upload `set_thumbnail`: the cover area's 选择封面 opens
    // `div.dy-creator-content-modal`; of its two hidden inputs the frame area's 上传封面 — the
    // `.semi-upload` with the drag area's main text, not the AI reference picture's — takes the
    // picture on the 设置竖封面 tab; 完成 is enabled once the picture is in).
    pub const COVER_OPEN: &str = ":text-is('选择封面')";
    pub const COVER_DIALOG: &str = "div.dy-creator-content-modal";
    pub const COVER_TAB: &str = "div.dy-creator-content-modal :text-is('设置竖封面')";
    pub const COVER_INPUT: &str = "div.dy-creator-content-modal .semi-upload:has(.semi-upload-drag-area-main-text) input.semi-upload-hidden-input";
    pub const COVER_DONE: &str = "div.dy-creator-content-modal button:text-is('完成')";
    // The location (添加标签's 位置; social-auto-upload `set_location`: the select showing
    // 输入地理位置, typed into, then the listbox's options).
    pub const LOCATION_FIELD: &str = "div.semi-select:has(span:has-text('输入地理位置'))";
    pub const LOCATION_OPTION: &str = "div[role='listbox']:visible [role='option']";
    pub const LOCATION_CHOSEN: &str = "div.semi-select.location-select";
    pub const DECLARE_ENTRY: &str = ":text('添加自主声明')";
    pub const DECLARE_DIALOG: &str = ".semi-modal-content:has-text('请选择声明类型')";
    pub const TIMED: &str = "label[class^='radio']:has-text('定时发布')";
    pub const SCHEDULE_INPUT: &str = ".semi-input[placeholder='日期和时间']";
    pub const PUBLISH: &str = "button:text-is('发布')";
    pub const FORM_ERROR: &str = "p.form-error:not(:empty)";
    // Works list.
    pub const CARD: &str = "div.video-card";
    pub const EMPTY: &str = "div.video-list-empty";
}

/// The 自主声明 of each declaration; None: nothing to declare (no dialog is opened).
pub fn declaration_of(d: Declaration) -> Option<&'static str> {
    match d {
        Declaration::AiGenerated => Some("内容由AI生成"),
        Declaration::Reposted => Some("内容为转载信息"),
        Declaration::Fiction => Some("虚构演绎，仅供娱乐"),
        Declaration::None | Declaration::Original => None,
    }
}

/// The 抖店 product page of a product id (what the cart's link field takes).
pub fn product_link(product_id: &str) -> String {
    format!("https://haohuo.jinritemai.com/views/product/detail?id={product_id}")
}

static LOGIN_LOOK: LoginLook = LoginLook {
    sms_form: sel::SMS_FORM,
    sms_input: sel::SMS_INPUT,
    sms_submit: sel::SMS_SUBMIT,
    account: sel::ACCOUNT,
    qr_expired: sel::QR_EXPIRED,
    qr_img: sel::QR_IMG,
    qr_refresh: sel::QR_REFRESH,
    slider: Some(sel::SLIDER),
};

static SLIDER_LOOK: steps::SliderLook = steps::SliderLook {
    track: sel::SLIDER_TRACK,
    handle: sel::SLIDER_HANDLE,
    answers: [sel::SLIDER_FAILED, sel::SMS_FORM, sel::ACCOUNT],
};

static COVER_LOOK: steps::CoverLook = steps::CoverLook {
    open: sel::COVER_OPEN,
    dialog: sel::COVER_DIALOG,
    tab: Some(sel::COVER_TAB),
    input: sel::COVER_INPUT,
    confirm: sel::COVER_DONE,
};

static LOCATION_LOOK: steps::LocationLook = steps::LocationLook {
    field: sel::LOCATION_FIELD,
    option: sel::LOCATION_OPTION,
    chosen: sel::LOCATION_CHOSEN,
};

static STEPS: Steps = Steps {
    platform: Platform::Shop,
    login_marker: sel::QR_BOX,
};

static LIST_LOOK: ListLook = ListLook {
    row: sel::CARD,
    id_attr: "data-id",
    empty: sel::EMPTY,
    title: "div.video-card .video-card-title",
    time: "div.video-card .video-card-time",
    status: "div.video-card .video-card-status",
    counts: [
        "div.video-card .metric-play",
        "div.video-card .metric-like",
        "div.video-card .metric-comment",
        "div.video-card .metric-share",
    ],
    reviewing: &["审核中"],
    rejected: &["未通过", "违规"],
    share_url: |id| format!("https://www.douyin.com/video/{id}"),
};

pub struct ShopFlow {
    base: String,
    clock: domain::clock::Clock,
    upload_wait: Duration,
}

impl ShopFlow {
    /// `base`: the console's origin (`LIVE_BASE`, or the sandbox console's base URL).
    pub fn new(base: impl Into<String>, clock: domain::clock::Clock) -> ShopFlow {
        ShopFlow {
            base: base.into().trim_end_matches('/').to_string(),
            clock,
            upload_wait: UPLOAD_WAIT,
        }
    }

    /// How long the page's upload may take before the step fails as 上传超时.
    pub fn with_upload_wait(mut self, wait: Duration) -> ShopFlow {
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
        let r = page.text(sel::ACCOUNT_ID).await;
        let open_id = STEPS.at(page, step, r).await?.trim().to_string();
        if open_id.is_empty() {
            return Err(STEPS
                .permanent(page, step, "no 抖音号 on the home page")
                .await);
        }
        let followers = page.text(sel::FOLLOWERS).await.ok().map(|t| count_of(&t));
        Ok(ConsoleProfile {
            open_id,
            nickname,
            avatar: String::new(),
            followers,
        })
    }

    async fn upload(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        let step = Step::Upload;
        let r = page
            .set_files(sel::FILE_INPUT, std::slice::from_ref(&req.video_path))
            .await;
        STEPS.at(page, step, r).await?;
        match STEPS
            .wait(
                page,
                step,
                &[sel::UPLOAD_DONE, sel::UPLOAD_FAILED, sel::QR_BOX],
                self.upload_wait,
            )
            .await?
        {
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
        let title: String = req.title.trim().chars().take(TITLE_MAX).collect();
        STEPS.need(page, step, sel::TITLE).await?;
        STEPS.type_text(page, step, sel::TITLE, &title).await?;
        let mut text = req.description.trim().to_string();
        for topic in req.topics.iter().take(TOPICS_MAX) {
            let topic = topic.trim().trim_start_matches('#');
            if !topic.is_empty() {
                text.push_str(&format!(" #{topic} "));
            }
        }
        if !text.trim().is_empty() {
            STEPS
                .type_text(page, step, sel::DESCRIPTION, text.trim_start())
                .await?;
        }
        Ok(())
    }

    /// The cart: the product's link, then its short title (the post's title, cut to 10).
    async fn product(&self, page: &Page, product_id: &str, title: &str) -> PResult<()> {
        let step = Step::Form;
        STEPS.click(page, step, sel::TAG_SELECT).await?;
        STEPS.click(page, step, sel::CART_OPTION).await?;
        STEPS
            .fill(page, step, sel::PRODUCT_LINK, &product_link(product_id))
            .await?;
        STEPS.click(page, step, sel::ADD_LINK).await?;
        if STEPS
            .wait(
                page,
                step,
                &[sel::PRODUCT_TITLE, sel::PRODUCT_MISSING],
                PAGE,
            )
            .await?
            == 1
        {
            return Err(STEPS
                .permanent(
                    page,
                    step,
                    &format!("未搜索到对应商品 / no such product: {product_id}"),
                )
                .await);
        }
        let short: String = title.trim().chars().take(PRODUCT_TITLE_MAX).collect();
        STEPS.fill(page, step, sel::PRODUCT_TITLE, &short).await?;
        STEPS.click(page, step, sel::PRODUCT_DONE).await
    }

    async fn declaration(&self, page: &Page, d: Declaration) -> PResult<()> {
        let step = Step::Declaration;
        let Some(label) = declaration_of(d) else {
            return Ok(());
        };
        STEPS.click(page, step, sel::DECLARE_ENTRY).await?;
        let option = format!(
            "{} label.semi-radio:has(.semi-radio-addon:text-is('{label}'))",
            sel::DECLARE_DIALOG
        );
        STEPS.click(page, step, &option).await?;
        let confirm = format!(
            "{} button.semi-button-primary:has-text('确定')",
            sel::DECLARE_DIALOG
        );
        STEPS.click(page, step, &confirm).await?;
        let r = page.wait_for(&format!(":text-is('{label}')"), SHORT).await;
        STEPS.at(page, step, r).await
    }

    async fn schedule(&self, page: &Page, at: i64) -> PResult<()> {
        let step = Step::Schedule;
        let now = self.clock.platform_now() / 1000;
        steps::check_window(Platform::Shop, at, now, SCHEDULE_WINDOW_SECS)?;
        STEPS.click(page, step, sel::TIMED).await?;
        STEPS
            .fill(page, step, sel::SCHEDULE_INPUT, &china_minute(at))
            .await
    }
}

#[async_trait::async_trait]
impl Flow for ShopFlow {
    fn platform(&self) -> Platform {
        Platform::Shop
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
            LoginSeen::Slider => {
                let r = page.screenshot(Some(sel::SLIDER)).await;
                LoginStep::SliderChallenge(STEPS.at(page, Step::Login, r).await?)
            }
            LoginSeen::Waiting => LoginStep::Waiting,
        })
    }

    async fn login_slide(&self, page: &Page, fraction: f64) -> PResult<()> {
        steps::drag_slider(page, Platform::Shop, &SLIDER_LOOK, fraction).await
    }

    async fn check(&self, page: &Page) -> PResult<()> {
        STEPS
            .open(page, Step::Check, &self.url(path::HOME), sel::ACCOUNT)
            .await
    }

    async fn prepare(&self, page: &Page, req: &PublishReq) -> PResult<()> {
        STEPS
            .open(page, Step::Open, &self.url(path::UPLOAD), sel::UPLOAD_AREA)
            .await?;
        self.upload(page, req).await?;
        self.form(page, req).await?;
        if let Some(cover) = req.cover_path.as_deref() {
            steps::set_cover(&STEPS, page, &COVER_LOOK, cover).await?;
        }
        // 添加标签 holds one tag: the product's cart, else the place.
        let place = req
            .poi_name
            .as_deref()
            .map(str::trim)
            .filter(|p| !p.is_empty());
        if let Some(id) = req.product_id.as_deref().filter(|p| !p.trim().is_empty()) {
            self.product(page, id.trim(), &req.title).await?;
        } else if let Some(place) = place {
            steps::pick_location(&STEPS, page, &LOCATION_LOOK, place).await?;
        }
        self.declaration(page, req.declaration).await?;
        if let Some(at) = req.schedule_at {
            self.schedule(page, at).await?;
        }
        STEPS.expect(page, Step::Publish, sel::PUBLISH, PAGE).await
    }

    async fn submit(&self, page: &Page) -> PResult<()> {
        STEPS
            .publish(page, sel::PUBLISH, [sel::CARD, sel::EMPTY], sel::FORM_ERROR)
            .await
    }

    async fn works(&self, page: &Page, max: usize) -> PResult<Vec<Work>> {
        steps::read_list(&STEPS, page, &self.url(path::MANAGE), &LIST_LOOK, max).await
    }

    async fn followers(&self, page: &Page) -> PResult<i64> {
        STEPS
            .followers(page, &self.url(path::HOME), sel::ACCOUNT, sel::FOLLOWERS)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_map_to_the_dialog_or_nothing() {
        assert_eq!(
            declaration_of(Declaration::AiGenerated),
            Some("内容由AI生成")
        );
        assert_eq!(declaration_of(Declaration::None), None);
        assert_eq!(declaration_of(Declaration::Original), None);
    }

    #[test]
    fn product_links_are_shop_product_pages() {
        assert_eq!(
            product_link("3612345678"),
            "https://haohuo.jinritemai.com/views/product/detail?id=3612345678"
        );
    }
}
