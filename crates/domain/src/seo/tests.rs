use super::patterns::{self, Piece};
use super::*;
use crate::i18n::Lang;
use proptest::prelude::*;
use std::collections::HashSet;

const HOTPOT: &str = "老码头火锅春熙路店新店开业啦！招牌牛油锅底选用郫县豆瓣和二荆条辣椒，每天现炒，麻辣鲜香。\
鲜毛肚、黄喉、嫩牛肉都是当天现切，鲜毛肚七上八下，脆嫩爽口；手打虾滑也是回头客必点。\n\
双人套餐团购价只要128元，下单立享饮品免费续杯，到店还送甜品。周末来吃火锅的朋友记得提前预约，\
牛油锅底配鲜毛肚，吃过火锅的都说还想再来。成都人爱吃的老火锅，就在春熙路。";

const SKINCARE: &str = "这款玻尿酸补水精华液专为干皮和敏感肌设计，添加烟酰胺和神经酰胺，温和不刺激。\
早晚各用两滴，精华液质地清爽好吸收，上脸就能感觉到补水保湿的效果，连续使用两周肤色更透亮。\n\
新品上市限时特惠，直播间下单立享买二送一，还有面膜小样相送。敏感肌姐妹放心入，精华液没有酒精和香精。";

const SERUM_EN: &str = "Meet the new Glow Serum: a lightweight hyaluronic serum for dry and sensitive skin. \
The serum absorbs in seconds, hydration lasts all day, and niacinamide evens your skin tone. \
Order the serum today and get a free sheet mask with every bottle.";

fn words(ks: &[Keyword]) -> Vec<&str> {
    ks.iter().map(|k| k.word.as_str()).collect()
}

fn req(
    lang: Lang,
    keywords: &[&str],
    lexicon: Lexicon,
    max_chars: usize,
    count: usize,
) -> TitleRequest {
    TitleRequest {
        lang,
        keywords: keywords.iter().map(|k| Keyword::plain(*k)).collect(),
        lexicon,
        categories: vec![],
        count,
        max_chars,
        topics: vec![],
        price: None,
    }
}

fn lex(products: &[&str], brands: &[&str], regions: &[&str], banned: &[&str]) -> Lexicon {
    let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect();
    Lexicon {
        products: own(products),
        brands: own(brands),
        regions: own(regions),
        banned: own(banned),
        ..Lexicon::default()
    }
}

fn char_len(s: &str) -> usize {
    s.chars().count()
}

#[test]
fn seo_extracts_product_words_from_chinese_copy() {
    let hot = extract_keywords(HOTPOT, 10, &Lexicon::default());
    let w = words(&hot);
    for want in ["鲜毛肚", "牛油锅底", "火锅"] {
        assert!(w.contains(&want), "{want} not in {w:?}");
    }
    let skin = extract_keywords(SKINCARE, 10, &Lexicon::default());
    let w = words(&skin);
    for want in ["精华液", "敏感肌", "玻尿酸", "补水"] {
        assert!(w.contains(&want), "{want} not in {w:?}");
    }
    // Weights are normalised, best first.
    assert_eq!(skin[0].weight, 1.0);
    assert!(skin.windows(2).all(|p| p[0].weight >= p[1].weight));
}

#[test]
fn seo_lexicon_words_rank_first_and_stop_or_banned_words_vanish() {
    let mut l = lex(&["手打虾滑"], &["老码头"], &["春熙路"], &["团购"]);
    l.stop_words = vec!["火锅".into()];
    let ks = extract_keywords(HOTPOT, 10, &l);
    let w = words(&ks);
    let first: HashSet<&str> = w[..2].iter().copied().collect();
    assert_eq!(first, HashSet::from(["老码头", "手打虾滑"]), "{w:?}");
    assert!(w.contains(&"春熙路"), "{w:?}");
    assert!(
        !w.contains(&"火锅") && !w.iter().any(|k| k.contains("团购")),
        "{w:?}"
    );
    // A lexicon word is neither split nor repeated by its fragments; calls to action are no keywords.
    assert!(!w.contains(&"虾滑") && !w.contains(&"下单立享"), "{w:?}");
}

