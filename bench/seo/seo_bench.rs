//! Offline title engine benchmark (issue 15): jieba's load time, keyword extraction on a 10,000-character
//! Chinese text, and titles generated per second on one thread (target: 10,000 titles/s).
//!
//! Run: `make bench`, or `cargo run --release -p domain --example seo_bench`. Prints
//! `bench: <name> <value> <unit>` lines, then a few sample titles.

use domain::i18n::Lang;
use domain::seo::{self, Keyword, Lexicon, TitleRequest};
use std::time::{Duration, Instant};

const COPY: &[&str] = &[
    "老码头火锅春熙路店新店开业啦！招牌牛油锅底选用郫县豆瓣和二荆条辣椒，每天现炒，麻辣鲜香。",
    "鲜毛肚、黄喉、嫩牛肉都是当天现切，鲜毛肚七上八下，脆嫩爽口；手打虾滑也是回头客必点。",
    "双人套餐团购价只要128元，下单立享饮品免费续杯，到店还送甜品。周末来吃火锅的朋友记得提前预约。",
    "这款玻尿酸补水精华液专为干皮和敏感肌设计，添加烟酰胺和神经酰胺，温和不刺激。",
    "早晚各用两滴，精华液质地清爽好吸收，上脸就能感觉到补水保湿的效果，连续使用两周肤色更透亮。",
    "新品上市限时特惠，直播间下单立享买二送一，还有面膜小样相送。敏感肌姐妹放心入。",
    "社区烘焙坊每天早上六点出炉，黄油可颂层层起酥，全麦欧包低糖少油，会员积分可以兑换咖啡。",
    "周年庆期间全场满减，满一百减二十，老顾客带新朋友到店再送一份手工曲奇。",
];

fn text_of(chars: usize) -> String {
    let mut out = String::new();
    let mut i = 0;
    while out.chars().count() < chars {
        out.push_str(COPY[i % COPY.len()]);
        i += 1;
    }
    out.chars().take(chars).collect()
}

fn request(lang: Lang, max_chars: usize) -> TitleRequest {
    let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (keywords, lexicon, price, topics) = match lang {
        Lang::Zh => (
            own(&[
                "麻辣鲜香",
                "鲜毛肚",
                "牛油锅底",
                "现切牛肉",
                "免费续杯",
                "双人套餐",
            ]),
            Lexicon {
                products: own(&["老火锅"]),
                brands: own(&["老码头"]),
                regions: own(&["春熙路"]),
                long_tail: own(&["成都火锅推荐"]),
                ..Lexicon::default()
            },
            "128元",
            own(&["成都美食", "火锅"]),
        ),
        Lang::En => (
            own(&[
                "deep hydration",
                "sensitive skin",
                "niacinamide",
                "light texture",
                "free mask",
            ]),
            Lexicon {
                products: own(&["Glow Serum"]),
                brands: own(&["Lumi"]),
                regions: own(&["Brooklyn"]),
                ..Lexicon::default()
            },
            "$29",
            own(&["skincare"]),
        ),
    };
    TitleRequest {
        lang,
        keywords: keywords.into_iter().map(Keyword::plain).collect(),
        lexicon,
        categories: vec![],
        count: 200,
        max_chars,
        topics,
        price: Some(price.into()),
    }
}

/// Titles per second over at least one second of requests, seeds changing.
fn titles_per_second(reqs: &[TitleRequest]) -> f64 {
    let (mut titles, mut seed) = (0usize, 0u64);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(1) {
        for r in reqs {
            titles += seo::generate(r, seed).map(|t| t.len()).unwrap_or(0);
            seed += 1;
        }
    }
    titles as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let t = Instant::now();
    seo::warm_up();
    println!(
        "bench: jieba_load_ms {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );

    let text = text_of(10_000);
    let runs = 20;
    let t = Instant::now();
    let mut found = 0;
    for _ in 0..runs {
        found += seo::extract_keywords(&text, 20, &Lexicon::default()).len();
    }
    let ms = t.elapsed().as_secs_f64() * 1e3 / runs as f64;
    assert!(found > 0, "no keywords extracted");
    println!("bench: keyword_extract_ms_10k_chars {ms:.2} ms");

    let zh = request(Lang::Zh, seo::RELEASE_TITLE_MAX);
    let en = request(Lang::En, seo::RELEASE_TITLE_MAX);
    let clip = request(Lang::Zh, seo::CLIP_TITLE_MAX);
    let runs = [
        ("titles_per_second", vec![zh.clone(), en.clone()]),
        ("titles_per_second_zh_50", vec![zh.clone()]),
        ("titles_per_second_en_50", vec![en.clone()]),
        ("titles_per_second_zh_20", vec![clip.clone()]),
    ];
    for (name, reqs) in &runs {
        println!("bench: {name} {:.0} titles/s", titles_per_second(reqs));
    }

    for r in [&zh, &en, &clip] {
        let sample = seo::generate(r, 42).unwrap_or_default();
        for t in sample.iter().take(4) {
            println!("sample: [{}] {:.2} {}", t.category.code(), t.score, t.text);
        }
    }
}
