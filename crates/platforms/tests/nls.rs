//! The Aliyun NLS client (`platforms::voice::Nls`) against the sandbox's simulator: tokens are minted
//! with the AccessKey pair (a wrong secret refused by its signature), kept until shortly before
//! their `ExpireTime` on the injected clock and minted again then, minted again once when the gateway
//! no longer takes one; the gateway speaks only the NLS voice list's voices.

mod common;
use common::*;
use platforms::sandbox::nls::{SANDBOX_NLS_APPKEY, SANDBOX_NLS_KEY_ID, SANDBOX_NLS_TOKEN_TTL_MS};
use platforms::voice::{NLS_TOKEN_MARGIN_MS, Nls, NlsConfig};
use serde_json::{Value, json};

fn nls(s: &Sbx, key_id: &str, secret: &str) -> Nls {
    Nls::new(
        NlsConfig {
            gateway_url: format!("{}/nls", s.base),
            meta_url: format!("{}/nls/meta", s.base),
            app_key: SANDBOX_NLS_APPKEY.into(),
            access_key_id: key_id.into(),
            access_key_secret: secret.into(),
        },
        s.clock.clone(),
    )
}

async fn minted(s: &Sbx) -> i64 {
    let v: Value = s
        .http
        .get(format!("{}/_control/nls", s.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    v["minted"].as_i64().unwrap()
}

#[tokio::test]
async fn tokens_from_the_access_key_pair_renewed_before_they_end() {
    let s = start(|_| {}).await;
    let secret = platforms::sandbox::nls_secret(TOKEN);

    // A wrong secret (or key id) is refused by the token service, and nothing is spoken.
    let e = nls(&s, SANDBOX_NLS_KEY_ID, "not-the-secret")
        .speak("你好。", "xiaoyun", 50, 0, 0)
        .await
        .unwrap_err();
    assert!(e.contains("SignatureDoesNotMatch"), "{e}");
    let e = nls(&s, "other_key", &secret)
        .create_token()
        .await
        .unwrap_err();
    assert!(e.contains("InvalidAccessKeyId.NotFound"), "{e}");
    assert_eq!(minted(&s).await, 0);

    let client = nls(&s, SANDBOX_NLS_KEY_ID, &secret);
    let tok = client.create_token().await.unwrap();
    let now = s.clock.platform_now();
    assert!(
        (tok.expires_ms - (now + SANDBOX_NLS_TOKEN_TTL_MS)).abs() < 5_000,
        "ExpireTime is read in seconds: {tok:?}"
    );

    // Speech in an NLS voice: a WAV.
    let wav = client
        .speak("你好，世界。", "xiaoyun", 50, 0, 0)
        .await
        .unwrap();
    assert_eq!(&wav[..4], b"RIFF");
    assert_eq!(minted(&s).await, 2); // the one above, and the client's own
    // The token is kept while it lives...
    client.speak("再来一句。", "aixia", 50, 0, 0).await.unwrap();
    assert_eq!(minted(&s).await, 2);
    // ...and renewed before it ends, on the injected clock: no call with a dying token.
    s.clock
        .advance(SANDBOX_NLS_TOKEN_TTL_MS - NLS_TOKEN_MARGIN_MS + 1_000);
    client
        .speak("第三句。", "xiaogang", 50, 0, 0)
        .await
        .unwrap();
    assert_eq!(minted(&s).await, 3);

    // A token the gateway no longer takes (expired on its side): minted again once, spoken.
    s.http
        .post(format!("{}/_control/nls/expire", s.base))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    client.speak("第四句。", "ruoxi", 50, 0, 0).await.unwrap();
    assert_eq!(minted(&s).await, 4);

    // The gateway itself refuses an expired token, and a voice NLS does not have (Kokoro's ids).
    let gateway = |token: &str, voice: &str| {
        let (http, url) = (s.http.clone(), format!("{}/nls/stream/v1/tts", s.base));
        let body = json!({"appkey": SANDBOX_NLS_APPKEY, "token": token, "text": "你好",
            "format": "wav", "sample_rate": 16000, "voice": voice});
        async move {
            let v: Value = http
                .post(url)
                .json(&body)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            v
        }
    };
    let old = tok.id.clone();
    let v = gateway(&old, "xiaoyun").await;
    assert_eq!(v["status"], 40000001, "{v}");
    assert!(v["message"].as_str().unwrap().contains("expired"), "{v}");
    let fresh = client.token(false).await.unwrap();
    let v = gateway(&fresh, "zf_xiaoxiao").await;
    assert_eq!(v["status"], 40000002, "{v}");
    let e = client
        .speak("你好。", "zf_xiaoxiao", 50, 0, 0)
        .await
        .unwrap_err();
    assert!(e.contains("not supported"), "{e}");
}
