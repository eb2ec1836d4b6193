//! Operator screens: merchants, points top-up and usage, VIP menus, roles, menus, jobs monitor.

use crate::common;
use common::*;
use domain::i18n::Lang;
use domain::jobs::JobKind;
use serde_json::{Value, json};

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
                max_attempts: Some(1),
                ..store::jobs::NewJob::new(domain::jobs::Job::MaintenanceCleanup(
                    domain::jobs::Cleanup,
                ))
            },
        )
        .await
        .unwrap();
        // No worker runs in this test: the job is claimed and failed by hand.
        let job = store::jobs::claim(&app.db, "w1", &[JobKind::MaintenanceCleanup], 30_000)
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

/// The job monitor's kind filter reads `job_kind`: every kind the queue runs, labelled in the
/// caller's language, straight from `JobKind` (so the console's list cannot drift from the server's).
#[tokio::test]
async fn the_job_kind_dictionary_is_every_job_kind() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let admin = app.admin().await;
    let q = Some(json!({"name": "job_kind"}));
    for lang in [Lang::Zh, Lang::En] {
        let header = if lang == Lang::Zh { "zh-cn" } else { "en" };
        let r = app
            .call("GET", "/system/dic", Some(&admin), q.clone(), header)
            .await;
        let want: Vec<Value> = JobKind::ALL
            .iter()
            .map(|k| json!({"label": k.label().template(lang), "value": k.as_str()}))
            .collect();
        assert_eq!(r.ok(), &Value::Array(want));
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

/// Usage-record reasons and the update log in the reader's language only (a regression: zh users saw
/// "video synthesis", "welcome points", "system", and the update log in both languages). Rows written
/// before the reasons became codes are moved over by the migration.
#[tokio::test]
async fn usage_reasons_and_the_update_log_read_in_the_readers_language() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let mid = demo_merchant(&app).await;
        for body in [
            json!({"id": mid, "points": 10}),
            json!({"id": mid, "points": 5, "reason": "春节活动"}),
        ] {
            app.post("/system/merchant/topup", Some(&admin), body)
                .await
                .ok();
        }
        store::system::points::deduct(
            &app.db,
            mid,
            3,
            domain::system::points::Reason::VideoSynthesis,
            "render:t",
        )
        .await
        .unwrap();
        // A row as the old code wrote it, then the migration's conversion (run again over it).
        sqlx::query(
            "INSERT INTO points_ledger (merchant_id, change, balance, kind, reason, job_key, operator, created_at) \
             VALUES ($1, 1, 1013, 'refund', 'video synthesis failed', 'refund:old', '', 0)",
        )
        .bind(mid)
        .execute(&app.db.pool)
        .await
        .unwrap();
        let migration = match b {
            Backend::Sqlite => include_str!("../../store/migrations/sqlite/0010_reason_codes.sql"),
            Backend::Postgres => {
                include_str!("../../store/migrations/postgres/0010_reason_codes.sql")
            }
        };
        for stmt in migration
            .split(';')
            .map(str::trim)
            .filter(|s| s.contains("UPDATE points_ledger"))
        {
            let sql = stmt
                .lines()
                .filter(|l| !l.trim_start().starts_with("--"))
                .collect::<Vec<_>>()
                .join("\n");
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(&app.db.pool)
                .await
                .unwrap();
        }

        let read = |lang: &'static str| {
            let app = &app;
            let demo = demo.clone();
            async move {
                let r = app
                    .call(
                        "GET",
                        "/common.merchant_usage_record/index",
                        Some(&demo),
                        None,
                        lang,
                    )
                    .await;
                r.ok()["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| {
                        (
                            e["reason"].as_str().unwrap().to_string(),
                            e["operator"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect::<Vec<_>>()
            }
        };
        let pairs = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            read("zh-cn").await,
            pairs(&[
                ("视频合成失败，点数退还", "系统"),
                ("视频合成", "系统"),
                ("春节活动", "admin"),
                ("充值", "admin"),
                ("注册赠送", "系统"),
            ])
        );
        assert_eq!(
            read("en").await,
            pairs(&[
                ("Video synthesis failed, points returned", "System"),
                ("Video synthesis", "System"),
                ("春节活动", "admin"),
                ("Top-up", "admin"),
                ("Welcome points", "System"),
            ])
        );

        let log = |lang: &'static str| {
            let app = &app;
            async move {
                let r = app
                    .call("GET", "/version_log/getList", None, None, lang)
                    .await;
                r.ok()["rows"][0]["content"].as_str().unwrap().to_string()
            }
        };
        let (zh, en) = (log("zh-cn").await, log("en").await);
        assert!(
            zh.starts_with("控制台基础") && !zh.contains("Console"),
            "{zh}"
        );
        assert!(
            en.starts_with("Console foundation") && !en.contains('控'),
            "{en}"
        );
    }
}

