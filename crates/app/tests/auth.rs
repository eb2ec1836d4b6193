//! Sign-in, SMS codes, lockout, tokens and passwords, on every configured backend.

use crate::common;
use common::*;
use serde_json::json;

#[tokio::test]
async fn login_rejects_bad_input_with_precise_messages() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":1,"username":"demo","password":DEMO_PW}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "agree");
        assert_eq!(
            r.message(),
            "Please read and agree to the service and privacy agreements"
        );

        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":1,"username":"demo","password":"nope1234","agree":true}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.message(), "Wrong account or password, 4 attempts left");
        let r = app
            .post(
                "/login/auth",
                None,
                json!({"login_type":1,"username":"demo","password":"nope1234","agree":true}),
            )
            .await;
        assert_eq!(r.message(), "账号或密码错误，还可尝试 3 次");

        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":1,"username":"","password":"x","agree":true}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "username");

        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":9,"username":"demo","password":DEMO_PW,"agree":true}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "login_type");

        // The enterprise account cannot use the staff login.
        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":3,"username":"demo","password":DEMO_PW,"agree":true}),
            )
            .await;
        r.expect(422);
        assert!(
            r.message().contains("not a staff account"),
            "{}",
            r.message()
        );

        // Form bodies work like JSON (SPEC §7: a body for non-GET calls).
        let r = app
            .http
            .post(app.url("/api/login/auth"))
            .form(&[
                ("login_type", "1"),
                ("username", "demo"),
                ("password", DEMO_PW),
                ("agree", "true"),
            ])
            .send()
            .await
            .unwrap();
        let v: serde_json::Value = r.json().await.unwrap();
        assert_eq!(v["code"], 200, "{v}");
        assert_eq!(v["data"]["user"]["permissions"], json!(["*/*/*"]));
        assert_eq!(v["data"]["user"]["role"], json!(["merchant"]));
    }
}

#[tokio::test]
async fn five_wrong_passwords_lock_the_login_for_15_minutes() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        for i in 0..4 {
            let r = app
                .post_en(
                    "/login/auth",
                    None,
                    json!({"login_type":1,"username":"demo","password":"wrong123","agree":true}),
                )
                .await;
            assert_eq!(r.status, 422, "try {i}");
        }
        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":1,"username":"demo","password":"wrong123","agree":true}),
            )
            .await;
        r.expect(429);
        assert!(
            r.message().contains("locked until 15 min"),
            "{}",
            r.message()
        );
        // Even the right password is refused while locked.
        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":1,"username":"demo","password":DEMO_PW,"agree":true}),
            )
            .await;
        r.expect(429);
        // Another account is not affected.
        app.admin().await;
        // After 15 minutes the lock is gone.
        sqlx::query("UPDATE login_failures SET locked_until = locked_until - 900001")
            .execute(&app.db.pool)
            .await
            .unwrap();
        app.demo().await;
    }
}

