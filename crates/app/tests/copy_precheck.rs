//! The copy precheck through HTTP (issue 39): the inline check the console calls as the merchant types,
//! the server's check before a release task is stored (also when the console is bypassed), the
//! operator's banned words for one merchant, and the other forms that save a merchant's words.

use crate::common;
use common::publish::*;
use common::*;
use serde_json::{Value, json};

fn finding(r: &Resp, i: usize) -> &Value {
    &r.ok()["findings"][i]
}

#[tokio::test]
async fn copy_precheck_flags_as_typed_and_blocks_tasks_whatever_the_caller() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;

        // Inline: offsets in UTF-16 units, the rule, its source in the reader's language, the rewrite.
        let r = app
            .post(
                "/index/copyCheck",
                Some(&t),
                json!({"text": "🔥这是我们店最好的火锅", "platforms": ["dy"]}),
            )
            .await;
        let f = finding(&r, 0);
        assert_eq!(f["rule_id"], "ad.absolute.superlative", "{}", r.body);
        assert_eq!((f["start"].as_i64(), f["end"].as_i64()), (Some(7), Some(9)));
        assert_eq!(
            (f["term"].as_str(), f["suggestion"].as_str()),
            (Some("最好"), Some("很好"))
        );
        assert_eq!(f["source"], "广告法 第九条(三)");
        assert_eq!(f["severity"], "block");
        assert_eq!(r.ok()["blocked"], true);
        let r = app
            .post_en(
                "/index/copyCheck",
                Some(&t),
                json!({"text": "三天根治脚气", "platforms": []}),
            )
            .await;
        assert_eq!(finding(&r, 0)["source"], "Advertising Law, Art. 17");
        assert!(finding(&r, 0)["suggestion"].is_null());
        for fine in ["最近新开的火锅店", "第一次来成都", "顾客第一"] {
            let r = app
                .post("/index/copyCheck", Some(&t), json!({"text": fine}))
                .await;
            assert_eq!(r.ok()["findings"], json!([]), "{fine}");
        }
        // Only for a signed-in caller; too long a text is refused.
        app.post("/index/copyCheck", None, json!({"text": "最好"}))
            .await
            .expect(401);
        app.post(
            "/index/copyCheck",
            Some(&t),
            json!({"text": "好".repeat(10_001)}),
        )
        .await
        .expect(422);

        // The server's check: a task whose title has an absolute term is refused, naming the rule, in
        // preview and in confirm, by a client that never ran the inline check.
        let dy = authorize_dy(&app, &t).await;
        let vids = videos(&app, &t, 1).await;
        let path = "/matrix.merchant_publish_management/createCommonPublishTask";
        for preview in [true, false] {
            let r = app
                .post(
                    path,
                    Some(&t),
                    task(
                        &app,
                        &[dy],
                        &vids,
                        json!({"titles": "春天的第一杯奶茶#全城最好的奶茶", "preview": preview}),
                    ),
                )
                .await;
            r.expect(422);
            let m = r.message();
            assert!(
                m.contains("最好")
                    && m.contains("ad.absolute.superlative")
                    && m.contains("广告法 第九条(三)")
                    && m.contains("很好"),
                "{m}"
            );
        }
        let r = app
            .post_en(
                path,
                Some(&t),
                task(&app, &[dy], &vids, json!({"topics": ["三天根治脚气"]})),
            )
            .await;
        r.expect(422);
        assert!(
            r.message().contains("Advertising Law, Art. 17")
                && r.message().contains("ad.medical.cure"),
            "{}",
            r.message()
        );
        // Douyin's contact rule holds for a Douyin account's comments.
        let r = app
            .post(
                path,
                Some(&t),
                task(&app, &[dy], &vids, json!({"at_users": ["加微信abc123"]})),
            )
            .await;
        r.expect(422);
        assert!(r.message().contains("dy.contact"), "{}", r.message());
        let tasks = app
            .post("/task.merchant_forward_task/index", Some(&t), json!({}))
            .await;
        assert_eq!(tasks.ok()["total"], 0, "nothing was stored: {}", tasks.body);
        // A warning does not block: it comes back with the plan.
        let r = app
            .post(
                path,
                Some(&t),
                task(
                    &app,
                    &[dy],
                    &vids,
                    json!({"titles": "成都最美的夜景", "preview": true}),
                ),
            )
            .await;
        let warnings = r.ok()["warnings"].to_string();
        assert!(warnings.contains("ad.absolute.most"), "{warnings}");
        // With the suggestion applied the task goes through.
        app.post(
            path,
            Some(&t),
            task(&app, &[dy], &vids, json!({"titles": "全城很好的奶茶"})),
        )
        .await
        .ok();

        // The operator's banned words for this merchant block like a law's rule; another merchant's
        // posts are not held to them.
        let admin = app.admin().await;
        let mid = demo_merchant(&app).await;
        let r = app
            .post(
                "/system/merchant/banned_words_add",
                Some(&admin),
                json!({"merchant_id": mid, "words": [" 奶茶 ", "奶茶", ""]}),
            )
            .await;
        assert_eq!(r.ok()["added"], 1);
        let list = app
            .get_q(
                "/system/merchant/banned_words_index",
                Some(&admin),
                json!({"merchant_id": mid}),
            )
            .await;
        assert_eq!(list.ok()["rows"][0]["word"], "奶茶");
        app.post(
            "/system/merchant/banned_words_add",
            Some(&t),
            json!({"merchant_id": mid, "words": ["x"]}),
        )
        .await
        .expect(403);
        let r = app
            .post("/index/copyCheck", Some(&t), json!({"text": "春天的奶茶"}))
            .await;
        assert_eq!(finding(&r, 0)["rule_id"], "merchant.banned");
        let vids = videos(&app, &t, 1).await;
        let r = app
            .post(
                path,
                Some(&t),
                task(&app, &[dy], &vids, json!({"titles": "春天的奶茶"})),
            )
            .await;
        r.expect(422);
        assert!(r.message().contains("merchant.banned"), "{}", r.message());
        let r = app
            .post(
                "/index/copyCheck",
                Some(&admin),
                json!({"text": "春天的奶茶"}),
            )
            .await;
        assert_eq!(
            r.ok()["findings"],
            json!([]),
            "the operator has no merchant words"
        );
        let id = list.ok()["rows"][0]["id"].as_i64().unwrap();
        app.post(
            "/system/merchant/banned_words_delete",
            Some(&admin),
            json!({"merchant_id": mid, "ids": [id]}),
        )
        .await
        .ok();
        let r = app
            .post("/index/copyCheck", Some(&t), json!({"text": "春天的奶茶"}))
            .await;
        assert_eq!(r.ok()["findings"], json!([]));
    }
}
