//! Pages for the "platform user": OAuth consent (DY, KS), QR login (SPH, XHS, shop) and the sandbox
//! index. Plain HTML forms, zh-CN and English side by side, no scripts — a person or a test browser
//! can click through them.

use super::{S, html_escape as esc, suggest_suffix};
use crate::Platform;
use axum::extract::{Form, OriginalUri, Query, State as St};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use std::collections::HashMap;

type M = HashMap<String, String>;

const STYLE: &str = "body{font-family:system-ui,'Noto Sans CJK SC','WenQuanYi Zen Hei',sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;color:#222}\
button{padding:.5rem 1.2rem;margin:.3rem .3rem 0 0;font-size:1rem}input[type=text]{padding:.4rem;font-size:1rem;width:16rem}\
.card{border:1px solid #ddd;border-radius:8px;padding:1rem 1.5rem}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;font-size:.9rem}\
.note{color:#888;font-size:.85rem}";

pub(crate) fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>{t}</title><style>{STYLE}</style></head>\
         <body><h1>{t}</h1>{body}<p class=\"note\">clipmatrix 平台沙箱 / platform sandbox</p></body></html>",
        t = esc(title)
    )
}

fn v<'a>(m: &'a M, k: &str) -> &'a str {
    m.get(k).map(String::as_str).unwrap_or("")
}

fn bad(msg: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Html(page(
            "请求无效 / Invalid request",
            &format!("<p>{}</p>", esc(msg)),
        )),
    )
        .into_response()
}

/// `redirect_uri?<pairs>` (or `&` when it already has a query).
fn redirect(uri: &str, pairs: &[(&str, &str)]) -> Response {
    let sep = if uri.contains('?') { '&' } else { '?' };
    let q = serde_urlencoded::to_string(pairs).unwrap_or_default();
    (
        StatusCode::FOUND,
        [(header::LOCATION, format!("{uri}{sep}{q}"))],
    )
        .into_response()
}

fn consent(
    platform_zh: &str,
    platform_en: &str,
    app: &str,
    scope: &str,
    nick: &str,
    hidden: &[(&str, &str)],
) -> String {
    let fields: String = hidden
        .iter()
        .map(|(k, val)| {
            format!(
                "<input type=\"hidden\" name=\"{k}\" value=\"{}\">",
                esc(val)
            )
        })
        .collect();
    // One ticked box per scope; user_info is required (ticked, fixed, sent as a hidden field).
    let scopes: String = scope
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            let s = esc(s);
            if s == "user_info" {
                format!(
                    "<li><label><input type=\"checkbox\" checked disabled> {s}</label>\
                     <input type=\"hidden\" name=\"grant\" value=\"{s}\"></li>"
                )
            } else {
                format!(
                    "<li><label><input type=\"checkbox\" name=\"grant\" value=\"{s}\" checked> {s}</label></li>"
                )
            }
        })
        .collect();
    page(
        &format!("{platform_zh}授权 / {platform_en} authorization"),
        &format!(
            "<div class=\"card\"><p>应用 <b>{app}</b> 请求访问你的{platform_zh}账号。<br>\
             The app <b>{app}</b> asks to access your {platform_en} account.</p>\
             <form method=\"post\">{fields}\
             <p>权限 / Permissions:</p><ul class=\"scopes\">{scopes}</ul>\
             <label>昵称 / Nickname <input type=\"text\" id=\"nickname\" name=\"nickname\" value=\"{nick}\"></label><br>\
             <button type=\"submit\" id=\"approve\" name=\"action\" value=\"approve\">同意授权 / Authorize</button>\
             <button type=\"submit\" id=\"deny\" name=\"action\" value=\"deny\">拒绝 / Deny</button>\
             </form></div>",
            app = esc(app),
            nick = esc(nick),
        ),
    )
}

fn redirect_ok(uri: &str) -> bool {
    uri.starts_with("http://") || uri.starts_with("https://")
}

/// GET /dy/platform/oauth/connect/?client_key&response_type=code&scope&redirect_uri&state
pub(crate) async fn dy_consent(Query(q): Query<M>) -> Response {
    if v(&q, "client_key").is_empty()
        || !redirect_ok(v(&q, "redirect_uri"))
        || v(&q, "response_type") != "code"
    {
        return bad(
            "client_key / redirect_uri / response_type=code 缺失或无效 (missing or invalid)",
        );
    }
    let nick = format!("抖音用户{}", suggest_suffix());
    Html(consent(
        "抖音",
        "Douyin",
        v(&q, "client_key"),
        v(&q, "scope"),
        &nick,
        &[
            ("client_key", v(&q, "client_key")),
            ("scope", v(&q, "scope")),
            ("redirect_uri", v(&q, "redirect_uri")),
            ("state", v(&q, "state")),
        ],
    ))
    .into_response()
}

