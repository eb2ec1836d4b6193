//! SEO, whole app on SQLite and PostgreSQL: titles from the built-in engine and from a configured
//! OpenAI-compatible provider (the sandbox's simulator), the title library, categories and keywords
//! (built-in ones only by an Administrator), lexicons, keyword search and mining through the sandbox,
//! benchmark accounts followed over simulated days, tenancy, staff menus and bad input. Each app has
//! its own platform clock.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::collections::HashSet;

const DAY: i64 = 86_400_000;

const COPY: &str = "老城区的川味火锅店新品上线：招牌牛油锅底配鲜毛肚、嫩牛肉，双人团购套餐只要 99 元，周末聚餐不用排队，\
    到店还送冰粉。我们的鲜毛肚每天早上从市场直送，牛油锅底慢火熬制八小时，麻辣鲜香。";

fn titles(d: &Value) -> Vec<String> {
    common::column(d, "title")
}

#[tokio::test]
async fn titles_come_from_the_merchants_words_and_respect_limits_and_banned_words() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        // Nothing to go on yet: a clear 422 on `keywords`, in both languages.
        let r = app
            .post("/screen.merchant_seo_lexicon/ai_title", Some(&t), json!({}))
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "keywords");
        let r = app
            .post_en("/screen.merchant_seo_lexicon/ai_title", Some(&t), json!({}))
            .await;
        assert!(r.message().contains("keywords"), "{}", r.message());

        // From a product text: its product words, ≤ 50 characters, no built-in banned word.
        let d = app
            .post(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"text": COPY, "count": 60}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(d["provider"], "builtin");
        let ts = titles(&d);
        assert!(ts.len() >= 40, "{}", ts.len());
        let kw: Vec<&str> = d["keywords"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["word"].as_str().unwrap())
            .collect();
        assert!(
            kw.iter().any(|w| w.contains("毛肚")) && kw.iter().any(|w| w.contains("火锅")),
            "{kw:?}"
        );
        for title in &ts {
            assert!(title.chars().count() <= 50, "{title}");
            assert!(domain::seo::banned_word(title, &[]).is_none(), "{title}");
        }
        // Every title carries the copy's words.
        assert!(
            ts.iter().all(|t| kw.iter().any(|k| t.contains(k))),
            "{kw:?} {ts:#?}"
        );
        assert_eq!(ts.iter().collect::<HashSet<_>>().len(), ts.len());
        // Scores go best first, and every row names its style in the caller's language.
        let scores: Vec<f64> = d["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["score"].as_f64().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert!(!d["rows"][0]["style_name"].as_str().unwrap().is_empty());

        // The merchant's lexicon: a banned word of its own disappears from every title; the clip limit.
        let r = app
            .post(
                "/seo.merchant_seo_lexicon/add",
                Some(&t),
                json!({"kind": "banned", "words": ["毛肚", " ", "毛肚"]}),
            )
            .await;
        assert_eq!(r.ok()["added"], 1);
        let d = app
            .post(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"text": COPY, "count": 50, "max_chars": 20, "styles": ["question", "offer"]}),
            )
            .await
            .ok()
            .clone();
        let ts = titles(&d);
        assert!(!ts.is_empty());
        for title in &ts {
            assert!(
                title.chars().count() <= 20 && !title.contains("毛肚"),
                "{title}"
            );
        }
        let styles: HashSet<&str> = d["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["style"].as_str().unwrap())
            .collect();
        assert!(
            styles.is_subset(&HashSet::from(["question", "offer"])),
            "{styles:?}"
        );
        // A word the operator banned for this merchant is out of its titles too: the writer never
        // offers what the release form would refuse.
        let with_pot = |d: &Value| titles(d).iter().filter(|t| t.contains("锅底")).count();
        assert!(with_pot(&d) > 0, "{:?}", titles(&d));
        let admin = app.admin().await;
        let mid = demo_merchant(&app).await;
        app.post(
            "/system/merchant/banned_words_add",
            Some(&admin),
            json!({"merchant_id": mid, "words": ["锅底"]}),
        )
        .await
        .ok();
        let d = app
            .post(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"text": COPY, "count": 50, "max_chars": 20, "styles": ["question", "offer"]}),
            )
            .await
            .ok()
            .clone();
        assert!(!titles(&d).is_empty());
        assert_eq!(with_pot(&d), 0, "{:?}", titles(&d));

        // The profile's brand and product are words of every later request; English titles in English.
        app.post(
            "/screen.merchant_seo_lexicon/edit",
            Some(&t),
            json!({"brand": "Spicy Pot", "product": "hotpot", "region": "Chengdu", "description": ""}),
        )
        .await
        .ok();
        let d = app
            .post(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"keywords": ["beef tallow broth"], "lang": "en", "count": 20}),
            )
            .await
            .ok()
            .clone();
        let ts = titles(&d);
        assert!(!ts.is_empty() && ts.iter().all(|t| t.is_ascii()), "{ts:?}");
        assert!(
            ts.iter().any(|t| t.to_lowercase().contains("hotpot")),
            "{ts:?}"
        );
        assert_eq!(
            app.get("/seo.merchant_seo_lexicon/profile", Some(&t))
                .await
                .ok()["brand"],
            "Spicy Pot"
        );

        // The release form's random titles and topics come from the same words, in the caller's language.
        let r = app
            .post_en(
                "/matrix.merchant_publish_management/getRandomAiTitleList",
                Some(&t),
                json!({"count": 5}),
            )
            .await;
        let rows = r.ok()["rows"].as_array().unwrap().clone();
        assert_eq!(rows.len(), 5);
        assert!(
            rows.iter().all(|t| t.as_str().unwrap().is_ascii()),
            "{rows:?}"
        );
        let r = app
            .post(
                "/matrix.merchant_publish_management/getRandomTopicList",
                Some(&t),
                json!({"count": 3}),
            )
            .await;
        assert!(
            r.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .all(|t| t.as_str().unwrap().starts_with('#'))
        );

        // The title library: add (duplicates skipped), list, edit, delete; banned words refused.
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/ai_add",
                Some(&t),
                json!({"titles": ["火锅新品上线", "周末聚餐好去处", "火锅新品上线"]}),
            )
            .await;
        assert_eq!(r.ok()["added"], 2);
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/ai_add",
                Some(&t),
                json!({"titles": ["火锅新品上线"]}),
            )
            .await;
        assert_eq!(
            (r.ok()["added"].clone(), r.ok()["skipped"].clone()),
            (json!(0), json!(1))
        );
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/ai_add",
                Some(&t),
                json!({"titles": ["全网最低价火锅"]}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "titles");
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/ai_add",
                Some(&t),
                json!({"titles": ["x".repeat(51)]}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "titles");
        let list = app
            .post(
                "/screen.merchant_seo_lexicon/index",
                Some(&t),
                json!({"title": "聚餐"}),
            )
            .await;
        assert_eq!(list.ok()["total"], 1);
        let id = list.ok()["rows"][0]["id"].as_i64().unwrap();
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/ai_edit",
                Some(&t),
                json!({"id": id, "title": "周末聚餐就来这家"}),
            )
            .await;
        assert_eq!(r.ok()["title"], "周末聚餐就来这家");
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/ai_edit",
                Some(&t),
                json!({"id": id, "title": "火锅新品上线"}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "title");

        // Another merchant sees none of it and cannot change it.
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "rival").await;
        assert_eq!(
            app.post(
                "/screen.merchant_seo_lexicon/index",
                Some(&other),
                json!({})
            )
            .await
            .ok()["total"],
            0
        );
        assert_eq!(
            app.post("/seo.merchant_seo_lexicon/index", Some(&other), json!({}))
                .await
                .ok()["total"],
            0
        );
        app.post(
            "/screen.merchant_seo_lexicon/ai_edit",
            Some(&other),
            json!({"id": id, "title": "抢走"}),
        )
        .await
        .expect(404);
        app.post(
            "/screen.merchant_seo_lexicon/ai_delete",
            Some(&other),
            json!({"id": id}),
        )
        .await
        .expect(404);
        assert_eq!(
            app.post("/screen.merchant_seo_lexicon/index", Some(&t), json!({}))
                .await
                .ok()["total"],
            2
        );
        assert_eq!(
            app.get("/seo.merchant_seo_lexicon/profile", Some(&other))
                .await
                .ok()["brand"],
            ""
        );
        app.post(
            "/screen.merchant_seo_lexicon/ai_delete",
            Some(&t),
            json!({"ids": [id]}),
        )
        .await
        .ok();
        assert_eq!(
            app.post("/screen.merchant_seo_lexicon/index", Some(&t), json!({}))
                .await
                .ok()["total"],
            1
        );

        // Bad input names the field.
        for (path, body, field) in [
            (
                "/seo.merchant_seo_lexicon/add",
                json!({"kind": "brand", "words": ["x".repeat(21)]}),
                "words",
            ),
            (
                "/seo.merchant_seo_lexicon/add",
                json!({"kind": "brand", "words": [" "]}),
                "words",
            ),
            (
                "/seo.merchant_seo_lexicon/add",
                json!({"kind": "nope", "words": ["a"]}),
                "kind",
            ),
            (
                "/screen.merchant_seo_lexicon/ai_title",
                json!({"keywords": ["火锅"], "styles": ["nope"]}),
                "styles",
            ),
            (
                "/screen.merchant_seo_lexicon/ai_title",
                json!({"keywords": ["火锅"], "count": 0}),
                "count",
            ),
            (
                "/screen.merchant_seo_lexicon/ai_title",
                json!({"keywords": ["火锅"], "max_chars": 60}),
                "max_chars",
            ),
            (
                "/screen.merchant_seo_lexicon/ai_title",
                json!({"keywords": ["火锅"], "category_id": 99999}),
                "category_id",
            ),
            (
                "/screen.merchant_seo_lexicon/edit",
                json!({"brand": "b".repeat(31)}),
                "brand",
            ),
        ] {
            let r = app.post(path, Some(&t), body.clone()).await;
            r.expect(422);
            assert_eq!(r.data()["field"], field, "{path} {body}");
        }
    }
}

