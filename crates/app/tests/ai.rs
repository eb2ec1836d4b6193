//! AI voice, whole app on SQLite and PostgreSQL: the voice list with samples and
//! favourites, a free audition of the first sentence, a synthesis task (points per started 100
//! characters, progress over SSE) that becomes a voice material of /speak with its subtitle lines and
//! then the voice-over of a quick-mix project whose variants carry it; bad input is a 422 naming the
//! field in both languages with nothing queued and no points taken; a cloud engine that cannot be
//! reached fails the task with its reason and gives the points back; cloning against the sandbox's
//! Doubao-style simulator; Aliyun NLS through the sandbox (its own voices, tokens minted from the
//! AccessKey pair and renewed when they expire, a wrong secret refused); the assistant's token;
//! tenants and staff kept apart.
//!
//! The story needs the built-in engine (`scripts/install-deps.sh` puts it in `<repo>/data/tts`); in CI
//! a missing engine fails the test, elsewhere that test is skipped with the reason.

use crate::common;
use base64::Engine as _;
use common::*;
use serde_json::{Value, json};
use std::time::Duration;

fn engine_installed() -> bool {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/tts");
    match media::tts::Kokoro::from_dir(&dir) {
        Ok(_) => true,
        Err(e) => {
            let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
            assert!(
                !ci,
                "CI: the speech synthesis engine must be installed: {e}"
            );
            eprintln!("SKIPPED: {e}");
            false
        }
    }
}

