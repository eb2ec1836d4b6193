//! Fault injection through the control API, and how each fault reaches the product as an
//! `ErrorKind` with a zh/en reason. Plus the signed, sometimes duplicated create_video webhook.

mod common;

use axum::Router;
use axum::body::Bytes;
use axum::http::HeaderMap;
use axum::routing::post;
use common::*;
use platforms::{Adapter, Creds, ErrorKind, Platform, PlatformError, PublishReq, adapter, sandbox};
use serde_json::{Value, json};
use sha1::{Digest, Sha1};
use std::sync::{Arc, Mutex};

async fn dy_account(s: &Sbx, dy: &Arc<dyn Adapter>, nick: &str) -> Creds {
    let q = s
        .consent(
            &dy.authorize_url("http://app.test/callback", "s").unwrap(),
            nick,
            true,
        )
        .await;
    let t = dy.exchange_code(get(&q, "code").unwrap()).await.unwrap();
    Creds {
        open_id: t.open_id,
        token: t.access_token,
        ..Default::default()
    }
}

fn req(title: &str, path: std::path::PathBuf) -> PublishReq {
    PublishReq {
        video_path: path,
        title: title.into(),
        ..PublishReq::default()
    }
}

fn assert_err(e: &PlatformError, kind: ErrorKind, code: &str) {
    assert_eq!(e.kind, kind, "{e:?}");
    assert_eq!(e.code, code, "{e:?}");
    assert!(
        !e.zh.is_empty() && !e.en.is_empty() && e.zh != e.en,
        "{e:?}"
    );
    assert!(
        e.zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "zh reason is Chinese: {e:?}"
    );
}

#[tokio::test]
async fn every_dy_fault_maps_to_its_kind() {
    let s = start(|_| {}).await;
    let mut ep = s.endpoint(Platform::Dy);
    ep.timeout_ms = 400;
    let dy = adapter(Platform::Dy, ep).unwrap();
    let c = dy_account(&s, &dy, "故障用户").await;
    let f = temp_file("f.mp4", 1000);
    let vid = dy.upload(&c, &req("", f.clone())).await.unwrap();

    let cases: &[(&str, ErrorKind, &str, &str)] = &[
        ("expired_token", ErrorKind::TokenExpired, "2190008", "过期"),
        ("rate_limit", ErrorKind::Retryable, "28003018", "限流"),
        ("quota", ErrorKind::Permanent, "2190001", "额度"),
        ("daily_cap", ErrorKind::Permanent, "2114007", "今日发布"),
        ("sensitive_word", ErrorKind::Permanent, "2111001", "敏感词"),
        ("oversize", ErrorKind::Permanent, "2190005", "过大"),
        ("too_long", ErrorKind::Permanent, "2190006", "时长"),
        ("missing_chunk", ErrorKind::Retryable, "2190004", "分片"),
        ("busy", ErrorKind::Retryable, "2100004", "繁忙"),
        (
            "server_error",
            ErrorKind::Retryable,
            "http_500",
            "服务器错误",
        ),
        (
            "open_id_mismatch",
            ErrorKind::Reauthorize,
            "2190015",
            "不匹配",
        ),
    ];
    for (fault, kind, code, zh) in cases {
        s.control(
            "faults",
            json!({"call": "dy.create_video", "fault": fault, "count": 1}),
        )
        .await;
        let e = dy
            .create(&c, &vid, &req("正常标题", f.clone()))
            .await
            .unwrap_err();
        assert_err(&e, *kind, code);
        assert!(e.zh.contains(zh), "{fault}: {e:?}");
        // count = 1: the next call goes through.
        dy.create(&c, &vid, &req("正常标题", f.clone()))
            .await
            .unwrap();
    }
    assert_eq!(s.counts().await["total_creates"], cases.len());

    // Timeout: the sandbox holds the answer longer than the client waits.
    s.control(
        "faults",
        json!({"call": "dy.video_list", "fault": "timeout", "count": 1, "hold_ms": 1500}),
    )
    .await;
    let t0 = std::time::Instant::now();
    let e = dy.list_works(&c, 5).await.unwrap_err();
    assert_err(&e, ErrorKind::Retryable, "timeout");
    assert!(t0.elapsed() < std::time::Duration::from_millis(1400));

    // OAuth calls: a failed refresh means authorizing again.
    s.control(
        "faults",
        json!({"platform": "dy", "call": "refresh_token", "fault": "expired_token", "count": 1}),
    )
    .await;
    let tokens = platforms::TokenSet {
        open_id: c.open_id.clone(),
        refresh_token: "rft.whatever".into(),
        refresh_expires_at: s.now() + 20 * DAY,
        ..Default::default()
    };
    assert_err(
        &dy.refresh(&tokens).await.unwrap_err(),
        ErrorKind::Reauthorize,
        "10010",
    );

    // Rate: probability 1.0 hits every call until cleared; open_id filters accounts.
    s.control(
        "faults",
        json!({"call": "dy.upload_video", "fault": "busy", "rate": 1.0, "open_id": c.open_id}),
    )
    .await;
    for _ in 0..3 {
        assert_err(
            &dy.upload(&c, &req("", f.clone())).await.unwrap_err(),
            ErrorKind::Retryable,
            "2100004",
        );
    }
    let other = dy_account(&s, &dy, "别的用户").await;
    dy.upload(&other, &req("", f.clone())).await.unwrap();
    s.control("faults/clear", json!({})).await;
    dy.upload(&c, &req("", f.clone())).await.unwrap();

    // Killing the token from the control API.
    s.control("expire", json!({"platform": "dy", "open_id": c.open_id}))
        .await;
    assert_err(
        &dy.list_works(&c, 1).await.unwrap_err(),
        ErrorKind::TokenExpired,
        "2190008",
    );
}

