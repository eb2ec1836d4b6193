//! The SEO area's input limits and the lexicon kinds a merchant keeps (docs/api-seo.md), plus the
//! engine's own checks for titles that come from elsewhere (a provider, a merchant's typing).

use super::Lexicon;
use super::banned::Banned;

/// A lexicon word or keyword, in characters.
pub const WORD_MAX: usize = 20;
/// Words in one bulk add.
pub const BULK_MAX: usize = 500;
/// Titles saved to the library at once.
pub const TITLES_MAX: usize = 200;
/// Titles written in one ask.
pub const WRITE_MAX: usize = 200;
/// Brand, product and region of the profile.
pub const PROFILE_WORD_MAX: usize = 30;
/// The profile's product description.
pub const DESCRIPTION_MAX: usize = 2_000;
/// A text to take keywords from.
pub const TEXT_MAX: usize = 10_000;
/// A category's name.
pub const CATEGORY_NAME_MAX: usize = 20;
/// A search seed word.
pub const SEED_MAX: usize = 20;
/// A benchmark account's share link (or the shared text holding one).
pub const BENCH_LINK_MAX: usize = 500;
/// The title-writing provider's base URL and model name.
pub const PROVIDER_URL_MAX: usize = 300;
pub const PROVIDER_MODEL_MAX: usize = 100;
/// How long the operator lets the AI provider take, in seconds (0 in a request: the default).
pub const PROVIDER_TIMEOUT_MAX_S: u64 = 120;

crate::text_enum! {
    /// The language titles are written in.
    pub enum TitleLang {
        Zh = "zh",
        En = "en",
    }
}

crate::text_enum! {
    /// Who wrote the titles: the built-in engine or the operator's OpenAI-compatible provider.
    pub enum TitleProvider {
        Builtin = "builtin",
        Openai = "openai",
    }
}

crate::text_enum! {
    /// How a suggested search word relates to the seed.
    pub enum SearchWordKind {
        /// The seed itself.
        Seed = "seed",
        /// The seed with a modifier: "火锅推荐", "附近火锅", "pizza near me".
        LongTail = "long_tail",
        /// A neighbour of the seed ("火锅" -> "串串香").
        Related = "related",
    }
}

crate::text_enum! {
    /// The lexicons a merchant keeps.
    pub enum LexKind {
        Brand = "brand",
        Product = "product",
        Region = "region",
        LongTail = "longtail",
        Banned = "banned",
        Stop = "stop",
    }
}

impl Lexicon {
    /// Adds a word to the list of its kind.
    pub fn push(&mut self, kind: LexKind, word: String) {
        match kind {
            LexKind::Brand => self.brands.push(word),
            LexKind::Product => self.products.push(word),
            LexKind::Region => self.regions.push(word),
            LexKind::LongTail => self.long_tail.push(word),
            LexKind::Banned => self.banned.push(word),
            LexKind::Stop => self.stop_words.push(word),
        }
    }
}

/// The first built-in or merchant-banned word `text` contains (any case).
pub fn banned_word(text: &str, merchant: &[String]) -> Option<String> {
    Banned::new(merchant).first_hit(text)
}

/// What two titles that differ only in punctuation, spaces or case have in common.
pub fn near_key(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_banned_words_are_found_in_any_case() {
        for k in LexKind::ALL {
            assert_eq!(LexKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(LexKind::parse("nope"), None);
        assert_eq!(banned_word("全网最低价火锅", &[]).is_some(), true);
        assert_eq!(banned_word("The BEST hotpot", &[]), Some("best".into()));
        assert_eq!(
            banned_word("好吃的火锅", &["火锅".into()]),
            Some("火锅".into())
        );
        assert_eq!(banned_word("好吃的火锅", &[]), None);
        assert_eq!(near_key("火锅, 真香!"), near_key("火锅真香"));
    }
}

crate::text_enum! {
    /// Where an SEO figure comes from (docs/seo-platforms.md). Every figure the console shows
    /// carries one: a real source, the sandbox (shown "模拟数据 / Simulated"), or none (no configured
    /// source provides it: the console names the source that would, never a number).
    pub enum DataSource {
        /// Douyin's open platform (open.douyin.com) with the operator's app: the hot list.
        DouyinOpen = "douyin_open",
        /// The data vendor TikHub (api.tikhub.io) with the operator's API key: public accounts.
        Tikhub = "tikhub",
        /// The bundled sandbox: simulated figures.
        Sandbox = "sandbox",
        /// No configured source provides it.
        None = "none",
    }
}
