//! Keyword extraction: jieba + TF-IDF for Chinese, word frequency for English, and the merchant's
//! lexicon on top of both.

use super::banned::Banned;
use super::{Keyword, Lexicon};
use jieba_rs::{Jieba, KeywordExtract, KeywordExtractConfig, TfIdf};
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// Retail and marketing words jieba's dictionary lacks or splits (下单立享 -> 下单/立享), with a tag
/// the POS filter keeps.
const DOMAIN_WORDS: &[(&str, &str)] = &[
    ("下单立享", "v"),
    ("到店", "v"),
    ("到店核销", "v"),
    ("团购", "vn"),
    ("团购券", "n"),
    ("团购价", "n"),
    ("免费续杯", "l"),
    ("新品", "n"),
    ("新品上市", "l"),
    ("限时", "vn"),
    ("限时特惠", "l"),
    ("特价", "n"),
    ("套餐", "n"),
    ("双人套餐", "n"),
    ("优惠券", "n"),
    ("代金券", "n"),
    ("满减", "vn"),
    ("包邮", "vn"),
    ("秒杀", "vn"),
    ("折扣", "n"),
    ("爆款", "n"),
    ("回头客", "n"),
    ("性价比", "n"),
    ("探店", "vn"),
    ("打卡", "vn"),
    ("网红", "n"),
    ("人气", "n"),
    ("必吃", "v"),
    ("必买", "v"),
    ("种草", "vn"),
    ("好物", "n"),
    ("补水", "vn"),
    ("保湿", "vn"),
    ("锁水", "vn"),
    ("美白", "vn"),
    ("精华液", "n"),
    ("面膜", "n"),
    ("锅底", "n"),
    ("毛肚", "n"),
    ("鲜毛肚", "n"),
    ("牛油锅底", "n"),
    ("自助", "vn"),
    ("堂食", "vn"),
    ("外卖", "n"),
    ("霸王餐", "n"),
    ("会员", "n"),
    ("积分", "n"),
    ("新店开业", "l"),
    ("周年庆", "n"),
    ("福利", "n"),
    ("直播间", "n"),
    ("同款", "n"),
    ("平价", "a"),
    ("实惠", "a"),
    ("口碑", "n"),
    ("招牌", "n"),
    ("现切", "v"),
    ("现做", "v"),
    ("手工", "n"),
    ("正品", "n"),
    ("售后", "vn"),
    ("无理由退换", "l"),
    ("零添加", "l"),
    ("敏感肌", "n"),
    ("油皮", "n"),
    ("干皮", "n"),
    ("成分党", "n"),
    ("烟酰胺", "n"),
    ("玻尿酸", "n"),
    ("透明质酸", "n"),
    ("修护", "vn"),
];

/// Words that pass the POS filter but say nothing about a product. The first are calls to action from
/// the dictionary above: segmented whole, but no selling point ("被下单立享圈粉").
const STOP_ZH: &[&str] = &[
    "下单立享",
    "到店",
    "到店核销",
    "限时",
    "必吃",
    "必买",
    "我们",
    "你们",
    "他们",
    "大家",
    "可以",
    "就是",
    "进行",
    "没有",
    "觉得",
    "知道",
    "还有",
    "时候",
    "东西",
    "今天",
    "现在",
    "一下",
    "一起",
    "地方",
    "感觉",
    "真的",
    "需要",
    "作为",
    "成为",
    "包括",
    "通过",
    "问题",
    "情况",
    "方面",
    "部分",
    "时间",
    "开始",
    "希望",
    "出来",
    "起来",
    "一定",
    "不能",
    "喜欢",
    "欢迎",
    "推出",
    "活动",
    "使用",
    "每天",
    "已经",
    "还是",
    "这样",
    "那么",
    "所以",
    "因为",
    "但是",
    "而且",
    "如果",
    "只要",
    "一个",
    "这个",
    "那个",
    "什么",
    "怎么",
    "可能",
    "应该",
    "所有",
    "看看",
    "来说",
    "表示",
    "发现",
    "带来",
    "提供",
    "选择",
    "不会",
    "不用",
    "告诉",
    "小伙伴",
    "朋友们",
];

