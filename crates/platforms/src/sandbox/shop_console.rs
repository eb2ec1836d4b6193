//! The shop platform's console: the Douyin creator console (`creator.douyin.com`) where a shop's
//! Douyin account posts videos with its product mounted (docs/spec-decisions.md, "The shop
//! platform's real path"). HTML pages with the real console's paths and the structure its flow
//! (`browser::shop`) selects on — learnt from social-auto-upload's
//! `uploader/douyin_uploader/main.py` (read, not copied):
//!
//! - `/`: the login card, 扫码登录 tab, `#animate_qrcode_container img` (a data URL), 二维码失效
//!   with 点击刷新 when it expired; after the scan an SMS 身份验证 may follow (`form.uc-ui-verify_sms`,
//!   `input[placeholder="请输入验证码"]`, `div.uc-ui-verify_sms-verify_button` 验证); fault `slider`:
//!   after the scan ByteDance's slider puzzle (secsdk captcha, as public drivers of Douyin and TikTok
//!   select it: `.captcha_verify_container`, the picture `#captcha-verify-image`, the track
//!   `.captcha_verify_slide--slidebar` and its handle `.secsdk-captcha-drag-icon`; the message line
//!   `.captcha_verify_message` is ours). The page sends the place to the sandbox's own
//!   `/_captcha/verify`: ±6 px of the gap passes, else a new gap (`GET
//!   /_control/console/shop/captcha` says the gap a person sees and the tries).
//! - `/creator-micro/home`: `.account-name`, `.account-id`, `.account-fans .count`.
//! - `/creator-micro/content/upload`: `input.upload-btn-input` (type file); choosing a file moves
//!   the page (client side, as the SPA does) to `/creator-micro/content/post/video?enter_from=publish_page`
//!   while the upload goes on: the preview card `div.long-card` shows `div.progress-div` then
//!   重新上传 when done (上传失败 on failure). The form: title `input[placeholder*="填写作品标题"]`
//!   (≤ 30), description `div.zone-container[contenteditable=true]` with ` #topic`s (≤ 5), 添加标签's
//!   `.semi-select` → `[role=option]` 购物车 → `input[placeholder="粘贴商品链接"]` → 添加链接 → the
//!   `.semi-modal-content` with `input[placeholder="请输入商品短标题"]` (≤ 10) and 完成编辑 (未搜索到对应商品
//!   for an unknown link); 添加标签's default 位置 shows the select 输入地理位置 (typing lists
//!   `[role=option]` places, `.name` then `.address`, from the sandbox's place table); 选择封面
//!   opens `div.dy-creator-content-modal` (设置竖封面 / 设置横封面, a 生成参考图 input first, then
//!   the frame area's `.semi-upload-drag-area-main-text` input; 完成 enabled once the picture is
//!   in); the publish records the cover's bytes and the place (`received`: `cover_size`,
//!   `location`; an unknown place is refused), 添加自主声明 → `.semi-modal-content` 请选择声明类型 with `label.semi-radio`
//!   `.semi-radio-addon` options and `button.semi-button-primary` 确定 (no default; none chosen declares nothing),
//!   `label[class^=radio]` 立即发布 / 定时发布 with `.semi-input[placeholder="日期和时间"]`
//!   (`YYYY-MM-DD HH:mm`, Enter), and the 发布 button (disabled until the upload is done).
//! - `/creator-micro/content/manage`: `div.video-list-empty` (暂无作品) or `div.video-card[data-id]` with `.video-card-title`,
//!   `.video-card-time`, `.video-card-status` (审核中 / 已发布 / 未通过) and metric counts.
//!
//! Faults (`console::ConsoleFault`): `changed_selector` changes the title input's placeholder.

use super::S;
use super::console::{self, Console, ConsoleFault, data_attr, shell};
use crate::Platform;
use axum::Router;
use axum::extract::State as St;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

pub(crate) static SHOP: Console = Console {
    platform: Platform::Shop,
    cookie: "sessionid",
    login: "/",
    home: "/creator-micro/home",
    list: "/creator-micro/content/manage",
    status: "/passport/web/check_qrconnect/",
    sms: "/passport/web/sms_verify/",
    upload: "/web/api/media/upload/",
    publish: "/web/api/media/aweme/create/",
    title_max: 30,
    short_title: None,
    schedule_window: (2 * console::HOUR_MS, 14 * 24 * console::HOUR_MS),
    max_topics: 5,
};

