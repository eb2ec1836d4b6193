//! Material uploads and libraries: content checks, limits, nothing left behind, ingest to mezzanines,
//! resumable uploads, Range serving, groups, tenant isolation.

use crate::common;
use common::*;
use serde_json::json;
use std::process::Command;

fn png() -> Vec<u8> {
    ffmpeg_bytes(
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=320x240",
            "-frames:v",
            "1",
        ],
        "png",
    )
}

fn video(secs: &str, extra: &[&str]) -> Vec<u8> {
    lavfi_video("testsrc2=size=720x1280:rate=30", 440, secs, extra)
}

#[tokio::test]
async fn bad_uploads_are_refused_and_leave_nothing_behind() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let up = "/bpdr.merchant_mediainfo/upload";
    let img = [("type", "image")];
    let r = app
        .upload(
            up,
            &t,
            &img,
            "x.png",
            b"MZ\x90\0\x03\0\0\0\x04\0\0\0\xff\xff\0\0 a windows program".to_vec(),
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (
            422,
            "upload file warning: the selected file is not an image"
        )
    );
    let r = app.upload(up, &t, &img, "empty.png", vec![]).await;
    assert_eq!((r.status, r.message()), (422, "The file is empty"));
    let r = app
        .upload(up, &t, &img, "../../etc/passwd.png", png())
        .await;
    assert_eq!((r.status, r.message()), (422, "The file name is invalid"));
    let mut big = png();
    big.resize(10 * 1024 * 1024 + 1, 0);
    let r = app.upload(up, &t, &img, "big.png", big).await;
    assert_eq!(
        (r.status, r.message()),
        (422, "upload file size cannot exceed 10MB!")
    );
    // A truncated video (its index is at the end, so half a file cannot be read).
    let v = video("1", &[]);
    let r = app
        .upload(
            "/media.merchant_much_resource/add_resource",
            &t,
            &[],
            "cut.mp4",
            v[..v.len() / 2].to_vec(),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.message().starts_with("The media file cannot be read"),
        "{}",
        r.message()
    );
    // Wrong type for the library.
    let r = app
        .upload(up, &t, &[("type", "voice")], "v.mp4", v.clone())
        .await;
    assert_eq!(r.status, 422);
    assert!(r.message().contains("allowed: mp3"), "{}", r.message());
    assert_eq!(app.stored_files(), 0);
    assert_eq!(app.temp_files(), 0);
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM media_files")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(rows, 0);
    // A good image goes through and is served with Range.
    let bytes = png();
    let r = app.upload(up, &t, &img, "photo.png", bytes.clone()).await;
    let d = r.ok();
    assert_eq!(d["fileName"], "photo.png");
    assert_eq!(
        (d["width"].as_i64(), d["height"].as_i64()),
        (Some(320), Some(240))
    );
    let src = d["src"].as_str().unwrap();
    let res = app
        .http
        .get(app.url(src))
        .header("range", "bytes=0-7")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 206);
    assert_eq!(res.bytes().await.unwrap().as_ref(), &bytes[..8]);
    let tampered = src.replace("s=", "s=0");
    assert_eq!(
        app.http
            .get(app.url(&tampered))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    assert_eq!(app.stored_files(), 1);
}

