//! What the creator-console imitations share (SPH `sph_console`, the shop's Douyin console
//! `shop_console`): the page shell, the console's session cookie, the QR login's state machine
//! (the page polls it as the real login pages do; a phone "scans" through the QR's page or
//! `/_control/console/{code}/scan`), the optional SMS step, the upload the page's file input sends (with
//! its progress), the publish the page's button sends, what each publish carried and the
//! per-account faults (`/_control/console/{code}/received`, `/faults`, `/scan`: [`control`]).
//!
//! The consoles are HTML pages shaped like the real ones (paths, structure, the attributes a flow
//! selects on: see each console's module); the JSON calls below are the pages' own, never a
//! flow's. One script (`SCRIPT`) drives the common parts: it sets `body[data-state]` (login:
//! `wait | scanned | sms | expired`), uploads with progress, posts the form and follows a
//! redirect to the login page when the session died.

use super::{DAY_MS, S, SENSITIVE_WORDS, State, contains_any, html_escape as esc};
use crate::Platform;
use axum::extract::{Extension, Multipart, Query, State as St};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Where one console keeps its pages and calls (paths under the platform's base URL).
pub(crate) struct Console {
    pub platform: Platform,
    /// The session cookie's name (scoped to the console's base path).
    pub cookie: &'static str,
    pub login: &'static str,
    pub home: &'static str,
    pub list: &'static str,
    /// The pages' calls: login state, SMS code, upload, publish.
    pub status: &'static str,
    pub sms: &'static str,
    pub upload: &'static str,
    pub publish: &'static str,
    /// Title limit (characters) and the short title's range where the console has one.
    pub title_max: usize,
    pub short_title: Option<(usize, usize)>,
    /// How far ahead a scheduled post may be: at least / at most (ms).
    pub schedule_window: (i64, i64),
    pub max_topics: usize,
}

pub(crate) const HOUR_MS: i64 = 3_600_000;

/// A console's QR lives 5 minutes; a login 30 days (platform clock).
pub(crate) const QR_TTL_MS: i64 = 5 * 60_000;
pub(crate) const SESSION_TTL_MS: i64 = 30 * DAY_MS;

/// A QR login page's state.
#[derive(Serialize, Deserialize)]
pub(crate) struct QrRec {
    pub platform: Platform,
    pub expires_at: i64,
    /// Set when the phone confirmed (the nickname it logs in as).
    pub confirmed: Option<String>,
    pub sms_required: bool,
    pub session: Option<String>,
    /// A slider puzzle shown after the scan (fault `slider`): its gap's left edge in px of the
    /// 300-px picture (the piece is 40 px), until it is solved.
    #[serde(default)]
    pub slider_gap: Option<u32>,
    /// Places the page sent for its puzzles.
    #[serde(default)]
    pub slider_tries: u32,
}

/// A logged-in browser of a console (its session cookie's value is the key).
#[derive(Serialize, Deserialize)]
pub(crate) struct SessionRec {
    pub platform: Platform,
    pub open_id: String,
    pub nickname: String,
    pub expires_at: i64,
}

/// A new login of `nickname` on platform `p`: the session cookie's value.
pub(crate) fn new_session(st: &mut State, p: Platform, nickname: &str) -> String {
    let open_id = super::oauth::open_id_for(p, "session", nickname);
    let token = st.id("sess_");
    st.sessions.insert(
        token.clone(),
        SessionRec {
            platform: p,
            open_id,
            nickname: nickname.to_string(),
            expires_at: st.clock.sandbox_now() + SESSION_TTL_MS,
        },
    );
    token
}

/// Any six digits but 000000 pass the SMS step.
pub(crate) fn valid_sms(code: &str) -> bool {
    code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit()) && code != "000000"
}

/// The name a phone logs in as when it gives none.
pub(crate) fn nickname_prefix(p: Platform) -> &'static str {
    match p {
        Platform::Sph => "视频号用户",
        Platform::Xhs => "小红书用户",
        _ => "店铺",
    }
}

/// Faults of the consoles, per account (or any account of the platform).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConsoleFault {
    /// The upload answers after `hold_ms` (default 3 s): the page shows its progress meanwhile.
    SlowUpload,
    /// The upload fails (the page shows its error and 重新上传).
    UploadFails,
    /// The session dies at the next publish: the page is sent to the login page.
    SessionExpired,
    /// The next QR login asks for an SMS code after the scan.
    SmsChallenge,
    /// Publish answers as if it worked and posts nothing.
    SilentPublish,
    /// The post-create page renders with one selector changed (as a console update would).
    ChangedSelector,
    /// The next QR login shows a slider puzzle after the scan (before any SMS step).
    Slider,
}

