//! AI clip: clip templates — built-in ones by industry, "save as template" from a project,
//! "use template" with another set of groups (picked or matched by name), favourites, tenancy and the
//! staff menu.

use crate::common;
use common::*;
use serde_json::{Value, json};

const TPL: &str = "/clip.merchant_ai_clip_template";

async fn templates(app: &TestApp, t: &str, q: Value) -> Vec<Value> {
    let r = app.get_q(&format!("{TPL}/index"), Some(t), q).await;
    r.ok()["rows"].as_array().unwrap().clone()
}

fn ids_of(groups: &Value) -> Vec<i64> {
    groups
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["group_id"].as_i64().unwrap())
        .collect()
}

/// A fresh app with a worker, the demo merchant's and the operator's tokens, and the built-in music.
async fn started(backend: Backend) -> (TestApp, String, String) {
    let app = TestApp::spawn(backend).await;
    app.start_worker();
    let t = app.demo().await;
    let admin = app.admin().await;
    services::materials::music::seed_builtin(&app.state.db, &app.state.storage)
        .await
        .unwrap();
    (app, t, admin)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_template_round_trips_between_sets_of_groups() {
    for backend in backends() {
        let (app, t, admin) = started(backend).await;

        // Categories: the six industries and the merchant's own; at least 12 built-in templates.
        let cats = app.get(&format!("{TPL}/getCategory"), Some(&t)).await;
        let cats = cats.ok()["rows"].as_array().unwrap().clone();
        let keys: Vec<&str> = cats.iter().map(|c| c["key"].as_str().unwrap()).collect();
        assert_eq!(
            keys,
            [
                "food",
                "retail",
                "beauty",
                "education",
                "real_estate",
                "local_services",
                "custom"
            ]
        );
        assert!(cats[..6].iter().all(|c| c["count"].as_i64().unwrap() >= 2));
        assert_eq!(cats[6]["count"], 0);
        let en = app
            .post_en(&format!("{TPL}/getCategory"), Some(&t), json!({}))
            .await;
        assert_eq!(en.ok()["rows"][0]["name"], "Food & drink");
        let all = templates(&app, &t, json!({"limit": "50"})).await;
        assert!(all.len() >= 12 && all.iter().all(|x| x["builtin"] == true));
        let food = templates(&app, &t, json!({"category": "food"})).await;
        assert!(food.len() >= 2 && food.iter().all(|x| x["category"] == "food"));

        // A project of the merchant's: per-shot settings, built-in music, a title with its name in it.
        let (first, _) = shot_groups(
            &app,
            &t,
            &[
                ("Open", &["red", "orange"]),
                ("Middle", &["green"]),
                ("Close", &["blue"]),
            ],
            "2",
        )
        .await;
        // the built-in tracks' English names (zh callers see them in Chinese)
        let music = app
            .call(
                "GET",
                "/media.merchant_producing_upfile/system_music_index",
                Some(&t),
                None,
                "en",
            )
            .await;
        let pulse = music.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"].as_str().unwrap().starts_with("Pulse"))
            .unwrap()["id"]
            .as_i64()
            .unwrap();
        let cfg = json!({
            "groups": [
                {"group_id": first[0], "max_ms": 1000, "transition": {"kind": "fade", "ms": 400}},
                {"group_id": first[1], "text": "第二镜"},
                {"group_id": first[2], "in_ms": 500},
            ],
            "music": {"system_music_id": pulse, "volume": 55},
            "title": {"text": "小店·春季上新", "style": {"size": 64, "color": "#FFD700", "position": "top"}},
            "output_count": 2,
        });
        let p = app
            .post(
                "/clip.merchant_senior_clip/modify",
                Some(&t),
                json!({"name": "小店", "config": cfg}),
            )
            .await;
        let pid = p.ok()["id"].as_i64().unwrap();

        // Save as template: slots named after the groups, the music's mood, the name as a pattern.
        let saved = app
            .post(
                &format!("{TPL}/save"),
                Some(&t),
                json!({"project_id": pid, "name": "我的开业模板"}),
            )
            .await;
        let tpl = saved.ok().clone();
        let tid = tpl["id"].as_i64().unwrap();
        assert_eq!(
            (
                tpl["category"].as_str(),
                tpl["builtin"].as_bool(),
                tpl["mode"].as_str()
            ),
            (Some("custom"), Some(false), Some("senior"))
        );
        assert_eq!(tpl["slots"], json!(["Open", "Middle", "Close"]));
        assert_eq!(
            tpl["recipe"]["music"],
            json!({"mood": "upbeat", "volume": 55})
        );
        assert_eq!(tpl["recipe"]["title"]["pattern"], "{name}·春季上新");
        let mine = templates(&app, &t, json!({"category": "custom"})).await;
        assert_eq!(mine.len(), 1);

        // Use it with another set of groups of the merchant's, picked in slot order.
        let (second, clips2) = shot_groups(
            &app,
            &t,
            &[
                ("新店外景", &["yellow"]),
                ("新品", &["purple"]),
                ("收尾", &["white", "gray"]),
            ],
            "2",
        )
        .await;
        let made = app
            .post(
                &format!("{TPL}/template_clip"),
                Some(&t),
                json!({"id": tid, "name": "新店", "group_ids": second}),
            )
            .await;
        let made = made.ok().clone();
        assert_eq!(made["mode"], "senior");
        let c = &made["config"];
        assert_eq!(ids_of(&c["groups"]), second);
        assert_eq!(c["groups"][0]["max_ms"], 1000);
        assert_eq!(
            c["groups"][0]["transition"],
            json!({"kind": "fade", "ms": 400})
        );
        assert_eq!(c["groups"][1]["text"], "第二镜");
        assert_eq!(c["groups"][2]["in_ms"], 500);
        assert_eq!(c["groups"][2]["transition"], Value::Null);
        assert_eq!(c["title"]["text"], "新店·春季上新");
        assert_eq!(c["title"]["style"]["color"], "#FFD700");
        assert_eq!(c["music"]["system_music_id"], pulse);
        assert_eq!(c["music"]["volume"], 55);
        assert_eq!(c["output_count"], 2);
        assert_eq!(made["capacity"], 2, "1 x 1 x 2 clips");
        // The project is a real one: it renders with the new groups' clips (on one database: a
        // render is minutes of CPU on a loaded machine, and its rows are the render stories' own).
        let made_id = made["id"].as_i64().unwrap();
        if backend == heavy_story_backend() {
            let r = app
                .post(
                    "/clip.merchant_much_clip/add_video",
                    Some(&t),
                    json!({"id": made_id, "count": 1}),
                )
                .await;
            r.ok();
            let v = wait_variants(&app, &t, made_id, 1).await;
            assert_eq!(v[0]["state"], "success", "{}", v[0]["error"]);
            let seq: Vec<i64> = v[0]["seq"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_i64().unwrap())
                .collect();
            assert_eq!(seq[..2], clips2[..2]);
            assert!(clips2[2..].contains(&seq[2]));
        }

        // Too few picked groups, or another merchant's group, are refused before anything is stored.
        let r = app
            .post_en(
                &format!("{TPL}/template_clip"),
                Some(&t),
                json!({"id": tid, "name": "x", "group_ids": &second[..2]}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("group_ids"))
        );
        assert_eq!(r.message(), "At least three shot groups are needed");
        // One group picked for two shots: the group and both shots are named (was: "groups is
        // invalid: group 2").
        let r = app
            .post_en(
                &format!("{TPL}/template_clip"),
                Some(&t),
                json!({"id": tid, "name": "x", "group_ids": [second[0], second[1], second[0]]}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str(), r.message()),
            (
                422,
                Some("group_ids"),
                "Shot group '新店外景' is already used by shot 1; choose another group for shot 3"
            )
        );
        let r = app
            .post(
                "/clip.merchant_senior_clip/modify",
                Some(&t),
                json!({"name": "twice", "config": {"groups": [{"group_id": second[1]}, {"group_id": second[2]}, {"group_id": second[1]}]}}),
            )
            .await;
        assert_eq!(
            (r.status, r.message()),
            (
                422,
                "镜头组“新品”已被第 1 个镜头使用，第 3 个镜头请选择其他镜头组"
            )
        );

        // Another merchant: the demo's own template is not theirs; a built-in one matches their groups
        // by name whatever order they were made in.
        let other = app.second_merchant(&admin, "tplshop").await;
        let r = app
            .post(
                &format!("{TPL}/template_clip"),
                Some(&other),
                json!({"id": tid, "name": "x"}),
            )
            .await;
        assert_eq!(r.status, 404);
        assert_eq!(
            templates(&app, &other, json!({"category": "custom"}))
                .await
                .len(),
            0
        );
        let (theirs, _) = shot_groups(
            &app,
            &other,
            &[
                ("后厨制作", &["red"]),
                ("门店外景", &["green"]),
                ("招牌菜", &["blue"]),
            ],
            "1",
        )
        .await;
        let signature = food.iter().find(|x| x["slots"][0] == "门店外景").unwrap();
        // Three groups for a five-shot template: the shots left without a group are named, not
        // dropped (was: a 3-shot project, silently).
        let r = app
            .post_en(
                &format!("{TPL}/template_clip"),
                Some(&other),
                json!({"id": signature["id"], "name": "老王面馆"}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str(), r.message()),
            (
                422,
                Some("group_ids"),
                "Matching by name found no shot group for these template shots: #4 顾客用餐, #5 结尾地址 \
                 (3 groups have ready clips, the template has 5 shots); add groups or pick a group for each shot"
            )
        );
        let (more, _) = shot_groups(
            &app,
            &other,
            &[("结尾地址", &["white"]), ("顾客用餐", &["yellow"])],
            "1",
        )
        .await;
        let r = app
            .post(
                &format!("{TPL}/template_clip"),
                Some(&other),
                json!({"id": signature["id"], "name": "老王面馆"}),
            )
            .await;
        let c = r.ok()["config"].clone();
        assert_eq!(
            ids_of(&c["groups"]),
            vec![theirs[1], theirs[2], theirs[0], more[1], more[0]]
        );
        assert_eq!(c["title"]["text"], "老王面馆·必吃招牌");
        assert_eq!(c["music"]["system_music_id"], pulse, "upbeat plays Pulse");
        assert_eq!(c["subtitles"]["enabled"], false, "no voice-over yet");

        // Favourites per user; a built-in template is not the merchant's to delete.
        let r = app
            .post(
                &format!("{TPL}/template_like"),
                Some(&t),
                json!({"id": signature["id"]}),
            )
            .await;
        assert_eq!(r.ok()["liked"], true);
        let liked = templates(&app, &t, json!({"liked": "1"})).await;
        assert_eq!(liked.len(), 1);
        assert_eq!(
            (liked[0]["liked"].as_bool(), liked[0]["likes"].as_i64()),
            (Some(true), Some(1))
        );
        assert!(
            templates(&app, &other, json!({"liked": "1"}))
                .await
                .is_empty()
        );
        app.post(
            &format!("{TPL}/template_like"),
            Some(&t),
            json!({"id": signature["id"], "like": false}),
        )
        .await
        .ok();
        assert!(templates(&app, &t, json!({"liked": "1"})).await.is_empty());
        let r = app
            .post(
                &format!("{TPL}/delete"),
                Some(&t),
                json!({"id": signature["id"]}),
            )
            .await;
        assert_eq!(r.status, 404);
        let r = app
            .post(&format!("{TPL}/delete"), Some(&other), json!({"id": tid}))
            .await;
        assert_eq!(r.status, 404);
        app.post(&format!("{TPL}/delete"), Some(&t), json!({"id": tid}))
            .await
            .ok();
        assert!(
            templates(&app, &t, json!({"category": "custom"}))
                .await
                .is_empty()
        );

        // Staff: the /template_clip menu grants the page; another menu does not.
        let log = app.menu_id(&t, "/log").await;
        let page = app.menu_id(&t, "/template_clip").await;
        for (name, menus) in [("tpl_log", vec![log]), ("tpl_clip", vec![page])] {
            app.post(
                "/user.merchant_user_sub/add",
                Some(&t),
                json!({"username": name, "nickname": name, "password": "abc12345", "menu_ids": menus}),
            )
            .await
            .ok();
        }
        let s = app.login(3, "tpl_log", "abc12345").await;
        assert_eq!(app.get(&format!("{TPL}/index"), Some(&s)).await.status, 403);
        let r = app
            .post(
                &format!("{TPL}/template_clip"),
                Some(&s),
                json!({"id": signature["id"], "name": "x"}),
            )
            .await;
        assert_eq!(r.status, 403);
        let s = app.login(3, "tpl_clip", "abc12345").await;
        assert_eq!(
            templates(&app, &s, json!({"limit": "50"})).await.len(),
            all.len()
        );
    }
}

// ---- one-touch video ----

/// The speech engines `make test` installs into `<repo>/data` (synthesis and recognition); in CI a
/// missing engine fails the test, elsewhere the story is skipped with the reason.
fn engines_installed() -> bool {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let tts = media::tts::Kokoro::from_dir(&data.join("tts")).map(|_| ());
    let asr = media::asr::WhisperRecognizer::from_asr_dir(&data.join("asr")).map(|_| ());
    match tts
        .map_err(|e| e.to_string())
        .and(asr.map_err(|e| e.to_string()))
    {
        Ok(()) => true,
        Err(e) => {
            let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
            assert!(!ci, "CI: the speech engines must be installed: {e}");
            eprintln!("SKIPPED: {e}");
            false
        }
    }
}

/// Reads the caller's event stream until a `one_touch` event says job `id` is `state` (or failed);
/// the (state, progress) pairs seen.
async fn one_touch_events(app: &TestApp, t: &str, id: i64, state: &str) -> Vec<(String, i64)> {
    let rows = sse_rows_until(app, t, "one_touch", id, &[state, "failed"], 600).await;
    // A job that failed where it should not have: its reason, not only its states.
    if state != "failed"
        && let Some(last) = rows.last()
        && last["state"] == "failed"
    {
        panic!("the one-touch job failed: {last}");
    }
    rows.iter()
        .map(|r| {
            (
                r["state"].as_str().unwrap_or("").to_string(),
                r["progress"].as_i64().unwrap_or(-1),
            )
        })
        .collect()
}

/// The characters two texts share, as a share of the first (order-free; punctuation ignored).
fn overlap(a: &str, b: &str) -> f64 {
    let keep = |s: &str| -> Vec<char> { s.chars().filter(|c| c.is_alphanumeric()).collect() };
    let (a, mut b) = (keep(a), keep(b));
    let mut hit = 0;
    for c in &a {
        if let Some(i) = b.iter().position(|x| x == c) {
            b.remove(i);
            hit += 1;
        }
    }
    hit as f64 / a.len().max(1) as f64
}

/// One backend (`heavy_story_backend`): three voiced renders are minutes of CPU (three, not more: each
/// 20 s render is ~20 CPU-s, and three already show the sequences are unique); the one-touch job, its
/// points and project rows run on both in `a_failed_voice_over_fails_the_job_and_charges_nothing` and
/// the stories of templates.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_topic_becomes_unique_voiced_videos() {
    if !engines_installed() {
        return;
    }
    for backend in [heavy_story_backend()] {
        let (app, t, admin) = started(backend).await;
        // Four groups of 8 s clips named for what they show: 2 x 2 x 2 x 1 = 8 unique sequences.
        let (groups, _) = shot_groups(
            &app,
            &t,
            &[
                ("门店外景", &["red", "orange"]),
                ("牛肉面", &["yellow", "green"]),
                ("后厨拉面", &["blue", "purple"]),
                ("顾客用餐", &["white"]),
            ],
            "8",
        )
        .await;
        let before = points(&app, &t).await;
        let topic = "手工牛肉面，汤底熬足八小时";

        // Refused up front, nothing queued: too few groups, or another merchant's group.
        let r = app
            .post_en(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": topic, "group_ids": &groups[..2]}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("group_ids"))
        );
        let r = app
            .post_en(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": " "}),
            )
            .await;
        assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("topic")));
        let jobs = app
            .get("/media.merchant_key_slice/my_one_touch_job", Some(&t))
            .await;
        assert_eq!(jobs.ok()["total"], 0);

        // One request: the job runs every step, pushed over SSE, and renders 3 variants.
        // The target length is checked with a precise message in both languages.
        for seconds in [14, 61] {
            let r = app
                .post_en(
                    "/media.merchant_key_slice/oneTouchNew",
                    Some(&t),
                    json!({"topic": topic, "seconds": seconds}),
                )
                .await;
            assert_eq!(
                (r.status, r.data()["field"].as_str(), r.message()),
                (
                    422,
                    Some("seconds"),
                    "The video length must be 15–60 seconds"
                )
            );
        }
        let r = app
            .post(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": topic, "seconds": 10}),
            )
            .await;
        assert_eq!(r.message(), "视频时长须为 15–60 秒");

        let r = app
            .post(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": topic, "count": 3, "seconds": 20}),
            )
            .await;
        let job = r.ok().clone();
        let id = job["id"].as_i64().unwrap();
        assert_eq!(
            (job["state"].as_str(), job["name"].as_str()),
            (Some("queued"), Some(topic))
        );
        let seen = one_touch_events(&app, &t, id, "done").await;
        assert_eq!(seen.last().unwrap().0, "done", "{seen:?}");
        assert!(seen.iter().any(|(s, _)| s == "rendering"), "{seen:?}");
        let progress: Vec<i64> = seen.iter().map(|(_, p)| *p).collect();
        assert!(progress.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
        assert_eq!(*progress.last().unwrap(), 100);

        let jobs = app
            .get("/media.merchant_key_slice/my_one_touch_job", Some(&t))
            .await;
        let row = jobs.ok()["rows"][0].clone();
        assert_eq!(
            (row["id"].as_i64(), row["state"].as_str()),
            (Some(id), Some("done"))
        );
        assert_eq!(row["writer"], "builtin");
        let script: Vec<String> = row["script"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert!(
            script.len() >= 5 && script.iter().any(|s| s.contains("牛肉面")),
            "{script:?}"
        );
        // Every group is used once, in the script's order; the shots cover the voice-over.
        let shots = row["shots"].as_array().unwrap();
        assert_eq!(shots.len(), 4);
        let used: std::collections::HashSet<i64> = shots
            .iter()
            .map(|s| s["group_id"].as_i64().unwrap())
            .collect();
        assert_eq!(used.len(), 4);
        let noodles = shots.iter().find(|s| s["group_id"] == groups[1]).unwrap();
        assert!(
            noodles["text"].as_str().unwrap().contains("牛肉面"),
            "the noodle shots go with a line about the noodles: {shots:?}"
        );
        assert_eq!(
            row["variants"],
            json!({"success": 3, "processing": 0, "failed": 0})
        );

        // The voice-over: one subtitle line per sentence, in order.
        let v = app
            .get_q(
                "/media.merchant_key_slice/broadcast_resource_detail",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        let lines = v.ok()["lines"].as_array().unwrap().clone();
        let said: String = lines
            .iter()
            .map(|l| l["content"].as_str().unwrap())
            .collect();
        assert!(
            overlap(&script.concat(), &said) > 0.95,
            "{said} vs {script:?}"
        );
        let voice_ms = v.ok()["media"]["duration_ms"].as_i64().unwrap();
        // The writer wrote for the 20 s asked for (within a sentence).
        assert!(
            (16_000..=24_500).contains(&voice_ms),
            "a 20 s target gave {voice_ms} ms"
        );
        assert_eq!(row["seconds"], 20);
        twin_voice_over_goes(&app, id).await;

        // Three unique variants, 6 points, each as long as the voice-over.
        let vids = app
            .get_q(
                "/media.merchant_key_slice/getVideoList",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        let vids = vids.ok()["rows"].as_array().unwrap().clone();
        assert_eq!(vids.len(), 3);
        let seqs: std::collections::HashSet<String> =
            vids.iter().map(|v| v["seq"].to_string()).collect();
        assert_eq!(seqs.len(), 3, "variants repeat a sequence");
        assert_eq!(points(&app, &t).await, before - 6);
        for v in &vids {
            assert_eq!(v["state"], "success", "{}", v["error"]);
            let d = v["duration_ms"].as_i64().unwrap();
            assert!(
                (d - voice_ms).abs() <= 1500,
                "video {d} ms, voice {voice_ms} ms"
            );
        }
        // The project's own speech recognition hears the script in a rendered video.
        let file = app.download(vids[0]["src"].as_str().unwrap(), "mp4").await;
        // Generated content carries its labels (GB 45438-2025): "AI生成" over the first 3 s, and the
        // implicit `AIGC` field after the stream-copy joins of its pieces.
        assert!(label_corner(&file, 0.5) > 0.03, "the label shows at 0.5 s");
        assert!(label_corner(&file, 3.5) < 0.005, "no label after 3 s");
        let meta = aigc_meta(&file).await.expect("the video's AIGC field");
        assert_eq!(meta["Label"], "1");
        let made = format!("-v{}", vids[0]["id"]);
        assert!(
            meta["ProduceID"].as_str().unwrap().ends_with(&made),
            "{meta}"
        );
        // So does its voice-over material (no audible cue: it is made for the videos).
        let voice = app
            .download(v.ok()["media"]["src"].as_str().unwrap(), "m4a")
            .await;
        let meta = aigc_meta(&voice)
            .await
            .expect("the voice-over's AIGC field");
        std::fs::remove_file(&voice).ok();
        assert_eq!(meta["Label"], "1");
        assert!(
            meta["ProduceID"]
                .as_str()
                .unwrap()
                .ends_with(&format!("-ai{id}")),
            "{meta}"
        );
        // Its pieces are one-touch's superfast ones (x264 writes its settings into the stream).
        let bytes = std::fs::read(&file).unwrap();
        let at = bytes.windows(11).position(|w| w == b"x264 - core").unwrap();
        let settings = String::from_utf8_lossy(&bytes[at..at + 2000.min(bytes.len() - at)]);
        assert!(settings.contains(" subme=1 ") && settings.contains(" mbtree=0 "));
        let asr = media::asr::WhisperRecognizer::from_data_dir(&app.files.path).unwrap();
        use media::asr::Recognizer;
        let heard = asr.transcribe(&file, media::asr::Lang::Zh).await.unwrap();
        std::fs::remove_file(&file).ok();
        let heard_text: String = heard.iter().map(|l| l.content.as_str()).collect();
        assert!(
            overlap(&script.concat(), &heard_text) > 0.7,
            "heard {heard_text:?} for {script:?}"
        );
        // Each heard line falls inside the subtitle lines' span of the same words.
        let first = &heard[0];
        assert!(first.start_ms < lines[0]["end_ms"].as_i64().unwrap() + 500);

        // Another merchant sees none of it; a staff member without the menu is refused.
        let other = app.second_merchant(&admin, "otshop").await;
        let r = app
            .get_q(
                "/media.merchant_key_slice/getVideoList",
                Some(&other),
                json!({"id": id}),
            )
            .await;
        assert_eq!(r.status, 404);
        let r = app
            .post(
                "/clip.merchant_ai_clip/delete",
                Some(&other),
                json!({"id": id}),
            )
            .await;
        assert_eq!(r.status, 404);
        let log = app.menu_id(&t, "/log").await;
        app.post(
            "/user.merchant_user_sub/add",
            Some(&t),
            json!({"username": "ot_log", "nickname": "ot", "password": "abc12345", "menu_ids": [log]}),
        )
        .await
        .ok();
        let s = app.login(3, "ot_log", "abc12345").await;
        let r = app
            .post(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&s),
                json!({"topic": topic}),
            )
            .await;
        assert_eq!(r.status, 403);

        // AI clip projects: a copy is a draft; rename; delete (the videos stay in the library).
        let copy = app
            .get_q("/clip.merchant_ai_clip/copy", Some(&t), json!({"id": id}))
            .await;
        let copy = copy.ok().clone();
        assert_eq!(copy["state"], "draft");
        assert_eq!(copy["topic"], topic);
        let r = app
            .post(
                "/clip.merchant_ai_clip/changeName",
                Some(&t),
                json!({"id": copy["id"], "name": "第二版"}),
            )
            .await;
        assert_eq!(r.ok()["name"], "第二版");
        let list = app
            .get_q(
                "/clip.merchant_ai_clip/index",
                Some(&t),
                json!({"page": "1", "limit": "10"}),
            )
            .await;
        assert_eq!(list.ok()["total"], 2);
        app.get_q(
            "/clip.merchant_ai_clip/delete",
            Some(&t),
            json!({"id": copy["id"]}),
        )
        .await
        .ok();
        app.post("/clip.merchant_ai_clip/delete", Some(&t), json!({"id": id}))
            .await
            .ok();
        let lib = app
            .get_q(
                "/clip.merchant_video_library/index",
                Some(&t),
                json!({"limit": "50"}),
            )
            .await;
        assert_eq!(lib.ok()["total"], 3);
    }
}

/// A twin run of the one-touch job (its lease lapsed while the first run lived) made its own voice-over
/// after the first had set one: the twin's goes (material and file), and both go on with the first's.
async fn twin_voice_over_goes(app: &TestApp, id: i64) {
    let row = store::clip::one_touch::get_any(&app.db, id)
        .await
        .unwrap()
        .unwrap();
    assert!(row.voice_media_id > 0);
    // A second voice material, with a file of its own (a copy shares the first's, which must stay).
    let twin = copies_of_material(&app.db, row.voice_media_id, 2).await[1];
    sqlx::query("UPDATE media_files SET storage_key = $1 WHERE id = $2")
        .bind(format!("{}/twin-voice.m4a", row.merchant_id))
        .bind(twin)
        .execute(&app.db.pool)
        .await
        .unwrap();
    // The twin read the row before the voice-over was set.
    let read = store::clip::one_touch::AiClip {
        voice_media_id: 0,
        ..row.clone()
    };
    let kept = services::clip::one_touch::keep_voice(&app.db, &app.state.storage, &read, twin)
        .await
        .unwrap();
    assert_eq!(kept, row.voice_media_id);
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM media_files WHERE id = $1")
        .bind(twin)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0, "the twin's voice-over is deleted");
    let now = store::clip::one_touch::get_any(&app.db, id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(now.voice_media_id, row.voice_media_id);
}

/// A voice-over that cannot be made fails the job at that step with the engine's reason; nothing was
/// charged (the videos' points are taken only when they are queued) and no project was made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_voice_over_fails_the_job_and_charges_nothing() {
    for backend in backends() {
        let app = TestApp::spawn_with(backend, unreachable_cloud_tts).await;
        app.start_worker();
        let t = app.demo().await;
        // clips long enough for a 15 s script: the length check runs before the voice-over
        shot_groups(
            &app,
            &t,
            &[("A", &["red"]), ("B", &["green"]), ("C", &["blue"])],
            "8",
        )
        .await;
        let before = points(&app, &t).await;
        let r = app
            .post(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": "春季上新", "count": 1, "seconds": 15}),
            )
            .await;
        let id = r.ok()["id"].as_i64().unwrap();
        let seen = one_touch_events(&app, &t, id, "failed").await;
        assert_eq!(seen.last().unwrap().0, "failed", "{seen:?}");
        let r = app
            .get_q(
                "/media.merchant_key_slice/my_one_touch_job",
                Some(&t),
                json!({}),
            )
            .await;
        let row = &r.ok()["rows"][0];
        assert!(
            row["reason"].as_str().unwrap().starts_with("语音合成失败"),
            "{row}"
        );
        assert_eq!(row["project_id"].as_i64(), Some(0));
        assert!(row["script"].as_array().unwrap().len() >= 4, "{row}");
        let en = app
            .post_en(
                "/media.merchant_key_slice/my_one_touch_job",
                Some(&t),
                json!({}),
            )
            .await;
        assert!(
            en.ok()["rows"][0]["reason"]
                .as_str()
                .unwrap()
                .starts_with("Speech synthesis failed")
        );
        assert_eq!(points(&app, &t).await, before);
        // A failed job may be started again (a new attempt of the same job row).
        let again = app
            .post(
                "/clip.merchant_ai_clip/createVideo",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        // Accepted and queued; the worker may have taken it (and failed it again) before the answer
        // reads the row back.
        let state = again.ok()["state"].as_str().unwrap_or_default().to_string();
        assert!(
            ["queued", "processing", "failed"].contains(&state.as_str()),
            "{state}"
        );
        one_touch_events(&app, &t, id, "failed").await;
    }
}

/// An image of the caller's image library, named `name`, in image category `category` (0: none); its id.
async fn image(app: &TestApp, t: &str, name: &str, src: &str, category: i64) -> i64 {
    let bytes = ffmpeg_bytes(&["-f", "lavfi", "-i", src, "-frames:v", "1"], "png");
    let r = app
        .upload(
            "/media.merchant_producing_upfile/add",
            t,
            &[("type", "image")],
            &format!("{name}.png"),
            bytes,
        )
        .await;
    let id = r.ok()["id"].as_i64().unwrap();
    app.post(
        "/clip.merchant_image_library/save",
        Some(t),
        json!({"id": id, "name": name, "file_type_id": category}),
    )
    .await
    .ok();
    id
}

async fn image_category(app: &TestApp, t: &str, name: &str) -> i64 {
    app.post(
        "/bpdr.merchant_file_type/add",
        Some(t),
        json!({"type": "image", "name": name}),
    )
    .await
    .ok()["id"]
        .as_i64()
        .unwrap()
}

/// One frame of a video as grey pixels, `at` seconds in.
async fn grey_frame(file: &std::path::Path, at: &str) -> Vec<u8> {
    let out = file.with_extension(format!("{at}.raw"));
    let mut a: Vec<String> = ["-v", "error", "-y", "-ss", at, "-i"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    a.push(file.display().to_string());
    for x in [
        "-frames:v",
        "1",
        "-vf",
        "scale=108:192",
        "-f",
        "rawvideo",
        "-pix_fmt",
        "gray",
    ] {
        a.push(x.into());
    }
    a.push(out.display().to_string());
    media::ffmpeg::run("ffmpeg", &a, std::time::Duration::from_secs(60))
        .await
        .unwrap();
    let b = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).ok();
    b
}

fn changed(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .filter(|(x, y)| (**x as i32 - **y as i32).abs() > 12)
        .count()
}

/// Image projects: topic -> script -> voice-over -> one image per sentence (matched by the images'
/// names and categories) -> unique pan-and-zoom slideshows at 1080x1920 with the voice, in the
/// finished-video library; listed by getImgProject / getImgList, apart from video projects.
/// One backend (`heavy_story_backend`): the pan-and-zoom encodes are minutes of CPU, and the project,
/// job and video rows it writes are the ones the five-video story checks on both databases.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_topic_becomes_unique_image_slideshows() {
    if !engines_installed() {
        return;
    }
    for backend in [heavy_story_backend()] {
        let (app, t, admin) = started(backend).await;
        let dishes = image_category(&app, &t, "牛肉面").await;
        let shop = image_category(&app, &t, "门店").await;
        let mut ids = vec![];
        for (name, src, cat) in [
            ("招牌牛肉面", "testsrc2=s=1080x1920", dishes),
            ("牛肉面特写", "testsrc=s=1600x1200", dishes),
            ("门头", "smptebars=s=900x1600", shop),
            ("店内环境", "rgbtestsrc=s=1200x1200", shop),
            ("后厨拉面", "testsrc2=s=1280x720", 0),
            ("顾客用餐", "yuvtestsrc=s=1080x1920", 0),
        ] {
            ids.push(image(&app, &t, name, src, cat).await);
        }
        let before = points(&app, &t).await;
        let topic = "手工牛肉面，汤底熬足八小时";

        // Refused up front: an unknown footage kind; too few images in the chosen categories.
        let r = app
            .post_en(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": topic, "kind": "photos"}),
            )
            .await;
        assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("kind")));
        let r = app
            .post_en(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": topic, "kind": "image", "group_ids": [shop]}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str(), r.message()),
            (
                422,
                Some("group_ids"),
                "At least three ready images are needed (2 now)"
            )
        );

        let r = app
            .post(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": topic, "kind": "image", "count": 3, "seconds": 15}),
            )
            .await;
        let job = r.ok().clone();
        let id = job["id"].as_i64().unwrap();
        assert_eq!(
            (job["kind"].as_str(), job["seconds"].as_i64()),
            (Some("image"), Some(15))
        );
        let seen = one_touch_events(&app, &t, id, "done").await;
        assert_eq!(seen.last().unwrap().0, "done", "{seen:?}");

        // Listed with the image projects only.
        let imgs = app
            .get("/media.merchant_key_slice/getImgProject", Some(&t))
            .await;
        assert_eq!(imgs.ok()["total"], 1);
        let row = imgs.ok()["rows"][0].clone();
        assert_eq!(
            (row["id"].as_i64(), row["state"].as_str()),
            (Some(id), Some("done"))
        );
        let vids = app
            .get("/media.merchant_key_slice/getVideoProject", Some(&t))
            .await;
        assert_eq!(vids.ok()["total"], 0);
        // Each shot draws from its own images; every image is used once; the noodle lines show noodles.
        let shots = row["shots"].as_array().unwrap();
        assert!(shots.len() >= 3, "{shots:?}");
        let mut pooled: Vec<i64> = shots
            .iter()
            .flat_map(|s| {
                s["images"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i.as_i64().unwrap())
            })
            .collect();
        pooled.sort();
        assert_eq!(pooled, ids);
        let noodle = shots
            .iter()
            .find(|s| s["text"].as_str().unwrap().contains("牛肉面"))
            .expect("a line names the noodles");
        assert!(
            noodle["images"][0] == ids[0] || noodle["images"][0] == ids[1],
            "{noodle}"
        );

        // Three unique slideshows, 6 points, as long as the voice-over, 1080x1920, the picture moving.
        let v = app
            .get_q(
                "/media.merchant_key_slice/broadcast_resource_detail",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        let voice_ms = v.ok()["media"]["duration_ms"].as_i64().unwrap();
        assert!((11_000..=19_500).contains(&voice_ms), "{voice_ms}");
        let list = app
            .get_q(
                "/media.merchant_key_slice/getImgList",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        let list = list.ok()["rows"].as_array().unwrap().clone();
        assert_eq!(list.len(), 3);
        let seqs: std::collections::HashSet<String> =
            list.iter().map(|v| v["seq"].to_string()).collect();
        assert_eq!(seqs.len(), 3, "variants repeat a sequence");
        assert_eq!(points(&app, &t).await, before - 6);
        let mut firsts = vec![];
        for v in &list {
            assert_eq!(v["state"], "success", "{}", v["error"]);
            let d = v["duration_ms"].as_i64().unwrap();
            assert!(
                (d - voice_ms).abs() <= 1500,
                "video {d} ms, voice {voice_ms} ms"
            );
            let file = app.download(v["src"].as_str().unwrap(), "mp4").await;
            let info = media::probe::probe(&file).await.unwrap();
            assert_eq!((info.width, info.height), (1080, 1920));
            assert!(info.has_audio);
            // Within the first shot the picture moves (a pan or a zoom), not a still.
            let (a, b) = (
                grey_frame(&file, "0.1").await,
                grey_frame(&file, "0.9").await,
            );
            assert!(
                changed(&a, &b) > a.len() / 50,
                "the first shot does not move"
            );
            firsts.push(a);
            std::fs::remove_file(&file).ok();
        }
        // The same first image moves differently in two videos (or the images differ).
        assert!(changed(&firsts[0], &firsts[1]) > 0 || changed(&firsts[1], &firsts[2]) > 0);
        // In the finished-video library like any other video.
        let lib = app
            .get_q(
                "/clip.merchant_video_library/index",
                Some(&t),
                json!({"limit": "50"}),
            )
            .await;
        assert_eq!(lib.ok()["total"], 3);

        // The other kind's list and another merchant see none of it.
        let r = app
            .get_q(
                "/media.merchant_key_slice/getVideoList",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        assert_eq!(r.status, 404);
        let other = app.second_merchant(&admin, "imgshop").await;
        let r = app
            .get_q(
                "/media.merchant_key_slice/getImgList",
                Some(&other),
                json!({"id": id}),
            )
            .await;
        assert_eq!(r.status, 404);
        let r = app
            .get("/media.merchant_key_slice/getImgProject", Some(&other))
            .await;
        assert_eq!(r.ok()["total"], 0);
    }
}

/// Matching that cannot work fails the job with the reason in both languages and charges nothing;
/// a group left with no ready clip is refused when the job is started again; once the footage is
/// there, the same project is started again and makes its video.
/// One backend (`heavy_story_backend`): it ingests clips, speaks and renders, and the job and project
/// rows its retry reads and writes are the ones the five-video story checks on both databases.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_matching_charges_nothing_and_can_be_retried() {
    if !engines_installed() {
        return;
    }
    for backend in [heavy_story_backend()] {
        let (app, t, _) = started(backend).await;
        // 1 s clips cannot carry a 15 s voice-over.
        let (groups, clips) = shot_groups(
            &app,
            &t,
            &[
                ("门店", &["red"]),
                ("菜品", &["green"]),
                ("顾客", &["blue"]),
            ],
            "1",
        )
        .await;
        let before = points(&app, &t).await;
        // Refused when started, before the voice-over is made or anything charged, on the length
        // (it used to fail after the voice-over, and the step bar blamed the script).
        let ask = json!({"topic": "春季上新", "name": "内部批次 7", "count": 1, "seconds": 15, "group_ids": groups});
        let r = app
            .post(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                ask.clone(),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("seconds")),
            "{}",
            r.body
        );
        assert!(
            r.message()
                .starts_with("素材不够长：所选镜头组的片段每条视频最多能配约 3 秒的口播"),
            "{}",
            r.message()
        );
        let en = app
            .post_en(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                ask.clone(),
            )
            .await;
        assert!(
            en.message()
                .starts_with("The footage is too short: the chosen groups' clips carry about 3 s"),
            "{}",
            en.body
        );
        let jobs = app
            .get("/media.merchant_key_slice/my_one_touch_job", Some(&t))
            .await;
        assert_eq!(jobs.ok()["total"], 0, "nothing queued");
        // A draft is refused the same way when started; no voice-over is made.
        let id = app
            .post("/clip.merchant_ai_clip/add", Some(&t), ask)
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        let r = app
            .post(
                "/clip.merchant_ai_clip/createVideo",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("seconds"))
        );
        let row = app
            .post("/clip.merchant_ai_clip/index", Some(&t), json!({}))
            .await;
        let row = row.ok()["rows"][0].clone();
        assert_eq!(
            (row["state"].as_str(), row["voice_media_id"].as_i64()),
            (Some("draft"), Some(0)),
            "{row}"
        );
        assert_eq!(points(&app, &t).await, before, "nothing charged");

        // A chosen group with no ready clip left: refused by name when started again.
        let elsewhere = group(&app, &t, "别处").await;
        app.post(
            "/media.merchant_much_resource/resource_add",
            Some(&t),
            json!({"group_id": elsewhere, "ids": [clips[2]]}),
        )
        .await
        .ok();
        let r = app
            .post_en(
                "/clip.merchant_ai_clip/createVideo",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str(), r.message()),
            (
                422,
                Some("group_ids"),
                "Shot group '顾客' has no ready clips yet"
            )
        );

        // Longer clips in every chosen group: the same project is started again and makes its video.
        let mut more = vec![];
        for (g, c) in groups.iter().zip(["orange", "purple", "white"]) {
            let r = app
                .upload(
                    "/media.merchant_much_resource/add_resource",
                    &t,
                    &[("group_id", &g.to_string())],
                    &format!("{c}.mp4"),
                    clip(c, "9"),
                )
                .await;
            more.push(r.ok()["id"].as_i64().unwrap());
        }
        app.wait_ready(&t, &more).await;
        let again = app
            .post(
                "/clip.merchant_ai_clip/createVideo",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        assert_eq!(again.ok()["state"], "queued");
        let seen = one_touch_events(&app, &t, id, "done").await;
        assert_eq!(seen.last().unwrap().0, "done", "{seen:?}");
        assert_eq!(points(&app, &t).await, before - 2);
        // The title on the video is the product the topic names, never the project's own name.
        let row = store::clip::one_touch::get_any(&app.db, id)
            .await
            .unwrap()
            .unwrap();
        let project = store::clip::project(&app.db, row.merchant_id, row.project_id)
            .await
            .unwrap()
            .unwrap();
        let cfg: domain::clip::ProjectConfig = serde_json::from_str(&project.config).unwrap();
        assert_eq!(cfg.title.unwrap().text, "春季上新");
    }
}

