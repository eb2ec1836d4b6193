//! `/task.merchant_comment/*`: every comment of every authorized account, reply by hand, hide or
//! mark spam, sync now, and which accounts have a comment API.

use crate::LangOf;
use crate::error::{Answer, Page, Reply, reply as ok};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::engagement::CommentStatus;
use domain::engagement::intent_name;
use domain::i18n::{Lang, Msg};
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::engagement::comments::{self as uc, Row};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = EngagementComment)]
pub struct CommentView {
    pub id: i64,
    pub account_id: i64,
    pub account_name: String,
    pub platform: domain::platform::Platform,
    pub item_id: String,
    pub item_title: String,
    pub comment_id: String,
    pub user_id: String,
    pub content: String,
    /// Platform clock, unix ms.
    pub created_at: i64,
    /// '' | purchase | contact | spam.
    pub intent: String,
    /// The intent in the caller's language.
    pub intent_name: String,
    /// visible | hidden | spam.
    pub status: domain::engagement::CommentStatus,
    pub replied: bool,
    pub reply_text: String,
    pub replied_at: i64,
    /// pending | claimed | done | none | failed: the auto-reply's progress.
    pub auto_state: String,
}

pub(crate) fn view(c: Row, lang: Lang) -> CommentView {
    CommentView {
        intent_name: intent_name(&c.intent, lang).into(),
        id: c.id,
        account_id: c.account_id,
        account_name: c.account_name.unwrap_or_default(),
        platform: c.platform,
        item_id: c.item_id,
        item_title: c.item_title,
        comment_id: c.comment_id,
        user_id: c.user_id,
        content: c.content,
        created_at: c.created_at,
        intent: c.intent,
        status: c.status,
        replied: c.replied == 1,
        reply_text: c.reply_text,
        replied_at: c.replied_at,
        auto_state: c.auto_state,
    }
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub platform: Option<String>,
    pub account_id: Option<String>,
    pub item_id: Option<String>,
    /// "1" replied, "0" not yet.
    pub replied: Option<String>,
    pub intent: Option<String>,
    pub status: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_comment/index", tag = "engagement", responses((status = 200, body = Reply<Page<CommentView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<CommentView>> {
    let some = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
    let lq = q
        .list
        .with_filter("platform", some(&q.platform).as_deref(), "=")
        .with_filter("account_id", some(&q.account_id).as_deref(), "=")
        .with_filter("item_id", some(&q.item_id).as_deref(), "=")
        .with_filter("replied", some(&q.replied).as_deref(), "=")
        .with_filter("intent", some(&q.intent).as_deref(), "=")
        .with_filter("status", some(&q.status).as_deref(), "=");
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &lq).await?;
    Ok(ok(Page::new(
        rows.into_iter().map(|r| view(r, lang)).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = CommentReplyReq)]
pub struct ReplyReq {
    pub id: i64,
    /// One line, at most 30 characters, no contact details or links (SPEC §5).
    #[serde(default)]
    pub text: String,
}

#[utoipa::path(post, path = "/task.merchant_comment/reply", tag = "engagement", request_body = ReplyReq, responses((status = 200, body = Reply<CommentView>)))]
pub async fn reply(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<ReplyReq>,
) -> Answer<CommentView> {
    let row = uc::reply(&st.hub, c.merchant_id()?, r.id, &r.text).await?;
    Ok(ok(view(row, lang)))
}

/// Suggested answers to a comment: the configured AI provider's, else the built-in writer's; each
/// says who wrote it. Nothing is sent.
#[utoipa::path(post, path = "/task.merchant_comment/suggest_replies", tag = "engagement", request_body = IdReq, responses((status = 200, body = Reply<crate::writer::WrittenRows>)))]
pub async fn suggest_replies(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<crate::writer::WrittenRows> {
    let w = uc::suggest_replies(&st.hub, c.merchant_id()?, r.id).await?;
    Ok(ok(crate::writer::WrittenRows::of(w, lang)))
}

async fn set(
    st: &AppState,
    c: &Caller,
    id: i64,
    s: CommentStatus,
    lang: Lang,
) -> Answer<CommentView> {
    let row = uc::set_status(&st.db, c.merchant_id()?, id, s).await?;
    Ok(ok(view(row, lang)))
}

#[utoipa::path(post, path = "/task.merchant_comment/hide", tag = "engagement", request_body = IdReq, responses((status = 200, body = Reply<CommentView>)))]
pub async fn hide(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<CommentView> {
    set(&st, &c, r.id, CommentStatus::Hidden, lang).await
}

#[utoipa::path(post, path = "/task.merchant_comment/spam", tag = "engagement", request_body = IdReq, responses((status = 200, body = Reply<CommentView>)))]
pub async fn spam(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<CommentView> {
    set(&st, &c, r.id, CommentStatus::Spam, lang).await
}

#[utoipa::path(post, path = "/task.merchant_comment/show", tag = "engagement", request_body = IdReq, responses((status = 200, body = Reply<CommentView>)))]
pub async fn show(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<CommentView> {
    set(&st, &c, r.id, CommentStatus::Visible, lang).await
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SyncReq {
    /// One account; none: all of the merchant's.
    #[serde(default)]
    pub account_id: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SyncView {
    /// Public works looked at.
    pub works: usize,
    /// Comments read since the cursors.
    pub read: usize,
    /// New comments stored.
    pub added: usize,
}

#[utoipa::path(post, path = "/task.merchant_comment/sync", tag = "engagement", request_body = SyncReq, responses((status = 200, body = Reply<SyncView>)))]
pub async fn sync(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<SyncReq>,
) -> Answer<SyncView> {
    let s = uc::sync_now(&st.hub, c.merchant_id()?, r.account_id).await?;
    Ok(ok(SyncView {
        works: s.works,
        read: s.read,
        added: s.added,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CommentAccount {
    pub id: i64,
    pub platform: domain::platform::Platform,
    pub nickname: String,
    /// Whether its comments can be read and answered.
    pub supported: bool,
    /// Why not, in the caller's language (KS has no comment API).
    pub reason: String,
}

#[utoipa::path(get, path = "/task.merchant_comment/accounts", tag = "engagement", responses((status = 200, body = Reply<Vec<CommentAccount>>)))]
pub async fn accounts(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
) -> Answer<Vec<CommentAccount>> {
    let rows = uc::accounts(&st.db, c.merchant_id()?).await?;
    Ok(ok(rows
        .into_iter()
        .map(|a| {
            let supported = uc::comment_support(a.platform);
            CommentAccount {
                reason: if supported {
                    String::new()
                } else {
                    Msg::NoCommentApi.render(
                        lang,
                        &[("platform", platform_name(a.platform.as_str(), lang))],
                    )
                },
                supported,
                id: a.id,
                platform: a.platform,
                nickname: a.nickname,
            }
        })
        .collect()))
}

pub(crate) use domain::i18n::platform_name;
