//! The SMS gateway: the operator configures Aliyun or Tencent at System → SMS gateway; codes then go
//! through that gateway's real wire format, signed, to the sandbox's gateway, which checks the
//! signature (a wrong secret is refused), the number, the sign and the template, and keeps an
//! outbox. A refused send keeps no code and blocks no retry; the per-number daily cap holds.

use crate::common::*;
use serde_json::{Value, json};

/// The sandbox gateway's outbox: the newest code sent to `mobile` (as a tester reads it).
async fn gateway_code(app: &TestApp, mobile: &str) -> Option<(String, String)> {
    let v = crate::common::publish::sandbox(app, "sms", None).await;
    v["sent"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["mobile"] == mobile)
        .map(|m| {
            (
                m["code"].as_str().unwrap().to_string(),
                m["provider"].as_str().unwrap().to_string(),
            )
        })
}

fn gateway(app: &TestApp, provider: &str, secret: &str) -> Value {
    let (templates, app_id) = match provider {
        "aliyun" => (["SMS_100001", "SMS_100002", "SMS_100003"], ""),
        _ => (["100001", "100002", "100003"], "1400000001"),
    };
    json!({
        "provider": provider,
        "base_url": app.url(&format!("/sandbox/sms/{provider}")),
        "access_key_id": platforms::sandbox::sms::SANDBOX_SMS_KEY_ID,
        "access_key_secret": secret,
        "sign_name": "剪辑矩阵",
        "app_id": app_id,
        "template_login": templates[0],
        "template_register": templates[1],
        "template_reset": templates[2],
    })
}

