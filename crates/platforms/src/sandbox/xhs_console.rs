//! The Xiaohongshu creator console, imitated: HTML pages with the real console's paths
//! (creator.xiaohongshu.com `/login`, `/new/home`, `/publish/publish?from=homepage&target=video`,
//! `/publish/success`, `/new/note-manager`) and the structure `crate::browser::xhs` selects on,
//! served at `{sandbox}/console/xhs`. The page structure follows what the public projects that drive
//! the real console select on (read, not copied): social-auto-upload
//! (github.com/dreammis/social-auto-upload, `uploader/xiaohongshu_uploader/main.py`) and
//! xiaohongshu-mcp (github.com/xpzouying/xiaohongshu-mcp, `xiaohongshu/login.go`,
//! `publish_video.go`). It is not an API of our own: the browser flow only sees pages; the pages'
//! own scripts call the small endpoints under `/api` and `/login/*`, as the real pages call theirs.
//!
//! - Login: the page opens on the SMS form; the corner icon switches to the QR. A phone "scans" it
//!   with `POST /_phone/scan?qr=<id|latest>&user=<name>` (ungated, like the real QR is); the page
//!   polls, and logged in (cookie `xhs_creator_session`, 30 days) goes to `/new/home`. Fault `sms`:
//!   after the scan the page asks for an SMS code (6 digits, not 000000). Fault `slider`: after the
//!   scan (before any SMS step) a slider puzzle (`div.red-captcha-slider`: a picture with a gap, a
//!   track and a handle that moves the piece); the page sends where the piece was let go
//!   (`POST /login/slider`), within ±6 px of the gap passes, else a new gap. `GET
//!   /_control/console/xhs/captcha` says the newest puzzle's gap (what a person sees) and the tries.
//! - Publish: a real `<input type=file>`; the page uploads with progress (`上传中 n%`, then
//!   `上传成功`), shows the form (title ≤ 20 characters, body ≤ 1,000, ≤ 10 topics chosen from the
//!   editor's topic list), a declaration list with no default, the 定时发布 switch and picker
//!   (1 h to 14 days ahead), and the publish button; success goes to `/publish/success`. The
//!   cover: `div.upload-cover` opens a `div.d-modal` (截取封面 / 上传封面 tabs; 上传封面 shows
//!   `div.upload-wrapper`'s picture input; `div.d-modal-footer` 确定 applies it). The location:
//!   `div.d-select-placeholder` 添加地点 focuses the picker's input; typing lists places (the
//!   sandbox's place table, `GET /api/location?keyword=`) in the `div.d-popover.d-dropdown`'s
//!   `div.d-options` items (`.name`, `.address`). `received` says the cover's bytes
//!   (`cover_size`) and the place (`location`; an unknown one is refused).
//! - Image notes: the publish page's tabs (`div.creator-tab`: 上传视频 / 上传图文 / 写长文, as
//!   xiaohongshu-mcp's `publish.go` clicks them); 上传图文 swaps the upload area's input for one
//!   that takes jpg/png/webp (several at once, ≤ 18), uploads each and lists it in
//!   `.img-preview-area` as `.pr`; the same form follows, and the publish carries the pictures.
//! - Faults per user (`POST {sandbox}/_control/console/xhs/faults`, gated): `slow_upload_ms`,
//!   `expire_mid_flow` (the session dies when the upload finishes; the next call sends the page to
//!   the login), `sms`, `silent_publish` (success shown, nothing created), `changed_selector` (the
//!   upload page's file input gets another class). `GET .../received` lists every publish the
//!   console received (fields as they arrived) and counts the uploads begun, `POST .../scan` scans like the phone.
//!
//! - The note page of the main site (www.xiaohongshu.com `/explore/<note id>`, served at
//!   `{sandbox}/console/xhs/www`; shape after xiaohongshu-mcp's `feed_detail.go` and
//!   `comment_feed.go`, read not copied): `window.__INITIAL_STATE__.note.noteDetailMap[<id>].comments`
//!   (`list` of `{id, content, createTime (ms), likeCount, userInfo {userId, nickname},
//!   subCommentCount, subComments}`, newest first), the rendered `.comments-container` with
//!   `.comment-item#comment-<id>` and its `.right .interactions .reply`, the comment box
//!   (`div.input-box div.content-edit span` to open, `p.content-input` to type, `div.bottom
//!   button.submit`), `.no-comments-text` 这是一片荒地 for none, a missing note's `.not-found-wrapper`, and
//!   for a visitor not logged in the site's `.login-container` instead of the box (`login.go`).
//!   `POST .../_control/console/xhs/comment {note_id, user, content}` adds a customer's comment;
//!   `GET .../comments?note_id=` lists a note's comments with whom they answer.
//!
//! State is in memory (not in `state.json`): a restart logs every sandbox XHS console user out.