/// The 自主声明 choices (none is pre-selected).
pub(crate) const DECLARATIONS: [&str; 6] = [
    "内容由AI生成",
    "内容为个人观点或见解",
    "内容取材网络",
    "虚构演绎，仅供娱乐",
    "危险行为，请勿模仿",
    "内容为转载信息",
];

/// A product link the sandbox's shop has: `...id=<digits>...` (a 抖店 product page, e.g.
/// `https://haohuo.jinritemai.com/views/product/detail?id=3612345678`).
pub(crate) fn known_product(link: &str) -> bool {
    link.split(['?', '&'])
        .find_map(|kv| kv.strip_prefix("id="))
        .is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
}

pub(crate) fn routes() -> Router<S> {
    Router::new()
        .route("/", get(login))
        .route("/creator-micro/home", get(home))
        .route("/creator-micro/content/upload", get(create))
        .route("/creator-micro/content/post/video", get(create))
        .route("/creator-micro/content/manage", get(list))
        .merge(SHOP.api())
}

const STYLE: &str = ".top{background:#161823;color:#fff;padding:.6rem 1rem}.main{padding:1rem;max-width:52rem}\
.semi-button{padding:.4rem 1rem;border:1px solid #ccc;border-radius:4px;background:#fff}.semi-button-primary{background:#fe2c55;color:#fff;border-color:#fe2c55}\
#animate_qrcode_container{position:relative;width:200px;height:200px}.qrcode-expired{display:none;position:absolute;inset:0;background:rgba(255,255,255,.94);align-items:center;justify-content:center;flex-direction:column}\
body[data-state=expired] .qrcode-expired{display:flex}form.uc-ui-verify_sms{display:none}body[data-state=sms] form.uc-ui-verify_sms{display:block}\
body[data-state=sms] #animate_qrcode_container{display:none}.form-item{margin:.8rem 0}\
.captcha_verify_container{display:none;width:300px}body[data-state=slider] .captcha_verify_container{display:block}body[data-state=slider] #animate_qrcode_container{display:none}\
#captcha-verify-image{position:relative;width:300px;height:150px;background:linear-gradient(135deg,#5b8def,#f7b267 60%,#7cc58a)}\
.captcha-gap,.captcha-piece{position:absolute;top:55px;left:0;width:40px;height:40px}.captcha-gap{background:rgba(0,0,0,.55)}.captcha-piece{background:#ffd34d;box-shadow:0 0 0 2px #fff}\
.captcha_verify_slide--slidebar{position:relative;width:300px;height:40px;background:#eee;margin-top:6px}.secsdk-captcha-drag-icon{position:absolute;left:0;top:0;width:40px;height:40px;background:#fe2c55;cursor:pointer}\
.zone-container{border:1px solid #ccc;min-height:4rem;padding:.4rem;white-space:pre-wrap}.semi-select{display:inline-block;border:1px solid #ccc;padding:.2rem .6rem;cursor:pointer}\
[role=listbox]{border:1px solid #ccc;background:#fff;display:inline-block}[role=option]{padding:.2rem .6rem;cursor:pointer}\
.semi-modal{position:fixed;inset:0;background:rgba(0,0,0,.4);display:flex;align-items:center;justify-content:center}\
.semi-modal-content{background:#fff;padding:1rem;min-width:20rem}.form-error,.upload-error{color:#c00}.video-card{border-bottom:1px solid #eee;padding:.5rem 0}";

fn top(nick: &str) -> String {
    format!(
        "<div class=\"top\">抖音创作者中心 <span class=\"header-name\">{}</span></div>",
        super::html_escape(nick)
    )
}

