//! Personal API tokens and downloads of finished videos (issue 44, parts 1 and 5): a token acts as its
//! owner's session narrowed by its scopes, is refused at once when revoked or expired, never exceeds a
//! staff member's menus, sees nothing of another merchant; finished videos download through signed,
//! expiring links, several as one streamed zip.

use crate::common;
use common::*;
use serde_json::{Value, json};

const DAY: i64 = 86_400_000;

/// A token of the caller's: (its id, the token).
async fn token(app: &TestApp, t: &str, name: &str, scopes: &[&str], days: i64) -> (i64, String) {
    let r = app
        .post(
            "/index/addApiToken",
            Some(t),
            json!({"name": name, "scopes": scopes, "expires_in_days": days}),
        )
        .await;
    let d = r.ok();
    let tok = d["token"].as_str().unwrap().to_string();
    assert!(tok.starts_with("cmx_") && tok.len() > 40, "{tok}");
    (d["id"].as_i64().unwrap(), tok)
}

fn rows(r: &Resp) -> Vec<Value> {
    r.ok()["rows"].as_array().unwrap().clone()
}

#[tokio::test]
async fn tokens_act_within_their_scopes_and_end_at_once() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let demo = app.demo().await;

        // Bad input names its field.
        let r = app
            .post_en(
                "/index/addApiToken",
                Some(&demo),
                json!({"name": "x", "scopes": [], "expires_in_days": 30}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("scopes"))
        );
        let r = app
            .post_en(
                "/index/addApiToken",
                Some(&demo),
                json!({"name": "x", "scopes": ["read"], "expires_in_days": 400}),
            )
            .await;
        assert_eq!(r.data()["field"], "expires_in_days");

        let (read_id, read) = token(&app, &demo, "reader", &["read"], 30).await;
        // Reads work, as the owner's session would.
        app.get("/ajax/initAdmin", Some(&read)).await.ok();
        app.get("/clip.merchant_video_library/index", Some(&read))
            .await
            .ok();
        app.post("/common.merchant_report/overview", Some(&read), json!({}))
            .await
            .ok();
        // A read token creates nothing and publishes nothing: refused before the call runs.
        for path in [
            "/matrix.merchant_publish_management/createPublishTask",
            "/task.merchant_forward_task/manual_forward",
            "/media.merchant_much_resource/resource_group_add",
            "/clip.merchant_much_clip/add",
        ] {
            let r = app.post_en(path, Some(&read), json!({"name": "g"})).await;
            r.expect(403);
            assert!(r.message().contains("scopes (read)"), "{path}: {}", r.body);
        }
        // No token changes the account, renews a session or makes tokens.
        for path in [
            "/index/addApiToken",
            "/index/editProfile",
            "/token",
            "/login/logout",
        ] {
            app.post(path, Some(&read), json!({"name": "n", "nickname": "n"}))
                .await
                .expect(403);
        }
        app.get("/index/apiTokens", Some(&read)).await.expect(403);

        // A materials token changes the material libraries only; the operation log names the token.
        let (_, mat) = token(&app, &demo, "ci-bot", &["materials"], 30).await;
        app.post(
            "/media.merchant_much_resource/resource_group_add",
            Some(&mat),
            json!({"name": "from the bot"}),
        )
        .await
        .ok();
        app.post(
            "/matrix.merchant_publish_management/createPublishTask",
            Some(&mat),
            json!({}),
        )
        .await
        .expect(403);
        let log = app
            .get_q("/index/log", Some(&demo), json!({"username": "ci-bot"}))
            .await;
        let names: Vec<String> = rows(&log)
            .iter()
            .map(|r| r["username"].as_str().unwrap().to_string())
            .collect();
        assert!(
            !names.is_empty() && names.iter().all(|n| n == "demo [token: ci-bot]"),
            "{names:?}"
        );

        // The list shows every token with its last use, never the token itself.
        let list = app.get("/index/apiTokens", Some(&demo)).await;
        let list = rows(&list);
        assert_eq!(list.len(), 2);
        let reader = list.iter().find(|t| t["id"] == read_id).unwrap();
        assert!(reader["last_used_at"].as_i64().is_some(), "{reader}");
        assert_eq!(reader["scopes"], json!(["read"]));
        assert!(reader.get("token").is_none());
        assert!(!list.iter().any(|t| t.to_string().contains(&read)));

        // Revoked: refused at the very next call.
        app.post("/index/revokeApiToken", Some(&demo), json!({"id": read_id}))
            .await
            .ok();
        app.get("/ajax/initAdmin", Some(&read)).await.expect(401);
        let list = app.get("/index/apiTokens", Some(&demo)).await;
        let reader = rows(&list)
            .into_iter()
            .find(|t| t["id"] == read_id)
            .unwrap();
        assert_eq!(reader["active"], false);

        // Expired on the product's clock: a one-day token, two days on.
        let (_, short) = token(&app, &demo, "short", &["reports"], 1).await;
        app.get("/ajax/initAdmin", Some(&short)).await.ok();
        app.db.clock.advance(2 * DAY);
        app.get("/ajax/initAdmin", Some(&short)).await.expect(401);
        // A made-up token is refused the same way.
        app.get("/ajax/initAdmin", Some("cmx_nothing"))
            .await
            .expect(401);
    }
}