use crate::sandbox::html_escape as esc;
use axum::Router;
use axum::extract::{Multipart, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

pub(crate) const COOKIE: &str = "xhs_creator_session";
const QR_TTL_MS: i64 = 3 * 60_000;
const SESSION_SECS: i64 = 30 * 86_400;
pub(crate) const TITLE_MAX: usize = 20;
const BODY_MAX: usize = 1000;
const TOPICS_MAX: usize = 10;
/// Pictures of one image note (上传图文).
const IMAGES_MAX: usize = 18;
pub(crate) const DECLARATIONS: [&str; 4] = [
    "虚构演绎，仅供娱乐",
    "笔记含AI合成内容",
    "自主拍摄",
    "来源转载",
];

pub(crate) type C = Arc<Console>;

pub(crate) struct Console {
    /// `{sandbox}/console/xhs`, as the browser reaches it.
    base: String,
    public_base: String,
    clock: domain::clock::Clock,
    st: Mutex<St>,
}

#[derive(Default)]
struct St {
    seq: u64,
    qrs: HashMap<String, Qr>,
    /// Newest QR id (what `scan?qr=latest` scans).
    latest_qr: Option<String>,
    sessions: HashMap<String, String>,
    users: HashMap<String, User>,
    uploads: HashMap<String, Upload>,
    notes: Vec<Note>,
    received: Vec<Value>,
    /// Upload requests begun (before a slow upload's wait).
    uploads_begun: u64,
    /// Slider puzzle answers received (right or wrong).
    slider_tries: u64,
    /// Comments per note id, oldest first.
    comments: HashMap<String, Vec<NoteComment>>,
}

#[derive(Clone, serde::Serialize)]
struct NoteComment {
    id: String,
    user_id: String,
    nickname: String,
    content: String,
    /// Unix ms.
    created: i64,
    /// The comment this one answers (a sub-comment), if any.
    reply_to: Option<String>,
}

#[derive(Clone, PartialEq)]
enum QrState {
    Pending,
    Sms(String),
    /// The slider puzzle of a user: the gap's left edge in px, and whether an SMS step follows.
    Slider(String, u32, bool),
    Done(String),
}

struct Qr {
    expires_at: i64,
    state: QrState,
}

#[derive(Default, Clone, Deserialize, serde::Serialize)]
#[serde(default)]
pub(crate) struct Faults {
    pub slow_upload_ms: u64,
    pub expire_mid_flow: bool,
    pub sms: bool,
    pub slider: bool,
    pub silent_publish: bool,
    pub changed_selector: bool,
}

struct User {
    id: String,
    nickname: String,
    faults: Faults,
}

struct Upload {
    user: String,
    file_name: String,
    size: u64,
}

struct Note {
    id: String,
    user: String,
    title: String,
    created: i64,
    schedule_at: Option<i64>,
}

impl Console {
    pub(crate) fn new(public_base: &str, clock: domain::clock::Clock) -> C {
        Arc::new(Console {
            base: format!("{public_base}/console/xhs"),
            public_base: public_base.to_string(),
            clock,
            st: Mutex::default(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, St> {
        self.st.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now(&self) -> i64 {
        self.clock.sandbox_now()
    }
}

impl St {
    fn id(&mut self, prefix: &str) -> String {
        self.seq += 1;
        format!("{prefix}{:08x}{:08x}", self.seq, rand::random::<u32>())
    }

    fn user(&mut self, name: &str) -> &mut User {
        self.users.entry(name.to_string()).or_insert_with(|| {
            let h = super::stable_hash(&["xhs-console", name]);
            User {
                id: format!("95{:08}", h % 100_000_000),
                nickname: name.to_string(),
                faults: Faults::default(),
            }
        })
    }

    fn new_qr(&mut self, now: i64) -> String {
        let id = self.id("qr");
        self.qrs.insert(
            id.clone(),
            Qr {
                expires_at: now + QR_TTL_MS,
                state: QrState::Pending,
            },
        );
        self.latest_qr = Some(id.clone());
        id
    }

    fn login(&mut self, user: &str) -> String {
        let s = self.id("xs");
        self.sessions.insert(s.clone(), user.to_string());
        s
    }
}

pub(crate) fn routes<T: Clone + Send + Sync + 'static>(c: C) -> Router<T> {
    Router::new()
        .route("/login", get(login_page))
        .route("/login/status", get(login_status))
        .route("/login/sms", post(login_sms))
        .route("/login/slider", post(login_slider))
        .route("/login/refresh", post(login_refresh))
        .route("/qr/{file}", get(qr_image))
        .route("/_phone/scan", post(phone_scan))
        .route("/new/home", get(home))
        .route("/publish/publish", get(publish_page))
        .route("/publish/success", get(success_page))
        .route("/new/note-manager", get(notes_page))
        .route("/api/upload", post(api_upload))
        .route("/api/publish", post(api_publish))
        .route("/api/location", get(super::poi::places))
        .route("/www/explore/{id}", get(note_page))
        .route("/www/api/comment", post(api_comment))
        .with_state(c)
}

/// The sandbox's controls of this console (nested under the gated `/_control`).
pub(crate) fn control<T: Clone + Send + Sync + 'static>(c: C) -> Router<T> {
    Router::new()
        .route("/faults", post(set_faults))
        .route("/received", get(received))
        .route("/captcha", get(captcha))
        .route("/comment", post(control_comment))
        .route("/comments", get(control_comments))
        .route("/scan", post(control_scan))
        .with_state(c)
}

type Q = Query<HashMap<String, String>>;

fn page(title: &str, body: &str, script: &str) -> Response {
    Html(format!(
        "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>{t} - 小红书创作服务平台</title>\
         <style>body{{font-family:sans-serif;margin:24px}} .hidden{{display:none}} \
         .qrcode-img{{width:160px;height:160px}} .d-switch{{display:inline-block;width:32px;height:16px;background:#ccc;border-radius:8px;cursor:pointer}} \
         .declaration-option,.item,.refresh{{cursor:pointer;padding:4px;border:1px solid #eee;display:inline-block}} \
         p[contenteditable]{{min-height:60px;border:1px solid #ddd;padding:4px}} \
         input.upload-input,input.upload-input-v2{{opacity:0;width:200px;height:40px}} \
         .upload-content{{border:2px dashed #ccc;padding:12px;width:240px}}</style></head>\
         <body>{body}<script>{script}</script></body></html>",
        t = esc(title)
    ))
    .into_response()
}

fn user_of(c: &Console, h: &HeaderMap) -> Option<String> {
    let cookies = h.get(header::COOKIE)?.to_str().ok()?;
    let sid = cookies
        .split(';')
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)?
        .1;
    c.lock().sessions.get(sid).cloned()
}

fn to_login(c: &Console) -> Response {
    (
        StatusCode::FOUND,
        [(header::LOCATION, format!("{}/login", c.base))],
    )
        .into_response()
}

fn unauthorized() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        axum::Json(json!({"success": false, "code": -100, "msg": "登录已过期"})),
    )
        .into_response()
}

async fn login_page(State(c): State<C>) -> Response {
    let id = {
        let now = c.now();
        c.lock().new_qr(now)
    };
    let body = format!(
        r#"<div class="login-box-container"><div class="login-box">
  <div class="sms-form"><h3>短信登录</h3><input placeholder="手机号"><input placeholder="验证码"><button>登 录</button>
    <img class="css-wemwzq" alt="扫码登录" width="40" height="40" src="data:image/svg+xml;utf8,%3Csvg xmlns='http://www.w3.org/2000/svg' width='40' height='40'%3E%3Crect width='40' height='40' fill='%23ff2442'/%3E%3C/svg%3E"></div>
  <div class="qr-form hidden"><div>APP扫一扫登录</div>
    <div class="qrcode"><img class="qrcode-img" data-qr="{id}" src="{base}/qr/{id}.svg"></div>
    <div class="qrcode-expired hidden">二维码已过期 <span class="refresh">点击刷新</span></div></div>
  <div class="red-captcha-slider hidden"><div class="captcha-title">请拖动下方滑块完成拼图</div>
    <div class="captcha-img" style="position:relative;width:300px;height:150px;background:linear-gradient(135deg,#7ab8e8,#f6c28b 60%,#8cc48a)">
      <div class="captcha-gap" style="position:absolute;top:55px;left:0;width:40px;height:40px;background:rgba(0,0,0,.55)"></div>
      <div class="captcha-piece" style="position:absolute;top:55px;left:0;width:40px;height:40px;background:#ffd34d;box-shadow:0 0 0 2px #fff"></div></div>
    <div class="captcha-track" style="position:relative;width:300px;height:40px;background:#eee;margin-top:6px">
      <div class="captcha-handle" style="position:absolute;left:0;top:0;width:40px;height:40px;background:#ff2442;cursor:pointer"></div></div>
    <div class="captcha-msg"></div></div>
  <div class="verify-sms hidden"><div>为了你的账号安全，请输入短信验证码</div><input placeholder="请输入验证码" maxlength="6"><button class="submit">确 定</button><div class="sms-error"></div></div>
</div></div>"#,
        base = c.base
    );
    let script = format!(
        r#"const B={base:?};let qr={id:?};const $=s=>document.querySelector(s);
$('.css-wemwzq').onclick=()=>{{$('.sms-form').classList.add('hidden');$('.qr-form').classList.remove('hidden')}};
$('.refresh').onclick=async()=>{{const r=await fetch(B+'/login/refresh?qr='+qr,{{method:'POST'}});const j=await r.json();qr=j.qr;
  $('.qrcode-img').src=B+'/qr/'+qr+'.svg';$('.qrcode-img').dataset.qr=qr;$('.qrcode-expired').classList.add('hidden')}};
let drag=null;const H=$('.captcha-handle'),P=$('.captcha-piece');
const at=d=>{{H.style.left=d+'px';P.style.left=d+'px'}};
H.addEventListener('mousedown',e=>{{drag={{x:e.clientX,d:0}};$('.captcha-msg').textContent='';e.preventDefault()}});
document.addEventListener('mousemove',e=>{{if(!drag)return;drag.d=Math.max(0,Math.min(260,e.clientX-drag.x));at(drag.d)}});
document.addEventListener('mouseup',async()=>{{if(!drag)return;const offset=drag.d;drag=null;
  const r=await fetch(B+'/login/slider',{{method:'POST',headers:{{'content-type':'application/json'}},body:JSON.stringify({{qr,offset}})}});
  const j=await r.json();if(!j.success){{if(j.gap)$('.captcha-gap').style.left=j.gap+'px';at(0);$('.captcha-msg').textContent=j.msg||'验证失败，请重试'}}}});
$('.verify-sms .submit').onclick=async()=>{{const code=$('.verify-sms input').value;
  const r=await fetch(B+'/login/sms',{{method:'POST',headers:{{'content-type':'application/json'}},body:JSON.stringify({{qr,code}})}});
  const j=await r.json();if(!j.success)$('.sms-error').textContent=j.msg||'验证码错误'}};
async function poll(){{try{{const r=await fetch(B+'/login/status?qr='+qr);const j=await r.json();
  if(j.state==='logged_in'){{location.href=B+'/new/home';return}}
  if(j.state==='slider'){{$('.qr-form').classList.add('hidden');$('.red-captcha-slider').classList.remove('hidden');$('.captcha-gap').style.left=j.gap+'px'}}
  if(j.state==='sms'){{$('.qr-form').classList.add('hidden');$('.red-captcha-slider').classList.add('hidden');$('.verify-sms').classList.remove('hidden')}}
  if(j.state==='expired'){{$('.qrcode-expired').classList.remove('hidden')}}}}catch(e){{}}
  setTimeout(poll,400)}}
poll();"#,
        base = c.base
    );
    page("登录", &body, &script)
}

/// A QR-looking picture for a login id (the phone scans through `/_phone/scan`).
async fn qr_image(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    let id = file.trim_end_matches(".svg");
    let h = super::stable_hash(&["xhs-qr", id]);
    let mut cells = String::new();
    for i in 0..21u64 {
        for j in 0..21u64 {
            let corner = (i < 7 && j < 7) || (i < 7 && j > 13) || (i > 13 && j < 7);
            let on = if corner {
                let (a, b) = (i % 14, j % 14);
                !(a == 1 || a == 5 || b == 1 || b == 5)
                    || (2..=4).contains(&a) && (2..=4).contains(&b)
            } else {
                (h.rotate_left(((i * 21 + j) % 64) as u32) ^ (i * 31 + j * 17)) & 1 == 1
            };
            if on {
                cells.push_str(&format!(
                    "<rect x='{}' y='{}' width='8' height='8'/>",
                    j * 8 + 8,
                    i * 8 + 8
                ));
            }
        }
    }
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        format!(
            "<svg xmlns='http://www.w3.org/2000/svg' width='184' height='184'><rect width='184' height='184' fill='white'/><g fill='black'>{cells}</g></svg>"
        ),
    )
        .into_response()
}