#[tokio::test]
async fn videos_are_ingested_into_groups_and_deletes_respect_uses() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        app.start_worker();
        let t = app.demo().await;
        let g = app
            .post(
                "/media.merchant_much_resource/resource_group_add",
                Some(&t),
                json!({"name": "开场 Opening"}),
            )
            .await;
        let gid = g.ok()["id"].as_i64().unwrap();
        app.post(
            "/media.merchant_much_resource/resource_group_add",
            Some(&t),
            json!({"name": " "}),
        )
        .await
        .expect(422);
        let r = app
            .upload(
                "/media.merchant_much_resource/add_resource",
                &t,
                &[("group_id", &gid.to_string())],
                "clip.mp4",
                video("1.5", &[]),
            )
            .await;
        let m = r.ok().clone();
        assert_eq!(m["state"], "processing");
        assert_eq!(m["group_id"], gid);
        let id = m["id"].as_i64().unwrap();
        app.wait_ready(&t, &[id]).await;
        let d = app
            .get_q(
                "/media.merchant_much_resource/resource_detail",
                Some(&t),
                json!({"id": id.to_string()}),
            )
            .await;
        let d = d.ok();
        assert_eq!(d["progress"], 100);
        assert!(d["loudness"].as_f64().is_some());
        let mez = d["mezzanine"].as_str().unwrap();
        let bytes = app
            .http
            .get(app.url(mez))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let path = std::env::temp_dir().join(format!("mez-{id}-{}.mp4", store::random_token(4)));
        std::fs::write(&path, &bytes).unwrap();
        let info = media::probe::probe(&path).await.unwrap();
        assert_eq!((info.width, info.height, info.fps), (1080, 1920, 30.0));
        let _ = std::fs::remove_file(path);
        assert!(
            app.http
                .get(app.url(d["poster"].as_str().unwrap()))
                .send()
                .await
                .unwrap()
                .status()
                .is_success()
        );
        // The ingest job taken again (its worker died before closing it) leaves the ready file as it
        // is: not back to processing, nothing transcoded again.
        let row = |db: store::Db| async move {
            sqlx::query_as::<_, (String, i64, String)>(
                "SELECT state, updated_at, mezzanine_key FROM media_files WHERE id = $1",
            )
            .bind(id)
            .fetch_one(&db.pool)
            .await
            .unwrap()
        };
        let before = row(app.db.clone()).await;
        rerun_job(&app, "media.ingest").await;
        assert_eq!(row(app.db.clone()).await, before);

        // Lists: the group counts it, the detail list shows it.
        let gl = app
            .get(
                "/media.merchant_much_resource/video_resource_group_index",
                Some(&t),
            )
            .await;
        assert_eq!(
            (
                gl.ok()["rows"][0]["count"].as_i64(),
                gl.data()["rows"][0]["ready"].as_i64()
            ),
            (Some(1), Some(1))
        );
        let l = app
            .get_q(
                "/media.merchant_much_resource/video_resource_detail",
                Some(&t),
                json!({"group_id": gid.to_string()}),
            )
            .await;
        assert_eq!(l.ok()["total"], 1);

        // A group with materials asks first.
        let r = app
            .post_en(
                "/media.merchant_much_resource/resource_group_delete",
                Some(&t),
                json!({"id": gid}),
            )
            .await;
        assert_eq!(
            (r.status, r.message()),
            (
                422,
                "This group still holds 1 materials; confirm to move them to 'ungrouped'"
            )
        );
        // A used material cannot be deleted.
        let mid = app.get("/index/profile", Some(&t)).await.ok()["merchant_id"]
            .as_i64()
            .unwrap();
        store::materials::add_use(&app.db, mid, id, "project", 1, "project 'Spring sale'")
            .await
            .unwrap();
        let r = app
            .post_en(
                "/media.merchant_much_resource/resource_delete",
                Some(&t),
                json!({"id": id}),
            )
            .await;
        assert_eq!(r.status, 422);
        assert!(r.message().contains("Spring sale"), "{}", r.message());
        sqlx::query("DELETE FROM material_uses")
            .execute(&app.db.pool)
            .await
            .unwrap();
        let before = app.stored_files();
        assert_eq!(before, 4, "original, poster, strip, mezzanine");
        app.post(
            "/media.merchant_much_resource/resource_delete",
            Some(&t),
            json!({"id": id}),
        )
        .await
        .ok();
        assert_eq!(app.stored_files(), 0);
        app.post(
            "/media.merchant_much_resource/resource_group_delete",
            Some(&t),
            json!({"id": gid}),
        )
        .await
        .ok();
    }
}

#[tokio::test]
async fn unreadable_media_fails_ingest_with_its_reason() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let r = app
        .upload(
            "/bpdr.merchant_mediainfo/upload",
            &t,
            &[("type", "music")],
            "tone.mp3",
            ffmpeg_bytes(&["-f", "lavfi", "-i", "sine=f=300", "-t", "1"], "mp3"),
        )
        .await;
    let id = r.ok()["id"].as_i64().unwrap();
    // Corrupt the stored file behind the upload's back: the job must fail with ffmpeg's reason.
    let key: String = sqlx::query_scalar("SELECT storage_key FROM media_files WHERE id = $1")
        .bind(id)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    std::fs::write(
        app.files.path.join("media").join(&key),
        b"ID3 garbage garbage",
    )
    .unwrap();
    let mut row = json!(null);
    for _ in 0..300 {
        row = app
            .get_q(
                "/media.merchant_producing_upfile/music_index",
                Some(&t),
                json!({}),
            )
            .await
            .ok()["rows"][0]
            .clone();
        if row["state"] == "failed" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(row["state"], "failed", "{row}");
    assert!(!row["error"].as_str().unwrap().is_empty());
    let admin = app.admin().await;
    let jobs = app
        .get_q(
            "/system/tasks/index",
            Some(&admin),
            json!({"kind": domain::jobs::JobKind::MediaIngest}),
        )
        .await;
    assert_eq!(jobs.ok()["rows"][0]["state"], "dead");
}

