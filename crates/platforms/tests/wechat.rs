//! The WeChat official-account client (`platforms::wechat`) against the sandbox's simulator: a token
//! is fetched once and fetched again when the platform says it expired; WeChat's refusals come back
//! with their codes and words in both languages.

mod common;
use common::*;
use platforms::sandbox::wechat::{SANDBOX_WX_APPID, SANDBOX_WX_TEMPLATE};
use platforms::wechat::{OfficialAccount, TemplateSender};
use serde_json::{Value, json};

async fn control(s: &Sbx, path: &str, body: Option<Value>) -> Value {
    let url = format!("{}/_control/wechat{path}", s.base);
    let rb = match body {
        Some(b) => s.http.post(url).json(&b),
        None => s.http.get(url),
    };
    rb.send().await.unwrap().json().await.unwrap()
}

#[tokio::test]
async fn template_messages_and_their_refusals() {
    let s = start(|_| {}).await;
    let base = format!("{}/wechat", s.base);
    let data = json!({"keyword1": {"value": "顾客"}, "keyword2": {"value": "多少钱"}});

    // A wrong secret, and the constant every install once shared, are refused.
    for secret in ["not-the-secret", "sbx_wx_secret"] {
        let wrong = OfficialAccount::new(&base, SANDBOX_WX_APPID, secret, s.clock.clone());
        let e = wrong
            .send_template("o_staff_0001", SANDBOX_WX_TEMPLATE, "", &data)
            .await
            .unwrap_err();
        assert_eq!(e.code, 40125);
        assert!(
            e.zh.contains("AppSecret") && e.en.contains("AppSecret"),
            "{e:?}"
        );
    }

    let oa = OfficialAccount::new(&base, SANDBOX_WX_APPID, &WX_SECRET, s.clock.clone());
    let id = oa
        .send_template(
            "o_staff_0001",
            SANDBOX_WX_TEMPLATE,
            "http://x/clue_management",
            &data,
        )
        .await
        .unwrap();
    assert!(!id.is_empty());
    // Every token dies: the client takes a new one once and the message still goes out.
    control(&s, "/expire", Some(json!({}))).await;
    oa.send_template("o_staff_0001", SANDBOX_WX_TEMPLATE, "", &data)
        .await
        .unwrap();
    let sent = control(&s, "", None).await;
    assert_eq!(sent["total"], 2, "{sent}");
    assert_eq!(sent["messages"][0]["data"]["keyword2"]["value"], "多少钱");

    let code = |r: Result<String, platforms::wechat::WxError>| r.unwrap_err().code;
    assert_eq!(
        code(
            oa.send_template("o_staff_0001", "other_template", "", &data)
                .await
        ),
        40037
    );
    assert_eq!(
        code(
            oa.send_template("staff", SANDBOX_WX_TEMPLATE, "", &data)
                .await
        ),
        40003
    );
    control(
        &s,
        "/subscribe",
        Some(json!({"openid": "o_staff_0001", "subscribed": false})),
    )
    .await;
    let e = oa
        .send_template("o_staff_0001", SANDBOX_WX_TEMPLATE, "", &data)
        .await
        .unwrap_err();
    assert_eq!(e.code, 43004);
    assert!(e.en.contains("does not follow"), "{e:?}");
    assert_eq!(control(&s, "", None).await["total"], 2);
}

/// A QR code of the account carries a scene; a simulated scan pushes the event XML WeChat would,
/// signed with the account's server Token, to the server URL; the server reads who scanned which
/// scene. An unknown or expired ticket pushes nothing.
#[tokio::test]
async fn a_scanned_qr_code_pushes_its_scene_signed() {
    use platforms::wechat::{parse_scan_event, push_signature};
    use std::sync::{Arc, Mutex};
    let s = start(|_| {}).await;
    // The account's server: keeps what it received.
    let got: Arc<Mutex<Vec<(std::collections::HashMap<String, String>, String)>>> = Arc::default();
    let keep = got.clone();
    let server = axum::Router::new().route(
        "/callback",
        axum::routing::post(
            move |axum::extract::Query(q): axum::extract::Query<
                std::collections::HashMap<String, String>,
            >,
                  body: String| {
                let keep = keep.clone();
                async move {
                    keep.lock().unwrap().push((q, body));
                    "success"
                }
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/callback", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, server).await.unwrap() });

    let oa = OfficialAccount::new(
        &format!("{}/wechat", s.base),
        SANDBOX_WX_APPID,
        &WX_SECRET,
        s.clock.clone(),
    );
    let qr = oa.create_qr("bind_abc123", 600).await.unwrap();
    assert_eq!(qr.expire_seconds, 600);
    assert!(qr.url.contains(&qr.ticket), "{qr:?}");
    for (openid, new_follower) in [("o_staff_0001", false), ("o_staff_0002", true)] {
        let r = control(
            &s,
            "/scan",
            Some(json!({"ticket": qr.ticket, "openid": openid, "url": url,
                "token": "server-token", "new_follower": new_follower})),
        )
        .await;
        assert_eq!(
            (r["status"].as_i64(), r["body"].as_str()),
            (Some(200), Some("success")),
            "{r}"
        );
    }
    let got = got.lock().unwrap().clone();
    assert_eq!(got.len(), 2);
    for (i, (q, xml)) in got.iter().enumerate() {
        assert_eq!(
            q["signature"],
            push_signature("server-token", &q["timestamp"], &q["nonce"])
        );
        assert_ne!(
            q["signature"],
            push_signature("other-token", &q["timestamp"], &q["nonce"])
        );
        let openid = ["o_staff_0001", "o_staff_0002"][i];
        assert_eq!(
            parse_scan_event(xml),
            Some((openid.to_string(), "bind_abc123".to_string())),
            "{xml}"
        );
    }
    assert!(got[0].1.contains("<Event><![CDATA[SCAN]]></Event>"));
    assert!(got[1].1.contains("qrscene_bind_abc123"));
    // Past its life the ticket scans to nothing.
    s.clock.advance(601_000);
    let r = s
        .http
        .post(format!("{}/_control/wechat/scan", s.base))
        .json(&json!({"ticket": qr.ticket, "openid": "o_staff_0001", "url": url, "token": "t"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    // Not a scan: nothing to bind.
    assert_eq!(
        parse_scan_event("<xml><MsgType><![CDATA[text]]></MsgType></xml>"),
        None
    );
}
