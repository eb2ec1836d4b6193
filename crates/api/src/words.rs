//! The words a caller reads, in the caller's language (`accept-language`), rendered here and only
//! here: use cases answer message keys (`Msg`) with their arguments, stored reason codes and typed
//! codes, and this module turns them into text. An argument a use case has in both languages (a
//! platform's own refusal) travels as a pair, `name.zh` and `name.en`, and fills `{name}`.

use domain::i18n::{Lang, Msg};

/// Renders a message with its raw arguments in `lang`: refusals name the function and the library in
/// words (the raw permission stays in the arguments), a field by its label, a pair of arguments in
/// both languages by the one in `lang`.
pub fn render_message(
    msg: Msg,
    args: &[(&str, String)],
    field: Option<&str>,
    lang: Lang,
    request_id: &str,
) -> String {
    let mut out: Vec<(&str, String)> = in_lang(args, lang)
        .into_iter()
        .map(|(k, v)| match k {
            "library" => (k, domain::actions::library_name(&v, lang)),
            _ => (k, v),
        })
        .collect();
    if let Some((_, p)) = args.iter().find(|(k, _)| *k == "perm") {
        out.push(("function", domain::actions::function_name(p, lang)));
    }
    if let Some(f) = field {
        out.push(("field", domain::i18n::field_label(f, lang)));
    }
    if let Some((_, errors)) = args.iter().find(|(k, _)| *k == "errors") {
        out.push(("rows", row_list(errors, lang)));
    }
    out.push(("request_id", request_id.to_string()));
    msg.render(lang, &out)
}

/// How many bad rows an import's message lists (the answer's `data.rows` holds every one).
const ROWS_LISTED: usize = 20;

/// An import's bad rows (`domain::sheet::errors_arg`) in `lang`: each its row, column and message.
pub fn row_errors(errors: &str, lang: Lang) -> Vec<crate::import::RowErrorView> {
    let list: Vec<serde_json::Value> = serde_json::from_str(errors).unwrap_or_default();
    let suffix = match lang {
        Lang::Zh => "zh",
        Lang::En => "en",
    };
    list.iter()
        .map(|e| {
            let args: Vec<(String, String)> = e["args"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                        .collect()
                })
                .unwrap_or_default();
            let args: Vec<(&str, String)> =
                args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
            crate::import::RowErrorView {
                row: e["row"].as_i64().unwrap_or_default(),
                column: text(&e["column"]),
                column_name: text(&e[format!("column.{suffix}")]),
                message: Msg::from_key(e["msg"].as_str().unwrap_or_default())
                    .map(|m| m.render(lang, &in_lang(&args, lang)))
                    .unwrap_or_default(),
            }
        })
        .collect()
}

/// The bad rows as a sentence's list: "row 3, Video: …; row 7, Account: …".
fn row_list(errors: &str, lang: Lang) -> String {
    let rows = row_errors(errors, lang);
    let mut parts: Vec<String> = rows
        .iter()
        .take(ROWS_LISTED)
        .map(|r| {
            Msg::ImportRow.render(
                lang,
                &[
                    ("row", r.row.to_string()),
                    ("column", r.column_name.clone()),
                    ("reason", r.message.clone()),
                ],
            )
        })
        .collect();
    if rows.len() > ROWS_LISTED {
        parts.push(
            Msg::ImportMoreRows.render(lang, &[("count", (rows.len() - ROWS_LISTED).to_string())]),
        );
    }
    parts.join(match lang {
        Lang::Zh => "；",
        Lang::En => "; ",
    })
}

pub use domain::i18n::in_lang;

/// A message a row stored as its key and `api::reply::PendingError::stored_args`, in the reader's
/// language; `None` when the key is unknown (or empty: a row written before keys were stored).
pub fn logged_message(key: &str, args: &str, lang: Lang, request_id: &str) -> Option<String> {
    let msg = Msg::from_key(key)?;
    let map: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(args).unwrap_or_default();
    let field = map.get("field").and_then(|v| v.as_str());
    let args: Vec<(&str, String)> = map
        .iter()
        .filter(|(k, _)| k.as_str() != "field")
        .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or_default().to_string()))
        .collect();
    Some(render_message(msg, &args, field, lang, request_id))
}

/// A failure as a row keeps it, in `lang`: its reason code rendered (`domain::matrix::failure_text`),
/// or, in rows written before codes, the words it was written with (Chinese when no English was).
pub fn failure(code: &str, args: &str, zh: &str, en: &str, lang: Lang) -> String {
    if let Some(text) = domain::matrix::failure_text(code, args, lang) {
        return text;
    }
    match lang {
        Lang::En if !en.is_empty() => en.to_string(),
        _ => zh.to_string(),
    }
}

/// A bilingual label `中文 / English` (a dictionary option's) in `lang`; any other label as it is.
pub fn bilingual(label: &str, lang: Lang) -> String {
    match (label.split_once(" / "), lang) {
        (Some((zh, _)), Lang::Zh) => zh.trim().to_string(),
        (Some((_, en)), Lang::En) => en.trim().to_string(),
        _ => label.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_of_arguments_fills_the_name_in_the_readers_language() {
        let args = vec![
            ("reason.zh", "账号已封禁".to_string()),
            ("reason.en", "account banned".to_string()),
        ];
        let zh = render_message(Msg::PlatformRefused, &args, Some("id"), Lang::Zh, "r1");
        let en = render_message(Msg::PlatformRefused, &args, Some("id"), Lang::En, "r1");
        assert!(zh.contains("账号已封禁") && !zh.contains("banned"), "{zh}");
        assert!(
            en.contains("account banned") && !en.contains("封禁"),
            "{en}"
        );
    }

    #[test]
    fn an_old_failure_without_english_reads_in_chinese() {
        assert_eq!(failure("", "", "超时", "", Lang::En), "超时");
        assert_eq!(failure("", "", "超时", "timed out", Lang::En), "timed out");
        assert_eq!(failure("", "", "超时", "timed out", Lang::Zh), "超时");
    }
}

/// A stored platform reason in `lang`: `{"reason_zh", "reason_en"}` (a platform's own words, as
/// `services::platform::platform_reason` keeps them), else a stored reason code or plain text
/// (`domain::i18n::localize_reason`).
pub fn localize_error(stored: &str, lang: Lang) -> String {
    match serde_json::from_str::<serde_json::Value>(stored) {
        Ok(v) => v[match lang {
            Lang::Zh => "reason_zh",
            Lang::En => "reason_en",
        }]
        .as_str()
        .unwrap_or("")
        .to_string(),
        Err(_) => domain::i18n::localize_reason(stored, lang),
    }
}
