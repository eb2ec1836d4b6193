//! Douyin adapter against the sandbox, end to end over HTTP.

mod common;

use common::*;
use platforms::{
    Adapter, Creds, DyAdapter, ErrorKind, Platform, PublishReq, TokenSet, WorkStatus, adapter,
};
use serde_json::json;
use std::sync::Arc;

async fn authorize(s: &Sbx, dy: &Arc<dyn Adapter>, nick: &str) -> TokenSet {
    let url = dy
        .authorize_url("http://app.test/callback", "st-42")
        .unwrap();
    assert!(
        url.starts_with(&format!(
            "{}/dy/platform/oauth/connect/?client_key=",
            s.base
        )),
        "{url}"
    );
    let q = s.consent(&url, nick, true).await;
    assert_eq!(get(&q, "state"), Some("st-42"));
    let code = get(&q, "code").unwrap().to_string();
    dy.exchange_code(&code).await.unwrap()
}

fn creds(t: &TokenSet) -> Creds {
    Creds {
        open_id: t.open_id.clone(),
        token: t.access_token.clone(),
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

#[tokio::test]
async fn consent_exchange_upload_create_review_public() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();

    // The page pre-fills a nickname; we choose our own.
    let url = dy
        .authorize_url("http://app.test/callback", "st-1")
        .unwrap();
    let html = s.http.get(&url).send().await.unwrap().text().await.unwrap();
    assert!(html.contains("value=\"抖音用户"), "prefilled nickname");
    let q = s.consent(&url, "小店老板", true).await;
    let code = get(&q, "code").unwrap().to_string();
    assert_eq!(get(&q, "state"), Some("st-1"));

    let t0 = s.now();
    let t = dy.exchange_code(&code).await.unwrap();
    assert!(t.open_id.starts_with("_000"));
    assert!(t.access_token.starts_with("act.") && t.refresh_token.starts_with("rft."));
    assert_eq!(t.nickname, "小店老板");
    assert!(
        (t.expires_at - (t0 + 15 * DAY)).abs() < 5_000,
        "15 d access token"
    );
    assert!(
        (t.refresh_expires_at - (t0 + 30 * DAY)).abs() < 5_000,
        "30 d refresh token"
    );

    // Codes are single use.
    let again = dy.exchange_code(&code).await.unwrap_err();
    assert_eq!(again.code, "10007");
    assert_eq!(again.kind, ErrorKind::Reauthorize);

    let c = creds(&t);
    dy.check(&c).await.unwrap();
    let file = temp_file("small.mp4", 3000);
    let vid = dy.upload(&c, &req("x", file.clone())).await.unwrap();
    assert!(vid.starts_with("v0d00fg10000"));
    let mut r = req("周末探店 #美食", file);
    r.topics = vec!["美食".into(), "探店".into()];
    r.at_users = vec!["小王".into()];
    r.poi_id = Some("660100000001".into());
    let item = dy.create(&c, &vid, &r).await.unwrap();

    let works = dy.list_works(&c, 10).await.unwrap();
    assert_eq!(works.len(), 1);
    assert_eq!(works[0].item_id, item);
    assert_eq!(works[0].title, "周末探店 #美食 #探店 @小王");
    assert_eq!(works[0].status, WorkStatus::Reviewing);
    assert_eq!(works[0].stats.play, 0);

    let counts = s.counts().await;
    assert_eq!(counts["creates"][format!("dy:{}", t.open_id)], 1);
    assert_eq!(counts["total_creates"], 1);
    assert_eq!(counts["works"][0]["status"], "reviewing");

    // Review takes 10 minutes of platform time; then stats grow with time.
    s.control("clock", json!({"advance_ms": 11 * 60_000})).await;
    let w = &dy.list_works(&c, 10).await.unwrap()[0];
    assert_eq!(w.status, WorkStatus::Public);
    s.control("clock", json!({"advance_ms": DAY})).await;
    let w1 = dy.list_works(&c, 10).await.unwrap()[0].clone();
    assert!(w1.stats.play >= 3 * 24 * 60, "plays grow: {:?}", w1.stats);
    assert!(w1.stats.comment > 0);
    s.control("clock", json!({"advance_ms": DAY})).await;
    let w2 = dy.list_works(&c, 10).await.unwrap()[0].clone();
    assert!(w2.stats.play > w1.stats.play);

    // Comments: generated ones plus ours (a top-level comment by the author).
    let cid = dy.comment(&c, &item, "谢谢大家支持").await.unwrap();
    let comments = dy.list_comments(&c, &item, 1000).await.unwrap();
    assert_eq!(comments.len() as i64, w2.stats.comment + 1);
    assert!(
        comments
            .iter()
            .any(|x| x.comment_id == cid && x.content == "谢谢大家支持")
    );
    let first = comments
        .iter()
        .find(|x| x.comment_id != cid)
        .unwrap()
        .comment_id
        .clone();
    dy.reply_comment(&c, &item, &first, "欢迎到店")
        .await
        .unwrap();
    let after = dy.list_comments(&c, &item, 1000).await.unwrap();
    assert_eq!(
        after
            .iter()
            .find(|x| x.comment_id == first)
            .unwrap()
            .reply_total,
        1
    );
}

#[tokio::test]
async fn deny_redirects_with_access_denied() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let q = s
        .consent(
            &dy.authorize_url("http://app.test/callback", "st-9")
                .unwrap(),
            "x",
            false,
        )
        .await;
    assert_eq!(get(&q, "error"), Some("access_denied"));
    assert_eq!(get(&q, "state"), Some("st-9"));
    assert_eq!(get(&q, "code"), None);
}

