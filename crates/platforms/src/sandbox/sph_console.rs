//! The WeChat Channels creator console (视频号助手, `channels.weixin.qq.com`) as HTML pages with the
//! real console's paths and the structure its flow (`browser::sph`) selects on — learnt from
//! social-auto-upload's `uploader/tencent_uploader/main.py` (read, not copied):
//!
//! - `/login.html`: `div.login-qrcode-wrap img.qrcode` (a data URL); `div.qr-tip` says 已扫码 once
//!   scanned; `div.mask.show p.refresh-tip` "二维码已过期，点击刷新" when it expired (click
//!   `div.refresh-wrap`); after the scan an SMS step may follow (`form.sms-verify`).
//! - `/platform`: the home card (`.finder-nickname`, `.finder-uniq-id`, `.finder-info-num`
//!   followers) and `button.weui-desktop-btn` "发表视频".
//! - `/platform/post/create`: `input[type=file]`, the upload status `div.media-status-content`
//!   (`.progress-num`, `div.status-msg.error` on failure, `.tag-inner` 删除), the description editor
//!   `div.input-editor` (title line, `#topics`, text), the short title
//!   `input[placeholder="填写短标题有机会获得更多流量"]`, the original checkbox (`.declare-original
//!   input`), the 视频标注 dropdown (`.post-label-select`, `.option-item`; **pre-selects
//!   含AI生成内容** as Channels does, PostHub #43), 不定时 / 定时 (`label.post-time-radio`), the
//!   `weui-desktop-picker` (date `input[placeholder="请选择发表时间"]` with its month panel, time
//!   `input[placeholder="请选择时间"]`), and `div.form-btns` 发表 (disabled with
//!   `weui-desktop-btn_disabled` until the upload finished) / 保存草稿; the covers (视频号动态 4:3
//!   `div.horizontal-cover-wrap`, 个人主页卡片 3:4 `div.vertical-cover-wrap`, whose
//!   `weui-desktop-dialog` 编辑个人主页卡片 takes a picture in `.single-cover-uploader-wrap` and
//!   applies it with 确认; `received` says the cover's bytes as `cover_size`).
//! - `/platform/post/list`: `div.post-empty` (暂无内容) or `div.post-feed-item[data-id]` with `.post-title`, `.post-time`,
//!   `.post-status` (审核中 / 已发表 / 未通过) and `.post-data` counts.
//!
//! - `/platform/interaction/comment` (互动管理 · 评论; learnt from two public drivers of the live
//!   page found by code search: an opencli `channels stats` command and a Python Playwright
//!   `BrowserCommenter` for Channels, read not copied): the account's posts as `.comment-feed-wrap` cards (`.feed-title`, `.feed-time`; the
//!   chosen one `.active-feed`) in the order of the page's own `post/post_list` call (no ids in the
//!   DOM: `data.list[].exportId`), the chosen post's comments from its `comment/comment_list` call
//!   (`data.comment[]` with `commentId`, `commentNickname`, `commentContent`, `username`) rendered as
//!   `.comment-item` (`.comment-user-name`, `.comment-time`, `.comment-content`, the author's own with
//!   `.bandage` 作者), 写评论 (`.tag-wrap.primary`) opening `textarea.create-input` (发表评论) and
//!   `.create-ft .tag-wrap.primary` 评论, which calls `comment/create` (`{errCode, errMsg, data:
//!   {objectId, commentId}}`). Ours where no public source shows the live markup: the fields
//!   `commentCreatetime`, `likeCount`, `levelTwoComment`, a comment's `.comment-reply` 回复 and the
//!   list's `.comment-feed-empty`.
//!
//! Faults (`console::ConsoleFault`): `changed_selector` renames the description editor's class.

use super::S;
use super::console::{self, Console, ConsoleFault, data_attr, shell};
use crate::Platform;
use axum::Router;
use axum::extract::State as St;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Json, http::StatusCode};
use serde_json::{Value, json};

pub(crate) static SPH: Console = Console {
    platform: Platform::Sph,
    cookie: "sessionid",
    login: "/login.html",
    home: "/platform",
    list: "/platform/post/list",
    status: "/cgi-bin/mmfinderassistant-bin/auth/auth_login_status",
    sms: "/cgi-bin/mmfinderassistant-bin/auth/auth_sms_verify",
    upload: "/cgi-bin/mmfinderassistant-bin/post/upload_media",
    publish: "/cgi-bin/mmfinderassistant-bin/post/post_create",
    title_max: 1000,
    short_title: Some((6, 16)),
    schedule_window: (2 * console::HOUR_MS, 30 * 24 * console::HOUR_MS),
    max_topics: 10,
};

