//! Matrix publishing end to end against the in-process platform sandbox: authorizing accounts (DY
//! consent page, XHS QR login, BJH app token), the release-task rules, the distribution plan, review
//! by the operator, the publisher (verified against the account's work list), platform faults and
//! tenant isolation. Each app has its own platform clock, so a test moving it leaves the others' alone
//! (a share link's ticket lives minutes on that clock).

use crate::common;
use common::publish::*;
use common::*;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

/// An XHS login through its console in the browser (the app is `spawn_with_browser`), the console
/// asking for an SMS code after the scan: the dialog's calls answer `sms_challenge`, then take the
/// code the person typed. Returns the account id.
async fn authorize_xhs(app: &TestApp, t: &str) -> i64 {
    let user = "短信红薯";
    sandbox(
        app,
        "console/xhs/faults",
        Some(json!({"user": user, "sms": true})),
    )
    .await;
    let r = app
        .post("/task.merchant_group_user/xhsLogin", Some(t), json!({}))
        .await;
    let login_id = r.ok()["login_id"].as_str().unwrap().to_string();
    let poll = |sms: Option<&str>| {
        let mut body = json!({"login_id": login_id});
        if let Some(code) = sms {
            body["sms_code"] = json!(code);
        }
        app.post("/task.merchant_group_user/xhsLogin", Some(t), body)
    };
    assert_eq!(poll(None).await.ok()["state"], "qr_pending");
    let scanned = sandbox(app, "console/xhs/scan", Some(json!({"user": user}))).await;
    assert_eq!(scanned["ok"], true, "{scanned}");
    let mut state = Value::Null;
    for _ in 0..40 {
        state = poll(None).await.ok()["state"].clone();
        if state == "sms_challenge" {
            break;
        }
    }
    assert_eq!(state, "sms_challenge");
    for _ in 0..40 {
        let done = poll(Some("246810")).await;
        if done.ok()["state"] == "logged_in" {
            return done.ok()["account"]["id"].as_i64().unwrap();
        }
    }
    panic!("the SMS code did not log in");
}

#[tokio::test]
async fn publishing_end_to_end() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        // Late evening China time: the start date's posting window has passed, so the plan must
        // start tomorrow, not squeeze today's posts past midnight (it failed at 22:00–24:00).
        at_china_time(&app, 23, 30);
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;

        let dy = authorize_dy(&app, &t).await;
        let ks = authorize_oauth(&app, &t, "ks").await;
        let list = app
            .post("/task.merchant_group_user/index", Some(&t), json!({}))
            .await;
        assert_eq!(list.ok()["total"], 2);
        assert_eq!(list.ok()["summary"]["active"], 2);
        let row = &list.ok()["rows"][0];
        assert_eq!(
            (row["status"].as_str(), row["sandbox"].as_bool()),
            (Some("active"), Some(true))
        );
        // Tokens never leave the server, and are sealed in the database.
        assert!(!list.body.to_string().contains("act."), "{}", list.body);
        let stored: String =
            sqlx::query_scalar("SELECT access_token FROM matrix_accounts WHERE id = $1")
                .bind(dy)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert!(stored.starts_with("v1:") && !stored.contains("act."));

        let vids = videos(&app, &t, 7).await;
        let (six, spare) = (&vids[..6], vids[6]);

        // SPEC §5 rules, refused before anything is stored.
        let bad = |extra: Value| task(&app, &[dy, ks], six, extra);
        for (extra, field) in [
            (
                json!({"titles": format!("ok#{}", "长".repeat(51))}),
                "titles",
            ),
            (json!({"titles": "  "}), "titles"),
            (json!({"topics": []}), "topics"),
            (
                json!({"top_comments": "加我微信 shop888 领券"}),
                "top_comments",
            ),
            (json!({"top_comments": "好".repeat(31)}), "top_comments"),
            (json!({"daily_quantity": 4}), "daily_quantity"),
            (json!({"start_date": "2020-01-01"}), "start_date"),
            (
                json!({"time_mode": "specified", "daily_quantity": 2, "times": ["10:00"]}),
                "times",
            ),
            (json!({"material_ids": [six[0]]}), "account_ids"),
            (json!({"publish_count": 7}), "publish_count"),
            (json!({"mount_type": "poi"}), "mount_type"),
        ] {
            let r = app
                .post_en(
                    "/matrix.merchant_publish_management/createCommonPublishTask",
                    Some(&t),
                    bad(extra.clone()),
                )
                .await;
            assert_eq!(
                (r.status, r.data()["field"].as_str()),
                (422, Some(field)),
                "{extra} -> {}",
                r.body
            );
        }
        let r = app
            .post_en(
                "/task.merchant_forward_task/dy_add",
                Some(&t),
                task(&app, &[dy, ks], six, json!({})),
            )
            .await;
        assert_eq!(
            r.data()["field"],
            "account_ids",
            "a Kuaishou account in a Douyin task: {}",
            r.body
        );
        assert!(
            r.message().contains("is not on this platform"),
            "{}",
            r.message()
        );
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM matrix_tasks")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(n, 0, "nothing stored by refused tasks");

        // The plan: 6 videos over 2 accounts and 3 days, one a day each, never two in one minute.
        let p = app
            .post(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                task(&app, &[dy, ks], six, json!({"preview": true})),
            )
            .await;
        let plan = p.ok().clone();
        assert_eq!(
            (
                plan["count"].as_i64(),
                plan["per_account"]["min"].as_i64(),
                plan["per_account"]["max"].as_i64()
            ),
            (Some(6), Some(3), Some(3))
        );
        let minutes: HashSet<i64> = plan["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["at"].as_i64().unwrap() / 60_000)
            .collect();
        assert_eq!(minutes.len(), 6);
        let per_day: HashMap<(i64, i64), usize> =
            plan["items"]
                .as_array()
                .unwrap()
                .iter()
                .fold(HashMap::new(), |mut m, i| {
                    *m.entry((
                        i["account_id"].as_i64().unwrap(),
                        domain::matrix::day_of(i["at"].as_i64().unwrap()),
                    ))
                    .or_default() += 1;
                    m
                });
        assert!(per_day.values().all(|&n| n == 1), "{per_day:?}");

        // Confirming with the preview's seed stores the plan that was shown.
        let created = app
            .post(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                task(&app, &[dy, ks], six, json!({"seed": plan["seed"]})),
            )
            .await;
        let times = |p: &Value| {
            p["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| (i["video_key"].clone(), i["at"].clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(times(&created.ok()["plan"]), times(&plan));
        let tid = created.ok()["task"]["id"].as_i64().unwrap();
        assert_eq!(created.ok()["task"]["review_state"], "reviewing");
        assert!(created.ok()["task"]["review_due_at"].as_i64().unwrap() > domain::now_ms());
        // A video goes to one task only.
        let again = app
            .post_en(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                task(&app, &[dy], &[six[0]], json!({})),
            )
            .await;
        assert_eq!(again.data()["field"], "video_ids", "{}", again.body);

        // Tenants never see each other; staff-only calls stay the operator's.
        let other = app.second_merchant(&admin, "shop2").await;
        assert_eq!(
            app.post("/task.merchant_forward_task/index", Some(&other), json!({}))
                .await
                .ok()["total"],
            0
        );
        assert_eq!(
            app.post("/task.merchant_group_user/index", Some(&other), json!({}))
                .await
                .ok()["total"],
            0
        );
        app.post(
            "/task.merchant_forward_task/forward_video_release",
            Some(&other),
            json!({"task_id": tid}),
        )
        .await
        .expect(404);
        app.post(
            "/task.merchant_group_user/renew",
            Some(&other),
            json!({"id": dy}),
        )
        .await
        .expect(404);
        let r = app
            .post(
                "/task.merchant_forward_task/dy_add",
                Some(&other),
                task(&app, &[dy], &[spare], json!({})),
            )
            .await;
        assert_eq!(r.status, 404, "another merchant's account: {}", r.body);
        app.post("/system/audit/approve", Some(&t), json!({"id": tid}))
            .await
            .expect(403);

        // Nothing goes out before review; the operator approves.
        let audit = app
            .post("/system/audit/index", Some(&admin), json!({}))
            .await;
        assert_eq!(audit.ok()["rows"][0]["review_state"], "reviewing");
        app.post(
            "/system/audit/reject",
            Some(&admin),
            json!({"id": tid, "reason": " "}),
        )
        .await
        .expect(422);
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .ok();
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .expect(422);

        // The plan's three days pass on the platform clock: every item is published, verified in
        // the work list.
        past_the_plan(&app, &t, tid).await;
        let rows = wait_items(&app, &t, tid, &["published", "released"]).await;
        assert!(
            rows.iter().all(|i| i["verified_at"].as_i64().is_some()
                && !i["item_id"].as_str().unwrap().is_empty())
        );
        // The platform's review (10 min) passes: released.
        app.db.clock.advance(20 * 60_000);
        let rows = wait_items(&app, &t, tid, &["released"]).await;
        // A stale twin of a publish job (its lease lapsed while it ran) that read the work list
        // before the review ended, or that fails late, writes nothing over the release.
        let one = rows[0]["id"].as_i64().unwrap();
        let seen = store::matrix::Seen::Reviewing {
            check_at: 0,
            checks: 1,
        };
        store::matrix::record_seen(&app.db, one, (0, 0, 0), "", 0, &seen)
            .await
            .unwrap();
        store::matrix::mark_failed(&app.db, one, domain::matrix::ItemFailure::Refused, "")
            .await
            .unwrap();
        let state: String = sqlx::query_scalar("SELECT state FROM matrix_items WHERE id = $1")
            .bind(one)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(state, "released");
        // Kuaishou's open platform takes no comments from apps: Douyin's carry them.
        assert!(
            rows.iter()
                .filter(|i| i["account"]["platform"] == "dy")
                .all(|i| i["comments_sent"].as_i64().unwrap() >= 1),
            "top comments were posted"
        );
        let counts = sandbox(&app, "counts", None).await;
        assert_eq!(counts["total_creates"], 6, "{counts}");
        assert!(
            counts["creates"]
                .as_object()
                .unwrap()
                .values()
                .all(|n| n == 3),
            "{counts}"
        );
        let tv = app
            .post("/task.merchant_forward_task/index", Some(&t), json!({}))
            .await;
        assert_eq!(
            (
                tv.ok()["rows"][0]["progress"].as_i64(),
                tv.ok()["rows"][0]["failed"].as_i64()
            ),
            (Some(100), Some(0))
        );

        // Faults: a sensitive word fails the item with the platform's reason; a busy platform is retried.
        sandbox(&app, "faults", Some(json!({"platform": "dy", "call": "dy.create_video", "fault": "sensitive_word", "count": 1}))).await;
        let r = app
            .post(
                "/task.merchant_forward_task/dy_add",
                Some(&t),
                task(&app, &[dy], &[spare], soon(&app)),
            )
            .await;
        let t2 = r.ok()["task"]["id"].as_i64().unwrap();
        app.post("/system/audit/approve", Some(&admin), json!({"id": t2}))
            .await
            .ok();
        past_the_plan(&app, &t, t2).await;
        let rows = wait_items(&app, &t, t2, &["failed"]).await;
        let err = rows[0]["error"].as_str().unwrap();
        assert!(err.contains("敏感词"), "{err}");
        sandbox(
            &app,
            "faults",
            Some(json!({"platform": "dy", "call": "dy.create_video", "fault": "busy", "count": 1})),
        )
        .await;
        app.post(
            "/task.merchant_forward_task/manual_forward",
            Some(&t),
            json!({"id": rows[0]["id"]}),
        )
        .await
        .ok();
        let rows = wait_items(&app, &t, t2, &["published", "released"]).await;
        assert!(rows[0]["attempts"].as_i64().unwrap() >= 2, "{:?}", rows[0]);
        assert_eq!(sandbox(&app, "counts", None).await["total_creates"], 7);
        sandbox(&app, "faults/clear", Some(json!({}))).await;
    }
}

/// The hub keeps one DY adapter, so its cached client token serves the next POI search too.
#[tokio::test]
async fn poi_searches_share_one_client_token() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let issued = || async {
            sandbox(&app, "counts", None).await["client_tokens_issued"]
                .as_i64()
                .unwrap()
        };
        let before = issued().await;
        for keyword in ["星巴克", "瑞幸"] {
            app.post(
                "/task.merchant_group_user/getPoiId",
                Some(&t),
                json!({"keyword": keyword, "city": "上海"}),
            )
            .await
            .ok();
        }
        assert_eq!(issued().await - before, 1);
    }
}