#[tokio::test]
async fn a_resumable_upload_survives_a_dropped_connection() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    // About 6 MB: two chunks of 5 MiB.
    let v = video("3", &["-b:v", "40M", "-maxrate", "40M", "-bufsize", "40M"]);
    assert!(v.len() > 5 * 1024 * 1024, "{}", v.len());
    let p = app
        .post(
            "/ajax/ossUpload",
            Some(&t),
            json!({"file_name": "long take.mp4", "size": v.len(), "library": "resource"}),
        )
        .await;
    let p = p.ok().clone();
    let id = p["upload_id"].as_str().unwrap().to_string();
    assert_eq!(p["total_chunks"], 2);
    assert!(p["signature"].as_str().unwrap().len() == 64);
    app.post(
        "/ajax/ossUpload",
        Some(&t),
        json!({"file_name": "huge.mp4", "size": 301i64 * 1024 * 1024, "library": "resource"}),
    )
    .await
    .expect(422);
    let chunk = |i: usize| {
        let cs = 5 * 1024 * 1024;
        v[i * cs..((i + 1) * cs).min(v.len())].to_vec()
    };
    let send = |i: usize, bytes: Vec<u8>| {
        let form = reqwest::multipart::Form::new().part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name("blob"),
        );
        app.http
            .post(app.url(&format!("/api/ajax/upload_chunk?upload_id={id}&index={i}")))
            .bearer_auth(&t)
            .multipart(form)
            .send()
    };
    assert_eq!(send(0, chunk(0)).await.unwrap().status(), 200);
    // The connection drops mid-chunk: the short chunk is refused and not counted.
    assert_eq!(
        send(1, chunk(1)[..1000].to_vec()).await.unwrap().status(),
        422
    );
    let r = app
        .post_en("/ajax/add_upfile", Some(&t), json!({"upload_id": id}))
        .await;
    assert_eq!(
        (r.status, r.message()),
        (422, "The upload is not complete: 1 chunks missing")
    );
    // After a reload the page asks what is there, and sends only what is missing.
    let s = app
        .get_q("/ajax/getYunData", Some(&t), json!({"upload_id": id}))
        .await;
    assert_eq!(s.ok()["upload"]["received"], json!([0]));
    assert_eq!(send(1, chunk(1)).await.unwrap().status(), 200);
    let r = app
        .post("/ajax/add_upfile", Some(&t), json!({"upload_id": id}))
        .await;
    let d = r.ok();
    assert_eq!(d["fileName"], "long take.mp4");
    assert_eq!(d["size"].as_i64().unwrap() as usize, v.len());
    let got = app
        .http
        .get(app.url(d["src"].as_str().unwrap()))
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert!(got.as_ref() == v.as_slice(), "reassembled file differs");
    // The session is spent.
    app.post("/ajax/add_upfile", Some(&t), json!({"upload_id": id}))
        .await
        .expect(422);
}

