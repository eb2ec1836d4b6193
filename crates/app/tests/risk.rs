//! Duplicate risk end to end: a rendered variant is measured against its siblings, a published one's
//! re-upload (renamed, encoded again at another quality) is flagged against it in the library, and
//! the library sorts and filters by the score. The stored parts only ever rise, on both databases.

use crate::common;
use common::publish::*;
use common::*;
use serde_json::json;

/// A textured 1080x1920-bound shot (moving test pictures, a tone), `secs` long.
fn shot(src: &str, secs: &str) -> Vec<u8> {
    lavfi_video(&format!("{src}=size=540x960:rate=30"), 300, secs, &[])
}

#[tokio::test]
async fn a_reupload_of_a_published_video_is_flagged_and_the_library_sorts_by_risk() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    services::materials::music::seed_builtin(&app.state.db, &app.state.storage)
        .await
        .unwrap();
    let music = app
        .get(
            "/media.merchant_producing_upfile/system_music_index",
            Some(&t),
        )
        .await
        .ok()["rows"][0]["id"]
        .as_i64()
        .unwrap();
    // Two shots a group: the second a later stretch of other pictures.
    let files = [("A", "testsrc2"), ("B", "mandelbrot"), ("C", "smptehdbars")]
        .into_iter()
        .zip(["rgbtestsrc", "yuvtestsrc", "cellauto"])
        .map(|((name, first), second)| {
            let clips = [first, second]
                .iter()
                .enumerate()
                .map(|(i, src)| (format!("{name}{i}.mp4"), shot(src, "2")))
                .collect();
            (name, clips)
        })
        .collect();
    let (groups, _) = groups_of_files(&app, &t, files).await;
    let cfg = json!({
        "groups": groups.iter().map(|g| json!({"group_id": g})).collect::<Vec<_>>(),
        "music": {"system_music_id": music, "volume": 80},
        "output_count": 3,
        // A cover per video: the siblings do not share one.
        "cover_ms": 0,
        "cover_vary": true,
    });
    let pid = app
        .post(
            "/clip.merchant_much_clip/add",
            Some(&t),
            json!({"name": "Risk", "config": cfg}),
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
    let rows = wait_variants(&app, &t, pid, 3).await;
    for v in &rows {
        assert_eq!(v["state"], "success", "{v}");
        // Three variants of 2 x 2 x 2 clips share clips and the music: each has a sibling reason.
        let r = &v["risk_reasons"][0];
        assert_eq!(r["against"], "sibling", "{v}");
        assert!(v["risk"].as_i64().unwrap() > 0, "{v}");
        let shared = r["shared_clips"].as_array().unwrap();
        assert_eq!(shared[1], 3, "{v}");
        assert_eq!(r["audio"], 100, "the same music: {v}");
    }

    let mut covers = std::collections::HashSet::new();
    for v in &rows {
        let f = app.download(v["cover"].as_str().unwrap(), "jpg").await;
        covers.insert(std::fs::read(&f).unwrap());
        let _ = std::fs::remove_file(&f);
    }
    assert_eq!(covers.len(), 3, "three variants, three covers");

    // One of them is published on an account (the release flow is matrix's tests' business).
    let published = rows[0]["id"].as_i64().unwrap();
    let now = domain::now_ms();
    sqlx::query(
        "INSERT INTO matrix_items (merchant_id, task_id, account_id, platform, video_key, title, scheduled_at, \
         state, created_at, updated_at) VALUES ($1, 1, 1, 'dy', $2, 't', $3, 'released', $3, $3)",
    )
    .bind(rows[0]["merchant_id"].as_i64().unwrap())
    .bind(format!("v:{published}"))
    .bind(now)
    .execute(&app.db.pool)
    .await
    .unwrap();

    // Its file downloaded, encoded again at another quality and uploaded under another name.
    let path = app.download(rows[0]["src"].as_str().unwrap(), "mp4").await;
    let bytes = ffmpeg_bytes(
        &[
            "-i",
            path.to_str().unwrap(),
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-crf",
            "30",
            "-c:a",
            "aac",
            "-b:a",
            "96k",
        ],
        "mp4",
    );
    let _ = std::fs::remove_file(&path);
    let reupload = app
        .upload(
            "/media.merchant_much_resource/add_resource",
            &t,
            &[],
            "new-shop-video.mp4",
            bytes,
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    // And a video never published: pictures nobody used (fixed ones: `life` draws a random board of
    // mostly flat black, which flat blocks of published pictures could match in some runs).
    let fresh = app
        .upload(
            "/media.merchant_much_resource/add_resource",
            &t,
            &[],
            "fresh.mp4",
            shot("testsrc", "4"),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    app.wait_ready(&t, &[reupload, fresh]).await;
    let ids = app
        .post(
            "/clip.merchant_video_library/add",
            Some(&t),
            json!({"ids": [reupload, fresh]}),
        )
        .await
        .ok()["variant_ids"]
        .clone();
    let (reupload_v, fresh_v) = (ids[0].as_i64().unwrap(), ids[1].as_i64().unwrap());
    let lib = |q: serde_json::Value| {
        let (app, t) = (&app, &t);
        async move {
            app.get_q("/clip.merchant_video_library/index", Some(t), q)
                .await
                .ok()["rows"]
                .as_array()
                .unwrap()
                .clone()
        }
    };
    let all = lib(json!({"limit": "100"})).await;
    let row = |id: i64| all.iter().find(|v| v["id"] == id).unwrap().clone();
    let r = row(reupload_v);
    assert!(r["risk"].as_i64().unwrap() >= 90, "{r}");
    assert_eq!(r["risk_level"], "high");
    assert_eq!(r["risk_reasons"][0]["against"], "published", "{r}");
    assert_eq!(r["risk_reasons"][0]["other_id"], published, "{r}");
    let f = row(fresh_v);
    assert!(f["risk"].as_i64().unwrap() <= 20, "{f}");
    assert_eq!(f["risk_level"], "low");

    // Sorted by risk, highest first; filtered to the high ones.
    let sorted = lib(json!({"limit": "100", "prop": "risk", "order": "descending"})).await;
    let scores: Vec<i64> = sorted
        .iter()
        .map(|v| v["risk"].as_i64().unwrap_or(-1))
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let high = lib(json!({"limit": "100", "risk_level": "high"})).await;
    assert!(high.iter().any(|v| v["id"] == reupload_v));
    assert!(high.iter().all(|v| v["risk"].as_i64().unwrap() >= 70));
}

/// The stored parts rise only, whichever render finishes last, and the published list reads both
/// kinds of published video — on SQLite and PostgreSQL.
#[tokio::test]
async fn risk_parts_only_rise_and_published_videos_are_read_on_both_databases() {
    use store::clip::risk as db;
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let _t = app.demo().await;
        let d = &app.state.db;
        let merchant: i64 = sqlx::query_scalar("SELECT MIN(id) FROM merchants WHERE id > 0")
            .fetch_one(&d.pool)
            .await
            .unwrap();
        let now = domain::now_ms();
        let vid: i64 = sqlx::query_scalar(
            "INSERT INTO clip_variants (merchant_id, project_id, seq, state, created_at, updated_at) \
             VALUES ($1, 7, '[1]', 'success', $2, $2) RETURNING id",
        )
        .bind(merchant)
        .bind(now)
        .fetch_one(&d.pool)
        .await
        .unwrap();
        let sig = media::signature::Signature {
            frames: vec![],
            audio: vec![Some(1), None],
        };
        db::put_media_signature(d, merchant, 41, &sig.to_bytes())
            .await
            .unwrap();
        db::put_media_signature(d, merchant, 41, b"other")
            .await
            .unwrap();
        assert_eq!(
            db::media_signature(d, merchant, 41).await.unwrap(),
            Some(sig.to_bytes()),
            "made once"
        );
        // Many at once (the planner's look-alikes), the merchant's only.
        assert_eq!(
            db::media_signatures(d, merchant, &[41, 42]).await.unwrap(),
            vec![(41, sig.to_bytes())],
            "{backend:?}"
        );
        assert!(
            db::media_signatures(d, merchant + 1, &[41])
                .await
                .unwrap()
                .is_empty()
        );
        let vs = db::VariantSignature {
            variant_id: vid,
            project_id: 7,
            signature: sig.to_bytes(),
            clips: "[1]".into(),
            text: "春".into(),
            cover_s: 0,
        };
        db::put_variant_signature(d, merchant, &vs).await.unwrap();
        db::put_variant_signature(d, merchant, &vs).await.unwrap();
        assert_eq!(
            db::project_signatures(d, merchant, 7).await.unwrap().len(),
            1
        );
        for (key, account) in [(format!("v:{vid}"), 5), ("m:41".to_string(), 6)] {
            sqlx::query(
                "INSERT INTO matrix_items (merchant_id, task_id, account_id, platform, video_key, title, \
                 scheduled_at, state, created_at, updated_at) VALUES ($1, 1, $2, 'dy', $3, 't', $4, 'published', $4, $4)",
            )
            .bind(merchant)
            .bind(account)
            .bind(key)
            .bind(now)
            .execute(&d.pool)
            .await
            .unwrap();
        }
        let all = db::published(d, merchant, None, "").await.unwrap();
        assert_eq!(all.len(), 2, "{backend:?}");
        assert!(all.iter().any(|p| p.variant_id == vid && p.text == "春"));
        assert_eq!(
            db::published(d, merchant, Some(6), "").await.unwrap().len(),
            1
        );
        assert_eq!(
            db::published(d, merchant, None, &format!("v:{vid}"))
                .await
                .unwrap()
                .len(),
            1,
            "the video itself is not its own history"
        );
        assert!(
            db::published(d, merchant + 1, None, "")
                .await
                .unwrap()
                .is_empty()
        );

        let risk = || async {
            sqlx::query_as::<_, (Option<i64>, Option<i64>, String)>(
                "SELECT risk, risk_sibling, risk_sibling_reason FROM clip_variants WHERE id = $1",
            )
            .bind(vid)
            .fetch_one(&d.pool)
            .await
            .unwrap()
        };
        assert_eq!(risk().await, (None, None, String::new()));
        db::raise_sibling(d, vid, 0, "").await.unwrap();
        assert_eq!(
            risk().await,
            (Some(0), Some(0), String::new()),
            "measured: 0"
        );
        db::raise_sibling(d, vid, 60, "a").await.unwrap();
        db::raise_sibling(d, vid, 40, "b").await.unwrap();
        assert_eq!(risk().await, (Some(60), Some(60), "a".into()));
        db::raise_published(d, vid, 80, "p").await.unwrap();
        assert_eq!(risk().await.0, Some(80));
        db::raise_published(d, vid, 10, "q").await.unwrap();
        assert_eq!(risk().await.0, Some(80));

        // A render that kept nothing forgets its signature, unless the video is done after all.
        db::forget_variant_signature(d, vid).await.unwrap();
        assert_eq!(
            db::project_signatures(d, merchant, 7).await.unwrap().len(),
            1
        );
        sqlx::query("UPDATE clip_variants SET state = 'failed' WHERE id = $1")
            .bind(vid)
            .execute(&d.pool)
            .await
            .unwrap();
        db::forget_variant_signature(d, vid).await.unwrap();
        assert!(
            db::variant_signature(d, merchant, vid)
                .await
                .unwrap()
                .is_none()
        );
    }
}

/// A release plan spreads unlike videos over accounts of one city, tells each post's risk against
/// its account's history (with a warning when high), and posts one file once: an imported video and
/// its material are the same file.
#[tokio::test]
async fn a_release_plan_spreads_unlike_videos_over_a_city_and_posts_a_file_once() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let acc1 = authorize_dy(&app, &t).await;
    let acc2 = authorize_dy(&app, &t).await;
    assert_ne!(acc1, acc2);
    let a = shot("testsrc2", "4");
    // The same pictures and sound encoded again: a near copy of `a`.
    let a_again = encoded_again(&a);
    let mut ids = vec![];
    for (name, bytes) in [
        ("a.mp4", a),
        ("a-again.mp4", a_again),
        ("b.mp4", shot("mandelbrot", "4")),
    ] {
        ids.push(
            app.upload(
                "/media.merchant_much_resource/add_resource",
                &t,
                &[],
                name,
                bytes,
            )
            .await
            .ok()["id"]
                .as_i64()
                .unwrap(),
        );
    }
    app.wait_ready(&t, &ids).await;
    let set_city = |a: i64, city: &'static str| {
        let app = &app;
        async move {
            sqlx::query("UPDATE matrix_accounts SET city = $1 WHERE id = $2")
                .bind(city)
                .bind(a)
                .execute(&app.db.pool)
                .await
                .unwrap();
        }
    };
    let preview = |seed: u64, materials: Vec<i64>| {
        let (app, t) = (&app, &t);
        async move {
            let mut body = task(
                app,
                &[acc1, acc2],
                &materials,
                json!({"preview": true, "seed": seed, "days": 1, "publish_count": 2}),
            );
            body["start_date"] = json!(today(app));
            app.post(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(t),
                body,
            )
            .await
            .ok()
            .clone()
        }
    };
    let keys = |plan: &serde_json::Value| -> std::collections::BTreeSet<String> {
        plan["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["video_key"].as_str().unwrap().to_string())
            .collect()
    };
    let copies: std::collections::BTreeSet<String> =
        [format!("m:{}", ids[0]), format!("m:{}", ids[1])].into();
    // Two cities: nothing to spread, and some seed gives the two near copies.
    set_city(acc1, "杭州").await;
    set_city(acc2, "宁波").await;
    let mut copies_somewhere = false;
    for seed in 1..=12 {
        copies_somewhere |= keys(&preview(seed, ids.clone()).await) == copies;
    }
    assert!(
        copies_somewhere,
        "no seed gave both near copies: the check below would prove nothing"
    );
    // One city: never both near copies.
    set_city(acc2, "杭州").await;
    for seed in 1..=12 {
        let plan = preview(seed, ids.clone()).await;
        assert_ne!(keys(&plan), copies, "seed {seed}: {plan}");
    }

    // Posted on the first account: a near copy of it planned there carries its risk and a warning.
    let now = domain::now_ms();
    let mid: i64 = sqlx::query_scalar("SELECT merchant_id FROM matrix_accounts WHERE id = $1")
        .bind(acc1)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO matrix_items (merchant_id, task_id, account_id, platform, video_key, title, scheduled_at, \
         state, created_at, updated_at) VALUES ($1, 1, $2, 'dy', $3, 't', $4, 'released', $4, $4)",
    )
    .bind(mid)
    .bind(acc1)
    .bind(format!("m:{}", ids[0]))
    .bind(now)
    .execute(&app.db.pool)
    .await
    .unwrap();
    let mut body = task(
        &app,
        &[acc1],
        &[ids[1]],
        json!({"preview": true, "days": 1}),
    );
    body["start_date"] = json!(today(&app));
    let plan = create_task(&app, &t, body).await.ok().clone();
    let risk = &plan["items"][0]["risk"];
    assert_eq!(risk["against"], "account", "{plan}");
    assert!(risk["score"].as_i64().unwrap() >= 90, "{plan}");
    let warned = plan["warnings"].to_string();
    assert!(
        warned.contains("is like a video") && warned.contains("a-again.mp4"),
        "{warned}"
    );
    // The merchant may rather have such a task refused.
    let mut body = task(
        &app,
        &[acc1],
        &[ids[1]],
        json!({"preview": true, "days": 1, "refuse_duplicates": true}),
    );
    body["start_date"] = json!(today(&app));
    let r = create_task(&app, &t, body).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.message().contains("is like a video"), "{}", r.message());

    // The posted material imported into the library is the same file: refused.
    let v = app
        .post(
            "/clip.merchant_video_library/add",
            Some(&t),
            json!({"ids": [ids[0]]}),
        )
        .await
        .ok()["variant_ids"][0]
        .as_i64()
        .unwrap();
    let mut body = task(&app, &[acc1], &[], json!({"preview": true}));
    body["video_ids"] = json!([v]);
    let r = create_task(&app, &t, body).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.message().contains("is the same file"), "{}", r.message());
    // Chosen together with its material: refused too (the second of the two named).
    let mut body = task(&app, &[acc1, acc2], &[ids[2]], json!({"preview": true}));
    let imported_b = app
        .post(
            "/clip.merchant_video_library/add",
            Some(&t),
            json!({"ids": [ids[2]]}),
        )
        .await
        .ok()["variant_ids"][0]
        .as_i64()
        .unwrap();
    body["video_ids"] = json!([imported_b]);
    let r = create_task(&app, &t, body).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.message().contains("b.mp4"), "{}", r.message());
}

