//! Nodes as real processes on loopback: PostgreSQL-backed API nodes (`serve --no-workers`)
//! and `worker` nodes sharing a database and an S3 bucket, a standalone sandbox, and a small client.
//! Used by the multi-node test and `bench/scale` (`#[path]`-included there, so it names nothing of
//! `common` and only the app's dev-dependencies).
#![allow(dead_code)]

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use store::Db;

pub use testkit::{ADMIN_PW, DEMO_PW, fresh_pg_database};
const SECRET: &str = "5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5c0ffee5";

/// A size from the environment, else `default`.
pub fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// What every node shares: the database, the bucket (`s3`: the S3 endpoint; empty: each node keeps
/// media in its own folder, for one node alone), the platform, the sealing key.
pub struct Cluster {
    pub db_url: String,
    pub s3: String,
    pub platform: String,
    pub root: PathBuf,
    /// CLIPMATRIX_JOB_LEASE_MS of the nodes (None: the default 30 s).
    pub lease_ms: Option<u64>,
}

impl Cluster {
    pub fn node(&self, args: &[&str], data: &Path, clock_days: i64) -> Proc {
        std::fs::create_dir_all(data).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_clipmatrix"));
        cmd.args(args)
            .env(
                "CLIPMATRIX_SANDBOX_CLOCK_OFFSET_MS",
                (clock_days * 86_400_000).to_string(),
            )
            .env("CLIPMATRIX_DATA_DIR", data)
            .env("CLIPMATRIX_DATABASE_URL", &self.db_url)
            .env("CLIPMATRIX_SECRET_KEY", SECRET)
            .env("CLIPMATRIX_DEMO_PASSWORD", DEMO_PW)
            .env("CLIPMATRIX_ADMIN_PASSWORD", ADMIN_PW)
            .env("CLIPMATRIX_PLATFORM_BASE", &self.platform)
            .env("CLIPMATRIX_SANDBOX_TOKEN", SANDBOX_TOKEN)
            .env("CLIPMATRIX_SANDBOX_MOVES_APP_CLOCK", "true")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        if !self.s3.is_empty() {
            cmd.env("CLIPMATRIX_STORAGE_URL", "s3://media/cluster")
                .env("CLIPMATRIX_S3_ENDPOINT", &self.s3)
                .env("CLIPMATRIX_S3_ACCESS_KEY_ID", "test")
                .env("CLIPMATRIX_S3_SECRET_ACCESS_KEY", "test");
        }
        if let Some(ms) = self.lease_ms {
            cmd.env("CLIPMATRIX_JOB_LEASE_MS", ms.to_string());
        }
        Proc(cmd.spawn().unwrap())
    }

    /// An API node (`serve --no-workers`) on its folder `name`, once it is ready: it and its base URL.
    pub async fn api(&self, name: &str) -> (Proc, String) {
        self.serve(name, &["--no-workers"]).await
    }

    /// `serve` with `extra` arguments on the folder `name`, once it is ready.
    pub async fn serve(&self, name: &str, extra: &[&str]) -> (Proc, String) {
        let p = free_port();
        let listen = format!("127.0.0.1:{p}");
        let mut args = vec!["serve", "--listen", &listen];
        args.extend_from_slice(extra);
        let child = self.node(&args, &self.root.join(name), 0);
        let base = format!("http://127.0.0.1:{p}");
        wait_up(&format!("{base}/readyz")).await;
        (child, base)
    }

    /// A worker on a folder never used before: nothing of the media is on its disk. Its platform
    /// clock runs two days ahead, so the items planned for tomorrow are due on it.
    pub fn worker(&self, n: usize) -> Proc {
        self.node(&["worker"], &self.root.join(format!("worker-{n}")), 2)
    }
}

