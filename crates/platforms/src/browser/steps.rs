//! What the console flows share beyond the [`Page`] ops (used by `sph` and `shop`): driver
//! errors turned into step-named failures with evidence, "this page or the login page", and
//! reading a works list laid out as rows with one class per field. Each flow keeps its own URLs
//! and selectors; only the mechanics are here.

use super::driver::{DriverError, Page};
use super::flow::{self, Step};
use super::xhs::{count_of, parse_china_minute};
use crate::{ErrorKind, PResult, Platform, PlatformError, Stats, Work, WorkStatus};
use serde_json::Value;
use std::time::Duration;

/// How long an ordinary page may take to show what a step waits for.
pub(crate) const PAGE: Duration = Duration::from_secs(30);
/// A quick look (a login poll, an optional element).
pub(crate) const SHORT: Duration = Duration::from_secs(3);

/// The step helpers of one platform's flow.
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub platform: Platform,
    /// A selector only the console's login page shows.
    pub login_marker: &'static str,
}

/// The selectors of a console's QR login page.
pub(crate) struct LoginLook {
    pub sms_form: &'static str,
    pub sms_input: &'static str,
    pub sms_submit: &'static str,
    /// Shown once logged in (the console's home).
    pub account: &'static str,
    pub qr_expired: &'static str,
    pub qr_img: &'static str,
    pub qr_refresh: &'static str,
    /// The slider puzzle's box, on consoles that show one after the scan.
    pub slider: Option<&'static str>,
}

