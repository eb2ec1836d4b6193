//! Staff sub-accounts, menu permissions enforced on the server, tenant isolation, the operation log.

use crate::common;
use common::*;
use serde_json::{Value, json};

fn paths(menu: &Value) -> Vec<String> {
    let mut out = vec![];
    for n in menu.as_array().unwrap() {
        out.push(n["path"].as_str().unwrap().to_string());
        out.extend(paths(&n["children"]));
    }
    out
}

#[tokio::test]
async fn staff_see_and_reach_only_what_they_were_granted() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let demo = app.demo().await;
        let log_menu = app.menu_id(&demo, "/log").await;
        let staff_menu = app.menu_id(&demo, "/staffAccount").await;

        // Bad input first.
        let r = app
            .post_en(
                "/user.merchant_user_sub/add",
                Some(&demo),
                json!({"username":"a b","password":"abc12345"}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("username"))
        );
        let r = app
            .post_en(
                "/user.merchant_user_sub/add",
                Some(&demo),
                json!({"username":"clerk","password":"abc"}),
            )
            .await;
        assert_eq!(r.data()["field"], "password");
        let r = app
            .post_en(
                "/user.merchant_user_sub/add",
                Some(&demo),
                json!({"username":"clerk","password":"abc12345","menu_ids":[99999]}),
            )
            .await;
        assert_eq!(r.data()["field"], "menu_ids");
        let r = app
            .post_en(
                "/user.merchant_user_sub/add",
                Some(&demo),
                json!({"username":"demo","password":"abc12345"}),
            )
            .await;
        assert_eq!(r.message(), "The username is already taken");

        let r = app.post("/user.merchant_user_sub/add", Some(&demo), json!({"username":"clerk","nickname":"Clerk","password":"abc12345","menu_ids":[log_menu]})).await;
        let sid = r.ok()["id"].as_i64().unwrap();
        assert_eq!(r.data()["menu_ids"], json!([log_menu]));

        // Staff sign in with the staff login only.
        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":1,"username":"clerk","password":"abc12345","agree":true}),
            )
            .await;
        assert_eq!(r.message(), "Staff accounts sign in with the staff login");
        let clerk = app.login(3, "clerk", "abc12345").await;
        let init = app.get("/ajax/initAdmin", Some(&clerk)).await;
        let visible = paths(&init.ok()["menu"]);
        assert_eq!(visible, vec!["/log", "/usercenter"]);
        assert_eq!(init.data()["permissions"], json!(["index/log/*"]));
        assert_eq!(init.data()["role"], json!(["staff"]));

        // The server enforces it: granted module 200, others 403, operator screens 403.
        app.get("/index/log", Some(&clerk)).await.ok();
        let r = app.get("/user.merchant_user_sub/list", Some(&clerk)).await;
        r.expect(403);
        assert_eq!(r.data()["perm"], "user/merchant_user_sub/list");
        assert!(r.message().contains("员工账号"), "{}", r.message());
        app.get("/common.merchant_usage_record/index", Some(&clerk))
            .await
            .expect(403);
        app.get("/index/dashboard", Some(&clerk)).await.expect(403);
        app.get("/system/merchant/index", Some(&clerk))
            .await
            .expect(403);
        app.post("/system/tasks/retry", Some(&clerk), json!({"id":1}))
            .await
            .expect(403);
        // Their own profile and password are always theirs.
        app.get("/index/profile", Some(&clerk)).await.ok();

        // Grant staff management: they may pass on only what they hold.
        let r = app
            .get_q(
                "/user.merchant_user_sub/authMenu",
                Some(&demo),
                json!({"id": sid}),
            )
            .await;
        let tree = paths(&r.ok()["tree"]);
        assert!(
            tree.contains(&"/staffAccount".to_string())
                && !tree.iter().any(|p| p.starts_with("/system"))
        );
        assert!(!tree.contains(&"/usercenter".to_string()));
        app.post(
            "/user.merchant_user_sub/authMenu",
            Some(&demo),
            json!({"id": sid, "menu_ids":[log_menu, staff_menu]}),
        )
        .await
        .ok();
        app.get("/user.merchant_user_sub/list", Some(&clerk))
            .await
            .ok();
        let dash = app.menu_id(&demo, "/dashboard").await;
        let r = app
            .post(
                "/user.merchant_user_sub/add",
                Some(&clerk),
                json!({"username":"helper","password":"abc12345","menu_ids":[dash]}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("menu_ids"))
        );
        let sys = app.menu_id(&app.admin().await, "/system/merchant").await;
        let r = app
            .post(
                "/user.merchant_user_sub/authMenu",
                Some(&demo),
                json!({"id": sid, "menu_ids":[sys]}),
            )
            .await;
        r.expect(422);

        // Edit: nickname, status. Disabling ends the session; the login is refused.
        let r = app
            .post(
                "/user.merchant_user_sub/edit",
                Some(&demo),
                json!({"id": sid, "nickname":"Clerk 2"}),
            )
            .await;
        assert_eq!(r.ok()["nickname"], "Clerk 2");
        app.post(
            "/user.merchant_user_sub/edit",
            Some(&demo),
            json!({"id": sid, "status": 0}),
        )
        .await
        .ok();
        let r = app.get("/index/log", Some(&clerk)).await;
        assert_eq!((r.status, r.code()), (200, 401));
        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":3,"username":"clerk","password":"abc12345","agree":true}),
            )
            .await;
        r.expect(403);
        assert_eq!(r.message(), "The account is disabled");
        app.post(
            "/user.merchant_user_sub/edit",
            Some(&demo),
            json!({"id": sid, "status": 1}),
        )
        .await
        .ok();
        let clerk = app.login(3, "clerk", "abc12345").await;

        // Deleting the staff member ends their session.
        app.post(
            "/user.merchant_user_sub/delete",
            Some(&demo),
            json!({"id": sid}),
        )
        .await
        .ok();
        let r = app.get("/index/log", Some(&clerk)).await;
        assert_eq!((r.status, r.code()), (200, 401));
        app.get_q(
            "/user.merchant_user_sub/info",
            Some(&demo),
            json!({"id": sid}),
        )
        .await
        .expect(404);
    }
}