async fn login_status(State(c): State<C>, Query(q): Q) -> Response {
    let id = q.get("qr").cloned().unwrap_or_default();
    let now = c.now();
    let mut st = c.lock();
    let Some(qr) = st.qrs.get(&id) else {
        return axum::Json(json!({"state": "expired"})).into_response();
    };
    match qr.state.clone() {
        QrState::Pending if qr.expires_at <= now => {
            axum::Json(json!({"state": "expired"})).into_response()
        }
        QrState::Pending => axum::Json(json!({"state": "pending"})).into_response(),
        QrState::Sms(_) => axum::Json(json!({"state": "sms"})).into_response(),
        QrState::Slider(_, gap, _) => {
            axum::Json(json!({"state": "slider", "gap": gap})).into_response()
        }
        QrState::Done(user) => {
            st.qrs.remove(&id);
            let sid = st.login(&user);
            (
                [(
                    header::SET_COOKIE,
                    format!(
                        "{COOKIE}={sid}; Path=/; Max-Age={SESSION_SECS}; HttpOnly; SameSite=Lax"
                    ),
                )],
                axum::Json(json!({"state": "logged_in"})),
            )
                .into_response()
        }
    }
}

#[derive(Deserialize)]
struct SmsBody {
    qr: String,
    code: String,
}

