//! The title writer's banned words: the copy precheck (`domain::compliance`: the advertising law and
//! the platforms' rules, matched in context) plus a merchant's own lexicon words. A candidate with
//! any finding, block or warn, is dropped: a false drop only costs one candidate, a missed claim
//! costs the merchant a fine.

use crate::compliance::Checker;

/// The precheck with a merchant's banned words, built once per request.
pub(crate) struct Banned(Checker);

impl Banned {
    pub(crate) fn new(merchant: &[String]) -> Self {
        Banned(Checker::new(merchant))
    }

    /// The first banned word the text contains, lowercase.
    pub(crate) fn first_hit(&self, text: &str) -> Option<String> {
        self.0.first(text).map(|f| f.term.to_lowercase())
    }

    pub(crate) fn hits(&self, text: &str) -> bool {
        self.0.first(text).is_some()
    }
}
