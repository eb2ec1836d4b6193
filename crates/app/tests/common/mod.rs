//! Whole-app test harness: a fresh database (SQLite always; PostgreSQL too when
//! CLIPMATRIX_TEST_POSTGRES_URL is set), the real router on a random port, and a small client.
#![allow(dead_code)]

pub mod cluster;
/// The loopback forwarding proxy of the platforms' tests (what went through it, request by request).
#[path = "../../../platforms/tests/common/proxy.rs"]
pub mod proxy;
pub mod publish;

#[allow(unused_imports)] // each test binary uses some of them
pub use cluster::{
    ADMIN_PW, DEMO_PW, SANDBOX_TOKEN, bjh_app_token, copies_of_material, free_port, sandbox_client,
    standalone_sandbox, wait_up,
};

use serde_json::{Value, json};
use std::net::SocketAddr;
use store::Db;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The backends a story test runs on.
pub fn backends() -> Vec<Backend> {
    let mut v = vec![Backend::Sqlite];
    if std::env::var("CLIPMATRIX_TEST_POSTGRES_URL").is_ok_and(|u| !u.is_empty()) {
        v.push(Backend::Postgres);
    }
    v
}

/// The one backend a story runs on when a second run would cost minutes of CPU (ffmpeg, speech) and a
/// cheaper test covers its database side on both: PostgreSQL when it is configured (CI), else SQLite.
pub fn heavy_story_backend() -> Backend {
    *backends().last().unwrap()
}

/// Gives a data folder the browser sidecar's packages (`<data>/browser/node_modules`, linked to
/// the checkout's playwright-core), so a server on it drives the creator consoles.
pub fn link_browser(data: &std::path::Path) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let modules = ["scripts/browser/node_modules", "e2e/node_modules"]
        .iter()
        .map(|d| root.join(d))
        .find(|p| p.join("playwright-core").exists())
        .expect("playwright-core is not installed: run scripts/install-deps.sh test");
    std::fs::create_dir_all(data.join("browser")).unwrap();
    std::os::unix::fs::symlink(
        modules.canonicalize().unwrap(),
        data.join("browser/node_modules"),
    )
    .unwrap();
}

pub async fn fresh_db(backend: Backend) -> (Db, Option<tempdir::TempDir>) {
    match backend {
        Backend::Sqlite => {
            let dir = tempdir::TempDir::new();
            let db = Db::connect(&format!("sqlite://{}/t.db", dir.path.display()))
                .await
                .unwrap();
            db.migrate().await.unwrap();
            (db, Some(dir))
        }
        Backend::Postgres => {
            let base = std::env::var("CLIPMATRIX_TEST_POSTGRES_URL").unwrap();
            let db = Db::connect(&cluster::fresh_pg_database(&base).await)
                .await
                .unwrap();
            db.migrate().await.unwrap();
            (db, None)
        }
    }
}

pub mod tempdir {
    pub struct TempDir {
        pub path: std::path::PathBuf,
    }
    impl TempDir {
        pub fn new() -> TempDir {
            let path =
                std::env::temp_dir().join(format!("clipmatrix-test-{}", store::random_token(8)));
            std::fs::create_dir_all(&path).unwrap();
            TempDir { path }
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Runs ffmpeg with `args` into a temporary file of type `ext` and returns its bytes.
pub fn ffmpeg_bytes(args: &[&str], ext: &str) -> Vec<u8> {
    let out = std::env::temp_dir().join(format!("cm-test-{}.{ext}", store::random_token(6)));
    let st = std::process::Command::new("ffmpeg")
        .args(["-v", "error", "-y"])
        .args(args)
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success(), "ffmpeg {args:?}");
    let b = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(out);
    b
}

pub struct TestApp {
    pub addr: SocketAddr,
    pub db: Db,
    pub backend: Backend,
    pub http: reqwest::Client,
    pub state: api::AppState,
    pub files: tempdir::TempDir,
    _dir: Option<tempdir::TempDir>,
}

pub struct Resp {
    pub status: u16,
    pub body: Value,
}

impl Resp {
    pub fn code(&self) -> i64 {
        self.body["code"].as_i64().unwrap_or(-1)
    }
    pub fn data(&self) -> &Value {
        &self.body["data"]
    }
    pub fn message(&self) -> &str {
        self.body["message"].as_str().unwrap_or("")
    }
    /// Asserts HTTP 200 with body code 200 and returns data.
    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert!(
            self.status == 200 && self.code() == 200,
            "expected success, got {} {}",
            self.status,
            self.body
        );
        self.data()
    }
    #[track_caller]
    pub fn expect(&self, status: u16) -> &Self {
        assert_eq!(self.status, status, "body: {}", self.body);
        self
    }
}

impl TestApp {
    pub async fn spawn(backend: Backend) -> TestApp {
        Self::spawn_with(backend, |_| {}).await
    }

