//! The sandbox is a development and demo facility that cannot leak: with it on, an anonymous client
//! gets 401 from every control and outbox route, a merchant reads only about its own accounts (and
//! changes nothing), staff get 403, and the operator or the sandbox token get everything.

use crate::common;

use common::*;
use serde_json::{Value, json};

/// Every route of the sandbox's controls and the SMS outbox, with a harmless body.
fn control_routes() -> Vec<(&'static str, &'static str, Value)> {
    let none = Value::Null;
    vec![
        ("GET", "/sandbox", none.clone()),
        ("GET", "/sandbox/sms", none.clone()),
        ("GET", "/sandbox/sms.json", none.clone()),
        ("GET", "/sandbox/_control/clock", none.clone()),
        ("POST", "/sandbox/_control/clock", json!({"advance_ms": 0})),
        ("POST", "/sandbox/_control/advance", none.clone()),
        ("GET", "/sandbox/_control/faults", none.clone()),
        (
            "POST",
            "/sandbox/_control/faults",
            json!({"call": "dy.create_video", "fault": "quota", "count": 1}),
        ),
        ("POST", "/sandbox/_control/faults/clear", json!({})),
        ("GET", "/sandbox/_control/counts", none.clone()),
        (
            "GET",
            "/sandbox/_control/followers?platform=bjh&open_id=probe-b",
            none.clone(),
        ),
        ("GET", "/sandbox/_control/messages", none.clone()),
        (
            "POST",
            "/sandbox/_control/comment",
            json!({"item_id": "x", "content": "hi"}),
        ),
        (
            "POST",
            "/sandbox/_control/im",
            json!({"open_id": "x", "content": "hi"}),
        ),
        ("GET", "/sandbox/_control/replies", none.clone()),
        ("GET", "/sandbox/_control/comments_page", none.clone()),
        ("POST", "/sandbox/_control/review", json!({"delay_ms": 0})),
        (
            "POST",
            "/sandbox/_control/expire",
            json!({"platform": "bjh", "open_id": "probe-b"}),
        ),
        ("POST", "/sandbox/_control/webhook", json!({"url": ""})),
        ("GET", "/sandbox/_control/public_accounts", none.clone()),
        (
            "POST",
            "/sandbox/_control/public_accounts",
            json!({"nickname": "probe"}),
        ),
        (
            "GET",
            "/sandbox/_control/public_accounts/nope",
            none.clone(),
        ),
        ("GET", "/sandbox/_control/wechat", none.clone()),
        (
            "POST",
            "/sandbox/_control/wechat/subscribe",
            json!({"openid": "o1", "subscribed": true}),
        ),
        ("POST", "/sandbox/_control/wechat/expire", json!({})),
        ("GET", "/sandbox/_control/llm", none.clone()),
        ("POST", "/sandbox/_control/llm", json!({"fault": "off"})),
        ("GET", "/sandbox/_control/nls", none.clone()),
        ("POST", "/sandbox/_control/nls/expire", json!({})),
    ]
}

async fn send(
    http: &reqwest::Client,
    app: &TestApp,
    bearer: Option<&str>,
    (m, path, body): &(&str, &str, Value),
) -> reqwest::Response {
    let mut req = match *m {
        "GET" => http.get(app.url(path)),
        _ => http.post(app.url(path)),
    };
    if !body.is_null() {
        req = req.json(body);
    }
    if let Some(t) = bearer {
        req = req.bearer_auth(t);
    }
    req.send().await.unwrap()
}

/// A GET as a session (no sandbox token).
async fn get_as(app: &TestApp, bearer: &str, path: &str) -> reqwest::Response {
    reqwest::Client::new()
        .get(app.url(path))
        .bearer_auth(bearer)
        .send()
        .await
        .unwrap()
}

/// A BJH account for a merchant (app id `app_id`) and one work posted on it.
async fn bjh_with_work(app: &TestApp, t: &str, app_id: &str, title: &str) {
    app.post(
        "/task.merchant_group_user/bjhLogin",
        Some(t),
        json!({"app_id": app_id, "app_token": common::bjh_app_token()}),
    )
    .await
    .ok();
    let r: Value = app
        .http
        .post(app.url("/sandbox/bjh/builderinner/open/resource/video/publish"))
        .json(
            &json!({"app_id": app_id, "app_token": common::bjh_app_token(),
                      "title": title, "video_url": "http://shop.test/v.mp4"}),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["errno"], 0, "{r}");
}