/// When every video fails to render, the project ends failed with the videos' reason and every
/// point comes back. One backend (`heavy_story_backend`), as the story above.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_video_failing_fails_the_project_and_refunds() {
    if !engines_installed() {
        return;
    }
    for backend in [heavy_story_backend()] {
        let (app, t, _) = started(backend).await;
        shot_groups(
            &app,
            &t,
            &[
                ("A", &["red", "orange"]),
                ("B", &["green"]),
                ("C", &["blue"]),
            ],
            "8",
        )
        .await;
        // The built-in music the videos are mixed with is gone from storage (script, voice and
        // matching still work: only the renders read it).
        let q = store::ListQuery {
            limit: Some(100),
            ..Default::default()
        };
        let (tracks, _) = store::materials::system_music(&app.state.db, &q)
            .await
            .unwrap();
        for m in &tracks {
            app.state.storage.delete(&m.storage_key).await.unwrap();
        }
        let before = points(&app, &t).await;
        let r = app
            .post(
                "/media.merchant_key_slice/oneTouchNew",
                Some(&t),
                json!({"topic": "春季上新", "count": 2, "seconds": 15}),
            )
            .await;
        let id = r.ok()["id"].as_i64().unwrap();
        let seen = one_touch_events(&app, &t, id, "failed").await;
        assert_eq!(seen.last().unwrap().0, "failed", "{seen:?}");
        let row = app
            .post_en(
                "/media.merchant_key_slice/my_one_touch_job",
                Some(&t),
                json!({}),
            )
            .await;
        let row = row.ok()["rows"][0].clone();
        let reason = row["reason"].as_str().unwrap();
        assert!(
            reason.starts_with("Every video failed to render; the points were returned: ")
                && reason.contains("built-in music"),
            "{row}"
        );
        assert_eq!(
            row["variants"],
            json!({"success": 0, "processing": 0, "failed": 2})
        );
        let zh = app
            .get("/media.merchant_key_slice/my_one_touch_job", Some(&t))
            .await;
        assert!(
            zh.ok()["rows"][0]["reason"]
                .as_str()
                .unwrap()
                .starts_with("所有视频都合成失败，点数已退还"),
        );
        let vids = app
            .get_q(
                "/media.merchant_key_slice/getVideoList",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        let vids = vids.ok()["rows"].as_array().unwrap().clone();
        assert_eq!(vids.len(), 2);
        assert!(vids.iter().all(|v| v["state"] == "failed"));
        assert_eq!(points(&app, &t).await, before, "every point returned");
    }
}

