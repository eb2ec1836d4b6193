use super::*;
use crate::platform::Platform::{self, *};

/// (text, platforms of the post, the findings' rule ids and terms in text order).
type Case = (
    &'static str,
    &'static [Platform],
    &'static [(&'static str, &'static str)],
);

const NONE: &[(&str, &str)] = &[];

#[rustfmt::skip]
const CASES: &[Case] = &[
    // The issue's own: 最好 / 第一 / 根治 flagged, 最近 / 第一次 not.
    ("这是我们店最好的火锅", &[], &[("ad.absolute.superlative", "最好")]),
    ("行业第一品牌，值得信赖", &[], &[("ad.absolute.first", "第一")]),
    ("三天根治脚气", &[], &[("ad.medical.cure", "根治")]),
    ("最近新开的火锅店", &[], NONE),
    ("第一次来成都吃火锅", &[], NONE),
    // 最: time, order and advice are no claims.
    ("活动最后一天，快来", &[], NONE),
    ("最终解释权归本店所有", &[], NONE),
    ("最好提前预约，周末人多", &[], NONE),
    ("最高可减50元", &[], NONE),
    ("最低消费100元", &[], NONE),
    ("最大程度保留食材原味", &[], NONE),
    ("本店最新款秋装上架", &[], NONE),
    ("最多可以坐八个人", &[], NONE),
    ("最早一批顾客", &[], NONE),
    ("全城最佳约会餐厅", &[], &[("ad.absolute.superlative", "最佳")]),
    ("最便宜的团购在这里", &[], &[("ad.absolute.superlative", "最便宜")]),
    ("全网最低价，手慢无", &[], &[("ad.absolute.superlative", "全网最低")]),
    ("成都最正宗的老火锅", &[], &[("ad.absolute.superlative", "最正宗")]),
    ("最受欢迎的网红打卡地", &[], &[("ad.absolute.superlative", "最受欢迎")]),
    ("我的最爱，每周都来", &[], &[("ad.absolute.most", "最")]),
    ("成都最美的夜景", &[], &[("ad.absolute.most", "最")]),
    // 第一: order and belief are fine; a rank is not.
    ("第一天开业，全场八折", &[], NONE),
    ("第一步先涮毛肚", &[], NONE),
    ("第一时间通知大家", &[], NONE),
    ("顾客第一，服务至上", &[], NONE),
    ("质量第一是我们的原则", &[], NONE),
    ("第一个到店的送甜品", &[], NONE),
    ("销量第一的火锅底料", &[], &[("ad.absolute.first", "第一")]),
    ("全国第一家24小时火锅", &[], &[("ad.absolute.first", "第一")]),
    ("本地排名第一", &[], &[("ad.absolute.first", "第一")]),
    ("No.1 hotpot in town", &[], &[("ad.absolute.first", "No.1")]),
    ("Our #1 seller", &[], &[("ad.absolute.first", "#1")]),
    ("Room #10 is ready", &[], NONE),
    // Rank and grade words.
    ("国家级大师亲自掌勺", &[], &[("ad.absolute.rank", "国家级")]),
    ("国家级非物质文化遗产技艺", &[], NONE),
    ("顶级和牛限时供应", &[], &[("ad.absolute.rank", "顶级")]),
    ("极品大红袍", &[], &[("ad.absolute.rank", "极品")]),
    ("聚会首选的川菜馆", &[], &[("ad.absolute.rank", "首选")]),
    ("The best pizza in Brooklyn", &[], &[("ad.absolute.rank", "best")]),
    ("All the best for the new year", &[], NONE),
    ("Best before 2026-12-01", &[], NONE),
    ("A world-class spa", &[], &[("ad.absolute.rank", "world-class")]),
    // Guarantees and 100%: a composition is a fact.
    ("100%纯棉T恤", &[], NONE),
    ("100%有效，无效退款", &[], &[("ad.medical.efficacy", "100%有效"), ("ad.medical.efficacy", "无效退款")]),
    ("永久免费续杯", &[], &[("ad.absolute.word", "永久")]),
    // Medical: a soothing mood is no cure.
    ("治愈系的小店", &[], NONE),
    ("被这碗面治愈了", &[], NONE),
    ("药到病除的祖传秘方", &[], &[("ad.medical.cure", "药到病除"), ("ad.medical.cure", "祖传秘方")]),
    ("喝了能降血压", &[], &[("ad.medical.cure", "降血压")]),
    ("纯天然无副作用", &[], &[("ad.medical.efficacy", "无副作用")]),
    ("立竿见影的祛痘精华", &[], &[("ad.medical.efficacy", "立竿见影")]),
    ("A miracle cream", &[], &[("ad.medical.cure", "miracle")]),
    ("Mani cure? No, manicure and pedicure", &[], &[("ad.medical.cure", "cure")]),
    // Returns.
    ("加盟保本，稳赚不赔", &[], &[("ad.finance.guarantee", "保本"), ("ad.finance.guarantee", "稳赚不赔")]),
    ("零风险投资，月入过万", &[], &[("ad.finance.guarantee", "零风险"), ("ad.finance.guarantee", "月入过万")]),
    ("风险提示：投资有风险", &[], NONE),
    // Urgency must be true.
    ("明天涨价，错过再等一年", &[], &[("ad.urgency.false", "明天涨价"), ("ad.urgency.false", "错过再等一年")]),
    ("仅剩最后10份", &[], &[("ad.urgency.false", "仅剩最后")]),
    // State organs.
    ("国宴专用酱油", &[], &[("ad.state.authority", "国宴专用")]),
    // Platforms: contact details and drainage, by the post's platforms.
    ("到店电话13800138000", &[Dy], &[("dy.contact", "电话"), ("dy.contact", "13800138000")]),
    ("加微信abc_123领券", &[Dy], &[("dy.contact", "加微信")]),
    ("详情见 www.shop88.cn", &[Ks], &[("ks.contact", "www.shop88.cn")]),
    ("官网 shop88.com 下单", &[Sph], &[("sph.contact", "shop88.com")]),
    ("有问题发邮件 hi@shop88.cn", &[Sph], &[("sph.contact", "hi@shop88.cn")]),
    ("需要可私，主页有v", &[Xhs], &[("xhs.contact", "需要可私"), ("xhs.contact", "主页有v")]),
    ("淘宝同款，抖音爆款", &[Xhs], &[("xhs.drainage", "淘宝"), ("xhs.drainage", "抖音")]),
    ("抖音爆款火锅", &[Dy], NONE),
    ("关注公众号领券", &[Sph], NONE),
    ("关注公众号领券", &[Dy], &[("dy.drainage", "公众号")]),
    ("淘口令复制打开", &[Ks], &[("ks.drainage", "淘口令")]),
    ("私信我领优惠", &[Dy], NONE),
    ("私信我领优惠", &[Xhs], &[("xhs.contact", "私信我")]),
    ("扫二维码加微信进群", &[Bjh], &[("bjh.contact", "二维码"), ("bjh.contact", "加微信")]),
    ("淘口令复制打开", &[Bjh], &[("bjh.drainage", "淘口令")]),
    ("关注百家号看更多", &[Bjh], NONE),
    ("第3次来了，2 个人吃 199 元", &[], NONE),
    ("2026年11月30日开业", &[], NONE),
    // Plain copy in both languages.
    ("周末和朋友来吃火锅，毛肚很新鲜", &[], NONE),
    ("Fresh bread every morning at 6", &[], NONE),
];

