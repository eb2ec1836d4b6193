//! Engagement: what a comment or private message means (purchase intent, contact details,
//! spam), keyword auto-reply rules and their matching, lead states. Pure: the store keeps the rows,
//! `services::engagement` runs the jobs.

use crate::i18n::{Lang, Msg};
use crate::matrix::comment_lines;
use crate::validate::Invalid;
use serde::{Deserialize, Serialize};

crate::text_enum! {
    /// What a customer's text is after: shown as the list's "intent" filter; `Purchase` and `Contact`
    /// make a lead.
    pub enum Intent {
        None = "" | "none",
        Purchase = "purchase",
        Contact = "contact",
        Spam = "spam",
    }
}
impl Intent {
    pub fn is_lead(self) -> bool {
        matches!(self, Intent::Purchase | Intent::Contact)
    }
}

/// Words (as jieba cuts them) that ask about buying or coming by.
const PURCHASE_WORDS: &[&str] = &[
    "多少钱",
    "价格",
    "价钱",
    "报价",
    "价位",
    "怎么卖",
    "怎么买",
    "购买",
    "下单",
    "链接",
    "团购",
    "优惠",
    "地址",
    "在哪",
    "哪里",
    "位置",
    "营业",
    "预约",
    "有货",
    "想要",
    "多钱",
    "怎么去",
    "门店",
    "买",
];
/// Phrases looked for as they are (jieba may cut them apart).
const PURCHASE_PHRASES: &[&str] = &[
    "求链接",
    "多少钱",
    "在哪买",
    "哪里买",
    "怎么联系",
    "联系方式",
    "地址在哪",
    "怎么预约",
    "how much",
    "price",
    "where to buy",
    "link please",
];
const CONTACT_PHRASES: &[&str] = &[
    "加微信",
    "加我微信",
    "私信我",
    "电话多少",
    "留个电话",
    "联系方式",
    "怎么联系",
    "加v",
    "加vx",
];
const SPAM_WORDS: &[&str] = &[
    "兼职",
    "刷单",
    "日赚",
    "日结",
    "加群",
    "互粉",
    "互关",
    "代理招募",
    "免费领取",
    "点击领取",
    "贷款",
    "http://",
    "https://",
    "www.",
];
/// What comes before a WeChat id.
const WECHAT_MARKS: &[&str] = &[
    "微信号",
    "微信",
    "威信",
    "vx",
    "v信",
    "wx",
    "weixin",
    "wechat",
    "+v",
    "➕v",
];

/// What a text says, with the contact details found in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub intent: Intent,
    pub phone: String,
    pub wechat: String,
}

/// A mainland mobile number (11 digits, 1[3-9]…, blanks and dashes between digits allowed).
pub fn find_phone(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    for start in 0..chars.len() {
        if chars[start] != '1' || (start > 0 && chars[start - 1].is_ascii_digit()) {
            continue;
        }
        let mut digits = String::new();
        let mut i = start;
        while i < chars.len() && digits.len() < 11 {
            let c = chars[i];
            if c.is_ascii_digit() {
                digits.push(c);
            } else if !(c == ' ' || c == '-') || digits.is_empty() {
                break;
            }
            i += 1;
        }
        let next_is_digit = i < chars.len() && chars[i].is_ascii_digit();
        let b = digits.as_bytes();
        if digits.len() == 11 && (b'3'..=b'9').contains(&b[1]) && !next_is_digit {
            return Some(digits);
        }
    }
    None
}

/// A WeChat id after a marker ("微信：abc_123", "vx abc123456"): 6–20 characters, a letter first,
/// then letters, digits, `_` or `-`; or a phone number used as the id.
pub fn find_wechat(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    for m in WECHAT_MARKS {
        let mut from = 0;
        while let Some(pos) = lower[from..].find(m) {
            let rest = &lower[from + pos + m.len()..];
            let rest = rest.trim_start_matches(|c: char| {
                c == ':' || c == '：' || c == ' ' || c == '号' || c == '是'
            });
            let id: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            let n = id.chars().count();
            let letter_first = id.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
            if (6..=20).contains(&n) && letter_first {
                // Keep the customer's own spelling.
                let at = text.len() - rest.len();
                return Some(text[at..at + id.len()].to_string());
            }
            if let Some(p) = find_phone(&id) {
                return Some(p);
            }
            from += pos + m.len();
        }
    }
    None
}