#[tokio::test]
async fn the_sandbox_controls_are_closed_to_strangers_and_tenants_see_their_own() {
    for backend in backends() {
        let app = TestApp::spawn(backend).await;
        let admin = app.admin().await;
        let demo = app.demo().await;
        let other = app.second_merchant(&admin, "probe_other").await;
        bjh_with_work(&app, &demo, "probe-a", "作品甲 work A").await;
        bjh_with_work(&app, &other, "probe-b", "作品乙 work B").await;
        // A code in the outbox: reading it must take the operator.
        app.post(
            "/login/sms",
            None,
            json!({"mobile": "13900000001", "scene": "register"}),
        )
        .await;

        let stranger = reqwest::Client::new();
        for r in control_routes() {
            let res = send(&stranger, &app, None, &r).await;
            assert_eq!(res.status(), 401, "anonymous {} {}", r.0, r.1);
            let res = send(&stranger, &app, Some("not-a-session"), &r).await;
            assert_eq!(res.status(), 401, "bad session {} {}", r.0, r.1);
        }
        let wrong = stranger
            .get(app.url("/sandbox/sms.json"))
            .header(platforms::sandbox::access::TOKEN_HEADER, "guess")
            .send()
            .await
            .unwrap();
        assert_eq!(wrong.status(), 401);

        // A merchant: its own accounts in the reads, 403 from everything else.
        let reads = [
            "/sandbox",
            "/sandbox/_control/counts",
            "/sandbox/_control/messages",
            "/sandbox/_control/replies",
            "/sandbox/_control/comments_page",
            "/sandbox/_control/clock",
        ];
        for r in control_routes() {
            let res = send(&stranger, &app, Some(&demo), &r).await;
            let want = if r.0 == "GET" && reads.contains(&r.1) {
                200
            } else if r.1.contains("followers") {
                404
            } else {
                403
            };
            assert_eq!(res.status(), want, "merchant {} {}", r.0, r.1);
        }
        let counts: Value = get_as(&app, &demo, "/sandbox/_control/counts")
            .await
            .json()
            .await
            .unwrap();
        let works = counts["works"].as_array().unwrap();
        assert_eq!(works.len(), 1, "{counts}");
        assert_eq!(works[0]["open_id"], "probe-a");
        assert_eq!(counts["creates"], json!({"bjh:probe-a": 1}));
        assert!(counts.get("webhooks_sent").is_none(), "{counts}");
        let page = get_as(&app, &demo, "/sandbox/_control/comments_page")
            .await
            .text()
            .await
            .unwrap();
        assert!(
            page.contains("work A") && !page.contains("work B"),
            "{page}"
        );
        let index = get_as(&app, &demo, "/sandbox").await.text().await.unwrap();
        assert!(
            index.contains("probe-a") && !index.contains("probe-b"),
            "{index}"
        );
        // The clock's buttons are the operator's (a merchant would get 403): the merchant reads why.
        // The install's BJH app_token and WeChat AppSecret are shown, never the old constants.
        assert!(
            !index.contains("advance-hour") && index.contains("clock-operator-only"),
            "{index}"
        );
        assert!(
            index.contains(&common::bjh_app_token())
                && index.contains(&platforms::sandbox::wechat_secret(SANDBOX_TOKEN))
                && !index.contains("sbx_bjh_app_token")
                && !index.contains("sbx_wx_secret"),
            "{index}"
        );
        let mine = get_as(
            &app,
            &demo,
            "/sandbox/_control/followers?platform=bjh&open_id=probe-a",
        )
        .await;
        assert_eq!(mine.status(), 200);

        // Staff (even with every menu of the matrix area): nothing here is theirs.
        let matrix = app.menu_id(&demo, "/matrix").await;
        let r = app
            .post(
                "/user.merchant_user_sub/add",
                Some(&demo),
                json!({"username": "probe_staff", "password": "abc12345", "menu_ids": [matrix]}),
            )
            .await;
        r.ok();
        let staff = app.login(3, "probe_staff", "abc12345").await;
        for r in control_routes() {
            let res = send(&stranger, &app, Some(&staff), &r).await;
            assert_eq!(res.status(), 403, "staff {} {}", r.0, r.1);
        }

        // The operator, and the sandbox token: everything.
        let all: Value = get_as(&app, &admin, "/sandbox/_control/counts")
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(all["works"].as_array().unwrap().len(), 2, "{all}");
        let outbox = get_as(&app, &admin, "/sandbox/sms.json").await;
        assert_eq!(outbox.status(), 200);
        let index = get_as(&app, &admin, "/sandbox").await.text().await.unwrap();
        assert!(
            index.contains("advance-hour") && !index.contains("clock-operator-only"),
            "{index}"
        );
        // The token (the stories' client sends it) reads the code.
        assert_eq!(app.sms_code("13900000001").await.len(), 6);

        // A page opened with ?sandbox_token= keeps it in a same-site cookie for what follows.
        let first = stranger
            .get(app.url(&format!("/sandbox?sandbox_token={SANDBOX_TOKEN}")))
            .send()
            .await
            .unwrap();
        assert_eq!(first.status(), 200);
        let cookie = first.headers()["set-cookie"].to_str().unwrap().to_string();
        assert!(
            cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
            "{cookie}"
        );
        let pair = cookie.split(';').next().unwrap();
        let next = stranger
            .get(app.url("/sandbox/_control/comments_page"))
            .header("cookie", pair)
            .send()
            .await
            .unwrap();
        assert_eq!(next.status(), 200);

        // The sign-in page links the SMS outbox only for a browser that may read it.
        let sms_link = |cookie: Option<&str>| {
            let mut rb = stranger.get(app.url("/api/login/index"));
            if let Some(c) = cookie {
                rb = rb.header("cookie", c);
            }
            async move {
                let v: Value = rb.send().await.unwrap().json().await.unwrap();
                (
                    v["data"]["sandbox"].clone(),
                    v["data"]["sandbox_sms"].clone(),
                )
            }
        };
        assert_eq!(sms_link(None).await, (json!(true), json!(false)));
        assert_eq!(
            sms_link(Some("clipmatrix_sandbox=guess")).await,
            (json!(true), json!(false))
        );
        // The cookie reaches the sign-in page's request (Path=/).
        assert!(cookie.contains("Path=/;"), "{cookie}");
        assert_eq!(sms_link(Some(pair)).await, (json!(true), json!(true)));
    }
}