/// English function words and filler.
const STOP_EN: &[&str] = &[
    "the",
    "and",
    "for",
    "are",
    "but",
    "not",
    "you",
    "your",
    "yours",
    "all",
    "any",
    "can",
    "had",
    "her",
    "was",
    "one",
    "our",
    "ours",
    "out",
    "day",
    "get",
    "has",
    "him",
    "his",
    "how",
    "man",
    "new",
    "now",
    "old",
    "see",
    "two",
    "way",
    "who",
    "did",
    "its",
    "let",
    "put",
    "say",
    "she",
    "too",
    "use",
    "that",
    "with",
    "have",
    "this",
    "will",
    "from",
    "they",
    "them",
    "then",
    "than",
    "been",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "would",
    "there",
    "their",
    "these",
    "those",
    "about",
    "into",
    "more",
    "most",
    "some",
    "such",
    "only",
    "also",
    "just",
    "very",
    "much",
    "many",
    "each",
    "every",
    "other",
    "over",
    "under",
    "again",
    "here",
    "why",
    "because",
    "could",
    "should",
    "does",
    "doing",
    "done",
    "being",
    "both",
    "few",
    "own",
    "same",
    "so",
    "off",
    "once",
    "after",
    "before",
    "above",
    "below",
    "between",
    "through",
    "during",
    "until",
    "against",
    "make",
    "makes",
    "made",
    "like",
    "come",
    "comes",
    "came",
    "want",
    "need",
    "know",
    "take",
    "give",
    "got",
    "going",
    "really",
    "well",
    "even",
    "still",
    "yet",
    "ever",
    "never",
    "always",
    "today",
    "meet",
    "order",
    "buy",
    "try",
    "shop",
    "find",
    "discover",
    "enjoy",
    "introducing",
    "lasts",
    "seconds",
    "minutes",
    "we're",
    "you're",
    "it's",
    "don't",
    "can't",
    "won't",
    "i'm",
    "let's",
    "there's",
    "that's",
    "what's",
    "us",
    "me",
    "my",
];

/// The parts of speech worth a title: nouns (incl. names, places, brands), verbs, adjectives, idioms,
/// English words inside Chinese text.
const ALLOWED_POS: &[&str] = &[
    "n", "nr", "nrt", "ns", "nt", "nz", "ng", "vn", "v", "a", "an", "ad", "i", "l", "eng",
];

struct Zh {
    jieba: Jieba,
    tfidf: TfIdf,
    pos: Vec<String>,
}

static ZH: LazyLock<Zh> = LazyLock::new(|| {
    let mut jieba = Jieba::new();
    for (word, tag) in DOMAIN_WORDS {
        jieba.add_word(word, None, Some(tag));
    }
    let mut tfidf = TfIdf::default();
    let config = STOP_ZH
        .iter()
        .fold(KeywordExtractConfig::builder(), |b, w| b.add_stop_word(*w))
        .build();
    *tfidf.config_mut() = config;
    let pos = ALLOWED_POS.iter().map(|p| p.to_string()).collect();
    Zh { jieba, tfidf, pos }
});

/// Loads jieba's dictionaries (~130 ms) so the first request does not wait for them.
pub fn warm_up() {
    LazyLock::force(&ZH);
}

