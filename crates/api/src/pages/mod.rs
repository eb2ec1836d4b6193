//! The server-rendered pages outside the console, shared by the areas that answer HTML: the NFC tap
//! and activity pages (`nfc`) and the framed video library (`video_library`). Templates are maud
//! (`html!`): every spliced value is HTML-escaped by the engine; only the pages' own style sheets and
//! scripts go in as they are, with data passed to a script as JSON ([`script_value`]).

pub mod nfc;
pub mod video_library;

use domain::i18n::Lang;
use maud::PreEscaped;
use serde::Serialize;

/// The text of a page in the reader's language.
pub fn t(lang: Lang, zh: &'static str, en: &'static str) -> &'static str {
    if lang == Lang::Zh { zh } else { en }
}

/// A value for a `<script>` block: JSON with `<` escaped so no text closes the script.
pub fn script_value<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

/// A page's own script with its data: each `$NAME` in `code` becomes the JSON of its value.
fn script(code: &str, values: &[(&str, String)]) -> PreEscaped<String> {
    let mut out = code.to_string();
    for (name, json) in values {
        out = out.replace(name, json);
    }
    PreEscaped(out)
}