async fn login_sms(State(c): State<C>, axum::Json(b): axum::Json<SmsBody>) -> Response {
    let ok = b.code.len() == 6 && b.code.bytes().all(|x| x.is_ascii_digit()) && b.code != "000000";
    let mut st = c.lock();
    let Some(qr) = st.qrs.get_mut(&b.qr) else {
        return axum::Json(json!({"success": false, "msg": "二维码已过期"})).into_response();
    };
    match (&qr.state, ok) {
        (QrState::Sms(user), true) => {
            qr.state = QrState::Done(user.clone());
            axum::Json(json!({"success": true})).into_response()
        }
        _ => axum::Json(json!({"success": false, "msg": "验证码错误"})).into_response(),
    }
}

#[derive(Deserialize)]
struct SliderBody {
    qr: String,
    offset: f64,
}

/// Where a slider puzzle's gap may be (px from the track's start; the piece is 40 px of 300).
fn new_gap() -> u32 {
    80 + rand::random::<u32>() % 160
}

async fn login_slider(State(c): State<C>, axum::Json(b): axum::Json<SliderBody>) -> Response {
    let mut st = c.lock();
    st.slider_tries += 1;
    let Some(qr) = st.qrs.get_mut(&b.qr) else {
        return axum::Json(json!({"success": false, "msg": "二维码已过期"})).into_response();
    };
    let QrState::Slider(user, gap, sms) = qr.state.clone() else {
        return axum::Json(json!({"success": false, "msg": "请先扫码"})).into_response();
    };
    if (b.offset - gap as f64).abs() <= 6.0 {
        qr.state = if sms {
            QrState::Sms(user)
        } else {
            QrState::Done(user)
        };
        return axum::Json(json!({"success": true})).into_response();
    }
    // A wrong place: a new puzzle, as the real captchas do.
    let gap = new_gap();
    qr.state = QrState::Slider(user, gap, sms);
    axum::Json(json!({"success": false, "msg": "验证失败，请重试", "gap": gap})).into_response()
}

/// The newest slider puzzle's gap (what its owner sees on the picture) and the answers so far.
async fn captcha(State(c): State<C>) -> Response {
    let st = c.lock();
    let gap = st
        .latest_qr
        .as_ref()
        .and_then(|id| st.qrs.get(id))
        .and_then(|q| match q.state {
            QrState::Slider(_, gap, _) => Some(gap),
            _ => None,
        });
    axum::Json(json!({"gap": gap, "track": 260, "tries": st.slider_tries})).into_response()
}

async fn login_refresh(State(c): State<C>, Query(q): Q) -> Response {
    let now = c.now();
    let mut st = c.lock();
    if let Some(old) = q.get("qr") {
        st.qrs.remove(old);
    }
    let id = st.new_qr(now);
    axum::Json(json!({"qr": id})).into_response()
}

/// What the phone does when its owner scans and confirms: `qr` is an id or `latest`.
fn scan(c: &Console, qr: &str, user: &str) -> Result<(), &'static str> {
    let now = c.now();
    let mut st = c.lock();
    let id = if qr == "latest" || qr.is_empty() {
        st.latest_qr.clone().ok_or("no QR shown")?
    } else {
        qr.to_string()
    };
    let (sms, slider) = {
        let f = &st.user(user).faults;
        (f.sms, f.slider)
    };
    let q = st.qrs.get_mut(&id).ok_or("unknown QR")?;
    if q.expires_at <= now || q.state != QrState::Pending {
        return Err("QR expired or used");
    }
    q.state = if slider {
        QrState::Slider(user.to_string(), new_gap(), sms)
    } else if sms {
        QrState::Sms(user.to_string())
    } else {
        QrState::Done(user.to_string())
    };
    Ok(())
}

async fn phone_scan(State(c): State<C>, Query(q): Q) -> Response {
    let user = q.get("user").map(String::as_str).unwrap_or("xhs_user");
    match scan(&c, q.get("qr").map(String::as_str).unwrap_or(""), user) {
        Ok(()) => axum::Json(json!({"success": true})).into_response(),
        Err(m) => (
            StatusCode::CONFLICT,
            axum::Json(json!({"success": false, "msg": m})),
        )
            .into_response(),
    }
}

async fn control_scan(State(c): State<C>, axum::Json(b): axum::Json<Value>) -> Response {
    let user = b["user"].as_str().unwrap_or("xhs_user");
    match scan(&c, b["qr"].as_str().unwrap_or(""), user) {
        Ok(()) => axum::Json(json!({"ok": true})).into_response(),
        Err(m) => (
            StatusCode::CONFLICT,
            axum::Json(json!({"ok": false, "error": m})),
        )
            .into_response(),
    }
}

async fn set_faults(State(c): State<C>, axum::Json(b): axum::Json<Value>) -> Response {
    let Some(user) = b["user"].as_str() else {
        return (StatusCode::BAD_REQUEST, "user is required").into_response();
    };
    let f: Faults = serde_json::from_value(b.clone()).unwrap_or_default();
    c.lock().user(user).faults = f.clone();
    axum::Json(json!({"ok": true, "faults": f})).into_response()
}

async fn received(State(c): State<C>) -> Response {
    let st = c.lock();
    axum::Json(json!({"received": st.received, "uploads_begun": st.uploads_begun})).into_response()
}

async fn home(State(c): State<C>, h: HeaderMap) -> Response {
    let Some(user) = user_of(&c, &h) else {
        return to_login(&c);
    };
    let (id, nick) = {
        let mut st = c.lock();
        let u = st.user(&user);
        (u.id.clone(), u.nickname.clone())
    };
    // The platforms' shared follower curve (`/_control/followers` tells the same count).
    let fans = super::fans::total(crate::Platform::Xhs, &id, super::words::today(&c.clock));
    let avatar = super::avatar::url(&c.public_base, crate::Platform::Xhs, &id);
    let body = format!(
        r#"<div class="personal-info"><img class="avatar" src="{avatar}" width="48" height="48">
<div class="account-name">{nick}</div><div class="account-id">小红书账号：{id}</div>
<div class="fans"><span class="count">{fans}</span> 粉丝</div></div>
<a href="{base}/publish/publish?from=homepage&target=video">发布笔记</a> <a href="{base}/new/note-manager">笔记管理</a>"#,
        avatar = esc(&avatar),
        nick = esc(&nick),
        base = c.base
    );
    page("首页", &body, "")
}

