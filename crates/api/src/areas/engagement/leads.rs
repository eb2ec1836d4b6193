//! `/msg.merchant_clue/*`: leads. A staff member sees the leads assigned to them unless a menu
//! grants all of them (`msg/merchant_clue/all`, menu `/clue_assign`), which also assigns by hand.

use crate::LangOf;
use crate::download::{attachment, format_of};
use crate::error::{Answer, HttpResult, Page, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use domain::engagement::{LeadNote, LeadState, intent_name};
use domain::i18n::{Lang, Msg};
use serde::{Deserialize, Serialize};
use services::ApiError;
use services::ListQuery;
use services::engagement::leads::{self as uc, ALL_LEADS, Row, Scope};
use utoipa::ToSchema;

fn scope(c: &Caller) -> Scope {
    if domain::permission::granted(&c.grants, ALL_LEADS) {
        None
    } else {
        Some(c.user.id)
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LeadView {
    pub id: i64,
    /// The customer (nickname, else their platform id).
    pub name: String,
    pub content: String,
    /// comment | message.
    pub source: String,
    /// The comment or message row it came from.
    pub source_id: i64,
    pub platform: domain::platform::Platform,
    pub account_id: i64,
    pub account_name: String,
    pub item_id: String,
    pub phone: String,
    pub wechat: String,
    pub intent: String,
    pub intent_name: String,
    /// new | contacted | converted | invalid.
    pub state: LeadState,
    pub state_name: String,
    /// The states it may move to from here (none once converted or invalid).
    pub next_states: Vec<LeadState>,
    /// 0: nobody yet.
    pub assignee_id: i64,
    pub assignee_name: String,
    pub notes: Vec<LeadNote>,
    pub created_at: i64,
    pub updated_at: i64,
}

fn view(l: Row, lang: Lang) -> LeadView {
    LeadView {
        intent_name: intent_name(&l.intent, lang).into(),
        state_name: l.state.name(lang).into(),
        next_states: l.state.next_states(),
        notes: l.notes.0,
        id: l.id,
        name: l.name,
        content: l.content,
        source: l.source,
        source_id: l.source_id,
        platform: l.platform,
        account_id: l.account_id,
        account_name: l.account_name.unwrap_or_default(),
        item_id: l.item_id,
        phone: l.phone,
        wechat: l.wechat,
        intent: l.intent,
        state: l.state,
        assignee_id: l.assignee_id,
        assignee_name: l.assignee_name.unwrap_or_default(),
        created_at: l.created_at,
        updated_at: l.updated_at,
    }
}

#[derive(Debug, Deserialize)]
pub struct IndexQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub state: Option<String>,
    pub source: Option<String>,
    pub platform: Option<String>,
    pub assignee_id: Option<String>,
    /// xlsx (default) | csv — export only.
    pub format: Option<String>,
}

impl IndexQuery {
    fn list(&self) -> ListQuery {
        let some = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
        self.list
            .clone()
            .with_filter("state", some(&self.state).as_deref(), "=")
            .with_filter("source", some(&self.source).as_deref(), "=")
            .with_filter("platform", some(&self.platform).as_deref(), "=")
            .with_filter("assignee_id", some(&self.assignee_id).as_deref(), "=")
    }
}

#[utoipa::path(method(get, post), path = "/msg.merchant_clue/index", tag = "engagement", responses((status = 200, body = Reply<Page<LeadView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<IndexQuery>,
) -> Answer<Page<LeadView>> {
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, scope(&c), &q.list()).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(|r| view(r, lang)).collect(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = LeadIdReq)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/msg.merchant_clue/info", tag = "engagement", request_body = IdReq, responses((status = 200, body = Reply<LeadView>)))]
pub async fn info(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<IdReq>,
) -> Answer<LeadView> {
    let l = uc::lead(&st.db, c.merchant_id()?, scope(&c), r.id).await?;
    Ok(reply(view(l, lang)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LeadStateReq {
    pub id: i64,
    /// contacted | converted | invalid.
    #[serde(default)]
    #[schema(value_type = domain::engagement::LeadState)]
    pub state: String,
}

#[utoipa::path(post, path = "/msg.merchant_clue/state", tag = "engagement", request_body = LeadStateReq, responses((status = 200, body = Reply<LeadView>)))]
pub async fn state(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<LeadStateReq>,
) -> Answer<LeadView> {
    let l = uc::set_state(&st.db, c.merchant_id()?, scope(&c), r.id, &r.state).await?;
    Ok(reply(view(l, lang)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LeadNoteReq {
    pub id: i64,
    /// 1–500 characters.
    #[serde(default)]
    pub note: String,
}

#[utoipa::path(post, path = "/msg.merchant_clue/note", tag = "engagement", request_body = LeadNoteReq, responses((status = 200, body = Reply<LeadView>)))]
pub async fn note(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<LeadNoteReq>,
) -> Answer<LeadView> {
    let by = if c.user.nickname.is_empty() {
        c.user.username.clone()
    } else {
        c.user.nickname.clone()
    };
    let l = uc::note(&st.db, c.merchant_id()?, scope(&c), r.id, &r.note, &by).await?;
    Ok(reply(view(l, lang)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LeadAssignReq {
    pub id: i64,
    /// A staff member with the leads menu; 0: nobody.
    #[serde(default)]
    pub assignee_id: i64,
}

#[utoipa::path(post, path = "/msg.merchant_clue/assign", tag = "engagement", request_body = LeadAssignReq, responses((status = 200, body = Reply<LeadView>)))]
pub async fn assign(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<LeadAssignReq>,
) -> Answer<LeadView> {
    if scope(&c).is_some() {
        return Err(ApiError::Forbidden(
            Msg::Forbidden,
            vec![("function", domain::actions::title("menu.clueAssign", lang))],
        )
        .into());
    }
    let l = uc::assign(&st.db, c.merchant_id()?, r.id, r.assignee_id).await?;
    Ok(reply(view(l, lang)))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LeadStaff {
    pub id: i64,
    pub nickname: String,
}

#[utoipa::path(get, path = "/msg.merchant_clue/staff_list", tag = "engagement", responses((status = 200, body = Reply<Vec<LeadStaff>>)))]
pub async fn staff_list(State(st): State<AppState>, c: Caller) -> Answer<Vec<LeadStaff>> {
    let staff = uc::lead_staff(&st.db, c.merchant_id()?).await?;
    Ok(reply(
        staff
            .into_iter()
            .map(|(id, nickname)| LeadStaff { id, nickname })
            .collect(),
    ))
}

/// The leads the caller sees, as a spreadsheet, with the list's filters.
#[utoipa::path(get, path = "/msg.merchant_clue/export", tag = "engagement", responses((status = 200, description = "the leads (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<IndexQuery>,
) -> HttpResult<Response> {
    let f = format_of(q.format.as_deref())?;
    let mid = c.merchant_id()?;
    let who = scope(&c);
    let db = st.db.clone();
    let rows = services::activities::all_pages(&q.list(), 100_000, |page| {
        let db = db.clone();
        async move { uc::list(&db, mid, who, &page).await }
    })
    .await?;
    Ok(attachment(
        "leads",
        f,
        super::export::leads_table(&rows, lang).render(f),
        st.db.clock.platform_now(),
    ))
}
