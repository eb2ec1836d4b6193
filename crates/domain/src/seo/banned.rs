//! Words the advertising law forbids in ads (absolute claims, guarantees), in both languages.

/// Matched case-insensitively as substrings, in titles of either language: a false drop only costs one
/// candidate, a missed claim costs the merchant a fine.
pub const BANNED_WORDS: &[&str] = &[
    // zh: superlatives and "first/only" claims (广告法第九条), guarantees, medical claims.
    "最",
    "第一",
    "国家级",
    "世界级",
    "顶级",
    "极品",
    "首个",
    "首选",
    "首家",
    "唯一",
    "全网最低",
    "绝对",
    "万能",
    "独一无二",
    "史无前例",
    "销量冠军",
    "遥遥领先",
    "王牌",
    "永久",
    "100%",
    "百分百",
    "根治",
    "特效",
    "祖传",
    "秘方",
    "无敌",
    "巅峰",
    "至尊",
    // en
    "best",
    "no.1",
    "no. 1",
    "#1",
    "number one",
    "cheapest",
    "guarantee",
    "world-class",
    "world class",
    "ultimate",
    "lowest price",
    "top-rated",
    "finest",
    "unbeatable",
    "miracle",
    "risk-free",
    "perfect",
];

/// The built-in list plus a merchant's own, lowercased once per request.
pub(crate) struct Banned(Vec<String>);

impl Banned {
    pub(crate) fn new(merchant: &[String]) -> Self {
        let own = merchant
            .iter()
            .map(|w| w.trim().to_lowercase())
            .filter(|w| !w.is_empty());
        Banned(
            BANNED_WORDS
                .iter()
                .map(|w| w.to_string())
                .chain(own)
                .collect(),
        )
    }

    /// The first banned word the text contains.
    pub(crate) fn first_hit(&self, text: &str) -> Option<&str> {
        let lower = text.to_lowercase();
        self.0
            .iter()
            .find(|w| lower.contains(w.as_str()))
            .map(String::as_str)
    }

    pub(crate) fn hits(&self, text: &str) -> bool {
        // The list is lowercase; skip the copy when nothing in the text has a case to change.
        if text.chars().any(char::is_uppercase) {
            let lower = text.to_lowercase();
            self.0.iter().any(|w| lower.contains(w.as_str()))
        } else {
            self.0.iter().any(|w| text.contains(w.as_str()))
        }
    }
}
