//! Engagement on the simulated platforms: the reply limits every comment reply passes
//! (length, sensitive words, a per-account rate), customers writing comments and private messages
//! (`/_control/comment`, `/_control/im`, and a private message now and then on every public DY work
//! as the platform clock moves), and DY's `item_comment_reply` / `im_receive_msg` webhooks for them —
//! delivered twice at the duplicate rate, or on request, so receivers must dedupe.
//!
//! Generated comments (`works::WorkRec::comments`) are read by polling only; the comments a
//! customer writes through `/_control/comment` are listed by the API too and also pushed.

use super::works::PostedComment;
use super::{S, SENSITIVE_WORDS, Viewer, contains_any, stable_hash};
use crate::Platform;
use axum::Json;
use axum::extract::{Extension, Query, State as St};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Longest reply the platforms take (characters).
pub(crate) const REPLY_MAX_CHARS: usize = 100;
/// Replies one account may post in a rolling minute of platform time.
pub(crate) const REPLIES_PER_MINUTE: usize = 10;
/// A public DY work receives a private message every this long (platform time), at most
/// [`MESSAGES_PER_WORK`].
const MESSAGE_EVERY_MS: i64 = 2 * 3_600_000;
const MESSAGES_PER_WORK: i64 = 12;

/// What customers write in private messages.
const MESSAGE_POOL: [&str; 8] = [
    "你好，这个多少钱？",
    "请问店铺地址在哪",
    "可以发个链接吗",
    "我的电话 13912345678，请联系我",
    "加我微信 buyer_2024 详聊",
    "在吗",
    "😀😀",
    "周末营业吗？",
];

/// Why the platform refuses a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limit {
    TooLong,
    Sensitive,
    Rate,
}

impl Limit {
    /// DY's code and description.
    pub fn dy(self) -> (i64, &'static str) {
        match self {
            Limit::TooLong => (2100005, "回复内容超过 100 字"),
            Limit::Sensitive => (2111001, "评论含有敏感词"),
            Limit::Rate => (28003018, "回复过于频繁，请稍后再试"),
        }
    }
    /// What a creator console's page says.
    pub fn message(self) -> &'static str {
        match self {
            Limit::TooLong => "回复内容超过 100 字",
            Limit::Sensitive => "评论含有敏感词",
            Limit::Rate => "回复过于频繁",
        }
    }
}

/// Checks a reply by `open_id` and, when it passes, counts it against the rate.
pub(crate) fn admit_reply(
    st: &mut super::State,
    platform: Platform,
    open_id: &str,
    content: &str,
) -> Result<(), Limit> {
    if content.chars().count() > REPLY_MAX_CHARS {
        return Err(Limit::TooLong);
    }
    if contains_any(content, &SENSITIVE_WORDS) {
        return Err(Limit::Sensitive);
    }
    let now = st.clock.sandbox_now();
    let times = st
        .reply_times
        .entry(format!("{}:{open_id}", platform.code()))
        .or_default();
    times.retain(|t| *t > now - 60_000 && *t <= now);
    if times.len() >= REPLIES_PER_MINUTE {
        return Err(Limit::Rate);
    }
    times.push(now);
    Ok(())
}

/// Longest private message DY takes (characters).
pub(crate) const MESSAGE_MAX_CHARS: usize = 500;
/// A business account may message a customer only this long after the customer's last message.
pub(crate) const MESSAGE_WINDOW_MS: i64 = 48 * 3_600_000;
/// Messages an account may send a customer before the customer writes again.
pub(crate) const MESSAGES_PER_TURN: usize = 5;
/// DY's codes for the two conversation limits.
pub const IM_WINDOW_CODE: i64 = 28003020;
pub const IM_TURN_CODE: i64 = 28003019;

