//! The configured LLM wherever the console says AI (`services::writer`): with a provider at
//! `/system/ai_provider` every AI result (titles, topics, random titles and topics) is the provider's
//! answer and says `llm` with the model; without one, or when it fails (a timeout, 429, an answer that
//! is not JSON, a 503), the built-in writer's, saying `built_in` and why. The one-touch script:
//! `aiclip::a_one_touch_script_is_the_llms_or_the_built_in_writers`.

use crate::common::*;
use serde_json::{Value, json};

/// The hat shop's own words (a one-touch topic): what random titles and topics draw from.
async fn hat_shop(app: &TestApp) {
    sqlx::query(
        "INSERT INTO ai_clips (merchant_id, user_id, name, topic, created_at, updated_at) \
         VALUES ($1, 0, '一键成片 1', $2, 0, 0)",
    )
    .bind(demo_merchant(app).await)
    .bind("夏季新款防晒帽：UPF50+面料，宽檐遮脸遮脖子，可折叠收纳，门店周末买一送一")
    .execute(&app.db.pool)
    .await
    .unwrap();
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// A line as compared: letters and digits, lower case (a topic "#UPF50+面料" is kept as "#UPF50面料").
fn norm(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

/// The newest answer of the sandbox's LLM to `task`, as lines (normalized).
async fn newest(app: &TestApp, task: &str) -> Vec<String> {
    let answers = llm_answers(app).await;
    let (_, content) = answers
        .iter()
        .find(|(t, _)| t == task)
        .unwrap_or_else(|| panic!("no {task} answer: {answers:?}"));
    answer_lines(content).iter().map(|l| norm(l)).collect()
}

/// Every result is one of the answer's lines.
fn all_said(rows: &[String], said: &[String]) {
    assert!(
        !rows.is_empty() && rows.iter().all(|r| said.contains(&norm(r))),
        "{rows:?} {said:?}"
    );
}

fn assert_built_in(source: &Value, why: &str) {
    assert_eq!(source["kind"], "built_in", "{source}");
    assert_eq!(source["model"], "", "{source}");
    let reason = source["fallback_reason"].as_str().unwrap();
    if why.is_empty() {
        assert_eq!(reason, "", "{source}");
    } else {
        assert!(reason.contains(why), "{why:?} in {source}");
    }
}

const TITLE: &str = "/screen.merchant_seo_lexicon/ai_title";
const RANDOM_TITLES: &str = "/matrix.merchant_publish_management/getRandomAiTitleList";
const RANDOM_TOPICS: &str = "/matrix.merchant_publish_management/getRandomTopicList";

#[tokio::test]
async fn every_ai_result_says_which_writer_produced_it() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let admin = app.admin().await;
        hat_shop(&app).await;
        let ask = json!({"keywords": ["毛肚", "牛油锅底"], "count": 8, "topics": true});

        // No provider: the built-in writer, no reason.
        let d = app.post(TITLE, Some(&t), ask.clone()).await.ok().clone();
        assert_built_in(&d["source"], "");
        assert_built_in(&d["topics_source"], "");
        assert_eq!(d["provider"], "builtin");
        for path in [RANDOM_TITLES, RANDOM_TOPICS] {
            let d = app.post(path, Some(&t), json!({"count": 5})).await;
            assert!(!strings(&d.ok()["rows"]).is_empty(), "{path}");
            assert_built_in(&d.ok()["source"], "");
        }
        assert!(llm_answers(&app).await.is_empty());

        // The sandbox's LLM: every result is its answer, and says so.
        use_sandbox_llm(&app, &admin, 0).await;
        let llm = json!({"kind": "llm", "model": "sbx-chat", "fallback_reason": ""});
        let d = app.post(TITLE, Some(&t), ask.clone()).await.ok().clone();
        assert_eq!(d["source"], llm);
        assert_eq!(d["topics_source"], llm);
        assert_eq!(d["provider"], "openai");
        let said = newest(&app, "titles").await;
        let titles = column(&d, "title");
        assert_eq!(titles.len(), 8, "{titles:?}");
        all_said(&titles, &said);
        all_said(&strings(&d["topics"]), &newest(&app, "topics").await);

        let d = app.post(RANDOM_TITLES, Some(&t), json!({"count": 5})).await;
        assert_eq!(d.ok()["source"], llm);
        all_said(&strings(&d.ok()["rows"]), &newest(&app, "titles").await);
        let d = app.post(RANDOM_TOPICS, Some(&t), json!({"count": 5})).await;
        assert_eq!(d.ok()["source"], llm);
        all_said(&strings(&d.ok()["rows"]), &newest(&app, "topics").await);

        // Cleared: built-in again.
        app.post("/system/ai_provider/clear", Some(&admin), json!({}))
            .await
            .ok();
        let d = app.post(RANDOM_TITLES, Some(&t), json!({"count": 5})).await;
        assert_built_in(&d.ok()["source"], "");
    }
}

