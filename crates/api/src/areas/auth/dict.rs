//! `/system/dic`: any signed-in user reads a dictionary by `name` (the dictionary select); the operator
//! lists, saves and deletes them under `/system/dic/*`.

use crate::error::{ApiError, ApiResult, Json, ok};
use crate::extract::Input;
use crate::state::AppState;
use axum::extract::State;
use domain::i18n::Msg;
use domain::jobs::JobKind;
use domain::validate;
use serde::Deserialize;
use store::ListQuery;
use store::dict::{self, Opt};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct NameReq {
    #[serde(default)]
    pub name: String,
}

#[utoipa::path(method(get, post), path = "/system/dic", tag = "system", params(("name" = String, Query)), responses((status = 200, description = "[{label, value}]")))]
pub async fn read(
    State(st): State<AppState>,
    crate::LangOf(lang): crate::LangOf,
    Input(r): Input<NameReq>,
) -> ApiResult<Json> {
    validate::required("name", r.name.trim())?;
    if r.name.trim() == JOB_KIND {
        return Ok(ok(job_kinds(lang)));
    }
    let d = dict::by_name(&st.db, r.name.trim())
        .await?
        .ok_or(ApiError::NotFound)?;
    let options: Vec<Opt> = d
        .options()
        .into_iter()
        .map(|o| Opt {
            label: localized(&o.label, lang),
            value: o.value,
        })
        .collect();
    Ok(ok(options))
}

/// The job monitor's kinds: a dictionary the code owns (never stored, so never out of step with
/// [`JobKind`]).
pub const JOB_KIND: &str = "job_kind";

fn job_kinds(lang: domain::i18n::Lang) -> Vec<Opt> {
    JobKind::ALL
        .iter()
        .map(|k| Opt {
            label: k.label().template(lang).to_string(),
            value: k.as_str().to_string(),
        })
        .collect()
}

/// A bilingual label `中文 / English` in the caller's language; any other label as it is.
fn localized(label: &str, lang: domain::i18n::Lang) -> String {
    match (label.split_once(" / "), lang) {
        (Some((zh, _)), domain::i18n::Lang::Zh) => zh.trim().to_string(),
        (Some((_, en)), domain::i18n::Lang::En) => en.trim().to_string(),
        _ => label.to_string(),
    }
}

#[derive(Debug, Deserialize)]
pub struct DictQuery {
    #[serde(flatten)]
    pub list: ListQuery,
    #[serde(default)]
    pub name: Option<String>,
}

fn view(d: &dict::Dict) -> serde_json::Value {
    serde_json::json!({ "id": d.id, "name": d.name, "title": d.title, "options": d.options(), "updated_at": d.updated_at })
}

#[utoipa::path(method(get, post), path = "/system/dic/index", tag = "system", responses((status = 200, description = "{rows,total}")))]
pub async fn index(State(st): State<AppState>, Input(q): Input<DictQuery>) -> ApiResult<Json> {
    let q = q.list.with_filter("name", q.name.as_deref(), "include");
    let (rows, total) = dict::list(&st.db, &q).await?;
    Ok(ok(store::list::rows_total(
        rows.iter().map(view).collect::<Vec<_>>(),
        total,
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveReq {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    pub options: Vec<Opt>,
}

#[utoipa::path(post, path = "/system/dic/save", tag = "system", request_body = SaveReq, responses((status = 200, description = "the dictionary")))]
pub async fn save(State(st): State<AppState>, Input(r): Input<SaveReq>) -> ApiResult<Json> {
    let name = r.name.trim();
    let ok_name = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok_name {
        return Err(ApiError::invalid_with(
            "name",
            Msg::InvalidValue,
            vec![("reason", "a-z, 0-9, _ (1-64)".into())],
        ));
    }
    let mut seen = std::collections::HashSet::new();
    for o in &r.options {
        if o.label.trim().is_empty() || !seen.insert(o.value.clone()) {
            return Err(ApiError::invalid_with(
                "options",
                Msg::InvalidValue,
                vec![(
                    "reason",
                    format!("label empty or value '{}' repeated", o.value),
                )],
            ));
        }
    }
    let d = dict::save(&st.db, name, r.title.trim(), &r.options).await?;
    Ok(ok(view(&d)))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct IdReq {
    pub id: i64,
}

#[utoipa::path(post, path = "/system/dic/delete", tag = "system", request_body = IdReq, responses((status = 200, description = "deleted")))]
pub async fn delete(State(st): State<AppState>, Input(r): Input<IdReq>) -> ApiResult<Json> {
    if !dict::delete(&st.db, r.id).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(serde_json::json!({})))
}