/// May `open_id` message `to` now? DY lets a business account answer a customer who wrote in the
/// last 48 hours, at most 5 messages until the customer writes again.
pub(crate) fn admit_message(
    st: &super::State,
    open_id: &str,
    to: &str,
) -> Result<(), (i64, &'static str)> {
    let now = st.clock.sandbox_now();
    let Some(last_in) = st
        .inbox
        .iter()
        .filter(|m| m.open_id == open_id && m.from_user_id == to && m.create_time <= now)
        .map(|m| m.create_time)
        .max()
        .filter(|t| *t > now - MESSAGE_WINDOW_MS)
    else {
        return Err((IM_WINDOW_CODE, "用户 48 小时内未发来消息，不能发送私信"));
    };
    let sent = st
        .messages
        .iter()
        .filter(|m| m.open_id == open_id && m.to_user_id == to && m.create_time >= last_in)
        .count();
    if sent >= MESSAGES_PER_TURN {
        return Err((IM_TURN_CODE, "用户回复前最多发送 5 条消息"));
    }
    Ok(())
}

/// A customer's private message to an account (received through `im_receive_msg`).
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Inbound {
    pub msg_id: String,
    pub open_id: String,
    pub from_user_id: String,
    pub conversation_id: String,
    pub text: String,
    pub create_time: i64,
}

pub(crate) fn conversation_of(open_id: &str, customer: &str) -> String {
    format!("conv_{}", stable_hash(&[open_id, customer]))
}

fn dy_client_key(st: &super::State, open_id: &str) -> String {
    st.access
        .values()
        .find(|a| a.platform == Platform::Dy && a.open_id == open_id)
        .map(|a| a.client_key.clone())
        .unwrap_or_else(|| super::SANDBOX_DY_KEY.to_string())
}

#[derive(Deserialize)]
pub(crate) struct CommentReq {
    item_id: String,
    content: String,
    #[serde(default)]
    user_id: String,
    /// Deliver the webhook twice (a duplicate on purpose); default: the duplicate rate decides.
    #[serde(default)]
    twice: Option<bool>,
}

/// A customer writes a comment under a work (any platform); DY also pushes `item_comment_reply`.
pub(crate) async fn comment(St(s): St<S>, Json(r): Json<CommentReq>) -> Response {
    if r.content.trim().is_empty() {
        return bad("content is empty");
    }
    let (id, platform, open_id, key, at) = {
        let mut st = s.lock();
        let Some(w) = st.works.iter().find(|w| w.item_id == r.item_id) else {
            return bad("unknown item_id");
        };
        let (platform, open_id) = (w.platform, w.open_id.clone());
        let id = st.id("cc");
        let user = if r.user_id.is_empty() {
            format!("u{:010}", stable_hash(&[&id]) % 10_000_000_000)
        } else {
            r.user_id.clone()
        };
        let at = s.clock.sandbox_now();
        st.posted_comments
            .entry(r.item_id.clone())
            .or_default()
            .push(PostedComment {
                comment_id: id.clone(),
                reply_to: None,
                content: r.content.clone(),
                create_time: at,
                user_id: user.clone(),
            });
        let key = dy_client_key(&st, &open_id);
        (id, platform, open_id, (key, user), at)
    };
    if platform == Platform::Dy {
        let (client_key, user) = key;
        let content = json!({
            "comment_id": id, "comment_user_id": user, "content": r.content,
            "create_time": at / 1000, "digg_count": 0, "reply_comment_total": 0,
            "reply_to_comment_id": "", "reply_to_item_id": r.item_id, "nick_name": format!("顾客{}", &user[user.len().saturating_sub(4)..]),
        });
        super::webhook::send_event(
            &s,
            &client_key,
            "item_comment_reply",
            &user,
            &open_id,
            content,
            r.twice,
        );
    }
    Json(json!({"ok": true, "comment_id": id, "platform": platform.code()})).into_response()
}

fn bad(msg: &str) -> Response {
    (StatusCode::BAD_REQUEST, Json(json!({"error": msg}))).into_response()
}

#[derive(Deserialize)]
pub(crate) struct ImReq {
    open_id: String,
    text: String,
    #[serde(default)]
    from_user_id: String,
    #[serde(default)]
    twice: Option<bool>,
}