/// The consent form's fields; `grant` repeats (one per ticked scope).
type Pairs = Form<Vec<(String, String)>>;

pub(crate) async fn dy_consent_submit(St(s): St<S>, Form(f): Pairs) -> Response {
    submit(&s, Platform::Dy, "client_key", &f)
}

/// GET /ks/oauth2/authorize?app_id&scope&response_type=code&redirect_uri&state
pub(crate) async fn ks_consent(Query(q): Query<M>) -> Response {
    if v(&q, "app_id").is_empty()
        || !redirect_ok(v(&q, "redirect_uri"))
        || v(&q, "response_type") != "code"
    {
        return bad("app_id / redirect_uri / response_type=code 缺失或无效 (missing or invalid)");
    }
    let nick = format!("快手用户{}", suggest_suffix());
    Html(consent(
        "快手",
        "Kuaishou",
        v(&q, "app_id"),
        v(&q, "scope"),
        &nick,
        &[
            ("app_id", v(&q, "app_id")),
            ("scope", v(&q, "scope")),
            ("redirect_uri", v(&q, "redirect_uri")),
            ("state", v(&q, "state")),
        ],
    ))
    .into_response()
}

pub(crate) async fn ks_consent_submit(St(s): St<S>, Form(f): Pairs) -> Response {
    submit(&s, Platform::Ks, "app_id", &f)
}

fn submit(s: &S, p: Platform, app_field: &str, pairs: &[(String, String)]) -> Response {
    let ticked: Vec<&str> = pairs
        .iter()
        .filter(|(k, _)| k == "grant")
        .map(|(_, x)| x.as_str())
        .collect();
    let f: M = pairs.iter().cloned().collect();
    let f = &f;
    let app = v(f, app_field);
    let (uri, state) = (v(f, "redirect_uri"), v(f, "state"));
    if app.is_empty() || !redirect_ok(uri) {
        return bad("client_key / redirect_uri 缺失或无效 (missing or invalid)");
    }
    if v(f, "action") != "approve" {
        return redirect(
            uri,
            &[
                ("error", "access_denied"),
                ("error_description", "user denied"),
                ("state", state),
            ],
        );
    }
    let nick = match v(f, "nickname").trim() {
        "" => format!(
            "{}{}",
            if p == Platform::Dy {
                "抖音用户"
            } else {
                "快手用户"
            },
            suggest_suffix()
        ),
        n => n.to_string(),
    };
    let scope = super::oauth::consented(v(f, "scope"), &ticked);
    let code = super::oauth::issue_code(s, &mut s.lock(), p, app, &nick, &scope);
    redirect(uri, &[("code", &code), ("state", state)])
}

/// The path the sandbox is mounted at ("/sandbox"), from the full and the nested request path.
pub(crate) fn mount_prefix(original: &axum::http::Uri, inner: &axum::http::Uri) -> String {
    let (o, i) = (original.path(), inner.path());
    let p = if i == "/" {
        o
    } else {
        o.strip_suffix(i).unwrap_or("")
    };
    p.trim_end_matches('/').to_string()
}

