//! Operator screens: merchants, points top-up and usage, VIP menus, roles, menus, jobs monitor.

mod common;
use common::*;
use serde_json::json;

#[tokio::test]
async fn operator_manages_merchants_points_and_vip_menus() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let r = app.get("/system/merchant/index", Some(&admin)).await;
        assert_eq!(r.ok()["total"], 1);
        let mid = r.data()["rows"][0]["id"].as_i64().unwrap();
        assert_eq!(r.data()["rows"][0]["points"], 1000);

        // Top-up, then the merchant sees the balance and the record.
        app.post(
            "/system/merchant/topup",
            Some(&admin),
            json!({"id": mid, "points": 0}),
        )
        .await
        .expect(422);
        let r = app
            .post(
                "/system/merchant/topup",
                Some(&admin),
                json!({"id": mid, "points": 250, "reason": "promo"}),
            )
            .await;
        assert_eq!(r.ok()["balance"], 1250);
        assert_eq!(
            app.get("/index/dashboard", Some(&demo)).await.ok()["points"],
            1250
        );
        let r = app
            .get("/bpdr.merchant_usage_record/index", Some(&demo))
            .await;
        assert_eq!(r.ok()["total"], 2);
        assert_eq!(r.data()["summary"]["topup"], 1250);
        assert_eq!(r.data()["rows"][0]["operator"], "admin");

        // VIP-only menu: a non-VIP merchant gets the SPEC message; VIP passes.
        let menus = app.get("/system/menu/index", Some(&admin)).await;
        let log = menus
            .ok()
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["path"] == "/log")
            .unwrap()
            .clone();
        app.post(
            "/system/menu/edit",
            Some(&admin),
            json!({"id": log["id"], "vip": true}),
        )
        .await
        .ok();
        let r = app.get_q("/index/log", Some(&demo), json!({})).await;
        r.expect(403);
        let r = app.call("GET", "/index/log", Some(&demo), None, "en").await;
        assert_eq!(
            r.message(),
            "This function is a membership function, please recharge VIP"
        );
        app.post(
            "/system/merchant/edit",
            Some(&admin),
            json!({"id": mid, "vip_expires_at": domain::now_ms() + 86_400_000}),
        )
        .await
        .ok();
        app.get("/index/log", Some(&demo)).await.ok();
        let init = app.get("/ajax/initAdmin", Some(&demo)).await;
        assert!(
            init.ok()["role"]
                .as_array()
                .unwrap()
                .contains(&json!("vip"))
        );

        // Disabling a merchant ends its sessions and refuses sign-in; enabling restores it.
        app.post(
            "/system/merchant/status",
            Some(&admin),
            json!({"id": mid, "status": 0}),
        )
        .await
        .ok();
        let r = app.get("/index/profile", Some(&demo)).await;
        assert_eq!((r.status, r.code()), (200, 401));
        app.post(
            "/login/auth",
            None,
            json!({"login_type":1,"username":"demo","password":DEMO_PW,"agree":true}),
        )
        .await
        .expect(403);
        app.post(
            "/system/merchant/status",
            Some(&admin),
            json!({"id": mid, "status": 1}),
        )
        .await
        .ok();
        app.post(
            "/system/merchant/resetPassword",
            Some(&admin),
            json!({"id": mid, "password": "weak"}),
        )
        .await
        .expect(422);
        app.post(
            "/system/merchant/resetPassword",
            Some(&admin),
            json!({"id": mid, "password": "Reset1234"}),
        )
        .await
        .ok();
        app.login(1, "demo", "Reset1234").await;

        // New merchants; the user list spans them; merchants cannot call any of this.
        let r = app
            .post(
                "/system/merchant/add",
                Some(&admin),
                json!({"name":"Shop 2","username":"shop2","password":"abc12345"}),
            )
            .await;
        assert_eq!(r.ok()["username"], "shop2");
        app.post(
            "/system/merchant/add",
            Some(&admin),
            json!({"name":"Shop 3","username":"shop2","password":"abc12345"}),
        )
        .await
        .expect(422);
        let r = app
            .get_q(
                "/system/user/index",
                Some(&admin),
                json!({"kind": "merchant"}),
            )
            .await;
        assert_eq!(r.ok()["total"], 2);
        let d2 = app.demo_or("Reset1234").await;
        for p in [
            "/system/merchant/index",
            "/system/user/index",
            "/system/log/index",
            "/system/tasks/index",
            "/system/role/index",
            "/system/menu/index",
        ] {
            let r = app.get(p, Some(&d2)).await;
            r.expect(403);
        }
        // The operator's log view spans merchants.
        let r = app
            .get_q("/system/log/index", Some(&admin), json!({"limit": "100"}))
            .await;
        assert!(
            r.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["action"] == "system/merchant/topup")
        );
    }
}

#[tokio::test]
async fn roles_add_permissions_to_staff() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        app.post(
            "/system/role/add",
            Some(&admin),
            json!({"name":"auditor","permissions":["bad perm"]}),
        )
        .await
        .expect(422);
        let r = app
            .post(
                "/system/role/add",
                Some(&admin),
                json!({"name":"auditor","permissions":["common/merchant_usage_record/*"]}),
            )
            .await;
        let rid = r.ok()["id"].as_i64().unwrap();
        app.post(
            "/system/role/add",
            Some(&admin),
            json!({"name":"auditor","permissions":[]}),
        )
        .await
        .expect(422);
        let sid = app
            .post(
                "/user.merchant_user_sub/add",
                Some(&demo),
                json!({"username":"aud","password":"abc12345"}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        let aud = app.login(3, "aud", "abc12345").await;
        app.get("/common.merchant_usage_record/index", Some(&aud))
            .await
            .expect(403);
        app.post(
            "/user.merchant_user_sub/edit",
            Some(&demo),
            json!({"id": sid, "role_ids": [rid]}),
        )
        .await
        .ok();
        app.get("/common.merchant_usage_record/index", Some(&aud))
            .await
            .ok();
        app.post("/system/role/delete", Some(&admin), json!({"id": rid}))
            .await
            .expect(422);
        app.post(
            "/system/role/edit",
            Some(&admin),
            json!({"id": rid, "name":"auditor2","permissions":[]}),
        )
        .await
        .ok();
        app.get("/common.merchant_usage_record/index", Some(&aud))
            .await
            .expect(403);
    }
}

