//! Matching: one Aho-Corasick automaton over every rule's terms (ASCII case ignored), each hit
//! judged in its context, the detectors, then one finding per stretch of text (the severest, then
//! the longest).

use super::detect::Detector;
use super::rules::{self, Rule, Severity, Source};
use crate::platform::Platform;
use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::sync::LazyLock;

/// One thing a text must not say (or should be checked), where it says it.
#[derive(Debug, Clone)]
pub struct Finding<'a> {
    pub rule: &'a Rule,
    /// Byte range in the checked text.
    pub start: usize,
    pub end: usize,
    /// The text matched, as written.
    pub term: &'a str,
    /// What to write instead, where a rewrite keeps the meaning.
    pub suggestion: Option<&'a str>,
}

impl Finding<'_> {
    /// The range in UTF-16 code units (what the console's strings index).
    pub fn utf16(&self, text: &str) -> (usize, usize) {
        let units = |s: &str| s.encode_utf16().count();
        let start = units(&text[..self.start]);
        (start, start + units(&text[self.start..self.end]))
    }
}

pub(crate) struct Engine {
    pub sources: Vec<Source>,
    pub rules: Vec<Rule>,
    ac: AhoCorasick,
    /// Pattern id -> (rule, term).
    map: Vec<(usize, usize)>,
}

pub(crate) static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    let (sources, rules) = rules::all();
    Engine::new(sources, rules)
});

fn automaton(rules: &[Rule]) -> (AhoCorasick, Vec<(usize, usize)>) {
    let mut patterns = vec![];
    let mut map = vec![];
    for (ri, r) in rules.iter().enumerate() {
        for (ti, t) in r.terms.iter().enumerate() {
            patterns.push(t.as_str());
            map.push((ri, ti));
        }
    }
    let ac = AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .build(&patterns)
        .expect("compliance terms build an automaton");
    (ac, map)
}

impl Engine {
    fn new(sources: Vec<Source>, rules: Vec<Rule>) -> Engine {
        let (ac, map) = automaton(&rules);
        Engine {
            sources,
            rules,
            ac,
            map,
        }
    }
}

fn ends_with_ci(hay: &str, needle: &str) -> bool {
    hay.len() >= needle.len()
        && hay.is_char_boundary(hay.len() - needle.len())
        && hay[hay.len() - needle.len()..].eq_ignore_ascii_case(needle)
}

/// `next` starts with `cond`; a `cond` ending in `$` must also end the text (punctuation, emoji and
/// blanks may follow): `了$` is "…治愈了！" but not "治愈了多年的胃病".
fn next_is(next: &str, cond: &str) -> bool {
    match cond.strip_suffix('$') {
        Some(core) => {
            starts_with_ci(next, core) && !next[core.len()..].chars().any(char::is_alphanumeric)
        }
        None => starts_with_ci(next, cond),
    }
}

fn starts_with_ci(hay: &str, needle: &str) -> bool {
    hay.len() >= needle.len()
        && hay.is_char_boundary(needle.len())
        && hay[..needle.len()].eq_ignore_ascii_case(needle)
}

/// A Latin term is a whole word: no letter (digit, for a digit) touches either end.
fn whole_word(text: &str, start: usize, end: usize) -> bool {
    let b = text.as_bytes();
    let clash = |edge: u8, neighbour: Option<&u8>| {
        neighbour.is_some_and(|n| {
            (edge.is_ascii_alphabetic() && n.is_ascii_alphabetic())
                || (edge.is_ascii_digit() && n.is_ascii_digit())
        })
    };
    let before = start.checked_sub(1).map(|i| &b[i]);
    !clash(b[start], before) && !clash(b[end - 1], b.get(end))
}

/// Whether the hit at `start..end` says what the rule forbids, by the text around it.
fn in_context(rule: &Rule, text: &str, start: usize, end: usize) -> bool {
    if !whole_word(text, start, end) {
        return false;
    }
    let prev = text[..start].trim_end();
    let next = text[end..].trim_start();
    if rule.unless_prev.iter().any(|p| ends_with_ci(prev, p))
        || rule.unless_next.iter().any(|n| next_is(next, n))
    {
        return false;
    }
    rule.only_next.is_empty() || rule.only_next.iter().any(|n| next_is(next, n))
}

fn finding<'a>(rule: &'a Rule, text: &'a str, start: usize, end: usize) -> Finding<'a> {
    let term = &text[start..end];
    let suggestion = if rule.suggest.is_empty() {
        None
    } else {
        rule.suggest.get(&term.to_lowercase()).map(String::as_str)
    };
    Finding {
        rule,
        start,
        end,
        term,
        suggestion,
    }
}

fn rank(f: &Finding) -> (u8, usize) {
    let sev = match f.rule.severity {
        Severity::Block => 1,
        Severity::Warn => 0,
    };
    (sev, f.end - f.start)
}

/// One finding per stretch of text: the severest, then the longest, then the first found.
fn resolve(mut all: Vec<Finding<'_>>) -> Vec<Finding<'_>> {
    if all.len() < 2 {
        return all;
    }
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by(|&a, &b| rank(&all[b]).cmp(&rank(&all[a])).then(a.cmp(&b)));
    let mut keep = vec![false; all.len()];
    let mut kept: Vec<(usize, usize)> = vec![];
    for i in order {
        let (s, e) = (all[i].start, all[i].end);
        if !kept.iter().any(|&(a, z)| s < z && a < e) {
            kept.push((s, e));
            keep[i] = true;
        }
    }
    let mut i = 0;
    all.retain(|_| {
        i += 1;
        keep[i - 1]
    });
    all.sort_by_key(|f| (f.start, f.end));
    all
}

/// The findings of the built-in rules (and `extra`, a merchant's rule) on `text` for a post to
/// `scope` (empty: any platform), in text order.
pub(crate) fn check<'a>(
    engine: &'a Engine,
    extra: Option<&'a Rule>,
    text: &'a str,
    scope: &[Platform],
) -> Vec<Finding<'a>> {
    let mut out = vec![];
    for m in engine.ac.find_overlapping_iter(text) {
        let (ri, _) = engine.map[m.pattern().as_usize()];
        let rule = &engine.rules[ri];
        if rule.applies(scope) && in_context(rule, text, m.start(), m.end()) {
            out.push(finding(rule, text, m.start(), m.end()));
        }
    }
    let mut ran: Vec<(Detector, Vec<(usize, usize)>)> = vec![];
    for rule in engine.rules.iter().filter(|r| !r.detect.is_empty()) {
        if !rule.applies(scope) {
            continue;
        }
        for d in &rule.detect {
            if !ran.iter().any(|(x, _)| x == d) {
                ran.push((*d, d.find(text)));
            }
            let (_, hits) = ran.iter().find(|(x, _)| x == d).expect("ran above");
            out.extend(hits.iter().map(|&(s, e)| finding(rule, text, s, e)));
        }
    }
    if let Some(rule) = extra.filter(|r| !r.terms.is_empty()) {
        let lower = text.to_ascii_lowercase();
        for t in &rule.terms {
            for (s, _) in lower.match_indices(t.as_str()) {
                out.push(finding(rule, text, s, s + t.len()));
            }
        }
    }
    resolve(out)
}