#[tokio::test]
async fn register_login_and_reset_with_sms_codes() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let phone = "13800138000";
        // Login and reset need a registered phone.
        let r = app
            .post_en(
                "/login/sms",
                None,
                json!({"mobile": phone, "scene": "login"}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.message(), "No account uses this mobile number");
        let r = app
            .post_en(
                "/login/sms",
                None,
                json!({"mobile": "12345", "scene": "register"}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "mobile");

        app.post(
            "/login/sms",
            None,
            json!({"mobile": phone, "scene": "register"}),
        )
        .await
        .ok();
        let r = app
            .post_en(
                "/login/sms",
                None,
                json!({"mobile": phone, "scene": "register"}),
            )
            .await;
        r.expect(429);
        assert!(r.message().contains("one a minute"), "{}", r.message());
        let code = app.sms_code(phone).await;
        assert_eq!(code.len(), 6);

        let reg = |code: &str, pw: &str, confirm: &str, agree: bool| {
            json!({"merchant_name":"Tea House","username":"teahouse","mobile":phone,"code":code,
                   "password":pw,"password_confirm":confirm,"agree":agree})
        };
        let r = app
            .post_en(
                "/login/register",
                None,
                reg(&code, "abc12345", "abc12345", false),
            )
            .await;
        assert_eq!((r.status, r.data()["field"].as_str()), (422, Some("agree")));
        let r = app
            .post_en(
                "/login/register",
                None,
                reg(&code, "abcdefgh", "abcdefgh", true),
            )
            .await;
        assert_eq!(
            r.message(),
            "The new password needs 8+ characters with both letters and digits"
        );
        let r = app
            .post_en(
                "/login/register",
                None,
                reg(&code, "abc12345", "abc12346", true),
            )
            .await;
        r.expect(422);
        assert_eq!(r.message(), "The passwords entered twice are inconsistent");
        let r = app
            .post_en(
                "/login/register",
                None,
                reg("000000", "abc12345", "abc12345", true),
            )
            .await;
        r.expect(422);
        if code != "000000" {
            assert_eq!(
                r.message(),
                "The code is wrong or has expired, 4 attempts left"
            );
        }
        let r = app
            .post(
                "/login/register",
                None,
                reg(&code, "abc12345", "abc12345", true),
            )
            .await;
        let token = r.ok()["token"].as_str().unwrap().to_string();
        assert_eq!(r.data()["user"]["merchant_name"], "Tea House");
        // A code works once.
        let r = app
            .post_en(
                "/login/register",
                None,
                reg(&code, "abc12345", "abc12345", true),
            )
            .await;
        r.expect(422);

        // Sign in with an SMS code; an expired code is refused.
        app.age_sms(phone).await;
        app.post(
            "/login/sms",
            None,
            json!({"mobile": phone, "scene": "login"}),
        )
        .await
        .ok();
        let code = app.sms_code(phone).await;
        sqlx::query("UPDATE sms_codes SET expires_at = 1 WHERE mobile = $1")
            .bind(phone)
            .execute(&app.db.pool)
            .await
            .unwrap();
        let r = app
            .post_en(
                "/login/auth",
                None,
                json!({"login_type":2,"mobile":phone,"code":code,"agree":true}),
            )
            .await;
        r.expect(422);
        assert_eq!(r.data()["field"], "code");
        app.age_sms(phone).await;
        app.post(
            "/login/sms",
            None,
            json!({"mobile": phone, "scene": "login"}),
        )
        .await
        .ok();
        let code = app.sms_code(phone).await;
        let r = app
            .post(
                "/login/auth",
                None,
                json!({"login_type":2,"mobile":phone,"code":code,"agree":true}),
            )
            .await;
        assert_eq!(r.ok()["user"]["username"], "teahouse");

        // Reset the password with a code: old sessions end (body code 401), the new password works.
        app.age_sms(phone).await;
        app.post(
            "/login/sms",
            None,
            json!({"mobile": phone, "scene": "reset"}),
        )
        .await
        .ok();
        let code = app.sms_code(phone).await;
        let r = app.post_en("/login/reset_password", None, json!({"mobile":phone,"code":code,"password":"new12345","password_confirm":"new12346"})).await;
        assert_eq!(r.message(), "The passwords entered twice are inconsistent");
        app.post(
            "/login/reset_password",
            None,
            json!({"mobile":phone,"code":code,"password":"new12345","password_confirm":"new12345"}),
        )
        .await
        .ok();
        let r = app.get("/ajax/initAdmin", Some(&token)).await;
        assert_eq!((r.status, r.code()), (200, 401));
        app.login(1, "teahouse", "new12345").await;
    }
}

#[tokio::test]
async fn five_wrong_codes_lock_the_phone() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let phone = "13900139000";
        app.post(
            "/login/sms",
            None,
            json!({"mobile": phone, "scene": "register"}),
        )
        .await
        .ok();
        let good = app.sms_code(phone).await;
        let bad = if good == "111111" { "222222" } else { "111111" };
        let body = |code: &str| json!({"merchant_name":"X","username":"xshop","mobile":phone,"code":code,"password":"abc12345","password_confirm":"abc12345","agree":true});
        for _ in 0..4 {
            app.post("/login/register", None, body(bad))
                .await
                .expect(422);
        }
        app.post("/login/register", None, body(bad))
            .await
            .expect(429);
        app.post("/login/register", None, body(&good))
            .await
            .expect(429);
    }
}