#[tokio::test]
async fn chunked_upload_above_50_mb() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let t = authorize(&s, &dy, "大文件用户").await;
    let c = creds(&t);
    // 61 MB: parts of 20 + 20 + 20 + 1 MB.
    let len = 61 * MB;
    let file = temp_file("big.mp4", len);
    let vid = dy.upload(&c, &req("大视频", file.clone())).await.unwrap();
    dy.create(&c, &vid, &req("大视频", file.clone()))
        .await
        .unwrap();
    let counts = s.counts().await;
    assert_eq!(counts["works"][0]["video_bytes"], len);
    assert_eq!(counts["works"][0]["video_parts"], 4, "uploaded in 4 parts");
    std::fs::remove_file(file).ok();
}

#[tokio::test]
async fn refresh_keeps_refresh_expiry_and_renewal_is_capped() {
    let s = start(|_| {}).await;
    let ep = s.endpoint(Platform::Dy);
    let dy = adapter(Platform::Dy, ep.clone()).unwrap();
    let t = authorize(&s, &dy, "续期用户").await;

    s.control("clock", json!({"advance_ms": DAY})).await;
    let r = dy.refresh(&t).await.unwrap();
    assert_ne!(r.access_token, t.access_token);
    assert_eq!(r.refresh_token, t.refresh_token);
    assert!(
        (r.refresh_expires_at - t.refresh_expires_at).abs() < 2_000,
        "refresh expiry unchanged"
    );
    assert!((r.expires_at - (s.now() + 15 * DAY)).abs() < 5_000);
    dy.list_works(&creds(&r), 5).await.unwrap();

    // Five renewals, then 10020.
    let raw = DyAdapter::new(ep);
    let mut cur = r.clone();
    for _ in 0..5 {
        let n = raw.renew_refresh_token(&cur).await.unwrap();
        assert_ne!(n.refresh_token, cur.refresh_token);
        assert!((n.refresh_expires_at - (s.now() + 30 * DAY)).abs() < 5_000);
        // The old refresh token died.
        let dead = raw.renew_refresh_token(&cur).await.unwrap_err();
        assert_eq!(
            (dead.code.as_str(), dead.kind),
            ("10010", ErrorKind::Reauthorize)
        );
        cur = n;
    }
    let capped = raw.renew_refresh_token(&cur).await.unwrap_err();
    assert_eq!(capped.code, "10020");
    assert_eq!(capped.kind, ErrorKind::Reauthorize);
    assert!(
        capped.zh.contains("续期") && capped.en.contains("renewed"),
        "{capped:?}"
    );
    // At the cap the adapter still refreshes with the live refresh token.
    let ok = dy.refresh(&cur).await.unwrap();
    assert_eq!(ok.refresh_token, cur.refresh_token);
}

