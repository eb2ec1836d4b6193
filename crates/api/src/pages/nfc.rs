//! The NFC pages (`/t/<code>`, `/t/a/<key>`): the shell with the activity's colour, a notice, the
//! activity block with its draw, and the tap page with the video and "post to Douyin".

use super::{script, script_value, t};
use domain::i18n::Lang;
use maud::{DOCTYPE, Markup, PreEscaped, html};
use serde::Serialize;

const STYLE: &str = r##"*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,'PingFang SC','Noto Sans CJK SC','WenQuanYi Zen Hei',sans-serif;background:#f5f5f7;color:#222}header{background:var(--c);color:#fff;padding:14px 16px;font-size:18px;font-weight:600}main{padding:12px 14px 40px;max-width:520px;margin:0 auto}.card{background:#fff;border-radius:12px;padding:14px;margin:12px 0;box-shadow:0 1px 3px rgba(0,0,0,.06)}video{width:100%;max-height:56vh;border-radius:10px;background:#000}.btn{display:block;width:100%;text-align:center;padding:13px;border:0;border-radius:24px;font-size:17px;font-weight:600;background:var(--c);color:#fff;text-decoration:none;margin-top:10px}.btn.ghost{background:#fff;color:var(--c);border:1px solid var(--c)}.btn[disabled]{opacity:.45}.muted{color:#888;font-size:13px}.ok{color:#1a7f37;font-weight:600}.bad{color:#c62828}.prize{display:flex;justify-content:space-between;border-bottom:1px dashed #eee;padding:6px 0}.coupon{border:1px dashed var(--c);border-radius:10px;padding:10px;margin-top:8px}.code{font:600 20px monospace;letter-spacing:1px}"##;

/// The draw button's script: posts the draw and shows the prize or the miss (`$W` the words, `$U`
/// the draw's URL).
const DRAW_SCRIPT: &str = r##"(function(){const W=$W;const b=document.getElementById('draw');if(!b)return;b.onclick=async function(){b.disabled=true;const out=document.getElementById('draw-result');try{const r=await fetch($U,{method:'POST',headers:{'accept-language':document.documentElement.lang}});const j=await r.json();if(j.code!==200){out.innerHTML='<p class="bad" data-testid="draw-error"></p>';out.firstChild.textContent=j.message;return;}const d=j.data;const p=document.createElement('div');p.className='coupon';if(d.won){p.innerHTML='<div class="ok" data-testid="draw-won"></div><div class="muted"></div><div class="code" data-testid="coupon-code"></div><div class="muted"></div>';p.children[0].textContent=W.won+'：'+d.prize_name;p.children[1].textContent=W.code;p.children[2].textContent=d.coupon.code;p.children[3].textContent=W.valid+' '+d.coupon.expires_text+(d.coupon.description?' · '+d.coupon.description:'');}else{p.innerHTML='<div data-testid="draw-lost"></div>';p.children[0].textContent=W.lost+'，'+d.prize_name;}out.replaceChildren(p);const m=document.createElement('p');m.className='muted';m.textContent=W.left+'：'+d.left_today;out.appendChild(m);if(d.left_today>0)b.disabled=false;}catch(e){b.disabled=false;}};})();"##;

/// The tap page's script: polls the post's state until it is posted (`$W` the words, `$POSTED`
/// whether it already is, `$U` the status URL).
const TAP_SCRIPT: &str = r##"(function(){const W=$W;let done=$POSTED;async function poll(){if(done)return;try{const r=await fetch($U);const j=await r.json();if(j.state==='posted'){done=true;const s=document.getElementById('post-state');s.textContent=W.posted;s.className='ok';const b=document.getElementById('draw');if(b&&j.can_draw){b.disabled=false;const h=document.getElementById('draw-hint');if(h)h.textContent='';}return;}}catch(e){}setTimeout(poll,2000);}setTimeout(poll,2000);})();"##;

/// A whole page: `title` in the header bar of the activity's `color`.
pub fn page(lang: Lang, title: &str, color: &str, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang=(if lang == Lang::Zh { "zh-CN" } else { "en" }) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width,initial-scale=1,viewport-fit=cover";
                title { (title) }
                style { ":root{--c:" (color) "}" (PreEscaped(STYLE)) }
            }
            body {
                header { (title) }
                main { (body) }
            }
        }
    }
    .into_string()
}

/// A notice page (an unknown tag, too many requests, …); `testid` names it for the tests.
pub fn message(lang: Lang, text: &str, testid: &str) -> String {
    let body = html! {
        div.card { p.bad data-testid=(testid) { (text) } }
    };
    page(lang, t(lang, "提示", "Notice"), "#e4393c", body)
}

/// A coupon the device holds.
pub struct CouponLine<'a> {
    pub prize_name: &'a str,
    pub code: &'a str,
    pub expires: String,
    /// Unused, redeemed or expired, in words.
    pub state: &'static str,
}

