//! Quick mix end to end: groups of ingested clips, a project, unique variants rendered by the real
//! engine, the finished-video library, points charged per variant and refunded on failure.

mod common;
use common::*;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::process::Command;
use std::time::Duration;

fn clip(colour: &str, secs: &str) -> Vec<u8> {
    let src = format!("color=c={colour}:s=720x1280:r=30");
    ffmpeg_bytes(
        &[
            "-f",
            "lavfi",
            "-i",
            &src,
            "-f",
            "lavfi",
            "-i",
            "sine=f=330",
            "-t",
            secs,
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
        ],
        "mp4",
    )
}

async fn wait_variants(app: &TestApp, t: &str, project: i64, n: usize) -> Vec<Value> {
    for _ in 0..1800 {
        let r = app
            .get_q(
                "/clip.merchant_video_library/video_index",
                Some(t),
                json!({"project_id": project.to_string(), "limit": "100"}),
            )
            .await;
        let rows = r.ok()["rows"].as_array().unwrap().clone();
        if rows.len() >= n && rows.iter().all(|v| v["state"] != "processing") {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("variants did not finish");
}

#[tokio::test]
async fn a_project_renders_unique_variants_into_the_library() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let mut groups = vec![];
    let mut clips = vec![];
    for (g, colours) in [
        ("Open", ["red", "orange"]),
        ("Product", ["green", "teal"]),
        ("Close", ["blue", "purple"]),
    ] {
        let gid = app
            .post(
                "/media.merchant_much_resource/resource_group_add",
                Some(&t),
                json!({"name": g}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        for c in colours {
            let r = app
                .upload(
                    "/media.merchant_much_resource/add_resource",
                    &t,
                    &[("group_id", &gid.to_string())],
                    &format!("{c}.mp4"),
                    clip(c, "1"),
                )
                .await;
            clips.push(r.ok()["id"].as_i64().unwrap());
        }
        groups.push(gid);
    }
    app.wait_ready(&t, &clips).await;
    let rule = |g: i64| json!({"group_id": g});
    // Bad input.
    let r = app
        .post_en(
            "/clip.merchant_much_clip/add",
            Some(&t),
            json!({"name": "P", "config": {"groups": [rule(groups[0]), rule(groups[1])]}}),
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (422, "At least three shot groups are needed")
    );
    let long = "一二三四五六七八九十一二三四五六七八九十一";
    let r = app.post_en("/clip.merchant_much_clip/add", Some(&t), json!({"name": "P", "config": {"groups": groups.iter().map(|g| rule(*g)).collect::<Vec<_>>(), "title": {"text": long}}})).await;
    assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("title")));
    let r = app.post_en("/clip.merchant_much_clip/add", Some(&t), json!({"name": "P", "config": {"groups": [rule(groups[0]), rule(groups[1]), rule(999999)]}})).await;
    assert_eq!(r.status, 422);
    assert!(
        r.message().starts_with("A chosen material was deleted"),
        "{}",
        r.message()
    );

    let cfg = json!({"groups": groups.iter().map(|g| rule(*g)).collect::<Vec<_>>(), "title": {"text": "春季上新"}, "output_count": 3});
    let p = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            json!({"name": "Spring", "config": cfg}),
        )
        .await;
    let pid = p.ok()["id"].as_i64().unwrap();
    assert_eq!(
        (
            p.data()["capacity"].as_i64(),
            p.data()["small_pool"].as_bool()
        ),
        (Some(8), Some(true))
    );
    let r = app
        .post_en(
            "/clip.merchant_much_clip/preview_video",
            Some(&t),
            json!({"id": pid, "count": 9}),
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (
            422,
            "These shot groups allow only 8 more unique videos, not 9"
        )
    );
    let pv = app
        .post(
            "/clip.merchant_much_clip/preview_video",
            Some(&t),
            json!({"id": pid, "count": 4}),
        )
        .await;
    assert_eq!(
        (pv.ok()["max_use"].as_i64(), pv.data()["min_use"].as_i64()),
        (Some(2), Some(2))
    );

    let before = app.get("/index/dashboard", Some(&t)).await.ok()["points"]
        .as_i64()
        .unwrap();
    let g = app
        .post(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid}),
        )
        .await;
    assert_eq!(g.ok()["variant_ids"].as_array().unwrap().len(), 3);
    assert_eq!(
        app.get("/index/dashboard", Some(&t)).await.ok()["points"]
            .as_i64()
            .unwrap(),
        before - 3 * domain::clip::POINTS_PER_VARIANT
    );
    let rows = wait_variants(&app, &t, pid, 3).await;
    for v in &rows {
        assert_eq!(v["state"], "success", "{v}");
        let d = v["duration_ms"].as_i64().unwrap();
        assert!((d - 3000).abs() <= 100, "duration {d}");
        let bytes = app
            .http
            .get(app.url(v["src"].as_str().unwrap()))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let path = std::env::temp_dir().join(format!("cm-variant-{}.mp4", store::random_token(5)));
        std::fs::write(&path, &bytes).unwrap();
        let info = media::probe::probe(&path).await.unwrap();
        assert_eq!(
            (info.width, info.height, info.has_audio),
            (1080, 1920, true)
        );
        let check = Command::new("ffmpeg")
            .args(["-v", "error", "-i"])
            .arg(&path)
            .args(["-f", "null", "-"])
            .output()
            .unwrap();
        assert!(
            check.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
        let _ = std::fs::remove_file(path);
        assert_eq!(
            app.http
                .get(app.url(v["cover"].as_str().unwrap()))
                .send()
                .await
                .unwrap()
                .status(),
            200
        );
        assert_eq!(v["clips"].as_array().unwrap().len(), 3);
        assert_eq!(v["project_name"], "Spring");
    }
    // Continue adding: still unique; the capacity is the limit.
    app.post(
        "/clip.merchant_video_library/continue_add_video",
        Some(&t),
        json!({"id": pid, "count": 5}),
    )
    .await
    .ok();
    app.post(
        "/clip.merchant_video_library/continue_add_video",
        Some(&t),
        json!({"id": pid, "count": 1}),
    )
    .await
    .expect(422);
    let rows = wait_variants(&app, &t, pid, 8).await;
    let seqs: HashSet<String> = rows.iter().map(|v| v["seq"].to_string()).collect();
    assert_eq!(seqs.len(), 8, "every variant has its own clip sequence");
    // Used / unused.
    let vid = rows[0]["id"].as_i64().unwrap();
    let r = app
        .post(
            "/clip.merchant_video_library/video_use",
            Some(&t),
            json!({"id": vid}),
        )
        .await;
    assert_eq!(r.ok()["used"], 1);
    let r = app
        .get_q(
            "/clip.merchant_video_library/index",
            Some(&t),
            json!({"used": "1"}),
        )
        .await;
    assert_eq!(r.ok()["total"], 1);
    // Materials used by variants cannot be deleted.
    app.post(
        "/media.merchant_much_resource/resource_delete",
        Some(&t),
        json!({"id": clips[0]}),
    )
    .await
    .expect(422);
    // Another merchant sees none of it.
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "mixrival").await;
    assert_eq!(
        app.get("/clip.merchant_video_library/index", Some(&other))
            .await
            .ok()["total"],
        0
    );
    app.post(
        "/clip.merchant_much_clip/add_video",
        Some(&other),
        json!({"id": pid}),
    )
    .await
    .expect(404);
    app.post(
        "/clip.merchant_video_library/video_delete",
        Some(&other),
        json!({"id": vid}),
    )
    .await
    .expect(404);
    // Deleting a variant frees its files but its sequence is never made again.
    app.post(
        "/clip.merchant_video_library/video_delete",
        Some(&t),
        json!({"id": vid}),
    )
    .await
    .ok();
    app.post(
        "/clip.merchant_video_library/continue_add_video",
        Some(&t),
        json!({"id": pid, "count": 1}),
    )
    .await
    .expect(422);
}

