//! Search words of the sandbox: the hot-search list and related words of a seed, with heat that
//! is a pure function of (word, China day of the platform clock). It changes from one day to the
//! next when the clock moves and stays put within a day, so tests can predict it.
//!
//! heat(word, day) = base(word) × wave(day) × slow(day) × jitter(word, day): `base` comes from a
//! hash of the word, `wave` is a sine of a 5–13 day period, `slow` a 90-day sine (the slow trend)
//! and `jitter` ±6 % per day.

use super::stable_hash;
use serde::Serialize;
use std::f64::consts::TAU;

/// Today's China day (days since 1970-01-01) on the platform clock.
pub(crate) fn today(clock: &domain::clock::Clock) -> i64 {
    domain::matrix::day_of(clock.sandbox_now())
}

/// The heat of `word` on China day `day`, its base drawn from `lo..hi`. `salt` tells the
/// platforms apart ("" for DY, "ks" for KS): the same word is not equally hot everywhere.
pub(crate) fn heat(salt: &str, word: &str, day: i64, lo: i64, hi: i64) -> i64 {
    let h = stable_hash(&["heat", salt, word]);
    let base = lo + (h % (hi - lo).max(1) as u64) as i64;
    let period = 5.0 + ((h >> 20) % 9) as f64;
    let phase = ((h >> 28) % 628) as f64 / 100.0;
    let d = day as f64;
    let wave = 1.0 + 0.3 * (TAU * d / period + phase).sin();
    let slow = 1.0 + 0.25 * (TAU * d / 90.0 + phase * 1.7).sin();
    let jitter =
        0.94 + (stable_hash(&["day", salt, word, &day.to_string()]) % 1200) as f64 / 10_000.0;
    (base as f64 * wave * slow * jitter).round().max(1.0) as i64
}

/// Topics of the hot-search list (a local-life flavoured pool; the list shows the hottest 50 of
/// the day).
const HOT_POOL: [&str; 64] = [
    "五一假期出游人数创新高",
    "城市烟火气美食地图",
    "夏日第一杯奶茶",
    "淄博烧烤又火了",
    "露营装备怎么选",
    "打工人的午饭有多卷",
    "年轻人开始反向旅游",
    "本地人私藏的苍蝇馆子",
    "周末去哪儿玩",
    "新式茶饮价格战",
    "小龙虾季来了",
    "健身房月卡大降价",
    "考研上岸经验分享",
    "宝藏县城旅游攻略",
    "火锅底料自己炒",
    "天气热到融化",
    "早餐店排队两小时",
    "手机拍照技巧",
    "夜市摆摊日记",
    "城市骑行路线推荐",
    "网红餐厅翻车现场",
    "国潮品牌出圈",
    "平价护肤好物",
    "亲子游好去处",
    "毕业季拍照打卡",
    "社区团购新玩法",
    "县城咖啡店越开越多",
    "自助餐回本攻略",
    "外卖红包怎么领最划算",
    "老字号的新吃法",
    "一人食也要有仪式感",
    "打卡非遗美食",
    "宠物友好餐厅",
    "探店博主的一天",
    "演唱会门票开抢",
    "高铁上的美食",
    "夏季减脂餐做法",
    "路边摊的快乐",
    "办公室零食推荐",
    "装修避坑指南",
    "二手房翻新改造",
    "婚礼策划省钱攻略",
    "头等舱体验",
    "中式烘焙排队",
    "居家收纳神器",
    "城市夜景机位",
    "古镇旅游新玩法",
    "年轻人爱上逛菜市场",
    "预制菜进校园引热议",
    "油价调整最新消息",
    "暑假兴趣班怎么选",
    "一夜爆火的小吃",
    "酱香拿铁",
    "国产电影票房新纪录",
    "新能源车降价",
    "城市文旅局长出镜",
    "广场舞新曲",
    "凌晨四点的早市",
    "一口气看完的短剧",
    "热门挑战赛",
    "抖音团购节",
    "烧烤季限定套餐",
    "奶茶新品测评",
    "街头美食大赛",
];

pub(crate) const HOT_LIST_LEN: usize = 50;

/// One hot word on one day: what `/hotsearch/sentences/` and the trending list answer.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Hot {
    pub sentence: String,
    pub hot_level: i64,
    /// DY trending label: 0 none, 1 新 (new on the list), 3 热 (+25 % on yesterday), 4 爆 (+60 %).
    pub label: i64,
    /// hot_level today / yesterday.
    #[serde(skip)]
    pub ratio: f64,
}

fn hot_heat(salt: &str, word: &str, day: i64) -> i64 {
    heat(salt, word, day, 800_000, 12_000_000)
}