#[tokio::test]
async fn categories_and_keywords_built_in_by_the_administrator_own_by_the_merchant() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let admin = app.admin().await;
        let all = app
            .get("/screen.merchant_seo_lexicon/getAllAiCategory", Some(&t))
            .await;
        let cats = all.ok()["rows"].as_array().unwrap().clone();
        assert!(cats.len() >= 6 && cats.iter().all(|c| c["builtin"] == true));
        let food = cats.iter().find(|c| c["name"] == "餐饮美食").unwrap()["id"]
            .as_i64()
            .unwrap();
        // A merchant cannot change built-in ones.
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/keywords_add",
                Some(&t),
                json!({"category_id": food, "words": ["麻辣烫"]}),
            )
            .await;
        r.expect(403);
        app.post(
            "/screen.merchant_seo_lexicon/ai_category",
            Some(&t),
            json!({"id": food, "name": "改名"}),
        )
        .await
        .expect(403);
        // The Administrator can, and every merchant sees it.
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/keywords_add",
                Some(&admin),
                json!({"category_id": food, "words": ["麻辣烫", "火锅"]}),
            )
            .await;
        assert_eq!(
            (r.ok()["added"].clone(), r.ok()["skipped"].clone()),
            (json!(1), json!(1))
        );
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/keywords",
                Some(&t),
                json!({"word": "麻辣烫"}),
            )
            .await;
        assert_eq!(r.ok()["total"], 1);
        assert_eq!(r.ok()["rows"][0]["builtin"], true);
        let admin_cat = app
            .post(
                "/screen.merchant_seo_lexicon/ai_category",
                Some(&admin),
                json!({"name": "宠物服务"}),
            )
            .await;
        assert_eq!(admin_cat.ok()["builtin"], true);

        // The merchant's own category and keywords: seen by it only.
        let mine = app
            .post(
                "/screen.merchant_seo_lexicon/ai_category",
                Some(&t),
                json!({"name": "我的烘焙"}),
            )
            .await;
        let mine_id = mine.ok()["id"].as_i64().unwrap();
        assert_eq!(mine.ok()["builtin"], false);
        app.post(
            "/screen.merchant_seo_lexicon/ai_category",
            Some(&t),
            json!({"name": "我的烘焙"}),
        )
        .await
        .expect(422);
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/keywords_add",
                Some(&t),
                json!({"category_id": mine_id, "words": ["欧包", "生日蛋糕"]}),
            )
            .await;
        assert_eq!(r.ok()["added"], 2);
        let kid = app
            .post(
                "/screen.merchant_seo_lexicon/keywords",
                Some(&t),
                json!({"category_id": mine_id}),
            )
            .await
            .ok()["rows"][0]["id"]
            .as_i64()
            .unwrap();
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/keywords_edit",
                Some(&t),
                json!({"id": kid, "word": "贝果"}),
            )
            .await;
        assert_eq!(r.ok()["word"], "贝果");
        // Titles of that category use its words.
        let d = app
            .post(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"category_id": mine_id, "count": 20}),
            )
            .await
            .ok()
            .clone();
        assert!(
            titles(&d)
                .iter()
                .any(|t| t.contains("贝果") || t.contains("欧包")),
            "{:?}",
            titles(&d)
        );

        let other = app.second_merchant(&admin, "rival").await;
        let theirs = app
            .get(
                "/screen.merchant_seo_lexicon/getAllAiCategory",
                Some(&other),
            )
            .await;
        assert!(
            theirs.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["name"] != "我的烘焙")
        );
        assert_eq!(
            app.post(
                "/screen.merchant_seo_lexicon/keywords",
                Some(&other),
                json!({"category_id": mine_id})
            )
            .await
            .ok()["total"],
            0
        );
        app.post(
            "/screen.merchant_seo_lexicon/keywords_add",
            Some(&other),
            json!({"category_id": mine_id, "words": ["x"]}),
        )
        .await
        .expect(422);
        app.post(
            "/screen.merchant_seo_lexicon/keywords_edit",
            Some(&other),
            json!({"id": kid, "word": "y"}),
        )
        .await
        .expect(404);
        app.post(
            "/screen.merchant_seo_lexicon/keywords_delete",
            Some(&t),
            json!({"id": kid}),
        )
        .await
        .ok();
        assert_eq!(
            app.post(
                "/screen.merchant_seo_lexicon/keywords",
                Some(&t),
                json!({"category_id": mine_id})
            )
            .await
            .ok()["total"],
            1
        );
    }
}