/// A release task asked for (or previewed) in English.
async fn create_task(app: &TestApp, t: &str, body: serde_json::Value) -> Resp {
    app.post_en(
        "/matrix.merchant_publish_management/createCommonPublishTask",
        Some(t),
        body,
    )
    .await
}

/// The same pictures and sound encoded again at a lower quality: a near copy.
fn encoded_again(video: &[u8]) -> Vec<u8> {
    let src = std::env::temp_dir().join(format!("cm-risk-src-{}.mp4", store::random_token(6)));
    std::fs::write(&src, video).unwrap();
    let b = ffmpeg_bytes(
        &[
            "-i",
            src.to_str().unwrap(),
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-crf",
            "33",
            "-c:a",
            "aac",
        ],
        "mp4",
    );
    let _ = std::fs::remove_file(&src);
    b
}

/// Stripes that change every whole second (`c` picks the clip's own sequence), a tone, 8 s: footage
/// whose seconds do not look alike, so which stretch of it a variant shows is what its score sees.
fn changing_shot(c: u32) -> Vec<u8> {
    let src = format!(
        "color=c=gray:s=180x320:r=10,geq=lum='128+110*sin(X/(10+4*mod(floor(T)*3+{c},7))+Y/(14+5*mod(floor(T)*5+{c},6)))':cb=128:cr=128"
    );
    lavfi_video(&src, 300 + 40 * c, "8", &[])
}