#[tokio::test]
async fn tokens_expire_refresh_and_are_revoked() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        // No token, a garbage token: HTTP 401.
        app.get("/ajax/initAdmin", None).await.expect(401);
        app.get("/ajax/initAdmin", Some("garbage"))
            .await
            .expect(401);
        // `token` header works like Authorization.
        let t = app.demo().await;
        let r = app
            .http
            .get(app.url("/api/ajax/initAdmin"))
            .header("token", &t)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);

        // Lifetimes: 6 h, 24 h with remember-me.
        let r = app
            .post(
                "/login/auth",
                None,
                json!({"login_type":1,"username":"demo","password":DEMO_PW,"agree":true}),
            )
            .await;
        let exp = r.ok()["expires_at"].as_i64().unwrap() - domain::now_ms();
        assert!(
            (6 * 3600 * 1000 - 5000..=6 * 3600 * 1000).contains(&exp),
            "{exp}"
        );
        let r = app.post("/login/auth", None, json!({"login_type":1,"username":"demo","password":DEMO_PW,"agree":true,"remember":true})).await;
        let exp = r.ok()["expires_at"].as_i64().unwrap() - domain::now_ms();
        assert!(
            (24 * 3600 * 1000 - 5000..=24 * 3600 * 1000).contains(&exp),
            "{exp}"
        );

        // An expired session is an HTTP 401.
        let t2 = app.demo().await;
        sqlx::query("UPDATE sessions SET expires_at = 1 WHERE id IN (SELECT id FROM sessions ORDER BY created_at DESC LIMIT 1)")
            .execute(&app.db.pool)
            .await
            .unwrap();
        app.get("/ajax/initAdmin", Some(&t2)).await.expect(401);

        // Refresh gives a working token; logout ends the session (body code 401 afterwards).
        let fresh = app.post("/token", Some(&t), json!({})).await.ok()["token"]
            .as_str()
            .unwrap()
            .to_string();
        app.get("/ajax/initAdmin", Some(&fresh)).await.ok();
        app.post("/login/logout", Some(&fresh), json!({}))
            .await
            .ok();
        let r = app.get("/ajax/initAdmin", Some(&t)).await;
        assert_eq!((r.status, r.code()), (200, 401));
    }
}

#[tokio::test]
async fn changing_the_password_checks_rules_and_ends_sessions() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let t = app.demo().await;
        let other = app.demo().await;
        let body = |old: &str, new: &str, confirm: &str| json!({"old_password":old,"password":new,"password_confirm":confirm});
        let r = app
            .post_en(
                "/index/editPassword.html",
                Some(&t),
                body("", "abc12345", "abc12345"),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("old_password"))
        );
        let r = app
            .post_en(
                "/index/editPassword.html",
                Some(&t),
                body("wrong1234", "abc12345", "abc12345"),
            )
            .await;
        assert_eq!(r.message(), "The current password is wrong");
        let r = app
            .post_en(
                "/index/editPassword.html",
                Some(&t),
                body(DEMO_PW, "short1", "short1"),
            )
            .await;
        assert_eq!(r.data()["field"], "password");
        let r = app
            .post_en(
                "/index/editPassword.html",
                Some(&t),
                body(DEMO_PW, "abc12345", "abc1234x"),
            )
            .await;
        assert_eq!(r.message(), "The passwords entered twice are inconsistent");
        app.post(
            "/index/editPassword.html",
            Some(&t),
            body(DEMO_PW, "abc12345", "abc12345"),
        )
        .await
        .ok();
        for tok in [&t, &other] {
            let r = app.get("/ajax/initAdmin", Some(tok)).await;
            assert_eq!((r.status, r.code()), (200, 401));
        }
        app.post(
            "/login/auth",
            None,
            json!({"login_type":1,"username":"demo","password":DEMO_PW,"agree":true}),
        )
        .await
        .expect(422);
        app.login(1, "demo", "abc12345").await;
    }
}

