//! KS and BJH against the sandbox (SPH, XHS and the shop: `consoles.rs`, `browser.rs`).

mod common;

use common::*;
use platforms::{Creds, ErrorKind, Platform, PublishReq, WorkStatus, adapter, sandbox};
use serde_json::json;

fn req(title: &str, path: std::path::PathBuf) -> PublishReq {
    PublishReq {
        video_path: path,
        title: title.into(),
        ..PublishReq::default()
    }
}

#[tokio::test]
async fn ks_consent_publish_list_and_rotating_refresh() {
    let s = start(|_| {}).await;
    let ks = adapter(Platform::Ks, s.endpoint(Platform::Ks)).unwrap();
    let url = ks
        .authorize_url("http://app.test/callback", "ks-state")
        .unwrap();
    assert!(url.starts_with(&format!("{}/ks/oauth2/authorize?app_id=", s.base)));
    let q = s.consent(&url, "快手小店", true).await;
    assert_eq!(get(&q, "state"), Some("ks-state"));
    let code = get(&q, "code").unwrap().to_string();
    let t0 = s.now();
    let t = ks.exchange_code(&code).await.unwrap();
    assert_eq!(t.nickname, "快手小店");
    assert!((t.expires_at - (t0 + 2 * DAY)).abs() < 5_000, "48 h");
    assert!(
        (t.refresh_expires_at - (t0 + 180 * DAY)).abs() < 5_000,
        "180 d"
    );
    assert_eq!(
        ks.exchange_code(&code).await.unwrap_err().kind,
        ErrorKind::Reauthorize
    );

    let c = Creds {
        open_id: t.open_id.clone(),
        token: t.access_token.clone(),
        ..Default::default()
    };
    let small = temp_file("ks.mp4", 4000);
    let up = ks.upload(&c, &req("", small.clone())).await.unwrap();
    let mut r = req("快手作品", small);
    r.topics = vec!["生活".into()];
    // The video's own cover goes with the post (the publisher passes the variant's cover frame).
    let cover = temp_file("ks-cover.jpg", 3000);
    r.cover_path = Some(cover.clone());
    let photo = ks.create(&c, &up, &r).await.unwrap();
    std::fs::remove_file(cover).ok();
    // Fragmented upload above 50 MB.
    let big = temp_file("ks-big.mp4", 52 * MB);
    let up2 = ks.upload(&c, &req("", big.clone())).await.unwrap();
    ks.create(&c, &up2, &req("大作品", big.clone()))
        .await
        .unwrap();
    std::fs::remove_file(big).ok();

    let w = ks.list_works(&c, 10).await.unwrap();
    assert_eq!(w.len(), 2);
    assert_eq!(w[1].item_id, photo);
    assert_eq!(w[1].title, "快手作品 #生活");
    assert_eq!(w[1].status, WorkStatus::Reviewing);
    let counts = s.counts().await;
    assert_eq!(counts["creates"][format!("ks:{}", t.open_id)], 2);
    assert_eq!(counts["works"][1]["video_bytes"], 52 * MB);
    assert_eq!(counts["works"][1]["video_parts"], 6, "10 MB fragments");
    assert_eq!(
        counts["works"][0]["video_parts"], 0,
        "small file in one piece"
    );
    assert_eq!(counts["works"][0]["cover_bytes"], 3000, "the given cover");
    assert!(
        counts["works"][1]["cover_bytes"].as_u64().unwrap() < 200,
        "without one, the placeholder"
    );

    s.control("clock", json!({"advance_ms": 3 * 60 * 60_000}))
        .await;
    let w = ks.list_works(&c, 10).await.unwrap();
    assert!(w.iter().all(|x| x.status == WorkStatus::Public));
    assert!(w[0].stats.play > 0);

    // 48 h later the access token is dead; refresh rotates the refresh token and keeps its expiry.
    s.control("clock", json!({"advance_ms": 2 * DAY})).await;
    assert_eq!(
        ks.list_works(&c, 1).await.unwrap_err().kind,
        ErrorKind::TokenExpired
    );
    let r1 = ks.refresh(&t).await.unwrap();
    assert_ne!(r1.refresh_token, t.refresh_token);
    assert!(
        (r1.refresh_expires_at - t.refresh_expires_at).abs() < 2_000,
        "original refresh expiry kept"
    );
    ks.check(&Creds {
        open_id: r1.open_id.clone(),
        token: r1.access_token.clone(),
        ..Default::default()
    })
    .await
    .unwrap();
    // The old refresh token was discarded.
    let e = ks.refresh(&t).await.unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.kind),
        ("100200102", ErrorKind::Reauthorize)
    );
    assert!(e.zh.contains("重新授权"));
    // KS has no comment API.
    assert_eq!(
        ks.comment(&c, &photo, "hi").await.unwrap_err().code,
        "unsupported"
    );
    assert!(!ks.poi_search("", "成都").await.unwrap().is_empty());
}

