//! Release batches (`services::matrix::tasks::batch`): the sheet's template, reading an uploaded
//! sheet into the console's table (with each row's errors), and creating the task from the table
//! or straight from a sheet. A batch with any bad row stores nothing: 422 naming every bad row
//! (`data.rows`: row, column, message in the caller's language).

use super::lists::task_view;
use crate::LangOf;
use crate::areas::matrix::views::TaskView;
use crate::error::{Answer, HttpResult, Reply, reply};
use crate::extract::{Caller, Input};
use crate::import::{self, RowErrorView};
use crate::state::AppState;
use axum::extract::{Multipart, State};
use axum::response::Response;
use domain::i18n::Lang;
use domain::matrix::batch::{BatchReq, BatchRow, COLUMNS, column, declaration_word, mount_word};
use domain::sheet::{RowError, Sheet};
use serde::Serialize;
use services::matrix::tasks::batch::{self as uc, Made};
use utoipa::ToSchema;

pub fn row_errors(errors: &[RowError], lang: Lang) -> Vec<RowErrorView> {
    crate::words::row_errors(&domain::sheet::errors_arg(errors), lang)
}

/// A read sheet: its rows as the console's table edits them, and what is wrong with them.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchSheet {
    pub rows: Vec<BatchRow>,
    pub errors: Vec<RowErrorView>,
    /// The uploaded file's name (the console offers it as the task's name).
    pub file_name: String,
}

/// What sending a batch gives: the rows' errors (`check`), or the created task.
#[derive(Debug, Serialize, ToSchema)]
pub struct BatchAdded {
    pub errors: Vec<RowErrorView>,
    pub task: Option<TaskView>,
}

/// The batch sheet's template: its header in the caller's language.
#[utoipa::path(get, path = "/task.merchant_forward_task/batch_template", tag = "matrix", params(("format" = Option<String>, Query, description = "xlsx (default) | csv")), responses((status = 200, description = "the release batch template (xlsx or csv)", content(("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"), ("text/csv")))))]
pub async fn batch_template(
    State(st): State<AppState>,
    _c: Caller,
    LangOf(lang): LangOf,
    Input(q): Input<import::TemplateQuery>,
) -> HttpResult<Response> {
    import::template_file(
        st.db.clock.platform_now(),
        "release-batch",
        &COLUMNS,
        lang,
        &q,
    )
}

/// The rows of an uploaded sheet, as the console's table holds them.
fn rows_of(cells: Vec<Vec<String>>) -> HttpResult<Vec<BatchRow>> {
    let sheet = Sheet::of(cells, &COLUMNS);
    import::require(
        &sheet,
        &[
            &[column("video")],
            &[column("account"), column("group")],
            &[column("title")],
            &[column("time")],
        ],
    )?;
    Ok(sheet
        .rows
        .iter()
        .map(|(n, r)| {
            let c = |k: &str| sheet.cell(r, k).to_string();
            BatchRow {
                row: Some(*n as i64),
                video: c("video"),
                account: c("account"),
                group: c("group"),
                title: c("title"),
                topics: c("topics"),
                at_users: c("at_users"),
                time: c("time"),
                // the form's words where the cell holds one (the console's selects show them)
                mount_type: word(c("mount_type"), |w| mount_word(w).map(|m| m.as_str())),
                mount_id: c("mount_id"),
                mount_title: c("mount_title"),
                mount_url: c("mount_url"),
                declaration: word(c("declaration"), |w| {
                    declaration_word(w).map(|d| d.as_str())
                }),
            }
        })
        .collect())
}

/// A cell in the form's word when it names one, else as it is (its error then names it).
fn word(cell: String, parse: impl Fn(&str) -> Option<&'static str>) -> String {
    parse(&cell).map_or(cell, str::to_string)
}

/// Reads an uploaded sheet (xlsx or CSV, ≤ 5 MB, ≤ 2,000 rows) into rows and checks them; nothing
/// is stored.
#[utoipa::path(post, path = "/task.merchant_forward_task/batch_read", tag = "matrix", request_body(content_type = "multipart/form-data", description = "file: the sheet"), responses((status = 200, body = Reply<BatchSheet>)))]
pub async fn batch_read(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    mp: Multipart,
) -> Answer<BatchSheet> {
    let mid = c.merchant_id()?;
    let up = import::receive(mp).await?;
    let rows = rows_of(up.cells)?;
    let errors = match uc::check(&st.db, mid, &rows).await? {
        Ok(_) => vec![],
        Err(e) => row_errors(&e, lang),
    };
    Ok(reply(BatchSheet {
        rows,
        errors,
        file_name: up.file_name,
    }))
}

async fn added(st: &AppState, made: Made, lang: Lang) -> Answer<BatchAdded> {
    Ok(reply(match made {
        Made::Checked(e) => BatchAdded {
            errors: row_errors(&e, lang),
            task: None,
        },
        Made::Task(t) => BatchAdded {
            errors: vec![],
            task: Some(task_view(st, &t).await?),
        },
    }))
}

/// Creates one release task from the batch's rows (or, with `check`, only checks them). Any bad
/// row: 422 naming every bad row, nothing stored.
#[utoipa::path(post, path = "/task.merchant_forward_task/batch_add", tag = "matrix", request_body = BatchReq, responses((status = 200, body = Reply<BatchAdded>)))]
pub async fn batch_add(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<BatchReq>,
) -> Answer<BatchAdded> {
    let made = uc::create(&st.db, (c.merchant_id()?, c.user.id), &r).await?;
    added(&st, made, lang).await
}

/// Creates one release task straight from a sheet (`file`; `name`, else the file's name). Any bad
/// row: 422 naming every bad row, nothing stored.
#[utoipa::path(post, path = "/task.merchant_forward_task/batch_import", tag = "matrix", request_body(content_type = "multipart/form-data", description = "file: the sheet; name: the task's name (default: the file's name)"), responses((status = 200, body = Reply<BatchAdded>)))]
pub async fn batch_import(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    mp: Multipart,
) -> Answer<BatchAdded> {
    let up = import::receive(mp).await?;
    let name = match up.fields.get("name").filter(|n| !n.trim().is_empty()) {
        Some(n) => n.clone(),
        None => stem(&up.file_name),
    };
    let r = BatchReq {
        name,
        rows: rows_of(up.cells)?,
        check: false,
    };
    let made = uc::create(&st.db, (c.merchant_id()?, c.user.id), &r).await?;
    added(&st, made, lang).await
}

/// A file's name without its extension, at most a task name's length.
fn stem(file: &str) -> String {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    stem.chars().take(domain::matrix::TASK_NAME_MAX).collect()
}
