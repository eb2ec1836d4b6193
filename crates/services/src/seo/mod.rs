//! Area "seo": titles (the built-in engine `domain::seo` or an OpenAI-compatible provider), the title
//! library with categories and keywords, the merchant's lexicons, keyword search and mining through the
//! platforms' adapters, and benchmark accounts read on a schedule. Contract: docs/api-seo.md.

pub mod benchmark;
pub mod library;
pub mod search;
pub mod titles;