/// Douyin's keyword video search: read with a Douyin account of the merchant that granted
/// `video.search` — the last day's videos whose text holds the word, newest first; without such an
/// account the answer has no source and no rows.
#[tokio::test]
async fn keyword_videos_are_the_last_days_from_douyins_search() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let ask = |word: &str| {
            app.post(
                "/seo.merchant_keywords/videos",
                Some(&t),
                json!({"word": word}),
            )
        };
        let none = ask("火锅").await;
        assert_eq!(none.ok()["source"], "none", "{}", none.body);
        assert!(none.ok()["rows"].as_array().unwrap().is_empty());

        common::publish::authorize_dy(&app, &t).await;
        // An account posting hotpot videos every hour for two days (its every title names the topic).
        let now = app.db.clock.platform_now();
        sandbox(
            &app,
            "POST",
            "/public_accounts",
            Some(json!({"nickname": "火锅夜宵王", "posts_per_day": 24, "start_ms": now - 2 * DAY, "topics": ["火锅"]})),
        )
        .await;
        let found = ask("火锅").await;
        assert_eq!(found.ok()["source"], "sandbox", "{}", found.body);
        let rows = found.ok()["rows"].as_array().unwrap().clone();
        // Only the last day's: about 24 of its 48.
        assert!((20..=40).contains(&rows.len()), "{}", found.body);
        let mut last = i64::MAX;
        for r in &rows {
            assert!(r["title"].as_str().unwrap().contains("火锅"), "{r}");
            let at = r["created_at"].as_i64().unwrap();
            assert!(at > now - DAY && at <= now && at <= last, "{r}");
            last = at;
            assert!(
                r["plays"].as_i64().unwrap() >= 0 && !r["sec_item_id"].as_str().unwrap().is_empty(),
                "{r}"
            );
        }
        // Bad input names the field.
        let r = ask(" ").await;
        assert_eq!(r.expect(422).data()["field"], "word", "{}", r.body);
    }
}