#[tokio::test]
async fn a_failing_provider_falls_back_to_the_built_in_writer_and_says_why() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let admin = app.admin().await;
        hat_shop(&app).await;
        // Answers held 3 s time out after 1 s.
        use_sandbox_llm(&app, &admin, 1000).await;
        let ask = json!({"keywords": ["毛肚", "牛油锅底"], "count": 5});
        for (fault, en, zh) in [
            ("timeout", "did not answer within 1 s", "超时"),
            ("throttle", "answered 429", "429"),
            ("malformed", "not valid JSON", "JSON"),
            ("down", "answered 503", "503"),
        ] {
            llm_fault(&app, fault, 1).await;
            let d = app.post_en(TITLE, Some(&t), ask.clone()).await;
            assert_built_in(&d.ok()["source"], en);
            assert_eq!(d.ok()["provider"], "builtin");
            assert_eq!(column(d.ok(), "title").len(), 5, "{fault}");
            // The same fault in Chinese, on the release form's random titles and topics.
            for path in [RANDOM_TITLES, RANDOM_TOPICS] {
                llm_fault(&app, fault, 1).await;
                let d = app.post(path, Some(&t), json!({"count": 5})).await;
                assert_built_in(&d.ok()["source"], zh);
                assert!(!strings(&d.ok()["rows"]).is_empty(), "{fault} {path}");
            }
        }
        // The operator's page shows the last failure, in the reader's language.
        let p = app.get("/system/ai_provider/index", Some(&admin)).await;
        let last = &p.ok()["last_fallback"];
        assert_eq!(last["use_"], "topics", "{}", p.body);
        assert!(
            last["reason"].as_str().unwrap().contains("503"),
            "{}",
            p.body
        );
        // Recovered: the provider's again.
        let d = app.post(TITLE, Some(&t), ask.clone()).await;
        assert_eq!(d.ok()["source"]["kind"], "llm");
        assert_eq!(d.ok()["source"]["fallback_reason"], "");
    }
}

/// A customer's comment on the demo merchant's video; its row id.
async fn comment(app: &TestApp, text: &str, intent: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO eng_comments (merchant_id, account_id, platform, item_id, item_title, comment_id, \
         content, created_at, intent, synced_at) VALUES ($1, 0, 'dy', 'v1', '夏季新款防晒帽', $2, $2, 0, $3, 0) \
         RETURNING id",
    )
    .bind(demo_merchant(app).await)
    .bind(text)
    .bind(intent)
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

const SUGGEST: &str = "/task.merchant_comment/suggest_replies";

/// The comments page's suggested answers: the provider's lines that pass the comment-reply rules,
/// else the built-in writer's stock answers for what the comment is after; another merchant's
/// comment is not found.
#[tokio::test]
async fn reply_suggestions_are_the_llms_or_the_built_in_writers() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let admin = app.admin().await;
        let asks_price = comment(&app, "多少钱？怎么买", "purchase").await;

        let d = app.post(SUGGEST, Some(&t), json!({"id": asks_price})).await;
        assert_built_in(&d.ok()["source"], "");
        let rows = strings(&d.ok()["rows"]);
        assert_eq!(rows.len(), 3, "{rows:?}");
        assert!(rows.iter().any(|r| r.contains("私信")), "{rows:?}");
        // An English comment gets English answers, whatever the reader's language.
        let english = comment(&app, "How much is it?", "purchase").await;
        let d = app.post(SUGGEST, Some(&t), json!({"id": english})).await;
        assert!(
            strings(&d.ok()["rows"]).iter().all(|r| r.is_ascii()),
            "{}",
            d.body
        );

        use_sandbox_llm(&app, &admin, 1000).await;
        let d = app.post(SUGGEST, Some(&t), json!({"id": asks_price})).await;
        assert_eq!(d.ok()["source"]["kind"], "llm", "{}", d.body);
        let rows = strings(&d.ok()["rows"]);
        assert_eq!(rows.len(), 3, "{rows:?}");
        all_said(&rows, &newest(&app, "replies").await);
        assert!(rows.iter().all(|r| r.chars().count() <= 30), "{rows:?}");

        llm_fault(&app, "throttle", 1).await;
        let d = app.post(SUGGEST, Some(&t), json!({"id": asks_price})).await;
        assert_built_in(&d.ok()["source"], "429");
        assert_eq!(strings(&d.ok()["rows"]).len(), 3);

        let other = app.second_merchant(&admin, "reply_other").await;
        app.post(SUGGEST, Some(&other), json!({"id": asks_price}))
            .await
            .expect(404);
    }
}

/// The operator sets how long the provider may take; a staff member with the NFC menu only writes
/// AI titles in the tag's titles dialog (the same call as the SEO pages).
#[tokio::test]
async fn the_provider_timeout_is_the_operators_and_nfc_staff_write_ai_titles() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let admin = app.admin().await;
    let save = |timeout: Value| {
        app.post(
            "/system/ai_provider/save",
            Some(&admin),
            json!({"base_url": app.url("/sandbox/llm/v1"), "model": "sbx-chat",
                   "api_key": platforms::sandbox::llm::SANDBOX_LLM_KEY, "timeout_s": timeout}),
        )
    };
    assert_eq!(save(json!(0)).await.ok()["timeout_s"], 30);
    assert_eq!(save(json!(5)).await.ok()["timeout_s"], 5);
    let r = save(json!(121)).await;
    assert_eq!(r.expect(422).data()["field"], "timeout_s", "{}", r.body);
    assert_eq!(
        app.get("/system/ai_provider/index", Some(&admin))
            .await
            .ok()["timeout_s"],
        5
    );

    let nfc = app.menu_id(&t, "/nfc").await;
    app.post(
        "/user.merchant_user_sub/add",
        Some(&t),
        json!({"username": "nfc_only", "nickname": "nfc_only", "password": "abc12345", "menu_ids": [nfc]}),
    )
    .await
    .ok();
    let staff = app.login(3, "nfc_only", "abc12345").await;
    let d = app
        .post(
            TITLE,
            Some(&staff),
            json!({"keywords": ["毛肚"], "count": 3, "max_chars": 50}),
        )
        .await;
    assert_eq!(d.ok()["source"]["kind"], "llm", "{}", d.body);
    // Only that call: the rest of the SEO area stays closed.
    app.post(
        "/screen.merchant_seo_lexicon/index",
        Some(&staff),
        json!({}),
    )
    .await
    .expect(403);
}
