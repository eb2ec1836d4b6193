//! Tasks and their items as the console lists them; deleting a task.

use super::IdReq;
use crate::LangOf;
use crate::areas::matrix::views::ItemCounts;
use crate::areas::matrix::views::{self, ItemPage, ItemView, TaskView};
use crate::error::{Answer, ApiResult, Done, Page, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
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

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/index", tag = "matrix", responses((status = 200, body = Reply<Page<TaskView>>)))]
pub async fn index(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<TaskIndex>,
) -> Answer<Page<TaskView>> {
    let lq = q
        .list
        .with_filter(
            "name",
            q.name.as_deref().filter(|s| !s.is_empty()),
            "include",
        )
        .with_filter(
            "platform",
            q.platform.as_deref().filter(|s| !s.is_empty()),
            "=",
        )
        .with_filter(
            "review_state",
            q.review_state.as_deref().filter(|s| !s.is_empty()),
            "=",
        );
    let (rows, total) = uc::list(&st.db, c.merchant_id()?, &lq).await?;
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

/// Items (of one task, with its counts by state), of a merchant or (operator) of all.
pub async fn list_items(
    st: &AppState,
    mid: Option<i64>,
    q: ItemQuery,
    lang: Lang,
) -> ApiResult<ItemPage> {
    let lq = q
        .list
        .with_filter("task_id", q.task_id.map(|t| t.to_string()).as_deref(), "=")
        .with_filter("state", q.state.as_deref().filter(|s| !s.is_empty()), "=");
    let (rows, total) = uc::items(&st.db, mid, &lq).await?;
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