/// Purchase intent, contact details or spam, by the intent words (jieba's words and phrases as
/// they are) and the phone / WeChat patterns. Spam (links, ads) wins over everything.
pub fn analyze(text: &str) -> Analysis {
    let lower = text.to_lowercase();
    let phone = find_phone(text).unwrap_or_default();
    let wechat = find_wechat(text).unwrap_or_default();
    let intent = if SPAM_WORDS.iter().any(|w| lower.contains(w)) {
        Intent::Spam
    } else if !phone.is_empty()
        || !wechat.is_empty()
        || CONTACT_PHRASES.iter().any(|w| lower.contains(w))
    {
        Intent::Contact
    } else if PURCHASE_PHRASES.iter().any(|w| lower.contains(w))
        || crate::seo::segment(text)
            .iter()
            .any(|w| PURCHASE_WORDS.contains(&w.as_str()))
    {
        Intent::Purchase
    } else {
        Intent::None
    };
    Analysis {
        intent,
        phone,
        wechat,
    }
}

crate::text_enum! {
    /// How a rule's keyword is compared with a comment.
    pub enum MatchMode {
        /// The whole comment (trimmed, case and end punctuation aside) is the keyword.
        Exact = "exact",
        /// The comment contains the keyword.
        Contains = "contains",
        /// Every word of the keyword (jieba) is a word of the comment (or inside one: 火锅 in 火锅店),
        /// in any order.
        Segmented = "segmented" | "jieba",
    }
}

fn fold(s: &str) -> String {
    s.trim()
        .trim_end_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// The first keyword of `keywords` that `text` matches, if any.
pub fn matching_keyword<'a>(
    mode: MatchMode,
    keywords: &'a [String],
    text: &str,
) -> Option<&'a str> {
    let t = fold(text);
    let words = if mode == MatchMode::Segmented {
        crate::seo::segment(text)
    } else {
        vec![]
    };
    keywords
        .iter()
        .find(|k| {
            let k = fold(k);
            !k.is_empty()
                && match mode {
                    MatchMode::Exact => t == k,
                    MatchMode::Contains => t.contains(&k),
                    MatchMode::Segmented => {
                        let need = crate::seo::segment(&k);
                        !need.is_empty()
                            && need
                                .iter()
                                .all(|w| words.iter().any(|x| x.contains(w.as_str())))
                    }
                }
        })
        .map(String::as_str)
}

pub const RULE_NAME_MAX: usize = 50;
pub const KEYWORD_MAX: usize = 30;
pub const KEYWORDS_MAX: usize = 20;
/// SPEC §5: up to 5 scripts, one picked at random for each reply.
pub const REPLIES_MAX: usize = 5;
pub const DAILY_CAP_MAX: i64 = 1000;
/// How long a run sending a lead's WeChat notice keeps other runs off it (`eng_notices.wx_claimed_at`):
/// longer than a send can take (the WeChat client's 10 s timeout, for the token and for the message),
/// so two runs at once send once; a sender that died is taken over after it.
pub const NOTICE_CLAIM_MS: i64 = 30_000;
pub const MIN_GAP_MAX_S: i64 = 3600;
pub const DAY_MINUTES: i64 = 1440;

/// A rule as written by the merchant.
#[derive(Debug, Clone)]
pub struct RuleInput {
    pub name: String,
    pub match_mode: String,
    pub keywords: Vec<String>,
    /// Scripts, one per entry (or one per line inside an entry).
    pub replies: Vec<String>,
    pub start_minute: i64,
    pub end_minute: i64,
    pub daily_cap: i64,
    pub min_gap_s: i64,
}