/// The variation levers: two videos sharing two of three clips, with a title each (the titles in
/// turn), a later stretch of each clip each (trim offsets) and their text elsewhere (text looks), are
/// less alike than the same two videos made plainly — pictures and text alike.
#[tokio::test]
async fn the_variation_levers_make_siblings_less_alike() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    // Shots 1 and 2 have one clip each: the two videos of a project share them.
    let files = vec![
        (
            "A",
            vec![
                ("A0.mp4".into(), changing_shot(0)),
                ("A1.mp4".into(), changing_shot(1)),
            ],
        ),
        ("B", vec![("B0.mp4".into(), changing_shot(2))]),
        ("C", vec![("C0.mp4".into(), changing_shot(3))]),
    ];
    let (groups, _) = groups_of_files(&app, &t, files).await;
    let style = json!({"font_id": null, "size": 72, "color": "#FFD700", "position": "top"});
    let project = |name: &'static str, levers: bool| {
        let (app, t, groups, style) = (&app, &t, &groups, &style);
        async move {
            let mut cfg = json!({
                "groups": groups.iter().map(|g| json!({"group_id": g, "max_ms": 2000})).collect::<Vec<_>>(),
                "title": {"text": "春季上新", "style": style},
                "output_count": 2,
            });
            if levers {
                cfg["title"]["texts"] = json!(["春季上新", "周末特惠"]);
                cfg["trim_vary"] = json!(true);
                cfg["text_vary"] = json!(true);
            }
            let res = app
                .post(
                    "/clip.merchant_much_clip/add",
                    Some(t),
                    json!({"name": name, "config": cfg}),
                )
                .await;
            let saved = res.ok();
            let pid = saved["id"].as_i64().unwrap();
            // The levers are kept as sent.
            let c = &saved["config"];
            assert_eq!(c["trim_vary"].as_bool().unwrap_or(false), levers, "{c}");
            assert_eq!(c["text_vary"].as_bool().unwrap_or(false), levers, "{c}");
            assert_eq!(
                c["title"]["texts"].as_array().map_or(0, Vec::len),
                if levers { 2 } else { 0 }
            );
            app.post(
                "/clip.merchant_much_clip/add_video",
                Some(t),
                json!({"id": pid}),
            )
            .await
            .ok();
            wait_variants(app, t, pid, 2).await
        }
    };
    let plain = project("Plain", false).await;
    let varied = project("Varied", true).await;
    let sibling = |rows: &[serde_json::Value]| -> Vec<(i64, i64)> {
        rows.iter()
            .map(|v| {
                assert_eq!(v["state"], "success", "{v}");
                let r = &v["risk_reasons"][0];
                assert_eq!(r["against"], "sibling", "{v}");
                assert_eq!(r["shared_clips"][0], 2, "two of three clips shared: {v}");
                (r["visual"].as_i64().unwrap(), r["text"].as_i64().unwrap())
            })
            .collect()
    };
    let (plain, varied) = (sibling(&plain), sibling(&varied));
    eprintln!("siblings (pictures, text): plain {plain:?}, varied {varied:?}");
    for (p, v) in plain.iter().zip(&varied) {
        assert_eq!(p.1, 100, "one title: the same text");
        assert_eq!(v.1, 0, "a title each: nothing in common");
        assert!(v.0 < p.0, "pictures: varied {v:?} vs plain {p:?}");
    }
}