#[tokio::test]
async fn codes_go_through_the_configured_gateway_signed_and_a_refusal_keeps_nothing() {
    for b in backends() {
        let app = TestApp::spawn(b).await;
        let admin = app.admin().await;
        let secret = platforms::sandbox::sms_secret(SANDBOX_TOKEN);

        // Nothing configured: the log (the sandbox outbox page), and the view says so.
        let v = app.get("/system/sms/index", Some(&admin)).await;
        assert_eq!(v.ok()["provider"], "log");

        for (i, provider) in ["aliyun", "tencent"].into_iter().enumerate() {
            let phone = format!("1380013800{i}");
            // A wrong secret: the gateway refuses the signature; the person sees "could not send",
            // no code is kept, and asking again at once is not held back by the failed one.
            app.post(
                "/system/sms/save",
                Some(&admin),
                gateway(&app, provider, "wrong-secret"),
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
            r.expect(422);
            assert!(r.message().contains("could not be sent"), "{}", r.body);
            assert!(gateway_code(&app, &phone).await.is_none());
            let kept: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sms_codes WHERE mobile = $1")
                .bind(&phone)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
            assert_eq!(kept, 0, "a refused code is not kept");
            // The operator's test send shows the gateway's own words.
            let r = app
                .post_en("/system/sms/test", Some(&admin), json!({"mobile": phone}))
                .await;
            r.expect(422);
            assert!(
                r.message().contains("SignatureDoesNotMatch")
                    || r.message().contains("AuthFailure.SignatureFailure"),
                "{}",
                r.body
            );

            // The right secret: the code arrives at the gateway and registers the merchant.
            let saved = app
                .post(
                    "/system/sms/save",
                    Some(&admin),
                    gateway(&app, provider, &secret),
                )
                .await;
            let view = saved.ok();
            assert_eq!(view["provider"], provider);
            assert_ne!(
                view["access_key_secret"],
                secret.as_str(),
                "the secret is shown masked"
            );
            // Saving again with a blank secret keeps it.
            let mut again = gateway(&app, provider, "");
            again["sign_name"] = json!("剪辑矩阵");
            app.post("/system/sms/save", Some(&admin), again).await.ok();
            app.post(
                "/login/sms",
                None,
                json!({"mobile": phone, "scene": "register"}),
            )
            .await
            .ok();
            let (code, via) = gateway_code(&app, &phone)
                .await
                .expect("the gateway got it");
            assert_eq!(via, provider);
            let r = app
                .post(
                    "/login/register",
                    None,
                    json!({"merchant_name": format!("Shop {i}"), "username": format!("smsshop{i}"),
                           "mobile": phone, "code": code, "password": "abc12345",
                           "password_confirm": "abc12345", "agree": true}),
                )
                .await;
            r.ok();
        }

        // A template the gateway has not approved: the operator's test names it.
        let mut bad = gateway(&app, "aliyun", &secret);
        bad["template_login"] = json!("SMS_999");
        app.post("/system/sms/save", Some(&admin), bad).await.ok();
        let r = app
            .post_en(
                "/system/sms/test",
                Some(&admin),
                json!({"mobile": "13700137000"}),
            )
            .await;
        r.expect(422);
        assert!(r.message().contains("template"), "{}", r.body);

        // The gateway throttles: the person is told to try later, nothing is kept.
        app.post(
            "/system/sms/save",
            Some(&admin),
            gateway(&app, "tencent", &secret),
        )
        .await
        .ok();
        app.http
            .post(app.url("/sandbox/_control/sms"))
            .header("x-sandbox-token", SANDBOX_TOKEN)
            .json(&json!({"fault": "throttle"}))
            .send()
            .await
            .unwrap();
        let r = app
            .post_en(
                "/login/sms",
                None,
                json!({"mobile": "13600136000", "scene": "register"}),
            )
            .await;
        r.expect(422);
        assert!(r.message().contains("try again later"), "{}", r.body);
        // Once it recovers the same number gets its code at once.
        app.post(
            "/login/sms",
            None,
            json!({"mobile": "13600136000", "scene": "register"}),
        )
        .await
        .ok();
        assert!(gateway_code(&app, "13600136000").await.is_some());

        // Ten codes a day per number, then a clear refusal (before paying for the gateway's).
        let phone = "13500135000";
        // "A day" is the China day, and the codes must be over a minute old (else the resend wait
        // answers first): in the first minute after China midnight, wait that minute out; the codes
        // are made earlier today (two minutes ago, or since midnight).
        let day_start = |now: i64| domain::matrix::at(domain::matrix::day_of(now), 0);
        let mut now = domain::now_ms();
        if now - day_start(now) < 62_000 {
            let wait = 62_000 - (now - day_start(now));
            tokio::time::sleep(std::time::Duration::from_millis(wait as u64)).await;
            now = domain::now_ms();
        }
        for k in 0..10 {
            sqlx::query(
                "INSERT INTO sms_codes (mobile, scene, code, created_at, expires_at) VALUES ($1, 'register', '000000', $2, $3)",
            )
            .bind(phone)
            .bind((now - 120_000 - k).max(day_start(now) + k))
            .bind(now)
            .execute(&app.db.pool)
            .await
            .unwrap();
        }
        let r = app
            .post_en(
                "/login/sms",
                None,
                json!({"mobile": phone, "scene": "register"}),
            )
            .await;
        r.expect(429);
        assert!(r.message().contains("10 codes today"), "{}", r.body);

        // Bad input to the form: an unknown provider, a missing template.
        let r = app
            .post_en(
                "/system/sms/save",
                Some(&admin),
                json!({"provider": "carrier-pigeon"}),
            )
            .await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("provider"))
        );
        let mut missing = gateway(&app, "aliyun", &secret);
        missing["template_reset"] = json!("");
        let r = app.post_en("/system/sms/save", Some(&admin), missing).await;
        assert_eq!(
            (r.status, r.data()["field"].as_str()),
            (422, Some("template_reset"))
        );
        // Back to the log.
        app.post("/system/sms/save", Some(&admin), json!({"provider": "log"}))
            .await
            .ok();
        assert_eq!(
            app.get("/system/sms/index", Some(&admin)).await.ok()["provider"],
            "log"
        );
        // A merchant may not read or change it.
        let demo = app.demo().await;
        let r = app.get("/system/sms/index", Some(&demo)).await;
        assert_ne!(r.code(), 200, "{}", r.body);
    }
}