#[derive(Debug, Clone, Serialize)]
pub(crate) struct ConsoleFaultRule {
    pub platform: Platform,
    pub open_id: Option<String>,
    pub fault: ConsoleFault,
    pub remaining: Option<u32>,
    pub hold_ms: u64,
}

/// What one publish carried, as the page sent it (tests assert on these).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct PostRec {
    pub platform: Platform,
    pub open_id: String,
    /// The account's nickname (the `user` of the control calls).
    pub user: String,
    /// None: the publish did nothing (`silent_publish`).
    pub item_id: Option<String>,
    pub video_id: String,
    pub title: String,
    pub description: String,
    pub topics: Vec<String>,
    pub short_title: String,
    pub declaration: String,
    pub original: bool,
    /// Unix seconds (platform clock) of a scheduled post.
    pub schedule_at: Option<i64>,
    pub product_url: String,
    pub product_title: String,
    /// The bytes of the cover the page's cover dialog uploaded (None: the console's own frame).
    pub cover_size: Option<u64>,
    /// The place chosen in the location picker ("" none).
    pub location: String,
    pub at: i64,
}

/// Asks the fault table whether `fault` hits this account now (consuming one use); its hold.
pub(crate) fn fault(s: &S, p: Platform, open_id: &str, fault: ConsoleFault) -> Option<u64> {
    let mut st = s.lock();
    let i = st.console_faults.iter().position(|r| {
        r.platform == p && r.fault == fault && r.open_id.as_deref().is_none_or(|o| o == open_id)
    })?;
    let r = &mut st.console_faults[i];
    let hold = r.hold_ms;
    if let Some(n) = r.remaining.as_mut() {
        *n = n.saturating_sub(1);
        if *n == 0 {
            st.console_faults.remove(i);
        }
    }
    Some(hold)
}

/// The URL path of the sandbox root (`/sandbox` of `http://host:port/sandbox`).
fn root_path(s: &S) -> &str {
    let after = s
        .public_base
        .split_once("://")
        .map_or(s.public_base.as_str(), |x| x.1);
    after.find('/').map_or("", |i| &after[i..])
}

impl Console {
    /// Absolute URL of a path of this console.
    pub fn url(&self, s: &S, path: &str) -> String {
        format!("{}/console/{}{path}", s.public_base, self.platform.code())
    }

    fn cookie_path(&self, s: &S) -> String {
        format!("{}/console/{}", root_path(s), self.platform.code())
    }

    /// The browser's session token (the console's cookie), "" without one.
    fn token(&self, headers: &HeaderMap) -> String {
        let prefix = format!("{}=", self.cookie);
        headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|c| c.split(';'))
            .find_map(|kv| kv.trim().strip_prefix(prefix.as_str()).map(str::to_string))
            .unwrap_or_default()
    }

    /// Who is logged in (None: a dead session; the pages then redirect to [`Console::to_login`]).
    pub fn viewer(&self, s: &S, headers: &HeaderMap) -> Option<Viewer> {
        let token = self.token(headers);
        let st = s.lock();
        match st.sessions.get(&token) {
            Some(x) if x.platform == self.platform && x.expires_at > s.clock.sandbox_now() => {
                Some(Viewer {
                    token,
                    open_id: x.open_id.clone(),
                    nickname: x.nickname.clone(),
                })
            }
            _ => None,
        }
    }

    pub fn to_login(&self, s: &S) -> Response {
        (
            StatusCode::FOUND,
            [(header::LOCATION, self.url(s, self.login))],
        )
            .into_response()
    }

    /// A fresh QR login (the login page shows it): its id and the phone's page (the QR's content).
    pub fn new_qr(&self, s: &S) -> (String, String) {
        let mut st = s.lock();
        let id = st.id("qr");
        let expires_at = s.clock.sandbox_now() + QR_TTL_MS;
        st.qr.insert(
            id.clone(),
            QrRec {
                platform: self.platform,
                expires_at,
                confirmed: None,
                sms_required: false,
                session: None,
                slider_gap: None,
                slider_tries: 0,
            },
        );
        let scan = self.url(s, &format!("/_phone/scan?qr={id}"));
        (id, scan)
    }

    /// The page calls of this console (login state, SMS, upload, publish).
    pub fn api(&'static self) -> Router<S> {
        Router::new()
            .route(self.status, get(status))
            .route(self.sms, post(sms))
            .route(self.upload, post(upload))
            .route(self.publish, post(publish))
            .route(SLIDER_PATH, post(slider))
            .route(LOCATION_PATH, get(super::poi::places))
            .route("/_phone/scan", get(phone_page).post(phone_scan))
            .layer(Extension(self))
    }
}