#[tokio::test]
async fn merchant_b_cannot_touch_merchant_a() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let a = app.demo().await;
        let bt = app.second_merchant(&admin, "other").await;
        let log_menu = app.menu_id(&a, "/log").await;
        let sid = app
            .post(
                "/user.merchant_user_sub/add",
                Some(&a),
                json!({"username":"aclerk","password":"abc12345","menu_ids":[log_menu]}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/index/editProfile",
            Some(&a),
            json!({"nickname":"A owner"}),
        )
        .await
        .ok();

        // B sees none of A's staff, log entries or points.
        let r = app.get("/user.merchant_user_sub/list", Some(&bt)).await;
        assert_eq!(r.ok()["total"], 0);
        let r = app.get("/index/log", Some(&bt)).await;
        assert!(
            r.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .all(|row| row["username"] != "demo")
        );
        let r = app
            .get("/common.merchant_usage_record/index", Some(&bt))
            .await;
        assert_eq!(r.ok()["total"], 0);
        assert_eq!(
            app.get("/index/dashboard", Some(&bt)).await.ok()["points"],
            0
        );

        // Every staff call on A's id answers 404 and changes nothing.
        app.get_q(
            "/user.merchant_user_sub/info",
            Some(&bt),
            json!({"id": sid}),
        )
        .await
        .expect(404);
        app.post(
            "/user.merchant_user_sub/edit",
            Some(&bt),
            json!({"id": sid, "nickname":"pwned"}),
        )
        .await
        .expect(404);
        app.post(
            "/user.merchant_user_sub/edit",
            Some(&bt),
            json!({"id": sid, "password":"pwned1234"}),
        )
        .await
        .expect(404);
        app.get_q(
            "/user.merchant_user_sub/authMenu",
            Some(&bt),
            json!({"id": sid}),
        )
        .await
        .expect(404);
        app.post(
            "/user.merchant_user_sub/authMenu",
            Some(&bt),
            json!({"id": sid, "menu_ids": [log_menu]}),
        )
        .await
        .expect(404);
        app.post(
            "/user.merchant_user_sub/delete",
            Some(&bt),
            json!({"id": sid}),
        )
        .await
        .expect(404);
        // A merchant owner id is not a staff id either.
        let a_owner = app.get("/index/profile", Some(&a)).await.ok()["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/user.merchant_user_sub/delete",
            Some(&bt),
            json!({"id": a_owner}),
        )
        .await
        .expect(404);
        app.post(
            "/user.merchant_user_sub/edit",
            Some(&bt),
            json!({"id": a_owner, "status": 0}),
        )
        .await
        .expect(404);
        let r = app
            .get_q("/user.merchant_user_sub/info", Some(&a), json!({"id": sid}))
            .await;
        assert_eq!(r.ok()["nickname"], "aclerk");
        app.login(3, "aclerk", "abc12345").await;
        // B's failed attempts are in B's log, not A's.
        let r = app.get("/index/log", Some(&a)).await;
        assert!(
            r.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .all(|row| row["username"] != "other")
        );
    }
}