async fn tts_jobs(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM jobs WHERE kind = 'tts'")
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn wait_task(app: &TestApp, t: &str, id: i64) -> Value {
    for _ in 0..1800 {
        let r = app
            .get_q("/ai.MerchantDub/taskList", Some(t), json!({"limit": "100"}))
            .await;
        let row = r.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .cloned()
            .expect("the task is listed");
        if row["state"] == "done" || row["state"] == "failed" {
            return row;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the task did not finish");
}

/// Reads the caller's event stream until a `tts` event says task `id` is `state`; the states seen.
async fn sse_until(app: &TestApp, t: &str, id: i64, state: &str) -> Vec<String> {
    sse_rows_until(app, t, "tts", id, &[state], 240)
        .await
        .iter()
        .map(|r| r["state"].as_str().unwrap_or("").to_string())
        .collect()
}

async fn probe_bytes(bytes: &[u8]) -> media::MediaInfo {
    let p = std::env::temp_dir().join(format!("cm-ai-{}.m4a", store::random_token(8)));
    std::fs::write(&p, bytes).unwrap();
    let info = media::probe::probe(&p).await.unwrap();
    std::fs::remove_file(&p).ok();
    info
}

/// One backend (`heavy_story_backend`): speaking and mixing are minutes of CPU; a voice task's rows,
/// points and refunds run on both in `bad_input_names_the_field_and_takes_nothing`,
/// `an_unreachable_cloud_engine_fails_the_task_and_refunds` and `a_streamed_audition_plays_once`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn voice_task_becomes_a_voice_over_of_a_quick_mix() {
    if !engine_installed() {
        return;
    }
    for backend in [heavy_story_backend()] {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;

        // The voice list: built-in voices with samples, favourites per user.
        let list = app.get("/ai.MerchantDub/get_voice_list", Some(&t)).await;
        let rows = list.ok()["rows"].as_array().unwrap().clone();
        assert_eq!(rows.len(), domain::ai::VOICES.len());
        assert_eq!(rows[0]["id"], "zf_xiaoxiao");
        assert_eq!(rows[0]["language"], "zh");
        assert_eq!(list.ok()["engine"], "builtin");
        let sample = app
            .http
            .get(app.url(rows[4]["sample"].as_str().unwrap()))
            .send()
            .await
            .unwrap();
        assert_eq!(sample.status(), 200);
        let info = probe_bytes(&sample.bytes().await.unwrap()).await;
        assert!(info.duration_ms > 1000, "{info:?}");
        let liked = app
            .post(
                "/ai.MerchantDub/voice_likes",
                Some(&t),
                json!({"voice": "zm_yunxi"}),
            )
            .await;
        assert_eq!(liked.ok()["liked"], true);
        let list = app.get("/ai.MerchantDub/get_voice_list", Some(&t)).await;
        let yunxi = list.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == "zm_yunxi")
            .cloned()
            .unwrap();
        assert_eq!(yunxi["liked"], true);

        let before = points(&app, &t).await;
        let text = "欢迎来到我们的店铺，今天全场商品都有优惠。新鲜的水果每天早上送到，价格实惠，品质放心。";

        // Audition: the first sentence only, now, free.
        let a = app
            .post(
                "/ai.MerchantDub/nlsAudition",
                Some(&t),
                json!({"text": text, "voice": "zm_yunxi"}),
            )
            .await;
        let a = a.ok().clone();
        assert_eq!(a["lines"].as_array().unwrap().len(), 1);
        assert_eq!(
            a["lines"][0]["content"],
            "欢迎来到我们的店铺，今天全场商品都有优惠"
        );
        let b64 = a["audio"]
            .as_str()
            .unwrap()
            .strip_prefix("data:audio/mp4;base64,")
            .unwrap();
        let info = probe_bytes(
            &base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap(),
        )
        .await;
        assert_eq!(info.audio_rate, Some(48_000));
        assert!(
            info.duration_ms > 1500 && info.duration_ms < 8000,
            "{info:?}"
        );
        assert_eq!(points(&app, &t).await, before, "an audition is free");

        // Streamed: a signed URL at once, whose GET is the same sentence as MP3, spoken as it comes.
        let s = app
            .post(
                "/ai.MerchantDub/nlsAudition",
                Some(&t),
                json!({"text": text, "voice": "zm_yunxi", "stream": true}),
            )
            .await;
        let s = s.ok().clone();
        assert_eq!(s["streamed"], true);
        assert_eq!(s["lines"][0]["content"], a["lines"][0]["content"]);
        let url = s["audio"].as_str().unwrap().to_string();
        assert!(url.starts_with("/audition?t="), "{url}");
        let res = app.http.get(app.url(&url)).send().await.unwrap();
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], "audio/mpeg");
        let mp3 = res.bytes().await.unwrap();
        let p = std::env::temp_dir().join(format!("cm-ai-{}.mp3", store::random_token(8)));
        std::fs::write(&p, &mp3).unwrap();
        let streamed = media::probe::probe(&p).await.unwrap();
        std::fs::remove_file(&p).ok();
        assert_eq!(streamed.audio_rate, Some(48_000));
        assert!(
            (streamed.duration_ms - info.duration_ms).abs() < 1500,
            "the stream says the same sentence: {streamed:?} vs {info:?}"
        );
        // Altered tickets are refused; nothing was charged.
        let forged = url.replacen("&s=", "&s=0", 1);
        let res = app.http.get(app.url(&forged)).send().await.unwrap();
        assert_eq!(res.status(), 403);
        let other = url.replacen("/audition?t=7b", "/audition?t=7c", 1);
        assert_eq!(
            app.http.get(app.url(&other)).send().await.unwrap().status(),
            403
        );
        assert_eq!(points(&app, &t).await, before);

        // The task: one point for 43 characters, progress over SSE, then done.
        let q = app
            .post(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                json!({"text": text, "voice": "zm_yunxi", "volume": 60, "speed": 0, "intonation": 0}),
            )
            .await;
        let task = q.ok().clone();
        let id = task["id"].as_i64().unwrap();
        assert_eq!(task["points"], 1);
        assert_eq!(task["chars"], 43);
        assert_eq!(points(&app, &t).await, before - 1);
        let seen = sse_until(&app, &t, id, "done").await;
        assert_eq!(seen.last().unwrap(), "done");
        let done = wait_task(&app, &t, id).await;
        assert_eq!(done["state"], "done", "{done}");
        assert_eq!(done["progress"], 100);
        let lines = done["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[1]["content"],
            "新鲜的水果每天早上送到，价格实惠，品质放心"
        );
        let duration = done["duration_ms"].as_i64().unwrap();
        assert!(lines[1]["end_ms"].as_i64().unwrap() <= duration);
        let audio = app.download(done["src"].as_str().unwrap(), "m4a").await;
        let info = media::probe::probe(&audio).await.unwrap();
        assert_eq!(
            (info.audio_rate, info.audio_codec.as_deref()),
            (Some(48_000), Some("aac"))
        );
        let lufs = media::ingest::loudness(&audio).await.unwrap().unwrap();
        assert!((lufs - -16.0).abs() < 2.5, "{lufs} LUFS");
        // Audio-only generated content (GB 45438-2025): the cue ("short long, short short" beeps)
        // before the speech, whose lines start after it, and the implicit label in the M4A.
        assert_aigc_cue(&audio).await;
        let cue = domain::clip::aigc::audio_cue_ms();
        assert!(lines[0]["start_ms"].as_i64().unwrap() >= cue, "{lines:?}");
        let meta = aigc_meta(&audio).await.expect("the AIGC field");
        assert_eq!(meta["Label"], "1");
        assert_eq!(meta["ContentProducer"], "clipmatrix");
        assert!(
            meta["ProduceID"]
                .as_str()
                .unwrap()
                .ends_with(&format!("-tts{id}")),
            "{meta}"
        );
        std::fs::remove_file(&audio).ok();
        // In the usage records.
        let usage = app
            .get("/common.merchant_usage_record/index", Some(&t))
            .await;
        assert!(
            usage.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["reason_code"] == "tts" && r["change"] == -1),
            "{}",
            usage.body
        );

        // Another merchant sees nothing of it.
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "ai_other").await;
        let theirs = app.get("/ai.MerchantDub/taskList", Some(&other)).await;
        assert_eq!(theirs.ok()["total"], 0);
        app.post(
            "/ai.MerchantDub/importingBroadcast",
            Some(&other),
            json!({"id": id}),
        )
        .await
        .expect(404);
        app.post(
            "/ai.MerchantDub/deleteTask",
            Some(&other),
            json!({"id": id}),
        )
        .await
        .expect(404);

        // Into /speak with its lines; importing again gives the same material.
        let m = app
            .post(
                "/ai.MerchantDub/importingBroadcast",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        let mid = m.ok()["id"].as_i64().unwrap();
        assert_eq!(m.ok()["library"], "voice");
        // Downloaded, the generated speech carries its audible cue and label (the material itself
        // stays the plain speech that mixes and the subtitle editor read).
        let dl = m.ok()["download"]
            .as_str()
            .expect("a voice material's download link");
        let got = app.download(dl, "m4a").await;
        assert_aigc_cue(&got).await;
        let meta = aigc_meta(&got).await.expect("the download's AIGC field");
        assert!(
            meta["ProduceID"]
                .as_str()
                .unwrap()
                .ends_with(&format!("-tts{id}")),
            "{meta}"
        );
        let plain = app.download(m.ok()["src"].as_str().unwrap(), "m4a").await;
        let (a, b) = (
            media::probe::probe(&got).await.unwrap().duration_ms,
            media::probe::probe(&plain).await.unwrap().duration_ms,
        );
        let cue = domain::clip::aigc::audio_cue_ms();
        assert!((a - b - cue).abs() < 150, "download {a} ms, plain {b} ms");
        std::fs::remove_file(&got).ok();
        std::fs::remove_file(&plain).ok();
        // Ready at once: the engine's output is already what ingest would make (its loudness measured).
        assert_eq!(m.ok()["state"], "ready", "{}", m.body);
        let lufs = m.ok()["loudness"].as_f64().unwrap();
        assert!((lufs + 16.0).abs() < 2.0, "{lufs} LUFS");
        let again = app
            .post(
                "/ai.merchant_ai/add_dub_broadcast",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        assert_eq!(again.ok()["id"], mid);
        let asr = app
            .get_q(
                "/media.merchant_much_resource/asr_detail",
                Some(&t),
                json!({"resource_id": mid.to_string(), "limit": "50"}),
            )
            .await;
        let got: Vec<&str> = asr.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["content"].as_str().unwrap())
            .collect();
        assert_eq!(
            got,
            [
                "欢迎来到我们的店铺，今天全场商品都有优惠",
                "新鲜的水果每天早上送到，价格实惠，品质放心"
            ]
        );

        // The voice-over of a quick mix with its subtitles burned: every variant carries it.
        let (groups, _) = shot_groups(
            &app,
            &t,
            &[
                ("A", &["red", "orange"]),
                ("B", &["green"]),
                ("C", &["blue"]),
            ],
            "3",
        )
        .await;
        let cfg = json!({
            "groups": groups.iter().map(|g| json!({"group_id": g})).collect::<Vec<_>>(),
            "voice": {"media_ids": [mid], "volume": 100},
            "subtitles": {"enabled": true},
        });
        let pid = app
            .post(
                "/clip.merchant_much_clip/add",
                Some(&t),
                json!({"name": "TTS", "config": cfg}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": pid, "count": 2}),
        )
        .await
        .ok();
        let variants = wait_variants(&app, &t, pid, 2).await;
        for v in &variants {
            assert_eq!(v["state"], "success", "{v}");
            let path = app.download(v["src"].as_str().unwrap(), "mp4").await;
            let info = media::probe::probe(&path).await.unwrap();
            assert!(info.has_audio && info.duration_ms >= 8_000, "{info:?}");
            let lufs = media::ingest::loudness(&path).await.unwrap();
            assert!(
                lufs.is_some_and(|l| l > -24.0),
                "the voice-over is heard: {lufs:?}"
            );
            // A synthesized voice-over makes the video generated: the visible label on the opening
            // seconds (the clips are solid colours: the corner is one colour without it) and the
            // implicit label after the stream-copy join of the pieces.
            assert!(label_corner(&path, 0.5) > 0.03, "the label shows at 0.5 s");
            assert!(label_corner(&path, 2.5) > 0.03, "the label shows at 2.5 s");
            assert!(label_corner(&path, 3.5) < 0.005, "no label after 3 s");
            let meta = aigc_meta(&path).await.expect("the AIGC field");
            assert_eq!(meta["Label"], "1");
            let vid = v["id"].as_i64().unwrap();
            assert!(
                meta["ProduceID"]
                    .as_str()
                    .unwrap()
                    .ends_with(&format!("-v{vid}")),
                "{meta}"
            );
            std::fs::remove_file(&path).ok();
        }
        // The release form lists them with their generated part (AI voice = audio): `auto` declares
        // them AI-generated.
        let listed = app
            .get_q(
                "/task.merchant_forward_task/forward_video",
                Some(&t),
                json!({"source": "library", "limit": "50"}),
            )
            .await;
        for v in &variants {
            let row = listed.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["id"] == v["id"])
                .cloned()
                .unwrap();
            assert_eq!(row["ai_parts"], json!(["audio"]), "{row}");
        }

        // A project of the merchant's own footage, no voice-over: neither label, nothing generated.
        let own = plain_project(&app, &t, "Own", &groups).await;
        app.post(
            "/clip.merchant_much_clip/add_video",
            Some(&t),
            json!({"id": own, "count": 1}),
        )
        .await
        .ok();
        let plain = wait_variants(&app, &t, own, 1).await;
        assert_eq!(plain[0]["state"], "success", "{}", plain[0]);
        let path = app.download(plain[0]["src"].as_str().unwrap(), "mp4").await;
        assert!(label_corner(&path, 0.5) < 0.005, "no label on own footage");
        assert!(aigc_meta(&path).await.is_none());
        std::fs::remove_file(&path).ok();
        let listed = app
            .get_q(
                "/task.merchant_forward_task/forward_video",
                Some(&t),
                json!({"source": "library", "limit": "50"}),
            )
            .await;
        let row = listed.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == plain[0]["id"])
            .cloned()
            .unwrap();
        assert_eq!(row["ai_parts"], json!([]), "{row}");

        // A finished task can be deleted; the imported material stays.
        app.post("/ai.MerchantDub/deleteTask", Some(&t), json!({"id": id}))
            .await
            .ok();
        assert_eq!(
            app.get("/ai.MerchantDub/taskList", Some(&t)).await.ok()["total"],
            0
        );
        app.get_q(
            "/media.merchant_much_resource/resource_detail",
            Some(&t),
            json!({"id": mid.to_string()}),
        )
        .await
        .ok();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_names_the_field_and_takes_nothing() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let before = points(&app, &t).await;
        let ok = json!({"text": "你好。", "voice": "zf_xiaoxiao", "volume": 50, "speed": 0, "intonation": 0});
        let with = |k: &str, v: Value| {
            let mut b = ok.clone();
            b[k] = v;
            b
        };
        let cases = [
            (
                with("text", json!("   ")),
                "text",
                "文本内容 不能为空",
                "text is required",
            ),
            (
                with("text", json!("字".repeat(301))),
                "text",
                "文本内容 不能超过 300 个字符",
                "text must be at most 300 characters",
            ),
            (
                with("voice", json!("xx_nobody")),
                "voice",
                "没有这个音色：xx_nobody",
                "There is no such voice: xx_nobody",
            ),
            (
                with("volume", json!(101)),
                "volume",
                "音量 须在 0 到 100 之间",
                "volume must be between 0 and 100",
            ),
            (
                with("speed", json!(501)),
                "speed",
                "语速 须在 -500 到 500 之间",
                "speed must be between -500 and 500",
            ),
            (
                with("intonation", json!(-501)),
                "intonation",
                "语调 须在 -500 到 500 之间",
                "intonation must be between -500 and 500",
            ),
        ];
        for (body, field, zh, en) in cases {
            for path in [
                "/ai.MerchantDub/putNlsTask",
                "/ai.merchant_ai/add_dub",
                "/ai.MerchantDub/nlsAudition",
            ] {
                let r = app.post(path, Some(&t), body.clone()).await;
                assert_eq!(
                    (r.status, r.data()["field"].as_str(), r.message()),
                    (422, Some(field), zh),
                    "{path}: {}",
                    r.body
                );
                let r = app.post_en(path, Some(&t), body.clone()).await;
                assert_eq!((r.status, r.message()), (422, en), "{path}");
            }
        }
        // A clone voice of another merchant (or none) is unknown too.
        let r = app
            .post_en(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                with("voice", json!("clone:S_x")),
            )
            .await;
        assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("voice")));
        // A task name over the limit is refused with the field named (it was cut to 60 silently).
        let r = app
            .post_en(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                with("name", json!("名".repeat(10_000))),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str(), r.message()),
            (422, Some("name"), "name must be at most 60 characters")
        );
        assert_eq!(points(&app, &t).await, before, "no points taken");
        assert_eq!(tts_jobs(&app).await, 0, "nothing queued");
        assert_eq!(
            app.get("/ai.MerchantDub/taskList", Some(&t)).await.ok()["total"],
            0
        );
        // Liking an unknown voice; importing or deleting a task that does not exist.
        app.post(
            "/ai.MerchantDub/voice_likes",
            Some(&t),
            json!({"voice": "nope"}),
        )
        .await
        .expect(422);
        app.post(
            "/ai.MerchantDub/importingBroadcast",
            Some(&t),
            json!({"id": 999}),
        )
        .await
        .expect(404);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_cloud_engine_fails_the_task_and_refunds() {
    for backend in backends() {
        let app = TestApp::spawn_with(backend, unreachable_cloud_tts).await;
        let t = app.demo().await;
        let before = points(&app, &t).await;
        let list = app.get("/ai.MerchantDub/get_voice_list", Some(&t)).await;
        assert_eq!(list.ok()["engine"], "cloud");
        let text = "第一句话。".repeat(30); // 150 characters: 2 points
        let q = app
            .post(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                json!({"text": text, "voice": "xiaoyun"}),
            )
            .await;
        let id = q.ok()["id"].as_i64().unwrap();
        assert_eq!(q.ok()["points"], 2);
        assert_eq!(points(&app, &t).await, before - 2);
        // The worker starts after the charge is seen: a refused connection fails at once, so a
        // worker already running could refund before the charge is read.
        app.start_worker();
        let row = wait_task(&app, &t, id).await;
        assert_eq!(row["state"], "failed");
        let reason = row["reason"].as_str().unwrap();
        assert!(
            reason.starts_with("语音合成失败") && reason.contains("cannot be reached"),
            "{reason}"
        );
        assert_eq!(points(&app, &t).await, before, "refunded");
        let en = app
            .call("GET", "/ai.MerchantDub/taskList", Some(&t), None, "en")
            .await;
        assert!(
            en.ok()["rows"][0]["reason"]
                .as_str()
                .unwrap()
                .starts_with("Speech synthesis failed"),
            "{}",
            en.body
        );
        let usage = app
            .get("/common.merchant_usage_record/index", Some(&t))
            .await;
        assert!(
            usage.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["reason_code"] == "tts_failed" && r["change"] == 2)
        );
        // The audition says so at once.
        let r = app
            .post_en(
                "/ai.MerchantDub/nlsAudition",
                Some(&t),
                json!({"text": "你好。", "voice": "xiaoyun"}),
            )
            .await;
        assert_eq!(r.status, 422);
        assert!(
            r.message()
                .starts_with("The speech synthesis service failed"),
            "{}",
            r.body
        );
    }
}