/// A checked rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub name: String,
    pub mode: MatchMode,
    pub keywords: Vec<String>,
    pub replies: Vec<String>,
}

fn bad<T>(field: &'static str, msg: Msg, args: Vec<(&'static str, String)>) -> Result<T, Invalid> {
    Err(Invalid { field, msg, args })
}

fn range(field: &'static str, v: i64, min: i64, max: i64) -> Result<(), Invalid> {
    if (min..=max).contains(&v) {
        Ok(())
    } else {
        bad(
            field,
            Msg::OutOfRange,
            vec![("min", min.to_string()), ("max", max.to_string())],
        )
    }
}

/// SPEC §5 comment-script rules for the replies, keywords non-empty (1–20, each ≤ 30 characters),
/// hours within a day, cap 1–1000 a day, gap 0–3600 s.
pub fn check_rule(r: &RuleInput) -> Result<Rule, Invalid> {
    let name = r.name.trim().to_string();
    if name.is_empty() {
        return bad("name", Msg::Required, vec![]);
    }
    if name.chars().count() > RULE_NAME_MAX {
        return bad(
            "name",
            Msg::TooLong,
            vec![("max", RULE_NAME_MAX.to_string())],
        );
    }
    let Some(mode) = MatchMode::parse(r.match_mode.trim()) else {
        return bad(
            "match_mode",
            Msg::InvalidValue,
            vec![("reason", "exact | contains | segmented".into())],
        );
    };
    let mut keywords: Vec<String> = vec![];
    for k in &r.keywords {
        let k = k.trim().to_string();
        if k.is_empty() {
            return bad("keywords", Msg::Required, vec![]);
        }
        if k.chars().count() > KEYWORD_MAX {
            return bad(
                "keywords",
                Msg::TooLong,
                vec![("max", KEYWORD_MAX.to_string())],
            );
        }
        if !keywords.contains(&k) {
            keywords.push(k);
        }
    }
    if keywords.is_empty() {
        return bad("keywords", Msg::Required, vec![]);
    }
    if keywords.len() > KEYWORDS_MAX {
        return bad(
            "keywords",
            Msg::OutOfRange,
            vec![("min", "1".into()), ("max", KEYWORDS_MAX.to_string())],
        );
    }
    let replies = comment_lines("replies", &r.replies.join("\n"))?;
    if replies.is_empty() {
        return bad("replies", Msg::Required, vec![]);
    }
    if replies.len() > REPLIES_MAX {
        return bad(
            "replies",
            Msg::OutOfRange,
            vec![("min", "1".into()), ("max", REPLIES_MAX.to_string())],
        );
    }
    range("start_minute", r.start_minute, 0, DAY_MINUTES)?;
    range("end_minute", r.end_minute, 0, DAY_MINUTES)?;
    range("daily_cap", r.daily_cap, 1, DAILY_CAP_MAX)?;
    range("min_gap_s", r.min_gap_s, 0, MIN_GAP_MAX_S)?;
    Ok(Rule {
        name,
        mode,
        keywords,
        replies,
    })
}

/// A reply written by hand: the same comment-script rules (one line, ≤ 30 characters, no contact
/// details or links).
pub fn check_reply(field: &'static str, text: &str) -> Result<String, Invalid> {
    if text.trim().is_empty() {
        return bad(field, Msg::Required, vec![]);
    }
    if text.trim().contains('\n') {
        return bad(
            field,
            Msg::InvalidValue,
            vec![("reason", "one line".into())],
        );
    }
    let mut lines = comment_lines(field, text)?;
    Ok(lines.remove(0))
}