#[test]
fn seo_extracts_english_keywords() {
    let ks = extract_keywords(SERUM_EN, 5, &lex(&["Glow Serum"], &[], &[], &[]));
    let w = words(&ks);
    assert_eq!(w[0], "Glow Serum");
    assert!(w.contains(&"skin") && w.contains(&"hyaluronic"), "{w:?}");
    // "serum" alone is a fragment of the product found.
    assert!(!w.contains(&"serum"), "{w:?}");
    assert!(!w.contains(&"the") && !w.contains(&"and"), "{w:?}");
    assert!(extract_keywords("   ", 5, &Lexicon::default()).is_empty());
}

#[test]
fn seo_pattern_library_is_large_clean_and_parses() {
    for (lang, data) in [
        (Lang::Zh, include_str!("patterns_zh.txt")),
        (Lang::En, include_str!("patterns_en.txt")),
    ] {
        let lib = patterns::library(lang);
        assert!(lib.len() >= 100, "{lang:?}: {}", lib.len());
        let lines = data.lines().map(str::trim);
        let written = lines
            .filter(|l| !l.is_empty() && !l.starts_with(['#', '[']))
            .count();
        assert_eq!(written, lib.len(), "{lang:?}: a pattern line did not parse");
        for c in Category::ALL {
            assert!(
                lib.iter().filter(|p| p.category == c).count() >= 8,
                "{lang:?} {c:?}"
            );
        }
        for p in lib {
            assert!(
                crate::compliance::check(&p.source, &[]).is_empty(),
                "banned word in {}",
                p.source
            );
            // fill() keeps one word per slot kind: no slot may repeat.
            let slots: Vec<_> = p
                .pieces
                .iter()
                .filter(|x| matches!(x, Piece::Slot(_)))
                .collect();
            let distinct: Vec<_> = slots
                .iter()
                .enumerate()
                .filter(|(i, s)| !slots[..*i].contains(s))
                .collect();
            assert_eq!(slots.len(), distinct.len(), "repeated slot in {}", p.source);
        }
    }
    for (i, c) in Category::ALL.iter().enumerate() {
        assert_eq!(*c as usize, i);
        assert_eq!(Category::parse(c.code()), Some(*c));
        assert!(!c.name(Lang::Zh).is_empty() && !c.name(Lang::En).is_empty());
    }
}

#[test]
fn seo_thousand_titles_for_one_product_are_distinct() {
    let zh = TitleRequest {
        price: Some("128元".into()),
        topics: vec!["成都美食".into(), "火锅".into()],
        ..req(
            Lang::Zh,
            &["麻辣鲜香", "鲜毛肚", "牛油锅底", "现切牛肉", "免费续杯"],
            lex(&["老火锅"], &["老码头"], &["春熙路"], &[]),
            RELEASE_TITLE_MAX,
            1000,
        )
    };
    let en = TitleRequest {
        price: Some("$29".into()),
        ..req(
            Lang::En,
            &[
                "deep hydration",
                "sensitive skin",
                "niacinamide",
                "light texture",
                "free mask",
            ],
            lex(&["Glow Serum"], &["Lumi"], &["Brooklyn"], &[]),
            RELEASE_TITLE_MAX,
            1000,
        )
    };
    for r in [zh, en] {
        let titles = generate(&r, 7).expect("titles");
        let distinct: HashSet<&str> = titles.iter().map(|t| t.text.as_str()).collect();
        assert!(
            titles.len() >= 950,
            "{:?}: only {} titles",
            r.lang,
            titles.len()
        );
        assert!(
            distinct.len() * 100 >= titles.len() * 95,
            "{:?}: {} distinct",
            r.lang,
            distinct.len()
        );
        assert!(
            titles.windows(2).all(|p| p[0].score >= p[1].score),
            "not best first"
        );
        assert!(
            titles
                .iter()
                .all(|t| char_len(&t.text) <= RELEASE_TITLE_MAX)
        );
        let kinds: HashSet<Category> = titles.iter().map(|t| t.category).collect();
        assert_eq!(kinds.len(), Category::ALL.len(), "{:?}", r.lang);
    }
}