/// The tokens the sandbox's NLS token service minted so far.
async fn nls_minted(app: &TestApp) -> i64 {
    let v: Value = app
        .http
        .get(app.url("/sandbox/_control/nls"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    v["minted"].as_i64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nls_voices_through_the_sandbox_with_tokens_from_the_access_key() {
    for backend in backends() {
        let app = TestApp::spawn_with(backend, |s| sandbox_nls(s, None)).await;
        app.start_worker();
        let t = app.demo().await;
        // The list is NLS's own voices (Kokoro's ids were once sent to it), in the reader's language.
        let list = app.get("/ai.MerchantDub/get_voice_list", Some(&t)).await;
        assert_eq!(list.ok()["engine"], "cloud");
        let rows = list.ok()["rows"].as_array().unwrap();
        assert_eq!(rows.len(), domain::ai::NLS_VOICES.len());
        assert_eq!(
            (rows[0]["id"].as_str(), rows[0]["name"].as_str()),
            (Some("xiaoyun"), Some("小云"))
        );
        assert!(
            rows.iter()
                .any(|r| r["id"] == "aixia" && r["style"] == "亲和女声（客服）")
        );
        assert!(!rows.iter().any(|r| r["id"] == "zf_xiaoxiao"));
        let en = app
            .call(
                "GET",
                "/ai.MerchantDub/get_voice_list",
                Some(&t),
                None,
                "en",
            )
            .await;
        assert_eq!(en.ok()["rows"][1]["name"], "Xiaogang");
        let r = app
            .post_en(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                json!({"text": "你好。", "voice": "zf_xiaoxiao"}),
            )
            .await;
        assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("voice")));
        app.post(
            "/ai.MerchantDub/voice_likes",
            Some(&t),
            json!({"voice": "aixia"}),
        )
        .await
        .ok();

        // A voice-over in an NLS voice, through the sandbox: two sentences, two lines, into /speak.
        let q = app
            .post(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                json!({"text": "第一句。第二句话。", "voice": "aixia"}),
            )
            .await;
        let id = q.ok()["id"].as_i64().unwrap();
        let row = wait_task(&app, &t, id).await;
        assert_eq!(row["state"], "done", "{row}");
        assert_eq!(row["lines"].as_array().unwrap().len(), 2);
        assert!(row["duration_ms"].as_i64().unwrap() >= 1000, "{row}");
        let m = app
            .post(
                "/ai.MerchantDub/importingBroadcast",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        assert_eq!(
            (m.ok()["library"].as_str(), m.ok()["state"].as_str()),
            (Some("voice"), Some("ready"))
        );
        assert_eq!(nls_minted(&app).await, 1, "one token for both sentences");

        // The token expires (the platform clock moves a day and more): the next voice-over mints a
        // new one from the AccessKey pair and is made.
        app.db.clock.advance(25 * 3_600_000);
        let q = app
            .post(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                json!({"text": "过了一天。", "voice": "xiaoyun"}),
            )
            .await;
        let row = wait_task(&app, &t, q.ok()["id"].as_i64().unwrap()).await;
        assert_eq!(row["state"], "done", "{row}");
        assert_eq!(nls_minted(&app).await, 2, "renewed once");
        // The voice's sample is the engine's too.
        let sample = en.ok()["rows"][0]["sample"].as_str().unwrap().to_string();
        let res = app.http.get(app.url(&sample)).send().await.unwrap();
        assert_eq!(res.status(), 200);

        // A wrong AccessKey secret: the token service refuses it, the task fails with that reason
        // and the points come back; the audition says so at once.
        let app = TestApp::spawn_with(backend, |s| sandbox_nls(s, Some("not-the-secret"))).await;
        let t = app.demo().await;
        let before = points(&app, &t).await;
        let q = app
            .post(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                json!({"text": "你好。", "voice": "xiaoyun"}),
            )
            .await;
        let id = q.ok()["id"].as_i64().unwrap();
        app.start_worker();
        let row = wait_task(&app, &t, id).await;
        assert_eq!(row["state"], "failed");
        let reason = row["reason"].as_str().unwrap();
        assert!(reason.contains("SignatureDoesNotMatch"), "{reason}");
        assert_eq!(points(&app, &t).await, before, "refunded");
        let r = app
            .post_en(
                "/ai.MerchantDub/nlsAudition",
                Some(&t),
                json!({"text": "你好。", "voice": "xiaoyun"}),
            )
            .await;
        assert_eq!(r.status, 422);
        assert!(r.message().contains("SignatureDoesNotMatch"), "{}", r.body);
        assert_eq!(nls_minted(&app).await, 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cloning_through_the_provider_or_a_clear_error() {
    for backend in backends() {
        // Not configured: the clear error, in both languages.
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let r = app
            .post("/doubao.db_audio/cloning", Some(&t), json!({}))
            .await;
        assert_eq!(
            (r.status, r.message()),
            (422, "未配置声音复刻服务，请联系平台管理员配置后再试")
        );
        let r = app
            .post_en(
                "/doubao.db_audio/upload",
                Some(&t),
                json!({"name": "Me", "resource_id": 1}),
            )
            .await;
        assert_eq!(
            (r.status, r.message()),
            (
                422,
                "No voice cloning service is configured; ask the Administrator to set one up"
            )
        );
        // The assistant's token is the install's secret: never handed to a merchant.
        let r = app
            .post_en("/ai.coze/get_lszs_access_token", Some(&t), json!({}))
            .await;
        assert_eq!(
            (r.status, r.message()),
            (
                403,
                "The assistant's access token stays on the server; it is not handed out"
            )
        );
        let list = app.get("/ai.MerchantDub/get_voice_list", Some(&t)).await;
        assert_eq!(list.ok()["cloning"], false);

        // Configured against the sandbox's simulator (and an assistant token).
        let app = TestApp::spawn_with(backend, |s| {
            let mut ai = services::ai::Ai::built_in(&s.settings.data_dir.join("tts"));
            ai.clone = Some(services::ai::clone::Provider::new(
                &format!("{}/doubao", s.settings.platform_base),
                "app",
                platforms::sandbox::doubao::SANDBOX_DOUBAO_TOKEN,
            ));
            s.ai = std::sync::Arc::new(ai);
        })
        .await;
        app.start_worker();
        let t = app.demo().await;
        assert_eq!(
            app.get("/ai.coze/get_lszs_access_token", Some(&t))
                .await
                .status,
            403
        );
        let sample = |secs: &str| {
            ffmpeg_bytes(
                &["-f", "lavfi", "-i", "sine=f=220", "-t", secs, "-ac", "1"],
                "wav",
            )
        };
        let mut ids = vec![];
        for secs in ["12", "4"] {
            let r = app
                .upload(
                    "/bpdr.merchant_mediainfo/upload",
                    &t,
                    &[("type", "voice")],
                    &format!("me{secs}.wav"),
                    sample(secs),
                )
                .await;
            ids.push(r.ok()["id"].as_i64().unwrap());
        }
        app.wait_ready(&t, &ids).await;
        // Too short a sample, no name: refused by field.
        let r = app
            .post_en(
                "/doubao.db_audio/upload",
                Some(&t),
                json!({"name": "Me", "resource_id": ids[1]}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("resource_id")),
            "{}",
            r.body
        );
        let r = app
            .post_en(
                "/doubao.db_audio/upload",
                Some(&t),
                json!({"name": " ", "resource_id": ids[0]}),
            )
            .await;
        assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("name")));

        let c = app
            .post(
                "/doubao.db_audio/upload",
                Some(&t),
                json!({"name": "我的声音", "resource_id": ids[0]}),
            )
            .await;
        assert_eq!(c.ok()["state"], "training");
        let voice = c.ok()["voice"].as_str().unwrap().to_string();
        // Training: not a voice of the list yet, and cannot be used.
        let has = |list: &Resp| {
            list.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["id"] == voice.as_str() && r["source"] == "clone")
        };
        let first = app
            .post("/doubao.db_audio/cloning", Some(&t), json!({}))
            .await;
        assert_eq!(first.ok()["rows"][0]["state"], "training");
        assert!(!has(&app
            .get("/ai.MerchantDub/get_voice_list", Some(&t))
            .await));
        app.post_en(
            "/ai.MerchantDub/putNlsTask",
            Some(&t),
            json!({"text": "你好。", "voice": voice}),
        )
        .await
        .expect(422);
        let second = app
            .post("/doubao.db_audio/cloning", Some(&t), json!({}))
            .await;
        assert_eq!(second.ok()["rows"][0]["state"], "ready");
        assert!(has(&app
            .get("/ai.MerchantDub/get_voice_list", Some(&t))
            .await));
        // Another merchant does not get the voice.
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "clone_other").await;
        let theirs = app
            .get("/ai.MerchantDub/get_voice_list", Some(&other))
            .await;
        assert!(
            !theirs.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["source"] == "clone")
        );

        // Speaking with the clone goes to the provider.
        let q = app
            .post(
                "/ai.MerchantDub/putNlsTask",
                Some(&t),
                json!({"text": "第一句。第二句话。", "voice": voice}),
            )
            .await;
        let row = wait_task(&app, &t, q.ok()["id"].as_i64().unwrap()).await;
        assert_eq!(row["state"], "done", "{row}");
        assert_eq!(row["lines"].as_array().unwrap().len(), 2);
        assert!(row["duration_ms"].as_i64().unwrap() >= 1000);
        // Its audio, asked for gzipped as browsers do (the compression layer once crashed the stream).
        let res = app
            .http
            .get(app.url(row["src"].as_str().unwrap()))
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
        assert!(res.bytes().await.unwrap().len() > 1000);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_need_the_ai_voice_menu() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let log = app.menu_id(&t, "/log").await;
    let voice = app.menu_id(&t, "/ai_voice").await;
    for (name, menus) in [("clerk_log", vec![log]), ("clerk_ai", vec![voice])] {
        app.post(
            "/user.merchant_user_sub/add",
            Some(&t),
            json!({"username": name, "nickname": name, "password": "abc12345", "menu_ids": menus}),
        )
        .await
        .ok();
    }
    let s = app.login(3, "clerk_log", "abc12345").await;
    let r = app
        .post_en(
            "/ai.MerchantDub/putNlsTask",
            Some(&s),
            json!({"text": "你好。"}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    app.get("/ai.MerchantDub/get_voice_list", Some(&s))
        .await
        .expect(403);
    assert_eq!(tts_jobs(&app).await, 0);
    // The AI voice menu grants the voice calls, but importing into /speak needs the /speak menu.
    let s = app.login(3, "clerk_ai", "abc12345").await;
    app.get("/ai.MerchantDub/get_voice_list", Some(&s))
        .await
        .ok();
    let r = app
        .post_en(
            "/ai.MerchantDub/importingBroadcast",
            Some(&s),
            json!({"id": 1}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
}

/// One second of silence, a real audio file: the task's file gets the AI cue put before it, which
/// needs audio ffmpeg can read.
fn silent_second() -> &'static [u8] {
    static WAV: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    WAV.get_or_init(|| {
        ffmpeg_bytes(
            &["-f", "lavfi", "-i", "anullsrc=r=24000:cl=mono", "-t", "1"],
            "wav",
        )
    })
}

/// A speech engine that answers when the test lets it (one permit per answer).
struct Held(std::sync::Arc<tokio::sync::Semaphore>);

impl media::tts::Synthesizer for Held {
    fn synthesize<'a>(
        &'a self,
        _req: &'a media::tts::Request,
        dst: &'a std::path::Path,
    ) -> media::asr::BoxFuture<'a, Result<media::tts::Speech, media::tts::TtsError>> {
        Box::pin(async move {
            self.0.acquire().await.unwrap().forget();
            tokio::fs::write(dst, silent_second()).await?;
            Ok(media::tts::Speech {
                duration_ms: 1000,
                lines: vec![],
            })
        })
    }
}

/// A speech engine that speaks sentence by sentence: it says the first is done, then waits for the
/// test before the rest.
struct Stepped(std::sync::Arc<tokio::sync::Semaphore>);

impl media::tts::Synthesizer for Stepped {
    fn synthesize<'a>(
        &'a self,
        req: &'a media::tts::Request,
        dst: &'a std::path::Path,
    ) -> media::asr::BoxFuture<'a, Result<media::tts::Speech, media::tts::TtsError>> {
        self.synthesize_reporting(req, dst, &|_, _| {})
    }

    fn synthesize_reporting<'a>(
        &'a self,
        req: &'a media::tts::Request,
        dst: &'a std::path::Path,
        progress: media::tts::Progress<'a>,
    ) -> media::asr::BoxFuture<'a, Result<media::tts::Speech, media::tts::TtsError>> {
        Box::pin(async move {
            let n = req.sentences.len();
            progress(1, n);
            self.0.acquire().await.unwrap().forget();
            for i in 2..=n {
                progress(i, n);
            }
            tokio::fs::write(dst, silent_second()).await?;
            Ok(media::tts::Speech {
                duration_ms: 1000,
                lines: vec![],
            })
        })
    }
}

