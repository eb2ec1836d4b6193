//! Spreadsheet downloads of lists (`crate::export`): the `format` parameter and the attachment
//! answer, shared by every area that exports.

use crate::export::Format;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use domain::i18n::Msg;
use services::ApiError;

/// `xlsx` (also when empty) or `csv`; anything else is 422 naming `format`.
pub fn format_of(s: Option<&str>) -> Result<Format, ApiError> {
    Format::parse(s.filter(|s| !s.is_empty())).ok_or_else(|| {
        ApiError::invalid_with(
            "format",
            Msg::InvalidValue,
            vec![("reason", "xlsx | csv".into())],
        )
    })
}

/// The file as an attachment named `<name>-<China time>.<ext>`.
pub fn attachment(name: &str, f: Format, body: Vec<u8>, now: i64) -> Response {
    let stamp = domain::matrix::china_time(now)
        .replace([' ', ':'], "")
        .replace('-', "");
    let file = format!("{name}-{stamp}.{}", f.extension());
    (
        [
            (header::CONTENT_TYPE, f.mime().to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\"; filename*=UTF-8''{file}"),
            ),
        ],
        body,
    )
        .into_response()
}

/// A list's own query (the same struct and parse as the list call, so the file holds what the page
/// shows) with the export's `format`.
#[derive(Debug, serde::Deserialize)]
pub struct Export<Q> {
    #[serde(flatten)]
    pub q: Q,
    #[serde(default)]
    pub format: Option<String>,
}

/// The most rows one export holds; more is refused, asking for narrower filters, rather than
/// handing over a file that silently misses rows.
pub const EXPORT_MAX: usize = 50_000;

/// Every row `page` reads with the list's filters and sort, page by page; 422 (`filterObj`, "narrow
/// the filters") when there are more than `EXPORT_MAX`.
pub async fn every_row<T, F, Fut>(q: &services::ListQuery, page: F) -> Result<Vec<T>, ApiError>
where
    F: FnMut(services::ListQuery) -> Fut,
    Fut: std::future::Future<Output = Result<(Vec<T>, services::list::Total), ApiError>>,
{
    let rows = services::activities::all_pages(q, EXPORT_MAX + 1, page).await?;
    if rows.len() > EXPORT_MAX {
        return Err(ApiError::invalid_with(
            "filterObj",
            Msg::ExportTooMany,
            vec![("max", EXPORT_MAX.to_string())],
        ));
    }
    Ok(rows)
}

/// A word the console shows for a typed state, from the console's own locale files (`web/src/locales`,
/// namespace `ns`, dotted `key`), so a sheet names states as the page does; the raw code when the
/// console has no word for it.
pub fn console_word(lang: domain::i18n::Lang, ns: &str, key: &str) -> String {
    use std::collections::HashMap;
    use std::sync::LazyLock;
    macro_rules! files {
        ($($ns:literal),*) => {
            [$(($ns, include_str!(concat!("../../../web/src/locales/zh-CN/", $ns, ".json")),
                include_str!(concat!("../../../web/src/locales/en/", $ns, ".json")))),*]
        };
    }
    type Words = HashMap<&'static str, (serde_json::Value, serde_json::Value)>;
    static WORDS: LazyLock<Words> = LazyLock::new(|| {
        files!(
            "matrix",
            "engagement",
            "clip",
            "auth",
            "reports",
            "nfc",
            "seo",
            "materials"
        )
        .into_iter()
        .map(|(ns, zh, en)| {
            let parse = |s: &str| serde_json::from_str(s).unwrap_or(serde_json::Value::Null);
            (ns, (parse(zh), parse(en)))
        })
        .collect()
    });
    let code = key.rsplit('.').next().unwrap_or(key);
    let Some((zh, en)) = WORDS.get(ns) else {
        return code.to_string();
    };
    let mut v = match lang {
        domain::i18n::Lang::Zh => zh,
        domain::i18n::Lang::En => en,
    };
    for part in key.split('.') {
        v = &v[part];
    }
    v.as_str()
        .map(str::to_string)
        .unwrap_or_else(|| code.to_string())
}