/// The 视频标注 choices, the first pre-selected.
pub(crate) const LABELS: [&str; 4] = ["含AI生成内容", "内容为自行拍摄", "内容为转载", "无需标注"];

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route("/login.html", get(login))
        .route("/platform", get(home))
        .route("/platform/post/create", get(create))
        .route("/platform/post/list", get(list))
        .route("/platform/interaction/comment", get(comment_page))
        .route(
            "/cgi-bin/mmfinderassistant-bin/post/post_list",
            post(post_list),
        )
        .route(
            "/cgi-bin/mmfinderassistant-bin/comment/comment_list",
            post(comment_list),
        )
        .route(
            "/cgi-bin/mmfinderassistant-bin/comment/create",
            post(comment_create),
        )
        .merge(SPH.api())
}

const STYLE: &str = ".top{background:#07c160;color:#fff;padding:.6rem 1rem}.main{padding:1rem;max-width:52rem}\
.weui-desktop-btn{padding:.4rem 1rem;border:1px solid #ccc;border-radius:4px;background:#fff}\
.weui-desktop-btn_primary{background:#07c160;color:#fff;border-color:#07c160}\
.login-qrcode-wrap{position:relative;width:200px;height:200px}.mask{display:none;position:absolute;inset:0;background:rgba(255,255,255,.94);align-items:center;justify-content:center}\
.mask.show{display:flex}.refresh-wrap{cursor:pointer;text-align:center}.qr-tip .tip-scanned{display:none}\
body[data-state=scanned] .qr-tip .tip-scanned{display:block}body[data-state=scanned] .qr-tip .tip-wait{display:none}\
form.sms-verify{display:none}body[data-state=sms] form.sms-verify{display:block}body[data-state=sms] .login-qrcode-wrap{display:none}\
.form-item{margin:.8rem 0}.input-editor,.input-editor-v2{border:1px solid #ccc;min-height:5rem;padding:.4rem;white-space:pre-wrap}\
.option-list-wrap{border:1px solid #ccc;background:#fff;position:absolute;z-index:2}.post-label-select{display:inline-block;border:1px solid #ccc;padding:.2rem .6rem;cursor:pointer;position:relative}\
.weui-desktop-picker__panel{border:1px solid #ccc;background:#fff;padding:.4rem;display:inline-block}\
.weui-desktop-picker__table a{display:inline-block;width:2rem;text-align:center;cursor:pointer}.weui-desktop-picker__disabled{color:#ccc;pointer-events:none}\
.status-msg.error{color:#c00}.form-error{color:#c00}.post-feed-item{border-bottom:1px solid #eee;padding:.5rem 0}";

fn top(nick: &str) -> String {
    format!(
        "<div class=\"top\">视频号助手 <span class=\"account-name\">{}</span></div>",
        super::html_escape(nick)
    )
}

async fn login(St(s): St<S>, headers: HeaderMap) -> Response {
    if SPH.viewer(&s, &headers).is_some() {
        return Redirect::to(&SPH.url(&s, SPH.home)).into_response();
    }
    let (id, scan) = SPH.new_qr(&s);
    let body = format!(
        "<div class=\"main login-wrap\"><div class=\"login-title\"><span>微信扫码登录 视频号助手</span></div>\
         <div class=\"login-qrcode-wrap\"><img class=\"qrcode\" alt=\"\" src=\"{qr}\">\
         <div class=\"mask\"><div class=\"refresh-wrap\"><p class=\"refresh-tip\">二维码已过期，点击刷新</p></div></div></div>\
         <div class=\"qr-tip\"><div class=\"tip-wait\">请使用微信扫描二维码登录</div><div class=\"tip-scanned\">已扫码，需在手机上进行确认</div></div>\
         <form class=\"sms-verify\" data-sms><p>为了你的帐号安全，请输入发送到绑定手机的短信验证码</p>\
         <input type=\"tel\" maxlength=\"6\" placeholder=\"请输入验证码\">\
         <button type=\"submit\" class=\"weui-desktop-btn weui-desktop-btn_primary\">验证</button>\
         <p class=\"sms-error\" data-sms-error></p></form></div>",
        qr = console::qr_data_url(&id, &scan)
    );
    let data = format!(
        "{}{}{} data-state=\"wait\"",
        data_attr("token", &id),
        data_attr("status", &SPH.url(&s, SPH.status)),
        data_attr("sms", &SPH.url(&s, SPH.sms)),
    );
    const JS: &str = "cm.login();\
        document.addEventListener('cm-state', e => document.querySelector('.mask').classList.toggle('show', e.detail === 'expired'));\
        document.querySelector('.refresh-wrap').addEventListener('click', () => location.reload());";
    shell("视频号助手", STYLE, &data, &body, JS).into_response()
}

