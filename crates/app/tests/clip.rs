//! Quick mix end to end: groups of ingested clips, a project, unique variants rendered by the real
//! engine, the finished-video library, points charged per variant and refunded on failure.

use crate::common;
use common::*;
use serde_json::json;
use std::collections::HashSet;
use std::process::Command;
use std::time::Duration;

#[tokio::test]
async fn a_project_renders_unique_variants_into_the_library() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let (groups, clips) = shot_groups(
        &app,
        &t,
        &[
            ("Open", &["red", "orange"]),
            ("Product", &["green", "teal"]),
            ("Close", &["blue", "purple"]),
        ],
        "1",
    )
    .await;
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
            p.data()["small_pool"].as_bool(),
            // Equal clips: subtitled variants are joins of pieces burned once.
            p.data()["fixed_slots"].as_bool()
        ),
        (Some(8), Some(true), Some(true))
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

    let before = points(&app, &t).await;
    let g = app
        .post(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid}),
        )
        .await;
    assert_eq!(g.ok()["variant_ids"].as_array().unwrap().len(), 3);
    assert_eq!(
        points(&app, &t).await,
        before - 3 * domain::clip::POINTS_PER_VARIANT
    );
    let rows = wait_variants(&app, &t, pid, 3).await;
    for v in &rows {
        assert_eq!(v["state"], "success", "{v}");
        let d = v["duration_ms"].as_i64().unwrap();
        assert!((d - 3000).abs() <= 100, "duration {d}");
        let path = app.download(v["src"].as_str().unwrap(), "mp4").await;
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
    // Equal clips make fixed slots: the title was burned once per (slot, clip) pair, 6 pieces for 8
    // variants of 3 slots (in the project's piece cache), and every variant joined them by copy.
    let cache = app.files.path.join(format!("work/prep/p{pid}-burn"));
    let pieces: usize = std::fs::read_dir(&cache)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "mp4"))
        .count();
    assert_eq!(pieces, 6);
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
    let (pid, groups, clips) = one_colour_project(&app, &t, "gray", "Gone").await;
    // The stored mezzanine of one clip disappears behind the app's back.
    let key: String = sqlx::query_scalar("SELECT mezzanine_key FROM media_files WHERE id = $1")
        .bind(clips[1])
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    std::fs::remove_file(app.files.path.join("media").join(key)).unwrap();
    let before = points(&app, &t).await;
    let rows = make_one(&app, &t, pid).await;
    assert_eq!(rows[0]["state"], "failed");
    assert!(
        rows[0]["error"].as_str().unwrap().contains("deleted"),
        "{}",
        rows[0]
    );
    assert_eq!(points(&app, &t).await, before);
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
    let r = app.post_en("/clip.merchant_much_clip/modify", Some(&t), json!({"id": pid, "name": "Gone", "config": {"groups": groups.iter().map(|g| json!({"group_id": g})).collect::<Vec<_>>(), "output_count": 1}})).await;
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
    let (pid, _, _) = one_colour_project(&app, &t, "olive", "Stop").await;
    let before = points(&app, &t).await;
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
    assert_eq!(points(&app, &t).await, before, "refunded");
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
    // The reason is stored as a code and read in the reader's language.
    assert_eq!(row["error"], "已取消合成", "{row}");
    let en = app
        .post_en(
            "/clip.merchant_video_library/video_index",
            Some(&t),
            json!({"project_id": pid}),
        )
        .await;
    assert_eq!(en.ok()["rows"][0]["error"], "cancelled by the user");
    let job = app
        .get_q(
            "/clip.merchant_video_library/job_video",
            Some(&t),
            json!({"id": id}),
        )
        .await;
    assert_eq!(job.ok()["job"]["state"], "dead", "{}", job.body);
    // The operator's job monitor reads the same stored code in its reader's language.
    let jid = job.ok()["job"]["id"].as_i64().unwrap();
    let monitor = app
        .post_en("/system/tasks/index", Some(&admin), json!({"limit": 100}))
        .await;
    let listed = monitor.ok()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|j| j["id"] == jid)
        .cloned()
        .unwrap_or_default();
    assert_eq!(listed["last_error"], "cancelled by the user", "{listed}");
    app.post_en(
        "/clip.merchant_video_library/video_cancel",
        Some(&t),
        json!({"id": id}),
    )
    .await
    .expect(422);
    assert_eq!(points(&app, &t).await, before, "refunded once");
}

