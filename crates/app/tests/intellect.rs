//! AI smart editing (/intellect) end to end: a generated 96-s video with speech (espeak-ng
//! sentences at known times) and scene changes (four 24 s scenes of different colours and patterns,
//! one of them silent) goes through the real `clip.intellect` job — speech recognition (charged),
//! scene changes, silences, the pick and the cuts — and its segments' boundaries fall within 0.5 s of
//! the scene changes and the sentence edges; the shorts are ready materials of the chosen group.
//! Also: only the Administrator may call (merchant owners and staff get 403), tenancy, bad input, a
//! run that finds nothing fails with its reason and gives the points back.
//! Runs on SQLite, and on PostgreSQL too when CLIPMATRIX_TEST_POSTGRES_URL is set.

use crate::common;
use common::*;
use serde_json::{Value, json};
use std::process::Command;
use std::time::Duration;

const API: &str = "/system/intellect";
/// Speech fills each speaking scene from 0.3 s to about 21 s; the 3 s of silence before the next cut
/// are more than a segment may hold (`MAX_SILENCE_MS`), so no segment runs on to the cut.
const SCENE_S: i64 = 24;
// Four scenes, not more: the upload's 1080x1920 mezzanine costs ~1 CPU-s per second of this video,
// and the run's three shorts need only three speaking scenes. Still pictures: a moving pattern
// (testsrc) cost 2.5 times the CPU to ingest and to analyse.
const SCENES: [&str; 4] = ["color=c=red:", "color=c=blue:", "rgbtestsrc=", "smptebars="];
/// Scenes with speech; scene 2 is silent.
const SPEAKING: [bool; 4] = [true, true, false, true];

const LINES: [&str; 20] = [
    "Welcome to our little coffee shop.",
    "We roast our beans every morning.",
    "The milk comes from a farm nearby.",
    "Try the honey latte this week.",
    "Our bakery opens at seven.",
    "Fresh bread is ready before noon.",
    "The cinnamon rolls sell out fast.",
    "Bring a friend and save ten percent.",
    "We have tables in the garden.",
    "Dogs are welcome on the terrace.",
    "Music plays every Friday night.",
    "Students get a free cookie.",
    "Order online and skip the line.",
    "Our tea comes from the mountains.",
    "The matcha is made by hand.",
    "We close at nine in the evening.",
    "Gift cards make a great present.",
    "Follow us for new flavours.",
    "Thank you for visiting today.",
    "See you again very soon.",
];

/// 16 kHz mono samples of one sentence spoken by espeak-ng.
fn speak(text: &str) -> Vec<i16> {
    let dir = std::env::temp_dir();
    let wav = dir.join(format!("cm-int-{}.wav", store::random_token(6)));
    let st = Command::new("espeak-ng")
        .args(["-v", "en", "-s", "150", "-w"])
        .arg(&wav)
        .arg(text)
        .status()
        .expect("espeak-ng is installed");
    assert!(st.success());
    let out = Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(&wav)
        .args(["-af", "silenceremove=start_periods=1:start_threshold=-40dB,areverse,silenceremove=start_periods=1:start_threshold=-40dB,areverse"])
        .args(["-f", "s16le", "-ar", "16000", "-ac", "1", "-"])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&wav);
    assert!(out.status.success());
    out.stdout
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

/// The test video (180x320, 96 s) and its truth: scene changes and spoken sentences, in ms.
struct Truth {
    cuts: Vec<i64>,
    sentences: Vec<(i64, i64)>,
}

