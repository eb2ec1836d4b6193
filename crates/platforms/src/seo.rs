//! What the SEO pages read from a platform: the hot-search list, related search words
//! of a seed with heat and trend (long-tail expansions included), and benchmark (competitor)
//! accounts' public profiles and videos. The types are the product's; the wire formats stay in the
//! adapters. Mapping to the real hosts and what is sandbox-only: docs/seo-platforms.md.

use crate::http::{num, text};
use crate::{ErrorKind, PResult, Platform, PlatformError, error};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One entry of the platform's hot-search list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HotWord {
    pub word: String,
    /// The platform's heat value (DY `hot_level`).
    pub hot_level: i64,
    /// 1 = top of the list.
    pub rank: u32,
    /// The badge next to the word: "新", "荐", "热", "爆", "首发", or "" for none.
    pub label: String,
}

pub use domain::seo::SearchWordKind;

/// A search word related to a seed, with its heat today and over the last 7 days.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchWord {
    pub word: String,
    pub kind: SearchWordKind,
    /// Today's heat (= the last entry of `trend`).
    pub heat: i64,
    /// Daily heat of the last 7 China days, oldest first, today last.
    pub trend: Vec<i64>,
    /// (today − yesterday) / yesterday: > 0 rising, < 0 falling.
    pub change_ratio: f64,
}

/// A public account's profile (a benchmark / competitor account).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublicAccount {
    /// The platform's public id (DY: the `sec_uid` of the profile URL).
    pub account_id: String,
    pub nickname: String,
    pub avatar: String,
    pub signature: String,
    pub followers: i64,
    pub total_likes: i64,
    pub works_count: i64,
    /// The profile link.
    pub share_url: String,
}

/// One public video of an account, with its statistics now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublicWork {
    pub item_id: String,
    pub title: String,
    /// Unix ms (platform clock).
    pub create_time: i64,
    pub plays: i64,
    pub likes: i64,
    pub comments: i64,
    pub shares: i64,
    pub cover: String,
    pub share_url: String,
}

/// Longest seed word accepted (the platforms' search boxes take about this much).
pub const MAX_KEYWORD_CHARS: usize = 50;

/// The seed, trimmed; refused before any call when empty or too long.
pub(crate) fn keyword(platform: Platform, kw: &str) -> PResult<String> {
    let kw = kw.trim();
    if kw.is_empty() {
        return Err(error::new(
            platform,
            ErrorKind::Permanent,
            "empty_keyword",
            "请输入关键词",
            "Enter a keyword",
        ));
    }
    if kw.chars().count() > MAX_KEYWORD_CHARS {
        return Err(error::new(
            platform,
            ErrorKind::Permanent,
            "keyword_too_long",
            format!("关键词过长（最多 {MAX_KEYWORD_CHARS} 个字）"),
            format!("The keyword is too long (at most {MAX_KEYWORD_CHARS} characters)"),
        ));
    }
    Ok(kw.to_string())
}

/// What the person pasted: a share text ("… https://v.douyin.com/iRNBho6u/ 复制此链接…"), a bare
/// link or an account id. Returns `(link, id)`, exactly one non-empty; Err when nothing usable.
pub(crate) fn account_ref(platform: Platform, input: &str) -> PResult<(String, String)> {
    let input = input.trim();
    if let Some(i) = input.find("https://").or_else(|| input.find("http://")) {
        let link: String = input[i..]
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, '，' | '。' | '"' | '<' | '>'))
            .collect();
        return Ok((link, String::new()));
    }
    let id_like = !input.is_empty()
        && input.len() <= 128
        && input
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if id_like {
        Ok((String::new(), input.to_string()))
    } else {
        Err(unresolvable(platform, input))
    }
}

fn unresolvable(platform: Platform, input: &str) -> PlatformError {
    let shown: String = input.chars().take(60).collect();
    error::new(
        platform,
        ErrorKind::Permanent,
        "account_ref_invalid",
        format!("无法识别的账号链接或 ID：{shown}"),
        format!("Not an account link or id: {shown}"),
    )
}

/// One search word as the data calls answer it (`{word, kind, heat, trend[], change_ratio}`,
/// numbers possibly as strings).
pub(crate) fn search_word(v: &Value) -> SearchWord {
    let kind = match text(v, "kind").as_str() {
        "seed" => SearchWordKind::Seed,
        "related" => SearchWordKind::Related,
        _ => SearchWordKind::LongTail,
    };
    let trend: Vec<i64> = v
        .get("trend")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|x| {
                    x.as_i64()
                        .or_else(|| x.as_f64().map(|f| f as i64))
                        .or_else(|| x.as_str()?.trim().parse().ok())
                        .unwrap_or(0)
                })
                .collect()
        })
        .unwrap_or_default();
    SearchWord {
        word: text(v, "word"),
        kind,
        heat: num(v, "heat"),
        trend,
        change_ratio: v
            .get("change_ratio")
            .and_then(|r| r.as_f64().or_else(|| r.as_str()?.parse().ok()))
            .unwrap_or(0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_trimmed_and_checked() {
        assert_eq!(keyword(Platform::Dy, "  火锅 ").unwrap(), "火锅");
        assert_eq!(
            keyword(Platform::Dy, "   ").unwrap_err().code,
            "empty_keyword"
        );
        let long = "火".repeat(MAX_KEYWORD_CHARS + 1);
        assert_eq!(
            keyword(Platform::Dy, &long).unwrap_err().kind,
            ErrorKind::Permanent
        );
    }

    #[test]
    fn links_are_found_in_share_texts() {
        let t = "7.43 复制打开抖音，看看【小美的作品】 https://v.douyin.com/iRNBho6u/ 8@5.com :2pm";
        assert_eq!(
            account_ref(Platform::Dy, t).unwrap(),
            ("https://v.douyin.com/iRNBho6u/".to_string(), String::new())
        );
        assert_eq!(
            account_ref(Platform::Dy, " MS4wLjABAAAAab12 ").unwrap(),
            (String::new(), "MS4wLjABAAAAab12".to_string())
        );
        assert!(account_ref(Platform::Dy, "").is_err());
        assert_eq!(
            account_ref(Platform::Dy, "不是链接").unwrap_err().code,
            "account_ref_invalid"
        );
    }
}