pub(crate) struct Viewer {
    pub token: String,
    pub open_id: String,
    pub nickname: String,
}

type C = Extension<&'static Console>;

/// Where a form's location picker asks for places matching what was typed (the sandbox's own
/// call: each real console calls its own place search behind the picker).
pub(crate) const LOCATION_PATH: &str = "/_location/search";

/// Where a login page sends the place of its slider puzzle (the sandbox's own call: the real
/// puzzles are a captcha vendor's service).
const SLIDER_PATH: &str = "/_captcha/verify";

/// Where a slider puzzle's gap may be (px from the picture's left; the piece is 40 px of 300).
fn new_gap() -> u32 {
    80 + rand::random::<u32>() % 160
}

#[derive(Deserialize)]
struct SliderIn {
    token: String,
    /// How far the person dragged the piece (px).
    offset: f64,
}

/// `POST /_captcha/verify {token, offset}`: within ±6 px of the gap the puzzle is solved (the login
/// goes on: SMS step or done); elsewhere a new puzzle, as the real captchas do.
async fn slider(St(s): St<S>, Extension(c): C, Json(b): Json<SliderIn>) -> Response {
    let mut st = s.lock();
    let Some(rec) = st.qr.get_mut(&b.token).filter(|r| r.platform == c.platform) else {
        return Json(json!({"success": false, "msg": "二维码已失效"})).into_response();
    };
    let Some(gap) = rec.slider_gap else {
        return Json(json!({"success": true})).into_response();
    };
    rec.slider_tries += 1;
    if (b.offset - f64::from(gap)).abs() <= 6.0 {
        rec.slider_gap = None;
        return Json(json!({"success": true})).into_response();
    }
    let gap = new_gap();
    rec.slider_gap = Some(gap);
    Json(json!({"success": false, "msg": "验证失败，请重试", "gap": gap})).into_response()
}

/// `GET {status}?token=<login id>`: `{status: wait | scanned | slider (with its gap) | sms | expired
/// | done}`; `done` sets the session cookie and says where to go.
async fn status(
    St(s): St<S>,
    Extension(c): C,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let id = q.get("token").cloned().unwrap_or_default();
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    let Some(rec) = st.qr.get(&id).filter(|r| r.platform == c.platform) else {
        return Json(json!({"status": "expired"})).into_response();
    };
    let (confirmed, sms, session, expires_at, gap) = (
        rec.confirmed.clone(),
        rec.sms_required,
        rec.session.clone(),
        rec.expires_at,
        rec.slider_gap,
    );
    let state = match (confirmed, session) {
        (_, Some(token)) => {
            drop(st);
            return logged_in(&s, c, &token);
        }
        (Some(_), None) if gap.is_some() => {
            return Json(json!({"status": "slider", "gap": gap})).into_response();
        }
        (Some(_), None) if sms => "sms",
        // Confirmed on the phone (its QR page or the control's scan): logged in now.
        (Some(nick), None) => {
            let token = new_session(&mut st, c.platform, &nick);
            if let Some(r) = st.qr.get_mut(&id) {
                r.session = Some(token.clone());
            }
            drop(st);
            return logged_in(&s, c, &token);
        }
        (None, _) if now >= expires_at => "expired",
        (None, _) => "wait",
    };
    Json(json!({"status": state})).into_response()
}

fn logged_in(s: &S, c: &Console, token: &str) -> Response {
    (
        [(
            header::SET_COOKIE,
            format!(
                "{}={token}; Path={}; Max-Age={}; HttpOnly; SameSite=Lax",
                c.cookie,
                c.cookie_path(s),
                SESSION_TTL_MS / 1000
            ),
        )],
        Json(json!({"status": "done", "redirect": c.url(s, c.home)})),
    )
        .into_response()
}

/// Confirms a QR login as the phone does (the QR's page or `/_control/console/{code}/scan`): without an
/// SMS step the session starts now.
pub(crate) fn confirm(s: &S, id: &str, nickname: &str, sms: bool) -> Option<String> {
    let p = s.lock().qr.get(id)?.platform;
    let open_id = super::oauth::open_id_for(p, "session", nickname);
    let sms = sms || fault(s, p, &open_id, ConsoleFault::SmsChallenge).is_some();
    let slider = fault(s, p, &open_id, ConsoleFault::Slider).is_some();
    let mut st = s.lock();
    let rec = st.qr.get_mut(id)?;
    rec.confirmed = Some(nickname.to_string());
    rec.sms_required = sms;
    rec.slider_gap = slider.then(new_gap);
    Some(open_id)
}

