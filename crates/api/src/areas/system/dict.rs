//! `/system/dic`: any signed-in user reads a dictionary by `name` (the dictionary select); the operator
//! lists, saves and deletes them under `/system/dic/*` (`services::system::dict`).

use crate::areas::auth::views::Opt;
use crate::error::{Answer, Done, Page, Reply, reply};
use crate::extract::{IdReq, Input};
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use services::ListQuery;
use services::system::dict as uc;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct NameReq {
    #[serde(default)]
    pub name: String,
}

#[utoipa::path(method(get, post), path = "/system/dic", tag = "system", params(("name" = String, Query)), responses((status = 200, body = Reply<Vec<Opt>>)))]
pub async fn read(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<NameReq>,
) -> Answer<Vec<Opt>> {
    Ok(reply(
        uc::read(&st.db, &r.name)
            .await?
            .into_iter()
            .map(|mut o| {
                o.label = crate::words::bilingual(&o.label, lang);
                o.into()
            })
            .collect(),
    ))
}

#[derive(Debug, Deserialize)]
pub struct DictQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
}

/// A dictionary as the operator's list and form show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct DictView {
    pub id: i64,
    pub name: String,
    pub title: String,
    pub options: Vec<Opt>,
    pub updated_at: i64,
}

fn view(d: &uc::Dict) -> DictView {
    DictView {
        id: d.id,
        name: d.name.clone(),
        title: d.title.clone(),
        options: d.options().into_iter().map(Into::into).collect(),
        updated_at: d.updated_at,
    }
}

#[utoipa::path(method(get, post), path = "/system/dic/index", tag = "system", responses((status = 200, body = Reply<Page<DictView>>)))]
pub async fn index(
    State(st): State<AppState>,
    Input(q): Input<DictQuery>,
) -> Answer<Page<DictView>> {
    let q = q.list.with_filter("name", q.name.as_deref(), "include");
    let (rows, total) = uc::list(&st.db, &q).await?;
    Ok(reply(Page::new(rows.iter().map(view).collect(), total)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = DictSaveReq)]
pub struct SaveReq {
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 64)]
    pub name: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub options: Vec<Opt>,
}

#[utoipa::path(post, path = "/system/dic/save", tag = "system", request_body = SaveReq, responses((status = 200, body = Reply<DictView>)))]
pub async fn save(State(st): State<AppState>, Input(r): Input<SaveReq>) -> Answer<DictView> {
    let options: Vec<uc::Opt> = r.options.into_iter().map(Into::into).collect();
    let d = uc::save(&st.db, &r.name, &r.title, &options).await?;
    Ok(reply(view(&d)))
}

#[utoipa::path(post, path = "/system/dic/delete", tag = "system", request_body = IdReq, responses((status = 200, body = Reply<Done>)))]
pub async fn delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> Answer<Done> {
    uc::delete(&st.db, r.id).await?;
    Ok(reply(Done {}))
}