/// GET / — platforms, clock (with advance buttons), counts and works.
/// A merchant sees its own accounts only.
pub(crate) async fn index(
    St(s): St<S>,
    axum::extract::Extension(viewer): axum::extract::Extension<super::Viewer>,
    OriginalUri(orig): OriginalUri,
    uri: axum::http::Uri,
) -> Html<String> {
    let prefix = mount_prefix(&orig, &uri);
    let now = s.clock.sandbox_now();
    let st = s.lock();
    let base = &s.public_base;
    let mut works = String::new();
    let seen = |p: &str, o: &str| viewer.sees(p, o);
    for w in st
        .works
        .iter()
        .rev()
        .filter(|w| seen(w.platform.code(), &w.open_id))
        .take(50)
    {
        // A work whose file carries the AI-content label shows it, as Douyin does since 2025-09-01.
        let ai = st.videos.get(&w.video_id).is_some_and(|v| v.aigc.is_some());
        works.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}{}</td><td>{:?}</td></tr>",
            w.platform.code(),
            esc(&w.open_id),
            esc(&w.item_id),
            esc(&w.title),
            if ai {
                " <span class=\"aigc\">AI生成（文件隐式标识）/ AI-generated (file label)</span>"
            } else {
                ""
            },
            w.review(now)
        ));
    }
    let counts: String = st
        .creates
        .iter()
        .filter(|(k, _)| k.split_once(':').is_some_and(|(p, o)| seen(p, o)))
        .map(|(k, n)| format!("<tr><td>{}</td><td>{n}</td></tr>", esc(k)))
        .collect();
    let body = format!(
        "<h2>平台 / Platforms</h2><ul>\
         <li>抖音 Douyin: <code>{base}/dy</code> (OAuth, client_key <code>{dk}</code>)</li>\
         <li>快手 Kuaishou: <code>{base}/ks</code> (OAuth, app_id <code>{kk}</code>)</li>\
         <li>百家号 Baijiahao: <code>{base}/bjh</code> (app_token <code id=\"bjh-app-token\">{bt}</code>)</li>\
         <li>创作者中心 Creator consoles (driven in a browser, QR login): 视频号 WeChat Channels <a href=\"{base}/console/sph/login.html\"><code>{base}/console/sph</code></a> · 小红书 Xiaohongshu <a href=\"{base}/console/xhs/login\"><code>{base}/console/xhs</code></a> · 店铺 Shop (抖音创作者中心) <a href=\"{base}/console/shop/\"><code>{base}/console/shop</code></a></li>\
         <li>微信公众号 WeChat official account: <code>{base}/wechat</code> (AppID <code>{wa}</code>, AppSecret <code id=\"wx-secret\">{ws}</code>)</li>\
         <li>POI: <code>{base}/poi/search?keyword=&amp;city=北京</code></li></ul>\
         <h2>平台时钟 / Platform clock</h2><p>now = {now} ({dt}), offset = {off} ms</p>{clock}\
         <h2>发布计数 / Creates</h2><p>total_creates = <b id=\"total\">{total}</b>; webhooks sent = {wh}; review delay = {rd} ms</p>\
         <table><tr><th>account</th><th>creates</th></tr>{counts}</table>\
         <h2>作品 / Works (latest 50)</h2><table><tr><th>platform</th><th>open_id</th><th>item_id</th><th>title</th><th>status</th></tr>{works}</table>",
        dk = super::SANDBOX_DY_KEY,
        kk = super::SANDBOX_KS_KEY,
        bt = esc(&s.bjh_app_token),
        wa = super::wechat::SANDBOX_WX_APPID,
        ws = esc(&s.wx_secret),
        clock = clock_buttons(&viewer, &prefix),
        off = s.clock.offset_ms(),
        dt = fmt_utc(now),
        total = if matches!(viewer, super::Viewer::Operator) {
            st.total_creates
        } else {
            st.creates
                .iter()
                .filter(|(k, _)| k.split_once(':').is_some_and(|(p, o)| seen(p, o)))
                .map(|(_, n)| n)
                .sum()
        },
        wh = st.webhooks_sent,
        rd = st.review_delay_ms,
        base = esc(base),
    );
    Html(page("平台沙箱 / Platform sandbox", &body))
}

/// The clock's buttons, for whoever may move it (the operator or the token's holder); a merchant
/// would only be refused (403), so it reads why instead.
fn clock_buttons(viewer: &super::Viewer, prefix: &str) -> String {
    if !matches!(viewer, super::Viewer::Operator) {
        return "<p class=\"note\" id=\"clock-operator-only\">只有运营者可以调整平台时钟。<br>\
                Only the operator can move the platform clock.</p>"
            .into();
    }
    format!(
        "<form method=\"post\" action=\"{prefix}/_control/advance\"><button name=\"advance_ms\" value=\"3600000\" id=\"advance-hour\">前进 1 小时 / advance 1 h</button>\
         <button name=\"advance_ms\" value=\"86400000\" id=\"advance-day\">前进 1 天 / advance 1 day</button>\
         <button name=\"reset\" value=\"1\" id=\"clock-reset\">回到真实时间 / back to real time</button></form>",
        prefix = esc(prefix)
    )
}

/// A readable 404 for unknown paths under the sandbox.
pub(crate) async fn fallback(uri: axum::http::Uri) -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(page(
            "未找到 / Not found",
            &format!("<p>{}</p>", esc(uri.path())),
        )),
    )
        .into_response()
}

/// `YYYY-MM-DD HH:MM UTC` without a date crate (civil-from-days, Howard Hinnant).
fn fmt_utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_format() {
        assert_eq!(super::fmt_utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(super::fmt_utc(1_700_000_000_000), "2023-11-14 22:13 UTC");
    }
}