pub(crate) async fn login(St(s): St<S>, headers: HeaderMap) -> Response {
    if SHOP.viewer(&s, &headers).is_some() {
        return Redirect::to(&SHOP.url(&s, SHOP.home)).into_response();
    }
    let (id, scan) = SHOP.new_qr(&s);
    let body = format!(
        "<div class=\"main login-card\"><div class=\"login-tabs\"><span class=\"tab active\">扫码登录</span> <span class=\"tab\">手机号登录</span></div>\
         <div id=\"animate_qrcode_container\"><img aria-label=\"二维码\" alt=\"二维码\" src=\"{qr}\">\
         <div class=\"qrcode-expired\"><p>二维码失效</p><button type=\"button\" class=\"semi-button refresh-qrcode\">点击刷新</button></div></div>\
         <p class=\"scan-tip\">打开「抖音APP」扫一扫登录</p>\
         <form class=\"uc-ui-verify_sms\" data-sms><p>身份验证：为保障账号安全，请输入发送至手机的验证码</p>\
         <span class=\"get-code\">获取验证码</span> <input type=\"tel\" maxlength=\"6\" placeholder=\"请输入验证码\">\
         <div class=\"uc-ui-verify_sms-verify_button\"><button type=\"submit\" class=\"semi-button semi-button-primary\">验证</button></div>\
         <p class=\"sms-error\" data-sms-error></p></form>\
         <div class=\"captcha_verify_container\"><div class=\"captcha_verify_bar\">请完成下列验证后继续：拖动滑块完成拼图</div>\
         <div id=\"captcha-verify-image\"><div class=\"captcha-gap\"></div><div class=\"captcha-piece\"></div></div>\
         <div class=\"captcha_verify_slide--slidebar\"><div class=\"secsdk-captcha-drag-icon\"></div></div>\
         <div class=\"captcha_verify_message\"></div></div></div>",
        qr = console::qr_data_url(&id, &scan)
    );
    let data = format!(
        "{}{}{}{} data-state=\"wait\"",
        data_attr("token", &id),
        data_attr("status", &SHOP.url(&s, SHOP.status)),
        data_attr("sms", &SHOP.url(&s, SHOP.sms)),
        data_attr("slider", &SHOP.url(&s, "/_captcha/verify")),
    );
    shell("抖音创作者中心", STYLE, &data, &body, LOGIN_JS).into_response()
}

/// The login page's own logic: the common login (QR, SMS) and the slider puzzle's drag.
const LOGIN_JS: &str = r#"
cm.login();
const q = s => document.querySelector(s), b = document.body;
q('.refresh-qrcode').addEventListener('click', () => location.reload());
const H = q('.secsdk-captcha-drag-icon'), P = q('.captcha-piece'), G = q('.captcha-gap'), M = q('.captcha_verify_message');
const at = d => { H.style.left = d + 'px'; P.style.left = d + 'px'; };
let shown = null, drag = null;
document.addEventListener('cm-state', e => {
  if (e.detail === 'slider' && b.dataset.gap !== shown) { shown = b.dataset.gap; G.style.left = shown + 'px'; at(0); }
});
H.addEventListener('mousedown', e => { drag = {x: e.clientX, d: 0}; M.textContent = ''; e.preventDefault(); });
document.addEventListener('mousemove', e => { if (!drag) return; drag.d = Math.max(0, Math.min(260, e.clientX - drag.x)); at(drag.d); });
document.addEventListener('mouseup', async () => {
  if (!drag) return;
  const offset = drag.d; drag = null;
  const j = await cm.json(b.dataset.slider, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({token: b.dataset.token, offset})});
  if (!j.success) { if (j.gap !== undefined) { shown = String(j.gap); b.dataset.gap = shown; G.style.left = shown + 'px'; } at(0); M.textContent = j.msg || '验证失败，请重试'; }
});
"#;

async fn home(St(s): St<S>, headers: HeaderMap) -> Response {
    let Some(v) = SHOP.viewer(&s, &headers) else {
        return SHOP.to_login(&s);
    };
    let esc = super::html_escape;
    let body = format!(
        "{top}<div class=\"main\"><div class=\"account-card\"><div class=\"account-name\">{nick}</div>\
         <div>抖音号：<span class=\"account-id\">{id}</span></div>\
         <div class=\"account-fans\"><span class=\"count\">{fans}</span> 粉丝</div></div>\
         <p><a class=\"upload-entry\" href=\"{upload}\">发布视频</a> · <a href=\"{list}\">作品管理</a></p></div>",
        top = top(&v.nickname),
        nick = esc(&v.nickname),
        id = esc(&v.open_id),
        fans = console::followers(&s, Platform::Shop, &v.open_id),
        upload = esc(&SHOP.url(&s, "/creator-micro/content/upload")),
        list = esc(&SHOP.url(&s, SHOP.list)),
    );
    shell("抖音创作者中心", STYLE, "", &body, "").into_response()
}

