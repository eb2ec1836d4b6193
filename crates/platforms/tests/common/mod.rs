//! Test harness: a real sandbox on 127.0.0.1:0 nested at `/sandbox`, as the app mounts it.
#![allow(dead_code)]

pub mod proxy;
pub mod rig;

use axum::Router;
use platforms::sandbox::{self, Config};
use platforms::{AppCreds, Endpoint, Platform};
use serde_json::Value;
use std::path::PathBuf;

/// The sandbox token of the test sandboxes; every request of `Sbx::http` carries it.
pub const TOKEN: &str = "sbx-test-token";
/// The sandbox's DY/KS app secrets for that token.
pub static DY_SECRET: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| sandbox::app_secret(TOKEN, Platform::Dy));
pub static KS_SECRET: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| sandbox::app_secret(TOKEN, Platform::Ks));
/// The BJH app_token and the WeChat AppSecret of that token.
pub static BJH_TOKEN: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| sandbox::app_secret(TOKEN, Platform::Bjh));
pub static WX_SECRET: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| sandbox::wechat_secret(TOKEN));

pub struct Sbx {
    /// e.g. http://127.0.0.1:41234/sandbox
    pub base: String,
    pub http: reqwest::Client,
    /// This sandbox's clock (each test has its own), shared with the adapters of `endpoint`.
    pub clock: domain::clock::Clock,
}

pub async fn start(tweak: impl FnOnce(&mut Config)) -> Sbx {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/sandbox", listener.local_addr().unwrap());
    let clock = domain::clock::Clock::new();
    // The adapters' expiry times are the product's clock: these tests move both together.
    clock.set_app_follows(true);
    let mut cfg = Config {
        public_base: base.clone(),
        token: TOKEN.into(),
        clock: clock.clone(),
        ..Config::default()
    };
    tweak(&mut cfg);
    let app = Router::new().nest("/sandbox", sandbox::router(cfg));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let mut auth = reqwest::header::HeaderMap::new();
    auth.insert(sandbox::access::TOKEN_HEADER, TOKEN.parse().unwrap());
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .default_headers(auth)
        .build()
        .unwrap();
    Sbx { base, http, clock }
}

impl Sbx {
    /// Now on this sandbox's (and its adapters') clock.
    pub fn now(&self) -> i64 {
        self.clock.platform_now()
    }

    /// Puts the platform clock at 01:00 China time of the next day, so "+3 h" stays in that day.
    pub fn pin_early_morning(&self) {
        let day = domain::matrix::day_of(self.now()) + 1;
        self.clock.advance_to(domain::matrix::at(day, 60));
    }

    pub fn endpoint(&self, p: Platform) -> Endpoint {
        let app = match p {
            Platform::Dy => AppCreds {
                client_key: sandbox::SANDBOX_DY_KEY.into(),
                client_secret: DY_SECRET.to_string(),
            },
            Platform::Ks => AppCreds {
                client_key: sandbox::SANDBOX_KS_KEY.into(),
                client_secret: KS_SECRET.to_string(),
            },
            _ => AppCreds::default(),
        };
        Endpoint {
            clock: self.clock.clone(),
            ..Endpoint::new(format!("{}/{}", self.base, p.code()), app)
        }
    }

    pub async fn control(&self, path: &str, body: Value) -> Value {
        let r = self
            .http
            .post(format!("{}/_control/{path}", self.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert!(r.status().is_success(), "control {path}: {}", r.status());
        r.json().await.unwrap()
    }

    pub async fn counts(&self) -> Value {
        self.http
            .get(format!("{}/_control/counts", self.base))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// Opens the consent page at `url`, checks it, submits it like a person would (approve or
    /// deny, with `nickname`) and returns the redirect's query pairs.
    pub async fn consent(&self, url: &str, nickname: &str, approve: bool) -> Vec<(String, String)> {
        let page = self.http.get(url).send().await.unwrap();
        assert_eq!(page.status(), 200);
        let html = page.text().await.unwrap();
        assert!(
            html.contains("id=\"approve\"") && html.contains("同意授权 / Authorize"),
            "{html}"
        );
        assert!(html.contains("id=\"nickname\""));
        // The form's hidden fields carry the query; rebuild them from the URL.
        let query = url.split_once('?').unwrap().1;
        let mut form: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap();
        form.push(("nickname".into(), nickname.into()));
        form.push((
            "action".into(),
            if approve { "approve" } else { "deny" }.into(),
        ));
        let r = self.http.post(url).form(&form).send().await.unwrap();
        assert_eq!(r.status(), 302);
        let loc = r.headers()["location"].to_str().unwrap().to_string();
        assert!(loc.starts_with("http://app.test/callback?"), "{loc}");
        serde_urlencoded::from_str(loc.split_once('?').unwrap().1).unwrap()
    }
}

pub fn get<'a>(pairs: &'a [(String, String)], k: &str) -> Option<&'a str> {
    pairs.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str())
}

/// A file of `len` bytes (sparse: zeros cost no disk).
pub fn temp_file(name: &str, len: u64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("platforms-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let f = std::fs::File::create(&p).unwrap();
    if len <= 4096 {
        use std::io::Write;
        let mut f = f;
        f.write_all(&vec![7u8; len as usize]).unwrap();
    } else {
        f.set_len(len).unwrap();
    }
    p
}

pub const MB: u64 = 1024 * 1024;
pub const DAY: i64 = 86_400_000;

/// A fresh sandbox and its DY adapter (the app-credential calls: SEO data, billboards).
pub async fn dy_setup() -> (Sbx, std::sync::Arc<dyn platforms::Adapter>) {
    let s = start(|_| {}).await;
    let dy = platforms::adapter(Platform::Dy, s.endpoint(Platform::Dy)).unwrap();
    (s, dy)
}
