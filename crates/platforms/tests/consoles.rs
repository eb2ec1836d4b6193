//! The Channels (SPH) and shop (Douyin creator console) flows against the sandbox's imitations of
//! those consoles, driving the real `/usr/bin/chromium` headless: QR login (with and without an
//! SMS step), publish verified in the works list with the declaration, schedule and product the
//! console received, and the faults (a silent publish, a changed selector, a session dying
//! mid-flow, a slow upload and one slower than the flow waits).

mod common;

use common::rig::{Rig, rig};
use platforms::browser::{ShopFlow, SphFlow};
use platforms::{Adapter, Declaration, ErrorKind, Platform, PublishReq, SessionState, WorkStatus};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

async fn sph() -> Rig {
    rig(Platform::Sph, 2, |base, clock| {
        Arc::new(SphFlow::new(base, clock))
    })
    .await
}

async fn shop() -> Rig {
    rig(Platform::Shop, 2, |base, clock| {
        Arc::new(ShopFlow::new(base, clock))
    })
    .await
}

fn req(title: &str, video: PathBuf) -> PublishReq {
    PublishReq {
        video_path: video,
        title: title.into(),
        description: "周末去了一家新开的火锅店，味道不错".into(),
        topics: vec!["美食".into(), "探店".into()],
        declaration: Declaration::AiGenerated,
        ..PublishReq::default()
    }
}

/// A minute-aligned time `secs` from the sandbox's now.
fn ahead(r: &Rig, secs: i64) -> i64 {
    let at = r.sbx.now() / 1000 + secs;
    at - at % 60
}

fn logged_in(state: SessionState) -> platforms::TokenSet {
    match state {
        SessionState::LoggedIn { session } => session,
        other => panic!("not logged in: {other:?}"),
    }
}

#[tokio::test]
async fn sph_qr_login_with_an_sms_step_reads_the_account() {
    let r = sph().await;
    r.control("faults", json!({"user": "视频号小王", "sms": true}))
        .await;
    let qr = r.ad.start_qr_login().await.unwrap();
    let img = qr.qr_image.as_deref().unwrap();
    assert!(img.starts_with("data:image/png;base64,"), "{img:.40}");
    assert_eq!(
        r.ad.poll_qr_login(&qr.login_id, None).await.unwrap(),
        SessionState::QrPending
    );
    let scan = r.control("scan", json!({"user": "视频号小王"})).await;
    assert_eq!(scan["sms"], json!(true));
    assert_eq!(
        r.poll_until_not_pending(&qr.login_id, None).await,
        SessionState::SmsChallenge
    );
    // A wrong code keeps the step up; the right one logs in.
    assert_eq!(
        r.ad.poll_qr_login(&qr.login_id, Some("000000"))
            .await
            .unwrap(),
        SessionState::SmsChallenge
    );
    let mut state = SessionState::SmsChallenge;
    for _ in 0..20 {
        state =
            r.ad.poll_qr_login(&qr.login_id, Some("246810"))
                .await
                .unwrap();
        if matches!(state, SessionState::LoggedIn { .. }) {
            break;
        }
    }
    let session = logged_in(state);
    assert_eq!(session.nickname, "视频号小王");
    assert_eq!(session.open_id, scan["open_id"].as_str().unwrap());
    let creds = platforms::Creds {
        open_id: session.open_id,
        token: session.access_token,
        ..Default::default()
    };
    r.ad.check(&creds).await.unwrap();
    let f = r.ad.followers(&creds).await.unwrap();
    assert!(f[0].total > 0, "{f:?}");
    r.driver.shutdown().await;
}

#[tokio::test]
async fn shop_qr_login_reads_the_account() {
    let r = shop().await;
    let qr = r.ad.start_qr_login().await.unwrap();
    assert!(qr.qr_image.is_some());
    let scan = r.control("scan", json!({"user": "好物小店"})).await;
    assert_eq!(scan["sms"], json!(false));
    let session = logged_in(r.poll_until_not_pending(&qr.login_id, None).await);
    assert_eq!(session.nickname, "好物小店");
    assert_eq!(session.open_id, scan["open_id"].as_str().unwrap());
    r.driver.shutdown().await;
}

/// The Douyin console's slider puzzle after the scan: its picture reaches the person, a wrong
/// place gets a new puzzle, the right one logs in.
#[tokio::test]
async fn shop_qr_login_through_a_slider_puzzle() {
    let r = shop().await;
    r.control("faults", json!({"user": "滑块小店", "slider": true}))
        .await;
    let qr = r.ad.start_qr_login().await.unwrap();
    r.control("scan", json!({"user": "滑块小店"})).await;
    assert_eq!(
        r.poll_until_not_pending(&qr.login_id, None).await,
        SessionState::SliderChallenge
    );
    let session = logged_in(r.solve_slider(&qr.login_id).await);
    assert_eq!(session.nickname, "滑块小店");
    r.driver.shutdown().await;
}

