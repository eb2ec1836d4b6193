//! KS, BJH and the QR-session platforms (SPH, XHS, shop) against the sandbox.

mod common;

use common::*;
use platforms::{
    Creds, ErrorKind, Platform, PublishReq, SessionState, WorkStatus, adapter, sandbox,
};
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
    let ks = adapter(Platform::Ks, s.endpoint(Platform::Ks));
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
    let bjh = adapter(Platform::Bjh, s.endpoint(Platform::Bjh));
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

#[tokio::test]
async fn qr_session_platforms_login_publish_expire() {
    let s = start(|c| c.review_delay_ms = 60_000).await;
    for p in [Platform::Sph, Platform::Xhs, Platform::Shop] {
        let a = adapter(p, s.endpoint(p));
        assert_eq!(
            a.authorize_url("http://x", "y").unwrap_err().code,
            "unsupported"
        );
        let login = a.start_qr_login().await.unwrap();
        assert_eq!(
            login.qr_url,
            format!("{}/{}/qr/{}", s.base, p.code(), login.login_id)
        );
        assert!((login.expires_at - (s.now() + 5 * 60_000)).abs() < 5_000);
        assert_eq!(
            a.poll_qr_login(&login.login_id, None).await.unwrap(),
            SessionState::QrPending
        );

        // The QR page a person opens.
        let html = s
            .http
            .get(&login.qr_url)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            html.contains("id=\"confirm\"")
                && html.contains("确认登录 / Confirm login")
                && html.contains("id=\"sms\""),
            "{html}"
        );
        let nick = format!("{}达人", p.code());
        let r = s
            .http
            .post(&login.qr_url)
            .form(&[("nickname", nick.as_str())])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        let SessionState::LoggedIn { session } =
            a.poll_qr_login(&login.login_id, None).await.unwrap()
        else {
            panic!("logged in")
        };
        assert_eq!(session.nickname, nick);
        assert!((session.expires_at - (s.now() + 30 * DAY)).abs() < 5_000);
        // Polling again answers the same session.
        let SessionState::LoggedIn { session: again } =
            a.poll_qr_login(&login.login_id, None).await.unwrap()
        else {
            panic!()
        };
        assert_eq!(again.access_token, session.access_token);

        let c = Creds {
            open_id: session.open_id.clone(),
            token: session.access_token.clone(),
            ..Default::default()
        };
        a.check(&c).await.unwrap();
        let f = temp_file(&format!("{}.mp4", p.code()), 3000);
        let vid = a.upload(&c, &req("", f.clone())).await.unwrap();
        let item = a
            .create(&c, &vid, &req("会话作品", f.clone()))
            .await
            .unwrap();
        let sens = a
            .create(&c, &vid, &req("含敏感词", f.clone()))
            .await
            .unwrap_err();
        assert_eq!(
            (sens.code.as_str(), sens.kind),
            ("40302", ErrorKind::Permanent)
        );
        let w = a.list_works(&c, 5).await.unwrap();
        assert_eq!(
            (w.len(), w[0].item_id.as_str(), &w[0].status),
            (1, item.as_str(), &WorkStatus::Reviewing)
        );
        a.comment(&c, &item, "置顶评论").await.unwrap();
        assert_eq!(
            s.counts().await["creates"][format!("{}:{}", p.code(), c.open_id)],
            1
        );
        assert!(!a.poi_search("火锅", "重庆").await.unwrap().is_empty());

        // SMS challenge: 000000 is refused, another 6-digit code passes.
        let l2 = a.start_qr_login().await.unwrap();
        s.http
            .post(&l2.qr_url)
            .form(&[("nickname", "短信用户"), ("sms", "1")])
            .send()
            .await
            .unwrap();
        assert_eq!(
            a.poll_qr_login(&l2.login_id, None).await.unwrap(),
            SessionState::SmsChallenge
        );
        let bad = a
            .poll_qr_login(&l2.login_id, Some("000000"))
            .await
            .unwrap_err();
        assert_eq!(
            (bad.code.as_str(), bad.kind),
            ("40101", ErrorKind::Permanent)
        );
        assert!(bad.zh.contains("短信验证码"));
        assert!(matches!(
            a.poll_qr_login(&l2.login_id, Some("123456")).await.unwrap(),
            SessionState::LoggedIn { .. }
        ));

        // An unconfirmed QR code dies after 5 minutes.
        let l3 = a.start_qr_login().await.unwrap();
        s.control("clock", json!({"advance_ms": 5 * 60_000 + 1000}))
            .await;
        assert_eq!(
            a.poll_qr_login(&l3.login_id, None).await.unwrap(),
            SessionState::LoggedOut
        );
        let late = s
            .http
            .post(&l3.qr_url)
            .form(&[("nickname", "迟到")])
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(late.contains("二维码已过期"));
        assert_eq!(
            a.list_works(&c, 5).await.unwrap()[0].status,
            WorkStatus::Public
        );

        // Sessions live 30 days (platform clock), then the console redirects to its login page.
        s.control("clock", json!({"advance_ms": 30 * DAY})).await;
        let e = a.check(&c).await.unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.kind),
            ("session_expired", ErrorKind::Reauthorize)
        );
        assert!(e.zh.contains("重新扫码"));
        assert_eq!(
            a.list_works(&c, 5).await.unwrap_err().kind,
            ErrorKind::Reauthorize
        );
        assert_eq!(
            a.refresh(&session).await.unwrap_err().kind,
            ErrorKind::Reauthorize
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
