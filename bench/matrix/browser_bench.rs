//! Creator-console publishing in real chromium (issue: Real platforms I). Prints DESIGN.md §9 lines:
//!   bench: browser_publish_seconds_single <s> s     — one post alone on one account (baseline, same run)
//!   bench: browser_publish_seconds_per_post <s> s   — 20 posts over 10 accounts, wall time / 20, at
//!                                                     most 3 browsers at once (the pool's default)
//!   bench: browser_pool_speedup <ratio> x           — the single post against the pooled per-post time
//!   bench: browser_peak_rss_mb <n> MB               — the sidecar's and its browsers' resident memory,
//!                                                     each shared page once: the sum of their PSS (a page
//!                                                     shared by n processes counts 1/n in each; nearly all
//!                                                     of chromium's sharers are these browsers)
//!   bench: browser_peak_rss_sum_mb <n> MB           — the sum of their RSS: every shared page (the
//!                                                     chromium binary, zygote-forked memory) counted once per
//!                                                     process (~8 per browser), an upper bound
//!   bench: browser_peak_browsers <n>
//! Each post is the XHS flow against the sandbox's console: open the publish page, upload a 2 MB file
//! through the page's file input and wait for its progress, type title and body at the product's
//! human pace, topics, declaration, publish, then find it in the works list; every login state is
//! written back to a profile store after each flow, as the database store does in the product.
//! Usage: cargo run --release -p platforms --example browser_bench   (needs chromium and
//! playwright-core: scripts/install-deps.sh test)

use platforms::browser::{
    BrowserAdapter, Driver, DriverConfig, MemoryProfiles, XhsFlow, driver::browsers_of,
    driver::proc_stat,
};
use platforms::sandbox::{self, Config};
use platforms::{Adapter, Creds, Declaration, PublishReq, SessionState};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

const TOKEN: &str = "sbx-bench-token";
const ACCOUNTS: usize = 10;
const POSTS: usize = 20;
const MAX_BROWSERS: usize = 3;

fn node_modules() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data = std::env::var("CLIPMATRIX_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root.join("data"));
    [
        data.join("browser/node_modules"),
        root.join("scripts/browser/node_modules"),
        root.join("e2e/node_modules"),
    ]
    .into_iter()
    .find(|p| p.join("playwright-core").exists())
    .expect("playwright-core is not installed: run scripts/install-deps.sh bench")
}

/// (RSS, PSS) in KiB of every process in one of `groups`.
fn memory_of(groups: &HashSet<u32>) -> (u64, u64) {
    let (mut rss, mut pss) = (0, 0);
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return (0, 0);
    };
    for e in rd.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let Some(pgid) = proc_stat(pid, 2).and_then(|g| g.parse::<u32>().ok()) else {
            continue;
        };
        if !groups.contains(&pgid) {
            continue;
        }
        let field = |file: &str, name: &str| -> u64 {
            std::fs::read_to_string(e.path().join(file))
                .ok()
                .and_then(|s| {
                    s.lines()
                        .find(|l| l.starts_with(name))?
                        .split_whitespace()
                        .nth(1)?
                        .parse()
                        .ok()
                })
                .unwrap_or(0)
        };
        rss += field("status", "VmRSS:");
        pss += field("smaps_rollup", "Pss:");
    }
    (rss, pss)
}

struct Peak {
    rss_kb: AtomicU64,
    pss_kb: AtomicU64,
    stop: AtomicBool,
}

/// Samples the sidecar's and the browsers' memory every 100 ms until stopped.
fn sample(
    profiles: PathBuf,
    sidecar: Arc<AtomicU64>,
    peak: Arc<Peak>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        while !peak.stop.load(Ordering::SeqCst) {
            let mut groups: HashSet<u32> =
                browsers_of(&profiles).into_iter().map(|(_, g)| g).collect();
            let side = sidecar.load(Ordering::SeqCst) as u32;
            if side > 0 {
                groups.insert(side);
            }
            let (rss, pss) = memory_of(&groups);
            peak.rss_kb.fetch_max(rss, Ordering::SeqCst);
            peak.pss_kb.fetch_max(pss, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(100));
        }
    })
}

fn req(title: String, video: &Path) -> PublishReq {
    PublishReq {
        video_path: video.to_path_buf(),
        title,
        description: "周末去了一家新开的火锅店，锅底很香，服务也周到".into(),
        topics: vec!["美食".into(), "探店".into()],
        declaration: Declaration::Original,
        ..PublishReq::default()
    }
}

