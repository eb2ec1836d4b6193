//! What a crash leaves behind: the server's ffmpeg children die with it (they ran on to the end after
//! `kill -9`), and the cleanup job removes the temporary files, upload parts and prep folders no live
//! job or upload owns (250 MB piled up in the temporary folder after three kills).

use crate::common;
use common::*;
use serde_json::json;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `(state, parent pid)` of a process from /proc, `None` once it is gone.
fn proc_stat(pid: u32) -> Option<(char, u32)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
    let rest = &s[s.rfind(')')? + 2..];
    let mut f = rest.split_whitespace();
    Some((f.next()?.chars().next()?, f.next()?.parse().ok()?))
}

fn children_of(parent: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| proc_stat(*pid).is_some_and(|(_, ppid)| ppid == parent))
        .collect()
}

fn alive(pid: u32) -> bool {
    proc_stat(pid).is_some_and(|(state, _)| state != 'Z' && state != 'X')
}

/// The real binary ingests an upload with an "ffmpeg" that never finishes (a stand-in on PATH that
/// sleeps; ffprobe is the real one); the server is SIGKILLed; its child must be gone.
#[tokio::test]
async fn killing_the_server_kills_its_ffmpeg() {
    let work = tempdir::TempDir::new();
    let tools = work.path.join("bin");
    std::fs::create_dir_all(&tools).unwrap();
    let real_ffprobe = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v ffprobe"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let script = |name: &str, body: &str| {
        use std::os::unix::fs::PermissionsExt;
        let p = tools.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    script("ffmpeg", "exec sleep 300");
    script("ffprobe", &format!("exec {} \"$@\"", real_ffprobe.trim()));
    let video = clip("red", "1");

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = Command::new(env!("CARGO_BIN_EXE_clipmatrix"))
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("CLIPMATRIX_DATA_DIR", work.path.join("data"))
        .env("CLIPMATRIX_DEMO_PASSWORD", DEMO_PW)
        .env("CLIPMATRIX_ADMIN_PASSWORD", ADMIN_PW)
        .env(
            "PATH",
            format!("{}:{}", tools.display(), std::env::var("PATH").unwrap()),
        )
        .env_remove("CLIPMATRIX_DATABASE_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !http
        .get(format!("{base}/healthz"))
        .send()
        .await
        .is_ok_and(|r| r.status().is_success())
    {
        assert!(Instant::now() < deadline, "server did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let answer = |req: reqwest::RequestBuilder| async move {
        let v: serde_json::Value = req.send().await.unwrap().json().await.unwrap();
        v
    };
    let login =
        answer(http.post(format!("{base}/api/login/auth")).json(
            &json!({"login_type": 1, "username": "demo", "password": DEMO_PW, "agree": true}),
        ))
        .await;
    let token = login["data"]["token"].as_str().unwrap().to_string();
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(video).file_name("red.mp4"),
    );
    let up = answer(
        http.post(format!(
            "{base}/api/media.merchant_much_resource/add_resource"
        ))
        .bearer_auth(&token)
        .multipart(form),
    )
    .await;
    assert_eq!(up["code"], 200, "{up}");

    // The ingest starts "ffmpeg" (the stand-in becomes `sleep`): wait for it to appear.
    let child = loop {
        let comm =
            |pid: u32| std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        if let Some(pid) = children_of(server.id())
            .into_iter()
            .find(|p| alive(*p) && comm(*p).trim() == "sleep")
        {
            break pid;
        }
        assert!(Instant::now() < deadline, "no ffmpeg child started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    server.kill().unwrap(); // SIGKILL: no shutdown code runs
    server.wait().unwrap();
    let gone_by = Instant::now() + Duration::from_secs(10);
    while alive(child) && Instant::now() < gone_by {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let survived = alive(child);
    if survived {
        let _ = Command::new("kill")
            .args(["-9", &child.to_string()])
            .status();
    }
    assert!(!survived, "ffmpeg child {child} outlived the killed server");
}

/// The cleanup removes temp files no live work owns and keeps those of a running job, a live chunked
/// upload and a rendering project, on both databases.
#[tokio::test]
async fn cleanup_removes_orphaned_temp_files_and_keeps_live_work() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let demo = app.demo().await;
        let now = domain::now_ms();
        let min = 60_000;
        // A chunked upload in progress, and a running job created 2 h ago (its heartbeat is fresh).
        let policy = app
            .post(
                "/ajax/ossUpload",
                Some(&demo),
                json!({"file_name": "big.mp4", "size": 20_000_000, "library": "resource"}),
            )
            .await;
        let upload_id = policy.ok()["upload_id"].as_str().unwrap().to_string();
        sqlx::query(
            "INSERT INTO jobs (kind, payload, state, run_at, heartbeat_at, created_at, updated_at) \
             VALUES ($3, '{}', 'running', $1, $2, $1, $2)",
        )
        .bind(now - 120 * min)
        .bind(now - min)
        .bind(domain::jobs::JobKind::ClipRender.as_str())
        .execute(&app.db.pool)
        .await
        .unwrap();
        let storage = &app.state.storage;
        let tmp = storage.workspace().root().join("tmp");
        let put = |p: std::path::PathBuf, age_min: i64| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let f = std::fs::File::create(&p).unwrap();
            f.set_modified(
                std::time::UNIX_EPOCH + Duration::from_millis((now - age_min * min) as u64),
            )
            .unwrap();
            p
        };
        let crashed = [
            put(tmp.join("crashed-render.mp4"), 300),
            put(tmp.join(".mix-1-2-crashed").join("seg.ts"), 300),
            put(storage.upload_part("abandoned"), 300),
            put(storage.prep_dir(999, "old").join("bed.m4a"), 300),
        ];
        let live = [
            put(tmp.join("running-job.mp4"), 90),
            put(tmp.join("just-written.jpg"), 5),
            put(storage.upload_part(&upload_id), 300),
        ];
        let swept = services::system::maintenance::sweep_media(&app.db, storage, now)
            .await
            .unwrap();
        assert_eq!(swept.entries, 4);
        for p in &crashed {
            assert!(!p.exists(), "{} should be gone", p.display());
        }
        for p in &live {
            assert!(p.exists(), "{} should stay", p.display());
        }
        // Once the job is over and the upload expired, their files go too.
        sqlx::query("UPDATE jobs SET state = 'done'")
            .execute(&app.db.pool)
            .await
            .unwrap();
        let later = now + 25 * 60 * min;
        services::system::maintenance::sweep_media(&app.db, storage, later)
            .await
            .unwrap();
        assert_eq!(app.temp_files(), 0);
    }
}