async fn home(St(s): St<S>, headers: HeaderMap) -> Response {
    let Some(v) = SPH.viewer(&s, &headers) else {
        return SPH.to_login(&s);
    };
    let fans = console::followers(&s, Platform::Sph, &v.open_id);
    let esc = super::html_escape;
    let body = format!(
        "{top}<div class=\"main\"><div class=\"finder-info-container\">\
         <h2 class=\"finder-nickname\">{nick}</h2><p>视频号ID：<span class=\"finder-uniq-id\">{id}</span></p>\
         <div class=\"finder-info-num\"><span class=\"finder-info-num-label\">关注者</span> <span class=\"finder-info-num-value\">{fans}</span></div></div>\
         <p hidden>发表视频</p>\
         <button class=\"weui-desktop-btn weui-desktop-btn_primary\" data-href=\"{create}\">发表视频</button>\
         <p><a class=\"menu-post-list\" href=\"{list}\">内容管理 · 视频</a></p></div>",
        top = top(&v.nickname),
        nick = esc(&v.nickname),
        id = esc(&v.open_id),
        create = esc(&SPH.url(&s, "/platform/post/create")),
        list = esc(&SPH.url(&s, SPH.list)),
    );
    const JS: &str = "document.querySelector('button[data-href]').addEventListener('click', e => location.href = e.target.dataset.href);";
    shell("视频号助手", STYLE, "", &body, JS).into_response()
}

async fn create(St(s): St<S>, headers: HeaderMap) -> Response {
    let Some(v) = SPH.viewer(&s, &headers) else {
        return SPH.to_login(&s);
    };
    let editor =
        if console::fault(&s, Platform::Sph, &v.open_id, ConsoleFault::ChangedSelector).is_some() {
            "input-editor-v2"
        } else {
            "input-editor"
        };
    let options: String = LABELS
        .iter()
        .map(|l| format!("<li class=\"option-item\"><span class=\"name\">{l}</span></li>"))
        .collect();
    let body = format!(
        "{top}<div class=\"main post-create\">\
         <div class=\"form-item upload-content\"><span>上传视频</span> <input type=\"file\" accept=\"video/mp4,video/x-m4v,video/*\"></div>\
         <div class=\"form-item media-status-content\" hidden><span class=\"progress-num\">0%</span> \
         <div class=\"status-msg\"></div><span class=\"tag-inner\">删除</span></div>\
         <div class=\"form-item\"><span>视频描述</span><div class=\"{editor}\" contenteditable=\"true\" data-placeholder=\"添加描述\"></div></div>\
         <div class=\"form-item short-title-wrap\"><span>短标题</span> <span><input type=\"text\" placeholder=\"填写短标题有机会获得更多流量\"></span></div>\
         <div class=\"form-item cover-row\"><span>封面</span> <div class=\"horizontal-cover-wrap\">视频号动态 4:3</div> \
         <div class=\"vertical-cover-wrap\">个人主页卡片 3:4 <img class=\"cover-preview\" hidden alt=\"\"></div></div>\
         <div class=\"form-item declare-original\"><label><input type=\"checkbox\"> 声明原创</label></div>\
         <div class=\"form-item post-label-wrap\"><span>视频标注</span> \
         <div class=\"post-label-select\"><span class=\"label-select-value\">{ai}</span>\
         <ul class=\"option-list-wrap\" hidden>{options}</ul></div></div>\
         <div class=\"form-item post-time-wrap\"><span>发表时间</span> \
         <label class=\"post-time-radio\"><input type=\"radio\" name=\"postTime\" value=\"0\" checked> 不定时</label> \
         <label class=\"post-time-radio\"><input type=\"radio\" name=\"postTime\" value=\"1\"> 定时</label>\
         <div class=\"weui-desktop-picker\" hidden><input type=\"text\" readonly placeholder=\"请选择发表时间\"> \
         <input type=\"text\" placeholder=\"请选择时间\">\
         <div class=\"weui-desktop-picker__panel\" hidden><button type=\"button\" class=\"weui-desktop-btn__icon__left\">‹</button>\
         <span class=\"weui-desktop-picker__panel__label\" data-kind=\"year\"></span> <span class=\"weui-desktop-picker__panel__label\" data-kind=\"month\"></span>\
         <button type=\"button\" class=\"weui-desktop-btn__icon__right\">›</button><table class=\"weui-desktop-picker__table\"><tbody></tbody></table></div></div></div>\
         <p class=\"form-error\"></p>\
         <div class=\"form-btns\"><button class=\"weui-desktop-btn weui-desktop-btn_default\">保存草稿</button> \
         <button class=\"weui-desktop-btn weui-desktop-btn_primary weui-desktop-btn_disabled\" disabled>发表</button></div></div>\
         <div class=\"weui-desktop-dialog cover-dialog\" hidden><div class=\"weui-desktop-dialog__hd\">编辑个人主页卡片</div>\
         <div class=\"single-cover-uploader-wrap\"><input type=\"file\" accept=\"image/jpeg,image/png\"></div>\
         <div class=\"weui-desktop-dialog__ft\"><button class=\"weui-desktop-btn weui-desktop-btn_default cover-cancel\">取消</button> \
         <button class=\"weui-desktop-btn weui-desktop-btn_primary cover-ok\" disabled>确认</button></div></div>",
        top = top(&v.nickname),
        ai = LABELS[0],
    );
    let data = format!(
        "{}{}{}",
        data_attr("upload", &SPH.url(&s, SPH.upload)),
        data_attr("publish", &SPH.url(&s, SPH.publish)),
        data_attr("now", &s.clock.sandbox_now().to_string()),
    );
    shell("发表动态 - 视频号助手", STYLE, &data, &body, CREATE_JS).into_response()
}

