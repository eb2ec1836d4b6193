//! The browser driver and the XHS flow against the sandbox's imitation of the XHS creator console,
//! driving the real `/usr/bin/chromium` headless (playwright-core from `scripts/browser` or `e2e`,
//! installed by `scripts/install-deps.sh test`).

mod common;

use common::rig::Rig;
use platforms::browser::driver::browsers_of;
use platforms::browser::{DriverError, Identity, XhsFlow};
use platforms::{Adapter, Creds, Declaration, ErrorKind, Platform, PublishReq, SessionState};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The XHS console's flow on the sandbox, at most `max_browsers` at once.
async fn rig(max_browsers: usize) -> Rig {
    rig_with(max_browsers, Duration::from_secs(15)).await
}

async fn rig_with(max_browsers: usize, hang_grace: Duration) -> Rig {
    common::rig::rig_with(Platform::Xhs, max_browsers, hang_grace, |base, clock| {
        Arc::new(XhsFlow::new(base, clock))
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

#[tokio::test]
async fn qr_login_shows_the_console_qr_and_keeps_the_profile() {
    let r = rig(2).await;
    let qr = r.ad.start_qr_login().await.unwrap();
    let img = qr.qr_image.as_deref().unwrap();
    assert!(img.starts_with("data:image/png;base64,"), "{img:.40}");
    assert!(img.len() > 200);
    assert!(qr.qr_url.ends_with("/console/xhs/login"), "{}", qr.qr_url);
    assert_eq!(
        r.ad.poll_qr_login(&qr.login_id, None).await.unwrap(),
        SessionState::QrPending
    );
    r.control("scan", json!({"user": "alice"})).await;
    let SessionState::LoggedIn { session } = r.poll_until_not_pending(&qr.login_id, None).await
    else {
        panic!("not logged in");
    };
    assert_eq!(session.nickname, "alice");
    assert!(session.open_id.starts_with("95"), "{}", session.open_id);
    assert!(session.avatar.contains("/avatar/"), "{}", session.avatar);
    assert_eq!(session.access_token, qr.login_id);
    // The profile keeps the login: a new browser on it is still logged in.
    let creds = Creds {
        open_id: session.open_id,
        token: session.access_token,
        ..Default::default()
    };
    r.ad.check(&creds).await.unwrap();
    let f = r.ad.followers(&creds).await.unwrap();
    assert_eq!(f.len(), 1);
    // An unknown login is logged out; a profile that never logged in is not a session.
    assert_eq!(
        r.ad.poll_qr_login("xhs-unknown", None).await.unwrap(),
        SessionState::LoggedOut
    );
    let e =
        r.ad.check(&Creds {
            open_id: String::new(),
            token: "xhs-never".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Reauthorize, "{e:?}");
    assert!(
        e.evidence
            .as_ref()
            .is_some_and(|ev| !ev.screenshot.is_empty())
    );
    r.driver.shutdown().await;
}

#[tokio::test]
async fn qr_login_with_an_sms_challenge_enters_the_typed_code() {
    let r = rig(2).await;
    r.control("faults", json!({"user": "bob", "sms": true}))
        .await;
    let qr = r.ad.start_qr_login().await.unwrap();
    r.control("scan", json!({"user": "bob"})).await;
    assert_eq!(
        r.poll_until_not_pending(&qr.login_id, None).await,
        SessionState::SmsChallenge
    );
    // A wrong code keeps the challenge up.
    assert_eq!(
        r.ad.poll_qr_login(&qr.login_id, Some("000000"))
            .await
            .unwrap(),
        SessionState::SmsChallenge
    );
    // The right code, typed once (as the dialog sends it); then polled until the page moves on.
    let mut state =
        r.ad.poll_qr_login(&qr.login_id, Some("123456"))
            .await
            .unwrap();
    // A poll answers at once while the SMS box is still up: a deadline, not a number of polls (40
    // quick polls once passed before the page's own status tick took it home).
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !matches!(state, SessionState::LoggedIn { .. }) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        state = r.ad.poll_qr_login(&qr.login_id, None).await.unwrap();
    }
    let SessionState::LoggedIn { session } = state else {
        panic!("not logged in: {state:?}");
    };
    assert_eq!(session.nickname, "bob");
    r.driver.shutdown().await;
}

#[tokio::test]
async fn publish_is_verified_in_the_works_list_with_every_field() {
    let r = rig(2).await;
    let creds = r.login("carol").await;
    let video = r.video(300);
    let cover = r.cover(6);
    let q = PublishReq {
        // Over the console's 20 characters: the flow cuts it.
        title: "周末火锅探店，这家店的毛肚真的太好吃了吧".into(),
        // The variant's cover frame through the cover dialog, the place through the picker.
        cover_path: Some(cover.clone()),
        poi_id: Some("660100000001".into()),
        poi_name: Some("海底捞火锅(朝阳区店)".into()),
        ..req("", video.clone())
    };
    let vid = r.ad.upload(&creds, &q).await.unwrap();
    let id = r.ad.create(&creds, &vid, &q).await.unwrap();
    assert_eq!(id.len(), 24, "{id}");
    let works = r.ad.list_works(&creds, 10).await.unwrap();
    assert_eq!(works.len(), 1);
    assert_eq!(works[0].item_id, id);
    assert_eq!(works[0].title.chars().count(), 20);
    assert_eq!(works[0].status, platforms::WorkStatus::Reviewing);
    let got = r.received().await;
    assert_eq!(got.len(), 1, "{got:?}");
    let g = &got[0];
    assert_eq!(
        g["title"],
        json!(q.title.chars().take(20).collect::<String>())
    );
    assert_eq!(g["body"], json!(q.description));
    assert_eq!(g["topics"], json!(["美食", "探店"]));
    assert_eq!(g["declaration"], json!("笔记含AI合成内容"));
    assert_eq!(
        g["file_size"],
        json!(std::fs::metadata(&video).unwrap().len())
    );
    assert_eq!(g["schedule_at"], Value::Null);
    assert_eq!(
        g["cover_size"],
        json!(std::fs::metadata(&cover).unwrap().len())
    );
    assert_eq!(g["location"], json!("海底捞火锅(朝阳区店)"));

    // Scheduled, declared original, over a slow upload (the flow waits for the page's own
    // progress): the schedule and the declaration arrive as set.
    r.control("faults", json!({"user": "carol", "slow_upload_ms": 2500}))
        .await;
    let at = r.sbx.now() / 1000 + 3 * 3600;
    let at = at - at % 60;
    let q2 = PublishReq {
        schedule_at: Some(at),
        declaration: Declaration::Original,
        topics: vec![],
        ..req("定时发布的第二条", r.video(50))
    };
    r.ad.create(&creds, "", &q2).await.unwrap();
    let got = r.received().await;
    assert_eq!(got[1]["schedule_at"], json!(at));
    assert_eq!(got[1]["declaration"], json!("自主拍摄"));
    // No cover, no place: the console's own frame, no location.
    assert_eq!(
        (&got[1]["cover_size"], &got[1]["location"]),
        (&Value::Null, &json!(""))
    );
    // A place the picker does not list by that name: the form step fails naming what it lists,
    // and nothing is posted (never another place, never without one).
    let q4 = PublishReq {
        poi_name: Some("海底捞火锅".into()),
        ..req("没有这个地点", r.video(10))
    };
    let e = r.ad.create(&creds, "", &q4).await.unwrap_err();
    assert_eq!((e.kind, e.code.as_str()), (ErrorKind::Permanent, "form"));
    assert!(
        e.en.contains("no place named \"海底捞火锅\"; it offers: 海底捞火锅("),
        "{}",
        e.en
    );
    assert!(
        e.zh.contains("平台的地点列表里没有「海底捞火锅」"),
        "{}",
        e.zh
    );
    assert!(e.evidence.is_some());
    // Outside the window: refused before any click, named after the step.
    let q3 = PublishReq {
        schedule_at: Some(r.sbx.now() / 1000 + 600),
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

#[tokio::test]
async fn a_publish_that_silently_did_nothing_is_caught() {
    let r = rig(2).await;
    let creds = r.login("dave").await;
    r.control("faults", json!({"user": "dave", "silent_publish": true}))
        .await;
    // No declaration: chosen explicitly (nothing), not left to the page.
    let q = PublishReq {
        declaration: Declaration::None,
        ..req("没有真的发出去", r.video(20))
    };
    let e = r.ad.create(&creds, "", &q).await.unwrap_err();
    assert_eq!(e.code, "verify", "{e:?}");
    assert_eq!(e.kind, ErrorKind::Permanent);
    assert!(e.en.contains("not listed"), "{}", e.en);
    let ev = e.evidence.expect("evidence");
    assert!(ev.screenshot.starts_with(b"\x89PNG"));
    assert!(ev.html.contains("note-empty"), "{:.200}", ev.html);
    // The console did receive it: it just never listed it.
    let got = r.received().await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["declaration"], json!(""));
    r.driver.shutdown().await;
}

#[tokio::test]
async fn a_session_expiring_mid_flow_asks_for_a_new_login_with_evidence() {
    let r = rig(2).await;
    let creds = r.login("erin").await;
    r.control("faults", json!({"user": "erin", "expire_mid_flow": true}))
        .await;
    let e =
        r.ad.create(&creds, "", &req("上传后登录失效", r.video(20)))
            .await
            .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Reauthorize, "{e:?}");
    assert!(e.zh.contains("登录已失效"), "{}", e.zh);
    let ev = e.evidence.expect("evidence");
    assert!(!ev.screenshot.is_empty());
    assert!(ev.html.contains("login-box"), "{:.200}", ev.html);
    assert!(r.received().await.is_empty());
    r.driver.shutdown().await;
}

#[tokio::test]
async fn a_changed_selector_fails_the_upload_step_with_evidence() {
    let r = rig(2).await;
    let creds = r.login("fay").await;
    r.control("faults", json!({"user": "fay", "changed_selector": true}))
        .await;
    let e =
        r.ad.create(&creds, "", &req("页面改版了", r.video(20)))
            .await
            .unwrap_err();
    assert_eq!(e.code, "upload", "{e:?}");
    assert!(e.en.contains("upload-input"), "{}", e.en);
    let ev = e.evidence.expect("evidence");
    assert!(ev.html.contains("upload-input-v2"));
    r.driver.shutdown().await;
}

#[tokio::test]
async fn the_pool_never_opens_more_browsers_than_its_limit() {
    let r = rig(2).await;
    let url = format!("{}/console/xhs/login", r.sbx.base);
    let profiles = r.driver.config().profiles_dir.clone();
    let seen = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..5 {
        let (d, url, profiles, seen) = (
            r.driver.clone(),
            url.clone(),
            profiles.clone(),
            seen.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let key = format!("pool-{i}");
            let page = d.open(&key, &Identity::for_seed(&key)).await.unwrap();
            page.goto(&url).await.unwrap();
            page.wait_for("div[class*='login-box']", Duration::from_secs(30))
                .await
                .unwrap();
            // Browsers (main processes: one per profile) running right now.
            let mut dirs: Vec<String> = browsers_of(&profiles)
                .iter()
                .filter_map(|(pid, _)| std::fs::read(format!("/proc/{pid}/cmdline")).ok())
                .filter_map(|c| {
                    String::from_utf8_lossy(&c)
                        .split('\0')
                        .find(|a| a.starts_with("--user-data-dir="))
                        .map(str::to_string)
                })
                .collect();
            dirs.sort();
            dirs.dedup();
            seen.fetch_max(dirs.len(), std::sync::atomic::Ordering::SeqCst);
            page.close().await;
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let peak = r.driver.peak_browsers();
    assert!((1..=2).contains(&peak), "{peak} browsers open at once");
    let seen = seen.load(std::sync::atomic::Ordering::SeqCst);
    assert!((1..=2).contains(&seen), "{seen} browsers at once");
    assert_eq!(r.driver.open_browsers(), 0);
    r.driver.shutdown().await;
}

#[tokio::test]
async fn a_killed_sidecar_leaves_no_browser_and_the_next_step_gets_a_new_one() {
    let r = rig(2).await;
    let profiles = r.driver.config().profiles_dir.clone();
    let page = r
        .driver
        .open("crash", &Identity::for_seed("crash"))
        .await
        .unwrap();
    page.goto(&format!("{}/console/xhs/login", r.sbx.base))
        .await
        .unwrap();
    assert!(!browsers_of(&profiles).is_empty());
    let pid = r.driver.sidecar_pid().await.unwrap();
    // The sidecar dies (as in a crash): only it, not its group; chromium runs detached.
    unsafe {
        libc::kill(pid as i32, libc::SIGKILL);
    }
    let mut gone = false;
    for _ in 0..200 {
        if browsers_of(&profiles).is_empty() {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "chromium left behind: {:?}", browsers_of(&profiles));
    match page.url().await {
        Err(DriverError::Crashed(_)) => {}
        other => panic!("{other:?}"),
    }
    page.close().await;
    // The next browser comes from a new sidecar.
    let again = r
        .driver
        .open("crash", &Identity::for_seed("crash"))
        .await
        .unwrap();
    again
        .goto(&format!("{}/console/xhs/login", r.sbx.base))
        .await
        .unwrap();
    assert_ne!(r.driver.sidecar_pid().await, Some(pid));
    again.close().await;
    r.driver.shutdown().await;
    assert!(browsers_of(&profiles).is_empty());
}

#[tokio::test]
async fn a_browser_lost_mid_upload_is_replaced_and_the_post_made_once() {
    let r = rig(2).await;
    let creds = r.login("gus").await;
    r.control("faults", json!({"user": "gus", "slow_upload_ms": 4000}))
        .await;
    let q = req("崩溃后只发一次", r.video(30));
    let publish = r.ad.create(&creds, "", &q);
    let kill = async {
        // The page's upload is under way: the sidecar dies.
        for _ in 0..300 {
            if r.record().await["uploads_begun"].as_u64() >= Some(1) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let pid = r.driver.sidecar_pid().await.unwrap();
        unsafe {
            libc::kill(pid as i32, libc::SIGKILL);
        }
    };
    let (id, ()) = tokio::join!(publish, kill);
    let id = id.unwrap();
    let got = r.received().await;
    assert_eq!(got.len(), 1, "posted once: {got:?}");
    let works = r.ad.list_works(&creds, 10).await.unwrap();
    assert_eq!(works.len(), 1);
    assert_eq!(works[0].item_id, id);
    r.driver.shutdown().await;
}

#[tokio::test]
async fn a_hung_sidecar_is_killed_with_its_browsers() {
    let r = rig_with(2, Duration::from_secs(3)).await;
    let profiles = r.driver.config().profiles_dir.clone();
    let page = r
        .driver
        .open("hang", &Identity::for_seed("hang"))
        .await
        .unwrap();
    page.goto(&format!("{}/console/xhs/login", r.sbx.base))
        .await
        .unwrap();
    let pid = r.driver.sidecar_pid().await.unwrap();
    // The sidecar stops answering (as if stuck); its browser keeps running.
    unsafe {
        libc::kill(pid as i32, libc::SIGSTOP);
    }
    match page
        .wait_for("div.never-there", Duration::from_millis(500))
        .await
    {
        Err(DriverError::Crashed(m)) => assert!(m.contains("hung"), "{m}"),
        other => panic!("{other:?}"),
    }
    let mut gone = false;
    for _ in 0..200 {
        if browsers_of(&profiles).is_empty() {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "chromium left behind: {:?}", browsers_of(&profiles));
    // The sidecar itself is gone (or a zombie until its waiter reaps it).
    let state = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| Some(s.rsplit_once(')')?.1.split_whitespace().next()?.to_string()))
    };
    let mut dead = false;
    for _ in 0..200 {
        if state(pid).is_none_or(|s| s == "Z" || s == "X") {
            dead = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(dead, "the hung sidecar still runs: {:?}", state(pid));
    page.close().await;
    r.driver.shutdown().await;
}

#[tokio::test]
async fn an_expired_console_qr_is_replaced_and_the_new_one_shown() {
    let r = rig(2).await;
    let qr = r.ad.start_qr_login().await.unwrap();
    let first = qr.qr_image.unwrap();
    assert_eq!(r.ad.qr_image(&qr.login_id).as_deref(), Some(first.as_str()));
    // The console's QR lives 3 minutes; the page then shows "expired" and offers a new one.
    r.sbx.clock.advance(4 * 60_000);
    let mut renewed = None;
    for _ in 0..40 {
        assert_eq!(
            r.ad.poll_qr_login(&qr.login_id, None).await.unwrap(),
            SessionState::QrPending
        );
        let now = r.ad.qr_image(&qr.login_id).unwrap();
        if now != first {
            renewed = Some(now);
            break;
        }
    }
    let renewed = renewed.expect("a new QR");
    assert!(renewed.starts_with("data:image/png;base64,"));
    // The new QR logs in.
    r.control("scan", json!({"user": "hana"})).await;
    assert!(matches!(
        r.poll_until_not_pending(&qr.login_id, None).await,
        SessionState::LoggedIn { .. }
    ));
    r.driver.shutdown().await;
}

/// Cluster-safe profiles: a login made on one node serves another (the stored state restored into
/// a profile that node never had), and while one node drives an account the other waits for it.
#[tokio::test]
async fn two_nodes_share_an_accounts_login_and_never_drive_it_at_once() {
    use platforms::browser::{MemoryProfiles, ProfileStore};
    let store = Arc::new(MemoryProfiles::default());
    let mut r = rig(2).await;
    r.share_profiles(store.clone());
    let creds = r.login("两节点号").await;
    let first = store
        .load(&creds.token)
        .await
        .unwrap()
        .expect("stored at login");
    assert!(first.state.contains("cookies"), "{:.200}", first.state);

    // Node B never saw the login: its fresh profile takes the stored one.
    let b = r.node(Some(store.clone()));
    b.ad.check(&creds).await.unwrap();
    assert!(b.driver.profile_dir(&creds.token).exists());
    // A node without the shared store is not logged in on its fresh profile.
    let lone = r.node(None);
    let e = lone.ad.check(&creds).await.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Reauthorize, "{e:?}");
    lone.driver.shutdown().await;

    // A publishes slowly; B asks for the works list meanwhile and gets it only after A's post is
    // listed (without the lease it would read the list mid-upload, without the post).
    r.control(
        "faults",
        json!({"user": "两节点号", "slow_upload_ms": 3000}),
    )
    .await;
    let video = r.video(50);
    let a_publish = {
        let req = req("两个节点轮流来", video);
        let (ad, creds) = (&r.ad, creds.clone());
        async move { ad.create(&creds, "", &req).await }
    };
    let b_reads = async {
        // A's upload has begun (the page's own upload, 3 s long) when B asks.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while r.record().await["uploads_begun"].as_u64() == Some(0) {
            assert!(
                std::time::Instant::now() < deadline,
                "A never began its upload"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            store.holder(&creds.token).await.unwrap().is_some(),
            "A holds the lease"
        );
        b.ad.list_works(&creds, 30).await
    };
    let (posted, works) = tokio::join!(a_publish, b_reads);
    let item = posted.unwrap();
    let works = works.unwrap();
    assert!(
        works.iter().any(|w| w.item_id == item),
        "B read the list before A's post: {works:?}"
    );
    assert_eq!(r.received().await.len(), 1);
    assert_eq!(
        store.holder(&creds.token).await.unwrap(),
        None,
        "leases given back"
    );
    b.driver.shutdown().await;
    r.driver.shutdown().await;
}

/// A slider puzzle after the scan: its picture is answered for the person, a piece let go in the
/// wrong place brings a new puzzle, and the place the person chose (the gap on the picture, as a
/// fraction of the track) is dragged by hand and logs in.
#[tokio::test]
async fn a_slider_puzzle_is_shown_and_dragged_where_the_person_placed_it() {
    let r = rig(2).await;
    r.control("faults", json!({"user": "滑块号", "slider": true}))
        .await;
    let qr = r.ad.start_qr_login().await.unwrap();
    r.control("scan", json!({"user": "滑块号"})).await;
    assert_eq!(
        r.poll_until_not_pending(&qr.login_id, None).await,
        SessionState::SliderChallenge
    );
    let SessionState::LoggedIn { session } = r.solve_slider(&qr.login_id).await else {
        panic!("not logged in after the right place");
    };
    assert_eq!(session.nickname, "滑块号");
    // A login nobody started has no puzzle to answer.
    assert!(r.ad.slide("xhs-unknown", 0.5).await.is_err());
    r.driver.shutdown().await;
}

/// A note's comments on the main site's note page: read newest first, a customer's comment
/// answered under it, a top comment of the account's own, each confirmed on the page; a note that
/// does not open fails by name.
#[tokio::test]
async fn comments_are_read_and_answered_on_the_note_page() {
    let r = rig(2).await;
    let creds = r.login("评论号").await;
    let item =
        r.ad.create(&creds, "", &req("评论测试笔记", r.video(20)))
            .await
            .unwrap();
    for (user, content) in [("顾客甲", "请问店在哪里"), ("顾客乙", "周末营业吗")] {
        let ok = r
            .control(
                "comment",
                json!({"note_id": item, "user": user, "content": content}),
            )
            .await;
        assert_eq!(ok["ok"], true, "{ok}");
    }
    let page = r.ad.comment_page(&creds, &item, "", 50).await.unwrap();
    let contents: Vec<&str> = page.list.iter().map(|c| c.content.as_str()).collect();
    assert_eq!(contents, ["周末营业吗", "请问店在哪里"], "newest first");
    assert!(!page.has_more);
    let asked = page.list[1].clone();
    assert!(asked.create_time > 0 && !asked.user_id.is_empty() && asked.user_id != creds.open_id);

    let reply =
        r.ad.reply_comment(&creds, &item, &asked.comment_id, "在人民路88号")
            .await
            .unwrap();
    let top = r.ad.comment(&creds, &item, "欢迎到店品尝").await.unwrap();
    let all = r.control_get(&format!("comments?note_id={item}")).await;
    let by_id = |id: &str| {
        all["comments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("{id} not on the console: {all}"))
    };
    assert_eq!(by_id(&reply)["reply_to"], asked.comment_id.as_str());
    assert_eq!(
        by_id(&reply)["user_id"],
        creds.open_id.as_str(),
        "answered as the account"
    );
    assert_eq!(by_id(&top)["reply_to"], Value::Null);
    let page = r.ad.comment_page(&creds, &item, "", 50).await.unwrap();
    assert_eq!(page.list.len(), 3, "the answer is under its comment");
    assert_eq!(page.list[0].comment_id, top);
    assert_eq!(
        page.list
            .iter()
            .find(|c| c.comment_id == asked.comment_id)
            .unwrap()
            .reply_total,
        1
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

/// A worker of this machine killed mid-flow leaves its lease behind: the next step takes it over at
/// once (the holder's process is gone) instead of waiting minutes for it to run out.
#[tokio::test]
async fn a_lease_left_by_a_killed_worker_of_this_machine_is_taken_over() {
    use platforms::browser::profiles::holder_name;
    use platforms::browser::{MemoryProfiles, ProfileStore};
    let store = Arc::new(MemoryProfiles::default());
    let mut r = rig(2).await;
    r.share_profiles(store.clone());
    let creds = r.login("重启号").await;
    let mut dead: Vec<String> = holder_name().split('/').map(str::to_string).collect();
    dead[1] = "4194304".into(); // no such process
    let dead = dead.join("/");
    assert!(store.lease(&creds.token, &dead, 600_000).await.unwrap());
    let started = std::time::Instant::now();
    r.ad.check(&creds).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "waited {:?} for a dead holder's lease",
        started.elapsed()
    );
    assert_eq!(
        store.holder(&creds.token).await.unwrap(),
        None,
        "given back after the step"
    );
    r.driver.shutdown().await;
}
