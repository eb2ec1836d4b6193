//! The offline title engine of the SEO area: keywords from a merchant's copy, titles from a
//! library of patterns, filtered for the advertising law. Pure code: no I/O, no clock, no model.
//!
//! - [`extract_keywords`]`(text, top_k, &Lexicon) -> Vec<Keyword>`: TF-IDF over jieba's segmentation for
//!   Chinese (plus a retail dictionary and stop words), word frequency for English. The merchant's
//!   [`Lexicon`] words found in the text come first.
//! - [`generate`]`(&TitleRequest, seed) -> Result<Vec<Title>, SeoError>`: fills [`patterns`] with the
//!   keywords, keeps titles within `max_chars` characters (see [`RELEASE_TITLE_MAX`], [`CLIP_TITLE_MAX`]),
//!   drops any the copy precheck (`crate::compliance`) flags or with a merchant's banned word, removes near duplicates and
//!   answers them best first (keyword coverage). The same request and seed give the same titles.
//! - [`topics`]`(keywords, n, seed)`: `#topic` suggestions for a release task.
//! - [`warm_up`]: loads the dictionaries (~130 ms) ahead of the first request.
//!
//! Patterns live in `patterns_zh.txt` / `patterns_en.txt` beside this file: one per line under its
//! category's `[code]`, with `{product}`, `{brand}`, `{region}`, `{point}`, `{point2}`, `{num}`, `{price}`.

mod banned;
mod generate;
mod keywords;
pub mod limits;
pub mod patterns;
#[cfg(test)]
mod tests;

pub use generate::{TOPIC_MAX, Title, TitleRequest, generate, screen_topics, topics};
pub use keywords::{extract_keywords, segment, warm_up};
pub use limits::{DataSource, LexKind, SearchWordKind, banned_word, near_key};
pub use patterns::Category;

/// A title in a release task (SPEC: at most 50 characters).
/// A data vendor's API key, in bytes (System → Platform apps; TikHub's are far shorter).
pub const VENDOR_KEY_MAX: usize = 512;
pub const RELEASE_TITLE_MAX: usize = crate::matrix::TITLE_MAX;
/// A title burned into a clip (SPEC: at most 20 characters).
pub const CLIP_TITLE_MAX: usize = crate::clip::MAX_TITLE_CHARS;

/// A merchant's own words. Brands and products rank high in extraction and fill `{brand}` /
/// `{product}`; regions fill `{region}`; long-tail words count as selling points; banned words drop any
/// keyword or title containing them; stop words are never keywords.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Lexicon {
    pub brands: Vec<String>,
    pub products: Vec<String>,
    pub regions: Vec<String>,
    pub long_tail: Vec<String>,
    pub banned: Vec<String>,
    pub stop_words: Vec<String>,
}

/// A keyword or selling point with its weight (extraction answers weights in 0..=1, the best 1).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Keyword {
    pub word: String,
    pub weight: f64,
}

impl Keyword {
    /// A keyword the merchant typed: full weight.
    pub fn plain(word: impl Into<String>) -> Self {
        Keyword {
            word: word.into(),
            weight: 1.0,
        }
    }
}

/// Why no titles came out; the caller maps each to a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeoError {
    /// No usable keyword or product (all blank, or all banned).
    #[error("no keywords or products to build titles from")]
    EmptyKeywords,
    /// A category code that is not in [`Category::ALL`].
    #[error("unknown title category {0}")]
    UnknownCategory(String),
    /// No pattern of the chosen categories fits the limit with these words.
    #[error("no title fits in {0} characters")]
    NothingFits(usize),
}