/// A fresh app (its worker ingests the videos) with a task of two posts on one DY account the day after
/// tomorrow (10:00 and 15:00): the app, the demo's token, today's day number and the task's id.
async fn two_posts_the_day_after_tomorrow(backend: Backend) -> (TestApp, String, i64, i64) {
    let app = TestApp::spawn(backend).await;
    app.start_worker();
    let t = app.demo().await;
    let dy = authorize_dy(&app, &t).await;
    let vids = videos(&app, &t, 2).await;
    let day = domain::matrix::day_of(app.db.clock.platform_now());
    let r = app
        .post(
            "/matrix.merchant_publish_management/createCommonPublishTask",
            Some(&t),
            task(&app, &[dy], &vids, json!({"start_date": domain::matrix::fmt_day(day + 2), "days": 1, "daily_quantity": 2, "time_mode": "specified", "times": ["10:00", "15:00"]})),
        )
        .await;
    let tid = r.ok()["task"]["id"].as_i64().unwrap();
    (app, t, day, tid)
}

/// A reschedule that fails midway (here the task's own row refuses its new schedule, after its items
/// were re-planned) changes nothing: items and task are written in one transaction.
#[tokio::test]
async fn a_failed_reschedule_leaves_the_task_as_it_was() {
    for backend in backends() {
        let (app, t, day, tid) = two_posts_the_day_after_tomorrow(backend).await;
        let before = items(&app, &t, tid).await;
        let refuse: &[&str] = match backend {
            Backend::Sqlite => &[
                "CREATE TRIGGER refuse BEFORE UPDATE ON matrix_tasks WHEN NEW.time_mode <> OLD.time_mode BEGIN SELECT RAISE(ABORT, 'refused'); END",
            ],
            Backend::Postgres => &[
                "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER refuse BEFORE UPDATE ON matrix_tasks FOR EACH ROW WHEN (NEW.time_mode <> OLD.time_mode) EXECUTE FUNCTION refuse()",
            ],
        };
        for sql in refuse {
            sqlx::query(sqlx::AssertSqlSafe(*sql))
                .execute(&app.db.pool)
                .await
                .unwrap();
        }
        let next = domain::matrix::fmt_day(day + 3);
        app.post("/task.merchant_forward_task/task_time_save", Some(&t), json!({"id": tid, "time_mode": "timed", "start_date": next, "days": 1, "daily_quantity": 2, "times": ["09:30"]}))
            .await
            .expect(500);
        let times = |rows: &[Value]| -> Vec<(i64, String)> {
            rows.iter()
                .map(|i| {
                    (
                        i["scheduled_at"].as_i64().unwrap(),
                        i["state"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        };
        assert_eq!(times(&items(&app, &t, tid).await), times(&before));
    }
}

/// The publisher and a reschedule (or "publish now") can act on one item at the same moment. The first
/// write wins and the other leaves the item alone: a job whose item was taken from it since it read it
/// does not start publishing (a second job would post it twice; an item publishing with no job stalls
/// its account), and a reschedule neither moves nor fails an item already publishing.
#[tokio::test]
async fn a_reschedule_and_the_publisher_never_both_take_an_item() {
    for backend in backends() {
        // The items are two days ahead, so the test takes the publisher's steps itself, in the racing
        // order.
        let (app, t, day, tid) = two_posts_the_day_after_tomorrow(backend).await;
        let rows = items(&app, &t, tid).await;
        let (a, b) = (
            rows[0]["id"].as_i64().unwrap(),
            rows[1]["id"].as_i64().unwrap(),
        );
        let row = |id: i64| {
            let db = app.db.clone();
            async move {
                sqlx::query_as::<_, (String, i64, i64)>(
                    "SELECT state, job_id, scheduled_at FROM matrix_items WHERE id = $1",
                )
                .bind(id)
                .fetch_one(&db.pool)
                .await
                .unwrap()
            }
        };
        let b_at = row(b).await.2;
        let mid: i64 = sqlx::query_scalar("SELECT merchant_id FROM matrix_tasks WHERE id = $1")
            .bind(tid)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        // Each item has its publish job queued (recorded as `queue_publish` does), and b's job starts.
        for (id, job) in [(a, 901), (b, 902)] {
            sqlx::query("UPDATE matrix_items SET job_id = $1 WHERE id = $2")
                .bind(job)
                .bind(id)
                .execute(&app.db.pool)
                .await
                .unwrap();
        }
        assert!(
            store::matrix::start_publishing(&app.db, b, 902, 1)
                .await
                .unwrap()
        );
        // A reschedule planned from the items as they were before b's job started.
        let later = domain::matrix::at(day + 3, 9 * 60);
        let replan = |moved: Vec<(i64, i64)>, refused: Vec<i64>| store::matrix::Replan {
            time_mode: domain::matrix::TimeMode::Specified,
            start_date: domain::matrix::fmt_day(day + 3),
            days: 1,
            daily_quantity: 2,
            moved,
            refused,
        };
        store::matrix::reschedule_items(
            &app.db,
            mid,
            tid,
            &replan(vec![(a, later), (b, later + 60_000)], vec![]),
        )
        .await
        .unwrap();
        assert_eq!(row(a).await, ("to_release".to_string(), 0, later));
        assert_eq!(row(b).await, ("publishing".to_string(), 902, b_at));
        // a's job read its item before the reschedule: it does not start it.
        assert!(
            !store::matrix::start_publishing(&app.db, a, 901, 1)
                .await
                .unwrap()
        );
        assert_eq!(row(a).await, ("to_release".to_string(), 0, later));
        // No room for b in another plan: b is publishing, so it does not fail.
        store::matrix::reschedule_items(&app.db, mid, tid, &replan(vec![], vec![b]))
            .await
            .unwrap();
        assert_eq!(row(b).await.0, "publishing");
        // b's job goes on to its next attempt; no other job can start b.
        assert!(
            store::matrix::start_publishing(&app.db, b, 902, 2)
                .await
                .unwrap()
        );
        assert!(
            !store::matrix::start_publishing(&app.db, b, 901, 1)
                .await
                .unwrap()
        );
    }
}

#[tokio::test]
async fn accounts_groups_and_expiry() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let g = app
            .post(
                "/task.merchant_matrix_group/add",
                Some(&t),
                json!({"name": "华东门店"}),
            )
            .await
            .ok()["id"]
            .as_i64()
            .unwrap();
        app.post(
            "/task.merchant_matrix_group/add",
            Some(&t),
            json!({"name": "华东门店"}),
        )
        .await
        .expect(422);
        app.post(
            "/task.merchant_matrix_group/add",
            Some(&t),
            json!({"name": ""}),
        )
        .await
        .expect(422);
        let dy = authorize_dy(&app, &t).await;
        let r = app
            .post(
                "/task.merchant_group_user/user_save",
                Some(&t),
                json!({"id": dy, "group_id": g, "remarks": "主账号"}),
            )
            .await;
        assert_eq!(
            (r.ok()["group_name"].as_str(), r.ok()["remarks"].as_str()),
            (Some("华东门店"), Some("主账号"))
        );
        app.post(
            "/task.merchant_group_user/update_notes",
            Some(&t),
            json!({"id": dy, "remarks": "长".repeat(201)}),
        )
        .await
        .expect(422);
        let groups = app
            .post("/task.merchant_matrix_group/index", Some(&t), json!({}))
            .await;
        assert_eq!(groups.ok()["rows"][0]["accounts"], 1);

        // POI search, bind, unbind.
        let pois = app
            .post(
                "/task.merchant_group_user/getPoiId",
                Some(&t),
                json!({"keyword": "星巴克", "city": "上海"}),
            )
            .await;
        let poi = pois.ok()["rows"][0].clone();
        assert!(poi["poi_id"].as_str().is_some(), "{}", pois.body);
        let r = app.post("/task.merchant_group_user/update_address", Some(&t), json!({"id": dy, "province": "上海", "city": "上海", "poi_id": poi["poi_id"], "poi_name": poi["poi_name"]})).await;
        assert_eq!(r.ok()["poi_id"], poi["poi_id"]);
        assert_eq!(
            app.post(
                "/task.merchant_group_user/discharge_poi",
                Some(&t),
                json!({"id": dy})
            )
            .await
            .ok()["poi_id"],
            ""
        );

        // BJH: a wrong token is refused with the platform's reason; the sandbox's token works.
        let r = app
            .post_en(
                "/task.merchant_group_user/bjhLogin",
                Some(&t),
                json!({"app_id": "shop-app", "app_token": "nope"}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("app_token")),
            "{}",
            r.body
        );
        let r = app
            .post(
                "/task.merchant_group_user/bjhLogin",
                Some(&t),
                json!({"app_id": "shop-app", "app_token": common::bjh_app_token()}),
            )
            .await;
        assert_eq!(r.ok()["platform"], "bjh");

        // Renew refreshes the DY token; when the platform refuses, the account shows as expired with
        // the reason, and renew says so instead of pretending.
        let before: i64 =
            sqlx::query_scalar("SELECT token_expires_at FROM matrix_accounts WHERE id = $1")
                .bind(dy)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        app.db.clock.advance(60_000);
        app.post(
            "/task.merchant_group_user/renew",
            Some(&t),
            json!({"id": dy}),
        )
        .await
        .ok();
        let after: i64 =
            sqlx::query_scalar("SELECT token_expires_at FROM matrix_accounts WHERE id = $1")
                .bind(dy)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        assert!(after > before);
        let open_id: String =
            sqlx::query_scalar("SELECT open_id FROM matrix_accounts WHERE id = $1")
                .bind(dy)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        sandbox(
            &app,
            "expire",
            Some(json!({"platform": "dy", "open_id": open_id, "refresh": true})),
        )
        .await;
        let r = app
            .post_en(
                "/task.merchant_group_user/renew",
                Some(&t),
                json!({"id": dy}),
            )
            .await;
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            r.message().starts_with("The platform refused"),
            "{}",
            r.message()
        );
        // The platform's own words come in both languages; each reader gets theirs.
        let zh = app
            .post(
                "/task.merchant_group_user/renew",
                Some(&t),
                json!({"id": dy}),
            )
            .await;
        assert_eq!(zh.status, 422, "{}", zh.body);
        assert!(zh.message().starts_with("平台拒绝"), "{}", zh.message());
        let reason = |m: &str| {
            m.split_once('：')
                .or(m.split_once(": "))
                .map(|(_, r)| r.to_string())
        };
        assert_ne!(
            reason(&zh.message()),
            reason(&r.message()),
            "{} / {}",
            zh.message(),
            r.message()
        );
        let exp = app
            .post("/task.merchant_group_user/expire_user", Some(&t), json!({}))
            .await;
        assert_eq!(exp.ok()["total"], 1);
        assert_eq!(exp.ok()["rows"][0]["status"], "expired");
        let r = app
            .post_en(
                "/task.merchant_forward_task/dy_add",
                Some(&t),
                task(&app, &[dy], &[1], json!({})),
            )
            .await;
        assert_eq!(r.data()["field"], "account_ids", "{}", r.body);

        app.post(
            "/task.merchant_matrix_group/delete",
            Some(&t),
            json!({"id": g}),
        )
        .await
        .ok();
        let a = app
            .post(
                "/task.merchant_group_user/index",
                Some(&t),
                json!({"platform": "dy"}),
            )
            .await;
        assert_eq!(a.ok()["rows"][0]["group_id"], 0);
        app.post(
            "/task.merchant_group_user/delete",
            Some(&t),
            json!({"ids": [dy]}),
        )
        .await
        .ok();
        assert_eq!(
            app.post("/task.merchant_group_user/index", Some(&t), json!({}))
                .await
                .ok()["total"],
            1
        );
    }
}

#[tokio::test]
async fn platform_apps_are_sealed_and_masked() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let t = app.demo().await;
        let r = app.post("/system/app/index", Some(&admin), json!({})).await;
        assert!(
            r.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .all(|x| x["mode"] == "sandbox")
        );
        app.post(
            "/system/app/save",
            Some(&admin),
            json!({"platform": "dy", "client_key": "awkey123456", "client_secret": ""}),
        )
        .await
        .expect(422);
        app.post(
            "/system/app/save",
            Some(&t),
            json!({"platform": "dy", "client_key": "k", "client_secret": "s"}),
        )
        .await
        .expect(403);
        app.post("/system/app/save", Some(&admin), json!({"platform": "dy", "client_key": "awkey123456", "client_secret": "topsecret-value"})).await.ok();
        let r = app.post("/system/app/index", Some(&admin), json!({})).await;
        let dy = r.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["platform"] == "dy")
            .unwrap()
            .clone();
        assert_eq!(
            (dy["client_key"].as_str(), dy["mode"].as_str()),
            (Some("awke****"), Some("live"))
        );
        assert!(!r.body.to_string().contains("topsecret"));
        let stored: String = sqlx::query_scalar("SELECT client_secret FROM platform_apps")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert!(!stored.contains("topsecret"));
        app.post("/system/app/clear", Some(&admin), json!({"platform": "dy"}))
            .await
            .ok();
    }
}