#[tokio::test]
async fn access_token_expires_after_15_days_then_refresh_renews() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let t = authorize(&s, &dy, "过期用户").await;
    let c = creds(&t);
    s.control("clock", json!({"advance_ms": 15 * DAY - 60_000}))
        .await;
    dy.list_works(&c, 5).await.unwrap();
    s.control("clock", json!({"advance_ms": 2 * 60_000})).await;
    let e = dy.list_works(&c, 5).await.unwrap_err();
    assert_eq!(e.kind, ErrorKind::TokenExpired);
    assert_eq!(e.code, "2190008");
    assert!(!e.zh.is_empty() && !e.en.is_empty());
    // Less than 15 d of refresh left: the adapter renews the refresh token, then refreshes.
    let r = dy.refresh(&t).await.unwrap();
    assert_ne!(r.refresh_token, t.refresh_token);
    assert!((r.refresh_expires_at - (s.now() + 30 * DAY)).abs() < 5_000);
    dy.list_works(&creds(&r), 5).await.unwrap();
    // Once the refresh token is dead: re-authorize.
    s.control("clock", json!({"advance_ms": 31 * DAY})).await;
    let e = dy.refresh(&r).await.unwrap_err();
    assert_eq!((e.code.as_str(), e.kind), ("10010", ErrorKind::Reauthorize));
}

#[tokio::test]
async fn sensitive_title_is_refused_and_reject_word_fails_review() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let t = authorize(&s, &dy, "审核用户").await;
    let c = creds(&t);
    let f = temp_file("rev.mp4", 2000);
    let vid = dy.upload(&c, &req("", f.clone())).await.unwrap();
    let e = dy
        .create(&c, &vid, &req("这里有敏感词", f.clone()))
        .await
        .unwrap_err();
    assert_eq!(e.code, "2111001");
    assert_eq!(e.kind, ErrorKind::Permanent);
    assert_eq!(e.zh, "标题含敏感词，平台拒绝发布");
    assert_eq!(
        e.en,
        "The title contains a sensitive word; the platform refused it"
    );
    let item = dy
        .create(&c, &vid, &req("reject-me please", f))
        .await
        .unwrap();
    s.control("clock", json!({"advance_ms": 11 * 60_000})).await;
    let w = dy.list_works(&c, 5).await.unwrap();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].item_id, item);
    assert!(
        matches!(w[0].status, WorkStatus::Rejected { .. }),
        "{:?}",
        w[0].status
    );
    assert_eq!(
        s.counts().await["total_creates"],
        1,
        "refused create not counted"
    );
    // Unknown video id.
    let e = dy
        .create(&c, "v-nope", &req("t", "x".into()))
        .await
        .unwrap_err();
    assert_eq!((e.code.as_str(), e.kind), ("2190007", ErrorKind::Permanent));
}

#[tokio::test]
async fn paging_and_concurrent_creates_are_counted_exactly() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let mut accounts = Vec::new();
    for i in 0..3 {
        accounts.push(creds(&authorize(&s, &dy, &format!("并发用户{i}")).await));
    }
    let f = temp_file("conc.mp4", 1000);
    let mut tasks = Vec::new();
    for c in &accounts {
        let vid = dy.upload(c, &req("", f.clone())).await.unwrap();
        for n in 0..25 {
            let (dy, c, vid, f) = (dy.clone(), c.clone(), vid.clone(), f.clone());
            tasks.push(tokio::spawn(async move {
                dy.create(&c, &vid, &req(&format!("作品{n}"), f))
                    .await
                    .unwrap()
            }));
        }
    }
    let mut items = std::collections::HashSet::new();
    for t in tasks {
        items.insert(t.await.unwrap());
    }
    assert_eq!(items.len(), 75, "distinct item ids");
    let counts = s.counts().await;
    assert_eq!(counts["total_creates"], 75);
    for c in &accounts {
        assert_eq!(counts["creates"][format!("dy:{}", c.open_id)], 25);
    }
    // The list pages by 20: 25 works need two pages; max cuts.
    assert_eq!(dy.list_works(&accounts[0], 100).await.unwrap().len(), 25);
    assert_eq!(dy.list_works(&accounts[0], 7).await.unwrap().len(), 7);
}