/// The `top_k` keywords of `text`, best first, weights in 0..=1. Text with any Chinese character goes
/// through jieba; other text through a plain word tokenizer. Lexicon brands and products found in the
/// text come first, then its regions and long-tail words with the top keyword; lexicon stop words and
/// anything with a banned word (built-in or the lexicon's) are left out.
pub fn extract_keywords(text: &str, top_k: usize, lexicon: &Lexicon) -> Vec<Keyword> {
    if top_k == 0 || text.trim().is_empty() {
        return vec![];
    }
    let zh = text.chars().any(is_han);
    let fold = |s: &str| if zh { s.to_string() } else { s.to_lowercase() };
    let banned = Banned::new(&lexicon.banned);
    let stop: HashSet<String> = lexicon.stop_words.iter().map(|w| fold(w.trim())).collect();

    // Lexicon words are counted first and cut out of the text, so the segmenter cannot split them into
    // fragments that would compete with them. Longer words first: "麻辣火锅" before "火锅".
    let mut text = fold(text);
    let mut lex: Vec<(&str, f64)> = vec![];
    for (words, tier) in [
        (&lexicon.products, 2.0),
        (&lexicon.brands, 2.0),
        (&lexicon.regions, 1.0),
        (&lexicon.long_tail, 1.0),
    ] {
        lex.extend(
            words
                .iter()
                .map(|w| (w.trim(), tier))
                .filter(|(w, _)| !w.is_empty()),
        );
    }
    lex.sort_by_key(|(w, _)| std::cmp::Reverse(w.chars().count()));
    let mut found: Vec<(&str, f64, usize)> = vec![];
    for (word, tier) in lex {
        let key = fold(word);
        let n = text.matches(key.as_str()).count();
        if n > 0 && !stop.contains(&key) && !banned.hits(word) {
            text = text.replace(key.as_str(), "\n");
            found.push((word, tier, n));
        }
    }

    // Ask for extra candidates: some are dropped below.
    let want = top_k + stop.len() + 16;
    let ranked: Vec<(String, f64)> = if zh {
        let z = &*ZH;
        z.tfidf
            .extract_keywords(&z.jieba, &text, want, z.pos.clone())
            .into_iter()
            .map(|k| (k.keyword, k.weight))
            .collect()
    } else {
        english(&text, want)
    };

    // Brands and products above every other keyword; regions and long-tail words level with the best.
    let top = ranked.first().map_or(1.0, |(_, w)| *w);
    let mut out: Vec<Keyword> = vec![];
    let mut seen: HashSet<String> = HashSet::new();
    let lexicon_found: Vec<String> = found.iter().map(|(w, _, _)| fold(w)).collect();
    let lexicon_words = found
        .into_iter()
        .map(|(word, tier, n)| (word.to_string(), top * (tier + 0.1 * n.min(5) as f64)));
    for (word, weight) in lexicon_words.chain(ranked) {
        if out.len() == top_k {
            break;
        }
        let key = fold(&word);
        // A fragment of a lexicon word found ("火锅" of "老火锅") adds nothing beside it.
        let fragment = || {
            lexicon_found
                .iter()
                .any(|l| l != &key && l.contains(key.as_str()))
        };
        if stop.contains(&key) || banned.hits(&word) || fragment() || !seen.insert(key) {
            continue;
        }
        out.push(Keyword { word, weight });
    }
    out.sort_by(|a, b| b.weight.total_cmp(&a.weight));
    let best = out.first().map_or(1.0, |k| k.weight);
    for k in &mut out {
        k.weight /= best;
    }
    out
}

fn is_han(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}')
}

/// Lowercased words of three letters or more, by frequency (ties: first seen first).
fn english(text: &str, want: usize) -> Vec<(String, f64)> {
    let mut counts: HashMap<&str, (usize, usize)> = HashMap::new();
    let words = text
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '-'));
    for (i, w) in words.enumerate() {
        if w.chars().count() < 3 || w.chars().all(|c| c.is_ascii_digit()) || STOP_EN.contains(&w) {
            continue;
        }
        counts.entry(w).or_insert((0, i)).0 += 1;
    }
    let mut ranked: Vec<(&str, (usize, usize))> = counts.into_iter().collect();
    ranked.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.1.1.cmp(&b.1.1)));
    ranked.truncate(want);
    ranked
        .into_iter()
        .map(|(w, (n, _))| (w.to_string(), n as f64))
        .collect()
}

/// The words of `text` as jieba cuts it (with the retail dictionary), blanks and punctuation left
/// out. Engagement's "segmented" keyword match compares these (`domain::engagement`).
pub fn segment(text: &str) -> Vec<String> {
    ZH.jieba
        .cut(text, true)
        .into_iter()
        .map(|t| t.word.trim())
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(str::to_lowercase)
        .collect()
}