/// The phone's page of a QR (what scanning it opens): confirm as a nickname, optionally asking
/// for an SMS code. Open, like the real QR's content.
async fn phone_page(Extension(c): C, Query(q): Query<HashMap<String, String>>) -> Html<String> {
    let qr = q.get("qr").cloned().unwrap_or_default();
    let prefix = nickname_prefix(c.platform);
    Html(super::pages::page(
        "扫码确认登录 / Confirm the login",
        &format!(
            "<form method=\"post\" class=\"card\"><input type=\"hidden\" name=\"qr\" value=\"{qr}\">\
             <label>昵称 / Nickname <input type=\"text\" id=\"user\" name=\"user\" value=\"{prefix}{n}\"></label><br>\
             <label><input type=\"checkbox\" id=\"sms\" name=\"sms\" value=\"1\"> 需要短信验证 / require SMS verification</label><br>\
             <button type=\"submit\" id=\"confirm\">确认登录 / Confirm login</button></form>",
            qr = esc(&qr),
            n = super::suggest_suffix(),
        ),
    ))
}

/// The phone confirms (`qr`, `user`, `sms` from the query or the form).
async fn phone_scan(
    St(s): St<S>,
    Extension(c): C,
    Query(mut q): Query<HashMap<String, String>>,
    body: String,
) -> Response {
    q.extend(serde_urlencoded::from_str::<HashMap<String, String>>(&body).unwrap_or_default());
    let b = ScanIn {
        user: q.get("user").cloned().unwrap_or_default(),
        qr: q.get("qr").cloned().unwrap_or_default(),
        sms: q.get("sms").is_some_and(|v| !v.is_empty() && v != "0"),
    };
    scan(St(s), Extension(c), Json(b)).await
}

#[derive(Deserialize)]
struct SmsIn {
    token: String,
    code: String,
}

/// `POST {sms}` `{token, code}`: the code the person typed into the page's SMS step.
async fn sms(St(s): St<S>, Extension(c): C, Json(b): Json<SmsIn>) -> Response {
    if !valid_sms(b.code.trim()) {
        return Json(json!({"ok": false, "msg": "验证码错误，请重新输入"})).into_response();
    }
    let mut st = s.lock();
    let Some(nick) = st
        .qr
        .get(&b.token)
        .filter(|r| r.platform == c.platform && r.sms_required && r.session.is_none())
        .and_then(|r| r.confirmed.clone())
    else {
        return Json(json!({"ok": false, "msg": "登录请求已失效"})).into_response();
    };
    let token = new_session(&mut st, c.platform, &nick);
    if let Some(r) = st.qr.get_mut(&b.token) {
        r.session = Some(token);
    }
    Json(json!({"ok": true})).into_response()
}

/// The page's upload (the file input's file, multipart `file`): `{video_id}` once it is in.
async fn upload(St(s): St<S>, Extension(c): C, headers: HeaderMap, mut mp: Multipart) -> Response {
    let Some(v) = c.viewer(&s, &headers) else {
        return expired(&s, c);
    };
    let mut size = 0u64;
    while let Ok(Some(mut f)) = mp.next_field().await {
        while let Ok(Some(chunk)) = f.chunk().await {
            size += chunk.len() as u64;
        }
    }
    if let Some(hold) = fault(&s, c.platform, &v.open_id, ConsoleFault::SlowUpload) {
        let hold = if hold == 0 { 3_000 } else { hold };
        tokio::time::sleep(std::time::Duration::from_millis(hold)).await;
    }
    if fault(&s, c.platform, &v.open_id, ConsoleFault::UploadFails).is_some() || size == 0 {
        return Json(json!({"ok": false, "msg": "上传失败，请重新上传"})).into_response();
    }
    let mut st = s.lock();
    let id = st.id(&format!("{}_v", c.platform.code()));
    st.videos.insert(
        id.clone(),
        super::Video {
            platform: c.platform,
            open_id: v.open_id,
            size,
            parts: 0,
            width: 0,
            height: 0,
            aigc: None,
        },
    );
    Json(json!({"ok": true, "video_id": id})).into_response()
}

/// A page call without a live session: the page goes to the login page.
fn expired(s: &S, c: &Console) -> Response {
    (
        StatusCode::UNAUTHORIZED,
        Json(json!({"ok": false, "msg": "登录已失效", "redirect": c.url(s, c.login)})),
    )
        .into_response()
}

/// What the form sends.
#[derive(Deserialize, Default)]
#[serde(default)]
struct PostIn {
    video_id: String,
    /// The title input's value; consoles without one send "" (the description's first line is
    /// the title then).
    title: String,
    description: String,
    short_title: String,
    declaration: String,
    original: bool,
    /// `YYYY-MM-DD HH:mm` China time, "" = now.
    schedule: String,
    product_url: String,
    product_title: String,
    /// The cover dialog's upload (an id of the page's upload call), "" for none.
    cover_id: String,
    /// The location picker's choice.
    location: String,
}