#[tokio::test]
async fn sph_publish_sets_the_label_explicitly_and_schedules() {
    let r = sph().await;
    let creds = r.login("探店号").await;
    // Channels pre-selects 含AI生成内容: "none" must arrive as 无需标注.
    let cover = r.cover(5);
    let q = PublishReq {
        declaration: Declaration::None,
        cover_path: Some(cover.clone()),
        ..req("周末火锅探店好去处", r.video(200))
    };
    let id = r.ad.create(&creds, "", &q).await.unwrap();
    let works = r.ad.list_works(&creds, 10).await.unwrap();
    assert_eq!(works.len(), 1);
    assert_eq!(
        (works[0].item_id.as_str(), works[0].title.as_str()),
        (id.as_str(), "周末火锅探店好去处")
    );
    assert_eq!(works[0].status, WorkStatus::Reviewing);
    let got = r.received().await;
    let g = &got[0];
    assert_eq!(g["declaration"], json!("无需标注"));
    assert_eq!(g["original"], json!(false));
    assert_eq!(g["topics"], json!(["美食", "探店"]));
    assert_eq!(g["short_title"], json!("周末火锅探店好去处"));
    assert_eq!(g["schedule_at"], Value::Null);
    assert!(g["description"].as_str().unwrap().ends_with(&q.description));
    // The cover frame as the 3:4 个人主页卡片 cover.
    assert_eq!(
        g["cover_size"],
        json!(std::fs::metadata(&cover).unwrap().len())
    );

    // Original and scheduled two days ahead (the picker's day, maybe in the next month).
    let at = ahead(&r, 2 * 86_400 + 3 * 3600);
    let q2 = PublishReq {
        declaration: Declaration::Original,
        schedule_at: Some(at),
        topics: vec![],
        ..req("定时发表的第二条视频", r.video(20))
    };
    r.ad.create(&creds, "", &q2).await.unwrap();
    let got = r.received().await;
    assert_eq!(got[1]["schedule_at"], json!(at));
    assert_eq!(got[1]["declaration"], json!("内容为自行拍摄"));
    assert_eq!(got[1]["original"], json!(true));
    // Too early: refused before any click, named after the step.
    let q3 = PublishReq {
        schedule_at: Some(ahead(&r, 3600)),
        ..req("太早的定时", r.video(10))
    };
    let e = r.ad.create(&creds, "", &q3).await.unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (ErrorKind::Permanent, "schedule")
    );
    assert_eq!(r.received().await.len(), 2);
    r.driver.shutdown().await;
}

/// Channels' 互动管理 · 评论: a post's customers' comments are read from the page's own calls (no ids
/// in its DOM), one is answered under it and a top comment posted, each seen on the page; a post
/// the page does not list fails by name.
#[tokio::test]
async fn sph_comments_are_read_and_answered_on_the_comment_page() {
    let r = sph().await;
    let creds = r.login("评论视频号").await;
    let older =
        r.ad.create(&creds, "", &req("第一条视频", r.video(20)))
            .await
            .unwrap();
    let item =
        r.ad.create(&creds, "", &req("评论测试视频", r.video(20)))
            .await
            .unwrap();
    // Public for four hours: customers have commented (the sandbox's works draw one per 300 plays
    // at 3–29 plays a minute: at least two by then, whatever the post's rate).
    r.sbx.clock.advance(4 * 3_600_000 + 600_000);
    let page = r.ad.comment_page(&creds, &item, "", 50).await.unwrap();
    assert!(page.list.len() >= 2, "{page:?}");
    assert!(!page.has_more);
    let times: Vec<i64> = page.list.iter().map(|c| c.create_time).collect();
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {times:?}"
    );
    let asked = page.list[0].clone();
    assert!(asked.create_time > 0 && !asked.content.is_empty() && asked.user_id != creds.open_id);
    // The older post is the second card: its comments are its own.
    let other = r.ad.comment_page(&creds, &older, "", 50).await.unwrap();
    assert!(
        other.list.iter().all(|c| c.comment_id.starts_with(&older)),
        "{other:?}"
    );

    let reply =
        r.ad.reply_comment(&creds, &item, &asked.comment_id, "在人民路88号")
            .await
            .unwrap();
    let top = r.ad.comment(&creds, &item, "欢迎到店品尝").await.unwrap();
    assert!(!reply.is_empty() && reply != top);
    let page = r.ad.comment_page(&creds, &item, "", 50).await.unwrap();
    let mine = page
        .list
        .iter()
        .find(|c| c.comment_id == top)
        .expect("top comment listed");
    assert_eq!(
        (mine.user_id.as_str(), mine.content.as_str()),
        (creds.open_id.as_str(), "欢迎到店品尝")
    );
    let answered = page
        .list
        .iter()
        .find(|c| c.comment_id == asked.comment_id)
        .unwrap();
    assert_eq!(answered.reply_total, 1, "the answer is under its comment");
    assert!(
        page.list.iter().all(|c| c.comment_id != reply),
        "an answer is not a top-level comment"
    );

    let e = r.ad.comment_page(&creds, "0000", "", 50).await.unwrap_err();
    assert_eq!(
        (e.code.as_str(), e.kind),
        ("comments", ErrorKind::Permanent),
        "{e:?}"
    );
    assert!(e.zh.contains("评论") && e.evidence.is_some(), "{}", e.zh);
    r.driver.shutdown().await;
}

