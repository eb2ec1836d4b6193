//! Hot lists, course uploads and the remaining common routes (content): the job fills the
//! hot-list cache from the sandbox's billboards and the cache moves with the platform clock; a
//! refused read keeps the last rows; staff reach only their menus' boards; bad input is a 422 in
//! both languages; the operator uploads course files that play for merchants; the video-library
//! embed opens one merchant's videos only; the self-test. Each app has its own platform clock.

use crate::common;

use common::{Backend, TestApp, backends};
use serde_json::{Value, json};
use std::time::Duration;

const DAY: i64 = 86_400_000;

/// What the sandbox itself answers for a DY app call (with a client token of its own).
async fn truth(app: &TestApp, path: &str) -> Value {
    let secret = platforms::sandbox::app_secret(common::SANDBOX_TOKEN, platforms::Platform::Dy);
    let t: Value = app
        .http
        .post(app.url("/sandbox/dy/oauth/client_token/"))
        .form(&[
            ("client_key", platforms::sandbox::SANDBOX_DY_KEY),
            ("client_secret", secret.as_str()),
            ("grant_type", "client_credential"),
        ])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = t["data"]["access_token"].as_str().unwrap().to_string();
    app.http
        .get(app.url(&format!("/sandbox/dy{path}")))
        .header("access-token", token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Reads a page's board until `done` holds (the worker fills the cache meanwhile).
async fn board_until(
    app: &TestApp,
    t: &str,
    page: &str,
    board: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let mut last = Value::Null;
    for _ in 0..150 {
        last = app
            .get_q(
                &format!("/content.hot_list/{page}_index"),
                Some(t),
                json!({"board": board}),
            )
            .await
            .ok()
            .clone();
        if done(&last) {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("board {board} never got there: {last}");
}

fn titles(d: &Value) -> Vec<String> {
    common::column(d, "title")
}

#[tokio::test]
async fn the_job_fills_the_boards_from_the_sandbox_and_they_move_with_the_clock() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        // Before any read: empty, and reading the page queued the board's read.
        let first = app
            .get_q("/content.hot_list/topic_index", Some(&t), json!({}))
            .await
            .ok()
            .clone();
        assert_eq!(first["board"], "topic");
        assert_eq!(first["boards"], json!(["topic"]));
        assert_eq!(first["fetched_at"], 0);
        assert!(first["rows"].as_array().unwrap().is_empty());
        // The schedule's pass queues every other board (the topic board is queued already).
        let queued = services::content::hotlists::queue_due(&app.db, app.db.clock.platform_now())
            .await
            .unwrap();
        assert_eq!(queued, domain::content::hotlists::all_boards().len());
        app.start_worker();

        let topic = board_until(&app, &t, "topic", "topic", |v| v["fetched_at"] != 0).await;
        // The sandbox answered: the page is told to mark the rows simulated.
        assert_eq!(topic["simulated"], true);
        assert_eq!(first["simulated"], false);
        let want = truth(&app, "/data/extern/billboard/topic/").await;
        let want_rows = want["data"]["list"].as_array().unwrap();
        assert_eq!(topic["rows"].as_array().unwrap().len(), want_rows.len());
        for (got, w) in topic["rows"].as_array().unwrap().iter().zip(want_rows) {
            assert_eq!(got["title"], w["title"]);
            assert_eq!(got["rank"], w["rank"]);
            assert_eq!(got["rank_change"], w["rank_change"]);
            assert_eq!(
                got["heat"].as_i64().unwrap(),
                w["effect_value"].as_f64().unwrap().round() as i64
            );
        }
        let day = domain::matrix::fmt_day(domain::matrix::day_of(app.db.clock.platform_now()));
        assert_eq!(topic["day"], day.as_str());
        assert_eq!(topic["platform"], "dy");

        // Every page's boards are filled; each shape carries its own figures.
        let kw = board_until(&app, &t, "keywords", "", |v| v["fetched_at"] != 0).await;
        let hot = truth(&app, "/hotsearch/sentences/").await;
        let want_words: Vec<String> = hot["data"]["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["sentence"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(titles(&kw), want_words);
        let music = board_until(&app, &t, "music", "music_soar", |v| v["fetched_at"] != 0).await;
        assert_eq!(music["board"], "music_soar");
        let song = &music["rows"][0];
        assert!(
            song["duration"].as_i64().unwrap() > 0 && !song["author"].as_str().unwrap().is_empty()
        );
        let video = board_until(&app, &t, "video", "", |v| v["fetched_at"] != 0).await;
        let v0 = &video["rows"][0];
        assert!(v0["plays"].as_i64().unwrap() > v0["likes"].as_i64().unwrap());
        assert!(!v0["hot_words"].as_array().unwrap().is_empty());
        for (page, board) in [("life", "food_shop"), ("doyen", "sport")] {
            let c = board_until(&app, &t, page, board, |v| v["fetched_at"] != 0).await;
            let r0 = &c["rows"][0];
            assert!(r0["followers"].as_i64().unwrap() > 0, "{r0}");
            assert_eq!(r0["videos"].as_array().unwrap().len(), 3);
        }

        // A day later on the platform's clock the schedule reads again; the boards moved with it.
        let before = titles(&topic);
        let before_heat: Vec<i64> = topic["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["heat"].as_i64().unwrap())
            .collect();
        app.db.clock.advance(DAY + 3_600_000);
        let queued = services::content::hotlists::queue_due(&app.db, app.db.clock.platform_now())
            .await
            .unwrap();
        assert_eq!(queued, domain::content::hotlists::all_boards().len());
        let fetched = topic["fetched_at"].as_i64().unwrap();
        let moved = board_until(&app, &t, "topic", "", |v| {
            v["fetched_at"].as_i64().unwrap() > fetched
        })
        .await;
        let after_heat: Vec<i64> = moved["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["heat"].as_i64().unwrap())
            .collect();
        assert!(titles(&moved) != before || after_heat != before_heat);
        assert_ne!(moved["day"], topic["day"]);
        let want = truth(&app, "/data/extern/billboard/topic/").await;
        let want_titles: Vec<String> = want["data"]["list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w["title"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(titles(&moved), want_titles);
        // Once every board is read, nothing is due again within the hour.
        let since = app.db.clock.platform_now() - 60_000;
        for i in 0..150 {
            let rows = store::content::hotlists::boards(&app.db).await.unwrap();
            if rows.len() == domain::content::hotlists::all_boards().len()
                && rows.iter().all(|r| r.tried_at >= since)
            {
                break;
            }
            assert!(i < 149, "boards not all read again");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            services::content::hotlists::queue_due(&app.db, app.db.clock.platform_now())
                .await
                .unwrap(),
            0
        );
    }
}

#[tokio::test]
async fn a_refused_read_keeps_the_last_rows_and_says_why_in_the_readers_language() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    services::content::hotlists::sync_one(&app.state.hub, "hot_video")
        .await
        .unwrap();
    let good = board_until(&app, &t, "video", "", |v| v["fetched_at"] != 0).await;
    assert_eq!(good["last_error"], "");
    let r: Value = app
        .http
        .post(app.url("/sandbox/_control/faults"))
        .json(&json!({"platform": "dy", "call": "billboard", "fault": "quota"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["ok"], true);
    app.db.clock.advance(2 * 3_600_000);
    services::content::hotlists::sync_one(&app.state.hub, "hot_video")
        .await
        .unwrap();
    let zh = app
        .get_q("/content.hot_list/video_index", Some(&t), json!({}))
        .await
        .ok()
        .clone();
    assert_eq!(titles(&zh), titles(&good), "the last good rows stay");
    assert_eq!(zh["fetched_at"], good["fetched_at"]);
    let en = app
        .call("GET", "/content.hot_list/video_index", Some(&t), None, "en")
        .await
        .ok()
        .clone();
    let (zh_err, en_err) = (
        zh["last_error"].as_str().unwrap(),
        en["last_error"].as_str().unwrap(),
    );
    assert!(!zh_err.is_empty() && !en_err.is_empty());
    assert_ne!(zh_err, en_err);
    assert!(en_err.is_ascii(), "{en_err}");
    // The fault gone, the next read clears the reason.
    app.http
        .post(app.url("/sandbox/_control/faults/clear"))
        .send()
        .await
        .unwrap();
    services::content::hotlists::sync_one(&app.state.hub, "hot_video")
        .await
        .unwrap();
    let ok = app
        .get_q("/content.hot_list/video_index", Some(&t), json!({}))
        .await
        .ok()
        .clone();
    assert_eq!(ok["last_error"], "");
}

#[tokio::test]
async fn staff_see_only_their_boards_and_bad_input_is_refused_in_both_languages() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let admin = app.admin().await;
    let log = app.menu_id(&demo, "/log").await;
    let topic = app.menu_id(&demo, "/hottopic").await;
    for (name, menus) in [("nohot", vec![log]), ("topics", vec![topic])] {
        app.post(
            "/user.merchant_user_sub/add",
            Some(&demo),
            json!({"username": name, "nickname": name, "password": "abc12345", "menu_ids": menus}),
        )
        .await
        .ok();
    }
    let nohot = app.login(3, "nohot", "abc12345").await;
    let topics = app.login(3, "topics", "abc12345").await;
    let pages = ["music", "keywords", "video", "topic", "life", "doyen"];
    for p in pages {
        let path = format!("/content.hot_list/{p}_index");
        app.get(&path, Some(&nohot)).await.expect(403);
        app.get(&path, Some(&demo)).await.ok();
        if p == "topic" {
            app.get(&path, Some(&topics)).await.ok();
        } else {
            app.get(&path, Some(&topics)).await.expect(403);
        }
    }
    // Signed out: 401. Merchants may not queue the operator's refresh nor run the self-test.
    app.get("/content.hot_list/topic_index", None)
        .await
        .expect(401);
    app.post("/system/content/hot_refresh", Some(&demo), json!({}))
        .await
        .expect(403);
    app.get("/system/selftest/index", Some(&demo))
        .await
        .expect(403);
    let q = app
        .post("/system/content/hot_refresh", Some(&admin), json!({}))
        .await
        .ok()
        .clone();
    assert_eq!(q["queued"], domain::content::hotlists::all_boards().len());

    // A board of another page is a 422 naming `board`, in the caller's language.
    let zh = app
        .get_q(
            "/content.hot_list/topic_index",
            Some(&demo),
            json!({"board": "music_hot"}),
        )
        .await;
    zh.expect(422);
    assert_eq!(zh.data()["field"], "board", "{}", zh.body);
    assert!(zh.message().contains("不是本页的榜单"), "{}", zh.message());
    let en = app
        .call(
            "GET",
            "/content.hot_list/music_index?board=stars",
            Some(&demo),
            None,
            "en",
        )
        .await;
    en.expect(422);
    assert!(
        en.message().contains("is not a board of this page")
            && en
                .message()
                .contains("music_hot, music_soar, music_original"),
        "{}",
        en.message()
    );
}

#[tokio::test]
async fn course_files_upload_and_play_for_merchants() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let video = common::clip("blue", "1");
        let up = app
            .upload(
                "/system/content/upload",
                &admin,
                &[("kind", "video")],
                "lesson.mp4",
                video.clone(),
            )
            .await;
        let f = up.ok().clone();
        let src = f["src"].as_str().unwrap().to_string();
        assert!(
            src.starts_with(&format!("/files/{}/course?", f["id"])),
            "{src}"
        );
        assert_eq!(f["fileName"], "lesson.mp4");
        assert_eq!(f["size"], video.len() as i64);
        let cover = app
            .upload(
                "/system/content/upload",
                &admin,
                &[("kind", "image")],
                "cover.png",
                common::ffmpeg_bytes(
                    &["-f", "lavfi", "-i", "color=red:s=64x36", "-frames:v", "1"],
                    "png",
                ),
            )
            .await
            .ok()["src"]
            .as_str()
            .unwrap()
            .to_string();
        let c = app
            .post(
                "/system/content/course_add",
                Some(&admin),
                json!({"category": "shot", "title": "上传的视频课", "body_kind": "video",
                    "video_url": src, "cover": cover, "published": true}),
            )
            .await
            .ok()
            .clone();
        // The merchant's course page plays the uploaded file (ranges served for seeking).
        let card = app
            .get_q(
                "/index/getIndexCourseList",
                Some(&demo),
                json!({"category": "shot"}),
            )
            .await
            .ok()["rows"][0]
            .clone();
        assert_eq!(card["id"], c["id"]);
        let link = card["video_url"].as_str().unwrap();
        let res = app
            .http
            .get(app.url(link))
            .header("range", "bytes=0-99")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 206);
        assert_eq!(res.headers()["content-type"], "video/mp4");
        assert_eq!(&res.bytes().await.unwrap()[..], &video[..100]);
        let img = app.http.get(app.url(&cover)).send().await.unwrap();
        assert_eq!(img.headers()["content-type"], "image/png");
        // A tampered link is refused.
        let forged = link.replacen("/course?", "/original?", 1);
        assert_eq!(
            app.http
                .get(app.url(&forged))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16(),
            403
        );

        // Bad input: an unknown kind, a file of the wrong class, a merchant uploading.
        let bad = app
            .upload(
                "/system/content/upload",
                &admin,
                &[("kind", "pdf")],
                "a.mp4",
                video.clone(),
            )
            .await;
        bad.expect(422);
        assert_eq!(bad.data()["field"], "kind");
        let wrong = app
            .upload(
                "/system/content/upload",
                &admin,
                &[("kind", "image")],
                "a.mp4",
                video.clone(),
            )
            .await;
        wrong.expect(422);
        assert_eq!(wrong.data()["field"], "file");
        app.upload(
            "/system/content/upload",
            &demo,
            &[("kind", "video")],
            "a.mp4",
            video,
        )
        .await
        .expect(403);
    }
}

#[tokio::test]
async fn the_video_library_embed_opens_one_merchants_videos_only() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "embedder").await;
    let tok = app
        .post("/index/getVideoLibraryIframeToken", Some(&demo), json!({}))
        .await
        .ok()
        .clone();
    let url = tok["url"].as_str().unwrap();
    assert!(url.starts_with("/embed/video_library?token="));
    assert!(tok["expires_at"].as_i64().unwrap() > domain::now_ms());
    let res = app.http.get(app.url(url)).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert_eq!(res.headers()["x-frame-options"], "SAMEORIGIN");
    assert_eq!(
        res.headers()["content-security-policy"],
        "frame-ancestors 'self'"
    );
    let html = res.text().await.unwrap();
    assert!(html.contains("data-count=\"0\""), "{html}");
    // Another merchant's token names that merchant; changing the id in a token breaks it.
    let theirs = app
        .post("/index/getVideoLibraryIframeToken", Some(&other), json!({}))
        .await
        .ok()["token"]
        .as_str()
        .unwrap()
        .to_string();
    let mine = tok["token"].as_str().unwrap();
    let (their_mid, rest) = theirs.split_once('.').unwrap();
    let (my_mid, _) = mine.split_once('.').unwrap();
    assert_ne!(their_mid, my_mid);
    let forged = format!("{my_mid}.{rest}");
    let res = app
        .http
        .get(app.url(&format!("/embed/video_library?token={forged}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 403);
    // The rest of the site still refuses to be framed; the operator has no library to embed.
    let api = app
        .http
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(api.headers()["x-frame-options"], "DENY");
    app.post("/index/getVideoLibraryIframeToken", Some(&admin), json!({}))
        .await
        .expect(403);
    app.post("/index/getVideoLibraryIframeToken", None, json!({}))
        .await
        .expect(401);
}

#[tokio::test]
async fn the_self_test_checks_what_the_flows_stand_on() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let admin = app.admin().await;
    services::content::hotlists::sync_one(&app.state.hub, "topic")
        .await
        .unwrap();
    let rows = app.get("/system/selftest/index", Some(&admin)).await.ok()["rows"].clone();
    let by = |name: &str| {
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("no check {name}: {rows}"))
            .clone()
    };
    for name in [
        "database",
        "storage",
        "ffmpeg",
        "platform_dy",
        "platform_ks",
        "billboards",
        "hot_list_cache",
    ] {
        assert_eq!(by(name)["ok"], true, "{}", by(name));
    }
    assert!(
        by("ffmpeg")["detail"]
            .as_str()
            .unwrap()
            .starts_with("ffmpeg version")
    );
    // No app is configured: both platforms answer from the sandbox, and the check says so.
    for name in ["platform_dy", "platform_ks"] {
        let detail = by(name)["detail"].as_str().unwrap().to_string();
        assert!(detail.starts_with("sandbox: "), "{name}: {detail}");
    }
    assert!(
        by("hot_list_cache")["detail"]
            .as_str()
            .unwrap()
            .starts_with("1 of ")
    );
}

#[tokio::test]
async fn the_operator_sets_a_merchants_home_layout() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let rows = app
            .post("/system/merchant/index", Some(&admin), json!({}))
            .await
            .ok()["rows"]
            .clone();
        let m = rows
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["username"] == "demo")
            .unwrap()
            .clone();
        assert_eq!(m["home_type"], 2);
        let id = m["id"].as_i64().unwrap();
        let e = app
            .post(
                "/system/merchant/edit",
                Some(&admin),
                json!({"id": id, "home_type": 3}),
            )
            .await;
        e.expect(422);
        assert_eq!(e.data()["field"], "home_type");
        let en = app
            .post_en(
                "/system/merchant/edit",
                Some(&admin),
                json!({"id": id, "home_type": 0}),
            )
            .await;
        en.expect(422);
        assert!(
            en.message().contains("home_type is invalid"),
            "{}",
            en.message()
        );
        let ok = app
            .post(
                "/system/merchant/edit",
                Some(&admin),
                json!({"id": id, "home_type": 1}),
            )
            .await
            .ok()
            .clone();
        assert_eq!(ok["home_type"], 1);
        // The merchant's console learns it with its user record.
        let init = app.get("/ajax/initAdmin", Some(&demo)).await.ok().clone();
        assert_eq!(init["user"]["home_type"], 1, "{init}");
        // Only the operator sets it.
        app.post(
            "/system/merchant/edit",
            Some(&demo),
            json!({"id": id, "home_type": 2}),
        )
        .await
        .expect(403);
    }
}

#[tokio::test]
async fn a_failed_hot_list_job_keeps_its_reason_and_can_be_retried() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let admin = app.admin().await;
    let id = store::jobs::submit(
        &app.db,
        &store::jobs::NewJob {
            max_attempts: Some(1),
            ..store::jobs::NewJob::new(domain::jobs::Job::ContentHotlistSync(
                domain::jobs::HotBoardRef {
                    board: "no_such_board".into(),
                },
            ))
        },
    )
    .await
    .unwrap();
    app.start_worker();
    let mut row = Value::Null;
    for _ in 0..100 {
        row = app
            .get_q(
                "/system/tasks/index",
                Some(&admin),
                json!({"state": "dead", "kind": "content.hotlist_sync"}),
            )
            .await
            .ok()["rows"][0]
            .clone();
        if row["id"] == id {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(row["id"], id, "{row}");
    assert!(
        row["last_error"]
            .as_str()
            .unwrap()
            .contains("no_such_board"),
        "{row}"
    );
    let r = app
        .post("/system/tasks/retry", Some(&admin), json!({"id": id}))
        .await;
    // queued again (the running worker may already have taken it)
    let state = r.ok()["state"].as_str().unwrap().to_string();
    assert!(state == "queued" || state == "running", "{state}");
}