#[tokio::test]
async fn network_errors_are_retryable() {
    // Nothing listens on this port.
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    drop(l);
    let ep = platforms::Endpoint::new(
        format!("http://{addr}/dy"),
        platforms::AppCreds {
            client_key: "k".into(),
            client_secret: "s".into(),
        },
    );
    let e = adapter(Platform::Dy, ep)
        .unwrap()
        .exchange_code("c")
        .await
        .unwrap_err();
    assert_err(&e, ErrorKind::Retryable, "network");
}

#[tokio::test]
async fn other_platforms_render_faults_in_their_format() {
    let s = start(|_| {}).await;
    // BJH
    let bjh = adapter(Platform::Bjh, s.endpoint(Platform::Bjh)).unwrap();
    let bc = Creds {
        open_id: "app1".into(),
        token: BJH_TOKEN.clone(),
        ..Default::default()
    };
    let r = PublishReq {
        video_url: "https://cdn.test/v.mp4".into(),
        title: "百家号视频".into(),
        ..Default::default()
    };
    for (fault, kind, code) in [
        ("daily_cap", ErrorKind::Permanent, "60001008"),
        ("rate_limit", ErrorKind::Retryable, "60001010"),
        ("expired_token", ErrorKind::Reauthorize, "60001001"),
        ("sensitive_word", ErrorKind::Permanent, "60001013"),
    ] {
        s.control(
            "faults",
            json!({"call": "bjh.publish", "fault": fault, "count": 1}),
        )
        .await;
        assert_err(
            &bjh.create(&bc, &r.video_url, &r).await.unwrap_err(),
            kind,
            code,
        );
    }
    // KS
    let f = temp_file("k.mp4", 500);
    let ks = adapter(Platform::Ks, s.endpoint(Platform::Ks)).unwrap();
    let q = s
        .consent(
            &ks.authorize_url("http://app.test/callback", "k").unwrap(),
            "快手测试",
            true,
        )
        .await;
    let t = ks.exchange_code(get(&q, "code").unwrap()).await.unwrap();
    let kc = Creds {
        open_id: t.open_id,
        token: t.access_token,
        ..Default::default()
    };
    let up = ks.upload(&kc, &req("", f.clone())).await.unwrap();
    for (fault, kind, code) in [
        ("expired_token", ErrorKind::TokenExpired, "100200103"),
        ("quota", ErrorKind::Permanent, "100200106"),
        ("open_id_mismatch", ErrorKind::Reauthorize, "100200112"),
    ] {
        s.control(
            "faults",
            json!({"call": "ks.publish", "fault": fault, "count": 1}),
        )
        .await;
        assert_err(
            &ks.create(&kc, &up, &req("快手标题", f.clone()))
                .await
                .unwrap_err(),
            kind,
            code,
        );
    }
    ks.create(&kc, &up, &req("快手标题", f)).await.unwrap();
    let c = s.counts().await;
    assert_eq!(c["total_creates"], 1);
}

#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<(String, Bytes)>>>);

async fn receiver() -> (String, Received) {
    let got = Received::default();
    let g = got.clone();
    let app = Router::new().route(
        "/hook",
        post(move |h: HeaderMap, body: Bytes| {
            let g = g.clone();
            async move {
                let sig = h
                    .get("x-douyin-signature")
                    .map(|v| v.to_str().unwrap().to_string())
                    .unwrap_or_default();
                g.0.lock().unwrap().push((sig, body));
                "ok"
            }
        }),
    );
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/hook", l.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    (url, got)
}

async fn wait_for(got: &Received, n: usize) -> Vec<(String, Bytes)> {
    for _ in 0..100 {
        if got.0.lock().unwrap().len() >= n {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // A little longer, to catch deliveries beyond n.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    got.0.lock().unwrap().clone()
}

#[tokio::test]
async fn webhook_is_signed_and_sometimes_duplicated() {
    let (url, got) = receiver().await;
    let s = start(|c| {
        c.webhook_url = Some(url.clone());
        c.webhook_duplicate_rate = 1.0;
    })
    .await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let c = dy_account(&s, &dy, "回调用户").await;
    let f = temp_file("w.mp4", 1000);
    let vid = dy.upload(&c, &req("", f.clone())).await.unwrap();
    let item = dy.create(&c, &vid, &req("回调", f.clone())).await.unwrap();

    let all = wait_for(&got, 2).await;
    assert_eq!(all.len(), 2, "delivered twice at rate 1.0");
    assert_eq!(all[0].1, all[1].1, "the duplicate is byte-identical");
    for (sig, body) in &all {
        let mut h = Sha1::new();
        h.update(DY_SECRET.as_bytes());
        h.update(body);
        assert_eq!(
            sig,
            &hex::encode(h.finalize()),
            "X-Douyin-Signature = sha1(secret + body)"
        );
        let v: Value = serde_json::from_slice(body).unwrap();
        assert_eq!(v["event"], "create_video");
        assert_eq!(v["client_key"], sandbox::SANDBOX_DY_KEY);
        assert_eq!(v["from_user_id"], c.open_id);
        assert_eq!(v["content"]["item_id"], item);
    }
    // A tampered body would not verify.
    let mut h = Sha1::new();
    h.update(DY_SECRET.as_bytes());
    h.update(b"{}");
    assert_ne!(all[0].0, hex::encode(h.finalize()));

    s.control("webhook", json!({"url": url, "duplicate_rate": 0.0}))
        .await;
    dy.create(&c, &vid, &req("回调二", f)).await.unwrap();
    assert_eq!(
        wait_for(&got, 3).await.len(),
        3,
        "exactly one more delivery at rate 0"
    );
    assert_eq!(s.counts().await["webhooks_sent"], 3);
}