#[tokio::test]
async fn a_variant_whose_input_vanished_fails_with_the_reason_and_refunds() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let mut groups = vec![];
    let mut clips = vec![];
    for g in ["A", "B", "C"] {
        let gid = app
            .post(
                "/media.merchant_much_resource/resource_group_add",
                Some(&t),
                json!({"name": g}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        let r = app
            .upload(
                "/media.merchant_much_resource/add_resource",
                &t,
                &[("group_id", &gid.to_string())],
                "c.mp4",
                clip("gray", "1"),
            )
            .await;
        clips.push(r.ok()["id"].as_i64().unwrap());
        groups.push(gid);
    }
    app.wait_ready(&t, &clips).await;
    let cfg = json!({"groups": groups.iter().map(|g| json!({"group_id": g})).collect::<Vec<_>>()});
    let pid = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            json!({"name": "Gone", "config": cfg}),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    // The stored mezzanine of one clip disappears behind the app's back.
    let key: String = sqlx::query_scalar("SELECT mezzanine_key FROM media_files WHERE id = $1")
        .bind(clips[1])
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    std::fs::remove_file(app.files.path.join("media").join(key)).unwrap();
    let before = app.get("/index/dashboard", Some(&t)).await.ok()["points"]
        .as_i64()
        .unwrap();
    app.post(
        "/clip.merchant_much_clip/add_video",
        Some(&t),
        json!({"id": pid, "count": 1}),
    )
    .await
    .ok();
    let rows = wait_variants(&app, &t, pid, 1).await;
    assert_eq!(rows[0]["state"], "failed");
    assert!(
        rows[0]["error"].as_str().unwrap().contains("deleted"),
        "{}",
        rows[0]
    );
    assert_eq!(
        app.get("/index/dashboard", Some(&t)).await.ok()["points"]
            .as_i64()
            .unwrap(),
        before
    );
    // A disabled project makes nothing.
    app.post(
        "/clip.merchant_much_clip/edit_status",
        Some(&t),
        json!({"id": pid, "status": 0}),
    )
    .await
    .ok();
    let r = app
        .post_en(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid, "count": 1}),
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (422, "This project is disabled; enable it first")
    );
    app.post(
        "/clip.merchant_much_clip/edit_status",
        Some(&t),
        json!({"id": pid, "status": 1}),
    )
    .await
    .ok();
    // Not enough points: nothing is queued, nothing is charged.
    sqlx::query("UPDATE merchants SET points = 1")
        .execute(&app.db.pool)
        .await
        .unwrap();
    let r = app
        .post_en(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid, "count": 0}),
        )
        .await;
    assert_eq!(r.status, 422);
    let r = app.post_en("/clip.merchant_much_clip/modify", Some(&t), json!({"id": pid, "name": "Gone", "config": {"groups": cfg["groups"], "output_count": 1}})).await;
    r.ok();
    sqlx::query("DELETE FROM clip_variants")
        .execute(&app.db.pool)
        .await
        .unwrap();
    let r = app
        .post_en(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid, "count": 1}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(
        r.message().starts_with("Not enough points"),
        "{}",
        r.message()
    );
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM clip_variants")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(n, 0);
}