/// A customer sends a DY account a private message: recorded and pushed as `im_receive_msg`.
pub(crate) async fn im(St(s): St<S>, Json(r): Json<ImReq>) -> Response {
    if r.text.trim().is_empty() || r.open_id.is_empty() {
        return bad("open_id and text are required");
    }
    let from = if r.from_user_id.is_empty() {
        "u_customer".to_string()
    } else {
        r.from_user_id
    };
    let m = {
        let mut st = s.lock();
        let msg_id = st.id("im");
        record(
            &mut st,
            msg_id,
            &r.open_id,
            &from,
            &r.text,
            s.clock.sandbox_now(),
        )
    };
    push_message(&s, &m, r.twice);
    Json(json!({"ok": true, "msg_id": m.msg_id, "conversation_id": m.conversation_id}))
        .into_response()
}

fn record(
    st: &mut super::State,
    msg_id: String,
    open_id: &str,
    from: &str,
    text: &str,
    at: i64,
) -> Inbound {
    let m = Inbound {
        msg_id,
        open_id: open_id.to_string(),
        from_user_id: from.to_string(),
        conversation_id: conversation_of(open_id, from),
        text: text.to_string(),
        create_time: at,
    };
    st.inbox.push(m.clone());
    m
}

fn push_message(s: &S, m: &Inbound, twice: Option<bool>) {
    let key = dy_client_key(&s.lock(), &m.open_id);
    let content = json!({
        "conversation_short_id": m.conversation_id, "server_message_id": m.msg_id,
        "conversation_type": 1, "create_time": m.create_time / 1000, "message_type": "text",
        "text": m.text, "user_infos": [{"open_id": m.from_user_id, "nick_name": format!("顾客{}", &m.from_user_id[m.from_user_id.len().saturating_sub(4)..]), "avatar": ""}],
    });
    super::webhook::send_event(
        s,
        &key,
        "im_receive_msg",
        &m.from_user_id,
        &m.open_id,
        content,
        twice,
    );
}

/// Customers' private messages on public DY works that became due since the last pump (platform
/// clock): recorded and pushed. Called every second by the sandbox's ticker.
pub(crate) fn pump(s: &S) {
    let now = s.clock.sandbox_now();
    let due: Vec<Inbound> = {
        let mut st = s.lock();
        let since = st.messages_pushed_until;
        if since == 0 {
            // A new sandbox starts pushing from now, not from the beginning of time.
            st.messages_pushed_until = now;
            return;
        }
        if now <= since {
            return;
        }
        let mut due = vec![];
        let works: Vec<(String, String, i64)> = st
            .works
            .iter()
            .filter(|w| w.platform == Platform::Dy && !w.reject)
            .map(|w| (w.item_id.clone(), w.open_id.clone(), w.review_at))
            .collect();
        for (item, open_id, public_at) in works {
            for i in 0..MESSAGES_PER_WORK {
                let at = public_at + (i + 1) * MESSAGE_EVERY_MS;
                if at > since && at <= now {
                    let h = stable_hash(&[&item, "im", &i.to_string()]);
                    let from = format!("u{:010}", h % 10_000_000_000);
                    let text = MESSAGE_POOL[(h % MESSAGE_POOL.len() as u64) as usize];
                    let msg_id = format!("{item}-m{i}");
                    due.push(record(&mut st, msg_id, &open_id, &from, text, at));
                }
            }
        }
        st.messages_pushed_until = now;
        due
    };
    for m in &due {
        push_message(s, m, None);
    }
}

/// Starts the ticker when there is a runtime to run it on; it ends with the sandbox.
pub(crate) fn start_pump(s: &S) {
    if tokio::runtime::Handle::try_current().is_err() {
        return;
    }
    let weak = std::sync::Arc::downgrade(s);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            let Some(s) = weak.upgrade() else { return };
            pump(&s);
        }
    });
}

#[derive(Deserialize)]
pub(crate) struct RepliesQ {
    #[serde(default)]
    open_id: String,
    #[serde(default)]
    item_id: String,
}