/// A unique violation no handler checked for beforehand names the field of the violated
/// constraint, not always the username.
#[tokio::test]
async fn unique_violations_name_their_field() {
    use axum::response::IntoResponse;
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let role = json!({"name": "auditor", "permissions": []});
        app.post("/system/role/add", Some(&admin), role.clone())
            .await
            .ok();
        let r = app.post_en("/system/role/add", Some(&admin), role).await;
        assert_eq!(
            (r.status, r.data()["field"].as_str(), r.message()),
            (422, Some("name"), "This name is already taken")
        );
        // A username and a matrix group name taken between a handler's check and its insert.
        let rendered = |e: sqlx::Error| {
            let res = api::error::HttpError(api::error::ApiError::Db(e)).into_response();
            let pending = res.extensions().get::<api::error::PendingError>().unwrap();
            pending.render(domain::i18n::Lang::Zh, "")
        };
        let e = store::auth::users::create_operator(&app.db, "admin", "x")
            .await
            .unwrap_err();
        let v = rendered(e);
        assert_eq!(
            (&v["data"]["field"], &v["message"]),
            (&json!("username"), &json!("用户名已存在"))
        );
        let mid = demo_merchant(&app).await;
        let g = store::matrix::add_group(&app.db, mid, "华东门店").await;
        assert!(g.unwrap().is_some());
        let e = sqlx::query(
            "INSERT INTO matrix_groups (merchant_id, name, created_at, updated_at) VALUES ($1, '华东门店', 0, 0)",
        )
        .bind(mid)
        .execute(&app.db.pool)
        .await
        .unwrap_err();
        let v = rendered(e);
        assert_eq!(
            (&v["data"]["field"], &v["message"]),
            (&json!("name"), &json!("分组名称已存在"))
        );
    }
}

/// The operation log keeps a refusal as its message key and arguments: each reader sees it in their
/// language (a field named by its label), and rows written before keys were stored read as written.
#[tokio::test]
async fn the_operation_log_reads_in_the_readers_language() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let mid = app.get("/system/merchant/index", Some(&admin)).await.ok()["rows"][0]["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/system/merchant/topup",
            Some(&admin),
            json!({"id": mid, "points": 0}),
        )
        .await
        .expect(422);
        app.post(
            "/system/merchant/add",
            Some(&admin),
            json!({"name": "", "username": "shop2", "password": "secret123"}),
        )
        .await
        .expect(422);
        store::system::oplog::write(
            &app.db,
            &store::system::oplog::NewLog {
                username: "old".into(),
                method: "POST".into(),
                path: "/system/merchant/edit".into(),
                action: "system/merchant/edit".into(),
                result: "failed",
                status: 422,
                message: "旧的消息".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let message_of = |rows: &Value, path: &str| {
            rows.as_array()
                .unwrap()
                .iter()
                .find(|r| r["path"] == path)
                .map(|r| r["message"].as_str().unwrap().to_string())
                .unwrap()
        };
        let zh = app.get("/system/log/index", Some(&admin)).await.ok()["rows"].clone();
        let en = app
            .call("GET", "/system/log/index", Some(&admin), None, "en")
            .await
            .ok()["rows"]
            .clone();
        for (rows, lang) in [(&zh, Lang::Zh), (&en, Lang::En)] {
            assert_eq!(
                message_of(rows, "/system/merchant/topup"),
                domain::i18n::Msg::PointsInvalid.template(lang)
            );
            assert_eq!(message_of(rows, "/system/merchant/edit"), "旧的消息");
        }
        let required = message_of(&en, "/system/merchant/add");
        assert!(required.ends_with(" is required"), "{required}");
        assert!(
            !message_of(&zh, "/system/merchant/add").is_ascii(),
            "{zh:?}"
        );
    }
}
