//! What the contract promises beyond each area's story: another tenant's ids are "not found" in every
//! bulk delete (and nothing of the caller's is half-deleted), an overlong query is answered in the
//! envelope, and the OpenAPI document tells a QR start from a QR status and names the export types.

use crate::common;
use common::*;
use serde_json::{Value, json};

/// The ids of a list answer's rows.
fn ids(r: &Resp) -> Vec<i64> {
    r.ok()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn deleting_another_tenants_ids_is_not_found_and_deletes_nothing() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let demo = app.demo().await;
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "otherco").await;

        // The demo merchant's rows in each of the five bulk deletes.
        app.post(
            "/screen.merchant_seo_lexicon/ai_add",
            Some(&demo),
            json!({"titles": ["防晒帽上新", "宽檐防晒帽"]}),
        )
        .await
        .ok();
        let cat = app
            .post(
                "/screen.merchant_seo_lexicon/ai_category",
                Some(&demo),
                json!({"name": "帽子"}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/screen.merchant_seo_lexicon/keywords_add",
            Some(&demo),
            json!({"category_id": cat, "words": ["渔夫帽", "遮阳帽"]}),
        )
        .await
        .ok();
        app.post(
            "/seo.merchant_seo_lexicon/add",
            Some(&demo),
            json!({"kind": "banned", "words": ["最便宜", "第一"]}),
        )
        .await
        .ok();
        for w in ["防晒帽", "遮阳帽"] {
            app.post(
                "/seo.merchant_keywords/collect",
                Some(&demo),
                json!({"platform": "dy", "word": w, "heat": 1}),
            )
            .await
            .ok();
        }
        let group = group(&app, &demo, "门店").await;
        let tag = app
            .post(
                "/nfc.index/add",
                Some(&demo),
                json!({"name": "收银台", "platform": "dy", "pool_kind": "group", "pool_id": group,
                       "topics": ["探店"], "enabled": true}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/nfc.index/title_add",
            Some(&demo),
            json!({"tag_id": tag, "titles": ["来打卡", "好吃不贵"]}),
        )
        .await
        .ok();

        // (list, its query, delete)
        let areas: [(&str, Value, &str); 5] = [
            (
                "/screen.merchant_seo_lexicon/index",
                json!({}),
                "/screen.merchant_seo_lexicon/ai_delete",
            ),
            (
                "/screen.merchant_seo_lexicon/keywords",
                json!({"category_id": cat}),
                "/screen.merchant_seo_lexicon/keywords_delete",
            ),
            (
                "/seo.merchant_seo_lexicon/index",
                json!({"kind": "banned"}),
                "/seo.merchant_seo_lexicon/delete",
            ),
            (
                "/seo.merchant_keywords/list",
                json!({}),
                "/seo.merchant_keywords/delete",
            ),
            (
                "/nfc.index/titles",
                json!({"tag_id": tag}),
                "/nfc.index/title_delete",
            ),
        ];
        for (list, q, delete) in areas {
            let mine = ids(&app.post(list, Some(&demo), q.clone()).await);
            assert!(mine.len() >= 2, "{list}: {mine:?}");
            // Another merchant naming them: 404, in both languages, and they stay.
            let r = app.post(delete, Some(&other), json!({"ids": mine})).await;
            assert_eq!(
                (r.status, r.message()),
                (404, "记录不存在"),
                "{delete}: {}",
                r.body
            );
            let r = app
                .post_en(delete, Some(&other), json!({"ids": mine}))
                .await;
            assert_eq!(r.status, 404, "{delete}");
            // One of the caller's own beside a foreign one: 404 and the own one is not deleted.
            let theirs = 9_000_000;
            let r = app
                .post(delete, Some(&demo), json!({"ids": [mine[0], theirs]}))
                .await;
            assert_eq!(r.status, 404, "{delete}: {}", r.body);
            assert_eq!(
                ids(&app.post(list, Some(&demo), q.clone()).await),
                mine,
                "{delete}"
            );
            // Its own: deleted (a repeated id counts once).
            app.post(delete, Some(&demo), json!({"ids": [mine[0], mine[0]]}))
                .await
                .ok();
            assert_eq!(
                ids(&app.post(list, Some(&demo), q).await),
                mine[1..].to_vec(),
                "{delete}"
            );
        }
    }
}

#[tokio::test]
async fn an_overlong_query_is_refused_in_the_envelope() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    // 2,500 × 9 bytes percent-encoded: over our 16 KB, under hyper's own 64 KB
    let filter = json!({"name": format!("{}|include", "帽".repeat(2_500))}).to_string();
    let q = json!({"filterObj": filter});
    let r = app
        .get_q("/msg.merchant_clue/export", Some(&demo), q.clone())
        .await;
    assert_eq!(r.status, 414, "{}", r.body);
    assert_eq!(r.code(), 414);
    assert_eq!(
        r.message(),
        "请求地址过长：最多 16384 个字符，请减少筛选条件"
    );
    let r = app
        .call(
            "GET",
            "/msg.merchant_clue/export",
            Some(&demo),
            Some(q),
            "en",
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (
            414,
            "The request URL is too long: at most 16384 characters; use fewer filters"
        )
    );
    // A long but sane filter still works.
    let q =
        json!({"filterObj": json!({"name": format!("{}|include", "帽".repeat(100))}).to_string()});
    let r = app.get_q("/msg.merchant_clue/index", Some(&demo), q).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn a_qr_start_and_a_qr_status_are_told_apart_and_exports_name_their_types() {
    let doc = serde_json::to_value(api::openapi()).unwrap();
    let schemas = &doc["components"]["schemas"];
    let qr = &schemas["QrAnswer"];
    assert_eq!(qr["discriminator"]["propertyName"], "kind", "{qr}");
    assert_eq!(qr["oneOf"].as_array().unwrap().len(), 3, "{qr}");
    assert_eq!(
        schemas["AuthStart"]["discriminator"]["propertyName"],
        "kind"
    );
    assert_eq!(
        schemas["QrStatus"]["properties"]["kind"]["$ref"],
        "#/components/schemas/QrStatusKind"
    );
    assert_eq!(schemas["QrStatusKind"]["enum"], json!(["status"]));
    for path in [
        "/msg.merchant_clue/export",
        "/common.merchant_report/export",
        "/task.merchant_forward_task_activities/export_draws",
        "/task.merchant_forward_task_activities/export_coupons",
        "/task.merchant_group_user/export",
        "/task.merchant_forward_task/export",
        "/task.merchant_forward_task/export_items",
        "/clip.merchant_video_library/export",
        "/media.merchant_much_resource/export",
        "/bpdr.merchant_mediainfo/voice_export",
        "/media.merchant_producing_upfile/music_export",
        "/media.merchant_producing_upfile/image_export",
        "/media.merchant_font_style/export",
        "/common.merchant_usage_record/export",
        "/index/log/export",
        "/task.merchant_comment/export",
        "/nfc.index/export_stats",
        "/seo.merchant_seo_lexicon/export",
    ] {
        let content = &doc["paths"][path]["get"]["responses"]["200"]["content"];
        let types: Vec<&str> = content
            .as_object()
            .unwrap_or_else(|| panic!("{path}: {content}"))
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            types,
            [
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                "text/csv"
            ],
            "{path}"
        );
    }
}