#[tokio::test]
async fn webhooks_are_verified_and_deduplicated() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let body = json!({"event": "unauthorize", "log_id": "log-1", "from_user_id": "nobody", "content": {}}).to_string();
        let sign_with = |secret: &str, b: &str| {
            use sha1::{Digest, Sha1};
            let mut h = Sha1::new();
            h.update(secret.as_bytes());
            h.update(b.as_bytes());
            h.finalize()
                .iter()
                .map(|x| format!("{x:02x}"))
                .collect::<String>()
        };
        // The install's sandbox secret, derived from its token: never a constant.
        let secret = platforms::sandbox::app_secret(common::SANDBOX_TOKEN, platforms::Platform::Dy);
        let sign = |b: &str| sign_with(&secret, b);
        let post = |sig: String| {
            app.http
                .post(app.url("/webhook/dy"))
                .header("x-douyin-signature", sig)
                .body(body.clone())
                .send()
        };
        assert_eq!(post("00".into()).await.unwrap().status(), 403);
        // Signed with the sandbox secret every install used to share: refused.
        let forged = sign_with("sbx_dy_client_secret", &body);
        assert_eq!(post(forged).await.unwrap().status(), 403);
        assert_eq!(post(sign(&body)).await.unwrap().text().await.unwrap(), "ok");
        assert_eq!(
            post(sign(&body)).await.unwrap().text().await.unwrap(),
            "duplicate"
        );
    }
}

/// Every injected platform fault ends truthfully: retryable ones are retried until published,
/// an expired token is refreshed, permanent ones fail the item with the platform's reason, and an
/// open_id mismatch marks the account expired. Tokens are refreshed ahead of expiry by a job, and the
/// account's statistics are synced from the platform.
#[tokio::test]
async fn each_platform_fault_ends_truthfully() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let dy = authorize_dy(&app, &t).await;
        let vids = videos(&app, &t, 8).await;
        let cases: &[(&str, &str, &str, &str)] = &[
            ("dy.create_video", "rate_limit", "published", ""),
            ("dy.upload_video", "server_error", "published", ""),
            ("dy.video_list", "busy", "published", ""),
            ("dy.create_video", "expired_token", "published", ""),
            ("dy.create_video", "quota", "failed", ""),
            ("dy.create_video", "daily_cap", "failed", ""),
            ("dy.upload_video", "oversize", "failed", ""),
            ("dy.create_video", "open_id_mismatch", "failed", "授权"),
        ];
        for (i, (call, fault, want, reason)) in cases.iter().enumerate() {
            if *fault == "open_id_mismatch" {
                // Before the account goes: the refresh job renews a token that is about to end.
                let before: i64 = sqlx::query_scalar(
                    "SELECT token_expires_at FROM matrix_accounts WHERE id = $1",
                )
                .bind(dy)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
                app.db
                    .clock
                    .advance(before - app.db.clock.platform_now() - 3_600_000);
                let mut renewed = false;
                for _ in 0..300 {
                    let now: i64 = sqlx::query_scalar(
                        "SELECT token_expires_at FROM matrix_accounts WHERE id = $1",
                    )
                    .bind(dy)
                    .fetch_one(&app.db.pool)
                    .await
                    .unwrap();
                    if now > before {
                        renewed = true;
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                assert!(renewed, "the token was not refreshed ahead of its expiry");
                let acc = app
                    .post(
                        "/task.merchant_group_user/index",
                        Some(&t),
                        json!({"platform": "dy"}),
                    )
                    .await;
                assert_eq!(acc.ok()["rows"][0]["status"], "active");
                assert!(
                    acc.ok()["rows"][0]["synced_at"].as_i64().unwrap() > 0,
                    "statistics synced"
                );
                assert!(
                    acc.ok()["rows"][0]["videos"].as_i64().unwrap() >= 1,
                    "{}",
                    acc.body
                );
            }
            // The work list is also read by the statistics sync: give it a fault of its own.
            let n = if *call == "dy.video_list" { 3 } else { 1 };
            sandbox(
                &app,
                "faults",
                Some(json!({"platform": "dy", "call": call, "fault": fault, "count": n})),
            )
            .await;
            let r = app
                .post(
                    "/task.merchant_forward_task/dy_add",
                    Some(&t),
                    task(&app, &[dy], &[vids[i]], soon(&app)),
                )
                .await;
            let tid = r.ok()["task"]["id"].as_i64().unwrap();
            app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
                .await
                .ok();
            past_the_plan(&app, &t, tid).await;
            let rows = wait_items(&app, &t, tid, &["published", "released", "failed"]).await;
            let (state, err) = (
                rows[0]["state"].as_str().unwrap(),
                rows[0]["error"].as_str().unwrap(),
            );
            let want_state = if *want == "published" {
                ["published", "released"].contains(&state)
            } else {
                state == *want
            };
            assert!(want_state, "{fault}: {state} ({err})");
            if *want == "failed" {
                assert!(
                    !err.is_empty() && err.contains(reason),
                    "{fault}: the reason is shown: {err:?}"
                );
            } else {
                assert!(
                    rows[0]["attempts"].as_i64().unwrap() >= 2,
                    "{fault} was retried: {:?}",
                    rows[0]
                );
            }
            sandbox(&app, "faults/clear", Some(json!({}))).await;
        }
        let acc = app
            .post(
                "/task.merchant_group_user/index",
                Some(&t),
                json!({"platform": "dy"}),
            )
            .await;
        assert_eq!(
            acc.ok()["rows"][0]["status"],
            "expired",
            "open_id mismatch: authorize again"
        );
        // Published exactly once per successful case.
        assert_eq!(sandbox(&app, "counts", None).await["total_creates"], 4);
    }
}

