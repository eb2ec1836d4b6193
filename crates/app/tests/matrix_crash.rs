//! Crash safety of the publisher (issue: "a crash at any point loses nothing and posts nothing
//! twice"): the real `clipmatrix serve` publishes 200 items to a standalone `clipmatrix sandbox`
//! (whose state survives) and is SIGKILLed at random moments and restarted; in the end every item
//! is published exactly once according to the sandbox's own create count. And with a browser: a
//! server killed while its chromium uploads to a creator console leaves no browser behind, and the
//! post goes out once after the restart.

use crate::common;

use common::{copies_of_material, free_port as port, wait_up};
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Server {
    child: Child,
    base: String,
}

impl Server {
    async fn start(data: &std::path::Path, port: u16, platform_base: &str, days: i64) -> Server {
        let child = Command::new(env!("CARGO_BIN_EXE_clipmatrix"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .env("CLIPMATRIX_DATA_DIR", data)
            .env("CLIPMATRIX_DEMO_PASSWORD", testkit::DEMO_PW)
            .env("CLIPMATRIX_ADMIN_PASSWORD", testkit::ADMIN_PW)
            .env("CLIPMATRIX_PLATFORM_BASE", platform_base)
            .env("CLIPMATRIX_SANDBOX_TOKEN", common::SANDBOX_TOKEN)
            .env("CLIPMATRIX_SANDBOX_MOVES_APP_CLOCK", "true")
            .env("CLIPMATRIX_JOB_LEASE_MS", "1500")
            .env_remove("CLIPMATRIX_DATABASE_URL")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        wait_up(&format!("{base}/healthz")).await;
        // The platform clock is per process (it restarts at wall time): move it on, so items are due.
        common::sandbox_client()
            .post(format!("{base}/sandbox/_control/clock"))
            .json(&json!({"advance_ms": days * 86_400_000}))
            .send()
            .await
            .unwrap();
        Server { child, base }
    }
    fn kill(self) {
        // SIGKILL: no shutdown, no flush — as a crash (Drop does it).
        drop(self);
    }
}

impl Drop for Server {
    /// A story that fails midway leaves no server (and, through its pipe, no browser) running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The standalone sandbox, killed when the story ends, whichever way it ends.
struct Sandbox(Child);

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn call(base: &str, path: &str, token: Option<&str>, body: Value) -> Value {
    let mut req = reqwest::Client::new()
        .post(format!("{base}/api{path}"))
        .json(&body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let v: Value = req.send().await.unwrap().json().await.unwrap();
    assert_eq!(v["code"], 200, "{path}: {v}");
    v["data"].clone()
}

async fn login(base: &str, user: &str, pw: &str) -> String {
    let d = call(
        base,
        "/login/auth",
        None,
        json!({"login_type": 1, "username": user, "password": pw, "agree": true}),
    )
    .await;
    d["token"].as_str().unwrap().to_string()
}

/// The operator approves task `tid`, and the server's platform clock moves two days on: its posts
/// are due (the plan's day is the server's tomorrow).
async fn approve_and_make_due(base: &str, tid: i64) {
    let admin = login(base, testkit::ADMIN_USER, testkit::ADMIN_PW).await;
    call(
        base,
        "/system/audit/approve",
        Some(&admin),
        json!({"id": tid}),
    )
    .await;
    common::sandbox_client()
        .post(format!("{base}/sandbox/_control/clock"))
        .json(&json!({"advance_ms": 2 * 86_400_000i64}))
        .send()
        .await
        .unwrap();
}

/// One second of red video uploaded through the API and ingested: the server's database (its
/// SQLite file) and the video's id.
async fn ready_video(base: &str, t: &str, data: &std::path::Path) -> (store::Db, i64) {
    let bytes = {
        let out = data.join("v.mp4");
        let st = Command::new("ffmpeg")
            .args([
                "-y",
                "-loglevel",
                "error",
                "-f",
                "lavfi",
                "-i",
                "color=c=red:s=320x568:r=30",
                "-t",
                "1",
                "-c:v",
                "libx264",
                "-preset",
                "ultrafast",
            ])
            .arg(&out)
            .status()
            .unwrap();
        assert!(st.success());
        std::fs::read(out).unwrap()
    };
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes).file_name("v.mp4"),
    );
    let up: Value = reqwest::Client::new()
        .post(format!(
            "{base}/api/media.merchant_much_resource/add_resource"
        ))
        .bearer_auth(t)
        .multipart(form)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let vid = up["data"]["id"].as_i64().unwrap();
    let db = store::Db::connect(&format!(
        "sqlite://{}",
        data.join("clipmatrix.db").display()
    ))
    .await
    .unwrap();
    for _ in 0..600 {
        let s: String = sqlx::query_scalar("SELECT state FROM media_files WHERE id = $1")
            .bind(vid)
            .fetch_one(&db.pool)
            .await
            .unwrap();
        if s == "ready" {
            break;
        }
        assert_ne!(s, "failed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    (db, vid)
}

#[tokio::test]
async fn killing_the_server_mid_publish_posts_every_item_exactly_once() {
    let data = std::env::temp_dir().join(format!("cm-crash-{}", std::process::id()));
    std::fs::create_dir_all(&data).unwrap();
    // The platform: its own process, so its counts survive our crashes.
    let (sandbox, sb) = common::standalone_sandbox().await;
    let _sandbox = Sandbox(sandbox);
    let app_port = port();
    let mut server = Server::start(&data, app_port, &sb, 1).await;
    let base = server.base.clone();
    let t = login(&base, testkit::DEMO_USER, testkit::DEMO_PW).await;

    // 67 Douyin accounts through the consent page (67 × 3 a day >= 200 posts).
    let http = common::sandbox_client();
    let api = common::cluster::Api {
        http: reqwest::Client::new(),
        base: base.clone(),
    };
    let accounts = api.dy_accounts(&t, 67, "crash").await;
    // 200 videos: one real upload + ingest, then rows sharing its file.
    let (db, vid) = ready_video(&base, &t, &data).await;
    let videos = copies_of_material(&db, vid, 200).await;
    // The server's platform clock runs a day ahead: its today, at 00:00 — a time already passed, so
    // the plan starts on its tomorrow (a release day whose time has passed is not a day to post in).
    let today = domain::matrix::fmt_day(domain::matrix::day_of(domain::now_ms() + 86_400_000));
    let task = call(&base, "/task.merchant_forward_task/dy_add", Some(&t), json!({
        "name": "crash test", "titles": "一起来打卡#周末好去处", "topics": ["探店"], "top_comments": "",
        "mount_type": "none", "time_mode": "timed", "times": ["00:00"], "start_date": today, "days": 1,
        "daily_quantity": 3, "account_ids": accounts, "material_ids": videos,
    }))
    .await;
    let tid = task["task"]["id"].as_i64().unwrap();
    assert_eq!(task["plan"]["count"], 200);
    approve_and_make_due(&base, tid).await;

    // A flaky platform (busy answers, slow creates, failing list reads) keeps posts in flight long
    // enough for the crashes to land mid-publish, also between "create sent" and its answer.
    for f in [
        json!({"call": "dy.create_video", "fault": "busy", "rate": 0.2}),
        json!({"call": "dy.create_video", "fault": "timeout", "rate": 0.15, "hold_ms": 1200}),
        json!({"call": "dy.video_list", "fault": "server_error", "rate": 0.05}),
    ] {
        http.post(format!("{sb}/_control/faults"))
            .json(&f)
            .send()
            .await
            .unwrap();
    }
    // Crash it at random moments while it publishes.
    let counts = |db: store::Db| async move {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT state, COUNT(*) FROM matrix_items GROUP BY state")
                .fetch_all(&db.pool)
                .await
                .unwrap();
        rows
    };
    let mut mid_publish = 0;
    for k in 0..6u64 {
        let ms = 200 + (rand::random::<u64>() % 800) + k * 100;
        tokio::time::sleep(Duration::from_millis(ms)).await;
        let c = counts(db.clone()).await;
        let published: i64 = c
            .iter()
            .filter(|(s, _)| s == "published" || s == "released")
            .map(|(_, n)| n)
            .sum();
        mid_publish += (published < 200) as i32;
        server.kill();
        server = Server::start(&data, app_port, &sb, 3).await;
    }
    assert!(
        mid_publish >= 3,
        "the kills must land while items are still being published"
    );
    http.post(format!("{sb}/_control/faults/clear"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let mut done = false;
    for _ in 0..1200 {
        let c = counts(db.clone()).await;
        let published: i64 = c
            .iter()
            .filter(|(s, _)| s == "published" || s == "released")
            .map(|(_, n)| n)
            .sum();
        assert!(!c.iter().any(|(s, n)| s == "failed" && *n > 0), "{c:?}");
        if published == 200 {
            done = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(done, "not all published: {:?}", counts(db.clone()).await);
    let c = common::cluster::sandbox_counts(&sb).await;
    assert_eq!(
        c["total_creates"], 200,
        "the platform saw each post exactly once: {c}"
    );
    assert!(
        c["creates"]
            .as_object()
            .unwrap()
            .values()
            .all(|n| n.as_i64().unwrap() <= 3),
        "{c}"
    );
    let distinct: i64 = sqlx::query_scalar("SELECT COUNT(DISTINCT item_id) FROM matrix_items")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(distinct, 200);
    server.kill();
    let _ = std::fs::remove_dir_all(&data);
}

/// The worker killed with -9 while its browser uploads to the XHS console (a slow upload): the
/// sidecar closes its browsers when the server's pipe goes away (and a restart sweeps any left),
/// so no chromium of the old server lives on; after the restart the account's lease (held by the
/// dead process) is taken over at once and the item is published exactly once.
#[tokio::test]
async fn killing_the_server_mid_upload_leaves_no_browser_and_posts_once() {
    use platforms::browser::driver::browsers_of;
    let data = std::env::temp_dir().join(format!("cm-crash-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    common::link_browser(&data);
    let profiles = data.join("browser/profiles");
    let (sandbox, sb) = common::standalone_sandbox().await;
    let _sandbox = Sandbox(sandbox);
    let app_port = port();
    let server = Server::start(&data, app_port, &sb, 1).await;
    let base = server.base.clone();
    let t = login(&base, testkit::DEMO_USER, testkit::DEMO_PW).await;
    let http = common::sandbox_client();
    let control = |path: &str, body: Value| {
        let (http, url) = (http.clone(), format!("{sb}/_control/console/xhs/{path}"));
        async move {
            let r = http.post(url).json(&body).send().await.unwrap();
            assert!(r.status().is_success(), "{}", r.status());
            r.json::<Value>().await.unwrap()
        }
    };

    // An XHS account by its console's QR; its uploads take 20 s.
    let q = call(
        &base,
        "/task.merchant_group_user/qr_login",
        Some(&t),
        json!({"platform": "xhs"}),
    )
    .await;
    control("scan", json!({"user": "崩溃红薯"})).await;
    let mut account = None;
    for _ in 0..40 {
        let d = call(
            &base,
            "/task.merchant_group_user/qr_login",
            Some(&t),
            json!({"platform": "xhs", "login_id": q["login_id"]}),
        )
        .await;
        if d["state"] == "logged_in" {
            account = d["account"]["id"].as_i64();
            break;
        }
    }
    let account = account.expect("logged in");
    control(
        "faults",
        json!({"user": "崩溃红薯", "slow_upload_ms": 20_000}),
    )
    .await;

    let (db, vid) = ready_video(&base, &t, &data).await;
    let today = domain::matrix::fmt_day(domain::matrix::day_of(domain::now_ms() + 86_400_000));
    let task = call(&base, "/task.merchant_forward_task/xhs_add", Some(&t), json!({
        "name": "browser crash", "titles": "一起来打卡", "topics": ["探店"], "top_comments": "",
        "mount_type": "none", "time_mode": "timed", "times": ["00:00"], "start_date": today, "days": 1,
        "daily_quantity": 1, "account_ids": [account], "material_ids": [vid],
    }))
    .await;
    let tid = task["task"]["id"].as_i64().unwrap();
    approve_and_make_due(&base, tid).await;
    // The console's clock is the server's (the works list is checked by time).
    http.post(format!("{sb}/_control/clock"))
        .json(&json!({"advance_ms": 3 * 86_400_000i64}))
        .send()
        .await
        .unwrap();

    // The upload is under way in the server's browser: kill the server.
    let received = || {
        let (http, url) = (http.clone(), format!("{sb}/_control/console/xhs/received"));
        async move {
            http.get(url)
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap()
        }
    };
    let mut begun = false;
    for _ in 0..600 {
        if received().await["uploads_begun"].as_i64().unwrap_or(0) > 0 {
            begun = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(begun, "the upload never began");
    let before = browsers_of(&profiles);
    assert!(!before.is_empty(), "a browser uploads");
    server.kill();
    // The sidecar saw its pipe close and closes the browsers: none of them lives on.
    let mut left = before.clone();
    for _ in 0..100 {
        left = browsers_of(&profiles);
        if left.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(left.is_empty(), "orphan browsers after the kill: {left:?}");
    control("faults", json!({"user": "崩溃红薯", "slow_upload_ms": 0})).await;

    // Restarted: the item is published once, the console received one post.
    let server = Server::start(&data, app_port, &sb, 3).await;
    let mut state = String::new();
    for _ in 0..900 {
        let error: String;
        (state, error) =
            sqlx::query_as("SELECT state, error_en FROM matrix_items WHERE task_id = $1")
                .bind(tid)
                .fetch_one(&db.pool)
                .await
                .unwrap();
        if state == "published" || state == "released" {
            break;
        }
        assert_ne!(state, "failed", "{error}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(state == "published" || state == "released", "{state}");
    let got = received().await;
    assert_eq!(
        got["received"].as_array().unwrap().len(),
        1,
        "posted once: {got}"
    );
    server.kill();
    let _ = std::fs::remove_dir_all(&data);
}