#[tokio::test]
async fn search_mining_and_collected_words_come_from_the_platform() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let r = app
            .post(
                "/seo.merchant_keywords/search",
                Some(&t),
                json!({"platform": "dy", "word": "火锅"}),
            )
            .await;
        // The sandbox's words are simulated, and say so.
        assert_eq!(r.ok()["source"], "sandbox");
        let rows = r.ok()["rows"].as_array().unwrap().clone();
        assert!(
            rows.iter()
                .any(|w| w["word"] == "火锅" && w["kind"] == "seed")
        );
        let tail = rows
            .iter()
            .find(|w| w["kind"] == "long_tail" && w["word"].as_str().unwrap().contains("火锅"))
            .unwrap();
        assert_eq!(tail["trend"].as_array().unwrap().len(), 7);
        assert_eq!(tail["heat"], tail["trend"][6]);
        let (then, now) = (
            tail["trend"][0].as_f64().unwrap(),
            tail["trend"][6].as_f64().unwrap(),
        );
        assert!(
            (tail["change"].as_f64().unwrap() - (now - then) / then).abs() < 1e-9,
            "{tail}"
        );
        assert_eq!(tail["collected"], false);
        let word = tail["word"].as_str().unwrap().to_string();

        let c = app
            .post(
                "/seo.merchant_keywords/collect",
                Some(&t),
                json!({"platform": "dy", "word": word, "heat": tail["heat"]}),
            )
            .await;
        c.ok();
        app.post(
            "/seo.merchant_keywords/collect",
            Some(&t),
            json!({"platform": "dy", "word": word, "heat": 1}),
        )
        .await
        .ok();
        let l = app
            .post("/seo.merchant_keywords/list", Some(&t), json!({}))
            .await;
        assert_eq!(l.ok()["total"], 1);
        assert_eq!(l.ok()["rows"][0]["heat"], 1);
        let r = app
            .post(
                "/seo.merchant_keywords/search",
                Some(&t),
                json!({"platform": "dy", "word": "火锅"}),
            )
            .await;
        assert!(
            r.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w["word"] == word.as_str() && w["collected"] == true)
        );

        // Mining goes two levels deep, each word once.
        let r = app
            .post(
                "/seo.merchant_keywords/excavate",
                Some(&t),
                json!({"platform": "dy", "word": "火锅"}),
            )
            .await;
        assert_eq!(r.ok()["source"], "sandbox");
        let rows = r.ok()["rows"].as_array().unwrap().clone();
        assert!(
            rows.iter()
                .any(|w| w["depth"] == 2 && w["parent"] != "火锅")
        );
        let words: Vec<&str> = rows.iter().map(|w| w["word"].as_str().unwrap()).collect();
        assert_eq!(words.iter().collect::<HashSet<_>>().len(), words.len());

        // The hot lists of both platforms; a platform without one is refused.
        let hot = app
            .post(
                "/seo.merchant_keywords/hot",
                Some(&t),
                json!({"platform": "dy"}),
            )
            .await;
        assert!(hot.ok()["rows"].as_array().unwrap().len() >= 10);
        assert_eq!(hot.ok()["rows"][0]["rank"], 1);
        assert_eq!(hot.ok()["source"], "sandbox");
        let ks = app
            .post(
                "/seo.merchant_keywords/hot",
                Some(&t),
                json!({"platform": "ks"}),
            )
            .await;
        assert!(!ks.ok()["rows"].as_array().unwrap().is_empty());
        assert_eq!(ks.ok()["source"], "sandbox");
        let r = app
            .post(
                "/seo.merchant_keywords/search",
                Some(&t),
                json!({"platform": "xhs", "word": "火锅"}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "platform");
        let r = app
            .post(
                "/seo.merchant_keywords/search",
                Some(&t),
                json!({"platform": "dy", "word": "  "}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "word");
        let r = app
            .post_en(
                "/seo.merchant_keywords/search",
                Some(&t),
                json!({"platform": "dy", "word": "x".repeat(21)}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "word");

        // Another merchant: none of these words.
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "rival").await;
        assert_eq!(
            app.post("/seo.merchant_keywords/list", Some(&other), json!({}))
                .await
                .ok()["total"],
            0
        );
        let id = l.ok()["rows"][0]["id"].as_i64().unwrap();
        app.post(
            "/seo.merchant_keywords/delete",
            Some(&other),
            json!({"id": id}),
        )
        .await
        .expect(404);
        assert_eq!(
            app.post("/seo.merchant_keywords/list", Some(&t), json!({}))
                .await
                .ok()["total"],
            1
        );
        app.post("/seo.merchant_keywords/delete", Some(&t), json!({"id": id}))
            .await
            .ok();
        assert_eq!(
            app.post("/seo.merchant_keywords/list", Some(&t), json!({}))
                .await
                .ok()["total"],
            0
        );
    }
}