/// An activity as its block shows it.
pub struct Activity<'a> {
    pub name: &'a str,
    pub starts: String,
    pub ends: String,
    /// (name, description) of each prize.
    pub prizes: Vec<(&'a str, &'a str)>,
    pub rules_text: &'a str,
    /// Why the draw is closed ('' when open).
    pub hint: &'static str,
    pub can_draw: bool,
    pub coupons: Vec<CouponLine<'a>>,
    pub draw_url: String,
}

/// The words the draw script shows.
#[derive(Serialize)]
struct DrawWords {
    won: &'static str,
    lost: &'static str,
    valid: &'static str,
    code: &'static str,
    left: &'static str,
}

/// The activity block of a page: name, time, rules, prizes, the draw button and the device's coupons.
pub fn activity(lang: Lang, a: &Activity) -> Markup {
    let words = DrawWords {
        won: t(lang, "恭喜获得", "You won"),
        lost: t(lang, "很遗憾", "Sorry"),
        valid: t(lang, "有效期至", "Valid until"),
        code: t(
            lang,
            "券码（到店出示核销）",
            "Code (show it at the counter)",
        ),
        left: t(lang, "今日剩余次数", "Draws left today"),
    };
    html! {
        div.card data-testid="activity" {
            h3 style="margin:0 0 6px" { (a.name) }
            div.muted { (a.starts) " — " (a.ends) }
            @for (name, description) in &a.prizes {
                div.prize { span { (name) } span.muted { (description) } }
            }
            @if !a.rules_text.is_empty() {
                p.muted style="white-space:pre-wrap" { (a.rules_text) }
            }
            p.muted id="draw-hint" data-testid="draw-hint" { (a.hint) }
            button.btn id="draw" data-testid="draw" disabled[!a.can_draw] { (t(lang, "立即抽奖", "Draw now")) }
            div id="draw-result" data-testid="draw-result" style="margin-top:10px" {}
            div id="coupons" {
                h4 style="margin:14px 0 4px" { (t(lang, "我的优惠券", "My coupons")) }
                @for c in &a.coupons {
                    div.coupon data-testid="my-coupon" {
                        div { (c.prize_name) }
                        div.code { (c.code) }
                        div.muted { (t(lang, "有效期至", "Valid until")) " " (c.expires) " · " (c.state) }
                    }
                }
            }
        }
        script { (script(DRAW_SCRIPT, &[("$W", script_value(&words)), ("$U", script_value(&a.draw_url))])) }
    }
}

/// The tap page's video and what follows it.
pub struct Tap<'a> {
    pub src: &'a str,
    pub cover: &'a str,
    pub title: &'a str,
    /// The tag's topics, each with its `#`.
    pub tags: String,
    /// Once posted, the page shows the post's state and the draw, not the share again.
    pub posted: bool,
    /// The signed H5 share opening Douyin.
    pub share_url: &'a str,
    /// On a sandbox server: the simulator's page posting the share.
    pub sandbox_url: Option<String>,
    /// The activity block, when the tag has an activity.
    pub activity: Option<Markup>,
    pub status_url: String,
}

#[derive(Serialize)]
struct TapWords {
    posted: &'static str,
}

pub fn tap(lang: Lang, p: &Tap) -> Markup {
    let posted_text = t(lang, "已发布，感谢分享！", "Posted, thank you for sharing!");
    let words = TapWords {
        posted: posted_text,
    };
    html! {
        div.card {
            video data-testid="tap-video" src=(p.src) poster=(p.cover) controls playsinline preload="metadata" {}
            p style="font-size:16px;margin:10px 0 4px" data-testid="tap-title" { (p.title) }
            p.muted { (p.tags) }
            @if !p.posted {
                a.btn data-testid="post-douyin" href=(p.share_url) { (t(lang, "一键发布到抖音", "Post to Douyin")) }
                @if let Some(url) = &p.sandbox_url {
                    a.btn.ghost data-testid="sandbox-publish" target="_blank" href=(url) {
                        (t(lang, "沙箱：模拟在抖音里发布", "Sandbox: simulate posting in Douyin"))
                    }
                }
            }
            @if p.posted {
                p id="post-state" data-testid="post-state" class="ok" { (posted_text) }
            } @else {
                p id="post-state" data-testid="post-state" class="muted" {
                    (t(lang, "发布后本页会自动更新", "This page updates itself once you have posted"))
                }
            }
        }
        @if let Some(block) = &p.activity { (block) }
        script {
            (script(TAP_SCRIPT, &[
                ("$W", script_value(&words)),
                ("$POSTED", p.posted.to_string()),
                ("$U", script_value(&p.status_url)),
            ]))
        }
    }
}