/// The replies accounts posted to comments (what the customers see), oldest first.
pub(crate) async fn replies(
    St(s): St<S>,
    Extension(v): Extension<Viewer>,
    Query(q): Query<RepliesQ>,
) -> Json<Value> {
    Json(json!({"replies": reply_rows(&s, &v, &q)}))
}

fn reply_rows(s: &S, v: &Viewer, q: &RepliesQ) -> Vec<Value> {
    let st = s.lock();
    let mut out = vec![];
    for w in &st.works {
        if (!q.item_id.is_empty() && w.item_id != q.item_id)
            || (!q.open_id.is_empty() && w.open_id != q.open_id)
            || !v.sees(w.platform.code(), &w.open_id)
        {
            continue;
        }
        for p in st.posted_of(&w.item_id) {
            if let Some(to) = &p.reply_to
                && p.user_id == w.open_id
            {
                let parent = st
                    .posted_of(&w.item_id)
                    .iter()
                    .find(|c| &c.comment_id == to)
                    .map(|c| c.content.clone())
                    .unwrap_or_default();
                out.push(json!({
                    "platform": w.platform.code(), "open_id": w.open_id, "item_id": w.item_id,
                    "title": w.title, "comment_id": to, "comment": parent, "reply_id": p.comment_id,
                    "content": p.content, "create_time": p.create_time,
                }));
            }
        }
    }
    out
}

/// The page a person watches: the customers' comments and the accounts' replies, and a form to
/// write a comment as a customer (the operator's); a merchant sees its own accounts' works only.
pub(crate) async fn page(St(s): St<S>, Extension(v): Extension<Viewer>) -> Html<String> {
    let esc = super::html_escape;
    let (works, comments) = {
        let st = s.lock();
        let mine = |w: &&super::works::WorkRec| v.sees(w.platform.code(), &w.open_id);
        let works: Vec<(String, String)> = st
            .works
            .iter()
            .filter(mine)
            .map(|w| {
                (
                    w.item_id.clone(),
                    format!("{} · {}", w.platform.code(), w.title),
                )
            })
            .collect();
        let mut comments = vec![];
        for w in st.works.iter().filter(mine) {
            for c in st.posted_of(&w.item_id) {
                if c.reply_to.is_none() && c.user_id != w.open_id {
                    let replies: Vec<String> = st
                        .posted_of(&w.item_id)
                        .iter()
                        .filter(|r| r.reply_to.as_deref() == Some(&c.comment_id))
                        .map(|r| r.content.clone())
                        .collect();
                    comments.push((w.title.clone(), c.content.clone(), replies));
                }
            }
        }
        (works, comments)
    };
    let options: String = works
        .iter()
        .map(|(id, t)| format!("<option value=\"{}\">{}</option>", esc(id), esc(t)))
        .collect();
    let rows: String = comments
        .iter()
        .map(|(t, c, r)| {
            format!(
                "<li data-testid=\"sbx-comment\"><b>{}</b>: {} {}</li>",
                esc(t),
                esc(c),
                r.iter()
                    .map(|x| format!(
                        "<div data-testid=\"sbx-reply\">↳ 作者回复 / reply: {}</div>",
                        esc(x)
                    ))
                    .collect::<String>()
            )
        })
        .collect();
    let body = format!(
        "<div class=\"card\"><p>作品 / work: <select id=\"item\">{options}</select></p>\
         <p>评论 / comment: <input id=\"text\" data-testid=\"sbx-text\" value=\"多少钱？\"></p>\
         <button id=\"go\" data-testid=\"sbx-send\">发表评论 / Comment</button><p id=\"out\"></p></div>\
         <ul>{rows}</ul>\
         <script>document.getElementById('go').onclick=async()=>{{const r=await fetch('comment',{{method:'POST',\
         headers:{{'content-type':'application/json'}},body:JSON.stringify({{item_id:document.getElementById('item').value,\
         content:document.getElementById('text').value}})}});document.getElementById('out').textContent=r.ok?'OK':'failed';\
         setTimeout(()=>location.reload(),300);}};</script>"
    );
    Html(super::pages::page(
        "评论与回复（沙箱） / Comments and replies (sandbox)",
        &body,
    ))
}