/// A voice task's progress moves while its script is spoken, sentence by sentence (it sat at 10 %
/// until the whole script was done).
#[tokio::test]
async fn a_voice_tasks_progress_moves_sentence_by_sentence() {
    let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let g = gate.clone();
    let app = TestApp::spawn_with(Backend::Sqlite, move |s| {
        let mut ai = services::ai::Ai::built_in(&s.settings.data_dir.join("tts"));
        ai.cloud = Some(std::sync::Arc::new(Stepped(g)));
        s.ai = std::sync::Arc::new(ai);
    })
    .await;
    app.start_worker();
    let t = app.demo().await;
    let q = app
        .post(
            "/ai.MerchantDub/putNlsTask",
            Some(&t),
            json!({"text": "第一句。第二句。", "voice": "zf_xiaoxiao", "volume": 50, "speed": 0, "intonation": 0}),
        )
        .await;
    let id = q.ok()["id"].as_i64().unwrap();
    // One of two sentences spoken: half of the way from 10 to 90.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let r = app
            .get_q(
                "/ai.MerchantDub/taskList",
                Some(&t),
                json!({"limit": "100"}),
            )
            .await;
        let row = r.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .cloned()
            .unwrap();
        if row["progress"] == 50 {
            assert_eq!(row["state"], "running", "{row}");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the progress never passed 50 %: {row}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    gate.add_permits(1);
    let done = wait_task(&app, &t, id).await;
    assert_eq!(
        (done["state"].clone(), done["progress"].clone()),
        (json!("done"), json!(100))
    );
}

/// Auditions are free, so each merchant gets one at a time and ten a minute (a 429 in both
/// languages says which); another merchant is not held up by it.
#[tokio::test]
async fn auditions_are_rationed_per_merchant() {
    let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let g = gate.clone();
    let app = TestApp::spawn_with(Backend::Sqlite, move |s| {
        let mut ai = services::ai::Ai::built_in(&s.settings.data_dir.join("tts"));
        ai.cloud = Some(std::sync::Arc::new(Held(g)));
        // The minute does not pass during the test, however slow the machine.
        ai.auditions = services::ai::auditions::Auditions::new(std::sync::Arc::new(|| 1_000_000));
        s.ai = std::sync::Arc::new(ai);
    })
    .await;
    let t = app.demo().await;
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "audition_other").await;
    let body = json!({"text": "你好，欢迎光临。", "voice": "zf_xiaoxiao"});
    // Twelve at once: one is synthesized, the others are told to wait for it.
    let calls: Vec<_> = (0..12)
        .map(|_| {
            let req = app
                .http
                .post(app.url("/api/ai.MerchantDub/nlsAudition"))
                .bearer_auth(&t)
                .header("accept-language", "zh-cn")
                .json(&body);
            tokio::spawn(async move {
                let res = req.send().await.unwrap();
                let status = res.status().as_u16();
                let body: Value = res.json().await.unwrap();
                Resp { status, body }
            })
        })
        .collect();
    // The refusals come at once (a deadline, not a sleep); then the engine answers the one let in.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while calls.iter().filter(|c| c.is_finished()).count() < 11 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the refusals did not come"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    gate.add_permits(1);
    let mut answers = vec![];
    for c in calls {
        answers.push(c.await.unwrap());
    }
    let refused: Vec<_> = answers.iter().filter(|r| r.status == 429).collect();
    assert_eq!(
        (answers.len() - refused.len(), refused.len()),
        (1, 11),
        "{:?}",
        answers.iter().map(|r| &r.body).collect::<Vec<_>>()
    );
    assert_eq!(
        refused[0].message(),
        "上一段试听还在合成，请等它结束后再试听"
    );
    gate.add_permits(100);
    // Another merchant's audition goes through meanwhile and after.
    app.post("/ai.MerchantDub/nlsAudition", Some(&other), body.clone())
        .await
        .ok();
    for _ in 1..10 {
        app.post("/ai.MerchantDub/nlsAudition", Some(&t), body.clone())
            .await
            .ok();
    }
    let r = app
        .post_en("/ai.MerchantDub/nlsAudition", Some(&t), body.clone())
        .await;
    assert_eq!(
        (r.status, r.message()),
        (
            429,
            "Too many auditions: at most 10 a minute; try again in 6 s"
        )
    );
    let r = app
        .post("/ai.MerchantDub/nlsAudition", Some(&t), body.clone())
        .await;
    assert_eq!(r.message(), "试听太频繁：每分钟最多 10 次，请 6 秒后再试");
    app.post("/ai.MerchantDub/nlsAudition", Some(&other), body)
        .await
        .ok();
}