async fn login(ad: &BrowserAdapter, http: &reqwest::Client, control: &str, user: &str) -> Creds {
    let qr = ad.start_qr_login().await.expect("login page");
    let r = http
        .post(format!("{control}/scan"))
        .json(&serde_json::json!({"user": user}))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match ad.poll_qr_login(&qr.login_id, None).await.unwrap() {
            SessionState::LoggedIn { session } => {
                return Creds {
                    open_id: session.open_id,
                    token: session.access_token,
                    ..Default::default()
                };
            }
            SessionState::QrPending => {}
            other => panic!("{user}: {other:?}"),
        }
        assert!(Instant::now() < deadline, "{user} did not log in");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    // The sandbox consoles on loopback.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/sandbox", listener.local_addr().unwrap());
    let clock = domain::clock::Clock::new();
    clock.set_app_follows(true);
    let cfg = Config {
        public_base: base.clone(),
        token: TOKEN.into(),
        clock: clock.clone(),
        ..Config::default()
    };
    let app = axum::Router::new().nest("/sandbox", sandbox::router(cfg));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let mut auth = reqwest::header::HeaderMap::new();
    auth.insert(sandbox::access::TOKEN_HEADER, TOKEN.parse().unwrap());
    let http = reqwest::Client::builder()
        .default_headers(auth)
        .build()
        .unwrap();
    let control = format!("{base}/_control/console/xhs");

    // The driver as a worker runs it: the pool's default limit, the product's human pace.
    let dir = std::env::temp_dir().join(format!("cm-browser-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let _ = std::os::unix::fs::symlink(node_modules(), dir.join("node_modules"));
    let defaults = DriverConfig::for_data_dir(&dir);
    let driver = Driver::new(DriverConfig {
        script_dir: dir.clone(),
        profiles_dir: dir.join("profiles"),
        max_browsers: MAX_BROWSERS,
        ..defaults
    });
    driver.check().expect("chromium and playwright-core");
    let human_ms = driver.config().human_delay_ms;
    let flow = Arc::new(XhsFlow::new(format!("{base}/console/xhs"), clock.clone()));
    let ad = Arc::new(
        BrowserAdapter::new(flow, driver.clone(), clock.clone())
            .with_profiles(Arc::new(MemoryProfiles::default())),
    );
    let video = dir.join("post.mp4");
    std::fs::write(
        &video,
        (0..2 * 1024 * 1024)
            .map(|i| (i * 31 % 251) as u8)
            .collect::<Vec<u8>>(),
    )
    .unwrap();

    let mut accounts = Vec::new();
    for i in 0..ACCOUNTS {
        accounts.push(login(&ad, &http, &control, &format!("bench_{i}")).await);
    }

    let sidecar = Arc::new(AtomicU64::new(
        driver.sidecar_pid().await.unwrap_or(0) as u64
    ));
    let peak = Arc::new(Peak {
        rss_kb: AtomicU64::new(0),
        pss_kb: AtomicU64::new(0),
        stop: AtomicBool::new(false),
    });
    let sampler = sample(dir.join("profiles"), sidecar.clone(), peak.clone());

    // Baseline: one post alone.
    let t = Instant::now();
    ad.create(&accounts[0], "", &req("单条基准".into(), &video))
        .await
        .expect("single post");
    let single = t.elapsed().as_secs_f64();

    // 20 posts over 10 accounts, all queued at once; the pool lets 3 browsers run.
    let t = Instant::now();
    let mut set = tokio::task::JoinSet::new();
    for i in 0..POSTS {
        let (ad, creds, video) = (ad.clone(), accounts[i % ACCOUNTS].clone(), video.clone());
        set.spawn(async move {
            ad.create(&creds, "", &req(format!("批量发布第{i}条"), &video))
                .await
        });
    }
    let mut failed = 0;
    while let Some(r) = set.join_next().await {
        if let Err(e) = r.unwrap() {
            eprintln!("post failed: {e:?}");
            failed += 1;
        }
    }
    let per_post = t.elapsed().as_secs_f64() / POSTS as f64;
    peak.stop.store(true, Ordering::SeqCst);
    sampler.join().unwrap();
    driver.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(failed, 0, "every post published and verified");

    eprintln!(
        "(human pace {human_ms} ms, {ACCOUNTS} accounts, {POSTS} posts, pool {MAX_BROWSERS})"
    );
    println!("bench: browser_publish_seconds_single {single:.2} s");
    println!("bench: browser_publish_seconds_per_post {per_post:.2} s");
    println!("bench: browser_pool_speedup {:.2} x", single / per_post);
    // Resident memory with each shared page once (the sum of PSS), then every process's RSS summed.
    println!(
        "bench: browser_peak_rss_mb {} MB",
        peak.pss_kb.load(Ordering::SeqCst) / 1024
    );
    println!(
        "bench: browser_peak_rss_sum_mb {} MB",
        peak.rss_kb.load(Ordering::SeqCst) / 1024
    );
    println!("bench: browser_peak_browsers {}", driver.peak_browsers());
}