#[tokio::test]
async fn a_staff_token_never_exceeds_the_staff_members_menus() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let demo = app.demo().await;
        let log_menu = app.menu_id(&demo, "/log").await;
        let r = app
            .post(
                "/user.merchant_user_sub/add",
                Some(&demo),
                json!({"username": "clerk", "nickname": "Clerk", "password": "abc12345", "menu_ids": [log_menu]}),
            )
            .await;
        let sid = r.ok()["id"].as_i64().unwrap();
        let clerk = app.login(3, "clerk", "abc12345").await;
        // Every scope, yet only what the clerk's menus open.
        let all = [
            "read",
            "materials",
            "clip",
            "publish",
            "engagement",
            "reports",
        ];
        let (_, tok) = token(&app, &clerk, "clerk-bot", &all, 30).await;
        app.get("/index/log", Some(&tok)).await.ok();
        app.get("/clip.merchant_video_library/index", Some(&tok))
            .await
            .expect(403);
        app.post(
            "/media.merchant_much_resource/resource_group_add",
            Some(&tok),
            json!({"name": "g"}),
        )
        .await
        .expect(403);
        // The merchant takes the menu away: the token loses it at the next call.
        app.post(
            "/user.merchant_user_sub/authMenu",
            Some(&demo),
            json!({"id": sid, "menu_ids": []}),
        )
        .await
        .ok();
        app.get("/index/log", Some(&tok)).await.expect(403);
        // A removed staff member's tokens end with their sessions (body code 401, as a session's).
        app.post(
            "/user.merchant_user_sub/delete",
            Some(&demo),
            json!({"id": sid}),
        )
        .await
        .ok();
        assert_eq!(app.get("/ajax/initAdmin", Some(&tok)).await.code(), 401);
    }
}

#[tokio::test]
async fn a_token_sees_nothing_of_another_merchant() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let other = app.second_merchant(&admin, "othershop").await;
        let g = group(&app, &demo, "demo's shots").await;
        let (demo_tok_id, _) = token(&app, &demo, "demo-bot", &["read"], 30).await;
        let (_, tok) = token(&app, &other, "other-bot", &["materials"], 30).await;
        let groups = app
            .get(
                "/media.merchant_much_resource/video_resource_group_index",
                Some(&tok),
            )
            .await;
        assert!(
            !rows(&groups).iter().any(|r| r["id"] == g),
            "{}",
            groups.body
        );
        app.post(
            "/media.merchant_much_resource/resource_group_delete",
            Some(&tok),
            json!({"id": g}),
        )
        .await
        .expect(404);
        // Nor another user's tokens.
        let list = app.get("/index/apiTokens", Some(&other)).await;
        assert_eq!(rows(&list).len(), 1);
        app.post(
            "/index/revokeApiToken",
            Some(&other),
            json!({"id": demo_tok_id}),
        )
        .await
        .expect(404);
        // The operator has no tenant to reach with a token.
        app.post(
            "/index/addApiToken",
            Some(&admin),
            json!({"name": "op", "scopes": ["read"], "expires_in_days": 1}),
        )
        .await
        .expect(403);
    }
}