fn found(text: &str, scope: &[Platform]) -> Vec<(String, String)> {
    check(text, scope)
        .into_iter()
        .map(|f| (f.rule.id.clone(), f.term.to_string()))
        .collect()
}

#[test]
fn precheck_cases_flag_claims_in_context() {
    assert!(CASES.len() >= 60, "{}", CASES.len());
    let flagged = CASES.iter().filter(|c| !c.2.is_empty()).count();
    assert!(flagged >= 25 && CASES.len() - flagged >= 25, "both ways");
    let mut wrong = vec![];
    for (text, scope, want) in CASES {
        let got = found(text, scope);
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(r, t)| (r.to_string(), t.to_string()))
            .collect();
        if got != want {
            wrong.push(format!("{text:?} {scope:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn precheck_findings_carry_source_explanation_suggestion_and_offsets() {
    let text = "🔥这是我们店最好的火锅";
    let f = &check(text, &[])[0];
    assert_eq!(f.rule.severity, Severity::Block);
    assert_eq!(f.rule.source.zh, "广告法 第九条(三)");
    assert_eq!(f.rule.source.en, "Advertising Law, Art. 9(3)");
    assert!(f.rule.explain.zh.contains("绝对化") && f.rule.explain.en.contains("absolute"));
    assert_eq!(f.suggestion, Some("很好"));
    // The emoji is two UTF-16 units: 最好 is at 7..9 for the console.
    assert_eq!(f.utf16(text), (7, 9));
    assert_eq!(&text[f.start..f.end], "最好");
    let cure = &check("三天根治脚气", &[])[0];
    assert_eq!(
        (cure.rule.source.zh.as_str(), cure.suggestion),
        ("广告法 第十七条", None)
    );
    let first = &check("行业第一品牌", &[])[0];
    assert_eq!(first.rule.source.zh, "广告法 第九条(三)");
}

#[test]
fn precheck_every_rule_file_parses_and_every_rule_says_both_languages() {
    assert_eq!(sources().len(), FILES.len());
    let mut ids: Vec<&str> = rules().iter().map(|r| r.id.as_str()).collect();
    ids.sort_unstable();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "rule ids are unique");
    for r in rules() {
        for s in [&r.source.zh, &r.source.en, &r.explain.zh, &r.explain.en] {
            assert!(!s.trim().is_empty(), "{}", r.id);
        }
        assert!(r.explain.zh.chars().any(|c| c > '\u{2e80}'), "{}: zh", r.id);
        assert!(r.explain.en.split_whitespace().count() >= 5, "{}: en", r.id);
    }
    assert!(rules::parse("[source]\ncode='x'\nzh='x'\nen='x'\n[[rule]]\nid='a'").is_err());
}

#[test]
fn precheck_merchant_words_block_and_forms_answer_the_first_block() {
    let c = Checker::new(&[" 毛肚 ".into(), "".into()]);
    let f = c.check("鲜毛肚七上八下", &[]);
    assert_eq!(
        (f[0].rule.id.as_str(), f[0].term),
        ("merchant.banned", "毛肚")
    );
    let e = c
        .form(&[("titles", "好吃的火锅"), ("topics", "最好的毛肚")], &[])
        .unwrap_err();
    assert_eq!((e.field, e.msg), ("topics", Msg::CopyBlocked));
    let arg = |k: &str| e.args.iter().find(|(a, _)| *a == k).map(|(_, v)| v.clone());
    assert_eq!(arg("rule_id").as_deref(), Some("ad.absolute.superlative"));
    assert_eq!(
        arg("source.en").as_deref(),
        Some("Advertising Law, Art. 9(3)")
    );
    assert!(arg("hint.zh").unwrap().contains("很好"));
    let warned = c.form(&[("titles", "成都最美的夜景")], &[]).unwrap();
    assert_eq!(warned.len(), 1);
    assert!(
        Checker::new(&[])
            .form(&[("titles", "最近很忙")], &[])
            .unwrap()
            .is_empty()
    );
}

#[test]
fn precheck_contact_rules_keep_spec_comment_rule() {
    for bad in [
        "加微信 abc123",
        "电话13800138000",
        "看 https://x.cn",
        "vx: shop88",
        "QQ 12345",
        "a@b.cn",
    ] {
        assert!(has_contact(bad), "{bad}");
    }
    for ok in [
        "第3次来了，2 个人吃 199 元",
        "好吃！下次还来",
        "@小王 一起来",
    ] {
        assert!(!has_contact(ok), "{ok}");
    }
}
