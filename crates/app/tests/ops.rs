//! Operating a node: `/readyz` sees the database and the storage, `/metrics` speaks Prometheus text
//! (request latencies, jobs per kind and state, run times, failures by reason), JSON logs when asked,
//! and a node with unusable storage settings refuses to start, saying why.

use crate::common;

use common::*;
use std::process::{Command, Stdio};

#[tokio::test]
async fn readiness_and_metrics_report_the_node_and_the_queue() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let r = app.http.get(app.url("/readyz")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        let v: serde_json::Value = r.json().await.unwrap();
        assert_eq!(
            (
                v["status"].as_str(),
                v["database"].as_str(),
                v["storage"].as_str()
            ),
            (Some("ready"), Some("ok"), Some("ok"))
        );
        // A render waiting, one that died with a reason (no worker runs here).
        let now = domain::now_ms();
        for (state, err) in [("queued", None), ("dead", Some("ffmpeg failed: exit 1"))] {
            sqlx::query(
                "INSERT INTO jobs (kind, state, run_at, last_error, created_at, updated_at) \
                 VALUES ('clip.render', $1, $2, $3, $2, $2)",
            )
            .bind(state)
            .bind(now - 1_000)
            .bind(err)
            .execute(&app.db.pool)
            .await
            .unwrap();
        }
        app.get("/index/dashboard", Some(&app.demo().await)).await;
        let r = app.http.get(app.url("/metrics")).send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/plain")
        );
        let text = r.text().await.unwrap();
        for want in [
            "# TYPE clipmatrix_http_request_duration_seconds histogram",
            "clipmatrix_http_request_duration_seconds_count{method=\"GET\",route=\"/api/index/dashboard\",status=\"2xx\"}",
            "clipmatrix_http_request_duration_seconds_bucket{method=\"GET\",route=\"/readyz\",status=\"2xx\",le=\"+Inf\"}",
            "clipmatrix_jobs{kind=\"clip.render\",state=\"queued\"} 1",
            "clipmatrix_job_oldest_age_seconds{kind=\"clip.render\",state=\"queued\"}",
            "clipmatrix_job_failures{kind=\"clip.render\",state=\"dead\",reason=\"ffmpeg failed\"} 1",
        ] {
            assert!(text.contains(want), "{want} missing from\n{text}");
        }
    }
}

/// A node whose S3 endpoint nobody answers does not start: the message names the cause.
#[tokio::test]
async fn unusable_storage_stops_the_start_with_the_cause() {
    let dir = std::env::temp_dir().join(format!("cm-ops-{}", std::process::id()));
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = dead.local_addr().unwrap().port();
    drop(dead);
    let out = Command::new(env!("CARGO_BIN_EXE_clipmatrix"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("CLIPMATRIX_DATA_DIR", &dir)
        .env_remove("CLIPMATRIX_DATABASE_URL")
        .env("CLIPMATRIX_STORAGE_URL", "s3://media/x")
        .env("CLIPMATRIX_S3_ENDPOINT", format!("http://127.0.0.1:{port}"))
        .env("CLIPMATRIX_S3_ACCESS_KEY_ID", "k")
        .env("CLIPMATRIX_S3_SECRET_ACCESS_KEY", "s")
        .env("CLIPMATRIX_LOG_FORMAT", "json")
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("media storage s3://media/x") && err.contains("cannot be reached"),
        "{err}"
    );
    // Without keys it is refused before any request.
    let out = Command::new(env!("CARGO_BIN_EXE_clipmatrix"))
        .args(["serve", "--listen", "127.0.0.1:0"])
        .env("CLIPMATRIX_DATA_DIR", &dir)
        .env_remove("CLIPMATRIX_DATABASE_URL")
        .env("CLIPMATRIX_STORAGE_URL", "s3://media/x")
        .env_remove("CLIPMATRIX_S3_ACCESS_KEY_ID")
        .env_remove("AWS_ACCESS_KEY_ID")
        .stdout(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("CLIPMATRIX_S3_ACCESS_KEY_ID"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `CLIPMATRIX_LOG_FORMAT=json`: each log line is one JSON object.
#[tokio::test]
async fn json_logs_are_one_object_a_line() {
    let dir = std::env::temp_dir().join(format!("cm-ops-json-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_clipmatrix"))
        .args(["migrate"])
        .env("CLIPMATRIX_DATA_DIR", &dir)
        .env_remove("CLIPMATRIX_DATABASE_URL")
        .env("CLIPMATRIX_LOG_FORMAT", "json")
        .env("RUST_LOG", "debug")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(!lines.is_empty(), "no log lines");
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
        assert!(v["level"].is_string() && v["fields"].is_object(), "{l}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `/metrics` labels requests by route template (never a tapped tag's code or a made-up path), keeps
/// the label sets bounded, and without a token answers only this machine.
#[tokio::test]
async fn metrics_label_by_route_and_stay_on_this_machine_without_a_token() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    for i in 0..200 {
        app.http
            .get(app.url(&format!("/t/TAPCODE{i:04}")))
            .send()
            .await
            .unwrap();
        app.http
            .get(app.url(&format!("/api/madeup{i}/x{i}")))
            .send()
            .await
            .unwrap();
    }
    let r = app.http.get(app.url("/metrics")).send().await.unwrap();
    assert_eq!(r.status(), 200, "this machine reads the figures");
    let text = r.text().await.unwrap();
    assert!(!text.contains("TAPCODE"), "a tag code became a label");
    assert!(!text.contains("madeup"), "a made-up path became a label");
    assert!(text.contains("route=\"/t/{code}\""), "{text}");
    let series = text
        .lines()
        .filter(|l| l.starts_with("clipmatrix_http_request_duration_seconds_count"))
        .count();
    assert!(series < 20, "{series} series from 400 requests");
    // A request a proxy relays came from elsewhere: no token, no figures.
    let r = app
        .http
        .get(app.url("/metrics"))
        .header("x-forwarded-for", "203.0.113.7")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
}