#[test]
fn seo_generation_is_deterministic_and_follows_the_request() {
    let mut r = req(
        Lang::Zh,
        &["补水保湿", "温和不刺激"],
        lex(&["精华液"], &[], &[], &[]),
        CLIP_TITLE_MAX,
        10,
    );
    r.categories = vec!["question".into(), "review".into()];
    let a = generate(&r, 1).expect("titles");
    assert_eq!(a, generate(&r, 1).expect("titles"));
    assert_ne!(a, generate(&r, 2).expect("titles"));
    assert_eq!(a.len(), 10);
    for t in &a {
        assert!(char_len(&t.text) <= CLIP_TITLE_MAX, "{}", t.text);
        assert!(matches!(t.category, Category::Question | Category::Review));
        assert!(t.keywords_used.iter().all(|k| t.text.contains(k.as_str())));
        assert!((0.0..=1.0).contains(&t.score));
    }
    // The best title carries the product and a selling point.
    assert!(a[0].keywords_used.len() >= 2, "{:?}", a[0]);
}

#[test]
fn seo_keywords_inside_the_product_are_not_repeated() {
    let r = req(
        Lang::Zh,
        &["火锅", "鲜毛肚"],
        lex(&["老火锅"], &[], &[], &[]),
        50,
        30,
    );
    for t in generate(&r, 4).expect("titles") {
        assert_eq!(t.text.matches("火锅").count(), 1, "{}", t.text);
    }
}

#[test]
fn seo_english_titles_work() {
    let r = req(
        Lang::En,
        &["deep hydration", "niacinamide"],
        lex(&["glow serum"], &[], &[], &[]),
        50,
        20,
    );
    let titles = generate(&r, 3).expect("titles");
    assert_eq!(titles.len(), 20);
    for t in &titles {
        assert!(
            t.text.chars().next().is_some_and(|c| !c.is_lowercase()),
            "{}",
            t.text
        );
        assert!(
            t.text.to_lowercase().contains("glow serum") || !t.keywords_used.is_empty(),
            "{}",
            t.text
        );
    }
}

#[test]
fn seo_errors_are_values_not_panics() {
    let empty = req(Lang::Zh, &[], Lexicon::default(), 50, 5);
    assert_eq!(generate(&empty, 0), Err(SeoError::EmptyKeywords));
    let blank = req(Lang::En, &["  ", "best deal"], Lexicon::default(), 50, 5);
    assert_eq!(generate(&blank, 0), Err(SeoError::EmptyKeywords));
    let merchant_banned = req(Lang::Zh, &["秘制"], lex(&[], &[], &[], &["秘制"]), 50, 5);
    assert_eq!(generate(&merchant_banned, 0), Err(SeoError::EmptyKeywords));
    let mut unknown = req(Lang::Zh, &["火锅"], Lexicon::default(), 50, 5);
    unknown.categories = vec!["number".into(), "clickbait".into()];
    assert_eq!(
        generate(&unknown, 0),
        Err(SeoError::UnknownCategory("clickbait".into()))
    );
    let tiny = req(Lang::Zh, &["火锅"], Lexicon::default(), 3, 5);
    assert_eq!(generate(&tiny, 0), Err(SeoError::NothingFits(3)));
    assert_eq!(
        generate(&req(Lang::Zh, &["火锅"], Lexicon::default(), 50, 0), 0),
        Ok(vec![])
    );
}

#[test]
fn seo_topics_are_hashtags() {
    let t = topics(
        &["火锅", "glow serum", "火锅", "最低价", " ", "成都美食"],
        3,
        9,
    );
    assert_eq!(t.len(), 3);
    let set: HashSet<&str> = t.iter().map(String::as_str).collect();
    assert_eq!(set, HashSet::from(["#火锅", "#GlowSerum", "#成都美食"]));
    assert_eq!(
        t,
        topics(
            &["火锅", "glow serum", "火锅", "最低价", " ", "成都美食"],
            3,
            9
        )
    );
    assert!(topics::<&str>(&[], 3, 0).is_empty());
}