#[tokio::test]
async fn bjh_app_token_publish_by_url() {
    let s = start(|_| {}).await;
    let bjh = adapter(Platform::Bjh, s.endpoint(Platform::Bjh)).unwrap();
    // A wrong token, and the constant every install once shared, are refused.
    for wrong in ["wrong", "sbx_bjh_app_token"] {
        let e = bjh.verify_app_token("app9", wrong).await.unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.kind),
            ("60001001", ErrorKind::Reauthorize)
        );
    }
    let t = bjh
        .verify_app_token(sandbox::SANDBOX_BJH_APP_ID, &BJH_TOKEN)
        .await
        .unwrap();
    let c = Creds {
        open_id: t.open_id.clone(),
        token: t.access_token.clone(),
        ..Default::default()
    };
    // BJH needs a public URL.
    let no_url = bjh
        .upload(&c, &req("t", "/tmp/x.mp4".into()))
        .await
        .unwrap_err();
    assert_eq!(no_url.kind, ErrorKind::Permanent);
    let r = PublishReq {
        video_url: "https://cdn.test/a.mp4".into(),
        title: "百家号作品".into(),
        topics: vec!["美食".into()],
        ..Default::default()
    };
    let vid = bjh.upload(&c, &r).await.unwrap();
    let id = bjh.create(&c, &vid, &r).await.unwrap();
    let sens = PublishReq {
        title: "sensitive-word inside".into(),
        ..r.clone()
    };
    assert_eq!(
        bjh.create(&c, &vid, &sens).await.unwrap_err().kind,
        ErrorKind::Permanent
    );
    let w = bjh.list_works(&c, 5).await.unwrap();
    assert_eq!(
        (w.len(), w[0].item_id.as_str(), &w[0].status),
        (1, id.as_str(), &WorkStatus::Reviewing)
    );
    s.control("clock", json!({"advance_ms": 11 * 60_000})).await;
    assert_eq!(
        bjh.list_works(&c, 5).await.unwrap()[0].status,
        WorkStatus::Public
    );
    assert_eq!(
        s.counts().await["creates"][format!("bjh:{}", sandbox::SANDBOX_BJH_APP_ID)],
        1
    );
    s.control(
        "expire",
        json!({"platform": "bjh", "open_id": sandbox::SANDBOX_BJH_APP_ID}),
    )
    .await;
    assert_eq!(
        bjh.check(&c).await.unwrap_err().kind,
        ErrorKind::Reauthorize
    );
}

/// The creator-console platforms have no HTTP adapter: only the browser flows reach them.
#[test]
fn console_platforms_have_no_http_adapter() {
    for p in [Platform::Sph, Platform::Xhs, Platform::Shop] {
        assert!(
            adapter(p, platforms::Endpoint::default()).is_none(),
            "{p:?}"
        );
    }
}

#[tokio::test]
async fn mount_serves_the_index_with_and_without_slash() {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    let app = sandbox::mount(sandbox::Config {
        public_base: format!("http://{addr}/sandbox"),
        token: common::TOKEN.into(),
        ..Default::default()
    });
    tokio::spawn(async move { axum::serve(l, app).await.unwrap() });
    let http = reqwest::Client::new();
    for path in ["/sandbox", "/sandbox/"] {
        let r = http
            .get(format!("http://{addr}{path}"))
            .header(sandbox::access::TOKEN_HEADER, common::TOKEN)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert!(r.text().await.unwrap().contains("Platform sandbox"));
    }
    let r = http
        .get(format!("http://{addr}/sandbox/nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
}