/// The post-create page's own logic: upload with progress, the label dropdown, the date picker
/// (China time, from the platform clock's now), publish.
const CREATE_JS: &str = r#"
const d = document.body.dataset, q = s => document.querySelector(s);
const input = q('.upload-content input[type=file]'), status = q('.media-status-content'),
  pct = q('.progress-num'), msg = q('.status-msg'), btn = q('.form-btns .weui-desktop-btn_primary');
let videoId = '', coverId = '', pendingCover = '';
const ready = on => { btn.disabled = !on; btn.classList.toggle('weui-desktop-btn_disabled', !on); };
input.addEventListener('change', async () => {
  const f = input.files[0]; if (!f) return;
  ready(false); videoId = ''; status.hidden = false; msg.className = 'status-msg'; msg.textContent = '上传中'; pct.textContent = '0%';
  const j = await cm.upload(d.upload, f, p => pct.textContent = p + '%');
  if (j.ok) { videoId = j.video_id; pct.textContent = '100%'; msg.textContent = '上传完成'; ready(true); }
  else { msg.className = 'status-msg error'; msg.textContent = j.msg || '上传失败'; }
});
/* The 3:4 cover: the dialog's upload, applied by 确认. */
const cdlg = q('.cover-dialog'), cok = q('.cover-ok');
q('.vertical-cover-wrap').addEventListener('click', () => { pendingCover = ''; cok.disabled = true; cdlg.hidden = false; });
cdlg.querySelector('input[type=file]').addEventListener('change', async (e) => {
  const f = e.target.files[0]; if (!f) return;
  const j = await cm.upload(d.upload, f, () => {});
  if (j.ok) { pendingCover = j.video_id; cok.disabled = false; }
});
cok.addEventListener('click', () => { coverId = pendingCover; cdlg.hidden = true; q('.cover-preview').hidden = false; });
q('.cover-cancel').addEventListener('click', () => cdlg.hidden = true);
q('.tag-inner').addEventListener('click', () => { input.value = ''; videoId = ''; status.hidden = true; ready(false); });
const sel = q('.post-label-select'), list = q('.option-list-wrap');
sel.addEventListener('click', e => {
  const item = e.target.closest('.option-item');
  if (item) { q('.label-select-value').textContent = item.textContent.trim(); list.hidden = true; }
  else list.hidden = !list.hidden;
});
const picker = q('.weui-desktop-picker'), panel = q('.weui-desktop-picker__panel');
const dateIn = q('input[placeholder="请选择发表时间"]'), timeIn = q('input[placeholder="请选择时间"]');
document.querySelectorAll('input[name=postTime]').forEach(r => r.addEventListener('change', () => picker.hidden = q('input[name=postTime]:checked').value !== '1'));
const china = ms => { const t = new Date(ms + 8 * 3600e3); return {y: t.getUTCFullYear(), m: t.getUTCMonth(), d: t.getUTCDate()}; };
const today = china(Number(d.now));
let view = {y: today.y, m: today.m};
const pad = n => String(n).padStart(2, '0');
const draw = () => {
  q('[data-kind=year]').textContent = view.y + '年'; q('[data-kind=month]').textContent = (view.m + 1) + '月';
  const days = new Date(Date.UTC(view.y, view.m + 1, 0)).getUTCDate();
  let html = '<tr>';
  for (let i = 1; i <= days; i++) {
    const past = view.y < today.y || (view.y === today.y && (view.m < today.m || (view.m === today.m && i < today.d)));
    html += '<td><a' + (past ? ' class="weui-desktop-picker__disabled"' : '') + '>' + i + '</a></td>' + (i % 7 === 0 ? '</tr><tr>' : '');
  }
  panel.querySelector('tbody').innerHTML = html + '</tr>';
};
dateIn.addEventListener('click', () => { draw(); panel.hidden = false; });
q('.weui-desktop-btn__icon__right').addEventListener('click', () => { view.m++; if (view.m > 11) { view.m = 0; view.y++; } draw(); });
q('.weui-desktop-btn__icon__left').addEventListener('click', () => { view.m--; if (view.m < 0) { view.m = 11; view.y--; } draw(); });
panel.querySelector('table').addEventListener('click', e => {
  const a = e.target.closest('a'); if (!a || a.classList.contains('weui-desktop-picker__disabled')) return;
  dateIn.value = view.y + '-' + pad(view.m + 1) + '-' + pad(Number(a.textContent)); panel.hidden = true;
});
timeIn.addEventListener('keydown', e => { if (e.key === 'Enter') { e.preventDefault(); timeIn.blur(); } });
btn.addEventListener('click', () => {
  const editor = q('[contenteditable=true]');
  const timed = q('input[name=postTime]:checked').value === '1';
  let t = timeIn.value.trim(); if (/^\d{1,2}$/.test(t)) t = pad(Number(t)) + ':00';
  cm.publish(d.publish, {
    video_id: videoId, description: editor ? editor.innerText : '',
    short_title: q('.short-title-wrap input').value, original: q('.declare-original input').checked,
    declaration: q('.label-select-value').textContent.trim(),
    schedule: timed ? (dateIn.value + ' ' + t).trim() : '', cover_id: coverId,
  }, m => q('.form-error').textContent = m);
});
"#;