/// A render job taken again after its variant was recorded (its worker died before closing the job and
/// the lease lapsed) leaves the finished variant and its files alone, and charges or refunds nothing.
/// Before, the second run rendered again under the same keys, found the variant no longer
/// "processing" and deleted the files the finished variant pointed at (the multi-node test saw it).
#[tokio::test]
async fn a_render_taken_again_after_it_finished_keeps_the_video() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let (pid, _, _) = one_colour_project(&app, &t, "navy", "Again").await;
        let rows = make_one(&app, &t, pid).await;
        assert_eq!(rows[0]["state"], "success", "{}", rows[0]);
        let balance = points(&app, &t).await;
        let key: String = sqlx::query_scalar("SELECT video_key FROM clip_variants")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        let file = app.files.path.join("media").join(&key);
        assert!(file.exists(), "{}", file.display());
        rerun_job(&app, "clip.render").await;
        assert!(file.exists(), "the finished variant's video is still there");
        let rows = wait_variants(&app, &t, pid, 1).await;
        assert_eq!(rows[0]["state"], "success", "{}", rows[0]);
        let src = rows[0]["src"].as_str().unwrap();
        let got = app.http.get(app.url(src)).send().await.unwrap();
        assert_eq!(got.status(), 200, "{src}");
        assert_eq!(points(&app, &t).await, balance, "no charge or refund");
    }
}

/// One-touch's step "the project's first videos" run twice at once (a job whose lease lapsed while its
/// first run lived), and the console's "generate" clicked twice at once: the videos are made and
/// charged once.
#[tokio::test]
async fn first_videos_asked_twice_at_once_are_made_once() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let (pid, _, _) = one_colour_project(&app, &t, "teal", "Twins").await;
        let mid = demo_merchant(&app).await;
        let before = points(&app, &t).await;
        let first = || services::clip::projects::generate_first(&app.state.db, mid, pid, 1);
        let (a, b) = tokio::join!(first(), first());
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.len() + b.len(), 1, "{a:?} {b:?}");
        assert_eq!(points(&app, &t).await, before - 2);
        // Asked again later (a retry), nothing more.
        assert!(first().await.unwrap().is_empty());
        // The console's "generate" asked twice at once (a double click, two tabs): both plan the same
        // next video before either writes; the first is queued, the second refused, nothing repeats.
        let (pid, _, _) = one_colour_project(&app, &t, "olive", "Clicks").await;
        let before = points(&app, &t).await;
        use services::clip::projects::{plan, queue_planned};
        let (p, a) = plan(&app.state.db, mid, pid, Some(1)).await.unwrap();
        let (_, b) = plan(&app.state.db, mid, pid, Some(1)).await.unwrap();
        assert_eq!(a.plan.variants, b.plan.variants);
        assert_eq!(queue_planned(&app.state.db, &p, &a).await.unwrap().len(), 1);
        let refused = queue_planned(&app.state.db, &p, &b).await.unwrap_err();
        assert!(
            format!("{refused:?}").contains("VariantBusy"),
            "{refused:?}"
        );
        assert_eq!(points(&app, &t).await, before - 2);
        // Through the API, a request now finds no room.
        let r = app
            .post(
                "/clip.merchant_much_clip/add_video",
                Some(&t),
                json!({"id": pid, "count": 1}),
            )
            .await;
        assert_eq!(r.status, 422, "{}", r.body);
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM clip_variants WHERE project_id = $1")
            .bind(pid)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(n, 1);
    }
}