/// A node process, killed (SIGKILL) when dropped, so a failing test leaves nothing running.
pub struct Proc(pub Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub struct Api {
    pub http: reqwest::Client,
    pub base: String,
}

impl Api {
    pub async fn call(&self, method: &str, path: &str, token: Option<&str>, body: Value) -> Value {
        let url = format!("{}/api{path}", self.base);
        let mut req = if method == "GET" {
            let q: Vec<(String, String)> = body
                .as_object()
                .map(|o| {
                    o.iter()
                        .map(|(k, v)| {
                            (
                                k.clone(),
                                v.as_str().map(String::from).unwrap_or(v.to_string()),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            self.http.get(url).query(&q)
        } else {
            self.http.post(url).json(&body)
        };
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let v: Value = req.send().await.unwrap().json().await.unwrap();
        assert_eq!(v["code"], 200, "{path}: {v}");
        v["data"].clone()
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> Value {
        self.call("POST", path, Some(token), body).await
    }

    pub async fn get(&self, path: &str, token: &str, q: Value) -> Value {
        self.call("GET", path, Some(token), q).await
    }

    pub async fn login(&self, user: &str, pw: &str) -> String {
        let d = self
            .call(
                "POST",
                "/login/auth",
                None,
                json!({"login_type": 1, "username": user, "password": pw, "agree": true}),
            )
            .await;
        d["token"].as_str().unwrap().to_string()
    }

    /// A project of `n` variants over `groups` (in playing order), generated: its id.
    pub async fn generate(&self, token: &str, groups: &[i64], n: usize) -> i64 {
        let cfg = json!({
            "groups": groups.iter().map(|g| json!({"group_id": g})).collect::<Vec<_>>(),
            "output_count": n,
        });
        let pid = self
            .post(
                "/clip.merchant_much_clip/add",
                token,
                json!({"name": "Scale", "config": cfg}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        let g = self
            .post(
                "/clip.merchant_much_clip/add_video",
                token,
                json!({"id": pid}),
            )
            .await;
        assert_eq!(g["variant_ids"].as_array().unwrap().len(), n);
        pid
    }

    /// Three shot groups `G0`..`G2` of `per_group` solid-colour clips of `secs` each, uploaded (not
    /// yet ingested): the group ids and the clip ids.
    pub async fn shot_groups(
        &self,
        token: &str,
        per_group: usize,
        secs: &str,
    ) -> (Vec<i64>, Vec<i64>) {
        let colours = [
            "red", "orange", "green", "teal", "blue", "purple", "yellow", "white", "gray", "navy",
            "maroon", "olive",
        ];
        let (mut groups, mut clips) = (vec![], vec![]);
        for g in 0..3 {
            let gid = self
                .post(
                    "/media.merchant_much_resource/resource_group_add",
                    token,
                    json!({"name": format!("G{g}")}),
                )
                .await["id"]
                .as_i64()
                .unwrap();
            for k in 0..per_group {
                let c = colours[(g * per_group + k) % colours.len()];
                clips.push(
                    self.upload(token, gid, &format!("{c}{g}{k}.mp4"), clip(c, secs))
                        .await,
                );
            }
            groups.push(gid);
        }
        (groups, clips)
    }

    /// `n` Douyin accounts named `<prefix><i>`, each approved on the sandbox's consent page as a
    /// person does (the page's form, then the app's callback): their ids.
    pub async fn dy_accounts(&self, token: &str, n: usize, prefix: &str) -> Vec<i64> {
        let mut accounts = vec![];
        for i in 0..n {
            let q = self
                .post(
                    "/task.merchant_group_user/get_qrCode",
                    token,
                    json!({"platform": "dy"}),
                )
                .await;
            let url = q["url"].as_str().unwrap();
            let nick = format!("{prefix}{i}");
            accounts.push(
                super::publish::approve_consent(url, Some(&nick))
                    .await
                    .account(),
            );
        }
        accounts
    }

    /// A Douyin task posting `videos` on `accounts`, 3 a day each, tomorrow at 00:00 (the API
    /// nodes' platform clock is the wall clock; a worker's runs two days ahead, so they are due
    /// there), waiting for review: its id.
    pub async fn plan_tomorrow(&self, token: &str, accounts: &[i64], videos: &[i64]) -> i64 {
        let tomorrow =
            domain::matrix::fmt_day(domain::matrix::day_of(domain::now_ms() + 86_400_000));
        let task = self
            .post("/task.merchant_forward_task/dy_add", token, json!({
                "name": "scale", "titles": "一起来打卡#周末好去处", "topics": ["探店"], "top_comments": "",
                "mount_type": "none", "time_mode": "timed", "times": ["00:00"], "start_date": tomorrow, "days": 1,
                "daily_quantity": 3, "account_ids": accounts, "material_ids": videos,
            }))
            .await;
        assert_eq!(task["plan"]["count"], videos.len() as i64);
        task["task"]["id"].as_i64().unwrap()
    }

    pub async fn upload(&self, token: &str, group: i64, name: &str, bytes: Vec<u8>) -> i64 {
        let form = reqwest::multipart::Form::new()
            .text("group_id", group.to_string())
            .part(
                "file",
                reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
            );
        let v: Value = self
            .http
            .post(format!(
                "{}/api/media.merchant_much_resource/add_resource",
                self.base
            ))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(v["code"], 200, "upload: {v}");
        v["data"]["id"].as_i64().unwrap()
    }
}

/// A solid-colour clip with a tone, `secs` long.
pub fn clip(colour: &str, secs: &str) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!(
        "cm-mn-clip-{}-{}",
        std::process::id(),
        store::random_token(6)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("c.mp4");
    let st = Command::new("ffmpeg")
        .args(["-y", "-loglevel", "error", "-f", "lavfi", "-i"])
        .arg(format!("color=c={colour}:s=320x568:r=30"))
        .args([
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=440:sample_rate=48000",
            "-t",
            secs,
        ])
        .args([
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-c:a",
            "aac",
            "-shortest",
        ])
        .arg(&out)
        .status()
        .unwrap();
    assert!(st.success());
    let b = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    b
}

pub async fn count(db: &store::Db, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(&db.pool).await.unwrap()
}

/// A free port on loopback (for servers started as processes).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The stories' sandbox token (CLIPMATRIX_SANDBOX_TOKEN of their servers and standalone sandboxes).
pub const SANDBOX_TOKEN: &str = "story-sandbox-token";

/// The sandbox's BJH app_token for that token (merchants type it into the console).
pub fn bjh_app_token() -> String {
    platforms::sandbox::app_secret(SANDBOX_TOKEN, platforms::Platform::Bjh)
}

/// A client that opens the sandbox's controls and SMS outbox (it sends the sandbox token).
pub fn sandbox_client() -> reqwest::Client {
    let mut h = reqwest::header::HeaderMap::new();
    h.insert(
        platforms::sandbox::access::TOKEN_HEADER,
        reqwest::header::HeaderValue::from_static(SANDBOX_TOKEN),
    );
    reqwest::Client::builder()
        .default_headers(h)
        .build()
        .unwrap()
}

/// Waits (at most 20 s) until `url` answers with a success.
pub async fn wait_up(url: &str) {
    let http = sandbox_client();
    for _ in 0..400 {
        if http
            .get(url)
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{url} did not come up");
}

/// Material `id` and `n - 1` more rows sharing its stored file (named `<name> #i`): their ids, the
/// original first. Many videos to publish without as many uploads.
pub async fn copies_of_material(db: &Db, id: i64, n: usize) -> Vec<i64> {
    let mut ids = vec![id];
    for i in 1..n {
        let copy: i64 = sqlx::query_scalar(
            "INSERT INTO media_files (merchant_id, library, kind, group_id, name, original_name, storage_key, mime, size, width, \
               height, duration_ms, state, created_at, updated_at) SELECT merchant_id, library, kind, group_id, name || $2, \
               original_name, storage_key, mime, size, width, height, duration_ms, state, created_at, updated_at \
             FROM media_files WHERE id = $1 RETURNING id",
        )
        .bind(id)
        .bind(format!(" #{i}"))
        .fetch_one(&db.pool)
        .await
        .unwrap();
        ids.push(copy);
    }
    ids
}

/// `clipmatrix sandbox` as its own process (its counts survive the servers' crashes), reviews held
/// back a year: the child and its base URL (`http://127.0.0.1:<port>/sandbox`), once it answers.
pub async fn standalone_sandbox() -> (std::process::Child, String) {
    let port = free_port();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_clipmatrix"))
        .args([
            "sandbox",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--review-delay-ms",
            "31536000000",
        ])
        .env("CLIPMATRIX_SANDBOX_TOKEN", SANDBOX_TOKEN)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let base = format!("http://127.0.0.1:{port}/sandbox");
    wait_up(&format!("{base}/_control/counts")).await;
    (child, base)
}

/// The sandbox's own counts (`total_creates`: posts created) of the sandbox at `base`.
pub async fn sandbox_counts(base: &str) -> Value {
    sandbox_client()
        .get(format!("{base}/_control/counts"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}