/// Cancelling renders: the variants fail as cancelled, their points come back once, their jobs are
/// dead (a running one is abandoned at its next heartbeat), and a render that finishes anyway does
/// not turn a cancelled variant into a success.
#[tokio::test]
async fn renders_can_be_cancelled_and_refund() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let mut groups = vec![];
    let mut clips = vec![];
    for g in ["A", "B", "C"] {
        let gid = app
            .post(
                "/media.merchant_much_resource/resource_group_add",
                Some(&t),
                json!({"name": g}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        let r = app
            .upload(
                "/media.merchant_much_resource/add_resource",
                &t,
                &[("group_id", &gid.to_string())],
                "c.mp4",
                clip("olive", "1"),
            )
            .await;
        clips.push(r.ok()["id"].as_i64().unwrap());
        groups.push(gid);
    }
    app.wait_ready(&t, &clips).await;
    let cfg = json!({"groups": groups.iter().map(|g| json!({"group_id": g})).collect::<Vec<_>>()});
    let pid = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            json!({"name": "Stop", "config": cfg}),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let before = app.get("/index/dashboard", Some(&t)).await.ok()["points"]
        .as_i64()
        .unwrap();
    let made = app
        .post(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid, "count": 1}),
        )
        .await;
    let id = made.ok()["variant_ids"][0].as_i64().unwrap();
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "shop5").await;
    app.post(
        "/clip.merchant_video_library/video_cancel",
        Some(&other),
        json!({"id": id}),
    )
    .await
    .expect(404);
    let r = app
        .post(
            "/clip.merchant_video_library/video_cancel",
            Some(&t),
            json!({"id": id}),
        )
        .await;
    if r.status == 422 {
        // It finished before we could cancel: nothing to test on this run's timing.
        assert_eq!(
            app.get_q(
                "/clip.merchant_video_library/video_index",
                Some(&t),
                json!({"project_id": pid})
            )
            .await
            .ok()["rows"][0]["state"],
            "success"
        );
        return;
    }
    assert_eq!(r.ok()["cancelled"], 1);
    assert_eq!(
        app.get("/index/dashboard", Some(&t)).await.ok()["points"]
            .as_i64()
            .unwrap(),
        before,
        "refunded"
    );
    // Whatever the worker was doing, the variant stays cancelled.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let v = app
        .get_q(
            "/clip.merchant_video_library/video_index",
            Some(&t),
            json!({"project_id": pid}),
        )
        .await;
    let row = &v.ok()["rows"][0];
    assert_eq!(row["state"], "failed", "{row}");
    assert!(
        row["error"].as_str().unwrap().contains("cancelled"),
        "{row}"
    );
    let job = app
        .get_q(
            "/clip.merchant_video_library/job_video",
            Some(&t),
            json!({"id": id}),
        )
        .await;
    assert_eq!(job.ok()["job"]["state"], "dead", "{}", job.body);
    app.post_en(
        "/clip.merchant_video_library/video_cancel",
        Some(&t),
        json!({"id": id}),
    )
    .await
    .expect(422);
    assert_eq!(
        app.get("/index/dashboard", Some(&t)).await.ok()["points"]
            .as_i64()
            .unwrap(),
        before,
        "refunded once"
    );
}