fn err(msg: &str) -> Response {
    Json(json!({"ok": false, "msg": msg})).into_response()
}

/// `#topic` words of a text, in order, without '#'.
fn topics_of(text: &str) -> Vec<String> {
    text.split(|ch: char| ch.is_whitespace())
        .filter_map(|w| w.strip_prefix('#'))
        .flat_map(|w| w.split('#'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn parse_schedule(text: &str) -> Option<i64> {
    let (d, t) = text.trim().split_once(' ')?;
    Some(domain::matrix::at(
        domain::matrix::parse_day(d)?,
        domain::matrix::parse_hhmm(t)?,
    ))
}

/// The page's publish: checks what the real console checks, records what arrived, creates the
/// work (under review) and answers where the page goes next (the works list).
async fn publish(
    St(s): St<S>,
    Extension(c): C,
    headers: HeaderMap,
    Json(b): Json<PostIn>,
) -> Response {
    let Some(v) = c.viewer(&s, &headers) else {
        return expired(&s, c);
    };
    if fault(&s, c.platform, &v.open_id, ConsoleFault::SessionExpired).is_some() {
        s.lock().sessions.remove(&v.token);
        return expired(&s, c);
    }
    let now = s.clock.sandbox_now();
    let title = if b.title.trim().is_empty() {
        b.description
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("")
            .to_string()
    } else {
        b.title.trim().to_string()
    };
    let topics = topics_of(&b.description);
    if title.is_empty() {
        return err("请填写标题");
    }
    if title.chars().count() > c.title_max {
        return err(&format!("标题不能超过{}个字", c.title_max));
    }
    if let Some((lo, hi)) = c.short_title {
        let n = b.short_title.trim().chars().count();
        if n != 0 && !(lo..=hi).contains(&n) {
            return err(&format!("短标题需为{lo}-{hi}个字"));
        }
    }
    if topics.len() > c.max_topics {
        return err(&format!("话题不能超过{}个", c.max_topics));
    }
    if contains_any(&title, &SENSITIVE_WORDS) || contains_any(&b.description, &SENSITIVE_WORDS) {
        return err("内容含有敏感词，请修改后再发表");
    }
    let schedule_at = if b.schedule.trim().is_empty() {
        None
    } else {
        match parse_schedule(&b.schedule) {
            Some(t) if t >= now + c.schedule_window.0 && t <= now + c.schedule_window.1 => Some(t),
            Some(_) => return err("定时发表时间不在可选范围内"),
            None => return err("请选择发表时间"),
        }
    };
    if !b.product_url.trim().is_empty() && !super::shop_console::known_product(b.product_url.trim())
    {
        return err("未搜索到对应商品");
    }
    let st = s.lock();
    match st.videos.get(&b.video_id) {
        Some(x) if x.platform == c.platform && x.open_id == v.open_id => {}
        _ => return err("请先上传视频"),
    }
    let cover_size = match b.cover_id.as_str() {
        "" => None,
        id => match st.videos.get(id) {
            Some(x) if x.platform == c.platform && x.open_id == v.open_id => Some(x.size),
            _ => return err("封面上传失败，请重新上传"),
        },
    };
    drop(st);
    let location = b.location.trim().to_string();
    if !location.is_empty() && !super::poi::is_place(&location) {
        return err("地理位置无效，请重新选择");
    }
    let silent = fault(&s, c.platform, &v.open_id, ConsoleFault::SilentPublish).is_some();
    let mut st = s.lock();
    let item_id = (!silent).then(|| st.id(&format!("{}_", c.platform.code())));
    if let Some(item) = &item_id {
        st.add_work(c.platform, &v.open_id, item, &b.video_id, &title);
    }
    st.console_posts.push(PostRec {
        platform: c.platform,
        open_id: v.open_id,
        user: v.nickname,
        item_id,
        video_id: b.video_id,
        title,
        description: b.description,
        topics,
        short_title: b.short_title.trim().to_string(),
        declaration: b.declaration.trim().to_string(),
        original: b.original,
        schedule_at: schedule_at.map(|ms| ms / 1000),
        product_url: b.product_url.trim().to_string(),
        product_title: b.product_title.trim().to_string(),
        cover_size,
        location,
        at: now,
    });
    Json(json!({"ok": true, "redirect": c.url(&s, c.list)})).into_response()
}

// ---- the works list's rows ------------------------------------------------------------------------

/// One row of a console's works list.
pub(crate) struct Row {
    pub item_id: String,
    pub title: String,
    /// `YYYY-MM-DD HH:mm` China time.
    pub time: String,
    pub status: &'static str,
    pub reason: &'static str,
    pub play: i64,
    pub like: i64,
    pub comment: i64,
    pub share: i64,
}

/// The account's works, newest first, with the console's words for their review state.
pub(crate) fn rows(s: &S, p: Platform, open_id: &str, words: [&'static str; 3]) -> Vec<Row> {
    use super::works::Review;
    let now = s.clock.sandbox_now();
    let st = s.lock();
    st.newest_works(p, open_id)
        .into_iter()
        .map(|w| {
            let r = w.review(now);
            let x = w.stats(now, st.posted_of(&w.item_id));
            Row {
                item_id: w.item_id.clone(),
                title: w.title.clone(),
                time: domain::matrix::fmt_minute(w.created_at),
                status: match r {
                    Review::Reviewing => words[0],
                    Review::Public => words[1],
                    Review::Rejected => words[2],
                },
                reason: if r == Review::Rejected {
                    "内容违规，审核未通过"
                } else {
                    ""
                },
                play: x.play,
                like: x.like,
                comment: x.comment,
                share: x.share,
            }
        })
        .collect()
}

/// The class names of a works list's row: the row, then title, time, status, reason, and the
/// play / like / comment / share counts.
pub(crate) struct RowLook {
    pub row: &'static str,
    pub fields: [&'static str; 4],
    pub counts: [&'static str; 4],
    pub metrics: &'static str,
}

/// The rows of a works list as the console renders them (`div.<row>[data-id]`).
pub(crate) fn rows_html(rows: &[Row], look: &RowLook) -> String {
    let [title, time, status, reason] = look.fields;
    let [play, like, comment, share] = look.counts;
    rows.iter()
        .map(|r| {
            format!(
                "<div class=\"{row}\" data-id=\"{id}\"><div class=\"{title}\">{t}</div>\
                 <div class=\"{time}\">{tm}</div><div class=\"{status}\">{st}</div>\
                 <div class=\"{reason}\">{rs}</div><div class=\"{metrics}\">\
                 <span class=\"{play}\">{p}</span> <span class=\"{like}\">{l}</span> \
                 <span class=\"{comment}\">{c}</span> <span class=\"{share}\">{sh}</span></div></div>",
                row = look.row,
                metrics = look.metrics,
                id = esc(&r.item_id),
                t = esc(&r.title),
                tm = r.time,
                st = r.status,
                rs = r.reason,
                p = r.play,
                l = r.like,
                c = r.comment,
                sh = r.share,
            )
        })
        .collect()
}

pub(crate) fn followers(s: &S, p: Platform, open_id: &str) -> i64 {
    super::fans::total(p, open_id, super::words::today(&s.clock))
}

// ---- page shell and script ---------------------------------------------------------------------

/// A console page: `body` inside, the common script and the console's own after it. `data` goes
/// on `<body>` (e.g. `data-token`, `data-status`) for the common script.
pub(crate) fn shell(
    title: &str,
    style: &str,
    data: &str,
    body: &str,
    script: &str,
) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <style>{BASE_STYLE}{style}</style></head><body {data}>{body}\
         <p class=\"sandbox-note\">clipmatrix 平台沙箱 / platform sandbox</p>\
         <script>{SCRIPT}</script><script>{script}</script></body></html>",
        t = esc(title)
    ))
}

/// `data-*` attribute text (escaped).
pub(crate) fn data_attr(name: &str, value: &str) -> String {
    format!(" data-{name}=\"{}\"", esc(value))
}

const BASE_STYLE: &str = "body{font-family:system-ui,'Noto Sans CJK SC','WenQuanYi Zen Hei',sans-serif;margin:0;color:#222}\
[hidden]{display:none!important}.sandbox-note{color:#999;font-size:.8rem;margin:1rem}\
button{cursor:pointer}button[disabled]{opacity:.5;cursor:not-allowed}";

/// The common page logic (`cm`): login polling (`body[data-state]`), the SMS step, the upload with
/// progress and the publish.
const SCRIPT: &str = r#"
const cm = {
  body: document.body,
  async json(url, opt) {
    const r = await fetch(url, Object.assign({credentials: 'same-origin'}, opt || {}));
    const j = await r.json().catch(() => ({}));
    if (j.redirect && (r.status === 401)) { location.href = j.redirect; throw new Error('redirect'); }
    return j;
  },
  /* Login page: polls `data-status` with `data-token`, sets body[data-state]. */
  login() {
    const b = cm.body, url = b.dataset.status + '?token=' + encodeURIComponent(b.dataset.token);
    const tick = async () => {
      let j;
      try { j = await cm.json(url); } catch (e) { setTimeout(tick, 800); return; }
      if (j.status === 'done') { location.href = j.redirect; return; }
      b.dataset.state = j.status;
      if (j.gap !== undefined) b.dataset.gap = j.gap;
      document.dispatchEvent(new CustomEvent('cm-state', {detail: j.status}));
      if (j.status !== 'expired') setTimeout(tick, 400);
    };
    tick();
    const f = document.querySelector('form[data-sms]');
    if (f) f.addEventListener('submit', async (e) => {
      e.preventDefault();
      const code = f.querySelector('input').value.trim();
      const j = await cm.json(b.dataset.sms, {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({token: b.dataset.token, code})});
      const out = f.querySelector('[data-sms-error]');
      if (out) out.textContent = j.ok ? '' : (j.msg || '验证失败');
    });
  },
  /* Uploads `file` to `url`; onProgress(percent) while it goes; resolves to the answer. */
  upload(url, file, onProgress) {
    return new Promise((resolve) => {
      const x = new XMLHttpRequest();
      x.open('POST', url);
      x.upload.onprogress = (e) => { if (e.lengthComputable) onProgress(Math.min(95, Math.floor(e.loaded * 95 / e.total))); };
      x.onload = () => {
        let j = {};
        try { j = JSON.parse(x.responseText); } catch (e) {}
        if (x.status === 401 && j.redirect) { location.href = j.redirect; return; }
        resolve(j);
      };
      x.onerror = () => resolve({ok: false, msg: '网络错误，上传失败'});
      const fd = new FormData();
      fd.append('file', file);
      x.send(fd);
    });
  },
  /* Posts the form; on success goes where the console says (the works list). */
  async publish(url, body, onError) {
    let j;
    try {
      j = await cm.json(url, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)});
    } catch (e) { return; }
    if (j.ok) { location.href = j.redirect; } else { onError(j.msg || '发表失败'); }
  },
};
"#;

/// The SVG stand-in for a QR image: a grid drawn from the login id, with the scan URL as its
/// description (a real QR's content), as a data URL the way the consoles put theirs in `img.src`.
pub(crate) fn qr_data_url(id: &str, scan_url: &str) -> String {
    use base64::Engine;
    let n = 25;
    let mut cells = String::new();
    for y in 0..n {
        for x in 0..n {
            let finder = |cx: i32, cy: i32| {
                let (dx, dy) = (x - cx, y - cy);
                (0..7).contains(&dx) && (0..7).contains(&dy) && {
                    let ring = dx == 0 || dy == 0 || dx == 6 || dy == 6;
                    let core = (2..5).contains(&dx) && (2..5).contains(&dy);
                    ring || core
                }
            };
            let in_finder_zone =
                |cx: i32, cy: i32| (cx..cx + 8).contains(&x) && (cy..cy + 8).contains(&y);
            let on = if in_finder_zone(0, 0) || in_finder_zone(n - 8, 0) || in_finder_zone(0, n - 8)
            {
                finder(0, 0) || finder(n - 7, 0) || finder(0, n - 7)
            } else {
                super::stable_hash(&[id, &x.to_string(), &y.to_string()]).is_multiple_of(2)
            };
            if on {
                cells.push_str(&format!(
                    "<rect x=\"{x}\" y=\"{y}\" width=\"1\" height=\"1\"/>"
                ));
            }
        }
    }
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"-2 -2 {m} {m}\" width=\"200\" height=\"200\" shape-rendering=\"crispEdges\">\
         <desc>{u}</desc><rect x=\"-2\" y=\"-2\" width=\"{m}\" height=\"{m}\" fill=\"#fff\"/><g fill=\"#000\">{cells}</g></svg>",
        m = n + 4,
        u = esc(scan_url)
    );
    format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg)
    )
}