/// A console's slider puzzle: its track and handle, and what the page shows once it judged a
/// place (a refusal with a new puzzle, the SMS step, the home page).
pub(crate) struct SliderLook {
    pub track: &'static str,
    pub handle: &'static str,
    pub answers: [&'static str; 3],
}

/// Looks at the page with `expression` every 200 ms for up to `wait` and answers its first value
/// that is neither null, false nor "" (what a flow confirms on the page after a click: a posted
/// comment's id, or that its text is shown). None when it never came.
pub(crate) async fn eval_until(page: &Page, expression: &str, wait: Duration) -> Option<Value> {
    let end = std::time::Instant::now() + wait;
    loop {
        match page.eval(expression).await {
            Ok(Value::Null | Value::Bool(false)) | Err(_) => {}
            Ok(Value::String(s)) if s.is_empty() => {}
            Ok(v) => return Some(v),
        }
        if std::time::Instant::now() >= end {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// How long a dragged slider waits for the page to take or refuse the place.
const SLIDER_ANSWER: Duration = Duration::from_secs(5);

/// Drags a slider puzzle's handle `fraction` (0..=1) of its travel, as the person placed the piece
/// on its picture in our console (never solved by us), then gives the page a moment to judge it;
/// no answer in time is no error (the next poll looks again).
pub(crate) async fn drag_slider(
    page: &Page,
    platform: Platform,
    look: &SliderLook,
    fraction: f64,
) -> PResult<()> {
    let fail = |e| flow::fail_driver(page, platform, Step::Login, e);
    let track = match page.bounding_box(look.track).await {
        Ok(b) => b,
        Err(e) => return Err(fail(e).await),
    };
    let handle = match page.bounding_box(look.handle).await {
        Ok(b) => b,
        Err(e) => return Err(fail(e).await),
    };
    let dx = fraction.clamp(0.0, 1.0) * (track.2 - handle.2).max(0.0);
    if let Err(e) = page.drag(look.handle, dx).await {
        return Err(fail(e).await);
    }
    let _ = page.wait_any(&look.answers, SLIDER_ANSWER).await;
    Ok(())
}

/// A console's cover dialog: what opens it, the dialog, an optional tab to pick first (a
/// portrait cover), the picture's file input inside it and the button that applies it.
pub(crate) struct CoverLook {
    pub open: &'static str,
    pub dialog: &'static str,
    pub tab: Option<&'static str>,
    pub input: &'static str,
    pub confirm: &'static str,
}

/// Sets the post's cover to `file` through the console's cover dialog and waits until the dialog
/// closed (the console took the picture). A dialog that does not close fails the form step: the
/// cover is the merchant's, never silently left to the console's own frame.
pub(crate) async fn set_cover(
    steps: &Steps,
    page: &Page,
    look: &CoverLook,
    file: &std::path::Path,
) -> PResult<()> {
    let step = Step::Form;
    steps.click(page, step, look.open).await?;
    steps.wait(page, step, &[look.dialog], PAGE).await?;
    if let Some(tab) = look.tab {
        steps.click(page, step, tab).await?;
    }
    let r = page.set_files(look.input, &[file.to_path_buf()]).await;
    steps.at(page, step, r).await?;
    // The button is enabled once the console has the picture (the click waits for that).
    steps.click(page, step, look.confirm).await?;
    if !gone(page, look.dialog, PAGE).await {
        return Err(steps
            .permanent(page, step, "the cover dialog did not take the picture")
            .await);
    }
    Ok(())
}

/// Whether `selector` stopped being visible within `wait`.
async fn gone(page: &Page, selector: &str, wait: Duration) -> bool {
    let end = std::time::Instant::now() + wait;
    loop {
        if !page.visible(selector).await.unwrap_or(true) {
            return true;
        }
        if std::time::Instant::now() >= end {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A console's location picker: the field to click (which focuses its search input), the
/// options it lists for what was typed (each option's first line is the place's name), and the
/// field once it shows a choice.
pub(crate) struct LocationLook {
    pub field: &'static str,
    pub option: &'static str,
    pub chosen: &'static str,
}

/// How long a location picker may take to list places for what was typed.
const PLACES_WAIT: Duration = Duration::from_secs(10);

/// Picks the place named `name` in the console's location picker: types the name, waits for the
/// list and clicks the option of exactly that name. A name the console does not list fails the
/// form step with the names it offered (the merchant picks one of those), never another place.
pub(crate) async fn pick_location(
    steps: &Steps,
    page: &Page,
    look: &LocationLook,
    name: &str,
) -> PResult<()> {
    let step = Step::Form;
    steps.click(page, step, look.field).await?;
    // The click focused the picker's search box (social-auto-upload types with the keyboard).
    steps.type_text(page, step, ":focus", name).await?;
    let offered = match page.wait_for(look.option, PLACES_WAIT).await {
        Ok(()) => {
            let r = page.texts(look.option).await;
            steps.at(page, step, r).await?
        }
        Err(DriverError::Timeout(_)) => vec![],
        Err(e) => return Err(flow::fail_driver(page, steps.platform, step, e).await),
    };
    let names: Vec<&str> = offered
        .iter()
        .map(|t| {
            t.lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("")
        })
        .collect();
    let Some(i) = names.iter().position(|n| *n == name) else {
        let shown: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| !n.is_empty())
            .take(5)
            .collect();
        let list = shown.join("、");
        let (zh, en) = if shown.is_empty() {
            (
                format!("平台的地点列表里没有「{name}」（没有找到任何地点）"),
                format!("the platform lists no place named \"{name}\" (it found none)"),
            )
        } else {
            (
                format!("平台的地点列表里没有「{name}」，它列出的是：{list}"),
                format!("the platform lists no place named \"{name}\"; it offers: {list}"),
            )
        };
        return Err(flow::refuse(page, steps.platform, step, &zh, &en).await);
    };
    steps
        .click(page, step, &format!("{} >> nth={i}", look.option))
        .await?;
    let shown = format!("{}:has-text(\"{}\")", look.chosen, css_text(name));
    steps.wait(page, step, &[shown.as_str()], SHORT).await?;
    Ok(())
}

/// `text` inside a Playwright `:has-text("...")`: quotes and backslashes escaped.
pub(crate) fn css_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// What one look at a QR login page found.
pub(crate) enum LoginSeen {
    LoggedIn,
    SmsChallenge,
    /// The QR ran out and a new one was asked for.
    Refreshed,
    /// The QR ran out and the page offers no new one.
    Expired,
    /// A slider puzzle is shown (its box: `LoginLook::slider`).
    Slider,
    Waiting,
}

impl Steps {
    /// One poll of a QR login page: enters a typed SMS code when the page asks for one, then says
    /// what the page shows.
    pub async fn poll_login(
        &self,
        page: &Page,
        look: &LoginLook,
        sms_code: Option<&str>,
    ) -> PResult<LoginSeen> {
        let step = Step::Login;
        if let Some(code) = sms_code.filter(|c| !c.is_empty())
            && page.count(look.sms_form).await.unwrap_or(0) > 0
            && page
                .wait_for(look.sms_input, Duration::from_millis(300))
                .await
                .is_ok()
        {
            let to = SmsForm {
                input: look.sms_input,
                submit: look.sms_submit,
                home: look.account,
            };
            enter_sms_code(page, self.platform, code, &to, false).await?;
        }
        let mut looks = vec![look.account, look.sms_form, look.qr_expired, look.qr_img];
        looks.extend(look.slider);
        let r = page.wait_any(&looks, SHORT).await;
        Ok(match r {
            Ok(0) => LoginSeen::LoggedIn,
            Ok(1) => LoginSeen::SmsChallenge,
            Ok(2) if page.click(look.qr_refresh).await.is_err() => LoginSeen::Expired,
            Ok(2) => LoginSeen::Refreshed,
            Ok(4) => LoginSeen::Slider,
            Ok(_) => LoginSeen::Waiting,
            // Between two pages (the login going home): look again at the next poll.
            Err(DriverError::Timeout(_)) => LoginSeen::Waiting,
            Err(e) => return Err(flow::fail_driver(page, self.platform, step, e).await),
        })
    }

    /// `?` for driver errors inside a step: a step-named error with evidence.
    pub async fn at<T>(&self, page: &Page, step: Step, r: Result<T, DriverError>) -> PResult<T> {
        match r {
            Ok(v) => Ok(v),
            Err(e) => Err(flow::fail_driver(page, self.platform, step, e).await),
        }
    }

    /// The console sent the page to its login: the session is dead ("登录已失效").
    pub async fn expired(&self, page: &Page, step: Step) -> PlatformError {
        flow::fail(
            page,
            self.platform,
            step,
            ErrorKind::Reauthorize,
            "the console shows its login page",
        )
        .await
    }

    pub async fn permanent(&self, page: &Page, step: Step, detail: &str) -> PlatformError {
        flow::fail(page, self.platform, step, ErrorKind::Permanent, detail).await
    }

    /// Waits for the first of `selectors` (its index); a timeout is the step's.
    pub async fn wait(
        &self,
        page: &Page,
        step: Step,
        selectors: &[&str],
        wait: Duration,
    ) -> PResult<usize> {
        let r = page.wait_any(selectors, wait).await;
        self.at(page, step, r).await
    }

    /// A field the page must show now that its form is up: a selector that no longer matches
    /// fails the step at once, naming it (what the canary reports after a console update).
    pub async fn need(&self, page: &Page, step: Step, selector: &str) -> PResult<()> {
        match page.wait_for(selector, SHORT).await {
            Ok(()) => Ok(()),
            Err(DriverError::Timeout(_)) => Err(self
                .permanent(page, step, &format!("no element matches {selector}"))
                .await),
            Err(e) => Err(flow::fail_driver(page, self.platform, step, e).await),
        }
    }

    pub async fn click(&self, page: &Page, step: Step, selector: &str) -> PResult<()> {
        let r = page.click(selector).await;
        self.at(page, step, r).await
    }

    pub async fn fill(&self, page: &Page, step: Step, selector: &str, value: &str) -> PResult<()> {
        let r = page.fill(selector, value).await;
        self.at(page, step, r).await
    }

    pub async fn type_text(
        &self,
        page: &Page,
        step: Step,
        selector: &str,
        text: &str,
    ) -> PResult<()> {
        let r = page.type_text(selector, text).await;
        self.at(page, step, r).await
    }

    /// Opens `url` and waits for `ready` (Ok) or the login page (Err(Reauthorize)).
    pub async fn open(&self, page: &Page, step: Step, url: &str, ready: &str) -> PResult<()> {
        let r = page.goto(url).await;
        self.at(page, step, r).await?;
        match self
            .wait(page, step, &[ready, self.login_marker], PAGE)
            .await?
        {
            0 => Ok(()),
            _ => Err(self.expired(page, step).await),
        }
    }

    /// Waits for `ready` on the page as it is (after a click): Ok, or Err(Reauthorize) on the login.
    pub async fn expect(
        &self,
        page: &Page,
        step: Step,
        ready: &str,
        wait: Duration,
    ) -> PResult<()> {
        match self
            .wait(page, step, &[ready, self.login_marker], wait)
            .await?
        {
            0 => Ok(()),
            _ => Err(self.expired(page, step).await),
        }
    }

    /// Clicks the publish `button` and reads the console's answer: either of `landed` (the works
    /// list or its empty state) is done; the form's `error` line refuses in the console's words;
    /// the login page is a session that died under the form.
    pub async fn publish(
        &self,
        page: &Page,
        button: &str,
        landed: [&str; 2],
        error: &str,
    ) -> PResult<()> {
        let step = Step::Publish;
        self.click(page, step, button).await?;
        let answers = [landed[0], landed[1], error, self.login_marker];
        match self.wait(page, step, &answers, PAGE).await? {
            0 | 1 => Ok(()),
            2 => {
                let why = page.text(error).await.unwrap_or_default();
                Err(self.permanent(page, step, why.trim()).await)
            }
            _ => Err(self.expired(page, step).await),
        }
    }

    /// The follower count the page at `url` shows in `count` (once `ready` is up).
    pub async fn followers(
        &self,
        page: &Page,
        url: &str,
        ready: &str,
        count: &str,
    ) -> PResult<i64> {
        let step = Step::Profile;
        self.open(page, step, url, ready).await?;
        let r = page.text(count).await;
        Ok(count_of(&self.at(page, step, r).await?))
    }
}

/// Where an SMS code goes on a login page, and what the console shows once it took one.
pub(crate) struct SmsForm {
    pub input: &'static str,
    pub submit: &'static str,
    pub home: &'static str,
}

/// Enters the SMS code the person typed (`human`: key by key, else filled) and submits it, then
/// gives the console its answer before the caller looks: a code it accepted takes the page home
/// within a moment, and a poll that looked sooner would still see the form and type the code again
/// into a page navigating away. Fails only when the browser crashed; a page that moved on under the
/// typing (a code already accepted) is read by the caller's next look either way.
pub(crate) async fn enter_sms_code(
    page: &Page,
    platform: Platform,
    code: &str,
    to: &SmsForm,
    human: bool,
) -> PResult<()> {
    let typed = if human {
        page.type_text(to.input, code).await
    } else {
        page.fill(to.input, code).await
    };
    match typed {
        Ok(()) => match page.click(to.submit).await {
            Ok(()) => {
                let _ = page.wait_for(to.home, SHORT).await;
                Ok(())
            }
            Err(e) => not_entered(page, platform, e).await,
        },
        Err(e) => not_entered(page, platform, e).await,
    }
}

async fn not_entered(page: &Page, platform: Platform, e: DriverError) -> PResult<()> {
    if e.is_crash() {
        return Err(flow::fail_driver(page, platform, Step::Login, e).await);
    }
    tracing::debug!(platform = platform.code(), err = %e, "the SMS code could not be entered");
    Ok(())
}

/// A works list's layout: rows with an id attribute and one class per field.
pub(crate) struct ListLook {
    pub row: &'static str,
    pub id_attr: &'static str,
    pub empty: &'static str,
    pub title: &'static str,
    pub time: &'static str,
    pub status: &'static str,
    /// Plays, likes, comments, shares.
    pub counts: [&'static str; 4],
    /// Status words of a post under review and of a rejected one (anything else is public).
    pub reviewing: &'static [&'static str],
    pub rejected: &'static [&'static str],
    pub share_url: fn(&str) -> String,
}

/// Opens the works list at `url` and reads at most `max` rows, newest first.
pub(crate) async fn read_list(
    steps: &Steps,
    page: &Page,
    url: &str,
    look: &ListLook,
    max: usize,
) -> PResult<Vec<Work>> {
    let step = Step::Works;
    let r = page.goto(url).await;
    steps.at(page, step, r).await?;
    match steps
        .wait(
            page,
            step,
            &[look.row, look.empty, steps.login_marker],
            PAGE,
        )
        .await?
    {
        0 => {}
        1 => return Ok(Vec::new()),
        _ => return Err(steps.expired(page, step).await),
    }
    let r = page.attrs(look.row, look.id_attr).await;
    let ids = steps.at(page, step, r).await?;
    let mut cols = Vec::new();
    for sel in [look.title, look.time, look.status] {
        let r = page.texts(sel).await;
        cols.push(steps.at(page, step, r).await?);
    }
    let mut counts = Vec::new();
    for sel in look.counts {
        let r = page.texts(sel).await;
        counts.push(steps.at(page, step, r).await?);
    }
    let cell =
        |col: &Vec<String>, i: usize| col.get(i).map(|t| t.trim().to_string()).unwrap_or_default();
    let n = |col: &Vec<String>, i: usize| col.get(i).map(|t| count_of(t)).unwrap_or(0);
    Ok(ids
        .iter()
        .enumerate()
        .take(max)
        .map(|(i, id)| {
            let state = cell(&cols[2], i);
            let status = if look.rejected.iter().any(|w| state.contains(w)) {
                WorkStatus::Rejected { reason: state }
            } else if look.reviewing.iter().any(|w| state.contains(w)) {
                WorkStatus::Reviewing
            } else {
                WorkStatus::Public
            };
            Work {
                item_id: id.clone(),
                title: cell(&cols[0], i),
                create_time: parse_china_minute(&cell(&cols[1], i)).unwrap_or(0),
                status,
                stats: Stats {
                    play: n(&counts[0], i),
                    like: n(&counts[1], i),
                    comment: n(&counts[2], i),
                    share: n(&counts[3], i),
                },
                share_url: (look.share_url)(id),
            }
        })
        .collect())
}

/// The schedule window check before any click: a time outside it fails the step, naming it.
pub(crate) fn check_window(
    platform: Platform,
    at: i64,
    now: i64,
    (min, max): (i64, i64),
) -> PResult<()> {
    if at < now + min || at > now + max {
        return Err(flow::step_error(
            platform,
            Step::Schedule,
            ErrorKind::Permanent,
            &format!(
                "the scheduled time must be {} hours to {} days ahead",
                min / 3600,
                max / 86_400
            ),
        ));
    }
    Ok(())
}