async fn list(St(s): St<S>, headers: HeaderMap) -> Response {
    let Some(v) = SPH.viewer(&s, &headers) else {
        return SPH.to_login(&s);
    };
    let rows = console::rows_html(
        &console::rows(
            &s,
            Platform::Sph,
            &v.open_id,
            ["审核中", "已发表", "未通过"],
        ),
        &console::RowLook {
            row: "post-feed-item",
            fields: ["post-title", "post-time", "post-status", "post-reason"],
            counts: ["play-count", "like-count", "comment-count", "forward-count"],
            metrics: "post-data",
        },
    );
    let body = format!(
        "{top}<div class=\"main\"><h2>视频管理</h2><div class=\"post-list\">{rows}</div>{empty}</div>",
        top = top(&v.nickname),
        empty = if rows.is_empty() {
            "<div class=\"post-empty\">暂无内容</div>"
        } else {
            ""
        },
    );
    shell("内容管理 - 视频号助手", STYLE, "", &body, "").into_response()
}

// ---- 互动管理 · 评论 ---------------------------------------------------------------------------------

const API_POST_LIST: &str = "/cgi-bin/mmfinderassistant-bin/post/post_list";
const API_COMMENT_LIST: &str = "/cgi-bin/mmfinderassistant-bin/comment/comment_list";
const API_COMMENT_CREATE: &str = "/cgi-bin/mmfinderassistant-bin/comment/create";