/// "Done means": accounts on all six platforms are authorized against the sandbox, and one release
/// task publishes to every one of them, verified in each platform's work list.
#[tokio::test]
async fn all_six_platforms_authorize_and_publish() {
    for backend in backends() {
        let app = TestApp::spawn_with_browser(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let mut accounts = vec![
            authorize_oauth(&app, &t, "dy").await,
            authorize_oauth(&app, &t, "ks").await,
            authorize_qr(&app, &t, "sph").await,
            authorize_qr(&app, &t, "xhs").await,
            authorize_qr(&app, &t, "shop").await,
        ];
        let bjh = app
            .post(
                "/task.merchant_group_user/bjhLogin",
                Some(&t),
                json!({"app_id": "shop-app", "app_token": common::bjh_app_token()}),
            )
            .await;
        accounts.push(bjh.ok()["id"].as_i64().unwrap());
        let list = app
            .post("/task.merchant_group_user/index", Some(&t), json!({}))
            .await;
        let platforms: HashSet<String> = list.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["platform"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(platforms.len(), 6, "{}", list.body);
        let vids = videos(&app, &t, 6).await;
        let rows = publish_now(&app, &t, &admin, &accounts, &vids).await;
        for i in &rows {
            assert!(
                ["published", "released"].contains(&i["state"].as_str().unwrap()),
                "{}: {}",
                i["account"]["platform"],
                i["error"]
            );
        }
        // Five platforms count in the sandbox's shared record, the XHS console in its own.
        let counts = sandbox(&app, "counts", None).await;
        assert_eq!(counts["total_creates"], 5, "{counts}");
        let xhs = sandbox(&app, "console/xhs/received", None).await;
        assert_eq!(xhs["received"].as_array().unwrap().len(), 1, "{xhs}");
    }
}

/// XHS through its creator console in a real browser (`platforms::browser`): the authorize answer
/// carries the console's own QR, the phone scans it, the account is added with the console's id and
/// nickname, and a release item is published and verified in the console's note manager; a publish
/// the console silently dropped fails as "not listed" instead of counting as published.
#[tokio::test]
async fn xhs_authorizes_and_publishes_through_its_console_in_a_browser() {
    let app = TestApp::spawn_with_browser(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let admin = app.admin().await;
    let account = xhs_console_account(&app, &t, "xhs_shop").await;
    assert_eq!(account["nickname"], "xhs_shop");
    let id = account["id"].as_i64().unwrap();
    let vids = videos(&app, &t, 3).await;
    // A declaration the form does not know is refused before anything is stored.
    let r = app
        .post(
            "/matrix.merchant_publish_management/createCommonPublishTask",
            Some(&t),
            {
                let mut req = task(&app, &[id], &vids[..1], soon(&app));
                req["declaration"] = json!("made_by_hand");
                req
            },
        )
        .await;
    assert_eq!(
        (r.status, r.data()["field"].as_str()),
        (422, Some("declaration")),
        "{}",
        r.body
    );
    // The task's declaration is the one the console's form gets (selected, never the page's default).
    let rows = publish_now_with(&app, &t, &admin, &[id], &vids[..1], |req| {
        req["declaration"] = json!("ai_generated")
    })
    .await;
    assert!(
        ["published", "released"].contains(&rows[0]["state"].as_str().unwrap()),
        "{}",
        rows[0]
    );
    let got = sandbox(&app, "console/xhs/received", None).await;
    assert_eq!(got["received"].as_array().unwrap().len(), 1, "{got}");
    // The task's top comments went out on the note page, each confirmed there, once.
    assert_eq!(rows[0]["comments_sent"], 3, "{}", rows[0]);
    let note = rows[0]["item_id"].as_str().unwrap_or_default().to_string();
    let said = sandbox(&app, &format!("console/xhs/comments?note_id={note}"), None).await;
    let texts: Vec<&str> = said["comments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["content"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["好喝！", "下次还来", "推荐给朋友"], "{said}");
    assert_eq!(
        got["received"][0]["declaration"], "笔记含AI合成内容",
        "{got}"
    );

    sandbox(
        &app,
        "console/xhs/faults",
        Some(json!({"user": "xhs_shop", "silent_publish": true})),
    )
    .await;
    let rows = publish_now(&app, &t, &admin, &[id], &vids[1..2]).await;
    assert_eq!(rows[0]["state"], "failed", "{}", rows[0]);
    assert!(
        rows[0]["error"].to_string().contains("not listed")
            || rows[0]["error"].to_string().contains("作品核对"),
        "{}",
        rows[0]
    );
    // The picture is of the works list the post is missing from.
    assert_eq!(rows[0]["evidence"]["step"], "verify", "{}", rows[0]);
    // That post declared `auto`: an uploaded video is the merchant's own footage, declared original
    // (issue 39: the declaration follows the video's provenance).
    let got = sandbox(&app, "console/xhs/received", None).await;
    assert_eq!(got["received"][1]["declaration"], "自主拍摄", "{got}");

    // The console changed its upload page: the item fails at the upload step and keeps what the
    // page showed — a screenshot and the page's HTML, behind signed links, the HTML as plain text.
    sandbox(
        &app,
        "console/xhs/faults",
        Some(json!({"user": "xhs_shop", "changed_selector": true})),
    )
    .await;
    let rows = publish_now(&app, &t, &admin, &[id], &vids[2..]).await;
    assert_eq!(rows[0]["state"], "failed", "{}", rows[0]);
    let ev = &rows[0]["evidence"];
    assert_eq!(ev["step"], "upload", "{}", rows[0]);
    assert!(ev["url"].as_str().unwrap().contains("/publish"), "{ev}");
    let shot = app
        .http
        .get(app.url(ev["screenshot"].as_str().unwrap()))
        .send()
        .await
        .unwrap();
    assert_eq!(shot.status(), 200);
    assert_eq!(shot.headers()["content-type"], "image/png");
    assert!(shot.bytes().await.unwrap().starts_with(b"\x89PNG"));
    let html = app
        .http
        .get(app.url(ev["html"].as_str().unwrap()))
        .send()
        .await
        .unwrap();
    assert_eq!(html.status(), 200);
    assert_eq!(html.headers()["content-type"], "text/plain; charset=utf-8");
    assert!(html.text().await.unwrap().contains("<input"));
    // A link is only good for what it was signed for: another item's id is refused.
    let forged = ev["screenshot"].as_str().unwrap().replace(
        &format!("/files/{}/", rows[0]["id"]),
        &format!("/files/{}/", rows[0]["id"].as_i64().unwrap() + 1),
    );
    let r = app.http.get(app.url(&forged)).send().await.unwrap();
    assert_eq!(r.status(), 403);
}

/// The in-process sandbox keeps its state in the data folder: a DY account authorized before a
/// restart of the server still publishes after it (it used to come back with no tokens, fail the
/// publish and be marked expired).
#[tokio::test]
async fn sandbox_accounts_survive_a_server_restart() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let dy = authorize_dy(&app, &t).await;
        // The avatar is the sandbox's own picture, not a link to a host that does not exist.
        let list = app
            .post("/task.merchant_group_user/index", Some(&t), json!({}))
            .await;
        let avatar = list.ok()["rows"][0]["avatar"].as_str().unwrap().to_string();
        assert!(avatar.starts_with(&app.url("/sandbox/avatar/")), "{avatar}");
        let img = app.http.get(&avatar).send().await.unwrap();
        assert_eq!(img.status(), 200);
        assert_eq!(img.headers()["content-type"], "image/svg+xml");
        // Same database, same data folder, a new server (no worker ran on the old one).
        let app = app.restart().await;
        app.start_worker();
        let (t, admin) = (app.demo().await, app.admin().await);
        let vids = videos(&app, &t, 1).await;
        let rows = publish_now(&app, &t, &admin, &[dy], &vids).await;
        assert!(
            ["published", "released"].contains(&rows[0]["state"].as_str().unwrap()),
            "{}",
            rows[0]
        );
        assert_eq!(sandbox(&app, "counts", None).await["total_creates"], 1);
        let list = app
            .post("/task.merchant_group_user/index", Some(&t), json!({}))
            .await;
        let acc = list.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == dy)
            .unwrap()
            .clone();
        assert_eq!(acc["status"], "active", "{acc}");
    }
}

/// dy_share: the H5 share schema is signed with a live ticket; when the customer posts it, the signed
/// create_video webhook (delivered once or twice) records the work against the share.
#[tokio::test]
async fn dy_share_links_are_signed_and_report_the_post() {
    // Another test jumping the clock by days between signing and publishing expired the ticket the
    // link is signed with (seen under load: h5_publish answered 400).
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let v = videos(&app, &t, 1).await[0];
        let key = format!("m:{v}");
        app.post(
            "/task.merchant_group_user/dy_share",
            Some(&t),
            json!({"video_key": key, "title": "", "topics": ["探店"]}),
        )
        .await
        .expect(422);
        app.post(
            "/task.merchant_group_user/dy_share",
            Some(&t),
            json!({"video_key": "m:99999", "title": "来打卡", "topics": ["探店"]}),
        )
        .await
        .expect(422);
        let r = app
            .post(
                "/task.merchant_group_user/dy_share",
                Some(&t),
                json!({"video_key": key, "title": "来打卡", "topics": ["探店"]}),
            )
            .await;
        let (share, schema) = (
            r.ok()["share_id"].as_str().unwrap().to_string(),
            r.ok()["schema"].as_str().unwrap().to_string(),
        );
        assert!(
            schema.starts_with("snssdk1128://openplatform/share?share_type=h5&"),
            "{schema}"
        );
        assert!(schema.contains(&format!("state={share}")) && schema.contains("signature="));
        // A tampered link is refused by the platform.
        let bad = app
            .http
            .post(app.url("/sandbox/dy/h5_publish"))
            .json(&json!({"schema": schema.replace("signature=", "signature=0")}))
            .send()
            .await
            .unwrap();
        assert_eq!(bad.status(), 400);
        let other = app.second_merchant(&app.admin().await, "shop3").await;
        app.post(
            "/task.merchant_group_user/dy_share",
            Some(&other),
            json!({"share_id": share}),
        )
        .await
        .expect(404);
        let done = app
            .http
            .post(app.url("/sandbox/dy/h5_publish"))
            .json(&json!({"schema": schema, "nickname": "顾客A"}))
            .send()
            .await
            .unwrap();
        assert!(done.status().is_success());
        let item: Value = done.json().await.unwrap();
        let mut state = Value::Null;
        for _ in 0..100 {
            state = app
                .post(
                    "/task.merchant_group_user/dy_share",
                    Some(&t),
                    json!({"share_id": share}),
                )
                .await
                .ok()
                .clone();
            if state["state"] == "published" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(
            (state["state"].as_str(), &state["item_id"]),
            (Some("published"), &item["item_id"]),
            "{state}"
        );
    }
}

/// The remaining release-task calls: lists for the form, @-mention users, rescheduling, publish now,
/// top comments on demand, session status, task deletion — with bad input and another tenant.
#[tokio::test]
async fn release_task_helper_calls() {
    for backend in backends() {
        let app = TestApp::spawn_with_browser(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "shop4").await;
        let dy = authorize_dy(&app, &t).await;
        let xhs = authorize_xhs(&app, &t).await;
        let vids = videos(&app, &t, 4).await;
        // Random titles and topics come from the merchant's own work.
        store::clip::add_project(
            &app.db,
            demo_merchant(&app).await,
            domain::clip::ProjectMode::Normal,
            "春季新品奶茶 芝士奶盖 周末特惠",
            "{}",
        )
        .await
        .unwrap();

        // Form lists.
        for (path, key) in [
            (
                "/matrix.merchant_publish_management/getRandomAiTitleList",
                "rows",
            ),
            (
                "/matrix.merchant_publish_management/getRandomTopicList",
                "rows",
            ),
            (
                "/matrix.merchant_publish_management/getVideoTypeList",
                "rows",
            ),
            (
                "/matrix.merchant_publish_management/getLibProjectList",
                "rows",
            ),
            (
                "/matrix.merchant_publish_management/getMiniProgramInformation",
                "rows",
            ),
        ] {
            assert!(
                app.post(path, Some(&t), json!({})).await.ok()[key].is_array(),
                "{path}"
            );
        }
        assert_eq!(
            app.post(
                "/matrix.merchant_publish_management/getRandomTopicList",
                Some(&t),
                json!({"count": 3})
            )
            .await
            .ok()["rows"]
                .as_array()
                .unwrap()
                .len(),
            3
        );
        let groups = app
            .post(
                "/matrix.merchant_publish_management/getAccountGroup",
                Some(&t),
                json!({"platform": "dy"}),
            )
            .await;
        assert_eq!(
            groups.ok()["rows"][0]["accounts"].as_array().unwrap().len(),
            1
        );
        let users = app
            .post(
                "/task.merchant_forward_task/get_group_user",
                Some(&t),
                json!({"platform": "xhs"}),
            )
            .await;
        assert_eq!(users.ok()["rows"][0]["id"], xhs);
        let cfg = app
            .get("/task.merchant_forward_task/xhs_forward_config", Some(&t))
            .await;
        assert_eq!(
            (
                cfg.ok()["limits"]["title_max"].as_i64(),
                cfg.ok()["sandbox"].as_bool()
            ),
            (Some(20), Some(true))
        );
        let mats = app
            .post(
                "/task.merchant_forward_task/forward_video",
                Some(&t),
                json!({"source": "material"}),
            )
            .await;
        assert_eq!(mats.ok()["total"], 4);
        assert_eq!(
            app.post(
                "/task.merchant_forward_task/forward_video",
                Some(&other),
                json!({"source": "material"})
            )
            .await
            .ok()["total"],
            0
        );
        let pois = app
            .post(
                "/task.merchant_forward_task/poinameAddress",
                Some(&t),
                json!({"keyword": "星巴克", "city": "上海"}),
            )
            .await;
        assert!(!pois.ok()["rows"].as_array().unwrap().is_empty());
        app.post(
            "/matrix.merchant_publish_management/getPOIAddress",
            Some(&t),
            json!({"keyword": ""}),
        )
        .await
        .expect(422);
        let qr = app
            .post(
                "/task.merchant_forward_task/getTaskDyQrcode",
                Some(&t),
                json!({}),
            )
            .await;
        assert!(
            qr.ok()["url"]
                .as_str()
                .unwrap()
                .contains("/platform/oauth/connect/")
        );
        let online = app
            .post(
                "/task.merchant_forward_task/assistant_is_online",
                Some(&t),
                json!({}),
            )
            .await;
        assert_eq!(online.ok()["rows"][0]["online"], true, "{}", online.body);
        // The check is kept on the account: the accounts list shows it.
        let list = app
            .get("/task.merchant_group_user/index?limit=50", Some(&t))
            .await;
        let row = list.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == xhs)
            .cloned()
            .unwrap();
        assert_eq!(row["last_check"]["ok"], true, "{row}");
        assert!(row["last_check"]["at"].as_i64().unwrap() > 0, "{row}");
        let dy_row = list.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == dy)
            .cloned()
            .unwrap();
        assert_eq!(dy_row["last_check"], Value::Null, "{dy_row}");

        // @-mention users.
        app.post(
            "/bpdr.merchant_aite_users/add",
            Some(&t),
            json!({"platform": "dy", "nickname": "@品牌官方"}),
        )
        .await
        .ok();
        app.post(
            "/bpdr.merchant_aite_users/add",
            Some(&t),
            json!({"platform": "nope", "nickname": "x"}),
        )
        .await
        .expect(422);
        app.post(
            "/bpdr.merchant_aite_users/add",
            Some(&t),
            json!({"platform": "dy", "nickname": ""}),
        )
        .await
        .expect(422);
        let at = app
            .post(
                "/matrix.merchant_publish_management/getATUsers",
                Some(&t),
                json!({"platform": "dy"}),
            )
            .await;
        assert_eq!(at.ok()["rows"][0]["nickname"], "品牌官方");
        let at_id = at.ok()["rows"][0]["id"].as_i64().unwrap();
        app.post(
            "/bpdr.merchant_aite_users/delete",
            Some(&other),
            json!({"id": at_id}),
        )
        .await
        .expect(404);
        app.post(
            "/bpdr.merchant_aite_users/delete",
            Some(&t),
            json!({"id": at_id}),
        )
        .await
        .ok();
        assert_eq!(
            app.post("/bpdr.merchant_aite_users/index", Some(&t), json!({}))
                .await
                .ok()["total"],
            0
        );

        // A task for the day after tomorrow: reschedule, publish one now, send its top comments again.
        let later =
            domain::matrix::fmt_day(domain::matrix::day_of(app.db.clock.platform_now()) + 2);
        let r = app.post("/task.merchant_forward_task/xhs_add", Some(&t), task(&app, &[xhs], &vids[..2], json!({"start_date": later, "days": 1, "daily_quantity": 2, "time_mode": "specified", "times": ["10:00", "15:00"]}))).await;
        let tid = r.ok()["task"]["id"].as_i64().unwrap();
        let sm = app
            .post(
                "/task.merchant_forward_task/forward_video_sm_release",
                Some(&t),
                json!({"task_id": tid}),
            )
            .await;
        assert_eq!(
            (sm.ok()["total"].as_i64(), sm.ok()["to_release"].as_i64()),
            (Some(2), Some(2))
        );
        app.post(
            "/task.merchant_forward_task/manual_forward",
            Some(&t),
            json!({"task_id": tid}),
        )
        .await
        .expect(422);
        let resched = app.post("/task.merchant_forward_task/external_task_time_save", Some(&t), json!({"id": tid, "time_mode": "timed", "start_date": later, "days": 1, "daily_quantity": 2, "times": ["09:30"]})).await;
        assert_eq!(resched.ok()["time_mode"], "timed");
        app.post("/task.merchant_forward_task/task_time_save", Some(&t), json!({"id": tid, "time_mode": "timed", "start_date": "2020-01-01", "days": 1, "daily_quantity": 2, "times": ["09:30"]})).await.expect(422);
        app.post("/task.merchant_forward_task/task_time_save", Some(&other), json!({"id": tid, "time_mode": "timed", "start_date": later, "days": 1, "daily_quantity": 2, "times": ["09:30"]})).await.expect(404);
        let rows = items(&app, &t, tid).await;
        let at0 = rows[0]["scheduled_at"].as_i64().unwrap();
        assert_eq!(
            at0 % 86_400_000,
            (9 * 60 + 30 - 8 * 60) * 60_000,
            "09:30 China time"
        );
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .ok();
        let first = rows[0]["id"].as_i64().unwrap();
        app.post(
            "/task.merchant_forward_task/top_comment_send",
            Some(&t),
            json!({"id": first}),
        )
        .await
        .expect(422);
        app.post(
            "/task.merchant_forward_task/external_release",
            Some(&other),
            json!({"id": first}),
        )
        .await
        .expect(404);
        app.post(
            "/task.merchant_forward_task/external_release",
            Some(&t),
            json!({"id": first}),
        )
        .await
        .ok();
        for _ in 0..300 {
            if ["published", "released"]
                .contains(&items(&app, &t, tid).await[0]["state"].as_str().unwrap())
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let now_rows = items(&app, &t, tid).await;
        let done = now_rows.iter().find(|i| i["id"] == first).unwrap();
        assert!(
            ["published", "released"].contains(&done["state"].as_str().unwrap()),
            "{done}"
        );
        assert_eq!(
            now_rows.iter().find(|i| i["id"] != first).unwrap()["state"],
            "to_release",
            "the other one keeps its time"
        );
        // Top comments went out with the post; asking again sends nothing new.
        assert_eq!(done["comments_sent"], 3);
        assert_eq!(
            app.post(
                "/task.merchant_forward_task/top_comment_send",
                Some(&t),
                json!({"id": first})
            )
            .await
            .ok()["sent"],
            0
        );
        // Deleting the task cancels the waiting item and frees its video; the published one stays.
        app.post(
            "/task.merchant_forward_task/delete",
            Some(&other),
            json!({"id": tid}),
        )
        .await
        .expect(404);
        app.post(
            "/task.merchant_forward_task/delete",
            Some(&t),
            json!({"id": tid}),
        )
        .await
        .ok();
        assert_eq!(
            app.post("/task.merchant_forward_task/index", Some(&t), json!({}))
                .await
                .ok()["total"],
            0
        );
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM matrix_items")
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
        assert_eq!(left, 1);
        let r = app
            .post(
                "/task.merchant_forward_task/dy_add",
                Some(&t),
                task(&app, &[dy], &[vids[1]], json!({"days": 1})),
            )
            .await;
        assert!(
            r.ok()["task"]["id"].as_i64().is_some(),
            "the freed video can be used again"
        );
    }
}