/// The built-in writer's answers to a comment, by what it is after (each within the comment-reply
/// rules: one line, ≤ 30 characters, no contact details or links).
pub fn stock_replies(intent: Intent, lang: crate::i18n::Lang) -> Vec<String> {
    use crate::i18n::Lang;
    let lines: &[&str] = match (intent, lang) {
        (Intent::Purchase, Lang::Zh) => &[
            "感谢喜欢！价格和购买方式已私信您～",
            "谢谢关注，详情请看私信哦",
            "欢迎到店体验，期待您的光临",
        ],
        (Intent::Contact, Lang::Zh) => &[
            "收到，我们会尽快私信联系您～",
            "谢谢留言，客服稍后私信您",
            "已记下，请留意私信消息哦",
        ],
        (_, Lang::Zh) => &[
            "谢谢支持，我们会继续努力！",
            "感谢关注，欢迎常来看看～",
            "谢谢您的留言，祝您生活愉快！",
        ],
        (Intent::Purchase, Lang::En) => &[
            "Thanks! Price is in your DMs",
            "Thanks for asking, see DMs",
            "Come and try it, DM us anytime",
        ],
        (Intent::Contact, Lang::En) => &[
            "Got it, we will DM you soon",
            "Thanks, our team will DM you",
            "Noted, watch your DMs please",
        ],
        (_, Lang::En) => &[
            "Thanks for the support!",
            "Thanks for watching!",
            "Thank you for your comment!",
        ],
    };
    lines.iter().map(|l| l.to_string()).collect()
}

/// Is China minute-of-day `minute` inside the active hours `[start, end)`? `start > end` runs over
/// midnight; `start == end` means all day.
pub fn in_hours(start: i64, end: i64, minute: i64) -> bool {
    if start == end || (start == 0 && end >= DAY_MINUTES) {
        true
    } else if start < end {
        (start..end).contains(&minute)
    } else {
        minute >= start || minute < end
    }
}

/// The China minute of the day of a unix-ms instant.
pub fn minute_of_day(ms: i64) -> i64 {
    (ms + crate::matrix::TZ_OFFSET_MS).rem_euclid(86_400_000) / 60_000
}

/// Why an auto-reply was not sent now although a rule matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Outside the rule's active hours: try again later.
    OffHours,
    /// The account's replies today reached the rule's cap: try again tomorrow.
    DailyCap,
    /// The account replied less than the rule's gap ago: try again after it.
    Gap { wait_ms: i64 },
}

/// May the account reply now under this rule? `sent_today` and `last_at` are the account's
/// automatic replies (platform clock).
pub fn may_reply(
    start_minute: i64,
    end_minute: i64,
    daily_cap: i64,
    min_gap_s: i64,
    sent_today: i64,
    last_at: Option<i64>,
    now: i64,
) -> Result<(), Hold> {
    if !in_hours(start_minute, end_minute, minute_of_day(now)) {
        return Err(Hold::OffHours);
    }
    if sent_today >= daily_cap {
        return Err(Hold::DailyCap);
    }
    if let Some(last) = last_at {
        let next = last + min_gap_s * 1000;
        if now < next {
            return Err(Hold::Gap {
                wait_ms: next - now,
            });
        }
    }
    Ok(())
}

/// One of the rule's scripts, picked by `seed` (random in the job, fixed in tests).
pub fn pick_reply(replies: &[String], seed: u64) -> Option<&String> {
    if replies.is_empty() {
        None
    } else {
        replies.get((seed % replies.len() as u64) as usize)
    }
}

crate::text_enum! {
    /// A QR code shown to bind a staff member's WeChat: waiting for the scan, bound by one, or run out.
    pub enum WxBindState {
        Pending = "pending",
        Bound = "bound",
        Expired = "expired",
    }
}