#[tokio::test]
async fn merchant_b_cannot_reach_merchant_a_materials() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let a = app.demo().await;
        let bt = app.second_merchant(&admin, "rival").await;
        let gid = app
            .post(
                "/media.merchant_much_resource/resource_group_add",
                Some(&a),
                json!({"name": "A"}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        let id = app
            .upload(
                "/bpdr.merchant_mediainfo/upload",
                &a,
                &[("type", "image")],
                "a.png",
                png(),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        let cid = app
            .post(
                "/media.merchant_much_resource/resource_add_classify",
                Some(&a),
                json!({"name": "C"}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        for (path, body) in [
            (
                "/media.merchant_much_resource/resource_detail",
                json!({"id": id}),
            ),
            (
                "/media.merchant_much_resource/resource_delete",
                json!({"id": id}),
            ),
            (
                "/media.merchant_producing_upfile/delete",
                json!({"ids": [id]}),
            ),
            ("/ajax/edit_upfile", json!({"id": id, "name": "x"})),
            (
                "/media.merchant_much_resource/edit_resource_group_name",
                json!({"id": gid, "name": "x"}),
            ),
            (
                "/media.merchant_much_resource/resource_group_delete",
                json!({"id": gid, "confirm": true}),
            ),
            (
                "/media.merchant_much_resource/resource_add",
                json!({"group_id": gid, "ids": [id]}),
            ),
            (
                "/media.merchant_much_resource/edit_classify_name",
                json!({"id": cid, "name": "x"}),
            ),
            (
                "/media.merchant_much_resource/resource_delete_classify",
                json!({"id": cid}),
            ),
        ] {
            app.post(path, Some(&bt), body).await.expect(404);
        }
        // B's own group cannot take A's file either.
        let bg = app
            .post(
                "/media.merchant_much_resource/resource_group_add",
                Some(&bt),
                json!({"name": "B"}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/media.merchant_much_resource/resource_add",
            Some(&bt),
            json!({"group_id": bg, "ids": [id]}),
        )
        .await
        .expect(404);
        let r = app
            .upload(
                "/media.merchant_much_resource/add_resource",
                &bt,
                &[("group_id", &gid.to_string())],
                "b.png",
                png(),
            )
            .await;
        assert_eq!(r.status, 404);
        for p in [
            "/media.merchant_producing_upfile/image_index",
            "/media.merchant_much_resource/video_resource_group_index",
            "/media.merchant_much_resource/classify_index",
        ] {
            assert_eq!(
                app.get(p, Some(&bt)).await.ok()["total"]
                    .as_i64()
                    .unwrap_or(0)
                    - if p.contains("group") { 1 } else { 0 },
                0,
                "{p}"
            );
        }
        let r = app
            .get_q(
                "/media.merchant_much_resource/resource_detail",
                Some(&a),
                json!({"id": id.to_string()}),
            )
            .await;
        assert_eq!(r.ok()["name"], "a.png");
    }
}

#[tokio::test]
async fn file_types_system_music_and_saving_into_libraries() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let t = app.demo().await;
        // File types.
        app.post(
            "/bpdr.merchant_file_type/add",
            Some(&t),
            json!({"type": "sound", "name": "x"}),
        )
        .await
        .expect(422);
        app.post(
            "/bpdr.merchant_file_type/add",
            Some(&t),
            json!({"type": "audio", "name": ""}),
        )
        .await
        .expect(422);
        let pop = app
            .post(
                "/bpdr.merchant_file_type/add",
                Some(&t),
                json!({"type": "audio", "name": "Pop"}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        let r = app
            .call(
                "POST",
                "/media.merchant_file_type/add?type=image",
                Some(&t),
                Some(json!({"name": "Banners"})),
                "en",
            )
            .await;
        let banners = r.ok()["id"].as_i64().unwrap();
        app.post(
            "/bpdr.merchant_file_type/add",
            Some(&t),
            json!({"type": "image", "name": "Wide", "parent_id": banners}),
        )
        .await
        .ok();
        let tree = app
            .get("/bpdr.merchant_file_type/image_tree", Some(&t))
            .await;
        assert_eq!(tree.ok()[0]["children"][0]["name"], "Wide");
        assert_eq!(
            app.get("/bpdr.merchant_file_type/audio_index", Some(&t))
                .await
                .ok()["total"],
            1
        );
        app.post(
            "/bpdr.merchant_file_type/edit",
            Some(&t),
            json!({"id": pop, "name": "Pop 2"}),
        )
        .await
        .ok();
        // Built-in music: operator only to add; everyone signed in to browse; copy into my library.
        let tone = ffmpeg_bytes(&["-f", "lavfi", "-i", "sine=f=500", "-t", "1"], "mp3");
        assert_eq!(
            app.upload(
                "/system/music/add",
                &t,
                &[("name", "Tone")],
                "tone.mp3",
                tone.clone()
            )
            .await
            .status,
            403
        );
        let r = app
            .upload(
                "/system/music/add",
                &admin,
                &[("name", "Tone"), ("category", "calm")],
                "tone.mp3",
                tone,
            )
            .await;
        let sid = r.ok()["id"].as_i64().unwrap();
        let list = app
            .get(
                "/media.merchant_producing_upfile/system_music_index",
                Some(&t),
            )
            .await;
        assert_eq!(list.ok()["rows"][0]["name"], "Tone");
        let src = list.data()["rows"][0]["src"].as_str().unwrap().to_string();
        assert_eq!(
            app.http.get(app.url(&src)).send().await.unwrap().status(),
            200
        );
        let r = app
            .post(
                "/clip.merchant_music_library/save",
                Some(&t),
                json!({"system_music_id": sid, "file_type_id": pop}),
            )
            .await;
        assert_eq!(
            (
                r.ok()["library"].as_str(),
                r.data()["file_type_id"].as_i64()
            ),
            (Some("music"), Some(pop))
        );
        assert_eq!(
            app.get("/media.merchant_producing_upfile/music_index", Some(&t))
                .await
                .ok()["total"],
            1
        );
        // An uploaded image kept in the image library; an image cannot go to the music library.
        let img = app
            .upload("/common.tool/project_upload", &t, &[], "p.png", png())
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/clip.merchant_music_library/save",
            Some(&t),
            json!({"id": img}),
        )
        .await
        .expect(422);
        app.post(
            "/clip.merchant_image_library/save",
            Some(&t),
            json!({"id": img, "name": "Poster"}),
        )
        .await
        .ok();
        let l = app
            .get("/media.merchant_producing_upfile/image_index", Some(&t))
            .await;
        assert_eq!(l.ok()["rows"][0]["name"], "Poster");
        // Deleting a type leaves its files uncategorised.
        app.post(
            "/bpdr.merchant_file_type/delete",
            Some(&t),
            json!({"id": pop}),
        )
        .await
        .ok();
        let m = app
            .get("/media.merchant_producing_upfile/music_index", Some(&t))
            .await;
        assert_eq!(m.ok()["rows"][0]["file_type_id"], 0);
        app.post("/system/music/delete", Some(&admin), json!({"id": sid}))
            .await
            .ok();
        assert_eq!(
            app.http.get(app.url(&src)).send().await.unwrap().status(),
            404
        );
    }
}

#[tokio::test]
async fn ingest_progress_is_pushed_as_server_sent_events() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let mut res = app
        .http
        .get(app.url("/api/events"))
        .bearer_auth(&t)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    let id = app
        .upload(
            "/media.merchant_much_resource/add_resource",
            &t,
            &[],
            "c.mp4",
            video("1", &[]),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let mut seen = String::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline && !seen.contains("\"state\":\"ready\"") {
        if let Ok(Ok(Some(chunk))) =
            tokio::time::timeout(std::time::Duration::from_secs(5), res.chunk()).await
        {
            seen.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
    assert!(seen.contains("event: media"), "{seen}");
    assert!(
        seen.contains(&format!("\"id\":{id}")) && seen.contains("\"state\":\"ready\""),
        "{seen}"
    );
    app.get("/events", None).await.expect(401);
}

/// A material's subtitle timeline as its owner `t` reads it.
async fn timeline(app: &TestApp, t: &str, id: i64) -> serde_json::Value {
    app.get_q(
        "/media.merchant_much_resource/get_asr_timeline",
        Some(t),
        json!({"resource_id": id.to_string()}),
    )
    .await
    .ok()
    .clone()
}

#[tokio::test]
async fn subtitles_are_recognized_edited_and_saved() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    if !app.files.path.join("asr").exists() {
        assert!(
            std::env::var("CI").is_err(),
            "the speech-recognition engine must be installed in CI (scripts/install-deps.sh)"
        );
        eprintln!("SKIPPED: speech recognition not installed in data/asr");
        return;
    }
    app.start_worker();
    let t = app.demo().await;
    let wav = std::env::temp_dir().join(format!("cm-asr-{}.wav", store::random_token(5)));
    let st = Command::new("espeak-ng")
        .args(["-v", "en", "-g", "5", "-w"])
        .arg(&wav)
        .arg("The quick brown fox jumps over the lazy dog")
        .status()
        .unwrap();
    assert!(st.success());
    let bytes = std::fs::read(&wav).unwrap();
    let _ = std::fs::remove_file(&wav);
    let up = app
        .upload(
            "/bpdr.merchant_mediainfo/upload",
            &t,
            &[("type", "voice")],
            "fox.wav",
            bytes,
        )
        .await;
    let id = up.ok()["id"].as_i64().unwrap();
    // Only media with sound can be recognized.
    let img = app
        .upload("/common.tool/project_upload", &t, &[], "p.png", png())
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let r = app
        .post_en(
            "/media.merchant_much_resource/asr_add",
            Some(&t),
            json!({"resource_id": img}),
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (422, "This material has no audio to recognize")
    );
    app.post(
        "/media.merchant_much_resource/asr_add",
        Some(&t),
        json!({"resource_id": id, "lang": "fr"}),
    )
    .await
    .expect(422);
    let before = points(&app, &t).await;
    let r = app
        .post(
            "/media.merchant_much_resource/asr_add",
            Some(&t),
            json!({"resource_id": id, "lang": "en"}),
        )
        .await;
    assert_eq!(r.ok()["points"], 1);
    app.post_en(
        "/media.merchant_much_resource/asr_add",
        Some(&t),
        json!({"resource_id": id, "lang": "en"}),
    )
    .await
    .expect(422);
    let mut tl = json!(null);
    for _ in 0..900 {
        tl = timeline(&app, &t, id).await;
        if tl["asr_state"] != "processing" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(tl["asr_state"], "success", "{tl}");
    let text: String = tl["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["content"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let words = |s: &str| {
        s.to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || c.is_whitespace())
            .collect::<String>()
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // Word for word but for at most one word: Whisper's int8 kernels differ by CPU, and on some
    // (AMD EPYC) espeak's "quick" comes back as "weak".
    let d = testkit::word_distance(
        &words(&text),
        &words("The quick brown fox jumps over the lazy dog"),
    );
    assert!(d <= 1, "{d} words differ: {text}");
    assert_eq!(points(&app, &t).await, before - 1);
    // Edit a line, refuse bad timings, save a whole timeline.
    let line = tl["lines"][0].clone();
    let lid = line["id"].as_i64().unwrap();
    let r = app
        .get_q(
            "/media.merchant_much_resource/asr_modify",
            Some(&t),
            json!({"id": lid.to_string(), "field": "content", "value": "A quick fox"}),
        )
        .await;
    assert_eq!(r.ok()["content"], "A quick fox");
    let r = app
        .call(
            "GET",
            "/media.merchant_much_resource/asr_modify",
            Some(&t),
            Some(json!({"id": lid.to_string(), "field": "end", "value": "-1"})),
            "en",
        )
        .await;
    assert_eq!(r.status, 422);
    assert!(
        r.message().starts_with("Invalid subtitle timing"),
        "{}",
        r.message()
    );
    app.post(
        "/media.merchant_much_resource/save_asr_times",
        Some(&t),
        json!({"resource_id": id, "lines": [{"start": 2.0, "end": 1.0, "content": "x"}]}),
    )
    .await
    .expect(422);
    app.post(
        "/media.merchant_much_resource/save_asr_times",
        Some(&t),
        json!({"resource_id": id, "lines": [{"start": 0.5, "end": 99.0, "content": "x"}]}),
    )
    .await
    .expect(422);
    let r = app.post("/media.merchant_much_resource/save_asr_times", Some(&t), json!({"resource_id": id, "lines": [
        {"start": 1.2, "end": 2.0, "content": "second"}, {"start": 0.0, "end": 1.0, "content": "第一句"}]})).await;
    assert_eq!(r.ok()[0]["content"], "第一句");
    let d = app
        .get_q(
            "/media.merchant_much_resource/asr_detail",
            Some(&t),
            json!({"resource_id": id.to_string(), "page": "1", "limit": "1"}),
        )
        .await;
    assert_eq!(
        (
            d.ok()["total"].as_i64(),
            d.data()["rows"][0]["start"].as_f64()
        ),
        (Some(2), Some(0.0))
    );
    let second = timeline(&app, &t, id).await["lines"][1]["id"].clone();
    app.get_q(
        "/media.merchant_much_resource/asr_delete",
        Some(&t),
        json!({"id": second.to_string()}),
    )
    .await
    .ok();
    // Another merchant cannot read or touch these lines.
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "peeker").await;
    app.get_q(
        "/media.merchant_much_resource/get_asr_timeline",
        Some(&other),
        json!({"resource_id": id.to_string()}),
    )
    .await
    .expect(404);
    app.get_q(
        "/media.merchant_much_resource/asr_delete",
        Some(&other),
        json!({"id": lid.to_string()}),
    )
    .await
    .expect(404);
    app.post(
        "/media.merchant_much_resource/save_asr_times",
        Some(&other),
        json!({"resource_id": id, "lines": []}),
    )
    .await
    .expect(404);
    // The recognition job taken again (its worker died before closing it) neither recognizes again
    // over the edited lines nor refunds.
    let edited = timeline(&app, &t, id).await;
    rerun_job(&app, "media.asr").await;
    assert_eq!(timeline(&app, &t, id).await, edited);
    assert_eq!(points(&app, &t).await, before - 1);
}

#[tokio::test]
async fn an_uploaded_image_becomes_the_avatar_with_a_lasting_link() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let up = app
        .upload("/common.tool/project_upload", &t, &[], "me.png", png())
        .await;
    let src = up.ok()["src"].as_str().unwrap().to_string();
    let r = app
        .post(
            "/index/editProfile",
            Some(&t),
            json!({"nickname": "Demo", "avatar": src}),
        )
        .await;
    let avatar = r.ok()["avatar"].as_str().unwrap().to_string();
    assert!(avatar.contains("e=4102444800000"), "{avatar}");
    assert_eq!(
        app.http
            .get(app.url(&avatar))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    app.post(
        "/index/editProfile",
        Some(&t),
        json!({"nickname": "Demo", "avatar": "https://evil.example/x.png"}),
    )
    .await
    .expect(422);
    // Someone else's image cannot be taken as an avatar.
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "imgthief").await;
    app.post(
        "/index/editProfile",
        Some(&other),
        json!({"nickname": "X", "avatar": src}),
    )
    .await
    .expect(422);
    app.post(
        "/index/editProfile",
        Some(&t),
        json!({"nickname": "Demo", "avatar": ""}),
    )
    .await
    .ok();
}

#[tokio::test]
async fn voice_groups_list_their_voice_materials_and_recognition_is_quoted() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let g = app
        .post(
            "/media.merchant_much_resource/resource_group_add",
            Some(&t),
            json!({"name": "Voices", "kind": "broadcast"}),
        )
        .await;
    let gid = g.ok()["id"].as_i64().unwrap();
    assert_eq!(
        app.get(
            "/media.merchant_much_resource/broadcast_resource_group_index",
            Some(&t)
        )
        .await
        .ok()["total"],
        1
    );
    let tone = ffmpeg_bytes(&["-f", "lavfi", "-i", "sine=f=300", "-t", "61"], "mp3");
    let r = app
        .upload(
            "/bpdr.merchant_mediainfo/upload",
            &t,
            &[("type", "voice"), ("group_id", &gid.to_string())],
            "long.mp3",
            tone,
        )
        .await;
    let id = r.ok()["id"].as_i64().unwrap();
    let l = app
        .get_q(
            "/media.merchant_much_resource/broadcast_resource_detail",
            Some(&t),
            json!({"group_id": gid.to_string()}),
        )
        .await;
    assert_eq!(l.ok()["rows"][0]["id"], id);
    let q = app
        .get_q(
            "/media.merchant_much_resource/deduction_point",
            Some(&t),
            json!({"resource_id": id.to_string()}),
        )
        .await;
    assert_eq!(
        (q.ok()["points"].as_i64(), q.data()["enough"].as_bool()),
        (Some(2), Some(true))
    );
    let admin = app.admin().await;
    let other = app.second_merchant(&admin, "quoter").await;
    app.get_q(
        "/media.merchant_much_resource/deduction_point",
        Some(&other),
        json!({"resource_id": id.to_string()}),
    )
    .await
    .expect(404);
}

#[tokio::test]
async fn fonts_must_be_real_truetype_or_opentype() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let fake = [&[0u8, 1, 0, 0, 0, 9][..], &[0u8; 64][..]].concat();
    let r = app
        .upload(
            "/media.merchant_font_style/add",
            &t,
            &[("name", "Fake")],
            "fake.ttf",
            fake,
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (422, "Not a valid TTF/OTF font file")
    );
    let r = app
        .upload(
            "/media.merchant_font_style/add",
            &t,
            &[("name", "Pic")],
            "pic.ttf",
            png(),
        )
        .await;
    assert_eq!(r.status, 422);
    // A real font from the system (fontconfig's own dependency ships DejaVu on Debian).
    let real = walk("/usr/share/fonts".as_ref())
        .into_iter()
        .find(|p| p.extension().is_some_and(|e| e == "ttf"))
        .expect("a .ttf on this machine");
    let r = app
        .upload(
            "/media.merchant_font_style/add",
            &t,
            &[("name", "Body font")],
            "body.ttf",
            std::fs::read(&real).unwrap(),
        )
        .await;
    let id = r.ok()["id"].as_i64().unwrap();
    assert_eq!(r.data()["kind"], "font");
    let all = app.get("/media.merchant_font_style/getAll", Some(&t)).await;
    assert_eq!(all.ok()["rows"][0]["name"], "Body font");
    app.post(
        "/media.merchant_font_style/edit",
        Some(&t),
        json!({"id": id, "name": "Headline"}),
    )
    .await
    .ok();
    let urls = app
        .get("/bpdr.merchant_mediainfo/getFontStyleUrl", Some(&t))
        .await;
    assert_eq!(urls.ok()["rows"][0]["name"], "Headline");
    assert_eq!(
        app.http
            .get(app.url(urls.data()["rows"][0]["src"].as_str().unwrap()))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
    app.post(
        "/media.merchant_font_style/delete",
        Some(&t),
        json!({"id": id}),
    )
    .await
    .ok();
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![];
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p))
            } else {
                out.push(p)
            }
        }
    }
    out.sort();
    out
}

