//! Advanced mode end to end (per-shot start/length, captions, transitions rendered by the real engine),
//! "render all remaining" of the finished-video library, importing the merchant's own finished videos,
//! and render progress on the event stream.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::collections::HashSet;

/// Three shot groups of 2 s solid-colour clips (2, 2 and 1 clips): capacity 4.
async fn three_groups(app: &TestApp, t: &str) -> Vec<i64> {
    shot_groups(
        app,
        t,
        &[
            ("Open", &["red", "orange"]),
            ("Middle", &["green", "teal"]),
            ("Close", &["blue"]),
        ],
        "2",
    )
    .await
    .0
}

fn shots(groups: &[i64]) -> Value {
    json!([
        {"group_id": groups[0], "transition": {"kind": "fade", "ms": 500}},
        {"group_id": groups[1], "text": "第二镜 Second", "transition": {"kind": "slideleft", "ms": 400}},
        {"group_id": groups[2], "in_ms": 500},
    ])
}

#[tokio::test]
async fn advanced_projects_render_transitions_and_captions() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let groups = three_groups(&app, &t).await;

    // Every per-shot rule is refused with its field before anything is stored.
    let mut last = shots(&groups);
    last[2]["transition"] = json!({"kind": "fade", "ms": 500});
    let mut kind = shots(&groups);
    kind[0]["transition"]["kind"] = json!("explode");
    let mut ms = shots(&groups);
    ms[0]["transition"]["ms"] = json!(2500);
    let mut text = shots(&groups);
    text[1]["text"] = json!("字".repeat(31));
    for bad in [last, kind, ms, text] {
        let r = app
            .post_en(
                "/clip.merchant_senior_clip/modify",
                Some(&t),
                json!({"name": "Adv", "config": {"groups": bad}}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("groups")),
            "{}",
            r.message()
        );
    }
    let r = app.get("/clip.merchant_senior_clip/index", Some(&t)).await;
    assert_eq!(r.ok()["total"], 0, "a refused project was stored");

    let p = app
        .post(
            "/clip.merchant_senior_clip/modify",
            Some(&t),
            json!({"name": "Adv", "config": {"groups": shots(&groups), "output_count": 2}}),
        )
        .await;
    let pid = p.ok()["id"].as_i64().unwrap();
    assert_eq!(
        (p.data()["mode"].as_str(), p.data()["capacity"].as_i64()),
        (Some("senior"), Some(4))
    );
    // Listed as advanced, not as quick mix; quick mix's delete of it is fine, advanced delete of a
    // quick-mix project is not.
    let adv = app.get("/clip.merchant_senior_clip/index", Some(&t)).await;
    assert_eq!(adv.ok()["total"], 1);
    let quick = app.get("/clip.merchant_much_clip/index", Some(&t)).await;
    assert_eq!(quick.ok()["total"], 0);
    let normal = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            json!({"name": "Quick", "config": {"groups": groups.iter().map(|g| json!({"group_id": g})).collect::<Vec<_>>()}}),
        )
        .await;
    let nid = normal.ok()["id"].as_i64().unwrap();
    app.post(
        "/clip.merchant_senior_clip/delete",
        Some(&t),
        json!({"id": nid}),
    )
    .await
    .expect(404);
    app.post(
        "/clip.merchant_senior_clip/modify",
        Some(&t),
        json!({"id": nid, "name": "Hijack", "config": {"groups": shots(&groups)}}),
    )
    .await
    .expect(404);

    // Progress of the renders arrives on the event stream.
    let mut events = app
        .http
        .get(app.url("/api/events"))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();

    let r = app
        .post(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid}),
        )
        .await;
    assert_eq!(r.ok()["variant_ids"].as_array().unwrap().len(), 2);
    let rows = wait_variants(&app, &t, pid, 2).await;
    // 2 s + 2 s + (2 s − 0.5 s start) − 0.5 s fade − 0.4 s slide.
    for v in &rows {
        assert_eq!(v["state"], "success", "{v}");
        let d = v["duration_ms"].as_i64().unwrap();
        assert!((d - 4600).abs() <= 100, "duration {d} ms, planned 4600");
    }

    let mut seen = String::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline
        && !(seen.contains("event: variant") && seen.contains("\"state\":\"success\""))
    {
        if let Ok(Ok(Some(chunk))) =
            tokio::time::timeout(std::time::Duration::from_secs(5), events.chunk()).await
        {
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
    assert!(seen.contains("event: variant"), "{seen}");
    assert!(
        seen.contains(&format!("\"project_id\":{pid}")) && seen.contains("\"state\":\"success\""),
        "{seen}"
    );

    // "Render all remaining": the other two unique sequences, then nothing is left.
    let r = app
        .post(
            "/clip.merchant_video_library/job_video_add_all",
            Some(&t),
            json!({"id": pid}),
        )
        .await;
    assert_eq!(r.ok()["variant_ids"].as_array().unwrap().len(), 2);
    assert_eq!(r.ok()["capacity_after"], 0);
    let rows = wait_variants(&app, &t, pid, 4).await;
    let seqs: HashSet<String> = rows.iter().map(|v| v["seq"].to_string()).collect();
    assert_eq!(seqs.len(), 4, "every variant has its own clip sequence");
    assert!(rows.iter().all(|v| v["state"] == "success"));
    let r = app
        .post_en(
            "/clip.merchant_video_library/job_video_add_all",
            Some(&t),
            json!({"id": pid}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(
        r.message().starts_with("These shot groups allow only 0"),
        "{}",
        r.message()
    );

    // Another merchant sees none of it.
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "adv_other").await;
    let r = app
        .get("/clip.merchant_senior_clip/index", Some(&other))
        .await;
    assert_eq!(r.ok()["total"], 0);
    app.post(
        "/clip.merchant_senior_clip/delete",
        Some(&other),
        json!({"id": pid}),
    )
    .await
    .expect(404);
    app.post(
        "/clip.merchant_video_library/job_video_add_all",
        Some(&other),
        json!({"id": pid}),
    )
    .await
    .expect(404);

    // Advanced delete removes the project with its videos.
    app.post(
        "/clip.merchant_senior_clip/delete",
        Some(&t),
        json!({"id": pid}),
    )
    .await
    .ok();
    let r = app.get("/clip.merchant_senior_clip/index", Some(&t)).await;
    assert_eq!(r.ok()["total"], 0);
}

#[tokio::test]
async fn own_finished_videos_are_imported_into_the_library() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let vid = app
            .upload(
                "/media.merchant_much_resource/add_resource",
                &t,
                &[],
                "finished.mp4",
                clip("navy", "2"),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.wait_ready(&t, &[vid]).await;

        app.post_en("/clip.merchant_video_library/add", Some(&t), json!({}))
            .await
            .expect(422);
        let r = app
            .post(
                "/clip.merchant_video_library/add",
                Some(&t),
                json!({"ids": [vid]}),
            )
            .await;
        let v_id = r.ok()["variant_ids"][0].as_i64().unwrap();
        let r = app
            .get_q(
                "/clip.merchant_video_library/index",
                Some(&t),
                json!({"limit": "50"}),
            )
            .await;
        let row = r.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["id"] == v_id)
            .cloned()
            .unwrap();
        assert_eq!(row["state"], "success");
        assert_eq!(row["clips"][0]["id"], vid);
        assert!((row["duration_ms"].as_i64().unwrap() - 2000).abs() <= 100);
        let bytes = app
            .http
            .get(app.url(row["src"].as_str().unwrap()))
            .send()
            .await
            .unwrap();
        assert_eq!(bytes.status(), 200);
        assert!(bytes.bytes().await.unwrap().len() > 1000);
        // Once only (the message names the video); it can be marked used and published like a variant.
        let r = app
            .post_en(
                "/clip.merchant_video_library/add",
                Some(&t),
                json!({"ids": [vid]}),
            )
            .await;
        assert_eq!(r.status, 422);
        assert_eq!(
            r.message(),
            "This video is already in the library: finished.mp4"
        );
        app.post(
            "/clip.merchant_video_library/video_use",
            Some(&t),
            json!({"id": v_id}),
        )
        .await
        .ok();
        // Deleting the library's copy keeps the material; importing again brings it back.
        app.post(
            "/clip.merchant_video_library/video_delete",
            Some(&t),
            json!({"id": v_id}),
        )
        .await
        .ok();
        let m = app
            .get_q(
                "/media.merchant_much_resource/resource_detail",
                Some(&t),
                json!({"id": vid}),
            )
            .await;
        assert_eq!(m.ok()["state"], "ready", "the material must survive");
        let r = app
            .post(
                "/clip.merchant_video_library/add",
                Some(&t),
                json!({"id": vid}),
            )
            .await;
        assert_eq!(r.ok()["variant_ids"][0], v_id);

        // Not the caller's: refused, nothing added.
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "lib_other").await;
        app.post(
            "/clip.merchant_video_library/add",
            Some(&other),
            json!({"ids": [vid]}),
        )
        .await
        .expect(404);
        let r = app
            .get("/clip.merchant_video_library/index", Some(&other))
            .await;
        assert_eq!(r.ok()["total"], 0);
    }
}