/// The one-touch script (`services::writer`, prompt `script.txt`): the configured LLM's answer, saying
/// `llm` and the model; when it fails (429 here) the built-in writer's, saying why; without a provider
/// the built-in writer's. The voice-over engine is unreachable, so each job stops after its script.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_touch_script_is_the_llms_or_the_built_in_writers() {
    for backend in backends() {
        let app = TestApp::spawn_with(backend, unreachable_cloud_tts).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        shot_groups(
            &app,
            &t,
            &[("A", &["red"]), ("B", &["green"]), ("C", &["blue"])],
            "8",
        )
        .await;
        let run = |topic: &'static str| {
            let (app, t) = (&app, &t);
            async move {
                let r = app
                    .post(
                        "/media.merchant_key_slice/oneTouchNew",
                        Some(t),
                        json!({"topic": topic, "count": 1, "seconds": 15}),
                    )
                    .await;
                let id = r.ok()["id"].as_i64().unwrap();
                one_touch_events(app, t, id, "failed").await;
                let rows = app
                    .post_en(
                        "/media.merchant_key_slice/my_one_touch_job",
                        Some(t),
                        json!({}),
                    )
                    .await;
                rows.ok()["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|r| r["id"].as_i64() == Some(id))
                    .unwrap()
                    .clone()
            }
        };
        let script = |row: &Value| -> Vec<String> {
            row["script"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect()
        };

        use_sandbox_llm(&app, &admin, 0).await;
        let row = run("春季上新").await;
        assert_eq!(
            row["source"],
            json!({"kind": "llm", "model": "sbx-chat", "fallback_reason": ""}),
            "{row}"
        );
        assert_eq!(row["writer"], "llm");
        let answers = llm_answers(&app).await;
        let (task, content) = &answers[0];
        assert_eq!(task, "script");
        assert_eq!(script(&row), answer_lines(content), "{row}");

        llm_fault(&app, "throttle", 1).await;
        let row = run("夏季新品").await;
        assert_eq!(row["source"]["kind"], "built_in", "{row}");
        let why = row["source"]["fallback_reason"].as_str().unwrap();
        assert!(why.contains("answered 429"), "{why}");
        assert_eq!(row["writer"], "builtin");
        assert!(script(&row).len() >= 4, "{row}");

        app.post("/system/ai_provider/clear", Some(&admin), json!({}))
            .await
            .ok();
        let row = run("秋季上新").await;
        assert_eq!(
            row["source"],
            json!({"kind": "built_in", "model": "", "fallback_reason": ""}),
            "{row}"
        );
    }
}