#[tokio::test]
async fn shop_publish_mounts_the_product_declares_and_schedules() {
    let r = shop().await;
    let creds = r.login("好物小店").await;
    let at = ahead(&r, 5 * 3600);
    let q = PublishReq {
        product_id: Some("3612345678".into()),
        poi_name: Some("星巴克(浦东新区店)".into()),
        schedule_at: Some(at),
        ..req("夏天必备的清凉小风扇", r.video(200))
    };
    let id = r.ad.create(&creds, "", &q).await.unwrap();
    let works = r.ad.list_works(&creds, 10).await.unwrap();
    assert_eq!(works[0].item_id, id);
    let got = r.received().await;
    let g = &got[0];
    assert_eq!(g["title"], json!("夏天必备的清凉小风扇"));
    assert_eq!(g["declaration"], json!("内容由AI生成"));
    assert_eq!(g["topics"], json!(["美食", "探店"]));
    assert_eq!(g["schedule_at"], json!(at));
    assert_eq!(
        g["product_url"],
        json!("https://haohuo.jinritemai.com/views/product/detail?id=3612345678")
    );
    assert_eq!(g["product_title"], json!("夏天必备的清凉小风扇"));
    // The tag holds the cart: a product post carries no place.
    assert_eq!(g["location"], json!(""));
    // Nothing to declare: no 自主声明 at all (never a default); the cover frame through the
    // cover dialog and the place in 添加标签's 位置.
    let cover = r.cover(7);
    let q2 = PublishReq {
        declaration: Declaration::None,
        cover_path: Some(cover.clone()),
        poi_name: Some("星巴克(浦东新区店)".into()),
        ..req("第二条没有声明", r.video(20))
    };
    r.ad.create(&creds, "", &q2).await.unwrap();
    let got = r.received().await;
    assert_eq!(got[1]["declaration"], json!(""));
    assert_eq!(
        got[1]["cover_size"],
        json!(std::fs::metadata(&cover).unwrap().len())
    );
    assert_eq!(got[1]["location"], json!("星巴克(浦东新区店)"));
    assert_eq!(got[0]["cover_size"], Value::Null);
    r.driver.shutdown().await;
}

#[tokio::test]
async fn a_silent_publish_is_caught_on_both_consoles() {
    for r in [sph().await, shop().await] {
        let creds = r.login("沉默的号").await;
        r.control(
            "faults",
            json!({"user": "沉默的号", "silent_publish": true}),
        )
        .await;
        let e =
            r.ad.create(&creds, "", &req("没有真的发出去", r.video(20)))
                .await
                .unwrap_err();
        assert_eq!(
            (e.code.as_str(), e.kind),
            ("verify", ErrorKind::Permanent),
            "{e:?}"
        );
        let ev = e.evidence.expect("evidence");
        assert!(ev.screenshot.starts_with(b"\x89PNG"));
        assert!(ev.html.contains("暂无"), "{:.300}", ev.html);
        // The console received it and never listed it.
        assert_eq!(r.received().await.len(), 1);
        r.driver.shutdown().await;
    }
}

#[tokio::test]
async fn a_changed_selector_fails_the_form_step_with_evidence() {
    for (r, marker) in [
        (sph().await, "input-editor-v2"),
        (shop().await, "添加作品标题"),
    ] {
        let creds = r.login("改版号").await;
        r.control(
            "faults",
            json!({"user": "改版号", "changed_selector": true}),
        )
        .await;
        let e =
            r.ad.create(&creds, "", &req("页面改版了", r.video(20)))
                .await
                .unwrap_err();
        assert_eq!(e.code, "form", "{e:?}");
        let ev = e.evidence.expect("evidence");
        assert!(ev.html.contains(marker), "{:.300}", ev.html);
        assert!(r.received().await.is_empty());
        r.driver.shutdown().await;
    }
}