#[tokio::test]
async fn every_mutating_call_is_in_the_operation_log() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let demo = app.demo().await;
        app.post(
            "/user.merchant_user_sub/add",
            Some(&demo),
            json!({"username":"logme","password":"abc12345"}),
        )
        .await
        .ok();
        app.post(
            "/user.merchant_user_sub/add",
            Some(&demo),
            json!({"username":"x","password":"abc12345"}),
        )
        .await
        .expect(422);
        app.get("/user.merchant_user_sub/list", Some(&demo))
            .await
            .ok();
        let r = app
            .post("/index/log", Some(&demo), json!({"page": 1, "limit": 50}))
            .await;
        let rows = r.ok()["rows"].as_array().unwrap().clone();
        let adds: Vec<&Value> = rows
            .iter()
            .filter(|r| r["action"] == "user/merchant_user_sub/add")
            .collect();
        assert_eq!(adds.len(), 2, "{rows:?}");
        assert_eq!(adds[0]["result"], "failed");
        assert_eq!(adds[0]["status"], 422);
        assert_eq!(adds[1]["result"], "success");
        assert_eq!(adds[1]["username"], "demo");
        assert!(
            rows.iter()
                .any(|r| r["action"] == "login/auth/index" && r["result"] == "success")
        );
        // Reads are not logged.
        assert!(
            !rows
                .iter()
                .any(|r| r["action"] == "user/merchant_user_sub/list")
        );
        // Paging and filters.
        let r = app
            .get_q(
                "/index/log",
                Some(&demo),
                json!({"page": "1", "pageSize": "1"}),
            )
            .await;
        assert_eq!(r.ok()["rows"].as_array().unwrap().len(), 1);
        assert!(r.data()["total"].as_i64().unwrap() >= 3);
        let r = app
            .get_q(
                "/index/log",
                Some(&demo),
                json!({"action": "merchant_user_sub"}),
            )
            .await;
        assert_eq!(r.ok()["total"], 2);
        app.get_q("/index/log", Some(&demo), json!({"page": "abc"}))
            .await
            .expect(422);
    }
}

#[tokio::test]
async fn editing_the_profile_keeps_what_is_not_sent() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let t = app.demo().await;
    app.post(
        "/index/editProfile",
        Some(&t),
        json!({"nickname": "Demo", "mobile": "13700137000"}),
    )
    .await
    .ok();
    let r = app
        .post(
            "/index/editProfile",
            Some(&t),
            json!({"nickname": "Demo 2"}),
        )
        .await;
    assert_eq!(
        (r.ok()["nickname"].as_str(), r.data()["mobile"].as_str()),
        (Some("Demo 2"), Some("13700137000"))
    );
    let r = app
        .post(
            "/index/editProfile",
            Some(&t),
            json!({"nickname": "Demo 2", "mobile": ""}),
        )
        .await;
    assert!(r.ok()["mobile"].is_null());
    app.post(
        "/index/editProfile",
        Some(&t),
        json!({"nickname": "", "mobile": ""}),
    )
    .await
    .expect(422);
}

/// A staff member of `owner`'s merchant granted these menus, signed in: (id, token).
async fn staff_member(app: &TestApp, owner: &str, name: &str, menus: &[&str]) -> (i64, String) {
    let mut ids = vec![];
    for m in menus {
        ids.push(app.menu_id(owner, m).await);
    }
    let r = app
        .post(
            "/user.merchant_user_sub/add",
            Some(owner),
            json!({"username": name, "password": "abc12345", "menu_ids": ids}),
        )
        .await;
    let id = r.ok()["id"].as_i64().unwrap();
    (id, app.login(3, name, "abc12345").await)
}