/// Top comments: an item shows as published only once its top comments are out (a slow comment
/// call used to leave "published" with 2 of 3 sent), and two senders at once (the publisher's retry
/// and a click, or two clicks) never post one comment twice.
#[tokio::test]
async fn top_comments_go_out_once() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let dy = authorize_dy(&app, &t).await;
        let vids = videos(&app, &t, 2).await;
        // Each comment call is slow (held 400 ms, then answered).
        let hold = json!({"platform": "dy", "call": "dy.comment_reply", "fault": "timeout", "count": 3, "hold_ms": 400});
        sandbox(&app, "faults", Some(hold)).await;
        let r = app
            .post(
                "/task.merchant_forward_task/dy_add",
                Some(&t),
                task(&app, &[dy], &vids[..1], soon(&app)),
            )
            .await;
        let tid = r.ok()["task"]["id"].as_i64().unwrap();
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .ok();
        past_the_plan(&app, &t, tid).await;
        let rows = wait_items(&app, &t, tid, &["published", "released"]).await;
        assert_eq!(
            rows[0]["comments_sent"], 3,
            "published before its comments: {}",
            rows[0]
        );

        // The first comment is refused while publishing: the post stands, nothing counts as sent.
        sandbox(&app, "faults", Some(json!({"platform": "dy", "call": "dy.comment_reply", "fault": "server_error", "count": 1}))).await;
        let r = app
            .post(
                "/task.merchant_forward_task/dy_add",
                Some(&t),
                task(&app, &[dy], &vids[1..], soon(&app)),
            )
            .await;
        let tid = r.ok()["task"]["id"].as_i64().unwrap();
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .ok();
        past_the_plan(&app, &t, tid).await;
        let rows = wait_items(&app, &t, tid, &["published", "released"]).await;
        assert_eq!(rows[0]["comments_sent"], 0, "{}", rows[0]);
        // Two "send top comments" at once, each comment call held 1.5 s: 3 comments in all.
        let hold = json!({"platform": "dy", "call": "dy.comment_reply", "fault": "timeout", "count": 6, "hold_ms": 1500});
        sandbox(&app, "faults", Some(hold)).await;
        let send = || {
            app.post(
                "/task.merchant_forward_task/top_comment_send",
                Some(&t),
                json!({"id": rows[0]["id"]}),
            )
        };
        let (a, b) = tokio::join!(send(), send());
        let sent = a.ok()["sent"].as_i64().unwrap() + b.ok()["sent"].as_i64().unwrap();
        assert_eq!(sent, 3, "{} / {}", a.body, b.body);
        assert_eq!(items(&app, &t, tid).await[0]["comments_sent"], 3);
        sandbox(&app, "faults/clear", Some(json!({}))).await;
    }
}

/// The created schedule differed from the previewed one (12:30:38 → 12:32:38): the window of today's
/// plan starts two minutes after "now", and "now" moved between preview and confirm. Confirming sends
/// the preview's seed, instant and posts back; the task stores exactly those, or is refused when a post
/// of them is already due or the posts no longer match.
#[tokio::test]
async fn confirming_stores_exactly_the_previewed_plan() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        at_china_time(&app, 10, 0);
        app.start_worker();
        let t = app.demo().await;
        let dy = authorize_dy(&app, &t).await;
        let xhs = account_row(&app, "xhs", "xhs_plan_1").await;
        let vids = videos(&app, &t, 8).await;
        let (six, two) = vids.split_at(6);
        let preview = |mats: &[i64]| {
            app.post(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                task(
                    &app,
                    &[dy, xhs],
                    mats,
                    json!({"preview": true, "days": 2, "daily_quantity": 2}),
                ),
            )
        };
        let approve = |plan: &Value| {
            json!({
                "days": 2, "daily_quantity": 2,
                "seed": plan["seed"], "planned_at": plan["planned_at"],
                "approved": plan["items"].as_array().unwrap().iter()
                    .map(|i| json!({"account_id": i["account_id"], "video_key": i["video_key"], "at": i["at"]}))
                    .collect::<Vec<_>>(),
            })
        };
        let posts = |items: &Value| -> Vec<(i64, String, i64)> {
            items
                .as_array()
                .unwrap()
                .iter()
                .map(|i| {
                    (
                        i["account_id"]
                            .as_i64()
                            .unwrap_or_else(|| i["account"]["id"].as_i64().unwrap()),
                        i["video_key"].as_str().unwrap_or_default().to_string(),
                        i["at"]
                            .as_i64()
                            .unwrap_or_else(|| i["scheduled_at"].as_i64().unwrap_or(0)),
                    )
                })
                .collect()
        };
        let plan = preview(six).await.ok().clone();
        assert_eq!(plan["count"], 6, "{plan}");
        // The merchant reads the plan for three minutes, then confirms it.
        app.db.clock.advance(3 * 60_000);
        let created = app
            .post(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                task(&app, &[dy, xhs], six, approve(&plan)),
            )
            .await;
        assert_eq!(
            posts(&created.ok()["plan"]["items"]),
            posts(&plan["items"]),
            "{}",
            created.body
        );
        let tid = created.ok()["task"]["id"].as_i64().unwrap();
        let stored: HashSet<i64> = items(&app, &t, tid)
            .await
            .iter()
            .map(|i| i["scheduled_at"].as_i64().unwrap())
            .collect();
        let shown: HashSet<i64> = posts(&plan["items"]).into_iter().map(|p| p.2).collect();
        assert_eq!(stored, shown, "the stored items keep the approved times");

        // Posts that no longer match are refused, naming the plan …
        let plan = preview(two).await.ok().clone();
        let mut changed = approve(&plan);
        changed["approved"][0]["at"] = json!(plan["items"][0]["at"].as_i64().unwrap() + 60_000);
        let r = app
            .post_en(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                task(&app, &[dy, xhs], two, changed),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("plan")),
            "{}",
            r.body
        );
        assert!(
            r.message().contains("The plan changed since the preview"),
            "{}",
            r.message()
        );
        // … and so is a plan whose first post is due by now.
        let first = plan["items"][0]["at"].as_i64().unwrap();
        app.db.clock.advance_to(first + 1000);
        let r = app
            .post_en(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                task(&app, &[dy, xhs], two, approve(&plan)),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("plan")),
            "{}",
            r.body
        );
        assert!(r.message().contains("already due"), "{}", r.message());
    }
}