// ---- control ----------------------------------------------------------------------------------

/// `/_control/console/{code}` (gated), shaped like the XHS console's: `POST /scan {user, qr?, sms?}`
/// (the phone scanning the newest live QR of this console, or `qr`), `POST /faults {user,
/// slow_upload_ms, upload_fails, expire_mid_flow, sms, silent_publish, changed_selector}` (replaces
/// that user's faults; `expire_mid_flow` holds for one publish, the others until changed), `GET
/// /faults`, `GET /received` (every publish as it arrived, oldest first).
pub(crate) fn control(c: &'static Console) -> Router<S> {
    Router::new()
        .route("/scan", post(scan))
        .route("/faults", get(list_faults).post(set_faults))
        .route("/received", get(received))
        .route("/captcha", get(captcha))
        .layer(Extension(c))
}

fn bad(status: StatusCode, msg: &str) -> Response {
    (status, Json(json!({"ok": false, "error": msg}))).into_response()
}

#[derive(Deserialize)]
struct ScanIn {
    #[serde(default)]
    user: String,
    #[serde(default)]
    qr: String,
    #[serde(default)]
    sms: bool,
}

async fn scan(St(s): St<S>, Extension(c): C, Json(b): Json<ScanIn>) -> Response {
    let p = c.platform;
    let now = s.clock.sandbox_now();
    let id = {
        let st = s.lock();
        st.qr
            .iter()
            .filter(|(id, r)| {
                r.platform == p
                    && r.confirmed.is_none()
                    && r.expires_at > now
                    && (b.qr.is_empty() || b.qr == "latest" || **id == b.qr)
            })
            .max_by_key(|(_, r)| r.expires_at)
            .map(|(id, _)| id.clone())
    };
    let Some(id) = id else {
        return bad(
            StatusCode::CONFLICT,
            "no QR code is waiting on this console",
        );
    };
    let user = if b.user.trim().is_empty() {
        format!("{}{}", nickname_prefix(p), super::suggest_suffix())
    } else {
        b.user.trim().to_string()
    };
    match confirm(&s, &id, &user, b.sms) {
        Some(open_id) => {
            let sms = s.lock().qr.get(&id).is_some_and(|r| r.sms_required);
            Json(json!({"ok": true, "qr": id, "open_id": open_id, "user": user, "sms": sms}))
                .into_response()
        }
        None => bad(StatusCode::CONFLICT, "QR expired or used"),
    }
}