/// A cgi call without a live session: the console's JSON answer, the page goes to the login.
fn cgi_expired(s: &S) -> Response {
    (
        StatusCode::UNAUTHORIZED,
        Json(json!({"errCode": 300333, "errMsg": "登录已失效", "redirect": SPH.url(s, SPH.login)})),
    )
        .into_response()
}

fn cgi_err(code: i64, msg: &str) -> Response {
    Json(json!({"errCode": code, "errMsg": msg})).into_response()
}

/// A customer's name as Channels shows it.
fn nickname_of(user_id: &str, viewer: &console::Viewer) -> String {
    if user_id == viewer.open_id {
        return viewer.nickname.clone();
    }
    format!("微信用户{}", &user_id[user_id.len().saturating_sub(4)..])
}

async fn comment_page(St(s): St<S>, headers: HeaderMap) -> Response {
    let Some(v) = SPH.viewer(&s, &headers) else {
        return SPH.to_login(&s);
    };
    let body = format!(
        "{top}<div class=\"main comment-wrap\"><h2>评论管理</h2><div class=\"comment-feeds\"></div>\
         <div class=\"comment-body\"><p class=\"comment-hint\">请选择左侧作品</p>\
         <div class=\"comment-ops\" hidden><span class=\"tag-wrap primary\">写评论</span></div>\
         <div class=\"comment-create\" hidden><textarea class=\"create-input\" placeholder=\"发表评论\"></textarea>\
         <div class=\"create-ft\"><span class=\"create-error\"></span> <span class=\"tag-wrap primary\">评论</span></div></div>\
         <div class=\"comment-list\"></div></div></div>",
        top = top(&v.nickname),
    );
    let data = format!(
        "{}{}{}",
        data_attr("posts", &SPH.url(&s, API_POST_LIST)),
        data_attr("list", &SPH.url(&s, API_COMMENT_LIST)),
        data_attr("create", &SPH.url(&s, API_COMMENT_CREATE)),
    );
    shell("评论管理 - 视频号助手", STYLE, &data, &body, COMMENT_JS).into_response()
}

/// The comment page's own logic: its posts, a post's comments, writing one (or a reply).
const COMMENT_JS: &str = r#"
const d = document.body.dataset, q = s => document.querySelector(s);
const post = (url, body) => cm.json(url, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body || {})});
const time = s => { const t = new Date(s * 1000 + 8 * 3600e3); const p = n => String(n).padStart(2, '0');
  return t.getUTCFullYear() + '-' + p(t.getUTCMonth() + 1) + '-' + p(t.getUTCDate()) + ' ' + p(t.getUTCHours()) + ':' + p(t.getUTCMinutes()); };
let posts = [], current = null, replyTo = '';
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
const row = (c, cls) => {
  const r = el('div', cls + ' comment-row');
  r.append(el('img', 'comment-avatar'), el('span', 'comment-user-name', c.commentNickname));
  if (c.username === d.me) r.append(el('span', 'bandage', '作者'));
  r.append(el('span', 'comment-time', time(c.commentCreatetime)), el('div', 'comment-content', c.commentContent));
  return r;
};
const load = async () => {
  const j = await post(d.list, {exportId: current});
  const list = q('.comment-list'); list.innerHTML = '';
  for (const c of (j.data && j.data.comment) || []) {
    const item = row(c, 'comment-item');
    const reply = el('span', 'comment-reply', '回复');
    reply.addEventListener('click', () => { replyTo = c.commentId; open('回复 ' + c.commentNickname); });
    item.append(reply);
    const sub = el('div', 'comment-reply-list');
    for (const r of c.levelTwoComment || []) sub.append(row(r, 'reply-item'));
    item.append(sub);
    list.append(item);
  }
};
const open = (hint) => { q('.comment-create').hidden = false; const t = q('.create-input'); t.placeholder = hint || '发表评论'; t.focus(); };
q('.comment-ops .tag-wrap').addEventListener('click', () => { replyTo = ''; open(); });
q('.create-ft .tag-wrap').addEventListener('click', async () => {
  const content = q('.create-input').value.trim(); if (!content) return;
  const j = await post(d.create, {objectId: current, content, replyCommentId: replyTo});
  if (j.errCode !== 0) { q('.create-error').textContent = j.errMsg || '评论失败'; return; }
  q('.create-error').textContent = ''; q('.create-input').value = ''; q('.comment-create').hidden = true; replyTo = '';
  await load();
});
(async () => {
  const j = await post(d.posts, {});
  d.me = (j.data && j.data.username) || '';
  posts = (j.data && j.data.list) || [];
  const feeds = q('.comment-feeds');
  if (!posts.length) { feeds.append(el('div', 'comment-feed-empty', '暂无作品')); return; }
  posts.forEach(p => {
    const card = el('div', 'comment-feed-wrap');
    card.append(el('div', 'feed-title', p.description), el('div', 'feed-time', time(p.createTime)), el('div', 'feed-comment-count', String(p.commentCount)));
    card.addEventListener('click', async () => {
      document.querySelectorAll('.comment-feed-wrap').forEach(c => c.classList.remove('active-feed'));
      card.classList.add('active-feed'); current = p.exportId;
      q('.comment-hint').hidden = true; q('.comment-ops').hidden = false;
      await load();
    });
    feeds.append(card);
  });
})();
"#;

