//! Image notes (图文, issue 44 part 4) through the whole app against the sandbox: a release task of
//! kind `image_note` (image-library pictures and frames of a finished video) is planned once per
//! account, reviewed, published and verified in the work list like a video — on Douyin through the
//! open platform's `upload_image` + `create_image_text`, on Xiaohongshu through its creator
//! console's 上传图文 tab in a real browser; a platform that cannot take a note, and 0 or 19
//! pictures, are refused before anything is stored.

use crate::common;
use common::publish::*;
use common::*;
use serde_json::{Value, json};

fn png(n: u8) -> Vec<u8> {
    ffmpeg_bytes(
        &[
            "-f",
            "lavfi",
            "-i",
            &format!("color=c=0x{n:02x}8040:s=320x240"),
            "-frames:v",
            "1",
        ],
        "png",
    )
}

/// `n` pictures in the merchant's image library (the /image page's upload): their ids.
async fn images(app: &TestApp, t: &str, n: u8) -> Vec<i64> {
    let mut ids = vec![];
    for i in 0..n {
        let r = app
            .upload(
                "/media.merchant_producing_upfile/add",
                t,
                &[("type", "image")],
                &format!("note{i}.png"),
                png(i * 40),
            )
            .await;
        ids.push(r.ok()["id"].as_i64().unwrap());
    }
    ids
}

/// A finished video (a library variant) whose file is a real stored clip: frames come from it.
async fn finished_video(app: &TestApp, t: &str) -> i64 {
    let mid = app.get("/index/profile", Some(t)).await.ok()["merchant_id"]
        .as_i64()
        .unwrap();
    let material = videos(app, t, 1).await[0];
    let key: String = sqlx::query_scalar("SELECT storage_key FROM media_files WHERE id = $1")
        .bind(material)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    store::clip::import_variant(&app.db, mid, material, 1000, &key, "")
        .await
        .unwrap()
        .unwrap()
}

fn note(req: &mut Value, image_ids: &[i64], frames: Option<(i64, i64)>) {
    req["kind"] = json!("image_note");
    req["material_ids"] = json!([]);
    req["image_ids"] = json!(image_ids);
    if let Some((video_id, count)) = frames {
        req["frames"] = json!({"video_id": video_id, "count": count});
    }
}

async fn tasks_stored(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM matrix_tasks")
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn create(app: &TestApp, t: &str, req: Value) -> Resp {
    app.post(
        "/matrix.merchant_publish_management/createCommonPublishTask",
        Some(t),
        req,
    )
    .await
}

#[tokio::test]
async fn an_image_note_is_published_and_verified_on_douyin_and_refused_where_it_cannot_go() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let dy = authorize_dy(&app, &t).await;
        let ks = authorize_oauth(&app, &t, "ks").await;
        let pics = images(&app, &t, 2).await;
        let video = finished_video(&app, &t).await;

        // Kuaishou's open API publishes videos only: refused, naming the platform, nothing stored.
        let mut req = task(&app, &[dy, ks], &[], soon(&app));
        note(&mut req, &pics, None);
        let r = create(&app, &t, req).await;
        assert_eq!(r.status, 422, "{}", r.body);
        assert_eq!(r.data()["field"], "account_ids", "{}", r.body);
        assert!(r.message().contains("快手"), "{}", r.message());
        // No picture, or 19 (one from the library and 18 frames), is refused.
        for (ids, frames) in [(vec![], None), (vec![pics[0]], Some((video, 18)))] {
            let mut req = task(&app, &[dy], &[], soon(&app));
            note(&mut req, &ids, frames);
            let r = create(&app, &t, req).await;
            assert_eq!(r.status, 422, "{}", r.body);
            assert_eq!(r.data()["field"], "image_ids", "{}", r.body);
            assert!(r.message().contains("1–18"), "{}", r.message());
        }
        // Someone else's (or no such) picture is refused.
        let mut req = task(&app, &[dy], &[], soon(&app));
        note(&mut req, &[pics[0], 999_999], None);
        assert_eq!(create(&app, &t, req).await.status, 422);
        assert_eq!(tasks_stored(&app).await, 0);

        // Two library pictures and two frames, in that order, on Douyin.
        let rows = publish_now_with(&app, &t, &admin, &[dy], &[], |req| {
            note(req, &pics, Some((video, 2)))
        })
        .await;
        assert_eq!(rows.len(), 1);
        assert!(
            ["published", "released"].contains(&rows[0]["state"].as_str().unwrap()),
            "{}",
            rows[0]
        );
        assert_eq!(rows[0]["video"]["kind"], "image_note", "{}", rows[0]);
        assert!(rows[0]["verified_at"].as_i64().is_some(), "{}", rows[0]);
        let counts = sandbox(&app, "counts", None).await;
        assert_eq!(counts["total_creates"], 1, "{counts}");
        assert_eq!(counts["works"][0]["images"], 4, "{counts}");
        assert_eq!(counts["works"][0]["item_id"], rows[0]["item_id"]);
        // The task list says what it is, with the same counts as a video task.
        let list = app
            .post("/task.merchant_forward_task/index", Some(&t), json!({}))
            .await;
        let task = &list.ok()["rows"][0];
        assert_eq!(
            (task["kind"].as_str(), task["image_count"].as_i64()),
            (Some("image_note"), Some(4)),
            "{task}"
        );
        assert_eq!(task["progress"], 100, "{task}");
    }
}

/// Xiaohongshu's creator console in a real browser: the 上传图文 tab gets the pictures one by
/// one, the same form follows, and the note is found in the note manager. The browser costs ~20 s a
/// run and the database side is the Douyin story's, so it runs once (`heavy_story_backend`).
#[tokio::test]
async fn an_image_note_is_published_through_the_xiaohongshu_console() {
    {
        let app = TestApp::spawn_with_browser(heavy_story_backend()).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let account = xhs_console_account(&app, &t, "xhs_notes").await;
        let id = account["id"].as_i64().unwrap();
        let pics = images(&app, &t, 3).await;
        let rows = publish_now_with(&app, &t, &admin, &[id], &[], |req| {
            note(req, &pics, None);
            req["declaration"] = json!("original");
        })
        .await;
        assert!(
            ["published", "released"].contains(&rows[0]["state"].as_str().unwrap()),
            "{}",
            rows[0]
        );
        assert_eq!(rows[0]["video"]["kind"], "image_note");
        let got = sandbox(&app, "console/xhs/received", None).await;
        let r = &got["received"][0];
        assert_eq!(r["images"], 3, "{got}");
        assert_eq!(r["declaration"], "自主拍摄", "{got}");
        assert!(r["title"].as_str().unwrap().chars().count() <= 20, "{got}");
    }
}