fn top(salt: &str, day: i64) -> Vec<(&'static str, i64)> {
    let mut all: Vec<(&'static str, i64)> = HOT_POOL
        .iter()
        .map(|w| (*w, hot_heat(salt, w, day)))
        .collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    all.truncate(HOT_LIST_LEN);
    all
}

/// The day's hot list, hottest first, each with its label.
pub(crate) fn hot_list(salt: &str, day: i64) -> Vec<Hot> {
    let yesterday = top(salt, day - 1);
    top(salt, day)
        .into_iter()
        .map(|(w, lvl)| {
            let ratio = lvl as f64 / hot_heat(salt, w, day - 1) as f64;
            let label = if !yesterday.iter().any(|(y, _)| *y == w) {
                1
            } else if ratio >= 1.6 {
                4
            } else if ratio >= 1.25 {
                3
            } else {
                0
            };
            Hot {
                sentence: w.to_string(),
                hot_level: lvl,
                label,
                ratio,
            }
        })
        .collect()
}

/// The rising words (上升词): the labelled ones of the day's list, fastest rising first.
pub(crate) fn trending(salt: &str, day: i64) -> Vec<Hot> {
    let mut l: Vec<Hot> = hot_list(salt, day)
        .into_iter()
        .filter(|h| h.label != 0)
        .collect();
    l.sort_by(|a, b| {
        b.ratio
            .total_cmp(&a.ratio)
            .then(a.sentence.cmp(&b.sentence))
    });
    l
}

// ---- related words of a seed ---------------------------------------------------------------------

/// (modifier, goes before the seed). The first three are always offered; the others for a
/// deterministic subset of seeds.
const ZH_MODS: [(&str, bool); 20] = [
    ("推荐", false),
    ("附近", true),
    ("团购", false),
    ("多少钱", false),
    ("怎么样", false),
    ("排行榜", false),
    ("教程", false),
    ("价格", false),
    ("优惠", false),
    ("测评", false),
    ("攻略", false),
    ("哪家好", false),
    ("做法", false),
    ("加盟", false),
    ("外卖", false),
    ("平价", true),
    ("网红", true),
    ("必吃", true),
    ("人均", false),
    ("套餐", false),
];

const EN_MODS: [(&str, bool); 14] = [
    ("best", true),
    ("near me", false),
    ("price", false),
    ("review", false),
    ("deals", false),
    ("recipe", false),
    ("tutorial", false),
    ("ranking", false),
    ("cheap", true),
    ("open now", false),
    ("how to make", true),
    ("delivery", false),
    ("menu", false),
    ("vs", false),
];

const ALWAYS: usize = 3;

/// Neighbour words: a seed containing one of a group's words also suggests the others.
const GROUPS: [&[&str]; 8] = [
    &["火锅", "串串香", "麻辣烫", "冒菜", "烤肉", "烧烤"],
    &["奶茶", "咖啡", "甜品", "蛋糕", "面包"],
    &["美甲", "美睫", "美发", "护肤", "化妆"],
    &["健身", "瑜伽", "普拉提", "游泳", "跑步"],
    &["民宿", "酒店", "露营", "景点", "古镇"],
    &["装修", "家具", "全屋定制", "软装", "收纳"],
    &["小龙虾", "海鲜", "烤鱼", "龙虾", "生蚝"],
    &["pizza", "burger", "pasta", "sushi", "tacos"],
];
const RELATED_MAX: usize = 3;

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Suggestion {
    pub word: String,
    /// "seed" | "long_tail" | "related"
    pub kind: &'static str,
    pub heat: i64,
    /// The last 7 days, oldest first.
    pub trend: Vec<i64>,
    pub change_ratio: f64,
}

fn latin(s: &str) -> bool {
    s.is_ascii()
}

fn suggestion(salt: &str, word: String, kind: &'static str, day: i64) -> Suggestion {
    let (lo, hi) = match kind {
        "seed" => (20_000, 300_000),
        "related" => (5_000, 150_000),
        _ => (300, 40_000),
    };
    let trend: Vec<i64> = (day - 6..=day)
        .map(|d| heat(salt, &word, d, lo, hi))
        .collect();
    let (y, t) = (trend[5] as f64, trend[6] as f64);
    let change_ratio = ((t - y) / y * 10_000.0).round() / 10_000.0;
    Suggestion {
        heat: trend[6],
        word,
        kind,
        trend,
        change_ratio,
    }
}

/// The seed first, then its long-tail expansions and neighbours, hottest first; at most `count`.
pub(crate) fn suggest(salt: &str, seed: &str, day: i64, count: usize) -> Vec<Suggestion> {
    let seed = seed.trim();
    let (mods, sep): (&[(&str, bool)], &str) = if latin(seed) {
        (&EN_MODS, " ")
    } else {
        (&ZH_MODS, "")
    };
    let mut words: Vec<(String, &'static str)> = vec![(seed.to_string(), "seed")];
    for (i, (m, before)) in mods.iter().enumerate() {
        if i >= ALWAYS && stable_hash(&["mod", seed, m]) % 100 >= 65 {
            continue;
        }
        let w = if *before {
            format!("{m}{sep}{seed}")
        } else {
            format!("{seed}{sep}{m}")
        };
        words.push((w, "long_tail"));
    }
    let lower = seed.to_lowercase();
    if let Some((g, hit)) = GROUPS
        .iter()
        .find_map(|g| g.iter().find(|w| lower.contains(*w)).map(|w| (g, *w)))
    {
        let mut others: Vec<&&str> = g.iter().filter(|w| **w != hit).collect();
        others.sort_by_key(|w| stable_hash(&["rel", seed, w]));
        for o in others.into_iter().take(RELATED_MAX) {
            words.push((lower.replacen(hit, o, 1), "related"));
        }
    }
    let mut out: Vec<Suggestion> = words
        .into_iter()
        .map(|(w, k)| suggestion(salt, w, k, day))
        .collect();
    out[1..].sort_by(|a, b| b.heat.cmp(&a.heat).then(a.word.cmp(&b.word)));
    out.truncate(count.max(1));
    out
}

/// The salt of a platform's simulated words ("" DY, "ks" KS).
fn salt_of(p: crate::Platform) -> &'static str {
    match p {
        crate::Platform::Ks => "ks",
        _ => "",
    }
}

/// **Simulated** search suggestions (seed, long tail, related) with heat and 7-day trend, for the
/// sandbox mode only: no platform has an API for them and no configured vendor provides them, so the
/// sandbox does not imitate a wire format here; the product computes them in-process and labels
/// them "模拟数据 / Simulated" (docs/seo-platforms.md). Same figures for everyone on a given day.
pub fn simulated_suggest(
    p: crate::Platform,
    keyword: &str,
    clock: &domain::clock::Clock,
) -> crate::PResult<Vec<crate::SearchWord>> {
    let kw = crate::seo::keyword(p, keyword)?;
    Ok(suggest(salt_of(p), &kw, today(clock), 50)
        .into_iter()
        .map(|s| {
            crate::seo::search_word(&serde_json::to_value(&s).unwrap_or(serde_json::Value::Null))
        })
        .collect())
}

/// **Simulated** hot-search list of a platform without a hot-search API (KS), sandbox mode only;
/// labelled "Simulated" like [`simulated_suggest`].
pub fn simulated_hot(p: crate::Platform, clock: &domain::clock::Clock) -> Vec<crate::HotWord> {
    hot_list(salt_of(p), today(clock))
        .into_iter()
        .enumerate()
        .map(|(i, h)| crate::HotWord {
            label: match h.label {
                1 => "新",
                3 => "热",
                4 => "爆",
                _ => "",
            }
            .to_string(),
            word: h.sentence,
            hot_level: h.hot_level,
            rank: i as u32 + 1,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_moves_by_day_only() {
        let a = heat("", "火锅", 20_000, 100, 10_000);
        assert_eq!(a, heat("", "火锅", 20_000, 100, 10_000));
        let week: Vec<i64> = (0..7)
            .map(|d| heat("", "火锅", 20_000 + d, 100, 10_000))
            .collect();
        assert!(week.windows(2).any(|w| w[0] != w[1]), "{week:?}");
        assert!(week.iter().all(|h| *h > 0));
    }

    #[test]
    fn hot_list_has_fifty_ranked_words_with_labels() {
        let l = hot_list("", 20_000);
        assert_eq!(l.len(), HOT_LIST_LEN);
        assert!(l.windows(2).all(|w| w[0].hot_level >= w[1].hot_level));
        assert!(trending("", 20_000).iter().all(|h| h.label != 0));
        // Over a month some words enter the list as new.
        assert!((20_000..20_030).any(|d| hot_list("", d).iter().any(|h| h.label == 1)));
    }

    #[test]
    fn suggestions_expand_the_seed() {
        let s = suggest("", "火锅", 20_000, 50);
        assert_eq!(s[0].word, "火锅");
        assert_eq!(s[0].kind, "seed");
        for w in ["火锅推荐", "附近火锅", "火锅团购"] {
            assert!(
                s.iter().any(|x| x.word == w && x.kind == "long_tail"),
                "{w}"
            );
        }
        assert!(s.iter().any(|x| x.kind == "related"));
        assert!(s.iter().all(|x| x.trend.len() == 7 && x.heat == x.trend[6]));
        let e = suggest("", "pizza", 20_000, 50);
        assert!(e.iter().any(|x| x.word == "pizza near me"));
        assert!(e.iter().any(|x| x.word == "best pizza"));
        assert_eq!(suggest("", "火锅", 20_000, 3).len(), 3);
        assert_ne!(suggest("ks", "火锅", 20_000, 50)[0].heat, s[0].heat);
    }
}