/// `post/post_list`: the account's posts, newest first (`exportId` = the works list's id).
async fn post_list(St(s): St<S>, headers: HeaderMap) -> Response {
    let Some(v) = SPH.viewer(&s, &headers) else {
        return cgi_expired(&s);
    };
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let list: Vec<Value> = st
        .newest_works(Platform::Sph, &v.open_id)
        .iter()
        .map(|w| {
            json!({
                "exportId": w.item_id, "objectId": w.item_id, "description": w.title,
                "createTime": w.created_at / 1000,
                "commentCount": w.stats(now, st.posted_of(&w.item_id)).comment,
            })
        })
        .collect();
    Json(json!({"errCode": 0, "errMsg": "", "data": {"list": list, "username": v.open_id}}))
        .into_response()
}

/// `comment/comment_list {exportId}`: the post's comments, newest first, each with its answers.
async fn comment_list(St(s): St<S>, headers: HeaderMap, Json(b): Json<Value>) -> Response {
    let Some(v) = SPH.viewer(&s, &headers) else {
        return cgi_expired(&s);
    };
    let id = super::text_of(&b, "exportId");
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let Some(w) = st
        .works
        .iter()
        .find(|w| w.platform == Platform::Sph && w.item_id == id && w.open_id == v.open_id)
    else {
        return cgi_err(-1, "作品不存在");
    };
    let posted = st.posted_of(&id);
    let out = |c: &super::works::CommentOut| {
        json!({
            "commentId": c.comment_id, "username": c.comment_user_id,
            "commentNickname": nickname_of(&c.comment_user_id, &v),
            "commentContent": c.content, "commentCreatetime": c.create_time,
            "likeCount": c.digg_count,
        })
    };
    let comment: Vec<Value> = w
        .comments(now, posted)
        .iter()
        .map(|c| {
            let mut o = out(c);
            o["levelTwoComment"] = super::works::replies(posted, &c.comment_id)
                .iter()
                .map(out)
                .collect();
            o
        })
        .collect();
    Json(json!({"errCode": 0, "errMsg": "", "data": {"comment": comment}})).into_response()
}

/// `comment/create {objectId, content, replyCommentId}`: the account comments (or answers one).
async fn comment_create(St(s): St<S>, headers: HeaderMap, Json(b): Json<Value>) -> Response {
    let Some(v) = SPH.viewer(&s, &headers) else {
        return cgi_expired(&s);
    };
    let id = super::text_of(&b, "objectId");
    let content = super::text_of(&b, "content");
    let reply_to = Some(super::text_of(&b, "replyCommentId")).filter(|r| !r.is_empty());
    if content.trim().is_empty() {
        return cgi_err(-1, "评论不能为空");
    }
    let now = s.clock.sandbox_now();
    let mut st = s.lock();
    if !st
        .works
        .iter()
        .any(|w| w.platform == Platform::Sph && w.item_id == id && w.open_id == v.open_id)
    {
        return cgi_err(-1, "作品不存在");
    }
    if reply_to.is_some()
        && let Err(l) = super::engage::admit_reply(&mut st, Platform::Sph, &v.open_id, &content)
    {
        return cgi_err(-1, l.message());
    }
    let comment_id = st.id("cmt");
    st.posted_comments
        .entry(id.clone())
        .or_default()
        .push(super::works::PostedComment {
            comment_id: comment_id.clone(),
            reply_to,
            content,
            create_time: now,
            user_id: v.open_id.clone(),
        });
    Json(json!({"errCode": 0, "errMsg": "", "data": {"objectId": id, "commentId": comment_id}}))
        .into_response()
}