async fn publish_page(State(c): State<C>, h: HeaderMap) -> Response {
    let Some(user) = user_of(&c, &h) else {
        return to_login(&c);
    };
    let changed = c.lock().user(&user).faults.changed_selector;
    // A console release that renamed the file input's class (the wrapper stayed).
    let (wrap, input) = if changed {
        ("upload-content", "upload-input-v2")
    } else {
        ("upload-content", "upload-input")
    };
    let options: String = DECLARATIONS
        .iter()
        .map(|d| format!("<div class=\"declaration-option\">{d}</div>"))
        .collect();
    let body = format!(
        r#"<div id="publish-container">
<div class="tabs"><div class="creator-tab active">上传视频</div><div class="creator-tab">上传图文</div><div class="creator-tab">写长文</div></div>
<div class="{wrap}"><div>拖拽视频到此或点击上传</div><input class="{input}" type="file" accept="video/*"></div>
<div class="img-preview-area"></div>
<div class="preview-new hidden"><div class="stage">上传中 0%</div></div>
<div class="editor hidden">
  <div class="d-input"><input class="d-text" placeholder="填写标题会有更多赞哦～"></div>
  <div class="ql-editor"><p contenteditable="true" data-placeholder="输入正文描述，真诚有价值的分享予人温暖"></p></div>
  <div id="creator-editor-topic-container" class="hidden"><div class="item"></div></div>
  <div class="cover-plugin-preview">设置封面 <div class="upload-cover">修改封面</div><img class="cover-img hidden" alt=""></div>
  <div class="d-modal hidden"><div class="d-modal-header">设置封面</div>
    <div class="cover-tabs"><span class="cover-tab">截取封面</span> <span class="cover-tab">上传封面</span></div>
    <div class="upload-wrapper hidden"><input type="file" accept="image/png,image/jpeg,image/*"></div>
    <div class="d-modal-footer"><button class="cover-cancel">取消</button> <button class="cover-ok" disabled>确定</button></div></div>
  <div class="location"><div class="d-select-wrapper"><div class="d-text d-select-placeholder d-text-ellipsis d-text-nowrap">添加地点</div><input class="d-select-input hidden"></div>
    <div class="d-popover d-popover-default d-dropdown --size-min-width-large hidden"><div class="d-options-wrapper"><div class="d-grid d-options"></div></div></div></div>
  <div class="declaration"><span class="declaration-trigger">添加内容类型声明</span>
    <div class="declaration-list hidden">{options}</div>
    <div class="declaration-chosen hidden"><span class="label"></span> <span class="clear">×</span></div>
    <div class="declaration-dialog hidden"><input placeholder="请输入媒体名称"><button>确认</button></div></div>
  <div class="custom-switch-card">定时发布 <span class="d-switch"></span>
    <div class="d-datepicker-input-filter hidden"><input class="d-text" placeholder="选择日期和时间"></div></div>
  <div class="publish-page-publish-btn"><button class="bg-red">发布</button></div>
  <div class="d-message-error hidden"></div>
</div></div>"#
    );
    let script = format!(
        r#"const B={base:?};const $=s=>document.querySelector(s);let uploadId=null,decl='',source='',topics=[],images=[],mode='video',cover='',pendingCover='',place='';
document.querySelectorAll('.creator-tab').forEach(t=>t.onclick=()=>{{if(t.textContent!=='上传图文')return;mode='image';
  document.querySelectorAll('.creator-tab').forEach(x=>x.classList.toggle('active',x===t));
  const w=$('div[class^=upload-content]');w.innerHTML='<div>拖拽图片到此或点击上传（最多18张）</div><input class="{input}" type="file" multiple accept=".jpg,.jpeg,.png,.webp">';
  w.querySelector('input').onchange=e=>{{for(const f of e.target.files){{if(images.length>=18){{$('.img-preview-area').insertAdjacentHTML('beforeend','<div class="upload-failed">最多上传18张图片</div>');return}}
    const fd=new FormData();fd.append('file',f);const slot=images.length;images.push(null);
    fetch(B+'/api/upload',{{method:'POST',body:fd}}).then(async r=>{{if(r.status===401){{location.href=B+'/login';return}}const j=await r.json();
      if(!j.success){{$('.img-preview-area').insertAdjacentHTML('beforeend','<div class="upload-failed">'+(j.msg||'上传失败')+'</div>');return}}
      images[slot]=j.data.upload_id;$('.img-preview-area').insertAdjacentHTML('beforeend','<div class="pr"><span class="index">'+(slot+1)+'</span></div>');
      $('.editor').classList.remove('hidden')}})}}
    e.target.value=''}}}});
const fail=m=>{{const e=$('.d-message-error');e.textContent=m;e.classList.remove('hidden')}};
$('input[type=file]').onchange=e=>{{const f=e.target.files[0];if(!f)return;$('.preview-new').classList.remove('hidden');
  const fd=new FormData();fd.append('file',f);const x=new XMLHttpRequest();x.open('POST',B+'/api/upload');
  x.upload.onprogress=ev=>{{if(ev.lengthComputable)$('.stage').textContent='上传中 '+Math.floor(ev.loaded*100/ev.total)+'%'}};
  x.onload=()=>{{if(x.status===401){{location.href=B+'/login';return}}let j={{}};try{{j=JSON.parse(x.responseText)}}catch(_){{}}
    if(!j.success){{$('.preview-new').insertAdjacentHTML('beforeend','<div class="upload-failed">'+(j.msg||'上传失败')+'</div>');return}}
    uploadId=j.data.upload_id;$('.stage').textContent='上传成功';$('.editor').classList.remove('hidden')}};
  x.onerror=()=>$('.preview-new').insertAdjacentHTML('beforeend','<div class="upload-failed">网络错误</div>');x.send(fd)}};
const ed=$('p[contenteditable]');
ed.addEventListener('input',()=>{{const m=/#([^\s#\[\]]+)$/.exec(ed.innerText.replace(/\u00a0/g,' '));const c=$('#creator-editor-topic-container');
  if(m){{c.querySelector('.item').textContent='#'+m[1];c.dataset.topic=m[1];c.classList.remove('hidden')}}else c.classList.add('hidden')}});
$('#creator-editor-topic-container .item').onclick=()=>{{const c=$('#creator-editor-topic-container');const t=c.dataset.topic;topics.push(t);
  const txt=ed.lastChild;if(txt&&txt.nodeType===3)txt.textContent=txt.textContent.replace(new RegExp('#'+t.replace(/[.*+?^${{}}()|[\]\\]/g,'\\$&')+'$'),'');
  const s=document.createElement('span');s.className='topic';s.dataset.topic=t;s.contentEditable='false';s.textContent='#'+t+'[话题]';ed.appendChild(s);
  ed.appendChild(document.createTextNode(' '));c.classList.add('hidden')}};
$('.declaration-trigger').onclick=()=>$('.declaration-list').classList.toggle('hidden');
document.querySelectorAll('.declaration-option').forEach(o=>o.onclick=()=>{{$('.declaration-list').classList.add('hidden');
  if(o.textContent==='来源转载'){{$('.declaration-dialog').classList.remove('hidden');$('.declaration-dialog').dataset.pending='1';return}}
  decl=o.textContent;$('.declaration-chosen .label').textContent=decl;$('.declaration-chosen').classList.remove('hidden')}});
$('.declaration-dialog button').onclick=()=>{{source=$('.declaration-dialog input').value;decl='来源转载';$('.declaration-dialog').classList.add('hidden');
  $('.declaration-chosen .label').textContent=decl;$('.declaration-chosen').classList.remove('hidden')}};
$('.declaration-chosen .clear').onclick=()=>{{decl='';source='';$('.declaration-chosen').classList.add('hidden')}};
$('.upload-cover').onclick=()=>{{pendingCover='';$('.cover-ok').disabled=true;$('.upload-wrapper').classList.add('hidden');$('.d-modal').classList.remove('hidden')}};
document.querySelectorAll('.cover-tab').forEach(t=>t.onclick=()=>$('.upload-wrapper').classList.toggle('hidden',t.textContent!=='上传封面'));
$('.upload-wrapper input').onchange=e=>{{const f=e.target.files[0];if(!f)return;const fd=new FormData();fd.append('file',f);
  fetch(B+'/api/upload',{{method:'POST',body:fd}}).then(r=>r.json()).then(j=>{{if(j.success){{pendingCover=j.data.upload_id;$('.cover-ok').disabled=false}}}})}};
$('.cover-ok').onclick=()=>{{if(!pendingCover)return;cover=pendingCover;$('.d-modal').classList.add('hidden');$('.cover-img').classList.remove('hidden')}};
$('.cover-cancel').onclick=()=>$('.d-modal').classList.add('hidden');
const ph=$('.d-select-placeholder'),locIn=$('.d-select-input'),pop=$('.d-popover');
ph.onclick=()=>{{locIn.classList.remove('hidden');locIn.focus()}};
locIn.oninput=async()=>{{const kw=locIn.value.trim();if(!kw){{pop.classList.add('hidden');return}}
  const j=await (await fetch(B+'/api/location?keyword='+encodeURIComponent(kw))).json();if(locIn.value.trim()!==kw)return;
  $('.d-options').innerHTML=(j.places||[]).map(p=>'<div class="d-grid-item"><div class="name">'+p.name+'</div><div class="address">'+p.address+'</div></div>').join('');
  pop.classList.remove('hidden')}};
$('.d-options').onclick=e=>{{const o=e.target.closest('.d-grid-item');if(!o)return;place=o.querySelector('.name').textContent;
  ph.textContent=place;locIn.value='';locIn.classList.add('hidden');pop.classList.add('hidden')}};
$('.d-switch').onclick=()=>$('.d-datepicker-input-filter').classList.toggle('hidden');
$('.publish-page-publish-btn button').onclick=async()=>{{
  const body=[...ed.childNodes].filter(n=>!(n.classList&&n.classList.contains('topic'))).map(n=>n.textContent).join('').trim();
  const sched=$('.d-datepicker-input-filter').classList.contains('hidden')?'':$('.d-datepicker-input-filter input').value;
  const r=await fetch(B+'/api/publish',{{method:'POST',headers:{{'content-type':'application/json'}},
    body:JSON.stringify({{upload_id:mode==='video'?uploadId:null,images:mode==='image'?images:[],title:$('input.d-text').value,body,topics,declaration:decl,repost_source:source,schedule:sched,cover:mode==='video'?cover:'',location:place}})}});
  if(r.status===401){{location.href=B+'/login';return}}const j=await r.json();
  if(!j.success){{fail(j.msg||'发布失败');return}}location.href=B+'/publish/success?source=&bind_status=not_bind'}};"#,
        base = c.base
    );
    page("发布笔记", &body, &script)
}

