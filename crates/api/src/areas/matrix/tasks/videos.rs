//! The videos a task can publish (`services::matrix::videos`): the form's picker lists.

use crate::LangOf;
use crate::areas::matrix::views::{Labeled, LibProject, Pickable, Rows};
use crate::error::{Answer, Page, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use serde::Deserialize;
use services::ListQuery;
use services::matrix::videos as uc;

#[derive(Debug, Deserialize)]
pub struct VideoQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    pub source: Option<String>,
    pub project_id: Option<i64>,
    pub used: Option<String>,
}

#[utoipa::path(method(get, post), path = "/task.merchant_forward_task/forward_video", tag = "matrix", responses((status = 200, body = Reply<Page<Pickable>>)))]
pub async fn forward_video(
    State(st): State<AppState>,
    c: Caller,
    Input(q): Input<VideoQuery>,
) -> Answer<Page<Pickable>> {
    let mid = c.merchant_id()?;
    let material = q.source.as_deref() == Some("material");
    let lq = if material {
        q.list
    } else {
        q.list
            .with_filter(
                "project_id",
                q.project_id.map(|p| p.to_string()).as_deref(),
                "=",
            )
            .with_filter("used", q.used.as_deref().filter(|s| !s.is_empty()), "=")
    };
    let (rows, total) = uc::pickable(&st.hub, mid, material, lq).await?;
    Ok(reply(Page::new(
        rows.into_iter().map(Into::into).collect(),
        total,
    )))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getLibProjectList", tag = "matrix", responses((status = 200, body = Reply<Rows<LibProject>>)))]
pub async fn lib_projects(State(st): State<AppState>, c: Caller) -> Answer<Rows<LibProject>> {
    let mid = c.merchant_id()?;
    let rows = uc::library_projects(&st.db, mid).await?;
    let rows = rows
        .into_iter()
        .map(|(id, name, success, unused)| LibProject {
            id,
            name,
            success,
            unused,
        })
        .collect();
    Ok(reply(Rows { rows }))
}

#[utoipa::path(method(get, post), path = "/matrix.merchant_publish_management/getVideoTypeList", tag = "matrix", responses((status = 200, body = Reply<Rows<Labeled>>)))]
pub async fn video_types(c: Caller, LangOf(lang): LangOf) -> Answer<Rows<Labeled>> {
    c.merchant_id()?;
    Ok(reply(Rows {
        rows: vec![
            Labeled {
                value: "library",
                label: Msg::VideosFinished.render(lang, &[]),
            },
            Labeled {
                value: "material",
                label: Msg::VideosUploaded.render(lang, &[]),
            },
        ],
    }))
}