async fn create(St(s): St<S>, headers: HeaderMap) -> Response {
    let Some(v) = SHOP.viewer(&s, &headers) else {
        return SHOP.to_login(&s);
    };
    let title_ph = if console::fault(
        &s,
        Platform::Shop,
        &v.open_id,
        ConsoleFault::ChangedSelector,
    )
    .is_some()
    {
        "添加作品标题"
    } else {
        "填写作品标题，为作品获得更多流量"
    };
    let radios: String = DECLARATIONS
        .iter()
        .map(|d| {
            format!(
                "<label class=\"semi-radio\"><input type=\"radio\" name=\"declaration\" value=\"{d}\"><span class=\"semi-radio-addon\">{d}</span></label><br>"
            )
        })
        .collect();
    let body = format!(
        "{top}<div class=\"main\">\
         <div class=\"container-drag upload-stage\"><p>点击上传 或直接将视频文件拖入此区域</p>\
         <input class=\"upload-btn-input\" type=\"file\" accept=\"video/mp4,video/quicktime,video/*\"></div>\
         <div class=\"post-form\" hidden>\
         <div class=\"long-card preview\"><div class=\"progress-div\"><span class=\"progress-num\">0%</span> <span class=\"upload-state\">上传中</span></div>\
         <div class=\"upload-done\" hidden>重新上传</div><div class=\"upload-error\" hidden>上传失败</div></div>\
         <div class=\"form-item\"><span>作品标题</span> <input class=\"semi-input\" type=\"text\" placeholder=\"{title_ph}\"></div>\
         <div class=\"form-item\"><span>作品简介</span><div class=\"zone-container editor-kit-container\" contenteditable=\"true\"></div></div>\
         <div class=\"form-item cover-row\"><span>设置封面</span> <div class=\"cover-wrap\"><img class=\"cover-preview\" hidden alt=\"\"> <span class=\"cover-entry\">选择封面</span></div></div>\
         <div class=\"form-item tag-row\"><span>添加标签</span> <div class=\"semi-select tag-select\"><span class=\"semi-select-selection-text\">位置</span></div>\
         <div role=\"listbox\" class=\"tag-list\" hidden><div role=\"option\">位置</div><div role=\"option\">购物车</div><div role=\"option\">小程序</div></div>\
         <div class=\"location-row\"><div class=\"semi-select location-select\"><span class=\"location-text\">输入地理位置</span><input class=\"location-input\" hidden></div>\
         <div role=\"listbox\" class=\"location-list\" hidden></div></div>\
         <div class=\"cart-link\" hidden><input class=\"semi-input\" type=\"text\" placeholder=\"粘贴商品链接\"> <span class=\"add-link\">添加链接</span></div>\
         <div class=\"product-card\" hidden>商品：<span class=\"product-title\"></span></div></div>\
         <div class=\"form-item declaration\"><span>自主声明</span> <span class=\"declaration-entry\">添加自主声明</span></div>\
         <div class=\"form-item\"><span>发布时间</span> <label class=\"radio-publish\"><input type=\"radio\" name=\"timing\" value=\"0\" checked> 立即发布</label> \
         <label class=\"radio-publish\"><input type=\"radio\" name=\"timing\" value=\"1\"> 定时发布</label> \
         <input class=\"semi-input schedule\" type=\"text\" placeholder=\"日期和时间\" hidden></div>\
         <p class=\"form-error\"></p>\
         <div class=\"form-btns\"><button class=\"semi-button semi-button-primary publish\" disabled>发布</button> <button class=\"semi-button\">暂存离开</button></div></div></div>\
         <div class=\"semi-modal product-modal\" hidden><div class=\"semi-modal-content\"><p>编辑商品</p>\
         <input type=\"text\" placeholder=\"请输入商品短标题\"> <button class=\"semi-button semi-button-primary finish\" disabled>完成编辑</button> <button class=\"semi-button cancel\">取消</button></div></div>\
         <div class=\"semi-modal product-missing\" hidden><div class=\"semi-modal-content\"><p>未搜索到对应商品</p><button class=\"semi-button semi-button-primary ok\">确定</button></div></div>\
         <div class=\"dy-creator-content-modal cover-modal\" hidden><p>编辑封面</p><span class=\"cover-tab\">设置竖封面</span> <span class=\"cover-tab\">设置横封面</span>\
         <div class=\"semi-upload ai-reference\"><div class=\"semi-upload-drag-area-custom\">+ 生成参考图</div><input class=\"semi-upload-hidden-input\" type=\"file\" accept=\"image/*\"></div>\
         <div class=\"semi-upload frame-upload\"><div class=\"semi-upload-drag-area-main-text\">点击上传文件或拖拽文件到这里</div><input class=\"semi-upload-hidden-input\" type=\"file\" accept=\"image/*\"></div>\
         <button class=\"semi-button semi-button-primary cover-done\" disabled>完成</button></div>\
         <div class=\"semi-modal declaration-modal\" hidden><div class=\"semi-modal-content\"><p>请选择声明类型（单选）</p>{radios}\
         <button class=\"semi-button semi-button-primary confirm\">确定</button></div></div>",
        top = top(&v.nickname),
    );
    let data = format!(
        "{}{}{}{}",
        data_attr("upload", &SHOP.url(&s, SHOP.upload)),
        data_attr("publish", &SHOP.url(&s, SHOP.publish)),
        data_attr("places", &SHOP.url(&s, console::LOCATION_PATH)),
        data_attr(
            "form",
            &SHOP.url(
                &s,
                "/creator-micro/content/post/video?enter_from=publish_page"
            )
        ),
    );
    shell("发布视频 - 抖音创作者中心", STYLE, &data, &body, CREATE_JS).into_response()
}

