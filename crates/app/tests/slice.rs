//! Batch slice end to end: a long video cut by fixed lengths and along its subtitle lines by the real
//! `clip.slice` job into ready video materials of a group; the rules of every call; tenancy; delete
//! refused while slicing; cancel; retry after a failure without duplicate slices; a deleted source.
//! Runs on SQLite, and on PostgreSQL too when CLIPMATRIX_TEST_POSTGRES_URL is set.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::process::Command;
use std::time::Duration;

const VE: &str = "/clip.merchant_visual_editing";
const MP: &str = "/clip.merchant_project";

/// A still test pattern: no check here looks at the picture, and a moving one (testsrc) cost 2.5 times
/// the CPU to ingest at 1080x1920.
fn long_video(secs: &str) -> Vec<u8> {
    lavfi_video("smptebars=s=720x1280:r=30", 440, secs, &[])
}

/// The project's sources once none is being sliced.
async fn settled(app: &TestApp, t: &str, project: i64) -> Vec<Value> {
    for _ in 0..1200 {
        let r = app
            .get_q(
                &format!("{MP}/index"),
                Some(t),
                json!({ "project_id": project.to_string() }),
            )
            .await;
        let rows = r.ok()["rows"].as_array().unwrap().clone();
        if rows.iter().all(|s| s["state"] != "processing") {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("slicing did not finish");
}

async fn library(app: &TestApp, t: &str, project: i64) -> Vec<Value> {
    app.get_q(
        &format!("{VE}/video_library"),
        Some(t),
        json!({ "project_id": project.to_string(), "limit": "100" }),
    )
    .await
    .ok()["rows"]
        .as_array()
        .unwrap()
        .clone()
}

/// Downloads a slice and checks it is a clean 1080x1920 mezzanine of the expected length.
async fn check_file(app: &TestApp, url: &str, expect_ms: i64) {
    let path = app.download(url, "mp4").await;
    let info = media::probe::probe(&path).await.unwrap();
    assert_eq!(
        (info.width, info.height, info.has_audio),
        (1080, 1920, true)
    );
    assert!(
        (info.duration_ms - expect_ms).abs() <= 100,
        "{url}: {} ms, expected {expect_ms}",
        info.duration_ms
    );
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(&path)
        .args(["-f", "null", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "decode errors: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_file(path);
}

fn field(r: &Resp) -> String {
    assert_eq!(r.status, 422, "{}", r.body);
    r.data()["field"].as_str().unwrap_or_default().to_string()
}

#[tokio::test]
async fn long_videos_are_sliced_into_a_group() {
    for b in backends() {
        story(b).await;
    }
}

async fn story(b: Backend) {
    let app = TestApp::spawn(b).await;
    app.start_worker();
    let t = app.demo().await;
    let src_group = group(&app, &t, "Long videos").await;
    let target = group(&app, &t, "Slices").await;
    let other_group = group(&app, &t, "Picked").await;
    let up = app
        .upload(
            "/media.merchant_much_resource/add_resource",
            &t,
            &[("group_id", &src_group.to_string())],
            "long talk.mp4",
            long_video("12"),
        )
        .await;
    let video = up.ok()["id"].as_i64().unwrap();
    app.wait_ready(&t, &[video]).await;

    // ---- every rule answers 422 naming its field
    let base = json!({"name": "Talk", "mode": "fixed", "seconds": 4, "group_id": target, "resource_ids": [video]});
    let with = |patch: Value| {
        let mut b = base.clone();
        for (k, v) in patch.as_object().unwrap() {
            if v.is_null() {
                b.as_object_mut().unwrap().remove(k);
            } else {
                b[k] = v.clone();
            }
        }
        b
    };
    let create = |body: Value| {
        let app = &app;
        let t = t.clone();
        async move {
            app.post_en(&format!("{VE}/create_project"), Some(&t), body)
                .await
        }
    };
    for (patch, f) in [
        (json!({"name": " "}), "name"),
        (json!({"name": "x".repeat(51)}), "name"),
        (json!({"mode": "scene"}), "mode"),
        (json!({"seconds": null}), "seconds"),
        (json!({"seconds": 0}), "seconds"),
        (json!({"seconds": 61}), "seconds"),
        (
            json!({"mode": "subtitle", "min_seconds": 5, "max_seconds": 3}),
            "min_seconds",
        ),
        (
            json!({"mode": "subtitle", "min_seconds": 3, "max_seconds": null}),
            "max_seconds",
        ),
        (json!({"group_id": null}), "group_id"),
        (json!({"group_id": 999_999}), "group_id"),
        (json!({"resource_ids": []}), "resource_ids"),
        (json!({"resource_ids": [999_999]}), "resource_ids"),
    ] {
        let r = create(with(patch.clone())).await;
        assert_eq!(field(&r), f, "{patch}: {}", r.body);
    }
    let r = create(with(json!({"seconds": 61}))).await;
    assert_eq!(r.message(), "seconds must be between 1 and 60 seconds");
    // Subtitle mode needs recognized lines first, and says which video lacks them.
    let r = create(with(
        json!({"mode": "subtitle", "min_seconds": 3, "max_seconds": 6}),
    ))
    .await;
    assert_eq!(field(&r), "resource_ids");
    assert_eq!(
        r.message(),
        "Video 'long talk.mp4' has no recognized subtitle lines; run subtitle recognition first"
    );
    let r = app
        .post(
            &format!("{VE}/create_project"),
            Some(&t),
            with(json!({"mode": "subtitle", "min_seconds": 3, "max_seconds": 6})),
        )
        .await;
    assert!(r.message().contains("请先进行字幕识别"), "{}", r.message());
    assert_eq!(
        app.get(&format!("{VE}/index"), Some(&t)).await.ok()["total"],
        0
    );

    // ---- fixed lengths: create, cancel, queue again; busy refusals
    let p = create(base.clone()).await;
    let p = p.ok().clone();
    let pid = p["id"].as_i64().unwrap();
    assert_eq!(
        (&p["mode"], &p["seconds"], &p["group_name"], &p["state"]),
        (
            &json!("fixed"),
            &json!(4),
            &json!("Slices"),
            &json!("pending")
        )
    );
    let sid = p["sources"][0]["id"].as_i64().unwrap();
    assert_eq!(p["sources"][0]["state"], "pending");
    let r = app
        .post(&format!("{MP}/job_delete"), Some(&t), json!({"id": sid}))
        .await;
    assert_eq!(r.status, 422, "nothing to cancel yet");
    let q = app
        .post(&format!("{VE}/job_export"), Some(&t), json!({"id": pid}))
        .await;
    assert_eq!(q.ok()["queued"], 1);
    // Cancel at once, then queue again (a new attempt, a new job).
    let c = app
        .post(&format!("{MP}/job_delete"), Some(&t), json!({"id": sid}))
        .await;
    assert_eq!(c.ok()["state"], "failed");
    // The reason is stored as a code and read in the reader's language.
    assert_eq!(c.data()["error"], "已取消切片");
    let en = app
        .post_en(
            &format!("{MP}/index"),
            Some(&t),
            json!({ "project_id": pid.to_string() }),
        )
        .await;
    let row = en.ok()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == sid)
        .cloned()
        .unwrap();
    assert_eq!(row["error"], "cancelled");
    let q = app
        .post(&format!("{VE}/job_export"), Some(&t), json!({"id": pid}))
        .await;
    assert_eq!(q.ok()["queued"], 1);
    assert_eq!(q.data()["project"]["state"], "processing");
    // While it is being sliced: no delete, no settings change, no second start.
    let r = app
        .post_en(&format!("{VE}/delete"), Some(&t), json!({"id": pid}))
        .await;
    assert_eq!(
        (r.status, r.message()),
        (422, "A video is still being sliced; try again later")
    );
    app.post(&format!("{MP}/delete"), Some(&t), json!({"id": sid}))
        .await
        .expect(422);
    app.post(&format!("{MP}/job_video"), Some(&t), json!({"id": sid}))
        .await
        .expect(422);
    let r = app
        .post(
            &format!("{MP}/modify"),
            Some(&t),
            with(json!({"project_id": pid, "seconds": 5})),
        )
        .await;
    assert_eq!(field(&r), "project_id");

    let sources = settled(&app, &t, pid).await;
    assert_eq!(sources[0]["state"], "success", "{}", sources[0]);
    assert_eq!(
        (&sources[0]["progress"], &sources[0]["slices"]),
        (&json!(100), &json!(3))
    );
    let rows = library(&app, &t, pid).await;
    assert_eq!(rows.len(), 3, "{rows:?}");
    for (i, s) in rows.iter().enumerate() {
        assert_eq!(s["start_ms"], i as i64 * 4000);
        assert_eq!(s["end_ms"], (i as i64 + 1) * 4000);
        assert_eq!(
            (&s["group_id"], &s["state"], &s["kind"]),
            (&json!(target), &json!("ready"), &json!("video"))
        );
        assert_eq!(s["source_id"], sid);
        assert!(s["poster"].is_string() && s["strip"].is_string());
        let d = s["duration_ms"].as_i64().unwrap();
        assert!((d - 4000).abs() <= 100, "duration {d}");
        check_file(&app, s["mezzanine"].as_str().unwrap(), 4000).await;
    }
    // Usable in quick mix at once: the group's ready clips.
    let pool = app
        .get_q(
            "/clip.merchant_much_clip/get_resource",
            Some(&t),
            json!({"group_id": target.to_string()}),
        )
        .await;
    assert_eq!(pool.ok()["total"], 3);
    let listed = app.get(&format!("{VE}/index"), Some(&t)).await;
    let listed = listed.ok();
    assert_eq!(
        (
            &listed["total"],
            &listed["rows"][0]["state"],
            &listed["rows"][0]["slices"]
        ),
        (&json!(1), &json!("success"), &json!(3))
    );
    let f = app
        .get_q(
            &format!("{VE}/index"),
            Some(&t),
            json!({"filterObj": json!({"state": "failed|="}).to_string()}),
        )
        .await;
    assert_eq!(f.ok()["total"], 0);

    // ---- slicing again makes no duplicates; a deleted slice is made again
    app.post(&format!("{MP}/job_video"), Some(&t), json!({"id": sid}))
        .await
        .ok();
    settled(&app, &t, pid).await;
    let again = library(&app, &t, pid).await;
    assert_eq!(
        again.iter().map(|s| s["id"].clone()).collect::<Vec<_>>(),
        rows.iter().map(|s| s["id"].clone()).collect::<Vec<_>>()
    );
    let gone = rows[1]["id"].as_i64().unwrap();
    app.post(
        &format!("{VE}/video_delete"),
        Some(&t),
        json!({"ids": [gone]}),
    )
    .await
    .ok();
    assert_eq!(library(&app, &t, pid).await.len(), 2);
    app.get_q(
        "/media.merchant_much_resource/resource_detail",
        Some(&t),
        json!({"id": gone.to_string()}),
    )
    .await
    .expect(404);
    app.post(&format!("{MP}/job_video"), Some(&t), json!({"id": sid}))
        .await
        .ok();
    settled(&app, &t, pid).await;
    let remade = library(&app, &t, pid).await;
    assert_eq!(remade.len(), 3);
    assert_eq!(remade[1]["start_ms"], 4000);

    // ---- another merchant sees nothing and reaches nothing
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "slicer2").await;
    assert_eq!(
        app.get(&format!("{VE}/index"), Some(&other)).await.ok()["total"],
        0
    );
    app.get_q(
        &format!("{VE}/video_library"),
        Some(&other),
        json!({"project_id": pid.to_string()}),
    )
    .await
    .expect(404);
    app.get_q(
        &format!("{MP}/index"),
        Some(&other),
        json!({"project_id": pid.to_string()}),
    )
    .await
    .expect(404);
    for (path, body) in [
        (format!("{VE}/delete"), json!({"id": pid})),
        (format!("{VE}/job_export"), json!({"id": pid})),
        (
            format!("{VE}/video_delete"),
            json!({"ids": [rows[0]["id"]]}),
        ),
        (
            format!("{VE}/job_video_add_all"),
            json!({"project_id": pid, "group_id": other_group}),
        ),
        (format!("{MP}/job_video"), json!({"id": sid})),
        (format!("{MP}/job_delete"), json!({"id": sid})),
        (format!("{MP}/delete"), json!({"id": sid})),
        (
            format!("{MP}/add_video"),
            json!({"project_id": pid, "resource_ids": [video]}),
        ),
    ] {
        app.post(&path, Some(&other), body).await.expect(404);
    }
    let og = group(&app, &other, "Mine").await;
    let r = app
        .post(
            &format!("{VE}/create_project"),
            Some(&other),
            json!({"name": "Steal", "mode": "fixed", "seconds": 4, "group_id": og, "resource_ids": [video]}),
        )
        .await;
    assert_eq!(field(&r), "resource_ids");
    let r = app
        .post(
            &format!("{VE}/create_project"),
            Some(&other),
            json!({"name": "Steal", "mode": "fixed", "seconds": 4, "group_id": target, "resource_ids": [video]}),
        )
        .await;
    assert_eq!(field(&r), "group_id");

    // ---- along the subtitle timeline (lines saved through the timeline editor's call)
    app.post(
        "/media.merchant_much_resource/save_asr_times",
        Some(&t),
        json!({"resource_id": video, "lines": [
            {"start": 0.5, "end": 2.0, "content": "第一句"},
            {"start": 2.2, "end": 3.9, "content": "第二句"},
            {"start": 4.5, "end": 7.0, "content": "第三句"},
            {"start": 7.5, "end": 8.0, "content": "第四句"},
            {"start": 9.0, "end": 11.5, "content": "最后一句"},
        ]}),
    )
    .await
    .ok();
    let sp = app
        .post(
            &format!("{VE}/create_project"),
            Some(&t),
            json!({"name": "By lines", "mode": "subtitle", "min_seconds": 3, "max_seconds": 6, "group_id": target, "resource_ids": [video]}),
        )
        .await;
    let spid = sp.ok()["id"].as_i64().unwrap();
    assert_eq!(
        (
            &sp.data()["min_seconds"],
            &sp.data()["max_seconds"],
            &sp.data()["seconds"]
        ),
        (&json!(3), &json!(6), &json!(0))
    );
    app.post(&format!("{VE}/job_export"), Some(&t), json!({"id": spid}))
        .await
        .ok();
    let s = settled(&app, &t, spid).await;
    assert_eq!(s[0]["state"], "success", "{}", s[0]);
    let by_lines = library(&app, &t, spid).await;
    let parts: Vec<(i64, i64)> = by_lines
        .iter()
        .map(|s| {
            (
                s["start_ms"].as_i64().unwrap(),
                s["end_ms"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(parts, vec![(500, 3900), (4500, 8000), (9000, 11_500)]);
    for s in &by_lines {
        let len = s["end_ms"].as_i64().unwrap() - s["start_ms"].as_i64().unwrap();
        check_file(&app, s["mezzanine"].as_str().unwrap(), len).await;
    }

    // ---- project settings can change when nothing is being sliced
    let m = app
        .post(
            &format!("{MP}/modify"),
            Some(&t),
            json!({"project_id": spid, "name": "By lines 2", "mode": "subtitle", "min_seconds": 2, "max_seconds": 8, "group_id": target}),
        )
        .await;
    assert_eq!(
        (&m.ok()["name"], &m.data()["min_seconds"]),
        (&json!("By lines 2"), &json!(2))
    );

    // ---- move every slice of the fixed project into another group
    let moved = app
        .post(
            &format!("{VE}/job_video_add_all"),
            Some(&t),
            json!({"project_id": pid, "group_id": other_group}),
        )
        .await;
    assert_eq!(moved.ok()["moved"], 3);
    assert!(
        library(&app, &t, pid)
            .await
            .iter()
            .all(|s| s["group_id"] == other_group)
    );

    // ---- a failure (an unreadable source) shows ffmpeg's reason; the retry succeeds, no duplicates
    let key: String = sqlx::query_scalar("SELECT mezzanine_key FROM media_files WHERE id = $1")
        .bind(video)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    let path = app.files.path.join("media").join(&key);
    let good = std::fs::read(&path).unwrap();
    std::fs::write(&path, b"this is not a video at all").unwrap();
    app.post(&format!("{MP}/job_video"), Some(&t), json!({"id": sid}))
        .await
        .ok();
    let s = settled(&app, &t, pid).await;
    assert_eq!(s[0]["state"], "failed");
    assert!(!s[0]["error"].as_str().unwrap().is_empty());
    let listed = app.get(&format!("{VE}/index"), Some(&t)).await;
    assert_eq!(
        listed.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == pid)
            .unwrap()["state"],
        "failed"
    );
    std::fs::write(&path, &good).unwrap();
    let q = app
        .post(&format!("{VE}/job_export"), Some(&t), json!({"id": pid}))
        .await;
    assert_eq!(q.ok()["queued"], 1, "a failed source is queued again");
    let s = settled(&app, &t, pid).await;
    assert_eq!(
        (&s[0]["state"], &s[0]["slices"]),
        (&json!("success"), &json!(3))
    );
    assert_eq!(library(&app, &t, pid).await.len(), 3);

    // ---- a deleted source fails with that reason
    app.post(
        "/media.merchant_much_resource/resource_delete",
        Some(&t),
        json!({"id": video}),
    )
    .await
    .ok();
    app.post(&format!("{MP}/job_video"), Some(&t), json!({"id": sid}))
        .await
        .ok();
    let s = settled(&app, &t, pid).await;
    assert_eq!(s[0]["state"], "failed");
    assert_eq!(s[0]["error"], "源视频已被删除：long talk.mp4", "{}", s[0]);
    let en = app
        .post_en(
            &format!("{MP}/index"),
            Some(&t),
            json!({ "project_id": pid.to_string() }),
        )
        .await;
    assert_eq!(
        en.ok()["rows"][0]["error"],
        "the source video was deleted: long talk.mp4"
    );
    // The slices stay usable; the project can go now.
    app.post(&format!("{VE}/delete"), Some(&t), json!({"id": pid}))
        .await
        .ok();
    app.get_q(
        &format!("{VE}/video_library"),
        Some(&t),
        json!({"project_id": pid.to_string()}),
    )
    .await
    .expect(404);
    let pool = app
        .get_q(
            "/clip.merchant_much_clip/get_resource",
            Some(&t),
            json!({"group_id": other_group.to_string()}),
        )
        .await;
    assert_eq!(pool.ok()["total"], 3);
}