#[tokio::test]
async fn poi_search_with_client_token() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let pois = dy.poi_search("星巴克", "北京").await.unwrap();
    assert_eq!(pois.len(), 4);
    assert!(
        pois.iter().all(|p| p.poi_name.starts_with("星巴克")
            && p.city == "北京市"
            && !p.poi_id.is_empty())
    );
    // Same answer every time.
    assert_eq!(
        dy.poi_search("星巴克", "北京").await.unwrap()[0].poi_id,
        pois[0].poi_id
    );
}

#[tokio::test]
async fn index_page_and_control_clock() {
    let s = start(|_| {}).await;
    let r = s.http.get(&s.base).send().await.unwrap();
    let status = r.status();
    let html = r.text().await.unwrap();
    assert_eq!(status, 200, "{html}");
    assert!(html.contains("平台沙箱 / Platform sandbox") && html.contains("advance-day"));
    assert!(
        html.contains("action=\"/sandbox/_control/advance\""),
        "{html}"
    );
    let before: serde_json::Value = s
        .http
        .get(format!("{}/_control/clock", s.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let form = s
        .http
        .post(format!("{}/_control/advance", s.base))
        .form(&[("advance_ms", "3600000")])
        .send()
        .await
        .unwrap();
    assert_eq!(form.status(), 303);
    assert_eq!(form.headers()["location"], "/sandbox");
    let after = s.control("clock", json!({"advance_ms": 0})).await;
    assert!(
        after["offset_ms"].as_i64().unwrap() >= before["offset_ms"].as_i64().unwrap() + 3_600_000
    );
    // A clock moved forward can be set back: by the API, and by the index's button.
    let back = s.control("clock", json!({"offset_ms": 0})).await;
    assert_eq!(back["offset_ms"], 0, "{back}");
    s.control("clock", json!({"advance_ms": 3_600_000})).await;
    assert!(html.contains("id=\"clock-reset\""), "{html}");
    let reset = s
        .http
        .post(format!("{}/_control/advance", s.base))
        .form(&[("reset", "1")])
        .send()
        .await
        .unwrap();
    assert_eq!(reset.status(), 303);
    assert_eq!(s.control("clock", json!({})).await["offset_ms"], 0);
}

/// Image notes (图文): each picture goes up through `upload_image/` (multipart `image`), then one
/// `create_image_text/` posts their ids in order; the work is listed like a video's.
#[tokio::test]
async fn an_image_note_uploads_each_picture_and_creates_image_text() {
    let s = start(|_| {}).await;
    let dy = adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    let t = authorize(&s, &dy, "图文号").await;
    let c = creds(&t);
    let images: Vec<_> = (1..=3)
        .map(|i| temp_file(&format!("note{i}.jpg"), 2000))
        .collect();
    let r = PublishReq {
        title: "三张图的笔记".into(),
        topics: vec!["好物".into()],
        images,
        poi_id: Some("660100000001".into()),
        ..PublishReq::default()
    };
    let ids = dy.upload(&c, &r).await.unwrap();
    let list: Vec<String> = serde_json::from_str(&ids).unwrap();
    assert_eq!(list.len(), 3, "{ids}");
    assert!(list.iter().all(|i| i.starts_with("img0d00fg")));
    let body = DyAdapter::image_text_body(&ids, &r).unwrap();
    assert_eq!(body["image_list"], json!(list));
    assert_eq!(body["text"], "三张图的笔记 #好物");
    assert_eq!(body["poi_id"], "660100000001");
    let item = dy.create(&c, &ids, &r).await.unwrap();
    let works = dy.list_works(&c, 10).await.unwrap();
    assert_eq!(works[0].item_id, item);
    let counts = s.counts().await;
    assert_eq!(counts["works"][0]["images"], 3);

    // Another account's picture ids, or none, are refused with the platform's parameter error.
    let none = dy.create(&c, "[]", &r).await.unwrap_err();
    assert_eq!(none.code, "2100005");
    let forged = dy.create(&c, r#"["img0d00fg1x"]"#, &r).await.unwrap_err();
    assert_eq!(forged.code, "2100005");
}