/// Zero crossings per second of the first second of a video's sound (a sine of f Hz gives ~2f).
fn crossings_per_s(bytes: &[u8]) -> usize {
    let src = std::env::temp_dir().join(format!("cm-zc-{}.mp4", store::random_token(6)));
    std::fs::write(&src, bytes).unwrap();
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(&src)
        .args(["-t", "1", "-ac", "1", "-ar", "48000", "-f", "s16le", "-"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&src);
    assert!(out.status.success());
    let s: Vec<i16> = out
        .stdout
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect();
    s.windows(2).filter(|w| (w[0] < 0) != (w[1] < 0)).count()
}

/// SPEC §5 "Up to 3 files in one selection": a project's voice-over names up to three files and its
/// variants take them in turn.
#[tokio::test]
async fn variants_take_the_projects_voice_files_in_turn() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let (gids, _) = shot_groups(
        &app,
        &t,
        &[
            ("A", &["red", "orange"]),
            ("B", &["green"]),
            ("C", &["blue"]),
        ],
        "1",
    )
    .await;
    let groups: Vec<serde_json::Value> = gids.iter().map(|g| json!({"group_id": g})).collect();
    let mut voices = vec![];
    for f in [300, 900, 1200, 1500] {
        let wav = ffmpeg_bytes(
            &["-f", "lavfi", "-i", &format!("sine=f={f}"), "-t", "3"],
            "wav",
        );
        let r = app
            .upload(
                "/bpdr.merchant_mediainfo/upload",
                &t,
                &[("type", "voice")],
                &format!("v{f}.wav"),
                wav,
            )
            .await;
        voices.push(r.ok()["id"].as_i64().unwrap());
    }
    app.wait_ready(&t, &voices).await;

    let add = |voice: serde_json::Value| json!({"name": "Voices", "config": {"groups": groups.clone(), "voice": voice}});
    let r = app
        .post_en(
            "/clip.merchant_much_clip/add",
            Some(&t),
            add(json!({"media_ids": voices})),
        )
        .await;
    assert_eq!(
        (r.status, r.message(), r.data()["field"].as_str()),
        (422, "At most 3 files in one selection", Some("voice"))
    );
    let r = app
        .post_en(
            "/clip.merchant_much_clip/add",
            Some(&t),
            add(json!({"media_ids": [voices[0], voices[0]]})),
        )
        .await;
    assert_eq!(r.status, 422);
    // Another merchant's file is not found.
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "voices_other").await;
    app.post(
        "/clip.merchant_much_clip/add",
        Some(&other),
        add(json!({"media_ids": [voices[0]]})),
    )
    .await
    .expect(422);

    let p = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            add(json!({"media_ids": [voices[0], voices[1]], "volume": 100})),
        )
        .await;
    let pid = p.ok()["id"].as_i64().unwrap();
    assert_eq!(
        p.ok()["config"]["voice"]["media_ids"],
        json!([voices[0], voices[1]])
    );
    app.post(
        "/clip.merchant_much_clip/add_video",
        Some(&t),
        json!({"id": pid, "count": 2}),
    )
    .await
    .ok();
    let rows = wait_variants(&app, &t, pid, 2).await;
    let mut rates = vec![];
    for v in &rows {
        assert_eq!(v["state"], "success", "{v}");
        let bytes = app
            .http
            .get(app.url(v["src"].as_str().unwrap()))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        // The variant with the even id speaks the first file (300 Hz: ~600 crossings), the odd one
        // the second (900 Hz: ~1,800).
        let want = if v["id"].as_i64().unwrap() % 2 == 0 {
            600
        } else {
            1800
        };
        let got = crossings_per_s(&bytes);
        assert!(
            got.abs_diff(want) < want / 5,
            "variant {}: {got} crossings, want ~{want}",
            v["id"]
        );
        rates.push(got);
    }
    assert!(
        rates[0].abs_diff(rates[1]) > 600,
        "both variants use one file: {rates:?}"
    );

    // The project's progress is its running batch's: finished variants count 100, rendering ones
    // their own progress; none while nothing renders.
    assert_eq!(project_progress(&app, &t).await, serde_json::Value::Null);
    let later = rows
        .iter()
        .map(|v| v["id"].as_i64().unwrap())
        .max()
        .unwrap();
    exec_for(
        &app,
        "UPDATE clip_variants SET state = 'processing', progress = 50 WHERE id = $1",
        later,
    )
    .await;
    // Both were made in one batch: (100 + 50) / 2.
    assert_eq!(project_progress(&app, &t).await, json!(75));
    // An older batch does not count: the batch starts at the oldest variant still rendering.
    exec_for(
        &app,
        "UPDATE clip_variants SET created_at = 0 WHERE id <> $1",
        later,
    )
    .await;
    assert_eq!(project_progress(&app, &t).await, json!(50));
    exec_for(
        &app,
        "UPDATE clip_variants SET created_at = 0 WHERE id = $1",
        later,
    )
    .await;
    assert_eq!(project_progress(&app, &t).await, json!(75));
}

