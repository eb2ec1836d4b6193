//! Control characters (NUL, BEL, ESC) in free text that is read aloud, burned into subtitles and
//! titles or shown to customers are refused, naming the field, in zh-CN and English.

use crate::common;

use common::*;
use serde_json::{Value, json};

/// A 422 naming `field` and the control character, in both languages.
async fn refused(app: &TestApp, t: &str, path: &str, body: Value, field: &str, code: &str) {
    let label = domain::i18n::field_label(field, domain::i18n::Lang::Zh);
    let r = app.post(path, Some(t), body.clone()).await;
    assert_eq!(
        (r.status, r.data()["field"].as_str(), r.message()),
        (
            422,
            Some(field),
            format!("{label} 含有控制字符（{code}），请去掉后重试").as_str()
        ),
        "{path}: {}",
        r.body
    );
    let r = app.post_en(path, Some(t), body).await;
    assert_eq!(
        r.message(),
        format!("{field} contains a control character ({code}); remove it and try again"),
        "{path}"
    );
}

#[tokio::test]
async fn control_characters_are_refused_in_voice_seo_and_tag_texts() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        // The text a voice-over reads (and its subtitles copy).
        let voice = json!({"text": "买一送一\u{7}。", "voice": "zf_xiaoxiao", "volume": 50, "speed": 0, "intonation": 0});
        refused(
            &app,
            &t,
            "/ai.MerchantDub/putNlsTask",
            voice,
            "text",
            "U+0007",
        )
        .await;
        // SEO words.
        let words = json!({"kind": "banned", "words": ["毛肚\u{0}"]});
        refused(
            &app,
            &t,
            "/seo.merchant_seo_lexicon/add",
            words,
            "words",
            "U+0000",
        )
        .await;
        // An NFC tag's topics and titles.
        let pool = group(&app, &t, "门店").await;
        let tag = |topics: Value| {
            json!({"name": "收银台", "platform": "dy", "pool_kind": "group", "pool_id": pool,
                   "activity_id": 0, "topics": topics, "enabled": true})
        };
        refused(
            &app,
            &t,
            "/nfc.index/add",
            tag(json!(["探店\u{1b}[2J"])),
            "topics",
            "U+001B",
        )
        .await;
        let id = app
            .post("/nfc.index/add", Some(&t), tag(json!(["探店"])))
            .await
            .ok()["id"]
            .clone();
        let titles = json!({"tag_id": id, "titles": ["来打卡", "好吃\u{1b}不贵"]});
        refused(&app, &t, "/nfc.index/title_add", titles, "titles", "U+001B").await;
        // Tabs are still text.
        app.post(
            "/nfc.index/title_add",
            Some(&t),
            json!({"tag_id": id, "titles": ["来打卡\t好吃"]}),
        )
        .await
        .ok();
    }
}
