//! Every call in the OpenAPI document, fed junk by a merchant, a staff member with no grants and nobody:
//! never a 500, always the JSON envelope.

use crate::common;
use common::*;
use serde_json::json;

#[tokio::test]
async fn no_call_answers_500_or_a_bare_body_to_junk() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    app.post(
        "/user.merchant_user_sub/add",
        Some(&demo),
        json!({"username":"nobody1","password":"abc12345"}),
    )
    .await
    .ok();
    let staff = app.login(3, "nobody1", "abc12345").await;
    let doc = api::openapi();
    let junk = [
        json!({}),
        json!({"id": "abc", "page": -5, "limit": "x", "ids": "nope", "group_id": {"a": 1}}),
        json!({"id": 99999999, "name": "x".repeat(5000), "filterObj": {"id": "1|="}, "prop": "../../x"}),
        json!({"id": -1, "menu_ids": [-1, "a"], "points": 1e300, "status": 7, "upload_id": "../../etc"}),
        json!([1, 2, 3]),
    ];
    let mut calls = 0;
    for (path, item) in doc.paths.paths.iter() {
        if path == "/events" {
            continue; // an endless stream; covered by the materials tests
        }
        let methods: Vec<&str> = [("GET", item.get.is_some()), ("POST", item.post.is_some())]
            .iter()
            .filter(|(_, on)| *on)
            .map(|(m, _)| *m)
            .collect();
        for m in methods {
            for token in [Some(demo.as_str()), Some(staff.as_str()), None] {
                for body in &junk {
                    let url = app.url(&format!("/api{path}"));
                    let mut req = if m == "GET" {
                        app.http.get(&url)
                    } else {
                        app.http.post(&url).json(body)
                    };
                    if let Some(t) = token {
                        req = req.bearer_auth(t);
                    }
                    if m == "GET" {
                        req = req.query(&[("id", "abc"), ("page", "-1"), ("filterObj", "{bad")]);
                    }
                    let res = req.send().await.unwrap();
                    let status = res.status().as_u16();
                    let text = res.text().await.unwrap();
                    calls += 1;
                    assert!(status < 500, "{m} {path} -> {status}: {text}");
                    // WeChat's push URL answers WeChat in its own plain text ("success", or 403).
                    if path != "/openapi.json" && path != "/docs" && path != "/msg.wxgzh/callback" {
                        let v: serde_json::Value = serde_json::from_str(&text)
                            .unwrap_or_else(|_| panic!("{m} {path} -> not JSON: {text}"));
                        assert!(v["code"].is_number(), "{m} {path} -> {text}");
                    }
                }
            }
        }
    }
    assert!(calls > 500, "{calls}");
}

/// Sends only the headers of a POST that announces `length` bytes, and reads what the server answers
/// (it must answer before any of the body arrives).
async fn announce(
    app: &TestApp,
    path: &str,
    token: &str,
    length: usize,
) -> (u16, serde_json::Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    let head = format!(
        "POST /api{path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {token}\r\naccept-language: en\r\n\
         content-type: application/json\r\ncontent-length: {length}\r\nconnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    // A server that waits for the body instead of refusing it never answers: fail, do not hang.
    tokio::time::timeout(std::time::Duration::from_secs(20), s.read_to_end(&mut out))
        .await
        .unwrap_or_else(|_| panic!("{path}: no answer before the body"))
        .unwrap();
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").unwrap().1;
    (
        status,
        serde_json::from_str(body).unwrap_or_else(|_| panic!("{text}")),
    )
}

#[tokio::test]
async fn json_bodies_are_capped_and_answer_413() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    // A materials call (the upload router's neighbours) and one elsewhere; 50 MB announced.
    for path in [
        "/media.merchant_much_resource/resource_group_add",
        "/ajax/edit_upfile",
        "/user.merchant_user_sub/add",
    ] {
        let (status, body) = announce(&app, path, &t, 50 * 1024 * 1024).await;
        assert_eq!(status, 413, "{path}: {body}");
        assert_eq!(body["code"], 413);
        assert_eq!(
            body["message"],
            "The request is too large: parameters are limited to 1 MB; send files with an upload"
        );
    }
    // Just under the cap is read as usual (and refused for its content, not its size).
    let pad = "x".repeat(1024 * 1024 - 100);
    let r = app
        .post_en(
            "/media.merchant_much_resource/resource_group_add",
            Some(&t),
            json!({"name": "", "pad": pad}),
        )
        .await;
    assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("name")));
}