async fn success_page() -> Response {
    page(
        "发布成功",
        "<div class=\"publish-success\">发布成功</div>",
        "",
    )
}

async fn api_upload(State(c): State<C>, h: HeaderMap, mut mp: Multipart) -> Response {
    let Some(user) = user_of(&c, &h) else {
        return unauthorized();
    };
    c.lock().uploads_begun += 1;
    let mut size = 0u64;
    let mut file_name = String::new();
    while let Ok(Some(mut field)) = mp.next_field().await {
        if field.name() != Some("file") {
            continue;
        }
        file_name = field.file_name().unwrap_or_default().to_string();
        while let Ok(Some(chunk)) = field.chunk().await {
            size += chunk.len() as u64;
        }
    }
    let faults = c.lock().user(&user).faults.clone();
    if faults.slow_upload_ms > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(faults.slow_upload_ms)).await;
    }
    if size == 0 {
        return axum::Json(json!({"success": false, "msg": "视频文件为空"})).into_response();
    }
    let mut st = c.lock();
    let id = st.id("up");
    st.uploads.insert(
        id.clone(),
        Upload {
            user: user.clone(),
            file_name,
            size,
        },
    );
    if faults.expire_mid_flow {
        // The session dies now; the page learns it at its next call. One-shot.
        st.sessions.retain(|_, u| *u != user);
        st.user(&user).faults.expire_mid_flow = false;
    }
    axum::Json(json!({"success": true, "data": {"upload_id": id}})).into_response()
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct PublishBody {
    upload_id: Option<String>,
    /// The image tab's uploads (图文), in order; empty for a video.
    images: Vec<Option<String>>,
    title: String,
    body: String,
    topics: Vec<String>,
    declaration: String,
    repost_source: String,
    schedule: String,
    /// The cover dialog's upload ("" none: the video's first frame).
    cover: String,
    /// The location picker's place ("" none).
    location: String,
}