fn long_video() -> (Vec<u8>, Truth) {
    const RATE: i64 = 16_000;
    let total = SCENE_S * SCENES.len() as i64;
    let mut audio = vec![0i16; (total * RATE) as usize];
    let mut sentences = vec![];
    let mut next = LINES.iter().cycle();
    for (k, speaking) in SPEAKING.iter().enumerate() {
        if !speaking {
            continue;
        }
        // Speech from just after the cut to about 21 s into the scene, then silence to the next cut.
        let mut at = (k as i64 * SCENE_S) * 1000 + 300;
        let stop = (k as i64 * SCENE_S) * 1000 + 21_000;
        loop {
            let s = speak(next.next().unwrap());
            let len = s.len() as i64 * 1000 / RATE;
            if at + len > stop {
                break;
            }
            let from = (at * RATE / 1000) as usize;
            audio[from..from + s.len()].copy_from_slice(&s);
            sentences.push((at, at + len));
            at += len + 800;
        }
    }
    let dir = std::env::temp_dir().join(format!("cm-int-{}", store::random_token(6)));
    std::fs::create_dir_all(&dir).unwrap();
    let raw = dir.join("a.raw");
    let bytes: Vec<u8> = audio.iter().flat_map(|s| s.to_le_bytes()).collect();
    std::fs::write(&raw, bytes).unwrap();
    let mut args: Vec<String> = vec![];
    for s in SCENES {
        args.extend(["-f", "lavfi", "-i"].map(String::from));
        args.push(format!("{s}s=180x320:r=30:d={SCENE_S}"));
    }
    args.extend(["-f", "s16le", "-ar", "16000", "-ac", "1", "-i"].map(String::from));
    args.push(raw.display().to_string());
    let inputs: String = (0..SCENES.len()).map(|i| format!("[{i}:v]")).collect();
    args.extend([
        "-filter_complex".to_string(),
        format!(
            "{inputs}concat=n={}:v=1:a=0,format=yuv420p[v]",
            SCENES.len()
        ),
        "-map".into(),
        "[v]".into(),
        "-map".into(),
        format!("{}:a", SCENES.len()),
        "-c:v".into(),
        "libx264".into(),
        "-preset".into(),
        "ultrafast".into(),
        "-c:a".into(),
        "aac".into(),
        "-t".into(),
        total.to_string(),
    ]);
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let bytes = ffmpeg_bytes(&a, "mp4");
    let _ = std::fs::remove_dir_all(&dir);
    let cuts = (1..SCENES.len() as i64)
        .map(|k| k * SCENE_S * 1000)
        .collect();
    (bytes, Truth { cuts, sentences })
}