async fn sandbox(app: &TestApp, method: &str, path: &str, body: Option<Value>) -> Value {
    let url = app.url(&format!("/sandbox/_control{path}"));
    let req = if method == "GET" {
        app.http.get(url)
    } else {
        app.http.post(url)
    };
    let req = match body {
        Some(b) => req.json(&b),
        None => req,
    };
    req.send().await.unwrap().json().await.unwrap()
}

#[tokio::test]
async fn a_benchmark_account_is_followed_over_simulated_days() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let rival = sandbox(
            &app,
            "POST",
            "/public_accounts",
            Some(json!({"nickname": "对面火锅", "posts_per_day": 3, "topics": ["火锅", "毛肚"]})),
        )
        .await;
        let short = rival["short_url"].as_str().unwrap();
        let id = rival["id"].as_str().unwrap();
        let b = app
            .post(
                "/seo.benchmark/add",
                Some(&t),
                json!({"platform": "dy", "link": format!("看看这家 {short} 复制此链接")}),
            )
            .await;
        let b = b.ok().clone();
        assert_eq!(b["nickname"], "对面火锅");
        // Read through the sandbox's imitation of the data vendor: simulated figures.
        assert_eq!(b["source"], "sandbox");
        assert_eq!(b["account_id"], id);
        let bid = b["id"].as_i64().unwrap();
        // The same account again is the same row.
        let again = app
            .post(
                "/seo.benchmark/add",
                Some(&t),
                json!({"platform": "dy", "link": id}),
            )
            .await;
        assert_eq!(again.ok()["id"], bid);

        // Two simulated days: the scheduled sync reads it again; its figures are the platform's.
        app.db.clock.advance(2 * DAY + 3_600_000);
        let queued = services::seo::benchmark::queue_due(&app.db, app.db.clock.platform_now())
            .await
            .unwrap();
        assert!(queued >= 1);
        // The sandbox's figures grow with its clock while the worker reads them: read the truth before
        // the worker starts and after it is done, and the stored figures lie between the two.
        let url = format!("/public_accounts/{id}");
        let before = sandbox(&app, "GET", &url, None).await;
        app.start_worker();
        let want_works = before["videos"].as_array().unwrap().len() as i64;
        assert!(want_works >= 6, "{want_works}");
        let mut row = Value::Null;
        for _ in 0..100 {
            row = app
                .post("/seo.benchmark/index", Some(&t), json!({}))
                .await
                .ok()["rows"][0]
                .clone();
            if row["works"].as_i64().unwrap_or(0) >= want_works {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let d = app
            .post("/seo.benchmark/info", Some(&t), json!({"id": bid}))
            .await
            .ok()
            .clone();
        let after = sandbox(&app, "GET", &url, None).await;
        let within = |what: &str, got: &Value, pick: &dyn Fn(&Value) -> i64| {
            let (low, high, got) = (pick(&before), pick(&after), got.as_i64().unwrap());
            assert!(
                low <= got && got <= high,
                "{what} {got} outside the sandbox's {low}..={high}"
            );
        };
        let plays = |t: &Value| -> Vec<i64> {
            let videos = t["videos"].as_array().unwrap();
            videos
                .iter()
                .map(|v| v["plays"].as_i64().unwrap())
                .collect()
        };
        within("works", &row["works"], &|t| {
            t["videos"].as_array().unwrap().len() as i64
        });
        within("followers", &row["followers"], &|t| {
            t["account"]["follower_count"].as_i64().unwrap()
        });
        assert_eq!(row["last_error"], "");
        let last = d["series"].as_array().unwrap().last().unwrap().clone();
        within("plays", &last["plays"], &|t| plays(t).iter().sum());
        assert!(d["series"].as_array().unwrap().len() >= 2);
        within("top plays", &d["top"][0]["plays"], &|t| {
            *plays(t).iter().max().unwrap()
        });
        assert!(!d["words"].as_array().unwrap().is_empty());
        assert_eq!(d["posts"].as_array().unwrap().len(), 30);
        assert!(d["per_day"].as_f64().unwrap() > 0.0);

        // Another tenant sees nothing; a link that resolves to nothing is a clear 422.
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "rival").await;
        app.post("/seo.benchmark/info", Some(&other), json!({"id": bid}))
            .await
            .expect(404);
        app.post("/seo.benchmark/sync", Some(&other), json!({"id": bid}))
            .await
            .expect(404);
        app.post("/seo.benchmark/delete", Some(&other), json!({"id": bid}))
            .await
            .expect(404);
        let r = app
            .post_en(
                "/seo.benchmark/add",
                Some(&t),
                json!({"platform": "dy", "link": "https://v.douyin.com/zzzzzzzz/"}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "link");
        let r = app
            .post(
                "/seo.benchmark/add",
                Some(&t),
                json!({"platform": "dy", "link": ""}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "link");
        app.post("/seo.benchmark/delete", Some(&t), json!({"id": bid}))
            .await
            .ok();
        assert_eq!(
            app.post("/seo.benchmark/index", Some(&t), json!({}))
                .await
                .ok()["total"],
            0
        );
    }
}

/// Live platforms without a source for a figure: no number, `source: none`; the vendor's key is
/// configured at System → Platform apps, sealed and masked. No call leaves for a real host here.
#[tokio::test]
async fn figures_without_a_configured_source_are_not_shown_as_numbers() {
    for backend in backends() {
        let app = TestApp::spawn_with(backend, |s| {
            let mut h = (*s.hub).clone();
            h.sandbox = false;
            s.hub = std::sync::Arc::new(h);
        })
        .await;
        let t = app.demo().await;
        let admin = app.admin().await;
        // KS live (its app configured): no hot-search API, no simulated list.
        app.post(
            "/system/app/save",
            Some(&admin),
            json!({"platform": "ks", "client_key": "ks-app-id", "client_secret": "ks-secret-value"}),
        )
        .await
        .ok();
        let ks = app
            .post(
                "/seo.merchant_keywords/hot",
                Some(&t),
                json!({"platform": "ks"}),
            )
            .await;
        assert_eq!(ks.ok()["source"], "none");
        assert!(ks.ok()["rows"].as_array().unwrap().is_empty());
        let r = app
            .post(
                "/seo.merchant_keywords/search",
                Some(&t),
                json!({"platform": "ks", "word": "火锅"}),
            )
            .await;
        assert_eq!(r.ok()["source"], "none");
        assert!(r.ok()["rows"].as_array().unwrap().is_empty());

        // No vendor and no sandbox: benchmark accounts have no source, and the 422 names it.
        let v = app
            .post("/system/app/vendor", Some(&admin), json!({}))
            .await;
        assert_eq!(v.ok()["source"], "none");
        assert_eq!(v.ok()["configured"], false);
        let r = app
            .post_en(
                "/seo.benchmark/add",
                Some(&t),
                json!({"platform": "dy", "link": "MS4wLjABAAAAsbx0000000000001"}),
            )
            .await;
        let r = r.expect(422);
        assert_eq!(r.data()["field"], "link");
        assert!(r.message().contains("TikHub"), "{}", r.message());

        // The vendor's key: sealed, shown masked, and the source is TikHub from then on.
        let v = app
            .post(
                "/system/app/vendor_save",
                Some(&admin),
                json!({"api_key": "thk-live-key-0123456789"}),
            )
            .await;
        assert_eq!(v.ok()["source"], "tikhub");
        assert_eq!(v.ok()["configured"], true);
        let shown = v.ok()["api_key"].as_str().unwrap().to_string();
        assert!(!shown.contains("0123456789"), "{shown}");
        let stored: String =
            sqlx::query_scalar("SELECT client_secret FROM platform_apps WHERE platform = 'tikhub'")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert!(!stored.contains("thk-live-key"), "sealed at rest");
        app.post(
            "/system/app/vendor_save",
            Some(&admin),
            json!({"api_key": " "}),
        )
        .await
        .expect(422);
        // Merchants do not configure it.
        app.post("/system/app/vendor", Some(&t), json!({}))
            .await
            .expect(403);
        let v = app
            .post("/system/app/vendor_clear", Some(&admin), json!({}))
            .await;
        assert_eq!(v.ok()["source"], "none");
    }
}

#[tokio::test]
async fn a_configured_provider_writes_titles_and_a_broken_one_falls_back_saying_why() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let admin = app.admin().await;
        let base = app.url("/sandbox/llm/v1");
        app.post(
            "/system/ai_provider/save",
            Some(&t),
            json!({"base_url": base, "model": "m", "api_key": "k"}),
        )
        .await
        .expect(403);
        let r = app
            .post(
                "/system/ai_provider/save",
                Some(&admin),
                json!({"base_url": "ftp://x", "model": "m", "api_key": "k"}),
            )
            .await;
        assert_eq!(r.expect(422).data()["field"], "base_url");
        let r = app
            .post(
                "/system/ai_provider/save",
                Some(&admin),
                json!({"base_url": base, "model": "sbx-chat", "api_key": platforms::sandbox::llm::SANDBOX_LLM_KEY}),
            )
            .await;
        assert_eq!(r.ok()["configured"], true);
        assert_ne!(r.ok()["api_key"], platforms::sandbox::llm::SANDBOX_LLM_KEY);
        let d = app
            .post(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"keywords": ["毛肚", "牛油锅底"], "count": 8}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(d["provider"], "openai");
        let ts = titles(&d);
        assert_eq!(ts.len(), 8, "{ts:?}");
        assert!(
            ts.iter()
                .all(|t| (t.contains("毛肚") || t.contains("牛油锅底"))
                    && !t.starts_with(char::is_numeric)),
            "{ts:?}"
        );

        // A provider that refuses (a failing model) or cannot be reached: the built-in engine writes
        // and the answer says why (crates/app/tests/writer.rs has every fault).
        app.post(
            "/system/ai_provider/save",
            Some(&admin),
            json!({"base_url": base, "model": "fail", "api_key": ""}),
        )
        .await
        .ok();
        let r = app
            .post_en(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"keywords": ["毛肚"]}),
            )
            .await;
        assert_eq!(r.ok()["provider"], "builtin");
        assert_eq!(r.ok()["source"]["kind"], "built_in");
        let why = r.ok()["source"]["fallback_reason"].as_str().unwrap();
        assert!(why.contains("500"), "{why}");
        assert!(!titles(r.ok()).is_empty());
        app.post(
            "/system/ai_provider/save",
            Some(&admin),
            json!({"base_url": "http://127.0.0.1:9/v1", "model": "m", "api_key": "k"}),
        )
        .await
        .ok();
        let r = app
            .post(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"keywords": ["毛肚"]}),
            )
            .await;
        let why = r.ok()["source"]["fallback_reason"].as_str().unwrap();
        assert!(why.starts_with("无法连接 AI 服务"), "{why}");
        // Cleared: the built-in engine again.
        app.post("/system/ai_provider/clear", Some(&admin), json!({}))
            .await
            .ok();
        let d = app
            .post(
                "/screen.merchant_seo_lexicon/ai_title",
                Some(&t),
                json!({"keywords": ["毛肚"]}),
            )
            .await;
        assert_eq!(d.ok()["provider"], "builtin");
    }
}

