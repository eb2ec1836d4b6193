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