crate::text_enum! {
    /// A lead's follow-up: new -> contacted -> converted | invalid (a new lead may also be closed at
    /// once as converted or invalid).
    pub enum LeadState {
        New = "new",
        Contacted = "contacted",
        Converted = "converted",
        Invalid = "invalid",
    }
}
impl LeadState {
    pub fn can_become(self, to: LeadState) -> bool {
        use LeadState::*;
        matches!(
            (self, to),
            (New, Contacted)
                | (New, Converted)
                | (New, Invalid)
                | (Contacted, Converted)
                | (Contacted, Invalid)
        )
    }
    /// The states a lead in this state may move to, in declaration order (the console's move menu):
    /// the same rule as [`LeadState::can_become`], which the server enforces.
    pub fn next_states(self) -> Vec<LeadState> {
        LeadState::ALL
            .into_iter()
            .filter(|to| self.can_become(*to))
            .collect()
    }
    /// The states a move to `to` may start from (the store's conditional update).
    pub fn sources(to: LeadState) -> Vec<&'static str> {
        LeadState::ALL
            .into_iter()
            .filter(|f| f.can_become(to))
            .map(LeadState::as_str)
            .collect()
    }
}

impl LeadState {
    /// The state in words, as the lead list and its export show it.
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (LeadState::New, Lang::Zh) => "新线索",
            (LeadState::Contacted, Lang::Zh) => "已联系",
            (LeadState::Converted, Lang::Zh) => "已成交",
            (LeadState::Invalid, Lang::Zh) => "无效",
            (s, Lang::En) => s.as_str(),
        }
    }
}

impl Intent {
    /// The intent in words (none: empty).
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Intent::None, _) => "",
            (Intent::Purchase, Lang::Zh) => "购买意向",
            (Intent::Purchase, Lang::En) => "purchase intent",
            (Intent::Contact, Lang::Zh) => "留联系方式",
            (Intent::Contact, Lang::En) => "contact details",
            (Intent::Spam, Lang::Zh) => "垃圾信息",
            (Intent::Spam, Lang::En) => "spam",
        }
    }
}

/// A stored intent code in words (unknown or none: empty).
pub fn intent_name(code: &str, lang: Lang) -> &'static str {
    Intent::parse(code).map_or("", |i| i.name(lang))
}

crate::text_enum! {
    /// A comment's visibility in the console.
    pub enum CommentStatus {
        Visible = "visible",
        Hidden = "hidden",
        Spam = "spam",
    }
}

pub const NOTE_MAX: usize = 500;

/// A follow-up note on a lead (`eng_leads.notes` holds them as a JSON array, oldest first). A field
/// missing from an older row reads as its default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct LeadNote {
    /// When it was written, unix ms.
    #[serde(default)]
    #[schema(required = true)]
    pub at: i64,
    /// Who wrote it (their nickname, else their username).
    #[serde(default)]
    #[schema(required = true)]
    pub by: String,
    #[serde(default)]
    #[schema(required = true)]
    pub text: String,
}

/// A lead's notes, oldest first, as the `notes` column stores them (a JSON array of [`LeadNote`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeadNotes(pub Vec<LeadNote>);

/// The notes of a stored column: text that is no list reads as none, and an item that is no note
/// as a blank one (as rows were always read).
impl From<String> for LeadNotes {
    fn from(stored: String) -> LeadNotes {
        let items: Vec<serde_json::Value> = serde_json::from_str(&stored).unwrap_or_default();
        LeadNotes(
            items
                .into_iter()
                .map(|v| serde_json::from_value(v).unwrap_or_default())
                .collect(),
        )
    }
}