/// A quick-mix project over three shot groups A, B and C of one `colour` clip each (1 s): its id, the
/// groups and the clips.
async fn one_colour_project(
    app: &TestApp,
    t: &str,
    colour: &str,
    name: &str,
) -> (i64, Vec<i64>, Vec<i64>) {
    let shots: &[&str] = &[colour];
    let (groups, clips) =
        shot_groups(app, t, &[("A", shots), ("B", shots), ("C", shots)], "1").await;
    (plain_project(app, t, name, &groups).await, groups, clips)
}

/// Asks project `pid` for one more variant and waits until every variant has settled: the rows.
async fn make_one(app: &TestApp, t: &str, pid: i64) -> Vec<serde_json::Value> {
    app.post(
        "/clip.merchant_much_clip/add_video",
        Some(t),
        json!({"id": pid, "count": 1}),
    )
    .await
    .ok();
    wait_variants(app, t, pid, 1).await
}

/// Runs one statement over the variants with `$1` bound to `id`.
async fn exec_for(app: &TestApp, sql: &'static str, id: i64) {
    sqlx::query(sql)
        .bind(id)
        .execute(&app.db.pool)
        .await
        .unwrap();
}

/// The `progress` of the caller's newest project in the project list.
async fn project_progress(app: &TestApp, t: &str) -> serde_json::Value {
    let r = app.get("/clip.merchant_much_clip/index", Some(t)).await;
    r.ok()["rows"][0]["progress"].clone()
}

/// A fresh install has built-in music (the project's own synthesized loops, added once at first start),
/// the merchant sees it, and a quick mix with "built-in music" renders with it under the clips.
#[tokio::test]
async fn built_in_music_is_there_on_first_start_and_mixes() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let admin = app.admin().await;
    let index = "/media.merchant_producing_upfile/system_music_index";
    assert_eq!(app.get(index, Some(&t)).await.ok()["total"], 0);
    let n = services::materials::music::seed_builtin(&app.state.db, &app.state.storage)
        .await
        .unwrap();
    assert_eq!(n, media::builtin_music::TRACKS.len());
    assert!(n >= 3);
    // Once only: a track the operator deletes stays deleted.
    let rows = app.get(index, Some(&t)).await.ok()["rows"].clone();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), n);
    let gone = rows[n - 1]["id"].as_i64().unwrap();
    app.post("/system/music/delete", Some(&admin), json!({"id": gone}))
        .await
        .ok();
    assert_eq!(
        services::materials::music::seed_builtin(&app.state.db, &app.state.storage)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        app.get("/system/music/index", Some(&admin)).await.ok()["total"],
        n as i64 - 1
    );
    for r in &rows[..n - 1] {
        assert!(r["duration_ms"].as_i64().unwrap() >= 10_000, "{r}");
        let res = app
            .http
            .get(app.url(r["src"].as_str().unwrap()))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200, "{r}");
    }

    let (groups, _) = shot_groups(
        &app,
        &t,
        &[("A", &["red"]), ("B", &["green"]), ("C", &["blue"])],
        "1",
    )
    .await;
    let music = rows[0]["id"].as_i64().unwrap();
    let cfg = json!({
        "groups": groups.iter().map(|g| json!({"group_id": g})).collect::<Vec<_>>(),
        "music": {"system_music_id": music, "volume": 80},
        "output_count": 1,
    });
    let pid = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            json!({"name": "Music", "config": cfg}),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    app.post(
        "/clip.merchant_much_clip/add_video",
        Some(&t),
        json!({"id": pid}),
    )
    .await
    .ok();
    let v = &wait_variants(&app, &t, pid, 1).await[0];
    assert_eq!(v["state"], "success", "{v}");
    let path = app.download(v["src"].as_str().unwrap(), "mp4").await;
    let lufs = media::ingest::loudness(&path).await.unwrap();
    std::fs::remove_file(&path).ok();
    assert!(
        lufs.is_some_and(|l| l > -40.0),
        "the music is heard: {lufs:?}"
    );
}