async fn api_publish(
    State(c): State<C>,
    h: HeaderMap,
    axum::Json(b): axum::Json<PublishBody>,
) -> Response {
    let Some(user) = user_of(&c, &h) else {
        return unauthorized();
    };
    let refuse = |m: &str| axum::Json(json!({"success": false, "msg": m})).into_response();
    let now_ms = c.now();
    let mut st = c.lock();
    let images = b.images.len();
    let (file_name, file_size) = if images > 0 {
        // An image note: every picture uploaded (none still pending) and the user's, 1–18.
        if images > IMAGES_MAX {
            return refuse("最多上传18张图片");
        }
        let mut size = 0;
        for id in &b.images {
            match id.as_deref().and_then(|id| st.uploads.get(id)) {
                Some(u) if u.user == user => size += u.size,
                _ => return refuse("图片上传中，请稍候"),
            }
        }
        (format!("{images} images"), size)
    } else {
        let upload = b.upload_id.as_deref().and_then(|id| st.uploads.get(id));
        let Some(upload) = upload.filter(|u| u.user == user) else {
            return refuse("请先上传视频");
        };
        (upload.file_name.clone(), upload.size)
    };
    let cover_size = match b.cover.as_str() {
        "" => None,
        id => match st.uploads.get(id) {
            Some(u) if u.user == user => Some(u.size),
            _ => return refuse("封面上传失败"),
        },
    };
    let location = b.location.trim().to_string();
    if !location.is_empty() && !super::poi::is_place(&location) {
        return refuse("地点无效，请重新选择");
    }
    let title = b.title.trim().to_string();
    if title.is_empty() {
        return refuse("请填写标题");
    }
    if title.chars().count() > TITLE_MAX {
        return refuse("标题最多20个字");
    }
    if b.body.chars().count() > BODY_MAX {
        return refuse("正文最多1000个字");
    }
    if b.topics.len() > TOPICS_MAX {
        return refuse("话题最多10个");
    }
    if !b.declaration.is_empty() && !DECLARATIONS.contains(&b.declaration.as_str()) {
        return refuse("内容类型声明无效");
    }
    let schedule_at = if b.schedule.trim().is_empty() {
        None
    } else {
        let Some(at) = crate::browser::xhs::parse_china_minute(&b.schedule) else {
            return refuse("定时发布时间格式错误");
        };
        let now = now_ms / 1000;
        if at < now + 3600 - 60 || at > now + 14 * 86_400 {
            return refuse("定时发布时间需在1小时至14天之间");
        }
        Some(at)
    };
    let silent = st.user(&user).faults.silent_publish;
    st.received.push(json!({
        "user": user, "title": title, "body": b.body, "topics": b.topics,
        "declaration": b.declaration, "repost_source": b.repost_source, "schedule_at": schedule_at,
        "file_name": file_name, "file_size": file_size, "silent": silent, "images": images,
        "cover_size": cover_size, "location": location,
    }));
    if !silent {
        let id = format!("{:024x}", rand::random::<u128>() >> 32);
        st.notes.push(Note {
            id,
            user,
            title,
            created: now_ms / 1000,
            schedule_at,
        });
    }
    axum::Json(json!({"success": true})).into_response()
}

async fn notes_page(State(c): State<C>, h: HeaderMap) -> Response {
    let Some(user) = user_of(&c, &h) else {
        return to_login(&c);
    };
    let now = c.now() / 1000;
    let st = c.lock();
    let notes: Vec<&Note> = st.notes.iter().rev().filter(|n| n.user == user).collect();
    let body = if notes.is_empty() {
        "<div class=\"note-empty\">暂无笔记</div>".to_string()
    } else {
        notes
            .iter()
            .map(|n| {
                let (state, at) = match n.schedule_at {
                    Some(at) if at > now => ("定时发布中", at),
                    Some(at) => ("已发布", at),
                    None if now - n.created < 600 => ("审核中", n.created),
                    None => ("已发布", n.created),
                };
                let h = super::stable_hash(&["xhs-note", &n.id]);
                format!(
                    r#"<div class="note" data-note-id="{id}"><div class="info"><div class="title">{t}</div><div class="time">发布于 {time}</div></div><div class="status">{state}</div><div class="icon_list"><span class="play">{p}</span><span class="like">{l}</span><span class="comment">{cm}</span><span class="share">{s}</span></div></div>"#,
                    id = n.id,
                    t = esc(&n.title),
                    time = crate::browser::xhs::china_minute(if n.schedule_at.is_some() { at } else { n.created }),
                    p = h % 1000,
                    l = h % 100,
                    cm = h % 10,
                    s = h % 7,
                )
            })
            .collect()
    };
    page(
        "笔记管理",
        &format!("<div class=\"note-list\">{body}</div>"),
        "",
    )
}

