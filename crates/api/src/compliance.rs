//! `POST /api/index/copyCheck`: the copy precheck as the merchant types (the console's `useCopyCheck`
//! debounces it): the findings of one text with their offsets, rule, source, explanation (in the
//! reader's language) and a safe rewrite. Any signed-in caller; a merchant's banned words apply to
//! its own users. Reading only: it is not in the operation log.

use crate::LangOf;
use crate::error::{Answer, ApiError, Reply, reply};
use crate::extract::{Caller, Input};
use crate::state::AppState;
use axum::extract::State;
use domain::compliance::{Finding, RuleKind, Severity};
use domain::i18n::{Lang, Msg};
use domain::platform::Platform;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct CopyCheckReq {
    #[serde(default)]
    #[schema(max_length = 10000)]
    pub text: String,
    /// The platforms the text goes to; empty: any platform (every platform's rules).
    #[serde(default)]
    pub platforms: Vec<Platform>,
}

/// One finding: `start`/`end` index the text in UTF-16 code units (JavaScript's string indices).
#[derive(Debug, Serialize, ToSchema)]
pub struct CopyFinding {
    pub start: usize,
    pub end: usize,
    /// The words found, as written.
    pub term: String,
    pub rule_id: String,
    pub kind: RuleKind,
    pub severity: Severity,
    /// The law article or the platform's rule page.
    pub source: String,
    pub explanation: String,
    /// A safe rewrite of `term`; absent where none keeps the meaning.
    pub suggestion: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CopyCheck {
    pub findings: Vec<CopyFinding>,
    /// Whether a finding blocks publishing.
    pub blocked: bool,
}

fn view(f: &Finding, text: &str, lang: Lang) -> CopyFinding {
    let (start, end) = f.utf16(text);
    let pick = |b: &domain::compliance::Both| match lang {
        Lang::Zh => b.zh.clone(),
        Lang::En => b.en.clone(),
    };
    CopyFinding {
        start,
        end,
        term: f.term.to_string(),
        rule_id: f.rule.id.clone(),
        kind: f.rule.kind,
        severity: f.rule.severity,
        source: pick(&f.rule.source),
        explanation: pick(&f.rule.explain),
        suggestion: f.suggestion.map(str::to_string),
    }
}

#[utoipa::path(post, path = "/index/copyCheck", tag = "matrix", request_body = CopyCheckReq, responses((status = 200, body = Reply<CopyCheck>)))]
pub async fn copy_check(
    State(st): State<AppState>,
    c: Caller,
    LangOf(lang): LangOf,
    Input(r): Input<CopyCheckReq>,
) -> Answer<CopyCheck> {
    if r.text.chars().count() > services::compliance::TEXT_MAX {
        return Err(ApiError::invalid_with(
            "text",
            Msg::TooLong,
            vec![("max", services::compliance::TEXT_MAX.to_string())],
        )
        .into());
    }
    let checker = services::compliance::checker(&st.db, c.user.merchant_id).await?;
    let findings: Vec<CopyFinding> = checker
        .check(&r.text, &r.platforms)
        .iter()
        .map(|f| view(f, &r.text, lang))
        .collect();
    let blocked = findings.iter().any(|f| f.severity == Severity::Block);
    Ok(reply(CopyCheck { findings, blocked }))
}