/// The task wizard listed finished videos as "#3 (1)" (variant and project ids): they are named after
/// their project, in the list the wizard picks from and in the plan and items a task stores.
#[tokio::test]
async fn finished_videos_are_named_after_their_project() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let mid = app.get("/index/profile", Some(&t)).await.ok()["merchant_id"]
            .as_i64()
            .unwrap();
        let dy = authorize_dy(&app, &t).await;
        let material = videos(&app, &t, 1).await[0];
        let project = store::clip::add_project(
            &app.db,
            mid,
            domain::clip::ProjectMode::Normal,
            "Spring sale",
            "{}",
        )
        .await
        .unwrap();
        let made: i64 = sqlx::query_scalar(
            "INSERT INTO clip_variants (merchant_id, project_id, seq, state, progress, duration_ms, video_key, cover_key, \
             created_at, updated_at) VALUES ($1, $2, '[1]', 'success', 100, 1000, 'clip/x.mp4', '', 0, 0) RETURNING id",
        )
        .bind(mid)
        .bind(project)
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        let imported = store::clip::import_variant(&app.db, mid, material, 1000, "clip/y.mp4", "")
            .await
            .unwrap()
            .unwrap();

        let listed = app
            .post(
                "/task.merchant_forward_task/forward_video",
                Some(&t),
                json!({"source": "library"}),
            )
            .await;
        let names: HashMap<i64, String> = listed.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| {
                (
                    v["id"].as_i64().unwrap(),
                    v["name"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        assert_eq!(names[&made], format!("Spring sale #{made}"));
        assert_eq!(
            names[&imported], "shop.mp4",
            "an imported video keeps its file's name"
        );
        // The wizard's "video name" search filters on those names (it answered 422 "not a filterable
        // field" and the picker said "no videos"), case-insensitively, in both sources.
        for (source, word, want) in [
            ("library", "spring", vec![made]),
            ("library", "SHOP.", vec![imported]),
            ("library", &format!("#{made}")[..], vec![made]),
            ("library", "autumn", vec![]),
            ("material", "shop", vec![material]),
        ] {
            let r = app
                .post(
                    "/task.merchant_forward_task/forward_video",
                    Some(&t),
                    json!({"source": source, "filterObj": {"name": format!("{word}|include")}}),
                )
                .await;
            let ids: Vec<i64> = r.ok()["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v["id"].as_i64().unwrap())
                .collect();
            assert_eq!(
                (ids, r.ok()["total"].as_i64()),
                (want.clone(), Some(want.len() as i64)),
                "{source} {word}"
            );
        }

        // The plan (and so the stored items) carry the same name.
        let tomorrow =
            domain::matrix::fmt_day(domain::matrix::day_of(app.db.clock.platform_now()) + 1);
        let plan = app
            .post(
                "/matrix.merchant_publish_management/createCommonPublishTask",
                Some(&t),
                task(
                    &app,
                    &[dy],
                    &[],
                    json!({"video_ids": [made], "preview": true, "start_date": tomorrow}),
                ),
            )
            .await;
        assert_eq!(
            plan.ok()["items"][0]["video_name"],
            format!("Spring sale #{made}")
        );
    }
}

/// The dashboard's two charts read what publishing recorded: posts per day and the plays and likes of
/// the videos published that day (a regression: both stayed empty after videos went live).
#[tokio::test]
async fn dashboard_charts_show_published_videos_and_their_statistics() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        at_china_time(&app, 10, 0);
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;
        let other = app.second_merchant(&admin, "shop5").await;
        let dy = authorize_dy(&app, &t).await;
        let vids = videos(&app, &t, 2).await;
        let empty = app.get("/index/dashboard", Some(&t)).await;
        assert_eq!(empty.ok()["has_publish_data"], false, "{}", empty.body);

        // Both posts a few minutes from 10:00 China time, so "today" is the same day for the
        // publish and the two hours of watching that follow, at any wall-clock hour.
        let mut both_soon = soon(&app);
        both_soon["daily_quantity"] = json!(2);
        let r = app
            .post(
                "/task.merchant_forward_task/dy_add",
                Some(&t),
                task(&app, &[dy], &vids, both_soon),
            )
            .await;
        let tid = r.ok()["task"]["id"].as_i64().unwrap();
        app.post("/system/audit/approve", Some(&admin), json!({"id": tid}))
            .await
            .ok();
        past_the_plan(&app, &t, tid).await;
        wait_items(&app, &t, tid, &["published", "released"]).await;
        // The platform's review passes, the videos are watched for two hours, the account is read again.
        app.db.clock.advance(2 * 3_600_000);
        let sync =
            store::jobs::NewJob::new(domain::jobs::Job::MatrixSync(domain::jobs::AccountRef {
                account_id: dy,
            }));
        let job = store::jobs::submit(&app.db, &sync).await.unwrap();
        for _ in 0..600 {
            if store::jobs::get(&app.db, job).await.unwrap().unwrap().state
                == domain::jobs::JobState::Done
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        let d = app.get("/index/dashboard", Some(&t)).await;
        let d = d.ok();
        let total = |v: &Value| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_i64().unwrap())
                .sum::<i64>()
        };
        assert_eq!(d["publish"]["days"].as_array().unwrap().len(), 7, "{d}");
        assert_eq!(d["publish"]["days"][6], today(&app), "{d}");
        assert_eq!(total(&d["publish"]["success"]), 2, "{d}");
        assert_eq!(d["publish"]["success"][6], 2, "published today: {d}");
        assert_eq!(total(&d["publish"]["failed"]), 0, "{d}");
        assert!(total(&d["video"]["plays"]) > 0, "{d}");
        assert!(total(&d["video"]["likes"]) > 0, "{d}");
        assert_eq!(
            (
                d["has_publish_data"].as_bool(),
                d["has_video_data"].as_bool()
            ),
            (Some(true), Some(true))
        );
        // Another merchant's dashboard stays empty.
        let o = app.get("/index/dashboard", Some(&other)).await;
        assert_eq!(
            total(&o.ok()["publish"]["success"]) + total(&o.ok()["video"]["plays"]),
            0
        );
    }
}

/// Two refreshes of one Kuaishou account racing (the refresh job and a publish, or a lapsed lease's
/// twin): Kuaishou spends a refresh token on use, so the slower one is refused. That refusal must not
/// mark the account expired: the faster one stored a new, working token. A refusal of the token the
/// account still holds does mark it.
#[tokio::test]
async fn a_refresh_refused_because_another_spent_the_token_keeps_the_account() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let ks = authorize_oauth(&app, &t, "ks").await;
        let hub = app.state.hub.clone();
        let account = |db: store::Db| async move {
            store::matrix::account_by_id(&db, ks)
                .await
                .unwrap()
                .unwrap()
        };
        let seen = account(app.db.clone()).await;
        // Both read the account before either refreshed.
        hub.refresh(&seen).await.unwrap();
        hub.refresh(&seen)
            .await
            .expect("the slower refresh finds the account refreshed");
        let now = account(app.db.clone()).await;
        assert_eq!(now.revoked, 0, "not expired");
        assert_ne!(now.refresh_token, seen.refresh_token);
        // The stored token works.
        hub.refresh(&now).await.unwrap();
        // Refused with the token the account holds (a spent one put back): expired, with the reason.
        sqlx::query("UPDATE matrix_accounts SET refresh_token = $1 WHERE id = $2")
            .bind(&seen.refresh_token)
            .bind(ks)
            .execute(&app.db.pool)
            .await
            .unwrap();
        let stale = account(app.db.clone()).await;
        assert!(hub.refresh(&stale).await.is_err());
        let expired = account(app.db.clone()).await;
        assert_eq!(expired.revoked, 1);
        assert!(
            expired
                .revoked_args
                .contains("refresh token is no longer valid"),
            "{}",
            expired.revoked_args
        );
    }
}

/// A creator-console account's proxy: checked, sealed in the database, shown without its
/// credentials, refused on an open-API account, out of another merchant's reach, and removed by an
/// empty value. (The browser going through it: platforms' `an_accounts_proxy_carries_its_console_traffic`.)
#[tokio::test]
async fn a_console_accounts_proxy_is_sealed_and_shown_without_credentials() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let (t, admin) = (app.demo().await, app.admin().await);
        let sph = account_row(&app, "sph", "sph_proxy_1").await;
        let dy = authorize_dy(&app, &t).await;
        let set = |id: i64, proxy: &str| {
            app.post_en(
                "/task.merchant_group_user/update_proxy",
                Some(&t),
                json!({"id": id, "proxy": proxy}),
            )
        };
        let r = set(sph, "10.1.2.3:8080").await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("proxy")),
            "{}",
            r.body
        );
        assert!(
            r.message().contains("socks5://host:port"),
            "{}",
            r.message()
        );
        let r = set(dy, "http://10.1.2.3:8080").await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("proxy")),
            "{}",
            r.body
        );
        assert!(r.message().contains("creator console"), "{}", r.message());

        let r = set(sph, " http://bob:pa55word@10.1.2.3:8080 ").await;
        assert_eq!(r.ok()["proxy"], "http://10.1.2.3:8080", "{}", r.body);
        let list = app
            .post("/task.merchant_group_user/index", Some(&t), json!({}))
            .await;
        let row = list.ok()["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == sph)
            .unwrap()
            .clone();
        assert_eq!(row["proxy"], "http://10.1.2.3:8080");
        assert!(!list.body.to_string().contains("pa55word"));
        let stored: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT proxy FROM matrix_accounts WHERE id = {sph}"
        )))
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
        assert!(!stored.is_empty() && !stored.contains("pa55word") && !stored.contains("10.1.2.3"));

        // Another merchant cannot reach the account.
        let other = app.second_merchant(&admin, "proxy_b").await;
        let r = app
            .post(
                "/task.merchant_group_user/update_proxy",
                Some(&other),
                json!({"id": sph, "proxy": "http://10.9.9.9:3128"}),
            )
            .await;
        assert_eq!(r.status, 404, "{}", r.body);

        let r = set(sph, "").await;
        assert_eq!(r.ok()["proxy"], "", "{}", r.body);
    }
}