#[tokio::test]
async fn operator_enters_a_merchant_console_with_a_single_use_proxy_token() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let mid = app.get("/index/profile", Some(&demo)).await.ok()["merchant_id"]
            .as_i64()
            .unwrap();
        // Only the operator may mint one.
        app.post(
            "/system/merchant/proxyToken",
            Some(&demo),
            json!({"id": mid}),
        )
        .await
        .expect(403);
        let r = app
            .post(
                "/system/merchant/proxyToken",
                Some(&admin),
                json!({"id": mid}),
            )
            .await;
        let pt = r.ok()["proxyToken"].as_str().unwrap().to_string();
        assert!(r.data()["url"].as_str().unwrap().contains("proxyToken="));
        let r = app
            .post("/login/verifyJwtToken", None, json!({"proxyToken": pt}))
            .await;
        let user = &r.ok()["user"];
        assert_eq!(user["username"], "demo");
        assert_eq!(user["proxy_info"]["user_name"], "admin");
        let t = r.data()["token"].as_str().unwrap();
        app.get("/user.merchant_user_sub/list", Some(t)).await.ok();
        // Second use and garbage are refused.
        app.post("/login/verifyJwtToken", None, json!({"proxyToken": pt}))
            .await
            .expect(422);
        app.post("/login/verifyJwtToken", None, json!({"proxyToken": "nope"}))
            .await
            .expect(422);
    }
}