#[tokio::test]
async fn each_token_has_its_own_budget() {
    let app = TestApp::spawn_with(Backend::Sqlite, |s| {
        s.token_limits = std::sync::Arc::new(services::limits::LoginLimits::with_rules(
            std::sync::Arc::new(domain::now_ms),
            services::limits::Rule {
                burst: 3.0,
                per_min: 1.0,
            },
            services::limits::SERVER,
        ));
    })
    .await;
    let demo = app.demo().await;
    let (_, a) = token(&app, &demo, "a", &["read"], 1).await;
    let (_, b) = token(&app, &demo, "b", &["read"], 1).await;
    for _ in 0..3 {
        app.get("/ajax/initAdmin", Some(&a)).await.ok();
    }
    let r = app.get("/ajax/initAdmin", Some(&a)).await;
    r.expect(429);
    // Another token, and the session, are not held back.
    app.get("/ajax/initAdmin", Some(&b)).await.ok();
    app.get("/ajax/initAdmin", Some(&demo)).await.ok();
}

// ---- downloads ----

/// Finished videos of the demo merchant, put straight into the library (as an import does): their ids
/// and bytes. The bytes are made up: a download moves them as they are.
async fn finished(app: &TestApp, n: usize, size: usize) -> Vec<(i64, Vec<u8>)> {
    let mid = demo_merchant(app).await;
    let mut out = vec![];
    for i in 0..n {
        let bytes: Vec<u8> = (0..size).map(|j| ((j * 31 + i * 7) % 251) as u8).collect();
        let key = media::Storage::new_key(mid, "mp4");
        app.state
            .storage
            .put_bytes(&key, bytes.clone())
            .await
            .unwrap();
        let id = store::clip::import_variant(&app.db, mid, 90_000 + i as i64, 1000, &key, "")
            .await
            .unwrap()
            .unwrap();
        out.push((id, bytes));
    }
    out
}

async fn fetch(app: &TestApp, url: &str) -> reqwest::Response {
    app.http.get(app.url(url)).send().await.unwrap()
}