#[test]
fn seo_a_writers_topics_pass_the_same_rules() {
    let lines = [
        "#火锅",
        "＃火锅",
        "glow serum",
        "#最低价",
        "#牛油锅底毛肚黄喉嫩牛肉手打虾滑回头客必点招牌",
        "#辣椒",
        "",
        "#成都美食",
    ];
    assert_eq!(
        screen_topics(&lines, 5, &["辣椒".to_string()]),
        vec!["#火锅", "#GlowSerum", "#成都美食"]
    );
    assert_eq!(screen_topics(&lines, 1, &[]), vec!["#火锅"]);
}

/// Realistic words of both languages, some with built-in banned words inside.
const POOL: &[&str] = &[
    "火锅",
    "麻辣鲜香",
    "鲜毛肚",
    "牛油锅底",
    "团购",
    "新品",
    "到店",
    "补水保湿",
    "精华液",
    "敏感肌",
    "最低价",
    "第一品牌",
    "超长续航",
    "Glow Serum",
    "deep hydration",
    "best seller",
    "No.1 pick",
    "free delivery",
    "sensitive skin",
    "guaranteed fresh",
    "春熙路",
    "Brooklyn",
    "老码头",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(POOL).prop_map(String::from),
        prop::collection::vec(prop::char::range('\u{4e00}', '\u{9fa5}'), 1..9)
            .prop_map(|v| v.into_iter().collect()),
        "[a-z]{1,12}( [a-z]{1,10})?",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn seo_titles_respect_limit_and_banned_words(
        keywords in prop::collection::vec(word(), 0..8),
        products in prop::collection::vec(word(), 0..3),
        brands in prop::collection::vec(word(), 0..2),
        regions in prop::collection::vec(word(), 0..2),
        topics_in in prop::collection::vec(word(), 0..3),
        pick in prop::collection::vec(any::<bool>(), 8),
        zh in any::<bool>(),
        clip in any::<bool>(),
        seed in any::<u64>(),
    ) {
        // The merchant bans some of the keywords, and the first character of another.
        let mut banned: Vec<String> =
            keywords.iter().zip(&pick).filter(|(_, p)| **p).map(|(k, _)| k.clone()).collect();
        if let Some(c) = keywords.last().and_then(|k| k.chars().next()) {
            banned.push(c.to_string());
        }
        let max = if clip { CLIP_TITLE_MAX } else { RELEASE_TITLE_MAX };
        let r = TitleRequest {
            lang: if zh { Lang::Zh } else { Lang::En },
            keywords: keywords.iter().map(|k| Keyword::plain(k.clone())).collect(),
            lexicon: Lexicon { products, brands, regions, banned: banned.clone(), ..Lexicon::default() },
            categories: vec![],
            count: 40,
            max_chars: max,
            topics: topics_in,
            price: Some("99元".into()),
        };
        let all_banned: Vec<String> = banned.iter().map(|b| b.trim().to_lowercase())
            .filter(|b| !b.is_empty())
            .collect();
        match generate(&r, seed) {
            Ok(titles) => {
                prop_assert!(titles.len() <= 40);
                for t in titles {
                    prop_assert!(char_len(&t.text) <= max, "{} over {max}", t.text);
                    prop_assert!(crate::compliance::check(&t.text, &[]).is_empty(), "{:?} is flagged", t.text);
                    let lower = t.text.to_lowercase();
                    for b in &all_banned {
                        prop_assert!(!lower.contains(b.as_str()), "{:?} holds banned {:?}", t.text, b);
                    }
                }
            }
            Err(e) => prop_assert!(matches!(e, SeoError::EmptyKeywords | SeoError::NothingFits(_)), "{e:?}"),
        }
    }
}