/// The page check walks a publish to its last click (schedule included) and sends nothing; a changed
/// page fails it at that step, with the page as evidence.
#[tokio::test]
async fn the_canary_walks_to_the_last_click_and_sends_nothing() {
    for r in [sph().await, shop().await] {
        let creds = r.login("巡检号").await;
        let mut q = req("页面检查不发布", r.video(20));
        q.schedule_at = Some(ahead(&r, 86_400 + 3600));
        r.ad.canary(&creds, &q).await.unwrap();
        assert!(r.received().await.is_empty());
        r.control(
            "faults",
            json!({"user": "巡检号", "changed_selector": true}),
        )
        .await;
        let e = r.ad.canary(&creds, &q).await.unwrap_err();
        assert_eq!(e.code, "form", "{e:?}");
        assert!(e.evidence.is_some());
        assert!(r.received().await.is_empty());
        r.driver.shutdown().await;
    }
}

#[tokio::test]
async fn a_session_dying_mid_flow_asks_for_a_new_login() {
    let r = sph().await;
    let creds = r.login("掉线号").await;
    r.control("faults", json!({"user": "掉线号", "expire_mid_flow": true}))
        .await;
    let e =
        r.ad.create(&creds, "", &req("发表时登录失效", r.video(20)))
            .await
            .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Reauthorize, "{e:?}");
    assert!(e.zh.contains("登录已失效"), "{}", e.zh);
    let ev = e.evidence.expect("evidence");
    assert!(ev.html.contains("login-qrcode-wrap"), "{:.300}", ev.html);
    assert!(r.received().await.is_empty());
    let e = r.ad.check(&creds).await.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Reauthorize);
    r.driver.shutdown().await;
}

#[tokio::test]
async fn uploads_wait_for_the_page_and_time_out_by_name() {
    // A slow upload: the flow waits for the page's own progress to end, then publishes.
    let r = shop().await;
    let creds = r.login("慢网速").await;
    r.control("faults", json!({"user": "慢网速", "slow_upload_ms": 1500}))
        .await;
    r.ad.create(&creds, "", &req("慢慢传完再发布", r.video(100)))
        .await
        .unwrap();
    assert_eq!(r.received().await.len(), 1);
    r.driver.shutdown().await;
    drop(r);

    // Slower than the flow waits: 上传超时, with the page as it was.
    let r = rig(Platform::Sph, 2, |base, clock| {
        Arc::new(SphFlow::new(base, clock).with_upload_wait(Duration::from_millis(800)))
    })
    .await;
    let creds = r.login("超时号").await;
    r.control("faults", json!({"user": "超时号", "slow_upload_ms": 8000}))
        .await;
    let e =
        r.ad.create(&creds, "", &req("传不完", r.video(20)))
            .await
            .unwrap_err();
    assert_eq!(e.code, "upload", "{e:?}");
    assert!(e.zh.contains("上传超时"), "{}", e.zh);
    assert!(e.evidence.expect("evidence").html.contains("上传中"));
    assert!(r.received().await.is_empty());
    r.driver.shutdown().await;
}

/// An account's proxy carries its console traffic (a forwarding proxy on loopback sees the pages
/// requested); a proxy that does not answer fails the step with a reason naming it, and a proxy that
/// is no proxy URL is refused before a browser starts.
#[tokio::test]
async fn an_accounts_proxy_carries_its_console_traffic() {
    let r = sph().await;
    let creds = r.login("代理号").await;
    let proxy = common::proxy::Proxy::start().await;
    let through = platforms::Creds {
        proxy: proxy.url.clone(),
        ..creds.clone()
    };
    r.ad.check(&through).await.unwrap();
    let seen = proxy.seen();
    assert!(
        seen.iter()
            .any(|l| l.contains("/sandbox/console/sph/platform")),
        "{seen:?}"
    );

    // Nothing listens there any more.
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let e =
        r.ad.check(&platforms::Creds {
            proxy: dead,
            ..creds.clone()
        })
        .await
        .unwrap_err();
    assert!(e.en.contains("proxy"), "{e:?}");
    assert!(e.zh.contains("代理"), "{e:?}");

    let e =
        r.ad.check(&platforms::Creds {
            proxy: "ftp://10.0.0.1:21".into(),
            ..creds
        })
        .await
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Permanent, "{e:?}");
    r.driver.shutdown().await;
}