#[tokio::test]
async fn finished_videos_download_singly_and_as_a_zip() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let demo = app.demo().await;
        let videos = finished(&app, 3, 300_000).await;
        let ids: Vec<i64> = videos.iter().map(|v| v.0).collect();

        // One: the file itself, an attachment, resumable with Range.
        let link = app
            .post(
                "/clip.merchant_video_library/download",
                Some(&demo),
                json!({"ids": [ids[0]]}),
            )
            .await;
        let link = link.ok().clone();
        assert_eq!(link["zip"], false);
        let url = link["url"].as_str().unwrap();
        let res = fetch(&app, url).await;
        assert_eq!(res.status(), 200);
        assert!(
            res.headers()["content-disposition"]
                .to_str()
                .unwrap()
                .starts_with("attachment")
        );
        assert_eq!(res.bytes().await.unwrap().as_ref(), &videos[0].1[..]);
        let part = app
            .http
            .get(app.url(url))
            .header("range", "bytes=1000-")
            .send()
            .await
            .unwrap();
        assert_eq!(part.status(), 206);
        assert_eq!(part.bytes().await.unwrap().as_ref(), &videos[0].1[1000..]);

        // Several: one zip, streamed, every entry whole and checked by unzip.
        let link = app
            .post(
                "/clip.merchant_video_library/download",
                Some(&demo),
                json!({"ids": ids}),
            )
            .await;
        let link = link.ok().clone();
        assert_eq!(
            (link["zip"].as_bool(), link["files"].as_i64()),
            (Some(true), Some(3))
        );
        let url = link["url"].as_str().unwrap().to_string();
        let res = fetch(&app, &url).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.headers()["content-type"], "application/zip");
        let etag = res.headers()["etag"].to_str().unwrap().to_string();
        let declared: u64 = res.headers()["content-length"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        let zip = res.bytes().await.unwrap();
        assert_eq!(zip.len() as u64, declared);
        let dir = common::tempdir::TempDir::new();
        let path = dir.path.join("v.zip");
        std::fs::write(&path, &zip).unwrap();
        let test = std::process::Command::new("unzip")
            .arg("-t")
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            test.status.success(),
            "{}",
            String::from_utf8_lossy(&test.stdout)
        );
        let out = dir.path.join("out");
        let x = std::process::Command::new("unzip")
            .args(["-q", "-d"])
            .arg(&out)
            .arg(&path)
            .status()
            .unwrap();
        assert!(x.success());
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        let mut want: Vec<String> = ids.iter().map(|id| format!("video-{id}.mp4")).collect();
        want.sort();
        assert_eq!(names, want);
        for (id, bytes) in &videos {
            let got = std::fs::read(out.join(format!("video-{id}.mp4"))).unwrap();
            assert!(got == *bytes, "entry {id} differs");
        }

        // An interrupted zip resumes: the rest from any byte (inside an entry, here the second),
        // named by the same ETag, is exactly the rest of the whole; a stale If-Range gets it whole.
        let cut = zip.len() / 2;
        let rest = app
            .http
            .get(app.url(&url))
            .header("range", format!("bytes={cut}-"))
            .header("if-range", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(rest.status(), 206);
        assert_eq!(
            rest.headers()["content-range"],
            format!("bytes {cut}-{}/{}", zip.len() - 1, zip.len()).as_str()
        );
        assert!(rest.bytes().await.unwrap().as_ref() == &zip[cut..]);
        let stale = app
            .http
            .get(app.url(&url))
            .header("range", format!("bytes={cut}-"))
            .header("if-range", "\"other\"")
            .send()
            .await
            .unwrap();
        assert_eq!(stale.status(), 200);
        assert_eq!(stale.bytes().await.unwrap().len(), zip.len());
        let past = app
            .http
            .get(app.url(&url))
            .header("range", format!("bytes={}-", zip.len()))
            .send()
            .await
            .unwrap();
        assert_eq!(past.status(), 416);

        // A tampered link (another id slipped in, the expiry pushed) is refused; an expired one is gone.
        let tampered = url.replace("ids=", "ids=999999,");
        assert_ne!(tampered, url);
        assert_eq!(fetch(&app, &tampered).await.status(), 403);
        let e = url
            .split(['?', '&'])
            .find_map(|p| p.strip_prefix("e="))
            .unwrap();
        let later = url.replace(
            &format!("e={e}"),
            &format!("e={}", e.parse::<i64>().unwrap() + 1),
        );
        assert_eq!(fetch(&app, &later).await.status(), 403);
        let mid = demo_merchant(&app).await;
        let past = domain::now_ms() - 1000;
        let expired = services::links::zip_url(&app.state.jwt_key, mid, &ids, past);
        assert_eq!(fetch(&app, &expired).await.status(), 410);
        let single = services::links::download_url(&app.state.jwt_key, ids[0], "clip", past);
        assert_eq!(fetch(&app, &single).await.status(), 410);

        // Another merchant's ids are refused, all or none.
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "othershop").await;
        for body in [json!({"ids": ids}), json!({"ids": [ids[0]]})] {
            app.post("/clip.merchant_video_library/download", Some(&other), body)
                .await
                .expect(404);
        }
        // A read token downloads (a download reads).
        let (_, read) = token(&app, &demo, "reader", &["read"], 1).await;
        app.post(
            "/clip.merchant_video_library/download",
            Some(&read),
            json!({"ids": ids}),
        )
        .await
        .ok();
    }
}