/// A run once its job has finished (done or failed).
async fn settled(app: &TestApp, admin: &str, id: i64) -> Value {
    let mut last = json!(null);
    for _ in 0..6000 {
        last = app
            .get_q(
                &format!("{API}/info"),
                Some(admin),
                json!({ "id": id.to_string() }),
            )
            .await
            .ok()
            .clone();
        if last["state"] != "running" {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the run did not finish: {last}");
}

fn asr_installed(app: &TestApp) -> bool {
    if app.files.path.join("asr").exists()
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../data/asr/bin/python")
            .exists()
    {
        return true;
    }
    assert!(
        std::env::var("CI").is_err(),
        "the speech-recognition engine must be installed in CI (scripts/install-deps.sh)"
    );
    eprintln!("SKIPPED: speech recognition not installed in data/asr");
    false
}

#[tokio::test]
async fn a_long_video_gives_shorts_cut_on_scene_changes_and_sentence_edges() {
    // Ingesting, recognizing and cutting 1.6 minutes is ~7 CPU-minutes per run, so the story runs once (a run's
    // statements are plain updates of its one row; adding, listing and the refusals run on both
    // databases in the rules test below).
    story(heavy_story_backend()).await;
}

async fn story(b: Backend) {
    let app = TestApp::spawn(b).await;
    if !asr_installed(&app) {
        return;
    }
    app.start_worker();
    let admin = app.admin().await;
    let t = app.demo().await;
    let mid = demo_merchant(&app).await;
    let long = group(&app, &t, "Long videos").await;
    let shorts = group(&app, &t, "AI shorts").await;
    let (bytes, truth) = long_video();
    let up = app
        .upload(
            "/media.merchant_much_resource/add_resource",
            &t,
            &[("group_id", &long.to_string())],
            "coffee talk.mp4",
            bytes,
        )
        .await;
    let video = up.ok()["id"].as_i64().unwrap();
    // Minutes of video at 1080x1920 take a while to ingest on a busy machine: up to ten minutes.
    for i in 0..=6000 {
        let d = app
            .get_q(
                "/media.merchant_much_resource/resource_detail",
                Some(&t),
                json!({"id": video.to_string()}),
            )
            .await;
        match d.ok()["state"].as_str().unwrap() {
            "ready" => break,
            "failed" => panic!("ingest failed: {}", d.body),
            _ => assert!(i < 6000, "ingest did not finish"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // What the page offers: the merchant's ready videos (with the recognition price) and groups.
    let src = app
        .get_q(
            &format!("{API}/sources"),
            Some(&admin),
            json!({ "merchant_id": mid.to_string() }),
        )
        .await;
    let v = &src.ok()["videos"][0];
    assert_eq!(
        (v["id"].as_i64(), v["points"].as_i64()),
        (Some(video), Some(2))
    );
    assert!(
        src.ok()["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == shorts)
    );

    let before = points(&app, &t).await;
    let r = app
        .post_en(
            &format!("{API}/add"),
            Some(&admin),
            json!({"merchant_id": mid, "resource_id": video, "group_id": shorts,
                   "min_seconds": 15, "max_seconds": 40, "count": 3, "lang": "en"}),
        )
        .await;
    let run = r.ok()["id"].as_i64().unwrap();
    assert_eq!(r.ok()["points"], 2, "recognition of 2 started minutes");
    assert_eq!(points(&app, &t).await, before - 2);
    let done = settled(&app, &admin, run).await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(
        (done["progress"].as_i64(), done["step"].as_str()),
        (Some(100), Some("cut"))
    );
    let segs = done["segments"].as_array().unwrap().clone();
    for s in &segs {
        eprintln!(
            "segment {}–{} ms ({} → {}), score {}",
            s["start_ms"], s["end_ms"], s["start_on"], s["end_on"], s["score"]
        );
    }
    assert_eq!(segs.len(), 3, "{done}");
    let near = |t: i64, x: i64| (t - x).abs() <= 500;
    let mut prev_end = -1;
    for s in &segs {
        let (a, e) = (
            s["start_ms"].as_i64().unwrap(),
            s["end_ms"].as_i64().unwrap(),
        );
        assert!(a >= prev_end, "segments overlap: {segs:?}");
        prev_end = e;
        assert!((15_000..=40_000).contains(&(e - a)), "{s}");
        for b in [a, e] {
            // On a scene change or a sentence edge (or the video's ends) within 0.5 s ...
            assert!(
                near(b, 0)
                    || near(b, SCENE_S * SCENES.len() as i64 * 1000)
                    || truth.cuts.iter().any(|c| near(b, *c))
                    || truth
                        .sentences
                        .iter()
                        .any(|(x, y)| near(b, *x) || near(b, *y)),
                "boundary {b} ms is on no scene change or sentence edge: {s}"
            );
            // ... and never more than 0.5 s into a sentence.
            assert!(
                !truth
                    .sentences
                    .iter()
                    .any(|(x, y)| b > x + 500 && b < y - 500),
                "boundary {b} ms cuts a sentence: {s}"
            );
        }
        // A segment that begins at a scene change begins on the cut itself (within a frame), not on the
        // first word after it (the recognizer's line before the pause must not swallow the cut).
        for c in &truth.cuts {
            if near(a, *c) {
                assert!(
                    (a - c).abs() <= 34 && s["start_on"] == "scene_and_sentence",
                    "a segment starting at the cut {c} ms starts at {a} ms: {s}"
                );
            }
        }
        // Never across a cut, and never in the silent scene.
        assert!(
            !truth.cuts.iter().any(|c| a < c - 500 && e > c + 500),
            "{s}"
        );
        let scene = (a / 1000 / SCENE_S) as usize;
        assert!(SPEAKING[scene], "a segment in the silent scene: {s}");
        assert!(s["score"].as_i64().unwrap() > 50, "{s}");
        assert!(s["transcript"].as_str().unwrap().len() > 20, "{s}");
        // The short: a ready 1080x1920 video of the segment's length in the chosen group.
        let short = &s["short"];
        assert_eq!(
            (short["group_id"].as_i64(), short["state"].as_str()),
            (Some(shorts), Some("ready"))
        );
        assert!(
            (short["duration_ms"].as_i64().unwrap() - (e - a)).abs() <= 100,
            "{s}"
        );
        let path = app.download(short["src"].as_str().unwrap(), "mp4").await;
        let info = media::probe::probe(&path).await.unwrap();
        assert_eq!(
            (info.width, info.height, info.has_audio),
            (1080, 1920, true)
        );
        let _ = std::fs::remove_file(path);
    }
    // The video is now recognized: its lines are kept, and another run costs nothing and, the pick
    // being deterministic, gives the same best segment.
    let lines = app
        .get_q(
            "/media.merchant_much_resource/get_asr_timeline",
            Some(&t),
            json!({"resource_id": video.to_string()}),
        )
        .await;
    assert_eq!(lines.ok()["asr_state"], "success");
    let r = app
        .post_en(
            &format!("{API}/add"),
            Some(&admin),
            json!({"merchant_id": mid, "resource_id": video, "group_id": shorts,
                   "min_seconds": 15, "max_seconds": 40, "count": 1}),
        )
        .await;
    assert_eq!(r.ok()["points"], 0);
    let again = settled(&app, &admin, r.ok()["id"].as_i64().unwrap()).await;
    assert_eq!(points(&app, &t).await, before - 2);
    let best = segs
        .iter()
        .max_by_key(|s| {
            // The pick's own order: score, then more speech, then earlier.
            (
                s["score"].as_i64(),
                s["speech_ms"].as_i64(),
                -s["start_ms"].as_i64().unwrap(),
            )
        })
        .unwrap();
    assert_eq!(
        (
            &again["segments"][0]["start_ms"],
            &again["segments"][0]["end_ms"]
        ),
        (&best["start_ms"], &best["end_ms"]),
        "{again}"
    );
    let in_group = app
        .get_q(
            "/media.merchant_much_resource/video_resource_detail",
            Some(&t),
            json!({"group_id": shorts.to_string(), "limit": "50"}),
        )
        .await;
    assert_eq!(in_group.ok()["total"], 4, "{}", in_group.body);

    // A run that finds nothing fails with its reason, in the reader's language.
    let r = app
        .post_en(
            &format!("{API}/add"),
            Some(&admin),
            json!({"merchant_id": mid, "resource_id": video, "group_id": shorts,
                   "min_seconds": 200, "max_seconds": 300}),
        )
        .await;
    let failed = r.ok()["id"].as_i64().unwrap();
    settled(&app, &admin, failed).await;
    let f = app
        .get_q(
            &format!("{API}/info"),
            Some(&admin),
            json!({"id": failed.to_string()}),
        )
        .await;
    assert_eq!(f.ok()["state"], "failed");
    assert_eq!(
        f.ok()["reason"],
        "“coffee talk.mp4”中没有找到 200–300 秒、不含长静音的片段"
    );
    // Retry refuses what did not fail; delete keeps the shorts.
    app.post_en(&format!("{API}/retry"), Some(&admin), json!({"id": run}))
        .await
        .expect(422);
    app.post(&format!("{API}/delete"), Some(&admin), json!({"id": run}))
        .await
        .ok();
    let list = app
        .get_q(
            &format!("{API}/index"),
            Some(&admin),
            json!({"merchant_id": mid.to_string()}),
        )
        .await;
    assert_eq!(list.ok()["total"], 2);
    let in_group = app
        .get_q(
            "/media.merchant_much_resource/video_resource_detail",
            Some(&t),
            json!({"group_id": shorts.to_string(), "limit": "50"}),
        )
        .await;
    assert_eq!(in_group.ok()["total"], 4);
}

#[tokio::test]
async fn only_the_administrator_runs_it_and_tenants_stay_apart() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let t = app.demo().await;
        let mid = demo_merchant(&app).await;
        let other = app.second_merchant(&admin, "otherco").await;
        let other_mid: i64 =
            sqlx::query_scalar("SELECT merchant_id FROM users WHERE username = 'otherco'")
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        let long = group(&app, &t, "Long videos").await;
        let theirs = group(&app, &other, "Their shorts").await;
        app.start_worker();
        let up = app
            .upload(
                "/media.merchant_much_resource/add_resource",
                &t,
                &[("group_id", &long.to_string())],
                "talk.mp4",
                lavfi_video("testsrc=s=180x320:r=30", 440, "3", &[]),
            )
            .await;
        let video = up.ok()["id"].as_i64().unwrap();
        app.wait_ready(&t, &[video]).await;

        // Merchant owners and staff: 403, whatever they hold.
        let log = app.menu_id(&t, "/log").await;
        app.post(
            "/user.merchant_user_sub/add",
            Some(&t),
            json!({"username": "clerk", "nickname": "clerk", "password": "abc12345", "menu_ids": [log]}),
        )
        .await
        .ok();
        let staff = app.login(3, "clerk", "abc12345").await;
        let body = json!({"merchant_id": mid, "resource_id": video, "group_id": long});
        for who in [&t, &other, &staff] {
            let r = app
                .post_en(&format!("{API}/add"), Some(who), body.clone())
                .await;
            assert_eq!(r.status, 403, "{}", r.body);
            app.get(&format!("{API}/index"), Some(who))
                .await
                .expect(403);
        }
        // The menu is the Administrator's: the operator sees it, a merchant owner does not.
        app.menu_id(&admin, "/intellect").await;
        let tree = app.get("/ajax/initAdmin", Some(&t)).await;
        assert!(!tree.body.to_string().contains("/intellect"));

        // Tenancy: one merchant's video or group never serves another merchant's run.
        let refused = |body: Value| {
            let (app, admin) = (&app, admin.clone());
            async move {
                let r = app.post_en(&format!("{API}/add"), Some(&admin), body).await;
                assert_eq!(r.status, 422, "{}", r.body);
                let field = r.data()["field"].as_str().unwrap_or_default().to_string();
                (field, r.message().to_string())
            }
        };
        let theirs_video =
            json!({"merchant_id": other_mid, "resource_id": video, "group_id": theirs});
        assert_eq!(refused(theirs_video).await.0, "resource_id");
        let theirs_group = json!({"merchant_id": mid, "resource_id": video, "group_id": theirs});
        assert_eq!(refused(theirs_group).await.0, "group_id");
        let s = app
            .get_q(
                &format!("{API}/sources"),
                Some(&admin),
                json!({"merchant_id": other_mid.to_string()}),
            )
            .await;
        assert_eq!(s.ok()["videos"].as_array().unwrap().len(), 0);
        assert_eq!(s.ok()["groups"][0]["id"], theirs);

        // Bad input names the field, in both languages.
        let with = |patch: Value| {
            let mut b = body.clone();
            for (k, v) in patch.as_object().unwrap() {
                b[k] = v.clone();
            }
            b
        };
        for (patch, field, en) in [
            (
                json!({"merchant_id": null}),
                "merchant_id",
                "merchant_id is required",
            ),
            (
                json!({"resource_id": null}),
                "resource_id",
                "resource_id is required",
            ),
            (
                json!({"group_id": null}),
                "group_id",
                "group_id is required",
            ),
            (
                json!({"min_seconds": 4}),
                "min_seconds",
                "min_seconds must be between 5 and 300 seconds",
            ),
            (
                json!({"min_seconds": 50, "max_seconds": 20}),
                "min_seconds",
                "The shortest length cannot be longer than the longest",
            ),
            (
                json!({"count": 21}),
                "count",
                "count must be between 1 and 20",
            ),
            (json!({"lang": "fr"}), "lang", "lang is invalid: zh | en"),
        ] {
            assert_eq!(
                refused(with(patch)).await,
                (field.to_string(), en.to_string())
            );
        }
        let r = app
            .post(
                &format!("{API}/add"),
                Some(&admin),
                with(json!({"count": 0})),
            )
            .await;
        assert_eq!(r.message(), "数量 须在 1 到 20 之间");
        app.post(
            &format!("{API}/add"),
            Some(&admin),
            with(json!({"merchant_id": 999_999})),
        )
        .await
        .expect(404);
        app.get_q(
            &format!("{API}/info"),
            Some(&admin),
            json!({"id": "999999"}),
        )
        .await
        .expect(404);
        // Nothing was charged or queued by any of it.
        let runs: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM intellect_runs")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(runs, 0);
    }
}