/// The note page of the main site: the note's comments in the page's initial state and rendered,
/// with the comment box for a logged-in visitor.
async fn note_page(
    State(c): State<C>,
    h: HeaderMap,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Response {
    let me = user_of(&c, &h);
    let st = c.lock();
    let Some(title) = st
        .notes
        .iter()
        .find(|n| n.id == id)
        .map(|n| n.title.clone())
    else {
        return page(
            "笔记",
            r#"<div class="not-found-wrapper"><div>当前笔记暂时无法浏览</div></div>"#,
            "",
        );
    };
    let all = st.comments.get(&id).cloned().unwrap_or_default();
    let view = |c: &NoteComment| {
        json!({"id": c.id, "noteId": id, "content": c.content, "createTime": c.created,
               "likeCount": "0", "userInfo": {"userId": c.user_id, "nickname": c.nickname}})
    };
    // Newest first; answers under their comment.
    let list: Vec<Value> = all
        .iter()
        .rev()
        .filter(|c| c.reply_to.is_none())
        .map(|top| {
            let subs: Vec<Value> = all
                .iter()
                .filter(|r| r.reply_to.as_deref() == Some(top.id.as_str()))
                .map(view)
                .collect();
            let mut v = view(top);
            v["subCommentCount"] = json!(subs.len().to_string());
            v["subComments"] = json!(subs);
            v
        })
        .collect();
    let state = json!({"note": {"noteDetailMap": {id.clone(): {
        "note": {"noteId": id, "title": title},
        "comments": {"list": list, "cursor": "", "hasMore": false},
    }}}});
    let item = |c: &NoteComment, cls: &str| {
        format!(
            r#"<div class="{cls}"><div class="comment-item" id="comment-{id}"><div class="author" data-user-id="{uid}">{n}</div><div class="content">{t}</div><div class="right"><div class="interactions"><span class="reply">回复</span></div></div></div></div>"#,
            id = c.id,
            uid = esc(&c.user_id),
            n = esc(&c.nickname),
            t = esc(&c.content),
        )
    };
    let mut rendered: String = all
        .iter()
        .map(|c| {
            item(
                c,
                if c.reply_to.is_some() {
                    "sub-comment"
                } else {
                    "parent-comment"
                },
            )
        })
        .collect();
    if rendered.is_empty() {
        rendered = r#"<div class="no-comments-text">这是一片荒地，点击评论</div>"#.into();
    }
    let input = if me.is_some() {
        r#"<div class="input-box"><div class="content-edit"><span>说点什么...</span><p class="content-input hidden" contenteditable="true"></p></div><div class="bottom"><button class="submit">发送</button></div></div>"#
    } else {
        r#"<div class="login-container"><div>登录后评论</div><img class="qrcode-img" alt="扫码登录"></div>"#
    };
    let body = format!(
        r#"<div class="note-container"><div class="title">{t}</div><div class="comments-container">{rendered}</div>{input}</div>"#,
        t = esc(&title)
    );
    let script = format!(
        r#"window.__INITIAL_STATE__={state};const B={base:?};const NOTE={id:?};let replyTo=null;const $=s=>document.querySelector(s);
document.querySelectorAll('.comments-container .reply').forEach(r=>r.onclick=()=>{{replyTo=r.closest('.comment-item').id.replace('comment-','');open()}});
function open(){{$('.content-edit span').classList.add('hidden');$('.content-input').classList.remove('hidden');$('.content-input').focus()}}
if($('.content-edit span'))$('.content-edit span').onclick=open;
if($('.bottom .submit'))$('.bottom .submit').onclick=async()=>{{const content=$('.content-input').innerText.trim();if(!content)return;
  const r=await fetch(B+'/www/api/comment',{{method:'POST',headers:{{'content-type':'application/json'}},body:JSON.stringify({{note_id:NOTE,content,reply_to:replyTo}})}});
  const j=await r.json();if(!j.success)return;
  const d=document.createElement('div');d.className=replyTo?'sub-comment':'parent-comment';
  d.innerHTML='<div class="comment-item" id="comment-'+j.data.id+'"><div class="content"></div></div>';d.querySelector('.content').textContent=content;
  $('.comments-container').appendChild(d);$('.content-input').textContent='';replyTo=null}};"#,
        state = state,
        base = c.base,
    );
    page(&title, &body, &script)
}

#[derive(Deserialize)]
struct CommentBody {
    note_id: String,
    content: String,
    #[serde(default)]
    reply_to: Option<String>,
}

fn add_comment(
    st: &mut St,
    note_id: &str,
    user: &str,
    content: &str,
    reply_to: Option<String>,
    now: i64,
) -> Result<String, &'static str> {
    if !st.notes.iter().any(|n| n.id == note_id) {
        return Err("笔记不存在");
    }
    let content = content.trim();
    if content.is_empty() || content.chars().count() > 280 {
        return Err("评论内容为空或过长");
    }
    if let Some(r) = &reply_to
        && !st
            .comments
            .get(note_id)
            .is_some_and(|cs| cs.iter().any(|c| &c.id == r))
    {
        return Err("回复的评论不存在");
    }
    let id = format!("{:024x}", rand::random::<u128>() >> 32);
    let u = st.user(user);
    let (user_id, nickname) = (u.id.clone(), u.nickname.clone());
    st.comments
        .entry(note_id.to_string())
        .or_default()
        .push(NoteComment {
            id: id.clone(),
            user_id,
            nickname,
            content: content.to_string(),
            created: now,
            reply_to,
        });
    Ok(id)
}

async fn api_comment(
    State(c): State<C>,
    h: HeaderMap,
    axum::Json(b): axum::Json<CommentBody>,
) -> Response {
    let Some(user) = user_of(&c, &h) else {
        return unauthorized();
    };
    let now = c.now();
    let mut st = c.lock();
    match add_comment(&mut st, &b.note_id, &user, &b.content, b.reply_to, now) {
        Ok(id) => axum::Json(json!({"success": true, "data": {"id": id}})).into_response(),
        Err(m) => axum::Json(json!({"success": false, "msg": m})).into_response(),
    }
}

/// A customer (any user name) comments on a note.
async fn control_comment(State(c): State<C>, axum::Json(b): axum::Json<Value>) -> Response {
    let now = c.now();
    let mut st = c.lock();
    let r = add_comment(
        &mut st,
        b["note_id"].as_str().unwrap_or_default(),
        b["user"].as_str().unwrap_or("customer"),
        b["content"].as_str().unwrap_or_default(),
        b["reply_to"].as_str().map(str::to_string),
        now,
    );
    match r {
        Ok(id) => axum::Json(json!({"ok": true, "id": id})).into_response(),
        Err(m) => (
            StatusCode::CONFLICT,
            axum::Json(json!({"ok": false, "error": m})),
        )
            .into_response(),
    }
}

/// A note's comments, oldest first, with whom each answers.
async fn control_comments(State(c): State<C>, Query(q): Q) -> Response {
    let st = c.lock();
    let id = q.get("note_id").cloned().unwrap_or_default();
    axum::Json(json!({"comments": st.comments.get(&id).cloned().unwrap_or_default()}))
        .into_response()
}
