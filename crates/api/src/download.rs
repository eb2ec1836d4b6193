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