/// The upload/post page's own logic: the client-side move to the form, the upload's progress, the
/// product (cart) and declaration dialogs, the schedule and publish.
const CREATE_JS: &str = r#"
const d = document.body.dataset, q = s => document.querySelector(s);
const input = q('input.upload-btn-input'), btn = q('button.publish');
let videoId = '', product = {url: '', title: ''}, declaration = '', coverId = '', place = '';
input.addEventListener('change', async () => {
  const f = input.files[0]; if (!f) return;
  history.pushState({}, '', d.form);
  q('.upload-stage').hidden = true; q('.post-form').hidden = false;
  q('.upload-done').hidden = true; q('.upload-error').hidden = true; q('.progress-div').hidden = false; btn.disabled = true;
  const j = await cm.upload(d.upload, f, p => q('.progress-num').textContent = p + '%');
  q('.progress-div').hidden = true;
  if (j.ok) { videoId = j.video_id; q('.upload-done').hidden = false; btn.disabled = false; }
  else { q('.upload-error').hidden = false; q('.upload-error').textContent = j.msg || '上传失败'; }
});
q('.upload-done').addEventListener('click', () => { q('.upload-stage').hidden = false; input.value = ''; });
const lb = q('.tag-list');
q('.tag-select').addEventListener('click', () => lb.hidden = !lb.hidden);
lb.addEventListener('click', e => {
  const o = e.target.closest('[role=option]'); if (!o) return;
  q('.semi-select-selection-text').textContent = o.textContent; lb.hidden = true;
  q('.cart-link').hidden = o.textContent !== '购物车';
  q('.location-row').hidden = o.textContent !== '位置';
});
/* The cover dialog: the frame area's upload (the AI reference picture's input is another). */
const cmod = q('.cover-modal'), cdone = q('.cover-done');
let pendingCover = '';
q('.cover-entry').addEventListener('click', () => { pendingCover = ''; cdone.disabled = true; cmod.hidden = false; });
q('.frame-upload input').addEventListener('change', async (e) => {
  const f = e.target.files[0]; if (!f) return;
  const j = await cm.upload(d.upload, f, () => {});
  if (j.ok) { pendingCover = j.video_id; cdone.disabled = false; }
});
cdone.addEventListener('click', () => { coverId = pendingCover; cmod.hidden = true; q('.cover-preview').hidden = false; });
/* The location: type into the select, pick from its list. */
const locIn = q('.location-input'), locList = q('.location-list');
q('.location-select').addEventListener('click', () => { locIn.hidden = false; locIn.focus(); });
locIn.addEventListener('input', async () => {
  const kw = locIn.value.trim(); if (!kw) { locList.hidden = true; return; }
  const j = await cm.json(d.places + '?keyword=' + encodeURIComponent(kw));
  if (locIn.value.trim() !== kw) return;
  locList.innerHTML = (j.places || []).map(p => '<div role="option"><div class="name">' + p.name + '</div><div class="address">' + p.address + '</div></div>').join('');
  locList.hidden = false;
});
locList.addEventListener('click', e => {
  const o = e.target.closest('[role=option]'); if (!o) return;
  place = o.querySelector('.name').textContent; q('.location-text').textContent = place;
  locIn.hidden = true; locIn.value = ''; locList.hidden = true;
});
const linkIn = q('input[placeholder="粘贴商品链接"]'), modal = q('.product-modal'), shortIn = q('input[placeholder="请输入商品短标题"]');
q('.add-link').addEventListener('click', () => {
  const url = linkIn.value.trim(); if (!url) return;
  const m = /[?&]id=(\d+)(&|$)/.exec(url);
  if (!m) { q('.product-missing').hidden = false; return; }
  product.url = url; shortIn.value = ''; modal.hidden = false;
});
q('.product-missing .ok').addEventListener('click', () => q('.product-missing').hidden = true);
shortIn.addEventListener('input', () => { const n = [...shortIn.value.trim()].length; q('.finish').disabled = n < 1 || n > 10; });
q('.finish').addEventListener('click', () => {
  product.title = shortIn.value.trim(); modal.hidden = true;
  q('.product-title').textContent = product.title; q('.product-card').hidden = false;
});
q('.product-modal .cancel').addEventListener('click', () => { product = {url: '', title: ''}; modal.hidden = true; });
const dm = q('.declaration-modal');
q('.declaration-entry').addEventListener('click', () => dm.hidden = false);
dm.querySelector('.confirm').addEventListener('click', () => {
  const r = dm.querySelector('input[name=declaration]:checked'); if (!r) return;
  declaration = r.value; q('.declaration-entry').textContent = declaration; dm.hidden = true;
});
const sched = q('input[placeholder="日期和时间"]');
document.querySelectorAll('input[name=timing]').forEach(r => r.addEventListener('change', () => sched.hidden = q('input[name=timing]:checked').value !== '1'));
sched.addEventListener('keydown', e => { if (e.key === 'Enter') { e.preventDefault(); sched.blur(); } });
btn.addEventListener('click', () => {
  const title = q('.post-form input.semi-input[type=text]');
  const timed = q('input[name=timing]:checked').value === '1';
  cm.publish(d.publish, {
    video_id: videoId, title: title.value, description: q('.zone-container').innerText,
    declaration, schedule: timed ? sched.value.trim() : '', product_url: product.url, product_title: product.title,
    cover_id: coverId, location: product.url ? '' : place,
  }, m => q('.form-error').textContent = m);
});
"#;

async fn list(St(s): St<S>, headers: HeaderMap) -> Response {
    let Some(v) = SHOP.viewer(&s, &headers) else {
        return SHOP.to_login(&s);
    };
    let rows = console::rows_html(
        &console::rows(
            &s,
            Platform::Shop,
            &v.open_id,
            ["审核中", "已发布", "未通过"],
        ),
        &console::RowLook {
            row: "video-card",
            fields: [
                "video-card-title",
                "video-card-time",
                "video-card-status",
                "video-card-reason",
            ],
            counts: [
                "metric-play",
                "metric-like",
                "metric-comment",
                "metric-share",
            ],
            metrics: "video-card-metrics",
        },
    );
    let body = format!(
        "{top}<div class=\"main\"><h2>作品管理</h2><div class=\"video-list\">{rows}</div>{empty}</div>",
        top = top(&v.nickname),
        empty = if rows.is_empty() {
            "<div class=\"video-list-empty\">暂无作品</div>"
        } else {
            ""
        },
    );
    shell("作品管理 - 抖音创作者中心", STYLE, "", &body, "").into_response()
}