/// A PNG whose header says `w`x`h` (with a valid CRC) over a tiny image body that cannot fill it.
fn png_claiming(w: u32, h: u32) -> Vec<u8> {
    fn crc32(data: &[u8]) -> u32 {
        let mut c = 0xFFFF_FFFFu32;
        for b in data {
            c ^= *b as u32;
            for _ in 0..8 {
                c = if c & 1 == 1 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }
    let mut b = png();
    let mut ihdr = b[12..29].to_vec();
    ihdr[4..8].copy_from_slice(&w.to_be_bytes());
    ihdr[8..12].copy_from_slice(&h.to_be_bytes());
    b[16..24].copy_from_slice(&ihdr[4..12]);
    b[29..33].copy_from_slice(&crc32(&ihdr).to_be_bytes());
    b
}

#[tokio::test]
async fn images_that_do_not_decode_or_are_too_large_are_refused() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let up = "/bpdr.merchant_mediainfo/upload";
    let img = [("type", "image")];
    // Noise does not compress: a picture of some size, so half of it is really missing.
    let noise = ffmpeg_bytes(
        &[
            "-f",
            "lavfi",
            "-i",
            "nullsrc=s=1280x960,format=rgb24,geq=r=random(1)*255:g=random(2)*255:b=random(3)*255",
            "-frames:v",
            "1",
        ],
        "png",
    );
    let jpeg = ffmpeg_bytes(
        &[
            "-f",
            "lavfi",
            "-i",
            "mandelbrot=size=320x240",
            "-frames:v",
            "1",
        ],
        "jpg",
    );
    let cases = [
        ("cut.png", noise[..noise.len() / 2].to_vec()),
        // ffmpeg "decodes" half a JPEG without failing, but says it ran out of data.
        ("cut.jpg", jpeg[..jpeg.len() / 2].to_vec()),
        ("header-only.png", png()[..40].to_vec()),
        ("lying.png", png_claiming(1920, 1080)),
    ];
    for (name, bytes) in cases {
        let r = app.upload(up, &t, &img, name, bytes).await;
        assert_eq!(r.status, 422, "{name}: {}", r.body);
        assert_eq!(r.data()["field"], "file", "{name}");
        assert_eq!(
            r.message(),
            "The image is damaged or cannot be decoded",
            "{name}"
        );
    }
    let r = app
        .upload(up, &t, &img, "huge.png", png_claiming(30000, 30000))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.data()["field"], "file");
    assert_eq!(
        r.message(),
        "The image is 30000x30000: at most 40 megapixels and 16384 pixels a side are accepted"
    );
    // The chunked upload checks the same way.
    let bad = png_claiming(30000, 30000);
    let p = app
        .post(
            "/ajax/ossUpload",
            Some(&t),
            json!({"file_name": "huge.png", "size": bad.len(), "library": "resource"}),
        )
        .await;
    let upload_id = p.ok()["upload_id"].as_str().unwrap().to_string();
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bad).file_name("blob"),
    );
    let res = app
        .http
        .post(app.url(&format!(
            "/api/ajax/upload_chunk?upload_id={upload_id}&index=0"
        )))
        .bearer_auth(&t)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let r = app
        .post_en(
            "/ajax/add_upfile",
            Some(&t),
            json!({"upload_id": upload_id}),
        )
        .await;
    assert_eq!(
        (r.status, r.data()["field"].as_str()),
        (422, Some("file")),
        "{}",
        r.body
    );

    assert_eq!(app.stored_files(), 0);
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM media_files")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(rows, 0);
    // A good picture over 1 MB still goes through the upload call, with its real size.
    assert!(noise.len() > 1024 * 1024, "{}", noise.len());
    let d = app.upload(up, &t, &img, "noise.png", noise).await;
    let d = d.ok();
    assert_eq!(
        (d["width"].as_i64(), d["height"].as_i64()),
        (Some(1280), Some(960))
    );
    let d = app.upload(up, &t, &img, "m.jpg", jpeg).await;
    assert_eq!(d.ok()["width"], 320);
}