/// A staff member's menu grants are stored exactly as sent and answered as stored: a child without
/// its siblings, with or without its group, grants that child only.
#[tokio::test]
async fn menu_grants_are_stored_and_answered_exactly() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let matrix = app.menu_id(&demo, "/matrix").await;
    let send = app.menu_id(&demo, "/send_management").await;
    let (sid, _) = staff_member(&app, &demo, "sender", &[]).await;
    for ids in [json!([send]), json!([matrix, send])] {
        let r = app
            .post(
                "/user.merchant_user_sub/authMenu",
                Some(&demo),
                json!({"id": sid, "menu_ids": ids}),
            )
            .await;
        assert_eq!(r.ok()["checked"], ids);
        let r = app
            .get_q(
                "/user.merchant_user_sub/authMenu",
                Some(&demo),
                json!({"id": sid}),
            )
            .await;
        assert_eq!(r.ok()["checked"], ids);
        let clerk = app.login(3, "sender", "abc12345").await;
        let init = app.get("/ajax/initAdmin", Some(&clerk)).await;
        assert_eq!(
            paths(&init.ok()["menu"]),
            vec!["/matrix", "/send_management", "/usercenter"]
        );
        app.get("/task.merchant_group_user/index", Some(&clerk))
            .await
            .expect(403);
    }
}

/// A refusal names the function in words in the caller's language; the permission is in `data`.
#[tokio::test]
async fn refusals_name_the_function_in_words() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let (_, clerk) = staff_member(&app, &demo, "reader", &["/log"]).await;
    let r = app
        .post(
            "/task.merchant_group_user/get_qrCode",
            Some(&clerk),
            json!({"platform": "dy"}),
        )
        .await;
    r.expect(403);
    assert_eq!(
        r.message(),
        "您没有「账号授权」的权限，请联系企业管理员开通"
    );
    assert_eq!(r.data()["perm"], "task/merchant_group_user/get_qrCode");
    let r = app
        .post_en(
            "/common.merchant_usage_record/index",
            Some(&clerk),
            json!({}),
        )
        .await;
    assert_eq!(
        (r.status, r.message()),
        (
            403,
            "You have no access to Usage records; ask your account owner to grant it"
        )
    );
    // The operator has no merchant: merchant-only calls say so.
    let admin = app.admin().await;
    let r = app.get("/index/log", Some(&admin)).await;
    assert_eq!((r.status, r.message()), (403, "该功能仅限企业账号使用"));
}

fn tone() -> Vec<u8> {
    ffmpeg_bytes(&["-f", "lavfi", "-i", "sine=f=300", "-t", "1"], "mp3")
}

