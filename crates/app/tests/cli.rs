//! The real binary: migrate, admin subcommands, serve with the first-run accounts, graceful shutdown.

use std::process::{Command, Stdio};
use std::time::Duration;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_clipmatrix"))
}

#[tokio::test]
async fn migrate_admin_serve_and_shut_down_gracefully() {
    let dir = std::env::temp_dir().join(format!("clipmatrix-cli-{}", store::random_token(6)));
    let data = dir.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = bin()
            .args(args)
            .env("CLIPMATRIX_DATA_DIR", data)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, out) = run(&["migrate"]);
    assert!(ok, "{out}");
    assert!(dir.join("clipmatrix.db").exists());
    let (ok, out) = run(&[
        "admin",
        "create-merchant",
        "--username",
        "cli_shop",
        "--password",
        "weak",
    ]);
    assert!(!ok && out.contains("8+ characters"), "{out}");
    let (ok, out) = run(&[
        "admin",
        "create-merchant",
        "--username",
        "cli_shop",
        "--password",
        "Shop12345",
        "--name",
        "CLI Shop",
    ]);
    assert!(ok, "{out}");
    let (ok, out) = run(&[
        "admin",
        "create-merchant",
        "--username",
        "cli_shop",
        "--password",
        "Shop12345",
    ]);
    assert!(!ok && out.contains("exists"), "{out}");
    let (ok, out) = run(&[
        "admin",
        "reset-password",
        "--username",
        "cli_shop",
        "--password",
        "Shop54321",
    ]);
    assert!(ok, "{out}");
    let (ok, _) = run(&[
        "admin",
        "reset-password",
        "--username",
        "nobody",
        "--password",
        "Shop54321",
    ]);
    assert!(!ok);

    // Users exist already, so serve creates no first-run accounts here; a fresh folder would.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut child = bin()
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("CLIPMATRIX_DATA_DIR", data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let http = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{port}");
    let mut up = false;
    for _ in 0..200 {
        if http
            .get(format!("{base}/healthz"))
            .send()
            .await
            .is_ok_and(|r| r.status() == 200)
        {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(up, "server did not come up");
    let r: serde_json::Value = http
        .post(format!("{base}/api/login/auth"))
        .json(&serde_json::json!({"login_type":1,"username":"cli_shop","password":"Shop54321","agree":true}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(r["data"]["user"]["merchant_name"], "CLI Shop", "{r}");
    // SIGTERM: finishes and exits cleanly.
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let mut status = None;
    for _ in 0..100 {
        if let Some(s) = child.try_wait().unwrap() {
            status = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = status.expect("serve did not stop on SIGTERM");
    assert!(status.success(), "{status:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn first_start_creates_admin_and_demo_and_prints_them() {
    let dir = std::env::temp_dir().join(format!("clipmatrix-cli-{}", store::random_token(6)));
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut child = bin()
        .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
        .env("CLIPMATRIX_DATA_DIR", &dir)
        .env("CLIPMATRIX_DEMO_PASSWORD", testkit::DEMO_PW)
        .env_remove("CLIPMATRIX_ADMIN_PASSWORD")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let lines = tokio::task::spawn_blocking(move || {
        use std::io::BufRead;
        std::io::BufReader::new(stdout)
            .lines()
            .take(6)
            .map(|l| l.unwrap())
            .collect::<Vec<_>>()
    })
    .await
    .unwrap();
    let text = lines.join("\n");
    assert!(text.contains(&format!("http://127.0.0.1:{port}")), "{text}");
    assert!(
        text.contains(&format!("demo  / {}", testkit::DEMO_PW)),
        "{text}"
    );
    // The sandbox's controls open with the install's token, printed at start (no warning on loopback).
    assert!(
        text.contains("sandbox token ") && !text.contains("DEMO MODE"),
        "{text}"
    );
    let admin_pw = lines
        .iter()
        .find(|l| l.contains("admin /"))
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    let http = reqwest::Client::new();
    let r: serde_json::Value = http
        .post(format!("http://127.0.0.1:{port}/api/login/auth"))
        .json(&serde_json::json!({"login_type":1,"username":"admin","password":admin_pw,"agree":true}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        r["data"]["user"]["role"],
        serde_json::json!(["Administrator"]),
        "{r}"
    );
    child.kill().unwrap();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
