//! The copy precheck (issue 39): what a post's words must not say under China's advertising law
//! (广告法) and each platform's content rules, found in context like a spell checker. Pure and fast
//! (bench `copy_precheck_us_per_title`): no I/O, rules parsed once.
//!
//! - Rules are data: `rules/<law or platform>.toml` ([`FILES`]), each rule with its id, severity
//!   ([`Severity::Block`] stops a release task on the server, [`Severity::Warn`] is shown), source
//!   (article or rule page) and explanation in zh-CN and English, its terms, the context in which a
//!   term is no claim (`unless_prev`, `unless_next`, `only_next`: 最近 and 第一次 are fine, 最好 and
//!   第一品牌 are not), detectors (phone numbers, links, e-mail) and safe rewrites (最好 → 很好).
//! - [`check`]`(text, scope)`: the built-in rules for a post to the platforms in `scope` (empty:
//!   any platform); [`Checker`] adds the merchant's banned words the operator set.
//! - The same engine answers SPEC §5's "no contact details in comments" ([`has_contact`]) and the
//!   title writer's banned words (`seo`).

mod detect;
mod engine;
mod rules;
#[cfg(test)]
mod tests;

pub use detect::Detector;
pub use engine::Finding;
pub use rules::{Both, FILES, Rule, RuleKind, Severity, Source};

use crate::i18n::{Msg, Said};
use crate::platform::Platform;
use crate::validate::Invalid;
use engine::ENGINE;

/// The built-in rules' findings on `text` for a post to `scope` (empty: any platform).
pub fn check<'a>(text: &'a str, scope: &[Platform]) -> Vec<Finding<'a>> {
    engine::check(&ENGINE, None, text, scope)
}

/// Every built-in rule, in file order.
pub fn rules() -> &'static [Rule] {
    &ENGINE.rules
}

/// The laws and platforms the rules come from.
pub fn sources() -> &'static [Source] {
    &ENGINE.sources
}

/// Parses the rule files ahead of the first check.
pub fn warm_up() {
    let _ = rules().len();
}

/// Contact details or links (phone numbers, WeChat / QQ ids, URLs, e-mail addresses) under any
/// platform's rules: SPEC §5 keeps them out of comment scripts.
pub fn has_contact(text: &str) -> bool {
    check(text, &[])
        .iter()
        .any(|f| f.rule.kind == RuleKind::Contact)
}

/// The built-in rules plus one merchant's banned words.
#[derive(Debug, Clone)]
pub struct Checker {
    merchant: Rule,
}

impl Checker {
    pub fn new(merchant_words: &[String]) -> Checker {
        Checker {
            merchant: Rule::merchant(merchant_words),
        }
    }

    pub fn check<'a>(&'a self, text: &'a str, scope: &[Platform]) -> Vec<Finding<'a>> {
        engine::check(&ENGINE, Some(&self.merchant), text, scope)
    }

    /// The first finding of any severity (the title writer drops such candidates).
    pub fn first<'a>(&'a self, text: &'a str) -> Option<Finding<'a>> {
        self.check(text, &[]).into_iter().next()
    }

    /// Every text of a form checked: the first `block` finding refuses the form (naming the field,
    /// the rule, its source and the suggestion), else the `warn` findings as warnings.
    pub fn form(
        &self,
        fields: &[(&'static str, &str)],
        scope: &[Platform],
    ) -> Result<Vec<Said>, Invalid> {
        let mut warnings = vec![];
        for &(field, text) in fields {
            for f in self.check(text, scope) {
                match f.rule.severity {
                    Severity::Block => {
                        return Err(Invalid {
                            field,
                            msg: Msg::CopyBlocked,
                            args: args(&f),
                        });
                    }
                    Severity::Warn => warnings.push(Said::new(Msg::CopyWarned, args(&f))),
                }
            }
        }
        Ok(warnings)
    }
}

/// A finding as message arguments: the term, the rule id, the explanation and source in both
/// languages (`api::words` picks the reader's), the suggestion.
pub fn args(f: &Finding) -> Vec<(&'static str, String)> {
    let hint = |lang_zh: bool| match (f.suggestion, lang_zh) {
        (Some(s), true) => format!("，可改为「{s}」"),
        (Some(s), false) => format!("; try \"{s}\" instead"),
        (None, _) => String::new(),
    };
    vec![
        ("term", f.term.to_string()),
        ("rule_id", f.rule.id.clone()),
        ("rule.zh", f.rule.explain.zh.clone()),
        ("rule.en", f.rule.explain.en.clone()),
        ("source.zh", f.rule.source.zh.clone()),
        ("source.en", f.rule.source.en.clone()),
        ("hint.zh", hint(true)),
        ("hint.en", hint(false)),
    ]
}
