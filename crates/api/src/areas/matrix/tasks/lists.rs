//! Tasks and their items as the console lists them; deleting a task.

use super::IdReq;
use crate::LangOf;
use crate::areas::matrix::sheets;
use crate::areas::matrix::views::ItemCounts;
use crate::areas::matrix::views::{self, ItemPage, ItemView, TaskView};
use crate::download::{Export, attachment, every_row, format_of};
use crate::error::{Answer, ApiResult, Done, HttpResult, Page, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use domain::i18n::Lang;
use serde::Deserialize;
use services::ListQuery;
use services::matrix as db;
use services::matrix::tasks as uc;
use services::matrix::videos::video_urls;
use utoipa::ToSchema;

/// A task with its items' counts.
pub async fn task_view(st: &AppState, t: &db::Task) -> ApiResult<TaskView> {
    let c = uc::item_counts(&st.db, t.id).await?;
    Ok(views::task(t, &c))
}

/// Tasks with their items' counts.
pub async fn task_views(st: &AppState, rows: &[db::Task]) -> ApiResult<Vec<TaskView>> {
    let mut out = vec![];
    for t in rows {
        out.push(task_view(st, t).await?);
    }
    Ok(out)
}

pub fn item_view(
    st: &AppState,
    i: &db::Item,
    lang: Lang,
    paused: &[(
        domain::platform::Platform,
        domain::matrix::canary::CanaryState,
    )],
) -> ItemView {
    let sign = |variant: &str| crate::files::url(st, i.id, variant);
    let pause = paused
        .iter()
        .find(|(p, _)| *p == i.platform)
        .map(|(_, c)| c);
    views::item(i, video_urls(&st.hub, &i.video_key), sign, lang, pause)
}

#[derive(Debug, Deserialize)]
pub struct TaskIndex {
    #[serde(flatten)]
    pub list: ListQuery,
    pub name: Option<String>,
    pub platform: Option<String>,
    pub review_state: Option<String>,
}

impl TaskIndex {
    /// The list's filters (the export takes the same).
    pub fn list(&self) -> ListQuery {
        let some = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
        self.list
            .clone()
            .with_filter("name", some(&self.name).as_deref(), "include")
            .with_filter("platform", some(&self.platform).as_deref(), "=")
            .with_filter("review_state", some(&self.review_state).as_deref(), "=")
    }
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/index", tag = "matrix", responses((status = 200, body = Reply<Page<TaskView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<TaskIndex>,
) -> Answer<Page<TaskView>> {
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &q.list()).await?;
    Ok(reply(Page::new(task_views(&st, &rows).await?, total)))
}

#[utoipa::path(post, path = "/task.merchant_forward_task/delete", tag = "matrix", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, c: Caller, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, c.merchant_id()?, r.id).await?;
    Ok(reply(Done {}))
}

#[derive(Debug, Deserialize)]
pub struct ItemQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub task_id: Option<i64>,
    pub state: Option<String>,
}

impl ItemQuery {
    /// The list's filters (the export takes the same).
    pub fn list(&self) -> ListQuery {
        self.list
            .clone()
            .with_filter(
                "task_id",
                self.task_id.map(|t| t.to_string()).as_deref(),
                "=",
            )
            .with_filter(
                "state",
                self.state.as_deref().filter(|s| !s.is_empty()),
                "=",
            )
    }
}

/// Items (of one task, with its counts by state), of a merchant or (operator) of all.
pub async fn list_items(
    st: &AppState,
    mid: Option<i64>,
    q: ItemQuery,
    lang: Lang,
) -> ApiResult<ItemPage> {
    let (rows, total) = uc::items(&st.db, mid, &q.list()).await?;
    let counts = match q.task_id {
        Some(t) => Some(uc::item_counts(&st.db, t).await?),
        None => None,
    };
    let paused = services::matrix::canary::paused_states(&st.db).await?;
    Ok(ItemPage {
        page: Page::new(
            rows.iter()
                .map(|i| item_view(st, i, lang, &paused))
                .collect(),
            total,
        ),
        summary: views::ItemSummary::of(counts.as_ref()),
    })
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/forward_video_release", tag = "matrix", responses((status = 200, body = Reply<ItemPage>)))]
pub async fn forward_video_release(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<ItemQuery>,
) -> Answer<ItemPage> {
    let mid = c.merchant_id()?;
    if let Some(t) = q.task_id {
        uc::task(&st.db, Some(mid), t).await?;
    }
    Ok(reply(list_items(&st, Some(mid), q, lang).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TaskIdReq {
    pub task_id: i64,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/forward_video_sm_release", tag = "matrix", responses((status = 200, body = Reply<ItemCounts>)))]
pub async fn forward_video_sm_release(
    State(st): State<AppState>,
    c: Caller,
    Input(r): Input<TaskIdReq>,
) -> Answer<ItemCounts> {
    uc::task(&st.db, Some(c.merchant_id()?), r.task_id).await?;
    let n = uc::item_counts(&st.db, r.task_id).await?;
    Ok(reply(n.into()))
}

/// The release tasks as a spreadsheet, with the list's filters.
#[utoipa::path(get, path = "/task.merchant_forward_task/export", tag = "matrix", responses((status = 200, description = "the release tasks (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(e): Input<Export<TaskIndex>>,
) -> HttpResult<Response> {
    let f = format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    let rows = every_row(&e.q.list(), |page| {
        let db = st.db.clone();
        async move { uc::list(&db, mid, &page).await }
    })
    .await?;
    let table = sheets::tasks(&task_views(&st, &rows).await?, lang);
    Ok(attachment(
        "tasks",
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
}

/// The release items as a spreadsheet (of one task when `task_id` is given), with the list's filters.
#[utoipa::path(get, path = "/task.merchant_forward_task/export_items", tag = "matrix", responses((status = 200, description = "the release items (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn export_items(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(e): Input<Export<ItemQuery>>,
) -> HttpResult<Response> {
    let f = format_of(e.format.as_deref())?;
    let mid = c.merchant_id()?;
    if let Some(t) = e.q.task_id {
        uc::task(&st.db, Some(mid), t).await?;
    }
    let rows = every_row(&e.q.list(), |page| {
        let db = st.db.clone();
        async move { uc::items(&db, Some(mid), &page).await }
    })
    .await?;
    let paused = services::matrix::canary::paused_states(&st.db).await?;
    let views: Vec<ItemView> = rows
        .iter()
        .map(|i| item_view(&st, i, lang, &paused))
        .collect();
    let table = sheets::items(&views, lang);
    Ok(attachment(
        "release-items",
        f,
        table.render(f),
        st.db.clock.platform_now(),
    ))
}
