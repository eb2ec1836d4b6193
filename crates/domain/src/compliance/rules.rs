//! The rule files (`rules/*.toml`, one per law or platform), embedded and parsed once.

use super::detect::Detector;
use crate::platform::Platform;
use serde::Deserialize;
use std::collections::HashMap;

crate::text_enum! {
    /// What a finding does: `block` stops a post (the server refuses the task), `warn` is shown.
    pub enum Severity {
        Block = "block",
        Warn = "warn",
    }
}

crate::text_enum! {
    /// What a rule is about.
    pub enum RuleKind {
        /// Superlatives and rank claims (广告法 第九条).
        Absolute = "absolute",
        /// Treatment and efficacy claims (广告法 第十六、十七、十八条).
        Medical = "medical",
        /// Promised returns (广告法 第二十五条).
        Finance = "finance",
        /// Sales conditions that must be true (广告法 第二十八条).
        Urgency = "urgency",
        /// Phone numbers, ids, links: a platform's drainage rules (and SPEC §5 for comments).
        Contact = "contact",
        /// Sending users to another platform.
        Drainage = "drainage",
        /// A word the operator banned for this merchant.
        Merchant = "merchant",
    }
}

/// A text in both languages.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Both {
    pub zh: String,
    pub en: String,
}

/// One rule: what it matches (terms in context, detectors), how bad it is, where it comes from.
#[derive(Debug, Clone)]
pub struct Rule {
    pub id: String,
    pub kind: RuleKind,
    pub severity: Severity,
    /// The law article or the platform's rule page.
    pub source: Both,
    /// What the rule forbids and why.
    pub explain: Both,
    /// The platforms whose posts it applies to; empty: every post (a law).
    pub platforms: Vec<Platform>,
    /// Lowercase.
    pub terms: Vec<String>,
    pub detect: Vec<Detector>,
    /// The term is no finding when the text right before it ends with one of these…
    pub unless_prev: Vec<String>,
    /// …or the text right after it starts with one of these…
    pub unless_next: Vec<String>,
    /// …or, when this is not empty, the text after it starts with none of these.
    pub only_next: Vec<String>,
    /// A safe rewrite of a (lowercase) term.
    pub suggest: HashMap<String, String>,
}

impl Rule {
    /// Whether a post to `scope` (empty: any platform) is held to this rule.
    pub fn applies(&self, scope: &[Platform]) -> bool {
        self.platforms.is_empty()
            || scope.is_empty()
            || self.platforms.iter().any(|p| scope.contains(p))
    }

    /// The rule of a merchant's banned words (set by the operator).
    pub fn merchant(words: &[String]) -> Rule {
        let mut terms: Vec<String> = words
            .iter()
            .map(|w| w.trim().to_lowercase())
            .filter(|w| !w.is_empty())
            .collect();
        terms.sort();
        terms.dedup();
        Rule {
            id: "merchant.banned".into(),
            kind: RuleKind::Merchant,
            severity: Severity::Block,
            source: Both {
                zh: "本企业禁用词（系统设置）".into(),
                en: "This merchant's banned words (System settings)".into(),
            },
            explain: Both {
                zh: "该词已被列为本企业的禁用词".into(),
                en: "This word is on the merchant's list of banned words".into(),
            },
            platforms: vec![],
            terms,
            detect: vec![],
            unless_prev: vec![],
            unless_next: vec![],
            only_next: vec![],
            suggest: HashMap::new(),
        }
    }
}

/// The rule files, one per law or platform.
pub const FILES: &[(&str, &str)] = &[
    ("ad_law", include_str!("rules/ad_law.toml")),
    ("douyin", include_str!("rules/douyin.toml")),
    ("kuaishou", include_str!("rules/kuaishou.toml")),
    ("channels", include_str!("rules/channels.toml")),
    ("xiaohongshu", include_str!("rules/xiaohongshu.toml")),
    ("baijiahao", include_str!("rules/baijiahao.toml")),
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    source: Source,
    rule: Vec<RuleRow>,
}

/// A file's law or platform.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Source {
    pub code: String,
    pub zh: String,
    pub en: String,
    #[serde(default)]
    pub platforms: Vec<Platform>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleRow {
    id: String,
    kind: RuleKind,
    severity: Severity,
    source_zh: String,
    source_en: String,
    zh: String,
    en: String,
    #[serde(default)]
    terms: Vec<String>,
    #[serde(default)]
    detect: Vec<Detector>,
    #[serde(default)]
    unless_prev: Vec<String>,
    #[serde(default)]
    unless_next: Vec<String>,
    #[serde(default)]
    only_next: Vec<String>,
    #[serde(default)]
    suggest: HashMap<String, String>,
}

fn lower(v: Vec<String>) -> Vec<String> {
    v.into_iter().map(|s| s.to_lowercase()).collect()
}

/// The rules of one file, or why it cannot be read.
pub fn parse(text: &str) -> Result<(Source, Vec<Rule>), String> {
    let f: File = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut rules = vec![];
    for r in f.rule {
        let terms = lower(r.terms);
        if terms.is_empty() && r.detect.is_empty() {
            return Err(format!("rule {} matches nothing", r.id));
        }
        let suggest: HashMap<String, String> = r
            .suggest
            .into_iter()
            .map(|(k, v)| (k.to_lowercase(), v))
            .collect();
        if let Some(k) = suggest.keys().find(|k| !terms.contains(k)) {
            return Err(format!(
                "rule {}: a suggestion for {k}, which is no term",
                r.id
            ));
        }
        rules.push(Rule {
            id: r.id,
            kind: r.kind,
            severity: r.severity,
            source: Both {
                zh: r.source_zh,
                en: r.source_en,
            },
            explain: Both { zh: r.zh, en: r.en },
            platforms: f.source.platforms.clone(),
            terms,
            detect: r.detect,
            unless_prev: lower(r.unless_prev),
            unless_next: lower(r.unless_next),
            only_next: lower(r.only_next),
            suggest,
        });
    }
    Ok((f.source, rules))
}

/// Every file's source and rules, in [`FILES`] order. A file that cannot be read is a bug caught by
/// the tests (`every_rule_file_parses`), so it panics here.
pub fn all() -> (Vec<Source>, Vec<Rule>) {
    let (mut sources, mut rules) = (vec![], vec![]);
    for (name, text) in FILES {
        let (s, r) = parse(text).unwrap_or_else(|e| panic!("compliance rules {name}: {e}"));
        sources.push(s);
        rules.extend(r);
    }
    (sources, rules)
}
