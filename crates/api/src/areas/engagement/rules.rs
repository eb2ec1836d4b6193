//! `/task.merchant_comment_keyword/*`: keyword auto-reply rules and the reply log.

use crate::LangOf;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{Caller, IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Lang;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::engagement::rules::{self as uc, ReplyRow, RuleForm, decode};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct RuleView {
    pub id: i64,
    pub name: String,
    /// comment | message (first private messages).
    pub channel: String,
    /// exact | contains | segmented (jieba words).
    pub match_mode: String,
    pub keywords: Vec<String>,
    pub replies: Vec<String>,
    /// Empty: every account.
    pub account_ids: Vec<i64>,
    /// Empty: every video.
    pub item_ids: Vec<String>,
    /// Active hours, China minutes of the day [start, end); equal: all day.
    pub start_minute: i64,
    pub end_minute: i64,
    /// Automatic replies per account and China day.
    pub daily_cap: i64,
    /// Seconds at least between two automatic replies of an account.
    pub min_gap_s: i64,
    pub enabled: bool,
    pub created_at: i64,
    pub updated_at: i64,
}

fn view(r: uc::Row) -> RuleView {
    let d = decode(r);
    RuleView {
        id: d.row.id,
        name: d.row.data.name,
        channel: d.row.data.channel,
        match_mode: d.row.data.match_mode,
        keywords: d.keywords,
        replies: d.replies,
        account_ids: d.account_ids,
        item_ids: d.item_ids,
        start_minute: d.row.data.start_minute,
        end_minute: d.row.data.end_minute,
        daily_cap: d.row.data.daily_cap,
        min_gap_s: d.row.data.min_gap_s,
        enabled: d.row.data.enabled == 1,
        created_at: d.row.created_at,
        updated_at: d.row.updated_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub name: Option<String>,
    pub channel: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_comment_keyword/index", tag = "engagement", responses((status = 200, body = Reply<Page<RuleView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<RuleView>> {
    let lq = q
        .list
        .with_filter(
            "name",
            q.name.as_deref().filter(|s| !s.is_empty()),
            "include",
        )
        .with_filter(
            "channel",
            q.channel.as_deref().filter(|s| !s.is_empty()),
            "=",
        );
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(view).collect(),
        total,
    )))
}

fn day() -> i64 {
    domain::engagement::DAY_MINUTES
}
fn cap() -> i64 {
    100
}
fn gap() -> i64 {
    30
}
fn yes() -> bool {
    true
}

/// Where a rule answers (the document's enum of `RuleReq.channel`; the wire format is the string).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum RuleChannel {
    Comment,
    Message,
}

/// How a rule's keywords match (the document's enum of `RuleReq.match_mode`).
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "lowercase")]
pub enum RuleMatchMode {
    Exact,
    Contains,
    Segmented,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RuleReq {
    /// Needed by edit only.
    #[serde(default)]
    pub id: i64,
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 50)]
    pub name: String,
    /// Blank: comment.
    #[serde(default)]
    #[schema(value_type = RuleChannel)]
    pub channel: String,
    #[serde(default)]
    #[schema(required = true, value_type = RuleMatchMode)]
    pub match_mode: String,
    /// 1–20 (after duplicates are dropped), each 1–30 characters.
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub keywords: Vec<String>,
    /// 1–5 scripts, each ≤ 30 characters, no contact details or links; one is picked at random.
    #[serde(default)]
    #[schema(required = true, min_items = 1)]
    pub replies: Vec<String>,
    #[serde(default)]
    pub account_ids: Vec<i64>,
    #[serde(default)]
    pub item_ids: Vec<String>,
    #[serde(default)]
    #[schema(minimum = 0, maximum = 1440)]
    pub start_minute: i64,
    #[serde(default = "day")]
    #[schema(minimum = 0, maximum = 1440)]
    pub end_minute: i64,
    #[serde(default = "cap")]
    #[schema(minimum = 1, maximum = 1000)]
    pub daily_cap: i64,
    #[serde(default = "gap")]
    #[schema(minimum = 0, maximum = 3600)]
    pub min_gap_s: i64,
    #[serde(default = "yes")]
    pub enabled: bool,
}

impl RuleReq {
    fn form(self) -> RuleForm {
        RuleForm {
            name: self.name,
            channel: self.channel,
            match_mode: self.match_mode,
            keywords: self.keywords,
            replies: self.replies,
            account_ids: self.account_ids,
            item_ids: self.item_ids,
            start_minute: self.start_minute,
            end_minute: self.end_minute,
            daily_cap: self.daily_cap,
            min_gap_s: self.min_gap_s,
            enabled: self.enabled,
        }
    }
}

#[utoipa::path(post, path = "/task.merchant_comment_keyword/add", tag = "engagement", request_body = RuleReq, responses((status = 200, body = Reply<RuleView>)))]
pub async fn add(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<RuleReq>,
) -> Answer<RuleView> {
    Ok(reply(view(
        uc::add(&st.db, c.merchant_id()?, &r.form()).await?,
    )))
}

#[utoipa::path(post, path = "/task.merchant_comment_keyword/edit", tag = "engagement", request_body = RuleReq, responses((status = 200, body = Reply<RuleView>)))]
pub async fn edit(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<RuleReq>,
) -> Answer<RuleView> {
    let id = r.id;
    Ok(reply(view(
        uc::edit(&st.db, c.merchant_id()?, id, &r.form()).await?,
    )))
}

#[utoipa::path(post, path = "/task.merchant_comment_keyword/delete", tag = "engagement", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReplyLogView {
    pub id: i64,
    pub account_id: i64,
    pub account_name: String,
    pub comment_id: i64,
    pub comment: String,
    /// 0 for a reply written by hand.
    pub rule_id: i64,
    pub rule_name: String,
    /// auto | manual.
    pub origin: String,
    pub content: String,
    /// sent | failed.
    pub result: String,
    pub error_code: String,
    /// Why the platform refused, in the caller's language.
    pub error: String,
    pub created_at: i64,
}

fn log_view(r: ReplyRow, lang: Lang) -> ReplyLogView {
    let error = crate::words::localize_error(&r.error_args, lang);
    ReplyLogView {
        error,
        id: r.id,
        account_id: r.account_id,
        account_name: r.account_name.unwrap_or_default(),
        comment_id: r.comment_row_id,
        comment: r.comment.unwrap_or_default(),
        rule_id: r.rule_id,
        rule_name: r.rule_name.unwrap_or_default(),
        origin: r.origin,
        content: r.content,
        result: r.result,
        error_code: r.error_code,
        created_at: r.created_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct LogQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub origin: Option<String>,
    pub result: Option<String>,
    pub rule_id: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_comment_keyword/log_list", tag = "engagement", responses((status = 200, body = Reply<Page<ReplyLogView>>)))]
pub async fn log_list(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<LogQuery>,
) -> Answer<Page<ReplyLogView>> {
    let some = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
    let lq = q
        .list
        .with_filter("origin", some(&q.origin).as_deref(), "=")
        .with_filter("result", some(&q.result).as_deref(), "=")
        .with_filter("rule_id", some(&q.rule_id).as_deref(), "=");
    let (rows, total) = uc::replies(&st.db, c.merchant_id()?, &lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(|r| log_view(r, lang)).collect(),
        total,
    )))
}