/// A creator-console QR login through the account-to-be's proxy: the console's login page is fetched
/// through it (a forwarding proxy on loopback sees it), and the account it becomes posts through the
/// same proxy (sealed, shown without credentials). A proxy that is no proxy URL, or one for an
/// open-platform login, is refused at `proxy` before a browser starts.
#[tokio::test]
async fn a_qr_login_through_a_proxy_gives_the_account_that_proxy() {
    let app = TestApp::spawn_with_browser(heavy_story_backend()).await;
    let t = app.demo().await;
    let start = |platform: &'static str, proxy: String| {
        app.post_en(
            "/task.merchant_group_user/get_qrCode",
            Some(&t),
            json!({"platform": platform, "proxy": proxy}),
        )
    };
    for (platform, proxy) in [("sph", "10.1.2.3:8080"), ("dy", "http://10.1.2.3:8080")] {
        let r = start(platform, proxy.into()).await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("proxy")),
            "{}",
            r.body
        );
    }
    let proxy = common::proxy::Proxy::start().await;
    let account = console_account_via(&app, &t, "sph", "代理扫码号", &proxy.url).await;
    let seen = proxy.seen();
    assert!(
        seen.iter().any(|l| l.contains("/console/sph/login")),
        "{seen:?}"
    );
    assert_eq!(account["nickname"], "代理扫码号", "{account}");
    assert_eq!(account["proxy"], json!(proxy.url));
    let id = account["id"].as_i64().unwrap();
    let stored: String = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT proxy FROM matrix_accounts WHERE id = {id}"
    )))
    .fetch_one(&app.db.pool)
    .await
    .unwrap();
    assert!(
        !stored.is_empty() && !stored.contains("127.0.0.1"),
        "sealed: {stored}"
    );
}

/// An account row of `platform`, authorized until far ahead (no platform call needed to refuse a task).
async fn account_row(app: &TestApp, platform: &str, open_id: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO matrix_accounts (merchant_id, platform, open_id, nickname, avatar, access_token, refresh_token, \
           token_expires_at, auth_expires_at, group_id, sandbox, created_at, updated_at, scope) \
         VALUES ($1, $2, $3, $3, '', 't', 'r', $4, $4, 0, 1, 0, 0, '') RETURNING id",
    )
    .bind(demo_merchant(app).await)
    .bind(platform)
    .bind(open_id)
    .bind(app.db.clock.platform_now() + 300 * 86_400_000)
    .fetch_one(&app.db.pool)
    .await
    .unwrap()
}

/// The platforms' own rules (`domain::matrix::platform_rules`): a task one of its accounts' platforms
/// cannot take is refused before anything is stored, naming the platform and the rule, in both
/// languages; the same task without that platform's accounts is not refused for it; the console
/// reads the rules.
#[tokio::test]
async fn a_task_breaking_a_platforms_rule_is_refused_naming_it() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let t = app.demo().await;
        let xhs = account_row(&app, "xhs", "xhs_rules_1").await;
        let dy = account_row(&app, "dy", "dy_rules_1").await;
        let twelve: Vec<String> = (1..=12).map(|i| format!("话题{i}")).collect();
        let create = |accounts: Vec<i64>, extra: Value, en: bool| {
            let req = common::publish::task(&app, &accounts, &[987_654], extra);
            let t = t.clone();
            let app = &app;
            async move {
                let path = "/matrix.merchant_publish_management/createCommonPublishTask";
                if en {
                    app.post_en(path, Some(&t), req).await
                } else {
                    app.post(path, Some(&t), req).await
                }
            }
        };
        let r = create(vec![xhs, dy], json!({"topics": twelve}), false).await;
        let r = r.expect(422);
        assert_eq!(r.data()["field"], "topics", "{}", r.body);
        assert!(
            r.message().contains("小红书")
                && r.message().contains("话题个数")
                && r.message().contains("10"),
            "{}",
            r.message()
        );
        let r = create(
            vec![xhs],
            json!({"titles": "一二三四五六七八九十一二三四五六七八九十一"}),
            true,
        )
        .await;
        let r = r.expect(422);
        assert_eq!(r.data()["field"], "titles", "{}", r.body);
        assert!(
            r.message()
                .contains("Xiaohongshu allows at most 20 for title length"),
            "{}",
            r.message()
        );
        // Douyin's open platform takes them: the task goes on to its next check (the videos).
        let r = create(vec![dy], json!({"topics": twelve}), false).await;
        assert_eq!(r.expect(422).data()["field"], "video_ids", "{}", r.body);

        // Nothing dropped: a part a platform's post would not carry is refused, naming both.
        let r = create(
            vec![dy],
            json!({"mount_type": "product", "product_id": "3579"}),
            true,
        )
        .await;
        let r = r.expect(422);
        assert_eq!(r.data()["field"], "mount_type", "{}", r.body);
        assert!(
            r.message()
                .contains("A Douyin post cannot carry a product mount"),
            "{}",
            r.message()
        );
        let r = create(vec![dy, xhs], json!({"at_users": ["小王"]}), false).await;
        let r = r.expect(422);
        assert_eq!(r.data()["field"], "at_users", "{}", r.body);
        assert!(
            r.message().contains("小红书的作品无法带上@ 提及"),
            "{}",
            r.message()
        );
        // Douyin carries @ and a location: on to the videos.
        let r = create(
            vec![dy],
            json!({"at_users": ["小王"], "mount_type": "poi", "poi_id": "p1"}),
            false,
        )
        .await;
        assert_eq!(r.expect(422).data()["field"], "video_ids", "{}", r.body);

        let rules = app
            .get(
                "/matrix.merchant_publish_management/platform_rules",
                Some(&t),
            )
            .await;
        let xhs_rules = rules
            .ok()
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["platform"] == "xhs")
            .cloned()
            .unwrap();
        assert_eq!(xhs_rules["title_max"], 20, "{xhs_rules}");
        assert_eq!(xhs_rules["topics_max"], 10, "{xhs_rules}");
        assert!(
            xhs_rules["sources"]
                .as_str()
                .unwrap()
                .contains("xiaohongshu")
        );
    }
}

/// The page check (canary) of a creator console: it walks a publish to the last click and sends
/// nothing; when a page changed it names the step, and the platform's due items wait (not fail)
/// until a check passes. Operator only. SQLite: a real chromium drives the sandbox console, and the
/// pause is a setting and a filter of the dispatcher's query, run on both databases by the
/// dispatcher's other stories.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_page_check_pauses_the_platforms_posts_until_one_passes() {
    let app = TestApp::spawn_with_browser(Backend::Sqlite).await;
    app.start_worker();
    let t = app.demo().await;
    let admin = app.admin().await;
    let check = |who: &str| {
        let who = who.to_string();
        let app = &app;
        async move {
            app.post("/system/app/canary", Some(&who), json!({"platform": "xhs"}))
                .await
        }
    };
    // No account to walk with: said, and nothing paused. A merchant may not run it.
    let r = check(&admin).await;
    assert_eq!(
        (
            r.ok()["ok"].as_bool(),
            r.ok()["step"].as_str(),
            r.ok()["paused"].as_bool()
        ),
        (Some(false), Some("account"), Some(false))
    );
    assert_eq!(check(&t).await.status, 403);
    let r = app
        .post(
            "/system/app/canary",
            Some(&admin),
            json!({"platform": "dy"}),
        )
        .await;
    assert_eq!(
        (r.status, r.data()["field"].as_str()),
        (422, Some("platform"))
    );

    let account = xhs_console_account(&app, &t, "巡检号").await;
    let id = account["id"].as_i64().unwrap();
    let r = check(&admin).await;
    assert_eq!(r.ok()["ok"], true, "{}", r.body);
    assert_eq!(r.ok()["account_id"], id);
    let got = sandbox(&app, "console/xhs/received", None).await;
    assert_eq!(
        got["received"].as_array().unwrap().len(),
        0,
        "the check posted: {got}"
    );

    // The upload page changed: the check fails at that step and pauses the platform.
    sandbox(
        &app,
        "console/xhs/faults",
        Some(json!({"user": "巡检号", "changed_selector": true})),
    )
    .await;
    let r = check(&admin).await;
    assert_eq!(
        (
            r.ok()["ok"].as_bool(),
            r.ok()["step"].as_str(),
            r.ok()["paused"].as_bool()
        ),
        (Some(false), Some("upload"), Some(true)),
        "{}",
        r.body
    );
    let apps = app.post("/system/app/index", Some(&admin), json!({})).await;
    let row = apps.ok()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["platform"] == "xhs")
        .unwrap()
        .clone();
    assert_eq!(
        (
            row["checkable"].as_bool(),
            row["canary"]["paused"].as_bool()
        ),
        (Some(true), Some(true))
    );
    // The operator is told on every page (the console's banner reads it) and by /metrics; a
    // merchant is not.
    let init = app.get("/ajax/initAdmin", Some(&admin)).await;
    let paused = &init.ok()["paused_platforms"];
    assert_eq!(
        (
            paused.as_array().map(Vec::len),
            paused[0]["platform"].as_str(),
            paused[0]["name"].as_str(),
            paused[0]["step"].as_str()
        ),
        (Some(1), Some("xhs"), Some("小红书"), Some("upload")),
        "{}",
        init.body
    );
    assert!(
        paused[0]["reason"].as_str().unwrap().contains("上传"),
        "{paused}"
    );
    let en = app
        .call("GET", "/ajax/initAdmin", Some(&admin), None, "en")
        .await;
    assert_eq!(en.ok()["paused_platforms"][0]["name"], "Xiaohongshu");
    let mine = app.get("/ajax/initAdmin", Some(&t)).await;
    assert_eq!(mine.ok()["paused_platforms"], json!([]));
    let metrics = app
        .http
        .get(app.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("clipmatrix_platform_paused{platform=\"xhs\",step=\"upload\"} 1")
            && metrics.contains("clipmatrix_platform_paused{platform=\"sph\",step=\"\"} 0"),
        "{metrics}"
    );

    // A post due now waits, and says why (both languages); it is not failed.
    let vids = videos(&app, &t, 1).await;
    let tid = due_task(&app, &t, &admin, &[id], &vids, |_| {}).await;
    tokio::time::sleep(Duration::from_millis(3000)).await;
    let rows = items(&app, &t, tid).await;
    assert_eq!(rows[0]["state"], "to_release", "{}", rows[0]);
    assert!(
        rows[0]["paused"]
            .as_str()
            .unwrap()
            .contains("平台页面检查未通过"),
        "{}",
        rows[0]
    );
    let en = app
        .post_en(
            "/task.merchant_forward_task/forward_video_release",
            Some(&t),
            json!({"task_id": tid}),
        )
        .await;
    assert!(
        en.ok()["rows"][0]["paused"]
            .as_str()
            .unwrap()
            .starts_with("Paused: the platform's page check failed"),
        "{}",
        en.body
    );

    // The page is back: the next check passes, the platform resumes and the post goes out once.
    sandbox(
        &app,
        "console/xhs/faults",
        Some(json!({"user": "巡检号", "changed_selector": false})),
    )
    .await;
    let r = check(&admin).await;
    assert_eq!(
        (r.ok()["ok"].as_bool(), r.ok()["paused"].as_bool()),
        (Some(true), Some(false)),
        "{}",
        r.body
    );
    let rows = wait_items(&app, &t, tid, &["published", "released", "failed"]).await;
    assert!(
        ["published", "released"].contains(&rows[0]["state"].as_str().unwrap()),
        "{}",
        rows[0]
    );
    assert!(rows[0]["paused"].is_null());
    let got = sandbox(&app, "console/xhs/received", None).await;
    assert_eq!(got["received"].as_array().unwrap().len(), 1, "{got}");

    // The operator's resume clears a pause without a passing check.
    let r = app
        .post(
            "/system/app/canary_resume",
            Some(&admin),
            json!({"platform": "sph"}),
        )
        .await;
    assert!(r.ok().is_null(), "never checked: {}", r.body);
}