/// A clip uploaded twice (the second re-encoded, under another name) is one clip to the planner: two
/// videos taking the two copies share that shot, which the plan says (and keeps the other shots
/// apart); the same material with a different clip there shares nothing.
#[tokio::test]
async fn a_clip_uploaded_twice_is_one_clip_to_the_planner() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let original = changing_shot(0);
    let copy = encoded_again(&original);
    app.start_worker();
    let names = ["A", "D", "B", "C"];
    let files = names
        .into_iter()
        .zip([
            [original, copy],
            [changing_shot(5), changing_shot(6)],
            [changing_shot(1), changing_shot(2)],
            [changing_shot(3), changing_shot(4)],
        ])
        .map(|(name, two)| {
            let clips = two
                .into_iter()
                .enumerate()
                .map(|(i, b)| (format!("{name}-{i}.mp4"), b))
                .collect();
            (name, clips)
        })
        .collect();
    let (ids, _) = groups_of_files(&app, &t, files).await;
    let groups: std::collections::HashMap<&str, i64> = names.into_iter().zip(ids).collect();
    let shared = |first: &'static str| {
        let (app, t, groups) = (&app, &t, &groups);
        async move {
            let shots = [first, "B", "C"].map(|n| groups[n]);
            let pid = plain_project(app, t, first, &shots).await;
            let res = app
                .post(
                    "/clip.merchant_much_clip/preview_video",
                    Some(t),
                    json!({"id": pid, "count": 2}),
                )
                .await;
            let plan = res.ok();
            let seqs: Vec<Vec<i64>> = plan["sequences"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    s.as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c["id"].as_i64().unwrap())
                        .collect()
                })
                .collect();
            assert_eq!(seqs.len(), 2, "{plan}");
            // The other shots differ whatever the first does.
            assert!(
                seqs[0][1] != seqs[1][1] && seqs[0][2] != seqs[1][2],
                "{plan}"
            );
            plan["max_shared"].as_i64().unwrap()
        }
    };
    assert_eq!(shared("A").await, 1, "the copies are one clip");
    assert_eq!(shared("D").await, 0, "two clips that differ");
}
