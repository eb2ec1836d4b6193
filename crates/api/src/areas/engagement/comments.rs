//! `/task.merchant_comment/*`: every comment of every authorized account, reply by hand, hide or
//! mark spam, sync now, and which accounts have a comment API.

use crate::LangOf;
use crate::download::{Export, attachment, console_word, every_row, format_of};
use crate::error::{Answer, HttpResult, Page, Reply, reply as ok};
use crate::export::{Cell, Table, china, header};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
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

impl IndexQuery {
    /// The list's filters (the export takes the same).
    pub fn list(&self) -> ListQuery {
        let some = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
        self.list
            .clone()
            .with_filter("platform", some(&self.platform).as_deref(), "=")
            .with_filter("account_id", some(&self.account_id).as_deref(), "=")
            .with_filter("item_id", some(&self.item_id).as_deref(), "=")
            .with_filter("replied", some(&self.replied).as_deref(), "=")
            .with_filter("intent", some(&self.intent).as_deref(), "=")
            .with_filter("status", some(&self.status).as_deref(), "=")
    }
}

#[utoipa::path(method(get, post), path = "/task.merchant_comment/index", tag = "engagement", responses((status = 200, body = Reply<Page<CommentView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<CommentView>> {
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &q.list()).await?;
    Ok(ok(Page::new(
        rows.into_iter().map(|r| view(r, lang)).collect(),
        total,
    )))
}

/// The comments as a spreadsheet, with the list's filters.
#[utoipa::path(get, path = "/task.merchant_comment/export", tag = "engagement", responses((status = 200, description = "the comments (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(e): Input<Export<IndexQuery>>,
) -> HttpResult<Response> {
    let f = format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    let rows = every_row(&e.q.list(), |page| {
        let db = st.db.clone();
        async move { uc::list(&db, mid, &page).await }
    })
    .await?;
    let cols = [
        ("编号", "ID"),
        ("平台", "Platform"),
        ("账号", "Account"),
        ("视频", "Video"),
        ("评论用户", "Commenter"),
        ("评论内容", "Comment"),
        ("评论时间", "Commented at"),
        ("意向", "Intent"),
        ("状态", "Status"),
        ("回复内容", "Reply"),
        ("回复时间", "Replied at"),
        ("自动回复", "Auto-reply"),
    ];
    let table = Table {
        header: header(lang, &cols),
        rows: rows
            .into_iter()
            .map(|r| {
                let c = view(r, lang);
                let auto = if c.auto_state.is_empty() {
                    String::new()
                } else {
                    console_word(lang, "engagement", &format!("auto.{}", c.auto_state))
                };
                vec![
                    Cell::Int(c.id),
                    domain::i18n::platform_name(c.platform.as_str(), lang).into(),
                    c.account_name.into(),
                    if c.item_title.is_empty() {
                        c.item_id
                    } else {
                        c.item_title
                    }
                    .into(),
                    c.user_id.into(),
                    c.content.into(),
                    china(c.created_at),
                    c.intent_name.into(),
                    console_word(lang, "engagement", &format!("status.{}", c.status.as_str()))
                        .into(),
                    c.reply_text.into(),
                    china(c.replied_at),
                    auto.into(),
                ]
            })
            .collect(),
    };
    Ok(attachment(
        "comments",
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
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
