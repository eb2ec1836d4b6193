//! An S3-compatible server for tests: moto in server mode (PyPI `moto[server]`, installed by
//! `scripts/install-deps.sh test` into `<data>/moto`), started on a free loopback port and stopped when
//! the value drops. Shared by the media storage suite and the app's multi-node test
//! (`#[path]`-included there).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Moto {
    child: Child,
    pub port: u16,
    pub endpoint: String,
}

/// The moto_server to run: CLIPMATRIX_MOTO_SERVER, else `<data>/moto/bin/moto_server` (the data folder
/// of CLIPMATRIX_DATA_DIR or the repository's `data/`), else one on the PATH.
pub fn binary() -> PathBuf {
    if let Some(p) = std::env::var_os("CLIPMATRIX_MOTO_SERVER") {
        return p.into();
    }
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data = std::env::var_os("CLIPMATRIX_DATA_DIR")
        .map(PathBuf::from)
        .map(|d| if d.is_absolute() { d } else { repo.join(d) })
        .unwrap_or_else(|| repo.join("data"));
    let venv = data.join("moto/bin/moto_server");
    if venv.exists() {
        return venv;
    }
    let on_path = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("moto_server"))
            .find(|f| f.exists())
    });
    on_path.unwrap_or_else(|| {
        panic!(
            "moto_server (the S3 server of the storage tests) is not installed: run \
             `scripts/install-deps.sh test` (it installs it into {}), or set CLIPMATRIX_MOTO_SERVER",
            venv.display()
        )
    })
}

impl Moto {
    /// Starts moto and waits until it answers (bounded).
    pub fn start() -> Moto {
        Self::start_with(&[])
    }

    pub fn start_with(env: &[(&str, &str)]) -> Moto {
        let bin = binary();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut cmd = Command::new(&bin);
        cmd.args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = cmd.spawn().unwrap_or_else(|e| {
            panic!(
                "starting {}: {e} (run `scripts/install-deps.sh test`)",
                bin.display()
            )
        });
        let mut m = Moto {
            child,
            port,
            endpoint: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            if let Ok(Some(st)) = m.child.try_wait() {
                panic!("moto_server exited at start ({st}): is port {port} taken?");
            }
            assert!(
                Instant::now() < deadline,
                "moto_server did not answer within 60 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        m
    }

    /// Creates a bucket (moto takes unsigned requests until auth is switched on).
    pub async fn bucket(&self, name: &str) {
        let r = reqwest::Client::new()
            .put(format!("{}/{name}", self.endpoint))
            .send()
            .await
            .unwrap();
        assert!(
            r.status().is_success(),
            "creating bucket {name}: {}",
            r.status()
        );
    }

    /// An IAM user allowed everything, its key and secret; then authentication is switched on, so
    /// from here on moto refuses unknown keys and bad signatures like S3 does.
    pub async fn enforce_auth(&self) -> (String, String) {
        let c = reqwest::Client::new();
        // Before auth is on, only the service named in the credential scope matters.
        let iam = |form: Vec<(&'static str, String)>| {
            let c = c.clone();
            let url = format!("{}/", self.endpoint);
            async move {
                let r = c
                    .post(url)
                    .header(
                        "Authorization",
                        "AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=00",
                    )
                    .form(&[vec![("Version", "2010-05-08".to_string())], form].concat())
                    .send()
                    .await
                    .unwrap();
                let ok = r.status().is_success();
                let text = r.text().await.unwrap();
                assert!(ok, "moto IAM call failed: {text}");
                text
            }
        };
        iam(vec![
            ("Action", "CreateUser".into()),
            ("UserName", "cm".into()),
        ])
        .await;
        let policy = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#;
        iam(vec![
            ("Action", "PutUserPolicy".into()),
            ("UserName", "cm".into()),
            ("PolicyName", "all".into()),
            ("PolicyDocument", policy.into()),
        ])
        .await;
        let xml = iam(vec![
            ("Action", "CreateAccessKey".into()),
            ("UserName", "cm".into()),
        ])
        .await;
        let tag = |t: &str| {
            let a = xml.find(&format!("<{t}>")).unwrap() + t.len() + 2;
            let b = xml[a..].find(&format!("</{t}>")).unwrap() + a;
            xml[a..b].to_string()
        };
        let creds = (tag("AccessKeyId"), tag("SecretAccessKey"));
        let r = c
            .post(format!("{}/moto-api/reset-auth", self.endpoint))
            .body("0")
            .send()
            .await
            .unwrap();
        assert!(
            r.status().is_success(),
            "switching moto auth on: {}",
            r.status()
        );
        creds
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