    /// An app whose state `tweak` adjusts before it serves (settings, the sign-in clock).
    pub async fn spawn_with(backend: Backend, tweak: impl FnOnce(&mut api::AppState)) -> TestApp {
        let (db, dir) = fresh_db(backend).await;
        let cfg = app::Config::build(&[app::Layer {
            admin_password: Some(ADMIN_PW.into()),
            demo_password: Some(DEMO_PW.into()),
            ..Default::default()
        }]);
        app::first_run(&db, &cfg).await.unwrap();
        let files = tempdir::TempDir::new();
        Self::start(db, backend, files, dir, tweak).await
    }

    /// An app whose data folder has the browser sidecar's packages (`<data>/browser/node_modules`,
    /// linked to the checkout's playwright-core): SPH, XHS and the shop run their creator-console flows in chromium
    /// (`platforms::browser`); without it those platforms answer "browser not installed".
    pub async fn spawn_with_browser(backend: Backend) -> TestApp {
        let (db, dir) = fresh_db(backend).await;
        let cfg = app::Config::build(&[app::Layer {
            admin_password: Some(ADMIN_PW.into()),
            demo_password: Some(DEMO_PW.into()),
            ..Default::default()
        }]);
        app::first_run(&db, &cfg).await.unwrap();
        let files = tempdir::TempDir::new();
        link_browser(&files.path);
        Self::start(db, backend, files, dir, |_| {}).await
    }

    /// The same database and data folder served by a new server (new state, new port), as after
    /// a restart. The old server is left running but nothing points at it any more.
    pub async fn restart(self) -> TestApp {
        Self::start(self.db, self.backend, self.files, self._dir, |_| {}).await
    }