/// The video-library menu opens the generic upload and rename calls (`/ajax/*`) for its own library
/// only: the music and font libraries stay closed to it, and the music menu cannot touch fonts.
#[tokio::test]
async fn library_menus_write_only_their_own_library() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    let music = app
        .upload(
            "/media.merchant_producing_upfile/add",
            &demo,
            &[("type", "music")],
            "song.mp3",
            tone(),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let ttf = std::fs::read("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        .expect("DejaVu fonts (a fontconfig dependency) on this machine");
    let font = app
        .upload(
            "/media.merchant_font_style/add",
            &demo,
            &[("name", "Body")],
            "body.ttf",
            ttf,
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let (_, video_staff) = staff_member(&app, &demo, "vlib", &["/video"]).await;
    let (_, music_staff) = staff_member(&app, &demo, "mlib", &["/music"]).await;
    let (video_staff, music_staff) = (video_staff.as_str(), music_staff.as_str());

    // Its own library's upload (direct) works.
    let clip = app
        .upload(
            "/media.merchant_much_resource/add_resource",
            video_staff,
            &[],
            "clip.mp4",
            lavfi_video("testsrc2=size=320x240", 440, "1", &[]),
        )
        .await
        .ok()["id"]
        .as_i64()
        .unwrap();
    let upload = |library: &str| json!({"file_name": "f.mp4", "size": 1000, "library": library});
    let rename = |id: i64| json!({"id": id, "name": "renamed"});
    let calls = [
        // The video-library staff member: music and fonts refused; its own library open.
        (video_staff, "/ajax/edit_upfile", rename(music), 403),
        (video_staff, "/ajax/edit_upfile", rename(font), 403),
        (video_staff, "/ajax/ossUpload", upload("music"), 403),
        (
            video_staff,
            "/media.merchant_much_resource/resource_delete",
            json!({"id": music}),
            403,
        ),
        (video_staff, "/ajax/ossUpload", upload("resource"), 200),
        (video_staff, "/ajax/edit_upfile", rename(clip), 200),
        (
            video_staff,
            "/media.merchant_much_resource/resource_delete",
            json!({"id": clip}),
            200,
        ),
        // The music staff member renames music but not fonts, and cannot move a font into music.
        (music_staff, "/ajax/edit_upfile", rename(music), 200),
        (music_staff, "/ajax/ossUpload", upload("music"), 200),
        (music_staff, "/ajax/edit_upfile", rename(font), 403),
        (
            music_staff,
            "/clip.merchant_music_library/save",
            json!({"id": font}),
            403,
        ),
    ];
    for (who, path, body, status) in calls {
        let r = app.post(path, Some(who), body.clone()).await;
        assert_eq!(r.status, status, "{path} {body} {}", r.message());
    }
    let r = app
        .upload(
            "/bpdr.merchant_mediainfo/upload",
            video_staff,
            &[("type", "music")],
            "song.mp3",
            tone(),
        )
        .await;
    assert_eq!(r.status, 403);
    // The refusal names the library in the caller's language.
    let r = app
        .post("/ajax/ossUpload", Some(video_staff), upload("music"))
        .await;
    assert_eq!(
        r.message(),
        "您没有「音乐库」的权限，不能修改其中的文件，请联系企业管理员开通"
    );
    let r = app
        .post_en("/ajax/edit_upfile", Some(video_staff), rename(music))
        .await;
    assert_eq!(
        r.message(),
        "You have no access to Music and cannot change its files; ask your account owner to grant it"
    );
    let r = app
        .get_q("/media.merchant_font_style/index", Some(&demo), json!({}))
        .await;
    assert_eq!(
        r.ok()["rows"][0]["name"],
        "Body",
        "the font was not renamed"
    );
}

/// The operation log names each action in the reader's language and holds only changes: opening a
/// page (lists, trees, form configs, POST or GET) writes nothing.
#[tokio::test]
async fn the_operation_log_names_actions_and_skips_page_views() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let demo = app.demo().await;
    for read in [
        "/task.merchant_forward_task/dy_forward_config",
        "/media.merchant_producing_upfile/music_index",
        "/media.merchant_much_resource/resource_group_tree",
        "/media.merchant_much_resource/video_resource_group_index",
        "/bpdr.merchant_mediainfo/getVoiceName",
        "/matrix.merchant_publish_management/getRandomTopicList",
    ] {
        app.post(read, Some(&demo), json!({})).await.ok();
    }
    for (change, body) in [
        (
            "/media.merchant_much_resource/resource_group_add",
            json!({"name": "Shots"}),
        ),
        (
            "/user.merchant_user_sub/add",
            json!({"username": "named", "password": "abc12345"}),
        ),
    ] {
        app.post(change, Some(&demo), body).await.ok();
    }
    // A change the SPEC sends as GET is a change.
    app.get_q(
        "/clip.merchant_visual_editing/delete",
        Some(&demo),
        json!({"id": "999999"}),
    )
    .await
    .expect(404);

    let rows = app
        .post("/index/log", Some(&demo), json!({"limit": 50}))
        .await
        .ok()["rows"]
        .as_array()
        .unwrap()
        .clone();
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["action_name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec![
            "批量切片 · 删除",
            "员工账号 · 新增",
            "多镜头视频库 · 新增",
            "登录"
        ],
        "{rows:?}"
    );
    let rows = app
        .call("GET", "/index/log", Some(&demo), None, "en")
        .await
        .ok()["rows"]
        .clone();
    assert_eq!(rows[1]["action_name"], "Staff accounts · Add");
    assert_eq!(rows[1]["action"], "user/merchant_user_sub/add");
}