#[tokio::test]
async fn names_that_reorder_text_are_refused_at_upload_and_rename() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let up = "/bpdr.merchant_mediainfo/upload";
    let img = [("type", "image")];
    // "photo\u{202E}gnp.exe" shows as "photoexe.png".
    for c in [
        '\u{202E}', '\u{202A}', '\u{2066}', '\u{2069}', '\u{200E}', '\u{200F}',
    ] {
        let r = app
            .upload(up, &t, &img, &format!("photo{c}gnp.exe.png"), png())
            .await;
        assert_eq!(r.status, 422, "{c:?}: {}", r.body);
        assert_eq!(r.data()["field"], "file");
        assert_eq!(
            r.message(),
            "file contains characters that change the text direction; remove them and try again"
        );
    }
    let r = app
        .upload(
            up,
            &t,
            &[("type", "image"), ("name", "a\u{202E}b")],
            "ok.png",
            png(),
        )
        .await;
    assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("name")));
    let p = app
        .post_en(
            "/ajax/ossUpload",
            Some(&t),
            json!({"file_name": "x\u{202E}4pm.exe", "size": 10, "library": "resource"}),
        )
        .await;
    assert_eq!(
        (p.status, p.data()["field"].as_str()),
        (422, Some("file_name"))
    );
    assert_eq!(app.stored_files(), 0);

    let id = app.upload(up, &t, &img, "fine.png", png()).await.ok()["id"]
        .as_i64()
        .unwrap();
    let r = app
        .post_en(
            "/ajax/edit_upfile",
            Some(&t),
            json!({"id": id, "name": "invoice\u{202E}fdp.exe"}),
        )
        .await;
    assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("name")));
    let r = app
        .post(
            "/ajax/edit_upfile",
            Some(&t),
            json!({"id": id, "name": "发票.png"}),
        )
        .await;
    r.ok();
}