#[tokio::test]
async fn staff_without_the_seo_menus_are_refused() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let log = app.menu_id(&demo, "/log").await;
    let watch = app.menu_id(&demo, "/account_see").await;
    app.post(
        "/user.merchant_user_sub/add",
        Some(&demo),
        json!({"username":"nomenu","nickname":"N","password":"abc12345","menu_ids":[log]}),
    )
    .await
    .ok();
    app.post(
        "/user.merchant_user_sub/add",
        Some(&demo),
        json!({"username":"watcher","nickname":"W","password":"abc12345","menu_ids":[watch]}),
    )
    .await
    .ok();
    let nomenu = app.login(3, "nomenu", "abc12345").await;
    let watcher = app.login(3, "watcher", "abc12345").await;
    for path in [
        "/screen.merchant_seo_lexicon/index",
        "/screen.merchant_seo_lexicon/ai_title",
        "/screen.merchant_seo_lexicon/ai_add",
        "/screen.merchant_seo_lexicon/keywords_add",
        "/screen.merchant_seo_lexicon/getAllAiCategory",
        "/seo.merchant_seo_lexicon/add",
        "/seo.merchant_keywords/search",
        "/seo.merchant_keywords/collect",
        "/seo.benchmark/index",
        "/seo.benchmark/add",
        "/system/ai_provider/index",
    ] {
        app.post(path, Some(&nomenu), json!({})).await.expect(403);
    }
    // The benchmark menu grants benchmarks, not titles.
    app.post("/seo.benchmark/index", Some(&watcher), json!({}))
        .await
        .ok();
    app.post(
        "/screen.merchant_seo_lexicon/ai_title",
        Some(&watcher),
        json!({}),
    )
    .await
    .expect(403);
}