/// A variant carries the whole voice-over: with a 4.5 s voice-over over groups of 1 s and 2 s clips
/// (combinations of 3–6 s), only the four combinations of at least 4.5 s are planned, the project says
/// how many are too short, asking for more is refused with the reason, and every video made lasts at
/// least as long as the voice-over (before: 8 combinations, half of them cutting it off).
#[tokio::test]
async fn every_variant_is_at_least_as_long_as_the_voice_over() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let mut groups = vec![];
    let mut clips = vec![];
    for (name, short, long) in [
        ("A", "red", "orange"),
        ("B", "green", "teal"),
        ("C", "blue", "purple"),
    ] {
        let gid = group(&app, &t, name).await;
        for (c, secs) in [(short, "1"), (long, "2")] {
            let r = app
                .upload(
                    "/media.merchant_much_resource/add_resource",
                    &t,
                    &[("group_id", &gid.to_string())],
                    &format!("{c}.mp4"),
                    clip(c, secs),
                )
                .await;
            clips.push(r.ok()["id"].as_i64().unwrap());
        }
        groups.push(json!({"group_id": gid}));
    }
    let wav = ffmpeg_bytes(&["-f", "lavfi", "-i", "sine=f=440", "-t", "4.5"], "wav");
    let r = app
        .upload(
            "/bpdr.merchant_mediainfo/upload",
            &t,
            &[("type", "voice")],
            "voice.wav",
            wav,
        )
        .await;
    let voice = r.ok()["id"].as_i64().unwrap();
    clips.push(voice);
    app.wait_ready(&t, &clips).await;
    let p = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            json!({"name": "Voice", "config": {"groups": groups, "voice": {"media_id": voice}}}),
        )
        .await;
    let pid = p.ok()["id"].as_i64().unwrap();
    let voice_ms = p.data()["voice_ms"].as_i64().unwrap();
    assert!((4400..=4600).contains(&voice_ms), "{voice_ms}");
    assert_eq!(
        (p.data()["capacity"].as_i64(), p.data()["short"].as_i64()),
        (Some(4), Some(4))
    );
    let r = app
        .post_en(
            "/clip.merchant_much_clip/preview_video",
            Some(&t),
            json!({"id": pid, "count": 5}),
        )
        .await;
    assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("count")));
    assert!(
        r.message()
            .starts_with("The voice-over lasts 4.5 s: only 4 more unique combinations")
            && r.message()
                .contains("4 shorter ones would cut the voice-over off"),
        "{}",
        r.message()
    );
    app.post(
        "/clip.merchant_much_clip/add_video",
        Some(&t),
        json!({"id": pid, "count": 4}),
    )
    .await
    .ok();
    let rows = wait_variants(&app, &t, pid, 4).await;
    for v in &rows {
        assert_eq!(v["state"], "success", "{v}");
        let d = v["duration_ms"].as_i64().unwrap();
        assert!(
            d >= voice_ms,
            "a {d} ms variant cuts the {voice_ms} ms voice-over off"
        );
    }
    let p = app.get("/clip.merchant_much_clip/index", Some(&t)).await;
    assert_eq!(
        (
            p.ok()["rows"][0]["capacity"].as_i64(),
            p.data()["rows"][0]["short"].as_i64()
        ),
        (Some(0), Some(4))
    );
}