#[tokio::test]
async fn jobs_monitor_lists_and_retries_dead_jobs() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let id = store::jobs::submit(
            &app.db,
            &store::jobs::NewJob {
                kind: "test.fail".into(),
                max_attempts: Some(1),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let job = store::jobs::claim(&app.db, "w1", &["test.fail".into()], 30_000)
            .await
            .unwrap()
            .unwrap();
        store::jobs::fail(&app.db, job.id, "w1", "ffmpeg: broken pipe", 0, false)
            .await
            .unwrap();
        let r = app
            .get_q(
                "/system/tasks/index",
                Some(&admin),
                json!({"state": "dead"}),
            )
            .await;
        let row = &r.ok()["rows"][0];
        assert_eq!(
            (
                row["id"].as_i64(),
                row["last_error"].as_str(),
                row["attempts"].as_i64()
            ),
            (Some(id), Some("ffmpeg: broken pipe"), Some(1))
        );
        let r = app
            .post("/system/tasks/retry", Some(&admin), json!({"id": id}))
            .await;
        assert_eq!(r.ok()["state"], "queued");
        app.post("/system/tasks/retry", Some(&admin), json!({"id": id}))
            .await
            .expect(422);
        app.post("/system/tasks/retry", Some(&admin), json!({"id": 424242}))
            .await
            .expect(404);
    }
}

#[tokio::test]
async fn dictionaries_are_read_by_name_and_edited_by_the_operator() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let r = app
            .get_q("/system/dic", Some(&demo), json!({"name": "log_result"}))
            .await;
        assert_eq!(r.ok()[0]["value"], "success");
        app.get_q("/system/dic", Some(&demo), json!({"name": "nope"}))
            .await
            .expect(404);
        app.get("/system/dic", Some(&demo)).await.expect(422);
        app.get("/system/dic", None).await.expect(401);
        app.post(
            "/system/dic/save",
            Some(&demo),
            json!({"name":"x","options":[]}),
        )
        .await
        .expect(403);
        app.post(
            "/system/dic/save",
            Some(&admin),
            json!({"name":"bad name","options":[]}),
        )
        .await
        .expect(422);
        app.post(
            "/system/dic/save",
            Some(&admin),
            json!({"name":"city","options":[{"label":"A","value":"a"},{"label":"B","value":"a"}]}),
        )
        .await
        .expect(422);
        let r = app
            .post(
                "/system/dic/save",
                Some(&admin),
                json!({"name":"city","title":"City","options":[{"label":"杭州","value":"hz"}]}),
            )
            .await;
        let id = r.ok()["id"].clone();
        assert_eq!(
            app.get_q("/system/dic", Some(&demo), json!({"name": "city"}))
                .await
                .ok()[0]["label"],
            "杭州"
        );
        let r = app
            .get_q("/system/dic/index", Some(&admin), json!({"name": "cit"}))
            .await;
        assert_eq!(r.ok()["total"], 1);
        app.post("/system/dic/delete", Some(&admin), json!({"id": id}))
            .await
            .ok();
        app.get_q("/system/dic", Some(&demo), json!({"name": "city"}))
            .await
            .expect(404);
    }
}

#[tokio::test]
async fn list_calls_reject_bad_filters_with_422_naming_the_field() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let demo = app.demo().await;
        let cases = [
            (
                json!({"filterObj": {"password_hash": "x|="}}),
                "password_hash",
            ),
            (json!({"filterObj": {"status": "1|include"}}), "status"),
            (
                json!({"filterObj": {"created_at": "yesterday|="}}),
                "created_at",
            ),
            (json!({"prop": "password_hash"}), "prop"),
            (json!({"order": "random"}), "order"),
            (json!({"filterObj": "not json"}), "filterObj"),
        ];
        for (body, field) in cases {
            let r = app
                .post_en("/user.merchant_user_sub/list", Some(&demo), body.clone())
                .await;
            assert_eq!(
                (r.status, r.data()["field"].as_str()),
                (422, Some(field)),
                "{body} -> {}",
                r.body
            );
        }
        // A date range over today finds the staff member just added; GET with filterObj as a JSON string works.
        app.post(
            "/user.merchant_user_sub/add",
            Some(&demo),
            json!({"username":"ranged","password":"abc12345"}),
        )
        .await
        .ok();
        let r = app
            .get_q("/user.merchant_user_sub/list", Some(&demo), json!({"filterObj": "{\"created_at\":\"2020-01-01,2099-12-31|include\",\"username\":\"rang|include\"}"}))
            .await;
        assert_eq!(r.ok()["total"], 1);
        let r = app
            .post(
                "/user.merchant_user_sub/list",
                Some(&demo),
                json!({"filterObj": {"created_at": "2099-01-01|>="}}),
            )
            .await;
        assert_eq!(r.ok()["total"], 0);
    }
}