#[tokio::test]
async fn public_pages_and_documents() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let r = app.get("/login/index", None).await;
    assert_eq!(r.ok()["version"], "1.6.9");
    assert_eq!(r.data()["remember_hours"], 24);
    app.get("/index/platformInit", None).await.ok();
    let r = app.get("/version_log/getList", None).await;
    assert!(r.ok()["total"].as_i64().unwrap() >= 1);
    let d = app.demo().await;
    assert_eq!(
        app.post("/index/banner", Some(&d), json!({})).await.ok()["total"],
        0
    );
    assert_eq!(
        app.get("/index/getIndexCourseList", Some(&d)).await.ok()["total"],
        0
    );
    app.post("/index/banner", None, json!({})).await.expect(401);
    let health: serde_json::Value = app
        .http
        .get(app.url("/healthz"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(health["status"], "ok");
    let doc: serde_json::Value = app
        .http
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for p in [
        "/login/auth",
        "/user.merchant_user_sub/authMenu",
        "/system/tasks/retry",
        "/index/editPassword.html",
    ] {
        assert!(
            doc["paths"][p].is_object(),
            "{p} missing from the OpenAPI document"
        );
    }
    let docs = app
        .http
        .get(app.url("/api/docs"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(docs.contains("/swagger/swagger-ui-bundle.js"));
    // Unknown API paths are a 404 envelope; every response carries a request id.
    let r = app
        .http
        .get(app.url("/api/login/nope"))
        .header("x-request-id", "abc-123")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "abc-123");
    app.get("/nothing.here/at_all", Some(&d)).await.expect(404);
    let page = app
        .http
        .get(app.url("/sandbox/sms"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("SMS outbox"));
}

/// A hand-moved clock for the sign-in limits, starting now.
fn frozen_clock() -> (
    std::sync::Arc<std::sync::atomic::AtomicI64>,
    services::limits::Clock,
) {
    let t = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(domain::now_ms()));
    let t2 = t.clone();
    (
        t,
        std::sync::Arc::new(move || t2.load(std::sync::atomic::Ordering::SeqCst)),
    )
}

/// An app whose sign-in checks read `clock`, believing `X-Forwarded-For` from `proxies`.
async fn app_with(b: Backend, clock: services::limits::Clock, proxies: &str) -> TestApp {
    let proxies = api::client::Proxies::parse(proxies).unwrap();
    TestApp::spawn_with(b, move |st| {
        st.settings.trusted_proxies = proxies;
        st.login_limits = std::sync::Arc::new(services::limits::LoginLimits::new(clock));
    })
    .await
}

/// A password sign-in, claiming to come from `forwarded` (in `X-Forwarded-For`) when given.
async fn sign_in_from(app: &TestApp, forwarded: Option<&str>, username: &str, pw: &str) -> Resp {
    let mut req = app
        .http
        .post(app.url("/api/login/auth"))
        .header("accept-language", "en")
        .json(&json!({"login_type":1,"username":username,"password":pw,"agree":true}));
    if let Some(f) = forwarded {
        req = req.header("x-forwarded-for", f);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    Resp {
        status,
        body: res.json().await.unwrap(),
    }
}

#[tokio::test]
async fn failed_sign_ins_are_rationed_per_address_and_leave_no_rows_behind() {
    for b in backends() {
        let (clock, c) = frozen_clock();
        let app = app_with(b, c, "").await;
        // Successful sign-ins do not use the budget.
        for _ in 0..3 {
            app.demo().await;
        }
        // Ten failures with made-up names, then the address waits (the right password too).
        let failed_at = clock.load(std::sync::atomic::Ordering::SeqCst);
        for i in 0..10 {
            sign_in_from(&app, None, &format!("nobody{i}"), "wrong123")
                .await
                .expect(422);
        }
        let r = sign_in_from(&app, None, "nobody10", "wrong123").await;
        r.expect(429);
        assert_eq!(r.message(), "Too many failed sign-ins; try again in 6 s");
        assert_eq!(r.data(), &serde_json::Value::Null);
        sign_in_from(&app, None, "demo", DEMO_PW).await.expect(429);
        // Six seconds later one more try is allowed.
        clock.fetch_add(6_000, std::sync::atomic::Ordering::SeqCst);
        sign_in_from(&app, None, "demo", DEMO_PW).await.expect(200);

        // Each made-up name left rows; once their 15 minutes have passed the cleanup drops them.
        let rows = || async {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM login_failures")
                .fetch_one(&app.db.pool)
                .await
                .unwrap()
        };
        assert_eq!(
            rows().await,
            20,
            "a per-address and a per-name row per name"
        );
        let now = failed_at;
        store::auth::users::cleanup(&app.db, now + domain::LOCK_MS - 1)
            .await
            .unwrap();
        assert_eq!(rows().await, 20, "still inside their window");
        store::auth::users::cleanup(&app.db, now + domain::LOCK_MS)
            .await
            .unwrap();
        assert_eq!(rows().await, 0);
    }
}

#[tokio::test]
async fn a_stranger_cannot_lock_the_owner_out_from_another_address() {
    for b in backends() {
        let (_, c) = frozen_clock();
        let app = app_with(b, c, "127.0.0.1").await;
        for i in 0..4 {
            let r = sign_in_from(&app, Some("203.0.113.7"), "demo", "wrong123").await;
            assert_eq!(r.status, 422, "try {i}");
        }
        let r = sign_in_from(&app, Some("203.0.113.7"), "demo", "wrong123").await;
        r.expect(429);
        assert!(
            r.message().contains("locked until 15 min"),
            "{}",
            r.message()
        );
        sign_in_from(&app, Some("203.0.113.7"), "demo", DEMO_PW)
            .await
            .expect(429);
        // The owner, elsewhere, signs in; the proxy's own hop on the right is skipped.
        sign_in_from(&app, Some("198.51.100.9, 127.0.0.1"), "demo", DEMO_PW)
            .await
            .expect(200);
        // What a client writes at the left of the header is not believed.
        sign_in_from(&app, Some("198.51.100.9, 203.0.113.7"), "demo", DEMO_PW)
            .await
            .expect(429);
    }
}

#[tokio::test]
async fn forwarded_for_is_ignored_unless_the_proxy_is_trusted() {
    for b in backends() {
        let (_, c) = frozen_clock();
        let app = app_with(b, c, "10.0.0.0/8").await;
        for _ in 0..5 {
            sign_in_from(&app, Some("203.0.113.7"), "demo", "wrong123").await;
        }
        // Claiming another address does not escape the lock: the peer (127.0.0.1) is no proxy of ours.
        sign_in_from(&app, Some("198.51.100.9"), "demo", DEMO_PW)
            .await
            .expect(429);
    }
}

#[tokio::test]
async fn many_addresses_together_lock_a_username_more_slowly() {
    for b in backends() {
        let (clock, c) = frozen_clock();
        let app = app_with(b, c, "127.0.0.1").await;
        let now = clock.load(std::sync::atomic::Ordering::SeqCst);
        // 49 failures spread over other addresses (each under its own limit) ...
        for _ in 0..domain::USER_LOCK_AFTER_FAILURES - 1 {
            store::auth::users::record_failure(
                &app.db,
                "pwd:demo",
                domain::USER_LOCK_AFTER_FAILURES,
                now,
            )
            .await
            .unwrap();
        }
        // ... and the 50th, from a fresh address, locks the name everywhere.
        let r = sign_in_from(&app, Some("192.0.2.50"), "demo", "wrong123").await;
        r.expect(429);
        sign_in_from(&app, Some("198.51.100.9"), "demo", DEMO_PW)
            .await
            .expect(429);
        // Other names are not affected; after 15 minutes the name is free again.
        sign_in_from(&app, Some("198.51.100.9"), "admin", ADMIN_PW)
            .await
            .expect(200);
        clock.fetch_add(domain::LOCK_MS, std::sync::atomic::Ordering::SeqCst);
        sign_in_from(&app, Some("198.51.100.9"), "demo", DEMO_PW)
            .await
            .expect(200);
    }
}

/// A password sign-in from `forwarded`, sending `cookie` when given; the answer and its Set-Cookie.
async fn sign_in_with_cookie(
    app: &TestApp,
    forwarded: &str,
    cookie: Option<&str>,
    username: &str,
    pw: &str,
) -> (u16, Option<String>) {
    let mut req = app
        .http
        .post(app.url("/api/login/auth"))
        .header("x-forwarded-for", forwarded)
        .json(&json!({"login_type":1,"username":username,"password":pw,"agree":true}));
    if let Some(c) = cookie {
        req = req.header("cookie", c);
    }
    let res = req.send().await.unwrap();
    let set = res
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(str::to_string);
    (res.status().as_u16(), set)
}

#[tokio::test]
async fn a_flood_of_failures_does_not_refuse_a_known_devices_right_password() {
    for b in backends() {
        let (_, c) = frozen_clock();
        let app = app_with(b, c, "127.0.0.1").await;
        // The owner signs in once from their browser, which is known from then on.
        let (status, cookie) =
            sign_in_with_cookie(&app, "198.51.100.9", None, "demo", DEMO_PW).await;
        assert_eq!(status, 200);
        let cookie = cookie.expect("a known-device cookie");
        assert!(cookie.starts_with("cm_device="), "{cookie}");
        // A flood from many addresses uses up the server's budget and locks the username everywhere:
        // sent until the server refuses (a request that failed before taking its attempt — a busy
        // database under load — left the budget one short, and the check below then passed).
        let burst = services::limits::SERVER.burst as i64;
        let mut drained = false;
        for i in 0..burst * 3 {
            let r = sign_in_from(&app, Some(&format!("203.0.113.{i}")), "demo", "wrong123").await;
            if r.status == 429 {
                drained = true;
                break;
            }
        }
        assert!(drained, "the server's budget never ran out");
        let now = domain::now_ms();
        for _ in 0..domain::USER_LOCK_AFTER_FAILURES {
            store::auth::users::record_failure(
                &app.db,
                "pwd:demo",
                domain::USER_LOCK_AFTER_FAILURES,
                now,
            )
            .await
            .unwrap();
        }
        // A stranger with the right password is held back; the owner's browser is not.
        let (status, _) = sign_in_with_cookie(&app, "192.0.2.1", None, "demo", DEMO_PW).await;
        assert_eq!(status, 429);
        let (status, _) =
            sign_in_with_cookie(&app, "192.0.2.1", Some(&cookie), "demo", DEMO_PW).await;
        assert_eq!(status, 200, "the known device signs in");
        // Its cookie proves nothing for another user, and a forged one nothing at all.
        let (status, _) =
            sign_in_with_cookie(&app, "192.0.2.2", Some(&cookie), "admin", ADMIN_PW).await;
        assert_eq!(
            status, 429,
            "the server's budget still holds strangers back"
        );
        // One character changed (a cookie that ended in '0' was once "forged" into itself).
        let last = if cookie.ends_with('0') { '1' } else { '0' };
        let forged = format!("{}{last}", &cookie[..cookie.len() - 1]);
        let (status, _) =
            sign_in_with_cookie(&app, "192.0.2.1", Some(&forged), "demo", DEMO_PW).await;
        assert_eq!(status, 429);
        // Wrong passwords from the known device count against that device only.
        for _ in 0..domain::LOCK_AFTER_FAILURES {
            let (status, _) =
                sign_in_with_cookie(&app, "192.0.2.1", Some(&cookie), "demo", "wrong123").await;
            assert!(status == 422 || status == 429, "{status}");
        }
        let (status, _) =
            sign_in_with_cookie(&app, "192.0.2.1", Some(&cookie), "demo", DEMO_PW).await;
        assert_eq!(status, 429, "the device's own lock");
    }
}

/// The session id a token carries (its `sid` claim).
fn sid_of(token: &str) -> String {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    let claims: serde_json::Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    claims["sid"].as_str().unwrap().to_string()
}

async fn stored_key(app: &TestApp) -> String {
    sqlx::query_scalar("SELECT value FROM settings WHERE key = 'jwt_key'")
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

async fn session_ids(app: &TestApp) -> Vec<String> {
    sqlx::query_scalar("SELECT id FROM sessions")
        .fetch_all(&app.db.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_database_copy_holds_neither_the_signing_key_nor_a_session_id() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let t = app.demo().await;
        let key = String::from_utf8(app.state.jwt_key.to_vec()).unwrap();
        // The key is sealed; the table holds the session's hash, not its id.
        let stored = stored_key(&app).await;
        assert!(
            stored.starts_with("v1:") && !stored.contains(&key),
            "{stored}"
        );
        let sid = sid_of(&t);
        let ids = session_ids(&app).await;
        assert!(!ids.is_empty() && !ids.contains(&sid), "{ids:?}");
        assert!(ids.contains(&store::auth::users::session_key(&sid)));

        // An install from before: the key and the session ids in clear. After a restart both are
        // sealed / hashed, and the same key and token still work.
        sqlx::query("UPDATE settings SET value = $1 WHERE key = 'jwt_key'")
            .bind(&key)
            .execute(&app.db.pool)
            .await
            .unwrap();
        sqlx::query("UPDATE sessions SET id = $1 WHERE id = $2")
            .bind(&sid)
            .bind(store::auth::users::session_key(&sid))
            .execute(&app.db.pool)
            .await
            .unwrap();
        let app = app.restart().await;
        assert_eq!(app.state.jwt_key.as_slice(), key.as_bytes());
        assert!(stored_key(&app).await.starts_with("v1:"));
        assert!(!session_ids(&app).await.contains(&sid));
        app.get("/index/dashboard", Some(&t)).await.ok();
        // Signing out ends the session found by its hash.
        app.post("/login/logout", Some(&t), json!({})).await.ok();
        let r = app.get("/index/dashboard", Some(&t)).await;
        assert_eq!(r.code(), 401, "{}", r.body);
    }
}

/// The value of `key: value` on the first line under `within` (a YAML path of indented keys) in the
/// scaled-out compose file: enough of YAML for our own deploy file, which has no YAML reader here.
fn compose_value(compose: &str, within: &[&str], key: &str) -> Option<String> {
    let mut depth = 0;
    let mut indent = -1i64;
    for line in compose.lines() {
        let t = line.trim_start();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let ind = (line.len() - t.len()) as i64;
        if depth > 0 && ind <= indent {
            return None;
        }
        if depth < within.len() {
            if ind > indent && t.starts_with(&format!("{}:", within[depth])) {
                depth += 1;
                indent = ind;
            }
            continue;
        }
        if let Some(v) = t.strip_prefix(&format!("{key}:")) {
            return Some(v.trim().trim_matches('"').to_string());
        }
    }
    None
}

/// deploy/compose.yaml: the API nodes believe `X-Forwarded-For` only from the proxy's fixed address on
/// the front network — not from the rest of that network, nor from the internal one (a container there,
/// or a client writing its own header, cannot pick the address the sign-in limits count). Caddy 2.5+
/// replaces a client's own `X-Forwarded-For` (the Caddyfile lists no `trusted_proxies`), so the one hop
/// the nodes read is the real client. Checked on the file itself: there is no docker daemon here.
#[test]
fn the_compose_layout_trusts_only_its_proxy_for_forwarded_addresses() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy");
    let compose = std::fs::read_to_string(root.join("compose.yaml")).expect("deploy/compose.yaml");
    let caddy = std::fs::read_to_string(root.join("Caddyfile")).expect("deploy/Caddyfile");
    let trusted = compose_value(
        &compose,
        &["x-node", "environment"],
        "CLIPMATRIX_TRUSTED_PROXIES",
    )
    .expect("the nodes' environment names their trusted proxies");
    let proxy_ip = compose_value(&compose, &["services", "proxy", "networks"], "front")
        .and_then(|v| {
            v.split("ipv4_address:")
                .nth(1)
                .map(|a| a.trim().trim_end_matches('}').trim().to_string())
        })
        .expect("the proxy has a fixed address on the front network");
    let subnet = compose
        .split("subnet:")
        .nth(1)
        .expect("the front network's subnet");
    let subnet = subnet.trim().split([' ', '}']).next().unwrap_or_default();
    assert_eq!(subnet, "172.30.8.0/24", "the front network is fixed");
    let proxies = api::client::Proxies::parse(&trusted).expect("a valid proxy list");
    let proxy: std::net::IpAddr = proxy_ip.parse().expect("an address");
    assert!(
        proxies.contains(proxy),
        "{trusted} does not trust the proxy {proxy}"
    );
    // Everything else on the front network, and the internal network's usual addresses, is not trusted.
    for other in [
        "172.30.8.1",
        "172.30.8.2",
        "172.30.8.11",
        "172.30.8.254",
        "172.17.0.2",
        "10.0.0.5",
        "127.0.0.1",
    ] {
        let ip: std::net::IpAddr = other.parse().unwrap();
        assert!(!proxies.contains(ip), "{trusted} trusts {other}");
    }
    // What a node makes of a forwarded request: the client from the proxy, the peer from anyone else.
    let mut h = axum::http::HeaderMap::new();
    h.insert("x-forwarded-for", "203.0.113.7".parse().unwrap());
    assert_eq!(
        api::client::client_ip(&h, Some(proxy), &proxies),
        "203.0.113.7"
    );
    let neighbour: std::net::IpAddr = "172.30.8.11".parse().unwrap();
    assert_eq!(
        api::client::client_ip(&h, Some(neighbour), &proxies),
        "172.30.8.11"
    );
    // Both API nodes are on the front network; the proxy sends to them and to nothing else.
    for node in ["api-1", "api-2"] {
        let nets = compose_value(&compose, &["services", node], "networks").unwrap_or_default();
        assert!(
            nets.contains("front"),
            "{node} is not on the front network: {nets}"
        );
        assert!(
            caddy.contains(&format!("{node}:8080")),
            "the proxy does not serve {node}"
        );
    }
    assert!(
        !caddy.contains("trusted_proxies"),
        "the proxy must not believe clients' own X-Forwarded-For"
    );
    assert_eq!(
        compose_value(&compose, &["x-node", "environment"], "CLIPMATRIX_SANDBOX").as_deref(),
        Some("false"),
        "the scaled-out layout runs against the real platforms"
    );
}