impl LeadNotes {
    /// The column's text (as `TaskConfig::to_text` for a task's config).
    pub fn to_text(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_else(|_| "[]".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intent_and_contacts() {
        assert_eq!(analyze("这个多少钱？").intent, Intent::Purchase);
        assert_eq!(analyze("地址在哪").intent, Intent::Purchase);
        assert_eq!(analyze("求链接").intent, Intent::Purchase);
        assert_eq!(analyze("太好看了！").intent, Intent::None);
        assert_eq!(analyze("👍👍👍").intent, Intent::None);
        let a = analyze("我电话 138-1234-5678 打给我");
        assert_eq!(
            (a.intent, a.phone.as_str()),
            (Intent::Contact, "13812345678")
        );
        let w = analyze("加我微信：Shop_2024abc 详聊");
        assert_eq!(
            (w.intent, w.wechat.as_str()),
            (Intent::Contact, "Shop_2024abc")
        );
        assert_eq!(analyze("vx 13912345678").wechat, "13912345678");
        assert_eq!(analyze("兼职日赚300 加群").intent, Intent::Spam);
        assert_eq!(analyze("看这里 https://x.cn").intent, Intent::Spam);
        // Not a phone: too long, or not 1[3-9].
        assert_eq!(find_phone("123456789012"), None);
        assert_eq!(find_phone("12012345678"), None);
        assert_eq!(find_wechat("微信好看"), None);
    }

    #[test]
    fn keyword_matching() {
        let k = vec!["多少钱".to_string(), "价格".to_string()];
        assert_eq!(
            matching_keyword(MatchMode::Contains, &k, "这个多少钱呀"),
            Some("多少钱")
        );
        assert_eq!(
            matching_keyword(MatchMode::Exact, &k, "多少钱？"),
            Some("多少钱")
        );
        assert_eq!(matching_keyword(MatchMode::Exact, &k, "这个多少钱"), None);
        let s = vec!["火锅 地址".to_string()];
        assert_eq!(
            matching_keyword(MatchMode::Segmented, &s, "请问这家火锅店的地址在哪里"),
            Some("火锅 地址")
        );
        assert_eq!(
            matching_keyword(MatchMode::Segmented, &s, "火锅真好吃"),
            None
        );
        assert_eq!(
            matching_keyword(MatchMode::Contains, &[String::new()], "x"),
            None
        );
    }

    fn input() -> RuleInput {
        RuleInput {
            name: "问价".into(),
            match_mode: "contains".into(),
            keywords: vec!["多少钱".into()],
            replies: vec!["您好，价格已私信您".into(), "感谢关注～".into()],
            start_minute: 0,
            end_minute: 1440,
            daily_cap: 50,
            min_gap_s: 30,
        }
    }

    #[test]
    fn rules_are_checked() {
        assert!(check_rule(&input()).is_ok());
        let field = |r: RuleInput| check_rule(&r).unwrap_err().field;
        assert_eq!(
            field(RuleInput {
                keywords: vec![" ".into()],
                ..input()
            }),
            "keywords"
        );
        assert_eq!(
            field(RuleInput {
                keywords: vec![],
                ..input()
            }),
            "keywords"
        );
        assert_eq!(
            field(RuleInput {
                replies: vec!["一".repeat(31)],
                ..input()
            }),
            "replies"
        );
        assert_eq!(
            field(RuleInput {
                replies: vec!["加微信 abc".into()],
                ..input()
            }),
            "replies"
        );
        assert_eq!(
            field(RuleInput {
                replies: vec!["看 www.x.com".into()],
                ..input()
            }),
            "replies"
        );
        assert_eq!(
            field(RuleInput {
                replies: vec!["a".into(); 6],
                ..input()
            }),
            "replies"
        );
        assert_eq!(
            field(RuleInput {
                match_mode: "regex".into(),
                ..input()
            }),
            "match_mode"
        );
        assert_eq!(
            field(RuleInput {
                daily_cap: 0,
                ..input()
            }),
            "daily_cap"
        );
        assert_eq!(
            field(RuleInput {
                min_gap_s: -1,
                ..input()
            }),
            "min_gap_s"
        );
        assert_eq!(
            field(RuleInput {
                end_minute: 1441,
                ..input()
            }),
            "end_minute"
        );
        assert_eq!(check_reply("text", "好的").unwrap(), "好的");
        for intent in [
            Intent::None,
            Intent::Purchase,
            Intent::Contact,
            Intent::Spam,
        ] {
            for lang in [crate::i18n::Lang::Zh, crate::i18n::Lang::En] {
                for l in stock_replies(intent, lang) {
                    assert_eq!(check_reply("text", &l).unwrap(), l, "{intent:?} {lang:?}");
                    // Nothing the copy precheck flags on any platform.
                    assert!(crate::compliance::check(&l, &[]).is_empty(), "{l}");
                }
            }
        }
        assert_eq!(check_reply("text", "").unwrap_err().field, "text");
        assert_eq!(
            check_reply("text", "电话 13812345678").unwrap_err().msg,
            Msg::CommentContact
        );
    }

    #[test]
    fn hours_cap_gap() {
        assert!(in_hours(0, 1440, 5));
        assert!(in_hours(540, 1080, 600) && !in_hours(540, 1080, 1080));
        assert!(in_hours(1320, 120, 1400) && in_hours(1320, 120, 60) && !in_hours(1320, 120, 600));
        // 2026-01-01 02:00 China = 2025-12-31 18:00 UTC.
        let t = 1_767_204_000_000;
        assert_eq!(minute_of_day(t), 120);
        assert_eq!(may_reply(540, 1080, 10, 0, 0, None, t), Err(Hold::OffHours));
        assert_eq!(may_reply(0, 1440, 10, 0, 10, None, t), Err(Hold::DailyCap));
        assert_eq!(
            may_reply(0, 1440, 10, 60, 1, Some(t - 20_000), t),
            Err(Hold::Gap { wait_ms: 40_000 })
        );
        assert_eq!(may_reply(0, 1440, 10, 60, 1, Some(t - 60_000), t), Ok(()));
    }

    #[test]
    fn lead_moves() {
        use LeadState::*;
        assert!(New.can_become(Contacted) && Contacted.can_become(Converted));
        assert!(!Converted.can_become(New) && !Invalid.can_become(Contacted));
        assert!(!Contacted.can_become(New) && !New.can_become(New));
        assert_eq!(LeadState::sources(Contacted), vec!["new"]);
        assert_eq!(LeadState::sources(Invalid), vec!["new", "contacted"]);
    }

    #[test]
    fn next_states_are_the_moves_can_become_allows() {
        use LeadState::*;
        for from in LeadState::ALL {
            let next = from.next_states();
            for to in LeadState::ALL {
                assert_eq!(next.contains(&to), from.can_become(to), "{from} -> {to}");
            }
            // declaration order, each once
            let mut sorted = next.clone();
            sorted.sort_by_key(|s| LeadState::ALL.iter().position(|a| a == s));
            sorted.dedup();
            assert_eq!(next, sorted, "{from}");
        }
        // what the console's move menu offered before it read the server's list
        assert_eq!(New.next_states(), vec![Contacted, Converted, Invalid]);
        assert_eq!(Contacted.next_states(), vec![Converted, Invalid]);
        assert!(Converted.next_states().is_empty() && Invalid.next_states().is_empty());
    }

    #[test]
    fn lead_notes_read_old_rows_and_write_the_same_shape() {
        let n = LeadNote {
            at: 1_767_204_000_000,
            by: "小王".into(),
            text: "已电话联系".into(),
        };
        let column = LeadNotes(vec![n.clone()]).to_text();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&column).unwrap(),
            serde_json::json!([{"at": 1_767_204_000_000_i64, "by": "小王", "text": "已电话联系"}])
        );
        assert_eq!(LeadNotes::from(column), LeadNotes(vec![n]));
        // rows of before: an empty column, a missing field, a stray value, text that is no list
        for none in ["", "{}", "[]", "null"] {
            assert!(LeadNotes::from(none.to_string()).0.is_empty(), "{none}");
        }
        let old =
            r#"[{"at": 5, "text": "x"}, 3, {"at": 1, "by": "b", "text": "t", "extra": true}]"#;
        assert_eq!(
            LeadNotes::from(old.to_string()).0,
            vec![
                LeadNote {
                    at: 5,
                    by: String::new(),
                    text: "x".into()
                },
                LeadNote::default(),
                LeadNote {
                    at: 1,
                    by: "b".into(),
                    text: "t".into()
                },
            ]
        );
    }
}
