//! Who wrote generated copy, as every AI endpoint answers it (`services::writer`): the console shows
//! "LLM: <model>" or "built-in" beside the result, and why the provider was not used when it failed.

use domain::i18n::Lang;
use serde::Serialize;
use services::writer::{Fallback, Source, Wrote};
use utoipa::ToSchema;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WriterKind {
    BuiltIn,
    Llm,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WriterSource {
    /// `built_in` (the built-in writer) or `llm` (the operator's provider).
    pub kind: WriterKind,
    /// The provider's model (`llm`); empty for the built-in writer.
    pub model: String,
    /// Why the configured provider's answer was not used (the built-in writer wrote instead), in the
    /// reader's language; empty otherwise.
    pub fallback_reason: String,
}

impl WriterSource {
    pub fn of(source: &Source, fallback: Option<&Fallback>, lang: Lang) -> WriterSource {
        let (kind, model) = match source {
            Source::BuiltIn => (WriterKind::BuiltIn, String::new()),
            Source::Llm { model } => (WriterKind::Llm, model.clone()),
        };
        WriterSource {
            kind,
            model,
            fallback_reason: fallback
                .map(|f| match lang {
                    Lang::Zh => f.zh.clone(),
                    Lang::En => f.en.clone(),
                })
                .unwrap_or_default(),
        }
    }

    pub fn wrote<T>(w: &Wrote<T>, lang: Lang) -> WriterSource {
        WriterSource::of(&w.source, w.fallback.as_ref(), lang)
    }
}

/// Generated texts and who wrote them.
#[derive(Debug, Serialize, ToSchema)]
pub struct WrittenRows {
    pub rows: Vec<String>,
    pub source: WriterSource,
}

impl WrittenRows {
    pub fn of(w: Wrote<Vec<String>>, lang: Lang) -> WrittenRows {
        WrittenRows {
            source: WriterSource::wrote(&w, lang),
            rows: w.items,
        }
    }
}