    async fn start(
        db: Db,
        backend: Backend,
        files: tempdir::TempDir,
        dir: Option<tempdir::TempDir>,
        tweak: impl FnOnce(&mut api::AppState),
    ) -> TestApp {
        // The speech-recognition engine `make test` installed into the repo's data folder.
        let installed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/asr");
        if installed.join("model/model.bin").exists() {
            let _ = std::os::unix::fs::symlink(
                installed.canonicalize().unwrap(),
                files.path.join("asr"),
            );
        }
        // The speech synthesis engine (AI voice), likewise.
        let tts = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/tts");
        if tts.join("engine/model.onnx").exists() {
            let _ = std::os::unix::fs::symlink(tts.canonicalize().unwrap(), files.path.join("tts"));
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let settings = api::Settings {
            sandbox: true,
            web_dir: None,
            data_dir: files.path.clone(),
            storage_url: format!("file://{}/media", files.path.display()),
            public_url: format!("http://{addr}"),
            platform_base: format!("http://{addr}/sandbox"),
            trusted_proxies: Default::default(),
            sandbox_token: Some(SANDBOX_TOKEN.into()),
            demo: false,
        };
        // The stories move the product's time with the sandbox clock (the test/demo setting).
        db.clock.set_app_follows(true);
        let mut state = api::AppState::new(db.clone(), settings).await.unwrap();
        tweak(&mut state);
        let router = api::app(state.clone()).into_make_service_with_connect_info::<SocketAddr>();
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        TestApp {
            addr,
            db,
            backend,
            http: sandbox_client(),
            state,
            files,
            _dir: dir,
        }
    }

    /// Runs the job worker (ingest etc.) for this app until the test ends.
    pub fn start_worker(&self) {
        let cfg = store::jobs::WorkerConfig {
            poll_ms: 50,
            ..Default::default()
        };
        let (tx, rx) = tokio::sync::watch::channel(false);
        std::mem::forget(tx);
        tokio::spawn(services::matrix::publish::dispatch_loop(
            self.state.hub.clone(),
            std::time::Duration::from_millis(100),
            rx.clone(),
        ));
        tokio::spawn(store::jobs::run_worker(
            self.db.clone(),
            services::jobs::registry(&self.state),
            cfg,
            rx,
        ));
    }

    /// Waits until every material has been ingested; a failed ingest fails the test.
    pub async fn wait_ready(&self, token: &str, ids: &[i64]) {
        for id in ids {
            for i in 0..900 {
                let d = self
                    .get_q(
                        "/media.merchant_much_resource/resource_detail",
                        Some(token),
                        json!({"id": id.to_string()}),
                    )
                    .await;
                match d.ok()["state"].as_str().unwrap() {
                    "ready" => break,
                    "failed" => panic!("ingest failed: {}", d.body),
                    _ => assert!(i < 899, "ingest did not finish"),
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    }

    /// Multipart upload of `bytes` as field `file` named `name`, with extra text fields first.
    pub async fn upload(
        &self,
        path: &str,
        token: &str,
        fields: &[(&str, &str)],
        name: &str,
        bytes: Vec<u8>,
    ) -> Resp {
        self.upload_lang(path, token, fields, name, bytes, "en")
            .await
    }

    /// `upload`, read in `lang`.
    pub async fn upload_lang(
        &self,
        path: &str,
        token: &str,
        fields: &[(&str, &str)],
        name: &str,
        bytes: Vec<u8>,
        lang: &str,
    ) -> Resp {
        let mut form = reqwest::multipart::Form::new();
        for (k, v) in fields {
            form = form.text(k.to_string(), v.to_string());
        }
        form = form.part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
        );
        let res = self
            .http
            .post(self.url(&format!("/api{path}")))
            .bearer_auth(token)
            .header("accept-language", lang)
            .multipart(form)
            .send()
            .await
            .unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        Resp {
            status,
            body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
        }
    }

    /// Files in the media store (the scratch workspace is elsewhere).
    pub fn stored_files(&self) -> usize {
        fn walk(p: &std::path::Path) -> usize {
            std::fs::read_dir(p)
                .map(|rd| {
                    rd.flatten()
                        .map(|e| {
                            let path = e.path();
                            if path.is_dir() { walk(&path) } else { 1 }
                        })
                        .sum()
                })
                .unwrap_or(0)
        }
        walk(&self.files.path.join("media"))
    }

    pub fn temp_files(&self) -> usize {
        std::fs::read_dir(self.state.storage.workspace().root().join("tmp"))
            .map(|rd| rd.count())
            .unwrap_or(0)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Fetches a file link (e.g. a material's or a finished video's `src`) into a new temp file.
    pub async fn download(&self, path: &str, ext: &str) -> std::path::PathBuf {
        let bytes = self
            .http
            .get(self.url(path))
            .send()
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let to = std::env::temp_dir().join(format!("cm-dl-{}.{ext}", store::random_token(8)));
        std::fs::write(&to, &bytes).unwrap();
        to
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        lang: &str,
    ) -> Resp {
        let url = self.url(&format!("/api{path}"));
        let mut req = match method {
            "GET" => self.http.get(&url),
            _ => self.http.post(&url),
        };
        req = req.header("accept-language", lang);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = if method == "GET" {
                let pairs: Vec<(String, String)> = b
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| {
                        (
                            k.clone(),
                            v.as_str().map(str::to_string).unwrap_or(v.to_string()),
                        )
                    })
                    .collect();
                req.query(&pairs)
            } else {
                req.json(&b)
            };
        }
        let res = req.send().await.unwrap();
        let status = res.status().as_u16();
        let text = res.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Resp { status, body }
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Resp {
        self.call("POST", path, token, Some(body), "zh-cn").await
    }
    pub async fn post_en(&self, path: &str, token: Option<&str>, body: Value) -> Resp {
        self.call("POST", path, token, Some(body), "en").await
    }
    pub async fn get(&self, path: &str, token: Option<&str>) -> Resp {
        self.call("GET", path, token, None, "zh-cn").await
    }
    pub async fn get_q(&self, path: &str, token: Option<&str>, q: Value) -> Resp {
        self.call("GET", path, token, Some(q), "zh-cn").await
    }

    /// Signs in and returns the token.
    pub async fn login(&self, login_type: i64, username: &str, password: &str) -> String {
        let r = self
            .post("/login/auth", None, json!({"login_type": login_type, "username": username, "password": password, "agree": true}))
            .await;
        r.ok()["token"].as_str().unwrap().to_string()
    }
    pub async fn demo(&self) -> String {
        self.login(1, "demo", DEMO_PW).await
    }
    pub async fn demo_or(&self, password: &str) -> String {
        self.login(1, "demo", password).await
    }
    pub async fn admin(&self) -> String {
        self.login(1, "admin", ADMIN_PW).await
    }

    /// The newest SMS code sent to a phone, read from the sandbox outbox like a tester would.
    pub async fn sms_code(&self, mobile: &str) -> String {
        let rows: Value = self
            .http
            .get(self.url("/sandbox/sms.json"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        rows.as_array()
            .unwrap()
            .iter()
            .find(|r| r["mobile"] == mobile)
            .map(|r| r["code"].as_str().unwrap().to_string())
            .expect("a code in the outbox")
    }

    /// Lets the 60 s resend window pass without waiting (moves the last code back in time).
    pub async fn age_sms(&self, mobile: &str) {
        sqlx::query("UPDATE sms_codes SET created_at = created_at - 61000 WHERE mobile = $1")
            .bind(mobile)
            .execute(&self.db.pool)
            .await
            .unwrap();
    }

    /// A second merchant with its own owner, for isolation tests. Returns its owner's token.
    pub async fn second_merchant(&self, admin: &str, username: &str) -> String {
        self.post("/system/merchant/add", Some(admin), json!({"name": format!("{username} shop"), "username": username, "password": "Other12345"}))
            .await
            .ok();
        self.login(1, username, "Other12345").await
    }

    pub async fn menu_id(&self, token: &str, path: &str) -> i64 {
        fn find(nodes: &Value, path: &str) -> Option<i64> {
            nodes.as_array()?.iter().find_map(|n| {
                if n["path"] == path {
                    n["id"].as_i64()
                } else {
                    find(&n["children"], path)
                }
            })
        }
        let menu = self.get("/ajax/initAdmin", Some(token)).await;
        find(&menu.ok()["menu"], path).expect("menu present")
    }
}

/// For `TestApp::spawn_with`: speech synthesis through a cloud engine configured at a port nobody
/// listens on (a provider that is configured but unreachable).
pub fn unreachable_cloud_tts(s: &mut api::AppState) {
    let mut ai = services::ai::Ai::built_in(&s.settings.data_dir.join("tts"));
    ai.set_nls(
        platforms::voice::NlsConfig {
            gateway_url: "http://127.0.0.1:9".into(),
            meta_url: "http://127.0.0.1:9".into(),
            app_key: "key".into(),
            access_key_id: "id".into(),
            access_key_secret: "secret".into(),
        },
        s.db.clock.clone(),
    );
    s.ai = std::sync::Arc::new(ai);
}

/// For `TestApp::spawn_with`: speech synthesis through Aliyun NLS as the sandbox plays it, with the
/// sandbox's AccessKey pair (`secret` overrides its secret).
pub fn sandbox_nls(s: &mut api::AppState, secret: Option<&str>) {
    use platforms::sandbox::nls::{SANDBOX_NLS_APPKEY, SANDBOX_NLS_KEY_ID};
    let mut ai = services::ai::Ai::built_in(&s.settings.data_dir.join("tts"));
    let base = s.settings.platform_base.clone();
    ai.set_nls(
        platforms::voice::NlsConfig {
            gateway_url: format!("{base}/nls"),
            meta_url: format!("{base}/nls/meta"),
            app_key: SANDBOX_NLS_APPKEY.into(),
            access_key_id: SANDBOX_NLS_KEY_ID.into(),
            access_key_secret: secret
                .map(str::to_string)
                .unwrap_or_else(|| platforms::sandbox::nls_secret(SANDBOX_TOKEN)),
        },
        s.db.clock.clone(),
    );
    s.ai = std::sync::Arc::new(ai);
}

/// An H.264 + AAC MP4 from a lavfi video source and a sine tone, `secs` long; `extra` goes before the
/// output (e.g. `-pix_fmt`).
pub fn lavfi_video(src: &str, tone_hz: u32, secs: &str, extra: &[&str]) -> Vec<u8> {
    let tone = format!("sine=f={tone_hz}");
    let mut a = vec![
        "-f",
        "lavfi",
        "-i",
        src,
        "-f",
        "lavfi",
        "-i",
        &tone,
        "-t",
        secs,
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-c:a",
        "aac",
    ];
    a.extend_from_slice(extra);
    ffmpeg_bytes(&a, "mp4")
}

/// A solid-colour 720x1280 clip with a tone, `secs` long (a shot for mixing tests).
pub fn clip(colour: &str, secs: &str) -> Vec<u8> {
    lavfi_video(&format!("color=c={colour}:s=720x1280:r=30"), 330, secs, &[])
}

/// A new shot group of the caller's; its id.
pub async fn group(app: &TestApp, t: &str, name: &str) -> i64 {
    app.post(
        "/media.merchant_much_resource/resource_group_add",
        Some(t),
        serde_json::json!({ "name": name }),
    )
    .await
    .ok()["id"]
        .as_i64()
        .unwrap()
}

/// Shot groups named as given, each with solid-colour clips `secs` long (one per colour), waited for
/// until every clip is ready. Returns the group ids and the clip ids, in order.
pub async fn shot_groups(
    app: &TestApp,
    t: &str,
    groups: &[(&str, &[&str])],
    secs: &str,
) -> (Vec<i64>, Vec<i64>) {
    let files = groups
        .iter()
        .map(|(name, colours)| {
            let clips = colours
                .iter()
                .map(|c| (format!("{c}.mp4"), clip(c, secs)))
                .collect();
            (*name, clips)
        })
        .collect();
    groups_of_files(app, t, files).await
}

/// Shot groups named as given, each with the clips given (file name, bytes), waited for until every
/// clip is ready. Returns the group ids and the clip ids, in order.
pub async fn groups_of_files(
    app: &TestApp,
    t: &str,
    groups: Vec<(&str, Vec<(String, Vec<u8>)>)>,
) -> (Vec<i64>, Vec<i64>) {
    let mut ids = vec![];
    let mut clips = vec![];
    for (name, files) in groups {
        let gid = group(app, t, name).await;
        for (file, bytes) in files {
            let r = app
                .upload(
                    "/media.merchant_much_resource/add_resource",
                    t,
                    &[("group_id", &gid.to_string())],
                    &file,
                    bytes,
                )
                .await;
            clips.push(r.ok()["id"].as_i64().unwrap());
        }
        ids.push(gid);
    }
    app.wait_ready(t, &clips).await;
    (ids, clips)
}

/// A quick-mix project of the caller's over `groups` (default settings otherwise); its id.
pub async fn plain_project(app: &TestApp, t: &str, name: &str, groups: &[i64]) -> i64 {
    let cfg = serde_json::json!({
        "groups": groups.iter().map(|g| serde_json::json!({"group_id": g})).collect::<Vec<_>>()
    });
    app.post(
        "/clip.merchant_much_clip/add",
        Some(t),
        serde_json::json!({"name": name, "config": cfg}),
    )
    .await
    .ok()["id"]
        .as_i64()
        .unwrap()
}

/// Waits until a project has at least `n` variants and none is still rendering.
pub async fn wait_variants(app: &TestApp, t: &str, project: i64, n: usize) -> Vec<Value> {
    for _ in 0..1800 {
        let r = app
            .get_q(
                "/clip.merchant_video_library/video_index",
                Some(t),
                json!({"project_id": project.to_string(), "limit": "100"}),
            )
            .await;
        let rows = r.ok()["rows"].as_array().unwrap().clone();
        if rows.len() >= n && rows.iter().all(|v| v["state"] != "processing") {
            return rows;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("variants did not finish");
}

/// Reads the caller's event stream (`/api/events`) until an `event` row of record `id` has one of the
/// `states`; answers every row of `id` seen, in order. Panics after `secs` (the rows seen in the message).
pub async fn sse_rows_until(
    app: &TestApp,
    t: &str,
    event: &str,
    id: i64,
    states: &[&str],
    secs: u64,
) -> Vec<Value> {
    let mut res = app
        .http
        .get(app.url("/api/events"))
        .bearer_auth(t)
        .send()
        .await
        .unwrap();
    let mut text = String::new();
    let mut seen = vec![];
    let name = format!("event: {event}\n");
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
    while tokio::time::Instant::now() < deadline {
        let Ok(Ok(Some(chunk))) =
            tokio::time::timeout(std::time::Duration::from_secs(60), res.chunk()).await
        else {
            break;
        };
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let ev: String = text.drain(..end + 2).collect();
            if !ev.contains(&name) {
                continue;
            }
            let data = ev
                .lines()
                .find_map(|l| l.strip_prefix("data:"))
                .unwrap_or("[]")
                .trim()
                .to_string();
            let rows: Vec<Value> = serde_json::from_str(&data).unwrap_or_default();
            for r in rows.into_iter().filter(|r| r["id"] == id) {
                let done = states.iter().any(|s| r["state"] == *s);
                seen.push(r);
                if done {
                    return seen;
                }
            }
        }
    }
    panic!("no {event} event with a state of {states:?} for #{id}: saw {seen:?}");
}

/// One text field of every row of a list answer (`data.rows[*][key]`).
pub fn column(d: &Value, key: &str) -> Vec<String> {
    d["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[key].as_str().unwrap().to_string())
        .collect()
}

// ---- the platform clock (matrix and reports stories; account helpers are in `publish`) ----

/// Pins the platform clock to the next `hh:mm` China time, so a test runs at the hour it names
/// whatever the wall clock says (the clock only moves forward).
pub fn at_china_time(app: &TestApp, hh: u32, mm: u32) {
    use domain::matrix::{at, day_of};
    let now = app.db.clock.platform_now();
    let mut t = at(day_of(now), hh * 60 + mm);
    if t <= now {
        t = at(day_of(now) + 1, hh * 60 + mm);
    }
    app.db.clock.advance_to(t);
}

/// The demo merchant's id.
pub async fn demo_merchant(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT merchant_id FROM users WHERE username = 'demo'")
        .fetch_one(&app.db.pool)
        .await
        .unwrap()
}

/// The merchant's points balance, as the dashboard shows it.
pub async fn points(app: &TestApp, t: &str) -> i64 {
    app.get("/index/dashboard", Some(t)).await.ok()["points"]
        .as_i64()
        .unwrap()
}

/// Runs the newest job of `kind` again, as after a worker died between its last write and closing the
/// job (its lease lapsed; the run counts as an attempt, often the last), and waits until it is done.
pub async fn rerun_job(app: &TestApp, kind: &str) {
    let (id, attempts): (i64, i64) =
        sqlx::query_as("SELECT id, attempts FROM jobs WHERE kind = $1 ORDER BY id DESC LIMIT 1")
            .bind(kind)
            .fetch_one(&app.db.pool)
            .await
            .unwrap();
    sqlx::query(
        "UPDATE jobs SET state = 'queued', run_at = 0, lease_owner = NULL, finished_at = NULL WHERE id = $1",
    )
    .bind(id)
    .execute(&app.db.pool)
    .await
    .unwrap();
    for _ in 0..1200 {
        let (state, n): (String, i64) =
            sqlx::query_as("SELECT state, attempts FROM jobs WHERE id = $1")
                .bind(id)
                .fetch_one(&app.db.pool)
                .await
                .unwrap();
        if state == "done" && n > attempts {
            return;
        }
        assert!(state != "dead", "job {id} ({kind}) died when run again");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("job {id} ({kind}) did not run again");
}

/// The operator configures the sandbox's LLM as the AI provider (model `sbx-chat`); `timeout_ms`
/// (0: the default) is the hidden setting a test shortens so a held answer times out quickly.
pub async fn use_sandbox_llm(app: &TestApp, admin: &str, timeout_ms: u64) {
    let r = app
        .post(
            "/system/ai_provider/save",
            Some(admin),
            json!({"base_url": app.url("/sandbox/llm/v1"), "model": "sbx-chat",
                   "api_key": platforms::sandbox::llm::SANDBOX_LLM_KEY,
                   "timeout_s": timeout_ms.div_ceil(1000)}),
        )
        .await;
    assert_eq!(r.ok()["configured"], true);
}

/// Sets a fault of the sandbox's LLM for the next `times` requests (`timeout` holds 3 s).
pub async fn llm_fault(app: &TestApp, fault: &str, times: u32) {
    publish::sandbox(
        app,
        "llm",
        Some(json!({"fault": fault, "times": times, "hold_ms": 3000})),
    )
    .await;
}

/// The sandbox LLM's answers, newest first: (task, content).
pub async fn llm_answers(app: &TestApp) -> Vec<(String, String)> {
    let v = publish::sandbox(app, "llm", None).await;
    v["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["task"].as_str().unwrap().to_string(),
                a["content"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The lines of an LLM answer as the writer reads them (numbering stripped).
pub fn answer_lines(content: &str) -> Vec<String> {
    content
        .lines()
        .map(services::writer::strip_number)
        .filter(|l| !l.is_empty())
        .collect()
}

/// The `AIGC` field of an MP4/M4A as ffprobe reads it, parsed.
pub async fn aigc_meta(path: &std::path::Path) -> Option<Value> {
    let raw = media::aigc::mp4_tag(path).await?;
    Some(serde_json::from_str(&raw).unwrap())
}

/// The share of the label's corner (x 40..400, y 270..430 of the picture scaled to 1080x1920) that
/// differs from the corner's median grey by more than 40 levels, at `t` s: ~0 on a solid-colour clip,
/// several percent where the label is drawn.
pub fn label_corner(path: &std::path::Path, t: f64) -> f64 {
    let out = std::process::Command::new("ffmpeg")
        .args(["-v", "error", "-ss", &format!("{t:.3}"), "-i"])
        .arg(path)
        .args([
            "-frames:v",
            "1",
            "-vf",
            "scale=1080:1920,crop=360:160:40:270,format=gray",
            "-f",
            "rawvideo",
            "-",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut sorted = out.stdout.clone();
    sorted.sort_unstable();
    let median = sorted[sorted.len() / 2] as i32;
    out.stdout
        .iter()
        .filter(|&&p| (p as i32 - median).abs() > 40)
        .count() as f64
        / out.stdout.len() as f64
}