/// One user's faults (flags, as the XHS console takes them).
#[derive(Deserialize, Default)]
#[serde(default)]
struct FaultsIn {
    user: String,
    slow_upload_ms: u64,
    upload_fails: bool,
    expire_mid_flow: bool,
    sms: bool,
    slider: bool,
    silent_publish: bool,
    changed_selector: bool,
}

async fn set_faults(St(s): St<S>, Extension(c): C, Json(b): Json<FaultsIn>) -> Response {
    if b.user.trim().is_empty() {
        return bad(StatusCode::BAD_REQUEST, "user is required");
    }
    let open_id = super::oauth::open_id_for(c.platform, "session", b.user.trim());
    let rule = |fault, remaining, hold_ms| ConsoleFaultRule {
        platform: c.platform,
        open_id: Some(open_id.clone()),
        fault,
        remaining,
        hold_ms,
    };
    let mut rules = Vec::new();
    if b.slow_upload_ms > 0 {
        rules.push(rule(ConsoleFault::SlowUpload, None, b.slow_upload_ms));
    }
    for (on, fault, remaining) in [
        (b.upload_fails, ConsoleFault::UploadFails, None),
        (b.expire_mid_flow, ConsoleFault::SessionExpired, Some(1)),
        (b.sms, ConsoleFault::SmsChallenge, None),
        (b.slider, ConsoleFault::Slider, None),
        (b.silent_publish, ConsoleFault::SilentPublish, None),
        (b.changed_selector, ConsoleFault::ChangedSelector, None),
    ] {
        if on {
            rules.push(rule(fault, remaining, 0));
        }
    }
    let mut st = s.lock();
    st.console_faults
        .retain(|r| !(r.platform == c.platform && r.open_id.as_deref() == Some(open_id.as_str())));
    st.console_faults.extend(rules);
    Json(json!({"ok": true, "user": b.user.trim(), "open_id": open_id})).into_response()
}

async fn list_faults(St(s): St<S>, Extension(c): C) -> Json<Value> {
    let st = s.lock();
    let mine: Vec<&ConsoleFaultRule> = st
        .console_faults
        .iter()
        .filter(|r| r.platform == c.platform)
        .collect();
    Json(json!({"faults": mine}))
}

/// The newest slider puzzle of this console (what its owner sees: the gap, px of the 260-px
/// travel) and the places sent for it so far.
async fn captcha(St(s): St<S>, Extension(c): C) -> Json<Value> {
    let st = s.lock();
    let newest = st
        .qr
        .values()
        .filter(|r| r.platform == c.platform && (r.slider_gap.is_some() || r.slider_tries > 0))
        .max_by_key(|r| r.expires_at);
    Json(json!({
        "gap": newest.and_then(|r| r.slider_gap),
        "track": 260,
        "tries": newest.map_or(0, |r| r.slider_tries),
    }))
}

async fn received(St(s): St<S>, Extension(c): C) -> Json<Value> {
    let st = s.lock();
    let list: Vec<&PostRec> = st
        .console_posts
        .iter()
        .filter(|r| r.platform == c.platform)
        .collect();
    Json(json!({"received": list}))
}