/// 随机标题/随机话题 gave a hat shop hotpot and milk-tea copy (the first built-in category's words, taken
/// when the merchant had no lexicon). They come from the merchant's own products, keywords and recent
/// work, and are none at all (the console says where to add words) when there is nothing yet.
#[tokio::test]
async fn random_titles_and_topics_come_from_the_merchants_own_trade() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let mid = demo_merchant(&app).await;
        let random = |path: &'static str| {
            let app = &app;
            let t = &t;
            async move {
                let r = app
                    .post(
                        &format!("/matrix.merchant_publish_management/{path}"),
                        Some(t),
                        json!({"count": 5}),
                    )
                    .await;
                r.ok()["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
            }
        };
        let food = ["火锅", "烧烤", "奶茶", "招牌菜", "团购套餐", "聚餐", "小吃"];
        let none_of_food =
            |rows: &[String]| rows.iter().all(|r| food.iter().all(|f| !r.contains(f)));
        for path in ["getRandomAiTitleList", "getRandomTopicList"] {
            let rows = random(path).await;
            assert!(
                rows.is_empty(),
                "{path}: nothing of this merchant's yet: {rows:?}"
            );
        }

        // A one-touch topic and a quick-mix project of the hat shop.
        sqlx::query(
            "INSERT INTO ai_clips (merchant_id, user_id, name, topic, created_at, updated_at) \
             VALUES ($1, 0, '一键成片 1', $2, 0, 0)",
        )
        .bind(mid)
        .bind("夏季新款防晒帽：UPF50+面料，宽檐遮脸遮脖子，可折叠收纳，门店周末买一送一")
        .execute(&app.db.pool)
        .await
        .unwrap();
        store::clip::add_project(
            &app.db,
            mid,
            domain::clip::ProjectMode::Normal,
            "防晒帽夏季上新",
            "{}",
        )
        .await
        .unwrap();
        // Every title carries a word of the hat shop's work, every topic is one.
        let said = "夏季新款防晒帽：UPF50+面料，宽檐遮脸遮脖子，可折叠收纳，门店周末买一送一 防晒帽夏季上新";
        let hat_words = [
            "防晒",
            "帽",
            "UPF",
            "面料",
            "宽檐",
            "遮脸",
            "脖子",
            "折叠",
            "收纳",
            "门店",
            "买一送一",
            "新款",
            "夏季",
            "上新",
        ];
        let titles = random("getRandomAiTitleList").await;
        assert_eq!(titles.len(), 5, "{titles:?}");
        assert!(none_of_food(&titles), "{titles:?}");
        assert!(
            titles
                .iter()
                .all(|t| hat_words.iter().any(|w| t.contains(w))),
            "{titles:?}"
        );
        let topics = random("getRandomTopicList").await;
        assert!(!topics.is_empty() && none_of_food(&topics), "{topics:?}");
        assert!(
            topics
                .iter()
                .all(|t| said.contains(t.trim_start_matches('#'))),
            "{topics:?}"
        );

        // The merchant's own product and keywords join them.
        app.post(
            "/screen.merchant_seo_lexicon/edit",
            Some(&t),
            json!({"brand": "", "product": "渔夫帽", "region": "", "description": "", "category_id": 0}),
        )
        .await
        .ok();
        let titles = random("getRandomAiTitleList").await;
        assert!(none_of_food(&titles), "{titles:?}");
        assert!(titles.iter().any(|t| t.contains("渔夫帽")), "{titles:?}");
    }
}