/// A streamed audition's URL plays once: a copy of it cannot be replayed without a token.
#[tokio::test]
async fn a_streamed_audition_plays_once() {
    if !engine_installed() {
        return;
    }
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let s = app
            .post(
                "/ai.MerchantDub/nlsAudition",
                Some(&t),
                json!({"text": "你好。", "voice": "zf_xiaoxiao", "stream": true}),
            )
            .await;
        let url = s.ok()["audio"].as_str().unwrap().to_string();
        let first = app.http.get(app.url(&url)).send().await.unwrap();
        assert_eq!(first.status(), 200);
        assert!(!first.bytes().await.unwrap().is_empty());
        let again = app.http.get(app.url(&url)).send().await.unwrap();
        assert_eq!(again.status(), 410);
        assert_eq!(again.text().await.unwrap(), "audition already played");
    }
}

/// The peak level (dBFS) of `path` between `from` and `to` seconds.
fn peak_db(path: &std::path::Path, from: f64, to: f64) -> f64 {
    let out = std::process::Command::new("ffmpeg")
        .args([
            "-v",
            "info",
            "-nostats",
            "-ss",
            &format!("{from:.3}"),
            "-t",
            &format!("{:.3}", to - from),
            "-i",
        ])
        .arg(path)
        .args(["-af", "volumedetect", "-f", "null", "-"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .find_map(|l| l.split("max_volume:").nth(1))
        .and_then(|v| v.trim().trim_end_matches("dB").trim().parse().ok())
        .unwrap_or(f64::NEG_INFINITY)
}

/// The cue of AI-generated audio at the start: a beep (0–120 ms), a gap, a long beep (240–600 ms), a
/// gap, and silence before the speech (1.32–1.6 s).
async fn assert_aigc_cue(path: &std::path::Path) {
    let beep = peak_db(path, 0.02, 0.10);
    let gap = peak_db(path, 0.15, 0.21);
    let long = peak_db(path, 0.30, 0.55);
    let tail = peak_db(path, 1.36, 1.58);
    assert!(beep > -20.0 && long > -20.0, "beeps {beep} / {long} dB");
    assert!(gap < -40.0 && tail < -40.0, "gaps {gap} / {tail} dB");
}