/// A font without Chinese glyphs is refused for a Chinese title, naming the font and the characters it
/// cannot draw (burned, they showed as boxes); the same font draws a Latin title, and captions are
/// checked like titles.
#[tokio::test]
async fn a_font_must_draw_the_text_it_is_chosen_for() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let mut groups = vec![];
    for name in ["A", "B", "C"] {
        groups.push(json!({"group_id": group(&app, &t, name).await}));
    }
    // DejaVu comes with fontconfig on Debian: Latin, Greek, Cyrillic, no CJK.
    let latin = std::fs::read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").unwrap();
    let r = app
        .upload(
            "/media.merchant_font_style/add",
            &t,
            &[("name", "DejaVu")],
            "dejavu.ttf",
            latin,
        )
        .await;
    let font = r.ok()["id"].as_i64().unwrap();
    let save = |title: &str, caption: &str| {
        let mut g = groups.clone();
        g[0]["text"] = json!(caption);
        json!({"name": "Fonts", "config": {
            "groups": g,
            "title": {"text": title, "style": {"font_id": font}},
            "shot_style": {"font_id": font, "position": "middle", "size": 64},
        }})
    };
    let r = app
        .post_en(
            "/clip.merchant_much_clip/add",
            Some(&t),
            save("防晒帽 Sale", ""),
        )
        .await;
    assert_eq!(
        (r.status, r.data()["field"].as_str(), r.message()),
        (
            422,
            Some("title"),
            "The font 'DejaVu' has no glyphs for 防晒帽: burned in, they would show as boxes; \
             choose a font that covers them (e.g. a Chinese font)"
        )
    );
    let r = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            save("Sun hat", "买一送一"),
        )
        .await;
    assert_eq!(
        (r.status, r.data()["field"].as_str(), r.message()),
        (
            422,
            Some("shot_style"),
            "字体“DejaVu”没有这些字的字形：买一送，烧录后会显示为方框；请换用包含这些字（如中文）的字体"
        )
    );
    app.post(
        "/clip.merchant_much_clip/add",
        Some(&t),
        save("Sun hat 50% off", "UPF50+"),
    )
    .await
    .ok();
}

/// The built-in tracks are named in the caller's language, in the list and in the copy a merchant
/// keeps (they were English words in the Chinese console: "Arpeggio", "Pulse", "Bells").
#[tokio::test]
async fn built_in_music_is_named_in_the_callers_language() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    services::materials::music::seed_builtin(&app.state.db, &app.state.storage)
        .await
        .unwrap();
    let index = "/media.merchant_producing_upfile/system_music_index";
    let names = |v: &serde_json::Value| -> Vec<String> {
        let mut n: Vec<String> = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap().to_string())
            .collect();
        n.sort();
        n
    };
    let sorted = |f: fn(&media::builtin_music::Track) -> &'static str| -> Vec<String> {
        let mut n: Vec<String> = media::builtin_music::TRACKS
            .iter()
            .map(|t| f(t).to_string())
            .collect();
        n.sort();
        n
    };
    let zh = app.get(index, Some(&t)).await;
    assert_eq!(names(zh.ok()), sorted(|t| t.name_zh), "{}", zh.body);
    assert!(names(zh.ok()).iter().any(|n| n.contains("钟声")));
    let en = app.call("GET", index, Some(&t), None, "en").await;
    assert_eq!(names(en.ok()), sorted(|t| t.name));
    // the merchant's copy is named as the list showed it
    let bells = zh.ok()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"].as_str().unwrap().contains("钟声"))
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let copy = app
        .post(
            "/clip.merchant_music_library/save",
            Some(&t),
            json!({"system_music_id": bells}),
        )
        .await;
    assert_eq!(copy.ok()["name"], "钟声 · 72 BPM", "{}", copy.body);
}