#[tokio::test]
async fn type_errors_name_the_field() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let r = app
        .post_en(
            "/ajax/edit_upfile",
            Some(&t),
            json!({"id": "abc", "name": "x"}),
        )
        .await;
    r.expect(422);
    assert_eq!(r.data()["field"], "id");
    assert!(
        r.message().starts_with("id is invalid: invalid type"),
        "{}",
        r.message()
    );
    let r = app
        .post("/ajax/edit_upfile", Some(&t), json!({"id": 1, "name": 5}))
        .await;
    r.expect(422);
    assert_eq!(r.data()["field"], "name");
    assert!(r.message().starts_with("名称 的值无效"), "{}", r.message());
    // The query string too.
    let r = app
        .get_q(
            "/media.merchant_much_resource/resource_detail",
            Some(&t),
            json!({"id": "abc"}),
        )
        .await;
    assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("id")));
}

#[tokio::test]
async fn pages_and_files_refuse_sniffing_and_framing() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    let png = ffmpeg_bytes(
        &["-f", "lavfi", "-i", "testsrc2=size=64x64", "-frames:v", "1"],
        "png",
    );
    let up = app
        .upload("/common.tool/project_upload", &t, &[], "p.png", png)
        .await;
    let src = up.ok()["src"].as_str().unwrap().to_string();
    for path in [
        "/",
        "/login",
        "/api/login/index",
        &src,
        "/healthz",
        "/files/1/x",
    ] {
        let res = app.http.get(app.url(path)).send().await.unwrap();
        let h = res.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(
            h["content-security-policy"], "frame-ancestors 'none'",
            "{path}"
        );
    }
    // The sandbox stands in for the platforms' own pages: left as it was.
    let res = app.http.get(app.url("/sandbox/")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers().get("x-frame-options").is_none());
}

/// A page near i64::MAX wrapped the offset (SQLite answered page 1) and 32,766 filter values overflowed
/// SQLite's bound parameters (500): both answer 422 naming the field, in the caller's language.
#[tokio::test]
async fn list_paging_and_filter_sizes_out_of_range_answer_422() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let values = (0..32_766)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let cases = [
        (json!({"page": i64::MAX}), "page"),
        (json!({"page": i64::MAX.to_string(), "limit": 50}), "page"),
        (json!({"limit": 0}), "limit"),
        (json!({"pageSize": 100_000}), "pageSize"),
        (
            json!({"filterObj": {"status": format!("{values}|include")}}),
            "status",
        ),
        (
            json!({"filterObj": {"method": format!("{values}|notinclude")}}),
            "method",
        ),
    ];
    for (body, field) in cases {
        let r = app.post("/index/log", Some(&demo), body.clone()).await;
        r.expect(422);
        assert_eq!(r.data()["field"], field, "{body}");
        assert!(!r.message().is_ascii(), "zh message: {}", r.message());
        let en = app.post_en("/index/log", Some(&demo), body.clone()).await;
        en.expect(422);
        assert!(en.message().contains(field), "{}", en.message());
    }
    // The edges still work.
    app.post(
        "/index/log",
        Some(&demo),
        json!({"page": 1_000_000, "limit": 1000}),
    )
    .await
    .ok();
    let some = (0..200)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    app.post(
        "/index/log",
        Some(&demo),
        json!({"filterObj": {"status": format!("{some}|include")}}),
    )
    .await
    .ok();
}