/// The mode of one platform on Platform apps.
async fn set_mode(app: &TestApp, admin: &str, platform: &str, mode: &str) {
    app.post(
        "/system/app/mode",
        Some(admin),
        json!({"platform": platform, "mode": mode}),
    )
    .await
    .ok();
}

/// One row of /system/app.
async fn app_row(app: &TestApp, admin: &str, platform: &str) -> Value {
    let r = app.post("/system/app/index", Some(admin), json!({})).await;
    r.ok()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["platform"] == platform)
        .unwrap()
        .clone()
}

/// Each platform has its own mode: Douyin and Baijiahao live (another server's sandbox stands in
/// for the real hosts, by `CLIPMATRIX_LIVE_BASE_<CODE>`) while Kuaishou stays simulated, in one
/// deployment; each post goes where its platform's mode says. An account keeps the mode it was
/// authorized in (a live account is refused once its platform points at the sandbox), a platform
/// switched off is refused with the reason and its due posts wait, and /system/app says all of it.
#[tokio::test]
async fn each_platform_goes_live_simulated_or_off_by_its_own_mode() {
    for backend in backends() {
        let real = TestApp::spawn(backend).await;
        // SAFETY: nextest runs each test in a process of its own; nothing else reads these yet.
        unsafe {
            std::env::set_var(
                "CLIPMATRIX_LIVE_BASE_DY",
                real.url("/sandbox/dy").trim_end_matches('/'),
            );
            std::env::set_var("CLIPMATRIX_LIVE_BASE_BJH", real.url("/sandbox/bjh"));
        }
        let app = TestApp::spawn(backend).await;
        app.start_worker();
        let t = app.demo().await;
        let admin = app.admin().await;

        // Douyin live with the "real" host's app credentials; Baijiahao live by its mode alone
        // (its accounts bring their own app id and token); Kuaishou keeps the default, the sandbox.
        let dy_app = real.state.hub.sandbox_app(platforms::Platform::Dy);
        app.post("/system/app/save", Some(&admin), json!({"platform": "dy", "client_key": dy_app.client_key, "client_secret": dy_app.client_secret})).await.ok();
        set_mode(&app, &admin, "bjh", "live").await;
        for (p, mode, set) in [
            ("dy", "live", false),
            ("bjh", "live", true),
            ("ks", "sandbox", false),
        ] {
            let row = app_row(&app, &admin, p).await;
            assert_eq!(
                (row["mode"].as_str(), row["mode_set"].as_bool()),
                (Some(mode), Some(set)),
                "{row}"
            );
            assert!(row["blocked"].is_null(), "{row}");
        }

        let dy = authorize_oauth(&app, &t, "dy").await;
        let ks = authorize_oauth(&app, &t, "ks").await;
        let bjh = app
            .post(
                "/task.merchant_group_user/bjhLogin",
                Some(&t),
                json!({"app_id": "live-app", "app_token": common::bjh_app_token()}),
            )
            .await;
        let bjh = bjh.ok()["id"].as_i64().unwrap();
        let modes: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT id, sandbox FROM matrix_accounts WHERE id IN ($1, $2, $3) ORDER BY id",
        )
        .bind(dy)
        .bind(ks)
        .bind(bjh)
        .fetch_all(&app.db.pool)
        .await
        .unwrap();
        assert_eq!(modes, vec![(dy, 0), (ks, 1), (bjh, 0)]);

        let vids = videos(&app, &t, 3).await;
        let rows = publish_now(&app, &t, &admin, &[dy, ks, bjh], &vids).await;
        for i in &rows {
            assert!(
                ["published", "released"].contains(&i["state"].as_str().unwrap()),
                "{}: {}",
                i["account"]["platform"],
                i["error"]
            );
        }
        // Two posts reached the "real" hosts, one the deployment's own sandbox.
        assert_eq!(sandbox(&real, "counts", None).await["total_creates"], 2);
        assert_eq!(sandbox(&app, "counts", None).await["total_creates"], 1);

        // Douyin now points at the sandbox: the live account is refused, naming both modes.
        set_mode(&app, &admin, "dy", "sandbox").await;
        let row = app_row(&app, &admin, "dy").await;
        assert_eq!(
            (row["mode"].as_str(), row["mode_set"].as_bool()),
            (Some("sandbox"), Some(true))
        );
        let r = app
            .post_en(
                "/task.merchant_group_user/renew",
                Some(&t),
                json!({"id": dy}),
            )
            .await;
        r.expect(422);
        assert!(
            r.message().contains(
                "was authorized against the real platform, but Douyin now goes to the sandbox"
            ),
            "{}",
            r.body
        );

        // Switched off: refused with the reason, shown on /system/app, and its due posts wait.
        set_mode(&app, &admin, "dy", "off").await;
        let row = app_row(&app, &admin, "dy").await;
        assert_eq!(row["mode"], "off");
        assert!(
            row["blocked"]
                .as_str()
                .unwrap()
                .contains("抖音已在“平台应用”中关闭"),
            "{row}"
        );
        assert_eq!(app.state.hub.waiting_platforms().await.unwrap(), vec!["dy"]);
        // Back to the default: live again (its app is saved), the account works.
        set_mode(&app, &admin, "dy", "default").await;
        let row = app_row(&app, &admin, "dy").await;
        assert_eq!(
            (row["mode"].as_str(), row["mode_set"].as_bool()),
            (Some("live"), Some(false))
        );
        app.post(
            "/task.merchant_group_user/renew",
            Some(&t),
            json!({"id": dy}),
        )
        .await
        .ok();
        // A mode that is not one, on something that has no mode: 422.
        app.post(
            "/system/app/mode",
            Some(&admin),
            json!({"platform": "dy", "mode": "maybe"}),
        )
        .await
        .expect(422);
        app.post(
            "/system/app/mode",
            Some(&admin),
            json!({"platform": "tiktok", "mode": "off"}),
        )
        .await
        .expect(422);
        // Only the operator sets modes.
        app.post(
            "/system/app/mode",
            Some(&t),
            json!({"platform": "dy", "mode": "off"}),
        )
        .await
        .expect(403);
    }
}

/// Cluster-safe console accounts, logged in through a slider puzzle: the console's puzzle reaches
/// the dialog as a picture, a place out of range is refused at `slide`, the person's place logs in;
/// the login is stored in the database sealed (no cookie in clear) and linked to the account, the
/// accounts list shows its size, another worker node with an empty profile folder acts for the
/// account from it, and removing the account removes it.
#[tokio::test]
async fn a_console_login_through_a_slider_is_stored_sealed_and_serves_another_node() {
    let app = TestApp::spawn_with_browser(heavy_story_backend()).await;
    let t = app.demo().await;
    sandbox(
        &app,
        "console/xhs/faults",
        Some(json!({"user": "节点共享号", "slider": true})),
    )
    .await;
    let start = app
        .post(
            "/task.merchant_group_user/qr_login",
            Some(&t),
            json!({"platform": "xhs"}),
        )
        .await;
    let login_id = start.ok()["login_id"].clone();
    sandbox(
        &app,
        "console/xhs/scan",
        Some(json!({"user": "节点共享号"})),
    )
    .await;
    let poll = |body: Value| {
        let (app, t) = (&app, t.clone());
        async move {
            app.post("/task.merchant_group_user/qr_login", Some(&t), body)
                .await
        }
    };
    let mut r = poll(json!({"platform": "xhs", "login_id": login_id})).await;
    for _ in 0..60 {
        if r.ok()["state"] != "qr_pending" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        r = poll(json!({"platform": "xhs", "login_id": login_id})).await;
    }
    assert_eq!(r.ok()["state"], "slider_challenge", "{}", r.body);
    assert!(
        r.ok()["challenge_image"]
            .as_str()
            .is_some_and(|i| i.starts_with("data:image/png;base64,")),
        "{}",
        r.body
    );
    let bad = poll(json!({"platform": "xhs", "login_id": login_id, "slide": 1.5})).await;
    assert_eq!(
        (bad.status, bad.data()["field"].as_str()),
        (422, Some("slide")),
        "{}",
        bad.body
    );
    let captcha = sandbox(&app, "console/xhs/captcha", None).await;
    let place = captcha["gap"].as_f64().unwrap() / captcha["track"].as_f64().unwrap();
    let mut r = poll(json!({"platform": "xhs", "login_id": login_id, "slide": place})).await;
    for _ in 0..60 {
        if r.ok()["state"] == "logged_in" {
            break;
        }
        assert_ne!(r.ok()["state"], "slider_challenge", "{}", r.body);
        tokio::time::sleep(Duration::from_millis(300)).await;
        r = poll(json!({"platform": "xhs", "login_id": login_id})).await;
    }
    let account = r.ok()["account"].clone();
    assert_eq!(account["nickname"], "节点共享号", "{}", r.body);
    let id = account["id"].as_i64().unwrap();
    let (version, state): (i64, String) =
        sqlx::query_as("SELECT version, state FROM browser_profiles WHERE account_id = $1")
            .bind(id)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    assert!(version >= 1);
    assert!(
        !state.contains("cookies") && !state.contains("节点共享号"),
        "stored sealed: {state:.120}"
    );
    let rows = app
        .post(
            "/task.merchant_group_user/index",
            Some(&t),
            json!({"platform": "xhs"}),
        )
        .await;
    assert!(
        rows.ok()["rows"][0]["profile_bytes"].as_i64().unwrap() > 100,
        "{}",
        rows.body
    );

    // Node B: the same database, its own empty profile folder.
    let dir = tempdir::TempDir::new();
    std::os::unix::fs::symlink(
        app.files
            .path
            .join("browser/node_modules")
            .canonicalize()
            .unwrap(),
        dir.path.join("node_modules"),
    )
    .unwrap();
    let cfg = platforms::browser::DriverConfig::for_data_dir(&dir.path);
    let driver = platforms::browser::Driver::new(platforms::browser::DriverConfig {
        script_dir: dir.path.clone(),
        profiles_dir: dir.path.join("profiles"),
        ..cfg
    });
    let mut node_b = (*app.state.hub).clone();
    node_b.adapters = Default::default();
    node_b.browser = Some(driver.clone());
    let row = store::matrix::account(&app.db, demo_merchant(&app).await, id)
        .await
        .unwrap()
        .unwrap();
    let creds = node_b.creds(&row);
    node_b
        .adapter_for(&row)
        .await
        .unwrap()
        .check(&creds)
        .await
        .expect("node B is logged in from the stored login");
    assert!(driver.profile_dir(&creds.token).exists());
    driver.shutdown().await;

    // Removing the account removes its stored login.
    app.post(
        "/task.merchant_group_user/delete",
        Some(&t),
        json!({"ids": [id]}),
    )
    .await
    .ok();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM browser_profiles")
        .fetch_one(&app.db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
}
